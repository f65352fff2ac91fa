//! The crate's one way to vector instructions on x86_64: `core::arch`,
//! with every `unsafe` here.
//!
//! Two levels. SSE2 is part of every x86_64 CPU and enabled for every
//! x86_64 build: its intrinsics are wrapped here in safe functions, each
//! `unsafe` block justified by that (`#[cfg(target_feature = "sse2")]`
//! on the module), as `safe_arch` does; they are `#[inline(always)]`,
//! which a `#[target_feature]` function may not be. AVX2 (with BMI1 and BMI2) is detected
//! at run time, once, and proven by an [`Avx2`] token; the code that uses
//! it is a `#[target_feature(enable = "avx2")]` function entered through
//! the token (`reference/simd.rs`).
//!
//! Why not `safe_arch`, which `resolve/scan.rs` used for SSE2: it wraps
//! only features enabled at compile time, so the AVX2 splitter could not
//! use it, and two mechanisms meant two vocabularies for the same
//! instructions. The SSE2 scans compile to the same instructions either
//! way (BENCHMARKS.md, "One SIMD mechanism").
#![allow(unsafe_code)]

#[cfg(feature = "std")]
use core::arch::x86_64::*;

/// Sixteen bytes at a time with SSE2.
#[cfg(target_feature = "sse2")]
pub(crate) mod sse2 {
    use core::arch::x86_64::*;

    use crate::bytes::words;

    /// Sixteen bytes.
    pub(crate) type Block = __m128i;

    /// The bytes `b[i..]`, sixteen at most, padded with zero bytes (which
    /// match no delimiter). `i < b.len()`.
    #[inline(always)]
    pub(crate) fn block(b: &[u8], i: usize) -> Block {
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

    /// The bytes of `x` equal to `c`, as 0xff.
    #[inline(always)]
    pub(crate) fn eq(x: Block, c: u8) -> Block {
        // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
        unsafe { _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8)) }
    }

    /// The bytes set in `a` or in `b`.
    #[inline(always)]
    pub(crate) fn or(a: Block, b: Block) -> Block {
        // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
        unsafe { _mm_or_si128(a, b) }
    }

    /// One bit per byte of `m`: its high bit.
    #[inline(always)]
    pub(crate) fn bits(m: Block) -> u32 {
        // SAFETY: SSE2 is enabled for this build (the module's `cfg`).
        unsafe { _mm_movemask_epi8(m) as u32 }
    }
}

/// Proof that the CPU has AVX2, BMI1 and BMI2: made only by [`Avx2::get`].
#[cfg(feature = "std")]
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

#[cfg(feature = "std")]
impl Avx2 {
    /// The token, when the CPU has the features (detected once).
    #[inline]
    pub(crate) fn get() -> Option<Avx2> {
        use core::sync::atomic::{AtomicU8, Ordering};
        static STATE: AtomicU8 = AtomicU8::new(0);
        match STATE.load(Ordering::Relaxed) {
            1 => None,
            2 => Some(Avx2(())),
            _ => {
                let yes = std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2");
                STATE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes.then_some(Avx2(()))
            }
        }
    }
}

/// The 16 bytes of `b` at `at` (AVX2 code's load, inlined into it).
#[cfg(feature = "std")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn load16(b: &[u8], at: usize) -> __m128i {
    let Some(c) = b.get(at..).and_then(<[u8]>::first_chunk::<16>) else {
        unreachable!("load16 out of bounds");
    };
    // SAFETY: `c` is a reference to 16 bytes, all of which are read;
    // `loadu` needs no alignment.
    unsafe { _mm_loadu_si128(c.as_ptr().cast()) }
}

/// The 32 bytes of `b` at `at`.
#[cfg(feature = "std")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn load32(b: &[u8], at: usize) -> __m256i {
    let Some(c) = b.get(at..).and_then(<[u8]>::first_chunk::<32>) else {
        unreachable!("load32 out of bounds");
    };
    // SAFETY: `c` is a reference to 32 bytes, all of which are read;
    // `loadu` needs no alignment.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

#[cfg(all(test, target_feature = "sse2"))]
mod tests {
    use super::sse2::*;

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
        }
    }
}
