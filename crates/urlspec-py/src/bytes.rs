//! The byte-level helpers of the package's own code, in one place: where
//! a slice lies in the text it was cut from, a scan for control bytes,
//! the hex digits of an escape. Reading a Python string's bytes where
//! they are is CPython's layout, so it is in `fastpy`; the URL grammars'
//! scans are the workspace's (`urlspec_bytes::scan`).

use urlspec_bytes::words::{bytes_below, eq_exact, load};

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

/// Whether `text` may hold a byte below 14 (tab is 9, LF 10, CR 13):
/// eight bytes at a time, never false for a text that holds one (a word
/// with such a byte always sets a high bit; a borrow may set one more).
pub fn may_hold_below_14(text: &[u8]) -> bool {
    let mut words = text.chunks_exact(8);
    let low = |w: u64| bytes_below(w, 14) != 0;
    if words
        .by_ref()
        .any(|w| low(u64::from_le_bytes(w.try_into().unwrap_or([0xff; 8]))))
    {
        return true;
    }
    words.remainder().iter().any(|&c| c < 14)
}

/// Whether `text` holds `/.` or `//`: eight bytes at a time, each word's
/// `/`s and `.`s found exactly (no borrow crosses a byte) and the `/`s
/// moved one byte up, the last one carried into the next word.
pub fn holds_slash_dot_or_slash(text: &[u8]) -> bool {
    let mut carry = 0;
    let mut hit = |x: u64| {
        let slash = eq_exact(x, b'/');
        let after_slash = slash << 8 | carry;
        carry = slash >> 56;
        after_slash & (slash | eq_exact(x, b'.')) != 0
    };
    let mut words = text.chunks_exact(8);
    for w in words.by_ref() {
        if hit(u64::from_le_bytes(w.try_into().unwrap_or([0; 8]))) {
            return true;
        }
    }
    // The last bytes, as the low bytes of a word whose other bytes are
    // zeros (neither `/` nor `.`).
    let rest = words.remainder();
    if rest.is_empty() {
        return false;
    }
    let tail = load(text, text.len() - rest.len());
    hit(tail)
}
