//! The byte level under every grammar: scanning and classifying bytes
//! many at a time, and the offsets of slices of an input. One place for
//! the word arithmetic and its constants, so that the splitter
//! (`reference`), the resolver's scans (`resolve::scan`, `resolve::path`)
//! and the escaping code share one tested version of each trick.
//!
//! `words`: eight bytes in a `u64`, on every target. `x86`: the one way
//! to vector instructions (`core::arch`: SSE2 as safe calls, AVX2 behind a
//! token detected at run time), with every `unsafe` of the byte level;
//! the vector scans themselves stay beside the grammars they serve
//! (`reference/simd.rs`, `resolve/scan.rs`).

pub mod words;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

/// The byte offset of `part`, a slice of `text`, in `text` (clamped to
/// `text`'s length, so a slice of another text gives a meaningless but
/// in-bounds answer instead of a panic).
#[inline]
pub(crate) fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(text.as_ptr() as usize)
        .min(text.len())
}
