//! Eight bytes at a time in a `u64` (SWAR): the constants and the zero-byte
//! tests that the word scans are built from.

/// `0x01` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte: the flag bit of the tests below.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;
/// `0x7f` in every byte.
pub(crate) const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// `c` in every byte.
#[inline(always)]
pub(crate) const fn splat(c: u8) -> u64 {
    ONES * c as u64
}

/// The high bit set in the bytes of `v` that are zero, exact for the
/// lowest one (a borrow can only mark bytes above it): one operation less
/// than [`zero_bytes_exact`], for scans that use only the first hit.
#[inline(always)]
pub(crate) const fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(ONES) & !v & HIGH
}

/// The high bit set in exactly the bytes of `v` that are zero.
#[inline(always)]
pub(crate) const fn zero_bytes_exact(v: u64) -> u64 {
    !(((v & LOW) + LOW) | v | LOW)
}

/// The high bit of each byte of `x` that equals `c`, exact for the lowest
/// one (see [`zero_bytes`]).
#[inline(always)]
pub(crate) const fn eq_low(x: u64, c: u8) -> u64 {
    zero_bytes(x ^ splat(c))
}

/// The bytes `b[i..]`, eight at most, as a little-endian word padded with
/// zero bytes (which match no delimiter). `i < b.len()`.
#[inline(always)]
pub(crate) fn load(b: &[u8], i: usize) -> u64 {
    if let Some(w) = b[i..].first_chunk::<8>() {
        return u64::from_le_bytes(*w);
    }
    let n = b.len() - i;
    if let Some(w) = b.last_chunk::<8>() {
        // The last eight bytes, those before `i` shifted out.
        return u64::from_le_bytes(*w) >> (8 * (8 - n));
    }
    let mut x = 0;
    for (k, &c) in b[i..].iter().enumerate() {
        x |= u64::from(c) << (8 * k);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let c = bytes[3];
            let m = eq_low(x, c);
            assert_eq!(
                m.trailing_zeros() as usize / 8,
                bytes.iter().position(|&b| b == c).unwrap()
            );
        }
    }
}
