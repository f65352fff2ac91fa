//! `urlspec diff`.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::cli::{run, spec_names, top_level_keys, BASE, WHATWG};
use common::{code, json_lines, stderr, stdout};
use serde_json::Value;

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
