//! Delimited URLs: the rules of Appendix B of the 1996 draft,
//! "Recommendations for Delimiting URLs in Context" (the 1996 draft,
//! rules B.1 to B.5 below), which RFC 2396 App. E and RFC 3986 App. C repeat.
//!
//! What the appendix says, rule by rule, and where it is implemented:
//!
//! * R96-B.1, B.2: "angle brackets ("<" and ">"), along with the prefix
//!   "URL:", be used to delimit the boundaries of the URL. This wrapper does
//!   not form part of the URL". [`angle`] takes everything up to the first
//!   `>` and drops the `URL:` prefix, matched without regard to case
//!   (TV-TXT-13; docs/readings.md#a33: the prefix is stripped only here).
//! * R96-B.3: "the identifier would be placed within the brackets as well":
//!   a `#fragment` needs no rule of its own, because everything up to `>`
//!   belongs to the URL.
//! * R96-B.4: "extra whitespace (spaces, linebreaks, tabs, etc.) ... should
//!   be ignored when extracting the URL". [`unwrap`] deletes every space,
//!   tab, CR, LF, vertical tab and form feed between the brackets
//!   (docs/readings.md#a42: data spaces must be written `%20`).
//! * R96-B.5: "the interpreter of a URL containing a line break immediately
//!   after a hyphen should ignore all unencoded whitespace around the line
//!   break, and should be aware that the hyphen may or may not actually be
//!   part of the URL". [`unwrap`] keeps the hyphen and records where it is
//!   (docs/readings.md#a41), so that [`Found::alternative`](super::Found::alternative)
//!   can give the reading without it.
//! * Bracketed text is a URL only if it has a scheme under
//!   the finder's spec (RFC 1808 §2.4.2 P2 by default), so
//!   `<fielding@ics.uci.edu>` is not one.
//!
//! Double quotes come from RFC 2396 App. E ("URIs are usually delimited by
//! double quotes"); the seeds do not name them, so [`quoted`] is guarded by
//! the heuristics of [`super::bare`].

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use memchr::memchr;

use super::{bare, Finder, Form, Found};
use crate::chars::SCHEME;
use crate::reference::Reference;
use crate::spec::Spec;

/// The longest text between two delimiters that can hold a URL, in bytes
/// (8 KiB).
///
/// A guard, not a rule of the appendix: without it `< ... >` around a
/// whole chapter of prose (whose whitespace App. B says to delete) would
/// come out as one "URL". A longer `<...>` or `<URL:...>` that starts like
/// a URL is reported as [too long](super::Found::too_long); longer quoted
/// text is taken as prose.
pub const MAX_DELIMITED: usize = 8 * 1024;

/// The whitespace App. B says to ignore: "spaces, linebreaks, tabs, etc."
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A line break (LF, CR, vertical tab, form feed), for the hyphen rule.
#[inline]
fn is_break(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Where the next `>` is, remembered between calls, so that text with many
/// `<` and no `>` is searched once, not once per `<`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct NextGt {
    /// Whether `at` holds the result of a search.
    searched: bool,
    /// The position of a `>`, or the haystack's length when there is none
    /// after the last search's start.
    at: usize,
}

impl NextGt {
    /// The position of the first `>` at or after `from`, or `h.len()`.
    fn find(&mut self, h: &[u8], from: usize) -> usize {
        if !self.searched || self.at < from {
            self.searched = true;
            self.at = memchr(b'>', &h[from..]).map_or(h.len(), |k| from + k);
        }
        self.at
    }
}

/// Delimited text with its whitespace removed.
struct Unwrapped<'h> {
    /// The URL, without whitespace and without a `URL:` prefix.
    url: Cow<'h, str>,
    /// Whether a `URL:` prefix was removed.
    prefixed: bool,
    /// Positions in `url` of each hyphen followed by a line break.
    hyphens: Vec<usize>,
    /// Where the URL starts and ends in the delimited text.
    start: usize,
    end: usize,
}

/// What may stand between the delimiters.
#[derive(Clone, Copy)]
struct Allow {
    /// A run of spaces or tabs without a line break (App. B: yes; quotes:
    /// no, that is prose).
    inline_space: bool,
    /// A `"` (RFC 1630 only: its `extra` class holds it; every later spec
    /// excludes it because it delimits URLs, 003 §2.3.3).
    quote: bool,
}

/// Removes the whitespace of `text` (R96-B.4) and a leading `URL:`
/// (R96-B.2), noting every hyphen before a line break (R96-B.5).
///
/// `None` when `text` holds a byte no URL can hold and no rule removes:
/// `<`, `>`, a control character other than whitespace, or a `"` or an
/// inline space where `allow` forbids it. Allocates only when there is
/// whitespace inside the URL proper; whitespace around it, or between the
/// prefix and it, is cut off by borrowing less.
fn unwrap(text: &str, allow: Allow) -> Option<Unwrapped<'_>> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_space(c) {
            let mut line_break = false;
            while i < b.len() && is_space(b[i]) {
                line_break |= is_break(b[i]);
                i += 1;
            }
            if !line_break && !allow.inline_space {
                return None;
            }
        } else if c < 0x20
            || c == 0x7f
            || c == b'<'
            || c == b'>'
            || (c == b'"' && !allow.quote)
        {
            return None;
        } else {
            i += 1;
        }
    }

    // The prefix is the first four bytes that are not whitespace: App. B
    // ignores all whitespace, so `< URL: x>` and even `<U RL:x>` carry it.
    let (mut k, mut n, mut first) = (0, 0, [0u8; 4]);
    while n < 4 && k < b.len() {
        if !is_space(b[k]) {
            first[n] = b[k];
            n += 1;
        }
        k += 1;
    }
    let prefixed = n == 4 && first.eq_ignore_ascii_case(b"URL:");
    let mut start = if prefixed { k } else { 0 };
    while start < b.len() && is_space(b[start]) {
        start += 1;
    }
    let mut end = b.len();
    while end > start && is_space(b[end - 1]) {
        end -= 1;
    }
    let proper = &text[start..end];
    let pb = proper.as_bytes();
    let mut hyphens = Vec::new();
    let url = if !pb.iter().any(|&c| is_space(c)) {
        Cow::Borrowed(proper)
    } else {
        let mut out = String::with_capacity(pb.len());
        let (mut i, mut seg) = (0, 0);
        while i < pb.len() {
            if is_space(pb[i]) {
                let run = i;
                let mut line_break = false;
                while is_space(pb[i]) {
                    line_break |= is_break(pb[i]);
                    i += 1;
                }
                out.push_str(&proper[seg..run]);
                // R96-B.5: "a line break immediately after a hyphen".
                // Spaces or tabs between the two are invisible at the end
                // of a line, so they do not matter. (`proper` starts with
                // no whitespace, so `run > 0`.)
                if line_break && pb[run - 1] == b'-' {
                    hyphens.push(out.len() - 1);
                }
                seg = i;
            } else {
                i += 1;
            }
        }
        out.push_str(&proper[seg..]);
        Cow::Owned(out)
    };
    Some(Unwrapped { url, prefixed, hyphens, start, end })
}

/// Whether quoted text without a scheme looks enough like a relative
/// reference to be reported when the caller asks for relative references
/// (a heuristic): it starts with `/`, `./`, `../`, `#` or `?`, holds a letter
/// or digit, and is valid under `spec`. So `"../x"` and `"#andy"` are
/// relative references, and `"/"`, `"?"`, `"Base"` and `"multipart/*"` are
/// not.
fn looks_relative(url: &str, spec: Spec) -> bool {
    let rooted =
        ["/", "./", "../", "#", "?"].iter().any(|p| url.starts_with(p));
    rooted
        && url.bytes().any(|b| b.is_ascii_alphanumeric())
        && Reference::parse_with(url, spec).is_valid()
}

/// Builds the result for delimited text `h[open..close + 1]` whose inner
/// text (between the delimiters) was unwrapped into `u`.
fn found<'h>(
    u: Unwrapped<'h>,
    open: usize,
    close: usize,
    form: Form,
    relative: bool,
    spec: Spec,
) -> Found<'h> {
    let inner = open + 1;
    Found {
        span: open..close + 1,
        url_span: inner + u.start..inner + u.end,
        url: u.url,
        form,
        hyphens: u.hyphens,
        relative,
        too_long: false,
        spec,
    }
}

/// The `<...>` or `<URL:...>` that opens at `lt` (R96-B.1 to R96-B.5), if
/// it holds a URL.
///
/// The URL runs to the first `>`. A second `<` before it means this one
/// opens no URL (the URL grammars exclude `<`; the inner one may), which
/// also keeps the search linear: the text between two `<` is read once.
pub(super) fn angle<'h>(
    h: &'h [u8],
    lt: usize,
    next_gt: &mut NextGt,
    finder: &Finder,
) -> Option<Found<'h>> {
    let gt = next_gt.find(h, lt + 1);
    if gt == h.len() {
        return None;
    }
    let inner = &h[lt + 1..gt];
    if memchr(b'<', inner).is_some() {
        return None;
    }
    if inner.len() > MAX_DELIMITED {
        return too_long(h, lt, gt, finder);
    }
    let text = core::str::from_utf8(inner).ok()?;
    let allow =
        Allow { inline_space: true, quote: finder.spec == Spec::Rfc1630 };
    let u = unwrap(text, allow)?;
    if u.url.is_empty() {
        return None;
    }
    let form = if u.prefixed { Form::UrlPrefixed } else { Form::Angle };
    let relative = !Reference::parse_with(&u.url, finder.spec).has_scheme();
    // Without a scheme, only the `URL:` prefix says that a URL follows:
    // `<fielding@ics.uci.edu>`, `</TITLE>` and `<draft-xyz.txt>` are no
    // relative references.
    if relative && !(finder.relative && u.prefixed) {
        return None;
    }
    Some(found(u, lt, gt, form, relative, finder.spec))
}

/// The finding for `<...>` at `lt..=gt` whose text is longer than
/// [`MAX_DELIMITED`], if it starts like a URL: with `URL:`, or with a
/// scheme and its `:` under the finder's spec (after whitespace). Reads
/// only the text's start.
fn too_long<'h>(
    h: &'h [u8],
    lt: usize,
    gt: usize,
    finder: &Finder,
) -> Option<Found<'h>> {
    let inner = &h[lt + 1..gt];
    let start = inner.iter().take_while(|&&b| is_space(b)).count();
    let end =
        inner.len() - inner.iter().rev().take_while(|&&b| is_space(b)).count();
    let text = &inner[start..];
    let prefixed =
        text.get(..4).is_some_and(|p| p.eq_ignore_ascii_case(b"URL:"));
    let url = if prefixed { &text[4..] } else { text };
    let url = &url[url.iter().take_while(|&&b| is_space(b)).count()..];
    let url_start = lt + 1 + inner.len() - url.len();
    let n = url.iter().take_while(|&&b| SCHEME.contains(b)).count();
    let scheme = url.get(..=n).filter(|s| s.ends_with(b":"));
    let has_scheme =
        scheme.and_then(|s| core::str::from_utf8(s).ok()).is_some_and(|s| {
            Reference::parse_with(s, finder.spec)
                .scheme()
                .is_some_and(|x| x.len() == n)
        });
    let relative = !has_scheme;
    if relative && !(finder.relative && prefixed) {
        return None;
    }
    Some(Found {
        span: lt..gt + 1,
        url_span: url_start..(lt + 1 + end).max(url_start),
        url: Cow::Borrowed(""),
        form: if prefixed { Form::UrlPrefixed } else { Form::Angle },
        hyphens: Vec::new(),
        relative,
        too_long: true,
        spec: finder.spec,
    })
}

/// The `"..."` that opens at `q` (RFC 2396 App. E), if it holds a URL.
///
/// Heuristics, since prose quotes far more than URLs: the text must start
/// with a scheme and its `:` written together, the scheme must pass
/// [`bare::scheme_len`], and whitespace is removed only where the line
/// breaks (a space on the line means prose). Relative references (when
/// asked for) need a `URL:` prefix or must pass `looks_relative`.
pub(super) fn quoted<'h>(
    h: &'h [u8],
    q: usize,
    finder: &Finder,
) -> Option<Found<'h>> {
    if h.get(q + 1).is_none_or(|&b| b == b'"') {
        return None;
    }
    let close = q + 1 + memchr(b'"', &h[q + 1..])?;
    let inner = &h[q + 1..close];
    if inner.is_empty() || inner.len() > MAX_DELIMITED {
        return None;
    }
    let text = core::str::from_utf8(inner).ok()?;
    let u = unwrap(text, Allow { inline_space: false, quote: false })?;
    if u.url.is_empty() {
        return None;
    }
    // The scheme, as written in the source (before any whitespace is
    // removed), then confirmed on the unwrapped URL.
    let written = &inner[u.start..];
    let scheme =
        bare::scheme_len(u.url.as_bytes(), finder.spec).filter(|&n| {
            written.len() > n && written[..=n] == u.url.as_bytes()[..=n]
        });
    let relative = scheme.is_none();
    if relative {
        let r = Reference::parse_with(&u.url, finder.spec);
        if !finder.relative
            || r.has_scheme()
            || !(u.prefixed || looks_relative(&u.url, finder.spec))
        {
            return None;
        }
    }
    Some(found(u, q, close, Form::Quoted, relative, finder.spec))
}
