//! `urlspec links` on archives and pages nobody on this project wrote:
//! the 40 archives of `../shared/data/warc-real/` (written by Heritrix,
//! wget, wpull, warcprox, Webrecorder, WAIL, WARCreate, node-warc, Nutch,
//! gowarc and others, many of them damaged or odd on purpose) and pages of
//! `../shared/data/browser-pages/`.
//!
//! Over every archive: no record that holds an HTML page is lost without
//! a reported reason, damage is reported only where the framing is
//! broken, and `-j 1/2/4` print the same bytes. Both are judged by a scan
//! of the archive written here, apart from the reader: records are found
//! by their `WARC/` lines (or ARC header lines) in the inflated bytes, not
//! by their lengths.
//!
//! Then each case the archives and pages showed, on a minimal reproducer
//! (as `../shared/tools/warc-repro.py` writes them) and on the real file
//! it came from.

use crate::common;

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use common::{code, run, stderr, stdout};
use urlspec_test_support::paths;

/// The archives, in name order.
fn archives() -> Vec<PathBuf> {
    let dir = paths::warc_real();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.ends_with(".tsv") && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 40, "{}", dir.display());
    files
}

fn real(name: &str) -> PathBuf {
    paths::warc_real().join(name)
}

/// A record as the scan finds it: where its unit starts (the record, or
/// its gzip member), its type and target, and what its block shows.
#[derive(Debug)]
struct Scanned {
    at: u64,
    kind: String,
    target: String,
    /// A `response` of 2xx with an HTML `Content-Type` (or none) and a
    /// body, or a `resource` of HTML: a page.
    page: bool,
}

/// The inflated bytes of `data` and, for each byte, where its unit
/// starts: the gzip member it came from (a member that does not inflate
/// gives what came before its damage), or the raw offset.
fn units(data: &[u8]) -> (Vec<u8>, Vec<u64>) {
    if !data.starts_with(b"\x1f\x8b") {
        return (data.to_vec(), (0..data.len() as u64).collect());
    }
    let (mut out, mut at) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < data.len() {
        if !data[i..].starts_with(b"\x1f\x8b\x08") {
            i += 1;
            continue;
        }
        let mut decoder = flate2::bufread::GzDecoder::new(&data[i..]);
        let mut member = Vec::new();
        let whole = decoder.read_to_end(&mut member).is_ok();
        let used = data.len() - i - decoder.into_inner().len();
        at.extend(std::iter::repeat_n(i as u64, member.len()));
        out.extend(member);
        i += if whole { used.max(1) } else { 1 };
    }
    (out, at)
}

/// Whether `line` is an ARC header line: a URL with a scheme, then the
/// address, a 12 or 14 digit date, a content type, the length (version
/// 2 has five fields more).
fn arc_header(line: &[u8]) -> Option<(String, String, u64)> {
    let line = std::str::from_utf8(line).ok()?.trim_end();
    let fields: Vec<&str> = line.split(' ').collect();
    if !matches!(fields.len(), 5 | 10) || !fields[0].contains(':') {
        return None;
    }
    let date = fields[2];
    let digits =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(date) || !matches!(date.len(), 12 | 14) {
        return None;
    }
    let length = fields.last()?.parse().ok()?;
    Some((fields[0].to_owned(), fields[3].to_owned(), length))
}

/// The records of an archive, each block taken up to the next record's
/// first line (never by its declared length).
fn scan(data: &[u8]) -> Vec<Scanned> {
    let (text, at) = units(data);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr_lines(&text))
        .filter(|&i| {
            text[i..].starts_with(b"WARC/")
                || arc_header(line_at(&text, i)).is_some()
        })
        .collect();
    let mut records = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let record = &text[start..end];
        let unit = at.get(start).copied().unwrap_or(0);
        if let Some((url, content_type, _)) = arc_header(line_at(&text, start))
        {
            let block = &record[line_at(&text, start).len()..];
            let http = block.starts_with(b"HTTP/");
            let kind = if url.starts_with("filedesc:") {
                "warcinfo"
            } else if http {
                "response"
            } else {
                "resource"
            };
            let page = if http {
                http_page(block)
            } else {
                kind == "resource" && content_type.contains("html")
            };
            records.push(Scanned {
                at: unit,
                kind: kind.into(),
                target: url,
                page,
            });
            continue;
        }
        let Some(split) =
            find(record, b"\r\n\r\n").or_else(|| find(record, b"\n\n"))
        else {
            continue;
        };
        let head = String::from_utf8_lossy(&record[..split]);
        let field = |name: &str| {
            head.lines().find_map(|l| {
                let (n, v) = l.split_once(':')?;
                n.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().to_owned())
            })
        };
        let kind = field("WARC-Type").unwrap_or_default();
        let target = field("WARC-Target-URI").unwrap_or_default();
        let target = target.trim_matches(['<', '>']).to_owned();
        let block = &record[split..];
        let block = &block
            [block.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        let page = match kind.as_str() {
            "response" => http_page(block),
            "resource" => {
                field("Content-Type").is_some_and(|t| t.contains("html"))
            }
            _ => false,
        };
        records.push(Scanned { at: unit, kind, target, page });
    }
    records
}

/// Whether an HTTP response block is a page: 2xx but 204, HTML (or no
/// type), with a body.
fn http_page(block: &[u8]) -> bool {
    let Some(split) =
        find(block, b"\r\n\r\n").or_else(|| find(block, b"\n\n"))
    else {
        return false;
    };
    let head = String::from_utf8_lossy(&block[..split]).to_ascii_lowercase();
    let status = head.split_whitespace().nth(1).unwrap_or("");
    let content_type = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type:"))
        .map(str::trim);
    status.starts_with('2')
        && status != "204"
        && content_type.is_none_or(|t| t.contains("html"))
        && block[split..].iter().any(|b| !b.is_ascii_whitespace())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The starts of every line but the first.
fn memchr_lines(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1)
}

fn line_at(text: &[u8], i: usize) -> &[u8] {
    let end = text[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |k| i + k + 1);
    &text[i..end]
}

/// Whether the framing of the unit at `at` is broken, by the scan: a gzip
/// member there that does not inflate whole, bytes that start none, or a
/// record whose length does not end at line ends before the next record
/// or the end. In a compressed archive every record that starts in the
/// member is looked at, on the inflated stream from the member on (a
/// member boundary is no record boundary).
fn broken_at(data: &[u8], at: u64) -> bool {
    let at = at as usize;
    let gzip = data.starts_with(b"\x1f\x8b");
    let (stream, first) = if gzip {
        // The members from `at` on, as far as they inflate.
        let mut stream = Vec::new();
        let mut first = None;
        let mut rest = &data[at..];
        while rest.starts_with(b"\x1f\x8b\x08") {
            let mut decoder = flate2::bufread::GzDecoder::new(rest);
            let mut member = Vec::new();
            let whole = decoder.read_to_end(&mut member).is_ok();
            if !whole {
                if first.is_none() {
                    return true;
                }
                break;
            }
            rest = decoder.into_inner();
            stream.extend(member);
            first.get_or_insert(stream.len());
        }
        let Some(first) = first else { return true };
        (stream, first)
    } else {
        (data[at..].to_vec(), 1)
    };
    let mut i = 0;
    while i < first {
        i +=
            stream[i..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        if i >= first {
            return false;
        }
        let line = line_at(&stream, i);
        let (length, block) = if let Some((_, _, length)) = arc_header(line) {
            (length, i + line.len())
        } else if line.starts_with(b"WARC/") {
            let rest = &stream[i..];
            let split = find(rest, b"\r\n\r\n")
                .map(|k| k + 4)
                .or_else(|| find(rest, b"\n\n").map(|k| k + 2));
            let length = split.and_then(|split| {
                String::from_utf8_lossy(&rest[..split]).lines().find_map(|l| {
                    let (n, v) = l.split_once(':')?;
                    let name = n.trim().eq_ignore_ascii_case("content-length");
                    name.then(|| v.trim().parse::<u64>().ok())?
                })
            });
            match (split, length) {
                (Some(split), Some(length)) => (length, i + split),
                _ => return true,
            }
        } else {
            return true;
        };
        let end = block + length as usize;
        if end > stream.len() {
            return true;
        }
        let after = &stream[end..];
        let gap = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let next = &after[gap..];
        if !(next.is_empty()
            || next.starts_with(b"WARC/")
            || arc_header(line_at(next, 0)).is_some())
        {
            return true;
        }
        i = end;
    }
    false
}

/// The byte offsets `urlspec links` reports damage at, from its standard
/// error: `NAME: at byte N: …` (notes of pages name their target, not the
/// file, and are no damage).
fn damage(err: &str, file: &Path) -> Vec<(u64, String)> {
    let prefix = format!("urlspec: {}: at byte ", file.display());
    err.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| {
            let (n, why) = rest.split_once(": ")?;
            Some((n.parse().ok()?, why.to_owned()))
        })
        .collect()
}

/// The byte offsets of the records `urlspec links -v` says it skipped,
/// with why: `NAME: record at byte N (TYPE TARGET): skipped: REASON`.
fn skipped(err: &str, file: &Path) -> BTreeSet<u64> {
    let prefix = format!("urlspec: {}: record at byte ", file.display());
    err.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter(|rest| rest.contains("): skipped: "))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}

/// The documents of text output.
fn documents(out: &str) -> BTreeSet<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("== "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_real_archive_loses_no_page_without_a_reason() {
    let mut total_links = 0usize;
    let mut failures = Vec::new();
    for file in archives() {
        let data = std::fs::read(&file).unwrap();
        let path = file.to_str().unwrap();
        let out = run(&["links", "-v", "-j", "1", path], b"");
        assert!(matches!(code(&out), 0 | 1), "{path}: {out:?}");
        let (text, err) = (stdout(&out), stderr(&out));
        assert!(!err.contains("panicked"), "{path}: {err}");
        let docs = documents(&text);
        let damaged = damage(&err, &file);
        let skipped = skipped(&err, &file);
        // Every page is a document, or its record (its gzip member) is
        // reported damaged or skipped, with why.
        for record in scan(&data).iter().filter(|r| r.page) {
            let reported = damaged.iter().any(|(at, _)| *at == record.at)
                || skipped.contains(&record.at);
            if !docs.contains(&record.target) && !reported {
                failures.push(format!(
                    "{path}: the {} record of {} at {} is lost, with no reason",
                    record.kind, record.target, record.at
                ));
            }
        }
        // Damage only where the framing is broken.
        for (at, why) in &damaged {
            if !why.starts_with("not a WARC archive") && !broken_at(&data, *at)
            {
                failures.push(format!(
                    "{path}: damage reported at {at} ({why}), framing whole"
                ));
            }
        }
        let summary = text.lines().last().unwrap_or("");
        let links: usize = summary
            .split(", ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{path}: {summary}"));
        total_links += links;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{total_links} links in the 40 archives");
}

#[test]
fn every_real_archive_reads_the_same_on_1_2_and_4_threads() {
    for file in archives() {
        let path = file.to_str().unwrap();
        let runs: Vec<_> = ["1", "2", "4"]
            .iter()
            .map(|j| run(&["links", "-v", "-o", "json", "-j", j, path], b""))
            .collect();
        for other in &runs[1..] {
            assert_eq!(other.stdout, runs[0].stdout, "{path}");
            assert_eq!(other.stderr, runs[0].stderr, "{path}");
            assert_eq!(other.status, runs[0].status, "{path}");
        }
    }
}

// --- the cases, each on its reproducer and on its real file ---------------

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
