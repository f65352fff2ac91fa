//! What the tokenizer's states make of the characters they keep, done
//! only when a value or a text is asked for: the input stream's newlines
//! (CR LF and CR become LF), NUL (U+FFFD where the state says so), ASCII
//! names lowercased, and character references (the table of
//! [`crate::html::entities`]).

use std::borrow::Cow;

use crate::html::entities;

/// `text` with CR LF and lone CR made LF, as the input stream's
/// preprocessing does.
///
/// ```
/// use urlspec_links::html::tokenizer::decode::newlines;
/// assert_eq!(newlines("a\r\nb\rc\n"), "a\nb\nc\n");
/// ```
#[must_use]
pub fn newlines(text: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = memchr::memchr(b'\r', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        out.push('\n');
        let skip =
            if rest.as_bytes().get(i + 1) == Some(&b'\n') { 2 } else { 1 };
        rest = &rest[i + skip..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `text` with each NUL replaced by U+FFFD.
fn nul_to_replacement(text: Cow<'_, str>) -> Cow<'_, str> {
    if memchr::memchr(0, text.as_bytes()).is_none() {
        return text;
    }
    Cow::Owned(text.replace('\0', "\u{FFFD}"))
}

/// An attribute value as the tokenizer gives it: newlines made LF, NUL
/// replaced by U+FFFD, character references decoded by the rules for
/// attribute values (`&copy=` stays as written).
///
/// ```
/// use urlspec_links::html::tokenizer::decode::value;
/// assert_eq!(value("a?b=1&amp;c=2\r\n"), "a?b=1&c=2\n");
/// assert_eq!(value("?x&copy=1&copy"), "?x&copy=1©");
/// ```
#[must_use]
pub fn value(raw: &str) -> Cow<'_, str> {
    let text = nul_to_replacement(newlines(raw));
    match text {
        Cow::Borrowed(t) => entities::decode_attribute(t),
        Cow::Owned(t) => {
            Cow::Owned(entities::decode_attribute(&t).into_owned())
        }
    }
}

/// The kinds of text, by the state that read it: each keeps its
/// characters differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// Markup's text (the data state): character references decoded, NUL
    /// kept.
    Data,
    /// `title`, `textarea` (RCDATA): character references decoded, NUL
    /// replaced.
    RcData,
    /// `style`, `xmp`, `iframe`, `noembed`, `noframes`, and `noscript`
    /// with scripting on (RAWTEXT): as written, NUL replaced.
    RawText,
    /// `script` (script data): as written, NUL replaced.
    Script,
    /// Everything after `plaintext`: as written, NUL replaced.
    Plaintext,
    /// A CDATA section of foreign content: as written, NUL kept.
    CData,
}

/// `raw`, read as text of `kind`, as the tokenizer's character tokens
/// hold it.
///
/// ```
/// use urlspec_links::html::tokenizer::decode::{text, TextKind};
/// assert_eq!(text("a &amp; b\r\n", TextKind::Data), "a & b\n");
/// assert_eq!(text("&copy2026", TextKind::Data), "©2026");
/// assert_eq!(text("a &amp; b", TextKind::RawText), "a &amp; b");
/// ```
#[must_use]
pub fn text(raw: &str, kind: TextKind) -> Cow<'_, str> {
    let text = newlines(raw);
    let text = match kind {
        TextKind::Data | TextKind::CData => text,
        _ => nul_to_replacement(text),
    };
    if !matches!(kind, TextKind::Data | TextKind::RcData) {
        return text;
    }
    match text {
        Cow::Borrowed(t) => references(t),
        Cow::Owned(t) => Cow::Owned(references(&t).into_owned()),
    }
}

/// The character references of text (not of an attribute value) decoded.
/// Each reference is found here, by the text's rules, and decoded by
/// [`entities::decode_attribute`] given exactly its characters: the two
/// contexts differ only in what may follow a legacy name without `;`,
/// and nothing follows it in that slice.
fn references(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let Some(first) = memchr::memchr(b'&', b) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let mut i = first;
    while i < b.len() {
        if b[i] != b'&' {
            let next =
                memchr::memchr(b'&', &b[i..]).map_or(b.len(), |k| i + k);
            out.push_str(&text[i..next]);
            i = next;
            continue;
        }
        let len = reference_len(&b[i..]);
        if len == 0 {
            out.push('&');
            i += 1;
        } else {
            out.push_str(&entities::decode_attribute(&text[i..i + len]));
            i += len;
        }
    }
    Cow::Owned(out)
}

/// The longest named reference, without `;`.
const MAX_NAME: usize = 31;

/// The length of the character reference `s` starts with (at its `&`) in
/// text, or 0 when there is none there.
fn reference_len(s: &[u8]) -> usize {
    if s.get(1) == Some(&b'#') {
        let hex = matches!(s.get(2), Some(b'x' | b'X'));
        let from = 2 + usize::from(hex);
        let digits = s[from..]
            .iter()
            .take_while(|c| {
                if hex {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            })
            .count();
        if digits == 0 {
            return 0;
        }
        let end = from + digits;
        return end + usize::from(s.get(end) == Some(&b';'));
    }
    let run = s[1..]
        .iter()
        .take(MAX_NAME)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    for len in (1..=run).rev() {
        let name = &s[1..=len];
        let known = html_escape::NAMED_ENTITIES
            .binary_search_by(|(n, _)| (*n).cmp(name))
            .is_ok();
        if !known {
            continue;
        }
        if s.get(len + 1) == Some(&b';') {
            return len + 2;
        }
        if is_legacy(&s[..=len]) {
            return len + 1;
        }
    }
    0
}

/// Whether `reference` (`&` and a name of the table) is a legacy one,
/// which stands without `;`: the attribute rules decode it alone.
fn is_legacy(reference: &[u8]) -> bool {
    std::str::from_utf8(reference)
        .is_ok_and(|r| entities::decode_attribute(r) != r)
}

/// A tag or attribute name as the tokenizer gives it: ASCII uppercase
/// lowercased, NUL replaced by U+FFFD (its UTF-8 bytes), appended to
/// `out`.
pub(super) fn push_name(raw: &[u8], out: &mut Vec<u8>) {
    for &c in raw {
        match c {
            0 => out.extend_from_slice("\u{FFFD}".as_bytes()),
            c => out.push(c.to_ascii_lowercase()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_references() {
        for (raw, want) in [
            ("&notin;", "∉"),
            ("&notit;", "¬it;"),
            ("&noti", "¬i"),
            ("I'm &notin", "I'm ¬in"),
            ("&copy=", "©="),
            ("&amp", "&"),
            ("&ampx", "&x"),
            ("&#x41;&#65", "AA"),
            ("&#;&#x;", "&#;&#x;"),
            ("&nosuch;", "&nosuch;"),
            ("&lang", "&lang"),
            ("a&", "a&"),
        ] {
            assert_eq!(text(raw, TextKind::Data), want, "{raw}");
        }
        assert_eq!(text("\0&amp;", TextKind::RcData), "\u{FFFD}&");
        assert_eq!(text("\0&amp;", TextKind::Data), "\0&");
        assert_eq!(text("\0&amp;", TextKind::Script), "\u{FFFD}&amp;");
    }

    #[test]
    fn values() {
        assert_eq!(value("&not=&not;\0"), "&not=¬\u{FFFD}");
        assert_eq!(value("a\r\rb"), "a\n\nb");
    }
}
