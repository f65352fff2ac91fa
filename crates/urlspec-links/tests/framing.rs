//! How records are told apart in archives as other writers write them:
//! the line ends after a block, a `Content-Length` short of its data or
//! past it, a record split over two gzip members, damage at the very
//! start, and ARC files (the Internet Archive's format before WARC). Each
//! archive is read the sequential way and with its members inflated
//! ahead, which must agree.

use std::io::{Cursor, Write};

use urlspec::Spec;
use urlspec_links::{warc, Context, Format};
use urlspec_test_support::warc::Record;

/// A page whose one link is `href`.
fn page(href: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\
         <!doctype html><a href=\"{href}\">n</a>"
    )
    .into_bytes()
}

/// A response record for `target` holding `page(href)`, without the two
/// CRLFs that end it.
fn response(target: &str, href: &str) -> Vec<u8> {
    let mut r = Record::new("response", &page(href))
        .header("WARC-Target-URI", target)
        .bytes();
    r.truncate(r.len() - 4);
    r
}

fn warcinfo() -> Vec<u8> {
    Record::new("warcinfo", b"software: test\r\n").bytes()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Each item of the archive as text: a document's URLs, or an error;
/// read the sequential way and ahead, which must agree.
fn read(archive: &[u8]) -> Vec<String> {
    let once = |ahead: bool| {
        let mut docs = warc::Documents::new(
            Cursor::new(archive.to_vec()),
            Context::new(Spec::Rfc3986),
        );
        if ahead {
            docs.inflate_ahead();
        }
        let mut seen = Vec::new();
        for item in &mut docs {
            seen.push(match item {
                Ok(doc) => {
                    let urls: Vec<String> = doc
                        .links
                        .iter()
                        .map(|l| {
                            l.url.clone().unwrap_or_else(|e| e.to_string())
                        })
                        .collect();
                    let problems: Vec<String> =
                        doc.problems.iter().map(ToString::to_string).collect();
                    format!("{} {urls:?} {problems:?}", doc.name)
                }
                Err(e) => format!("error {e}"),
            });
        }
        seen
    };
    let sequential = once(false);
    assert_eq!(once(true), sequential, "ahead and sequential differ");
    sequential
}

#[test]
fn any_line_ends_end_a_block() {
    // Two CRLFs, one, none, LF alone, CR CR LF, blank lines between.
    for end in [
        "\r\n\r\n",
        "\r\n",
        "",
        "\n\n",
        "\n",
        "\r\r\n\r\r\n",
        "\r\n\r\n\r\n \r\n",
    ] {
        let mut archive = Vec::new();
        for (i, target) in ["http://h/a", "http://h/b"].iter().enumerate() {
            archive.extend(response(target, &format!("x{i}")));
            archive.extend_from_slice(end.as_bytes());
        }
        let seen = read(&archive);
        assert_eq!(
            seen,
            [
                "http://h/a [\"http://h/x0\"] []",
                "http://h/b [\"http://h/x1\"] []"
            ],
            "{end:?}"
        );
    }
}

#[test]
fn a_header_field_not_in_utf8_is_read_with_replacement_characters() {
    // A target URI with a Latin-1 byte, and a field name with one: the
    // record is read, each such byte taken as U+FFFD.
    let valid = response("http://h/caf\u{e9}", "x");
    let mut record = Vec::new();
    for line in valid.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b"WARC-Target-URI") {
            record.extend_from_slice(b"WARC-Target-URI: http://h/caf\xe9\r\n");
            record.extend_from_slice(b"X-Caf\xe9: 1\r\n");
        } else {
            record.extend_from_slice(line);
        }
    }
    record.extend_from_slice(b"\r\n\r\n");
    let mut archive = record.clone();
    archive.extend_from_slice(&valid);
    archive.extend_from_slice(b"\r\n\r\n");
    assert_eq!(
        read(&archive),
        [
            "http://h/caf\u{fffd} [\"http://h/x\"] []",
            "http://h/caf\u{e9} [\"http://h/x\"] []",
        ]
    );
}

#[test]
fn a_length_short_of_its_data_keeps_the_record_and_says_so() {
    // The block's last byte left out: the record is read as its length
    // says, and the byte after it is reported as damage.
    let block = page("x");
    let length = (block.len() - 2).to_string();
    let short = Record::new("response", &block)
        .header("WARC-Target-URI", "http://h/a")
        .content_length(&length);
    let mut archive = short.bytes();
    archive.extend(response("http://h/b", "y"));
    let seen = read(&archive);
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(seen[0].starts_with("http://h/a [\"http://h/x\"]"), "{seen:?}");
    assert_eq!(
        seen[1],
        // The two bytes and the line ends after them.
        "error at byte 0: damaged record: its block is followed by 6 bytes \
         that are no record (its length short?); it was read as its length says"
    );
    assert!(seen[2].starts_with("http://h/b [\"http://h/y\"]"), "{seen:?}");
}

#[test]
fn a_length_past_its_data_loses_only_its_record() {
    // The first record's length runs 30 bytes into the second: the first
    // is damaged, the second read from its own start.
    let first = page("x");
    let length = (first.len() + 30).to_string();
    let long = Record::new("response", &first)
        .header("WARC-Target-URI", "http://h/a")
        .content_length(&length);
    let mut archive = long.bytes();
    archive.truncate(archive.len() - 4);
    archive.extend_from_slice(b"\r\n\r\n");
    let second_at = archive.len();
    archive.extend(response("http://h/b", "y"));
    let seen = read(&archive);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(
        seen[0],
        "error at byte 0: damaged WARC record: the block runs into the next \
         record (Content-Length too long?)"
    );
    assert!(seen[1].starts_with("http://h/b [\"http://h/y\"]"), "{seen:?}");
    assert!(second_at > 0);
}

#[test]
fn a_record_split_over_two_gzip_members_is_read_whole() {
    // warcio's example-wrong-chunks: one record, two members, the cut in
    // its block; then another record in the second member, and cuts in
    // the header and in the version line.
    let record = [response("http://h/a", "x"), b"\r\n\r\n".to_vec()].concat();
    let next = [response("http://h/b", "y"), b"\r\n\r\n".to_vec()].concat();
    for cut in [3, 20, record.len() - 10, record.len() - 2] {
        let first = gzip(&record[..cut]);
        let archive =
            [first.clone(), gzip(&[&record[cut..], &next[..]].concat())]
                .concat();
        let seen = read(&archive);
        assert_eq!(
            seen,
            [
                "http://h/a [\"http://h/x\"] []".to_string(),
                "http://h/b [\"http://h/y\"] []".to_string(),
            ],
            "cut at {cut}"
        );
    }
    // A member that ends inside a record's block, followed by one that
    // starts a record: the first is read as far as it goes (its link's
    // tag is cut), and said to be cut short where it starts.
    let cut = record.len() - 10;
    let first = gzip(&record[..cut]);
    let archive = [first.clone(), gzip(&next)].concat();
    let short = "http://h/a [] [\"at byte 0: record cut short: Content-Length";
    let seen = read(&archive);
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen[0].starts_with(short), "{seen:?}");
    assert!(seen[0].ends_with("the links of those were read\"]"), "{seen:?}");
    assert!(seen[1].starts_with("http://h/b "), "{seen:?}");
    // ... or by the end of the input.
    let seen = read(&first);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].starts_with(short), "{seen:?}");
    // Cut in its header, it is damaged.
    let seen = read(&gzip(&record[..20]));
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        seen[0].starts_with("error at byte 0: WARC record cut"),
        "{seen:?}"
    );
}

#[test]
fn damage_at_the_very_start_is_read_past() {
    let good = [response("http://h/a", "x"), b"\r\n\r\n".to_vec()].concat();
    // A damaged version line, plain.
    let mut info = warcinfo();
    info[..4].copy_from_slice(b"WARX");
    let seen = read(&[info.clone(), good.clone()].concat());
    assert_eq!(
        seen,
        [
            "error at byte 0: damaged WARC record: no WARC/ version line",
            "http://h/a [\"http://h/x\"] []"
        ]
    );
    // A first gzip member that does not inflate.
    let mut bad = gzip(&warcinfo());
    bad[10] |= 0x06;
    let seen = read(&[bad, gzip(&good)].concat());
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen[0].starts_with("error at byte 0: damaged gzip member"),
        "{seen:?}"
    );
    assert_eq!(seen[1], "http://h/a [\"http://h/x\"] []");
    // No record anywhere: no archive, and only that is said.
    for data in
        [&b"<html><a href=g>"[..], b"WARX/1.0\r\n\r\n", &gzip(b"<html>")]
    {
        assert_eq!(
            read(data),
            ["error at byte 0: not a WARC archive, nor an ARC one (no record starts in it)"],
            "{data:?}"
        );
    }
}

#[test]
fn a_byte_order_mark_before_the_first_record_is_read_past() {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let good = [response("http://h/a", "x"), b"\r\n\r\n".to_vec()].concat();
    let page = "http://h/a [\"http://h/x\"] []";
    let marked = [BOM, &good].concat();
    for data in
        [marked.clone(), gzip(&marked), [gzip(&marked), gzip(&good)].concat()]
    {
        assert_eq!(Format::detect(&data), Format::Warc);
        let seen = read(&data);
        assert!(
            !seen.is_empty() && seen.iter().all(|s| s == page),
            "{seen:?}"
        );
    }
    // The first record starts after the mark: damage in it is at byte 3.
    let mut info = warcinfo();
    info[..4].copy_from_slice(b"WARX");
    assert_eq!(
        read(&[BOM, &info, &good].concat()),
        ["error at byte 3: damaged WARC record: no WARC/ version line", page]
    );
    // An ARC file too.
    assert_eq!(
        read(&[BOM, &arc(false)].concat()),
        ["http://h.example/d/p [\"http://h.example/d/next.html\"] []"]
    );
    // Before a later record, the mark is damage, as any other bytes would
    // be: that record is lost.
    let damage = format!(
        "error at byte {}: damaged WARC record: no WARC/ version line",
        good.len()
    );
    assert_eq!(
        read(&[good.clone(), BOM.to_vec(), good].concat()),
        [page, &damage]
    );
    // Two marks: the second is no record start.
    assert_eq!(
        read(&[BOM, BOM, b"WARC/1.0\r\n\r\n"].concat()),
        ["error at byte 0: not a WARC archive, nor an ARC one (no record starts in it)"]
    );
}

/// An ARC v1 file: its `filedesc` record, an HTTP response, a DNS record
/// (one record per gzip member when `gzipped`).
fn arc(gzipped: bool) -> Vec<u8> {
    let head = b"1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n";
    let body = page("next.html");
    let dns = b"20080430204825\nh.example.\t589\tIN\tA\t192.0.2.1\n";
    let records = [
        [
            format!(
                "filedesc://x.arc 0.0.0.0 20080430204825 text/plain {}\n",
                head.len()
            )
            .as_bytes(),
            head,
            b"\n",
        ]
        .concat(),
        [
            format!(
                "http://h.example/d/p 192.0.2.1 20080430204826 text/html {}\n",
                body.len()
            )
            .as_bytes(),
            &body,
            b"\n",
        ]
        .concat(),
        [
            format!(
                "dns:h.example 192.0.2.1 20080430204826 text/dns {}\n",
                dns.len()
            )
            .as_bytes(),
            dns,
            b"\n",
        ]
        .concat(),
    ];
    if gzipped {
        records.iter().flat_map(|r| gzip(r)).collect()
    } else {
        records.concat()
    }
}

#[test]
fn arc_files_are_archives() {
    for gzipped in [false, true] {
        let data = arc(gzipped);
        assert_eq!(
            Format::of_input(&data[..data.len().min(1024)], "-").format,
            Some(Format::Warc)
        );
        let mut docs = warc::Documents::new(
            Cursor::new(data),
            Context::new(Spec::Rfc3986),
        );
        docs.log_skipped();
        let pages: Vec<_> = (&mut docs).map(Result::unwrap).collect();
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].name, "http://h.example/d/p");
        assert_eq!(
            pages[0].links[0].url.as_deref(),
            Ok("http://h.example/d/next.html")
        );
        let skipped: Vec<_> = docs
            .take_skipped()
            .iter()
            .map(|s| {
                (
                    s.kind.clone(),
                    s.target.clone().unwrap_or_default(),
                    s.reason.name(),
                )
            })
            .collect();
        assert_eq!(
            skipped,
            [
                ("warcinfo".into(), "filedesc://x.arc".into(), "not_response"),
                ("resource".into(), "dns:h.example".into(), "not_html"),
            ]
        );
    }
    // Version 2's header lines: ten fields, the length last.
    let body = page("v2.html");
    let head = b"2 0 InternetArchive\n";
    let v2 = [
        format!("filedesc://x.arc 0.0.0.0 20050614070144 text/plain 200 - - 0 x.arc {}\n", head.len()).into_bytes(),
        head.to_vec(),
        b"\n".to_vec(),
        format!("http://h/p 192.0.2.1 20050614070159 text/html 200 ABC - 100 x.arc {}\n", body.len()).into_bytes(),
        body,
        b"\n".to_vec(),
    ]
    .concat();
    assert_eq!(read(&v2), ["http://h/p [\"http://h/v2.html\"] []"]);
    // A damaged header line between two records: read past, to the next.
    let mut damaged = arc(false);
    let at = damaged.windows(8).position(|w| w == b"http://h").unwrap();
    damaged[at + 42] = b'x';
    let mut docs = warc::Documents::new(
        Cursor::new(damaged),
        Context::new(Spec::Rfc3986),
    );
    docs.log_skipped();
    let seen: Vec<String> = (&mut docs)
        .map(|item| item.map_or_else(|e| e.to_string(), |d| d.name))
        .collect();
    assert_eq!(
        seen,
        [format!("at byte {at}: damaged WARC record: no ARC record header")]
    );
    let skipped: Vec<_> = docs
        .take_skipped()
        .iter()
        .map(|s| s.target.clone().unwrap())
        .collect();
    assert_eq!(skipped, ["filedesc://x.arc", "dns:h.example"]);
}
