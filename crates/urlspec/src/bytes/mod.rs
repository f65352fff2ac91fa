//! The byte level under every grammar: scanning and classifying bytes
//! many at a time, and the offsets of slices of an input. One place for
//! the word arithmetic and its constants, so that the splitter
//! (`reference`), the resolver's scans (`resolve::scan`, `resolve::path`)
//! and the escaping code share one tested version of each trick.
//!
//! `words`: eight bytes in a `u64`, on every target. The vector code
//! stays beside the scans it serves (`reference/simd.rs`,
//! `resolve/scan.rs`).

pub(crate) mod words;

/// The byte offset of `part`, a slice of `text`, in `text` (clamped to
/// `text`'s length, so a slice of another text gives a meaningless but
/// in-bounds answer instead of a panic).
#[inline]
pub(crate) fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(text.as_ptr() as usize)
        .min(text.len())
}
