//! The typed errors of links and documents: which value each path gives,
//! and the text it is written as (the text `urlspec links` and the Python
//! package print, kept as it was when the errors were strings).

use urlspec::base::Base;
use urlspec::resolve::{Options, PairResolver, ResolveError};
use urlspec::Spec;
use urlspec_links::html::stream::MAX_RAW_TEXT;
use urlspec_links::{
    resolve, resolve_with, Context, Error, LinkError, Problem, Reason,
};

#[test]
fn a_relative_reference_without_a_base_is_no_base_under_every_spec() {
    for &spec in Spec::available() {
        let got = resolve(&Base::none(), spec, " g ");
        assert_eq!(got, Err(LinkError::NoBase), "{spec}");
        let text = got.unwrap_err().to_string();
        assert_eq!(text, "relative reference and no base URL");
    }
    // An absolute reference needs none.
    let got = resolve(&Base::none(), Spec::Rfc1808, "http://h/");
    assert_eq!(got.as_deref(), Ok("http://h/"));
}

#[test]
fn a_refused_resolution_carries_the_resolver_error() {
    let ctx = Context::new(Spec::Rfc2396);
    let strict = Options::default().strict(true);
    let mut resolver = PairResolver::new(Spec::Rfc2396, strict);
    let mailto = ctx.establish().given("mailto:a@h");
    let e = resolve_with(&mut resolver, &mailto, "g").unwrap_err();
    let LinkError::Resolve(inner) = &e else { panic!("{e:?}") };
    assert!(
        matches!(inner, ResolveError::BaseNotHierarchical { scheme, .. } if scheme == "mailto"),
        "{inner:?}"
    );
    assert_eq!((e.position(), e.to_string()), (None, inner.to_string()));

    let http = ctx.establish().given("http://h/d/");
    let e = resolve_with(&mut resolver, &http, "\tg<h").unwrap_err();
    let LinkError::Resolve(inner) = &e else { panic!("{e:?}") };
    assert!(matches!(inner, ResolveError::InvalidReference(_)), "{inner:?}");
    // The position in the reference as resolved, without the TAB before.
    assert_eq!(e.position(), Some(1));
    assert_eq!(e.to_string(), inner.to_string());
    assert!(e.to_string().starts_with("invalid reference at byte 1: "));
}

#[cfg(feature = "whatwg")]
#[test]
fn whatwg_failures_are_typed_on_both_paths() {
    use urlspec::whatwg::{Failure, Url, ValidationError};
    let ctx = Context::new(Spec::Whatwg);
    let base = ctx.establish().given("http://h/d/");
    let koi8 = Some(encoding_rs::KOI8_R);
    let port = Some(ValidationError::PortInvalid);

    // Without a page encoding: the resolver's error.
    let e = resolve(&base, Spec::Whatwg, "http://h:8o/").unwrap_err();
    let LinkError::Resolve(ResolveError::Whatwg(f)) = &e else {
        panic!("{e:?}")
    };
    assert_eq!((f.error, f.position, f.in_base), (port, 10, false));
    assert_eq!(e.position(), Some(10));
    assert_eq!(
        e.to_string(),
        "invalid reference at byte 10: port-invalid (port state): The port \
         holds something other than digits."
    );

    // With one: the URL parser's failure, written as the parser writes it.
    let encoded = urlspec_links::resolve_encoded;
    let e = encoded(&base, Spec::Whatwg, "http://h:8o/", koi8).unwrap_err();
    let LinkError::Whatwg(f) = e else { panic!("{e:?}") };
    assert_eq!((f.error, f.position, f.in_base), (port, 10, false));
    assert_eq!(
        e.to_string(),
        Url::parse("http://h:8o/").unwrap_err().to_string()
    );

    // A base the parser refuses: marked as the base's, written as before.
    let bad = ctx.establish().given("http://a:99999/");
    let e = encoded(&bad, Spec::Whatwg, "x", koi8).unwrap_err();
    let LinkError::Whatwg(f) = e else { panic!("{e:?}") };
    let parsed: Failure = Url::parse("http://a:99999/").unwrap_err();
    assert!(f.in_base);
    assert_eq!((f.error, f.position), (parsed.error, parsed.position));
    assert_eq!(e.position(), Some(0));
    assert_eq!(e.to_string(), parsed.to_string());
}

#[test]
fn problems_are_written_as_they_were() {
    let too_long =
        Problem::RawTextTooLong { element: "style", offset: 40, len: 9 << 20 };
    assert_eq!(too_long.offset(), Some(40));
    assert_eq!(
        too_long.to_string(),
        format!(
            "<style> at byte 40: its {} bytes are more than {MAX_RAW_TEXT} \
             read for links",
            9 << 20
        )
    );
    let stopped = Problem::HtmlStopped("memory limit".into());
    assert_eq!(stopped.offset(), None);
    assert_eq!(stopped.to_string(), "HTML reading stopped: memory limit");
    assert_eq!(
        Problem::NoClosingBoundary.to_string(),
        "the multipart body ends without its closing boundary; this last \
         part was read to the end of the message"
    );
    let payload = Error::new(512, Reason::ContentCoding("\"br\" x".into()));
    let problem = Problem::Payload(payload.clone());
    assert_eq!(problem.offset(), Some(512));
    assert_eq!(problem.to_string(), payload.to_string());
}
