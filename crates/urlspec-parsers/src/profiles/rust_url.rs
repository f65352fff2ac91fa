//! `rust-url`: the `url` crate's `Url::parse` (the WHATWG URL Standard as
//! that crate implements it), called as it is.

use std::borrow::Cow;

use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "rust-url",
    follows: "url 2.5.8 url::Url::parse (.scheme(), .username(), \
              .password(), .host_str(), .port(), .path(), .query(), \
              .fragment())",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (Part::Userinfo, "url reports no user information when the user name and password are empty"),
        (Part::Host, "url gives the host serialized: lower-cased, IDNA-encoded, an IPv4 address in dotted decimal"),
        (Part::Port, "url reports no port when it is the scheme's default"),
        (Part::Path, "url gives the path serialized: dot segments removed, `\\` read as `/` in special schemes, characters percent-encoded"),
    ],
    split,
};

/// `Url::parse(input)`: every component owned (the crate serializes the
/// URL anew).
fn split(input: &str) -> Parsed<'_> {
    let url = url::Url::parse(input)
        .map_err(|e| Refusal::new("url::ParseError", e.to_string()))?;
    let own = |s: &str| Cow::Owned(s.to_owned());
    let userinfo = match (url.username(), url.password()) {
        ("", None) => None,
        (user, None) => Some(own(user)),
        (user, Some(password)) => {
            Some(Cow::Owned(format!("{user}:{password}")))
        }
    };
    Ok(Components {
        scheme: Some(own(url.scheme())),
        userinfo,
        host: url.host_str().map(own),
        port: url.port().map(|p| Cow::Owned(p.to_string())),
        path: Some(own(url.path())),
        query: url.query().map(own),
        fragment: url.fragment().map(own),
    })
}
