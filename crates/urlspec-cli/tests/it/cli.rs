//! End-to-end tests of the `urlspec` binary: arguments, standard input,
//! output formats and exit statuses.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{code, json_lines, stderr, stdout};
use serde_json::Value;

/// Runs `urlspec` with `args`, feeding `stdin` (closed at once when
/// `None`) from a thread of its own, so that a large input and a large
/// output cannot block each other on the pipes.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the urlspec binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.map(<[u8]>::to_vec).unwrap_or_default();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

/// The specs of this build, oldest first: the seven documents, then the
/// WHATWG URL Standard when the `whatwg` feature is on.
fn spec_names() -> Vec<&'static str> {
    let mut names = vec![
        "rfc1630",
        "draft04",
        "rfc1808",
        "draft96",
        "draft96dec",
        "rfc2396",
        "rfc3986",
    ];
    if cfg!(feature = "whatwg") {
        names.push("whatwg");
    }
    names
}

const KEYS: [&str; 15] = [
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
    "error",
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
const RESOLVE_KEYS: [&str; 8] = [
    "base",
    "reference",
    "spec",
    "result",
    "same_document",
    "error",
    "taken_as_absolute",
    "note",
];

#[test]
fn resolve_notes_a_result_that_reads_back_otherwise() {
    let json = |args: &[&str]| json_lines(&run(args, None)).remove(0);
    let args = ["resolve", "--json", "-s", "rfc3986", "-b", "f:/a", ".//g"];
    let v = json(&args);
    assert_eq!(v["result"], "f://g");
    assert_eq!(v["note"]["kind"], "PathReadAsAuthority");
    // The guard writes what the WHATWG serializer writes.
    let args = ["resolve", "--path-guard", "-s", "rfc3986", "-b", "f:/a"];
    let out = run(&[&args[..], &[".//g"]].concat(), None);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "f:/.//g\n"));
    let v = json(&[
        "resolve",
        "--json",
        "-s",
        "rfc2396",
        "-b",
        "http://taccs.hu",
        "index.html",
    ]);
    assert_eq!(v["result"], "http://taccs.huindex.html");
    assert_eq!(v["note"]["kind"], "PathJoinsAuthority");
    assert!(json(&["resolve", "--json", "-b", "http://a/b", "g"])["note"]
        .is_null());
}

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
fn resolve_pairs_from_files() {
    let dir = common::scratch("cli", "pairs-files");
    let a = dir.join("a.tsv");
    let b = dir.join("b.tsv");
    std::fs::write(&a, "http://a/b/c\td\nhttp://a/b/c\t../e\n").unwrap();
    std::fs::write(&b, "\tg\nhttp://x/y\t?q\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());

    // Files in the order given, `-` for standard input between them.
    let out = run(
        &["resolve", "--pairs", "--spec", "rfc3986", a, "-", b],
        Some(b"http://s/t/u\tv\n"),
    );
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "http://a/b/d\nhttp://a/e\nhttp://s/t/v\n\
         error: NoBase: a relative reference needs a base URL, and none is \
         known\nhttp://x/y?q\n"
    );
    // A line of a file is named by its argument and line number.
    let err = stderr(&out);
    assert!(err.starts_with("urlspec: argument 3, line 1: NoBase: "), "{err}");
    assert_eq!(err.lines().count(), 1);

    // A file that cannot be read: the answers before it, then exit 2.
    let missing = dir.join("missing.tsv");
    let missing = missing.to_str().unwrap();
    let out = run(&["resolve", "--pairs", a, missing], None);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "http://a/b/d\nhttp://a/e\n");
    let err = stderr(&out);
    assert!(err.contains(&format!("reading {missing}: ")), "{err}");
}

#[test]
fn resolve_pairs_over_many_blocks() {
    // About 0.9 MB: many blocks of the reader, lines across their ends,
    // CRLF and LF, lines that are not UTF-8 or have no TAB among them,
    // and a last line without a line end.
    let mut input = Vec::new();
    let mut want = Vec::new();
    let n = 20_000;
    for i in 0..n {
        let base = format!("http://h{}.example/a/b/{i}", i % 7);
        let line_end: &[u8] = if i % 3 == 0 { b"\r\n" } else { b"\n" };
        match i % 1000 {
            500 => {
                input.extend_from_slice(base.as_bytes());
                input.extend_from_slice(b"\t../x\xff");
                // The column of the invalid byte, after BASE, TAB, "../x".
                let column = base.len() + 6;
                want.push(format!(
                    "error: NotUtf8: not UTF-8 (invalid byte at column \
                     {column})"
                ));
            }
            501 => {
                input.extend_from_slice(base.as_bytes());
                want.push(
                    "error: MissingTab: no TAB after the base (a --pairs \
                     line is BASE<TAB>REFERENCE)"
                        .to_owned(),
                );
            }
            _ => {
                input.extend_from_slice(base.as_bytes());
                input.extend_from_slice(format!("\t../c/{i}?q").as_bytes());
                want.push(format!("http://h{}.example/a/c/{i}?q", i % 7));
            }
        }
        if i + 1 < n {
            input.extend_from_slice(line_end);
        }
    }
    assert!(input.len() > 800_000);
    let out = run(&["resolve", "--pairs", "-s", "rfc3986"], Some(&input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), want.len());
    for (i, (got, want)) in got.iter().zip(&want).enumerate() {
        assert_eq!(got, want, "line {}", i + 1);
    }
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 40);
    assert!(err.starts_with(
        "urlspec: line 501: NotUtf8: not UTF-8 (invalid byte at column 31)\n\
         urlspec: line 502: MissingTab: "
    ));
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
    assert_eq!(rows.len(), spec_names().len());
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
    keys.extend(spec_names());
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

// ---------------------------------------------------------------------
// urlspec scheme
// ---------------------------------------------------------------------

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

/// Every value a `scheme --json` object gives under `name`, in order.
fn field_values(v: &Value, name: &str) -> Vec<String> {
    v["fields"]
        .as_array()
        .expect("fields is an array")
        .iter()
        .filter(|f| f["name"] == name)
        .map(|f| f["value"].as_str().unwrap().to_owned())
        .collect()
}

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

// ---------------------------------------------------------------------
// urlspec equiv and urlspec normalize
// ---------------------------------------------------------------------

const MARIE: &str = "http://info.cern.ch/albert/bertram/marie-claude";

const SPECS: [&str; 7] = [
    "rfc1630",
    "draft04",
    "rfc1808",
    "draft96",
    "draft96dec",
    "rfc2396",
    "rfc3986",
];

#[test]
fn equiv_exit_0_equivalent_1_not_2_not_comparable() {
    for spec in SPECS {
        // TV-EQ-1: an escaped `-` is `-`.
        let b = "http://info.cern.ch/albert/bertram/marie%2Dclaude";
        let out = run(&["equiv", "--spec", spec, MARIE, b], None);
        assert_eq!(code(&out), 0, "{spec}: {}", stdout(&out));
        assert!(stdout(&out)
            .ends_with(&format!("equivalent under {spec} (level scheme)\n")));
        // TV-EQ-2: an escaped `/` is not `/`.
        let b = "http://info.cern.ch/albert/bertram%2Fmarie-claude";
        let out = run(&["equiv", "--spec", spec, MARIE, b], None);
        assert_eq!(code(&out), 1, "{spec}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.contains("not equivalent under"), "{text}");
        // Both normalized forms, and a caret at the first difference.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], format!("   -> {MARIE}"));
        assert_eq!(char_above_caret(lines[3], lines[4]), '%');
        // TV-EQ-3: an illegal `%`: an error with its position.
        let a = "fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred";
        let b = "fxqn:/us/va/reston/cnri/ietf/24/asdf.fred";
        let out = run(&["equiv", "--spec", spec, a, b], None);
        assert_eq!(code(&out), 2, "{spec}");
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(char_above_caret(lines[0], lines[1]), '%');
        assert!(lines[1].contains("not comparable: `%*`"), "{text}");
        assert!(text.ends_with("A is not a legal URL\n"));
        assert!(stderr(&out).starts_with("urlspec: A: "));
        assert!(stderr(&out).contains("at byte 36"));
    }
}

#[test]
fn equiv_json_has_both_forms_and_the_verdict() {
    let out = run(&["equiv", "--json", "http://a/~u", "HTTP://a/%7eu"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(
        top_level_keys(text.trim_end()),
        ["spec", "level", "a", "b", "equivalent", "error"]
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "rfc1808");
    assert_eq!(v["level"], "scheme");
    assert_eq!(v["a"]["input"], "http://a/~u");
    assert_eq!(v["a"]["normalized"], "http://a/%7Eu");
    assert_eq!(v["b"]["normalized"], "http://a/%7Eu");
    assert!(v["a"]["error"].is_null());
    assert_eq!(v["equivalent"], true);

    let out = run(&["equiv", "--json", "http://a/", "a%g"], None);
    assert_eq!(code(&out), 2);
    // JSON keeps standard error quiet.
    assert!(out.stderr.is_empty());
    let v = &json_lines(&out)[0];
    assert!(v["equivalent"].is_null());
    assert!(v["b"]["normalized"].is_null());
    assert_eq!(v["b"]["error"]["position"], 1);
    assert_eq!(v["b"]["error"]["found"], "%g");
    assert!(v["b"]["error"]["message"].as_str().unwrap().contains("byte 1"));
}

#[test]
fn equiv_options_change_the_verdict() {
    let verdict = |args: &[&str]| code(&run(args, None));
    // `+` is safe in RFC 1808, reserved in the 1996 draft.
    assert_eq!(verdict(&["equiv", "http://a/x+y", "http://a/x%2By"]), 0);
    assert_eq!(
        verdict(&["equiv", "-s", "draft96", "http://a/x+y", "http://a/x%2By"]),
        1
    );
    // The fragment.
    assert_eq!(verdict(&["equiv", "http://a/b#x", "http://a/b#y"]), 0);
    assert_eq!(
        verdict(&[
            "equiv",
            "--include-fragment",
            "http://a/b#x",
            "http://a/b#y"
        ]),
        1
    );
    // The host's case, under a seed spec.
    assert_eq!(verdict(&["equiv", "http://A.com/", "http://a.com/"]), 1);
    assert_eq!(
        verdict(&["equiv", "--host-case", "http://A.com/", "http://a.com/"]),
        0
    );
    // The default port.
    assert_eq!(verdict(&["equiv", "http://a:80/", "http://a/"]), 0);
    assert_eq!(
        verdict(&["equiv", "--no-default-port", "http://a:80/", "http://a/"]),
        1
    );
    // The level (named loosely).
    let (a, b) = ("http://a/%7e", "http://a/~");
    assert_eq!(verdict(&["equiv", "-s", "draft96", a, b]), 0);
    assert_eq!(verdict(&["equiv", "-s", "draft96", "-l", "case", a, b]), 1);
    assert_eq!(
        verdict(&[
            "equiv",
            "-s",
            "draft96",
            "--level",
            "PercentEncoding",
            a,
            b
        ]),
        0
    );
    let out = run(&["equiv", "-l", "case", "--include-fragment", a, b], None);
    assert!(
        stdout(&out).ends_with("(level case, fragments compared)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn equiv_usage_errors_exit_2() {
    for args in [
        &["equiv", "http://a/"][..],
        &["equiv"],
        &["equiv", "a", "b", "c"],
        &["equiv", "--level", "bytes", "a", "b"],
        &["equiv", "--spec", "rfc9999", "a", "b"],
    ] {
        let out = run(args, None);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let err = stderr(&run(&["equiv", "--level", "bytes", "a", "b"], None));
    for level in
        ["string", "case", "percent-encoding", "path-segment", "scheme"]
    {
        assert!(err.contains(level), "{level} missing from {err}");
    }
}

#[test]
fn equiv_help_lists_levels_and_options() {
    let help = stdout(&run(&["equiv", "--help"], None));
    for needle in [
        "- string:",
        "- percent-encoding:",
        "- path-segment:",
        "- scheme:",
        "[default: scheme]",
        "--include-fragment",
        "--no-default-port",
        "--host-case",
        "Comparison options",
        "marie%2Dclaude",
        "Examples:",
        "Exit status: 0 when A and B are equivalent, 1 when they are not, 2",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
}

/// The keys of a `normalize --json` line, in order.
const NORMALIZE_KEYS: [&str; 5] =
    ["input", "spec", "level", "result", "error"];

#[test]
fn normalize_one_line_per_input_aligned() {
    let out = run(
        &[
            "normalize",
            "--spec",
            "rfc3986",
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
            "HTTP://A:80",
        ],
        None,
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "example://a/b/c/%7Bfoo%7D\nhttp://a/\n");
    assert!(out.stderr.is_empty());

    // Standard input, streamed: an error line in place of each bad input.
    let input = b"http://a/~u\r\n%zz\n\xff\nHTTP://A:80/%7e#f\n";
    let out = run(&["normalize"], Some(input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], "http://a/%7Eu");
    assert!(lines[1].starts_with("error: NotComparable: `%zz`"), "{text}");
    assert!(lines[2].starts_with("error: NotUtf8: "));
    assert_eq!(lines[3], "http://A/%7E");
    let err = stderr(&out);
    assert!(err.contains("urlspec: line 2: NotComparable: "), "{err}");
    assert!(err.contains("urlspec: line 3: NotUtf8: "));

    // The options are those of equiv.
    let out = run(
        &[
            "normalize",
            "--include-fragment",
            "--host-case",
            "--no-default-port",
            "HTTP://A:80/%7e#f",
        ],
        None,
    );
    assert_eq!(stdout(&out), "http://a:80/%7E#f\n");
    let out = run(&["normalize", "--level", "string", "HTTP://A/%7e#f"], None);
    assert_eq!(stdout(&out), "HTTP://A/%7e\n");
}

#[test]
fn normalize_json_keys_and_errors() {
    let out = run(&["normalize", "--json"], Some(b"HTTP://a/\n%\n"));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    for line in text.lines() {
        assert_eq!(top_level_keys(line), NORMALIZE_KEYS);
    }
    let v = json_lines(&out);
    assert_eq!(v[0]["result"], "http://a/");
    assert!(v[0]["error"].is_null());
    assert_eq!(v[0]["level"], "scheme");
    assert!(v[1]["result"].is_null());
    assert_eq!(v[1]["error"]["kind"], "NotComparable");
    assert_eq!(v[1]["error"]["position"], 0);
    // Normalizing twice changes nothing more.
    let once =
        stdout(&run(&["normalize", "-s", "rfc3986", "HTTP://a/./%7e/"], None));
    let again =
        stdout(&run(&["normalize", "-s", "rfc3986", once.trim_end()], None));
    assert_eq!(once, again);
}

// ---------------------------------------------------------------------
// urlspec check
// ---------------------------------------------------------------------

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

// ---------------------------------------------------------------------
// urlspec extract
// ---------------------------------------------------------------------

/// The keys of an `extract --output json` line, in order.
const EXTRACT_KEYS: [&str; 11] = [
    "file",
    "line",
    "column",
    "offset",
    "form",
    "url",
    "resolved",
    "ambiguous_hyphen",
    "alternative",
    "relative",
    "too_long",
];

/// TV-TXT-1 … 3: the 1996 draft's own example.
const DRAFT_EXAMPLE: &str = "Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\n      type=d> but you can probably pick it up from <ftp://ds.in\n      ternic.net/rfc>.  Note the warning in <http://ds.internic.\n      net/instructions/overview.html#WARNING>.\n";

#[test]
fn extract_tv_txt_from_standard_input() {
    let out = run(&["extract"], Some(DRAFT_EXAMPLE.as_bytes()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "-:1:28  angle  ftp://info.cern.ch/pub/www/doc;type=d\n\
         -:2:52  angle  ftp://ds.internic.net/rfc\n\
         -:3:45  angle  http://ds.internic.net/instructions/overview.html#WARNING\n"
    );
    // `-` is standard input too.
    let dash = run(&["extract", "-"], Some(DRAFT_EXAMPLE.as_bytes()));
    assert_eq!(stdout(&dash), stdout(&out));
}

#[test]
fn extract_json_keys_flags_and_base() {
    let text = "See <URL:http://a.example/foo-\n  bar> and <URL:../g>, \"../q\" or http://b.example/x.\n";
    let out = run(&["extract", "-o", "json"], Some(text.as_bytes()));
    assert_eq!(code(&out), 0);
    for line in stdout(&out).lines() {
        assert_eq!(top_level_keys(line), EXTRACT_KEYS);
    }
    let v = json_lines(&out);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["file"], "-");
    assert_eq!(
        (v[0]["line"].clone(), v[0]["column"].clone()),
        (1.into(), 5.into())
    );
    assert_eq!(v[0]["offset"], 4);
    assert_eq!(v[0]["form"], "url-prefixed");
    assert_eq!(v[0]["url"], "http://a.example/foo-bar");
    assert!(v[0]["resolved"].is_null());
    assert_eq!(v[0]["ambiguous_hyphen"], true);
    assert_eq!(v[0]["alternative"], "http://a.example/foobar");
    assert_eq!(v[0]["relative"], false);
    assert_eq!(v[1]["form"], "bare");
    assert!(v[1]["alternative"].is_null());

    // --relative adds the relative references; --base resolves them all.
    let args =
        ["extract", "-o", "json", "--relative", "--base", "http://h/d/e"];
    let out = run(&args, Some(text.as_bytes()));
    let v = json_lines(&out);
    let found: Vec<(&str, &str, bool)> = v
        .iter()
        .map(|v| {
            (
                v["url"].as_str().unwrap(),
                v["resolved"].as_str().unwrap(),
                v["relative"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("http://a.example/foo-bar", "http://a.example/foo-bar", false),
            ("../g", "http://h/g", true),
            ("../q", "http://h/q", true),
            ("http://b.example/x", "http://b.example/x", false),
        ]
    );
    // The same as text, with flags.
    let args = ["extract", "--relative", "--base", "http://h/d/e"];
    let out = run(&args, Some(text.as_bytes()));
    assert_eq!(
        stdout(&out),
        "-:1:5  url-prefixed  http://a.example/foo-bar -> http://a.example/foo-bar  [ambiguous-hyphen (or http://a.example/foobar)]\n\
         -:2:12  url-prefixed  ../g -> http://h/g  [relative]\n\
         -:2:24  quoted  ../q -> http://h/q  [relative]\n\
         -:2:34  bare  http://b.example/x -> http://b.example/x\n"
    );
    // --no-bare drops the bare URL.
    let out = run(&["extract", "--no-bare"], Some(text.as_bytes()));
    assert_eq!(stdout(&out).lines().count(), 1);
}

#[test]
fn extract_tsv_has_a_header_row_and_eleven_columns() {
    let out =
        run(&["extract", "--output", "tsv"], Some(DRAFT_EXAMPLE.as_bytes()));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "file\tline\tcolumn\toffset\tform\turl\tresolved\tambiguous_hyphen\talternative\trelative\ttoo_long"
        )
    );
    let rows: Vec<Vec<&str>> =
        lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.len() == 11));
    assert_eq!(
        rows[0],
        [
            "-",
            "1",
            "28",
            "27",
            "angle",
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "",
            "false",
            "",
            "false",
            "false"
        ]
    );
}

#[test]
fn extract_a_form_too_long_is_a_finding_and_fails() {
    // Over 8 KiB between the brackets: reported, not cut into a bare URL
    // at its first line break, and the exit status is 1.
    let text = format!("<URL:http://a/{}\nb> http://c/\n", "x".repeat(9000));
    let out = run(&["extract"], Some(text.as_bytes()));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("-:1:1  url-prefixed  -  [too-long (9015 bytes")
    );
    assert_eq!(lines[1], "-:2:4  bare  http://c/");
    assert!(stderr(&out).contains("not read as a URL"));
}

#[test]
fn extract_files_bytes_and_exit_statuses() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let latin1 = format!("{dir}/extract-latin1.txt");
    std::fs::write(&latin1, b"caf\xe9 <URL:http://x/>\n\xff\n  <http://y/>\n")
        .unwrap();
    let out = run(&["extract", &latin1], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{latin1}:1:6  url-prefixed  http://x/\n{latin1}:3:3  angle  http://y/\n")
    );
    // A missing file: exit status 2, after the other files were read.
    let out = run(&["extract", "no-such-file.txt", &latin1], None);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no-such-file.txt"));
    assert_eq!(stdout(&out).lines().count(), 2);
    // A base that is not absolute is a usage error.
    for base in ["", "../x"] {
        let out = run(&["extract", "--base", base, &latin1], None);
        assert_eq!(code(&out), 2, "{base:?}");
        assert!(out.stdout.is_empty());
        assert!(stderr(&out).contains("not an absolute URL"));
    }
    for args in [
        &["extract", "--output", "xml"][..],
        &["extract", "--spec", "rfc9999"],
    ] {
        assert_eq!(code(&run(args, None)), 2, "{args:?}");
    }
    // No URL at all is no failure.
    assert_eq!(code(&run(&["extract"], Some(b"nothing here\n"))), 0);
}

/// The seed texts, when this checkout sits next to them.
fn seeds_dir() -> Option<std::path::PathBuf> {
    let dir = urlspec_test_support::paths::seeds();
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "notice: {} not found; skipping the extract test over the seeds",
            dir.display()
        );
        None
    }
}

#[test]
fn extract_finds_exactly_the_delimited_urls_of_the_seeds() {
    let Some(dir) = seeds_dir() else { return };
    let tsv = format!(
        "{}/../../testdata/extract/seeds-expected.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let expected: Vec<String> = std::fs::read_to_string(tsv)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect();
    assert!(!expected.is_empty());

    let mut seeds: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seed texts in {}", dir.display());

    let mut got = Vec::new();
    for seed in &seeds {
        let path = seed.to_str().unwrap();
        let out =
            run(&["extract", "--no-bare", "--output", "tsv", path], None);
        assert_eq!(code(&out), 0, "{path}: {}", stderr(&out));
        let text = stdout(&out);
        let mut rows = text.lines();
        assert!(rows.next().unwrap().starts_with("file\tline\t"));
        for row in rows {
            let f: Vec<&str> = row.split('\t').collect();
            assert_eq!(f[0], path);
            let name = seed.file_name().unwrap().to_str().unwrap();
            // file, line, form, url: the columns of the expected list.
            got.push(format!("{name}\t{}\t{}\t{}", f[1], f[4], f[5]));
        }
    }
    if got != expected {
        let missing: Vec<_> =
            expected.iter().filter(|e| !got.contains(e)).collect();
        let extra: Vec<_> =
            got.iter().filter(|g| !expected.contains(g)).collect();
        panic!(
            "urlspec extract differs from seeds-expected.tsv\nmissing: \
             {missing:#?}\nunexpected: {extra:#?}"
        );
    }
}

#[test]
fn extract_help_teaches_with_examples() {
    let help = stdout(&run(&["extract", "--help"], None));
    for needle in [
        "Appendix B",
        "url-prefixed",
        "angle",
        "quoted",
        "bare",
        "--no-bare",
        "--relative",
        "--base",
        "--output",
        "ambiguous_hyphen",
        "alternative",
        "Examples:",
        "| jq",
        "Exit status",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
}

// ---- the WHATWG URL Standard (feature `whatwg`) ----

/// Whether this build has the `whatwg` spec.
const WHATWG: bool = cfg!(feature = "whatwg");

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

#[test]
fn resolve_whatwg_single_pairs_and_all_specs() {
    if !WHATWG {
        return;
    }
    let args = ["resolve", "-s", "whatwg", "-b", BASE, "../../../g", "g\\h"];
    let out = run(&args, None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "http://a/g\nhttp://a/b/c/g/h\n");

    let input = format!("{BASE}\t;x\n\tg\nhttp://a/\thttp://[\n");
    let out = run(
        &["resolve", "--pairs", "--json", "-s", "whatwg"],
        Some(input.as_bytes()),
    );
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["result"], "http://a/b/c/;x");
    assert_eq!(lines[0]["spec"], "whatwg");
    assert_eq!(lines[1]["error"]["kind"], "NoBase");
    assert_eq!(lines[2]["error"]["kind"], "InvalidReference");

    let out = run(&["resolve", "--all-specs", "-b", BASE, "g\\h"], None);
    let text = stdout(&out);
    assert!(text.contains("* whatwg      http://a/b/c/g/h\n"), "{text}");
    assert!(text.contains("  rfc3986     http://a/b/c/g\\h\n"), "{text}");
}

#[test]
fn other_commands_take_whatwg() {
    if !WHATWG {
        let out = run(&["equiv", "-s", "whatwg", "a:", "a:"], None);
        assert_eq!(code(&out), 2);
        return;
    }
    // equiv and normalize: the standard's serialization is the normal form.
    let out =
        run(&["equiv", "-s", "whatwg", "HTTP://A:80/./b", "http://a/b"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = run(&["equiv", "-s", "whatwg", "g", "g"], None);
    assert_eq!(code(&out), 2);
    let out =
        run(&["normalize", "-s", "whatwg", "HTTP://A:80/x/../y#f", "g"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("http://a/y\nerror: NotComparable: "), "{text}");

    // check: the browsers' reading of a backslash is a high finding.
    let out = run(&["check", "--json", "-s", "whatwg", "http://a\\@b/"], None);
    assert_eq!(code(&out), 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "whatwg");
    assert_eq!(v["max_severity"], "high");

    // scheme: the view reads the serialization a browser requests.
    let out =
        run(&["scheme", "--json", "-s", "whatwg", "HTTP://a\\b/c"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["input"], "HTTP://a\\b/c");
    assert_eq!(v["spec"], "whatwg");
    assert!(field_values(v, "host") == ["a"], "{v}");
    let out = run(&["scheme", "-s", "whatwg", "HTTP://a\\b/c"], None);
    assert!(stdout(&out).contains("\n  href  "), "{}", stdout(&out));

    // extract and links resolve through the library's resolver.
    let text = b"see <http://a\\b/x> and \"../y\"\n";
    let args = ["extract", "-s", "whatwg", "--relative", "-b", "http://h/d/"];
    let out = run(&args, Some(text));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = stdout(&out);
    assert!(got.contains("http://a\\b/x -> http://a/b/x"), "{got}");
    assert!(got.contains("../y -> http://h/y"), "{got}");
    let out =
        run(&["links", "--sample", "-s", "whatwg", "--output", "json"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let links = json_lines(&out);
    assert!(!links.is_empty());
    assert!(links.iter().all(|l| l["error"].is_null()), "{links:?}");
    assert!(links.iter().any(|l| l["url"] == "http://archive.example.org/g"));
}

// ---- urlspec diff ----

/// Runs `urlspec` with `args`, `stdin` and extra environment variables.
fn run_env(
    args: &[&str],
    stdin: Option<&[u8]>,
    env: &[(&str, &str)],
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_urlspec"));
    command
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the urlspec binary runs");
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// Where the seed specs disagree, as `testdata/diff/spec-5.7.toml` gives it.
fn spec_5_7() -> toml::Table {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/diff/spec-5.7.toml"
    );
    let text = std::fs::read_to_string(path).expect("the §5.7 table");
    text.parse().expect("the §5.7 table is TOML")
}

const SEEDS: [&str; 4] = ["rfc1630", "draft04", "rfc1808", "draft96"];

#[test]
fn diff_json_reproduces_the_spec_5_7_table() {
    let table = spec_5_7();
    let b0 = table["base"].as_str().unwrap();
    let rows = table["row"].as_array().unwrap();
    assert!(rows.len() >= 16);
    let specs = SEEDS.join(",");
    for row in rows {
        let input = row["input"].as_str().unwrap();
        let base = row.get("base").and_then(|b| b.as_str()).unwrap_or(b0);
        let args =
            ["diff", "--json", "--base", base, "--specs", &specs, "--", input];
        let out = run(&args, None);
        let v = &json_lines(&out)[0];
        assert_eq!(v["input"], input);
        assert_eq!(v["base"], base);
        assert_eq!(v["specs"], serde_json::json!(SEEDS));
        let mut answers: Vec<&str> = Vec::new();
        for (got, spec) in v["rows"].as_array().unwrap().iter().zip(SEEDS) {
            let want = row[spec].as_str().unwrap();
            assert_eq!(got["spec"], spec);
            assert_eq!(got["cells"]["result"], want, "{input:?} under {spec}");
            assert!(got["error"].is_null());
            if !answers.contains(&want) {
                answers.push(want);
            }
        }
        // One difference, its groups the distinct answers in spec order,
        // explained; a security matter only when the scheme or host moves;
        // the exit status says so.
        let agree = answers.len() == 1;
        assert_eq!(v["agree"], agree, "{input:?}");
        assert_eq!(code(&out), if agree { 0 } else { 1 }, "{input:?}");
        if agree {
            continue;
        }
        let d = &v["differences"].as_array().unwrap()[..];
        assert_eq!(d.len(), 1, "{input:?}");
        assert_eq!(d[0]["column"], "result");
        let moves = ["http:g", "http:", "a@b:c", "1x:y", "//g"];
        assert_eq!(d[0]["security"], moves.contains(&input), "{input:?}");
        let values: Vec<&str> = d[0]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["value"].as_str().unwrap())
            .collect();
        assert_eq!(values, answers, "{input:?}");
        assert!(!d[0]["explanations"].as_array().unwrap().is_empty());
    }

    // The parse row: `http://a?q`.
    let parse = &table["parse"];
    let input = parse["input"].as_str().unwrap();
    let out = run(&["diff", "--json", "--specs", &specs, input], None);
    assert_eq!(code(&out), 1);
    let v = &json_lines(&out)[0];
    assert!(v["base"].is_null());
    for (got, spec) in v["rows"].as_array().unwrap().iter().zip(SEEDS) {
        assert_eq!(got["spec"], spec);
        for (key, want) in parse[spec].as_table().unwrap() {
            if key == "valid" {
                assert_eq!(got["valid"], want.as_bool().unwrap(), "{spec}");
            } else {
                assert_eq!(
                    got["cells"][key],
                    want.as_str().unwrap(),
                    "{spec} {key}"
                );
            }
        }
    }
    let host = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["column"] == "host")
        .expect("the host differs");
    assert_eq!(host["security"], true);
    assert!(host["explanations"][0]
        .as_str()
        .unwrap()
        .starts_with("the net_loc ends at"));
}

#[test]
fn diff_json_has_the_keys_in_order() {
    let out = run(&["diff", "--json", "http://a/b"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1);
    assert_eq!(
        top_level_keys(text.trim_end()),
        ["input", "base", "specs", "rows", "differences", "agree", "error"]
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["specs"], serde_json::json!(spec_names()));
    assert_eq!(v["agree"], true);
    assert_eq!(v["differences"], serde_json::json!([]));
    let row = &v["rows"][0];
    let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 4);
    let cells = row["cells"].as_object().unwrap();
    assert_eq!(cells.len(), 10);
    assert!(cells["port"].is_null());
    assert_eq!(cells["path"], "/b");
}

/// The differences of `urlspec diff --json INPUT` under every spec.
fn diff_differences(input: &str) -> Vec<Value> {
    let out = run(&["diff", "--json", "--", input], None);
    assert_eq!(code(&out), 1, "{input}: {}", stdout(&out));
    json_lines(&out)[0]["differences"].as_array().unwrap().clone()
}

#[test]
fn diff_flags_host_confusion_as_security() {
    // `?` ends the net_loc in RFC 1630, 2396, 3986: host a; in RFC 1808
    // the net_loc runs to the `/`: user `a?`, host b.
    let d = diff_differences("http://a?@b/");
    let host = d.iter().find(|d| d["column"] == "host").unwrap();
    assert_eq!(host["security"], true);
    let groups = host["groups"].as_array().unwrap();
    let specs_of = |value: &str| -> Vec<String> {
        let g = groups.iter().find(|g| g["value"] == value).unwrap();
        g["specs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    assert!(specs_of("a").contains(&"rfc3986".to_owned()));
    assert!(specs_of("b").contains(&"rfc1808".to_owned()));
    assert!(d.iter().any(|d| d["column"] == "user" && d["security"] == true));

    // Two `@`: RFC 2396 finds no server (a reg_name), the others host c.
    let d = diff_differences("http://a@b@c/");
    assert!(
        d.iter().any(|d| d["column"] == "host" && d["security"] == true),
        "{d:?}"
    );

    if WHATWG {
        // A backslash: data to the RFCs (host b), `/` to browsers (host a).
        let d = diff_differences("http://a\\@b/");
        let host = d.iter().find(|d| d["column"] == "host").unwrap();
        assert_eq!(host["security"], true);
        assert_eq!(host["groups"][1]["value"], "a");
        assert_eq!(host["groups"][1]["specs"], serde_json::json!(["whatwg"]));
        assert!(host["explanations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().starts_with("a backslash is")));
    }

    // The text says so too.
    let out = run(&["diff", "http://a?@b/"], None);
    let text = stdout(&out);
    assert!(text.contains("\nhost  [security]\n"), "{text}");
    assert!(
        text.contains("\n  b  <- draft04, rfc1808, draft96, draft96dec\n"),
        "{text}"
    );
}

#[test]
fn diff_text_matrix_and_differences() {
    let specs = SEEDS.join(",");
    let out = run(&["diff", "--specs", &specs, "http://a?q"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "input  http://a?q");
    let header = lines[2];
    for column in [
        "scheme", "net_loc", "user", "password", "host", "port", "path",
        "params", "query", "fragment", "valid",
    ] {
        assert!(header.contains(column), "{column}: {header}");
    }
    // One row per spec; RFC 1630's answers are the minority, marked.
    assert!(lines[3].starts_with("  rfc1630   http    *a "), "{text}");
    assert!(lines[4].starts_with("  draft04   http     a?q "), "{text}");
    assert!(
        lines[6].ends_with(" no"),
        "the 1996 draft finds `?` invalid: {text}"
    );
    assert!(text.contains("\nnet_loc\n  a    <- rfc1630\n  a?q  <- draft04, rfc1808, draft96\n  why: the net_loc ends at"), "{text}");
    assert!(
        text.contains("\n  (absent)  <- draft04, rfc1808, draft96\n"),
        "{text}"
    );
    assert!(text.ends_with("\nthe specs disagree on 3 of 10 columns: net_loc, host [security], query\n"), "{text}");

    // With --base: one result column.
    let args =
        ["diff", "--specs", "rfc1808,rfc3986", "-b", BASE, "../../../g"];
    let out = run(&args, None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "reference  ../../../g\nbase       {BASE}\n\n"
        )),
        "{text}"
    );
    assert!(text.contains("\n            result\n  rfc1808   http://a/../g\n  rfc3986  *http://a/g\n"), "{text}");
    assert!(text.contains("why: `..` above the root is"), "{text}");

    // Agreement: exit status 0, no differences.
    let out = run(&["diff", "http://example.com/a/b?c#d"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.ends_with(&format!(
            "\n\nthe {} specs agree\n",
            spec_names().len()
        )),
        "{text}"
    );
    assert!(!text.contains("why:"));
}

#[test]
fn diff_output_has_no_escape_codes_off_a_terminal_or_with_no_color() {
    for env in [&[][..], &[("NO_COLOR", "1")]] {
        let out = run_env(&["diff", "http://a?@b/"], None, env);
        assert_eq!(code(&out), 1);
        assert!(!out.stdout.contains(&0x1b), "{env:?}");
        let input = b"http://a?@b/\nhttp://a/\n";
        let out = run_env(&["diff", "--batch"], Some(input), env);
        assert!(!out.stdout.contains(&0x1b), "{env:?}");
    }
}

#[test]
fn diff_batch_prints_only_the_disagreements() {
    let input = b"http://a/b\nhttp://a?@b/\r\nhttps://example.com/x?y#z\n\nhttp://a@b@c/\n";
    let specs = "rfc1808,rfc3986";
    let out = run(&["diff", "--batch", "--specs", specs], Some(input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("http://a?@b/\n  net_loc\n    a?@b  <- rfc1808\n    a     <- rfc3986\n"), "{text}");
    assert!(
        text.contains(
            "\n  host  [security]\n    b  <- rfc1808\n    a  <- rfc3986\n"
        ),
        "{text}"
    );
    assert!(!text.contains("http://a/b\n"), "{text}");
    assert!(!text.contains("example.com"), "{text}");
    // The summary ends the text output.
    assert!(text.ends_with("\n\n5 inputs read, 1 disagree, 1 security-relevant\nmost common disagreements (columns):\n  1  net_loc, user, host, path, query\n"), "{text}");
    assert!(out.stderr.is_empty(), "{}", stderr(&out));

    // JSON: one line per disagreement; the summary on standard error.
    let out =
        run(&["diff", "--batch", "--json", "--specs", specs], Some(input));
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["input"], "http://a?@b/");
    assert_eq!(lines[0]["agree"], false);
    assert!(stderr(&out)
        .starts_with("5 inputs read, 1 disagree, 1 security-relevant\n"));

    // Every spec agrees: nothing but the summary, exit status 0.
    let out = run(&["diff", "--batch"], Some(b"http://a/b\nhttps://h/x?y\n"));
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "2 inputs read, 0 disagree, 0 security-relevant\n"
    );

    // --security-only: `g;x` splits RFC 1808 and RFC 3986 on params only.
    let input = b"g;x\nhttp://a/b;p\n";
    let args = ["diff", "--batch", "--security-only", "--specs", specs];
    let out = run(&args, Some(input));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "2 inputs read, 2 disagree, 0 security-relevant\n"
    );
    let out = run(&["diff", "--batch", "--specs", specs], Some(input));
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("g;x\n  path\n"), "{text}");
    assert!(text.contains("\n\nhttp://a/b;p\n  path\n"), "{text}");
}

#[test]
fn diff_batch_with_base_or_pairs() {
    let specs = SEEDS.join(",");
    let out = run(
        &["diff", "--batch", "-b", BASE, "--specs", &specs],
        Some(b"g\n?y\n"),
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with(&format!("?y against {BASE}\n  result\n    http://a/b/c/?y     <- rfc1630\n")), "{text}");
    assert!(!text.contains("\ng against"), "{text}");

    let mut input =
        format!("{BASE}\tg\n{BASE}\t../../../g\nno tab\n").into_bytes();
    input.extend_from_slice(b"\xff\tx\n"); // not UTF-8
    let out = run(
        &[
            "diff",
            "--batch",
            "--pairs",
            "--json",
            "--specs",
            "rfc1808,rfc3986",
        ],
        Some(&input),
    );
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["base"], BASE);
    assert_eq!(lines[0]["input"], "../../../g");
    assert_eq!(lines[0]["rows"][1]["cells"]["result"], "http://a/g");
    assert!(lines[0]["error"].is_null());
    // The lines without a comparison, in their place, with their numbers.
    assert_eq!(lines[1]["input"], "no tab");
    assert_eq!(lines[1]["error"]["kind"], "MissingTab");
    assert_eq!(lines[1]["error"]["line"], 3);
    assert!(lines[1]["agree"].is_null());
    assert!(lines[2]["input"].is_null());
    assert_eq!(lines[2]["error"]["kind"], "NotUtf8");
    assert_eq!(lines[2]["error"]["line"], 4);
    let err = stderr(&out);
    assert_eq!(
        err,
        "4 inputs read, 1 disagree, 0 security-relevant, 2 lines with an \
         error\nmost common disagreements (columns):\n  1  result\n"
    );
}

#[test]
fn diff_usage_errors_exit_2() {
    for args in [
        &["diff"][..],
        &["diff", "--batch", "x"],
        &["diff", "--specs", "rfc1808", "x"],
        &["diff", "--specs", "rfc1808,rfc9999", "x"],
        &["diff", "--specs", "", "x"],
        &["diff", "--pairs", "x"],
        &["diff", "--security-only", "x"],
        &["diff", "--batch", "--pairs", "--base", "http://a/"],
        &["diff", "x", "y"],
    ] {
        let out = run(args, Some(b""));
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let err = stderr(&run(&["diff", "--specs", "rfc1808,nope", "x"], None));
    assert!(err.contains("nope") && err.contains("all"), "{err}");
    assert!(err.contains("rfc3986"), "{err}");
}

#[test]
fn diff_help_teaches_with_examples() {
    let help = stdout(&run(&["diff", "--help"], None));
    for needle in [
        "--base",
        "--specs",
        "--batch",
        "--pairs",
        "--security-only",
        "--json",
        "[security]",
        "(absent)",
        "NO_COLOR",
        "explanations",
        "Examples:",
        "| jq",
        "< urls.txt",
        "Exit status",
        "[default: all]",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
    let top = stdout(&run(&["--help"], None));
    assert!(top.contains("diff"), "{top}");
}

// ---- urlspec completions, urlspec man ----

const SUBCOMMANDS: [&str; 11] = [
    "parse",
    "resolve",
    "links",
    "scheme",
    "equiv",
    "normalize",
    "check",
    "diff",
    "extract",
    "completions",
    "man",
];

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell], None);
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell}: {name}");
        }
    }
    let out = run(&["completions", "tcsh"], None);
    assert_eq!(code(&out), 2);
}

#[test]
fn man_pages_name_every_subcommand() {
    let out = run(&["man"], None);
    assert_eq!(code(&out), 0);
    let page = stdout(&out);
    assert!(page.contains(".TH urlspec 1"), "{page}");
    for name in SUBCOMMANDS {
        assert!(page.contains(&format!("urlspec\\-{name}(1)")), "{name}");
    }
    let dir = std::env::temp_dir()
        .join(format!("urlspec-man-test-{}", std::process::id()));
    let out = run(&["man", "--dir", dir.to_str().unwrap()], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for name in SUBCOMMANDS {
        let page =
            std::fs::read_to_string(dir.join(format!("urlspec-{name}.1")))
                .unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(page.contains(&format!(".TH urlspec-{name} 1")), "{page}");
    }
    assert!(dir.join("urlspec.1").is_file());
    assert!(!dir.join("urlspec-help.1").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
