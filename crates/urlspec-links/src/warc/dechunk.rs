//! HTTP/1.1 chunked framing (RFC 9112 §7.1) undone as the body is read,
//! so that a long body is never held whole. A malformed size line and
//! what follows it are kept as they are; the body ends at the last chunk
//! (its trailer fields are not read) or where the data ends.

use std::io::{self, BufRead, Read};

/// The longest chunk size line read (extensions included).
const MAX_SIZE_LINE: u64 = 64 << 10;

/// The body of `inner` without its chunked framing.
pub struct Dechunked<R> {
    inner: R,
    state: State,
}

enum State {
    /// Before a chunk size line.
    Size,
    /// Inside a chunk, with this many bytes of it left.
    Data(u64),
    /// A malformed line, handed out from the offset, then the rest of the
    /// input as it is.
    Raw(Vec<u8>, usize),
    /// After the last chunk, or a chunk cut short.
    Done,
}

impl<R: BufRead> Dechunked<R> {
    pub fn new(inner: R) -> Dechunked<R> {
        Dechunked { inner, state: State::Size }
    }

    /// Reads the next size line (after the CRLF that ends a chunk's data).
    fn size_line(&mut self) -> io::Result<State> {
        let mut line = Vec::new();
        (&mut self.inner).take(MAX_SIZE_LINE).read_until(b'\n', &mut line)?;
        if line == b"\r\n" {
            line.clear();
            (&mut self.inner)
                .take(MAX_SIZE_LINE)
                .read_until(b'\n', &mut line)?;
        }
        if line.is_empty() {
            return Ok(State::Done);
        }
        Ok(match httparse::parse_chunk_size(&line) {
            Ok(httparse::Status::Complete((used, 0)))
                if used == line.len() =>
            {
                State::Done
            }
            Ok(httparse::Status::Complete((used, size)))
                if used == line.len() =>
            {
                State::Data(size)
            }
            _ => State::Raw(line, 0),
        })
    }
}

impl<R: BufRead> Read for Dechunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match &mut self.state {
                State::Done => return Ok(0),
                State::Size => self.state = self.size_line()?,
                State::Raw(line, at) if *at < line.len() => {
                    let n = buf.len().min(line.len() - *at);
                    buf[..n].copy_from_slice(&line[*at..*at + n]);
                    *at += n;
                    return Ok(n);
                }
                State::Raw(..) => return self.inner.read(buf),
                State::Data(0) => self.state = State::Size,
                State::Data(left) => {
                    let max = buf
                        .len()
                        .min(usize::try_from(*left).unwrap_or(usize::MAX));
                    let n = self.inner.read(&mut buf[..max])?;
                    if n == 0 {
                        // Cut short: what there was is the body.
                        self.state = State::Done;
                        return Ok(0);
                    }
                    *left -= n as u64;
                    return Ok(n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dechunk(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        Dechunked::new(data).read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn dechunks() {
        assert_eq!(dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"), b"abcde");
        assert_eq!(dechunk(b"not chunked"), b"not chunked");
        // A chunk cut short, a last chunk without its CRLF, no last chunk.
        assert_eq!(dechunk(b"5\r\nabc"), b"abc");
        assert_eq!(dechunk(b"3\r\nabc2\r\nde\r\n0\r\n"), b"abcde");
        assert_eq!(dechunk(b"3\r\nabc\r\n"), b"abc");
        // A malformed size line after good chunks is kept with the rest.
        assert_eq!(dechunk(b"1\r\na\r\nzz\r\nrest"), b"azz\r\nrest");
    }

    #[test]
    fn a_long_body_comes_out_whole_through_small_reads() {
        let mut chunked = Vec::new();
        let mut plain = Vec::new();
        for i in 0..1000 {
            let chunk = format!("chunk {i};").repeat(i % 7 + 1);
            chunked.extend_from_slice(
                format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes(),
            );
            plain.extend_from_slice(chunk.as_bytes());
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        let mut reader =
            Dechunked::new(io::BufReader::with_capacity(7, &chunked[..]));
        let mut out = Vec::new();
        let mut buf = [0u8; 5];
        loop {
            match reader.read(&mut buf).unwrap() {
                0 => break,
                n => out.extend_from_slice(&buf[..n]),
            }
        }
        assert_eq!(out, plain);
    }
}
