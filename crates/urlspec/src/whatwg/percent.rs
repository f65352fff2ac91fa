//! Percent-encoding as the parser does it (URL Standard §1.3), over one
//! byte table built from the sets of [`chars::whatwg`]: for each byte, the
//! sets that encode it and the delimiters that end a component.

use alloc::string::String;

use crate::chars::{whatwg, CharClass};
use crate::escape::push_escape;

/// A percent-encode set, or a set of delimiters: a bit of [`TABLE`].
pub(super) type Set = u32;

/// The C0 control percent-encode set (opaque paths and hosts).
pub(super) const C0_CONTROL: Set = 1;
/// The fragment percent-encode set.
pub(super) const FRAGMENT: Set = 1 << 1;
/// The query percent-encode set.
pub(super) const QUERY: Set = 1 << 2;
/// The special-query percent-encode set.
pub(super) const SPECIAL_QUERY: Set = 1 << 3;
/// The path percent-encode set.
pub(super) const PATH: Set = 1 << 4;
/// The userinfo percent-encode set.
pub(super) const USERINFO: Set = 1 << 5;
/// What ends a path segment: `/`, `?`, `#`.
pub(super) const PATH_END: Set = 1 << 8;
/// What ends a segment of a special URL's path: also `\`.
pub(super) const SPECIAL_PATH_END: Set = 1 << 9;
/// The URL code points (ASCII part) and `%`, for validation notes.
pub(super) const URL_UNIT: Set = 1 << 10;
/// A forbidden domain code point (ASCII; bytes above 0x7F are
/// [`NOT_PLAIN_HOST`]).
pub(super) const FORBIDDEN_DOMAIN: Set = 1 << 11;
/// What a domain cannot be taken as it is for: `%` and non-ASCII bytes.
pub(super) const NOT_PLAIN_HOST: Set = 1 << 12;
/// An ASCII upper-case letter.
pub(super) const UPPER: Set = 1 << 13;
/// `@`, which ends credentials.
pub(super) const AT: Set = 1 << 14;
/// `:`, before a port; `[`, which starts an IPv6 address.
pub(super) const COLON_OR_BRACKET: Set = 1 << 15;
/// `?` and `#`, which end a path.
pub(super) const QUERY_OR_FRAGMENT: Set = 1 << 16;
/// `\`, a path separator in special URLs.
pub(super) const BACKSLASH: Set = 1 << 17;
/// `.` and `%`, which dot segments (`.`, `%2e`, …) are made of.
pub(super) const DOT_OR_PERCENT: Set = 1 << 18;

/// Scans `b[from..]` up to its first byte of `end` (or the end of `b`):
/// where it stopped, and the union of the sets of the bytes before.
#[inline]
pub(super) fn scan(b: &[u8], from: usize, end: Set) -> (usize, Set) {
    let mut sets = 0;
    let mut from = from;
    while let Some(chunk) = b.get(from..from + 8) {
        let chunk_sets = sets_of(chunk);
        if chunk_sets & end != 0 {
            break;
        }
        sets |= chunk_sets;
        from += 8;
    }
    for (i, &c) in b[from..].iter().enumerate() {
        let f = TABLE[usize::from(c)];
        if f & end != 0 {
            return (from + i, sets);
        }
        sets |= f;
    }
    (b.len(), sets)
}

/// Finds the first byte of `set` in `b[from..]`, or the end: eight bytes
/// a step while none is in the set (their sets ORed, one test for the
/// eight), then the byte.
#[inline]
pub(super) fn find(b: &[u8], from: usize, set: Set) -> usize {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        if sets_of(chunk) & set != 0 {
            break;
        }
        i += 8;
    }
    b[i..]
        .iter()
        .position(|&c| TABLE[usize::from(c)] & set != 0)
        .map_or(b.len(), |k| i + k)
}

/// The union of the sets of every byte of `b`: one pass without branches.
#[inline]
pub(super) fn sets_of(b: &[u8]) -> Set {
    b.iter().fold(0, |acc, &c| acc | TABLE[usize::from(c)])
}

const fn build() -> [Set; 256] {
    let sets: [(CharClass, Set); 6] = [
        (whatwg::C0_CONTROL, C0_CONTROL),
        (whatwg::FRAGMENT, FRAGMENT),
        (whatwg::QUERY, QUERY),
        (whatwg::SPECIAL_QUERY, SPECIAL_QUERY),
        (whatwg::PATH, PATH),
        (whatwg::USERINFO, USERINFO),
    ];
    let path_end = CharClass::of("/?#");
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let mut i = 0;
        while i < sets.len() {
            if whatwg::encodes(sets[i].0, byte) {
                table[b] |= sets[i].1;
            }
            i += 1;
        }
        if path_end.contains(byte) {
            table[b] |= PATH_END | SPECIAL_PATH_END;
        }
        if byte == b'\\' {
            table[b] |= SPECIAL_PATH_END;
        }
        if whatwg::URL_CODE_POINTS.contains(byte) || byte == b'%' {
            table[b] |= URL_UNIT;
        }
        if whatwg::FORBIDDEN_DOMAIN.contains(byte) {
            table[b] |= FORBIDDEN_DOMAIN;
        }
        if byte == b'%' || byte > 0x7f {
            table[b] |= NOT_PLAIN_HOST;
        }
        if byte.is_ascii_uppercase() {
            table[b] |= UPPER;
        }
        if byte == b'@' {
            table[b] |= AT;
        }
        if byte == b':' || byte == b'[' {
            table[b] |= COLON_OR_BRACKET;
        }
        if byte == b'?' || byte == b'#' {
            table[b] |= QUERY_OR_FRAGMENT;
        }
        if byte == b'\\' {
            table[b] |= BACKSLASH;
        }
        if byte == b'.' || byte == b'%' {
            table[b] |= DOT_OR_PERCENT;
        }
        b += 1;
    }
    table
}

/// The sets each byte belongs to.
pub(super) static TABLE: [Set; 256] = build();

/// Appends `s[from..]` up to its first byte of `end` (or `limit`),
/// percent-encoding the bytes of `set`; returns where it stopped and the
/// first byte it encoded, if any.
#[inline]
pub(super) fn encode_until(
    out: &mut String,
    s: &str,
    from: usize,
    limit: usize,
    end: Set,
    set: Set,
) -> (usize, Option<usize>) {
    let b = &s.as_bytes()[..limit];
    let (mut i, mut run) = (from, from);
    let mut first = None;
    while i < b.len() {
        i = find(b, i, end | set);
        let Some(&c) = b.get(i) else { break };
        if TABLE[usize::from(c)] & end != 0 {
            break;
        }
        // A run ends just before a byte to encode, so it ends on an ASCII
        // byte (every non-ASCII byte is encoded): both ends are char
        // boundaries.
        if run < i {
            out.push_str(&s[run..i]);
        }
        push_escape(out, c);
        first.get_or_insert(i);
        i += 1;
        run = i;
    }
    if run < i {
        out.push_str(&s[run..i]);
    }
    (i, first)
}

/// The first byte of `s[from..to]` that is not a URL unit: a code point
/// that is not a URL code point, or a `%` not followed by two hex digits
/// (the invalid-URL-unit validation error).
pub(super) fn invalid_unit(s: &str, from: usize, to: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while i < to {
        let c = b[i];
        if c < 0x80 {
            let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
            let bad = TABLE[usize::from(c)] & URL_UNIT == 0
                || c == b'%' && !(hex(i + 1) && hex(i + 2));
            if bad {
                return Some(i);
            }
            i += 1;
            continue;
        }
        let ch = s[i..].chars().next().unwrap_or('\u{FFFD}');
        let n = u32::from(ch);
        let nonchar = (0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE;
        if n < 0xA0 || nonchar {
            return Some(i);
        }
        i += ch.len_utf8();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_escapes() {
        let mut out = String::new();
        let s = "a b/é?c";
        let (end, first) =
            encode_until(&mut out, s, 0, s.len(), PATH_END, PATH);
        assert_eq!((out.as_str(), end, first), ("a%20b", 3, Some(1)));
        out.clear();
        let (end, _) = encode_until(&mut out, s, 4, s.len(), PATH_END, PATH);
        assert_eq!((out.as_str(), end), ("%C3%A9", 6));
        assert_eq!(invalid_unit("a%2", 0, 3), Some(1));
        assert_eq!(invalid_unit("a%2f\u{FFFF}", 0, 7), Some(4));
        assert_eq!(invalid_unit("é%41", 0, 5), None);
    }
}
