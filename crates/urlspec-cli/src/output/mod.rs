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

use urlspec_bytes::scan::{copy_until_control_or, COPY_ROOM};

pub use json::JsonObject;
pub use lines::{
    for_each_input_or_error, stdin, stdin_blocks, BlockReader, LineReader,
    NotUtf8, Origin, STDIN,
};
pub use records::{answer_each, error_member, isolate, report, BadLine};
pub use text::{
    caret, carets, more_line, pad, push_visible, text_width, visible,
    MAX_SHOWN,
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

/// Appends `bytes[from..stop]` to `buf` and returns `stop`: the first C0
/// control or byte of `set` at or after `from`, or the end. The bytes are
/// copied sixteen at a time as they are looked at, where a scan for the
/// stop and then a copy read them twice: the JSON and TSV printers of
/// `urlspec links` take 5 to 6 % fewer instructions a link.
#[inline(always)]
pub fn extend_until_control_or<const N: usize>(
    buf: &mut Vec<u8>,
    bytes: &[u8],
    from: usize,
    set: [u8; N],
) -> usize {
    buf.reserve(bytes.len().saturating_sub(from) + COPY_ROOM);
    let len = buf.len();
    let stop =
        copy_until_control_or(bytes, from, set, buf.spare_capacity_mut());
    // SAFETY: the copy initialized the first `stop - from` bytes of the
    // spare capacity, as `copy_until_control_or` documents.
    #[allow(unsafe_code)]
    unsafe {
        buf.set_len(len + (stop - from));
    }
    stop
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
