//! `urlspec links --threads N`: the output (standard output, standard
//! error, exit status) is byte for byte that of `--threads 1`, whatever the
//! number of threads, on a crawl, on several inputs of every kind, on a
//! damaged archive, and with the filters.
//!
//! The crawl is written here (pages, redirects, headers, content codings,
//! records of other types, one page whose output is larger than a worker
//! may hold before its turn); `URLSPEC_LINKS_CRAWL` adds an archive of
//! `urlspec-links`'s example `gen_warc`, which `.ci/run` writes (in CI,
//! `CI=1` or `URLSPEC_LINKS_CRAWL_REQUIRED=1`, its absence fails).

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Output;

use common::{code, gzip, run};
use urlspec_test_support::warc::record;

/// A fresh scratch directory of this file's tests.
fn scratch(name: &str) -> PathBuf {
    common::scratch("links_threads", name)
}

/// A page of `n` links: relative ones, absolute ones, ones that do not
/// resolve, in `a`, `img` and `link`, with an embedded base on some.
fn page(i: usize, n: usize) -> String {
    let mut html = String::from("<!doctype html><title>t</title>");
    if i % 13 == 5 {
        let _ = write!(html, "<base href=\"http://base.example/{i}/\">");
    }
    for k in 0..n {
        let _ = match k % 6 {
            0 => write!(html, "<a href=\"../p{k}/x?q={i}\">a</a>"),
            1 => write!(html, "<img src=\"img/{k}.png\">"),
            2 => write!(html, "<a href=\"https://h{k}.example/{i}#f\">b</a>"),
            3 => write!(html, "<link rel=x href=\"//cdn.example/{k}\">"),
            4 => write!(html, "<a href=\"http://[bad{k}/\">bad</a>"),
            _ => write!(html, "<p>text {k} &amp; more</p><a href=\"?k={k}\">"),
        };
    }
    html
}

/// An archive of `pages` pages as a crawler writes it (one gzip member a
/// record): a warcinfo record, a request before each response, a 301
/// before one page in 10, a Content-Location on one in 7, a gzip content
/// coding on one in 3, no Content-Type (sniffed) on one in 11, an image
/// after one in 9, and page 17 with 6,000 links.
fn crawl(pages: usize) -> Vec<u8> {
    crawl_records(pages).iter().flat_map(|r| gzip(r)).collect()
}

/// The records of [`crawl`], not compressed.
fn crawl_records(pages: usize) -> Vec<Vec<u8>> {
    let mut records =
        vec![record("warcinfo", "", b"software: links_threads test\r\n")];
    for i in 0..pages {
        let url = format!("http://site{}.example/dir/{i}/page.html", i % 7);
        if i % 10 == 3 {
            let from = format!("http://site{}.example/old/{i}", i % 7);
            let head = format!(
                "HTTP/1.1 301 Moved\r\nLocation: {url}\r\nContent-Length: 0\r\n\r\n"
            );
            records.push(record("response", &from, head.as_bytes()));
        }
        records.push(record(
            "request",
            &url,
            format!("GET /dir/{i}/page.html HTTP/1.1\r\n\r\n").as_bytes(),
        ));
        let body = page(i, if i == 17 { 6000 } else { 20 + i % 40 });
        let mut head = String::from("HTTP/1.1 200 OK\r\n");
        if i % 11 != 4 {
            head.push_str("Content-Type: text/html; charset=utf-8\r\n");
        }
        if i % 7 == 2 {
            head.push_str(
                "Content-Location: http://mirror.example/moved/\r\n",
            );
        }
        if i % 8 == 1 {
            head.push_str("Link: </style.css>; rel=preload\r\n");
        }
        let body = if i % 3 == 0 {
            head.push_str("Content-Encoding: gzip\r\n");
            gzip(body.as_bytes())
        } else {
            body.into_bytes()
        };
        head.push_str("\r\n");
        let mut block = head.into_bytes();
        block.extend_from_slice(&body);
        records.push(record("response", &url, &block));
        if i % 9 == 0 {
            let img =
                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x7fPNG";
            records.push(record(
                "response",
                &format!("{url}.png"),
                img.as_bytes(),
            ));
        }
    }
    records
}

/// Runs `urlspec links ARGS` with 1, 2 and 4 threads and checks that the
/// three runs say the same, byte for byte; the one-thread run.
fn same_on_every_thread_count(args: &[&str], stdin: &[u8]) -> Output {
    let with = |n: &str| {
        let mut all = vec!["links", "--threads", n];
        all.extend_from_slice(args);
        run(&all, stdin)
    };
    let one = with("1");
    for n in ["2", "4"] {
        let many = with(n);
        assert_eq!(code(&many), code(&one), "{args:?} --threads {n}");
        assert!(
            many.stderr == one.stderr,
            "{args:?} --threads {n}: standard error differs:\n{}\n---\n{}",
            String::from_utf8_lossy(&many.stderr),
            String::from_utf8_lossy(&one.stderr)
        );
        if many.stdout != one.stdout {
            let (a, b) = (
                String::from_utf8_lossy(&many.stdout),
                String::from_utf8_lossy(&one.stdout),
            );
            let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            panic!(
                "{args:?} --threads {n}: standard output differs (line {line:?}; \
                 {} and {} bytes)",
                many.stdout.len(),
                one.stdout.len()
            );
        }
    }
    one
}

#[test]
fn a_crawl_reads_the_same_on_every_thread_count() {
    let dir = scratch("crawl");
    let archive = dir.join("crawl.warc.gz");
    std::fs::write(&archive, crawl(120)).unwrap();
    let path = archive.to_str().unwrap();
    for how in ["text", "tsv", "json"] {
        let out = same_on_every_thread_count(
            &["-s", "rfc3986", "-o", how, path],
            b"",
        );
        assert!(out.stdout.len() > 300_000, "{how}: the crawl's output");
        if how == "json" {
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.contains(r#""base_chain":["http://site"#));
            assert!(
                text.contains(r#""base_source":"header:Content-Location""#)
            );
        }
    }
    let out = same_on_every_thread_count(&["-v", "-o", "json", path], b"");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("skipped: redirect"), "{err}");
    assert!(err.contains("120 documents"), "{err}");
    // From standard input too (no size, no progress).
    let data = std::fs::read(&archive).unwrap();
    same_on_every_thread_count(&["-o", "json"], &data);
}

#[test]
fn a_generated_crawl_reads_the_same_on_every_thread_count() {
    let ci = std::env::var("CI").unwrap_or_default().to_ascii_lowercase();
    let required = !matches!(ci.as_str(), "" | "0" | "false")
        || std::env::var("URLSPEC_LINKS_CRAWL_REQUIRED")
            .is_ok_and(|v| v == "1");
    let Some(path) = std::env::var_os("URLSPEC_LINKS_CRAWL") else {
        assert!(!required, "URLSPEC_LINKS_CRAWL: no crawl of gen_warc");
        eprintln!("URLSPEC_LINKS_CRAWL not set: gen_warc's crawl not read");
        return;
    };
    let path = path.to_str().unwrap();
    for how in ["text", "json"] {
        let out = same_on_every_thread_count(&["-o", how, path], b"");
        assert!(!out.stdout.is_empty());
    }
    same_on_every_thread_count(&["-o", "tsv", "--unique=all", path], b"");
}

#[test]
fn several_inputs_of_every_kind_read_the_same_on_every_thread_count() {
    let dir = scratch("inputs");
    let sub = dir.join("site");
    std::fs::create_dir(&sub).unwrap();
    for i in 0..12 {
        std::fs::write(sub.join(format!("p{i:02}.html")), page(i, 30 + i))
            .unwrap();
    }
    std::fs::write(sub.join("z.html.gz"), gzip(page(99, 10).as_bytes()))
        .unwrap();
    std::fs::write(sub.join("binary.bin"), b"\x00\x01\x02\x03binary").unwrap();
    let message = "From: a@h\r\nContent-Location: http://mail.example/m/\r\n\
                   Content-Type: text/html\r\n\r\n<a href=\"x\">x</a><a href=\"http://[\">";
    let mbox = format!(
        "From a@h Mon Jan  1 00:00:00 2024\n{message}\n\nFrom b@h Mon Jan  1 00:00:00 2024\n{message}\n"
    );
    std::fs::write(dir.join("m.eml"), message).unwrap();
    std::fs::write(dir.join("box.mbox"), mbox).unwrap();
    std::fs::write(dir.join("c.warc.gz"), crawl(20)).unwrap();
    std::fs::write(
        dir.join("list.tsv"),
        format!(
            "{}\thttp://listed.example/a/b\n{}\n",
            sub.join("p03.html").display(),
            dir.join("missing.html").display()
        ),
    )
    .unwrap();
    let d = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (site, eml, mbox, warc, list, missing) = (
        d("site"),
        d("m.eml"),
        d("box.mbox"),
        d("c.warc.gz"),
        d("list.tsv"),
        d("missing.html"),
    );
    let files = [&site[..], &eml, &missing, &warc, &mbox, "-"];
    for how in ["text", "tsv", "json"] {
        let mut args = vec!["-o", how, "--paths-from", &list];
        args.extend_from_slice(&files);
        let out = same_on_every_thread_count(&args, page(7, 12).as_bytes());
        assert_eq!(code(&out), 2, "a missing file");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("missing.html"), "{err}");
        assert!(err.contains("binary"), "{err}");
    }
    // A retrieval URL with an archive is a usage error of that input.
    same_on_every_thread_count(&["--url", "http://h/", &warc, &eml], b"");
}

/// The archive of `links_inputs.rs`'s damaged-record test: 20 pages, the
/// sixth with a negative Content-Length; plain, or a gzip member a record.
fn damaged() -> [Vec<u8>; 2] {
    let page = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>";
    let mut records: Vec<Vec<u8>> = (1..=20)
        .map(|i| {
            record("response", &format!("http://h/{i}/"), page.as_bytes())
        })
        .collect();
    records[5] = String::from_utf8(records[5].clone())
        .unwrap()
        .replace("Content-Length: ", "Content-Length: -")
        .into_bytes();
    let members = records.iter().flat_map(|r| gzip(r)).collect();
    [records.concat(), members]
}

#[test]
fn a_damaged_archive_reads_the_same_on_every_thread_count() {
    for archive in damaged() {
        for how in ["text", "json"] {
            let out = same_on_every_thread_count(&["-v", "-o", how], &archive);
            assert_eq!(code(&out), 1);
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(err.contains("damaged WARC record"), "{err}");
        }
    }
    // A corrupt gzip member, and bytes between members that start none.
    let mut members: Vec<Vec<u8>> =
        crawl_records(15).iter().map(|r| gzip(r)).collect();
    members[4].splice(0..0, b"garbage".iter().copied());
    let at = members[20].len() / 2;
    members[20][at..at + 20].fill(b'x');
    let out = same_on_every_thread_count(&["-o", "json"], &members.concat());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.matches("at byte").count() >= 2, "{err}");
}

#[test]
fn the_filters_read_the_same_on_every_thread_count() {
    let archive = crawl(60);
    for filter in [
        &["--unique"][..],
        &["--unique=all"],
        &["--unique=all", "--scheme", "https"],
        &["--element", "img", "--attribute", "src"],
    ] {
        for how in ["text", "json"] {
            let mut args = vec!["-o", how];
            args.extend_from_slice(filter);
            let out = same_on_every_thread_count(&args, &archive);
            assert!(!out.stdout.is_empty(), "{filter:?}");
        }
    }
}

#[test]
fn threads_must_be_a_positive_number() {
    for bad in ["0", "-1", "two"] {
        let out = run(&["links", "--threads", bad, "--sample"], b"");
        assert_eq!(code(&out), 2, "--threads {bad}");
    }
    let out = run(&["links", "-j", "3", "--sample"], b"");
    assert_eq!(code(&out), 0);
}

/// A page past the 2 MiB read whole, so read in bounded memory: `n`
/// links, a reference over 1 MiB (left out, with a warning), and its
/// `<base>` at the end.
fn long_page(n: usize) -> Vec<u8> {
    let mut html = String::from("<!doctype html><title>long</title>\n");
    for k in 0..n {
        let _ = writeln!(html, "<a href=\"p{k}/x?q={k}\">a</a><img src=i{k}>");
        if k == n / 2 {
            html.push_str("<a href=\"");
            html.push_str(&"r".repeat((1 << 20) + 10));
            html.push_str("\">too long</a>\n");
        }
    }
    html.push_str("<base href=\"http://late.example/d/\">\n");
    html.into_bytes()
}

#[test]
fn a_long_page_with_a_late_base_reads_the_same_on_every_thread_count() {
    let n = 40_000;
    let long = long_page(n);
    assert!(long.len() > 2 << 20, "{}", long.len());
    let dir = scratch("long");
    // Before and after the long page in input order: a short page and an
    // archive (read by the workers), so its place in the output shows.
    std::fs::write(dir.join("a.html"), page(1, 12)).unwrap();
    std::fs::write(dir.join("b-long.html"), &long).unwrap();
    std::fs::write(dir.join("c.warc.gz"), crawl(20)).unwrap();
    let dir = dir.to_str().unwrap();
    for args in [
        &["-o", "json", dir][..],
        &["-o", "text", dir],
        &["-o", "json", "--unique=all", dir],
    ] {
        // The short pages have links that do not resolve: status 1.
        let out = same_on_every_thread_count(args, b"");
        assert_eq!(code(&out), 1, "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.matches("longer than 1048576 bytes").count(),
            1,
            "{err}"
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let (a, long_at, c) = (
            text.find("a.html").unwrap(),
            text.find("b-long.html").unwrap(),
            text.find("site0.example/dir/0/").unwrap(),
        );
        assert!(a < long_at && long_at < c, "{args:?}: out of order");
        assert!(text.contains("http://late.example/d/p0/x?q=0"), "{args:?}");
    }
    // From standard input: spooled to a temporary file, then read the same.
    for how in ["json", "text"] {
        let out = same_on_every_thread_count(&["-o", how], &long);
        assert_eq!(code(&out), 0, "{how}");
        let text = String::from_utf8_lossy(&out.stdout);
        let last = format!("http://late.example/d/i{}", n - 1);
        assert!(text.contains("http://late.example/d/p0/x?q=0"), "{how}");
        assert!(text.contains(&last), "{how}");
        if how == "json" {
            // Two links a line, and the <base> itself.
            assert_eq!(common::json_lines(&out).len(), 2 * n + 1, "{how}");
        }
    }
}

/// A gzip member stored (level 0): its compressed bytes hold the record's
/// bytes as they are.
fn stored(data: &[u8]) -> Vec<u8> {
    let mut e =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    std::io::Write::write_all(&mut e, data).unwrap();
    e.finish().unwrap()
}

#[test]
fn members_of_every_kind_read_the_same_on_every_thread_count() {
    // Tiny members, a stored one whose compressed bytes hold a gzip
    // header, members inflating past the 2 MiB block limit (read the
    // sequential way, live), a damaged member in the middle, and bytes
    // that start no member.
    let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
    let mut members = Vec::new();
    for i in 0..200 {
        let url = format!("http://m.example/{i}/");
        let body: Vec<u8> = match i % 100 {
            7 => [
                html.as_bytes(),
                b"<a href=\"a\">\x1f\x8b\x08\x04\x01\x01\x01\x01\x02\x03",
                b"<a href=\"b\">",
            ]
            .concat(),
            20 => format!(
                "{html}{}<a href=\"late\">",
                "<p>filler</p>".repeat(200_000)
            )
            .into_bytes(),
            _ => format!("{html}<a href=\"../{i}\">").into_bytes(),
        };
        let rec = record("response", &url, &body);
        members.push(if i % 50 == 7 { stored(&rec) } else { gzip(&rec) });
    }
    let crc = members[101].len() - 8;
    members[101][crc] ^= 1;
    members[150].splice(0..0, b"garbage".iter().copied());
    let damaged_at: usize = members[..101].iter().map(Vec::len).sum();
    let archive = members.concat();
    let out = same_on_every_thread_count(&["-v", "-o", "json"], &archive);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("at byte {damaged_at}")), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("http://m.example/7/b"), "after the stored header");
    assert!(text.contains("http://m.example/120/late"), "a long member");
    assert!(text.contains("http://m.example/199"), "read to the end");
}

#[test]
fn many_archives_among_other_inputs_read_the_same_on_every_thread_count() {
    // A crawl split into small archives, as crawlers write them, with a
    // damaged archive, a missing file, an HTML page, a gzipped one, a
    // plain archive, a binary file and an empty one among them: the
    // archives after each are begun ahead of their turn.
    let dir = scratch("many");
    let mut files = Vec::new();
    let mut add = |name: &str, data: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, data).unwrap();
        files.push(path.to_str().unwrap().to_owned());
    };
    for i in 0..30 {
        add(&format!("crawl-{i:02}.warc.gz"), &crawl(1 + i % 7));
        match i {
            4 => {
                let mut members: Vec<Vec<u8>> =
                    crawl_records(12).iter().map(|r| gzip(r)).collect();
                members[3].splice(0..0, b"garbage".iter().copied());
                let at = members[9].len() / 2;
                members[9][at..at + 20].fill(b'x');
                add("damaged.warc.gz", &members.concat());
            }
            9 => add("page.html", page(3, 25).as_bytes()),
            14 => add("page.html.gz", &gzip(page(4, 25).as_bytes())),
            19 => add("plain.warc", &crawl_records(5).concat()),
            22 => add("binary.bin", b"\x00\x01\x02binary"),
            25 => add("empty.warc.gz", b""),
            _ => {}
        }
    }
    let missing = dir.join("missing.warc.gz").to_str().unwrap().to_owned();
    files.insert(7, missing);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    for extra in [
        &["-o", "json"][..],
        &["-o", "text", "-v"],
        &["-o", "tsv", "--unique=all"],
    ] {
        let mut args = extra.to_vec();
        args.extend_from_slice(&files);
        let out = same_on_every_thread_count(&args, b"");
        assert_eq!(code(&out), 2, "{extra:?}: a missing file");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("missing.warc.gz"), "{err}");
        assert!(err.contains("damaged.warc.gz"), "{err}");
        assert!(err.contains("binary"), "{err}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("site6.example"), "{extra:?}");
    }
}

#[test]
fn a_list_on_standard_input_is_read_as_its_lines_come() {
    // `--paths-from -` fed by a process that names the next file only
    // once it has seen the one before read: each input is read when its
    // line has come, not held until the lines after it come. The warning
    // of a missing file is written as soon as the next input is begun.
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;
    let dir = scratch("streamed");
    let missing = |k: usize| dir.join(format!("missing-{k}.html"));
    for threads in ["1", "2", "4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
            .args(["links", "-j", threads, "--paths-from", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the urlspec binary runs");
        let mut list = child.stdin.take().unwrap();
        let err = BufReader::new(child.stderr.take().unwrap());
        let (lines, warned) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in err.lines() {
                let _ = lines.send(line.unwrap());
            }
        });
        for k in 0..2 {
            writeln!(list, "{}", missing(k).display()).unwrap();
        }
        list.flush().unwrap();
        // The wait guards against a hang; it is no measure.
        let first = warned.recv_timeout(Duration::from_secs(60));
        drop(list);
        let out = child.wait_with_output().unwrap();
        reader.join().unwrap();
        let first = first.unwrap_or_else(|_| {
            panic!("-j {threads}: nothing read before the list ended")
        });
        assert!(first.contains("missing-0.html"), "-j {threads}: {first}");
        assert_eq!(code(&out), 2, "-j {threads}");
        let rest: Vec<String> = warned.try_iter().collect();
        assert!(rest.iter().any(|l| l.contains("missing-1.html")), "{rest:?}");
    }
}
