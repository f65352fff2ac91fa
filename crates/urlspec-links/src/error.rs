//! Why an input, or a part of one, could not be read: a [`Reason`] and
//! the byte offset it applies to.

use std::fmt;
use std::io;

/// A part of an input that could not be read, at a byte offset.
///
/// ```
/// use urlspec_links::{Error, Reason};
/// let e = Error::new(1234, Reason::Truncated { declared: 900, got: 12 });
/// assert_eq!(e.to_string(), "at byte 1234: record cut short: Content-Length 900, 12 bytes");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where: the byte offset of the record, member or message in the
    /// input (of its gzip member in a compressed archive).
    pub offset: u64,
    /// What went wrong.
    pub reason: Reason,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The input could not be read on (an I/O error).
    Io(String),
    /// Read as an archive, the input does not start with `WARC/`.
    NotWarc,
    /// Bytes between gzip members that start no member.
    NotGzip,
    /// A gzip member that does not inflate (corrupt or cut short).
    Gzip(String),
    /// A record header that does not follow ISO 28500 §4.
    BadRecord(String),
    /// The input ends inside a record header.
    CutInHeader,
    /// The input ends inside a record block.
    Truncated {
        /// The block's `Content-Length`.
        declared: u64,
        /// The bytes there were.
        got: u64,
    },
    /// A content coding the reader does not undo.
    ContentCoding(String),
    /// Binary data where a document was expected (the bytes the MIME
    /// Sniffing Standard calls binary data bytes, §7.2).
    Binary,
    /// Read as a message, the input has no header.
    NotMessage,
    /// More `message/rfc822` parts than [`crate::mime::MAX_MESSAGES`].
    TooManyMessages,
    /// Parts nested deeper than [`crate::mime::MAX_DEPTH`].
    TooDeep,
}

impl Error {
    /// An error at `offset`.
    pub fn new(offset: u64, reason: Reason) -> Error {
        Error { offset, reason }
    }

    /// An I/O error at `offset`.
    pub fn io(offset: u64, e: &io::Error) -> Error {
        Error::new(offset, Reason::Io(e.to_string()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Io(e) => write!(f, "read error: {e}"),
            Reason::NotWarc => f.write_str(
                "not a WARC archive (it does not start with WARC/)",
            ),
            Reason::NotGzip => f.write_str("bytes that start no gzip member"),
            Reason::Gzip(e) => write!(f, "damaged gzip member: {e}"),
            Reason::BadRecord(why) => write!(f, "damaged WARC record: {why}"),
            Reason::CutInHeader => {
                f.write_str("WARC record cut inside its header")
            }
            Reason::Truncated { declared, got } => write!(
                f,
                "record cut short: Content-Length {declared}, {got} bytes"
            ),
            Reason::ContentCoding(c) => write!(f, "content coding: {c}"),
            Reason::Binary => f.write_str(
                "binary data, not a document (--format reads it anyway)",
            ),
            Reason::NotMessage => {
                f.write_str("not a MIME message (no header found)")
            }
            Reason::TooManyMessages => write!(
                f,
                "more than {} message/rfc822 parts; not read",
                crate::mime::MAX_MESSAGES
            ),
            Reason::TooDeep => write!(
                f,
                "parts nested more than {} levels deep were not read",
                crate::mime::MAX_DEPTH
            ),
        }
    }
}

impl std::error::Error for Error {}
