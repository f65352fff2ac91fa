//! `prospero` (RFC 1630 "Prospero").
//!
//! ```text
//! prosperolink p r o s p e r o : / / hostport / hsoname [ % 0 0 version [ attributes ] ]
//! hsoname path
//! version digits
//! attributes attribute [ attributes ]
//! attribute alphanums
//! ```
//!
//! "If present, the version number is separated from the host specific
//! object name by the characters "%00" (percent zero zero), this being an
//! escaped string terminator (null)." The split happens on the literal
//! `%00` before any decoding; the version is the greedy run of digits after
//! it and the rest the attributes (docs/readings.md#a31).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    decode, push_login, push_opt, strip_slash, Parts, SchemeViolation, Src,
    Strict,
};
use crate::chars::{ALPHANUM, DIGIT};
use crate::reference::Reference;

/// The default port, from the one registry.
const DEFAULT_PORT: u16 = super::registered("prospero");

/// A `prospero` URL.
///
/// ```
/// use urlspec::scheme::Prospero;
/// use urlspec::Reference;
/// let p = Prospero::new(&Reference::parse("prospero://host/pub/x%002"));
/// assert_eq!((p.hsoname(), p.version(), p.attributes()), ("pub/x", Some("2"), None));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Prospero<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    hsoname: &'a str,
    version: Option<&'a str>,
    attributes: Option<&'a str>,
}

impl<'a> Prospero<'a> {
    /// Reads `r` as a prospero URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Prospero<'a> {
        let parts = Parts::of(r);
        let t = strip_slash(parts.path_text());
        let (hsoname, version, attributes) = match t.find("%00") {
            None => (t, None, None),
            Some(k) => {
                let after = &t[k + 3..];
                let digits =
                    after.bytes().take_while(|b| DIGIT.contains(*b)).count();
                let attrs = &after[digits..];
                (
                    &t[..k],
                    Some(&after[..digits]),
                    (!attrs.is_empty()).then_some(attrs),
                )
            }
        };
        Prospero { r: Src(*r), parts, hsoname, version, attributes }
    }

    super::view_accessors! {
        /// Host and port.
        login;
        /// The host.
        host;
        /// The port: the one written, else 1525 (RFC 1738, not a seed).
        port = DEFAULT_PORT;
    }

    /// The host-specific object name, as written.
    #[must_use]
    pub fn hsoname(&self) -> &'a str {
        self.hsoname
    }

    /// The object name, decoded.
    #[must_use]
    pub fn hsoname_decoded(&self) -> Cow<'a, str> {
        decode(self.hsoname)
    }

    /// The version after `%00`, as written (may be empty when invalid).
    #[must_use]
    pub fn version(&self) -> Option<&'a str> {
        self.version
    }

    /// The attributes after the version, as written.
    #[must_use]
    pub fn attributes(&self) -> Option<&'a str> {
        self.attributes
    }

    /// Where the URL breaks `prosperolink`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "prosperolink", false);
            let text = self.parts.path_text();
            if self.r.net_loc().is_some() && !text.starts_with('/') {
                s.report_at(
                    text,
                    "prosperolink",
                    "a `/` follows the hostport",
                );
            }
            s.path(self.hsoname, "hsoname");
            if let Some(v) = self.version {
                if v.is_empty() {
                    s.report_at(v, "version", "`%00` is followed by digits");
                }
            }
            if let Some(a) = self.attributes {
                s.chars_with(a, ALPHANUM, false, "alphanums", "attributes");
            }
            s.no_search(&self.parts, "prosperolink");
        })
    }

    /// The lenient readings applied (none).
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_login(out, self.login(), Some(self.port()));
        out.push(("hsoname", self.hsoname_decoded().into_owned()));
        push_opt(out, "version", self.version);
        push_opt(out, "attributes", self.attributes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_greedy_digits_then_attributes() {
        let r = Reference::parse("prospero://h/a/b%0012abc");
        let p = Prospero::new(&r);
        assert_eq!(p.version(), Some("12"));
        assert_eq!(p.attributes(), Some("abc"));
        assert!(p.violations().is_empty());
        let r = Reference::parse("prospero://h/a%00");
        assert!(!Prospero::new(&r).violations().is_empty());
    }

    #[test]
    fn hsoname_to_string() {
        let r = Reference::parse("prospero://h/a%20b");
        assert_eq!(Prospero::new(&r).hsoname_decoded().to_string(), "a b");
    }
}
