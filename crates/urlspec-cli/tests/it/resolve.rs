//! `urlspec resolve`.

use crate::common;

use common::cli::{run, spec_names, top_level_keys, BASE, WHATWG};
use common::{code, json_lines, stderr, stdout};

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
