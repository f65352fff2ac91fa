//! Reading inputs: the arguments or the lines of standard input, in
//! blocks, each line as text or as where it stops being UTF-8.

use std::fmt;
use std::io::{self, BufRead, BufReader};

use super::Error;

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
    /// A line (from 1) of the file given as the n-th input argument.
    FileLine(u64, u64),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
            Origin::FileLine(n, line) => {
                write!(f, "argument {n}, line {line}")
            }
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

#[cfg(test)]
mod tests {
    use super::*;

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
