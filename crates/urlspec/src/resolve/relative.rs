//! `make_relative`: the shortest reference that resolves back to a target.

use alloc::string::String;

use super::{Options, Resolver};
use crate::reference::Reference;
use crate::spec::Spec;

/// The shortest reference that resolves against `base` to exactly
/// `target` under `spec`, or `None` when there is none (a target without a
/// scheme, a base that is not absolute).
///
/// Candidates go from the shortest form to the longest: fragment only,
/// query, relative path (`g`, `./g`, `../g`, …), absolute path, network
/// path, and finally the target itself; each is checked by resolving it,
/// so the answer is right by construction under every spec, including the
/// ones where `?y` or `;x` replace the last segment.
///
/// ```
/// use urlspec::{resolve::make_relative, Spec};
/// let base = "http://a/b/c/d;p?q";
/// assert_eq!(make_relative(base, "http://a/b/c/g", Spec::Rfc1808).as_deref(), Some("g"));
/// assert_eq!(make_relative(base, "http://a/b/g", Spec::Rfc3986).as_deref(), Some("../g"));
/// assert_eq!(make_relative(base, "http://x/y", Spec::Rfc3986).as_deref(), Some("//x/y"));
/// ```
pub fn make_relative(base: &str, target: &str, spec: Spec) -> Option<String> {
    let t = Reference::parse_with(target, spec);
    let b = Reference::parse_with(base, spec);
    if !t.has_scheme() || !b.has_scheme() {
        return None;
    }
    let resolver = Resolver::with_options(base, spec, Options::default());
    let works = |cand: &str| {
        resolver.resolve(cand).is_ok_and(|r| r.href == target)
            // A candidate must not read as something else once written.
            && Reference::parse_with(cand, spec).has_scheme() == cand.eq(target)
    };
    let mut best: Option<String> = None;
    let mut consider = |cand: String| {
        if best.as_ref().is_none_or(|b| cand.len() < b.len()) && works(&cand) {
            best = Some(cand);
        }
    };
    let tail = &target[t
        .span(crate::reference::Part::Path)
        .map_or(target.len(), |s| s.start)..];
    let frag = t.fragment().map(|f| alloc::format!("#{f}"));
    if let Some(f) = &frag {
        consider(f.clone());
    }
    consider(String::new());
    if let Some(q) = t.query() {
        let after_path = &target[t
            .span(crate::reference::Part::Query)
            .map_or(0, |s| s.start)
            - 1..];
        consider(String::from(after_path));
        let _ = q;
    }
    if let Some(p) = t.params() {
        let at =
            t.span(crate::reference::Part::Params).map_or(0, |s| s.start) - 1;
        consider(String::from(&target[at..]));
        let _ = p;
    }
    // Relative paths: climb from the base directory to a common ancestor.
    if t.net_loc() == b.net_loc()
        && t.scheme().map(str::to_ascii_lowercase)
            == b.scheme().map(str::to_ascii_lowercase)
    {
        let base_dir = super::path::directory(b.path());
        let target_path = t.path();
        let after_path = &tail[target_path.len()..];
        let base_segs: alloc::vec::Vec<&str> = base_dir.split('/').collect();
        let target_segs: alloc::vec::Vec<&str> =
            target_path.split('/').collect();
        let common = base_segs
            .iter()
            .zip(&target_segs)
            .take_while(|(a, b)| a == b)
            .count();
        // Each level of the base directory below the common prefix is one
        // `../`; the rest of the target path follows.
        for keep in (1..=common).rev() {
            let ups = base_segs.len().saturating_sub(keep + 1);
            let mut cand = String::new();
            for _ in 0..ups {
                cand.push_str("../");
            }
            cand.push_str(&target_segs[keep..].join("/"));
            cand.push_str(after_path);
            let dotted = alloc::format!("./{cand}");
            consider(cand);
            consider(dotted);
        }
        if target_path.starts_with('/') {
            consider(String::from(tail));
        }
    }
    if let Some(n) = t.net_loc() {
        consider(alloc::format!("//{n}{tail}"));
    }
    consider(String::from(target));
    best
}
