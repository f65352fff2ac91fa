//! The URL draft of November 1996, §6 (unchanged by the December 1996
//! changes): RFC 1808's algorithm, except step 2a.
//!
//! 2. a) "If the URL reference is entirely empty, or consists only of a
//!    fragment identifier, it is interpreted as a reference to the current
//!    document and we are done." The result is the base without its
//!    fragment, plus the reference's own fragment; the base fragment is
//!    never inherited. b) A reference with a scheme is absolute. c)
//!    Otherwise take the base's scheme.
//!
//! Steps 3–7 are RFC 1808's, including "not equal to `..`".

use alloc::string::String;

use super::rfc1808::{same_document, steps_3_to_7};
use super::{
    strip_same_scheme, verbatim, without_fragment, Options, Outcome,
    ResolveError, Shape,
};
use crate::reference::Reference;
use crate::spec::Spec;

pub(super) fn resolve(
    base: &Reference<'_>,
    r: &Reference<'_>,
    spec: Spec,
    opts: &Options,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    let r = &strip_same_scheme(base, r, spec, opts);
    if !r.has_scheme() && same_document(r) {
        out.push_str(without_fragment(base));
        if let Some(f) = r.fragment().filter(|f| !f.is_empty()) {
            out.push('#');
            out.push_str(f);
        }
        let shape = Some(Shape::of(base));
        return Ok(Outcome {
            same_document: true,
            shape,
            ..Outcome::default()
        });
    }
    if r.has_scheme() {
        return Ok(verbatim(r, out));
    }
    let written = steps_3_to_7(base, r, false, spec, opts, out);
    Ok(Outcome::written(false, written))
}
