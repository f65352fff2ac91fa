//! The URL record (URL Standard §4.1), held as its serialization (§4.5)
//! and the offsets of its components, with the accessors of the URL API
//! (§6.1) and the origin (§4.7).

use alloc::string::String;
use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

use super::error::{Failure, Note};
use super::host::HostKind;
use super::parser;
use super::QueryEncoding;

/// A URL as the WHATWG URL Standard's basic URL parser gives it: its
/// serialization (the `href`), and where each component lies in it.
///
/// The serialization is, by §4.5:
///
/// ```text
/// scheme ":" [ "//" [ username [ ":" password ] "@" ] host [ ":" port ] ]
///        [ "/." ] path [ "?" query ] [ "#" fragment ]
/// ```
///
/// where `/.` stands before a path that starts with `//` in a URL without
/// a host, and a path is either opaque (text after `scheme:`, as in
/// `mailto:a@b`) or a list of segments, each written after a `/`.
///
/// ```
/// use urlspec::whatwg::{Host, Url};
///
/// let url = Url::parse("HTTPS://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q#f")?;
/// assert_eq!(url.as_str(), "https://user:pa%20ss@example.com/a/c?q#f");
/// assert_eq!((url.scheme(), url.username(), url.password()), ("https", "user", Some("pa%20ss")));
/// assert_eq!(url.host(), Some(Host::Domain("example.com")));
/// assert_eq!((url.port(), url.port_or_known_default()), (None, Some(443)));
/// assert_eq!((url.path(), url.query(), url.fragment()), ("/a/c", Some("q"), Some("f")));
/// assert_eq!(url.origin(), "https://example.com");
///
/// let link = url.join("../x?y")?;
/// assert_eq!(link.as_str(), "https://user:pa%20ss@example.com/x?y");
/// # Ok::<(), urlspec::whatwg::Failure>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Url {
    pub(super) serialization: String,
    /// The `:` after the scheme.
    pub(super) scheme_end: usize,
    /// The end of the username (the host's start when there is none).
    pub(super) username_end: usize,
    pub(super) host_start: usize,
    pub(super) host_end: usize,
    /// `None`: the host is null.
    pub(super) host: Option<HostKind>,
    pub(super) port: Option<u16>,
    pub(super) path_start: usize,
    /// The `?`, when the query is not null.
    pub(super) query_start: Option<usize>,
    /// The `#`, when the fragment is not null.
    pub(super) fragment_start: Option<usize>,
    pub(super) opaque_path: bool,
}

/// A URL's host, as the Standard's host parser gives it (§3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// A domain: ASCII, lower-case, after domain to ASCII.
    Domain(&'a str),
    /// An IPv4 address.
    Ipv4(Ipv4Addr),
    /// An IPv6 address.
    Ipv6(Ipv6Addr),
    /// The host of a URL that is not special: percent-encoded text.
    Opaque(&'a str),
    /// The empty host (`file:///p`, `sc://`).
    Empty,
}

/// How to parse: against a base, and with the query encoded in a
/// document's encoding. Made by [`Url::options`].
///
/// ```
/// use urlspec::whatwg::Url;
/// let base = Url::parse("http://a/b/c/d;p?q")?;
/// let url = Url::options().base(Some(&base)).parse("..\\g")?;
/// assert_eq!(url.as_str(), "http://a/b/g");
/// # Ok::<(), urlspec::whatwg::Failure>(())
/// ```
#[derive(Clone, Copy, Default)]
#[must_use]
pub struct ParseOptions<'b> {
    base: Option<&'b Url>,
    encoding: Option<&'b dyn QueryEncoding>,
}

impl fmt::Debug for ParseOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParseOptions")
            .field("base", &self.base)
            .field("encoding", &self.encoding.map(|_| "…"))
            .finish()
    }
}

impl<'b> ParseOptions<'b> {
    /// The base URL a relative input is parsed against (`None`: the
    /// Standard's null base).
    pub fn base(self, base: Option<&'b Url>) -> ParseOptions<'b> {
        ParseOptions { base, ..self }
    }

    /// The encoding of the document the URL comes from, for the query of
    /// a special URL other than `ws:` and `wss:` (the basic URL parser's
    /// *encoding*; UTF-8 when not given). See [`QueryEncoding`].
    pub fn encoding(
        self,
        encoding: Option<&'b dyn QueryEncoding>,
    ) -> ParseOptions<'b> {
        ParseOptions { encoding, ..self }
    }

    /// Runs the basic URL parser on `input`.
    ///
    /// # Errors
    ///
    /// [`Failure`] when the parser returns failure: its `error` the
    /// validation error, its `position` the byte offset in `input`, its `state`
    /// the parser's state.
    pub fn parse(self, input: &str) -> Result<Url, Failure> {
        parser::parse(input, self.base, self.encoding, None)
    }

    /// [`ParseOptions::parse`], also listing in `notes` what the parser did
    /// besides reading the input as written: the validation errors it went
    /// on after, and the steps that rewrote the input, each with its state
    /// and byte position.
    ///
    /// ```
    /// use urlspec::whatwg::{Step, Url, ValidationError};
    /// let mut notes = Vec::new();
    /// let url = Url::options().parse_traced("http://a\\.\\b", &mut notes)?;
    /// assert_eq!(url.as_str(), "http://a/b");
    /// let steps: Vec<Step> = notes.iter().map(|n| n.step).collect();
    /// assert!(steps.contains(&Step::Validation(ValidationError::InvalidReverseSolidus)));
    /// assert!(steps.contains(&Step::SingleDotSegment));
    /// # Ok::<(), urlspec::whatwg::Failure>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ParseOptions::parse`]; `notes` then holds what the parser did up
    /// to the failure.
    pub fn parse_traced(
        self,
        input: &str,
        notes: &mut alloc::vec::Vec<Note>,
    ) -> Result<Url, Failure> {
        parser::parse(input, self.base, self.encoding, Some(notes))
    }
}

impl Url {
    /// Parses `input` with a null base: an absolute URL, or failure.
    ///
    /// ```
    /// use urlspec::whatwg::{Url, ValidationError};
    /// assert_eq!(Url::parse("http://example.com/foo/bar/..").unwrap().as_str(), "http://example.com/foo/");
    /// let f = Url::parse("http://a b/").unwrap_err();
    /// assert_eq!(f.error, Some(ValidationError::DomainInvalidCodePoint));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Failure`] when `input` is not an absolute URL for the standard: its
    /// `error` the validation error, its `position` the byte offset, its
    /// `state` the parser's state.
    pub fn parse(input: &str) -> Result<Url, Failure> {
        parser::parse(input, None, None, None)
    }

    /// Parses `input` against this URL as its base.
    ///
    /// ```
    /// use urlspec::whatwg::Url;
    /// let base = Url::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.join("///g")?.as_str(), "http://g/");
    /// assert_eq!(base.join("?y")?.as_str(), "http://a/b/c/d;p?y");
    /// # Ok::<(), urlspec::whatwg::Failure>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Failure`] when `input` does not parse against this base: its `error`
    /// the validation error, its `position` the byte offset in `input`, its
    /// `state` the parser's state.
    pub fn join(&self, input: &str) -> Result<Url, Failure> {
        parser::parse(input, Some(self), None, None)
    }

    /// Options: a base, an encoding, a trace of the parser's steps.
    pub fn options<'b>() -> ParseOptions<'b> {
        ParseOptions::default()
    }

    /// The serialization (the URL API's `href`).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.serialization
    }

    /// The serialization, owned.
    #[must_use]
    pub fn into_string(self) -> String {
        self.serialization
    }

    /// The scheme, lower-case, without `:`.
    #[must_use]
    pub fn scheme(&self) -> &str {
        &self.serialization[..self.scheme_end]
    }

    /// Whether the scheme is special (`ftp`, `file`, `http`, `https`,
    /// `ws`, `wss`).
    #[must_use]
    pub fn is_special(&self) -> bool {
        parser::Kind::of(self.scheme()).is_special()
    }

    /// The username: empty when there is none.
    #[must_use]
    pub fn username(&self) -> &str {
        match self.host {
            Some(_) => {
                &self.serialization[self.scheme_end + 3..self.username_end]
            }
            None => "",
        }
    }

    /// The password, when not empty.
    #[must_use]
    pub fn password(&self) -> Option<&str> {
        let s = &self.serialization;
        (self.host.is_some()
            && self.username_end < self.host_start
            && s.as_bytes()[self.username_end] == b':')
            .then(|| &s[self.username_end + 1..self.host_start - 1])
    }

    /// Whether the host is not null.
    #[must_use]
    pub fn has_host(&self) -> bool {
        self.host.is_some()
    }

    /// The host as serialized (IPv6 in brackets; `""` for the empty host),
    /// or `None` for the null host.
    #[must_use]
    pub fn host_str(&self) -> Option<&str> {
        self.host.map(|_| &self.serialization[self.host_start..self.host_end])
    }

    /// The host.
    ///
    /// ```
    /// use urlspec::whatwg::{Host, Url};
    /// use std::net::Ipv4Addr;
    /// assert_eq!(Url::parse("http://0x7f.1/")?.host(), Some(Host::Ipv4(Ipv4Addr::new(127, 0, 0, 1))));
    /// assert_eq!(Url::parse("file:///etc")?.host(), Some(Host::Empty));
    /// assert_eq!(Url::parse("sc://H%41/")?.host(), Some(Host::Opaque("H%41")));
    /// assert_eq!(Url::parse("mailto:a@b")?.host(), None);
    /// # Ok::<(), urlspec::whatwg::Failure>(())
    /// ```
    #[must_use]
    pub fn host(&self) -> Option<Host<'_>> {
        let text = self.host_str()?;
        Some(match self.host? {
            HostKind::Domain => Host::Domain(text),
            HostKind::Opaque => Host::Opaque(text),
            HostKind::Empty => Host::Empty,
            // Written by the serializers, so they read back.
            HostKind::Ipv4 => Host::Ipv4(text.parse().ok()?),
            HostKind::Ipv6 => {
                Host::Ipv6(text[1..text.len() - 1].parse().ok()?)
            }
        })
    }

    /// The port, when it is not null (a scheme's default port is null).
    #[must_use]
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port, or the special scheme's default port.
    #[must_use]
    pub fn port_or_known_default(&self) -> Option<u16> {
        self.port.or_else(|| parser::Kind::of(self.scheme()).default_port())
    }

    /// The path as the URL API's `pathname` gives it: the opaque path, or
    /// each segment after a `/`.
    #[must_use]
    pub fn path(&self) -> &str {
        let end = self
            .query_start
            .or(self.fragment_start)
            .unwrap_or(self.serialization.len());
        &self.serialization[self.path_start..end]
    }

    /// Whether the path is opaque (`mailto:a@b`, `javascript:x`).
    #[must_use]
    pub fn has_opaque_path(&self) -> bool {
        self.opaque_path
    }

    /// The query without `?`, when not null.
    #[must_use]
    pub fn query(&self) -> Option<&str> {
        let end = self.fragment_start.unwrap_or(self.serialization.len());
        self.query_start.map(|q| &self.serialization[q + 1..end])
    }

    /// The fragment without `#`, when not null.
    #[must_use]
    pub fn fragment(&self) -> Option<&str> {
        self.fragment_start.map(|f| &self.serialization[f + 1..])
    }

    /// The serialization without the fragment (§4.5 with *exclude
    /// fragment*).
    #[must_use]
    pub fn without_fragment(&self) -> &str {
        &self.serialization
            [..self.fragment_start.unwrap_or(self.serialization.len())]
    }

    /// The ASCII serialization of the URL's origin (§4.7, HTML's
    /// serialization of an origin): `scheme://host[:port]` for `ftp`,
    /// `http`, `https`, `ws` and `wss`; for `blob`, the origin of the URL
    /// its path holds when that is `http` or `https`; `null` (an opaque
    /// origin) for everything else, `file` included.
    ///
    /// ```
    /// use urlspec::whatwg::Url;
    /// assert_eq!(Url::parse("blob:https://a.example:8443/x")?.origin(), "https://a.example:8443");
    /// assert_eq!(Url::parse("data:,x")?.origin(), "null");
    /// # Ok::<(), urlspec::whatwg::Failure>(())
    /// ```
    #[must_use]
    pub fn origin(&self) -> String {
        match self.scheme() {
            "ftp" | "http" | "https" | "ws" | "wss" => {
                let mut o = String::from(self.scheme());
                o.push_str("://");
                o.push_str(self.host_str().unwrap_or(""));
                if let Some(p) = self.port {
                    o.push(':');
                    o.push_str(itoa(p).as_str());
                }
                o
            }
            "blob" => match Url::parse(self.path()) {
                Ok(inner) if matches!(inner.scheme(), "http" | "https") => {
                    inner.origin()
                }
                _ => "null".into(),
            },
            _ => "null".into(),
        }
    }

    /// The offsets, checked against the serialization: every component
    /// where the layout puts it. For tests and debug builds.
    pub(super) fn check_invariants(&self) -> bool {
        let s = self.serialization.as_bytes();
        let at = |i: usize, b: u8| s.get(i) == Some(&b);
        let ordered = self.scheme_end <= self.username_end
            && self.username_end <= self.host_start
            && self.host_start <= self.host_end
            && self.host_end <= self.path_start
            && self.path_start <= s.len();
        let query = self
            .query_start
            .is_none_or(|q| at(q, b'?') && q >= self.path_start);
        let fragment = self.fragment_start.is_none_or(|f| {
            at(f, b'#') && self.query_start.is_none_or(|q| q < f)
        });
        let authority = match self.host {
            None => self.host_start == self.scheme_end + 1,
            Some(_) => {
                s[self.scheme_end + 1..].starts_with(b"//")
                    && (self.username_end == self.host_start
                        || at(self.host_start - 1, b'@'))
            }
        };
        let port = match self.port {
            None => true,
            Some(_) => at(self.host_end, b':'),
        };
        ordered
            && at(self.scheme_end, b':')
            && query
            && fragment
            && authority
            && port
    }
}

/// A port in decimal, without allocating.
pub(super) struct Decimal([u8; 5], usize);

impl Decimal {
    pub(super) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.0[self.1..]).unwrap_or_default()
    }
}

pub(super) fn itoa(mut n: u16) -> Decimal {
    let mut buf = [b'0'; 5];
    let mut i = 5;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    Decimal(buf, i)
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Url").field(&self.serialization).finish()
    }
}

impl core::str::FromStr for Url {
    type Err = Failure;

    fn from_str(s: &str) -> Result<Url, Failure> {
        Url::parse(s)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}
