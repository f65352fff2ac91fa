//! Why an input, or a part of one, could not be read: a [`Reason`] and
//! the byte offset it applies to ([`Error`]), or what the reading of a
//! whole input met ([`InputError`]); why a document's links may be
//! incomplete ([`Problem`]); why a link has no absolute URL
//! ([`LinkError`]).

use std::fmt;
use std::io;
use std::sync::Arc;

use urlspec::resolve::ResolveError;
use urlspec::whatwg::Failure;

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
    Io(IoError),
    /// Read as an archive, the input holds no WARC or ARC record.
    NotWarc,
    /// Bytes between gzip members that start no member.
    NotGzip,
    /// A gzip member that does not inflate (corrupt or cut short): the
    /// inflater's error.
    Gzip(IoError),
    /// A record header that does not follow ISO 28500 §4.
    BadRecord(String),
    /// The input ends inside a record header.
    CutInHeader,
    /// A record's block is followed by bytes that are neither its end nor
    /// the next record: its length is short of the data. The record was
    /// read as its length says, and these bytes were skipped.
    Trailing {
        /// How many bytes there were up to the next record.
        bytes: u64,
    },
    /// The input ends inside a record block.
    Truncated {
        /// The block's `Content-Length`.
        declared: u64,
        /// The bytes there were.
        got: u64,
    },
    /// A content coding the reader does not undo.
    ContentCoding(String),
    /// A body that stops decoding part way in its content coding: what
    /// came before was read.
    Decoding {
        /// The coding (`gzip`, `br`, ...).
        coding: &'static str,
        /// The decoder's error.
        error: IoError,
    },
    /// Binary data where a document was expected (the bytes the MIME
    /// Sniffing Standard calls binary data bytes, §7.2).
    Binary,
    /// Read as a message, the input has no header.
    NotMessage,
    /// More `message/rfc822` parts than [`crate::mime::MAX_MESSAGES`].
    TooManyMessages,
    /// A MIME entity's header block longer than
    /// [`crate::mime::stream::MAX_HEADER`] (the entity was passed over).
    HeaderTooLong,
    /// Parts nested deeper than [`crate::mime::MAX_DEPTH`].
    TooDeep,
}

impl Error {
    /// An error at `offset`.
    #[must_use]
    pub fn new(offset: u64, reason: Reason) -> Error {
        Error { offset, reason }
    }

    /// An I/O error at `offset`, kept whole.
    #[must_use]
    pub fn io(offset: u64, e: io::Error) -> Error {
        Error::new(offset, Reason::Io(e.into()))
    }
}

/// An I/O or decompression error, kept whole (its kind, its message, its
/// source) and shared, so that the errors holding it can be cloned and
/// compared: two are equal when their kinds and messages are.
///
/// ```
/// use std::error::Error as _;
/// use std::io;
/// use urlspec_links::{Error, IoError, Reason};
/// let e = Error::io(7, io::Error::new(io::ErrorKind::PermissionDenied, "no"));
/// let Reason::Io(io) = &e.reason else { unreachable!() };
/// assert_eq!(io.kind(), io::ErrorKind::PermissionDenied);
/// assert_eq!(e.to_string(), "at byte 7: read error: no");
/// assert!(e.source().is_some_and(|s| s.to_string() == "no"));
/// ```
#[derive(Clone, Debug)]
pub struct IoError(Arc<io::Error>);

impl IoError {
    /// The error's kind.
    #[must_use]
    pub fn kind(&self) -> io::ErrorKind {
        self.0.kind()
    }

    /// The error itself.
    #[must_use]
    pub fn get(&self) -> &io::Error {
        &self.0
    }
}

impl From<io::Error> for IoError {
    fn from(e: io::Error) -> IoError {
        IoError(Arc::new(e))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &IoError) -> bool {
        self.kind() == other.kind()
            && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
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
                "not a WARC archive, nor an ARC one (no record starts in it)",
            ),
            Reason::NotGzip => f.write_str("bytes that start no gzip member"),
            Reason::Gzip(e) => write!(f, "damaged gzip member: {e}"),
            Reason::BadRecord(why) => write!(f, "damaged WARC record: {why}"),
            Reason::CutInHeader => {
                f.write_str("WARC record cut inside its header")
            }
            Reason::Trailing { bytes } => write!(
                f,
                "damaged record: its block is followed by {bytes} bytes \
                 that are no record (its length short?); it was read as \
                 its length says"
            ),
            Reason::Truncated { declared, got } => write!(
                f,
                "record cut short: Content-Length {declared}, {got} bytes"
            ),
            Reason::ContentCoding(c) => write!(f, "content coding: {c}"),
            Reason::Decoding { coding, error } => write!(
                f,
                "content coding: the {coding} data stops decoding \
                 ({error}); what came before was read"
            ),
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
            Reason::HeaderTooLong => write!(
                f,
                "a header block longer than {} bytes; its part was not read",
                crate::mime::stream::MAX_HEADER
            ),
            Reason::TooDeep => write!(
                f,
                "parts nested more than {} levels deep were not read",
                crate::mime::MAX_DEPTH
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::Io(e)
            | Reason::Gzip(e)
            | Reason::Decoding { error: e, .. } => Some(e),
            _ => None,
        }
    }
}

/// What reading an input met, as [`crate::Input`] reports it: the input
/// could not be read at all, or is not of its format, or a record of it
/// could not be read. Printed as the reason alone, or with the record's
/// offset.
///
/// ```
/// use urlspec_links::{Error, InputError, Reason};
/// assert_eq!(InputError::Refused(Reason::NotMessage).to_string(),
///            "not a MIME message (no header found)");
/// let damaged = InputError::Record(Error::new(9, Reason::CutInHeader));
/// assert_eq!(damaged.to_string(), "at byte 9: WARC record cut inside its header");
/// assert!(!damaged.ends_input());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum InputError {
    /// The input could not be read: its first bytes, or the copy of a long
    /// page to a temporary file (and its reading back), failed.
    Io(io::Error),
    /// The input as a whole is not read as its format: binary data, a
    /// message without a header, parts nested too deep (the documents
    /// before were handed on).
    Refused(Reason),
    /// A record of an archive could not be read: read past, or (a read
    /// error, or no archive at all) the end of the archive's reading.
    Record(Error),
}

impl InputError {
    /// Whether the reading of the input ends with this error (else the
    /// next record of the archive follows).
    #[must_use]
    pub fn ends_input(&self) -> bool {
        match self {
            InputError::Io(_) | InputError::Refused(_) => true,
            InputError::Record(e) => crate::warc::ends_reading(e),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => e.fmt(f),
            InputError::Refused(reason) => reason.fmt(f),
            InputError::Record(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // Shown as the error it holds: its source is that one's.
        match self {
            InputError::Io(e) => e.source(),
            InputError::Refused(_) => None,
            InputError::Record(e) => e.source(),
        }
    }
}

/// Why a document's links may be incomplete: a part of it that could not
/// be read. The links found before it are kept.
///
/// ```
/// use urlspec_links::{Error, Problem, Reason};
/// let p = Problem::Payload(Error::new(7, Reason::ContentCoding("br".into())));
/// assert_eq!(p.to_string(), "at byte 7: content coding: br");
/// assert_eq!(p.offset(), Some(7));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The HTML reader stopped (the tokenizer refused the page), with why.
    HtmlStopped(String),
    /// A page spooled to disk could not be read again: the HTML reader
    /// stopped there.
    SpoolRead(IoError),
    /// A `<style>` or `<noscript>` of a streamed page whose text is longer
    /// than [`crate::html::stream::MAX_RAW_TEXT`], and so not read for
    /// links.
    RawTextTooLong {
        /// `style` or `noscript`.
        element: &'static str,
        /// The byte offset of its text in the page.
        offset: usize,
        /// The length of its text in bytes.
        len: usize,
    },
    /// The multipart body that holds this part ends without its closing
    /// boundary (RFC 2046 §5.1.1): the part was read to the end of the
    /// message.
    NoClosingBoundary,
    /// An archive record's payload could not be read: the record's
    /// offset and why.
    Payload(Error),
    /// An archive record's payload is longer, once decoded, than the
    /// limit given (in bytes): the rest was not read.
    PayloadCapped(u64),
    /// An archive record's body is not in the coding its
    /// `Content-Encoding` names (a crawler stored it decoded and kept the
    /// header): it was read as it is, whole. No link is lost
    /// ([`Problem::may_lose_links`]).
    ReadAsIs {
        /// The byte offset of the record.
        offset: u64,
        /// The coding named (`gzip`, `br`, ...).
        coding: String,
        /// Why the body is not in it.
        why: String,
    },
    /// An archive record's block is cut short (the archive ends, or its
    /// gzip member stops inflating, inside it): the links of the bytes
    /// there are were read, and those after are lost.
    CutShort {
        /// The byte offset of the record (of its gzip member).
        offset: u64,
        /// The block's `Content-Length`.
        declared: u64,
        /// The bytes there were.
        got: u64,
        /// The damage that cut it, if the archive does not just end.
        damage: Option<Reason>,
    },
}

impl Problem {
    /// The byte offset the problem applies to, where there is one.
    #[must_use]
    pub fn offset(&self) -> Option<u64> {
        match self {
            Problem::RawTextTooLong { offset, .. } => Some(*offset as u64),
            Problem::Payload(e) => Some(e.offset),
            Problem::ReadAsIs { offset, .. }
            | Problem::CutShort { offset, .. } => Some(*offset),
            Problem::HtmlStopped(_)
            | Problem::SpoolRead(_)
            | Problem::NoClosingBoundary
            | Problem::PayloadCapped(_) => None,
        }
    }

    /// Whether links may be missing because of it: all but
    /// [`Problem::ReadAsIs`], which says how a document was read whole.
    ///
    /// ```
    /// use urlspec_links::Problem;
    /// let as_is = Problem::ReadAsIs { offset: 0, coding: "gzip".into(), why: "no gzip header".into() };
    /// assert!(!as_is.may_lose_links());
    /// assert!(Problem::NoClosingBoundary.may_lose_links());
    /// ```
    #[must_use]
    pub fn may_lose_links(&self) -> bool {
        !matches!(self, Problem::ReadAsIs { .. })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::HtmlStopped(why) => {
                write!(f, "HTML reading stopped: {why}")
            }
            Problem::SpoolRead(e) => write!(f, "HTML reading stopped: {e}"),
            Problem::RawTextTooLong { element, offset, len } => write!(
                f,
                "<{element}> at byte {offset}: its {len} bytes are more than \
                 {} read for links",
                crate::html::stream::MAX_RAW_TEXT
            ),
            Problem::NoClosingBoundary => f.write_str(
                "the multipart body ends without its closing boundary; this \
                 last part was read to the end of the message",
            ),
            Problem::Payload(e) => e.fmt(f),
            Problem::PayloadCapped(limit) => write!(
                f,
                "the payload is longer than {limit} bytes once decoded: the \
                 rest was not read"
            ),
            Problem::ReadAsIs { offset, coding, why } => write!(
                f,
                "at byte {offset}: the body is not {coding}-coded as its \
                 Content-Encoding says ({why}): read as it is"
            ),
            Problem::CutShort { offset, declared, got, damage } => {
                write!(f, "at byte {offset}: record cut short")?;
                if let Some(damage) = damage {
                    write!(f, " ({damage})")?;
                }
                write!(
                    f,
                    ": Content-Length {declared}, {got} bytes; the links of \
                     those were read"
                )
            }
        }
    }
}

impl std::error::Error for Problem {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Problem::Payload(e) => Some(e),
            Problem::SpoolRead(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a link has no absolute URL: the error of [`crate::Link::url`].
///
/// ```
/// use urlspec::base::Base;
/// use urlspec::resolve::{Options, PairResolver, ResolveError};
/// use urlspec::Spec;
/// use urlspec_links::{resolve, resolve_with, Context, LinkError};
/// assert_eq!(resolve(&Base::none(), Spec::Rfc3986, "g"), Err(LinkError::NoBase));
/// assert_eq!(LinkError::NoBase.position(), None);
/// // Strict: the space at byte 1 of the reference (without the one before it).
/// let base = Context::new(Spec::Rfc3986).establish().given("http://a/b");
/// let mut strict = PairResolver::new(Spec::Rfc3986, Options::default().strict(true));
/// let e = resolve_with(&mut strict, &base, " g h").unwrap_err();
/// assert!(matches!(e, LinkError::Resolve(ResolveError::InvalidReference(_))), "{e:?}");
/// assert_eq!(e.position(), Some(1));
/// assert!(e.to_string().starts_with("invalid reference at byte 1: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkError {
    /// A relative reference, and the document has no base URL: a link's
    /// reference is not taken as absolute, as RFC 1808 step 1 takes a
    /// lone URL's (the resolver's [`ResolveError::NoBase`] is this too).
    NoBase,
    /// The spec's resolution refused the reference or the base.
    Resolve(ResolveError),
    /// Under [`urlspec::Spec::Whatwg`] with a page's encoding for the
    /// query, the URL Standard's basic URL parser failed on the
    /// reference, or on the base ([`Failure::in_base`]).
    Whatwg(Failure),
}

impl LinkError {
    /// The byte position in the reference (without its leading ASCII
    /// whitespace, as it was resolved) of an invalid reference, 0 when the
    /// base failed under the URL Standard; `None` for the other errors.
    #[must_use]
    pub fn position(&self) -> Option<usize> {
        match self {
            LinkError::NoBase => None,
            LinkError::Resolve(e) => e.position(),
            LinkError::Whatwg(f) => {
                Some(if f.in_base { 0 } else { f.position })
            }
        }
    }
}

impl From<ResolveError> for LinkError {
    fn from(e: ResolveError) -> LinkError {
        match e {
            ResolveError::NoBase => LinkError::NoBase,
            e => LinkError::Resolve(e),
        }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NoBase => {
                f.write_str("relative reference and no base URL")
            }
            LinkError::Resolve(e) => e.fmt(f),
            LinkError::Whatwg(failure) => {
                // Written as the parser of the reference writes its
                // failure, for a base's too (its position then the base's).
                let mut shown = *failure;
                shown.in_base = false;
                shown.fmt(f)
            }
        }
    }
}

impl std::error::Error for LinkError {}
