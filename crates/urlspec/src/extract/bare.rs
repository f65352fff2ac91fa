//! Bare URLs in prose: heuristics, in no seed.
//!
//! The seeds only say where bare URLs end: "Whitespace is also used to
//! delimit URLs in many contexts", and `<`, `>` and `"` are excluded from
//! URLs "because they are often used as the delimiters around URLs in text
//! documents" (the 1996 draft §2.3.3; so an unbracketed URL ends at
//! whitespace or at `<` `>` `"`, a heuristic no document states).
//! Where they *start*, and which punctuation around them is prose, is left
//! to the reader, so these rules follow what users of linkifiers expect:
//!
//! * **Start.** Each `:` is a candidate. The scheme is the run of scheme
//!   characters (`[A-Za-z0-9+.-]`) just before it, from its first letter. It
//!   counts if it is one of [`KNOWN_SCHEMES`] or starts with `x-` (the
//!   experimental prefix of RFC 1630 and 003 §7), or, for any other
//!   registered-looking name, if `//` follows the colon. The finder's spec
//!   must also see a scheme there (`svn+ssh` is none under RFC 1630).
//! * **End.** The URL runs to whitespace, a control character, `<`, `>`,
//!   `"`, a non-ASCII character (no spec admits one), or a `)` or `]`
//!   without its opening partner inside the URL; balanced pairs stay, so
//!   `http://en.wikipedia.org/wiki/URL_(disambiguation)` is whole.
//! * **Trailing punctuation** `.` `,` `;` `:` `!` `?` and the closing
//!   quotes `'` and `` ` `` are prose, not URL, and are trimmed.
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

/// Punctuation trimmed from the end of a bare URL.
const TRAILING: CharClass = CharClass::of(".,;:!?'`");

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

/// Whether a bare URL ends before `b`.
#[inline]
fn ends_at(b: u8) -> bool {
    b <= b' ' || b >= 0x7f || matches!(b, b'<' | b'>' | b'"')
}

/// The end of the bare URL whose scheme-specific part starts at `from`:
/// the first byte that [`ends_at`] or that closes a pair never opened,
/// then back over trailing punctuation.
fn end_of(h: &[u8], from: usize) -> usize {
    let (mut parens, mut brackets) = (0usize, 0usize);
    let mut i = from;
    while i < h.len() {
        match h[i] {
            b'(' => parens += 1,
            b')' if parens == 0 => break,
            b')' => parens -= 1,
            b'[' => brackets += 1,
            b']' if brackets == 0 => break,
            b']' => brackets -= 1,
            b if ends_at(b) => break,
            _ => {}
        }
        i += 1;
    }
    while i > from && TRAILING.contains(h[i - 1]) {
        i -= 1;
    }
    i
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
    let scheme = &h[start..colon];
    let after = &h[colon + 1..];
    if !(after.starts_with(b"//") || is_known(scheme))
        || !spec_sees_scheme(&h[start..=colon], finder.spec)
    {
        return None;
    }
    let end = end_of(h, colon + 1);
    if !rest_ok(scheme, &h[colon + 1..end]) {
        return None;
    }
    // Every byte of a bare URL is ASCII (`ends_at` stops at the rest).
    let url = core::str::from_utf8(&h[start..end]).ok()?;
    Some(Found {
        span: start..end,
        url_span: start..end,
        url: Cow::Borrowed(url),
        form: Form::Bare,
        hyphens: Vec::new(),
        relative: false,
        spec: finder.spec,
    })
}
