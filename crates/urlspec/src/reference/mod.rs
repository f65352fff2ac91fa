//! Parsing a URL reference into its components.
//!
//! A [`Reference`] borrows its input and records where each component
//! starts and ends; parsing allocates nothing, never fails and is linear in
//! the input. Whether the input is *valid* under its spec is a separate
//! question, answered by [`Reference::violations`].
//!
//! The components, and the order in which they are split off, depend on the
//! spec:
//!
//! | spec | components | split order |
//! |---|---|---|
//! | RFC 1630 | scheme, host part, path, search, fragment | fragment; `ialpha:` before any `/`; `//` host up to `/` or `?`; `?search` |
//! | draft 04, RFC 1808, 1996 drafts | scheme, net_loc, path, params, query, fragment | RFC 1808 §2.4: fragment, scheme, net_loc (up to `/` only), query, params, path |
//! | RFC 2396, RFC 3986 | scheme, authority, path, query, fragment | the Appendix B regular expression, with a scheme that starts with a letter |
//!
//! Absent and empty stay apart for every component (`None` vs `Some("")`),
//! so every reference re-serializes to exactly its input.
//!
//! ```
//! use urlspec::{Reference, Spec};
//!
//! let r = Reference::parse("http://a/b/c/d;p?q#f");
//! assert_eq!(r.scheme(), Some("http"));
//! assert_eq!(r.net_loc(), Some("a"));
//! assert_eq!(r.path(), "/b/c/d");
//! assert_eq!(r.params(), Some("p"));
//! assert_eq!(r.query(), Some("q"));
//! assert_eq!(r.fragment(), Some("f"));
//!
//! // RFC 1808 ends the net_loc only at `/`; RFC 3986 also at `?`.
//! assert_eq!(Reference::parse("http://a?q").net_loc(), Some("a?q"));
//! let r = Reference::parse_with("http://a?q", Spec::Rfc3986);
//! assert_eq!((r.net_loc(), r.query()), (Some("a"), Some("q")));
//! ```

mod redact;
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod simd;
pub(crate) mod split;
pub(crate) mod table;
pub(crate) mod validate;

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

pub(crate) use redact::{password_span, redact_slice};
pub use redact::{Redacted, Secret};
pub use validate::{Violation, ViolationKind};

use crate::server::Server;
use crate::spec::Spec;

pub(crate) const NONE: usize = usize::MAX;

/// Component offsets. Every offset is a byte index into the input; `NONE`
/// marks an absent component. The components are in input order:
/// `[prefix][scheme ':']['//' net_loc][path][';' params]['?' query]['#'
/// fragment]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Meta {
    /// Start of the reference proper: after an RFC 1630 `url:` prefix.
    pub(crate) start: usize,
    /// The `:` after the scheme.
    pub(crate) scheme_end: usize,
    /// The first byte after `//`.
    pub(crate) net_loc_start: usize,
    pub(crate) path_start: usize,
    pub(crate) path_end: usize,
    /// The `;` before the params.
    pub(crate) params_start: usize,
    /// The `?` before the query.
    pub(crate) query_start: usize,
    /// The `#` before the fragment.
    pub(crate) fragment_start: usize,
    /// The [`table`] flags that every byte of its component has: a
    /// component's class flag (and `NO_PCT`) stays set while all of its
    /// bytes are in its grammar class (and none is `%`). A summary the
    /// splitter gets for free, for [`validate::quick`].
    pub(crate) fits: u16,
}

/// Whether a reference has a scheme, and what follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No scheme: a relative reference.
    Relative,
    /// A scheme followed by `//` or `/`: RFC 2396 `hier_part`.
    Hierarchical,
    /// A scheme followed by anything else: RFC 2396 `opaque_part`, RFC 3986
    /// `path-rootless` or `path-empty`.
    Opaque,
}

/// A parsed URL reference, borrowing its input.
///
/// `Reference` is `Copy`: it is the input plus a few offsets.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reference<'a> {
    input: &'a str,
    spec: Spec,
    meta: Meta,
}

/// The parse of `input` under `spec` by the AVX2 splitter and by the
/// scalar one, where the CPU has AVX2 (`None` elsewhere), for the fuzz
/// target that checks that they agree. Not part of the API.
#[doc(hidden)]
#[must_use]
pub fn both_splitters(input: &str, spec: Spec) -> Option<[Reference<'_>; 2]> {
    let [a, b] = split::both(input.as_bytes(), spec)?;
    Some([a, b].map(|meta| Reference { input, spec, meta }))
}

impl<'a> Reference<'a> {
    /// Parses `input` under the default spec, RFC 1808.
    ///
    /// ```
    /// use urlspec::Reference;
    /// let r = Reference::parse("g;x?y#s");
    /// assert_eq!((r.path(), r.params(), r.query()), ("g", Some("x"), Some("y")));
    /// ```
    #[inline]
    #[must_use]
    pub fn parse(input: &'a str) -> Reference<'a> {
        Reference::parse_with(input, Spec::Rfc1808)
    }

    /// Parses `input` under `spec`.
    ///
    /// ```
    /// use urlspec::{Reference, Spec};
    /// // RFC 1630 has no params component: `;` stays in the path.
    /// let r = Reference::parse_with("g;x", Spec::Rfc1630);
    /// assert_eq!((r.path(), r.params()), ("g;x", None));
    /// ```
    #[inline]
    #[must_use]
    pub fn parse_with(input: &'a str, spec: Spec) -> Reference<'a> {
        Reference { input, spec, meta: split::split(input.as_bytes(), spec) }
    }

    /// The spec the reference was parsed under.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The whole input, exactly as given.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        self.input
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.input[start..end]
    }

    /// The end of the component that starts at `from` (the next present
    /// delimiter after it).
    fn end_after(&self, from: usize) -> usize {
        let m = &self.meta;
        [m.params_start, m.query_start, m.fragment_start]
            .into_iter()
            .find(|&d| d != NONE && d > from)
            .unwrap_or(self.input.len())
    }

    /// The RFC 1630 `url:` prefix, when the reference has one.
    ///
    /// ```
    /// use urlspec::{Reference, Spec};
    /// let r = Reference::parse_with("URL:http://a/b", Spec::Rfc1630);
    /// assert_eq!((r.prefix(), r.scheme()), (Some("URL:"), Some("http")));
    /// ```
    #[must_use]
    pub fn prefix(&self) -> Option<&'a str> {
        (self.meta.start > 0).then(|| self.slice(0, self.meta.start))
    }

    /// The scheme, as written.
    #[must_use]
    pub fn scheme(&self) -> Option<&'a str> {
        let m = &self.meta;
        (m.scheme_end != NONE).then(|| self.slice(m.start, m.scheme_end))
    }

    /// What follows `//`: RFC 1808's `net_loc`, the 1996 `server`, RFC
    /// 2396/3986's `authority`, RFC 1630's host part. `Some("")` for a `//`
    /// followed by nothing (`file:///x`).
    #[must_use]
    pub fn net_loc(&self) -> Option<&'a str> {
        let m = &self.meta;
        (m.net_loc_start != NONE)
            .then(|| self.slice(m.net_loc_start, m.path_start))
    }

    /// Same as [`net_loc`](Self::net_loc), under the RFC 2396/3986 name.
    #[must_use]
    pub fn authority(&self) -> Option<&'a str> {
        self.net_loc()
    }

    /// The path, with its leading `/` when it has one. Never absent.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.slice(self.meta.path_start, self.meta.path_end)
    }

    /// The params after the first `;` of the path (specs with a params
    /// component only; in the others `;` stays in the path).
    #[must_use]
    pub fn params(&self) -> Option<&'a str> {
        let p = self.meta.params_start;
        (p != NONE).then(|| self.slice(p + 1, self.end_after(p)))
    }

    /// The query after the first `?` (RFC 1630 calls it `search`).
    #[must_use]
    pub fn query(&self) -> Option<&'a str> {
        let q = self.meta.query_start;
        (q != NONE).then(|| self.slice(q + 1, self.end_after(q)))
    }

    /// The fragment after the first `#`.
    #[must_use]
    pub fn fragment(&self) -> Option<&'a str> {
        let f = self.meta.fragment_start;
        (f != NONE).then(|| self.slice(f + 1, self.input.len()))
    }

    /// The byte range of each present component, for callers that map
    /// components back to the input (the range excludes delimiters).
    #[must_use]
    pub fn span(&self, component: Part) -> Option<core::ops::Range<usize>> {
        let m = &self.meta;
        let of = |s: &str| crate::chars::span_of(self.input, s);
        match component {
            Part::Scheme => self.scheme().map(of),
            Part::NetLoc => self.net_loc().map(of),
            Part::Path => Some(m.path_start..m.path_end),
            Part::Params => self.params().map(of),
            Part::Query => self.query().map(of),
            Part::Fragment => self.fragment().map(of),
        }
    }

    /// Whether the reference has a scheme (an absolute URL, possibly with a
    /// fragment).
    #[must_use]
    pub fn has_scheme(&self) -> bool {
        self.meta.scheme_end != NONE
    }

    /// Whether the path starts with `/` (RFC 1808 P6: the parser "must
    /// remember whether it was present").
    #[must_use]
    pub fn path_is_absolute(&self) -> bool {
        self.path().starts_with('/')
    }

    /// Whether the reference is relative, hierarchical or opaque.
    ///
    /// ```
    /// use urlspec::{reference::Kind, Reference};
    /// assert_eq!(Reference::parse("mailto:a@b").kind(), Kind::Opaque);
    /// assert_eq!(Reference::parse("foo:/bar").kind(), Kind::Hierarchical);
    /// assert_eq!(Reference::parse("../g").kind(), Kind::Relative);
    /// ```
    #[must_use]
    pub fn kind(&self) -> Kind {
        if !self.has_scheme() {
            Kind::Relative
        } else if self.net_loc().is_some() || self.path_is_absolute() {
            Kind::Hierarchical
        } else {
            Kind::Opaque
        }
    }

    /// Whether the path is hierarchical in RFC 1630's sense: a net_loc is
    /// present or the path contains `/` ("these must imply a hierarchical
    /// structure").
    #[must_use]
    pub fn has_hierarchical_path(&self) -> bool {
        self.net_loc().is_some() || self.path().contains('/')
    }

    /// Whether the reference fits the spec's generic syntax, so that it can
    /// serve as a base (RFC 1808 §2.2; RFC 2396 §5). Under RFC 1808 every valid reference
    /// does; under the 1996 drafts the server must parse; under RFC 2396 the
    /// part after the scheme must be a `hier_part`.
    #[must_use]
    pub fn is_generic(&self) -> bool {
        use crate::spec::ServerGrammar as G;
        match self.spec.rules().server {
            G::Server2396 => self.kind() != Kind::Opaque,
            G::Server96 => {
                self.server().is_none_or(|s| s.is_valid())
                    && !(self.spec == Spec::Draft96Dec
                        && self.params().is_some_and(|p| p.contains('/')))
            }
            _ => true,
        }
    }

    /// Whether the input is the empty string.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.input.is_empty()
    }

    /// The server part of the net_loc: user, password, host and port, split
    /// by the spec's grammar (RFC 1808's opaque net_loc is split by the 1996
    /// server grammar, leniently). `None` when there is no net_loc.
    ///
    /// ```
    /// use urlspec::{Reference, Spec};
    /// let r = Reference::parse_with("ftp://foo:@host.com/", Spec::Draft96);
    /// let s = r.server().unwrap();
    /// assert_eq!((s.user(), s.password(), s.host()), (Some("foo"), Some(""), Some("host.com")));
    /// ```
    #[must_use]
    pub fn server(&self) -> Option<Server<'a>> {
        let m = &self.meta;
        let plain = table::AUTH | table::NO_PCT;
        if m.net_loc_start != NONE
            && m.fits & plain == plain
            && self.spec.rules().server
                == crate::spec::ServerGrammar::Authority3986
        {
            // The splitter saw a plain registered name (or IPv4 address):
            // nothing to search for.
            return Some(Server::plain_reg_name(
                self.input,
                m.net_loc_start,
                m.path_start,
                self.spec,
                self.scheme(),
            ));
        }
        (m.net_loc_start != NONE).then(|| {
            Server::parse_at(
                self.input,
                m.net_loc_start,
                m.path_start,
                self.spec,
                self.scheme(),
            )
        })
    }

    /// Every way the reference breaks its spec's grammar, in input order.
    /// Empty when the reference is valid.
    ///
    /// ```
    /// use urlspec::{Reference, Spec};
    /// let r = Reference::parse_with("http://a/{x}", Spec::Rfc1808);
    /// let v = r.violations();
    /// assert_eq!((v[0].position, v[0].rule), (9, "pchar"));
    /// assert!(Reference::parse_with("http://a/{x}", Spec::Draft04).is_valid());
    /// ```
    #[must_use]
    pub fn violations(&self) -> Vec<Violation> {
        let mut out = Vec::new();
        // Most references are valid: say so without the full check.
        if validate::quick(self) == Some(true) {
            return out;
        }
        validate::check(self, &mut |v| {
            out.push(v);
            true
        });
        out
    }

    /// The first of [`violations`](Self::violations), found without the
    /// rest: the check stops there and allocates nothing.
    pub(crate) fn first_violation(&self) -> Option<Violation> {
        if validate::quick(self) == Some(true) {
            return None;
        }
        let mut first = None;
        validate::check(self, &mut |v| {
            first = Some(v);
            false
        });
        first
    }

    /// Whether the reference is valid under its spec (stops at the first
    /// violation; allocates nothing).
    #[inline]
    #[must_use]
    pub fn is_valid(&self) -> bool {
        match validate::quick(self) {
            Some(valid) => valid,
            None => self.check_valid(),
        }
    }

    /// [`is_valid`](Self::is_valid) by the full check, for the cases the
    /// splitter's summary does not settle.
    #[inline(never)]
    fn check_valid(&self) -> bool {
        let mut valid = true;
        validate::check(self, &mut |_| {
            valid = false;
            false
        });
        valid
    }

    /// The same reference under another spec.
    #[must_use]
    pub fn reparse(&self, spec: Spec) -> Reference<'a> {
        Reference::parse_with(self.input, spec)
    }

    /// An owned copy: the input copied, the offsets kept. (Not
    /// `ToOwned`, which a `Copy` type has through `Clone`.)
    ///
    /// ```
    /// use urlspec::Reference;
    /// let owned = Reference::parse("http://a/b?q").to_buf();
    /// assert_eq!(owned.as_reference().query(), Some("q"));
    /// ```
    #[must_use]
    pub fn to_buf(&self) -> ReferenceBuf {
        ReferenceBuf {
            input: self.input.to_owned(),
            spec: self.spec,
            meta: self.meta,
        }
    }

    /// The components recombined, with their delimiters: equal to the input
    /// for every input (the parse is lossless).
    #[must_use]
    pub fn recompose(&self) -> String {
        let mut out = String::with_capacity(self.input.len());
        if let Some(p) = self.prefix() {
            out.push_str(p);
        }
        if let Some(s) = self.scheme() {
            out.push_str(s);
            out.push(':');
        }
        if let Some(n) = self.net_loc() {
            out.push_str("//");
            out.push_str(n);
        }
        out.push_str(self.path());
        for (delim, part) in
            [(';', self.params()), ('?', self.query()), ('#', self.fragment())]
        {
            if let Some(p) = part {
                out.push(delim);
                out.push_str(p);
            }
        }
        out
    }

    pub(crate) fn meta(&self) -> &Meta {
        &self.meta
    }
}

/// A component, for [`Reference::span`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The scheme.
    Scheme,
    /// The net_loc / authority.
    NetLoc,
    /// The path.
    Path,
    /// The params.
    Params,
    /// The query.
    Query,
    /// The fragment.
    Fragment,
}

/// The components, with any password shown as `****` (R96-8.4: logs are
/// where secrets leak). `Display` stays the exact input.
///
/// ```
/// let r = urlspec::Reference::parse("ftp://user:secret@h/f");
/// assert!(!format!("{r:?}").contains("secret"));
/// assert_eq!(r.to_string(), "ftp://user:secret@h/f");
/// ```
impl fmt::Debug for Reference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&Redacted::new(self), f)
    }
}

impl fmt::Display for Reference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.input)
    }
}

/// An owned [`Reference`]: the input string plus the same offsets.
///
/// ```
/// use urlspec::{Reference, ReferenceBuf};
/// let owned: ReferenceBuf = Reference::parse("http://a/b?q").to_buf();
/// assert_eq!(owned.as_reference().query(), Some("q"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ReferenceBuf {
    input: String,
    spec: Spec,
    meta: Meta,
}

impl ReferenceBuf {
    /// Parses an owned string under `spec`.
    #[must_use]
    pub fn parse_with(input: String, spec: Spec) -> ReferenceBuf {
        let meta = split::split(input.as_bytes(), spec);
        ReferenceBuf { input, spec, meta }
    }

    /// The borrowed view, with every getter. (Not `AsRef`, which must
    /// return a reference.)
    #[must_use]
    pub fn as_reference(&self) -> Reference<'_> {
        Reference { input: &self.input, spec: self.spec, meta: self.meta }
    }

    /// The input string.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.input
    }

    /// The input string, given back.
    #[must_use]
    pub fn into_string(self) -> String {
        self.input
    }
}

impl fmt::Debug for ReferenceBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_reference().fmt(f)
    }
}

impl fmt::Display for ReferenceBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.input)
    }
}

impl From<Reference<'_>> for ReferenceBuf {
    fn from(r: Reference<'_>) -> ReferenceBuf {
        r.to_buf()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chars::{rfc1630, ALPHA, SCHEME};
    use crate::escape::is_escape_at;
    use crate::spec::SchemeRule;

    /// The text of each pair corpus (`relative-pairs.tsv`,
    /// `cc-relative-10k.tsv`) found under `URLSPEC_DATA` or the shared data
    /// beside the repository, with its name; a missing one is noted and
    /// left out.
    #[cfg(feature = "std")]
    pub(crate) fn pair_corpora() -> Vec<(&'static str, String)> {
        extern crate std;
        let dir = match std::env::var_os("URLSPEC_DATA") {
            Some(d) if !d.is_empty() => std::path::PathBuf::from(d),
            _ => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/data/urls"),
        };
        ["relative-pairs.tsv", "cc-relative-10k.tsv"]
            .into_iter()
            .filter_map(|name| {
                let path = dir.join(name);
                let text = std::fs::read_to_string(&path);
                if text.is_err() {
                    std::eprintln!(
                        "note: {}: missing, skipped",
                        path.display()
                    );
                }
                Some((name, text.ok()?))
            })
            .collect()
    }

    /// Every string of up to three tokens of an alphabet chosen for the
    /// splitter's and the validity check's corner cases, then longer
    /// strings built from them (so that word and eight-byte boundaries
    /// fall everywhere).
    pub(crate) fn samples() -> Vec<String> {
        const TOKENS: [&str; 26] = [
            "a", "B1", "/", "//", "?", "#", ";", ":", "@", ".", "..", "%",
            "%4", "%41", "[", "]", "~", " ", "é", "+", "http:", "url:",
            "x.y-z:", "[::1]", "1.2.3.4", ":80",
        ];
        let mut out = vec![String::new()];
        for a in TOKENS {
            out.push(a.to_owned());
            for b in TOKENS {
                out.push(format!("{a}{b}"));
                for c in [
                    "/",
                    "?",
                    "#",
                    "abcdefghij",
                    "%2F",
                    ":",
                    ".flake8",
                    "//.x/y",
                ] {
                    out.push(format!("{a}{b}{c}"));
                }
            }
        }
        let long: Vec<String> = out
            .iter()
            .step_by(7)
            .zip(out.iter().skip(3).step_by(11))
            .map(|(x, y)| format!("https://www.example{x}.com/some/pa{y}th/x"))
            .collect();
        out.extend(long);
        out
    }

    /// The splitter as first written, with plain byte loops: the oracle.
    fn split_by_loops(b: &[u8], spec: Spec) -> [usize; 8] {
        let rules = spec.rules();
        let len = b.len();
        let scheme_end = |start: usize, end: usize, rule: SchemeRule| {
            let mut i = start;
            let ok = |c: u8| match rule {
                SchemeRule::Ialpha => rfc1630::XALPHA.contains(c),
                _ => SCHEME.contains(c),
            };
            if rule == SchemeRule::AnyFirst
                || (i < end && ALPHA.contains(b[i]))
            {
                if rule != SchemeRule::AnyFirst {
                    i += 1;
                }
                while i < end {
                    if ok(b[i]) {
                        i += 1;
                    } else if rule == SchemeRule::Ialpha
                        && is_escape_at(&b[..end], i)
                    {
                        i += 3;
                    } else {
                        break;
                    }
                }
            }
            if i > start && i < end && b[i] == b':' {
                i
            } else {
                NONE
            }
        };
        let mut start = 0;
        if rules.scheme == SchemeRule::Ialpha
            && len > 4
            && b[..4].eq_ignore_ascii_case(b"url:")
        {
            let end = b.iter().position(|&c| c == b'#').unwrap_or(len);
            if scheme_end(4, end, SchemeRule::Ialpha) != NONE {
                start = 4;
            }
        }
        let s = scheme_end(start, len, rules.scheme);
        let mut pos = if s == NONE { start } else { s + 1 };
        let mut net_loc_start = NONE;
        let find = |from: usize, set: &[u8]| {
            b[from..]
                .iter()
                .position(|c| set.contains(c))
                .map_or(len, |k| from + k)
        };
        if b[pos..].starts_with(b"//") {
            net_loc_start = pos + 2;
            let ends: &[u8] = if rules.authority_ends.contains(b'?') {
                b"/?#"
            } else {
                b"/#"
            };
            pos = find(net_loc_start, ends);
        }
        let path_start = pos;
        let mut i = find(pos, if rules.params { b"?;#" } else { b"?#" });
        let mut params_start = NONE;
        if i < len && b[i] == b';' {
            params_start = i;
            i = find(i + 1, b"?#");
        }
        let path_end = if params_start == NONE { i } else { params_start };
        let mut query_start = NONE;
        if i < len && b[i] == b'?' {
            query_start = i;
            i = find(i + 1, b"#");
        }
        let fragment_start = if i < len { i } else { NONE };
        [
            start,
            s,
            net_loc_start,
            path_start,
            path_end,
            params_start,
            query_start,
            fragment_start,
        ]
    }

    #[test]
    fn splitter_agrees_with_byte_loops() {
        for input in samples() {
            for spec in Spec::IETF_AND_WHATWG {
                let m = Reference::parse_with(&input, spec).meta;
                let got = [
                    m.start,
                    m.scheme_end,
                    m.net_loc_start,
                    m.path_start,
                    m.path_end,
                    m.params_start,
                    m.query_start,
                    m.fragment_start,
                ];
                let want = split_by_loops(input.as_bytes(), spec);
                assert_eq!(got, want, "{spec} {input:?}");
            }
        }
    }

    #[test]
    fn quick_validity_agrees_with_the_full_check() {
        // Besides the samples, components that end inside a word with
        // bytes after them that are outside their class (the splitter's
        // class flags for the net_loc and the path count those bytes).
        let mut inputs = samples();
        for tail in [
            "/:@x?y#z", "/[", "/a?b", "x:y", "/%41:", "?[", "#[", ";c/d;e?f",
            "/a;b?c#d", "?a:b@c", "/~x", "/a b", ":80/x?y", "@h/p",
        ] {
            for host in ["a", "ab.cd", "abcdefg", "abcdefgh", "a.b.c.d.e.f.g"]
            {
                inputs.push(format!("http://{host}{tail}"));
                inputs.push(format!("//{host}{tail}"));
                inputs.push(format!("http://[::1]{tail}/{host}"));
            }
        }
        for input in inputs {
            for spec in Spec::IETF {
                let r = Reference::parse_with(&input, spec);
                let mut valid = true;
                validate::check(&r, &mut |_| {
                    valid = false;
                    false
                });
                assert_eq!(r.is_valid(), valid, "{spec} {input:?}");
                assert_eq!(
                    r.violations().is_empty(),
                    valid,
                    "{spec} {input:?}"
                );
            }
        }
    }
}
