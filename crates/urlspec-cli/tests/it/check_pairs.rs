//! `urlspec check --validator P --fetcher Q` and `--parser-pairs`: URL012
//! where the parser a URL is checked with and the parser that fetches it
//! read another host, port, scheme or user information.

use serde_json::Value;

use crate::common;
use common::cli::{char_above_caret, run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

const BACKSLASH: &str = "http://allowed.example\\@evil.example/";

/// The URL012 findings of `check --json ARGS URL`.
fn url012(args: &[&str], url: &str) -> Vec<Value> {
    let mut argv = vec!["check", "--json"];
    argv.extend_from_slice(args);
    argv.extend(["--", url]);
    let out = run(&argv, None);
    assert!(code(&out) < 2, "{}", stderr(&out));
    let v = json_lines(&out).remove(0);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "URL012")
        .cloned()
        .collect()
}

#[test]
fn check_pair_reports_both_readings_and_the_bytes_between() {
    let args = [
        "check",
        "--validator",
        "python-urllib",
        "--fetcher",
        "python-urllib3",
    ];
    let out = run(&[&args[..], &[BACKSLASH]].concat(), None);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].contains("under rfc1808 and python-urllib:python-urllib3"),
        "{text}"
    );
    let head = "  URL012 high validator-and-fetcher-differ at 22..24";
    let at = lines
        .iter()
        .position(|l| *l == head)
        .unwrap_or_else(|| panic!("{text}"));
    // Carets under `\@`: the byte urllib takes as data and urllib3 as the
    // end of the authority, and the `@` urllib ends the user at.
    assert_eq!(lines[at + 2].trim(), "^^");
    assert_eq!(char_above_caret(lines[at + 1], lines[at + 2]), '\\');
    assert!(
        lines[at + 3].contains(
            "python-urllib reads the host `evil.example`, python-urllib3 \
             connects to the host `allowed.example`"
        ),
        "{text}"
    );
    assert!(lines[at + 3].contains("backslash at byte 22"), "{text}");
    assert!(lines[at + 4].starts_with("    source: Orange Tsai"));
    // Without the pair, no URL012.
    let out = run(&["check", BACKSLASH], None);
    assert!(!stdout(&out).contains("URL012"));
}

#[test]
fn check_pair_curl_connects_to_the_address_an_octal_host_means() {
    // urllib gives the host as written; curl reads it as an IPv4 number
    // and connects to loopback: a check that refuses `127.0.0.1` lets it
    // through.
    for (url, span) in [
        ("http://0177.0.0.1/", (7, 17)),
        ("http://2130706433/", (7, 17)),
        ("http://127.1/", (7, 12)),
    ] {
        let found = url012(
            &["--validator", "python-urllib", "--fetcher", "curl"],
            url,
        );
        assert_eq!(found.len(), 1, "{url}: {found:?}");
        let f = &found[0];
        assert_eq!(f["part"], "host");
        assert_eq!(f["validator"]["value"], &url[7..span.1]);
        assert_eq!(f["fetcher"]["value"], "127.0.0.1");
        assert_eq!(
            (f["span"]["start"].as_u64(), f["span"]["end"].as_u64()),
            (Some(span.0 as u64), Some(span.1 as u64))
        );
    }
}

#[test]
fn check_pair_json_has_the_part_and_both_readings() {
    let found = url012(
        &["--validator", "python-urllib", "--fetcher", "python-urllib3"],
        BACKSLASH,
    );
    let parts: Vec<&str> =
        found.iter().map(|f| f["part"].as_str().unwrap()).collect();
    assert_eq!(parts, ["userinfo", "host"]);
    let host = &found[1];
    assert_eq!(host["validator"]["parser"], "python-urllib");
    assert_eq!(host["validator"]["value"], "evil.example");
    assert_eq!(host["fetcher"]["parser"], "python-urllib3");
    assert_eq!(host["fetcher"]["value"], "allowed.example");
    assert_eq!(host["severity"], "high");
    assert_eq!(
        (host["span"]["start"].as_u64(), host["span"]["end"].as_u64()),
        (Some(22), Some(24))
    );
    // The user information: urllib's `allowed.example\`, none for urllib3.
    let info = &found[0];
    assert_eq!(info["severity"], "medium");
    assert_eq!(info["validator"]["value"], "allowed.example\\");
    assert_eq!(info["fetcher"]["value"], Value::Null);
    let mut keys: Vec<&str> =
        host.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "code",
            "fetcher",
            "message",
            "name",
            "part",
            "severity",
            "source",
            "span",
            "validator"
        ]
    );
}

#[test]
fn check_pair_ports_schemes_and_passwords() {
    let pair = ["--validator", "python-urllib", "--fetcher", "python-urllib3"];
    // urllib: user `u`, password up to the last `@`; urllib3 ends the
    // authority at the `\`: another host and port. The password is never
    // quoted.
    let url = "http://u:secret@a\\@b:8080/";
    let found = url012(&pair, url);
    let parts: Vec<&str> =
        found.iter().map(|f| f["part"].as_str().unwrap()).collect();
    assert!(parts.contains(&"host") && parts.contains(&"port"), "{found:?}");
    let port = found.iter().find(|f| f["part"] == "port").unwrap();
    assert_eq!(port["validator"]["value"], "8080");
    assert_eq!(port["fetcher"]["value"], Value::Null);
    assert!(port["message"]
        .as_str()
        .unwrap()
        .contains("connects to the scheme's default port"));
    let info = found.iter().find(|f| f["part"] == "userinfo").unwrap();
    assert!(info["message"].as_str().unwrap().contains("(another password)"));
    for f in &found {
        assert!(!f.to_string().contains("secret"), "{f}");
    }
    // A default port and case go to the same place.
    for same in ["HTTP://Example.COM:80/", "http://a/"] {
        let found = url012(&["--parser-pairs", "common"], same);
        assert!(found.is_empty(), "{same}: {found:?}");
    }
    // So do `bücher.de` (urllib) and `xn--bcher-kva.de` (the url crate).
    let idna = ["--validator", "python-urllib", "--fetcher", "rust-url"];
    assert_eq!(url012(&idna, "http://bücher.de/"), Vec::<Value>::new());
    assert_eq!(url012(&idna, "http://b%C3%BCcher.de/").len(), 1);
}

#[test]
fn check_parser_pairs_common_and_lists() {
    let out = run(
        &["check", "--json", "--parser-pairs", "common", "--", BACKSLASH],
        None,
    );
    let line = stdout(&out);
    assert_eq!(
        top_level_keys(line.lines().next().unwrap()),
        [
            "input",
            "spec",
            "pairs",
            "max_severity",
            "fails",
            "findings",
            "error"
        ]
    );
    let v = json_lines(&out).remove(0);
    assert_eq!(
        v["pairs"],
        serde_json::json!([
            "python-urllib:python-urllib3",
            "python-urllib:curl",
            "php:curl",
            "go:curl",
            "java:curl"
        ])
    );
    // A list, a pair given twice counted once, and --validator/--fetcher
    // joined to it.
    let out = run(
        &[
            "check",
            "--json",
            "--validator",
            "go",
            "--fetcher",
            "curl",
            "--parser-pairs",
            "php:curl, go:curl,php:curl",
            "--",
            "http://a/",
        ],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        json_lines(&out)[0]["pairs"],
        serde_json::json!(["go:curl", "php:curl"])
    );
}

#[test]
fn check_pair_usage_errors() {
    let status = |args: &[&str]| {
        let out = run(args, None);
        (code(&out), stderr(&out))
    };
    let (c, err) = status(&["check", "--validator", "curl", "http://a/"]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("--fetcher"), "{err}");
    let (c, err) = status(&[
        "check",
        "--validator",
        "go",
        "--fetcher",
        "go",
        "http://a/",
    ]);
    assert_eq!(c, 2);
    assert!(err.contains("go beside itself"), "{err}");
    let (c, err) =
        status(&["check", "--parser-pairs", "java:java", "http://a/"]);
    assert_eq!(c, 2);
    assert!(err.contains("java beside itself"), "{err}");
    let (c, err) = status(&["check", "--parser-pairs", "curl", "http://a/"]);
    assert_eq!(c, 2);
    assert!(err.contains("VALIDATOR:FETCHER"), "{err}");
    let (c, err) =
        status(&["check", "--validator", "lynx", "--fetcher", "curl", "x"]);
    assert_eq!(c, 2);
    assert!(err.contains("python-urllib3"), "{err}");
}

#[test]
fn check_pair_exit_status_follows_fail_on() {
    let pair = ["check", "--validator", "java", "--fetcher", "curl"];
    // Java's URI takes an authority with a non-ASCII host as registry
    // based: no host; curl connects to it. No spec finding.
    let url = "http://bücher.de/";
    assert_eq!(code(&run(&["check", "--fail-on", "info", url], None)), 0);
    let out = run(&[&pair[..], &["--fail-on", "high", url]].concat(), None);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("URL012 high"), "{}", stdout(&out));
    // Read from standard input, --only-findings drops the clean URL.
    let input = format!("http://a/\n{url}\n");
    let out = run(
        &[&pair[..], &["--only-findings"]].concat(),
        Some(input.as_bytes()),
    );
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).starts_with(url), "{}", stdout(&out));
}
