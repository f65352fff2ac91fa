//! RFC 1808 §4, "Resolving Relative URLs" (and draft-ietf-uri-relative-
//! url-04 §4, which differs only in steps 6c and 6d).
//!
//! 1. Establish the base URL (done by the caller; an unknown base is
//!    handled in [`super::Resolver`]).
//! 2. Parse both. a) An entirely empty reference inherits the entire base
//!    URL, fragment included. b) A reference with a scheme is absolute. c)
//!    Otherwise take the base's scheme.
//! 3. A non-empty net_loc goes to step 7; otherwise take the base's.
//! 4. A path preceded by `/` goes to step 7.
//! 5. An empty path with no `/` takes the base path; then a) non-empty
//!    params go to step 7, else take the base params; b) a non-empty query
//!    goes to step 7, else take the base query and go to step 7.
//! 6. Remove the last segment of the base path and append the reference
//!    path; a) remove every `./`, b) a final `.`, c) every `<segment>/../`
//!    leftmost first, d) a final `<segment>/..` — where `<segment>` is not
//!    `..` (RFC 1808) or any segment (draft 04).
//! 7. Recombine; the reference's fragment is kept.
//!
//! "Empty" treats a present-but-empty component as absent (RFC 1808 §2.4
//! P1, P4, P5), except the `//` marker; recombination drops empty `;`, `?`
//! and `#` components (docs/readings.md#a17) but always writes `//` when a net_loc
//! is present.

use alloc::string::String;

use super::path::{
    self, has_dot_segment, leading_dots, pop_segments, DotDotAboveRoot, Merged,
};
use super::{
    clean_directory, path_written, push_prefix, strip_same_scheme, verbatim,
    without_fragment, Note, Options, Outcome, Plan, ResolveError, Shape,
};
use crate::reference::{Reference, NONE};
use crate::spec::Spec;

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

/// Whether the reference is "entirely empty" (S2a; docs/readings.md#a2, docs/readings.md#a3): every
/// component empty, no `//`, and no fragment (an empty one counts as none).
pub(super) fn entirely_empty(r: &Reference<'_>) -> bool {
    !r.has_scheme()
        && r.net_loc().is_none()
        && r.path().is_empty()
        && nonempty(r.params()).is_none()
        && nonempty(r.query()).is_none()
        && nonempty(r.fragment()).is_none()
}

pub(super) fn resolve(
    base: &Reference<'_>,
    r: &Reference<'_>,
    spec: Spec,
    opts: &Options,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    // Off by default: RFC 1808 §5.2 says the loophole "should be avoided".
    let r = &strip_same_scheme(base, r, spec, opts);
    // Step 2a.
    if entirely_empty(r) {
        return Ok(Outcome { same_document: true, ..verbatim(base, out) });
    }
    // Step 2b: no same-scheme exception (§5.2 "should be avoided").
    if r.has_scheme() {
        return Ok(verbatim(r, out));
    }
    let cancel = spec.rules().dotdot_cancels_dotdot;
    let written = steps_3_to_7(base, r, cancel, spec, opts, out);
    Ok(Outcome::written(same_document(r), written))
}

/// [`resolve`] as three slices of base and reference, for the common cases
/// where recombination drops nothing (no empty `;`, `?` or `#` component)
/// and step 6 has nothing to remove but the reference's leading `./` and
/// `../` (each `../` then takes one segment off a clean base directory,
/// never climbing above it). `None` for every other case.
pub(super) fn plan<'a>(
    base: &Reference<'a>,
    r: &Reference<'a>,
    spec: Spec,
    opts: &Options,
) -> Option<Plan<'a>> {
    let empty = |c: Option<&str>| c == Some("");
    if opts.loophole(spec)
        || empty(r.params())
        || empty(r.query())
        || empty(r.fragment())
    {
        return None;
    }
    let (b, rs) = (base.as_str(), r.as_str());
    let plan = |parts| Some(Plan { parts, same_document: same_document(r) });
    if r.has_scheme() {
        // Step 2b.
        return Some(Plan { parts: ["", "", rs], same_document: false });
    }
    let bm = base.meta();
    let base_scheme = b.get(..bm.scheme_end.checked_add(1)?)?;
    if rs.is_empty() {
        // Step 2a: the entire base.
        return Some(Plan { parts: ["", "", b], same_document: true });
    }
    match r.net_loc() {
        Some("") => return None,
        // Step 3.
        Some(_) => return plan([base_scheme, "", rs]),
        None => {}
    }
    let path = r.path().as_bytes();
    if path.first() == Some(&b'/') {
        // Step 4.
        return plan([&b[..bm.path_start], "", rs]);
    }
    if path.is_empty() {
        // Step 5: the base path; the reference's params, or the base's and
        // the reference's query or the base's. A net_loc with no path
        // before them reads back longer: the general code notes it.
        let pathless = base.net_loc().is_some() && base.path().is_empty();
        if empty(base.params()) || empty(base.query()) || pathless {
            return None;
        }
        if r.params().is_some() {
            return plan([&b[..bm.path_end], "", rs]);
        }
        if r.query().is_some() {
            let params_end = match base.params() {
                Some(p) => bm.params_start + 1 + p.len(),
                None => bm.path_end,
            };
            return plan([&b[..params_end], "", rs]);
        }
        return plan([without_fragment(base), "", rs]);
    }
    // Step 6. A `../` for each segment of the directory at most (one
    // more would stay, as RFC 1808 keeps a `..` above the root): the
    // directory's length bounds their number, so a long run of `../` is
    // left to the steps without being read twice.
    let dir_end = clean_directory(base);
    if dir_end == NONE {
        return None;
    }
    let (k, up) = leading_dots(path, dir_end - bm.path_start)?;
    // `.//g` may make a path start with `//`: the general code notes it.
    if has_dot_segment(&path[k..]) || path.get(k) == Some(&b'/') {
        return None;
    }
    let tail = &rs[k..];
    if dir_end == bm.path_start {
        // A net_loc and an empty path: the root (docs/readings.md#a18), above which
        // a `..` would stay.
        return if up == 0 {
            plan([&b[..bm.path_start], "/", tail])
        } else {
            None
        };
    }
    let dir = &b.as_bytes()[bm.path_start..dir_end];
    let cut = pop_segments(dir, up)?;
    plan([&b[..bm.path_start + cut], "", tail])
}

/// The seed documents' flag: the reference without its fragment is empty
/// (docs/readings.md#a1).
pub(super) fn same_document(r: &Reference<'_>) -> bool {
    r.net_loc().is_none()
        && r.path().is_empty()
        && nonempty(r.params()).is_none()
        && nonempty(r.query()).is_none()
}

/// Steps 2c to 7, shared with the 1996 drafts; the result is read back
/// under `reader`.
pub(super) fn steps_3_to_7(
    base: &Reference<'_>,
    r: &Reference<'_>,
    cancel_dotdot: bool,
    reader: Spec,
    opts: &Options,
    out: &mut String,
) -> (Option<Note>, Shape) {
    let start = out.len();
    // Step 2c and step 3.
    let net_loc = match nonempty(r.net_loc()) {
        Some(n) => Some(n),
        None => base.net_loc(),
    };
    push_prefix(out, base.scheme().unwrap_or(""), net_loc);
    let path_start = out.len();
    let (params, query);
    if r.net_loc().is_some_and(|n| !n.is_empty()) || r.path_is_absolute() {
        // Steps 3 and 4: go to step 7 with the reference's own path.
        out.push_str(r.path());
        params = nonempty(r.params());
        query = nonempty(r.query());
    } else if r.path().is_empty() {
        // Step 5.
        out.push_str(base.path());
        if let Some(p) = nonempty(r.params()) {
            params = Some(p);
            query = nonempty(r.query());
        } else {
            params = nonempty(base.params());
            query = nonempty(r.query()).or(nonempty(base.query()));
        }
    } else {
        // Step 6. A base with a net_loc and an empty path has the root as
        // its directory (docs/readings.md#a18).
        let dir = path::directory(base.path());
        let dir =
            if dir.is_empty() && base.net_loc().is_some() { "/" } else { dir };
        let (absolute, segs) = Merged::new(dir, r.path());
        // Keep never fails.
        let _ = path::seed_dots(
            segs,
            absolute,
            cancel_dotdot,
            DotDotAboveRoot::Keep,
            out,
        );
        params = nonempty(r.params());
        query = nonempty(r.query());
    }
    // Step 7: a net_loc and a non-empty path need a `/` between them.
    if net_loc.is_some()
        && out.len() > path_start
        && !out[path_start..].starts_with('/')
    {
        out.insert(path_start, '/');
    }
    let mut written =
        path_written(out, start, path_start, net_loc.is_some(), opts);
    // A net_loc with an empty path runs on to `/` only (P3): a `;` or `?`
    // right after it reads back as part of it (`http://a` and `?g`).
    let next = [(b';', params), (b'?', query)]
        .into_iter()
        .find_map(|(delim, part)| part.map(|_| delim));
    if written.0.is_none()
        && net_loc.is_some()
        && out.len() == path_start
        && next.is_some_and(|d| !reader.rules().authority_ends.contains(d))
    {
        written.0 = Some(Note::AuthorityReadsLonger);
    }
    for (delim, part) in
        [(';', params), ('?', query), ('#', nonempty(r.fragment()))]
    {
        if let Some(p) = part {
            out.push(delim);
            out.push_str(p);
        }
    }
    written
}
