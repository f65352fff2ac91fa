//! Bytes that are not UTF-8 as text, the way Go and C programs write
//! them: one U+FFFD for each byte that is not part of a UTF-8 sequence
//! (Rust's `from_utf8_lossy` writes one for a whole cut sequence).

/// `bytes` as text, each byte outside a UTF-8 sequence replaced by
/// U+FFFD.
pub(crate) fn per_byte(bytes: Vec<u8>) -> String {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return text,
        Err(e) => e.into_bytes(),
    };
    let mut out = String::with_capacity(bytes.len() + 8);
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                // A cut sequence is a lead byte and continuation bytes,
                // none of which starts a sequence: one U+FFFD each.
                let bad = e.error_len().unwrap_or(after.len());
                out.extend(std::iter::repeat_n('\u{FFFD}', bad));
                rest = &after[bad..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::per_byte;

    #[test]
    fn one_replacement_per_byte() {
        assert_eq!(
            per_byte(b"a\xff\xe2\x82A".to_vec()),
            "a\u{FFFD}\u{FFFD}\u{FFFD}A"
        );
        assert_eq!(per_byte(b"\xe2\x82".to_vec()), "\u{FFFD}\u{FFFD}");
        assert_eq!(
            per_byte(b"\xed\xa0\x80".to_vec()),
            "\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert_eq!(per_byte("é€".as_bytes().to_vec()), "é€");
    }
}
