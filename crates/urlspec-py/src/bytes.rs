//! The byte-level helpers of the package's own code, in one place: where
//! a slice lies in the text it was cut from, the hex digits of an escape.
//! Reading a Python string's bytes where they are is CPython's layout, so
//! it is in `fastpy`; the URL grammars' scans are `urlspec_bytes::scan`,
//! urllib's are in `urlspec-parsers`.

/// The digits of a `%XX` escape, upper-case as RFC 3986 §2.1 and urllib
/// write them.
pub const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The byte offset of `part`, a slice of `text`, in `text`: one
/// subtraction, as cheap as the pointer arithmetic it replaces in the
/// batch loops (a slice of another text gives a meaningless offset, never
/// a panic).
#[inline(always)]
pub fn offset(text: &[u8], part: &[u8]) -> usize {
    let at = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    debug_assert!(at <= text.len(), "a slice of another text");
    at
}
