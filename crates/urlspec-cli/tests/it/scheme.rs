//! `urlspec scheme`.

use crate::common;

use common::cli::{char_above_caret, field_values, run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

/// The keys of a `scheme --json` line, in order.
const SCHEME_KEYS: [&str; 10] = [
    "input",
    "spec",
    "view",
    "fields",
    "default_port",
    "port",
    "valid",
    "violations",
    "lenient",
    "error",
];

#[test]
fn scheme_ftp_login_cwd_and_retr_tv_sch_8() {
    for url in [
        "ftp://ds.internic.net/rfc/rfc1808.txt",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    ] {
        let out = run(&["scheme", "--json", url], None);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(top_level_keys(text.trim_end()), SCHEME_KEYS);
        let v = &json_lines(&out)[0];
        assert_eq!(v["view"], "ftp");
        assert_eq!(v["valid"], true);
        assert_eq!(field_values(v, "login_user"), ["anonymous"]);
        assert_eq!(
            field_values(v, "login_password"),
            ["<user's mail address>"]
        );
        assert_eq!(field_values(v, "cwd"), ["rfc"]);
        assert_eq!(field_values(v, "target"), ["rfc1808.txt"]);
        assert_eq!(
            field_values(v, "command"),
            ["CWD rfc", "RETR rfc1808.txt"]
        );
        assert!(field_values(v, "user").is_empty());
        assert_eq!(v["port"], 21);
        assert_eq!(v["default_port"]["port"], 21);
        assert_eq!(v["default_port"]["in_seeds"], false);
        assert_eq!(v["lenient"], serde_json::json!([]));
    }
    // The same as a table.
    let out = run(&["scheme", "ftp://ds.internic.net/rfc/rfc1808.txt"], None);
    let text = stdout(&out);
    assert!(text.contains("\n  login_user      anonymous\n"), "{text}");
    assert!(text.contains("\n  command         CWD rfc\n"));
    assert!(text.contains("\n  command         RETR rfc1808.txt\n"));
    assert!(text.contains("\n  default_port    21, from RFC 1738 §3.2"));
    assert!(text.ends_with("strict RFC 1630: valid\nlenient readings: none\n"));
}

#[test]
fn scheme_http_request_targets_and_password_hidden() {
    let url = "http://info.cern.ch:8000/hypertext/WWW/TheProject.html?x+y#f";
    let out = run(&["scheme", "--json", url], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let v = &json_lines(&out)[0];
    assert_eq!(v["view"], "http");
    assert_eq!(
        field_values(v, "request_target"),
        ["/hypertext/WWW/TheProject.html?x+y"]
    );
    assert_eq!(
        field_values(v, "proxy_target"),
        ["http://info.cern.ch:8000/hypertext/WWW/TheProject.html?x+y"]
    );
    assert_eq!(v["port"], 8000);
    assert_eq!(v["default_port"]["in_seeds"], true);

    let out =
        run(&["scheme", "-s", "draft96", "telnet://joe:pw@h:2323"], None);
    let text = stdout(&out);
    assert!(text.contains("\n  password        ****\n"), "{text}");
    // The fields never show the password (the input is echoed as given).
    let out = run(
        &["scheme", "--json", "-s", "draft96", "telnet://joe:pw@h:2323"],
        None,
    );
    let v = &json_lines(&out)[0];
    assert_eq!(field_values(v, "password"), ["****"]);
    let fields = v["fields"].to_string();
    assert!(!fields.contains("pw"), "{fields}");
}

#[test]
fn scheme_violations_have_carets_and_exit_1() {
    let url = "ftp://info.cern.ch/pub/www/doc;type=d";
    let out = run(&["scheme", url], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("^ ftptype:"))
        .unwrap_or_else(|| panic!("no caret line in:\n{text}"));
    assert_eq!(char_above_caret(lines[at - 1], lines[at]), 'd');
    assert!(text.contains("strict RFC 1630: 1 violation:\n"));
    assert!(text.contains("lenient readings:\n  A24: "));
    assert!(text.contains("\n  command         NLST doc\n"));

    let out = run(&["scheme", "--json", url], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["valid"], false);
    assert_eq!(v["violations"][0]["position"], 36);
    assert_eq!(v["violations"][0]["production"], "ftptype");
    let keys: Vec<&String> =
        v["violations"][0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3);
}

#[test]
fn scheme_streams_standard_input() {
    let input = b"gopher://h/7srch%09term\r\nmailto:a@b\n\xff\nfoo://a/b\n";
    let out = run(&["scheme", "--json"], Some(input));
    // The line that is not UTF-8 gets its error in place: exit status 1.
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    let views: Vec<&str> =
        lines.iter().map(|v| v["view"].as_str().unwrap_or("-")).collect();
    assert_eq!(views, ["gopher", "mailto", "-", "generic"]);
    assert_eq!(lines[2]["error"]["kind"], "NotUtf8");
    assert_eq!(field_values(&lines[0], "selector"), ["srch"]);
    assert_eq!(field_values(&lines[0], "command"), ["srch\tterm"]);
    // In text the tab is shown as a control picture; records are separated
    // by one blank line.
    let out = run(&["scheme"], Some(b"gopher://h/7srch%09term\nnews:a.b\n"));
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.contains("srch\u{2409}term"));
    assert_eq!(text.matches("\n\n").count(), 1);
}

#[test]
fn scheme_help_teaches_with_examples() {
    let help = stdout(&run(&["scheme", "--help"], None));
    for needle in [
        "- rfc1630:",
        "- rfc3986:",
        "Examples:",
        "| jq",
        "--json",
        "default_port",
        "lenient",
        "Exit status",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
    let top = stdout(&run(&["--help"], None));
    for name in ["scheme", "equiv", "normalize", "check", "extract"] {
        assert!(top.contains(&format!("\n  {name} ")), "{name}\n{top}");
    }
}
