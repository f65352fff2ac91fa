//! What the subcommands share: the output stream, JSON building, caret
//! rendering, and reading inputs from the arguments or standard input.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::ops::Range;

/// Why a subcommand stopped before the end of its input.
#[derive(Debug)]
pub enum Error {
    /// Reading standard input failed.
    Read(io::Error),
    /// Writing standard output failed (a broken pipe ends the command
    /// quietly).
    Write(io::Error),
    /// An argument that clap accepted but the command cannot use (such as
    /// a `--base` that is not an absolute URL under `--spec`): a usage
    /// error, exit status 2.
    Usage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(err) => write!(f, "reading standard input: {err}"),
            Error::Write(err) => write!(f, "writing standard output: {err}"),
            Error::Usage(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read(err) | Error::Write(err) => Some(err),
            Error::Usage(_) => None,
        }
    }
}

/// Standard output, buffered; flushed after every record when it is a
/// terminal, so that interactive use sees each answer at once, and only
/// when the buffer fills otherwise.
pub struct Output {
    out: BufWriter<io::StdoutLock<'static>>,
    interactive: bool,
}

impl Output {
    /// Locks standard output for the life of the command.
    pub fn stdout() -> Output {
        let stdout = io::stdout();
        let interactive = stdout.is_terminal();
        Output {
            out: BufWriter::with_capacity(64 * 1024, stdout.lock()),
            interactive,
        }
    }

    /// Ends one record (the output for one input): flushes on a terminal.
    #[inline]
    pub fn end_record(&mut self) -> io::Result<()> {
        if self.interactive {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Flushes what is left.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Where records go: a writer that can also be told that one record (the
/// output for one input) is complete. [`Output`] flushes there when it is a
/// terminal; an in-memory buffer (in tests) does nothing.
pub trait RecordWrite: Write {
    /// Ends one record.
    fn end_record(&mut self) -> io::Result<()>;

    /// Whether each record is to be seen as soon as it ends (standard
    /// output is a terminal): a writer that holds records back must hand
    /// them over before [`end_record`](RecordWrite::end_record).
    fn interactive(&self) -> bool {
        false
    }

    /// Starts a block of the output (a document of `urlspec links`
    /// text): a blank line before every block but the `first`. A writer
    /// that does not know what came before (a worker's) leaves the blank
    /// line to the one that does.
    fn begin_block(&mut self, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            self.write_all(b"\n")
        }
    }

    /// Writes `line` to standard error, in its place between the records
    /// (a warning about the record being written).
    fn warn(&mut self, line: &str) {
        let _ = writeln!(io::stderr().lock(), "{line}");
    }
}

impl RecordWrite for Output {
    #[inline]
    fn end_record(&mut self) -> io::Result<()> {
        Output::end_record(self)
    }

    fn interactive(&self) -> bool {
        self.interactive
    }
}

impl RecordWrite for Vec<u8> {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends `text` to `buf` as a JSON string, quoted and escaped exactly as
/// `serde_json` escapes it: `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, and
/// the other C0 controls as `\u00XX` (lower-case hex); everything else
/// as it is.
///
/// Runs that need no escape (all of most URLs) are found eight bytes at a
/// time and copied whole, where `serde_json::to_writer` looks up each byte
/// (BENCHMARKS.md, CLI `parse --json`).
pub fn push_json_string(buf: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    buf.reserve(bytes.len() + 2);
    buf.push(b'"');
    // `bytes[copied..i]` needs no escape and is not in `buf` yet.
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            if !may_need_escape(word) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        if needs_escape(b) {
            buf.extend_from_slice(&bytes[copied..i]);
            push_escape(buf, b);
            copied = i + 1;
        }
        i += 1;
    }
    buf.extend_from_slice(&bytes[copied..]);
    buf.push(b'"');
}

/// Whether a byte of a JSON string is escaped: C0 controls, `"`, `\\`.
#[inline]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of the eight bytes of `word` may need an escape (never
/// `false` when one does).
#[inline]
fn may_need_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20, or equal to `"` or `\\` (a zero after XOR): the
    // high bit of `x - n` is set in a byte that is below n when its own
    // high bit is clear; a borrow only ever comes from such a byte.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x;
    let any = below(word, 0x20)
        | below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1);
    any & HIGH != 0
}

/// Appends the escape of `b`, which [`needs_escape`].
fn push_escape(buf: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x09 => b't',
        0x0a => b'n',
        0x0c => b'f',
        0x0d => b'r',
        _ => {
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            buf.extend_from_slice(b"\\u00");
            buf.extend_from_slice(&hex);
            return;
        }
    };
    buf.extend_from_slice(&[b'\\', short]);
}

/// Appends `key` as a JSON string. The keys are names written in the
/// program (`&'static str`, never input), plain ASCII that needs no
/// escape: they are copied as they are, without a check of each byte
/// (BENCHMARKS.md, CLI `parse --json`). Debug builds, and so the tests of
/// every record, check.
#[inline]
fn push_json_key(buf: &mut Vec<u8>, key: &'static str) {
    debug_assert!(
        key.bytes().all(|b| b.is_ascii_graphic() && !needs_escape(b)),
        "a JSON key that needs escaping: {key:?}"
    );
    buf.reserve(key.len() + 3);
    buf.push(b'"');
    buf.extend_from_slice(key.as_bytes());
    buf.extend_from_slice(b"\":");
}

/// A JSON object being written into a buffer, its keys in the order they
/// are added. [`JsonObject::finish`] closes it.
///
/// ```text
/// let mut buf = Vec::new();
/// let mut o = JsonObject::new(&mut buf);
/// o.string("a", "x").optional("b", None).boolean("c", true);
/// o.finish(); // {"a":"x","b":null,"c":true}
/// ```
pub struct JsonObject<'b> {
    buf: &'b mut Vec<u8>,
    empty: bool,
}

impl<'b> JsonObject<'b> {
    /// Opens an object at the end of `buf`.
    pub fn new(buf: &'b mut Vec<u8>) -> JsonObject<'b> {
        buf.push(b'{');
        JsonObject { buf, empty: true }
    }

    fn key(&mut self, key: &'static str) {
        if !self.empty {
            self.buf.push(b',');
        }
        self.empty = false;
        push_json_key(self.buf, key);
    }

    /// Adds a string member.
    pub fn string(&mut self, key: &'static str, value: &str) -> &mut Self {
        self.key(key);
        push_json_string(self.buf, value);
        self
    }

    /// Adds a string member, `null` for `None`.
    pub fn optional(
        &mut self,
        key: &'static str,
        value: Option<&str>,
    ) -> &mut Self {
        match value {
            Some(value) => self.string(key, value),
            None => self.null(key),
        }
    }

    /// Adds a `null` member.
    pub fn null(&mut self, key: &'static str) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(b"null");
        self
    }

    /// Adds an object member, its members written by `each`.
    pub fn object(
        &mut self,
        key: &'static str,
        each: impl FnOnce(&mut JsonObject<'_>),
    ) -> &mut Self {
        self.key(key);
        let mut object = JsonObject::new(self.buf);
        each(&mut object);
        object.finish();
        self
    }

    /// Adds a boolean member.
    pub fn boolean(&mut self, key: &'static str, value: bool) -> &mut Self {
        self.key(key);
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.buf.extend_from_slice(text);
        self
    }

    /// Adds a number member.
    pub fn number(&mut self, key: &'static str, value: usize) -> &mut Self {
        self.key(key);
        // `usize` formats as plain decimal digits: a valid JSON number.
        self.buf.extend_from_slice(value.to_string().as_bytes());
        self
    }

    /// Adds a number member, `null` for `None`.
    pub fn optional_number(
        &mut self,
        key: &'static str,
        value: Option<usize>,
    ) -> &mut Self {
        match value {
            Some(value) => self.number(key, value),
            None => self.null(key),
        }
    }

    /// Adds an array of strings.
    pub fn strings<S: AsRef<str>>(
        &mut self,
        key: &'static str,
        items: impl IntoIterator<Item = S>,
    ) -> &mut Self {
        self.key(key);
        self.buf.push(b'[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            push_json_string(self.buf, item.as_ref());
        }
        self.buf.push(b']');
        self
    }

    /// Adds an array of objects, one per item, each written by `each`.
    pub fn objects<T>(
        &mut self,
        key: &'static str,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut JsonObject<'_>, T),
    ) -> &mut Self {
        self.key(key);
        self.buf.push(b'[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            let mut object = JsonObject::new(self.buf);
            each(&mut object, item);
            object.finish();
        }
        self.buf.push(b']');
        self
    }

    /// Closes the object.
    pub fn finish(self) {
        self.buf.push(b'}');
    }
}

/// `text` with every character that would disturb a terminal or the
/// alignment of a caret line replaced by one visible character: C0
/// controls and DEL by their Unicode control pictures (a tab by `␉`), C1
/// controls and bidirectional overrides by `�`. Each character maps to
/// exactly one, so character columns are kept.
pub fn visible(text: &str) -> Cow<'_, str> {
    fn replacement(c: char) -> Option<char> {
        match c {
            '\0'..='\x1f' => char::from_u32(0x2400 + u32::from(c)),
            '\x7f' => Some('\u{2421}'),
            '\u{80}'..='\u{9f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => Some('\u{fffd}'),
            _ => None,
        }
    }
    if !text.chars().any(|c| replacement(c).is_some()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| replacement(c).unwrap_or(c)).collect())
}

/// The width on a terminal of `c` as [`visible`] shows it: two columns for
/// a wide character (CJK), none for a combining mark, one otherwise.
fn display_width(c: char) -> usize {
    use unicode_width::UnicodeWidthChar;
    // Controls are shown as one visible character each.
    c.width().unwrap_or(1)
}

/// The terminal column (from 0) at which the character that holds byte
/// `position` of `text` is shown, counting display widths: a wide
/// character takes two columns, a combining mark none (a caret under one
/// goes under the character it combines with). The end of `text` is the
/// column after its last character.
pub fn display_column(text: &str, position: usize) -> usize {
    let mut column = 0;
    // The column of the last character that takes room.
    let mut last = 0;
    for (i, c) in text.char_indices() {
        let width = display_width(c);
        if position < i + c.len_utf8() {
            return if width == 0 { last } else { column };
        }
        if width > 0 {
            last = column;
        }
        column += width;
    }
    column
}

/// How many violations or findings the human output shows with the input
/// and a caret each; the rest are counted (`--json` lists them all), so the
/// output stays linear in the input however many there are.
pub const MAX_SHOWN: usize = 20;

/// The line that counts the violations or findings not shown: `what` is
/// the singular noun.
pub fn more_line(total: usize, what: &str) -> Option<String> {
    (total > MAX_SHOWN).then(|| {
        let more = plural((total - MAX_SHOWN) as u64, &format!("more {what}"));
        format!("  … and {more} (--json lists them all)")
    })
}

/// Carets under the character that holds byte `position` of `text`
/// (printed on the line above, after `indent`): as many as the character
/// is wide (two under a CJK character), at least one.
pub fn caret(indent: &str, text: &str, position: usize) -> String {
    let end = text
        .get(position..)
        .and_then(|rest| rest.chars().next())
        .map_or(position, |c| position + c.len_utf8());
    carets(indent, text, position..end)
}

/// Carets under the bytes `span` of `text` (printed on the line above,
/// after `indent`): spaces up to the display column of its start, then one
/// `^` per column the span takes, at least one. Columns are counted as a
/// terminal shows them ([`display_column`]), so the carets stay under
/// their characters whatever wide characters or combining marks come
/// before.
pub fn carets(indent: &str, text: &str, span: Range<usize>) -> String {
    let column = display_column(text, span.start);
    let end = if span.end > span.start {
        // The column after the span's last character.
        let last = text[..span.end.min(text.len())]
            .char_indices()
            .next_back()
            .filter(|&(i, _)| i >= span.start);
        last.map_or(column, |(i, c)| {
            display_column(text, i) + display_width(c).max(1)
        })
    } else {
        column
    };
    let width = end.saturating_sub(column).max(1);
    let mut line = String::with_capacity(indent.len() + column + width);
    line.push_str(indent);
    line.extend(std::iter::repeat_n(' ', column));
    line.extend(std::iter::repeat_n('^', width));
    line
}

/// `text` padded with spaces to `width` terminal columns (nothing added
/// when it is as wide or wider), counting display widths as [`carets`]
/// does: `format!("{text:<width$}")` counts characters, which misaligns
/// wide ones.
pub fn pad(text: &str, width: usize) -> String {
    let shown = text_width(text);
    let mut padded =
        String::with_capacity(text.len() + width.saturating_sub(shown));
    padded.push_str(text);
    padded.extend(std::iter::repeat_n(' ', width.saturating_sub(shown)));
    padded
}

/// The width of `text` on a terminal, as [`visible`] shows it.
pub fn text_width(text: &str) -> usize {
    text.chars().map(display_width).sum()
}

/// Lines above this size do not keep their buffer for the next line, so
/// one huge line does not hold its memory for the rest of the stream.
const MAX_RETAINED_LINE: usize = 1 << 20;

/// One line of input, without its line ending.
pub struct Line<'a> {
    /// The line number, from 1.
    pub number: u64,
    /// The bytes of the line, a trailing `\r\n` or `\n` removed.
    pub bytes: &'a [u8],
}

/// Reads lines one at a time into one reused buffer: memory stays that of
/// the longest line, whatever the length of the stream.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
}

impl<R: BufRead> LineReader<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader { reader, buf: Vec::with_capacity(256), number: 0 }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.buf.capacity() > MAX_RETAINED_LINE {
            self.buf = Vec::with_capacity(256);
        }
        self.buf.clear();
        if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.number += 1;
        let mut bytes = &self.buf[..];
        if let Some(rest) = bytes.strip_suffix(b"\n") {
            bytes = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        Ok(Some(Line { number: self.number, bytes }))
    }
}

/// How much a [`BlockReader`] asks for at each read, and the size its
/// buffer returns to after a longer line.
const BLOCK: usize = 128 * 1024;

/// Reads input in large blocks and hands out the complete lines of each,
/// so that the lines of a block are split and checked for UTF-8 together
/// rather than one call each. Memory stays bounded: one block, or twice
/// the longest line when that is longer, whatever the length of the
/// stream.
///
/// Each [`next_block`](BlockReader::next_block) makes one read (more only
/// while no line is complete), so lines that arrive one at a time from a
/// terminal or a pipe are answered as they arrive.
pub struct BlockReader<R> {
    reader: R,
    /// `buf[start..end]` is read and not yet handed out: the start of a
    /// line whose end has not been read.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The size the buffer returns to.
    block: usize,
    /// The number of lines handed out.
    number: u64,
    eof: bool,
    search: Search,
}

impl<R: io::Read> BlockReader<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> BlockReader<R> {
        BlockReader::with_block_size(reader, BLOCK)
    }

    /// Reads from `reader` in reads of `block` bytes (at least 1).
    pub fn with_block_size(reader: R, block: usize) -> BlockReader<R> {
        let block = block.max(1);
        BlockReader {
            reader,
            buf: Vec::new(),
            start: 0,
            end: 0,
            block,
            number: 0,
            eof: false,
            search: Search::new(),
        }
    }

    /// The complete lines read next, or `None` at the end of the input.
    /// Every line of the block ends with `\n`, except the last line of
    /// the input when it has none. The lines are counted as they are
    /// handed out: a block is to be read to its end.
    pub fn next_block(&mut self) -> io::Result<Option<BlockLines<'_>>> {
        // Keep the start of an unfinished line, at the front.
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if self.buf.len() > self.block.max(2 * self.end) {
            // A long line is done with: give its memory back.
            self.buf.truncate(self.block.max(self.end));
            self.buf.shrink_to_fit();
        }
        // What is kept holds no line end: search only what is read now.
        let mut searched = self.end;
        let complete = loop {
            if self.eof {
                break self.end;
            }
            if self.buf.len() - self.end < self.block.div_ceil(2) {
                // Room for half a block at least: the buffer doubles
                // while one line fills it.
                let len = (self.end + self.block).max(2 * self.buf.len());
                self.buf.resize(len, 0);
            }
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
            let read = &self.buf[searched..self.end];
            if let Some(i) = memchr::memrchr(b'\n', read) {
                break searched + i + 1;
            }
            searched = self.end;
        };
        if complete == 0 {
            return Ok(None);
        }
        self.start = complete;
        Ok(Some(BlockLines {
            rest: &self.buf[..complete],
            text: "",
            number: &mut self.number,
            search: self.search,
        }))
    }
}

/// The searches for line ends and TABs, made once: on x86-64 with AVX2,
/// `memchr`'s AVX2 searchers called directly, which saves the check for
/// the CPU's features that `memchr::memchr` makes at every call (a good
/// part of the cost on lines of a hundred bytes); elsewhere `memchr`'s
/// functions.
#[derive(Clone, Copy)]
struct Search {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<(
        memchr::arch::x86_64::avx2::memchr::One,
        memchr::arch::x86_64::avx2::memchr::Two,
    )>,
}

impl Search {
    fn new() -> Search {
        #[cfg(target_arch = "x86_64")]
        {
            use memchr::arch::x86_64::avx2::memchr::{One, Two};
            Search { avx2: One::new(b'\n').zip(Two::new(b'\t', b'\n')) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Search {}
    }

    /// The first `\n` of `haystack`.
    #[inline]
    fn newline(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((one, _)) = &self.avx2 {
            return one.find(haystack);
        }
        memchr::memchr(b'\n', haystack)
    }

    /// The first `\t` or `\n` of `haystack`.
    #[inline]
    fn tab_or_newline(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, two)) = &self.avx2 {
            return two.find(haystack);
        }
        memchr::memchr2(b'\t', b'\n', haystack)
    }
}

/// The lines of one block of a [`BlockReader`], each without its line
/// ending (a trailing `\r\n` or `\n`) and with its number, as text or,
/// for a line that is not UTF-8, where its first invalid byte is. The
/// block is checked for UTF-8 in one pass (and again from the line after
/// one that is not).
pub struct BlockLines<'a> {
    /// The lines not handed out yet.
    rest: &'a [u8],
    /// The longest prefix of `rest` known to be UTF-8, when that is known
    /// to reach past the current line; else shorter.
    text: &'a str,
    /// The number of the last line handed out, kept by the reader.
    number: &'a mut u64,
    search: Search,
}

/// A line of a block split at the first TAB: the text before it, and
/// after it (`None` when the line has no TAB).
pub type Split<'a> = (&'a str, Option<&'a str>);

impl<'a> BlockLines<'a> {
    /// The next line split at its first TAB ([`Split`]), with its number.
    /// One search finds the TAB or the end of the line, whichever is
    /// first, and a second the end of a line with a TAB.
    pub fn next_split(&mut self) -> Option<(u64, Result<Split<'a>, NotUtf8>)> {
        let first = self.search.tab_or_newline(self.rest);
        let (tab, newline) = match first {
            Some(i) if self.rest[i] == b'\t' => {
                let after = &self.rest[i + 1..];
                (Some(i), self.search.newline(after).map(|k| i + 1 + k))
            }
            _ => (None, first),
        };
        let (number, line) = self.take(newline)?;
        let split = line.map(|line| match tab {
            // The TAB is before the end of the line, and `line` is
            // UTF-8: slicing at an ASCII byte is at a character boundary.
            Some(tab) => (&line[..tab], Some(&line[tab + 1..])),
            None => (line, None),
        });
        Some((number, split))
    }

    /// Hands out the line that ends at `newline` (`None`: at the end of
    /// the block, which is the end of the input). Inlined into both of its
    /// callers, where a call costs a measurable share of a `--pairs` line
    /// (BENCHMARKS.md, CLI `resolve --pairs`).
    #[inline(always)]
    fn take(
        &mut self,
        newline: Option<usize>,
    ) -> Option<(u64, Result<&'a str, NotUtf8>)> {
        if self.rest.is_empty() {
            return None;
        }
        *self.number += 1;
        let len = newline.unwrap_or(self.rest.len());
        let next = newline.map_or(len, |i| i + 1);
        if self.text.len() < len {
            // Check from here to the end of the block, or to the first
            // invalid byte. (The byte before a line is an ASCII `\n`, so
            // the check starts in step.)
            self.text = match simdutf8::basic::from_utf8(self.rest) {
                Ok(text) => text,
                Err(_) => valid_prefix(self.rest),
            };
        }
        let line = if self.text.len() < len {
            // `text` ends at the first invalid byte, inside this line.
            Err(NotUtf8 { column: self.text.chars().count() + 1 })
        } else {
            let line = &self.text[..len];
            Ok(match newline {
                Some(_) => line.strip_suffix('\r').unwrap_or(line),
                None => line,
            })
        };
        self.rest = &self.rest[next..];
        self.text = self.text.get(next..).unwrap_or_default();
        Some((*self.number, line))
    }
}

/// The longest prefix of `bytes` that is UTF-8.
fn valid_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => std::str::from_utf8(&bytes[..err.valid_up_to()])
            .unwrap_or_default(),
    }
}

impl<'a> Iterator for BlockLines<'a> {
    type Item = (u64, Result<&'a str, NotUtf8>);

    fn next(&mut self) -> Option<Self::Item> {
        let newline = self.search.newline(self.rest);
        self.take(newline)
    }
}

/// A line that is not UTF-8: where its first invalid byte is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The column (from 1, in characters) of the first invalid byte.
    pub column: usize,
}

impl NotUtf8 {
    /// The first invalid byte of `line`, which `err` reports.
    pub fn of(line: &Line<'_>, err: &std::str::Utf8Error) -> NotUtf8 {
        let valid = &line.bytes[..err.valid_up_to()];
        let column = std::str::from_utf8(valid)
            .map_or(err.valid_up_to(), |text| text.chars().count())
            + 1;
        NotUtf8 { column }
    }
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not UTF-8 (invalid byte at column {})", self.column)
    }
}

/// Where an input came from, for diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The n-th input argument (from 1).
    Argument(u64),
    /// The n-th line of standard input (from 1).
    Line(u64),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Standard input, locked for the life of the command, read in blocks.
pub fn stdin_blocks() -> BlockReader<io::StdinLock<'static>> {
    BlockReader::new(io::stdin().lock())
}

/// Standard input, locked and buffered for the life of the command.
pub fn stdin() -> BufReader<io::StdinLock<'static>> {
    BufReader::with_capacity(64 * 1024, io::stdin().lock())
}

/// The input argument that stands for the lines of standard input (for
/// `links` and `extract`, for standard input as a file).
pub const STDIN: &str = "-";

/// Calls `each` on every input with its origin: each of the `args`, where
/// [`STDIN`] stands for every line of standard input as it arrives (read
/// in blocks, see [`BlockReader`]); with no `args`, the lines of standard
/// input. A line that is not UTF-8 is passed as `Err`, so that the caller
/// can answer it in its place.
///
/// An error from `each` is an output error and stops the loop.
pub fn for_each_input_or_error(
    args: &[String],
    mut each: impl FnMut(Origin, Result<&str, NotUtf8>) -> io::Result<()>,
) -> Result<(), Error> {
    if args.is_empty() {
        return for_each_stdin_line(&mut each);
    }
    for (n, arg) in (1..).zip(args) {
        if arg == STDIN {
            for_each_stdin_line(&mut each)?;
        } else {
            each(Origin::Argument(n), Ok(arg)).map_err(Error::Write)?;
        }
    }
    Ok(())
}

/// Calls `each` on every line of standard input.
fn for_each_stdin_line(
    each: &mut impl FnMut(Origin, Result<&str, NotUtf8>) -> io::Result<()>,
) -> Result<(), Error> {
    let mut lines = stdin_blocks();
    while let Some(block) = lines.next_block().map_err(Error::Read)? {
        for (number, text) in block {
            each(Origin::Line(number), text).map_err(Error::Write)?;
        }
    }
    Ok(())
}

/// An input that gets an error record in place of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLine {
    /// The line is not UTF-8.
    NotUtf8(NotUtf8),
    /// A `--pairs` line without a TAB between its two parts.
    MissingTab,
    /// The library panicked on this input: a bug, reported in place so
    /// that the inputs after it are still answered (see [`isolate`]).
    Internal(String),
}

impl BadLine {
    /// The short name in error records (`NotUtf8`, `MissingTab`,
    /// `InternalError`), as the library's error kinds are named.
    pub fn kind(&self) -> &'static str {
        match self {
            BadLine::NotUtf8(_) => "NotUtf8",
            BadLine::MissingTab => "MissingTab",
            BadLine::Internal(_) => "InternalError",
        }
    }
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLine::NotUtf8(not_utf8) => not_utf8.fmt(f),
            BadLine::MissingTab => f.write_str(
                "no TAB after the base (a --pairs line is BASE<TAB>REFERENCE)",
            ),
            BadLine::Internal(message) => write!(
                f,
                "urlspec failed on this input, which is a bug: {}",
                visible(message)
            ),
        }
    }
}

/// Runs `work`, the library's work on one input, and turns a panic into
/// [`BadLine::Internal`].
///
/// No library function should panic on any input, and one that does is a
/// bug to fix there. This does not hide it: the panic hook still prints
/// the message and its place on standard error, the input gets an
/// `InternalError` record in its place and the exit status is 1. What it
/// prevents is the loss of the answers to every input after that one in a
/// stream, which the command promises. `work` only reads the input and
/// appends to buffers the caller truncates on `Err`, so nothing it leaves
/// half done is used afterwards (hence `AssertUnwindSafe`).
pub fn isolate<T>(work: impl FnOnce() -> T) -> Result<T, BadLine> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(
        |payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            BadLine::Internal(message)
        },
    )
}

/// Writes `urlspec: ORIGIN: KIND: MESSAGE` on standard error.
pub fn report(origin: Origin, kind: &str, message: &dyn fmt::Display) {
    let _ =
        writeln!(io::stderr().lock(), "urlspec: {origin}: {kind}: {message}");
}

/// Answers every input of `args` (see [`for_each_input_or_error`]) with
/// one record on standard output: JSON lines when `json`, else text blocks
/// separated by a blank line. `answer` writes the record of an input (or
/// nothing, to leave it out) and says whether the input passes. An input
/// without an answer, a line that is not UTF-8 or an input the library
/// panicked on (see [`isolate`]), gets a record saying so: as text
/// ([`write_bad_text`], and on standard error with where it came from),
/// or the JSON line `bad_json` writes (given the input when it is text).
/// Each record is made whole before it is written, so that a panic leaves
/// no part of one.
///
/// Returns whether every input was answered and passed.
pub fn answer_each(
    args: &[String],
    json: bool,
    mut answer: impl FnMut(&mut Vec<u8>, &str) -> bool,
    mut bad_json: impl FnMut(&mut Vec<u8>, Option<&str>, &BadLine),
) -> Result<bool, Error> {
    let mut out = Output::stdout();
    let mut buf = Vec::with_capacity(1024);
    let mut all_ok = true;
    let mut first = true;
    for_each_input_or_error(args, |origin, text| {
        buf.clear();
        let bad = match text {
            Ok(input) => match isolate(|| answer(&mut buf, input)) {
                Ok(passes) => {
                    all_ok &= passes;
                    None
                }
                Err(bad) => {
                    buf.clear();
                    Some((Some(input), bad))
                }
            },
            Err(not_utf8) => Some((None, BadLine::NotUtf8(not_utf8))),
        };
        if let Some((input, bad)) = bad {
            all_ok = false;
            if json {
                bad_json(&mut buf, input, &bad);
            } else {
                write_bad_text(&mut buf, input, &bad);
                report(origin, bad.kind(), &bad);
            }
        }
        if buf.is_empty() {
            return Ok(());
        }
        if !first && !json {
            out.write_all(b"\n")?;
        }
        first = false;
        out.write_all(&buf)?;
        out.end_record()
    })?;
    out.finish().map_err(Error::Write)?;
    Ok(all_ok)
}

/// The text record of an input without an answer: the input (when it is
/// text), then `error: KIND: MESSAGE`.
pub fn write_bad_text(buf: &mut Vec<u8>, input: Option<&str>, bad: &BadLine) {
    if let Some(input) = input {
        buf.extend_from_slice(visible(input).as_bytes());
        buf.push(b'\n');
    }
    let line = format!("error: {}: {bad}\n", bad.kind());
    buf.extend_from_slice(line.as_bytes());
}

/// Adds the `error` member of a JSON record: `null`, or `{kind, message}`
/// for an input without an answer.
pub fn error_member(o: &mut JsonObject<'_>, bad: Option<&BadLine>) {
    match bad {
        Some(bad) => o.object("error", |e| {
            e.string("kind", bad.kind()).string("message", &bad.to_string());
        }),
        None => o.null("error"),
    };
}

/// `N thing` or `N things`: `plural(1, "input")` is `1 input`.
pub fn plural(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_object_keeps_order_null_and_empty() {
        let mut buf = Vec::new();
        let mut o = JsonObject::new(&mut buf);
        o.string("z", "")
            .optional("a", None)
            .optional("q", Some("\"\u{1}"))
            .boolean("v", false)
            .objects("list", [1usize, 2], |o, n| {
                o.number("n", n);
            })
            .null("e")
            .strings("s", ["a", "\n"])
            .optional_number("m", Some(7))
            .optional_number("u", None)
            .object("o", |o| {
                o.boolean("t", true);
            });
        o.finish();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            r#"{"z":"","a":null,"q":"\"\u0001","v":false,"list":[{"n":1},{"n":2}],"e":null,"s":["a","\n"],"m":7,"u":null,"o":{"t":true}}"#
        );
    }

    #[test]
    fn json_strings_are_escaped_as_serde_json_escapes_them() {
        let mut texts: Vec<String> = (0..=0x7fu8)
            .map(|b| char::from(b).to_string())
            .chain(["", "é€😀", "\u{7f}\u{80}\u{2028}"].map(String::from))
            .collect();
        // Every byte that needs an escape at every place of a word, next
        // to bytes that do not (and to the neighbours of `"` and `\\`).
        for special in
            ["\"", "\\", "\n", "\u{1}", "\u{1f}", "!", "#", "[", "]", " "]
        {
            for at in 0..20 {
                let mut t = "abcdefghijklmnopqrst".to_owned();
                t.insert_str(at, special);
                texts.push(t.clone());
                t.push_str(special);
                texts.push(format!("{special}{t}é"));
            }
        }
        let all: String = (0..=0x7fu8).map(char::from).collect();
        texts.push(all.repeat(3));
        for text in &texts {
            let mut ours = Vec::new();
            push_json_string(&mut ours, text);
            let theirs = serde_json::to_vec(text).unwrap();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn caret_counts_display_columns() {
        assert_eq!(caret("", "http://a/{x}", 9), "         ^");
        assert_eq!(caret("  ", "é{", 2), "   ^");
        assert_eq!(display_column("aé", 2), 1); // inside `é`
        assert_eq!(display_column("ab", 2), 2); // the end
                                                // A CJK character takes two columns, and gets two carets.
        assert_eq!(caret("", "日本{", 6), "    ^");
        assert_eq!(caret("", "a日本", 4), "   ^^");
        // A combining mark takes none: `e` + U+0301 is one column, and a
        // caret at the mark goes under the `e`.
        let text = "e\u{301}{";
        assert_eq!(caret("", text, 3), " ^");
        assert_eq!(caret("", text, 1), "^");
        // Controls are shown as one character each.
        assert_eq!(caret("", "\t{", 1), " ^");
    }

    #[test]
    fn carets_span_display_columns() {
        assert_eq!(carets("  ", "http://h:25/", 9..11), "           ^^");
        assert_eq!(carets("", "aé{", 1..4), " ^^");
        assert_eq!(carets("", "x日本y", 1..7), " ^^^^");
        // An empty span still gets one caret.
        assert_eq!(carets("", "ab", 2..2), "  ^");
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(pad("abc", 2), "abc");
    }

    #[test]
    fn visible_keeps_columns() {
        assert_eq!(visible("a\tb\x7f"), "a\u{2409}b\u{2421}");
        assert!(matches!(visible("plain é"), Cow::Borrowed(_)));
        let text = "\u{202e}x\u{85}";
        assert_eq!(visible(text).chars().count(), text.chars().count());
    }

    #[test]
    fn lines_strip_endings_and_count() {
        let input: &[u8] = b"a\r\nb\n\nc\rd\xffe";
        let mut lines = LineReader::new(input);
        let mut seen = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            seen.push((line.number, line.bytes.to_vec()));
        }
        let expected: Vec<(u64, Vec<u8>)> = vec![
            (1, b"a".to_vec()),
            (2, b"b".to_vec()),
            (3, b"".to_vec()),
            (4, b"c\rd\xffe".to_vec()),
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn not_utf8_column_is_in_characters() {
        let bytes = "é\u{1F600}".bytes().chain([0xff]).collect::<Vec<_>>();
        let line = Line { number: 7, bytes: &bytes };
        let err = std::str::from_utf8(line.bytes).unwrap_err();
        let not_utf8 = NotUtf8::of(&line, &err);
        assert_eq!(not_utf8, NotUtf8 { column: 3 });
        assert_eq!(
            not_utf8.to_string(),
            "not UTF-8 (invalid byte at column 3)"
        );
    }

    /// A reader that hands out at most `step` bytes per read, as a pipe
    /// may.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    type Seen = Vec<(u64, Result<String, NotUtf8>)>;
    type SeenSplit = Vec<(u64, Result<(String, Option<String>), NotUtf8>)>;

    /// The lines as `LineReader` and `from_utf8` make them, line by line.
    fn lines_one_by_one(input: &[u8]) -> Seen {
        let mut lines = LineReader::new(input);
        let mut seen = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            let text = std::str::from_utf8(line.bytes)
                .map(str::to_owned)
                .map_err(|err| NotUtf8::of(&line, &err));
            seen.push((line.number, text));
        }
        seen
    }

    /// The lines as a `BlockReader` with blocks of `block` bytes makes
    /// them, reading `step` bytes at a time; and split at the first TAB.
    fn lines_in_blocks(
        input: &[u8],
        block: usize,
        step: usize,
    ) -> (Seen, SeenSplit) {
        let read = || Trickle { bytes: input, step };
        let mut lines = BlockReader::with_block_size(read(), block);
        let mut seen = Vec::new();
        while let Some(block) = lines.next_block().unwrap() {
            for (number, text) in block {
                seen.push((number, text.map(str::to_owned)));
            }
        }
        let mut lines = BlockReader::with_block_size(read(), block);
        let mut split = Vec::new();
        while let Some(mut block) = lines.next_block().unwrap() {
            while let Some((number, text)) = block.next_split() {
                let owned =
                    |(a, b): Split<'_>| (a.to_owned(), b.map(str::to_owned));
                split.push((number, text.map(owned)));
            }
        }
        (seen, split)
    }

    #[test]
    fn blocks_give_the_lines_of_the_line_reader() {
        let long = "x".repeat(300);
        let inputs: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"\n".to_vec(),
            b"\n\n\r\n".to_vec(),
            b"a".to_vec(),
            b"a\r".to_vec(),
            b"a\r\nb\n\nc\rd\xffe".to_vec(),
            b"b1\tr1\tmore\r\nb1\t\n\xff\tx\n\tr\nb2\tr2".to_vec(),
            // Not UTF-8 in the middle, at the start and end of a line, a
            // sequence cut by the line end, and the lines after it.
            b"ok\t\xc3\xa9\nbad\t\xc3\xa9\xc3\nalso ok\n\xe2\x82\r\nend\t\xf0\x9f\x98\x80"
                .to_vec(),
            [b"\xf0\x9f\x98".as_slice(), b"\n\xa9x\ny\t\xc3\xa9\n"].concat(),
            format!("{long}\t{long}\r\nshort\t1\n{long}").into_bytes(),
        ];
        for input in &inputs {
            let want = lines_one_by_one(input);
            let want_split: Vec<_> = want
                .iter()
                .map(|(n, text)| {
                    let split =
                        text.as_ref().map(|t| match t.split_once('\t') {
                            Some((a, b)) => (a.to_owned(), Some(b.to_owned())),
                            None => (t.clone(), None),
                        });
                    (*n, split.map_err(|e| *e))
                })
                .collect();
            for block in [1, 2, 3, 5, 8, 64, 1 << 16] {
                for step in [1, 3, 7, 1 << 20] {
                    let (seen, split) = lines_in_blocks(input, block, step);
                    let at = format!("{input:?}, block {block}, step {step}");
                    assert_eq!(seen, want, "{at}");
                    assert_eq!(split, want_split, "{at}");
                }
            }
        }
    }

    #[test]
    fn blocks_give_back_the_memory_of_a_long_line() {
        let mut input = "y".repeat(100_000).into_bytes();
        input.extend_from_slice(b"\nshort\nlines\n");
        let reader = Trickle { bytes: &input, step: 4096 };
        let mut lines = BlockReader::with_block_size(reader, 1024);
        let mut seen = Vec::new();
        let mut most = 0;
        while let Some(block) = lines.next_block().unwrap() {
            seen.extend(block.map(|(n, text)| (n, text.unwrap().len())));
            most = most.max(lines.buf.len());
        }
        assert_eq!(seen, [(1, 100_000), (2, 5), (3, 5)]);
        // Twice the line at most, and back to one block after it.
        assert!(most <= 2 * 100_001 + 1024, "{most}");
        assert!(lines.buf.capacity() <= 1024, "{}", lines.buf.capacity());
    }
}
