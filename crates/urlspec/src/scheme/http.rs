//! `http` (RFC 1630 "HTTP"), and `https` read the same way.
//!
//! ```text
//! httpaddress h t t p : / / hostport [ / path ] [ ? search ]
//! ```
//!
//! The path "is passed by the client to the server with any request, but is
//! not otherwise understood by the client". To the server in question the
//! client sends the string "starting with the slash which follows the host
//! details"; to a gateway ("proxy") it sends "the entire URI". The search
//! part goes with the command; "No fragmentid part of a WWW URI (the hash
//! sign and following) is sent with the request."

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{push_login, push_opt, Parts, SchemeViolation, Src, Strict};
use crate::escape::{wire_text, WireError};
use crate::reference::redact_slice;
use crate::reference::{Part, Reference};

/// The default ports, from the one registry.
const HTTP_PORT: u16 = super::registered("http");
const HTTPS_PORT: u16 = super::registered("https");

/// An `http` (or `https`) URL.
///
/// ```
/// use urlspec::scheme::Http;
/// use urlspec::Reference;
///
/// let r = Reference::parse("http://info.my.org/AboutUs/Index/Phonebook?dobbins#top");
/// let http = Http::new(&r);
/// assert_eq!(http.host(), Some("info.my.org"));
/// assert_eq!(http.port(), Some(80));
/// assert_eq!(http.request_target().unwrap(), "/AboutUs/Index/Phonebook?dobbins");
/// assert_eq!(
///     http.proxy_target().unwrap(),
///     "http://info.my.org/AboutUs/Index/Phonebook?dobbins"
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Http<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
}

impl<'a> Http<'a> {
    /// Reads `r` as an http URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Http<'a> {
        Http { r: Src(*r), parts: Parts::of(r) }
    }

    super::view_accessors! {
        /// User, password, host and port.
        login;
        /// The host.
        host;
    }

    /// Whether the scheme is `https` (RFC 2818, not a seed).
    #[must_use]
    pub fn is_https(&self) -> bool {
        self.r.scheme().is_some_and(|s| s.eq_ignore_ascii_case("https"))
    }

    /// The port a client connects to: the one written, else 80 (443 for
    /// https).
    #[must_use]
    pub fn port(&self) -> Option<u16> {
        let default = if self.is_https() { HTTPS_PORT } else { HTTP_PORT };
        Some(self.login().and_then(|l| l.port_number()).unwrap_or(default))
    }

    /// The path with its leading `/` (params included), as written.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.parts.path_text()
    }

    /// The path segments after the leading `/`, as written: `%2F` stays
    /// inside its segment ("not hierarchical", RFC 1630 Example 2).
    ///
    /// ```
    /// use urlspec::scheme::Http;
    /// use urlspec::Reference;
    /// let r = Reference::parse("http://h/Catalogue/76523471236%2Fwen44--4.98");
    /// let segs: Vec<_> = Http::new(&r).segments().collect();
    /// assert_eq!(segs, ["Catalogue", "76523471236%2Fwen44--4.98"]);
    /// ```
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        let p = self.path();
        let p = p.strip_prefix('/').unwrap_or(p);
        p.split('/').filter(move |_| !p.is_empty())
    }

    /// The search (query), as written.
    #[must_use]
    pub fn search(&self) -> Option<&'a str> {
        self.parts.search()
    }

    /// The fragment: kept by the client, never sent.
    #[must_use]
    pub fn fragment(&self) -> Option<&'a str> {
        self.r.fragment()
    }

    /// What the client sends to the origin server: the path (`/` when
    /// empty) and the search, without the fragment. Raw spaces and control
    /// characters are refused ("must be escaped for transmission in HTTP").
    ///
    /// ```
    /// use urlspec::escape::WireErrorKind;
    /// use urlspec::scheme::Http;
    /// use urlspec::Reference;
    /// let target = |url| Http::new(&Reference::parse(url)).request_target();
    /// assert_eq!(target("http://h").unwrap(), "/");
    /// assert_eq!(target("http://h/p?q#f").unwrap(), "/p?q");
    /// let e = target("http://h/a b").unwrap_err();
    /// assert_eq!((e.position, e.kind), (10, WireErrorKind::Unescaped { octet: b' ' }));
    /// ```
    ///
    /// # Errors
    ///
    /// [`WireError`] at the byte offset in the URL of the first byte that
    /// cannot be sent as it is: [`Unescaped`] for a space, a control
    /// character or a non-ASCII byte, [`InvalidEscape`] for a `%` not
    /// followed by two hex digits.
    ///
    /// [`Unescaped`]: crate::escape::WireErrorKind::Unescaped
    /// [`InvalidEscape`]: crate::escape::WireErrorKind::InvalidEscape
    pub fn request_target(&self) -> Result<Cow<'a, str>, WireError> {
        let tail = self.parts.tail;
        wire_text(tail, self.parts.input)?;
        Ok(if tail.starts_with('/') {
            Cow::Borrowed(tail)
        } else {
            let mut s = String::with_capacity(tail.len() + 1);
            s.push('/');
            s.push_str(tail);
            Cow::Owned(s)
        })
    }

    /// What the client sends to a proxy: the entire URL without the
    /// fragment (and without an RFC 1630 `url:` prefix).
    ///
    /// ```
    /// use urlspec::scheme::Http;
    /// use urlspec::{Reference, Spec};
    /// let r = Reference::parse_with("URL:http://h/p?q#f", Spec::Rfc1630);
    /// assert_eq!(Http::new(&r).proxy_target().unwrap(), "http://h/p?q");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Http::request_target`], for any byte of the URL before its
    /// fragment.
    pub fn proxy_target(&self) -> Result<&'a str, WireError> {
        let input = self.parts.input;
        let start = self.r.span(Part::Scheme).map_or(0, |s| s.start);
        let end =
            self.r.span(Part::Fragment).map_or(input.len(), |s| s.start - 1);
        let s = &input[start..end];
        wire_text(s, input)?;
        Ok(s)
    }

    /// Where the URL breaks `httpaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "httpaddress", false);
            let path = self.path();
            if !path.is_empty() {
                match path.strip_prefix('/') {
                    Some(p) => s.path(p, "path"),
                    None => s.report_at(
                        path,
                        "httpaddress",
                        "the path follows the hostport after `/`",
                    ),
                }
            }
            if let Some(q) = self.search() {
                s.search(q);
            }
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.is_https() {
            out.push("https (RFC 2818, not a seed) is read as http");
        }
        if self.login().is_some_and(|l| l.user().is_some()) {
            out.push(
                "A23: a user name on http is accepted (the 1996 server \
                 grammar is generic; RFC 1630 gives http only hostport)",
            );
        }
        if self.search().is_some_and(|q| {
            q.bytes().any(|b| matches!(b, b'/' | b'=' | b':' | b';'))
        }) {
            out.push(
                "A30: `/ = : ;` in the search are accepted (RFC 1630's \
                 search is xalphas)",
            );
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_login(out, self.login(), self.port());
        out.push(("path", self.path().to_string()));
        for seg in self.segments() {
            out.push(("segment", seg.to_string()));
        }
        push_opt(out, "search", self.search());
        match self.request_target() {
            Ok(t) => out.push(("request_target", t.into_owned())),
            Err(e) => {
                out.push(("request_target", alloc::format!("refused: {e}")))
            }
        }
        match self.proxy_target() {
            Ok(t) => out.push(("proxy_target", redact_slice(&self.r, t))),
            Err(e) => {
                out.push(("proxy_target", alloc::format!("refused: {e}")))
            }
        }
    }
}
