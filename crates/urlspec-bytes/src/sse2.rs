//! Sixteen bytes at a time with SSE2, which is part of every x86_64 CPU
//! and enabled for every x86_64 build: its intrinsics wrapped in safe
//! functions, each `unsafe` block justified by that (the module exists
//! only with `target_feature = "sse2"`), as `safe_arch` does. They are
//! `#[inline(always)]`, so they compile into the caller's loop.
//!
//! ```
//! use urlspec_bytes::sse2::{bits, block, eq, or};
//! // Where are the `/` and `?` of the first sixteen bytes?
//! let x = block(b"http://a/b?q", 0);
//! assert_eq!(bits(or(eq(x, b'/'), eq(x, b'?'))), 0b0101_0110_0000);
//! ```
#![allow(unsafe_code)]

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use crate::words;

/// Sixteen bytes.
pub type Block = __m128i;

/// The bytes `b[i..]`, sixteen at most, padded with zero bytes (which
/// match no delimiter).
///
/// # Panics
///
/// If `i >= b.len()`.
///
/// ```
/// use urlspec_bytes::sse2::{bits, block, eq};
/// // The padding is zeros: ten of them after "abcdef".
/// assert_eq!(bits(eq(block(b"xabcdef", 1), 0)), 0xffc0);
/// ```
#[inline(always)]
#[must_use]
pub fn block(b: &[u8], i: usize) -> Block {
    if let Some(w) = b[i..].first_chunk::<16>() {
        // SAFETY: `w` is a reference to 16 bytes, all of which are
        // read; `loadu` needs no alignment; SSE2 is enabled for this
        // build (the module's `cfg`).
        return unsafe { _mm_loadu_si128(w.as_ptr().cast()) };
    }
    let hi = if i + 8 < b.len() { words::load(b, i + 8) } else { 0 };
    let lo = words::load(b, i);
    // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
    unsafe { _mm_set_epi64x(hi as i64, lo as i64) }
}

/// The bytes of `x` equal to `c`, as 0xff; the others 0.
///
/// ```
/// use urlspec_bytes::sse2::{bits, block, eq};
/// assert_eq!(bits(eq(block(b"a.b.", 0), b'.')), 0b1010);
/// ```
#[inline(always)]
#[must_use]
pub fn eq(x: Block, c: u8) -> Block {
    // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
    unsafe { _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8)) }
}

/// The bytes of `x` at most `n` (as unsigned numbers), as 0xff; the
/// others 0.
///
/// ```
/// use urlspec_bytes::sse2::{at_most, bits, block};
/// assert_eq!(bits(at_most(block(b"a\tb\xff", 0), 0x1f)) & 0xf, 0b0010);
/// ```
#[inline(always)]
#[must_use]
pub fn at_most(x: Block, n: u8) -> Block {
    // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
    unsafe { _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(n as i8)), x) }
}

/// The bytes set in `a` or in `b`.
///
/// ```
/// use urlspec_bytes::sse2::{bits, block, eq, or};
/// let x = block(b"a?b#", 0);
/// assert_eq!(bits(or(eq(x, b'?'), eq(x, b'#'))), 0b1010);
/// ```
#[inline(always)]
#[must_use]
pub fn or(a: Block, b: Block) -> Block {
    // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
    unsafe { _mm_or_si128(a, b) }
}

/// One bit per byte of `m`: its high bit, byte 0 in bit 0.
///
/// ```
/// use urlspec_bytes::sse2::{bits, block, eq};
/// assert_eq!(bits(eq(block(b"/", 0), b'/')), 1);
/// ```
#[inline(always)]
#[must_use]
pub fn bits(m: Block) -> u32 {
    // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
    unsafe { _mm_movemask_epi8(m) as u32 }
}

/// Writes the sixteen bytes of `x` to `out`.
///
/// ```
/// use core::mem::MaybeUninit;
/// use urlspec_bytes::sse2::{block, store};
/// let mut out = [MaybeUninit::new(0u8); 16];
/// store(block(b"0123456789abcdef", 0), &mut out);
/// assert_eq!(out.map(|b| unsafe { b.assume_init() }), *b"0123456789abcdef");
/// ```
#[inline(always)]
pub fn store(x: Block, out: &mut [MaybeUninit<u8>; 16]) {
    // SAFETY: `out` is sixteen writable bytes, all of which are written;
    // `storeu` needs no alignment; SSE2 is enabled for this build (the
    // module's `cfg`).
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), x) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_the_bytes_padded_with_zeros() {
        let text = b"0123456789abcdefghij";
        for i in 0..text.len() {
            let x = block(text, i);
            let n = (text.len() - i).min(16);
            let at = |set: &[u8]| {
                (0..16).fold(0u32, |m, k| {
                    let c = if k < n { text[i + k] } else { 0 };
                    m | u32::from(set.contains(&c)) << k
                })
            };
            assert_eq!(bits(eq(x, b'a')), at(b"a"), "{i}");
            assert_eq!(bits(eq(x, 0)), at(&[0]), "{i}");
            assert_eq!(bits(or(eq(x, b'0'), eq(x, b'j'))), at(b"0j"), "{i}");
            let low: [u8; 0x36] = core::array::from_fn(|k| k as u8);
            assert_eq!(bits(at_most(x, b'5')), at(&low), "{i}");
        }
    }
}
