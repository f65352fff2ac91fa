//! No public function of the crate panics on any input: the attribute
//! parsers, format detection, and the HTML, MIME and WARC readers are
//! called on arbitrary text and bytes (multi-byte characters and `%`
//! sequences at every position, pieces of each format), and what they
//! return lies inside their input.

use proptest::prelude::*;
use urlspec::Spec;
use urlspec_links::{
    base_chain, base_source, html, mime, warc, Context, Document, Format,
    Summary,
};

/// Pieces of the formats the crate reads, delimiters of URLs, and
/// characters of two, three and four bytes.
const PIECES: &[&str] = &[
    "<a href=",
    "<base href=\"",
    "<img srcset=\"",
    "<meta http-equiv=refresh content=\"",
    "0; url=",
    "\"",
    "'",
    ">",
    "</a>",
    " ",
    ",",
    "1x",
    "2w",
    "(",
    ")",
    "Content-Type: text/html\r\n",
    "Content-Type: multipart/mixed; boundary=b\r\n",
    "Base: <URL:",
    "Content-Base: ",
    "Content-Location: ",
    "\r\n",
    "\r\n\r\n",
    "--b\r\n",
    "--b--",
    "WARC/1.0\r\n",
    "WARC-Type: response\r\n",
    "WARC-Target-URI: ",
    "Content-Length: 9\r\n",
    "HTTP/1.1 200 OK\r\n",
    "http://h/",
    "../g",
    "?q",
    "#f",
    "%",
    "%2",
    "%C3%BC",
    "ü",
    "日",
    "𝔘",
    "\0",
    "\u{FEFF}",
    "url",
    "URL:",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(PIECES), 0..16)
            .prop_map(|p| p.concat()),
        1 => any::<String>(),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        text().prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..64),
        (text(), prop::collection::vec(any::<u8>(), 0..4), text()).prop_map(
            |(a, mid, b)| [a.into_bytes(), mid, b.into_bytes()].concat()
        ),
    ]
}

fn context(spec: Spec, retrieval: &str) -> Context {
    let mut ctx = Context::new(spec);
    ctx.retrieval.push(retrieval.to_owned());
    ctx
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn attribute_values(value in text()) {
        for (at, url) in html::srcset(&value) {
            prop_assert_eq!(value.get(at..at + url.len()), Some(url));
        }
        if let Some((at, url)) = html::refresh_url(&value) {
            prop_assert_eq!(value.get(at..at + url.len()), Some(url));
        }
    }

    #[test]
    fn documents(data in bytes(), url in text(), spec in prop::sample::select(Spec::IETF_AND_WHATWG.to_vec())) {
        let ctx = context(spec, &url);
        let _ = Format::detect(&data).name();
        let doc = html::document(&data, "d", &ctx.retrieval_base(), &ctx);
        for l in &doc.links {
            prop_assert!(l.offset <= data.len(), "{l:?}");
        }
        let mut sink = |d: Document| {
            let _ = (base_source(&d.base), base_chain(&d.base));
        };
        let _ = mime::documents(&data, "m", &ctx, &mut sink);
        let mut summary = Summary::default();
        warc::documents(&data[..], &ctx, &mut summary, &mut |d| {
            if let Ok(d) = d {
                sink(d);
            }
        });
    }
}
