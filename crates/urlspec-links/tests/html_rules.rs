//! What the HTML Standard's parser and processing models make of a page
//! beyond its tokens, each checked in Chromium (scripts off, page
//! `http://h/d/p.html`): start tags the tree builder ignores, newlines in
//! attribute values, srcset's descriptors, and the base a meta refresh
//! and an empty form action are resolved against.

use urlspec::Spec;
use urlspec_links::{html, Context};

/// (element@attribute, reference, URL or error) of each link of `page`,
/// retrieved from `http://h/d/p.html`.
fn links(page: &str, spec: Spec) -> Vec<(String, String, String)> {
    let ctx = Context::new(spec);
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    let doc = html::document(page.as_bytes(), "p", &base, &ctx);
    doc.links
        .iter()
        .map(|l| {
            (
                format!("{}@{}", l.element, l.attribute),
                l.reference.clone(),
                l.url.clone().unwrap_or_else(|e| format!("error: {e}")),
            )
        })
        .collect()
}

/// The URLs of `page`'s links under RFC 1808, RFC 3986 and (built with
/// it) the URL Standard, which must agree: what the tree builder keeps is
/// no matter of the URL spec.
fn urls(page: &str) -> Vec<String> {
    let of = |spec| -> Vec<String> {
        links(page, spec)
            .into_iter()
            .map(|l| format!("{} {}", l.0, l.2))
            .collect()
    };
    let rfc3986 = of(Spec::Rfc3986);
    assert_eq!(of(Spec::Rfc1808), rfc3986, "{page}");
    #[cfg(feature = "whatwg")]
    assert_eq!(of(Spec::Whatwg), rfc3986, "{page}");
    rfc3986
}

#[test]
fn a_form_inside_an_open_form_is_ignored() {
    // The form element pointer: set by the first form, cleared by any
    // `</form>` (not by the end of the element that holds the form).
    assert_eq!(
        urls(
            r#"<form action="outer"><form action="inner"></form><form action="again">"#
        ),
        ["form@action http://h/d/outer", "form@action http://h/d/again"]
    );
    assert_eq!(
        urls(
            r#"<div><form action="a"></div><form action="b"></form><form action="c">"#
        ),
        ["form@action http://h/d/a", "form@action http://h/d/c"]
    );
    // The buttons of an ignored form stay (they belong to the outer one).
    assert_eq!(
        urls(r#"<form action="a"><form action="b"><button formaction="f">"#),
        ["form@action http://h/d/a", "button@formaction http://h/d/f"]
    );
    // In a template's contents the pointer is neither read nor set.
    let page = r#"<form action="a"><template><form action="t"></form></template><form action="b">"#;
    let got: Vec<_> =
        links(page, Spec::Rfc3986).into_iter().map(|l| l.2).collect();
    assert_eq!(got, ["http://h/d/a", "http://h/d/t"]);
}

#[test]
fn a_form_end_that_is_no_end_tag_leaves_the_form_open() {
    // `</form>` written in a comment, script, raw or escapable text, an
    // attribute value or a CDATA section is no end tag: the second form
    // is ignored, as Chromium ignores it.
    for inside in [
        "<!-- </form> -->",
        r#"<script>var s="</form>";</script>"#,
        r#"<a title="</form>"></a>"#,
        "<textarea></form></textarea>",
        "<style></form></style>",
        "<noscript></form></noscript>",
        "<title></form></title>",
        "<xmp></form></xmp>",
        "<svg><![CDATA[</form>]]></svg>",
        "<!</form>",
        "<?</form>",
    ] {
        let page = format!(
            r#"<form action="a">{inside}<form action="b"><button formaction="f">"#
        );
        let got: Vec<_> = urls(&page)
            .into_iter()
            .filter(|u| u.starts_with("form@"))
            .collect();
        assert_eq!(got, ["form@action http://h/d/a"], "{page}");
    }
    // A real one clears the pointer, wherever it stands.
    assert_eq!(
        urls(r#"<form action="a"><div></form></div><form action="b">"#),
        ["form@action http://h/d/a", "form@action http://h/d/b"]
    );
}

#[test]
fn frames_count_only_in_a_frameset_document() {
    // <frame> in the body, or after body content, is ignored; a frameset
    // before the body is the document, and then nothing else is.
    assert_eq!(
        urls(r#"<body><frame src="f.html"><a href="x">x</a>"#),
        ["a@href http://h/d/x"]
    );
    assert_eq!(
        urls(
            r#"<head><link rel=stylesheet href="s.css"></head><frameset><frame src="a.html">
<a href="x">x</a></frameset><img src="i.png"><frame src="b.html">"#
        ),
        ["link@href http://h/d/s.css", "frame@src http://h/d/a.html"]
    );
    assert_eq!(
        urls("<!doctype html><title>t</title>\n <frameset rows=1><frameset><frame src=c.html></frameset></frameset>"),
        ["frame@src http://h/d/c.html"]
    );
    // The frameset-ok flag: body text, an explicit <body>, an <img> before
    // it make the frameset ignored; a <p> and whitespace do not.
    for (page, frame) in [
        ("text<frameset><frame src=g.html>", false),
        ("<p>text<frameset><frame src=g.html>", false),
        ("<p> \n\t<frameset><frame src=g.html>", true),
        ("<body><frameset><frame src=g.html>", false),
        ("<img src=i.png><frameset><frame src=g.html>", false),
        ("<input type=hidden><frameset><frame src=g.html>", true),
        ("<p><frameset><frame src=g.html>", true),
    ] {
        let got = urls(page);
        assert_eq!(
            got.contains(&"frame@src http://h/d/g.html".to_string()),
            frame,
            "{page}: {got:?}"
        );
    }
}

#[test]
fn a_frameset_that_replaces_the_body_takes_its_links_away() {
    // While the frameset-ok flag is "ok", a <frameset> removes the body
    // the tree builder opened and all in it: Chromium's DOM keeps the
    // head (what follows </head> up to the body goes there) and the
    // frameset.
    let head = r#"<html><head><link rel=stylesheet href="h.css"></head>"#;
    for (body, kept) in [
        (r#"<a href="a.html">"#, &[][..]),
        (r#"<p><a href="a.html"></a></p>"#, &[]),
        (r#"<div style="background:url(s.png)"></div>"#, &[]),
        (r#"<svg><a href="a.html"></a></svg>"#, &[]),
        (
            r#"<link rel=stylesheet href="b.css">"#,
            &["link@href http://h/d/b.css"][..],
        ),
        (r#"<a href="a.html"><link rel=stylesheet href="b.css">"#, &[]),
        (
            r#"<base href="http://other/x/"><a href="a.html">"#,
            &["base@href http://other/x/"][..],
        ),
    ] {
        let page = format!(
            "{head}{body}\n<frameset><frame src=\"f.html\"></frameset>"
        );
        // A <base> kept is the base of every link.
        let base = if kept.iter().any(|k| k.starts_with("base@")) {
            "http://other/x/"
        } else {
            "http://h/d/"
        };
        let mut want = vec![format!("link@href {base}h.css")];
        want.extend(kept.iter().map(|k| k.to_string()));
        want.push(format!("frame@src {base}f.html"));
        assert_eq!(urls(&page), want, "{page}");
    }
    // A <base> in the body it replaces is no base.
    assert_eq!(
        urls(
            r#"<a href="a.html"><base href="http://other/x/"><frameset><frame src="f.html">"#
        ),
        ["frame@src http://h/d/f.html"]
    );
}

#[test]
fn newlines_in_attribute_values_are_normalised() {
    let page = "<a href=\"a.pdf\r\n\">x</a><a href=\"b\rc.html\">y</a><a href=\"d&#13;.html\">z</a>";
    let got = links(page, Spec::Rfc3986);
    let references: Vec<_> = got.iter().map(|l| l.1.as_str()).collect();
    // A character reference is no newline of the input: it stays.
    assert_eq!(references, ["a.pdf\n", "b\nc.html", "d\r.html"]);
    #[cfg(feature = "whatwg")]
    {
        let got = links(page, Spec::Whatwg);
        let urls: Vec<_> = got.iter().map(|l| l.2.as_str()).collect();
        assert_eq!(
            urls,
            ["http://h/d/a.pdf", "http://h/d/bc.html", "http://h/d/d.html"]
        );
    }
}

#[test]
fn srcset_candidates_with_invalid_descriptors_are_dropped() {
    // Each as Chromium requests it or not: the Standard's descriptor
    // parser.
    let cases = [
        ("", true),
        ("foo", false),
        ("1x 1x", false),
        ("0w", false),
        ("-1x", false),
        ("1h", false),
        ("0x", true),
        ("1X", false),
        ("1.5x", true),
        (".5x", true),
        ("1e1x", true),
        ("100w", true),
        ("100w 1h", true),
        ("1h 100w", true),
        ("100W", false),
        ("+1x", false),
        ("1.x", false),
        ("-0x", true),
        ("100w 1x", false),
        ("1x 100w", false),
        ("2x 1h", false),
        ("100w 0h", false),
        ("01x", true),
        ("1xx", false),
        ("x", false),
        ("1 x", false),
        ("Infinityx", false),
        ("1e400x", false),
        ("100w,", true),
        ("(a b)", false),
        ("1x (x)", false),
        ("100w 200h", true),
    ];
    for (descriptors, kept) in cases {
        let page = format!("<img srcset=\"c.png {descriptors}\">");
        assert_eq!(!urls(&page).is_empty(), kept, "{descriptors:?}");
    }
    // Only `)` leaves the parentheses: the first candidate's descriptor
    // runs to the `)`, and is invalid.
    assert_eq!(
        urls(r#"<img srcset="a.png ((( , b.png 1x, ), c.png">"#),
        ["img@srcset http://h/d/c.png"]
    );
    assert_eq!(
        urls(r#"<img srcset="r.png ((1x)), s.png">"#),
        ["img@srcset http://h/d/s.png"]
    );
}

#[cfg(feature = "whatwg")]
#[test]
fn a_meta_refresh_is_resolved_against_the_base_when_it_is_inserted() {
    let page = r#"<meta http-equiv=refresh content="0; url=next.html"><base href="/b/"><a href=x>"#;
    let got: Vec<_> =
        links(page, Spec::Whatwg).into_iter().map(|l| l.2).collect();
    assert_eq!(got, ["http://h/d/next.html", "http://h/b/", "http://h/b/x"]);
    // After the <base>: against it.
    let page = r#"<base href="/b/"><meta http-equiv=refresh content="0; url=next.html">"#;
    let got: Vec<_> =
        links(page, Spec::Whatwg).into_iter().map(|l| l.2).collect();
    assert_eq!(got, ["http://h/b/", "http://h/b/next.html"]);
    // The RFCs have one base for the whole document.
    let page = r#"<meta http-equiv=refresh content="0; url=next.html"><base href="http://h/b/">"#;
    let got: Vec<_> =
        links(page, Spec::Rfc3986).into_iter().map(|l| l.2).collect();
    assert_eq!(got, ["http://h/b/next.html", "http://h/b/"]);
}

#[cfg(feature = "whatwg")]
#[test]
fn an_empty_form_action_is_the_documents_url() {
    let page = r#"<base href="/b/"><form action=""><button formaction="">b</button><input type=image formaction=""></form><form action=" "></form><form action="f"></form>"#;
    let got: Vec<_> =
        links(page, Spec::Whatwg).into_iter().map(|l| (l.0, l.2)).collect();
    assert_eq!(
        got,
        [
            ("base@href".into(), "http://h/b/".into()),
            ("form@action".into(), "http://h/d/p.html".into()),
            ("button@formaction".into(), "http://h/d/p.html".into()),
            ("input@formaction".into(), "http://h/d/p.html".into()),
            // Not empty: the URL parser trims it, against the base (the
            // Standard; Chromium trims first:
            // docs/readings.md#html-insertion-base).
            ("form@action".into(), "http://h/b/".into()),
            ("form@action".into(), "http://h/b/f".into()),
        ]
    );
    // The RFCs resolve the empty reference against the base.
    let page = r#"<base href="http://h/b/"><form action="">"#;
    let got: Vec<_> =
        links(page, Spec::Rfc3986).into_iter().map(|l| l.2).collect();
    assert_eq!(got, ["http://h/b/", "http://h/b/"]);
}

#[test]
fn srcset_as_the_web_platform_tests_expect() {
    // WPT's parse-a-srcset-attribute.html (../shared/data/browser-pages):
    // each <img> says the candidate a browser takes (`data-expect`, empty
    // for none), which must be one of urlspec's, and none when it is
    // empty. Chromium's currentSrc agrees on all 235 of them.
    let path = urlspec_test_support::paths::browser_pages()
        .join("pages/wpt-srcset-parse.html");
    let page = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    for line in page.lines().filter(|l| l.starts_with("<img srcset=")) {
        let Some(at) = line.find(" data-expect='") else { continue };
        let expect = &line[at + " data-expect='".len()..];
        let expect = &expect[..expect.find('\'').unwrap()];
        let expect = urlspec_links::html::entities::decode_attribute(expect);
        let img = format!("<meta charset=utf-8>{}>", &line[..at]);
        let got: Vec<String> =
            links(&img, Spec::Rfc3986).into_iter().map(|l| l.1).collect();
        if expect.is_empty() {
            assert!(got.is_empty(), "{line}: {got:?}");
        } else {
            assert!(got.contains(&expect.to_string()), "{line}: {got:?}");
        }
        checked += 1;
    }
    assert!(checked > 200, "{checked}");
}
