//! End-to-end tests of the `urlspec` binary: arguments, standard input,
//! output formats and exit statuses.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `urlspec` with `args`, feeding `stdin` (closed at once when
/// `None`).
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the urlspec binary runs");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// The JSON objects of a JSON Lines output.
fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

const KEYS: [&str; 14] = [
    "input",
    "spec",
    "scheme",
    "net_loc",
    "user",
    "password",
    "host",
    "port",
    "path",
    "params",
    "query",
    "fragment",
    "valid",
    "violations",
];

/// The keys of the one object on a JSON line, in order, read from the text
/// itself (a parsed map would not keep the order).
fn top_level_keys(line: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0;
    let mut chars = line.char_indices().peekable();
    let mut expect_key = false;
    while let Some((i, c)) = chars.next() {
        match c {
            '{' | '[' => {
                depth += 1;
                expect_key = c == '{' && depth == 1;
            }
            '}' | ']' => depth -= 1,
            ',' if depth == 1 => expect_key = true,
            '"' => {
                // Read the string, honouring escapes.
                let start = i + 1;
                let mut end = start;
                while let Some((j, d)) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => {
                            end = j;
                            break;
                        }
                        _ => {}
                    }
                }
                if expect_key && depth == 1 {
                    keys.push(line[start..end].to_owned());
                    expect_key = false;
                }
            }
            _ => {}
        }
    }
    keys
}

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
    for name in [
        "rfc1630",
        "draft04",
        "rfc1808",
        "draft96",
        "draft96dec",
        "rfc2396",
        "rfc3986",
    ] {
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
    for name in [
        "rfc1630",
        "draft04",
        "rfc1808",
        "draft96",
        "draft96dec",
        "rfc2396",
        "rfc3986",
    ] {
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
fn non_utf8_line_is_skipped_and_the_next_one_processed() {
    let input = b"http://a/\n\xc3\xa9x\xff/\nhttp://b/\n";
    let out = run(&["parse", "--json"], Some(input));
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["input"], "http://a/");
    assert_eq!(lines[1]["input"], "http://b/");
    assert_eq!(lines[1]["valid"], true);
    // `é` is one character: the bad byte is in column 3.
    assert_eq!(
        stderr(&out),
        "urlspec: line 2: not UTF-8 (invalid byte at column 3)\n"
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

/// The character column of the caret on `line`, and the character above it
/// on `above`.
fn char_above_caret(above: &str, line: &str) -> char {
    let column = line.chars().position(|c| c == '^').expect("a caret");
    above.chars().nth(column).expect("the caret is under the input")
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

// `urlspec resolve` -------------------------------------------------------

/// The base of the RFC 1808 / RFC 2396 / RFC 3986 examples.
const BASE: &str = "http://a/b/c/d;p?q";

/// The keys of a `resolve --json` line, in order.
const RESOLVE_KEYS: [&str; 7] = [
    "base",
    "reference",
    "spec",
    "result",
    "same_document",
    "error",
    "taken_as_absolute",
];

#[test]
fn resolve_one_reference_under_rfc1808_and_rfc3986() {
    let out = run(&["resolve", "--base", BASE, "../../../g"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "http://a/../g\n");
    assert!(out.stderr.is_empty());

    let args = ["resolve", "--spec", "rfc3986", "--base", BASE, "../../../g"];
    let out = run(&args, None);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "http://a/g\n");

    // Several references: one line each, in order.
    let out = run(&["resolve", "-b", BASE, "g", ";x", "?y", "#s", ""], None);
    assert_eq!(
        stdout(&out),
        "http://a/b/c/g\nhttp://a/b/c/d;x\nhttp://a/b/c/d;p?y\n\
         http://a/b/c/d;p?q#s\nhttp://a/b/c/d;p?q\n"
    );
}

#[test]
fn resolve_reads_references_from_stdin() {
    let input = b"g\r\n../g\n\n//x/y\n\xffz\nhttp:h";
    let out = run(&["resolve", "-s", "rfc3986", "-b", BASE], Some(input));
    assert_eq!(code(&out), 1);
    // The line that is not UTF-8 is answered in its place.
    assert_eq!(
        stdout(&out),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?q\nhttp://x/y\n\
         error: NotUtf8: not UTF-8 (invalid byte at column 1)\nhttp:h\n"
    );
    assert_eq!(
        stderr(&out),
        "urlspec: line 5: NotUtf8: not UTF-8 (invalid byte at column 1)\n"
    );

    let out = run(&["resolve", "-b", BASE], Some(b"g\n"));
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "http://a/b/c/g\n");
    let out = run(&["resolve", "-b", BASE], Some(b""));
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
}

#[test]
fn resolve_pairs_keep_the_output_aligned_with_the_input() {
    let input = "http://a/b/c/d;p?q\tg\n\
                 http://a/b/c/d;p?q\t../../../g\n\
                 \tg\n\
                 http://x/y/z\t../w\n\
                 http://x/y/z\t?q\n\
                 https://e.org/\t//f.org/p\n";
    let out = run(
        &["resolve", "--pairs", "--spec", "rfc3986"],
        Some(input.as_bytes()),
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "http://a/b/c/g",
            "http://a/g",
            "error: NoBase: a relative reference needs a base URL, and none \
             is known",
            "http://x/w",
            "http://x/y/z?q",
            "https://f.org/p",
        ]
    );
    assert_eq!(lines.len(), input.lines().count());
    let err = stderr(&out);
    assert!(err.starts_with("urlspec: line 3: NoBase: "), "{err}");
    assert_eq!(err.lines().count(), 1);

    // All resolved: exit status 0.
    let out =
        run(&["resolve", "--pairs"], Some(b"http://a/b\tc\nhttp://a/b\td"));
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "http://a/c\nhttp://a/d\n");
}

#[test]
fn resolve_pairs_line_without_tab_is_an_error_line() {
    let input = b"http://a/b/\tc\nhttp://a/b/ c\nhttp://a/b/\tc\td\n";
    let out = run(&["resolve", "--pairs"], Some(input));
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "http://a/b/c\n\
         error: MissingTab: no TAB after the base (a --pairs line is \
         BASE<TAB>REFERENCE)\n\
         http://a/b/c\td\n"
    );
    assert!(stderr(&out).starts_with("urlspec: line 2: MissingTab: "));

    let out = run(&["resolve", "--pairs", "--json"], Some(input));
    let v = &json_lines(&out)[1];
    assert_eq!(v["base"], "http://a/b/ c");
    assert!(v["reference"].is_null() && v["result"].is_null());
    assert_eq!(v["error"]["kind"], "MissingTab");
}

#[test]
fn resolve_json_has_the_keys_in_order_and_an_error_object() {
    let out = run(&["resolve", "--json", "-b", BASE, "g", "#s"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for line in text.lines() {
        assert_eq!(top_level_keys(line), RESOLVE_KEYS, "{line}");
    }
    let lines = json_lines(&out);
    assert_eq!(lines[0]["base"], BASE);
    assert_eq!(lines[0]["reference"], "g");
    assert_eq!(lines[0]["spec"], "rfc1808");
    assert_eq!(lines[0]["result"], "http://a/b/c/g");
    assert_eq!(lines[0]["same_document"], false);
    assert!(lines[0]["error"].is_null());
    assert_eq!(lines[0]["taken_as_absolute"], false);
    assert_eq!(lines[1]["result"], "http://a/b/c/d;p?q#s");
    assert_eq!(lines[1]["same_document"], true);

    let args = ["resolve", "--json", "-s", "rfc2396", "-b", "", "g"];
    let out = run(&args, None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(top_level_keys(text.trim_end()), RESOLVE_KEYS);
    let v = &json_lines(&out)[0];
    assert!(v["result"].is_null());
    assert_eq!(v["same_document"], false);
    assert_eq!(v["error"]["kind"], "NoBase");
    assert!(v["error"]["message"].as_str().unwrap().contains("base"));
    let keys: Vec<&String> = v["error"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["kind", "message"]);
    assert!(text.contains(r#""error":{"kind":"NoBase","message":"#));
}

#[test]
fn resolve_all_specs_marks_the_specs_that_differ() {
    let out = run(&["resolve", "--all-specs", "-b", BASE, ";x"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(";x"));
    let rows: Vec<(bool, &str, &str)> = lines
        .map(|l| {
            let marked = l.starts_with('*');
            let mut words = l[1..].split_whitespace();
            (marked, words.next().unwrap(), words.next().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 7);
    let row = |name: &str| *rows.iter().find(|r| r.1 == name).unwrap();
    assert_eq!(row("rfc1808"), (false, "rfc1808", "http://a/b/c/d;x"));
    assert_eq!(row("rfc2396"), (true, "rfc2396", "http://a/b/c/;x"));
    assert_eq!(row("rfc3986"), (true, "rfc3986", "http://a/b/c/;x"));
    assert_eq!(row("draft96"), (false, "draft96", "http://a/b/c/d;x"));

    // Compared with rfc2396 instead, the marks change sides.
    let args = ["resolve", "--all-specs", "-s", "rfc2396", "-b", BASE, ";x"];
    let text = stdout(&run(&args, None));
    assert!(text.contains("* rfc1808     http://a/b/c/d;x\n"), "{text}");
    assert!(text.contains("  rfc3986     http://a/b/c/;x\n"), "{text}");

    // One object per reference with base, reference, then each spec.
    let args = ["resolve", "--all-specs", "--json", "-b", BASE, ";x", "g"];
    let out = run(&args, None);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 2);
    let mut keys = vec!["base", "reference"];
    keys.extend([
        "rfc1630",
        "draft04",
        "rfc1808",
        "draft96",
        "draft96dec",
        "rfc2396",
        "rfc3986",
    ]);
    assert_eq!(top_level_keys(text.lines().next().unwrap()), keys);
    let v = &json_lines(&out)[0];
    assert_eq!(v["reference"], ";x");
    assert_eq!(v["rfc1808"]["result"], "http://a/b/c/d;x");
    assert_eq!(v["rfc2396"]["result"], "http://a/b/c/;x");
    assert_eq!(v["rfc3986"]["same_document"], false);
    assert!(v["rfc3986"]["error"].is_null());
}

#[test]
fn resolve_all_specs_exits_1_when_some_spec_fails() {
    let out = run(&["resolve", "--all-specs", "-b", "", "g"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("  rfc1808     g\n"), "{text}");
    assert!(text.contains("* rfc3986     error: NoBase: "), "{text}");
}

#[test]
fn resolve_relative_finds_the_shortest_reference() {
    let args = ["resolve", "--relative", "-b", BASE, "http://a/b/g"];
    let out = run(&args, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "../g\n");

    // Targets from stdin; one without a scheme has no relative form.
    let input = b"http://a/b/c/g\ng\nhttp://a/b/c/d;p?y\n";
    let args = ["resolve", "--relative", "-s", "rfc3986", "-b", BASE];
    let out = run(&args, Some(input));
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "g\nerror: no relative form\n?y\n");
    assert!(stderr(&out).starts_with("urlspec: line 2: no relative form"));

    let args = ["resolve", "--relative", "--json", "-b", BASE, "x"];
    let v = &json_lines(&run(&args, None))[0];
    assert_eq!(v["target"], "x");
    assert!(v["result"].is_null());
    assert_eq!(v["error"]["kind"], "NoRelativeForm");
}

#[test]
fn resolve_without_base_takes_the_reference_as_absolute_under_rfc1808() {
    let args = ["resolve", "--json", "--spec", "rfc1808", "--base", "", "g"];
    let out = run(&args, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = &json_lines(&out)[0];
    assert_eq!(v["base"], "");
    assert_eq!(v["result"], "g");
    assert_eq!(v["taken_as_absolute"], true);
    assert!(v["error"].is_null());

    let out = run(&["resolve", "--base", "", "g"], None);
    assert_eq!(stdout(&out), "g\n");
    assert_eq!(code(&out), 0);
}

#[test]
fn resolve_strict_without_base_is_no_base() {
    let out = run(&["resolve", "--strict", "--base", "", "g"], None);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "error: NoBase: a relative reference needs a base URL, and none is \
         known\n"
    );
    assert!(stderr(&out).starts_with("urlspec: argument 1: NoBase: "));

    let args = ["resolve", "--strict", "--json", "--base", "", "g"];
    let v = &json_lines(&run(&args, None))[0];
    assert_eq!(v["error"]["kind"], "NoBase");
    assert_eq!(v["taken_as_absolute"], false);
}

#[test]
fn resolve_options_change_the_answer() {
    let rfc2396 = |extra: &[&str], reference: &str| {
        let mut args = vec!["resolve", "-s", "rfc2396", "-b", BASE];
        args.extend(extra);
        args.push(reference);
        stdout(&run(&args, None))
    };
    assert_eq!(rfc2396(&[], "../../../g"), "http://a/../g\n");
    let remove = ["--dotdot-above-root", "remove"];
    assert_eq!(rfc2396(&remove, "../../../g"), "http://a/g\n");
    let error = ["--dotdot-above-root", "error"];
    assert!(
        rfc2396(&error, "../../../g").starts_with("error: DotDotAboveRoot")
    );
    assert_eq!(rfc2396(&[], "http:g"), "http:g\n");
    assert_eq!(rfc2396(&["--same-scheme"], "http:g"), "http://a/b/c/g\n");

    let rfc1630 = ["resolve", "-s", "rfc1630", "-b", BASE, "http:g"];
    assert_eq!(stdout(&run(&rfc1630, None)), "http://a/b/c/g\n");
    let mut off = rfc1630.to_vec();
    off.insert(1, "--no-same-scheme");
    assert_eq!(stdout(&run(&off, None)), "http:g\n");

    let pathless = ["resolve", "-s", "rfc2396", "-b", "http://a", "g"];
    assert_eq!(stdout(&run(&pathless, None)), "http://ag\n");
    let mut fixed = pathless.to_vec();
    fixed.insert(1, "--fix-pathless-base");
    assert_eq!(stdout(&run(&fixed, None)), "http://a/g\n");

    let rootless = ["resolve", "-s", "rfc3986", "-b", BASE, "g:h/../i"];
    assert_eq!(stdout(&run(&rootless, None)), "g:/i\n");
    let mut keep = rootless.to_vec();
    keep.splice(1..1, ["--rootless-dots", "keep-rootless"]);
    assert_eq!(stdout(&run(&keep, None)), "g:i\n");
}

#[test]
fn resolve_usage_errors_exit_2() {
    for args in [
        &["resolve", "g"][..],
        &["resolve", "--pairs", "--base", BASE],
        &["resolve", "--pairs", "g"],
        &["resolve", "--relative", "--all-specs", "-b", BASE, "g"],
        &["resolve", "--relative", "--strict", "-b", BASE, "g"],
        &["resolve", "--dotdot-above-root", "maybe", "-b", BASE, "g"],
        &["resolve", "--spec", "rfc9999", "-b", BASE, "g"],
    ] {
        let out = run(args, None);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn resolve_help_teaches_with_examples() {
    for args in [&["resolve", "--help"][..], &["help", "resolve"]] {
        let out = run(args, None);
        assert_eq!(code(&out), 0);
        let help = stdout(&out);
        assert!(help.contains("http://a/../g"), "{help}");
        assert!(help.contains("http://a/g"));
        assert!(help.contains("Examples:"));
        for flag in [
            "--pairs",
            "--all-specs",
            "--relative",
            "--json",
            "| jq",
            "--strict",
            "--same-scheme",
            "--no-same-scheme",
            "--dotdot-above-root",
            "--fix-pathless-base",
            "--rfc1630-dots",
            "--rootless-dots",
        ] {
            assert!(help.contains(flag), "{flag} missing");
        }
    }
    let short = stdout(&run(&["resolve", "-h"], None));
    assert!(short.contains("[rfc2396]"));
    let top = stdout(&run(&["--help"], None));
    assert!(top.contains("resolve"));
}

// ---------------------------------------------------------------------
// urlspec links
// ---------------------------------------------------------------------

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
const LINK_KEYS: [&str; 10] = [
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
];

#[test]
fn links_without_files_runs_the_built_in_sample_from_anywhere() {
    let out = run_in(env!("CARGO_TARGET_TMPDIR"), &["links"]);
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
        let out = run(&["links", "--spec", spec], None);
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
    let out = run(&["links", "--spec", "rfc1630"], None);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("   base: (none)  [no base]\n"));
    let out =
        run(&["links", "--spec", "rfc1630", "--url", "http://r/m/"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("   base: http://r/m/  [retrieval URL]\n"));
    // --base-headers all: Base, then Content-Base, then Content-Location.
    let out =
        run(&["links", "--spec", "rfc3986", "--base-headers", "all"], None);
    assert!(stdout(&out).contains(
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]\n"
    ));
}

#[test]
fn links_json_has_the_keys_in_order() {
    let out = run(&["links", "--spec", "draft96", "--output", "json"], None);
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
fn links_tsv_has_a_header_row_and_nine_columns() {
    let out = run(&["links", "--output", "tsv"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror")
    );
    let rows: Vec<Vec<&str>> =
        lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r.len() == 9));
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
        "urlspec links\n",
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
