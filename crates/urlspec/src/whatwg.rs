//! [`Spec::Whatwg`](crate::Spec::Whatwg): the WHATWG URL Standard, as browsers parse, through the
//! well-kept `url` crate (cargo feature `whatwg`). urlspec does not
//! re-implement the standard; it maps the `url` crate's results onto its own
//! component model so that every command can show them beside the RFCs'.
//!
//! The mapping: `scheme`, `user` (the username, absent when empty: the
//! standard keeps no difference), `password` (likewise), `host`, `port`
//! (absent when it is the scheme's default, which the standard drops),
//! `path`, `query` and `fragment` (absent or present, possibly empty, as the
//! standard keeps them). The standard has no `net_loc` as such and no
//! `params`: both stay absent.
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
    /// The host, serialized (IPv6 in brackets).
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

/// Why the standard gives no URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure(pub String);

impl core::fmt::Display for Failure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Failure {}

#[cfg(feature = "whatwg")]
fn components(url: &url::Url) -> Components {
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

#[cfg(not(feature = "whatwg"))]
fn unavailable() -> Failure {
    Failure(
        "the whatwg spec needs urlspec built with the `whatwg` feature".into(),
    )
}

/// Parses `input` as the standard's basic URL parser does, against `base`
/// when given (a relative input needs one).
pub fn parse(input: &str, base: Option<&str>) -> Result<Components, Failure> {
    #[cfg(feature = "whatwg")]
    {
        let url = match base {
            Some(base) => url::Url::parse(base)
                .map_err(|e| Failure(alloc::format!("base: {e}")))?
                .join(input),
            None => url::Url::parse(input),
        };
        url.map(|u| components(&u)).map_err(|e| Failure(alloc::format!("{e}")))
    }
    #[cfg(not(feature = "whatwg"))]
    {
        let _ = (input, base);
        Err(unavailable())
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
pub fn resolve(base: &str, reference: &str) -> Result<String, Failure> {
    parse(reference, Some(base)).map(|c| c.href)
}

/// Whether `input` is a URL for the standard: absolute, or relative to a
/// placeholder base when `relative` is set.
pub fn check(input: &str, relative: bool) -> Result<(), Failure> {
    let base = relative.then_some("http://placeholder.invalid/");
    parse(input, base).map(|_| ())
}

/// Whether this build can parse under the standard.
pub const fn available() -> bool {
    cfg!(feature = "whatwg")
}

#[cfg(not(feature = "whatwg"))]
#[cfg(test)]
mod tests {
    #[test]
    fn says_it_is_unavailable() {
        assert!(super::parse("http://a/", None)
            .unwrap_err()
            .0
            .contains("feature"));
    }
}
