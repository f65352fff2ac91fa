//! WARC records built for tests.

/// A WARC/1.0 record: its type, its other header fields in order, then
/// `Content-Length` (the block's length unless given) and the block.
///
/// ```
/// use urlspec_test_support::warc::Record;
/// let r = Record::new("response", b"abc").header("WARC-Target-URI", "http://h/");
/// assert_eq!(
///     r.bytes(),
///     b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/\r\n\
///       Content-Length: 3\r\n\r\nabc\r\n\r\n"
/// );
/// let lying = Record::new("response", b"abc").content_length("99").bytes();
/// assert!(lying.starts_with(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99\r\n"));
/// ```
#[derive(Clone, Debug)]
pub struct Record<'a> {
    kind: &'a str,
    headers: Vec<(&'a str, String)>,
    content_length: Option<&'a str>,
    block: &'a [u8],
}

impl<'a> Record<'a> {
    /// A record of `kind` (`response`, `request`, …) holding `block`.
    pub fn new(kind: &'a str, block: &'a [u8]) -> Record<'a> {
        Record { kind, headers: Vec::new(), content_length: None, block }
    }

    /// Adds a header field after those added before.
    #[must_use]
    pub fn header(mut self, name: &'a str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Writes `Content-Length` as given instead of the block's length.
    #[must_use]
    pub fn content_length(mut self, value: &'a str) -> Self {
        self.content_length = Some(value);
        self
    }

    /// The record's bytes, ended by the two CRLFs that close a record.
    pub fn bytes(&self) -> Vec<u8> {
        let length = self.block.len().to_string();
        let mut r = format!("WARC/1.0\r\nWARC-Type: {}\r\n", self.kind);
        for (name, value) in &self.headers {
            r.push_str(&format!("{name}: {value}\r\n"));
        }
        let length = self.content_length.unwrap_or(&length);
        r.push_str(&format!("Content-Length: {length}\r\n\r\n"));
        let mut r = r.into_bytes();
        r.extend_from_slice(self.block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }
}

/// The record most tests need: `kind`, `WARC-Target-URI: target`, `block`.
///
/// ```
/// let r = urlspec_test_support::warc::record("request", "http://h/", b"");
/// assert!(r.starts_with(b"WARC/1.0\r\nWARC-Type: request\r\nWARC-Target-URI: http://h/\r\n"));
/// ```
pub fn record(kind: &str, target: &str, block: &[u8]) -> Vec<u8> {
    Record::new(kind, block).header("WARC-Target-URI", target).bytes()
}
