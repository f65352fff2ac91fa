//! The streamed MIME reader (`mime::stream`) against the whole one
//! (`mime::documents`): the same documents for the messages of the unit
//! tests, nested and unclosed multiparts, mbox files, and HTML parts past
//! the in-memory size in each transfer encoding, whose links the streamed
//! reader hands on in batches.

#[path = "common/mime_paths.rs"]
mod mime_paths;

use std::io::Write;

use mime_paths::{both, streamed};
use urlspec::Spec;
use urlspec_links::html::stream::IN_MEMORY;
use urlspec_links::mime::{self, transfer::Transfer};
use urlspec_links::{Context, Problem, Reason};
use urlspec_test_support::mime::{nested_multipart, Base64, QuotedPrintable};

fn ctx(spec: Spec) -> Context {
    let mut ctx = Context::new(spec);
    ctx.retrieval = vec!["http://r/m.eml".into()];
    ctx
}

/// Messages of the unit tests and of the CLI tests, CRLF and LF.
const MESSAGES: &[&str] = &[
    // TV-BASE-7.
    "Base: <URL:http://h/root/>\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
     --b1\r\nContent-Type: text/html\r\n\r\n<a href=\"p1\">p1</a>\r\n\
     --b1\r\nContent-Type: text/html\r\n\r\n<html><head><base href=\"http://o/p\"></head><a href=\"p2\">p2</a></html>\r\n\
     --b1\r\nBase: <URL:http://n/>\r\nContent-Type: multipart/alternative; boundary=\"b2\"\r\n\r\n\
     --b2\r\nContent-Type: text/html\r\n\r\n<a href=\"p3a\">p3a</a>\r\n--b2--\r\n--b1--\r\n",
    // Without its closing boundary.
    "Content-Location: http://h/d/\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n\
     --b\r\nContent-Type: text/html\r\n\r\n<a href=\"one\">1</a>\r\n\
     --b\r\nContent-Type: text/html\r\n\r\n<a href=\"two\">2</a>\r\n",
    // List headers, a folded one.
    "List-Help: <mailto:list@h?subject=help> (List Instructions),\r\n <http://h/help>\r\n\
     List-Unsubscribe: <URL:http://h/unsub>\r\nList-Post: NO (posting not allowed)\r\n\
     List-Archive: <archive/>\r\nContent-Location: http://h/l/\r\nContent-Type: text/plain\r\n\r\ntext",
    // An mbox, the second message an XHTML part, a quoted From line.
    "From a@h Thu Nov 26 04:00:00 2026\r\nContent-Location: http://one/\r\nContent-Type: text/html\r\n\r\n\
     <a href=\"x\">x</a>\r\n>From here\r\n\r\n\
     From b@h Thu Nov 26 04:01:00 2026\r\nContent-Location: http://two/\r\nContent-Type: application/xhtml+xml\r\n\r\n\
     <html xmlns=\"http://www.w3.org/1999/xhtml\"><a href=\"y\">y</a></html>\r\n",
    // A message/rfc822 part whose headers hold a link and set a base,
    // preamble, epilogue and a part of another type.
    "Content-Location: http://h/top/\nContent-Type: multipart/mixed; boundary=outer\n\n\
     preamble\n--outer\nContent-Type: text/plain\n\n<a href=no>\n--outer\n\
     Content-Type: message/rfc822\n\nX-See: <URL:seen>\nContent-Base: http://inner/d/\n\
     Content-Type: text/html; charset=iso-8859-2\nContent-Transfer-Encoding: quoted-printable\n\n\
     <a href=3D\"caf=B1\">x</a>=\n<img src=3Dq>\n--outer--\nepilogue\n",
    // A multipart/digest, whose parts are messages by default; a
    // base64 part; a part without headers.
    "Content-Type: multipart/digest; boundary=d\r\n\r\n--d\r\n\r\nContent-Type: text/html\r\n\r\n<a href=a>\r\n\
     --d\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n\
     PGEgaHJlZj1iPg==\r\n--d--\r\n",
    // A Content-Location the chosen spec does not read.
    "Content-Location: http://h/d/\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>",
    // One HTML message, LF only, no header but the type.
    "Content-Type: text/html\n\n<base href=http://b/><a href=x>",
];

#[test]
fn the_streamed_reader_gives_the_documents_of_the_whole_one() {
    for spec in [Spec::Rfc1808, Spec::Rfc3986, Spec::Draft96] {
        for msg in MESSAGES {
            let (docs, result) = both(msg.as_bytes(), "m", &ctx(spec));
            assert!(result.is_ok() && !docs.is_empty(), "{msg}");
        }
    }
}

#[test]
fn an_unclosed_multipart_notes_its_last_part_in_both() {
    let (docs, result) =
        both(MESSAGES[1].as_bytes(), "m", &ctx(Spec::Rfc3986));
    result.unwrap();
    assert_eq!(docs[1].problems, [Problem::NoClosingBoundary]);
}

#[test]
fn nesting_is_bounded_in_both() {
    let (docs, result) = both(
        nested_multipart(mime::MAX_DEPTH - 1).as_bytes(),
        "m",
        &ctx(Spec::Rfc3986),
    );
    assert_eq!((docs.len(), result), (2, Ok(())));
    for depth in [mime::MAX_DEPTH, 10_000] {
        let msg = nested_multipart(depth);
        let (docs, result) = both(msg.as_bytes(), "m", &ctx(Spec::Rfc3986));
        assert_eq!(result.unwrap_err().reason, Reason::TooDeep);
        assert_eq!(docs.len(), 1);
    }
}

#[test]
fn a_header_block_past_its_cap_is_an_error_and_its_part_is_passed_over() {
    let long = format!(
        "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nX-Long: {}\r\nContent-Type: text/html\r\n\r\n<a href=no>\r\n\
         --b\r\nContent-Location: http://h/\r\nContent-Type: text/html\r\n\r\n<a href=yes>\r\n--b--\r\n",
        "x".repeat(mime::stream::MAX_HEADER)
    );
    let (docs, result) = streamed(long.as_bytes(), "m", &ctx(Spec::Rfc3986));
    assert_eq!(result, Err(Reason::HeaderTooLong));
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].links[0].url.as_deref(), Ok("http://h/yes"));
}

/// A page of `n` links and the message holding it in `transfer`, with a
/// `<base>` at its end and a part after it.
fn long_message(n: usize, transfer: Transfer) -> Vec<u8> {
    let mut page = String::from("<meta charset=windows-1252>");
    for i in 0..n {
        page.push_str(&format!("<a href=\"p{i}?q=\u{e9}\">link</a>\r\n"));
    }
    page.push_str("<base href=\"http://late/d/\">");
    let page = encoding_rs::WINDOWS_1252.encode(&page).0;
    let (name, body) = match transfer {
        Transfer::Base64 => ("base64", base64(&page)),
        Transfer::QuotedPrintable => {
            ("quoted-printable", quoted_printable(&page))
        }
        Transfer::Identity => ("8bit", page.to_vec()),
    };
    let mut msg = format!(
        "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
         Content-Type: text/html\r\nContent-Transfer-Encoding: {name}\r\n\r\n"
    )
    .into_bytes();
    msg.extend_from_slice(&body);
    msg.extend_from_slice(
        b"\r\n--b\r\nContent-Type: text/html\r\n\r\n<a href=after>\r\n--b--\r\n",
    );
    msg
}

fn base64(bytes: &[u8]) -> Vec<u8> {
    let mut b = Base64::new(Vec::new());
    b.write_all(bytes).unwrap();
    b.finish().unwrap()
}

fn quoted_printable(bytes: &[u8]) -> Vec<u8> {
    let mut q = QuotedPrintable::new(Vec::new(), 72);
    q.write_all(bytes).unwrap();
    q.into_inner()
}

#[test]
fn a_part_past_the_in_memory_size_streams_with_the_links_of_the_whole() {
    let n = IN_MEMORY / 30 + 1000;
    for transfer in
        [Transfer::Base64, Transfer::QuotedPrintable, Transfer::Identity]
    {
        let msg = long_message(n, transfer);
        let mut batches = 0;
        let mut links = 0;
        mime::stream::documents(
            &msg[..],
            "m",
            &ctx(Spec::Rfc3986),
            &mut |doc, last| {
                batches += usize::from(!last);
                links += doc.links.len();
                if let Some(l) =
                    doc.links.first().filter(|_| doc.name == "m#1")
                {
                    assert!(
                        l.url.as_ref().unwrap().starts_with("http://late/d/"),
                        "{l:?}"
                    );
                }
            },
        )
        .unwrap();
        // The page's links, its <base>, and the part after it.
        assert_eq!(links, n + 2, "{transfer:?}");
        assert!(batches > 1, "{transfer:?}");
        let (docs, _) = both(&msg, "m", &ctx(Spec::Rfc3986));
        assert_eq!(docs[0].encoding.unwrap().name(), "windows-1252");
        assert_eq!(docs[0].links[7].reference, "p7?q=é");
    }
}
