//! `rust-http`: the `http` crate's `Uri` (what hyper and reqwest connect
//! by), called as it is.

use std::borrow::Cow;

use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "rust-http",
    follows: "http 1.5.0 http::Uri::try_from (.scheme_str(), the \
              authority before its last `@`, .host(), .port(), .path(), \
              .query())",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (
            Part::Path,
            "http gives `/` for the empty path of a URI with a scheme",
        ),
        (Part::Fragment, "http drops the fragment"),
    ],
    split,
};

/// `Uri::try_from(input)`: every component owned (the crate copies the
/// input into its own buffer).
fn split(input: &str) -> Parsed<'_> {
    let uri = http::Uri::try_from(input)
        .map_err(|e| Refusal::new("http::uri::InvalidUri", e.to_string()))?;
    let own = |s: &str| Cow::Owned(s.to_owned());
    let authority = uri.authority().map(http::uri::Authority::as_str);
    let userinfo =
        authority.and_then(|a| a.rsplit_once('@')).map(|(u, _)| own(u));
    Ok(Components {
        scheme: uri.scheme_str().map(own),
        userinfo,
        host: uri.host().map(own),
        port: uri.port().map(|p| own(p.as_str())),
        path: Some(own(uri.path())),
        query: uri.query().map(own),
        fragment: None,
    })
}
