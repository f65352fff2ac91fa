//! The component splitter: one pass over the input, driven by the spec's
//! [`Rules`](crate::spec::Rules).
//!
//! RFC 1808 §2.4 orders the steps: P1 fragment (first `#`), P2 scheme, P3
//! net_loc (after `//`, up to the next `/`), P4 query (first `?`), P5 params
//! (first `;` before the query), P6 path. RFC 1630, RFC 2396 and RFC 3986
//! follow the same order with other scheme rules, other net_loc terminators
//! (`?` too) and no params; RFC 2396/3986's Appendix B regular expression
//! is exactly this order.

use memchr::{memchr, memchr2, memchr3};

use super::{Meta, NONE};
use crate::chars::{rfc1630, ALPHA, SCHEME};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, Spec};

const SLASH: u8 = 1;
const QUERY: u8 = 2;
const HASH: u8 = 8;

/// The delimiters the splitter looks for, as bit flags per byte.
static DELIMS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = SLASH;
    t[b'?' as usize] = QUERY;
    t[b'#' as usize] = HASH;
    t
};

/// The first index at or after `i` holding one of the delimiters in
/// `mask`, or `b.len()`. A byte loop: URLs are short, and a loop beats the
/// set-up of a vector search below a few dozen bytes.
#[inline(always)]
fn scan(b: &[u8], mut i: usize, mask: u8) -> usize {
    while i < b.len() && DELIMS[usize::from(b[i])] & mask == 0 {
        i += 1;
    }
    i
}

/// Splits `b` into components under `spec`.
#[inline]
pub(super) fn split(b: &[u8], spec: Spec) -> Meta {
    let rules = spec.rules();
    let len = b.len();
    let start =
        if rules.scheme == SchemeRule::Ialpha { url_prefix(b) } else { 0 };

    // P2: the scheme. Scheme characters exclude `#`, so a scheme found here
    // lies before the fragment (P1).
    let scheme_end = scheme_end(b, start, len, rules.scheme);
    let mut pos = if scheme_end == NONE { start } else { scheme_end + 1 };

    // P3: the net_loc, up to `/` (and `?` where the spec says so) or `#`.
    let mut net_loc_start = NONE;
    if b.len() - pos >= 2 && b[pos] == b'/' && b[pos + 1] == b'/' {
        net_loc_start = pos + 2;
        let ends = if rules.authority_ends.contains(b'?') {
            SLASH | QUERY
        } else {
            SLASH
        };
        pos = scan(b, net_loc_start, ends | HASH);
    }
    let path_start = pos;

    // P5 and P4 in one pass: the first `;` (params) before the first `?`
    // (query), all before the first `#` (P1).
    let rest = &b[pos..];
    let found = if rules.params {
        memchr3(b'?', b';', b'#', rest)
    } else {
        memchr2(b'?', b'#', rest)
    };
    let mut i = found.map_or(len, |k| pos + k);
    let mut params_start = NONE;
    if i < len && b[i] == b';' {
        params_start = i;
        i = memchr2(b'?', b'#', &b[i + 1..]).map_or(len, |k| i + 1 + k);
    }
    let path_end = if params_start == NONE { i } else { params_start };
    let mut query_start = NONE;
    if i < len && b[i] == b'?' {
        query_start = i;
        i = memchr(b'#', &b[i + 1..]).map_or(len, |k| i + 1 + k);
    }
    let fragment_start = if i < len { i } else { NONE };
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
