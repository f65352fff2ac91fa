//! `urlspec normalize`.

use crate::common;

use common::cli::{run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

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
