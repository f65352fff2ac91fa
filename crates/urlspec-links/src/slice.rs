//! Where a subslice stands in the slice it was cut from.

/// The byte offset of `part` in `whole`, of which the parsers here hand
/// it back as a subslice (`str::split`'s tokens, `httparse`'s header
/// values); `whole.len()` for a slice of other memory, so that a mistake
/// shows as an offset at the end instead of a panic.
pub(crate) fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .filter(|&at| at <= whole.len())
        .unwrap_or(whole.len())
}

#[cfg(test)]
mod tests {
    use super::offset_in;

    #[test]
    fn offsets_of_subslices() {
        let whole = b"Location: http://h/\r\n";
        assert_eq!(offset_in(whole, &whole[10..19]), 10);
        assert_eq!(offset_in(whole, &whole[..0]), 0);
        assert_eq!(offset_in(whole, &whole[whole.len()..]), whole.len());
        let text = "a  b";
        let tokens: Vec<_> = text
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(|t| offset_in(text.as_bytes(), t.as_bytes()))
            .collect();
        assert_eq!(tokens, [0, 3]);
    }

    #[test]
    fn a_slice_of_other_memory_is_at_the_end() {
        let buf = [0u8; 16];
        // After `whole`, and before it.
        assert_eq!(offset_in(&buf[..4], &buf[8..]), 4);
        assert_eq!(offset_in(&buf[4..8], &buf[..2]), 4);
    }
}
