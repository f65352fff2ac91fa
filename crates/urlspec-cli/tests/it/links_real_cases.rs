//! `urlspec links` on each case the real archives and pages showed, on a
//! minimal reproducer (as `../shared/tools/warc-repro.py` writes them) and
//! on the real file it came from (`links_real.rs` reads every archive).

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use common::real_archives::{damage, documents, find, real, scan, units};
use common::{code, run, stderr, stdout};
use urlspec_test_support::paths;

const PAGE: &[u8] = b"<!doctype html><a href=\"next.html\">n</a>";
/// `PAGE` compressed with brotli (quality 11), as warc-repro.py has it.
const PAGE_BR: &[u8] = b"\x1b'\x00H\x14\xa1\xd2\xc3\r6\xc6\xc6\xfe\x82\x08\xddY\x81RiQ\xb9\x1e]\x01\xda\xb7\x00";
const INFO: &[u8] = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\nContent-Type: application/warc-fields\r\nContent-Length: 16\r\n\r\nsoftware: test\r\n\r\n\r\n";
const OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: text/html";

/// A response record for `http://h.example/p`, as warc-repro.py writes it.
fn response(http_head: &[u8], body: &[u8]) -> Vec<u8> {
    let mut block = http_head.to_vec();
    block.extend_from_slice(b"\r\n\r\n");
    block.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h.example/p\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000002>\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn gzip(data: &[u8]) -> Vec<u8> {
    common::gzip(data)
}

/// Writes `data` as `name` in a scratch directory of this file's.
fn repro(name: &str, data: &[u8]) -> PathBuf {
    let dir = common::scratch("links_real", name);
    let path = dir.join(name);
    std::fs::File::create(&path).unwrap().write_all(data).unwrap();
    path
}

/// `urlspec links ARGS FILE`: exit code, standard output, standard error.
fn links(args: &[&str], file: &Path) -> (i32, String, String) {
    let mut all: Vec<&str> = vec!["links"];
    all.extend_from_slice(args);
    all.push(file.to_str().unwrap());
    let out = run(&all, b"");
    (code(&out), stdout(&out), stderr(&out))
}

/// The URLs of TSV output, by document.
fn tsv_urls(out: &str) -> Vec<(String, String)> {
    out.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_owned(), f[5].to_owned())
        })
        .collect()
}

#[test]
fn case_1_a_gzip_label_on_a_body_stored_decoded() {
    let file = repro(
        "gzip-on-identity.warc",
        &response(&[OK, b"\r\nContent-Encoding: gzip"].concat(), PAGE),
    );
    let (status, out, err) = links(&["-o", "tsv"], &file);
    assert_eq!(
        tsv_urls(&out),
        [("http://h.example/p".into(), "http://h.example/next.html".into())]
    );
    assert!(err.contains("the body is not gzip-coded as its Content-Encoding says (no gzip header): read as it is"), "{err}");
    // Read whole: no page is counted unreadable.
    assert_eq!(status, 0, "{err}");
    // ClueWeb09: every page labelled gzip, stored decoded.
    let file = real("resiliparse__clueweb-quirk.warc.gz");
    let pages = scan(&std::fs::read(&file).unwrap())
        .into_iter()
        .filter(|r| r.page)
        .count();
    let (status, out, err) = links(&["-o", "tsv"], &file);
    let with_links: BTreeSet<String> =
        tsv_urls(&out).into_iter().map(|(d, _)| d).collect();
    assert_eq!(with_links.len(), pages, "{err}");
    assert_eq!(err.matches("read as it is").count(), pages, "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn case_2_brotli_zstd_and_deflate_bodies() {
    let coded: [(&str, Vec<u8>); 3] = [
        ("br", PAGE_BR.to_vec()),
        ("deflate", {
            let mut e = flate2::write::DeflateEncoder::new(
                Vec::new(),
                flate2::Compression::default(),
            );
            e.write_all(PAGE).unwrap();
            e.finish().unwrap()
        }),
        ("deflate", {
            let mut e = flate2::write::ZlibEncoder::new(
                Vec::new(),
                flate2::Compression::default(),
            );
            e.write_all(PAGE).unwrap();
            e.finish().unwrap()
        }),
    ];
    for (coding, body) in coded {
        let head = [OK, format!("\r\nContent-Encoding: {coding}").as_bytes()]
            .concat();
        let file = repro("coded.warc", &response(&head, &body));
        let (status, out, err) = links(&["-o", "tsv"], &file);
        assert_eq!(
            tsv_urls(&out),
            [(
                "http://h.example/p".into(),
                "http://h.example/next.html".into()
            )],
            "{coding}: {err}"
        );
        assert_eq!((status, err.lines().count()), (0, 1), "{coding}: {err}");
    }
    // A Webrecorder crawl whose pages are brotli-coded: each gives links,
    // and nothing is said of its coding.
    let file = real("pywacz__example-collection-with-lists.warc");
    let (status, out, err) = links(&["-o", "tsv"], &file);
    let data = std::fs::read(&file).unwrap();
    let pages: BTreeSet<String> =
        scan(&data).into_iter().filter(|r| r.page).map(|r| r.target).collect();
    let with_links: BTreeSet<String> =
        tsv_urls(&out).into_iter().map(|(d, _)| d).collect();
    assert_eq!(with_links, pages, "{err}");
    assert!(!err.contains("content coding"), "{err}");
    assert_eq!(status, 0, "{err}");
    let (status, _, err) = links(
        &["-o", "tsv"],
        &real("ukwa__transfer_compression_brotli.warc.gz"),
    );
    assert!(!err.contains("content coding"), "{err}");
    assert_eq!(status, 0, "{err}");
}

/// The documents and the damage reported of `file`, in text output.
fn read(
    file: &Path,
    args: &[&str],
) -> (BTreeSet<String>, Vec<(u64, String)>, i32) {
    let (status, out, err) = links(args, file);
    (documents(&out), damage(&err, file), status)
}

/// Where the deflate data of the gzip member `data` starts: past its
/// header and the optional fields its flags name (RFC 1952 §2.3). Its
/// first block type made 3, reserved, is "corrupt deflate stream".
fn deflate_start(data: &[u8]) -> usize {
    let flags = data[3];
    let mut i = 10;
    if flags & 4 != 0 {
        i += 2 + usize::from(u16::from_le_bytes([data[i], data[i + 1]]));
    }
    for flag in [8, 16] {
        if flags & flag != 0 {
            i += data[i..].iter().position(|&b| b == 0).unwrap() + 1;
        }
    }
    if flags & 2 != 0 {
        i += 2;
    }
    i
}

#[test]
fn case_3_damage_at_the_very_start_of_an_archive() {
    let mut bad = gzip(INFO);
    let at = deflate_start(&bad);
    bad[at] |= 0x06;
    let good = gzip(&response(OK, PAGE));
    let file =
        repro("first-member-corrupt.warc.gz", &[bad.clone(), good].concat());
    let (docs, damaged, status) = read(&file, &[]);
    assert_eq!(docs, BTreeSet::from(["http://h.example/p".to_owned()]));
    assert_eq!(
        damaged,
        [(0, "damaged gzip member: corrupt deflate stream".to_owned())]
    );
    assert_eq!(status, 1);
    let mut first = b"WARX".to_vec();
    first.extend_from_slice(&INFO[4..]);
    first.extend(response(OK, PAGE));
    // Detected from a later line, from its name, or read as --format says.
    for (name, args) in [
        ("first-record-bad.bin", &[][..]),
        ("first-record-bad.warc", &[]),
        ("first-record-bad.txt", &["--format", "warc"]),
    ] {
        let file = repro(name, &first);
        let (docs, damaged, _) = read(&file, args);
        assert_eq!(
            docs,
            BTreeSet::from(["http://h.example/p".to_owned()]),
            "{name}"
        );
        assert_eq!(
            damaged,
            [(0, "damaged WARC record: no WARC/ version line".to_owned())],
            "{name}"
        );
    }
    // The same damage made to real archives: each reads as it did whole,
    // less the first record, which is a warcinfo.
    let whole = real("pywb__example2.warc.gz");
    let data = std::fs::read(&whole).unwrap();
    let (expected, none, _) = read(&whole, &[]);
    assert!(none.is_empty() && !expected.is_empty());
    let mut broken = data.clone();
    broken[deflate_start(&data)] |= 0x06;
    let file = repro("example2-first-member-corrupt.warc.gz", &broken);
    let (docs, damaged, _) = read(&file, &[]);
    assert_eq!(docs, expected);
    assert_eq!(damaged.len(), 1, "{damaged:?}");
    assert_eq!(damaged[0].0, 0);
    let whole = real("warcio__example-iana.org-chunked.warc");
    let (expected, _, _) = read(&whole, &[]);
    let mut broken = std::fs::read(&whole).unwrap();
    broken[3] = b'X';
    let file = repro("iana-first-record-bad.data", &broken);
    let (docs, damaged, _) = read(&file, &[]);
    assert_eq!(docs, expected);
    assert_eq!(
        damaged,
        [(0, "damaged WARC record: no WARC/ version line".to_owned())]
    );
}

#[test]
fn case_4_a_record_split_over_two_gzip_members() {
    let record = response(OK, PAGE);
    let cut = find(&record, b"<!doctype").unwrap();
    let file = repro(
        "record-over-two-members.warc.gz",
        &[gzip(&record[..cut]), gzip(&record[cut..])].concat(),
    );
    for j in ["1", "2"] {
        let (status, out, err) = links(&["-o", "tsv", "-j", j], &file);
        assert_eq!(
            tsv_urls(&out),
            [(
                "http://h.example/p".into(),
                "http://h.example/next.html".into()
            )],
            "{err}"
        );
        assert_eq!((status, err.lines().count()), (0, 1), "{err}");
    }
    // warcio's example-wrong-chunks: its one response, whole.
    let file = real("warcio__example-wrong-chunks.warc.gz");
    let data = std::fs::read(&file).unwrap();
    let pages: BTreeSet<String> =
        scan(&data).into_iter().filter(|r| r.page).map(|r| r.target).collect();
    let (docs, damaged, status) = read(&file, &[]);
    assert_eq!(docs, pages);
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(status, 0);
}

/// An ARC v1 file, as warc-repro.py writes it.
fn arc() -> Vec<u8> {
    let head = b"1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n";
    let mut out = format!(
        "filedesc://x.arc 0.0.0.0 20080430204825 text/plain {}\n",
        head.len()
    )
    .into_bytes();
    out.extend_from_slice(head);
    out.push(b'\n');
    let body =
        [&b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n"[..], PAGE]
            .concat();
    out.extend(
        format!(
            "http://h.example/p 192.0.2.1 20080430204826 text/html {}\n",
            body.len()
        )
        .bytes(),
    );
    out.extend(body);
    out.push(b'\n');
    out
}

#[test]
fn case_5_arc_files_are_read_as_archives() {
    for (name, data) in [("page.arc", arc()), ("page.arc.gz", gzip(&arc()))] {
        let file = repro(name, &data);
        let out = run(&["links", "-o", "json", file.to_str().unwrap()], b"");
        let lines = common::json_lines(&out);
        assert_eq!(lines.len(), 1, "{name}: {out:?}");
        assert_eq!(lines[0]["document"], "http://h.example/p");
        assert_eq!(lines[0]["url"], "http://h.example/next.html");
        assert_eq!(lines[0]["base_source"], "retrieval");
        assert_eq!(code(&out), 0, "{out:?}");
    }
    // Heritrix 1.14's ARC and pywb's: each page named by its URL, every
    // link resolved.
    for name in [
        "ukwa__IAH-20080430204825-00000-blackbook-truncated.arc.gz",
        "warcio__example.arc.gz",
    ] {
        let file = real(name);
        let data = std::fs::read(&file).unwrap();
        let pages: BTreeSet<String> = scan(&data)
            .into_iter()
            .filter(|r| r.page)
            .map(|r| r.target)
            .collect();
        let (status, out, err) = links(&[], &file);
        assert_eq!(documents(&out), pages, "{name}: {err}");
        assert!(out.contains(" 0 unresolved;"), "{name}: {out}");
        assert_eq!(status, 0, "{name}: {err}");
    }
}

/// The HTTP body of the response record for `target` in the archive
/// `data` (its block taken up to the next record, as [`scan`] takes it).
fn body_of(data: &[u8], target: &str) -> Vec<u8> {
    let (text, _) = units(data);
    let at = find(&text, format!("WARC-Target-URI: {target}\r\n").as_bytes())
        .unwrap_or_else(|| panic!("no record of {target}"));
    let block = at + find(&text[at..], b"\r\n\r\n").unwrap() + 4;
    let body = block + find(&text[block..], b"\r\n\r\n").unwrap() + 4;
    let end =
        find(&text[body..], b"\r\nWARC/").map_or(text.len(), |k| body + k);
    text[body..end].to_vec()
}

/// The `action` of each form the tree builder inserts, by a scan of the
/// page's tags written here: a `<form>` while one is open (no `</form>`
/// since) is ignored. For pages with no form tag in a comment or script.
fn inserted_form_actions(page: &[u8]) -> Vec<String> {
    let page = String::from_utf8_lossy(page);
    let lower = page.to_ascii_lowercase();
    let mut open = false;
    let mut actions = Vec::new();
    let mut i = 0;
    while let Some(k) = lower[i..].find("form") {
        let at = i + k;
        i = at + 4;
        let end_tag = lower[..at].ends_with("</");
        let start_tag = lower[..at].ends_with('<');
        let next = lower[at + 4..].chars().next().unwrap_or('>');
        if !(next.is_ascii_whitespace() || next == '>' || next == '/') {
            continue;
        }
        if end_tag {
            open = false;
        } else if start_tag && !std::mem::replace(&mut open, true) {
            let tag = &page[at..at + lower[at..].find('>').unwrap()];
            if let Some(k) = tag.find("action=\"") {
                let value = &tag[k + 8..];
                actions.push(value[..value.find('"').unwrap()].to_owned());
            }
        }
    }
    actions
}

/// The references of the `form@action` links of `doc` in JSON output.
fn form_actions(out: &std::process::Output, doc: &str) -> Vec<String> {
    common::json_lines(out)
        .iter()
        .filter(|l| l["document"] == doc && l["element"] == "form")
        .map(|l| l["reference"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn case_6_start_tags_the_tree_builder_ignores() {
    let page = b"<!doctype html><body><form action=\"outer\"><form action=\"inner\"></form>\
<frame src=\"f.html\"><a href=\"x\">x</a>";
    let file = repro("ignored-tags.html", page);
    let out = run(
        &[
            "links",
            "--spec",
            "whatwg",
            "--url",
            "http://h.example/p",
            "-o",
            "json",
            file.to_str().unwrap(),
        ],
        b"",
    );
    let got: Vec<String> = common::json_lines(&out)
        .iter()
        .map(|l| {
            format!(
                "{}@{} {}",
                l["element"].as_str().unwrap(),
                l["attribute"].as_str().unwrap(),
                l["url"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        got,
        ["form@action http://h.example/outer", "a@href http://h.example/x"]
    );
    // data.gov.uk (a British Library crawl): a search form inside the page's
    // form; the forms read are those the tree builder inserts.
    let file =
        real("ukwa__BL-20140325122341434-00000-32090-opera-8443.warc.gz");
    let expected = inserted_form_actions(&body_of(
        &std::fs::read(&file).unwrap(),
        "http://data.gov.uk/odug",
    ));
    let out = run(&["links", "-o", "json", file.to_str().unwrap()], b"");
    assert_eq!(form_actions(&out, "http://data.gov.uk/odug"), expected);
    assert!(expected.len() >= 2, "{expected:?}");
    // phys.org: a form closed by a `</div>` before its `</form>`; the
    // forms after it are all read.
    let path = paths::browser_pages().join("pages/traf-phys-tool.html");
    let expected = inserted_form_actions(&std::fs::read(&path).unwrap());
    let out = run(
        &[
            "links",
            "--url",
            "https://phys.org/p",
            "-o",
            "json",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(form_actions(&out, path.to_str().unwrap()), expected);
    assert!(expected.len() >= 6, "{expected:?}");
}

#[test]
fn case_7_newlines_in_attribute_values() {
    let file = repro("crlf-in-attribute.html", b"<!doctype html><a href=\"a.pdf\r\n\">x</a><a href=\"b\rc.html\">y</a>");
    let out = run(
        &[
            "links",
            "--spec",
            "whatwg",
            "--url",
            "http://h.example/p",
            "-o",
            "json",
            file.to_str().unwrap(),
        ],
        b"",
    );
    let refs: Vec<_> = common::json_lines(&out)
        .iter()
        .map(|l| l["reference"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(refs, ["a.pdf\n", "b\nc.html"]);
    // An archive.org page (Heritrix 1.14) whose href ends with CR LF: read
    // as the browser's attribute value, with LF alone.
    let file = real("aut__example.warc.gz");
    let body = body_of(
        &std::fs::read(&file).unwrap(),
        "http://www.archive.org/details/etree",
    );
    assert!(find(&body, b".pdf\r\n\"").is_some());
    let out = run(&["links", "-o", "json", file.to_str().unwrap()], b"");
    let lines = common::json_lines(&out);
    assert!(lines
        .iter()
        .all(|l| !l["reference"].as_str().unwrap().contains('\r')));
    assert!(lines
        .iter()
        .any(|l| l["document"] == "http://www.archive.org/details/etree"
            && l["reference"].as_str().unwrap().ends_with(".pdf\n")));
}

/// The bytes a gzip stream inflates to before it stops (cut short).
fn inflated_prefix(data: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut decoder = flate2::read::GzDecoder::new(data);
    let mut buf = [0u8; 4096];
    while let Ok(n) = decoder.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    out
}

#[test]
fn case_8_a_record_cut_short_is_read_as_far_as_it_goes() {
    // A plain archive that ends inside a page's block (`</a>` cut to
    // `</`): the page is read as far as it goes, and said to be cut short.
    let record = response(OK, PAGE);
    let file = repro("cut-in-block.warc", &record[..record.len() - 6]);
    let (status, out, err) = links(&["-o", "tsv"], &file);
    assert_eq!(
        tsv_urls(&out),
        [("http://h.example/p".into(), "http://h.example/next.html".into())],
        "{err}"
    );
    let block = record.len() - 4 - find(&record, b"HTTP/1.1").unwrap();
    assert!(
        err.contains(&format!(
            "at byte 0: record cut short: Content-Length {block}, {} bytes; \
             the links of those were read",
            block - 2
        )),
        "{err}"
    );
    assert_eq!(status, 1, "{err}");
    // Common Crawl's record whose gzip member stops inflating (resiliparse
    // reads it as a block shorter than its Content-Length): its page's
    // links are those of the page's bytes that inflate, read as a page
    // of their own.
    let file = real("resiliparse__clipped.warc.gz");
    let inflated = inflated_prefix(&std::fs::read(&file).unwrap());
    let target = "http://www.houstonpress.com/music/a-humble-chance-the-rapper-leads-a-spiritual-awakening-at-revention-8866723";
    assert!(find(&inflated, target.as_bytes()).is_some());
    let payload = &inflated[find(&inflated, b"<!DOCTYPE").unwrap()..];
    let page = repro("clipped-payload.html", payload);
    for j in ["1", "2"] {
        let (status, out, err) = links(&["-o", "tsv", "-j", j], &file);
        let got = tsv_urls(&out);
        assert!(got.len() > 100, "{err}");
        assert!(got.iter().all(|(d, _)| d == target), "{err}");
        let (_, alone, _) = links(
            &["-o", "tsv", "--url", target, "--encoding", "utf-8"],
            &page,
        );
        let alone: Vec<String> =
            tsv_urls(&alone).into_iter().map(|(_, u)| u).collect();
        let got: Vec<String> = got.into_iter().map(|(_, u)| u).collect();
        assert_eq!(got, alone);
        assert!(
            err.contains(
                "at byte 0: record cut short (damaged gzip member: incomplete \
                 deflate stream): Content-Length 88275,"
            ),
            "{err}"
        );
        assert_eq!(err.lines().count(), 2, "{err}");
        assert!(err.contains("unreadable 1"), "{err}");
        assert_eq!(status, 1, "{err}");
    }
}
