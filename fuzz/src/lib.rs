//! The properties the fuzz targets check, shared with the replay test so
//! that every committed crash input stays fixed.

mod containers;
mod entries;
mod scheme;
mod tokenizer;

pub use containers::warc;
pub use entries::{base, check_input, diff, helpers, server, whatwg_map};
pub use scheme::{assert_inside, scheme, SCHEMES};
pub use tokenizer::html_tokenizer;

use urlspec::escape::{self, Component};
use urlspec::resolve::{self, make_relative, Options, Resolver};
use urlspec::{Reference, Spec};
use urlspec_links::{html, mime, Context};

/// The URL Standard's parser never panics, with or without a base; a
/// failure and every note point inside the input; a traced parse gives what
/// an ordinary one gives; a serialization parses again to itself, and so
/// does one parsed against the same base; `domain_to_ascii` never panics.
pub fn whatwg(base: &str, input: &str) {
    use urlspec::whatwg::{domain_to_ascii, Url};
    let base = Url::parse(base).ok();
    for base in [None, base.as_ref()] {
        let mut notes = Vec::new();
        let options = Url::options().base(base);
        let traced = options.parse_traced(input, &mut notes);
        assert_eq!(traced, options.parse(input), "traced parse");
        for n in &notes {
            assert!(n.position <= input.len(), "{n}");
            let _ = n.to_string();
        }
        match traced {
            Err(f) => {
                assert!(f.position <= input.len(), "{f}");
                let _ = (f.to_string(), f.reason());
            }
            Ok(url) => {
                let again = Url::parse(url.as_str());
                assert_eq!(again.as_ref(), Ok(&url), "reparse of {url}");
                let _ =
                    (url.host(), url.origin(), url.port_or_known_default());
                if let Some(base) = base {
                    let joined = base.join(url.as_str());
                    assert_eq!(joined.as_ref(), Ok(&url), "against the base");
                }
            }
        }
    }
    let _ = domain_to_ascii(input);
}

/// Parsing under every spec never panics and is lossless; validation and
/// the server split never panic and report positions inside the input;
/// the AVX2 and scalar splitters agree.
pub fn parse(input: &str) {
    for spec in Spec::IETF {
        let r = Reference::parse_with(input, spec);
        assert_eq!(r.recompose(), input);
        let violations = r.violations();
        assert_eq!(violations.is_empty(), r.is_valid());
        for v in &violations {
            assert!(v.position <= input.len());
            let _ = v.to_string();
        }
        if let Some(s) = r.server() {
            let _ = (
                s.user(),
                s.password(),
                s.host(),
                s.port(),
                s.port_number(),
                s.is_valid(),
            );
        }
        let _ = (r.kind(), r.is_generic(), r.has_hierarchical_path());
    }
    // The AVX2 splitter (where the CPU has it) and the scalar one give the
    // same components and the same validity.
    for spec in Spec::IETF_AND_WHATWG {
        if let Some([vector, scalar]) =
            urlspec::reference::both_splitters(input, spec)
        {
            let parts = |r: Reference<'_>| {
                [
                    r.scheme(),
                    r.net_loc(),
                    Some(r.path()),
                    r.params(),
                    r.query(),
                    r.fragment(),
                ]
                .map(|p| p.map(str::to_owned))
            };
            assert_eq!(parts(vector), parts(scalar), "{spec}: splitters");
            assert_eq!(
                vector.is_valid(),
                scalar.is_valid(),
                "{spec}: validity"
            );
            assert_eq!(
                vector.violations(),
                scalar.violations(),
                "{spec}: violations"
            );
        }
    }
}

/// Resolution under every spec never panics and the fast path gives what
/// the step-by-step code gives; a result has a scheme; under
/// RFC 3986 resolving a result again against the same base is stable from
/// the second time on (5.2.2b removes the dot segments of an absolute
/// reference, but 5.2.2d copies the base path as it is, so `J:./x` against
/// itself gives `J:./x` and then `J:x`); and a `make_relative` answer
/// resolves back to the result.
pub fn resolve(base: &str, reference: &str) {
    for spec in Spec::IETF {
        let resolver = Resolver::new(base, spec);
        // The fast path (taken with default options) and the step-by-step
        // code (forced by an option set to the spec's own default) agree.
        let same = spec.rules().same_scheme_is_relative;
        let general = Options::default().same_scheme_is_relative(same);
        let slow =
            Resolver::with_options(base, spec, general).resolve(reference);
        assert_eq!(
            resolve::resolve(base, reference, spec),
            slow,
            "{spec}: fast path"
        );
        assert_eq!(
            resolver.resolve(reference),
            slow,
            "{spec}: Resolver fast path"
        );
        let Ok(out) = resolver.resolve(reference) else { continue };
        let parsed = Reference::parse_with(&out.href, spec);
        assert!(
            parsed.has_scheme() || out.outcome.taken_as_absolute,
            "{spec}: {out:?}"
        );
        if spec == Spec::Rfc3986 {
            let again = resolver
                .resolve(&out.href)
                .expect("an absolute result resolves");
            let third = resolver
                .resolve(&again.href)
                .expect("an absolute result resolves");
            assert_eq!(third.href, again.href, "not stable under {spec}");
        }
        if let Some(rel) = make_relative(base, &out.href, spec) {
            let back =
                resolver.resolve(&rel).expect("make_relative answers resolve");
            assert_eq!(back.href, out.href, "{spec}: {rel:?}");
        }
    }
}

/// Escaping then unescaping gives the data back for every component and
/// spec; escaping component text never double-escapes; lenient unescaping
/// agrees with strict unescaping.
pub fn escape(data: &str) {
    for spec in Spec::IETF {
        for c in Component::ALL {
            let text = escape::escape(data, c, spec);
            assert_eq!(escape::unescape(&text).unwrap(), data.as_bytes());
            let once = escape::escape_unsafe(data, c, spec);
            assert_eq!(escape::escape_unsafe(&once, c, spec), once);
        }
    }
    let lenient = escape::unescape_lenient(data);
    match escape::unescape(data) {
        Ok(bytes) => {
            assert!(lenient.invalid.is_empty() && lenient.bytes == bytes)
        }
        Err(e) => assert_eq!(lenient.invalid.first(), Some(&e.position)),
    }
    let form = escape::escape_form(data);
    assert_eq!(escape::unescape_form(&form).unwrap(), data.as_bytes());
}

/// Reading links from arbitrary bytes as HTML and as a MIME message never
/// panics, and every offset lies inside the document.
pub fn links(data: &[u8]) {
    let ctx = Context::new(Spec::Rfc1808);
    let doc = html::document(data, "fuzz", &ctx.retrieval_base(), &ctx);
    for link in &doc.links {
        assert!(link.offset <= data.len());
    }
    let _ = mime::documents(data, "fuzz", &ctx, &mut |_| {});
}

/// Normalization is idempotent under every spec, and equivalence agrees
/// with comparing normal forms.
pub fn normalize(input: &str) {
    use urlspec::equiv::{equivalent, normalize, Options};
    let options = Options::default();
    for spec in Spec::IETF {
        let Ok(once) = normalize(input, spec, &options) else { continue };
        let twice = normalize(&once, spec, &options)
            .expect("a normal form is comparable");
        assert_eq!(once, twice, "{spec}: not idempotent");
        assert!(equivalent(input, &once, spec, &options).unwrap(), "{spec}");
    }
}

/// Extraction never panics, yields URLs in order without overlap inside the
/// text, and each URL is the delimited text minus whitespace.
pub fn extract(text: &str) {
    use urlspec::extract::Finder;
    for relative in [false, true] {
        let finder = Finder::new().relative(relative);
        let mut last = 0;
        for found in finder.find_iter(text) {
            let span = found.span();
            assert!(span.start >= last && span.end <= text.len());
            last = span.end;
            let url = found.as_str().to_string();
            assert!(!url.is_empty());
            assert!(!url.chars().any(|c| c == ' ' || c == '\n'), "{url:?}");
        }
    }
}

/// Splits a fuzz input in two strings at the first NUL (the base and the
/// reference of [`resolve`]).
pub fn split_pair(data: &str) -> (&str, &str) {
    data.split_once('\0').unwrap_or((data, ""))
}
