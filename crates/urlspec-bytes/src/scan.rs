//! Scans for delimiter bytes, for code that splits URLs: cheaper than a
//! general byte search on texts as short as URLs, with nothing to set up.
//! Sixteen bytes at a time where SSE2 is there ([`crate::sse2`]), else
//! eight ([`crate::words`]).

use core::mem::MaybeUninit;

use crate::words::{bytes_below, eq_low, load};

/// The byte index in its word of the lowest flagged byte of `m` (not 0).
#[inline(always)]
fn lowest(m: u64) -> usize {
    m.trailing_zeros() as usize / 8
}

/// The first index at or after `from` of a byte of `set`, or `b.len()`:
/// sixteen bytes at a time where SSE2 is there (`wide::first`), else
/// eight (`first_words`). For the short texts of URLs its cost is a few
/// instructions per sixteen bytes, with none to set up.
///
/// ```
/// use urlspec_bytes::scan::first_of;
/// let url = b"http://a/b?q#f";
/// assert_eq!(first_of(url, 7, [b'/', b'?', b'#']), 8);
/// assert_eq!(first_of(url, 9, [b'?', b'#']), 10);
/// assert_eq!(first_of(url, 0, [b';']), url.len());
/// ```
#[inline(always)]
#[must_use]
pub fn first_of<const N: usize>(b: &[u8], from: usize, set: [u8; N]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::first(b, from, set);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    first_words(b, from, set)
}

/// [`first_of`], eight bytes at a time (tested everywhere, taken where
/// SSE2 is not there).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
#[inline(always)]
fn first_words<const N: usize>(b: &[u8], from: usize, set: [u8; N]) -> usize {
    let mut i = from;
    while i < b.len() {
        let x = load(b, i);
        let stop = set.iter().fold(0, |m, &c| m | eq_low(x, c));
        if stop != 0 {
            return i + lowest(stop);
        }
        i += 8;
    }
    b.len()
}

/// The first index at or after `from` of a C0 control (a byte below
/// 0x20) or a byte of `set`, or `b.len()`: the bytes a JSON string
/// escapes, or that a terminal must not be sent, found sixteen bytes at
/// a time where SSE2 is there, else eight.
///
/// ```
/// use urlspec_bytes::scan::first_control_or;
/// let text = b"a\"b\tc";
/// assert_eq!(first_control_or(text, 0, [b'"', b'\\']), 1);
/// assert_eq!(first_control_or(text, 2, [b'"', b'\\']), 3);
/// assert_eq!(first_control_or(b"abc", 0, [b'"']), 3);
/// ```
#[inline(always)]
#[must_use]
pub fn first_control_or<const N: usize>(
    b: &[u8],
    from: usize,
    set: [u8; N],
) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::first_control_or(b, from, set);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    control_words(b, from, set)
}

/// [`first_control_or`], eight bytes at a time (tested everywhere, taken
/// where SSE2 is not there).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
#[inline(always)]
fn control_words<const N: usize>(
    b: &[u8],
    from: usize,
    set: [u8; N],
) -> usize {
    let mut i = from;
    while i < b.len() {
        let x = load(b, i);
        let stop =
            set.iter().fold(bytes_below(x, 0x20), |m, &c| m | eq_low(x, c));
        if stop != 0 {
            // The zeros that pad the last word are controls too: a hit
            // there is past the end.
            return (i + lowest(stop)).min(b.len());
        }
        i += 8;
    }
    b.len()
}

/// Whether every byte of `b` is printable ASCII (0x20 to 0x7e): text a
/// terminal shows as it is, one column a byte. Sixteen bytes at a time
/// where SSE2 is there, else eight.
///
/// ```
/// use urlspec_bytes::scan::printable_ascii;
/// assert!(printable_ascii(b"a b/~") && printable_ascii(b""));
/// assert!(!printable_ascii(b"a\tb") && !printable_ascii(b"\x7f"));
/// assert!(!printable_ascii("caf\u{e9}".as_bytes()));
/// ```
#[inline]
#[must_use]
pub fn printable_ascii(b: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::printable_ascii(b);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    printable_words(b)
}

/// [`printable_ascii`], eight bytes at a time (tested everywhere, taken
/// where SSE2 is not there).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
fn printable_words(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        let x = load(b, i);
        let mut bad = bytes_below(x, 0x20)
            | eq_low(x, 0x7f)
            | (x & 0x8080_8080_8080_8080);
        let left = b.len() - i;
        if left < 8 {
            // The zeros that pad the last word are not the text's.
            bad &= (1 << (8 * left)) - 1;
        }
        if bad != 0 {
            return false;
        }
        i += 8;
    }
    true
}

/// How many bytes past those it copies [`copy_until_control_or`] may
/// write: it writes whole blocks.
pub const COPY_ROOM: usize = 16;

/// [`first_control_or`] from `from`, copying `b[from..stop]` to the start
/// of `out` as it looks at the bytes: one pass over the text, where a
/// scan and then a copy take two (escaping JSON strings, or text for a
/// terminal). Returns the stop; `out[..stop - from]` then holds the bytes,
/// and bytes after them may be written too. `from` at or past the end
/// copies nothing and gives `from`.
///
/// # Panics
///
/// If `out` is shorter than `b.len() - from + COPY_ROOM`.
///
/// ```
/// use core::mem::MaybeUninit;
/// use urlspec_bytes::scan::{copy_until_control_or, COPY_ROOM};
/// let text = b"say \"hi\"";
/// let mut out = [MaybeUninit::new(0u8); 9 + COPY_ROOM];
/// let stop = copy_until_control_or(text, 0, [b'"', b'\\'], &mut out);
/// assert_eq!(stop, 4);
/// let copied: Vec<u8> = out[..stop].iter().map(|b| unsafe { b.assume_init() }).collect();
/// assert_eq!(copied, b"say ");
/// ```
#[inline(always)]
pub fn copy_until_control_or<const N: usize>(
    b: &[u8],
    from: usize,
    set: [u8; N],
    out: &mut [MaybeUninit<u8>],
) -> usize {
    let Some(rest) = b.get(from..).filter(|rest| !rest.is_empty()) else {
        return from;
    };
    assert!(out.len() >= rest.len() + COPY_ROOM, "no room for the copy");
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return from + wide::copy_until_control_or(rest, set, out);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return from + copy_words(rest, set, out);
}

/// [`copy_until_control_or`] of the word scan: the stop found, then the
/// bytes before it copied (tested everywhere, taken where SSE2 is not
/// there).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2"),
    allow(dead_code)
)]
fn copy_words<const N: usize>(
    rest: &[u8],
    set: [u8; N],
    out: &mut [MaybeUninit<u8>],
) -> usize {
    let stop = control_words(rest, 0, set);
    for (o, &c) in out.iter_mut().zip(&rest[..stop]) {
        o.write(c);
    }
    stop
}

/// Whether a `.` starts a segment of `b` (is first, or follows a `/`): a
/// filter before looking for a dot segment, exact where SSE2 is there and
/// `true` elsewhere.
///
/// ```
/// use urlspec_bytes::scan::dot_start;
/// assert!(dot_start(b"a/../b") && dot_start(b"./b") && dot_start(b"/.x"));
/// # #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
/// assert!(!dot_start(b"/a/b.html"));
/// ```
#[inline]
#[must_use]
pub fn dot_start(b: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::dot_start(b);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let _ = b;
        true
    }
}

/// The scans sixteen bytes at a time with SSE2: one byte compare per
/// delimiter and a mask of one bit per byte, about half the instructions
/// of the word scan on the short paths of references.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod wide {
    use core::mem::MaybeUninit;

    use crate::sse2::{at_most, bits, block, eq, or, store, Block};

    /// The first index at or after `from` of a byte of `set`, or
    /// `b.len()`.
    #[inline(always)]
    pub(super) fn first<const N: usize>(
        b: &[u8],
        from: usize,
        set: [u8; N],
    ) -> usize {
        let mut i = from;
        while i < b.len() {
            let x = block(b, i);
            let mut m = eq(x, set[0]);
            for &c in &set[1..] {
                m = or(m, eq(x, c));
            }
            let m = bits(m);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        b.len()
    }

    /// The bytes of `x` that are C0 controls or in `set`, a bit each.
    #[inline(always)]
    fn control_or<const N: usize>(x: Block, set: [u8; N]) -> u32 {
        let mut m = at_most(x, 0x1f);
        for &c in &set {
            m = or(m, eq(x, c));
        }
        bits(m)
    }

    /// [`super::first_control_or`], sixteen bytes at a time: whole
    /// blocks, then the last sixteen bytes of the text again for the
    /// rest; a text shorter than a block in one padded block.
    #[inline(always)]
    pub(super) fn first_control_or<const N: usize>(
        b: &[u8],
        from: usize,
        set: [u8; N],
    ) -> usize {
        let mut i = from;
        while let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<16>) {
            let m = control_or(block(w, 0), set);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        let left = b.len().wrapping_sub(i);
        if left == 0 || left >= 16 {
            // Done (or `from` past the end).
            return b.len();
        }
        let m = match b.last_chunk::<16>() {
            // The last sixteen bytes, those before `i` shifted out.
            Some(w) => control_or(block(w, 0), set) >> (16 - left),
            // The zeros that pad a short block are controls: the first
            // is at `b.len()`, what a text without a hit gives.
            None => control_or(block(b, i), set),
        };
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        b.len()
    }

    /// [`super::printable_ascii`]: whole blocks, then the last sixteen
    /// bytes again (a text shorter than a block in one padded block,
    /// its padding left out).
    #[inline(always)]
    pub(super) fn printable_ascii(b: &[u8]) -> bool {
        // Controls, DEL, and bytes with the high bit set.
        let bad = |x: Block| control_or(x, [0x7f]) | bits(x);
        let mut blocks = b.chunks_exact(16);
        for w in &mut blocks {
            if bad(block(w, 0)) != 0 {
                return false;
            }
        }
        let left = blocks.remainder().len();
        if left == 0 {
            return true;
        }
        match b.last_chunk::<16>() {
            Some(w) => bad(block(w, 0)) == 0,
            None => bad(block(b, 0)) & ((1 << left) - 1) == 0,
        }
    }

    /// [`super::copy_until_control_or`] of `rest` (not empty), `out`
    /// [`super::COPY_ROOM`] bytes longer: each block stored before it is
    /// looked at, then the last sixteen bytes again for the rest (a text
    /// shorter than a block in one padded block, whose zeros stop it).
    #[inline(always)]
    pub(super) fn copy_until_control_or<const N: usize>(
        rest: &[u8],
        set: [u8; N],
        out: &mut [MaybeUninit<u8>],
    ) -> usize {
        // Whole blocks of both, so that no index is checked.
        let mut i = 0;
        for (w, o) in rest.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
            let (Some(w), Some(o)) =
                (w.first_chunk::<16>(), o.first_chunk_mut())
            else {
                break;
            };
            let x = block(w, 0);
            store(x, o);
            let m = control_or(x, set);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        let left = rest.len() - i;
        if left == 0 {
            return i;
        }
        let (x, at) = match rest.last_chunk::<16>() {
            Some(w) => (block(w, 0), rest.len() - 16),
            None => (block(rest, 0), 0),
        };
        store(x, room(out, at));
        // The bytes before `i` were looked at already.
        let m = control_or(x, set) >> (i - at);
        if m != 0 {
            return (i + m.trailing_zeros() as usize).min(rest.len());
        }
        rest.len()
    }

    /// The sixteen bytes of `out` from `i`, which the caller's room
    /// holds.
    #[inline(always)]
    fn room(
        out: &mut [MaybeUninit<u8>],
        i: usize,
    ) -> &mut [MaybeUninit<u8>; 16] {
        out[i..].first_chunk_mut::<16>().expect("room for a block")
    }

    /// [`super::dot_start`], sixteen bytes at a time.
    #[inline]
    pub(super) fn dot_start(b: &[u8]) -> bool {
        // Bit 0: the byte before the block is `/` (or the start).
        let mut carry = 1;
        let mut i = 0;
        while i < b.len() {
            let x = block(b, i);
            let slash = bits(eq(x, b'/'));
            if bits(eq(x, b'.')) & (slash << 1 | carry) != 0 {
                return true;
            }
            carry = slash >> 15;
            i += 16;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::format;
    use std::string::String;
    use std::vec::Vec;

    use super::*;

    /// Texts with each delimiter at every offset around the edges of
    /// words and blocks.
    fn shapes() -> Vec<String> {
        let mut out = Vec::new();
        for n in (0..19).chain([23, 30, 31, 32, 33, 47]) {
            let name = "x".repeat(n);
            for d in [
                "/", "?", "#", ";", ".", "/.", "/..", "./", "//", "é", "\0",
                "\"", "\\", "\t", "\x1f", " ", "!", "\x7f", "\u{85}",
                "\u{202e}", "\u{ff}",
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

    #[test]
    fn scans_agree_with_byte_loops() {
        for s in shapes() {
            let b = s.as_bytes();
            for from in 0..=b.len() {
                let first = |set: &[u8]| {
                    (from..b.len())
                        .find(|&i| set.contains(&b[i]))
                        .unwrap_or(b.len())
                };
                for set in [&b"/?#"[..], b"/#", b";?#", b"?#", b"#", b";#"] {
                    let want = first(set);
                    let got = match set.len() {
                        1 => (
                            first_of(b, from, [set[0]]),
                            first_words(b, from, [set[0]]),
                        ),
                        2 => (
                            first_of(b, from, [set[0], set[1]]),
                            first_words(b, from, [set[0], set[1]]),
                        ),
                        _ => (
                            first_of(b, from, [set[0], set[1], set[2]]),
                            first_words(b, from, [set[0], set[1], set[2]]),
                        ),
                    };
                    assert_eq!(got, (want, want), "{s:?} {from} {set:?}");
                }
                let control = |set: &[u8]| {
                    (from..b.len())
                        .find(|&i| b[i] < 0x20 || set.contains(&b[i]))
                        .unwrap_or(b.len())
                };
                let want = control(b"\"\\");
                assert_eq!(
                    (
                        first_control_or(b, from, [b'"', b'\\']),
                        control_words(b, from, [b'"', b'\\'])
                    ),
                    (want, want),
                    "{s:?} {from}"
                );
                let want = control(&[0x7f, 0xc2, 0xe2]);
                assert_eq!(
                    (
                        first_control_or(b, from, [0x7f, 0xc2, 0xe2]),
                        control_words(b, from, [0x7f, 0xc2, 0xe2])
                    ),
                    (want, want),
                    "{s:?} {from}"
                );
                for (set, want) in [
                    (b"\"\\\\", control(b"\"\\")),
                    (&[0x7f, 0xc2, 0xe2], control(&[0x7f, 0xc2, 0xe2])),
                ] {
                    let room = b.len() - from + COPY_ROOM;
                    let mut out = std::vec![MaybeUninit::new(0xaa); room];
                    let stop = copy_until_control_or(b, from, *set, &mut out);
                    let mut words = std::vec![MaybeUninit::new(0xaa); room];
                    let words_stop = if from < b.len() {
                        from + copy_words(&b[from..], *set, &mut words)
                    } else {
                        from
                    };
                    let want = want.max(from);
                    assert_eq!(
                        (stop, words_stop),
                        (want, want),
                        "{s:?} {from}"
                    );
                    #[allow(unsafe_code)]
                    let copied = |out: &[MaybeUninit<u8>]| -> Vec<u8> {
                        out[..want - from]
                            .iter()
                            // SAFETY: every byte was initialized (0xaa).
                            .map(|b| unsafe { b.assume_init() })
                            .collect()
                    };
                    assert_eq!(copied(&out), &b[from..want], "{s:?} {from}");
                    assert_eq!(copied(&words), &b[from..want], "{s:?} {from}");
                }
                let rest = &b[from..];
                let want = (0..rest.len()).any(|i| {
                    rest[i] == b'.' && (i == 0 || rest[i - 1] == b'/')
                });
                assert!(dot_start(rest) >= want, "{s:?} {from}");
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                assert_eq!(dot_start(rest), want, "{s:?} {from}");
                let want = rest.iter().all(|&c| (0x20..0x7f).contains(&c));
                assert_eq!(
                    (printable_ascii(rest), printable_words(rest)),
                    (want, want),
                    "{s:?} {from}"
                );
            }
        }
    }

    #[test]
    fn printable_ascii_looks_at_each_byte_and_no_further() {
        for n in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33] {
            for at in 0..n {
                for c in 0..=0xffu8 {
                    let mut b = std::vec![b'x'; n];
                    b[at] = c;
                    let want = (0x20..0x7f).contains(&c);
                    assert_eq!(printable_ascii(&b), want, "{n} {at} {c}");
                    assert_eq!(printable_words(&b), want, "{n} {at} {c}");
                    // What lies past the text is not looked at.
                    let (text, _) = b.split_at(at);
                    assert!(printable_ascii(text) && printable_words(text));
                }
            }
        }
    }
}
