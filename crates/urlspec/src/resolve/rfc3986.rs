//! RFC 3986 §5.2, "Relative Resolution".
//!
//! 5.2.2 Transform References: a reference with a scheme takes its own
//! authority, path (dot segments removed) and query; with an authority, the
//! same under the base scheme; with an empty path, the base path and the
//! reference's query if defined, else the base query; with a path starting
//! with `/`, that path without dot segments; otherwise
//! `remove_dot_segments(merge(Base.path, R.path))`. The fragment is always
//! the reference's. A non-strict parser may drop a scheme identical to the
//! base's.
//!
//! 5.2.3 Merge Paths: a base with an authority and an empty path gives
//! `"/" + R.path`; otherwise the base path up to its rightmost `/`, then
//! `R.path`.
//!
//! 5.2.4 Remove Dot Segments: steps 2A–2E (see [`super::path`]).
//!
//! 5.3 Component Recomposition keeps undefined and empty apart.
//!
//! Same-document (§4.4): the target without fragment equals the base
//! without fragment, by simple string comparison (docs/readings.md#as13).

use alloc::string::String;

use super::path::{
    self, has_dot_segment, leading_dots, pop_segments, remove_dot_segments,
};
use super::{
    clean_directory, path_written, push_opt, push_prefix, same_scheme,
    without_fragment, Note, Options, Outcome, Plan, ResolveError,
    RootlessDots, Shape,
};
use crate::reference::{Reference, NONE};
use crate::spec::Spec;

pub(super) fn resolve(
    base: &Reference<'_>,
    r: &Reference<'_>,
    opts: &Options,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    let start = out.len();
    let scheme_defined = r.has_scheme()
        && !(opts.loophole(Spec::Rfc3986) && same_scheme(base, r));
    let written = if scheme_defined {
        absolute(r, opts, out)
    } else {
        relative(base, r, opts, out)
    };
    let same_document = out[start..] == *without_fragment(base);
    push_opt(out, '#', r.fragment());
    Ok(Outcome::written(same_document, written))
}

/// 5.2.2's branch for a reference with a scheme, which reads nothing of
/// the base: its own scheme, authority and query, and its path without
/// dot segments. The fragment is left to the caller.
pub(super) fn absolute(
    r: &Reference<'_>,
    opts: &Options,
    out: &mut String,
) -> (Option<Note>, Shape) {
    let start = out.len();
    push_prefix(out, r.scheme().unwrap_or(""), r.net_loc());
    let path_start = out.len();
    dots(r.path(), opts, out);
    let written =
        path_written(out, start, path_start, r.net_loc().is_some(), opts);
    push_opt(out, '?', r.query());
    written
}

/// 5.2.2's other branches, which take at least the base's scheme.
fn relative(
    base: &Reference<'_>,
    r: &Reference<'_>,
    opts: &Options,
    out: &mut String,
) -> (Option<Note>, Shape) {
    let start = out.len();
    let scheme = base.scheme().unwrap_or("");
    let authority = r.net_loc().or(base.net_loc());
    push_prefix(out, scheme, authority);
    let path_start = out.len();
    let query = if r.net_loc().is_some() {
        dots(r.path(), opts, out);
        r.query()
    } else if r.path().is_empty() {
        out.push_str(base.path());
        r.query().or(base.query())
    } else {
        if r.path_is_absolute() {
            dots(r.path(), opts, out);
        } else if base.net_loc().is_some() && base.path().is_empty() {
            merged(opts, "/", r.path(), out);
        } else {
            merged(opts, path::directory(base.path()), r.path(), out);
        }
        r.query()
    };
    let written =
        path_written(out, start, path_start, authority.is_some(), opts);
    push_opt(out, '?', query);
    written
}

/// [`resolve`] as three slices of base and reference, for the cases where
/// `remove_dot_segments` has nothing to remove but the reference's leading
/// `./` and `../` (each `../` then takes one segment off the base's
/// directory): the result is then a prefix of the base followed by a
/// suffix of the reference. `None` for every other case.
pub(super) fn plan<'a>(
    base: &Reference<'a>,
    r: &Reference<'a>,
    opts: &Options,
) -> Option<Plan<'a>> {
    let (b, rs) = (base.as_str(), r.as_str());
    let bm = base.meta();
    let m = r.meta();
    let plan = |parts| Some(Plan::compared(parts, base, r));
    let scheme_defined = r.has_scheme()
        && !(opts.loophole(Spec::Rfc3986) && same_scheme(base, r));
    let path = r.path().as_bytes();
    if scheme_defined {
        // The reference is the result, path and all.
        return if has_dot_segment(path) { None } else { plan(["", "", rs]) };
    }
    // The reference after its scheme, if any (with the loophole on, a
    // scheme equal to the base's is dropped).
    let after_scheme =
        if r.has_scheme() { &rs[m.scheme_end + 1..] } else { rs };
    let base_scheme = b.get(..bm.scheme_end.checked_add(1)?)?;
    if m.net_loc_start != NONE {
        return if has_dot_segment(path) {
            None
        } else {
            plan([base_scheme, "", after_scheme])
        };
    }
    // From the reference's path on.
    let tail = &rs[m.path_start..];
    if path.is_empty() {
        // The base path, and the reference's query or else the base's.
        let upto = if m.query_start != NONE {
            bm.path_end
        } else {
            without_fragment(base).len()
        };
        return plan([&b[..upto], "", tail]);
    }
    if path[0] == b'/' {
        return if has_dot_segment(path) {
            None
        } else {
            plan([&b[..bm.path_start], "", tail])
        };
    }
    // A relative path: its leading `./` and `../`, then the rest, which
    // must have no dot segment, against a clean directory.
    let (k, up) = leading_dots(path, usize::MAX)?;
    // `.//g` may make a path start with `//`: the general code notes it.
    if has_dot_segment(&path[k..]) || path.get(k) == Some(&b'/') {
        return None;
    }
    let dir_end = clean_directory(base);
    if dir_end == NONE {
        return None;
    }
    let tail = &tail[k..];
    if dir_end == bm.path_start {
        // A base with an authority and an empty path has the root as its
        // directory (5.2.3).
        return plan([&b[..bm.path_start], "/", tail]);
    }
    // Each `../` takes the last segment off the directory, never the root.
    let dir = &b.as_bytes()[bm.path_start..dir_end];
    let cut = pop_segments(dir, up).unwrap_or(1);
    plan([&b[..bm.path_start + cut], "", tail])
}

/// `remove_dot_segments` with the rootless option.
fn dots(p: &str, opts: &Options, out: &mut String) {
    let start = out.len();
    remove_dot_segments(p, out);
    keep_rootless(opts, p.starts_with('/'), start, out);
}

fn keep_rootless(
    opts: &Options,
    rooted: bool,
    start: usize,
    out: &mut String,
) {
    if opts.rootless_dots == RootlessDots::KeepRootless
        && !rooted
        && out[start..].starts_with('/')
    {
        out.remove(start);
    }
}

/// `remove_dot_segments(merge(dir, rel))`, the merge written into the
/// output buffer and reduced there in place.
fn merged(opts: &Options, dir: &str, rel: &str, out: &mut String) {
    let start = out.len();
    out.push_str(dir);
    out.push_str(rel);
    path::remove_dot_segments_at(out, start);
    keep_rootless(
        opts,
        dir.starts_with('/') || rel.starts_with('/'),
        start,
        out,
    );
}
