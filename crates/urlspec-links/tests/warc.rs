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
use urlspec_links::{
    warc, Context, Document, Error, Format, Problem, Reason, Summary,
};
use urlspec_test_support::warc::Record;

/// One WARC record: its type, target URI and block, with the date, record
/// ID and content type a crawler writes.
fn record(kind: &str, target: Option<&str>, block: &[u8]) -> Vec<u8> {
    let content_type = match kind {
        "warcinfo" => "application/warc-fields",
        "request" => "application/http; msgtype=request",
        _ => "application/http; msgtype=response",
    };
    let id = block.len() * 31 + kind.len();
    let mut r = Record::new(kind, block)
        .header("WARC-Date", "2024-05-01T12:00:00Z")
        .header(
            "WARC-Record-ID",
            format!("<urn:uuid:{id:08x}-0000-4000-8000-000000000000>"),
        );
    if let Some(target) = target {
        r = r.header("WARC-Target-URI", target);
    }
    r.header("Content-Type", content_type).bytes()
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
    let (docs, errors, summary) = read_spilled_or_not(data, spec);
    assert!(errors.is_empty(), "{errors:?}");
    (docs, summary)
}

type Read = (Vec<Document>, Vec<urlspec_links::Error>, Summary);

/// The documents and errors of `data`, read from its raw bytes (the
/// reader tells gzip members apart itself) with blocks held in memory;
/// read again with every block and gzip member spilled to a temporary
/// file (and with all but the shortest), for the same result.
fn read_spilled_or_not(data: Vec<u8>, spec: Spec) -> Read {
    let in_memory = read_with(&data, spec, None);
    for limit in [0, 100] {
        let spilled = read_with(&data, spec, Some(limit));
        assert_eq!(
            format!("{spilled:?}"),
            format!("{in_memory:?}"),
            "blocks over {limit} bytes spilled"
        );
    }
    in_memory
}

fn read_with(data: &[u8], spec: Spec, spill_past: Option<usize>) -> Read {
    let ctx = Context::new(spec);
    let mut summary = Summary::default();
    let (mut docs, mut errors) = (Vec::new(), Vec::new());
    let mut reader = warc::Documents::new(data, ctx);
    if let Some(limit) = spill_past {
        reader.spill_past(limit);
    }
    for d in &mut reader {
        match d {
            Ok(d) => docs.push(d),
            Err(e) => errors.push(e),
        }
    }
    reader.add_skipped(&mut summary);
    (docs, errors, summary)
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
            ("damaged", 0),
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
            ("damaged", 0),
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
fn a_truncated_archive_reads_the_documents_before_and_the_cut_one() {
    let mut data = records().concat();
    let cut = data.len() - 40;
    data.truncate(cut);
    let ctx = Context::new(Spec::Rfc3986);
    let mut summary = Summary::default();
    let mut docs = Vec::new();
    let input = std::io::Cursor::new(data);
    let mut errors = Vec::new();
    warc::documents(input, &ctx, &mut summary, &mut |d| match d {
        Ok(d) => docs.push(d),
        Err(e) => errors.push(e),
    });
    // The last record, a page, is read as far as it goes, and says so.
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(docs.len(), 3);
    assert!(docs[..2].iter().all(|d| d.problems.is_empty()));
    let problems: Vec<String> =
        docs[2].problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("record cut short"), "{problems:?}");
}

#[test]
fn an_unknown_content_coding_is_a_problem_not_a_failure() {
    let data = record(
        "response",
        Some("http://c/"),
        &http(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", "compress")],
            b"\x1f\x9d\x90<a href=x>",
        ),
    );
    let (docs, _) = read(data, Spec::Rfc3986);
    assert_eq!(docs.len(), 1);
    assert!(docs[0].links.is_empty());
    let coding = Reason::ContentCoding("\"compress\" not supported".into());
    assert_eq!(docs[0].problems, [Problem::Payload(Error::new(0, coding))]);
}

#[test]
fn an_input_that_is_not_an_archive_is_an_error() {
    for data in [&b"<html><a href=g>g</a></html>"[..], b"WARX/1.0\r\n\r\n"] {
        let ctx = Context::new(Spec::Rfc3986);
        let mut summary = Summary::default();
        let input = std::io::Cursor::new(data.to_vec());
        let mut errors = Vec::new();
        warc::documents(input, &ctx, &mut summary, &mut |d| {
            errors.push(d.unwrap_err().to_string());
        });
        assert_eq!(
            errors,
            ["at byte 0: not a WARC archive, nor an ARC one (no record starts in it)"]
        );
    }
    // An empty input is an empty archive: nothing read, every skip reason
    // counted as zero.
    let docs = Vec::<Document>::new();
    let input = warc::reader(std::io::Cursor::new(Vec::new())).unwrap();
    let ctx = Context::new(Spec::Rfc3986);
    let mut s = Summary::default();
    warc::documents(input, &ctx, &mut s, &mut |_| panic!());
    let zeros = warc::Skip::ALL.iter().map(|r| (r.name(), 0)).collect();
    let summary = Summary { skipped_by_reason: zeros, ..Summary::default() };
    assert_eq!((docs.len(), s), (0, summary));
}

// ---------------------------------------------------------------------------
// Damaged records: reported with their offset, the archive read on
// ---------------------------------------------------------------------------

/// Twenty HTML responses, `http://h/1` to `http://h/20`, each linking `g`.
fn twenty() -> Vec<Vec<u8>> {
    (1..=20)
        .map(|i| {
            record(
                "response",
                Some(&format!("http://h/{i}")),
                &http(
                    "200 OK",
                    &[("Content-Type", "text/html")],
                    b"<a href=\"g\">g</a>",
                ),
            )
        })
        .collect()
}

/// The documents and errors of `data`, read from its raw bytes.
fn read_all(data: Vec<u8>) -> Read {
    read_spilled_or_not(data, Spec::Rfc3986)
}

fn names(docs: &[Document]) -> Vec<String> {
    docs.iter().map(|d| d.name.clone()).collect()
}

/// The names of the twenty documents but the sixth.
fn all_but_the_sixth() -> Vec<String> {
    (1..=20).filter(|&i| i != 6).map(|i| format!("http://h/{i}")).collect()
}

#[test]
fn a_damaged_header_in_a_plain_archive_skips_that_record_only() {
    let mut records = twenty();
    let offset: usize = records[..5].iter().map(Vec::len).sum();
    // The sixth record's Content-Length is no number.
    let text = String::from_utf8(records[5].clone()).unwrap();
    records[5] =
        text.replace("Content-Length: ", "Content-Length: x").into_bytes();
    let (docs, errors, summary) = read_all(records.concat());
    assert_eq!(names(&docs), all_but_the_sixth());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].offset, offset as u64);
    assert!(matches!(errors[0].reason, urlspec_links::Reason::BadRecord(_)));
    assert_eq!(summary.skipped_by_reason["damaged"], 1);
}

#[test]
fn a_record_cut_short_in_a_plain_archive_resumes_at_the_next_warc_line() {
    let mut records = twenty();
    let offset: usize = records[..5].iter().map(Vec::len).sum();
    // The sixth record loses the last 30 bytes of its block: its length
    // now runs into the seventh record.
    let n = records[5].len();
    records[5].drain(n - 34..n - 4);
    let (docs, errors, _) = read_all(records.concat());
    assert_eq!(names(&docs), all_but_the_sixth());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].offset, offset as u64);
}

#[test]
fn a_corrupt_gzip_member_skips_that_record_only() {
    let members: Vec<Vec<u8>> = twenty().iter().map(|r| gzip(r)).collect();
    let offset: usize = members[..5].iter().map(Vec::len).sum();
    // Damage in the middle of the sixth member's deflate data.
    let mut damaged = members.clone();
    let m = &mut damaged[5];
    let mid = m.len() / 2;
    for b in &mut m[mid - 4..mid + 4] {
        *b ^= 0x5a;
    }
    let (docs, errors, summary) = read_all(damaged.concat());
    assert_eq!(names(&docs), all_but_the_sixth());
    assert_eq!(errors.len(), 1, "{errors:?}");
    // Reported where the member starts: as a bad record header when the
    // damaged bytes inflate to garbage before the CRC is checked.
    assert_eq!(errors[0].offset, offset as u64);
    assert_eq!(summary.skipped_by_reason["damaged"], 1);
    // The sixth member cut in half: the inflater reads on into the
    // seventh, whose start is found again among the bytes it took.
    let mut cut = members.clone();
    let half = cut[5].len() / 2;
    cut[5].truncate(half);
    let (docs, errors, _) = read_all(cut.concat());
    assert_eq!(names(&docs), all_but_the_sixth());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].offset, offset as u64);
    // A member cut at the end of the archive: the nineteen before it.
    let mut last = members;
    last[19].truncate(20);
    let (docs, errors, _) = read_all(last.concat());
    assert_eq!(docs.len(), 19);
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn garbage_between_gzip_members_is_reported_and_passed_over() {
    let members: Vec<Vec<u8>> = twenty().iter().map(|r| gzip(r)).collect();
    let mut data = members[..3].concat();
    let offset = data.len();
    data.extend_from_slice(b"garbage between members");
    data.extend_from_slice(&members[3..].concat());
    let (docs, errors, _) = read_all(data);
    assert_eq!(docs.len(), 20);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].offset, offset as u64);
}

// ---------------------------------------------------------------------------
// What is read as a page: HTTP/2, no Content-Type, resource records
// ---------------------------------------------------------------------------

/// A `resource` record: the resource itself, typed by the record.
fn resource(target: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut r = record("resource", Some(target), block);
    let old = b"application/http; msgtype=response";
    let at = r.windows(old.len()).position(|w| w == old).unwrap();
    r.splice(at..at + old.len(), content_type.bytes());
    r
}

#[test]
fn http2_status_lines_sniffed_html_and_resource_records_are_pages() {
    let data = [
        record(
            "response",
            Some("http://h/two"),
            b"HTTP/2 200\r\ncontent-type: text/html\r\n\r\n<a href=\"g\">g</a>",
        ),
        // No Content-Type: sniffed as browsers do.
        record(
            "response",
            Some("http://h/sniffed"),
            &http("200 OK", &[], b"\n<!DOCTYPE html><a href=\"g\">g</a>"),
        ),
        record("response", Some("http://h/json"), &http("200 OK", &[], b"{\"a\": 1}")),
        resource("http://h/res", "text/html", b"<html><a href=\"g\">g</a></html>"),
        resource("http://h/img", "image/png", b"\x89PNG\r\n\x1a\n"),
    ]
    .concat();
    let (docs, errors, summary) = read_all(data);
    assert!(errors.is_empty(), "{errors:?}");
    let urls: Vec<&str> =
        docs.iter().map(|d| d.links[0].url.as_deref().unwrap()).collect();
    assert_eq!(urls, ["http://h/g", "http://h/g", "http://h/g"]);
    assert_eq!(
        names(&docs),
        ["http://h/two", "http://h/sniffed", "http://h/res"]
    );
    assert_eq!(summary.skipped_by_reason["not_html"], 2);
}

#[test]
fn link_and_refresh_headers_are_links_before_the_payload() {
    let data = record(
        "response",
        Some("http://h/d/p"),
        &http(
            "200 OK",
            &[
                ("Content-Type", "text/html"),
                (
                    "Link",
                    "</s.css>; rel=preload; title=\"<no>\", <next>; rel=next",
                ),
                ("Refresh", "5; url=later"),
            ],
            b"<a href=\"g\">g</a>",
        ),
    );
    let (docs, errors, _) = read_all(data.clone());
    assert!(errors.is_empty(), "{errors:?}");
    let links: Vec<(&str, &str, &str)> = docs[0]
        .links
        .iter()
        .map(|l| {
            (&*l.attribute, l.reference.as_str(), l.url.as_deref().unwrap())
        })
        .collect();
    assert_eq!(
        links,
        [
            ("Link", "/s.css", "http://h/s.css"),
            ("Link", "next", "http://h/d/next"),
            ("Refresh", "later", "http://h/d/later"),
            ("href", "g", "http://h/d/g"),
        ]
    );
    // Each header link's offset points at its reference in the record
    // block.
    let block_start =
        data.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    for link in &docs[0].links[..3] {
        let at = block_start + link.offset;
        assert_eq!(
            &data[at..at + link.reference.len()],
            link.reference.as_bytes()
        );
    }
}

#[test]
fn skipped_records_are_listed_with_offset_and_reason_when_asked() {
    let records = records();
    let offsets: Vec<u64> = records
        .iter()
        .scan(0u64, |at, r| {
            let here = *at;
            *at += r.len() as u64;
            Some(here)
        })
        .collect();
    let mut docs = warc::Documents::new(
        std::io::Cursor::new(records.concat()),
        Context::new(Spec::Rfc3986),
    );
    docs.log_skipped();
    let mut skipped = Vec::new();
    while let Some(doc) = docs.next() {
        doc.unwrap();
        skipped.extend(docs.take_skipped());
    }
    skipped.extend(docs.take_skipped());
    let got: Vec<(u64, &str)> =
        skipped.iter().map(|s| (s.offset, s.reason.name())).collect();
    assert_eq!(
        got,
        [
            (offsets[0], "not_response"),
            (offsets[1], "not_response"),
            (offsets[2], "redirect"),
            (offsets[3], "redirect"),
            (offsets[5], "not_html"),
        ]
    );
    assert_eq!(skipped[2].target.as_deref(), Some("http://example.com/old"));
}

#[test]
fn header_links_are_resolved_outside_the_payloads_base() {
    // RFC 8288 §3.1: "any base URI carried in the payload body is NOT
    // used"; Chromium resolves Link and Refresh against the response's URL
    // likewise.
    let data = record(
        "response",
        Some("http://h/d/p"),
        &http(
            "200 OK",
            &[
                ("Content-Type", "text/html"),
                ("Link", "<style.css>; rel=preload; as=style"),
                ("Refresh", "0; url=next.html"),
            ],
            b"<base href=\"http://other/b/\"><a href=x>",
        ),
    );
    for spec in [Spec::Rfc3986, Spec::Rfc1808] {
        let (docs, _) = read(data.clone(), spec);
        let urls: Vec<_> = docs[0]
            .links
            .iter()
            .map(|l| l.url.clone().unwrap_or_default())
            .collect();
        assert_eq!(
            urls,
            [
                "http://h/d/style.css",
                "http://h/d/next.html",
                "http://other/b/",
                "http://other/b/x"
            ],
            "{spec:?}"
        );
    }
}
