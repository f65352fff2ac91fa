//! `urlspec check`.

use crate::common;

use common::cli::{char_above_caret, run, top_level_keys};
use common::{code, json_lines, stdout};

const GOPHER_SMTP: &str = "gopher://h:25/0HELO%0D%0AMAIL";

#[test]
fn check_findings_with_carets() {
    let out = run(&["check", GOPHER_SMTP, "http://a/"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], GOPHER_SMTP);
    assert_eq!(lines[1], "  3 findings under rfc1808 (highest: high)");
    assert_eq!(lines[2], "  URL001 high non-default-port at 11..13");
    // Carets under the whole span: the port.
    assert_eq!(lines[4].trim(), "^^");
    assert_eq!(char_above_caret(lines[3], lines[4]), '2');
    assert!(lines[5].contains("port 25"));
    assert!(lines[6].starts_with("    source: draft 1996 §8 (R96-8.2)"));
    assert!(text.ends_with("\nhttp://a/\n  no findings under rfc1808\n"));
}

#[test]
fn check_fail_on_thresholds() {
    let status = |args: &[&str]| code(&run(args, None));
    // URL001 low: a non-default port above 1023.
    let low = "http://a:8080/";
    assert_eq!(status(&["check", low]), 0);
    assert_eq!(status(&["check", "--fail-on", "medium", low]), 0);
    assert_eq!(status(&["check", "--fail-on", "low", low]), 1);
    assert_eq!(status(&["check", "--fail-on", "info", low]), 1);
    // URL003 medium: a password.
    let medium = "http://u:p@a/";
    assert_eq!(status(&["check", medium]), 1);
    assert_eq!(status(&["check", "--fail-on", "high", medium]), 0);
    // High findings fail at every threshold.
    for threshold in ["info", "low", "medium", "high"] {
        assert_eq!(
            status(&["check", "--fail-on", threshold, GOPHER_SMTP]),
            1,
            "{threshold}"
        );
        assert_eq!(
            status(&["check", "--fail-on", threshold, "http://a/"]),
            0,
            "{threshold}"
        );
    }
    // The findings are printed whatever the threshold.
    let out = run(&["check", "--fail-on", "high", medium], None);
    assert!(stdout(&out).contains("URL003 medium password"));
    // Usage errors.
    assert_eq!(status(&["check", "--fail-on", "critical", low]), 2);
}

#[test]
fn check_json_keys_and_standard_input() {
    let input = b"ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm\nhttp://a:8080/\nhttp://a/\n";
    let out = run(&["check", "--json", "--spec", "rfc3986"], Some(input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    for line in text.lines() {
        assert_eq!(
            top_level_keys(line),
            ["input", "spec", "max_severity", "fails", "findings", "error"]
        );
    }
    let v = json_lines(&out);
    assert_eq!(v.len(), 3);
    let f = &v[0]["findings"][0];
    let keys: Vec<&String> = f.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 6);
    assert_eq!(f["code"], "URL008");
    assert_eq!(f["name"], "userinfo-looks-like-host");
    assert_eq!(f["severity"], "high");
    assert_eq!(f["span"]["start"], 6);
    assert_eq!(f["span"]["end"], 41);
    assert!(f["source"].as_str().unwrap().starts_with("RFC 3986 §7.6"));
    assert_eq!(v[0]["max_severity"], "high");
    assert_eq!(v[0]["fails"], true);
    assert_eq!(v[1]["max_severity"], "low");
    assert_eq!(v[1]["fails"], false);
    assert!(v[2]["max_severity"].is_null());
    assert_eq!(v[2]["findings"], serde_json::json!([]));
}

#[test]
fn check_help_lists_every_rule() {
    let help = stdout(&run(&["check", "--help"], None));
    for n in 1..=9 {
        let code = format!("URL00{n}");
        assert!(help.contains(&code), "{code} missing from\n{help}");
    }
    for needle in [
        "non-default-port",
        "host-differs-between-specs",
        "[default: medium]",
        "--fail-on",
        "Examples:",
        "Exit status",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
}
