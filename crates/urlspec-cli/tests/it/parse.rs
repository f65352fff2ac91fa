//! `urlspec parse`, and what every command shares: arguments, standard
//! input, output formats and exit statuses.

use crate::common;

use common::cli::{
    char_above_caret, run, spec_names, top_level_keys, KEYS, WHATWG,
};
use common::{code, json_lines, stderr, stdout};

#[test]
fn json_has_exactly_the_keys_in_order() {
    let out = run(&["parse", "--json", "http://u:p@a:80/b;c?d#e"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1);
    assert!(text.ends_with('\n'));
    assert_eq!(top_level_keys(text.trim_end()), KEYS);

    let v = &json_lines(&out)[0];
    assert_eq!(v["input"], "http://u:p@a:80/b;c?d#e");
    assert_eq!(v["spec"], "rfc1808");
    assert_eq!(v["scheme"], "http");
    assert_eq!(v["net_loc"], "u:p@a:80");
    assert_eq!(v["user"], "u");
    assert_eq!(v["password"], "p");
    assert_eq!(v["host"], "a");
    assert_eq!(v["port"], "80");
    assert_eq!(v["path"], "/b");
    assert_eq!(v["params"], "c");
    assert_eq!(v["query"], "d");
    assert_eq!(v["fragment"], "e");
    assert_eq!(v["valid"], true);
    assert_eq!(v["violations"], serde_json::json!([]));
}

#[test]
fn json_null_for_absent_empty_string_for_empty() {
    let out = run(&["parse", "--json", "http://a/b?"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["query"], "");
    assert!(v["fragment"].is_null());
    assert!(v["params"].is_null());
    assert!(v["user"].is_null() && v["password"].is_null());
    assert!(v["port"].is_null());

    // RFC 1630 has no params component: `;` stays in the path.
    let out = run(&["parse", "--json", "--spec", "rfc1630", "g;x"], None);
    let v = &json_lines(&out)[0];
    assert!(v["params"].is_null());
    assert_eq!(v["path"], "g;x");
    assert!(v["scheme"].is_null() && v["net_loc"].is_null());
    assert!(v["host"].is_null());

    // An empty net_loc and empty user/port are "" too.
    let out = run(&["parse", "--json", "-s", "draft96", "ftp://@h:/"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["user"], "");
    assert!(v["password"].is_null());
    assert_eq!(v["port"], "");
    let out = run(&["parse", "--json", "file:///x"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["net_loc"], "");
    assert_eq!(v["path"], "/x");
}

#[test]
fn json_violations_have_position_rule_and_message() {
    let out =
        run(&["parse", "--json", "--spec=rfc1808", "http://a/{x}"], None);
    assert_eq!(code(&out), 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["valid"], false);
    let first = &v["violations"][0];
    assert_eq!(first["position"], 9);
    assert_eq!(first["rule"], "pchar");
    assert!(first["message"].as_str().unwrap().contains("%7B"));
    let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3);
    let text = stdout(&out);
    assert!(text.contains(r#"{"position":9,"rule":"pchar","message":"#));
}

#[test]
fn exit_status_0_when_all_valid_1_when_some_invalid() {
    let valid = run(&["parse", "http://a/b", "g?y"], None);
    assert_eq!(code(&valid), 0);
    let mixed = run(&["parse", "http://a/b", "http://a/{x}"], None);
    assert_eq!(code(&mixed), 1);
    // The same URL under a spec that admits `{`.
    let draft04 = run(&["parse", "--spec", "draft04", "http://a/{x}"], None);
    assert_eq!(code(&draft04), 0);
}

#[test]
fn exit_status_2_for_usage_errors_and_0_for_help() {
    assert_eq!(code(&run(&["parse", "--no-such-flag"], None)), 2);
    assert_eq!(code(&run(&["no-such-command"], None)), 2);
    assert_eq!(code(&run(&[], None)), 2);
    for args in [
        &["--help"][..],
        &["-h"],
        &["--version"],
        &["parse", "--help"],
        &["parse", "-h"],
        &["help", "parse"],
    ] {
        let out = run(args, None);
        assert_eq!(code(&out), 0, "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn unknown_spec_exits_2_listing_the_names() {
    let out = run(&["parse", "--spec", "rfc9999", "http://a/"], None);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.contains("rfc9999"), "{err}");
    for name in spec_names() {
        assert!(err.contains(name), "{name} missing from: {err}");
    }
}

#[test]
fn spec_names_are_case_and_dash_insensitive() {
    let out = run(&["parse", "--json", "-s", "RFC-3986", "http://a?q"], None);
    assert_eq!(code(&out), 0);
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "rfc3986");
    assert_eq!(v["net_loc"], "a");
    assert_eq!(v["query"], "q");
}

#[test]
fn help_lists_every_spec_with_its_summary_and_examples() {
    let out = run(&["parse", "--help"], None);
    let help = stdout(&out);
    for name in spec_names() {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("- {name}:")))
            .unwrap_or_else(|| panic!("{name} not listed in:\n{help}"));
        // Each entry carries the spec's one-line summary.
        assert!(line.len() > name.len() + 20, "{line}");
    }
    assert!(help.contains("Examples:"));
    assert!(help.contains("| jq"));
    assert!(help.contains("< urls.txt"));
    assert!(help.contains("[default: rfc1808]"));

    let top = stdout(&run(&["--help"], None));
    assert!(top.contains("parse"));
    assert!(top.contains("draft96dec"));
    assert_eq!(top.contains("whatwg"), cfg!(feature = "whatwg"));
}

#[test]
fn stdin_streams_one_result_per_line() {
    let input = b"http://a/b\r\ng;x?y#s\n\nhttp://a/{x}";
    let out = run(&["parse", "--json"], Some(input));
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    let inputs: Vec<&str> =
        lines.iter().map(|v| v["input"].as_str().unwrap()).collect();
    // CR LF and LF are stripped; the empty line is the empty reference; the
    // last line needs no newline.
    assert_eq!(inputs, ["http://a/b", "g;x?y#s", "", "http://a/{x}"]);
    assert_eq!(lines[1]["params"], "x");
    assert_eq!(lines[2]["path"], "");
    assert_eq!(lines[3]["valid"], false);

    let valid = run(&["parse"], Some(b"http://a/\nhttp://b/\n"));
    assert_eq!(code(&valid), 0);
    let text = stdout(&valid);
    assert_eq!(text.matches("valid under rfc1808").count(), 2);
    // Records are separated by one blank line.
    assert_eq!(text.matches("\n\n").count(), 1);
}

#[test]
fn stdin_without_input_prints_nothing() {
    let out = run(&["parse", "--json"], Some(b""));
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
}

#[test]
fn non_utf8_line_gets_its_error_in_place_and_the_next_one_is_processed() {
    let input = b"http://a/\n\xc3\xa9x\xff/\nhttp://b/\n";
    let out = run(&["parse", "--json"], Some(input));
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["input"], "http://a/");
    assert!(lines[0]["error"].is_null());
    assert!(lines[1]["input"].is_null());
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["kind"], "NotUtf8");
    // `é` is one character: the bad byte is in column 3.
    assert_eq!(
        lines[1]["error"]["message"],
        "not UTF-8 (invalid byte at column 3)"
    );
    assert_eq!(lines[2]["input"], "http://b/");
    assert_eq!(lines[2]["valid"], true);
    // JSON says it itself: standard error stays quiet.
    assert_eq!(stderr(&out), "");
    // As text, in its place and on standard error.
    let out = run(&["parse"], Some(input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "valid under rfc1808\n\nerror: NotUtf8: not UTF-8 (invalid byte \
             at column 3)\n\nhttp://b/\n"
        ),
        "{text}"
    );
    assert_eq!(
        stderr(&out),
        "urlspec: line 2: NotUtf8: not UTF-8 (invalid byte at column 3)\n"
    );
}

#[test]
fn human_output_shows_absent_and_empty() {
    let out = run(&["parse", "http://a/b?"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row in:\n{text}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(text.lines().next(), Some("http://a/b?"));
    assert_eq!(row("scheme"), "http");
    assert_eq!(row("host"), "a (hostname)");
    assert_eq!(row("query"), "\"\"");
    assert_eq!(row("fragment"), "(absent)");
    assert_eq!(row("params"), "(absent)");
    assert!(text.ends_with("valid under rfc1808\n"));
}

#[test]
fn caret_points_at_the_offending_character() {
    let out = run(&["parse", "--spec", "rfc1808", "http://a/{x}"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("^ rule pchar:"))
        .unwrap_or_else(|| panic!("no caret line in:\n{text}"));
    assert_eq!(char_above_caret(lines[at - 1], lines[at]), '{');
    assert!(lines[at].contains("%7B"));
    assert!(text.contains("invalid under rfc1808"));
}

#[test]
fn caret_counts_characters_not_bytes() {
    // `é` is two bytes but one column; `{` must still line up.
    let out = run(&["parse", "-s", "draft96", "http://a/é/{x}"], None);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let carets: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with('^'))
        .collect();
    let under: Vec<char> = carets
        .iter()
        .map(|&i| char_above_caret(lines[i - 1], lines[i]))
        .collect();
    assert_eq!(under, ['é', '{', '}'], "{text}");
}

#[test]
fn reg_name_authority_has_no_host() {
    // `a_b` is no hostname, so RFC 2396 reads the authority as a reg_name.
    let out = run(&["parse", "--json", "-s", "rfc2396", "http://a_b/"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["net_loc"], "a_b");
    assert!(v["host"].is_null() && v["port"].is_null());
}

#[test]
fn parse_whatwg_has_the_same_keys_and_the_standards_components() {
    let out =
        run(&["parse", "--json", "--spec", "whatwg", "HTTP://A:80/./b"], None);
    if !WHATWG {
        assert_eq!(code(&out), 2);
        assert!(stderr(&out).contains("without the `whatwg` spec"));
        return;
    }
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(top_level_keys(stdout(&out).trim_end()), KEYS);
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "whatwg");
    assert_eq!(v["scheme"], "http");
    assert_eq!(v["host"], "a");
    assert!(v["port"].is_null(), "the default port is dropped");
    assert_eq!(v["path"], "/b");
    assert!(v["net_loc"].is_null() && v["params"].is_null());
    assert_eq!(v["valid"], true);

    // A relative reference is not a URL for the standard: invalid, one
    // violation, the parser's reason; exit status 1.
    let out = run(&["parse", "--json", "-s", "whatwg", "g;x"], None);
    assert_eq!(code(&out), 1);
    assert_eq!(top_level_keys(stdout(&out).trim_end()), KEYS);
    let v = &json_lines(&out)[0];
    assert_eq!(v["valid"], false);
    assert!(v["scheme"].is_null() && v["path"].is_null());
    let violations = v["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0]["position"], 0);
    assert!(violations[0]["message"]
        .as_str()
        .unwrap()
        .contains("missing-scheme-non-relative-URL"));

    // The table: the serialization first; `\` ends the host.
    let out = run(&["parse", "-s", "whatwg", "http://a\\@b/"], None);
    let text = stdout(&out);
    assert!(text.contains("\n  href      http://a/@b/\n"), "{text}");
    assert!(text.contains("\n  host      a\n"), "{text}");
    assert!(text.contains("\n  net_loc   (absent)\n"), "{text}");
    assert!(text.ends_with("valid under whatwg\n"), "{text}");
}
