//! Lean scans for the fast path of [`super::resolve`] ([`super::fast`]):
//! only the delimiters resolution reads, eight bytes at a time, without
//! the per-component classification of the validating splitter.
//!
//! Every scan here finds exactly the offsets the splitter
//! (`crate::reference::split`) finds for the specs the fast path serves;
//! the tests below check them against it.

use crate::chars::{ALPHA, SCHEME};
use urlspec_bytes::scan::first_of;
use urlspec_bytes::words::{eq_low, load};

use crate::reference::split::lowercase_scheme;
use crate::reference::NONE;

/// The byte index in its word of the lowest flagged (or non-zero) byte of
/// `m` (not 0).
#[inline(always)]
fn lowest(m: u64) -> usize {
    m.trailing_zeros() as usize / 8
}

/// The byte index in its word of the highest flagged byte of `m` (not 0).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
#[inline(always)]
fn highest(m: u64) -> usize {
    (63 - m.leading_zeros() as usize) / 8
}

/// The first index at or after `from` of `/`, `#` or (with `QUERY`) `?`,
/// or `b.len()`: the end of a net_loc (RFC 1808 P3: `/`; RFC 2396, RFC
/// 3986: `/` and `?`; `#` always).
///
/// With SSE2 a call, as [`find`] is: inlined, its vector constants were
/// loaded on every path that merely might reach it (+16 instructions per
/// resolved pair).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    inline(never)
)]
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2")), inline)]
pub(crate) fn net_loc_end<const QUERY: bool>(b: &[u8], from: usize) -> usize {
    if QUERY {
        first_of(b, from, [b'/', b'#', b'?'])
    } else {
        first_of(b, from, [b'/', b'#'])
    }
}

/// The first index at or after `from` of `#`, of `?` too with `QUERY`,
/// of `;` too with `PARAMS`; `b.len()` if none.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    inline(never)
)]
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2")), inline)]
pub(crate) fn find<const PARAMS: bool, const QUERY: bool>(
    b: &[u8],
    from: usize,
) -> usize {
    match (PARAMS, QUERY) {
        (true, true) => first_of(b, from, [b'#', b'?', b';']),
        (true, false) => first_of(b, from, [b'#', b';']),
        (false, true) => first_of(b, from, [b'#', b'?']),
        (false, false) => first_of(b, from, [b'#']),
    }
}

/// The length of the longest common prefix of `a` and `b`, eight bytes
/// at a time.
#[inline]
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut k = 0;
    while k < n {
        // Past the shorter end the padding may match a NUL: `min` below.
        let x = load(a, k) ^ load(b, k);
        if x != 0 {
            return (k + lowest(x)).min(n);
        }
        k += 8;
    }
    n
}

/// What [`path`] finds in a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Path {
    /// The end of the path: the first `?` or `#` (and `;` where params are
    /// a component), or the end of the input.
    pub(crate) end: usize,
    /// The last `/` before `end`, or `NONE`; exact when `dot` is false
    /// (else a `.` after a `/` may count as a `/`).
    pub(crate) last_slash: usize,
    /// Whether a `.` may start a segment (follows a `/`, or starts the path
    /// when `dot_at_start`) before `end`: a dot segment may be there.
    pub(crate) dot: bool,
    /// With `COLON`: whether a `:` comes before `end` (a scheme may end
    /// there).
    pub(crate) colon: bool,
}

/// One pass over a path from `from`: its end, its last `/`, whether a
/// segment starts with `.`, and (with `COLON`) whether it holds a `:`.
/// `PARAMS`: `;` ends the path (RFC 1808). Sixteen bytes at a time where
/// SSE2 is there ([`wide::path`], exact), else eight ([`path_words`]).
#[inline(always)]
pub(crate) fn path<const PARAMS: bool, const COLON: bool>(
    b: &[u8],
    from: usize,
    dot_at_start: bool,
) -> Path {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::path::<PARAMS, COLON>(b, from, dot_at_start);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    path_words::<PARAMS, COLON>(b, from, dot_at_start)
}

/// Scans sixteen bytes at a time with SSE2 (part of every x86_64 CPU,
/// through `urlspec_bytes::sse2`): one byte compare per delimiter and a
/// mask of one bit per byte, about half the instructions of the word scan
/// on the short paths of references (callgrind, BENCHMARKS.md).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod wide {
    use super::Path;
    use crate::reference::NONE;
    use urlspec_bytes::sse2::{bits, block, eq, or};

    /// [`super::path`], sixteen bytes at a time; every answer exact.
    #[inline(always)]
    pub(super) fn path<const PARAMS: bool, const COLON: bool>(
        b: &[u8],
        from: usize,
        dot_at_start: bool,
    ) -> Path {
        let len = b.len();
        let mut i = from;
        // The last block with a `/` before the end, and its `/`s.
        let (mut slash_at, mut slashes) = (0, 0u32);
        let (mut dots, mut colons) = (0u32, 0u32);
        // Bit 0: the byte before the block is `/`.
        let mut carry = u32::from(dot_at_start);
        let mut end = len;
        while i < len {
            let x = block(b, i);
            let mut stop = or(eq(x, b'?'), eq(x, b'#'));
            if PARAMS {
                stop = or(stop, eq(x, b';'));
            }
            let stop = bits(stop);
            let slash = bits(eq(x, b'/'));
            let dot = bits(eq(x, b'.')) & (slash << 1 | carry);
            let colon = if COLON { bits(eq(x, b':')) } else { 0 };
            if stop != 0 {
                // Only the bytes before the first stop count.
                let before = (stop & stop.wrapping_neg()) - 1;
                if slash & before != 0 {
                    (slash_at, slashes) = (i, slash & before);
                }
                dots |= dot & before;
                colons |= colon & before;
                end = i + stop.trailing_zeros() as usize;
                break;
            }
            if slash != 0 {
                (slash_at, slashes) = (i, slash);
            }
            dots |= dot;
            colons |= colon;
            carry = slash >> 15;
            i += 16;
        }
        let last_slash = if slashes == 0 {
            NONE
        } else {
            slash_at + (31 - slashes.leading_zeros() as usize)
        };
        Path { end, last_slash, dot: dots != 0, colon: colons != 0 }
    }
}

/// [`path`], eight bytes at a time in a `u64` (tested everywhere, taken
/// where SSE2 is not there).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn path_words<const PARAMS: bool, const COLON: bool>(
    b: &[u8],
    from: usize,
    dot_at_start: bool,
) -> Path {
    // Every mask is exact for its lowest byte, which is all the stop and
    // the colon need. A `/` or `.` that a borrow marks lies just above a
    // `/` or `.` that is really there, so it comes with a `.` after a `/`
    // and `dot` set: the `/`s are exact whenever `dot` is false.
    let len = b.len();
    let mut i = from;
    // The last word with a `/` before the end, and its `/`s.
    let (mut slash_at, mut slashes) = (0, 0u64);
    let mut dots = 0u64;
    let mut colons = 0u64;
    // The high bit of byte 0: the byte before the word is `/`.
    let mut carry = if dot_at_start { 0x80 } else { 0 };
    let mut end = len;
    while i < len {
        let x = load(b, i);
        let mut stop = eq_low(x, b'?') | eq_low(x, b'#');
        if PARAMS {
            stop |= eq_low(x, b';');
        }
        let slash = eq_low(x, b'/');
        let dot = eq_low(x, b'.') & (slash << 8 | carry);
        let colon = if COLON { eq_low(x, b':') } else { 0 };
        if stop != 0 {
            // Only the bytes before the first stop count.
            let before = (stop & stop.wrapping_neg()) - 1;
            if slash & before != 0 {
                (slash_at, slashes) = (i, slash & before);
            }
            dots |= dot & before;
            colons |= colon & before;
            end = i + lowest(stop);
            break;
        }
        if slash != 0 {
            (slash_at, slashes) = (i, slash);
        }
        dots |= dot;
        colons |= colon;
        carry = slash >> 56;
        i += 8;
    }
    let last_slash =
        if slashes == 0 { NONE } else { slash_at + highest(slashes) };
    Path { end, last_slash, dot: dots != 0, colon: colons != 0 }
}

/// The index of the `:` that ends the scheme of `b`, or `None`: letters,
/// digits, `+`, `-` and `.` before a `:` that is not first, the first a
/// letter when `letter_first` (RFC 2396, RFC 3986; RFC 1808 takes any).
#[inline]
pub(crate) fn scheme(b: &[u8], letter_first: bool) -> Option<usize> {
    if let Some(p) = lowercase_scheme(b) {
        return Some(p);
    }
    scheme_upto(b, b.len(), letter_first)
}

/// [`scheme`], for a scheme whose `:` comes before `end` if at all.
#[inline]
pub(crate) fn scheme_upto(
    b: &[u8],
    end: usize,
    letter_first: bool,
) -> Option<usize> {
    let first = *b.first()?;
    if letter_first && !ALPHA.contains(first) {
        return None;
    }
    let mut i = 0;
    while i < end && SCHEME.contains(b[i]) {
        i += 1;
    }
    (i > 0 && i < b.len() && b[i] == b':').then_some(i)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::reference::Reference;
    use crate::spec::Spec;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Strings with every delimiter at every offset around word edges.
    pub(crate) fn shapes() -> Vec<String> {
        let mut out = Vec::new();
        for n in (0..19).chain([23, 30, 31, 32, 33, 47]) {
            let name = "x".repeat(n);
            for d in [
                "/", "?", "#", ";", ":", ".", "/.", "/..", "./", "../", "//",
                "Ab1+-.:", "a:", "é", "\0", "%2E",
            ] {
                for tail in ["", "/", "y", ".", "?q", "#f", ";p", "/./z"] {
                    out.push(format!("{name}{d}{tail}"));
                    out.push(format!("{d}{name}{tail}"));
                    out.push(format!("{d}{tail}{name}"));
                }
            }
        }
        out
    }

    fn naive_path(
        b: &[u8],
        from: usize,
        params: bool,
        dot_at_start: bool,
    ) -> Path {
        let stop = |c: u8| c == b'?' || c == b'#' || (params && c == b';');
        let end = (from..b.len()).find(|&i| stop(b[i])).unwrap_or(b.len());
        let last_slash =
            (from..end).rev().find(|&i| b[i] == b'/').unwrap_or(NONE);
        let dot = (from..end).any(|i| {
            b[i] == b'.'
                && if i == from { dot_at_start } else { b[i - 1] == b'/' }
        });
        let colon = b[from..end].contains(&b':');
        Path { end, last_slash, dot, colon }
    }

    #[test]
    fn scans_agree_with_byte_loops() {
        for s in shapes() {
            let b = s.as_bytes();
            for from in 0..=b.len() {
                for dot_at_start in [false, true] {
                    // A dot reported where there is none is allowed (the
                    // callers then look again); the last `/` counts only
                    // without a dot.
                    let same = |got: Path, want: Path| {
                        assert!(got.dot >= want.dot, "{s:?} {from}");
                        let got = Path {
                            dot: want.dot,
                            last_slash: if got.dot {
                                want.last_slash
                            } else {
                                got.last_slash
                            },
                            ..got
                        };
                        assert_eq!(got, want, "{s:?} {from}");
                    };
                    let want = naive_path(b, from, true, dot_at_start);
                    same(
                        path_words::<true, true>(b, from, dot_at_start),
                        want,
                    );
                    let want = naive_path(b, from, false, dot_at_start);
                    same(
                        path_words::<false, true>(b, from, dot_at_start),
                        want,
                    );
                    same(
                        path_words::<false, false>(b, from, dot_at_start),
                        Path { colon: false, ..want },
                    );
                    // The SSE2 scan is exact.
                    #[cfg(all(
                        target_arch = "x86_64",
                        target_feature = "sse2"
                    ))]
                    {
                        let want = naive_path(b, from, true, dot_at_start);
                        let got =
                            wide::path::<true, true>(b, from, dot_at_start);
                        assert_eq!(got, want, "{s:?} {from}");
                        let want = naive_path(b, from, false, dot_at_start);
                        let got =
                            wide::path::<false, true>(b, from, dot_at_start);
                        assert_eq!(got, want, "{s:?} {from}");
                        let got =
                            wide::path::<false, false>(b, from, dot_at_start);
                        assert_eq!(
                            got,
                            Path { colon: false, ..want },
                            "{s:?} {from}"
                        );
                    }
                }
                let first = |set: &[u8]| {
                    (from..b.len())
                        .find(|&i| set.contains(&b[i]))
                        .unwrap_or(b.len())
                };
                assert_eq!(net_loc_end::<true>(b, from), first(b"/?#"));
                assert_eq!(net_loc_end::<false>(b, from), first(b"/#"));
                assert_eq!(find::<true, true>(b, from), first(b";?#"));
                assert_eq!(find::<false, true>(b, from), first(b"?#"));
                assert_eq!(find::<false, false>(b, from), first(b"#"));
                assert_eq!(find::<true, false>(b, from), first(b";#"));
                let other = &b[from..];
                let want =
                    b.iter().zip(other).take_while(|(x, y)| x == y).count();
                assert_eq!(common_prefix(b, other), want, "{s:?} {from}");
                assert_eq!(common_prefix(other, b), want, "{s:?} {from}");
            }
        }
    }

    #[test]
    fn schemes_agree_with_the_splitter() {
        let mut inputs = shapes();
        inputs.extend(
            [
                "http://a",
                "HTTP:x",
                "h:",
                ":x",
                "1a:b",
                "+:b",
                "abcdefg:x",
                "abcdefgh:x",
                "abcdefghijk:x",
                "a.b-c+d:x",
                "aé:x",
                "a_b:x",
            ]
            .map(String::from),
        );
        for s in inputs {
            for (spec, letter_first) in
                [(Spec::Rfc3986, true), (Spec::Rfc1808, false)]
            {
                let want = Reference::parse_with(&s, spec).meta().scheme_end;
                let got = scheme(s.as_bytes(), letter_first).unwrap_or(NONE);
                assert_eq!(got, want, "{spec} {s:?}");
            }
        }
    }
}
