//! MIME messages built for tests.

use std::fmt::Write;

/// A message of `depth` nested, closed `multipart/mixed` parts (boundaries
/// `b0`, `b1`, …) with an HTML part beside the first one, linking to
/// `http://top/`, and another at the bottom, linking to `http://bottom/`.
///
/// ```
/// let m = urlspec_test_support::mime::nested_multipart(2);
/// assert!(m.starts_with("Content-Type: multipart/mixed; boundary=\"b0\""));
/// assert!(m.ends_with("\r\n--b1--\r\n\r\n--b0--\r\n"));
/// ```
pub fn nested_multipart(depth: usize) -> String {
    let mut message = String::new();
    for i in 0..depth {
        let _ = write!(
            message,
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        );
        if i == 0 {
            // A shallow HTML part, read whatever the depth below.
            message.push_str(
                "Content-Type: text/html\r\n\r\n\
                 <a href=\"http://top/\">t</a>\r\n--b0\r\n",
            );
        }
    }
    message.push_str(
        "Content-Type: text/html\r\n\r\n<a href=\"http://bottom/\">b</a>",
    );
    for i in (0..depth).rev() {
        let _ = write!(message, "\r\n--b{i}--\r\n");
    }
    message
}

/// Writes base64 (RFC 2045 §6.8) of what it is given to `W`, in lines of
/// 76 characters ended by CRLF; [`Base64::finish`] writes the last
/// quantum.
///
/// ```
/// use std::io::Write;
/// let mut b = urlspec_test_support::mime::Base64::new(Vec::new());
/// b.write_all(b"<a href=x>").unwrap();
/// assert_eq!(b.finish().unwrap(), b"PGEgaHJlZj14Pg==");
/// ```
pub struct Base64<W: std::io::Write> {
    out: W,
    held: Vec<u8>,
    column: usize,
}

const ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl<W: std::io::Write> Base64<W> {
    /// A writer of base64 to `out`.
    pub fn new(out: W) -> Base64<W> {
        Base64 { out, held: Vec::new(), column: 0 }
    }

    fn quantum(&mut self, chunk: &[u8]) -> std::io::Result<()> {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b))
            << (8 * (3 - chunk.len()));
        let mut text = [b'='; 4];
        for (k, c) in text.iter_mut().enumerate().take(chunk.len() + 1) {
            *c = ALPHABET[(n >> (18 - 6 * k) & 63) as usize];
        }
        if self.column == 76 {
            self.out.write_all(b"\r\n")?;
            self.column = 0;
        }
        self.column += 4;
        self.out.write_all(&text)
    }

    /// Writes what is held and hands back the output.
    pub fn finish(mut self) -> std::io::Result<W> {
        let held = std::mem::take(&mut self.held);
        if !held.is_empty() {
            self.quantum(&held)?;
        }
        Ok(self.out)
    }
}

impl<W: std::io::Write> std::io::Write for Base64<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            let take = (3 - self.held.len()).min(rest.len());
            self.held.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.held.len() == 3 {
                let held = std::mem::take(&mut self.held);
                self.quantum(&held)?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Writes quoted-printable (RFC 2045 §6.7) of what it is given to `W`:
/// `=`, controls but LF, and bytes past ASCII as `=XX`, a soft line
/// break after every `line` characters of a line, LF kept as a hard
/// line break.
///
/// ```
/// use std::io::Write;
/// let mut q = urlspec_test_support::mime::QuotedPrintable::new(Vec::new(), 8);
/// q.write_all(b"<a href=\"caf\xe9\">").unwrap();
/// assert_eq!(q.into_inner(), b"<a href=3D=\r\n\"caf=E9\"=\r\n>");
/// ```
pub struct QuotedPrintable<W: std::io::Write> {
    out: W,
    line: usize,
    column: usize,
}

impl<W: std::io::Write> QuotedPrintable<W> {
    /// A writer of quoted-printable to `out`, breaking lines after `line`
    /// characters.
    pub fn new(out: W, line: usize) -> QuotedPrintable<W> {
        QuotedPrintable { out, line, column: 0 }
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: std::io::Write> std::io::Write for QuotedPrintable<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut text = Vec::with_capacity(buf.len() * 2);
        for &b in buf {
            if b == b'\n' {
                text.push(b);
                self.column = 0;
                continue;
            }
            if self.column >= self.line {
                text.extend_from_slice(b"=\r\n");
                self.column = 0;
            }
            if b == b'=' || b >= 0x7f || (b < b' ' && b != b'\t') {
                text.extend_from_slice(format!("={b:02X}").as_bytes());
                self.column += 3;
            } else {
                text.push(b);
                self.column += 1;
            }
        }
        self.out.write_all(&text)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
