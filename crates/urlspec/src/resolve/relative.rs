//! `make_relative`: the shortest reference that resolves back to a target.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{path, Options, Resolver};
use crate::reference::{Part, Reference};
use crate::spec::Spec;

/// The shortest reference that resolves against `base` to exactly
/// `target` under `spec`, or `None` when no reference does (a base or target
/// without a scheme; a target the spec rewrites whatever is written, such as
/// `http://a/./g` under RFC 3986).
///
/// The candidates are the target's own tails (from its `#`, `?`, `;`, path
/// and `//`), relative paths that climb from the base's directory (`g`,
/// `./g`, `../g`, …), and the target itself. Each is checked by resolving
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
/// assert_eq!(rel("http://a/b/c/d;p?y", Spec::Rfc3986).as_deref(), Some("?y"));
/// // RFC 2396: `?y` replaces the last segment, so the base path is spelt out.
/// assert_eq!(rel("http://a/b/c/d;p?y", Spec::Rfc2396).as_deref(), Some("d;p?y"));
/// assert_eq!(rel("http://x/y", Spec::Rfc3986).as_deref(), Some("//x/y"));
/// ```
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
    let mut best: Option<String> = None;
    let mut consider = |cand: &str| {
        let shorter = best.as_ref().is_none_or(|b| cand.len() < b.len());
        if shorter && resolver.resolve(cand).is_ok_and(|r| r.href == target) {
            best = Some(cand.into());
        }
    };

    // The target's tails, each starting at a delimiter.
    let starts = |part: Part| t.span(part).map(|s| s.start);
    consider("");
    for part in [Part::Fragment, Part::Query, Part::Params] {
        if let Some(s) = starts(part) {
            consider(&target[s - 1..]);
        }
    }
    let path_start = starts(Part::Path).unwrap_or(0);
    let path_end = t.span(Part::Path).map_or(path_start, |s| s.end);
    let same_server = t.net_loc() == b.net_loc()
        && t.scheme()
            .zip(b.scheme())
            .is_some_and(|(x, y)| x.eq_ignore_ascii_case(y));
    if same_server {
        let after = &target[path_end..];
        climbs(path::directory(b.path()), t.path(), after, &mut consider);
        // The directory `./` resolves to, where the base path has dot
        // segments of its own that the spec removes.
        if let Ok(dot) = resolver.resolve("./") {
            let dot = Reference::parse_with(&dot.href, spec);
            if dot.net_loc() == b.net_loc() {
                climbs(
                    path::directory(dot.path()),
                    t.path(),
                    after,
                    &mut consider,
                );
            }
        }
        consider(&target[path_start..]);
    }
    if let Some(s) = starts(Part::NetLoc) {
        consider(&target[s - 2..]);
    }
    consider(target);
    best
}

/// Relative-path candidates from a base directory `dir` to `target_path`:
/// for each common ancestor, `../` per level above it, then the rest of the
/// target path and `after` (its params, query, fragment), plain and behind
/// `./` (which protects a first segment holding `:` or empty).
fn climbs(
    base_path: &str,
    target_path: &str,
    after: &str,
    consider: &mut impl FnMut(&str),
) {
    let dir = path::directory(base_path);
    let dir_segs: Vec<&str> = match dir.len() {
        0 => Vec::new(),
        n => dir[..n - 1].split('/').collect(),
    };
    let target_segs: Vec<&str> = target_path.split('/').collect();
    let common =
        dir_segs.iter().zip(&target_segs).take_while(|(a, b)| a == b).count();
    // The segment before the first `/` of an absolute path is the root.
    let floor =
        usize::from(dir.starts_with('/') && target_path.starts_with('/'));
    if dir.starts_with('/') != target_path.starts_with('/') || common < floor {
        return;
    }
    // The deepest common ancestor gives the shortest form; one level above
    // it covers the forms a spec's own rules reject there. Going higher
    // only adds `../` and segments back, and would make the search
    // quadratic in the depth of the path.
    for keep in (floor.max(common.saturating_sub(1))..=common).rev() {
        let mut cand = "../".repeat(dir_segs.len() - keep);
        cand.push_str(&target_segs[keep..].join("/"));
        cand.push_str(after);
        consider(&cand);
        consider(&format!("./{cand}"));
        if cand.is_empty() || cand.starts_with(['?', ';', '#']) {
            consider(&format!(".{cand}"));
        }
    }
}
