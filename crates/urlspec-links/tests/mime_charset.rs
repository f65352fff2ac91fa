//! The encoding of an HTML part of a MIME message, chosen as for a WARC
//! response (HTML's encoding sniffing, §13.2.3): a byte order mark,
//! `--encoding`, the part's `charset` parameter (the transport layer's),
//! a `<meta>`, and otherwise windows-1252. Each case in quoted-printable
//! and in base64, whose bytes are decoded before the page is sniffed.

#[path = "common/mime_paths.rs"]
mod mime_paths;

use std::io::Write;

use urlspec::Spec;
use urlspec_links::html::encoding::Choice;
use urlspec_links::{Context, Document};
use urlspec_test_support::mime::{Base64, QuotedPrintable};

/// The ways a part's bytes are written in a message.
const TRANSFERS: [&str; 3] = ["8bit", "quoted-printable", "base64"];

/// A message of one multipart/alternative HTML part holding `page`,
/// written in `transfer`, typed `content_type`.
fn message(page: &[u8], content_type: &str, transfer: &str) -> Vec<u8> {
    let body = match transfer {
        "quoted-printable" => quoted_printable(page),
        "base64" => base64(page),
        _ => page.to_vec(),
    };
    let mut m = format!(
        "Content-Location: http://h/d/m.eml\r\n\
         Content-Type: multipart/alternative; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: {content_type}\r\n\
         Content-Transfer-Encoding: {transfer}\r\n\r\n"
    )
    .into_bytes();
    m.extend_from_slice(&body);
    m.extend_from_slice(b"\r\n--b--\r\n");
    m
}

fn quoted_printable(bytes: &[u8]) -> Vec<u8> {
    let mut q = QuotedPrintable::new(Vec::new(), 20);
    q.write_all(bytes).unwrap();
    q.into_inner()
}

fn base64(bytes: &[u8]) -> Vec<u8> {
    let mut b = Base64::new(Vec::new());
    b.write_all(bytes).unwrap();
    b.finish().unwrap()
}

fn read(msg: &[u8], spec: Spec, choice: Choice) -> Document {
    let mut ctx = Context::new(spec);
    ctx.encoding = choice;
    let (mut docs, result) = mime_paths::both(msg, "m", &ctx);
    result.unwrap();
    assert_eq!(docs.len(), 1);
    docs.remove(0)
}

/// The encoding of the part and the references of its links, for each
/// transfer encoding (the same for all).
fn seen(
    page: &[u8],
    content_type: &str,
    choice: Choice,
) -> (&'static str, Vec<String>) {
    let mut seen = None;
    for transfer in TRANSFERS {
        let doc = read(
            &message(page, content_type, transfer),
            Spec::Rfc3986,
            choice,
        );
        let got = (
            doc.encoding.unwrap().name(),
            doc.links.iter().map(|l| l.reference.clone()).collect::<Vec<_>>(),
        );
        if let Some(first) = &seen {
            assert_eq!(&got, first, "{transfer}");
        }
        seen = Some(got);
    }
    seen.unwrap()
}

#[test]
fn a_part_without_charset_is_sniffed_and_defaults_to_windows_1252() {
    assert_eq!(
        seen(b"<a href=\"caf\xe9.html?q=\xe9\">", "text/html", Choice::Sniff),
        ("windows-1252", vec!["café.html?q=é".into()])
    );
}

#[cfg(feature = "whatwg")]
#[test]
fn a_windows_1252_part_keeps_its_query_in_windows_1252() {
    // As a browser requests the link of the same page served without a
    // charset (crates/urlspec-cli/tests/it/links_browser.rs).
    for transfer in TRANSFERS {
        let msg = message(
            b"<a href=\"caf\xe9.html?q=\xe9\">",
            "text/html",
            transfer,
        );
        let doc = read(&msg, Spec::Whatwg, Choice::Sniff);
        assert_eq!(
            doc.links[0].url.as_deref(),
            Ok("http://h/d/caf%C3%A9.html?q=%E9"),
            "{transfer}"
        );
    }
}

#[test]
fn a_part_without_charset_takes_its_meta() {
    // 0xB1 is ą in ISO-8859-2, ± in windows-1252.
    let page = b"<meta charset=\"iso-8859-2\"><a href=\"\xb1\">";
    assert_eq!(
        seen(page, "text/html", Choice::Sniff),
        ("ISO-8859-2", vec!["ą".into()])
    );
    // A part typed application/xhtml+xml is read the same way.
    assert_eq!(
        seen(page, "application/xhtml+xml", Choice::Sniff),
        ("ISO-8859-2", vec!["ą".into()])
    );
}

#[test]
fn the_parts_charset_wins_over_its_meta() {
    // The transport layer's charset comes before the prescan.
    let page = "<meta charset=\"iso-8859-2\"><a href=\"ą\">".as_bytes();
    assert_eq!(
        seen(page, "text/html; charset=utf-8", Choice::Sniff),
        ("UTF-8", vec!["ą".into()])
    );
    let page = b"<meta charset=\"utf-8\"><a href=\"\xb1\">";
    assert_eq!(
        seen(page, "text/html; charset=\"ISO-8859-2\"", Choice::Sniff),
        ("ISO-8859-2", vec!["ą".into()])
    );
    // An unknown label is no charset: the page is sniffed.
    assert_eq!(
        seen(page, "text/html; charset=x-nope", Choice::Sniff).0,
        "UTF-8"
    );
}

#[test]
fn encoding_overrides_the_charset_and_the_meta() {
    // 0xC1 is а (Cyrillic) in KOI8-R.
    let page = b"<meta charset=\"iso-8859-2\"><a href=\"\xc1\">";
    let koi8 = Choice::Label(encoding_rs::KOI8_R);
    assert_eq!(
        seen(page, "text/html; charset=utf-8", koi8),
        ("KOI8-R", vec!["а".into()])
    );
    assert_eq!(seen(page, "text/html", koi8), ("KOI8-R", vec!["а".into()]));
    // A byte order mark still comes first.
    let page = "\u{FEFF}<a href=\"ą\">".as_bytes();
    assert_eq!(seen(page, "text/html", koi8), ("UTF-8", vec!["ą".into()]));
}

#[test]
fn detect_guesses_a_part_that_declares_nothing() {
    let page = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю. \
                Широкая электрификация южных губерний даст мощный толчок \
                подъёму сельского хозяйства.</p><a href=\"ж\">";
    let page = encoding_rs::WINDOWS_1251.encode(page).0;
    assert_eq!(
        seen(&page, "text/html", Choice::Detect),
        ("windows-1251", vec!["ж".into()])
    );
    // A declared charset is not second-guessed.
    assert_eq!(
        seen(&page, "text/html; charset=koi8-r", Choice::Detect).0,
        "KOI8-R"
    );
}

#[test]
fn offsets_are_those_of_the_decoded_part() {
    let page = b"<p>\xe9</p><a href=\"x\">";
    for transfer in TRANSFERS {
        let doc = read(
            &message(page, "text/html", transfer),
            Spec::Rfc3986,
            Choice::Sniff,
        );
        assert_eq!(doc.links[0].offset, 17, "{transfer}");
    }
}
