//! The classes of the bytes the tokenizer stops at, one table lookup each.
//! The input is bytes of an ASCII-compatible encoding: every byte the
//! tokenizer's states name is ASCII, and no byte of such an encoding's
//! multi-byte characters is one of them.

/// Tab, LF, FF, space, and CR (which the input stream's preprocessing
/// turns into LF).
pub(super) const WS: u8 = 1;
/// `/`.
pub(super) const SLASH: u8 = 2;
/// `>`.
pub(super) const GT: u8 = 4;
/// `=`.
pub(super) const EQ: u8 = 8;
/// `A`–`Z`: a name holding one is lowercased.
pub(super) const UPPER: u8 = 16;
/// NUL: a name holding one has it replaced by U+FFFD.
pub(super) const NUL: u8 = 32;

/// The class bits of each byte.
pub(super) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[0x0C] = WS;
    t[b'\r' as usize] = WS;
    t[b' ' as usize] = WS;
    t[b'/' as usize] = SLASH;
    t[b'>' as usize] = GT;
    t[b'=' as usize] = EQ;
    t[0] = NUL;
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = UPPER;
        c += 1;
    }
    t
};

/// The class bits of `b`.
#[inline(always)]
pub(super) fn of(b: u8) -> u8 {
    CLASS[b as usize]
}

/// Whether `b` is whitespace to the tokenizer.
#[inline(always)]
pub(super) fn is_ws(b: u8) -> bool {
    of(b) & WS != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        for b in 0..=255u8 {
            let want_ws = matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
            assert_eq!(is_ws(b), want_ws, "{b}");
            assert_eq!(of(b) & UPPER != 0, b.is_ascii_uppercase(), "{b}");
        }
    }
}
