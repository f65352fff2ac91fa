//! The fast path of [`super::resolve`] and of [`super::Resolver`] with
//! default options: base and reference given as text, under RFC 3986 and
//! RFC 1808 (and draft 04, whose steps differ from RFC 1808's only where a
//! `..` meets a `..`, which its fast path never lets happen).
//!
//! Neither input is split into all of its components: [`super::scan`]
//! finds only the delimiters the case at hand reads (the reference's first
//! byte picks the case), and the result is a prefix of the base followed
//! by a suffix of the reference (a [`Plan`]), for the caller to write into
//! one allocation of the exact length. These are the cases of the plans in
//! `rfc3986` and `rfc1808`, and under RFC 1808 the `../` left above the
//! root; anything else (a dot segment that `remove_dot_segments` or step 6
//! would have to remove, a base without a scheme or with a dot segment or
//! a rootless path in its directory, an empty component under RFC 1808…)
//! gives `None`, and the caller takes the general code.

use super::path::{directory, has_dot_segment, leading_dots, pop_segments};
use super::scan::{self, find, net_loc_end};
use super::Plan;
use crate::reference::{Reference, NONE};
use crate::spec::Spec;

/// The result under `spec` with default options, as slices of base and
/// reference, when the fast path serves the spec and the case; `None`
/// otherwise.
#[inline]
pub(super) fn plan<'a>(
    base: &'a str,
    r: &'a str,
    spec: Spec,
) -> Option<Plan<'a>> {
    plan_with(Text(base), r, spec)
}

/// [`plan`] for a base in either form: its text, or prepared once by
/// [`super::Resolver`].
#[inline(always)]
pub(super) fn plan_with<'a>(
    base: impl Base<'a>,
    r: &'a str,
    spec: Spec,
) -> Option<Plan<'a>> {
    match spec {
        Spec::Rfc3986 => rfc3986(base, r),
        Spec::Rfc1808 => rfc1808(base, r, true),
        Spec::Draft04 => rfc1808(base, r, false),
        _ => None,
    }
}

/// The specs the fast path serves.
pub(super) const SERVED: [Spec; 3] =
    [Spec::Rfc3986, Spec::Rfc1808, Spec::Draft04];

/// The directory of a base path that the fast path resolves against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// The root that a net_loc with an empty path stands for
    /// (RFC 3986 §5.2.3, docs/readings.md#a18).
    Root,
    /// `base[path_start..end]`: rooted, ending in `/`, without dot
    /// segments.
    Upto(usize),
}

/// What the fast path reads of a base. Each method takes what earlier
/// ones gave, and gives what the scans of [`scan`] find in the text under
/// the spec at hand: [`Text`] scans for it (the one-shot
/// [`super::resolve`] reads only what its case needs), [`Prepared`] reads
/// it from the parse and scan that [`super::Resolver::new`] made once.
pub(super) trait Base<'a>: Copy {
    /// The whole base.
    fn text(self) -> &'a str;
    /// The `:` that ends the scheme, if any.
    fn scheme(self, letter_first: bool) -> Option<usize>;
    /// The first `#` after the scheme's `:` at `s`, or the end.
    fn fragment(self, s: usize) -> usize;
    /// The first `?` or `#` after `s` (RFC 3986: the path's end).
    fn query_or_fragment(self, s: usize) -> usize;
    /// Where the path starts, and whether a net_loc comes before it (one
    /// ended by `?` too with `QUERY`).
    fn path_start<const QUERY: bool>(self, s: usize) -> (usize, bool);
    /// RFC 1808: the first `;`, `?` or `#` from the path's start `ps`.
    fn path_end_1808(self, ps: usize) -> usize;
    /// RFC 1808: the first `?` or `#` after the `;` at `at`.
    fn params_end(self, at: usize) -> usize;
    /// The first `#` after the `?` at `at`.
    fn query_end(self, at: usize) -> usize;
    /// The directory of the path at `ps` (ended as with `PARAMS`); `None`
    /// when the fast path does not take it (rootless, or with a dot
    /// segment, or empty without a net_loc).
    fn directory<const PARAMS: bool>(
        self,
        ps: usize,
        net_loc: bool,
    ) -> Option<Dir>;
    /// Whether the base from `from` and `tail` are equal up to their first
    /// `#` (or their end): with `tail` what follows `base[..from]` in the
    /// result, whether the result without its fragment is the base
    /// without its fragment (RFC 3986 §4.4).
    fn same_from(self, from: usize, tail: &[u8]) -> bool;
}

/// A base given as text: everything scanned when asked for.
#[derive(Clone, Copy)]
pub(super) struct Text<'a>(pub(super) &'a str);

impl<'a> Base<'a> for Text<'a> {
    #[inline(always)]
    fn text(self) -> &'a str {
        self.0
    }

    #[inline(always)]
    fn scheme(self, letter_first: bool) -> Option<usize> {
        scan::scheme(self.0.as_bytes(), letter_first)
    }

    #[inline(always)]
    fn fragment(self, s: usize) -> usize {
        find::<false, false>(self.0.as_bytes(), s)
    }

    #[inline(always)]
    fn query_or_fragment(self, s: usize) -> usize {
        find::<false, true>(self.0.as_bytes(), s)
    }

    #[inline(always)]
    fn path_start<const QUERY: bool>(self, s: usize) -> (usize, bool) {
        path_start::<QUERY>(self.0.as_bytes(), s)
    }

    #[inline(always)]
    fn path_end_1808(self, ps: usize) -> usize {
        find::<true, true>(self.0.as_bytes(), ps)
    }

    #[inline(always)]
    fn params_end(self, at: usize) -> usize {
        find::<false, true>(self.0.as_bytes(), at + 1)
    }

    #[inline(always)]
    fn query_end(self, at: usize) -> usize {
        find::<false, false>(self.0.as_bytes(), at + 1)
    }

    #[inline(always)]
    fn same_from(self, from: usize, tail: &[u8]) -> bool {
        same_until_fragment(&self.0.as_bytes()[from..], tail)
    }

    #[inline(always)]
    fn directory<const PARAMS: bool>(
        self,
        ps: usize,
        net_loc: bool,
    ) -> Option<Dir> {
        let (base, b) = (self.0, self.0.as_bytes());
        let bp = scan::path::<PARAMS, false>(b, ps, false);
        if bp.end == ps {
            return net_loc.then_some(Dir::Root);
        }
        if b[ps] != b'/' {
            return None;
        }
        if !bp.dot {
            return Some(Dir::Upto(bp.last_slash + 1));
        }
        // The last `/` exactly, then the dot segments.
        let dir = directory(&base[ps..bp.end]).as_bytes();
        (!has_dot_segment(dir)).then_some(Dir::Upto(ps + dir.len()))
    }
}

/// A base parsed (and its directory found) once, under the spec it is
/// resolved under: every offset read from the parse.
#[derive(Clone, Copy)]
pub(super) struct Prepared<'a> {
    pub(super) base: &'a Reference<'a>,
    pub(super) dir: Option<Dir>,
}

impl<'a> Prepared<'a> {
    /// The directory of `base` under `spec`, for [`Prepared::dir`].
    pub(super) fn directory_of(
        base: &Reference<'_>,
        spec: Spec,
    ) -> Option<Dir> {
        let m = base.meta();
        if m.scheme_end == NONE {
            return None;
        }
        let (text, net_loc) = (Text(base.as_str()), m.net_loc_start != NONE);
        match spec {
            Spec::Rfc3986 => text.directory::<false>(m.path_start, net_loc),
            _ => text.directory::<true>(m.path_start, net_loc),
        }
    }

    /// The first of `?` and `#`, or the end.
    #[inline(always)]
    fn after_params(self) -> usize {
        let m = self.base.meta();
        m.query_start.min(self.query_end(0))
    }
}

impl<'a> Base<'a> for Prepared<'a> {
    #[inline(always)]
    fn text(self) -> &'a str {
        self.base.as_str()
    }

    #[inline(always)]
    fn scheme(self, _: bool) -> Option<usize> {
        let s = self.base.meta().scheme_end;
        (s != NONE).then_some(s)
    }

    #[inline(always)]
    fn fragment(self, _: usize) -> usize {
        self.query_end(0)
    }

    #[inline(always)]
    fn query_or_fragment(self, _: usize) -> usize {
        self.after_params()
    }

    #[inline(always)]
    fn path_start<const QUERY: bool>(self, _: usize) -> (usize, bool) {
        let m = self.base.meta();
        (m.path_start, m.net_loc_start != NONE)
    }

    #[inline(always)]
    fn path_end_1808(self, _: usize) -> usize {
        self.base.meta().path_end
    }

    #[inline(always)]
    fn params_end(self, _: usize) -> usize {
        self.after_params()
    }

    #[inline(always)]
    fn query_end(self, _: usize) -> usize {
        self.base.meta().fragment_start.min(self.base.as_str().len())
    }

    #[inline(always)]
    fn directory<const PARAMS: bool>(self, _: usize, _: bool) -> Option<Dir> {
        self.dir
    }

    #[inline(always)]
    fn same_from(self, from: usize, tail: &[u8]) -> bool {
        // The base's `#` is known: `tail` must be the rest of the base
        // before it, then end or start a fragment. The length nearly
        // always decides.
        let rest = &self.text().as_bytes()[from..self.query_end(0)];
        let n = rest.len();
        tail.get(n).is_none_or(|&c| c == b'#')
            && tail.len() >= n
            && tail[..n] == *rest
    }
}

/// The concatenation of `parts`.
#[inline]
fn done<'a, const N: usize>(
    parts: [&'a str; N],
    same_document: bool,
) -> Plan<'a> {
    let mut all = [""; 3];
    all[..N].copy_from_slice(&parts);
    Plan { parts: all, same_document }
}

/// Whether `a` and `b` are equal up to their first `#` (or their end):
/// with `a` a suffix of the base and `b` the suffix of the reference that
/// follows it in the result, whether the result without its fragment is
/// the base without its fragment (RFC 3986 §4.4). Nearly always decided
/// by the first byte.
#[inline]
fn same_until_fragment(a: &[u8], b: &[u8]) -> bool {
    // The first byte, inline: it nearly always differs.
    let first = |s: &[u8]| s.first().copied().filter(|&c| c != b'#');
    match (first(a), first(b)) {
        (x, y) if x != y => false,
        (None, _) => true,
        _ => same_after_first(a, b),
    }
}

/// [`same_until_fragment`] past equal first bytes.
#[inline(never)]
fn same_after_first(a: &[u8], b: &[u8]) -> bool {
    let k = scan::common_prefix(a, b);
    let end = |s: &[u8]| s.get(k).is_none_or(|&c| c == b'#');
    // Equal up to where both end or have a `#`, or a `#` comes before.
    (end(a) && end(b)) || find::<false, false>(&a[..k], 0) < k
}

/// Where the base's path starts: after `scheme:` and, when `//` follows,
/// the net_loc (ended by `/`, `#` and, with `QUERY`, `?`). Also whether
/// there is a net_loc.
#[inline]
fn path_start<const QUERY: bool>(
    b: &[u8],
    scheme_end: usize,
) -> (usize, bool) {
    let after = scheme_end + 1;
    if b[after..].starts_with(b"//") {
        (net_loc_end::<QUERY>(b, after + 2), true)
    } else {
        (after, false)
    }
}

/// RFC 3986 §5.2 with default options, for the cases where
/// `remove_dot_segments` has nothing to remove but a relative path's
/// leading `./` and `../`.
#[inline(always)]
fn rfc3986<'a>(bs: impl Base<'a>, r: &'a str) -> Option<Plan<'a>> {
    let (base, rb) = (bs.text(), r.as_bytes());
    let s = bs.scheme(true)?;
    match rb.first() {
        // An empty path and no query: the base path and query.
        None | Some(b'#') => {
            let f = bs.fragment(s);
            Some(done([&base[..f], r], true))
        }
        // An empty path: the base path, the reference's query.
        Some(b'?') => {
            let end = bs.query_or_fragment(s);
            Some(done([&base[..end], r], bs.same_from(end, rb)))
        }
        // A network-path reference: the base scheme, the rest as is.
        Some(b'/') if rb.get(1) == Some(&b'/') => {
            if dot_segment_from(rb, net_loc_end::<true>(rb, 2)) {
                return None;
            }
            let same = bs.same_from(s + 1, rb);
            Some(done([&base[..=s], r], same))
        }
        // An absolute path.
        Some(b'/') => {
            if dot_segment_from(rb, 0) {
                return None;
            }
            let (ps, _) = bs.path_start::<true>(s);
            Some(done([&base[..ps], r], bs.same_from(ps, rb)))
        }
        Some(_) => {
            let p = scan::path::<false, true>(rb, 0, true);
            if p.colon {
                if let Some(c) = scan::scheme_upto(rb, p.end, true) {
                    return rfc3986_absolute(bs, r, c);
                }
            }
            rfc3986_relative(bs, r, s, p)
        }
    }
}

/// A reference with a scheme is the result, unless its path has a dot
/// segment.
#[cold]
fn rfc3986_absolute<'a>(
    bs: impl Base<'a>,
    r: &'a str,
    colon: usize,
) -> Option<Plan<'a>> {
    let rb = r.as_bytes();
    let (p, _) = path_start::<true>(rb, colon);
    if dot_segment_from(rb, p) {
        return None;
    }
    Some(done([r], bs.same_from(0, rb)))
}

/// Whether the RFC 3986 path that starts at `from` (and ends at the first
/// `?` or `#`) has a dot segment.
#[inline]
fn dot_segment_from(b: &[u8], from: usize) -> bool {
    let p = scan::path::<false, false>(b, from, true);
    p.dot && has_dot_segment(&b[from..p.end])
}

/// A relative-path reference: its leading `./` and `../` take segments
/// off the base's directory (never the root), the rest follows it.
#[inline(always)]
fn rfc3986_relative<'a>(
    bs: impl Base<'a>,
    r: &'a str,
    s: usize,
    p: scan::Path,
) -> Option<Plan<'a>> {
    let (base, rb) = (bs.text(), r.as_bytes());
    let (k, up) = if p.dot { dots(&rb[..p.end])? } else { (0, 0) };
    let tail = &r[k..];
    let (ps, net_loc) = bs.path_start::<true>(s);
    let end = match bs.directory::<false>(ps, net_loc)? {
        // A base with an authority and an empty path: the root (5.2.3).
        // The base has no `/` where the result has one: not the same
        // document.
        Dir::Root => return Some(done([&base[..ps], "/", tail], false)),
        Dir::Upto(end) => end,
    };
    let cut = ps + pop_segments(&base.as_bytes()[ps..end], up).unwrap_or(1);
    let same = bs.same_from(cut, tail.as_bytes());
    Some(done([&base[..cut], tail], same))
}

/// The dot segments of a relative path that the fast path takes: a
/// leading run of `./` and `../`, then either a final `.` or `..` (which
/// act as `./` and `../` do: the result's path ends in `/` either way) or
/// a rest without dot segments that does not start with `/`. Gives where the rest starts and the number
/// of `..`; `None` for any other dot segment.
#[inline]
fn dots(path: &[u8]) -> Option<(usize, usize)> {
    let (k, up) = leading_dots(path, usize::MAX)?;
    match &path[k..] {
        b"." => Some((path.len(), up)),
        b".." => Some((path.len(), up + 1)),
        // `.//g`: the result's path may start with `//` (the general code
        // notes it).
        [b'/', ..] => None,
        rest if has_dot_segment(rest) => None,
        _ => Some((k, up)),
    }
}

/// Whether the part of an RFC 1808 reference from the end of its path
/// (`;params?query#fragment`, each optional) has an empty params, query or
/// fragment, which recombination would drop (the general code handles
/// those).
#[inline]
fn empty_component_1808(t: &[u8]) -> bool {
    let mut i = 0;
    if t.first() == Some(&b';') {
        i = find::<false, true>(t, 1);
        if i == 1 {
            return true;
        }
    }
    if t.get(i) == Some(&b'?') {
        let q = i;
        i = find::<false, false>(t, q + 1);
        if i == q + 1 {
            return true;
        }
    }
    // A fragment, if any, runs to the end.
    i + 1 == t.len()
}

/// RFC 1808 §4 (and draft 04) with default options, for the cases where
/// recombination drops nothing and step 6 has nothing to remove but the
/// reference's leading `./` and `../` (each taking one segment off a clean
/// base directory, never climbing above it).
#[inline(always)]
fn rfc1808<'a>(
    bs: impl Base<'a>,
    r: &'a str,
    keep_dotdot: bool,
) -> Option<Plan<'a>> {
    let (base, rb) = (bs.text(), r.as_bytes());
    let b = base.as_bytes();
    let s = bs.scheme(false)?;
    match rb.first() {
        // Step 2a: the entire base (an empty fragment counts as none).
        None => Some(done([base], true)),
        Some(b'#') if rb.len() == 1 => Some(done([base], true)),
        // Step 3: a net_loc (an empty one is left to the steps).
        Some(b'/') if rb.get(1) == Some(&b'/') => {
            let n = net_loc_end::<false>(rb, 2);
            if n == 2 || empty_component_1808(&rb[find::<true, true>(rb, n)..])
            {
                return None;
            }
            Some(done([&base[..=s], r], false))
        }
        // Step 4: an absolute path.
        Some(b'/') => {
            if empty_component_1808(&rb[find::<true, true>(rb, 0)..]) {
                return None;
            }
            let (ps, _) = bs.path_start::<false>(s);
            Some(done([&base[..ps], r], false))
        }
        // Step 5: an empty path.
        Some(&c @ (b';' | b'?' | b'#')) => {
            if empty_component_1808(rb) {
                return None;
            }
            let (ps, net_loc) = bs.path_start::<false>(s);
            let path_end = bs.path_end_1808(ps);
            // A net_loc with no path before `;` or `?` reads back longer
            // (the general code notes it).
            if net_loc && path_end == ps && c != b'#' {
                return None;
            }
            let mut params_end = path_end;
            if b.get(path_end) == Some(&b';') {
                params_end = bs.params_end(path_end);
                if params_end == path_end + 1 {
                    return None;
                }
            }
            let mut query_end = params_end;
            if b.get(params_end) == Some(&b'?') {
                query_end = bs.query_end(params_end);
                if query_end == params_end + 1 {
                    return None;
                }
            }
            Some(match c {
                b';' => done([&base[..path_end], r], false),
                b'?' => done([&base[..params_end], r], false),
                _ => done([&base[..query_end], r], true),
            })
        }
        Some(_) => {
            let p = scan::path::<true, true>(rb, 0, true);
            if p.colon {
                if let Some(c) = scan::scheme_upto(rb, p.end, false) {
                    return rfc1808_absolute(r, c);
                }
            }
            if empty_component_1808(&rb[p.end..]) {
                return None;
            }
            rfc1808_relative(bs, r, s, p, keep_dotdot)
        }
    }
}

/// Step 2b: a reference with a scheme is the result.
#[cold]
fn rfc1808_absolute(r: &str, colon: usize) -> Option<Plan<'_>> {
    let rb = r.as_bytes();
    let (p, _) = path_start::<false>(rb, colon);
    if empty_component_1808(&rb[find::<true, true>(rb, p)..]) {
        return None;
    }
    Some(done([r], false))
}

/// Step 6, when it only takes a segment off the base directory for each
/// leading `../`.
#[inline]
fn rfc1808_relative<'a>(
    bs: impl Base<'a>,
    r: &'a str,
    s: usize,
    p: scan::Path,
    keep_dotdot: bool,
) -> Option<Plan<'a>> {
    let base = bs.text();
    let (ps, net_loc) = bs.path_start::<false>(s);
    // A net_loc and an empty path: the root (docs/readings.md#a18).
    let dir = bs.directory::<true>(ps, net_loc)?;
    let root = dir == Dir::Root;
    let dir = match dir {
        Dir::Root => &b"/"[..],
        Dir::Upto(end) => &base.as_bytes()[ps..end],
    };
    let path = &r.as_bytes()[..p.end];
    let (k, up) = if p.dot { dots(path)? } else { (0, 0) };
    if let Some(cut) = pop_segments(dir, up) {
        let tail = &r[k..];
        return Some(if root {
            done([&base[..ps], "/", tail], false)
        } else {
            done([&base[..ps + cut], tail], false)
        });
    }
    // More `../` than segments: RFC 1808 keeps those left over (draft 04
    // lets them cancel each other, which the steps do).
    if !keep_dotdot {
        return None;
    }
    let segments = dir.iter().filter(|&&c| c == b'/').count() - 1;
    let j = kept_dotdots(path, k, segments)?;
    Some(done([&base[..ps], "/", &r[j..]], false))
}

/// Where the `../` that step 6 keeps start in the leading run `path[..k]`
/// of `./` and `../`, after `segments` of them took the directory's
/// segments: the rest of the run must be `../` only (a `./` there would be
/// removed), else `None`.
fn kept_dotdots(path: &[u8], k: usize, segments: usize) -> Option<usize> {
    let (mut j, mut n) = (0, 0);
    loop {
        if path[j..].starts_with(b"./") {
            j += 2;
        } else if n == segments {
            break;
        } else {
            // More `../` than `segments` lead the run.
            j += 3;
            n += 1;
        }
    }
    path[j..k].chunks(3).all(|c| c == b"../").then_some(j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Reference;
    use crate::resolve::tests::strict_agrees;
    use crate::resolve::{Options, Resolved, Resolver};
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The fast path, when it answers, against the algorithm's steps (and
    /// against `Resolver::resolve`, which takes the plans); whether it
    /// answered.
    fn check(base: &str, r: &str, spec: Spec) -> bool {
        let resolver = Resolver::with_options(base, spec, Options::default());
        // A base prepared once takes the fast path exactly when its text
        // does, to the same result.
        if let Some(b) = resolver.base() {
            let dir = resolver.fast.expect("the fast path is on");
            let prepared = Prepared { base: b, dir };
            assert_eq!(
                plan_with(prepared, r, spec).map(|p| p.resolved()),
                plan(base, r, spec).map(|p| p.resolved()),
                "{spec} {base:?} {r:?}"
            );
        }
        let Some(got) = plan(base, r, spec) else { return false };
        let got = got.resolved();
        let mut href = String::new();
        let o = resolver
            .resolve_general(&Reference::parse_with(r, spec), &mut href)
            .unwrap_or_else(|e| panic!("{spec} {base:?} {r:?}: {e}"));
        let want = Resolved { href, outcome: o };
        assert_eq!(got, want, "{spec} {base:?} {r:?}");
        assert_eq!(
            Ok(&got),
            resolver.resolve(r).as_ref(),
            "{spec} {base:?} {r:?}"
        );
        assert_eq!(got.href.capacity(), got.href.len(), "{base:?} {r:?}");
        true
    }

    #[test]
    fn same_until_fragment_is_equality_before_the_fragment() {
        let shapes = super::super::scan::tests::shapes();
        let cut = |s: &str| s.split('#').next().unwrap_or("").to_owned();
        for a in shapes.iter().step_by(11) {
            for b in shapes.iter().step_by(13).chain([a]) {
                for (a, b) in [(a, b), (b, a)] {
                    let want = cut(a) == cut(b);
                    let got = same_until_fragment(a.as_bytes(), b.as_bytes());
                    assert_eq!(got, want, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn served_rules_are_the_ones_implemented() {
        use crate::chars::CharClass;
        use crate::spec::{Algorithm, SchemeRule};
        let r = Spec::Rfc3986.rules();
        assert_eq!(r.algorithm, Algorithm::Rfc3986);
        assert_eq!(r.scheme, SchemeRule::LetterFirst);
        assert_eq!(r.authority_ends, CharClass::of("/?"));
        assert!(!r.params && !r.same_scheme_is_relative);
        for spec in [Spec::Rfc1808, Spec::Draft04] {
            let r = spec.rules();
            assert_eq!(r.algorithm, Algorithm::Rfc1808);
            assert_eq!(r.scheme, SchemeRule::AnyFirst);
            assert_eq!(r.authority_ends, CharClass::of("/"));
            assert!(r.params && !r.same_scheme_is_relative);
        }
        for spec in Spec::IETF {
            if !SERVED.contains(&spec) {
                assert!(plan("http://a/b", "g", spec).is_none(), "{spec}");
            }
        }
    }

    #[test]
    fn fast_path_agrees_with_the_steps_on_samples() {
        let mut bases: Vec<String> =
            super::super::tests::BASES.iter().map(|b| b.to_string()).collect();
        bases.extend(
            super::super::scan::tests::shapes()
                .into_iter()
                .step_by(97)
                .flat_map(|s| [format!("http://a/{s}"), format!("http:/{s}")]),
        );
        let mut refs = crate::reference::tests::samples();
        refs.extend(
            super::super::scan::tests::shapes().into_iter().step_by(5),
        );
        for spec in SERVED {
            let mut served = 0usize;
            for base in &bases {
                for r in &refs {
                    served += usize::from(check(base, r, spec));
                }
            }
            assert!(served > bases.len() * refs.len() / 4, "{spec}: {served}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn fast_path_agrees_with_the_steps_on_the_corpora() {
        for (name, text) in crate::reference::tests::pair_corpora() {
            let pairs: Vec<(&str, &str)> =
                text.lines().filter_map(|l| l.split_once('\t')).collect();
            let strict = Options::default().strict(true);
            for spec in Spec::IETF {
                for (b, r) in &pairs {
                    strict_agrees(&Resolver::with_options(b, spec, strict), r);
                }
            }
            for spec in SERVED {
                let served =
                    pairs.iter().filter(|(b, r)| check(b, r, spec)).count();
                // Nearly every pair is a common case.
                assert!(
                    served * 10 > pairs.len() * 9,
                    "{spec} {name}: {served}"
                );
            }
        }
    }

    fn url_like() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9:/?#;@.%=+ -]{0,24}",
            "(http|ftp|g|1x|a@b|A\\.B)?:?(//[a-z@:.?;0-9]{0,8})?(/?(\\.|\\.\\.|[a-z.]{0,3})){0,5}(;[a-z=/.]{0,3})?(\\?[a-z/.;?]{0,4})?(#[a-z/.#]{0,3})?",
            "(\\./|\\.\\./){0,4}[a-z.;]{0,4}(/[a-z.]{0,3}){0,3}(\\?[a-z]{0,2})?(#[a-z]{0,2})?",
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn fast_path_agrees_with_the_steps(base in url_like(), r in url_like()) {
            for spec in SERVED {
                check(&base, &r, spec);
            }
        }

        #[test]
        fn strict_resolution_agrees_with_the_steps(base in url_like(), r in url_like()) {
            let strict = Options::default().strict(true);
            for spec in SERVED {
                strict_agrees(&Resolver::with_options(&base, spec, strict), &r);
            }
        }
    }
}
