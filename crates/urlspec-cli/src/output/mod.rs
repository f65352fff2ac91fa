//! What the subcommands share: the output stream and its errors here;
//! JSON building ([`json`]), text for a terminal with carets ([`text`]),
//! reading inputs from the arguments or standard input ([`lines`]), and
//! the record of each input, an error record in place of one without an
//! answer ([`records`]).

pub mod json;
pub mod lines;
pub mod records;
pub mod text;

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::mem::MaybeUninit;

use urlspec_bytes::scan::{
    copy_until_control_or, first_control_or, COPY_ROOM,
};

pub use json::JsonObject;
pub use lines::{
    for_each_input_or_error, stdin, stdin_blocks, BlockReader, LineReader,
    NotUtf8, Origin, STDIN,
};
pub use records::{answer_each, error_member, isolate, report, BadLine};
pub use text::{
    caret, carets, more_line, pad, push_visible, shown_width, text_width,
    visible, MAX_SHOWN,
};

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

/// The bytes [`Output`] holds before it writes them: a write of as many
/// or more goes to standard output whole, not copied.
pub const BUFFER: usize = 64 * 1024;

/// Standard output, buffered; flushed after every record when it is a
/// terminal, so that interactive use sees each answer at once, and only
/// when the buffer fills otherwise. Printers may write straight into its
/// buffer ([`RecordWrite::extend_with`]).
pub struct Output {
    out: io::StdoutLock<'static>,
    buf: Vec<u8>,
    interactive: bool,
}

impl Output {
    /// Locks standard output for the life of the command.
    pub fn stdout() -> Output {
        let stdout = io::stdout();
        let interactive = stdout.is_terminal();
        Output {
            out: stdout.lock(),
            // Filled up to `BUFFER` and one line ([`RecordWrite::gather`]).
            buf: Vec::with_capacity(BUFFER + 4096),
            interactive,
        }
    }

    /// Ends one record (the output for one input): flushes on a terminal.
    #[inline]
    pub fn end_record(&mut self) -> io::Result<()> {
        if self.interactive {
            self.flush()?;
        }
        Ok(())
    }

    /// Flushes what is left.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush()
    }

    /// Writes the buffer out. It is emptied even when the write fails, so
    /// that a closed pipe is reported once.
    fn write_buffer(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let written = self.out.write_all(&self.buf);
        self.buf.clear();
        written
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if self.buf.len() + buf.len() > BUFFER {
            self.write_buffer()?;
        }
        if buf.len() >= BUFFER {
            self.out.write_all(buf)
        } else {
            self.buf.extend_from_slice(buf);
            Ok(())
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_buffer()?;
        self.out.flush()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // As `BufWriter` does: what a command left unflushed (it stopped
        // on an error) still goes out.
        let _ = self.write_buffer();
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

    /// How many bytes of output a printer may add in one
    /// [`extend_with`](RecordWrite::extend_with) (past them, it ends with
    /// the line that crossed them), asked before each call: a writer that
    /// bounds what it holds (a worker's spool) says what is left of its
    /// bound.
    fn gather(&self) -> usize {
        BUFFER
    }

    /// Lets `fill` append output straight to the writer's own buffer,
    /// then writes the buffer out if it is full: lines built in place
    /// rather than built in a printer's buffer and copied into this one.
    fn extend_with(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        let mut buf = Vec::new();
        fill(&mut buf);
        self.write_all(&buf)
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

    /// What is left of the buffer: it is written out as it fills, not
    /// grown past it.
    fn gather(&self) -> usize {
        BUFFER.saturating_sub(self.buf.len()).max(1)
    }

    #[inline]
    fn extend_with(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        fill(&mut self.buf);
        if self.buf.len() >= BUFFER {
            self.write_buffer()?;
        }
        Ok(())
    }
}

impl RecordWrite for Vec<u8> {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn extend_with(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        fill(self);
        Ok(())
    }
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

/// The longest text whose room in a [`Room`] is bounded by its length
/// alone (a few times it, for the escapes it may hold); a longer one's is
/// counted, so that it reserves about its own size.
pub const SHORT_TEXT: usize = 1024;

/// The room a [`Room`] takes for `texts`, each written with the C0
/// controls and the bytes of `set` in it grown by `extra` bytes at most
/// (an escape, a replacement), and what a copy writes past its end: for
/// short texts, as if every byte grew; for long ones, their length and
/// `extra` for each such byte, counted.
#[inline(always)]
pub fn room_for<const N: usize, const S: usize>(
    texts: [&str; N],
    extra: usize,
    set: [u8; S],
) -> usize {
    let len: usize = texts.iter().map(|text| text.len()).sum();
    if len <= SHORT_TEXT {
        (1 + extra) * len + N * COPY_ROOM
    } else {
        texts.iter().map(|text| counted_room(text, extra, set)).sum()
    }
}

/// [`room_for`] of one long text.
#[cold]
#[inline(never)]
fn counted_room<const S: usize>(
    text: &str,
    extra: usize,
    set: [u8; S],
) -> usize {
    let bytes = text.as_bytes();
    let (mut grown, mut from) = (0, 0);
    loop {
        from = first_control_or(bytes, from, set) + 1;
        if from > bytes.len() {
            break;
        }
        grown += 1;
    }
    bytes.len() + extra * grown + COPY_ROOM
}

/// A record being written into the spare capacity of a buffer, room for
/// the whole of it reserved once ([`extend_within`]): each piece is then
/// a bounds check and a copy, where `Vec::extend_from_slice` checks the
/// capacity and stores the length for each piece.
pub struct Room<'b> {
    out: &'b mut [MaybeUninit<u8>],
    /// `out[..at]` is written.
    at: usize,
}

impl Room<'_> {
    /// Appends `bytes`.
    ///
    /// # Panics
    ///
    /// Past the room reserved: the caller's bound is wrong.
    #[inline(always)]
    pub fn put(&mut self, bytes: &[u8]) {
        let end = self.at + bytes.len();
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and initialized
        // bytes are valid `MaybeUninit`s; the copy is then one `memcpy`,
        // where a loop writing each byte is not made one.
        #[allow(unsafe_code)]
        let bytes =
            unsafe { &*(bytes as *const [u8] as *const [MaybeUninit<u8>]) };
        self.out[self.at..end].copy_from_slice(bytes);
        self.at = end;
    }

    /// Appends `bytes[from..stop]` and returns `stop`: the first C0
    /// control or byte of `set` at or after `from`, or the end. The
    /// bytes are copied sixteen at a time as they are looked at, where a
    /// scan for the stop and then a copy read them twice.
    ///
    /// # Panics
    ///
    /// Unless the room left holds `bytes.len() - from` and
    /// [`COPY_ROOM`](urlspec_bytes::scan::COPY_ROOM) more.
    #[inline(always)]
    pub fn until_control_or<const N: usize>(
        &mut self,
        bytes: &[u8],
        from: usize,
        set: [u8; N],
    ) -> usize {
        let stop =
            copy_until_control_or(bytes, from, set, &mut self.out[self.at..]);
        self.at += stop - from;
        stop
    }
}

/// Appends to `buf` what `fill` writes into a [`Room`] of `most` bytes:
/// the printers of `urlspec links` write each line so.
///
/// # Panics
///
/// If `fill` writes more than `most` bytes.
///
/// ```text
/// let mut buf = b"<".to_vec();
/// extend_within(&mut buf, 4, |room| room.put(b"ab"));
/// assert_eq!(buf, b"<ab");
/// ```
#[inline(always)]
pub fn extend_within(
    buf: &mut Vec<u8>,
    most: usize,
    fill: impl FnOnce(&mut Room<'_>),
) {
    buf.reserve(most);
    let len = buf.len();
    let mut room = Room { out: &mut buf.spare_capacity_mut()[..most], at: 0 };
    fill(&mut room);
    let written = room.at;
    // SAFETY: `room.out` is the spare capacity after `len`, and a `Room`
    // initializes `out[..at]`: `put` writes each byte it counts, and
    // `until_control_or` the bytes `copy_until_control_or` documents.
    #[allow(unsafe_code)]
    unsafe {
        buf.set_len(len + written);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends `bytes[from..stop]` to `buf` and returns `stop`, as
    /// [`Room::until_control_or`] does.
    fn extend_until_control_or<const N: usize>(
        buf: &mut Vec<u8>,
        bytes: &[u8],
        from: usize,
        set: [u8; N],
    ) -> usize {
        let most = bytes.len().saturating_sub(from) + COPY_ROOM;
        let mut stop = from;
        extend_within(buf, most, |room| {
            stop = room.until_control_or(bytes, from, set);
        });
        stop
    }

    #[test]
    fn the_run_before_the_stop_is_appended() {
        let text = "x".repeat(40) + "\t" + &"y".repeat(20) + "\"z";
        let bytes = text.as_bytes();
        for from in 0..=bytes.len() {
            let mut buf = b"<".to_vec();
            let stop = extend_until_control_or(&mut buf, bytes, from, [b'"']);
            let want = (from..bytes.len())
                .find(|&i| bytes[i] < 0x20 || bytes[i] == b'"')
                .unwrap_or(bytes.len());
            assert_eq!(stop, want, "{from}");
            assert_eq!(&buf[1..], &bytes[from..want], "{from}");
            assert_eq!(buf[0], b'<');
        }
        let mut buf = Vec::new();
        assert_eq!(extend_until_control_or(&mut buf, b"ab", 5, [b'"']), 5);
        assert!(buf.is_empty());
    }

    #[test]
    fn a_room_appends_what_is_put_in_it() {
        let mut buf = b"<".to_vec();
        extend_within(&mut buf, 2 + 5 + COPY_ROOM, |room| {
            room.put(b"ab");
            assert_eq!(room.until_control_or(b"cd\nef", 0, []), 2);
            room.put(b"");
        });
        assert_eq!(buf, b"<abcd");
        extend_within(&mut buf, 0, |_| {});
        assert_eq!(buf, b"<abcd");
    }

    #[test]
    #[should_panic]
    fn a_room_is_not_overrun() {
        extend_within(&mut Vec::new(), 2, |room| room.put(b"abc"));
    }
}
