//! What the per-subcommand test files (`parse.rs`, `resolve.rs`, …) share:
//! running `urlspec` with an optional standard input, the specs of this
//! build, and reading keys and carets off its output.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `urlspec` with `args`, feeding `stdin` (closed at once when
/// `None`) from a thread of its own, so that a large input and a large
/// output cannot block each other on the pipes.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
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
pub fn spec_names() -> Vec<&'static str> {
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

pub const KEYS: [&str; 15] = [
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
pub fn top_level_keys(line: &str) -> Vec<String> {
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

/// The character column of the caret on `line`, and the character above it
/// on `above`.
pub fn char_above_caret(above: &str, line: &str) -> char {
    let column = line.chars().position(|c| c == '^').expect("a caret");
    above.chars().nth(column).expect("the caret is under the input")
}

/// The base of the RFC 1808 / RFC 2396 / RFC 3986 examples.
pub const BASE: &str = "http://a/b/c/d;p?q";

/// Every value a `scheme --json` object gives under `name`, in order.
pub fn field_values(v: &Value, name: &str) -> Vec<String> {
    v["fields"]
        .as_array()
        .expect("fields is an array")
        .iter()
        .filter(|f| f["name"] == name)
        .map(|f| f["value"].as_str().unwrap().to_owned())
        .collect()
}

/// Whether this build has the `whatwg` spec.
pub const WHATWG: bool = cfg!(feature = "whatwg");

pub const SUBCOMMANDS: [&str; 11] = [
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
