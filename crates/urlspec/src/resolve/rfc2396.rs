//! RFC 2396 §5.2, "Resolving Relative References to Absolute Form".
//!
//! 1. Parse the reference into scheme, authority, path, query, fragment.
//! 2. If the path is empty and scheme, authority and query are undefined,
//!    it is a reference to the current document; stop. (The result is the
//!    base without fragment plus the reference's fragment, if defined.)
//! 3. A defined scheme makes the reference absolute; stop. (3c, MAY: a
//!    scheme equal to the base's, for a scheme "known to always use the
//!    `<hier_part>` syntax", may be dropped; then go on with step 4.)
//!    Otherwise inherit the base scheme.
//! 4. A defined authority (even empty) goes to step 7; otherwise inherit
//!    the base authority.
//! 5. A path beginning with `/` goes to step 7.
//! 6. Otherwise merge: a) copy the base path up to its rightmost `/`; b)
//!    append the reference path; c) remove every `./`; d) a final `.`; e)
//!    every `<segment>/../` (segment not `..`), leftmost first; f) a final
//!    `<segment>/..`; g) leading `..` segments: keep, remove or refuse; h)
//!    that is the new path.
//! 7. Recombine, keeping undefined and empty apart.
//!
//! The base query is never used, and the base fragment never.

use alloc::string::String;

use super::path::{self, Merged};
use super::{
    path_written, push_opt, push_prefix, same_scheme, verbatim,
    without_fragment, Options, Outcome, ResolveError, Shape,
};
use crate::reference::{Kind, Reference};
use crate::spec::Spec;

pub(super) fn resolve(
    base: &Reference<'_>,
    r: &Reference<'_>,
    opts: &Options,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    // Step 2.
    if !r.has_scheme()
        && r.net_loc().is_none()
        && r.path().is_empty()
        && r.query().is_none()
    {
        out.push_str(without_fragment(base));
        push_opt(out, '#', r.fragment());
        let shape = Some(Shape::of(base));
        return Ok(Outcome {
            same_document: true,
            shape,
            ..Outcome::default()
        });
    }
    // Step 3.
    if r.has_scheme() {
        let compat = opts.loophole(Spec::Rfc2396)
            && same_scheme(base, r)
            && base.kind() == Kind::Hierarchical;
        if !compat {
            return Ok(verbatim(r, out));
        }
    }
    let start = out.len();
    let authority = r.net_loc().or(base.net_loc());
    push_prefix(out, base.scheme().unwrap_or(""), authority);
    let path_start = out.len();
    if r.net_loc().is_some() || r.path_is_absolute() {
        // Steps 4 and 5.
        out.push_str(r.path());
    } else {
        // Step 6.
        let mut dir = path::directory(base.path());
        if dir.is_empty() && opts.fix_pathless_base && base.net_loc().is_some()
        {
            dir = "/";
        }
        let (absolute, segs) = Merged::new(dir, r.path());
        path::seed_dots(segs, absolute, false, opts.dotdot_above_root, out)
            .map_err(|()| ResolveError::DotDotAboveRoot)?;
    }
    let written =
        path_written(out, start, path_start, authority.is_some(), opts);
    // Step 7.
    push_opt(out, '?', r.query());
    push_opt(out, '#', r.fragment());
    Ok(Outcome::written(false, written))
}
