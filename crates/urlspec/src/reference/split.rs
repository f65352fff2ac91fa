//! The component splitter: one pass over the input, driven by the spec's
//! [`Rules`](crate::spec::Rules).
//!
//! RFC 1808 §2.4 orders the steps: P1 fragment (first `#`), P2 scheme, P3
//! net_loc (after `//`, up to the next `/`), P4 query (first `?`), P5 params
//! (first `;` before the query), P6 path. RFC 1630, RFC 2396 and RFC 3986
//! follow the same order with other scheme rules, other net_loc terminators
//! (`?` too) and no params; RFC 2396/3986's Appendix B regular expression
//! is exactly this order.

use memchr::memchr;

use super::table::{
    self, AUTH, AUTH_GO, FRAGMENT, NO_PCT, PARAM, PARAMS_GO, PATH_GO, QUERY,
    QUERY_GO, SCHEME,
};
use super::{Meta, NONE};
use crate::chars::{rfc1630, ALPHA};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, Spec};

/// Splits `b` into components under `spec`.
///
/// Each component is one [`table::run`] over the spec's byte table, which
/// also notes whether the component holds only bytes of its grammar class
/// ([`Meta::fits`]).
#[inline]
pub(super) fn split(b: &[u8], spec: Spec) -> Meta {
    let rules = spec.rules();
    let t = table::of(spec);
    let len = b.len();
    let start =
        if rules.scheme == SchemeRule::Ialpha { url_prefix(b) } else { 0 };
    // A component's class flag and `NO_PCT` stay in `fits` while every
    // byte of it has them.
    let mut fits = u16::MAX;

    // P2: the scheme. Scheme characters exclude `#`, so a scheme found here
    // lies before the fragment (P1).
    let scheme_end = scheme_end(b, start, len, rules.scheme, t);
    let mut pos = if scheme_end == NONE { start } else { scheme_end + 1 };

    // P3: the net_loc, up to `/` (and `?` where the spec says so) or `#`.
    let mut net_loc_start = NONE;
    if b.len() - pos >= 2 && b[pos] == b'/' && b[pos + 1] == b'/' {
        net_loc_start = pos + 2;
        let (end, acc) = table::run(b, net_loc_start, t, AUTH_GO);
        fits &= acc | !(AUTH | NO_PCT);
        pos = end;
    }
    let path_start = pos;

    // P5, P4 and P1 in input order: the path ends at the first `;` (where
    // params are a component), `?` or `#`; the params at the first `?` or
    // `#`; the query at the first `#`.
    let (mut i, acc) = table::run(b, pos, t, PATH_GO);
    fits &= acc | !(table::SEGMENT | NO_PCT);
    let path_end = i;
    let mut params_start = NONE;
    if i < len && b[i] == b';' {
        params_start = i;
        let (end, acc) = table::run(b, i + 1, t, PARAMS_GO);
        fits &= acc | !(PARAM | NO_PCT);
        i = end;
    }
    let mut query_start = NONE;
    if i < len && b[i] == b'?' {
        query_start = i;
        let (end, acc) = table::run(b, i + 1, t, QUERY_GO);
        fits &= acc | !(QUERY | NO_PCT);
        i = end;
    }
    let mut fragment_start = NONE;
    if i < len {
        fragment_start = i;
        let (_, acc) = table::run(b, i + 1, t, table::ANY);
        fits &= acc | !(FRAGMENT | NO_PCT);
    }
    Meta {
        start,
        scheme_end,
        net_loc_start,
        path_start,
        path_end,
        params_start,
        query_start,
        fragment_start,
        fits,
    }
}

/// The index of the `:` that ends a scheme at `b[start..end]`, or `NONE`.
#[inline]
fn scheme_end(
    b: &[u8],
    start: usize,
    end: usize,
    rule: SchemeRule,
    t: &[u16; 256],
) -> usize {
    let mut i = start;
    let scheme = |i: usize| t[usize::from(b[i])] & SCHEME != 0;
    match rule {
        SchemeRule::AnyFirst => {
            while i < end && scheme(i) {
                i += 1;
            }
        }
        SchemeRule::LetterFirst => {
            if i < end && ALPHA.contains(b[i]) {
                i += 1;
                while i < end && scheme(i) {
                    i += 1;
                }
            }
        }
        SchemeRule::Ialpha => {
            // `ialpha alpha [ xalphas ]`, `xalpha` including escapes.
            if i < end && ALPHA.contains(b[i]) {
                i += 1;
                while i < end {
                    if rfc1630::XALPHA.contains(b[i]) {
                        i += 1;
                    } else if is_escape_at(&b[..end], i) {
                        i += 3;
                    } else {
                        break;
                    }
                }
            }
        }
    }
    if i > start && i < end && b[i] == b':' {
        i
    } else {
        NONE
    }
}

/// The length of an RFC 1630 `url:` prefix (`prefixedurl u r l : url`),
/// kept only when an absolute URL follows it.
fn url_prefix(b: &[u8]) -> usize {
    if b.len() > 4 && b[..4].eq_ignore_ascii_case(b"url:") {
        let end = memchr(b'#', b).unwrap_or(b.len());
        if scheme_end(b, 4, end, SchemeRule::Ialpha, table::of(Spec::Rfc1630))
            != NONE
        {
            return 4;
        }
    }
    0
}
