//! `urlspec links` inputs: directories, `--paths-from` lists, gzip and
//! mbox inputs, binary data, `--url` and `--base` checks, the records a
//! WARC reader skips or cannot read, and the summary's hint on base
//! headers the chosen spec does not read.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{code, run, stderr, stdout};
use flate2::write::GzEncoder;
use flate2::Compression;

/// A fresh directory under the test target's scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("links_inputs").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// The `url` field of each JSON line.
fn urls(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["url"].as_str().unwrap_or("").to_string()
        })
        .collect()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_directory_is_walked_in_name_order_and_gzip_html_is_read() {
    let dir = scratch("walk");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("b.html"), "<a href=\"http://h/b\">b</a>")
        .unwrap();
    std::fs::write(
        dir.join("a.html.gz"),
        gzip(b"<a href=\"http://h/a\">a</a>"),
    )
    .unwrap();
    std::fs::write(dir.join("sub/c.eml"), "From: x@h\r\nContent-Type: text/html\r\n\r\n<a href=\"http://h/c\">c</a>").unwrap();
    let out = run(&["links", "-o", "json", path(&dir)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://h/a", "http://h/b", "http://h/c"]);
}

#[test]
fn paths_from_gives_each_file_its_retrieval_url() {
    let dir = scratch("paths");
    let page = dir.join("page.html");
    std::fs::write(&page, "<a href=\"g\">g</a>").unwrap();
    let list = format!(
        "{p}\thttp://one/d/\n\n{p}\n{p}\trelative/url\n{missing}\n{p}\thttp://two/\n",
        p = path(&page),
        missing = path(&dir.join("missing.html"))
    );
    std::fs::write(dir.join("list.tsv"), &list).unwrap();
    let out = run(
        &["links", "-o", "json", "--paths-from", path(&dir.join("list.tsv"))],
        b"",
    );
    // The bad lines are reported and the others read: exit 2 (a file could
    // not be read), the links of the three good lines printed.
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://one/d/g", "", "http://two/g"]);
    let err = stderr(&out);
    assert!(
        err.contains("line 4: invalid value 'relative/url' for 'URL'"),
        "{err}"
    );
    assert!(err.contains("line 5: "), "{err}");
    // The list from standard input.
    let out = run(
        &["links", "-o", "json", "--paths-from", "-"],
        format!("{}\thttp://in/\n", path(&page)).as_bytes(),
    );
    assert_eq!(urls(&out), ["http://in/g"]);
}

#[test]
fn an_mbox_and_a_gzip_message_are_messages() {
    let mbox = "From a@h Thu Nov 26 04:00:00 2026\nContent-Location: http://one/\nContent-Type: text/html\n\n<a href=\"x\">x</a>\n\nFrom b@h Thu Nov 26 04:01:00 2026\nContent-Location: http://two/\nContent-Type: text/html\n\n<a href=\"y\">y</a>\n";
    let out = run(&["links", "-s", "rfc3986", "-o", "json"], mbox.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://one/x", "http://two/y"]);
    let out =
        run(&["links", "-s", "rfc3986", "-o", "json"], &gzip(mbox.as_bytes()));
    assert_eq!(urls(&out), ["http://one/x", "http://two/y"]);
    // A message that starts with a trace field.
    let msg = "Received: from h by h\r\nContent-Location: http://r/\r\nContent-Type: text/html\r\n\r\n<a href=\"z\">z</a>";
    let out = run(&["links", "-s", "rfc3986", "-o", "json"], msg.as_bytes());
    assert_eq!(urls(&out), ["http://r/z"]);
}

#[test]
fn binary_input_is_refused_unless_a_format_is_forced() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR<a href=\"http://h/\">";
    let out = run(&["links", "-o", "json"], png);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "urlspec: -: binary data, not a document (--format reads it anyway)\n\
         0 documents, 0 links, 0 unresolved; bases: embedded 0, header 0, retrieval 0, none 0; skipped records 0; unreadable 1\n"
    );
    let out = run(&["links", "-o", "json", "--format", "html"], png);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://h/"]);
}

/// A WARC `response` record for `target` holding `http`.
fn record(kind: &str, target: &str, http: &str) -> Vec<u8> {
    format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {target}\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

const PAGE: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>";

#[test]
fn a_damaged_warc_record_is_reported_and_the_archive_read_on() {
    let mut records: Vec<Vec<u8>> = (1..=20)
        .map(|i| record("response", &format!("http://h/{i}/"), PAGE))
        .collect();
    let offset: usize = records[..5].iter().map(Vec::len).sum();
    records[5] = String::from_utf8(records[5].clone())
        .unwrap()
        .replace("Content-Length: ", "Content-Length: -")
        .into_bytes();
    let members: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    for (archive, at) in [
        (records.concat(), offset),
        (members, { records[..5].iter().map(|r| gzip(r).len()).sum() }),
    ] {
        let out = run(&["links", "-o", "json"], &archive);
        assert_eq!(code(&out), 1);
        assert_eq!(urls(&out).len(), 19);
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!(
                "urlspec: -: at byte {at}: damaged WARC record: "
            )),
            "{err}"
        );
        assert!(err.contains("19 documents, 19 links"), "{err}");
        assert!(err.contains("unreadable 1"), "{err}");
    }
}

#[test]
fn verbose_lists_each_skipped_record() {
    let info =
        "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    let image = record(
        "response",
        "http://h/i.png",
        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n",
    );
    let archive =
        [info.as_bytes(), &image, &record("response", "http://h/", PAGE)]
            .concat();
    let out = run(&["links", "-v", "-o", "json"], &archive);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("urlspec: -: record at byte 0 (warcinfo (no target)): skipped: not_response\n"), "{err}");
    assert!(err.contains(&format!("urlspec: -: record at byte {} (response http://h/i.png): skipped: not_html\n", info.len())), "{err}");
    // Without -v, only the counts.
    let out = run(&["links", "-o", "json"], &archive);
    assert!(!stderr(&out).contains("record at byte"));
}

#[test]
fn url_must_be_absolute_and_does_not_apply_to_an_archive() {
    let out = run(&["links", "--url", "/a/b"], b"<a href=g>");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("invalid value '/a/b' for '--url <URL>'"),
        "{}",
        stderr(&out)
    );
    let archive = record("response", "http://h/", PAGE);
    let out = run(&["links", "--url", "http://x/"], &archive);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("does not apply to a WARC archive"),
        "{}",
        stderr(&out)
    );
    // A relative redirect resolves against the URL before it.
    let out = run(
        &[
            "links",
            "-o",
            "json",
            "--url",
            "http://h/a/b",
            "--redirect",
            "../c/",
        ],
        b"<a href=g>",
    );
    let v: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().next().unwrap()).unwrap();
    assert_eq!(
        v["base_chain"],
        serde_json::json!(["http://h/a/b", "http://h/c/"])
    );
    assert_eq!(v["url"], "http://h/c/g");
}

#[test]
fn base_overrides_every_layer_and_resolution_options_apply() {
    let page =
        b"<base href=\"http://embedded/x/\"><a href=\"../../../g\">g</a>";
    let out = run(
        &[
            "links",
            "-o",
            "json",
            "-s",
            "rfc2396",
            "--base",
            "http://given/a/b/",
            "--dotdot-above-root",
            "remove",
        ],
        page,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[1]["url"], "http://given/g");
    assert_eq!(lines[1]["base_source"], "given");
    assert!(stderr(&out).contains("; given base 1"), "{}", stderr(&out));
    let out = run(
        &[
            "links",
            "-o",
            "json",
            "-s",
            "rfc2396",
            "--base",
            "http://given/a/b/",
        ],
        page,
    );
    assert_eq!(urls(&out)[1], "http://given/../g");
}

#[test]
fn the_summary_names_what_would_read_an_unread_base_header() {
    // RFC 1808 reads Base, not Content-Location.
    let msg = "Content-Location: http://h/d/\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>";
    let out = run(&["links", "-s", "rfc1808"], msg.as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains(
            "note: 1 document with unresolved links had a Content-Location header that this spec does not read as a base (--spec draft96 or --base-headers all would)"
        ),
        "{}",
        stdout(&out)
    );
    let out = run(&["links", "-s", "rfc3986"], msg.as_bytes());
    assert_eq!(code(&out), 0);
    assert!(!stdout(&out).contains("note: "));
}
