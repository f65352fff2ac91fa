//! The `urlspec` binary on hostile input: lines that are not UTF-8, a
//! 10 MB line, NUL bytes and right-to-left overrides in a line, a hundred
//! thousand lines in a stream, MIME messages nested past the limit and
//! WARC archives cut short.
//!
//! Each test runs the binary the way the per-subcommand files do and checks its
//! output and exit status: exact where the answer is known, never timed.
//! Standard input is written from a thread of its own, so that a large
//! input and a large output cannot block each other on the pipes. A test
//! marked `#[ignore = "bug: …"]` documents a reported defect: it fails
//! until the defect is fixed.

use std::process::Output;

use crate::common;
use common::{json_lines, run, stderr, stdout};

use serde_json::Value;
use serde_json::Value::Null;
use urlspec_test_support::mime::nested_multipart;

/// The exit status, or a failure naming the signal that ended the process.
fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or_else(|| {
        panic!(
            "urlspec did not exit: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

const MB: usize = 1 << 20;
const BASE: &str = "http://a/b/c/d;p?q";

// ---------------------------------------------------------------------------
// Lines that are not UTF-8
// ---------------------------------------------------------------------------

#[test]
fn parse_answers_a_line_that_is_not_utf8_in_its_place_and_goes_on() {
    let input = b"http://a/1\n\xff\xfe\nhttp://a/\xc3(\nhttp://a/4\n\x80";
    let out = run(&["parse", "--json"], input);
    assert_eq!(code(&out), 1);
    // Every line has its record, in order: lines 1 and 4 are answered, the
    // others are errors in their place.
    let lines = json_lines(&out);
    let inputs: Vec<_> = lines.iter().map(|v| v["input"].clone()).collect();
    assert_eq!(
        inputs,
        ["http://a/1".into(), Null, Null, "http://a/4".into(), Null]
    );
    let messages: Vec<_> =
        lines.iter().map(|v| v["error"]["message"].clone()).collect();
    assert_eq!(
        messages,
        [
            Null,
            "not UTF-8 (invalid byte at column 1)".into(),
            "not UTF-8 (invalid byte at column 10)".into(),
            Null,
            "not UTF-8 (invalid byte at column 1)".into(),
        ]
    );
    assert_eq!(stderr(&out), "");
    // The same without --json, and on standard error with the line numbers.
    let out = run(&["parse"], input);
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out).matches("valid under rfc1808").count(), 2);
    assert_eq!(stdout(&out).matches("error: NotUtf8: ").count(), 3);
    assert_eq!(
        stderr(&out),
        "urlspec: line 2: NotUtf8: not UTF-8 (invalid byte at column 1)\n\
         urlspec: line 3: NotUtf8: not UTF-8 (invalid byte at column 10)\n\
         urlspec: line 5: NotUtf8: not UTF-8 (invalid byte at column 1)\n"
    );
}

#[test]
fn resolve_pairs_answer_a_line_that_is_not_utf8_in_its_place() {
    // Invalid bytes in the reference, then in the base. The column counts
    // the characters of the whole line, base and TAB included.
    let input =
        b"http://a/b/\tc\nhttp://a/b/\t\xffg\n\xfe\tg\nhttp://a/b/\td\n";
    let out = run(&["resolve", "--pairs", "--spec", "rfc3986"], input);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "http://a/b/c\n\
         error: NotUtf8: not UTF-8 (invalid byte at column 13)\n\
         error: NotUtf8: not UTF-8 (invalid byte at column 1)\n\
         http://a/b/d\n"
    );
    assert_eq!(
        stderr(&out),
        "urlspec: line 2: NotUtf8: not UTF-8 (invalid byte at column 13)\n\
         urlspec: line 3: NotUtf8: not UTF-8 (invalid byte at column 1)\n"
    );
    // In JSON, the error object stands in the record of its line.
    let out = run(&["resolve", "--pairs", "--json"], input);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["error"]["kind"], "NotUtf8");
    assert_eq!(lines[3]["result"], "http://a/b/d");
}

#[test]
fn resolve_against_a_base_answers_each_line() {
    let mut input = Vec::new();
    for i in 0..1000 {
        input.extend_from_slice(if i % 10 == 3 { b"\xff" } else { b"g" });
        input.push(b'\n');
    }
    let out = run(&["resolve", "-b", BASE], &input);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 1000);
    for (i, line) in lines.iter().enumerate() {
        let want = if i % 10 == 3 {
            "error: NotUtf8: not UTF-8 (invalid byte at column 1)"
        } else {
            "http://a/b/c/g"
        };
        assert_eq!(*line, want, "line {}", i + 1);
    }
    assert_eq!(stderr(&out).lines().count(), 100);
}

// ---------------------------------------------------------------------------
// A 10 MB line
// ---------------------------------------------------------------------------

#[test]
fn a_10_mb_line_is_parsed_whole() {
    let url = format!("http://a/{}", "x".repeat(10 * MB));
    let out = run(&["parse", "--json", "--spec", "rfc3986"], url.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    // (No `assert_eq!` on 10 MB strings: a failure would print them.)
    assert!(lines[0]["input"].as_str() == Some(url.as_str()));
    assert_eq!(lines[0]["path"].as_str().map(str::len), Some(10 * MB + 1));
    assert_eq!(lines[0]["valid"], true);
    // And followed by a short line, with a CR LF between them.
    let input = format!("{url}\r\nhttp://b/\n");
    let out = run(&["parse", "--json"], input.as_bytes());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["input"].as_str().map(str::len), Some(url.len()));
    assert_eq!(lines[1]["input"], "http://b/");
}

#[test]
fn a_10_mb_line_of_dotdots_resolves_to_the_root() {
    let reference = format!("{}g", "../".repeat(10 * MB / 3));
    let out = run(
        &["resolve", "--spec", "rfc3986", "-b", BASE],
        reference.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout == b"http://a/g\n", "{} bytes", out.stdout.len());
    // As a `--pairs` line, against a base a million segments deep, which
    // the next line uses again.
    let base = format!("http://a/{}", "x/".repeat(MB));
    let input = format!("{base}\t{reference}\n{base}\thttp://b/\n");
    let out =
        run(&["resolve", "--pairs", "--spec", "rfc3986"], input.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text == "http://a/g\nhttp://b/\n", "{} bytes", text.len());
}

#[test]
fn a_hundred_thousand_lines_stream_through() {
    let mut input = String::new();
    for i in 0..100_000 {
        input.push_str(&format!("http://h/{i}\n"));
    }
    let out = run(&["parse", "--json"], input.as_bytes());
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 100_000);
    let last: Value =
        serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["path"], "/99999");
}

// ---------------------------------------------------------------------------
// NUL bytes and right-to-left overrides
// ---------------------------------------------------------------------------

#[test]
fn nul_in_a_line_is_a_violation_and_never_printed_raw() {
    let out = run(&["parse", "--json"], b"http://a/b\0c\nhttp://a/\0\0\0\n");
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["input"], "http://a/b\u{0}c");
    let at = |v: &Value| -> Vec<u64> {
        v["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["position"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(at(&lines[0]), [10]);
    assert_eq!(at(&lines[1]), [9, 10, 11]);
    // The JSON escapes it; the table shows the control picture.
    assert!(!out.stdout.contains(&0));
    let out = run(&["parse"], b"http://a/b\0c\n");
    assert_eq!(code(&out), 1);
    assert!(!out.stdout.contains(&0));
    let text = stdout(&out);
    assert!(text.starts_with("http://a/b\u{2400}c\n"), "{text}");
    assert!(text.contains("write it as %00"), "{text}");
}

#[test]
fn rtl_overrides_are_kept_in_json_and_defused_in_tables() {
    let url = "http://a/\u{5D0}\u{202E}gpj.exe";
    let out = run(&["parse", "--json", "--spec", "rfc3986"], url.as_bytes());
    assert_eq!(code(&out), 1);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["input"], url);
    let at: Vec<_> = lines[0]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["position"].as_u64().unwrap())
        .collect();
    assert_eq!(at, [9, 11]);
    // A terminal would reverse the rest of the line: the table shows the
    // replacement character instead, one character for one.
    let out = run(&["parse", "--spec", "rfc3986"], url.as_bytes());
    let text = stdout(&out);
    assert!(!text.contains('\u{202E}'), "{text}");
    assert!(text.starts_with("http://a/\u{5D0}\u{FFFD}gpj.exe\n"), "{text}");
}

// ---------------------------------------------------------------------------
// Output that grows with the square of the input
// ---------------------------------------------------------------------------

/// The length of the human output of `args` for one line of `unit`
/// repeated 3,000 times after `prefix`, and the line's length.
fn human_output(args: &[&str], prefix: &str, unit: &str) -> (usize, usize) {
    let line = format!("{prefix}{}", unit.repeat(3_000));
    let out = run(args, line.as_bytes());
    assert_eq!(code(&out), 1);
    (out.stdout.len(), line.len())
}

#[test]
fn parse_output_is_linear_in_the_line() {
    let (bytes, line) = human_output(&["parse"], "http://a/", "{");
    assert!(bytes <= 64 * line + 4096, "{bytes} bytes for {line}");
}

#[test]
fn check_output_is_linear_in_the_line() {
    let (bytes, line) = human_output(&["check"], "http://a/", " ");
    assert!(bytes <= 64 * line + 4096, "{bytes} bytes for {line}");
}

#[test]
fn scheme_output_is_linear_in_the_line() {
    let (bytes, line) = human_output(&["scheme"], "ftp://h/", "{");
    assert!(bytes <= 64 * line + 4096, "{bytes} bytes for {line}");
}

#[test]
fn json_output_is_linear_in_the_line() {
    // One object per violation or finding, each of bounded size.
    for (args, prefix, unit) in [
        (&["parse", "--json"][..], "http://a/", "{"),
        (&["check", "--json"], "http://a/", " "),
        (&["scheme", "--json"], "ftp://h/", "{"),
    ] {
        let line = format!("{prefix}{}", unit.repeat(3_000));
        let out = run(args, line.as_bytes());
        assert_eq!(code(&out), 1, "{args:?}");
        assert_eq!(json_lines(&out).len(), 1, "{args:?}");
        assert!(out.stdout.len() <= 512 * line.len(), "{args:?}");
    }
}

// ---------------------------------------------------------------------------
// `links`: MIME nested too deep, WARC cut short
// ---------------------------------------------------------------------------

#[test]
fn links_on_mime_nested_too_deep_is_a_clear_error() {
    for depth in [100, 100_000] {
        let message = nested_multipart(depth);
        let out = run(&["links", "--format", "mime", "-"], message.as_bytes());
        assert_eq!(code(&out), 1, "depth {depth}");
        assert_eq!(
            stderr(&out),
            "urlspec: -: parts nested more than 64 levels deep were not read\n"
        );
        // The parts above the limit were read.
        let text = stdout(&out);
        assert!(text.contains("http://top/"), "{text}");
        assert!(!text.contains("http://bottom/"), "{text}");
        assert!(text.contains("unreadable 1"), "{text}");
    }
}

#[test]
fn links_on_deeply_nested_rfc822_exits_cleanly() {
    // Read whole (up to 2 MiB), the message is refused for its count of
    // message/rfc822 parts before any is read; streamed (9.9 MB), its
    // limits are met in reading order, and the depth comes first.
    for (levels, error) in [
        (3_000, "more than 1000 message/rfc822 parts"),
        (300_000, "parts nested more than 64 levels deep were not read"),
    ] {
        let message = "Content-Type: message/rfc822\r\n\r\n".repeat(levels);
        let out = run(&["links", "--format", "mime", "-"], message.as_bytes());
        assert_eq!(code(&out), 1, "{levels}");
        assert!(stderr(&out).contains(error), "{levels}: {}", stderr(&out));
    }
}

/// A WARC `response` record for `http://h/d/` whose HTML links to `g`.
fn warc_record() -> Vec<u8> {
    let payload: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">g</a>";
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
         Content-Length: {}\r\n\r\n",
        payload.len()
    )
    .into_bytes();
    r.extend_from_slice(payload);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn links_on_a_truncated_warc_is_a_clear_error() {
    let record = warc_record();
    // The second record loses its last 10 bytes (its `<a href="g"` ends
    // in the tag): the first one's link is printed, then the second
    // document, read as far as it goes, with its note.
    let mut archive = record.clone();
    archive.extend_from_slice(&record[..record.len() - 10]);
    let out = run(&["links", "-"], &archive);
    assert_eq!(code(&out), 1);
    // The note names where the second record starts.
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    let note = format!(
        "   note: at byte {}: record cut short: Content-Length 61, 55 bytes; \
         the links of those were read\n",
        record.len()
    );
    assert!(text.contains(&note), "{text}");
    assert!(text.contains("http://h/d/g"), "{text}");
    assert!(text.contains("2 documents, 1 link"), "{text}");
    assert!(text.contains("unreadable 1"), "{text}");
    // Whole: exit status 0.
    let out = run(&["links", "-"], &record);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn links_on_a_warc_cut_in_a_header_is_an_error() {
    let record = warc_record();
    let mut archive = record.clone();
    archive.extend_from_slice(&record[..40]);
    let out = run(&["links", "-"], &archive);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "urlspec: -: at byte {}: WARC record cut inside its header\n",
            record.len()
        )
    );
}
