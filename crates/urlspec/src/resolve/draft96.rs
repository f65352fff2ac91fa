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
    strip_same_scheme, without_fragment, Options, Outcome, ResolveError,
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
        return Ok(Outcome { same_document: true, taken_as_absolute: false });
    }
    if r.has_scheme() {
        out.push_str(r.as_str());
        return Ok(Outcome::default());
    }
    steps_3_to_7(base, r, false, out);
    Ok(Outcome::default())
}
