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
//! without fragment, by simple string comparison (SPEC-SUCCESSORS AS13).

use alloc::string::String;

use super::path::{self, remove_dot_segments};
use super::{
    push_opt, push_prefix, same_scheme, without_fragment, Options, Outcome,
    ResolveError, RootlessDots,
};
use crate::reference::Reference;
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
    let query;
    if scheme_defined {
        push_prefix(out, r.scheme().unwrap_or(""), r.net_loc());
        dots(r.path(), opts, out);
        query = r.query();
    } else {
        let scheme = base.scheme().unwrap_or("");
        if let Some(authority) = r.net_loc() {
            push_prefix(out, scheme, Some(authority));
            dots(r.path(), opts, out);
            query = r.query();
        } else {
            push_prefix(out, scheme, base.net_loc());
            if r.path().is_empty() {
                out.push_str(base.path());
                query = r.query().or(base.query());
            } else {
                if r.path_is_absolute() {
                    dots(r.path(), opts, out);
                } else if base.net_loc().is_some() && base.path().is_empty() {
                    merged(opts, "/", r.path(), out);
                } else {
                    merged(opts, path::directory(base.path()), r.path(), out);
                }
                query = r.query();
            }
        }
    }
    push_opt(out, '?', query);
    let same_document = out[start..] == *without_fragment(base);
    push_opt(out, '#', r.fragment());
    Ok(Outcome { same_document, taken_as_absolute: false })
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
