//! `urlspec links`: arguments, output formats and exit statuses.

use crate::common;

use std::process::{Command, Output, Stdio};

use common::cli::{run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

/// A fixture of `testdata/links/`.
fn fixture(name: &str) -> String {
    format!("{}/../../testdata/links/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `urlspec` in `dir` (to show that nothing depends on the current
/// directory).
fn run_in(dir: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the urlspec binary runs")
}

/// The keys of a `links --output json` line, in order.
const LINK_KEYS: [&str; 13] = [
    "document",
    "element",
    "attribute",
    "reference",
    "url",
    "base",
    "base_source",
    "error",
    "offset",
    "base_chain",
    "containers",
    "encoding",
    "context",
];

#[test]
fn links_without_files_reads_standard_input_when_it_is_no_terminal() {
    // Piped: the pipe is read, no `-` needed.
    let out =
        run(&["links", "--url", "http://h/d/"], Some(b"<a href=g>g</a>"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out)
        .starts_with("== -\n   base: http://h/d/  [retrieval URL]\n"));
    assert!(stdout(&out).contains("->  http://h/d/g\n"));
    // --sample reads the sample whatever standard input is, and takes no
    // FILE.
    let out = run(&["links", "--sample", "page.html"], None);
    assert_eq!(code(&out), 2);
}

#[test]
fn links_sample_runs_from_anywhere() {
    let out = run_in(env!("CARGO_TARGET_TMPDIR"), &["links", "--sample"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("== examples/sample.eml (headers)\n"), "{text}");
    // Every layer and the containers are shown.
    for line in [
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]\n",
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header; via multipart/mixed part 1]\n",
        "   base: http://www.ics.uci.edu/Test/a/b/c  [<BASE href> in the document]\n",
        "   base: http://www.example.net/1995/  [Base header; via multipart/alternative part 3.2.2]\n",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
    assert!(text.contains("  ../x  "));
    assert!(text.contains("->  http://www.ics.uci.edu/Test/a/x\n"));
    assert!(text.ends_with(
        "\n5 documents, 12 links, 0 unresolved; bases: embedded 1, header 4, \
         retrieval 0, none 0; skipped records 0\n"
    ));
}

#[test]
fn links_sample_has_another_base_under_each_spec() {
    let base_of_message = |spec: &str| {
        let out = run(&["links", "--sample", "--spec", spec], None);
        stdout(&out).lines().nth(1).unwrap().to_owned()
    };
    assert_eq!(
        base_of_message("rfc1808"),
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]"
    );
    assert_eq!(
        base_of_message("draft96"),
        "   base: http://www.w3.org/Addressing/  [Content-Base header]"
    );
    assert_eq!(
        base_of_message("rfc3986"),
        "   base: http://archive.example.org/1996/06/  [Content-Location header]"
    );
    // RFC 1630 knows no base header: only the embedded base is left, and
    // the other links are unresolved (status 1) unless --url gives one.
    let out = run(&["links", "--sample", "--spec", "rfc1630"], None);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("   base: (none)  [no base]\n"));
    let out = run(
        &["links", "--sample", "--spec", "rfc1630", "--url", "http://r/m/"],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("   base: http://r/m/  [retrieval URL]\n"));
    // --base-headers all: Base, then Content-Base, then Content-Location.
    let out = run(
        &["links", "--sample", "--spec", "rfc3986", "--base-headers", "all"],
        None,
    );
    assert!(stdout(&out).contains(
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]\n"
    ));
}

#[test]
fn links_json_has_the_keys_in_order() {
    let out = run(
        &["links", "--sample", "--spec", "draft96", "--output", "json"],
        None,
    );
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 12);
    for line in text.lines() {
        assert_eq!(top_level_keys(line), LINK_KEYS, "{line}");
    }
    let v = json_lines(&out);
    assert_eq!(v[0]["document"], "examples/sample.eml (headers)");
    assert_eq!(v[0]["element"], "header");
    assert_eq!(v[0]["attribute"], "X-Archived-At");
    assert_eq!(v[0]["reference"], "msg00011.html");
    assert_eq!(v[0]["url"], "http://www.w3.org/Addressing/msg00011.html");
    assert_eq!(v[0]["base"], "http://www.w3.org/Addressing/");
    assert_eq!(v[0]["base_source"], "header:Content-Base");
    assert!(v[0]["error"].is_null() && v[0]["base_chain"].is_null());
    assert!(v[0]["offset"].is_u64());
    let embedded = v
        .iter()
        .find(|o| o["reference"] == "../x" && o["base_source"] == "embedded");
    assert_eq!(embedded.unwrap()["url"], "http://www.ics.uci.edu/Test/a/x");
    assert!(v.iter().any(|o| o["base_source"] == "header:Content-Location"));
    // The summary goes to standard error.
    assert!(
        stderr(&out).starts_with("5 documents, 12 links"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn links_encoding_and_context() {
    let page = b"<a href=\"caf\xe9?q=\xe9\">x</a><noscript><img src=n.gif></noscript>";
    let args = ["links", "-s", "whatwg", "--url", "http://h/", "-o", "json"];
    let json = |extra: &[&str]| {
        let all: Vec<&str> = args.iter().chain(extra).copied().collect();
        let out = run(&all, Some(page));
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        json_lines(&out)
    };
    // Nothing declared: windows-1252, the query in it, as a browser.
    let v = json(&["-"]);
    assert_eq!(v[0]["url"], "http://h/caf%C3%A9?q=%E9");
    assert_eq!(v[0]["encoding"], "windows-1252");
    assert!(v[0]["context"].is_null());
    assert_eq!(
        (&v[1]["url"], &v[1]["context"]),
        (&"http://h/n.gif".into(), &"noscript".into())
    );
    // An encoding for every page; the detector's guess.
    let v = json(&["--encoding", "iso-8859-7", "-"]);
    assert_eq!(v[0]["url"], "http://h/caf%CE%B9?q=%E9");
    assert_eq!(v[0]["encoding"], "ISO-8859-7");
    let v = json(&["--encoding", "detect", "-"]);
    assert!(v[0]["encoding"].is_string());
    // Leaving out what a browser running scripts does not see.
    let v = json(&["--exclude-context", "noscript,template", "-"]);
    assert_eq!(v.len(), 1);
    let out = run(&["links", "--encoding", "klingon"], None);
    assert_eq!(code(&out), 2);
    let out = run(&["links", "--exclude-context", "head"], None);
    assert_eq!(code(&out), 2);
}

#[test]
fn links_json_error_and_null_base() {
    let page = b"<a href=\"g\">g</a><a href=\"http://a/b\">b</a>";
    let out = run(&["links", "--output", "json", "-"], Some(page));
    assert_eq!(code(&out), 1);
    let v = json_lines(&out);
    assert_eq!(v[0]["document"], "-");
    assert!(v[0]["url"].is_null() && v[0]["base"].is_null());
    assert_eq!(v[0]["base_source"], "none");
    assert_eq!(v[0]["error"], "relative reference and no base URL");
    assert_eq!(v[1]["url"], "http://a/b");
    assert!(v[1]["error"].is_null());
}

#[test]
fn links_tsv_has_a_header_row_and_eleven_columns() {
    let out = run(&["links", "--sample", "--output", "tsv"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror\tencoding\tcontext")
    );
    let rows: Vec<Vec<&str>> =
        lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r.len() == 11));
    assert_eq!(
        rows[0],
        [
            "examples/sample.eml (headers)",
            "header",
            "X-Archived-At",
            rows[0][3],
            "msg00011.html",
            "http://www.ics.uci.edu/Test/a/b/msg00011.html",
            "http://www.ics.uci.edu/Test/a/b/c",
            "header:Base",
            "",
            "",
            ""
        ]
    );
    assert!(rows[0][3].parse::<usize>().is_ok());
    assert!(stderr(&out).contains("12 links"));
}

#[test]
fn links_html_with_url_and_redirects() {
    let file = fixture("redirected.html");
    let out = run(
        &[
            "links",
            "--url",
            "http://example.com/a",
            "--redirect",
            "https://example.com/a",
            "--redirect",
            "https://www.example.com/docs/a/",
            &file,
        ],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains(
        "   base: https://www.example.com/docs/a/  [retrieval URL after 2 redirects]\n   \
         redirects: http://example.com/a -> https://example.com/a -> https://www.example.com/docs/a/\n"
    ), "{text}");
    assert!(text.contains("->  https://www.example.com/docs/css/site.css\n"));
    assert!(text.contains(
        "->  https://www.example.com/docs/a/sub/page.html?x=1&y=2#top\n"
    ));
    assert!(
        text.contains("->  https://www.example.com/docs/a/img/photo-3x.jpg\n")
    );
    // The chain in JSON.
    let out = run(
        &[
            "links",
            "-o",
            "json",
            "--url",
            "http://h/a",
            "--redirect",
            "http://h/b/",
            &file,
        ],
        None,
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["base"], "http://h/b/");
    assert_eq!(v["base_source"], "retrieval");
    assert_eq!(
        v["base_chain"],
        serde_json::json!(["http://h/a", "http://h/b/"])
    );
    // One URL, no redirect: no chain.
    let out =
        run(&["links", "-o", "json", "--url", "http://h/a", &file], None);
    assert!(json_lines(&out)[0]["base_chain"].is_null());
    // Without a retrieval URL the relative links are unresolved.
    let out = run(&["links", &file], None);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out)
        .contains("->  error: relative reference and no base URL\n"));
}

#[test]
fn links_appendix_d_whatever_the_url() {
    let file = fixture("appendix-d.html");
    for spec in ["rfc1630", "rfc1808", "draft96", "rfc2396", "rfc3986"] {
        let args = ["links", "-s", spec, "--url", "http://x/y", "-o", "json"];
        let out = run(&[&args[..], &[&file]].concat(), None);
        assert_eq!(code(&out), 0);
        let v = json_lines(&out);
        assert_eq!(v[1]["reference"], "../x");
        assert_eq!(v[1]["url"], "http://www.ics.uci.edu/Test/a/x", "{spec}");
        assert_eq!(v[1]["base_source"], "embedded");
    }
}

#[test]
fn links_warc_file_follows_redirects_and_skips_the_rest() {
    let out = run(&["links", &fixture("crawl.warc.gz")], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(
        "== https://www.example.com/final/page.html\n   \
         base: https://www.example.com/final/page.html  [retrieval URL after 2 redirects]\n   \
         redirects: http://example.com/old -> http://example.com/new -> https://www.example.com/final/page.html\n"
    ), "{text}");
    assert!(text.contains("->  https://www.example.com/up\n"));
    assert!(text.ends_with(
        "3 documents, 9 links, 0 unresolved; bases: embedded 1, header 0, \
         retrieval 2, none 0; skipped records 5\n"
    ), "{text}");
    // RFC 3986 reads the relative Content-Location of the HTTP response.
    let out = run(
        &["links", "-s", "rfc3986", "-o", "json", &fixture("crawl.warc.gz")],
        None,
    );
    let v = json_lines(&out);
    let x = v.iter().find(|o| o["reference"] == "x").unwrap();
    assert_eq!(x["base"], "http://example.com/dir/index.en.html");
    assert_eq!(x["base_source"], "header:Content-Location");
    let g = v.iter().find(|o| o["reference"] == "g").unwrap();
    assert_eq!(
        g["base_chain"],
        serde_json::json!([
            "http://example.com/old",
            "http://example.com/new",
            "https://www.example.com/final/page.html"
        ])
    );
}

#[test]
fn links_reads_standard_input_in_any_format() {
    // A WARC archive, compressed, on standard input.
    let warc = std::fs::read(fixture("crawl.warc.gz")).unwrap();
    let out = run(&["links", "-"], Some(&warc));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("skipped records 5"));
    // An HTML page: named `-`.
    let page = std::fs::read(fixture("appendix-d.html")).unwrap();
    let out = run(&["links", "-o", "json", "-"], Some(&page));
    assert_eq!(json_lines(&out)[1]["document"], "-");
    assert_eq!(json_lines(&out)[1]["url"], "http://www.ics.uci.edu/Test/a/x");
}

#[test]
fn links_format_overrides_detection() {
    // The first line is a mail header: detected as a message, whose body
    // is plain text and holds no document.
    let page = b"Subject: this page starts like a mail\n<a href=\"http://a/b\">b</a>\n";
    let out = run(&["links", "-"], Some(page));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).starts_with("0 documents"), "{}", stdout(&out));
    let out = run(&["links", "--format", "html", "-"], Some(page));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("a@href  http://a/b  ->  http://a/b\n"));
    // And the other way: an HTML file read as a WARC archive is unreadable.
    let out =
        run(&["links", "--format", "warc", &fixture("appendix-d.html")], None);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stderr(&out).contains("appendix-d.html"), "{}", stderr(&out));
}

#[test]
fn links_exit_statuses() {
    // 2: a missing file, after the other files were read.
    let out = run(
        &["links", "no-such-file.html", &fixture("appendix-d.html")],
        None,
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no-such-file.html"));
    assert!(stdout(&out).contains("1 document, 2 links"));
    // 2: usage errors.
    for args in [
        &["links", "--redirect", "http://h/"][..],
        &["links", "--format", "pdf"],
        &["links", "--output", "xml"],
        &["links", "--base-headers", "some"],
        &["links", "--spec", "rfc9999"],
    ] {
        let out = run(args, None);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // 1: an unresolved link.
    assert_eq!(code(&run(&["links", "-"], Some(b"<a href=g>g</a>"))), 1);
    // 0: everything resolved.
    assert_eq!(
        code(&run(
            &["links", "--url", "http://h/", "-"],
            Some(b"<a href=g>g</a>")
        )),
        0
    );
}

#[test]
fn links_strict_base_ignores_a_relative_base_href() {
    let page = b"<base href=\"../b/\"><a href=\"g\">g</a>";
    let args = ["links", "--url", "http://h/a/x", "-o", "json", "-"];
    let out = run(&args, Some(page));
    let v = json_lines(&out);
    assert_eq!(v[1]["url"], "http://h/b/g");
    assert_eq!(v[1]["base_source"], "embedded");
    let mut strict = args.to_vec();
    strict.insert(1, "--strict-base");
    let out = run(&strict, Some(page));
    let v = json_lines(&out);
    assert_eq!(v[1]["url"], "http://h/a/g");
    assert_eq!(v[1]["base_source"], "retrieval");
    // In text, the reason is a note.
    let out = run(
        &["links", "--strict-base", "--url", "http://h/a/x", "-"],
        Some(page),
    );
    assert!(
        stdout(&out).contains("   note: BASE href \"../b/\" ignored"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn links_help_teaches_with_examples() {
    let out = run(&["links", "--help"], None);
    assert_eq!(code(&out), 0);
    let help = stdout(&out);
    for needle in [
        "embedded",
        "header",
        "container",
        "retrieval",
        "none",
        "Examples:",
        "urlspec links --sample\n",
        "--paths-from",
        "--unique",
        "containers",
        "--url",
        "--redirect",
        "--format",
        "--output",
        "--base-headers",
        "--strict-base",
        "base_chain",
        "Exit status",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
    let top = stdout(&run(&["--help"], None));
    assert!(top.contains("links"));
}
