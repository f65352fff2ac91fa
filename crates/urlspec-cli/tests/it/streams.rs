//! Every command that reads a stream of inputs answers each one in place:
//! a line that cannot be answered gets its error record where its answer
//! would be, the lines after it are answered, and the exit status says so
//! once the stream has ended. And `-` stands for standard input wherever
//! inputs are given; output that cannot be written is an error, never a
//! success.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use common::{code, json_lines, run, stdout};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Three lines, the middle one not UTF-8.
const BAD_MIDDLE: &[u8] = b"http://a/b\n\xffx\nhttp://c/d\n";

/// The commands that read one input per line, each with the arguments that
/// make it read standard input, and the JSON key its records give the
/// input under.
fn line_commands() -> Vec<(Vec<&'static str>, &'static str)> {
    vec![
        (vec!["parse"], "input"),
        (vec!["scheme"], "input"),
        (vec!["check"], "input"),
        (vec!["normalize"], "input"),
        (vec!["resolve", "--base", "http://h/x/y"], "reference"),
        (
            vec!["resolve", "--all-specs", "--base", "http://h/x/y"],
            "reference",
        ),
        (vec!["resolve", "--relative", "--base", "http://h/x/y"], "target"),
    ]
}

#[test]
fn a_bad_middle_line_gets_its_json_record_in_place() {
    for (args, key) in line_commands() {
        let mut json = args.clone();
        json.push("--json");
        let out = run(&json, BAD_MIDDLE);
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 3, "{args:?}: {}", stdout(&out));
        assert_eq!(lines[0][key], "http://a/b", "{args:?}");
        assert!(lines[1][key].is_null(), "{args:?}: {}", lines[1]);
        let kind = lines[1]["error"]["kind"]
            .as_str()
            .or_else(|| lines[1]["rfc1808"]["error"]["kind"].as_str());
        assert_eq!(kind, Some("NotUtf8"), "{args:?}: {}", lines[1]);
        assert_eq!(lines[2][key], "http://c/d", "{args:?}");
        // The same through `-`.
        json.push("-");
        let again = run(&json, BAD_MIDDLE);
        assert_eq!(again.stdout, out.stdout, "{args:?} -");
        assert_eq!(code(&again), 1, "{args:?} -");
    }
}

#[test]
fn a_bad_middle_line_gets_its_text_record_in_place() {
    for (args, _) in line_commands() {
        let out = run(&args, BAD_MIDDLE);
        assert_eq!(code(&out), 1, "{args:?}");
        let text = stdout(&out);
        let error = "error: NotUtf8: not UTF-8 (invalid byte at column 1)";
        let at =
            text.find(error).unwrap_or_else(|| panic!("{args:?}: {text}"));
        // The first line is answered before it and the last after it.
        let (before, after) = (&text[..at], &text[at..]);
        assert!(
            before.contains("http://a/b") || args[0] == "resolve",
            "{text}"
        );
        assert!(after.contains("c/d"), "{args:?}: {text}");
        assert!(
            stderr(&out).contains("urlspec: line 2: NotUtf8: not UTF-8"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // Resolution keeps one line per input, the error in the middle.
    let out = run(&["resolve", "--base", "http://h/x/y"], BAD_MIDDLE);
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "http://a/b");
    assert!(lines[1].starts_with("error: NotUtf8: "), "{lines:?}");
    assert_eq!(lines[2], "http://c/d");
}

#[test]
fn check_only_findings_leaves_out_clean_urls_and_keeps_errors() {
    let out = run(&["check", "--only-findings", "http://a/"], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "");
    let out = run(&["check", "--only-findings", "--json", "http://a/"], b"");
    assert_eq!(stdout(&out), "");
    let input = b"http://a/\nhttp://a:25/\n\xff\nhttp://b/\nhttp://u:p@b/\n";
    let out = run(&["check", "--only-findings"], input);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("http://a:25/\n  1 finding"), "{text}");
    assert!(!text.contains("no findings"), "{text}");
    assert!(!text.contains("http://a/\n"), "{text}");
    assert!(text.contains("\n\nerror: NotUtf8:"), "{text}");
    assert!(text.contains("\n\nhttp://u:p@b/\n"), "{text}");
    let out = run(&["check", "--only-findings", "--json"], input);
    let inputs: Vec<Value> =
        json_lines(&out).iter().map(|v| v["input"].clone()).collect();
    assert_eq!(
        inputs,
        [Value::from("http://a:25/"), Value::Null, "http://u:p@b/".into()]
    );
}

#[test]
fn diff_batch_prints_a_bad_line_in_place() {
    let input = b"http://a?@b/\n\xff\nhttp://x?@y/\n";
    let args = ["diff", "--specs", "rfc1808,rfc3986", "-"];
    let out = run(&args, input);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let first = text.find("http://a?@b/\n").unwrap();
    let bad = text.find("\n\nline 2\n  error: NotUtf8: not UTF-8").unwrap();
    let last = text.find("\n\nhttp://x?@y/\n").unwrap();
    assert!(first < bad && bad < last, "{text}");
    assert!(text.ends_with(
        "3 inputs read, 2 disagree, 2 security-relevant, 1 line with an \
         error\nmost common disagreements (columns):\n  2  net_loc, user, \
         host, path, query\n"
    ));
    // `-` is --batch.
    let batch = run(&["diff", "--batch", "--specs", "rfc1808,rfc3986"], input);
    assert_eq!(batch.stdout, out.stdout);
    let out =
        run(&["diff", "--json", "--specs", "rfc1808,rfc3986", "-"], input);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["error"]["kind"], "NotUtf8");
    assert_eq!(lines[1]["error"]["line"], 2);
    assert_eq!(lines[2]["input"], "http://x?@y/");
}

#[test]
fn equiv_compares_one_url_with_every_line_of_standard_input() {
    let input = b"http://a/%7e\n\xff\nhttp://a/x\nhttp://a/~\n";
    let out = run(&["equiv", "--json", "http://a/~", "-"], input);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["equivalent"], true);
    assert_eq!(lines[0]["b"]["input"], "http://a/%7e");
    assert_eq!(lines[1]["error"]["kind"], "NotUtf8");
    assert!(lines[1]["equivalent"].is_null());
    assert_eq!(lines[2]["equivalent"], false);
    assert_eq!(lines[3]["equivalent"], true);
    // A of -: the lines are A.
    let out = run(&["equiv", "--json", "-", "http://a/~"], b"http://a/%7E\n");
    assert_eq!(code(&out), 0);
    assert_eq!(json_lines(&out)[0]["a"]["input"], "http://a/%7E");
    // Text: one block per line; a URL that cannot be compared is status 2.
    let out = run(&["equiv", "http://a/~", "-"], b"http://a/~\nx%zz\n");
    assert_eq!(code(&out), 2);
    let text = stdout(&out);
    assert!(text.contains("equivalent under rfc1808"), "{text}");
    assert!(text.contains("\n\nA  http://a/~\n"), "{text}");
    assert!(text.contains("cannot compare under rfc1808: B"), "{text}");
    let out = run(&["equiv", "-", "-"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("only one of A and B can be -"));
}

#[test]
fn dash_stands_for_standard_input_among_the_arguments() {
    let out = run(&["parse", "--json", "x:1", "-", "x:3"], b"x:2a\nx:2b\n");
    assert_eq!(code(&out), 0);
    let inputs: Vec<Value> =
        json_lines(&out).iter().map(|v| v["input"].clone()).collect();
    assert_eq!(inputs, ["x:1", "x:2a", "x:2b", "x:3"].map(Value::from));
    for args in [
        &["scheme", "--json", "-"][..],
        &["check", "--json", "-"],
        &["normalize", "--json", "-"],
        &["resolve", "--json", "--base", "http://h/", "-"],
    ] {
        let out = run(args, b"http://a/b\n");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1, "{args:?}");
        let given = lines[0].get("input").unwrap_or(&lines[0]["reference"]);
        assert_eq!(given, "http://a/b", "{args:?}");
    }
    // `-` is never taken as the reference `-` itself.
    let out = run(&["parse", "--json", "-"], b"");
    assert_eq!(stdout(&out), "");
    let help = stdout(&run(&["parse", "--help"], b""));
    assert!(help.contains("an argument of - stands for the lines"), "{help}");
}

#[test]
fn a_middle_input_the_library_fails_on_does_not_end_the_stream() {
    // Inputs on which library functions once panicked: whether they
    // still do or not, the line after them is answered.
    for (args, middle) in [
        (&["scheme", "--json"][..], "ftp://h/x;a日本"),
        (&["scheme", "--json"], "file:///%2ü"),
    ] {
        let input = format!("http://a/b\n{middle}\nhttp://c/d\n");
        let out = run(args, input.as_bytes());
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 3, "{args:?} {middle}: {}", stderr(&out));
        assert_eq!(lines[1]["input"], middle);
        assert_eq!(lines[2]["input"], "http://c/d");
        assert!(lines[2]["error"].is_null());
        if !lines[1]["error"].is_null() {
            assert_eq!(lines[1]["error"]["kind"], "InternalError");
            assert_eq!(code(&out), 1);
        }
    }
}

#[test]
fn carets_stay_under_wide_characters_and_combining_marks() {
    // `{` after two CJK characters (four columns) and after `e` with a
    // combining acute accent (one column).
    for (input, column) in [("http://a/日本{", 13), ("http://a/e\u{301}{", 10)]
    {
        let out = run(&["parse", input], b"");
        let text = stdout(&out);
        let caret = text.lines().find(|l| l.contains("^ rule pchar: '{'"));
        let caret = caret.unwrap_or_else(|| panic!("{text}"));
        // Two spaces of indent, then the input.
        assert_eq!(caret.find('^'), Some(2 + column), "{text}");
    }
    let out = run(&["parse", "http://a/日{"], b"");
    let text = stdout(&out);
    assert!(text.contains("\n           ^^ rule pchar: '日'"), "{text}");
}

#[test]
fn plurals_agree_with_their_numbers() {
    let out = run(&["diff", "--batch"], b"http://a/\n");
    assert_eq!(
        stdout(&out),
        "1 input read, 0 disagree, 0 security-relevant\n"
    );
    let out = run(
        &["diff", "--specs", "rfc1808,rfc2396", "-b", "http://a", "g"],
        b"",
    );
    let text = stdout(&out);
    assert!(
        text.contains("\nthe specs disagree on 1 of 1 column: "),
        "{text}"
    );
}

/// Standard output to `/dev/full`: every write fails.
#[cfg(target_os = "linux")]
fn run_to_full(args: &[&str], stdin: &[u8]) -> Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let full = full.expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child.wait_with_output().unwrap();
    // The command may stop reading before the end of its input.
    let _ = writer.join().unwrap();
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_exit_status_2_with_no_success_summary() {
    let urls = b"http://a/b\nhttp://a?@b/\n";
    let commands: &[&[&str]] = &[
        &["links", "--sample", "--output", "json"],
        &["links", "--sample", "--output", "tsv"],
        &["links", "--sample"],
        &["parse", "--json"],
        &["parse"],
        &["scheme"],
        &["check", "--json"],
        &["normalize"],
        &["resolve", "--base", "http://h/"],
        &["resolve", "--pairs", "--json"],
        &["resolve", "--all-specs", "--base", "http://h/"],
        &["equiv", "http://a/", "http://a/"],
        &["equiv", "http://a/", "-"],
        &["diff", "http://a?@b/"],
        &["diff", "--batch"],
        &["diff", "--batch", "--json"],
        &["extract", "--output", "json"],
        &["completions", "bash"],
        &["man"],
        &["--help"],
        &["parse", "--help"],
    ];
    for args in commands {
        let input: &[u8] =
            if args.contains(&"--pairs") { b"http://h/\tg\n" } else { urls };
        let out = run_to_full(args, input);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("urlspec: writing standard output: No space left"),
            "{args:?}: {err}"
        );
        // No summary of a run whose output was lost.
        assert!(!err.contains(" read,") && !err.contains("links,"), "{err}");
    }
}

#[test]
fn extract_reads_past_bytes_that_are_not_utf8_and_dash_is_standard_input() {
    let out = run(&["extract", "--output", "json", "-"], BAD_MIDDLE);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let urls: Vec<Value> =
        json_lines(&out).iter().map(|v| v["url"].clone()).collect();
    assert_eq!(urls, ["http://a/b", "http://c/d"].map(Value::from));
    assert_eq!(json_lines(&out)[1]["line"], 3);
}
