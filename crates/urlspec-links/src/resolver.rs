//! A link's one resolution: its reference against its document's base,
//! under the context's spec and options, as the reader finds it.
//!
//! [`LinkResolver`] holds what a document's links share: the resolver of
//! the spec, its options and the base it prepared, and under
//! [`Spec::Whatwg`] with a page's encoding the base parsed once by the URL
//! Standard's parser.

use std::fmt;
use std::sync::Arc;

use encoding_rs::Encoding;
use urlspec::base::Base;
use urlspec::resolve::{Options, PairResolver};
use urlspec::{Reference, Spec};

use crate::{Context, LinkError};

/// Resolves `reference` against `base` for a link: a relative reference
/// with no base is unresolved (it is not taken as absolute, as RFC 1808
/// step 1 would for a lone URL).
///
/// # Errors
///
/// [`LinkError::NoBase`] when the reference is relative and `base` has no
/// URL. Otherwise [`LinkError::Resolve`] with the spec's
/// [`ResolveError`](urlspec::resolve::ResolveError): a base that cannot
/// serve (`BaseNotAbsolute`, `BaseNotHierarchical`); under
/// [`Spec::Whatwg`], the parser's failure (`Whatwg`, with its byte
/// position); with strict options ([`resolve_with`]), the reference's
/// first violation (`InvalidReference`, with its byte position) or a `..`
/// above the root (`DotDotAboveRoot`). [`LinkError::position`] gives the
/// byte position.
pub fn resolve(
    base: &Base,
    spec: Spec,
    reference: &str,
) -> Result<String, LinkError> {
    resolve_encoded(base, spec, reference, None)
}

/// [`resolve`] by `resolver`, which prepares a base once for all the links
/// that share it.
///
/// # Errors
///
/// As [`resolve`].
pub fn resolve_with(
    resolver: &mut PairResolver,
    base: &Base,
    reference: &str,
) -> Result<String, LinkError> {
    resolve_in(resolver, &mut WhatwgBase::default(), base, reference, None)
}

/// [`resolve`], the query written in `query` (a page's encoding) under
/// [`Spec::Whatwg`], as the URL parser's *encoding* says; UTF-8 when
/// `None`, and under every other spec, which keep the characters as
/// they are.
///
#[cfg_attr(feature = "whatwg", doc = "```")]
#[cfg_attr(not(feature = "whatwg"), doc = "```ignore")]
/// use urlspec::Spec;
/// use urlspec_links::{resolve_encoded, Context};
/// let base = Context::new(Spec::Whatwg).establish().retrieval(&["http://h/"]);
/// let koi8 = encoding_rs::KOI8_R;
/// assert_eq!(resolve_encoded(&base, Spec::Whatwg, "я?я€", Some(koi8)).as_deref(),
///            Ok("http://h/%D1%8F?%D1%26%238364%3B"));
/// assert_eq!(resolve_encoded(&base, Spec::Rfc3986, "a?я", Some(koi8)).as_deref(),
///            Ok("http://h/a?я"));
/// ```
///
/// # Errors
///
/// As [`resolve`]; with an encoding under [`Spec::Whatwg`], a failure of
/// the URL Standard's parser is [`LinkError::Whatwg`] (its `in_base` set
/// when the base failed).
pub fn resolve_encoded(
    base: &Base,
    spec: Spec,
    reference: &str,
    query: Option<&'static Encoding>,
) -> Result<String, LinkError> {
    resolve_in(
        &mut PairResolver::new(spec, Options::default()),
        &mut WhatwgBase::default(),
        base,
        reference,
        query,
    )
}

/// A function called with each resolution of a link ([`Context::trace`]):
/// what was resolved, against what, how.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use urlspec::Spec;
/// use urlspec_links::{html, Context, Trace};
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = seen.clone();
/// let mut ctx = Context::new(Spec::Rfc3986);
/// ctx.trace = Some(Trace::new(move |r| {
///     log.lock().unwrap().push((r.reference.to_string(), r.base.map(str::to_string)));
/// }));
/// let _ = html::document(b"<a href=x>", "p", &ctx.establish().given("http://h/"), &ctx);
/// assert_eq!(*seen.lock().unwrap(), [("x".to_string(), Some("http://h/".to_string()))]);
/// ```
#[derive(Clone)]
pub struct Trace(Arc<dyn Fn(&Traced<'_>) + Send + Sync>);

impl Trace {
    /// A trace that calls `f` with each resolution.
    pub fn new(f: impl Fn(&Traced<'_>) + Send + Sync + 'static) -> Trace {
        Trace(Arc::new(f))
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Trace(..)")
    }
}

/// One resolution of a link, as a [`Trace`] is told of it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Traced<'a> {
    /// The spec it was resolved under.
    pub spec: Spec,
    /// The resolution options.
    pub options: Options,
    /// The base URL it was resolved against, if any.
    pub base: Option<&'a str>,
    /// The reference, as written.
    pub reference: &'a str,
}

/// The resolution of one document's links: the context's spec and
/// options, the base prepared while it repeats.
#[derive(Clone, Debug)]
pub(crate) struct LinkResolver {
    pairs: PairResolver,
    whatwg: WhatwgBase,
    trace: Option<Trace>,
}

impl LinkResolver {
    /// The resolver of links read under `ctx`.
    pub(crate) fn new(ctx: &Context) -> LinkResolver {
        LinkResolver {
            pairs: PairResolver::new(ctx.spec, ctx.options),
            whatwg: WhatwgBase::default(),
            trace: ctx.trace.clone(),
        }
    }

    /// Resolves `reference` against `base`, its query in `query` under
    /// [`Spec::Whatwg`] (`None`: UTF-8).
    pub(crate) fn resolve(
        &mut self,
        base: &Base,
        reference: &str,
        query: Option<&'static Encoding>,
    ) -> Result<String, LinkError> {
        if let Some(trace) = &self.trace {
            (trace.0)(&Traced {
                spec: self.pairs.spec(),
                options: self.pairs.options(),
                base: base.url(),
                reference,
            });
        }
        resolve_in(&mut self.pairs, &mut self.whatwg, base, reference, query)
    }
}

/// Under [`Spec::Whatwg`] with a page's encoding, the base last parsed by
/// the URL Standard's parser: a page's links share it.
#[derive(Clone, Debug, Default)]
struct WhatwgBase {
    #[cfg(feature = "whatwg")]
    parsed: Option<(
        String,
        Result<urlspec::whatwg::Url, urlspec::whatwg::Failure>,
    )>,
    /// How many times a base was parsed.
    #[cfg(all(test, feature = "whatwg"))]
    parses: usize,
}

/// [`resolve_encoded`] by `resolver`, the URL Standard's parse of the base
/// kept in `whatwg`.
fn resolve_in(
    resolver: &mut PairResolver,
    whatwg: &mut WhatwgBase,
    base: &Base,
    reference: &str,
    query: Option<&'static Encoding>,
) -> Result<String, LinkError> {
    let trimmed = reference.trim_matches(|c: char| c.is_ascii_whitespace());
    let spec = resolver.spec();
    // The URL Standard's parser, which has no "taken as absolute", decides
    // for itself what a scheme is; the rule here is the splitter's.
    if base.url().is_none()
        && spec == Spec::Whatwg
        && !Reference::parse_with(trimmed, spec).has_scheme()
    {
        return Err(LinkError::NoBase);
    }
    #[cfg(feature = "whatwg")]
    if let (Spec::Whatwg, Some(encoding)) = (spec, query) {
        return whatwg.resolve(base, trimmed, encoding);
    }
    #[cfg(not(feature = "whatwg"))]
    let _ = (query, whatwg);
    match resolver.resolve(base.url().unwrap_or(""), trimmed) {
        Ok(r) if r.outcome.taken_as_absolute => Err(LinkError::NoBase),
        Ok(r) => Ok(r.href),
        Err(e) => Err(e.into()),
    }
}

#[cfg(feature = "whatwg")]
impl WhatwgBase {
    /// The WHATWG basic URL parser with `encoding` for the query: the
    /// Encoding Standard's "encode or fail", through `encoding_rs`.
    fn resolve(
        &mut self,
        base: &Base,
        reference: &str,
        encoding: &'static Encoding,
    ) -> Result<String, LinkError> {
        use encoding_rs::EncoderResult;
        use urlspec::whatwg::Url;
        let encode = |text: &str, out: &mut Vec<u8>| {
            let mut encoder = encoding.new_encoder();
            let mut read = 0;
            loop {
                let need = encoder
                    .max_buffer_length_from_utf8_without_replacement(
                        text.len() - read,
                    )
                    .unwrap_or(usize::MAX / 2);
                out.reserve(need.max(16));
                let (result, n) = encoder
                    .encode_from_utf8_to_vec_without_replacement(
                        &text[read..],
                        out,
                        true,
                    );
                read += n;
                match result {
                    EncoderResult::InputEmpty => return None,
                    EncoderResult::Unmappable(c) => return Some((c, read)),
                    EncoderResult::OutputFull => {}
                }
            }
        };
        let parsed = match base.url() {
            None => None,
            Some(url) => {
                let stale =
                    self.parsed.as_ref().is_none_or(|(text, _)| text != url);
                if stale {
                    self.parsed = Some((url.to_owned(), Url::parse(url)));
                    #[cfg(test)]
                    {
                        self.parses += 1;
                    }
                }
                self.parsed.as_ref().map(|(_, parsed)| parsed)
            }
        };
        let base = match parsed {
            None => None,
            Some(Ok(url)) => Some(url),
            Some(Err(failure)) => {
                let mut failure = *failure;
                failure.in_base = true;
                return Err(LinkError::Whatwg(failure));
            }
        };
        Url::options()
            .base(base)
            .encoding(Some(&encode))
            .parse(reference)
            .map(|url| url.as_str().to_owned())
            .map_err(LinkError::Whatwg)
    }
}

#[cfg(all(test, feature = "whatwg"))]
mod tests {
    use super::*;

    #[test]
    fn a_page_in_its_encoding_parses_its_base_once() {
        let ctx = Context::new(Spec::Whatwg);
        let est = ctx.establish();
        let mut resolver = LinkResolver::new(&ctx);
        let latin1 = Some(encoding_rs::WINDOWS_1252);
        let (a, b) = (est.given("http://h/a/"), est.given("http://h/b/"));
        for (base, reference, want) in [
            (&a, "x?q=\u{e9}", "http://h/a/x?q=%E9"),
            (&a, "y", "http://h/a/y"),
            (&a, "/z?\u{e9}", "http://h/z?%E9"),
            (&b, "x", "http://h/b/x"),
            (&b, "../c", "http://h/c"),
        ] {
            let url = resolver.resolve(base, reference, latin1);
            assert_eq!(url.as_deref(), Ok(want));
        }
        // Once for each base, not once for each link.
        assert_eq!(resolver.whatwg.parses, 2);
    }
}
