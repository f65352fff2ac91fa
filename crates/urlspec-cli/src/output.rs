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
}

impl RecordWrite for Output {
    fn end_record(&mut self) -> io::Result<()> {
        Output::end_record(self)
    }
}

#[cfg(test)]
impl RecordWrite for Vec<u8> {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends `text` to `buf` as a JSON string, quoted and escaped.
pub fn push_json_string(buf: &mut Vec<u8>, text: &str) {
    // Serializing a `str` into a `Vec` has no way to fail.
    serde_json::to_writer(&mut *buf, text)
        .expect("writing a JSON string into memory cannot fail");
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

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.buf.push(b',');
        }
        self.empty = false;
        push_json_string(self.buf, key);
        self.buf.push(b':');
    }

    /// Adds a string member.
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        push_json_string(self.buf, value);
        self
    }

    /// Adds a string member, `null` for `None`.
    pub fn optional(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        match value {
            Some(value) => self.string(key, value),
            None => self.null(key),
        }
    }

    /// Adds a `null` member.
    pub fn null(&mut self, key: &str) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(b"null");
        self
    }

    /// Adds an object member, its members written by `each`.
    pub fn object(
        &mut self,
        key: &str,
        each: impl FnOnce(&mut JsonObject<'_>),
    ) -> &mut Self {
        self.key(key);
        let mut object = JsonObject::new(self.buf);
        each(&mut object);
        object.finish();
        self
    }

    /// Adds a boolean member.
    pub fn boolean(&mut self, key: &str, value: bool) -> &mut Self {
        self.key(key);
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.buf.extend_from_slice(text);
        self
    }

    /// Adds a number member.
    pub fn number(&mut self, key: &str, value: usize) -> &mut Self {
        self.key(key);
        // `usize` formats as plain decimal digits: a valid JSON number.
        self.buf.extend_from_slice(value.to_string().as_bytes());
        self
    }

    /// Adds a number member, `null` for `None`.
    pub fn optional_number(
        &mut self,
        key: &str,
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
        key: &str,
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
        key: &str,
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

/// The number of characters of `text` that end at or before byte
/// `position`: the column (from 0) of the character at `position`. A
/// position inside a character counts as that character's column.
pub fn char_column(text: &str, position: usize) -> usize {
    text.char_indices()
        .take_while(|&(i, c)| i + c.len_utf8() <= position)
        .count()
}

/// How many violations or findings the human output shows with the input
/// and a caret each; the rest are counted (`--json` lists them all), so the
/// output stays linear in the input however many there are.
pub const MAX_SHOWN: usize = 20;

/// The line that counts the violations or findings not shown.
pub fn more_line(total: usize, what: &str) -> Option<String> {
    (total > MAX_SHOWN).then(|| {
        format!(
            "  … and {} more {what} (--json lists them all)",
            total - MAX_SHOWN
        )
    })
}

/// A caret under byte `position` of `text` (printed on the line above,
/// after `indent`): spaces up to its character column, then `^`.
pub fn caret(indent: &str, text: &str, position: usize) -> String {
    carets(indent, text, position..position)
}

/// Carets under the bytes `span` of `text` (printed on the line above,
/// after `indent`): spaces up to the character column of its start, then
/// one `^` per character of the span, at least one.
pub fn carets(indent: &str, text: &str, span: Range<usize>) -> String {
    let column = char_column(text, span.start);
    let width = char_column(text, span.end).saturating_sub(column).max(1);
    let mut line = String::with_capacity(indent.len() + column + width);
    line.push_str(indent);
    line.extend(std::iter::repeat_n(' ', column));
    line.extend(std::iter::repeat_n('^', width));
    line
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

/// Standard input, locked and buffered for the life of the command.
pub fn stdin() -> BufReader<io::StdinLock<'static>> {
    BufReader::with_capacity(64 * 1024, io::stdin().lock())
}

/// Calls `each` on every input with its origin: the `args` when there are
/// any, otherwise each line of standard input as it arrives, one reused
/// buffer for all. A line that is not UTF-8 is passed as `Err`, so that
/// the caller can answer it in its place.
///
/// An error from `each` is an output error and stops the loop.
pub fn for_each_input_or_error(
    args: &[String],
    mut each: impl FnMut(Origin, Result<&str, NotUtf8>) -> io::Result<()>,
) -> Result<(), Error> {
    if !args.is_empty() {
        for (n, arg) in (1..).zip(args) {
            each(Origin::Argument(n), Ok(arg)).map_err(Error::Write)?;
        }
        return Ok(());
    }
    let mut lines = LineReader::new(stdin());
    while let Some(line) = lines.next_line().map_err(Error::Read)? {
        let text = std::str::from_utf8(line.bytes)
            .map_err(|err| NotUtf8::of(&line, &err));
        each(Origin::Line(line.number), text).map_err(Error::Write)?;
    }
    Ok(())
}

/// Calls `each` on every input: the `args` when there are any, otherwise
/// each line of standard input as it arrives. A line that is not UTF-8 is
/// reported on standard error and skipped.
///
/// Returns whether every input could be read as text (`false` when a line
/// was skipped). An error from `each` is an output error and stops the
/// loop.
pub fn for_each_input(
    args: &[String],
    mut each: impl FnMut(&str) -> io::Result<()>,
) -> Result<bool, Error> {
    let mut all_text = true;
    for_each_input_or_error(args, |origin, text| match text {
        Ok(text) => each(text),
        Err(not_utf8) => {
            all_text = false;
            let message = format!("urlspec: {origin}: {not_utf8}");
            let _ = writeln!(io::stderr().lock(), "{message}");
            Ok(())
        }
    })?;
    Ok(all_text)
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
    fn caret_counts_characters() {
        assert_eq!(caret("", "http://a/{x}", 9), "         ^");
        assert_eq!(caret("  ", "é{", 2), "   ^");
        assert_eq!(char_column("aé", 2), 1); // inside `é`
        assert_eq!(char_column("ab", 2), 2); // the end
    }

    #[test]
    fn carets_span_characters() {
        assert_eq!(carets("  ", "http://h:25/", 9..11), "           ^^");
        assert_eq!(carets("", "aé{", 1..4), " ^^");
        // An empty span still gets one caret.
        assert_eq!(carets("", "ab", 2..2), "  ^");
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
}
