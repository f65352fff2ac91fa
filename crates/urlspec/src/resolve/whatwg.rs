//! [`Spec::Whatwg`] through the resolution API: the WHATWG engine, its
//! failures read as [`ResolveError`]s.

use alloc::string::String;

use super::{Outcome, ResolveError};
use crate::reference::Reference;

/// [`Spec::Whatwg`]: the basic URL parser with the base (a null base when
/// there is none); a failure is [`ResolveError::Whatwg`], with the byte the
/// parser names, but for a relative reference with no base: `NoBase`.
pub(super) fn whatwg_resolve(
    base: Option<&Reference<'_>>,
    r: &Reference<'_>,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    use crate::whatwg::ValidationError::MissingSchemeNonRelativeUrl;
    let invalid = |e: crate::whatwg::Failure| match e.error {
        Some(MissingSchemeNonRelativeUrl) if base.is_none() => {
            ResolveError::NoBase
        }
        _ => ResolveError::Whatwg(e),
    };
    #[cfg(feature = "whatwg")]
    {
        use crate::whatwg::{Failure, Url};
        let base = base
            .map(|b| Url::parse(b.as_str()))
            .transpose()
            .map_err(|f| invalid(Failure { in_base: true, ..f }))?;
        let url = Url::options()
            .base(base.as_ref())
            .parse(r.as_str())
            .map_err(invalid)?;
        let same_document = base
            .is_some_and(|b| b.without_fragment() == url.without_fragment());
        out.push_str(url.as_str());
        Ok(Outcome { same_document, ..Outcome::default() })
    }
    #[cfg(not(feature = "whatwg"))]
    {
        let _ = (base, r, out);
        Err(invalid(crate::whatwg::Failure::unavailable()))
    }
}
