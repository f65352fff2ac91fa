//! The base-establishment vectors TV-BASE-1 … 11 (RFC 1808 §3, draft 04 §3,
//! the 1996 draft §5; docs/readings.md#a34, docs/readings.md#a35), run
//! through the documents the library reads, and what the vectors leave
//! implicit: the HTML example of RFC 1808 §10 (1996 draft App. D) in every
//! context, a message nested three levels deep, relative
//! `Content-Location` values, and the precedence of the base headers when
//! they conflict, under each spec.

#[path = "common/mime_paths.rs"]
mod mime_paths;

use urlspec::base::{Base, Headers, Source};
use urlspec::resolve::Resolver;
use urlspec::Spec;
use urlspec_links::{html, Context, Document, Format, LinkError, Summary};

/// The HTML example of RFC 1808 §10, draft 04 §10 and the 1996 draft App. D.
const APPENDIX_D: &str = r#"<HTML><HEAD>
<TITLE>An example HTML document</TITLE>
<BASE href="http://www.ics.uci.edu/Test/a/b/c">
</HEAD><BODY>
... <A href="../x">a hypertext anchor</A> ...
</BODY></HTML>"#;

/// A context for `spec` retrieved through `chain`.
fn context(spec: Spec, chain: &[&str]) -> Context {
    let mut ctx = Context::new(spec);
    ctx.retrieval = chain.iter().map(|s| s.to_string()).collect();
    ctx
}

/// The documents of a MIME message (CR LF line endings added).
fn message(ctx: &Context, text: &str) -> Vec<Document> {
    let data = text.replace("\r\n", "\n").replace('\n', "\r\n");
    assert_eq!(Format::detect(data.as_bytes()), Format::Mime);
    let (docs, result) = mime_paths::both(data.as_bytes(), "m", ctx);
    result.expect("a MIME message");
    docs
}

/// The one HTML document of a page retrieved as `ctx` says.
fn page(ctx: &Context, html: &str) -> Document {
    html::document(html.as_bytes(), "p", &ctx.retrieval_base(), ctx)
}

/// The document named `name`.
fn doc<'d>(docs: &'d [Document], name: &str) -> &'d Document {
    docs.iter().find(|d| d.name == name).unwrap_or_else(|| {
        let names: Vec<&str> = docs.iter().map(|d| d.name.as_str()).collect();
        panic!("no document {name:?} among {names:?}")
    })
}

/// The URL that the link written `reference` resolved to.
fn url<'d>(
    doc: &'d Document,
    reference: &str,
) -> Result<&'d str, &'d LinkError> {
    let link =
        doc.links.iter().find(|l| l.reference == reference).unwrap_or_else(
            || panic!("no link {reference:?} in {}", doc.name),
        );
    link.url.as_deref()
}

/// The header name of a header base (`None` for any other layer).
fn header_name(base: &Base) -> Option<&str> {
    match base.source() {
        Source::Header { name } => Some(name),
        _ => None,
    }
}

#[test]
fn tv_base_1_base_header() {
    let text = "Base: <URL:http://www.ics.uci.edu/Test/a/b/c>
Content-Type: text/html

<a href=\"g\">g</a>";
    for spec in [Spec::Draft04, Spec::Rfc1808] {
        let docs = message(&context(spec, &[]), text);
        let d = doc(&docs, "m");
        assert_eq!(d.base.url(), Some("http://www.ics.uci.edu/Test/a/b/c"));
        assert_eq!(header_name(&d.base), Some("Base"));
        assert_eq!(url(d, "g"), Ok("http://www.ics.uci.edu/Test/a/b/g"));
    }
}

#[test]
fn tv_base_2_content_base_header() {
    let text = "Content-Base: http://www.ics.uci.edu/Test/a/b/c
Content-Type: text/html

<a href=\"g\">g</a>";
    for spec in [Spec::Draft96, Spec::Draft96Dec] {
        let docs = message(&context(spec, &[]), text);
        let d = doc(&docs, "m");
        assert_eq!(d.base.url(), Some("http://www.ics.uci.edu/Test/a/b/c"));
        assert_eq!(header_name(&d.base), Some("Content-Base"));
        assert_eq!(url(d, "g"), Ok("http://www.ics.uci.edu/Test/a/b/g"));
    }
}

#[test]
fn tv_base_3_appendix_d_whatever_the_retrieval_context() {
    let want = Ok("http://www.ics.uci.edu/Test/a/x");
    for spec in Spec::IETF {
        // Alone, retrieved from elsewhere, after redirects.
        for chain in
            [&[][..], &["http://elsewhere/p/q"], &["http://a/", "http://b/c/"]]
        {
            let d = page(&context(spec, chain), APPENDIX_D);
            assert_eq!(url(&d, "../x"), want, "{spec} {chain:?}");
            assert_eq!(d.base.source(), &Source::Embedded);
            assert!(d.base.notes().is_empty());
        }
        // As a part of a message with base headers of every kind.
        let text = format!(
            "Base: <URL:http://h/1/>
Content-Base: http://h/2/
Content-Location: http://h/3/
Content-Type: text/html

{APPENDIX_D}"
        );
        let docs = message(&context(spec, &["http://r/"]), &text);
        assert_eq!(url(doc(&docs, "m"), "../x"), want, "{spec}");
    }
}

#[test]
fn tv_base_4_folded_base_header_in_any_case() {
    let text = "bAsE: <URL:http://www.ics.uci.edu/Test/
   a/b/c>
Content-Type: text/html

<a href=\"g\">g</a>";
    let docs = message(&context(Spec::Rfc1808, &[]), text);
    let d = doc(&docs, "m");
    assert_eq!(d.base.url(), Some("http://www.ics.uci.edu/Test/a/b/c"));
    assert_eq!(header_name(&d.base), Some("Base"));
}

#[test]
fn tv_base_5_content_base_beats_content_location() {
    // In either order.
    for headers in [
        "Content-Base: http://h/x/\nContent-Location: http://h/y/z",
        "Content-Location: http://h/y/z\nContent-Base: http://h/x/",
    ] {
        let text =
            format!("{headers}\nContent-Type: text/html\n\n<a href=g>g</a>");
        let docs = message(&context(Spec::Draft96, &[]), &text);
        let d = doc(&docs, "m");
        assert_eq!(d.base.url(), Some("http://h/x/"));
        assert_eq!(url(d, "g"), Ok("http://h/x/g"));
    }
}

#[test]
fn tv_base_6_relative_content_location_against_the_retrieval_url() {
    let text = "Content-Location: c/d.html
Content-Type: text/html

<a href=g>g</a>";
    for spec in [Spec::Draft96, Spec::Draft96Dec, Spec::Rfc2396, Spec::Rfc3986]
    {
        let docs = message(&context(spec, &["http://h/a/b"]), text);
        let d = doc(&docs, "m");
        assert_eq!(d.base.url(), Some("http://h/a/c/d.html"), "{spec}");
        assert_eq!(header_name(&d.base), Some("Content-Location"));
        // Allowed to be relative: no note.
        assert!(d.base.notes().is_empty());
        assert_eq!(url(d, "g"), Ok("http://h/a/c/g"));
    }
}

/// TV-BASE-7's message: `Base: <URL:http://h/root/>` holding P1 (no
/// base), P2 (HTML with `<BASE href="http://o/p">`) and P3 (a multipart
/// with `Base: <URL:http://n/>` holding P3a, no base).
const TV_BASE_7: &str = "Base: <URL:http://h/root/>
Content-Type: multipart/mixed; boundary=\"b1\"

--b1
Content-Type: text/html

<a href=\"p1\">p1</a>
--b1
Content-Type: text/html

<html><head><base href=\"http://o/p\"></head><a href=\"p2\">p2</a></html>
--b1
Base: <URL:http://n/>
Content-Type: multipart/alternative; boundary=\"b2\"

--b2
Content-Type: text/html

<a href=\"p3a\">p3a</a>
--b2--
--b1--
";

#[test]
fn tv_base_7_encapsulation_applied_recursively() {
    let docs =
        message(&context(Spec::Rfc1808, &["http://retrieved/"]), TV_BASE_7);
    let p1 = doc(&docs, "m#1");
    assert_eq!(p1.base.url(), Some("http://h/root/"));
    assert_eq!(p1.base.containers(), ["multipart/mixed part 1"]);
    assert_eq!(url(p1, "p1"), Ok("http://h/root/p1"));
    let p2 = doc(&docs, "m#2");
    assert_eq!(p2.base.url(), Some("http://o/p"));
    assert_eq!(url(p2, "p2"), Ok("http://o/p2"));
    let p3a = doc(&docs, "m#3.1");
    assert_eq!(p3a.base.url(), Some("http://n/"));
    assert_eq!(p3a.base.containers(), ["multipart/alternative part 3.1"]);
    assert_eq!(url(p3a, "p3a"), Ok("http://n/p3a"));
}

#[test]
fn tv_base_7_as_a_forwarded_message_rfc822() {
    // The same message, enclosed in another: its own headers still count.
    let text = format!(
        "Base: <URL:http://outer/>
Content-Type: multipart/mixed; boundary=\"o\"

--o
Content-Type: text/html

<a href=\"p0\">p0</a>
--o
Content-Type: message/rfc822

{TV_BASE_7}
--o--
"
    );
    let docs = message(&context(Spec::Rfc1808, &[]), &text);
    assert_eq!(url(doc(&docs, "m#1"), "p0"), Ok("http://outer/p0"));
    let p1 = docs.iter().find(|d| d.links.iter().any(|l| l.reference == "p1"));
    let p1 = p1.expect("P1 is read");
    assert_eq!(p1.name, "m#2.1");
    assert_eq!(url(p1, "p1"), Ok("http://h/root/p1"));
    assert_eq!(url(doc(&docs, "m#2.2"), "p2"), Ok("http://o/p2"));
    assert_eq!(url(doc(&docs, "m#2.3.1"), "p3a"), Ok("http://n/p3a"));
}

#[test]
fn tv_base_8_the_last_url_of_a_redirect_chain() {
    let ctx = context(Spec::Rfc1808, &["http://h/a", "http://h/b/"]);
    let d = page(&ctx, "<a href=g>g</a>");
    assert_eq!(d.base.url(), Some("http://h/b/"));
    assert_eq!(url(&d, "g"), Ok("http://h/b/g"));
    match d.base.source() {
        Source::Retrieval { chain } => {
            assert_eq!(chain, &["http://h/a", "http://h/b/"])
        }
        other => panic!("not retrieval: {other:?}"),
    }
    assert_eq!(d.base.source().to_string(), "retrieval URL after 1 redirect");
    // A longer chain, and a fragment in the last URL, which a base drops.
    let ctx = context(
        Spec::Rfc3986,
        &["http://h/a", "https://h/b", "https://h/c/d#top"],
    );
    let d = page(&ctx, "<a href=g>g</a>");
    assert_eq!(d.base.url(), Some("https://h/c/d"));
    assert_eq!(url(&d, "g"), Ok("https://h/c/g"));
    assert_eq!(d.base.source().to_string(), "retrieval URL after 2 redirects");
}

#[test]
fn tv_base_9_embedded_base_beats_the_base_header() {
    let text = "Base: <URL:http://h/>
Content-Type: text/html

<html><head><base href=\"http://o/\"></head><a href=g>g</a></html>";
    let docs = message(&context(Spec::Draft04, &[]), text);
    let d = doc(&docs, "m");
    assert_eq!(d.base.url(), Some("http://o/"));
    assert_eq!(d.base.source(), &Source::Embedded);
    assert_eq!(url(d, "g"), Ok("http://o/g"));
}

#[test]
fn tv_base_10_no_base_of_any_kind() {
    // The resolver of RFC 1808 takes `g` as an absolute URL (S1, step 1);
    // the strict RFCs have no base to resolve against.
    let r = Resolver::new("", Spec::Rfc1808).resolve("g").unwrap();
    assert_eq!((r.href.as_str(), r.outcome.taken_as_absolute), ("g", true));
    assert!(Resolver::new("", Spec::Rfc3986).resolve("g").is_err());
    // A link is not a lone URL: a relative link with no base is reported
    // unresolved under every spec, and an absolute one is itself.
    for spec in Spec::IETF {
        let d = page(
            &context(spec, &[]),
            "<a href=g>g</a><a href='http://a/b'>b</a>",
        );
        assert_eq!(d.base.source(), &Source::None);
        assert_eq!(d.base.url(), None);
        assert_eq!(url(&d, "g"), Err(&LinkError::NoBase));
        let why = url(&d, "g").unwrap_err().to_string();
        assert_eq!(why, "relative reference and no base URL");
        assert_eq!(url(&d, "http://a/b"), Ok("http://a/b"));
        let mut summary = Summary::default();
        summary.add(&d);
        assert_eq!((summary.links, summary.unresolved), (2, 1));
        assert_eq!(summary.by_base_source.get("none"), Some(&1));
    }
}

#[test]
fn tv_base_11_relative_url_inside_the_message_headers() {
    let text = "Base: <URL:http://h/d/>
X-See-Also: see <URL:x> and <URL:../y
 /z>
Content-Type: text/plain

no links here";
    let docs = message(&context(Spec::Rfc1808, &[]), text);
    assert_eq!(docs.len(), 1, "the headers are the only document");
    let d = doc(&docs, "m (headers)");
    assert_eq!(d.links[0].element, "header");
    assert_eq!(d.links[0].attribute, "X-See-Also");
    assert_eq!(url(d, "x"), Ok("http://h/d/x"));
    // Whitespace and folding inside the angle brackets are ignored.
    assert_eq!(url(d, "../y/z"), Ok("http://h/y/z"));
    // The offset points at the reference in the message.
    let raw = text.replace('\n', "\r\n");
    assert_eq!(&raw[d.links[0].offset..d.links[0].offset + 1], "x");
}

#[test]
fn three_levels_of_nesting() {
    let text = "Base: <URL:http://top/a/>
Content-Location: http://top/cl/
Content-Type: multipart/mixed; boundary=\"L1\"

--L1
Content-Type: text/plain

not a document
--L1
Content-Type: multipart/related; boundary=\"L2\"
Content-Location: http://related/r/

--L2
Content-Type: multipart/alternative; boundary=\"L3\"

--L3
Content-Type: text/html

<a href=\"deep\">deep</a>
--L3
Content-Type: text/html
Base: <URL:http://own/base/>
Content-Location: own.html

<a href=\"own\">own</a>
--L3--
--L2--
--L1--
";
    // RFC 1808: Content-Location means nothing; the message's Base reaches
    // the third level through every container.
    let docs = message(&context(Spec::Rfc1808, &[]), text);
    let deep = doc(&docs, "m#2.1.1");
    assert_eq!(url(deep, "deep"), Ok("http://top/a/deep"));
    assert_eq!(
        deep.base.containers(),
        [
            "multipart/mixed part 2",
            "multipart/related part 2.1",
            "multipart/alternative part 2.1.1"
        ]
    );
    let own = doc(&docs, "m#2.1.2");
    assert_eq!(url(own, "own"), Ok("http://own/base/own"));
    assert!(own.base.containers().is_empty());
    // RFC 3986: the level-2 Content-Location is the deep part's base, and
    // the relative one of its sibling is resolved against it.
    let docs = message(&context(Spec::Rfc3986, &[]), text);
    let deep = doc(&docs, "m#2.1.1");
    assert_eq!(url(deep, "deep"), Ok("http://related/r/deep"));
    assert_eq!(
        deep.base.containers(),
        ["multipart/related part 2.1", "multipart/alternative part 2.1.1"]
    );
    assert_eq!(url(doc(&docs, "m#2.1.2"), "own"), Ok("http://related/r/own"));
    assert_eq!(
        doc(&docs, "m#2.1.2").base.url(),
        Some("http://related/r/own.html")
    );
    // The text/plain part is not a document.
    assert_eq!(docs.len(), 2);
}

#[test]
fn relative_content_location() {
    // Against the container's base.
    let text = "Content-Location: http://h/site/
Content-Type: multipart/related; boundary=\"b\"

--b
Content-Type: text/html
Content-Location: pages/index.html

<a href=\"../style.css\">s</a>
--b--
";
    let docs = message(&context(Spec::Rfc3986, &[]), text);
    let d = doc(&docs, "m#1");
    assert_eq!(d.base.url(), Some("http://h/site/pages/index.html"));
    assert_eq!(url(d, "../style.css"), Ok("http://h/site/style.css"));
    // With no outer base it cannot serve: noted, and there is no base.
    let text = "Content-Location: pages/index.html
Content-Type: text/html

<a href=\"x\">x</a>";
    let docs = message(&context(Spec::Rfc3986, &[]), text);
    let d = doc(&docs, "m");
    assert_eq!(d.base.url(), None);
    assert_eq!(d.base.notes().len(), 1, "{:?}", d.base.notes());
    assert!(url(d, "x").is_err());
}

/// A message with all three base headers, a part with none of its own and
/// a part with `<BASE href>`.
const CONFLICT: &str = "Base: <URL:http://b/base/>
Content-Base: http://b/content-base/
Content-Location: http://b/content-location/
Content-Type: multipart/mixed; boundary=\"x\"

--x
Content-Type: text/html

<a href=\"g\">g</a>
--x
Content-Type: text/html

<base href=\"http://b/embedded/\"><a href=\"g\">g</a>
--x--
";

#[test]
fn precedence_conflicts_under_each_spec() {
    let expect = |spec: Spec| match spec {
        Spec::Rfc1630 => ("http://r/retrieved/g", "retrieval"),
        Spec::Draft04 | Spec::Rfc1808 => ("http://b/base/g", "header"),
        Spec::Draft96 | Spec::Draft96Dec => {
            ("http://b/content-base/g", "header")
        }
        _ => ("http://b/content-location/g", "header"),
    };
    for spec in Spec::IETF {
        let docs = message(&context(spec, &["http://r/retrieved/"]), CONFLICT);
        let (want, layer) = expect(spec);
        let plain = doc(&docs, "m#1");
        assert_eq!(url(plain, "g"), Ok(want), "{spec}");
        assert_eq!(plain.base.source().layer(), layer, "{spec}");
        // The embedded base beats every header (R04-3.2-PREC).
        let embedded = doc(&docs, "m#2");
        assert_eq!(url(embedded, "g"), Ok("http://b/embedded/g"), "{spec}");
    }
    // Every header recognised under every spec: Base first.
    for spec in Spec::IETF {
        let mut ctx = context(spec, &[]);
        ctx.base = ctx.base.headers(Headers::All);
        let docs = message(&ctx, CONFLICT);
        assert_eq!(
            url(doc(&docs, "m#1"), "g"),
            Ok("http://b/base/g"),
            "{spec}"
        );
    }
}

#[test]
fn relative_absolute_only_bases_lenient_and_strict() {
    // A relative Content-Base (which must be absolute) under the 1996
    // draft: resolved against the next outer layer and noted, or ignored
    // under strict, where Content-Location takes over.
    let text = "Content-Base: sub/
Content-Location: http://h/cl/
Content-Type: text/html

<a href=g>g</a>";
    let lenient = context(Spec::Draft96, &["http://h/r/"]);
    let d = &message(&lenient, text)[0];
    assert_eq!(url(d, "g"), Ok("http://h/r/sub/g"));
    assert_eq!(header_name(&d.base), Some("Content-Base"));
    assert_eq!(d.base.notes().len(), 1);
    let mut strict = lenient.clone();
    strict.base = strict.base.strict(true);
    let d = &message(&strict, text)[0];
    assert_eq!(url(d, "g"), Ok("http://h/cl/g"));
    assert_eq!(header_name(&d.base), Some("Content-Location"));
    assert_eq!(d.base.notes().len(), 1);

    // A relative <BASE href>: against the retrieval URL, or ignored.
    let html = "<base href=\"../b/\"><a href=g>g</a>";
    let mut ctx = context(Spec::Rfc1808, &["http://h/a/x"]);
    let d = page(&ctx, html);
    assert_eq!(url(&d, "g"), Ok("http://h/b/g"));
    assert_eq!(d.base.source(), &Source::Embedded);
    ctx.base = ctx.base.strict(true);
    let d = page(&ctx, html);
    assert_eq!(url(&d, "g"), Ok("http://h/a/g"));
    assert_eq!(d.base.source().layer(), "retrieval");
    assert_eq!(d.base.notes().len(), 1);
}

#[test]
fn malformed_base_header_is_ignored_with_a_note() {
    let text = "Base: http://not-in-angle-brackets/
Content-Type: text/html

<a href=g>g</a>";
    let docs = message(&context(Spec::Rfc1808, &["http://r/"]), text);
    let d = doc(&docs, "m");
    assert_eq!(url(d, "g"), Ok("http://r/g"));
    assert_eq!(d.base.notes().len(), 1);
}
