//! Eight bytes at a time in a `u64` (SWAR): the constants and the byte
//! tests that the word scans are built from.
//!
//! ```
//! use urlspec_bytes::words::{bytes_below, eq_low};
//! // Does this word hold a control byte or a quote?
//! let w = u64::from_le_bytes(*b"a\"bcdefg");
//! assert_ne!(bytes_below(w, 0x20) | eq_low(w, b'"'), 0);
//! ```

/// `0x01` in every byte.
pub const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte: the flag bit of the tests below.
pub const HIGH: u64 = 0x8080_8080_8080_8080;
/// `0x7f` in every byte.
pub const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// `c` in every byte.
///
/// ```
/// assert_eq!(urlspec_bytes::words::splat(b'/'), 0x2f2f_2f2f_2f2f_2f2f);
/// ```
#[inline(always)]
#[must_use]
pub const fn splat(c: u8) -> u64 {
    ONES * c as u64
}

/// The high bit set in the bytes of `v` that are below `n` (`1 <= n <=
/// 0x80`), exact for the lowest one: a borrow can only mark bytes above
/// it, so a word with no such byte gives zero and the lowest flag is
/// always right. [`zero_bytes`] is `bytes_below(v, 1)`.
///
/// ```
/// use urlspec_bytes::words::bytes_below;
/// let w = u64::from_le_bytes(*b"ab\tcd\nef");
/// assert_eq!(bytes_below(w, 0x20).trailing_zeros() / 8, 2);
/// assert_eq!(bytes_below(u64::from_le_bytes(*b"abcdefgh"), 0x20), 0);
/// ```
#[inline(always)]
#[must_use]
pub const fn bytes_below(v: u64, n: u8) -> u64 {
    v.wrapping_sub(splat(n)) & !v & HIGH
}

/// The high bit set in the bytes of `v` that are zero, exact for the
/// lowest one (a borrow can only mark bytes above it): one operation less
/// than [`zero_bytes_exact`], for scans that use only the first hit.
///
/// ```
/// let w = u64::from_le_bytes(*b"abc\0defg");
/// assert_eq!(urlspec_bytes::words::zero_bytes(w).trailing_zeros() / 8, 3);
/// ```
#[inline(always)]
#[must_use]
pub const fn zero_bytes(v: u64) -> u64 {
    bytes_below(v, 1)
}

/// The high bit set in exactly the bytes of `v` that are zero.
///
/// ```
/// let w = u64::from_le_bytes(*b"\0\x01\0xxxxx");
/// assert_eq!(urlspec_bytes::words::zero_bytes_exact(w), 0x80_0080);
/// ```
#[inline(always)]
#[must_use]
pub const fn zero_bytes_exact(v: u64) -> u64 {
    !(((v & LOW) + LOW) | v | LOW)
}

/// The high bit of each byte of `x` that equals `c`, exact for the lowest
/// one (see [`zero_bytes`]).
///
/// ```
/// let w = u64::from_le_bytes(*b"a/b/c/d/");
/// assert_eq!(urlspec_bytes::words::eq_low(w, b'/').trailing_zeros() / 8, 1);
/// ```
#[inline(always)]
#[must_use]
pub const fn eq_low(x: u64, c: u8) -> u64 {
    zero_bytes(x ^ splat(c))
}

/// The high bit of exactly the bytes of `x` that equal `c`.
///
/// ```
/// let w = u64::from_le_bytes(*b"a/b/cdef");
/// assert_eq!(urlspec_bytes::words::eq_exact(w, b'/'), 0x8000_8000);
/// ```
#[inline(always)]
#[must_use]
pub const fn eq_exact(x: u64, c: u8) -> u64 {
    zero_bytes_exact(x ^ splat(c))
}

/// The bytes `b[i..]`, eight at most, as a little-endian word padded with
/// zero bytes (which match no delimiter).
///
/// # Panics
///
/// If `i >= b.len()`.
///
/// ```
/// assert_eq!(urlspec_bytes::words::load(b"abc", 1), u64::from_le_bytes(*b"bc\0\0\0\0\0\0"));
/// ```
#[inline(always)]
#[must_use]
pub fn load(b: &[u8], i: usize) -> u64 {
    if let Some(w) = b[i..].first_chunk::<8>() {
        return u64::from_le_bytes(*w);
    }
    let n = b.len() - i;
    if let Some(w) = b.last_chunk::<8>() {
        // The last eight bytes, those before `i` shifted out.
        return u64::from_le_bytes(*w) >> (8 * (8 - n));
    }
    // Shorter than a word: two overlapping halves, or for one to three
    // bytes the first, middle and last (overlapping bytes are equal, so
    // or-ing them keeps them).
    let r = &b[i..];
    if let (Some(lo), Some(hi)) = (r.first_chunk::<4>(), r.last_chunk::<4>()) {
        return u64::from(u32::from_le_bytes(*lo))
            | u64::from(u32::from_le_bytes(*hi)) << (8 * (n - 4));
    }
    let byte = |k: usize| r.get(k).map_or(0, |&c| u64::from(c) << (8 * k));
    byte(0) | byte(n / 2) | byte(n.wrapping_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_are_the_bytes_padded_with_zeros() {
        let text = b"\x01\x82abcdefghij\xff\x7f";
        for len in 0..=text.len() {
            let b = &text[..len];
            for i in 0..len {
                let want = b[i..]
                    .iter()
                    .take(8)
                    .enumerate()
                    .fold(0u64, |x, (k, &c)| x | u64::from(c) << (8 * k));
                assert_eq!(load(b, i), want, "{len} {i}");
            }
        }
    }

    #[test]
    fn zero_byte_tests_agree_with_byte_loops() {
        let words = [
            0u64,
            1,
            0x0100,
            0x8000_0000_0000_0000,
            u64::MAX,
            0x00ff_00ff_0100_0001,
        ];
        for x in words
            .into_iter()
            .chain((0..512u64).map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        {
            let bytes = x.to_le_bytes();
            let exact = zero_bytes_exact(x);
            for (i, &b) in bytes.iter().enumerate() {
                assert_eq!(exact >> (8 * i + 7) & 1 == 1, b == 0, "{x:#x}");
            }
            let low = zero_bytes(x);
            let first = bytes.iter().position(|&b| b == 0);
            assert_eq!(
                first,
                (low != 0).then(|| low.trailing_zeros() as usize / 8),
                "{x:#x}"
            );
            for n in [1u8, 14, 0x20, 0x80] {
                let first = bytes.iter().position(|&b| b < n);
                let below = bytes_below(x, n);
                assert_eq!(
                    first,
                    (below != 0).then(|| below.trailing_zeros() as usize / 8),
                    "{x:#x} below {n}"
                );
            }
            let c = bytes[3];
            let exact = eq_exact(x, c);
            for (i, &b) in bytes.iter().enumerate() {
                assert_eq!(exact >> (8 * i + 7) & 1 == 1, b == c, "{x:#x}");
            }
            let m = eq_low(x, c);
            assert_eq!(
                m.trailing_zeros() as usize / 8,
                bytes.iter().position(|&b| b == c).unwrap()
            );
        }
    }
}
