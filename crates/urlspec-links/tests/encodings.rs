//! A page's encoding beyond the prescan: a `<meta>` past the first 1024
//! bytes, met by the tree builder while the encoding is tentative (HTML's
//! "change the encoding"), and the stateful ISO-2022-JP.

use urlspec::Spec;
use urlspec_links::html::{self, Charset};
use urlspec_links::{Context, Document};

/// More than the prescan reads, with no tag in it.
fn filler() -> String {
    format!("<!-- {} -->", "x".repeat(1100))
}

fn read(page: &[u8], charset: Charset<'_>, spec: Spec) -> Document {
    let ctx = Context::new(spec);
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    html::document_in(page, charset, "p", &base, &ctx)
}

/// The page's encoding and its links' references.
fn seen(page: &[u8], charset: Charset<'_>) -> (&'static str, Vec<String>) {
    let doc = read(page, charset, Spec::Rfc3986);
    let refs = doc.links.iter().map(|l| l.reference.clone()).collect();
    (doc.encoding.unwrap().name(), refs)
}

#[test]
fn a_late_meta_changes_a_tentative_encoding_for_the_whole_page() {
    // 0xE9 is é in windows-1252, й in windows-1251. In the head, and in
    // the body, where the link before the meta is read in the new
    // encoding too (the page is read again).
    let f = filler();
    for page in [
        format!("<head><title>t</title>{f}<meta charset=windows-1251></head><body><a href=\"\u{E9}\"><img src=\"\u{E9}\">"),
        format!("<body><p>{f}<a href=\"\u{E9}\"><meta charset=windows-1251><img src=\"\u{E9}\">"),
    ] {
        let page = encoding_rs::WINDOWS_1252.encode(&page).0;
        assert_eq!(
            seen(&page, Charset::Unknown),
            ("windows-1251", vec!["й".into(), "й".into()]),
        );
    }
}

#[test]
fn the_first_declaring_meta_decides() {
    // The prescan's meta is met first and confirms its encoding: a later
    // one is no change.
    let page = format!(
        "<meta charset=koi8-r>{}<meta charset=windows-1251><a href=\"\u{E9}\">",
        filler()
    );
    let page = encoding_rs::WINDOWS_1252.encode(&page).0;
    assert_eq!(seen(&page, Charset::Unknown).0, "KOI8-R");
    // A meta without an encoding, or with an unknown label, is passed
    // over; an http-equiv one counts.
    let page = format!(
        "{}<meta name=x><meta charset=nope><meta http-equiv=Content-Type content='text/html; charset=ISO-8859-5'><meta charset=gbk><a href=\"\u{E9}\">",
        filler()
    );
    let page = encoding_rs::WINDOWS_1252.encode(&page).0;
    assert_eq!(
        seen(&page, Charset::Unknown),
        ("ISO-8859-5", vec!["щ".into()])
    );
    // A meta inside a comment or a script is no element.
    let page = format!(
        "{}<!-- <meta charset=gbk> --><script>'<meta charset=gbk>'</script><a href=\"\u{E9}\">",
        filler()
    );
    let page = encoding_rs::WINDOWS_1252.encode(&page).0;
    assert_eq!(seen(&page, Charset::Unknown).0, "windows-1252");
    // The same encoding, or x-user-defined (windows-1252): no change.
    let page = format!("{}<meta charset=x-user-defined>", filler());
    assert_eq!(seen(page.as_bytes(), Charset::Unknown).0, "windows-1252");
}

#[test]
fn a_certain_encoding_stays() {
    let late =
        format!("{}<meta charset=windows-1251><a href=\"\u{E9}\">", filler());
    let late = encoding_rs::WINDOWS_1252.encode(&late).0;
    // From the transport layer.
    assert_eq!(
        seen(&late, Charset::Transport("iso-8859-2")),
        ("ISO-8859-2", vec!["é".into()])
    );
    // A label the Encoding Standard does not know is no transport
    // encoding: tentative again.
    assert_eq!(seen(&late, Charset::Transport("bogus")).0, "windows-1251");
    // From a byte order mark (a UTF-16 page cannot be changed either).
    let bom = [b"\xEF\xBB\xBF", &late[..]].concat();
    assert_eq!(seen(&bom, Charset::Unknown).0, "UTF-8");
    // Decoded from a MIME part's charset.
    let text = format!("{}<meta charset=windows-1251>", filler());
    assert_eq!(seen(text.as_bytes(), Charset::Decoded("utf-8")).0, "UTF-8");
}

/// `日本?q=日本` in ISO-2022-JP (JIS X 0208 after `ESC $ B`, ASCII after
/// `ESC ( B`), and `ｶﾅ` in its katakana mode (`ESC ( I`).
const ISO_2022_JP: &[u8] = b"<meta charset=iso-2022-jp>\
<a href=\"\x1b$BF|K\\\x1b(B?q=\x1b$BF|K\\\x1b(B&amp;x=&#233;\">\
<a href=\"?q=\x1b(I6E\x1b(B\">";

#[test]
fn iso_2022_jp_is_decoded_before_it_is_tokenized() {
    assert_eq!(
        seen(ISO_2022_JP, Charset::Unknown),
        ("ISO-2022-JP", vec!["日本?q=日本&x=é".into(), "?q=ｶﾅ".into()])
    );
}

#[cfg(feature = "whatwg")]
#[test]
fn iso_2022_jp_queries_are_encoded_back_into_it() {
    let doc = read(ISO_2022_JP, Charset::Unknown, Spec::Whatwg);
    let urls: Vec<_> =
        doc.links.iter().map(|l| l.url.clone().unwrap()).collect();
    // The path in UTF-8; the query in ISO-2022-JP, escape sequences and
    // all, é (which it lacks) as &#233;, and the half-width katakana as
    // the encoder writes them: full-width, in JIS X 0208.
    assert_eq!(
        urls,
        [
            "http://h/d/%E6%97%A5%E6%9C%AC?q=%1B$BF|K\\%1B(B&x=%26%23233%3B",
            "http://h/d/p.html?q=%1B$B%+%J%1B(B",
        ]
    );
    // As Chromium gives them: testdata/links/browser/encoding-iso-2022-jp.html.
}
