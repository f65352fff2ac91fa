//! Helpers the CLI's integration tests share: running the `urlspec`
//! binary ([`run`], [`run_in`]), the spec names, a running `urlspec serve`
//! ([`server`]), a small HTTP client ([`http`]), headless Chromium
//! ([`browser`]) and a server of fixed pages for it ([`pages`]). Each
//! test file uses some of them.
#![allow(dead_code)]

pub mod browser;
pub mod cli;
pub mod http;
pub mod pages;
pub mod real_archives;
pub mod server;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Every spec's name, oldest first: the seven documents, then the WHATWG
/// URL Standard.
pub const SPECS: [&str; 8] = [
    "rfc1630",
    "draft04",
    "rfc1808",
    "draft96",
    "draft96dec",
    "rfc2396",
    "rfc3986",
    "whatwg",
];

/// Runs `urlspec` with `args` in the directory `dir` (the test's own when
/// `None`), feeding it `stdin` from a thread of its own, so that a large
/// input and a large output cannot block each other on the pipes. A closed
/// pipe (the binary stopped reading) is the binary's business: its exit
/// status and output say what happened.
pub fn run_in<S: AsRef<std::ffi::OsStr>>(
    dir: Option<&Path>,
    args: &[S],
    stdin: &[u8],
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_urlspec"));
    command
        .args(args)
        // A caught panic's report stays one line whatever the caller's
        // environment asks for.
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("the urlspec binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// [`run_in`] the test's own directory.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_in(None, args, stdin)
}

/// The exit code of a finished `urlspec`.
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// Its standard output, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// Its standard error, which must be UTF-8.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// The JSON objects of its JSON Lines output.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// A fresh directory `name` under the test target's scratch space, in the
/// test file's own `group`.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `data` as one gzip member.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    e.write_all(data).unwrap();
    e.finish().unwrap()
}
