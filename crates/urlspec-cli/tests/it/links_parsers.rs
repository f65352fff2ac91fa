//! `urlspec links --parsers`: each resolved URL read with real parsers'
//! profiles too, the links whose host they read differently marked (a
//! `host_split` member in JSON, a last column in TSV, a line in text)
//! and counted in the summary, alike on any number of threads.

use crate::common;

use std::fmt::Write as _;

use common::{code, json_lines, run, stderr, stdout};
use serde_json::{json, Value};
use urlspec_test_support::warc::record;

/// A page whose first link urllib reads with the host after the `@` and
/// urllib3 with the one before the `\`, and whose second every parser
/// reads alike.
const PAGE: &[u8] =
    b"<a href='http://allowed.example\\@evil.example/'>x</a><a href=/ok>y</a>";

const PARSERS: &str = "python-urllib,python-urllib3";

fn links(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut all = vec!["links", "--url", "http://h/"];
    all.extend_from_slice(args);
    run(&all, stdin)
}

#[test]
fn json_lines_carry_each_parsers_host_where_they_differ() {
    let out = links(&["--parsers", PARSERS, "-o", "json"], PAGE);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(
        lines[0]["host_split"],
        json!({"python-urllib": "evil.example", "python-urllib3": "allowed.example"})
    );
    // The member is there, null, where they agree.
    assert_eq!(lines[1].get("host_split"), Some(&Value::Null));
    assert!(stderr(&out).contains("; hosts split by parsers 1"));
    // Without --parsers, no member and no count.
    let out = links(&["-o", "json"], PAGE);
    assert!(json_lines(&out).iter().all(|l| l.get("host_split").is_none()));
    assert!(!stderr(&out).contains("hosts split"));
}

#[test]
fn tsv_gains_a_last_column_and_text_a_line() {
    let out = links(&["--parsers", PARSERS, "-o", "tsv"], PAGE);
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> =
        text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0].last(), Some(&"host_split"));
    assert!(rows.iter().all(|r| r.len() == rows[0].len()));
    assert_eq!(
        rows[1].last(),
        Some(&"python-urllib=evil.example python-urllib3=allowed.example")
    );
    assert_eq!(rows[2].last(), Some(&""));
    let out = links(&["--parsers", PARSERS], PAGE);
    let text = stdout(&out);
    assert!(text.contains(
        "\n      hosts split: python-urllib=evil.example \
         python-urllib3=allowed.example\n"
    ));
    assert_eq!(text.matches("hosts split:").count(), 1);
    assert!(text.contains("; hosts split by parsers 1"));
}

#[test]
fn a_parser_that_reads_no_host_is_null() {
    // Go reads `http:/evil.example/p` as a path; curl connects to
    // evil.example.
    let page = b"<a href='http:/evil.example/p'>";
    let out = links(&["--parsers", "go,curl", "-o", "json"], page);
    assert_eq!(
        json_lines(&out)[0]["host_split"],
        json!({"go": null, "curl": "evil.example"})
    );
}

#[test]
fn one_parser_or_an_unknown_one() {
    // One parser has nothing to differ from: no member.
    let out = links(&["--parsers", "curl", "-o", "json"], PAGE);
    assert_eq!(code(&out), 0);
    assert!(json_lines(&out).iter().all(|l| l.get("host_split").is_none()));
    let out = links(&["--parsers", "python-urllib,lynx"], PAGE);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("lynx"), "{}", stderr(&out));
}

#[test]
fn a_crawl_counts_alike_on_any_number_of_threads() {
    let mut warc = Vec::new();
    for i in 0..40 {
        let mut html = String::from("<!doctype html>");
        for k in 0..30 {
            let _ = match (i + k) % 5 {
                0 => write!(
                    html,
                    "<a href='http://a{k}.example\\@b{i}.example/'>"
                ),
                1 => write!(html, "<img src='http://0x7f.1/{k}'>"),
                2 => write!(html, "<a href='HTTP://Example.COM:80/{k}'>"),
                3 => write!(html, "<a href='http:/x{k}.example/'>"),
                _ => write!(html, "<a href='../p{k}'>"),
            };
        }
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}"
        );
        let target = format!("http://site.example/d/{i}");
        warc.extend(record("response", &target, response.as_bytes()));
    }
    let dir = common::scratch("links_parsers", "crawl");
    let path = dir.join("crawl.warc");
    std::fs::write(&path, &warc).unwrap();
    let path = path.to_str().unwrap();
    let outs: Vec<_> = ["1", "2", "4"]
        .iter()
        .map(|j| {
            run(
                &["links", "--parsers", "all", "-o", "json", "-j", j, path],
                b"",
            )
        })
        .collect();
    for out in &outs[1..] {
        assert_eq!(out.stdout, outs[0].stdout);
        assert_eq!(out.stderr, outs[0].stderr);
    }
    let lines = json_lines(&outs[0]);
    let split = lines.iter().filter(|l| !l["host_split"].is_null()).count();
    assert!(split > 0 && split < lines.len());
    assert!(
        stderr(&outs[0])
            .contains(&format!("; hosts split by parsers {split}")),
        "{}",
        stderr(&outs[0])
    );
}
