//! `make_relative`: the shortest reference that resolves back to a target.

use alloc::string::String;

use super::{path, without_fragment, Options, Resolver};
use crate::reference::{Part, Reference};
use crate::spec::Spec;

/// The shortest reference that resolves against `base` to exactly
/// `target` under `spec`, or `None` when no reference does (a base or target
/// without a scheme; a target the spec rewrites whatever is written, such as
/// `http://a/./g` under RFC 3986).
///
/// Shortest means fewest bytes. Among candidates of equal length the first
/// in this order wins: the empty reference, a fragment (`#f`), a query
/// (`?q`), params (`;p`), a relative path (fewer `..` segments first, then
/// one without a leading `./`), an absolute path (`/p`), a network path
/// (`//a/p`), the absolute URL; then byte order.
///
/// The candidates are the target's own tails (from its `#`, `?`, `;`, path
/// and `//`), relative paths that climb from the base's directory (`g`,
/// `./g`, `../g`, and `.`, `..`, `../..` for a directory), from the
/// directory as written and as the spec resolves `./`, `../` and `../../`
/// (which honours a base the spec normalises, such as `HTTP://A:80/b/`
/// under [`Spec::Whatwg`]), what follows the base in the target, and the
/// target itself. Each is checked by resolving
/// it under `spec`, so the answer is right by construction, also under the
/// specs where `?y` or `;x` replace the last segment.
///
/// ```
/// use urlspec::{resolve::make_relative, Spec};
///
/// let base = "http://a/b/c/d;p?q";
/// let rel = |t, spec| make_relative(base, t, spec);
/// assert_eq!(rel("http://a/b/c/g", Spec::Rfc1808).as_deref(), Some("g"));
/// assert_eq!(rel("http://a/b/g", Spec::Rfc3986).as_deref(), Some("../g"));
/// assert_eq!(rel("http://a/b/", Spec::Rfc3986).as_deref(), Some(".."));
/// assert_eq!(rel("http://a/b/c/d;p?y", Spec::Rfc3986).as_deref(), Some("?y"));
/// // RFC 2396: `?y` replaces the last segment, so the base path is spelt out.
/// assert_eq!(rel("http://a/b/c/d;p?y", Spec::Rfc2396).as_deref(), Some("d;p?y"));
/// assert_eq!(rel("http://x/y", Spec::Rfc3986).as_deref(), Some("//x/y"));
/// ```
#[must_use]
pub fn make_relative(base: &str, target: &str, spec: Spec) -> Option<String> {
    make_relative_with(base, target, spec, Options::default())
}

/// [`make_relative`] with resolution options: the answer resolves back to
/// `target` under those options.
///
/// ```
/// use urlspec::resolve::{make_relative_with, Options};
/// use urlspec::Spec;
/// let loophole = Options::default().same_scheme_is_relative(true);
/// let rel = make_relative_with("http://a/b", "http://a/c", Spec::Rfc3986, loophole);
/// assert_eq!(rel.as_deref(), Some("c"));
/// ```
#[must_use]
pub fn make_relative_with(
    base: &str,
    target: &str,
    spec: Spec,
    options: Options,
) -> Option<String> {
    let b = Reference::parse_with(base, spec);
    let t = Reference::parse_with(target, spec);
    if !b.has_scheme() || !t.has_scheme() {
        return None;
    }
    let resolver = Resolver::with_options(base, spec, options);
    let mut search = Search { resolver, target, spec, best: None };

    // The target itself and its tails, each starting at a delimiter: the
    // longest first, so that later candidates are built only when shorter.
    let starts = |part: Part| t.span(part).map(|s| s.start);
    search.consider(target);
    if let Some(s) = starts(Part::NetLoc) {
        search.consider(&target[s - 2..]);
    }
    let path_start = starts(Part::Path).unwrap_or(0);
    search.consider(&target[path_start..]);
    for part in [Part::Params, Part::Query, Part::Fragment] {
        if let Some(s) = starts(part) {
            search.consider(&target[s - 1..]);
        }
    }
    search.consider("");
    // What follows the base in the target, when the base is its prefix: a
    // merge that glues a relative path to a base without a path (RFC 2396
    // read literally: `http://a` and `../` give `http://a../`).
    let base_end = b
        .span(Part::Query)
        .map_or(without_fragment(&b).len(), |q| q.start - 1);
    if let Some(rest) = target.strip_prefix(&base[..base_end]) {
        search.consider(rest);
    }
    let path_end = t.span(Part::Path).map_or(path_start, |s| s.end);
    let after = &target[path_end..];
    // The directory and its parent, whatever the paths look like (RFC
    // 1630's rule .4 can turn `/.//.` into `/`).
    for dots in [".", "./", "..", "../"] {
        search.consider_parts(&[dots, after]);
    }
    // Relative paths from the base's directory as written, and as the spec
    // resolves `./`, `../` and `../../`: a base path with dot or empty
    // segments the spec removes, or a base the spec normalises. A
    // candidate for another server fails the check, so none is ruled out
    // beforehand.
    // A path written behind `/.` so that it does not read as an authority
    // (the WHATWG serializer, `path_guard`) is also reached by a climb to
    // the path without it: `foo:/g/a` and `..//g` give `foo:/.//g`.
    let unguarded =
        t.path().strip_prefix("/.").filter(|p| p.starts_with("//"));
    // RFC 1630 reads that path as a run of slashes to match in the base:
    // `//a/` against `http:///.//a` gives `http:///.//a/`.
    if let Some(p) = unguarded {
        search.consider_parts(&[p, after]);
    }
    for target_path in [Some(t.path()), unguarded].into_iter().flatten() {
        climbs("", b.path(), target_path, after, &mut search);
        for up in ["./", "../", "../../"] {
            if let Ok(dir) = search.resolver.resolve(up) {
                let dir = Reference::parse_with(&dir.href, spec);
                let lead = up.strip_prefix("./").unwrap_or(up);
                climbs(lead, dir.path(), target_path, after, &mut search);
            }
        }
    }
    search.best.map(|(_, _, s)| s)
}

/// The best candidate so far, and the check of a new one.
struct Search<'a> {
    resolver: Resolver<'a>,
    target: &'a str,
    spec: Spec,
    /// Length, rank and text of the best candidate that resolves to the
    /// target.
    best: Option<(usize, Rank, String)>,
}

impl Search<'_> {
    /// Whether a candidate of `len` bytes could still win.
    fn fits(&self, len: usize) -> bool {
        self.best.as_ref().is_none_or(|(n, ..)| len <= *n)
    }

    /// Keeps `cand` if it beats the best so far and resolves to the target.
    fn consider(&mut self, cand: &str) {
        if !self.fits(cand.len()) {
            return;
        }
        let key = (cand.len(), Rank::of(cand, self.spec));
        let better = self.best.as_ref().is_none_or(|(n, r, s)| {
            (key.0, key.1, cand) < (*n, *r, s.as_str())
        });
        if better
            && self.resolver.resolve(cand).is_ok_and(|r| r.href == self.target)
        {
            self.best = Some((key.0, key.1, cand.into()));
        }
    }

    /// [`Search::consider`] on the concatenation of `parts`, built only
    /// when it could win.
    fn consider_parts(&mut self, parts: &[&str]) {
        let len = parts.iter().map(|p| p.len()).sum();
        if self.fits(len) {
            let mut cand = String::with_capacity(len);
            parts.iter().for_each(|p| cand.push_str(p));
            self.consider(&cand);
        }
    }
}

/// Where a candidate stands among those of its length: see
/// [`make_relative`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    /// Empty, `#`, `?`, `;`, relative path, `/`, `//`, absolute.
    form: u8,
    /// The `..` segments of a relative path.
    dotdots: usize,
    /// A relative path behind `./`.
    dot_slash: bool,
}

impl Rank {
    fn of(cand: &str, spec: Spec) -> Rank {
        let form = match cand.as_bytes() {
            [] => 0,
            [b'#', ..] => 1,
            [b'?', ..] => 2,
            [b';', ..] => 3,
            [b'/', b'/', ..] => 6,
            [b'/', ..] => 5,
            _ if Reference::parse_with(cand, spec).has_scheme() => 7,
            _ => 4,
        };
        let path = &cand[..cand.find(['?', ';', '#']).unwrap_or(cand.len())];
        Rank {
            form,
            dotdots: path.split('/').filter(|s| *s == "..").count(),
            dot_slash: path.starts_with("./"),
        }
    }
}

/// Relative-path candidates from the directory of `base_path`, reached by
/// `lead` (empty, `../`, `../../`), to `target_path`: from the deepest
/// common ancestor and the one above it, `lead` and `../` per level of the
/// directory below the ancestor, then the rest of the target path and
/// `after` (its params, query, fragment), plain and behind `./` (which
/// protects a first segment holding `:` or empty); a directory also as
/// `.`, `..`, `../..`. Reads each path once; builds only candidates short
/// enough to win.
fn climbs(
    lead: &str,
    base_path: &str,
    target_path: &str,
    after: &str,
    search: &mut Search<'_>,
) {
    let dir = path::directory(base_path);
    let same = dir
        .bytes()
        .zip(target_path.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    // The deepest common ancestor ends after the last `/` both share (on
    // bytes: the shared prefix may end inside a character).
    let after_slash = |upto: usize| {
        dir.as_bytes()[..upto]
            .iter()
            .rposition(|&b| b == b'/')
            .map_or(0, |i| i + 1)
    };
    let common = after_slash(same);
    let above = after_slash(common.saturating_sub(1));
    // Both rooted: the root is an ancestor of both, and none is above it.
    // One rooted and one not share none, but may still meet through dot
    // segments (RFC 1630's rule .4 turns `a/..//` into `/`).
    let floor =
        usize::from(dir.starts_with('/') && target_path.starts_with('/'));
    // The deepest gives the shortest form; the one above covers the forms
    // a spec's own rules reject there. Going higher only adds `../` and
    // segments back, and would make the search quadratic in the depth.
    for (i, end) in [common, above].into_iter().enumerate() {
        if end < floor || (i == 1 && end == common) {
            continue;
        }
        let ups = dir[end..].bytes().filter(|&b| b == b'/').count();
        let rest = &target_path[end..];
        let up = lead.len() + 3 * ups;
        // The shortest of the block: the dot form of a directory, or the
        // plain path.
        let shortest = match (rest.is_empty(), up) {
            (true, 0) => 1,
            (true, _) => up - 1,
            (false, _) => up + rest.len(),
        };
        if !search.fits(shortest + after.len()) {
            continue;
        }
        let climb = [lead, &"../".repeat(ups)].concat();
        search.consider_parts(&[&climb, rest, after]);
        search.consider_parts(&["./", &climb, rest, after]);
        if rest.is_empty() {
            // The directory itself: `..` for `../`, `.` for `./`.
            let dots = if up == 0 { "." } else { &climb[..up - 1] };
            search.consider_parts(&[dots, after]);
        }
    }
}
