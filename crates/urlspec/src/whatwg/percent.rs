//! Percent-encoding as the parser does it (URL Standard §1.3), over one
//! byte table built from the sets of [`chars::whatwg`]: for each byte, the
//! sets that encode it and the delimiters that end a component.

use alloc::string::String;

use crate::chars::{whatwg, CharClass};

/// A percent-encode set, or a set of delimiters: a bit of [`TABLE`].
pub(super) type Set = u16;

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
        b += 1;
    }
    table
}

/// The sets each byte belongs to.
pub(super) static TABLE: [Set; 256] = build();

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` for `byte`.
#[inline]
pub(super) fn push_byte(out: &mut String, byte: u8) {
    out.push('%');
    out.push(UPPER_HEX[usize::from(byte >> 4)] as char);
    out.push(UPPER_HEX[usize::from(byte & 15)] as char);
}

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
        let f = TABLE[usize::from(b[i])];
        if f & (end | set) == 0 {
            i += 1;
            continue;
        }
        if f & end != 0 {
            break;
        }
        // A run ends just before a byte to encode, so it ends on an ASCII
        // byte (every non-ASCII byte is encoded): both ends are char
        // boundaries.
        if run < i {
            out.push_str(&s[run..i]);
        }
        push_byte(out, b[i]);
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
