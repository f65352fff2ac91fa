//! `urn`, `x-` experimental schemes, the `url:` prefix, and every other
//! scheme.
//!
//! * RFC 1630 "URN": the `urn:` prefix is reserved; the URN is encoded as
//!   its own standard says, except that a hierarchical URN uses `/` with
//!   the most significant part on the left, and "Any characters with
//!   reserved meanings in the URI syntax shall be escape encoded". Example:
//!   `urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3`.
//! * "Experimental prefixes may be used by mutual agreement between
//!   parties, and must start with the characters "x-"" (RFC 1630; the 1996
//!   draft §7 reserves them the same way).
//! * `prefixedurl u r l : url` (RFC 1630). The 1996 draft's Appendix B
//!   makes `URL:` a text wrapper that "does not form part of the URL"; only
//!   RFC 1630's parse strips it (docs/readings.md#a33).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{
    push_opt, view, Parts, SchemeView, SchemeViolation, Src, Strict,
    STRICT_SPEC, XPALPHA,
};
use crate::reference::Reference;

/// A `urn` URL.
///
/// ```
/// use urlspec::scheme::Urn;
/// use urlspec::Reference;
/// let r = Reference::parse("urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3");
/// let urn = Urn::new(&r);
/// assert!(urn.is_hierarchical());
/// assert_eq!(urn.segments().next(), Some("iana"));
/// assert!(urn.violations().is_empty());
/// // `:` is reserved in URI syntax, so RFC 1630 wants it escaped.
/// assert!(!Urn::new(&Reference::parse("urn:ietf:rfc:2141")).violations().is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Urn<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
}

impl<'a> Urn<'a> {
    /// Reads `r` as a urn URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Urn<'a> {
        Urn { r: Src(*r), parts: Parts::of(r) }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The URN after `urn:`, as written (up to `#`).
    #[must_use]
    pub fn name(&self) -> &'a str {
        self.parts.tail
    }

    /// Whether the URN uses `/` hierarchy.
    #[must_use]
    pub fn is_hierarchical(&self) -> bool {
        self.name().contains('/')
    }

    /// The `/`-separated parts, most significant first, as written.
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        let n = self.name();
        n.strip_prefix('/').unwrap_or(n).split('/')
    }

    /// Where the URN breaks RFC 1630's rule: reserved characters (`= ; :
    /// ? ` and space) must be escaped; `/` only delimits.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            if let Some(n) = self.r.net_loc() {
                let at = s.at(n).saturating_sub(2);
                s.report(at, "urn", "a URN has no `//` part");
            }
            for seg in self.name().split('/') {
                s.chars(
                    seg,
                    XPALPHA,
                    "urn",
                    "URN (reserved characters are escaped)",
                );
            }
        })
    }

    /// The lenient readings applied (none).
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("urn", self.name().to_string()));
        out.push(("hierarchical", self.is_hierarchical().to_string()));
    }
}

/// An experimental `x-` scheme: usable "by mutual agreement", read with the
/// generic syntax.
///
/// ```
/// use urlspec::scheme::Experimental;
/// use urlspec::Reference;
/// let x = Experimental::new(&Reference::parse("x-foo:bar"));
/// assert_eq!(x.name(), "foo");
/// assert!(x.violations().is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Experimental<'a> {
    r: Src<'a>,
}

impl<'a> Experimental<'a> {
    /// Reads `r` as an experimental URL.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Experimental<'a> {
        Experimental { r: Src(*r) }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The scheme without its `x-`.
    #[must_use]
    pub fn name(&self) -> &'a str {
        let s = self.r.scheme().unwrap_or("");
        s.get(2..).unwrap_or("")
    }

    /// Violations of RFC 1630's generic syntax.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        generic_violations(&self.r)
    }

    /// The lenient readings applied (none).
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("experimental", self.name().to_string()));
        generic_fields(&self.r, out);
    }
}

/// A URL whose scheme is `url`: the RFC 1630 prefix, which only RFC 1630's
/// parse strips.
///
/// ```
/// use urlspec::scheme::UrlPrefix;
/// use urlspec::{Reference, Spec};
/// let r = Reference::parse_with("url:http://info.cern.ch/", Spec::Draft96);
/// let u = UrlPrefix::new(&r);
/// assert_eq!(u.inner(), "http://info.cern.ch/");
/// assert_eq!(u.inner_reference().scheme(), Some("http"));
/// assert!(u.lenient()[0].starts_with("A33"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct UrlPrefix<'a> {
    r: Src<'a>,
}

impl<'a> UrlPrefix<'a> {
    /// Reads `r` as a prefixed URL.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> UrlPrefix<'a> {
        UrlPrefix { r: Src(*r) }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The text after `url:`.
    #[must_use]
    pub fn inner(&self) -> &'a str {
        let s = self.r.as_str();
        let start = self
            .r
            .scheme()
            .map_or(0, |sch| crate::bytes::offset_in(s, sch) + sch.len() + 1);
        &s[start..]
    }

    /// The text after `url:`, parsed under the same spec.
    #[must_use]
    pub fn inner_reference(&self) -> Reference<'a> {
        Reference::parse_with(self.inner(), self.r.spec())
    }

    /// Violations of RFC 1630's `prefixedurl`: those of the wrapped URL.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        let r = self.r.reparse(STRICT_SPEC);
        match view(&r) {
            // `url:url:…`: the wrapped URL's scheme is `url` again, which
            // RFC 1630 defines no production for (and whose view would
            // come back here).
            SchemeView::UrlPrefix(_) => generic_violations(&r),
            wrapped if r.prefix().is_some() => wrapped.violations(),
            _ => generic_violations(&self.r),
        }
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        alloc::vec![
            "A33: outside RFC 1630, `url:` is a text wrapper, not part of \
             the URL; here it parses as a scheme named `url` and the wrapped \
             URL is offered as `inner`"
        ]
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("inner", self.inner().to_string()));
    }
}

/// Any other scheme, or a relative reference: the generic syntax, through
/// the reference itself.
///
/// ```
/// use urlspec::scheme::Generic;
/// use urlspec::Reference;
/// let r = Reference::parse("foo://a/b;p?q");
/// let g = Generic::new(&r);
/// assert_eq!(g.reference().params(), Some("p"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Generic<'a> {
    r: Src<'a>,
}

impl<'a> Generic<'a> {
    /// Wraps `r`.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Generic<'a> {
        Generic { r: Src(*r) }
    }

    /// The reference, with every generic getter.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// Violations of RFC 1630's generic syntax.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        generic_violations(&self.r)
    }

    /// The lenient readings applied (none).
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        generic_fields(&self.r, out);
    }
}

/// The violations of `r` re-parsed under RFC 1630's generic syntax.
fn generic_violations(r: &Reference<'_>) -> Vec<SchemeViolation> {
    r.reparse(STRICT_SPEC)
        .violations()
        .into_iter()
        .map(|v| SchemeViolation {
            position: v.position,
            production: v.rule,
            message: v.to_string(),
        })
        .collect()
}

fn generic_fields(r: &Reference<'_>, out: &mut Vec<(&'static str, String)>) {
    push_opt(out, "net_loc", r.net_loc());
    out.push(("path", r.path().to_string()));
    push_opt(out, "params", r.params());
    push_opt(out, "query", r.query());
}
