//! WARC archives built here, record by record, as crawlers write them:
//! a `warcinfo` record, a `request`, a 301 and a 302 redirect, the final
//! HTML response (chunked, gzip content coding), HTML responses with
//! header and embedded bases, and an image. Read plain, gzip-compressed
//! per record, and gzip-compressed as a whole.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;
use urlspec::base::Source;
use urlspec::Spec;
use urlspec_links::{warc, Context, Document, Format, Summary};

/// One WARC record: its type, target URI and block.
fn record(kind: &str, target: Option<&str>, block: &[u8]) -> Vec<u8> {
    let mut r = Vec::new();
    let content_type = match kind {
        "warcinfo" => "application/warc-fields",
        "request" => "application/http; msgtype=request",
        _ => "application/http; msgtype=response",
    };
    write!(
        r,
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:{:08x}-0000-4000-8000-000000000000>\r\n",
        block.len() * 31 + kind.len()
    )
    .unwrap();
    if let Some(target) = target {
        write!(r, "WARC-Target-URI: {target}\r\n").unwrap();
    }
    write!(
        r,
        "Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .unwrap();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// An HTTP response: status line, headers, body.
fn http(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut r = format!("HTTP/1.1 {status}\r\n").into_bytes();
    for (name, value) in headers {
        write!(r, "{name}: {value}\r\n").unwrap();
    }
    write!(r, "\r\n").unwrap();
    r.extend_from_slice(body);
    r
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// `data` in HTTP/1.1 chunks of at most 7 bytes.
fn chunked(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(7) {
        write!(out, "{:x}\r\n", chunk.len()).unwrap();
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// The final page, reached through two redirects.
const FINAL_PAGE: &str = "<html><head><title>Final</title></head><body>
<a href=\"g\">g</a> <a href=\"../up\">up</a> <img src=\"/logo.png\">
</body></html>";

/// The records of the test crawl, each one its own `Vec`.
fn records() -> Vec<Vec<u8>> {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    vec![
        record(
            "warcinfo",
            None,
            b"software: urlspec-links test\r\nformat: WARC File Format 1.0\r\n",
        ),
        record(
            "request",
            Some("http://example.com/old"),
            b"GET /old HTTP/1.1\r\nHost: example.com\r\n\r\n",
        ),
        // 301 to a relative Location: resolved against the URL requested.
        record(
            "response",
            Some("http://example.com/old"),
            &http("301 Moved Permanently", &[("Location", "/new")], b""),
        ),
        record(
            "response",
            Some("http://example.com/new"),
            &http(
                "302 Found",
                &[("Location", "https://www.example.com/final/page.html")],
                b"",
            ),
        ),
        record(
            "response",
            Some("https://www.example.com/final/page.html"),
            &http(
                "200 OK",
                &[
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Encoding", "gzip"),
                    ("Transfer-Encoding", "chunked"),
                ],
                &chunked(&gzip(FINAL_PAGE.as_bytes())),
            ),
        ),
        record(
            "response",
            Some("http://example.com/img.png"),
            &http("200 OK", &[("Content-Type", "image/png")], png),
        ),
        // HTTP headers are the headers layer: a relative Content-Location
        // (RFC 2396/3986) and a Content-Base (1996 drafts).
        record(
            "response",
            Some("http://example.com/dir/index"),
            &http(
                "200 OK",
                &[
                    ("Content-Type", "text/html"),
                    ("Content-Location", "index.en.html"),
                    ("Content-Base", "http://cb.example/base/"),
                ],
                b"<a href=\"x\">x</a>",
            ),
        ),
        record(
            "response",
            Some("http://example.com/embedded"),
            &http(
                "200 OK",
                &[("Content-Type", "application/xhtml+xml")],
                b"<html><head><base href=\"http://www.ics.uci.edu/Test/a/b/c\"/></head>\
                  <body><a href=\"../x\">x</a></body></html>",
            ),
        ),
    ]
}

/// The number of records that are not HTML responses: the warcinfo, the
/// request, both redirects and the image.
const SKIPPED: usize = 5;

/// Reads `data` as `urlspec links` does: detect, decompress, stream.
fn read(data: Vec<u8>, spec: Spec) -> (Vec<Document>, Summary) {
    assert_eq!(Format::detect(&data), Format::Warc);
    let ctx = Context::new(spec);
    let mut summary = Summary::default();
    let mut docs = Vec::new();
    let input = warc::reader(std::io::Cursor::new(data)).unwrap();
    warc::documents(input, &ctx, &mut summary, &mut |d| docs.push(d)).unwrap();
    (docs, summary)
}

fn url<'d>(doc: &'d Document, reference: &str) -> &'d str {
    let link = doc.links.iter().find(|l| l.reference == reference).unwrap();
    link.url.as_deref().unwrap()
}

/// Every check on the documents of the test crawl under RFC 3986.
fn check(docs: &[Document], summary: &Summary) {
    let names: Vec<&str> = docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "https://www.example.com/final/page.html",
            "http://example.com/dir/index",
            "http://example.com/embedded"
        ]
    );
    assert_eq!(summary.skipped_records, SKIPPED);
    assert_eq!(
        reasons(summary),
        [
            ("malformed_header", 0),
            ("no_target_uri", 0),
            ("not_html", 1),
            ("not_http", 0),
            ("not_response", 2),
            ("redirect", 2)
        ]
    );

    // The final page: its base is the last URL of the chain, which the
    // base reports whole.
    let last = &docs[0];
    assert!(last.problems.is_empty(), "{:?}", last.problems);
    assert_eq!(
        last.base.url(),
        Some("https://www.example.com/final/page.html")
    );
    match last.base.source() {
        Source::Retrieval { chain } => assert_eq!(
            chain,
            &[
                "http://example.com/old",
                "http://example.com/new",
                "https://www.example.com/final/page.html"
            ]
        ),
        other => panic!("not a retrieval base: {other:?}"),
    }
    assert_eq!(
        last.base.source().to_string(),
        "retrieval URL after 2 redirects"
    );
    assert_eq!(url(last, "g"), "https://www.example.com/final/g");
    assert_eq!(url(last, "../up"), "https://www.example.com/up");
    assert_eq!(url(last, "/logo.png"), "https://www.example.com/logo.png");

    // A relative Content-Location, against the target URI.
    let index = &docs[1];
    assert_eq!(index.base.url(), Some("http://example.com/dir/index.en.html"));
    assert_eq!(url(index, "x"), "http://example.com/dir/x");

    // The embedded base wins; XHTML is HTML.
    assert_eq!(url(&docs[2], "../x"), "http://www.ics.uci.edu/Test/a/x");
    assert_eq!(docs[2].base.source(), &Source::Embedded);
}

#[test]
fn plain_warc() {
    let data: Vec<u8> = records().concat();
    let (docs, summary) = read(data, Spec::Rfc3986);
    check(&docs, &summary);
}

#[test]
fn gzip_per_record() {
    let data: Vec<u8> = records().iter().flat_map(|r| gzip(r)).collect();
    let (docs, summary) = read(data, Spec::Rfc3986);
    check(&docs, &summary);
}

#[test]
fn gzip_whole_file() {
    let (docs, summary) = read(gzip(&records().concat()), Spec::Rfc3986);
    check(&docs, &summary);
}

#[test]
fn http_headers_are_recognised_per_spec() {
    let data = records().concat();
    let base_of = |spec| {
        let (docs, _) = read(data.clone(), spec);
        let index = docs.into_iter().nth(1).unwrap();
        (index.base.url().map(str::to_owned), index.base.source().layer())
    };
    // RFC 1808 knows neither header: the target URI.
    assert_eq!(
        base_of(Spec::Rfc1808),
        (Some("http://example.com/dir/index".into()), "retrieval")
    );
    // The 1996 draft: Content-Base beats Content-Location.
    assert_eq!(
        base_of(Spec::Draft96),
        (Some("http://cb.example/base/".into()), "header")
    );
    assert_eq!(
        base_of(Spec::Rfc2396),
        (Some("http://example.com/dir/index.en.html".into()), "header")
    );
}

#[test]
fn a_target_not_reached_by_a_redirect_has_a_chain_of_one() {
    let (docs, _) = read(records().concat(), Spec::Rfc1808);
    match docs[1].base.source() {
        Source::Retrieval { chain } => {
            assert_eq!(chain, &["http://example.com/dir/index"])
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(docs[1].base.source().to_string(), "retrieval URL");
}

#[test]
fn a_redirect_loop_ends() {
    let mut data = Vec::new();
    for (from, to) in
        [("http://l/a", "http://l/b"), ("http://l/b", "http://l/a")]
    {
        data.extend(record(
            "response",
            Some(from),
            &http("302 Found", &[("Location", to)], b""),
        ));
    }
    data.extend(record(
        "response",
        Some("http://l/a"),
        &http("200 OK", &[("Content-Type", "text/html")], b"<a href=g>g</a>"),
    ));
    let (docs, summary) = read(data, Spec::Rfc3986);
    assert_eq!(summary.skipped_records, 2);
    assert_eq!(url(&docs[0], "g"), "http://l/g");
    let Source::Retrieval { chain } = docs[0].base.source() else { panic!() };
    assert_eq!(chain, &["http://l/b", "http://l/a"]);
}

fn reasons(summary: &Summary) -> Vec<(&'static str, usize)> {
    summary.skipped_by_reason.iter().map(|(k, v)| (*k, *v)).collect()
}

#[test]
fn each_skipped_record_is_counted_by_its_reason() {
    let data = [
        record("metadata", Some("http://m/"), b"via: x\r\n"),
        record("revisit", Some("http://m/"), b""),
        // A response with no target URI, and one that holds no HTTP message.
        record("response", None, &http("200 OK", &[], b"<a href=g>")),
        record("response", Some("http://m/raw"), b"<a href=g>not HTTP</a>"),
        record(
            "response",
            Some("http://m/r"),
            &http("308 Permanent Redirect", &[("Location", "/p")], b""),
        ),
        record(
            "response",
            Some("http://m/p"),
            &http("200 OK", &[("Content-Type", "text/plain")], b"g"),
        ),
    ]
    .concat();
    let (docs, summary) = read(data, Spec::Rfc3986);
    assert!(docs.is_empty());
    assert_eq!(summary.skipped_records, 6);
    assert_eq!(
        reasons(&summary),
        [
            ("malformed_header", 0),
            ("no_target_uri", 1),
            ("not_html", 1),
            ("not_http", 1),
            ("not_response", 2),
            ("redirect", 1)
        ]
    );
    // The names are those of warc::Skip, each once.
    let names: Vec<&str> = warc::Skip::ALL.iter().map(|r| r.name()).collect();
    let mut keys: Vec<&str> = reasons(&summary).iter().map(|r| r.0).collect();
    keys.sort_unstable();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(keys, sorted);
}

#[test]
fn a_truncated_archive_keeps_the_documents_before_the_break() {
    let mut data = records().concat();
    let cut = data.len() - 40;
    data.truncate(cut);
    let ctx = Context::new(Spec::Rfc3986);
    let mut summary = Summary::default();
    let mut docs = Vec::new();
    let input = warc::reader(std::io::Cursor::new(data)).unwrap();
    let result =
        warc::documents(input, &ctx, &mut summary, &mut |d| docs.push(d));
    assert!(result.is_err());
    assert_eq!(docs.len(), 2);
}

#[test]
fn an_unknown_content_coding_is_a_problem_not_a_failure() {
    let data = record(
        "response",
        Some("http://c/"),
        &http(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", "br")],
            b"\x0b\x02\x80",
        ),
    );
    let (docs, _) = read(data, Spec::Rfc3986);
    assert_eq!(docs.len(), 1);
    assert!(docs[0].links.is_empty());
    assert_eq!(docs[0].problems.len(), 1);
}

#[test]
fn an_input_that_is_not_an_archive_is_an_error() {
    for data in [&b"<html><a href=g>g</a></html>"[..], b"WARX/1.0\r\n\r\n"] {
        let ctx = Context::new(Spec::Rfc3986);
        let mut summary = Summary::default();
        let input = warc::reader(std::io::Cursor::new(data.to_vec())).unwrap();
        let result =
            warc::documents(input, &ctx, &mut summary, &mut |_| panic!());
        assert!(result.unwrap_err().contains("not a WARC archive"));
    }
    // An empty input is an empty archive: nothing read, every skip reason
    // counted as zero.
    let docs = Vec::<Document>::new();
    let input = warc::reader(std::io::Cursor::new(Vec::new())).unwrap();
    let ctx = Context::new(Spec::Rfc3986);
    let mut s = Summary::default();
    assert!(warc::documents(input, &ctx, &mut s, &mut |_| panic!()).is_ok());
    let zeros = warc::Skip::ALL.iter().map(|r| (r.name(), 0)).collect();
    let summary = Summary { skipped_by_reason: zeros, ..Summary::default() };
    assert_eq!((docs.len(), s), (0, summary));
}
