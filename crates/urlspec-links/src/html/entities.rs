//! Character references in attribute values, decoded as the HTML
//! tokenizer decodes them (§13.2.5.72–80, the attribute-value rules):
//! numeric references with or without `;`, 0x80–0x9F through
//! windows-1252, `&#0;`, surrogates and values past U+10FFFF as U+FFFD;
//! named references by the longest match, the legacy ones also without
//! `;`, except before `=` or an alphanumeric (`&copy=` stays as written).
//! The names are the Standard's table as `html-escape` ships it; the
//! windows-1252 mapping is `encoding_rs`'s.

use std::borrow::Cow;

use encoding_rs::WINDOWS_1252;

/// The longest name of a named reference, without `;`
/// (`CounterClockwiseContourIntegral`).
const MAX_NAME: usize = 31;

/// The named references that also stand without `;` (the Standard's
/// table: the HTML 3.2 entities), sorted.
const LEGACY: &[&str] = &[
    "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml",
    "COPY", "Ccedil", "ETH", "Eacute", "Ecirc", "Egrave", "Euml", "GT",
    "Iacute", "Icirc", "Igrave", "Iuml", "LT", "Ntilde", "Oacute", "Ocirc",
    "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN", "Uacute",
    "Ucirc", "Ugrave", "Uuml", "Yacute", "aacute", "acirc", "acute", "aelig",
    "agrave", "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil",
    "cent", "copy", "curren", "deg", "divide", "eacute", "ecirc", "egrave",
    "eth", "euml", "frac12", "frac14", "frac34", "gt", "iacute", "icirc",
    "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
    "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf",
    "ordm", "oslash", "otilde", "ouml", "para", "plusmn", "pound", "quot",
    "raquo", "reg", "sect", "shy", "sup1", "sup2", "sup3", "szlig", "thorn",
    "times", "uacute", "ucirc", "ugrave", "uml", "uuml", "yacute", "yen",
    "yuml",
];

/// An attribute value with its character references decoded.
///
/// ```
/// use urlspec_links::html::entities::decode_attribute;
/// assert_eq!(decode_attribute("a?b=1&amp;c=2"), "a?b=1&c=2");
/// assert_eq!(decode_attribute("&#128;&#x80;"), "€€");
/// assert_eq!(decode_attribute("&#0;&#xD800;&#x110000;"), "\u{FFFD}\u{FFFD}\u{FFFD}");
/// assert_eq!(decode_attribute("?a=1&amp"), "?a=1&");
/// assert_eq!(decode_attribute("?x=1&copy=2"), "?x=1&copy=2");
/// assert_eq!(decode_attribute("&copy 2026 &notin; &notit;"), "© 2026 ∉ &notit;");
/// ```
#[must_use]
pub fn decode_attribute(value: &str) -> Cow<'_, str> {
    let Some(first) = memchr::memchr(b'&', value.as_bytes()) else {
        return Cow::Borrowed(value);
    };
    let b = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    out.push_str(&value[..first]);
    let mut i = first;
    while i < b.len() {
        if b[i] != b'&' {
            let next =
                memchr::memchr(b'&', &b[i..]).map_or(b.len(), |k| i + k);
            out.push_str(&value[i..next]);
            i = next;
            continue;
        }
        let (text, used) = match b.get(i + 1) {
            Some(b'#') => numeric(&b[i + 2..])
                .map(|(c, n)| (Replacement::Char(c), n + 2)),
            _ => named(&value[i + 1..])
                .map(|(s, n)| (Replacement::Str(s), n + 1)),
        }
        .unwrap_or((Replacement::Str("&"), 1));
        match text {
            Replacement::Char(c) => out.push(c),
            Replacement::Str(s) => out.push_str(s),
        }
        i += used;
    }
    Cow::Owned(out)
}

enum Replacement {
    Char(char),
    Str(&'static str),
}

/// A numeric reference after `&#`: its character and the bytes read.
fn numeric(b: &[u8]) -> Option<(char, usize)> {
    let hex = matches!(b.first(), Some(b'x' | b'X'));
    let start = usize::from(hex);
    let radix = if hex { 16 } else { 10 };
    let digits = b[start..]
        .iter()
        .take_while(|d| (**d as char).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &d in &b[start..start + digits] {
        let digit = (d as char).to_digit(radix).unwrap_or(0);
        // Past U+10FFFF the exact value no longer matters.
        value =
            value.saturating_mul(radix).saturating_add(digit).min(0x11_0000);
    }
    let mut used = start + digits;
    if b.get(used) == Some(&b';') {
        used += 1;
    }
    let c = match value {
        0x80..=0x9F => {
            let byte = [value as u8];
            let (text, _) = WINDOWS_1252.decode_without_bom_handling(&byte);
            text.chars().next().unwrap_or('\u{FFFD}')
        }
        _ => {
            char::from_u32(value).filter(|&c| c != '\0').unwrap_or('\u{FFFD}')
        }
    };
    Some((c, used))
}

/// A named reference after `&`: its text and the bytes read, by the
/// longest match; `None` when there is none, or when a legacy name
/// without `;` is followed by `=` or an alphanumeric (an attribute
/// value keeps it as written).
///
/// The names that are prefixes of the run of alphanumerics after `&` are
/// found longest first, one binary search each: the last name not after
/// a `word` is either a prefix of it, and the longest, or shares `k` bytes
/// with it, and then no prefix of `word` longer than `k` is a name (it
/// would sort between the two).
fn named(s: &str) -> Option<(&'static str, usize)> {
    let names = &html_escape::NAMED_ENTITIES;
    let b = s.as_bytes();
    let mut word = &b[..run(b)];
    while !word.is_empty() {
        let below = names.partition_point(|(n, _)| *n <= word);
        let &(name, text) = names.get(below.checked_sub(1)?)?;
        if !word.starts_with(name) {
            let shared = name.iter().zip(word).take_while(|(x, y)| x == y);
            word = &word[..shared.count()];
            continue;
        }
        if let Some(read) = reads(b, name, text) {
            return read;
        }
        word = &word[..name.len() - 1];
    }
    None
}

/// The alphanumerics after `&` a name may be: as many as the longest.
fn run(b: &[u8]) -> usize {
    b.iter().take(MAX_NAME).take_while(|c| c.is_ascii_alphanumeric()).count()
}

/// What the name `name` (of `text`), found at the start of `b`, reads
/// as: with `;`, or a legacy name not followed by `=` or an alphanumeric,
/// its text; a legacy name followed by one of them, nothing (`Some(None)`);
/// else `None`, a shorter name is looked for.
#[allow(clippy::option_option)]
fn reads(
    b: &[u8],
    name: &[u8],
    text: &'static str,
) -> Option<Option<(&'static str, usize)>> {
    let len = name.len();
    if b.get(len) == Some(&b';') {
        return Some(Some((text, len + 1)));
    }
    if LEGACY.binary_search_by(|l| l.as_bytes().cmp(name)).is_err() {
        return None;
    }
    let after = b.get(len);
    let kept = after.is_some_and(|c| *c == b'=' || c.is_ascii_alphanumeric());
    Some((!kept).then_some((text, len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legacy_table_is_sorted_and_complete() {
        assert!(LEGACY.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(LEGACY.len(), 106);
        for name in LEGACY {
            assert!(
                html_escape::NAMED_ENTITIES
                    .binary_search_by(|(n, _)| (*n).cmp(name.as_bytes()))
                    .is_ok(),
                "{name}"
            );
        }
    }

    /// The longest match found by trying each length, longest first.
    fn named_by_each_length(s: &str) -> Option<(&'static str, usize)> {
        let b = s.as_bytes();
        for len in (1..=run(b)).rev() {
            let name = &b[..len];
            let Ok(k) = html_escape::NAMED_ENTITIES
                .binary_search_by(|(n, _)| (*n).cmp(name))
            else {
                continue;
            };
            if let Some(read) =
                reads(b, name, html_escape::NAMED_ENTITIES[k].1)
            {
                return read;
            }
        }
        None
    }

    #[test]
    fn the_longest_match_is_that_of_each_length_tried() {
        let mut words: Vec<String> = Vec::new();
        for (name, _) in &html_escape::NAMED_ENTITIES {
            let name = std::str::from_utf8(name).unwrap();
            for cut in 1..=name.len() {
                let stem = &name[..cut];
                for tail in ["", ";", "=", "x", "z9", "in", " ", "&amp;"] {
                    words.push(format!("{stem}{tail}"));
                }
            }
        }
        for w in ["category=1", "utm_source", "param", "notit;", "notin"] {
            words.push(w.to_owned());
        }
        for w in &words {
            assert_eq!(named(w), named_by_each_length(w), "{w}");
        }
    }

    #[test]
    fn references_as_the_tokenizer_reads_them() {
        for (input, want) in [
            ("&#65", "A"),
            ("&#x41x", "Ax"),
            ("&#", "&#"),
            ("&#x;", "&#x;"),
            ("&#9999999999;", "\u{FFFD}"),
            ("&#x81;&#x9F;", "\u{81}Ÿ"),
            ("&#x1F600;", "😀"),
            ("&AMP;&AMP", "&&"),
            ("&ampx", "&ampx"),
            ("&amp;x", "&x"),
            ("&lt", "<"),
            ("&noti", "&noti"),
            ("&notin", "&notin"),
            ("&not;in", "¬in"),
            ("&not in", "¬ in"),
            ("&zwj;", "\u{200D}"),
            ("&CounterClockwiseContourIntegral;", "∳"),
            ("&nosuch;", "&nosuch;"),
            ("&", "&"),
            ("a&&b", "a&&b"),
        ] {
            assert_eq!(decode_attribute(input), want, "{input}");
        }
    }
}
