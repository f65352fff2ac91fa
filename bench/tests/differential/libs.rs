//! The in-process implementations: urlspec itself, and the RFC 3986
//! libraries fluent-uri, iri-string and oxiri, and the WHATWG `url` crate.
//! Every function gives `Err` with the library's message when the library
//! refuses the input.

use iri_string::types::{UriAbsoluteStr, UriReferenceStr};
use urlspec::resolve::Resolver;
use urlspec::Spec;

use crate::deviations::Parts;

/// A resolution: the target, or why it was refused.
pub type Outcome = Result<String, String>;

/// `Resolver::new(base, spec).resolve(reference)`, default options.
pub fn urlspec(base: &str, reference: &str, spec: Spec) -> Outcome {
    Resolver::new(base, spec)
        .resolve(reference)
        .map(|r| r.href)
        .map_err(|e| e.to_string())
}

/// `fluent_uri::UriRef::parse(reference)?.resolve_against(&Uri::parse(base)?)`.
pub fn fluent_uri(base: &str, reference: &str) -> Outcome {
    let b = fluent_uri::Uri::parse(base).map_err(|e| format!("base: {e}"))?;
    let r = fluent_uri::UriRef::parse(reference)
        .map_err(|e| format!("reference: {e}"))?;
    r.resolve_against(&b).map(|u| u.into_string()).map_err(|e| e.to_string())
}

/// `UriReferenceStr::new(reference)?.resolve_against(UriAbsoluteStr::new(base)?)`,
/// serialized (infallibly, WHATWG-style where RFC 3986 cannot write the
/// target).
pub fn iri_string(base: &str, reference: &str) -> Outcome {
    let b = UriAbsoluteStr::new(base).map_err(|e| format!("base: {e}"))?;
    let r = UriReferenceStr::new(reference)
        .map_err(|e| format!("reference: {e}"))?;
    Ok(r.resolve_against(b).to_string())
}

/// `oxiri::Iri::parse(base)?.resolve(&IriRef::parse(reference)?)`.
pub fn oxiri(base: &str, reference: &str) -> Outcome {
    let b = oxiri::Iri::parse(base).map_err(|e| format!("base: {e}"))?;
    let r = oxiri::IriRef::parse(reference)
        .map_err(|e| format!("reference: {e}"))?;
    b.resolve(&r).map(|i| i.into_inner()).map_err(|e| e.to_string())
}

/// `url::Url::parse(base)?.join(reference)` (WHATWG).
pub fn url_join(base: &str, reference: &str) -> Outcome {
    let b = url::Url::parse(base).map_err(|e| format!("base: {e}"))?;
    b.join(reference).map(String::from).map_err(|e| e.to_string())
}

/// fluent-uri's split (`UriRef::parse` and its getters).
pub fn fluent_uri_split(url: &str) -> Result<Parts, String> {
    let r = fluent_uri::UriRef::parse(url).map_err(|e| e.to_string())?;
    Ok(Parts {
        scheme: r.scheme().map(|s| s.as_str().to_string()),
        authority: r.authority().map(|a| a.as_str().to_string()),
        path: r.path().as_str().to_string(),
        query: r.query().map(|q| q.as_str().to_string()),
        fragment: r.fragment().map(|f| f.as_str().to_string()),
    })
}

/// iri-string's split (`UriReferenceStr::new` and its getters).
pub fn iri_string_split(url: &str) -> Result<Parts, String> {
    let r = UriReferenceStr::new(url).map_err(|e| e.to_string())?;
    Ok(Parts {
        scheme: r.scheme_str().map(str::to_string),
        authority: r.authority_str().map(str::to_string),
        path: r.path_str().to_string(),
        query: r.query_str().map(str::to_string),
        fragment: r.fragment_str().map(str::to_string),
    })
}
