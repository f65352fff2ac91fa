//! [`Spec::Whatwg`](crate::Spec::Whatwg): the WHATWG URL Standard, as
//! browsers parse, implemented here from the Standard's text (cargo
//! feature `whatwg`).
//!
//! * [`Url`]: the basic URL parser (§4.4) as a state machine, one method
//!   per state, with the serializer (§4.5) and the accessors of the URL API;
//!   [`Url::join`] and [`ParseOptions::base`] parse against a base.
//! * Hosts (§3): the host parser with its IPv4, IPv6 and opaque-host
//!   parsers, and [`domain_to_ascii`] (UTS #46 through the `idna` crate).
//! * The percent-encode sets are [`chars::whatwg`](crate::chars::whatwg),
//!   the special schemes and their default ports
//!   [`spec::WHATWG_SPECIAL_SCHEMES`](crate::spec::WHATWG_SPECIAL_SCHEMES).
//! * A query can be encoded in a document's encoding ([`QueryEncoding`]),
//!   as HTML does for a page that is not UTF-8.
//! * A failure names the Standard's validation error, the state and the
//!   byte ([`Failure`]); [`ParseOptions::parse_traced`] lists what the
//!   parser did to the input ([`Note`]), which `diff` uses to explain a
//!   WHATWG answer.
//!
//! The rest of urlspec sees a URL through [`parse`] and [`Components`]:
//! `scheme`, `user` (the username, absent when empty: the Standard keeps no
//! difference), `password` (likewise), `host` (absent when null, `""` when
//! empty), `port` (absent when null, as the scheme's default port is),
//! `path`, `query` and `fragment` (absent or present, possibly empty, as the
//! Standard keeps them). The Standard has no `net_loc` and no `params`.
//!
//! The whole suite of the Standard's tests (web-platform-tests
//! `urltestdata.json`) passes, with and without a base.
//!
//! ```
//! # #[cfg(feature = "whatwg")] {
//! use urlspec::whatwg;
//! let c = whatwg::parse("HTTP://a\\b/./c/../d?q#f", None).unwrap();
//! assert_eq!(c.href, "http://a/b/d?q#f");
//! assert_eq!((c.host.as_deref(), c.path.as_str()), (Some("a"), "/b/d"));
//! # }
//! ```

use alloc::string::String;
use alloc::vec::Vec;

mod error;
#[cfg(feature = "whatwg")]
mod host;
#[cfg(feature = "whatwg")]
mod parser;
#[cfg(feature = "whatwg")]
mod percent;
#[cfg(feature = "whatwg")]
mod url;

pub use error::{Failure, Note, Part, State, Step, ValidationError};
#[cfg(feature = "whatwg")]
pub use host::domain_to_ascii;
#[cfg(feature = "whatwg")]
pub use url::{Host, ParseOptions, Url};

/// An encoding other than UTF-8 for the query of a URL: the document's
/// encoding, which the basic URL parser's query state uses for a special
/// URL other than `ws:` and `wss:` (§4.4, "percent-encode after
/// encoding", §1.3).
///
/// [`encode`](QueryEncoding::encode) is the Encoding Standard's "encode or
/// fail": it appends the bytes of `text` in the encoding up to the first
/// character the encoding cannot represent, and returns that character and
/// the number of bytes of `text` read up to and including it; or `None`
/// once all of `text` is encoded. The parser percent-encodes the bytes, and
/// writes an unrepresentable character as `%26%23`, its code point in
/// decimal, `%3B` (`&#…;`). The encoding is the document's *output
/// encoding* (HTML takes UTF-8 for UTF-16 and replacement documents);
/// UTF-8 needs no `QueryEncoding`. Any `Fn(&str, &mut Vec<u8>) -> Option<(char,
/// usize)>` is one, so an `encoding_rs::Encoding` needs a few lines:
///
/// ```
/// # #[cfg(feature = "whatwg")] {
/// use urlspec::whatwg::Url;
///
/// // ISO-8859-1 by hand; with encoding_rs, an Encoder's
/// // encode_from_utf8_without_replacement gives the same.
/// let latin1 = |text: &str, out: &mut Vec<u8>| {
///     for (i, c) in text.char_indices() {
///         match u8::try_from(u32::from(c)) {
///             Ok(b) => out.push(b),
///             Err(_) => return Some((c, i + c.len_utf8())),
///         }
///     }
///     None
/// };
/// let url = Url::options().encoding(Some(&latin1)).parse("http://a/é?é€").unwrap();
/// assert_eq!(url.as_str(), "http://a/%C3%A9?%E9%26%238364%3B");
/// # }
/// ```
pub trait QueryEncoding {
    /// Encodes `text` into `out` up to its first character the encoding
    /// cannot represent; see the trait.
    fn encode(&self, text: &str, out: &mut Vec<u8>) -> Option<(char, usize)>;
}

impl<F> QueryEncoding for F
where
    F: Fn(&str, &mut Vec<u8>) -> Option<(char, usize)>,
{
    fn encode(&self, text: &str, out: &mut Vec<u8>) -> Option<(char, usize)> {
        self(text, out)
    }
}

/// A URL as the WHATWG URL Standard parses it, in urlspec's component
/// model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// The serialization (the standard's `href`).
    pub href: String,
    /// The scheme, lower-cased.
    pub scheme: String,
    /// The username, when not empty.
    pub user: Option<String>,
    /// The password, when not empty.
    pub password: Option<String>,
    /// The host, serialized (IPv6 in brackets; `""` for the empty host),
    /// when not null.
    pub host: Option<String>,
    /// The port, when not the scheme's default.
    pub port: Option<String>,
    /// The path (for an opaque path, the text after `scheme:`).
    pub path: String,
    /// The query, without `?`.
    pub query: Option<String>,
    /// The fragment, without `#`.
    pub fragment: Option<String>,
}

#[cfg(feature = "whatwg")]
impl From<&Url> for Components {
    fn from(url: &Url) -> Components {
        let nonempty = |s: &str| (!s.is_empty()).then(|| s.into());
        Components {
            href: url.as_str().into(),
            scheme: url.scheme().into(),
            user: nonempty(url.username()),
            password: url.password().and_then(nonempty),
            host: url.host_str().map(Into::into),
            port: url.port().map(|p| alloc::format!("{p}")),
            path: url.path().into(),
            query: url.query().map(Into::into),
            fragment: url.fragment().map(Into::into),
        }
    }
}

/// Parses `input` as the standard's basic URL parser does, against `base`
/// when given (a relative input needs one; without one, the base is null).
///
/// ```
/// # #[cfg(feature = "whatwg")] {
/// use urlspec::whatwg;
/// let c = whatwg::parse("g?y", Some("http://a/b/c/d;p?q")).unwrap();
/// assert_eq!(c.href, "http://a/b/c/g?y");
/// let f = whatwg::parse("x", Some("mailto:a@b")).unwrap_err();
/// assert_eq!(f.error, Some(whatwg::ValidationError::MissingSchemeNonRelativeUrl));
/// # }
/// ```
///
/// # Errors
///
/// [`Failure`] when the standard's parser returns failure: its `error`
/// the validation error, its `position` the byte offset, its `state` the
/// parser's state; `in_base` set when `base` itself is not a URL (the
/// position is then in `base`). A build without the `whatwg` feature
/// always fails with [`Failure::unavailable`] (`error` is `None`).
pub fn parse(input: &str, base: Option<&str>) -> Result<Components, Failure> {
    #[cfg(feature = "whatwg")]
    {
        let url = match base {
            Some(base) => {
                let base = Url::parse(base)
                    .map_err(|f| Failure { in_base: true, ..f })?;
                base.join(input)
            }
            None => Url::parse(input),
        };
        url.map(|u| Components::from(&u))
    }
    #[cfg(not(feature = "whatwg"))]
    {
        let _ = (input, base);
        Err(Failure::unavailable())
    }
}

/// Resolves `reference` against `base` as a browser does.
///
/// ```
/// # #[cfg(feature = "whatwg")] {
/// use urlspec::whatwg::resolve;
/// assert_eq!(resolve("http://a/b/c/d;p?q", "../../../g").unwrap(), "http://a/g");
/// assert_eq!(resolve("http://a/b/c/d;p?q", "g\\h").unwrap(), "http://a/b/c/g/h");
/// # }
/// ```
///
/// # Errors
///
/// [`Failure`], as [`parse`] gives it: when `base` is not a URL
/// (`in_base` set) or `reference` does not parse against it.
pub fn resolve(base: &str, reference: &str) -> Result<String, Failure> {
    parse(reference, Some(base)).map(|c| c.href)
}

/// Whether `input` is a URL for the standard: absolute, or relative to a
/// placeholder base when `relative` is set.
///
/// ```
/// # #[cfg(feature = "whatwg")] {
/// use urlspec::whatwg::check;
/// assert!(check("../g", true).is_ok() && check("../g", false).is_err());
/// assert_eq!(check("http://[::1", false).unwrap_err().position, 7);
/// # }
/// ```
///
/// # Errors
///
/// [`Failure`], as [`parse`] gives it, with the byte offset in `input` of
/// the validation error that makes the parser fail.
pub fn check(input: &str, relative: bool) -> Result<(), Failure> {
    let base = relative.then_some("http://placeholder.invalid/");
    parse(input, base).map(|_| ())
}

/// Whether this build can parse under the standard.
#[must_use]
pub const fn available() -> bool {
    cfg!(feature = "whatwg")
}

#[cfg(not(feature = "whatwg"))]
#[cfg(test)]
mod tests {
    #[test]
    fn says_it_is_unavailable() {
        let f = super::parse("http://a/", None).unwrap_err();
        assert!(f.to_string().contains("feature"));
    }
}
