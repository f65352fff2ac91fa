//! Bare URLs in prose: heuristics, in no seed.
//!
//! The seeds only say where bare URLs end: "Whitespace is also used to
//! delimit URLs in many contexts", and `<`, `>` and `"` are excluded from
//! URLs "because they are often used as the delimiters around URLs in text
//! documents" (the 1996 draft §2.3.3; so an unbracketed URL ends at
//! whitespace or at `<` `>` `"`, a heuristic no document states).
//! Where they *start*, and which punctuation around them is prose, is left
//! to the reader, so these rules follow what users of linkifiers expect
//! (`testdata/extract/linkifiers.toml` compares them with six linkifiers'
//! own test data):
//!
//! * **Start.** Each `:` is a candidate. The scheme is the run of scheme
//!   characters (`[A-Za-z0-9+.-]`) just before it, from its first letter. It
//!   counts if it is one of [`KNOWN_SCHEMES`] or starts with `x-` (the
//!   experimental prefix of RFC 1630 and 003 §7), or, for any other
//!   registered-looking name, if `//` follows the colon. The finder's spec
//!   must also see a scheme there (`svn+ssh` is none under RFC 1630).
//!   A known scheme after a `.` in that run starts the URL itself
//!   (`more...http://x` gives `http://x`).
//! * **End.** The URL runs to whitespace (ASCII or Unicode), a control
//!   character, `<`, `>`, `"`, the ideographic full stop or comma (`。`
//!   `、`, which CJK text writes without a space after them), or a byte
//!   that is not UTF-8. Other
//!   characters outside US-ASCII belong to it and are reported as written
//!   (`http://müller.de` whole): 003 §2.3.3 calls them `national`, to be
//!   escaped, and adds that "a robust implementation should be prepared to
//!   handle those characters when it is possible to do so".
//! * **Trailing punctuation** is prose, not URL, and is trimmed from the
//!   end, repeatedly: `.` `,` `;` `:` `!` `?` `` ` `` and their
//!   full-width forms (`，` `．` `！` `？` `：` `；`), `…`, and the closing
//!   quotes `”` `’` `»` `›`.
//! * **Closing brackets** `)` `]` `}` (and `）` `］` `｝` `】` `」` `』` `〉` `》`)
//!   are trimmed from the end only while the URL holds more of them than of
//!   their opening partner, as GitHub's autolink extension does with `)`:
//!   `http://en.wikipedia.org/wiki/URL_(disambiguation)` and
//!   `http://example.com/ab)c` are whole, `(see http://a/b)` gives
//!   `http://a/b`. When an opening bracket stands just before the URL, the
//!   first closing partner the URL did not open ends it there, as it
//!   closes the bracket around the URL: `(http://one.org/)(http://two.org/)`
//!   gives both URLs, as Markdown's `[text](http://a/b)` gives `http://a/b`.
//! * **Quotes** `'`: as many at the end as stand just before the URL are
//!   trimmed, since they close the quotation, or the wiki markup (two for
//!   italics, three for bold), that those opened: `''https://example.org''`
//!   gives `https://example.org`. Past those, a `'` at the end is trimmed
//!   when the URL holds an odd number of them (`http://a/b'` gives
//!   `http://a/b`, `http://a/'x'` is whole). docs/readings.md#bare-url-end.
//! * **Something must remain** after the scheme: `http:` and `http://`
//!   alone are not URLs.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::{Finder, Form, Found};
use crate::chars::{CharClass, ALPHA, SCHEME};
use crate::reference::Reference;
use crate::spec::Spec;

/// Schemes recognised without a following `//`: those of RFC 1630's
/// productions and prose, plus `https`.
pub(super) const KNOWN_SCHEMES: [&str; 16] = [
    "http", "https", "ftp", "gopher", "mailto", "news", "nntp", "telnet",
    "rlogin", "tn3270", "wais", "file", "prospero", "mid", "cid", "urn",
];

/// ASCII punctuation trimmed from the end of a bare URL (`'` has a rule of
/// its own).
const TRAILING: CharClass = CharClass::of(".,;:!?`");

/// Punctuation outside US-ASCII trimmed from the end of a bare URL: the
/// full-width forms of [`TRAILING`], the ellipsis and closing quotes.
const TRAILING_WIDE: &[char] =
    &['。', '、', '，', '．', '！', '？', '：', '；', '…', '”', '’', '»', '›'];

/// Bracket pairs: a closing one at the end of a bare URL is trimmed while
/// the URL holds more of it than of its opening partner.
const PAIRS: [(char, char); 11] = [
    ('(', ')'),
    ('[', ']'),
    ('{', '}'),
    ('（', '）'),
    ('［', '］'),
    ('｛', '｝'),
    ('【', '】'),
    ('「', '」'),
    ('『', '』'),
    ('〈', '〉'),
    ('《', '》'),
];

/// Whether `scheme` is one of [`KNOWN_SCHEMES`] or experimental (`x-…`),
/// ignoring ASCII case (R96-4.1).
fn is_known(scheme: &[u8]) -> bool {
    KNOWN_SCHEMES.iter().any(|k| k.as_bytes().eq_ignore_ascii_case(scheme))
        || (scheme.len() > 2 && scheme[..2].eq_ignore_ascii_case(b"x-"))
}

/// Whether `spec` reads `with_colon` (a scheme and its `:`) as a scheme.
fn spec_sees_scheme(with_colon: &[u8], spec: Spec) -> bool {
    let Ok(s) = core::str::from_utf8(with_colon) else { return false };
    Reference::parse_with(s, spec)
        .scheme()
        .is_some_and(|scheme| scheme.len() + 1 == s.len())
}

/// Whether what follows a scheme's `:` completes a URL: something after
/// `//` when it starts with `//`, else something, for a known scheme.
fn rest_ok(scheme: &[u8], rest: &[u8]) -> bool {
    if rest.starts_with(b"//") {
        rest.len() > 2
    } else {
        !rest.is_empty() && is_known(scheme)
    }
}

/// The length of the scheme that `url` starts with, if the rules above
/// accept it (for quoted URLs, whose end the quotes give).
pub(super) fn scheme_len(url: &[u8], spec: Spec) -> Option<usize> {
    if !url.first().is_some_and(|&b| ALPHA.contains(b)) {
        return None;
    }
    let n = url.iter().take_while(|&&b| SCHEME.contains(b)).count();
    (url.get(n) == Some(&b':')
        && rest_ok(&url[..n], &url[n + 1..])
        && spec_sees_scheme(&url[..=n], spec))
    .then_some(n)
}

/// Whether a bare URL ends before the ASCII byte `b`.
#[inline]
fn ends_at(b: u8) -> bool {
    b <= b' ' || b == 0x7f || matches!(b, b'<' | b'>' | b'"')
}

/// Whether a bare URL ends before `c`, a character outside US-ASCII:
/// whitespace, a control character, or the ideographic full stop and
/// comma, which CJK text writes without a space after them.
fn ends_at_wide(c: char) -> bool {
    c.is_whitespace() || c.is_control() || matches!(c, '。' | '、')
}

/// The character at `h[i]` (not ASCII) and its length in bytes, when it
/// is a whole UTF-8 sequence.
fn wide_char_at(h: &[u8], i: usize) -> Option<(char, usize)> {
    let n = match h[i] {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let c = core::str::from_utf8(h.get(i..i + n)?).ok()?.chars().next()?;
    Some((c, n))
}

/// The end of the bare URL that starts at `start` and whose
/// scheme-specific part starts at `from`: the first character that ends a
/// bare URL (or closes the bracket just before `start`), then back over
/// trailing punctuation, closing brackets the URL did not open and the
/// quotes that close those before `start` (back to `floor`, the end of
/// the URL before). Linear: the brackets are counted on the way forward,
/// once.
fn end_of(h: &[u8], floor: usize, start: usize, from: usize) -> usize {
    let (mut opened, mut closed) =
        ([0usize; PAIRS.len()], [0usize; PAIRS.len()]);
    let mut quotes = 0usize;
    // What stands just before the URL: an opening bracket, whose partner
    // ends the URL, and the quotes that open a quotation around it.
    let around = char_before(h, start)
        .and_then(|c| PAIRS.iter().position(|p| p.0 == c));
    let mut quoted =
        h[floor..start].iter().rev().take_while(|&&b| b == b'\'').count();
    let mut count = |c: char, opened: &mut [usize], closed: &mut [usize]| {
        if c == '\'' {
            quotes += 1;
        } else if let Some(k) = PAIRS.iter().position(|p| p.0 == c) {
            opened[k] += 1;
        } else if let Some(k) = PAIRS.iter().position(|p| p.1 == c) {
            closed[k] += 1;
        }
    };
    // The partner of the bracket around the URL, met where the URL holds
    // as many of the pair's openers as of its closers.
    let closes = |c: char, opened: &[usize], closed: &[usize]| {
        around.is_some_and(|k| PAIRS[k].1 == c && opened[k] == closed[k])
    };
    let mut i = from;
    while i < h.len() {
        let b = h[i];
        if b.is_ascii() {
            if ends_at(b) {
                break;
            }
            if matches!(b, b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'\'') {
                let c = char::from(b);
                if closes(c, &opened, &closed) {
                    break;
                }
                count(c, &mut opened, &mut closed);
            }
            i += 1;
        } else {
            match wide_char_at(h, i) {
                Some((c, n))
                    if !ends_at_wide(c) && !closes(c, &opened, &closed) =>
                {
                    count(c, &mut opened, &mut closed);
                    i += n;
                }
                _ => break,
            }
        }
    }
    // Back over what is prose: the last character, while it is trailing
    // punctuation or a closer without its opener.
    while i > from {
        let (c, n) = last_char(&h[from..i]);
        let trim = if c.is_ascii() && TRAILING.contains(c as u8) {
            true
        } else if c == '\'' && quoted > 0 {
            quoted -= 1;
            quotes -= 1;
            true
        } else if c == '\'' {
            let odd = quotes % 2 == 1;
            quotes -= usize::from(odd);
            odd
        } else if let Some(k) = PAIRS.iter().position(|p| p.1 == c) {
            let unbalanced = closed[k] > opened[k];
            closed[k] -= usize::from(unbalanced);
            unbalanced
        } else {
            TRAILING_WIDE.contains(&c)
        };
        if !trim {
            break;
        }
        i -= n;
    }
    i
}

/// The character just before byte `at` of `h`, when there is a whole
/// one.
fn char_before(h: &[u8], at: usize) -> Option<char> {
    let from = (0..at).rev().take(4).find(|&i| h[i] & 0xC0 != 0x80)?;
    core::str::from_utf8(&h[from..at]).ok()?.chars().next()
}

/// The last character of `url` (valid UTF-8, as [`end_of`] scanned it)
/// and its length.
fn last_char(url: &[u8]) -> (char, usize) {
    let start = url.len()
        - 1
        - url.iter().rev().take_while(|&&b| b & 0xC0 == 0x80).count();
    let c = core::str::from_utf8(&url[start..])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    (c, url.len() - start)
}

/// The bare URL whose scheme ends at the `:` at `colon`, if any. `floor`
/// is where the previous result ended: a scheme never reaches back past it.
///
/// Linear overall: the walk back stops at the previous `:`, `<` or `"`
/// (none is a scheme character), and the walk forward happens only after
/// the scheme is confirmed, so a failure after it leaves only trailing
/// punctuation behind, which no later candidate walks again.
pub(super) fn at_colon<'h>(
    h: &'h [u8],
    colon: usize,
    floor: usize,
    finder: &Finder,
) -> Option<Found<'h>> {
    let mut start = colon;
    while start > floor && SCHEME.contains(h[start - 1]) {
        start -= 1;
    }
    while start < colon && !ALPHA.contains(h[start]) {
        start += 1;
    }
    if start == colon {
        return None;
    }
    // Prose run into a known scheme through a `.` (`more...http://x`,
    // `site.http://x`): the URL starts at the known scheme.
    if let Some(dot) = h[start..colon].iter().rposition(|&b| b == b'.') {
        if is_known(&h[start + dot + 1..colon]) {
            start += dot + 1;
        }
    }
    let scheme = &h[start..colon];
    let after = &h[colon + 1..];
    if !(after.starts_with(b"//") || is_known(scheme))
        || !spec_sees_scheme(&h[start..=colon], finder.spec)
    {
        return None;
    }
    let end = end_of(h, floor, start, colon + 1);
    if !rest_ok(scheme, &h[colon + 1..end]) {
        return None;
    }
    // `end_of` took whole UTF-8 characters only.
    let url = core::str::from_utf8(&h[start..end]).ok()?;
    Some(Found {
        span: start..end,
        url_span: start..end,
        url: Cow::Borrowed(url),
        form: Form::Bare,
        hyphens: Vec::new(),
        relative: false,
        too_long: false,
        spec: finder.spec,
    })
}
