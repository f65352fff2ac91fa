//! The byte level under every grammar that is the library's own: AVX2
//! and the offsets of slices of an input. The word arithmetic, the SSE2
//! blocks and the delimiter scans that the CLI and the Python package use
//! too are the `urlspec_bytes` crate's, so that the splitter
//! (`reference`), the resolver's scans (`resolve::scan`, `resolve::path`),
//! the escaping code and the other crates share one tested version of
//! each trick.
//!
//! `x86`: AVX2 behind a token detected at run time, with every `unsafe`
//! of the library's byte level; the vector scans themselves stay beside
//! the grammars they serve (`reference/simd.rs`, `resolve/scan.rs`).

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
