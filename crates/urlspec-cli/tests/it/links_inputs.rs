//! `urlspec links` inputs: directories, `--paths-from` lists, gzip and
//! mbox inputs, binary data, `--url` and `--base` checks, the records a
//! WARC reader skips or cannot read, and the summary's hint on base
//! headers the chosen spec does not read.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{code, gzip, json_lines, run, stderr, stdout};
use urlspec_test_support::warc;

/// A fresh directory of this file's tests under the test target's scratch
/// space, holding `files` (name, content).
fn scratch(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = common::scratch("links_inputs", name);
    for (file, content) in files {
        let file = dir.join(file);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
    dir
}

/// `urlspec links --output json` with `args`, reading `input`.
fn links_json(args: &[&str], input: &[u8]) -> Output {
    run(&[&["links", "-o", "json"], args].concat(), input)
}

/// [`links_json`], which must succeed.
fn links_ok(args: &[&str], input: &[u8]) -> Output {
    let out = links_json(args, input);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    out
}

/// The `url` field of each JSON line.
fn urls(out: &Output) -> Vec<String> {
    json_lines(out)
        .iter()
        .map(|v| v["url"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Asserts that `text` holds `part`.
fn assert_has(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_directory_is_walked_in_name_order_and_gzip_html_is_read() {
    let dir = scratch(
        "walk",
        &[
            ("b.html", b"<a href=\"http://h/b\">b</a>"),
            ("a.html.gz", &gzip(b"<a href=\"http://h/a\">a</a>")),
            ("sub/c.eml", b"From: x@h\r\nContent-Type: text/html\r\n\r\n<a href=\"http://h/c\">c</a>"),
        ],
    );
    let out = links_ok(&[path(&dir)], b"");
    assert_eq!(urls(&out), ["http://h/a", "http://h/b", "http://h/c"]);
}

#[test]
fn paths_from_gives_each_file_its_retrieval_url() {
    let dir = scratch("paths", &[("page.html", b"<a href=\"g\">g</a>")]);
    let page = dir.join("page.html");
    let list = format!(
        "{p}\thttp://one/d/\n\n{p}\n{p}\trelative/url\n{missing}\n{p}\thttp://two/\n",
        p = path(&page),
        missing = path(&dir.join("missing.html"))
    );
    std::fs::write(dir.join("list.tsv"), &list).unwrap();
    let out = links_json(&["--paths-from", path(&dir.join("list.tsv"))], b"");
    // The bad lines are reported and the others read: exit 2 (a file could
    // not be read), the links of the three good lines printed.
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://one/d/g", "", "http://two/g"]);
    let err = stderr(&out);
    assert_has(&err, "line 4: invalid value 'relative/url' for 'URL'");
    assert_has(&err, "line 5: ");
    // The list from standard input.
    let out = links_json(
        &["--paths-from", "-"],
        format!("{}\thttp://in/\n", path(&page)).as_bytes(),
    );
    assert_eq!(urls(&out), ["http://in/g"]);
}

/// `urlspec links` with `args` and `stdin`, killed after a minute or once
/// it has written 1 MiB to standard error (a run that reports the same
/// error for ever): its exit code (`None`: killed) and standard error.
fn links_bounded(args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args([&["links"], args].concat())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the urlspec binary runs");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.take(1 << 20).read_to_end(&mut text);
        text
    });
    // The deadline guards against a hang; it is no measure.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if reader.is_finished() {
            // Standard error closes as the process exits: its status is
            // at hand (killing it here raced with that exit).
            break child.wait().ok().and_then(|s| s.code());
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    feeder.join().unwrap();
    let text = reader.join().unwrap();
    (status, String::from_utf8_lossy(&text).into_owned())
}

#[test]
fn a_list_that_cannot_be_read_is_reported_once() {
    // A directory opens as a file but every read of it fails: one line,
    // then the run ends, on one thread and on several.
    let dir = scratch("list-dir", &[("page.html", b"<a href=\"http://h/\">")]);
    for threads in ["1", "2"] {
        let args = ["-j", threads, "--paths-from", path(&dir)];
        let (status, err) = links_bounded(&args, b"");
        assert_eq!(
            status,
            Some(2),
            "-j {threads}: {}",
            &err[..err.len().min(500)]
        );
        assert_eq!(
            err.matches("Is a directory").count(),
            1,
            "-j {threads}: {err}"
        );
        assert_has(&err, "line 1: ");
    }
    // A line that is not UTF-8 is reported and the next one read.
    let page = dir.join("page.html");
    let mut list = b"\xff\xfe\n".to_vec();
    list.extend_from_slice(path(&page).as_bytes());
    list.push(b'\n');
    std::fs::write(dir.join("list.txt"), &list).unwrap();
    let out = links_json(&["--paths-from", path(&dir.join("list.txt"))], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(urls(&out), ["http://h/"]);
    assert_has(&stderr(&out), "line 1: ");
}

#[test]
fn a_dash_in_a_list_read_from_standard_input_is_an_error_not_a_wait() {
    // `-` would name the very stream the list is read from.
    let dir =
        scratch("list-stdin", &[("page.html", b"<a href=\"http://h/\">")]);
    let list = format!("-\n{}\n", path(&dir.join("page.html")));
    for threads in ["1", "2"] {
        let args = ["-j", threads, "-o", "json", "--paths-from", "-"];
        let (status, err) = links_bounded(&args, list.as_bytes());
        assert_eq!(status, Some(2), "-j {threads}: {err}");
        assert_has(
            &err,
            "-: line 1: `-` names standard input, which holds this list",
        );
        assert_has(&err, "1 document, 1 link");
    }
}

#[test]
fn an_mbox_and_a_gzip_message_are_messages() {
    let mbox = "From a@h Thu Nov 26 04:00:00 2026\nContent-Location: http://one/\nContent-Type: text/html\n\n<a href=\"x\">x</a>\n\nFrom b@h Thu Nov 26 04:01:00 2026\nContent-Location: http://two/\nContent-Type: text/html\n\n<a href=\"y\">y</a>\n";
    let rfc3986 = |input: &[u8]| urls(&links_ok(&["-s", "rfc3986"], input));
    assert_eq!(rfc3986(mbox.as_bytes()), ["http://one/x", "http://two/y"]);
    assert_eq!(
        rfc3986(&gzip(mbox.as_bytes())),
        ["http://one/x", "http://two/y"]
    );
    // A message that starts with a trace field.
    let msg = "Received: from h by h\r\nContent-Location: http://r/\r\nContent-Type: text/html\r\n\r\n<a href=\"z\">z</a>";
    assert_eq!(rfc3986(msg.as_bytes()), ["http://r/z"]);
}

#[test]
fn binary_input_is_refused_unless_a_format_is_forced() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR<a href=\"http://h/\">";
    let out = links_json(&[], png);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "urlspec: -: binary data, not a document (--format reads it anyway)\n\
         0 documents, 0 links, 0 unresolved; bases: embedded 0, header 0, retrieval 0, none 0; skipped records 0; unreadable 1\n"
    );
    assert_eq!(urls(&links_ok(&["--format", "html"], png)), ["http://h/"]);
}

/// A WARC record of `kind` for `target` holding `http`.
fn record(kind: &str, target: &str, http: &str) -> Vec<u8> {
    warc::record(kind, target, http.as_bytes())
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
        let out = links_json(&[], &archive);
        assert_eq!(code(&out), 1);
        assert_eq!(urls(&out).len(), 19);
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!(
                "urlspec: -: at byte {at}: damaged WARC record: "
            )),
            "{err}"
        );
        assert_has(&err, "19 documents, 19 links");
        assert_has(&err, "unreadable 1");
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
    let err = stderr(&links_ok(&["-v"], &archive));
    assert_has(&err, "urlspec: -: record at byte 0 (warcinfo (no target)): skipped: not_response\n");
    assert_has(&err, &format!("urlspec: -: record at byte {} (response http://h/i.png): skipped: not_html\n", info.len()));
    // Without -v, only the counts.
    let out = links_json(&[], &archive);
    assert!(!stderr(&out).contains("record at byte"));
}

#[test]
fn url_must_be_absolute_and_does_not_apply_to_an_archive() {
    let out = run(&["links", "--url", "/a/b"], b"<a href=g>");
    assert_eq!(code(&out), 2);
    assert_has(&stderr(&out), "invalid value '/a/b' for '--url <URL>'");
    let archive = record("response", "http://h/", PAGE);
    let out = run(&["links", "--url", "http://x/"], &archive);
    assert_eq!(code(&out), 2);
    assert_has(&stderr(&out), "does not apply to a WARC archive");
    // A relative redirect resolves against the URL before it.
    let out = links_ok(
        &["--url", "http://h/a/b", "--redirect", "../c/"],
        b"<a href=g>",
    );
    let v = &json_lines(&out)[0];
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
    let given = ["-s", "rfc2396", "--base", "http://given/a/b/"];
    let out = links_ok(
        &[&given[..], &["--dotdot-above-root", "remove"]].concat(),
        page,
    );
    let lines = json_lines(&out);
    assert_eq!(lines[1]["url"], "http://given/g");
    assert_eq!(lines[1]["base_source"], "given");
    assert_has(&stderr(&out), "; given base 1");
    assert_eq!(urls(&links_ok(&given, page))[1], "http://given/../g");
}

#[test]
fn base_keeps_the_query_in_the_page_encoding() {
    // A windows-1252 page (an attribute's query in the page's encoding, a
    // style attribute's in UTF-8) and a Shift_JIS one (日 is 0x93 0xFA).
    let pages: [(&[u8], [&str; 2]); 2] = [
        (
            b"<meta charset=windows-1252><a href=\"caf\xe9.html?q=\xe9\">a</a>\
              <p style=\"background: url(s?q=\xe9)\">",
            ["http://h/d/caf%C3%A9.html?q=%E9", "http://h/d/s?q=%C3%A9"],
        ),
        (
            b"<meta charset=shift_jis><a href=\"\x93\xfa?q=\x93\xfa\">a</a>\
              <p style=\"background: url(s?q=\x93\xfa)\">",
            ["http://h/d/%E6%97%A5?q=%93%FA", "http://h/d/s?q=%E6%97%A5"],
        ),
    ];
    for (page, expected) in pages {
        for layer in ["--url", "--base"] {
            let out = links_ok(&["-s", "whatwg", layer, "http://h/d/p"], page);
            assert_eq!(urls(&out), expected, "{layer}");
        }
    }
}

#[test]
fn a_mime_parts_encoding_is_sniffed_as_a_pages() {
    // A windows-1252 HTML part without a charset parameter, in base64
    // ("<a href=\"caf\xe9.html?q=\xe9\">"): windows-1252 by default, its
    // query in it, as a browser requests it from the same page served
    // without a charset; the part's charset, or --encoding, decide
    // otherwise.
    let part = |content_type: &str| {
        format!(
            "Content-Location: http://h/d/m.eml\r\n\
             Content-Type: multipart/alternative; boundary=b\r\n\r\n\
             --b\r\nContent-Type: {content_type}\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n\
             PGEgaHJlZj0iY2Fm6S5odG1sP3E96SI+\r\n--b--\r\n"
        )
    };
    let cases = [
        (
            part("text/html"),
            &[][..],
            "windows-1252",
            "http://h/d/caf%C3%A9.html?q=%E9",
        ),
        (
            part("text/html; charset=iso-8859-7"),
            &[],
            "ISO-8859-7",
            "http://h/d/caf%CE%B9.html?q=%E9",
        ),
        (
            part("text/html"),
            &["--encoding", "koi8-r"],
            "KOI8-R",
            "http://h/d/caf%D0%98.html?q=%E9",
        ),
    ];
    for (msg, args, encoding, url) in cases {
        let out =
            links_ok(&[&["-s", "whatwg"], args].concat(), msg.as_bytes());
        let lines = json_lines(&out);
        assert_eq!(lines[0]["encoding"], encoding, "{msg}");
        assert_eq!(lines[0]["url"], url, "{msg}");
    }
}

#[test]
fn the_summary_names_what_would_read_an_unread_base_header() {
    // RFC 1808 reads Base, not Content-Location.
    let msg = "Content-Location: http://h/d/\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>";
    let out = run(&["links", "-s", "rfc1808"], msg.as_bytes());
    assert_eq!(code(&out), 1);
    assert_has(
        &stdout(&out),
        "note: 1 document with unresolved links had a Content-Location header that this spec does not read as a base (--spec draft96 or --base-headers all would)",
    );
    let out = run(&["links", "-s", "rfc3986"], msg.as_bytes());
    assert_eq!(code(&out), 0);
    assert!(!stdout(&out).contains("note: "));
}

#[test]
fn a_multipart_body_without_its_closing_boundary_counts_as_unreadable() {
    let open = "Content-Location: http://h/d/\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n\
                --b\r\nContent-Type: text/html\r\n\r\n<a href=\"one\">1</a>\r\n\
                --b\r\nContent-Type: text/html\r\n\r\n<a href=\"two\">2</a>\r\n";
    let note = "the multipart body ends without its closing boundary; \
                this last part was read to the end of the message";
    // Every link is printed, the last part's too, but the part was read
    // only in part: a warning, `unreadable 1` and exit status 1.
    let out = links_json(&["-s", "rfc3986"], open.as_bytes());
    assert_eq!(code(&out), 1);
    assert_eq!(urls(&out), ["http://h/d/one", "http://h/d/two"]);
    assert_eq!(
        stderr(&out),
        format!(
            "urlspec: -#2: {note}\n\
             2 documents, 2 links, 0 unresolved; bases: embedded 0, header 2, retrieval 0, none 0; skipped records 0; unreadable 1\n"
        )
    );
    // As text: a note under the last part, the same summary.
    let out = run(&["links", "-s", "rfc3986"], open.as_bytes());
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_has(&text, &format!("   note: {note}\n"));
    assert_has(&text, "; skipped records 0; unreadable 1\n");
    // Closed, the same message is read whole: exit 0.
    let closed = format!("{open}--b--\r\n");
    let out = links_ok(&["-s", "rfc3986"], closed.as_bytes());
    assert_eq!(urls(&out), ["http://h/d/one", "http://h/d/two"]);
    assert!(!stderr(&out).contains("unreadable"), "{}", stderr(&out));
}
