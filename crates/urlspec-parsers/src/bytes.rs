//! The byte scans of urllib's rules: eight bytes at a time, built from
//! the workspace's word tests (`urlspec_bytes::words`).

use urlspec_bytes::words::{bytes_below, eq_exact, load};

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

/// Whether `text` holds a C0 control or DEL (C's `iscntrl` in the C
/// locale): eight bytes at a time, exact (a word with no such byte gives
/// zero in both tests).
pub fn holds_control(text: &[u8]) -> bool {
    use urlspec_bytes::words::eq_low;
    let mut words = text.chunks_exact(8);
    let control = |w: u64| bytes_below(w, 0x20) | eq_low(w, 0x7f) != 0;
    if words
        .by_ref()
        .any(|w| control(u64::from_le_bytes(w.try_into().unwrap_or([0; 8]))))
    {
        return true;
    }
    words.remainder().iter().any(|&c| c < 0x20 || c == 0x7f)
}
