//! One record per input: the error record in place of an input without an
//! answer, a panic of the library turned into one, and the loop that
//! answers every input so.

use std::fmt;
use std::io::{self, Write};

use super::json::JsonObject;
use super::lines::{for_each_input_or_error, NotUtf8, Origin};
use super::text::visible;
use super::{Error, Output};

/// An input that gets an error record in place of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLine {
    /// The line is not UTF-8.
    NotUtf8(NotUtf8),
    /// A `--pairs` line without a TAB between its two parts.
    MissingTab,
    /// The library panicked on this input: a bug, reported in place so
    /// that the inputs after it are still answered (see [`isolate`]).
    Internal(String),
}

impl BadLine {
    /// The short name in error records (`NotUtf8`, `MissingTab`,
    /// `InternalError`), as the library's error kinds are named.
    pub fn kind(&self) -> &'static str {
        match self {
            BadLine::NotUtf8(_) => "NotUtf8",
            BadLine::MissingTab => "MissingTab",
            BadLine::Internal(_) => "InternalError",
        }
    }
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLine::NotUtf8(not_utf8) => not_utf8.fmt(f),
            BadLine::MissingTab => f.write_str(
                "no TAB after the base (a --pairs line is BASE<TAB>REFERENCE)",
            ),
            BadLine::Internal(message) => write!(
                f,
                "urlspec failed on this input, which is a bug: {}",
                visible(message)
            ),
        }
    }
}

/// Runs `work`, the library's work on one input, and turns a panic into
/// [`BadLine::Internal`].
///
/// No library function should panic on any input, and one that does is a
/// bug to fix there. This does not hide it: the panic hook still prints
/// the message and its place on standard error, the input gets an
/// `InternalError` record in its place and the exit status is 1. What it
/// prevents is the loss of the answers to every input after that one in a
/// stream, which the command promises. `work` only reads the input and
/// appends to buffers the caller truncates on `Err`, so nothing it leaves
/// half done is used afterwards (hence `AssertUnwindSafe`).
pub fn isolate<T>(work: impl FnOnce() -> T) -> Result<T, BadLine> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(
        |payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            BadLine::Internal(message)
        },
    )
}

/// Writes `urlspec: ORIGIN: KIND: MESSAGE` on standard error.
pub fn report(origin: Origin, kind: &str, message: &dyn fmt::Display) {
    let _ =
        writeln!(io::stderr().lock(), "urlspec: {origin}: {kind}: {message}");
}

/// Answers every input of `args` (see [`for_each_input_or_error`]) with
/// one record on standard output: JSON lines when `json`, else text blocks
/// separated by a blank line. `answer` writes the record of an input (or
/// nothing, to leave it out) and says whether the input passes. An input
/// without an answer, a line that is not UTF-8 or an input the library
/// panicked on (see [`isolate`]), gets a record saying so: as text
/// ([`write_bad_text`], and on standard error with where it came from),
/// or the JSON line `bad_json` writes (given the input when it is text).
/// Each record is made whole before it is written, so that a panic leaves
/// no part of one.
///
/// Returns whether every input was answered and passed.
pub fn answer_each(
    args: &[String],
    json: bool,
    mut answer: impl FnMut(&mut Vec<u8>, &str) -> bool,
    mut bad_json: impl FnMut(&mut Vec<u8>, Option<&str>, &BadLine),
) -> Result<bool, Error> {
    let mut out = Output::stdout();
    let mut buf = Vec::with_capacity(1024);
    let mut all_ok = true;
    let mut first = true;
    for_each_input_or_error(args, |origin, text| {
        buf.clear();
        let bad = match text {
            Ok(input) => match isolate(|| answer(&mut buf, input)) {
                Ok(passes) => {
                    all_ok &= passes;
                    None
                }
                Err(bad) => {
                    buf.clear();
                    Some((Some(input), bad))
                }
            },
            Err(not_utf8) => Some((None, BadLine::NotUtf8(not_utf8))),
        };
        if let Some((input, bad)) = bad {
            all_ok = false;
            if json {
                bad_json(&mut buf, input, &bad);
            } else {
                write_bad_text(&mut buf, input, &bad);
                report(origin, bad.kind(), &bad);
            }
        }
        if buf.is_empty() {
            return Ok(());
        }
        if !first && !json {
            out.write_all(b"\n")?;
        }
        first = false;
        out.write_all(&buf)?;
        out.end_record()
    })?;
    out.finish().map_err(Error::Write)?;
    Ok(all_ok)
}

/// The text record of an input without an answer: the input (when it is
/// text), then `error: KIND: MESSAGE`.
pub fn write_bad_text(buf: &mut Vec<u8>, input: Option<&str>, bad: &BadLine) {
    if let Some(input) = input {
        buf.extend_from_slice(visible(input).as_bytes());
        buf.push(b'\n');
    }
    let line = format!("error: {}: {bad}\n", bad.kind());
    buf.extend_from_slice(line.as_bytes());
}

/// Adds the `error` member of a JSON record: `null`, or `{kind, message}`
/// for an input without an answer.
pub fn error_member(o: &mut JsonObject<'_>, bad: Option<&BadLine>) {
    match bad {
        Some(bad) => o.object("error", |e| {
            e.string("kind", bad.kind()).string("message", &bad.to_string());
        }),
        None => o.null("error"),
    };
}
