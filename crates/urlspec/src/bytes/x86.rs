//! The crate's one way to AVX2 on x86_64: `core::arch`, with every
//! `unsafe` of the library here.
//!
//! Two levels. SSE2 is part of every x86_64 CPU and enabled for every
//! x86_64 build: its intrinsics are wrapped in safe, `#[inline(always)]`
//! functions in `urlspec_bytes::sse2`, shared with the other crates.
//! AVX2 (with BMI1 and BMI2) is detected at run time, once, and proven by
//! an [`Avx2`] token; the code that uses it is a
//! `#[target_feature(enable = "avx2")]` function entered through the
//! token (`reference/simd.rs`).
//!
//! Why not `safe_arch`, which `resolve/scan.rs` used for SSE2: it wraps
//! only features enabled at compile time, so the AVX2 splitter could not
//! use it, and two mechanisms meant two vocabularies for the same
//! instructions. The SSE2 scans compile to the same instructions either
//! way (BENCHMARKS.md, "One SIMD mechanism").
#![allow(unsafe_code)]

#[cfg(feature = "std")]
use core::arch::x86_64::*;

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

/// Calls `stop(at)` at each byte `b[at]`, from `from` on, whose bit in
/// `set` is clear, in order; `stop` returns where to go on, past `at` (it
/// may take the bytes after `at` too). `set` is a bitmap over the 256 byte
/// values: bit `c & 63` of word `c >> 6` for the byte `c`.
///
/// Sixteen bytes are classified at a time, each looked up in the bitmap
/// with two `pshufb`s (its byte `c >> 3`, then bit `c & 7`), so a run of
/// bytes inside the set costs a few instructions per block, not per byte.
#[cfg(all(feature = "std", target_feature = "sse2"))]
#[inline]
pub(crate) fn each_outside(
    _: Avx2,
    set: &[u64; 4],
    b: &[u8],
    from: usize,
    stop: impl FnMut(usize) -> usize,
) {
    // SAFETY: an `Avx2` exists only when `Avx2::get` detected AVX2, the
    // feature `each_outside_avx2` is compiled for.
    unsafe { each_outside_avx2(set, b, from, stop) }
}

#[cfg(all(feature = "std", target_feature = "sse2"))]
#[target_feature(enable = "avx2")]
fn each_outside_avx2(
    set: &[u64; 4],
    b: &[u8],
    from: usize,
    mut stop: impl FnMut(usize) -> usize,
) {
    let table = BitTable::new(set);
    let len = b.len();
    let mut i = from;
    while i < len {
        // Bytes past the end are zeros (`block`): a stop there ends it.
        let mut m = table.outside(urlspec_bytes::sse2::block(b, i));
        loop {
            if m == 0 {
                i += 16;
                break;
            }
            let at = i + m.trailing_zeros() as usize;
            if at >= len {
                return;
            }
            let next = stop(at);
            debug_assert!(next > at, "a stop must move on");
            if next >= i + 16 {
                i = next;
                break;
            }
            m &= u32::MAX << (next - i);
        }
    }
}

/// A 256-bit bitmap as `pshufb` tables.
#[cfg(feature = "std")]
#[derive(Clone, Copy)]
struct BitTable {
    /// The bitmap's bytes for the bytes below 0x80, then above.
    low: __m128i,
    high: __m128i,
}

#[cfg(feature = "std")]
impl BitTable {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(set: &[u64; 4]) -> BitTable {
        BitTable {
            low: _mm_set_epi64x(set[1] as i64, set[0] as i64),
            high: _mm_set_epi64x(set[3] as i64, set[2] as i64),
        }
    }

    /// One bit per byte of `x` whose bit in the bitmap is clear.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn outside(self, x: __m128i) -> u32 {
        // Byte `c >> 3 & 15` of each half, the half chosen by `c`'s high
        // bit; `_mm_srli_epi16` shifts the neighbouring byte's bits into
        // bits 5 to 7 only, which the mask drops.
        let at = _mm_and_si128(_mm_srli_epi16(x, 3), _mm_set1_epi8(15));
        let byte = _mm_blendv_epi8(
            _mm_shuffle_epi8(self.low, at),
            _mm_shuffle_epi8(self.high, at),
            x,
        );
        let bit = _mm_shuffle_epi8(
            _mm_setr_epi8(
                1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
            ),
            _mm_and_si128(x, _mm_set1_epi8(7)),
        );
        let inside = _mm_cmpeq_epi8(_mm_and_si128(byte, bit), bit);
        !(_mm_movemask_epi8(inside) as u32) & 0xffff
    }
}

#[cfg(all(test, target_feature = "sse2"))]
mod tests {
    #[cfg(feature = "std")]
    #[test]
    fn each_outside_stops_where_a_byte_loop_does() {
        let Some(avx2) = super::Avx2::get() else {
            return;
        };
        // Every byte value, inside and outside, at every offset of a
        // block, and stops that take one byte or three.
        let text: Vec<u8> =
            (0..=255u8).chain(b"a%41b%%z".iter().copied()).collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..64 {
            let mut set = [0u64; 4];
            for w in &mut set {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *w = match round % 4 {
                    0 => seed,
                    1 => !seed & seed.rotate_left(9),
                    2 => u64::MAX,
                    _ => 0,
                };
            }
            let inside = |c: u8| set[usize::from(c >> 6)] >> (c & 63) & 1 == 1;
            for from in [0, 1, 7, 15, 16, 17, 100, 255, text.len()] {
                for len in [from, from + 1, from + 15, from + 33, text.len()] {
                    let b = &text[..len.min(text.len())];
                    let take =
                        |at: usize| at + if b[at] == b'%' { 3 } else { 1 };
                    let mut want = Vec::new();
                    let mut i = from;
                    while i < b.len() {
                        if inside(b[i]) {
                            i += 1;
                        } else {
                            want.push(i);
                            i = take(i);
                        }
                    }
                    let mut got = Vec::new();
                    super::each_outside(avx2, &set, b, from, |at| {
                        got.push(at);
                        take(at)
                    });
                    assert_eq!(got, want, "{set:x?} {from} {}", b.len());
                }
            }
        }
    }
}
