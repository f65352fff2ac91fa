//! The component splitter: one pass over the input, driven by the spec's
//! [`Rules`](crate::spec::Rules).
//!
//! RFC 1808 §2.4 orders the steps: P1 fragment (first `#`), P2 scheme, P3
//! net_loc (after `//`, up to the next `/`), P4 query (first `?`), P5 params
//! (first `;` before the query), P6 path. RFC 1630, RFC 2396 and RFC 3986
//! follow the same order with other scheme rules, other net_loc terminators
//! (`?` too) and no params; RFC 2396/3986's Appendix B regular expression
//! is exactly this order.

use memchr::{memchr, memchr2};

use super::{Meta, NONE};
use crate::chars::{rfc1630, ALPHA, SCHEME};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, Spec};

#[inline]
fn find(needle: u8, hay: &[u8], from: usize, to: usize) -> Option<usize> {
    memchr(needle, &hay[from..to]).map(|i| from + i)
}

/// Splits `b` into components under `spec`.
#[inline]
pub(super) fn split(b: &[u8], spec: Spec) -> Meta {
    let rules = spec.rules();
    let len = b.len();
    let start =
        if rules.scheme == SchemeRule::Ialpha { url_prefix(b) } else { 0 };

    // P1: the fragment is everything after the first `#`.
    let fragment_start = find(b'#', b, start, len).unwrap_or(NONE);
    let end = if fragment_start == NONE { len } else { fragment_start };

    // P2: the scheme.
    let scheme_end = scheme_end(b, start, end, rules.scheme);
    let mut pos = if scheme_end == NONE { start } else { scheme_end + 1 };

    // P3: the net_loc.
    let mut net_loc_start = NONE;
    if end - pos >= 2 && b[pos] == b'/' && b[pos + 1] == b'/' {
        net_loc_start = pos + 2;
        let rest = &b[net_loc_start..end];
        let stop = if rules.authority_ends.contains(b'?') {
            memchr2(b'/', b'?', rest)
        } else {
            memchr(b'/', rest)
        };
        pos = stop.map_or(end, |i| net_loc_start + i);
    }
    let path_start = pos;

    // P4: the query.
    let query_start = find(b'?', b, pos, end).unwrap_or(NONE);
    let query_or_end = if query_start == NONE { end } else { query_start };

    // P5: the params.
    let params_start = if rules.params {
        find(b';', b, pos, query_or_end).unwrap_or(NONE)
    } else {
        NONE
    };

    // P6: the path is what remains.
    let path_end =
        if params_start == NONE { query_or_end } else { params_start };
    Meta {
        start,
        scheme_end,
        net_loc_start,
        path_start,
        path_end,
        params_start,
        query_start,
        fragment_start,
    }
}

/// The index of the `:` that ends a scheme at `b[start..end]`, or `NONE`.
#[inline]
fn scheme_end(b: &[u8], start: usize, end: usize, rule: SchemeRule) -> usize {
    let mut i = start;
    match rule {
        SchemeRule::AnyFirst => {
            while i < end && SCHEME.contains(b[i]) {
                i += 1;
            }
        }
        SchemeRule::LetterFirst => {
            if i < end && ALPHA.contains(b[i]) {
                i += 1;
                while i < end && SCHEME.contains(b[i]) {
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
        if scheme_end(b, 4, end, SchemeRule::Ialpha) != NONE {
            return 4;
        }
    }
    0
}
