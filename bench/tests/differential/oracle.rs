//! The out-of-process oracles: Python's `urllib.parse` and Java's
//! `java.net.URI`. Each runs as ONE process over every input: the requests
//! go to a file under `CARGO_TARGET_TMPDIR`, the answers come back on
//! stdout as one JSON object per line (see the header comments of
//! `bench/differential/urllib_oracle.py` and `JavaUri.java`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// One request to an oracle.
pub enum Request<'a> {
    /// Resolve a reference against a base.
    Join(&'a str, &'a str),
    /// Split a URL into its components.
    Split(&'a str),
}

/// What an oracle answered to each request, in request order, and the
/// version it reported.
pub struct Answers {
    /// The interpreter's or JVM's version.
    pub version: String,
    /// One JSON answer per request: `{"ok": ...}` or `{"err": "..."}`.
    pub answers: Vec<Value>,
}

/// Whether `tool` can be run (`tool --version` or `tool -version`
/// succeeds).
pub fn available(tool: &str) -> bool {
    ["--version", "-version"].iter().any(|flag| {
        Command::new(tool)
            .arg(flag)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Escapes a field so that it holds no tab, CR or LF of its own.
fn escape(out: &mut String, field: &str) {
    for c in field.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// Writes the requests to `path`, one per line.
fn write_requests(path: &Path, requests: &[Request<'_>]) {
    let mut text = String::new();
    for r in requests {
        match r {
            Request::Join(base, reference) => {
                text.push_str("join\t");
                escape(&mut text, base);
                text.push('\t');
                escape(&mut text, reference);
            }
            Request::Split(url) => {
                text.push_str("split\t");
                escape(&mut text, url);
            }
        }
        text.push('\n');
    }
    fs::write(path, text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// A scratch directory for this test run.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("differential-{}-{name}", std::process::id()));
    fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// Runs `command` (whose last argument must be the request file, already
/// written) and parses its answers.
fn run(mut command: Command, what: &str, expected: usize) -> Answers {
    let output = command
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout)
        .unwrap_or_else(|e| panic!("{what}: output is not UTF-8: {e}"));
    let mut lines = stdout.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap_or("{}"))
        .unwrap_or_else(|e| panic!("{what}: bad header: {e}"));
    let version = header["version"].as_str().unwrap_or("?").to_string();
    let answers: Vec<Value> = lines
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{what}: bad answer {l:?}: {e}"))
        })
        .collect();
    assert_eq!(
        answers.len(),
        expected,
        "{what} answered {} of {expected} requests",
        answers.len()
    );
    Answers { version, answers }
}

/// The directory of the helper scripts, `bench/differential`.
fn helpers() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("differential")
}

/// Runs `bench/differential/urllib_oracle.py` over `requests` with
/// `python3`, in one process.
pub fn python(requests: &[Request<'_>], dir: &Path) -> Answers {
    let input = dir.join("python-requests.txt");
    write_requests(&input, requests);
    let mut command = Command::new("python3");
    command.arg(helpers().join("urllib_oracle.py")).arg(&input);
    run(command, "python3 urllib_oracle.py", requests.len())
}

/// Compiles `bench/differential/JavaUri.java` with `javac` into `dir`
/// once, then runs it over `requests` in one JVM.
pub fn java(requests: &[Request<'_>], dir: &Path) -> Answers {
    let classes = dir.join("java-classes");
    fs::create_dir_all(&classes)
        .unwrap_or_else(|e| panic!("{}: {e}", classes.display()));
    let status = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(helpers().join("JavaUri.java"))
        .status()
        .unwrap_or_else(|e| panic!("javac: {e}"));
    assert!(status.success(), "javac JavaUri.java failed: {status}");
    let input = dir.join("java-requests.txt");
    write_requests(&input, requests);
    let mut command = Command::new("java");
    command.arg("-Xss8m").arg("-cp").arg(&classes).arg("JavaUri").arg(&input);
    run(command, "java JavaUri", requests.len())
}

/// An answer as a result: `Ok` with the `ok` value, `Err` with the
/// message.
pub fn result(answer: &Value) -> Result<&Value, String> {
    match (answer.get("ok"), answer.get("err")) {
        (Some(ok), _) => Ok(ok),
        (_, Some(err)) => Err(err.as_str().unwrap_or("?").to_string()),
        _ => {
            let mut s = String::from("malformed answer: ");
            let _ = write!(s, "{answer}");
            Err(s)
        }
    }
}
