//! `file` (RFC 1630 "file").
//!
//! No production: "The syntax is similar to the ftp syntax", `file://host/
//! path`. "The convention is that even a "file" URL is provided with a host
//! part. This allows a client on another system to know that it cannot
//! access the file system." "The special value "localhost" is used in the
//! host field to indicate that the filename should really be used on
//! whatever host one is." "A void host field is equivalent to
//! "localhost"." The 1996 draft's example `file:/home/fred/bio.txt` has no
//! host part at all; docs/readings.md#a27 treats it like a void host.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{
    decode, push_opt, strip_slash, Parts, SchemeViolation, Src, Strict,
};
use crate::escape::escaped_octet;
use crate::reference::Reference;

/// Whose file system a file URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Locality<'a> {
    /// `file://localhost/…` (ASCII case ignored).
    Localhost,
    /// `file:///…`: a void host, "equivalent to localhost".
    VoidHost,
    /// `file:/…`: no host part (docs/readings.md#a27: as a void host).
    NoHost,
    /// Another host: not the local file system.
    Remote(&'a str),
}

impl Locality<'_> {
    /// Whether the file is on the machine interpreting the URL.
    #[must_use]
    pub fn is_local(&self) -> bool {
        !matches!(self, Locality::Remote(_))
    }

    /// `localhost`, `void`, `none` or `remote`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Locality::Localhost => "localhost",
            Locality::VoidHost => "void",
            Locality::NoHost => "none",
            Locality::Remote(_) => "remote",
        }
    }
}

/// Why [`File::to_local_path`] refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalPathError {
    /// The URL names another host's file system (RFC 1630: "a client on
    /// another system … cannot access the file system").
    NotLocal {
        /// The host.
        host: String,
    },
    /// An escaped `/` inside a segment would become a directory separator.
    EncodedSeparator {
        /// Byte offset of the escape in the input.
        position: usize,
    },
    /// An escaped NUL would end the name early (RFC 3986 §7.3).
    Nul {
        /// Byte offset of the escape in the input.
        position: usize,
    },
}

impl fmt::Display for LocalPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocalPathError::NotLocal { host } => write!(
                f,
                "the file is on host `{host}`, not on this machine (only \
                 `localhost` or a void host name a local file)"
            ),
            LocalPathError::EncodedSeparator { position } => write!(
                f,
                "the escaped `/` at byte {position} would become a directory \
                 separator"
            ),
            LocalPathError::Nul { position } => {
                write!(
                    f,
                    "the escaped NUL at byte {position} would end the name"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LocalPathError {}

/// A `file` URL.
///
/// ```
/// use urlspec::scheme::{File, Locality, LocalPathError};
/// use urlspec::Reference;
///
/// let f = File::new(&Reference::parse("file:///etc/passwd"));
/// assert_eq!(f.locality(), Locality::VoidHost);
/// assert_eq!(f.to_local_path().unwrap(), "/etc/passwd");
///
/// let f = File::new(&Reference::parse("file://other.host/x"));
/// assert_eq!(f.locality(), Locality::Remote("other.host"));
/// assert!(matches!(f.to_local_path(), Err(LocalPathError::NotLocal { .. })));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct File<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
}

impl<'a> File<'a> {
    /// Reads `r` as a file URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> File<'a> {
        File { r: Src(*r), parts: Parts::of(r) }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The host part as written: `None` without `//`, `Some("")` when
    /// void.
    #[must_use]
    pub fn host(&self) -> Option<&'a str> {
        let login = super::Login::of(&self.r)?;
        Some(login.host())
    }

    /// Whose file system.
    #[must_use]
    pub fn locality(&self) -> Locality<'a> {
        match self.host() {
            None => Locality::NoHost,
            Some("") => Locality::VoidHost,
            Some(h) if h.eq_ignore_ascii_case("localhost") => {
                Locality::Localhost
            }
            Some(h) => Locality::Remote(h),
        }
    }

    /// The path as written, with its leading `/`.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.parts.path_text()
    }

    /// The local file name: the path decoded, for a local file only. An
    /// escaped `/` inside a segment or an escaped NUL is refused rather
    /// than turned into a separator or a terminator.
    ///
    /// ```
    /// use urlspec::scheme::{File, LocalPathError};
    /// use urlspec::Reference;
    /// let local = |url| File::new(&Reference::parse(url)).to_local_path();
    /// assert_eq!(local("file:///etc/motd%20x").unwrap(), "/etc/motd x");
    /// let e = local("file:///a%2Fb").unwrap_err();
    /// assert_eq!(e, LocalPathError::EncodedSeparator { position: 9 });
    /// assert!(matches!(local("file://far/x"), Err(LocalPathError::NotLocal { .. })));
    /// ```
    ///
    /// # Errors
    ///
    /// [`LocalPathError::NotLocal`] when the host is another system's (not
    /// empty, not `localhost`); [`LocalPathError::EncodedSeparator`] for an
    /// escaped `/` and [`LocalPathError::Nul`] for an escaped NUL, each with
    /// the byte offset of its `%` in the URL.
    pub fn to_local_path(&self) -> Result<Cow<'a, str>, LocalPathError> {
        if let Locality::Remote(h) = self.locality() {
            return Err(LocalPathError::NotLocal { host: h.to_string() });
        }
        let path = self.path();
        let base = crate::chars::span_of(self.parts.input, path).start;
        let b = path.as_bytes();
        for i in memchr::memchr_iter(b'%', b) {
            match escaped_octet(b, i) {
                Some(b'/') => {
                    return Err(LocalPathError::EncodedSeparator {
                        position: base + i,
                    })
                }
                Some(0) => {
                    return Err(LocalPathError::Nul { position: base + i })
                }
                _ => {}
            }
        }
        Ok(decode(path))
    }

    /// Where the URL breaks the ftp-like form `file://host/path`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            match super::Login::of(&self.r) {
                None => {
                    let at = s.at(self.parts.tail);
                    s.report(
                        at,
                        "file",
                        "no host part: \"the convention is that even a file \
                         URL is provided with a host part\" (tolerated: \
                         docs/readings.md#a27)",
                    );
                }
                Some(l) => {
                    if l.user().is_some() || l.port().is_some() {
                        let n = self.r.net_loc().unwrap_or("");
                        s.report_at(
                            n,
                            "file",
                            "a file URL's host part is a host alone",
                        );
                    }
                    if !l.host().is_empty() {
                        s.host(l.host(), "host");
                    }
                    let text = self.parts.path_text();
                    if !text.is_empty() && !text.starts_with('/') {
                        s.report_at(text, "file", "a `/` follows the host");
                    }
                }
            }
            s.path(strip_slash(self.path()), "path");
            s.no_search(&self.parts, "file");
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        match self.locality() {
            Locality::NoHost => alloc::vec![
                "A27: no host part is read like a void host, i.e. localhost"
            ],
            _ => Vec::new(),
        }
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_opt(out, "host", self.host());
        out.push(("locality", self.locality().name().to_string()));
        out.push(("is_local", self.locality().is_local().to_string()));
        out.push(("path", self.path().to_string()));
        match self.to_local_path() {
            Ok(p) => out.push(("local_path", p.into_owned())),
            Err(e) => out.push(("local_path", alloc::format!("refused: {e}"))),
        }
    }
}
