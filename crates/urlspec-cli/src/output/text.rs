//! Text for a terminal: control characters made visible, carets under
//! the characters they point at, padding by display width, and the
//! shortened lists of violations and findings.

use std::borrow::Cow;
use std::ops::Range;

use urlspec_bytes::scan::{first_control_or, printable_ascii};

use super::{extend_within, plural, room_for, Room};

/// `text` with every character that would disturb a terminal or the
/// alignment of a caret line replaced by one visible character: C0
/// controls and DEL by their Unicode control pictures (a tab by `␉`), C1
/// controls and bidirectional overrides by `�`. Each character maps to
/// exactly one, so character columns are kept.
pub fn visible(text: &str) -> Cow<'_, str> {
    if first_unseen(text.as_bytes(), 0) == text.len() {
        return Cow::Borrowed(text);
    }
    let mut shown = Vec::with_capacity(text.len() + 8);
    push_visible(&mut shown, text);
    // Runs cut at character boundaries, and whole characters between.
    Cow::Owned(String::from_utf8(shown).expect("whole characters"))
}

/// Appends [`visible`]`(text)` to `buf`.
pub fn push_visible(buf: &mut Vec<u8>, text: &str) {
    extend_within(buf, visible_room([text]), |room| put_visible(room, text));
}

/// The room [`put_visible`] may take for each of `texts`, and what a
/// copy writes past its end: three bytes a byte (a control byte shown as
/// a three-byte picture) for short texts; for long ones, their length and
/// two bytes more for each byte that may start a replaced character,
/// counted, so that a long text reserves about its own size.
#[inline(always)]
pub fn visible_room<const N: usize>(texts: [&str; N]) -> usize {
    room_for(texts, 2, UNSEEN_STARTS)
}

/// [`push_visible`] into a [`Room`] of at least [`visible_room`]`([text])`.
#[inline(always)]
pub fn put_visible(room: &mut Room<'_>, text: &str) {
    let bytes = text.as_bytes();
    let mut from = 0;
    loop {
        // Copied up to a char boundary: an ASCII byte or the first of a
        // character.
        let at = room.until_control_or(bytes, from, UNSEEN_STARTS);
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next())
        else {
            break;
        };
        from = at + c.len_utf8();
        let shown = replacement(c).unwrap_or(c);
        room.put(shown.encode_utf8(&mut [0; 4]).as_bytes());
    }
}

/// The character [`visible`] shows in place of `c`, if any.
fn replacement(c: char) -> Option<char> {
    match c {
        '\0'..='\x1f' => char::from_u32(0x2400 + u32::from(c)),
        '\x7f' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// The first index at or after `from` of a byte that may begin a
/// character [`visible`] replaces (C0 controls, DEL, and the first bytes
/// of U+0080–U+009F and of U+2000–U+2FFF), or `text.len()`.
#[inline]
fn first_unseen(bytes: &[u8], from: usize) -> usize {
    first_control_or(bytes, from, UNSEEN_STARTS)
}

/// The bytes besides C0 controls that [`first_unseen`] stops at.
const UNSEEN_STARTS: [u8; 3] = [0x7f, 0xc2, 0xe2];

/// The width on a terminal of `c` as [`visible`] shows it: two columns for
/// a wide character (CJK), none for a combining mark, one otherwise.
fn display_width(c: char) -> usize {
    use unicode_width::UnicodeWidthChar;
    // Controls are shown as one visible character each.
    c.width().unwrap_or(1)
}

/// The terminal column (from 0) at which the character that holds byte
/// `position` of `text` is shown, counting display widths: a wide
/// character takes two columns, a combining mark none (a caret under one
/// goes under the character it combines with). The end of `text` is the
/// column after its last character.
pub fn display_column(text: &str, position: usize) -> usize {
    let mut column = 0;
    // The column of the last character that takes room.
    let mut last = 0;
    for (i, c) in text.char_indices() {
        let width = display_width(c);
        if position < i + c.len_utf8() {
            return if width == 0 { last } else { column };
        }
        if width > 0 {
            last = column;
        }
        column += width;
    }
    column
}

/// How many violations or findings the human output shows with the input
/// and a caret each; the rest are counted (`--json` lists them all), so the
/// output stays linear in the input however many there are.
pub const MAX_SHOWN: usize = 20;

/// The line that counts the violations or findings not shown: `what` is
/// the singular noun.
pub fn more_line(total: usize, what: &str) -> Option<String> {
    (total > MAX_SHOWN).then(|| {
        let more = plural((total - MAX_SHOWN) as u64, &format!("more {what}"));
        format!("  … and {more} (--json lists them all)")
    })
}

/// Carets under the character that holds byte `position` of `text`
/// (printed on the line above, after `indent`): as many as the character
/// is wide (two under a CJK character), at least one.
pub fn caret(indent: &str, text: &str, position: usize) -> String {
    let end = text
        .get(position..)
        .and_then(|rest| rest.chars().next())
        .map_or(position, |c| position + c.len_utf8());
    carets(indent, text, position..end)
}

/// Carets under the bytes `span` of `text` (printed on the line above,
/// after `indent`): spaces up to the display column of its start, then one
/// `^` per column the span takes, at least one. Columns are counted as a
/// terminal shows them ([`display_column`]), so the carets stay under
/// their characters whatever wide characters or combining marks come
/// before.
pub fn carets(indent: &str, text: &str, span: Range<usize>) -> String {
    let column = display_column(text, span.start);
    let end = if span.end > span.start {
        // The column after the span's last character.
        let last = text[..span.end.min(text.len())]
            .char_indices()
            .next_back()
            .filter(|&(i, _)| i >= span.start);
        last.map_or(column, |(i, c)| {
            display_column(text, i) + display_width(c).max(1)
        })
    } else {
        column
    };
    let width = end.saturating_sub(column).max(1);
    let mut line = String::with_capacity(indent.len() + column + width);
    line.push_str(indent);
    line.extend(std::iter::repeat_n(' ', column));
    line.extend(std::iter::repeat_n('^', width));
    line
}

/// `text` padded with spaces to `width` terminal columns (nothing added
/// when it is as wide or wider), counting display widths as [`carets`]
/// does: `format!("{text:<width$}")` counts characters, which misaligns
/// wide ones.
pub fn pad(text: &str, width: usize) -> String {
    let shown = text_width(text);
    let mut padded =
        String::with_capacity(text.len() + width.saturating_sub(shown));
    padded.push_str(text);
    padded.extend(std::iter::repeat_n(' ', width.saturating_sub(shown)));
    padded
}

/// The width on a terminal of [`visible`]`(text)`, without making it when
/// `text` is ASCII that shows as it is (one column a byte).
pub fn shown_width(text: &str) -> usize {
    if printable_ascii(text.as_bytes()) {
        return text.len();
    }
    text_width(&visible(text))
}

/// The width of `text` on a terminal, as [`visible`] shows it.
pub fn text_width(text: &str) -> usize {
    // ASCII other than NUL is one column a byte (a control is shown as
    // one character).
    if text.bytes().all(|b| b.is_ascii() && b != 0) {
        return text.len();
    }
    text.chars().map(display_width).sum()
}

#[cfg(test)]
mod tests {
    use urlspec_bytes::scan::COPY_ROOM;

    use super::super::SHORT_TEXT;
    use super::*;

    /// `visible` as a character loop: what the scan must give.
    fn visible_by_chars(text: &str) -> String {
        text.chars().map(|c| replacement(c).unwrap_or(c)).collect()
    }

    #[test]
    fn a_long_text_takes_about_its_own_room() {
        let text = "x".repeat(1 << 20) + "\t";
        let mut buf = Vec::new();
        push_visible(&mut buf, &text);
        assert_eq!(buf.len(), text.len() + 2);
        assert!(buf.capacity() <= text.len() + 2 + COPY_ROOM);
    }

    #[test]
    fn the_shown_width_is_that_of_the_visible_text() {
        let texts = (0..0x100u32)
            .chain([0x2028, 0x2400, 0x202e, 0x3000, 0x1f600, 0x0301])
            .filter_map(char::from_u32)
            .flat_map(|c| [c.to_string(), format!("ab{c}cdefghijklmnopq{c}")])
            .chain(
                ["", "plain", "\u{85}\u{202a}\u{2069}€é"].map(String::from),
            );
        for text in texts {
            assert_eq!(
                shown_width(&text),
                text_width(&visible(&text)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn visible_replaces_each_character_class() {
        // Every character whose first byte the scan stops at (C0, DEL,
        // U+0080–U+00BF, U+2000–U+2FFF), and neighbours it keeps.
        let mut texts: Vec<String> = (0..0x100u32)
            .chain(0x2000..0x2100)
            .chain([0x2a00, 0x1f600, 0xfeff, 0x10ffff])
            .filter_map(char::from_u32)
            .map(|c| format!("ab{c}cdefghijklmnopq{c}"))
            .collect();
        texts.extend(
            ["", "plain", "\u{85}\u{202a}\u{2069}\u{2028}€é"]
                .map(String::from),
        );
        // Long texts, whose room is counted.
        let every: String = (0..0x300u32).filter_map(char::from_u32).collect();
        texts.push(every.repeat(3));
        texts.push("\t".repeat(SHORT_TEXT + 1));
        texts.push(format!("\u{85}{}\u{202e}", "x".repeat(SHORT_TEXT)));
        for text in &texts {
            let want = visible_by_chars(text);
            assert_eq!(visible(text), want, "{text:?}");
            let mut pushed = Vec::new();
            push_visible(&mut pushed, text);
            assert_eq!(pushed, want.as_bytes(), "{text:?}");
        }
        assert_eq!(
            visible("\u{202e}\u{85}\u{2066}"),
            "\u{fffd}\u{fffd}\u{fffd}"
        );
        assert_eq!(visible("\0\x1b\x7f"), "\u{2400}\u{241b}\u{2421}");
    }

    #[test]
    fn caret_counts_display_columns() {
        assert_eq!(caret("", "http://a/{x}", 9), "         ^");
        assert_eq!(caret("  ", "é{", 2), "   ^");
        assert_eq!(display_column("aé", 2), 1); // inside `é`
        assert_eq!(display_column("ab", 2), 2); // the end
                                                // A CJK character takes two columns, and gets two carets.
        assert_eq!(caret("", "日本{", 6), "    ^");
        assert_eq!(caret("", "a日本", 4), "   ^^");
        // A combining mark takes none: `e` + U+0301 is one column, and a
        // caret at the mark goes under the `e`.
        let text = "e\u{301}{";
        assert_eq!(caret("", text, 3), " ^");
        assert_eq!(caret("", text, 1), "^");
        // Controls are shown as one character each.
        assert_eq!(caret("", "\t{", 1), " ^");
    }

    #[test]
    fn carets_span_display_columns() {
        assert_eq!(carets("  ", "http://h:25/", 9..11), "           ^^");
        assert_eq!(carets("", "aé{", 1..4), " ^^");
        assert_eq!(carets("", "x日本y", 1..7), " ^^^^");
        // An empty span still gets one caret.
        assert_eq!(carets("", "ab", 2..2), "  ^");
        assert_eq!(pad("日本", 6), "日本  ");
        assert_eq!(pad("abc", 2), "abc");
    }

    #[test]
    fn visible_keeps_columns() {
        assert_eq!(visible("a\tb\x7f"), "a\u{2409}b\u{2421}");
        assert!(matches!(visible("plain é"), Cow::Borrowed(_)));
        let text = "\u{202e}x\u{85}";
        assert_eq!(visible(text).chars().count(), text.chars().count());
        let mut pushed = b"<".to_vec();
        push_visible(&mut pushed, "a\tb\x7f");
        assert_eq!(pushed, "<a\u{2409}b\u{2421}".as_bytes());
    }
}
