//! Python's `urllib.parse`: its split, join and recomposition rules, for
//! `urlspec.compat`, which must answer as the running interpreter does.
//!
//! These are not a spec's rules but one library's, read from CPython's
//! `Lib/urllib/parse.py` of 3.10–3.13: a mix of RFC 1808 (params), RFC
//! 2396 and RFC 3986 (`..` never climbs above the root), WHATWG-style
//! clean-ups, and hardening added for security reports. What differs
//! between versions is a [`Behaviour`], found by `compat.py` asking the
//! interpreter's own `urllib.parse` (feature tests, not version numbers).
//! What urllib reads at each call — its scheme lists `uses_relative`,
//! `uses_netloc`, `uses_params`, which callers may change — and the
//! netloc checks that need Python's `ipaddress` and `unicodedata` come
//! from an [`Interpreter`].
//!
//! Text is handled as bytes: Python strings reach here as UTF-8, or as
//! WTF-8 when they hold lone surrogates (as `os.fsdecode` makes). Every
//! delimiter urllib looks for is ASCII, so every slice taken here starts
//! and ends on a character boundary.

use std::borrow::Cow;

use urlspec_bytes::scan::{dot_start, first_of};

/// The rules that differ between the interpreters `compat` runs on, each
/// probed at import from the interpreter's `urllib.parse`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Behaviour {
    /// Leading C0 controls and spaces are stripped from the URL
    /// (CVE-2023-24329; 3.11.4, 3.10.12 and later).
    pub strip_url: bool,
    /// The same, at both ends, for the `scheme` argument.
    pub strip_scheme: bool,
    /// Tab, CR and LF are removed from the URL and the `scheme` argument
    /// (CVE-2022-0391, bpo-43882).
    pub remove_tab_cr_lf: bool,
    /// A scheme must start with an ASCII letter (3.11 and later); before,
    /// any run of scheme characters before `:` was one (`1a:b`).
    pub scheme_starts_with_letter: bool,
    /// `urlunsplit` keeps a path's leading `//` (gh-67693, 3.12.4+ and
    /// 3.13): `('', '', '//x', '', '')` gives `////x`, not `//x`, and a
    /// scheme of `uses_netloc` gets `//` only before an empty or absolute
    /// path.
    pub unsplit_keeps_slashes: bool,
}

/// What the rules ask of the interpreter at each call.
pub trait Interpreter {
    /// The interpreter's exception.
    type Error;
    /// Whether `scheme` is in `urllib.parse.uses_relative`.
    fn uses_relative(&self, scheme: &[u8]) -> Result<bool, Self::Error>;
    /// Whether `scheme` is in `urllib.parse.uses_netloc`.
    fn uses_netloc(&self, scheme: &[u8]) -> Result<bool, Self::Error>;
    /// Whether `scheme` is in `urllib.parse.uses_params`.
    fn uses_params(&self, scheme: &[u8]) -> Result<bool, Self::Error>;
    /// What `urljoin` asks of a scheme, in its order: `None` when `scheme`
    /// is not in `uses_relative`, else whether it is in `uses_netloc`.
    fn relative_then_netloc(
        &self,
        scheme: &[u8],
    ) -> Result<Option<bool>, Self::Error> {
        if !self.uses_relative(scheme)? {
            return Ok(None);
        }
        self.uses_netloc(scheme).map(Some)
    }
    /// urllib's netloc checks (unbalanced brackets, the bracketed host,
    /// NFKC normalization), asked only for a netloc holding `[`, `]` or a
    /// non-ASCII character: every other netloc passes them all.
    fn check_netloc(&self, netloc: &[u8]) -> Result<(), Self::Error>;
}

/// A byte of urllib's `scheme_chars`.
const SCHEME: u8 = 1;
/// A byte that ends a netloc: `/`, `?`, `#`.
const NETLOC_END: u8 = 2;
/// A byte that sends a netloc to the interpreter's checks: `[`, `]`, and
/// every byte of a non-ASCII character.
const NETLOC_CHECK: u8 = 4;

/// The classes of each byte, looked up once per byte of a scan.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.') {
            t[b] = SCHEME;
        }
        if matches!(c, b'/' | b'?' | b'#') {
            t[b] = NETLOC_END;
        }
        if matches!(c, b'[' | b']') || c >= 0x80 {
            t[b] = NETLOC_CHECK;
        }
        b += 1;
    }
    t
};

/// A C0 control or space: what the WHATWG URL Standard strips from both
/// ends of its input and urllib from the start.
fn is_c0_or_space(b: u8) -> bool {
    b <= b' '
}

/// `text` without tab, CR and LF.
fn remove_tab_cr_lf(text: &[u8]) -> Cow<'_, [u8]> {
    if !crate::bytes::may_hold_below_14(text)
        || memchr::memchr3(b'\t', b'\r', b'\n', text).is_none()
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.iter()
            .copied()
            .filter(|b| !matches!(b, b'\t' | b'\r' | b'\n'))
            .collect(),
    )
}

/// The URL as urllib splits it: leading C0 controls and spaces stripped,
/// tab, CR and LF removed, as `b` says.
pub fn clean_url<'a>(url: &'a [u8], b: &Behaviour) -> Cow<'a, [u8]> {
    let mut url = url;
    if b.strip_url {
        let start = url.iter().position(|&c| !is_c0_or_space(c));
        url = &url[start.unwrap_or(url.len())..];
    }
    if b.remove_tab_cr_lf {
        remove_tab_cr_lf(url)
    } else {
        Cow::Borrowed(url)
    }
}

/// The `scheme` argument as urllib uses it: stripped at both ends and
/// without tab, CR and LF, as `b` says. Not lower-cased.
pub fn clean_scheme<'a>(scheme: &'a [u8], b: &Behaviour) -> Cow<'a, [u8]> {
    let mut scheme = scheme;
    if b.strip_scheme {
        let start = scheme.iter().position(|&c| !is_c0_or_space(c));
        let start = start.unwrap_or(scheme.len());
        let end = scheme.iter().rposition(|&c| !is_c0_or_space(c));
        scheme = &scheme[start..end.map_or(start, |e| e + 1)];
    }
    if b.remove_tab_cr_lf {
        remove_tab_cr_lf(scheme)
    } else {
        Cow::Borrowed(scheme)
    }
}

/// The five components of `urlsplit`, borrowed from the cleaned URL. An
/// absent component is empty, as urllib gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// The scheme as written (`None`: the caller's default applies);
    /// urllib lower-cases it ([`Split::lower_scheme`]).
    pub scheme: Option<&'a [u8]>,
    /// What follows `//` up to the first `/`, `?` or `#`.
    pub netloc: &'a [u8],
    /// What follows the netloc (or the scheme) up to the query or the
    /// fragment.
    pub path: &'a [u8],
    /// What follows the first `?` of the rest, up to the fragment.
    pub query: &'a [u8],
    /// What follows the first `#` (when fragments are allowed).
    pub fragment: &'a [u8],
    /// The scheme has an upper-case letter (seen while scanning it).
    upper: bool,
    /// The path holds a `;` (seen while looking for its end).
    semi: bool,
}

impl<'a> Split<'a> {
    /// The scheme lower-cased (ASCII: a scheme is made of
    /// `scheme_chars`), as urllib gives it; `None` when there is none.
    pub fn lower_scheme(&self) -> Option<Cow<'a, [u8]>> {
        let s = self.scheme?;
        Some(if self.upper {
            Cow::Owned(s.to_ascii_lowercase())
        } else {
            Cow::Borrowed(s)
        })
    }
}

/// Splits a URL cleaned by [`clean_url`] as `urllib.parse.urlsplit`
/// does. Errors are the interpreter's netloc checks.
#[inline(always)]
pub fn split<'a, I: Interpreter>(
    url: &'a [u8],
    allow_fragments: bool,
    b: &Behaviour,
    interp: &I,
) -> Result<Split<'a>, I::Error> {
    let mut rest = url;
    let mut scheme = None;
    // urllib takes the text before the first `:` as the scheme when it
    // is all scheme characters: the run of them from the start, if a `:`
    // ends it.
    let mut upper = false;
    let run = url.iter().position(|&c| {
        upper |= c.is_ascii_uppercase();
        CLASS[c as usize] & SCHEME == 0
    });
    if let Some(run @ 1..) = run {
        if url[run] == b':'
            && (!b.scheme_starts_with_letter || url[0].is_ascii_alphabetic())
        {
            scheme = Some(&url[..run]);
            rest = &url[run + 1..];
        }
    }
    let mut netloc: &[u8] = b"";
    if let Some(after) = rest.strip_prefix(b"//") {
        // `#` ends the netloc even when fragments are not allowed.
        let end = first_of(after, 0, [b'/', b'?', b'#']);
        netloc = &after[..end];
        rest = &after[end..];
        if !netloc.is_ascii() || first_of(netloc, 0, [b'[', b']']) < end {
            interp.check_netloc(netloc)?;
        }
    }
    // urllib splits the fragment off at the first `#`, then the query at
    // the first `?` before it: one scan finds whichever comes first, and
    // whether a `;` (params, for urlparse) comes before it.
    let (mut query, mut fragment): (&[u8], &[u8]) = (b"", b"");
    let mut k = if allow_fragments {
        first_of(rest, 0, [b'?', b'#', b';'])
    } else {
        first_of(rest, 0, [b'?', b';'])
    };
    let semi = k < rest.len() && rest[k] == b';';
    if semi {
        k = if allow_fragments {
            first_of(rest, k, [b'?', b'#'])
        } else {
            first_of(rest, k, [b'?'])
        };
    }
    if k < rest.len() {
        let after = &rest[k + 1..];
        if rest[k] == b'#' {
            fragment = after;
        } else if allow_fragments {
            let f = first_of(after, 0, [b'#']);
            query = &after[..f];
            fragment = after.get(f + 1..).unwrap_or(b"");
        } else {
            query = after;
        }
        rest = &rest[..k];
    }
    let upper = upper && scheme.is_some();
    Ok(Split { scheme, netloc, path: rest, query, fragment, upper, semi })
}

/// `urlparse`'s `_splitparams`: the path and the params after the first
/// `;` of its last segment. Asked only when the scheme uses params and
/// the path holds a `;`.
pub fn split_params(path: &[u8]) -> (&[u8], &[u8]) {
    let from = memchr::memrchr(b'/', path).unwrap_or(0);
    match memchr::memchr(b';', &path[from..]) {
        Some(k) => (&path[..from + k], &path[from + k + 1..]),
        None => (path, b""),
    }
}

/// `urlparse`: the components of [`split`] with the params of the last
/// path segment split off when `scheme` (lower-cased, or the default) is
/// one of `uses_params`.
pub fn parse<'a, I: Interpreter>(
    split: Split<'a>,
    scheme: &[u8],
    interp: &I,
) -> Result<Parts<'a>, I::Error> {
    let mut parts = Parts {
        scheme: b"",
        netloc: split.netloc,
        path: split.path,
        params: b"",
        query: split.query,
        fragment: split.fragment,
    };
    if split.semi && interp.uses_params(scheme)? {
        (parts.path, parts.params) = split_params(split.path);
    }
    Ok(parts)
}

/// The six components of `urlparse` (`urlsplit`'s with empty params), as
/// [`unsplit`] puts them together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts<'a> {
    /// The scheme, lower-cased (empty: none).
    pub scheme: &'a [u8],
    /// The netloc, without its `//`.
    pub netloc: &'a [u8],
    /// The path, without the params.
    pub path: &'a [u8],
    /// What follows the first `;` of the path's last segment.
    pub params: &'a [u8],
    /// The query, without its `?`.
    pub query: &'a [u8],
    /// The fragment, without its `#`.
    pub fragment: &'a [u8],
}

/// `urlunparse` (`urlunsplit` when there are no params), appended to
/// `out`. urlunparse writes `path;params` and hands that to urlunsplit as
/// its path.
pub fn unsplit<I: Interpreter>(
    p: &Parts<'_>,
    b: &Behaviour,
    interp: &I,
    out: &mut Vec<u8>,
) -> Result<(), I::Error> {
    unsplit_inline(p, b, interp, out)
}

/// [`unsplit`], inlined into [`join`].
#[inline(always)]
fn unsplit_inline<I: Interpreter>(
    p: &Parts<'_>,
    b: &Behaviour,
    interp: &I,
    out: &mut Vec<u8>,
) -> Result<(), I::Error> {
    let path_is_empty = p.path.is_empty() && p.params.is_empty();
    // The first two bytes of `path;params` (urlunparse's path).
    let head: &[u8] = match (p.path, p.params.is_empty()) {
        (path, true) | (path @ [_, _, ..], false) => {
            &path[..path.len().min(2)]
        }
        ([], false) => b";",
        ([c], false) => &[*c, b';'],
    };
    let slashes = if !p.netloc.is_empty() {
        true
    } else if b.unsplit_keeps_slashes {
        head == b"//"
            || !p.scheme.is_empty()
                && (path_is_empty || head[0] == b'/')
                && interp.uses_netloc(p.scheme)?
    } else {
        !p.scheme.is_empty()
            && head != b"//"
            && interp.uses_netloc(p.scheme)?
    };
    if !p.scheme.is_empty() {
        out.extend_from_slice(p.scheme);
        out.push(b':');
    }
    if slashes {
        out.extend_from_slice(b"//");
        out.extend_from_slice(p.netloc);
        if !path_is_empty && head[0] != b'/' {
            out.push(b'/');
        }
    }
    out.extend_from_slice(p.path);
    for (mark, part) in [(b';', p.params), (b'?', p.query), (b'#', p.fragment)]
    {
        if !part.is_empty() {
            out.push(mark);
            out.extend_from_slice(part);
        }
    }
    Ok(())
}

/// What [`join`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// The reference as the caller gave it (another scheme than the
    /// base's, or one urllib does not resolve references for).
    Reference,
    /// The URL appended to the output buffer.
    Built,
}

/// `urllib.parse.urljoin(base, url, allow_fragments)` for a non-empty
/// base and reference (for an empty one urllib answers the other), the
/// result appended to `out`; `scratch` (empty) holds a merged path.
pub fn join<I: Interpreter>(
    base: &[u8],
    url: &[u8],
    allow_fragments: bool,
    b: &Behaviour,
    interp: &I,
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) -> Result<Joined, I::Error> {
    let base = clean_url(base, b);
    let bsplit = split(&base, allow_fragments, b, interp)?;
    let bscheme = bsplit.lower_scheme().unwrap_or(Cow::Borrowed(b""));
    let bparts = parse(bsplit, &bscheme, interp)?;

    let url = clean_url(url, b);
    let usplit = split(&url, allow_fragments, b, interp)?;
    // The base's scheme is the reference's default: already as cleaning
    // a scheme argument would leave it.
    let scheme = usplit.lower_scheme().unwrap_or(Cow::Borrowed(&bscheme));
    let mut parts = parse(usplit, &scheme, interp)?;
    parts.scheme = &scheme;
    if scheme != bscheme {
        return Ok(Joined::Reference);
    }
    let Some(uses_netloc) = interp.relative_then_netloc(&scheme)? else {
        return Ok(Joined::Reference);
    };
    // A reference with a netloc (of a scheme that has one) is written
    // as it is.
    if !uses_netloc || parts.netloc.is_empty() {
        if uses_netloc {
            parts.netloc = bparts.netloc;
        }
        if parts.path.is_empty() && parts.params.is_empty() {
            parts.path = bparts.path;
            parts.params = bparts.params;
            if parts.query.is_empty() {
                parts.query = bparts.query;
            }
        } else {
            merge(bparts.path, parts.path, scratch);
            parts.path = scratch;
        }
    }
    // One call site, inlined.
    unsplit_inline(&parts, b, interp, out)?;
    Ok(Joined::Built)
}

/// The segments kept by [`merge`], joined by `/` as they are pushed.
struct Stack<'a> {
    out: &'a mut Vec<u8>,
    /// A segment was pushed and not removed since (it may be empty): the
    /// next one follows a `/`. More than one is kept when `out` holds a
    /// `/`.
    any: bool,
}

impl Stack<'_> {
    fn push(&mut self, seg: &[u8]) {
        match seg {
            b"." => {}
            b".." => match memchr::memrchr(b'/', self.out) {
                // More than one segment kept: the last holds no `/`, so the
                // one before it ends at the last `/`.
                Some(end) => self.out.truncate(end),
                None => {
                    self.out.clear();
                    self.any = false;
                }
            },
            _ => {
                if self.any {
                    self.out.push(b'/');
                }
                self.out.extend_from_slice(seg);
                self.any = true;
            }
        }
    }
}

/// urljoin's path merge: the base path's segments but its last (kept
/// when empty: a path ending in `/`), then the reference's, the empty
/// ones between the first and the last dropped (an absolute-path
/// reference replaces the base path and keeps its empty segments); `.`
/// skipped, `..` removing the segment before it if there is one; a
/// trailing `/` when the last segment was `.` or `..`; `/` for nothing.
/// Written to `out` (empty).
fn merge(base_path: &[u8], path: &[u8], out: &mut Vec<u8>) {
    if path.first() == Some(&b'/') {
        // An absolute path without `.` or `..` segments is the answer.
        if !dot_start(path) {
            out.extend_from_slice(path);
            return;
        }
        let mut stack = Stack { out, any: false };
        for seg in path.split(|&c| c == b'/') {
            stack.push(seg);
        }
        return finish(path, stack);
    }
    // The base's segments but its last: its text up to the last `/`,
    // copied as it is when no segment of it is `.`, `..` or dropped as
    // empty (the first segment is kept even when empty, a path starting
    // with `/`); none when it has no `/` (one segment, the last), the
    // empty segment when it is empty.
    let mut stack = Stack { out, any: true };
    // Whether nothing came from the base: then the reference's first
    // segment is kept even when empty.
    let mut first = false;
    match memchr::memrchr(b'/', base_path) {
        Some(k) => {
            let dir = &base_path[..k];
            if plain_segments(dir) && dir.last() != Some(&b'/') {
                stack.out.extend_from_slice(dir);
            } else {
                stack.any = false;
                for (i, seg) in dir.split(|&c| c == b'/').enumerate() {
                    if i == 0 || !seg.is_empty() {
                        stack.push(seg);
                    }
                }
            }
        }
        None if base_path.is_empty() => {}
        None => (stack.any, first) = (false, true),
    }
    // The reference's segments, its empty ones dropped but the first
    // (when nothing came before it) and the last: appended as they are
    // when none is `.`, `..` or dropped.
    if plain_segments(path) {
        if stack.any {
            stack.out.push(b'/');
        }
        stack.out.extend_from_slice(path);
        // No last segment `.` or `..` to end with `/`.
        if stack.out.is_empty() {
            stack.out.push(b'/');
        }
        return;
    }
    let mut segments = path.split(|&c| c == b'/').peekable();
    while let Some(seg) = segments.next() {
        if first || segments.peek().is_none() || !seg.is_empty() {
            stack.push(seg);
        }
        first = false;
    }
    finish(path, stack)
}

/// The end of [`merge`]: a trailing `/` when the reference's last segment
/// was `.` or `..`, `/` for an empty result.
fn finish(path: &[u8], mut stack: Stack<'_>) {
    let last = match memchr::memrchr(b'/', path) {
        Some(k) => &path[k + 1..],
        None => path,
    };
    if matches!(last, b"." | b"..") {
        stack.push(b"");
    }
    if stack.out.is_empty() {
        stack.out.push(b'/');
    }
}

/// Whether no segment of `path` would be touched by [`merge`]'s rules:
/// none starts with `.` (a `.` or `..`, or a name such as `.x`, which the
/// test does not tell apart) and none between two `/` is empty. That is,
/// `path` neither starts with `.` nor holds `/.` or `//`.
#[inline(always)]
fn plain_segments(path: &[u8]) -> bool {
    path.first() != Some(&b'.')
        && !crate::bytes::holds_slash_dot_or_slash(path)
}
