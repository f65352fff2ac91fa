//! `urlspec normalize`: URLs brought to a spec's canonical encoding level,
//! one line per input.
//!
//! Every input gets exactly one record, an error record in place of a URL
//! that cannot be compared or a line that is not UTF-8, so that the output
//! lines up with the input.

use std::io::{self, Write};

use clap::Args;
use urlspec::equiv::{self, NotComparable, Options};
use urlspec::Spec;

use super::Status;
use crate::args::{help_of, urls_help, UrlArgs};
use crate::cmd::equiv::EquivOptions;
use crate::output::{
    self, BadLine, Error, JsonObject, NotUtf8, Origin, Output,
};

/// The long description of `urlspec normalize`.
const LONG_ABOUT: &str = "\
Print each URL brought to the chosen spec's canonical encoding level: the
string `urlspec equiv` compares. Two URLs are equivalent exactly when their
normalized forms are equal, so the output can be sorted, deduplicated (sort
-u) or joined on. Normalizing a normalized URL changes nothing more.

What is decoded, escaped and folded depends on the spec and on --level; see
`urlspec equiv --help` for the table. In short, at the default level
(scheme): the scheme and the hex digits of escapes are put in one case, the
escapes of characters that may stand unescaped are decoded, raw characters the
spec requires escaped are escaped, an empty or default port is dropped, the
fragment is dropped (--include-fragment keeps it), and under rfc3986 the
host is folded to lower case and the dot-segments are removed from the path
of every URL with a scheme, rooted or not: RFC 3986 section 6.2.2.3 applies
remove_dot_segments to the path, as resolving the URL against any base would
(x:./foo/bar gives x:foo/bar, x:mid/content=5/../6 gives x:mid/6, and
g:h/../i gives g:/i, the algorithm's output as printed). A relative reference
keeps its dot-segments (they climb a base), and a path that would then start
with // without an authority is left as it is. Ports are compared by value:
:080 is the default port, :08080 is :8080.

Input: the URL arguments, where - stands for the lines of standard input, one
URL per line (a trailing CR LF or LF is removed), streamed, as does giving no
URL at all.

Output: one line per input, so the output lines up with the input (paste
urls.txt normalized.txt). A URL that cannot be compared (it holds a `%` that
does not start an escape, which RFC 1630 makes illegal) gives, in its place,

  error: NotComparable: <message>

and the same with its line number on standard error; a line that is not UTF-8
gives `error: NotUtf8: <message>`, and an input urlspec fails on (a bug to
report) `error: InternalError: <message>`. The lines after any of them are
still read.

With --json, each line is one object with the keys input (null for a line
that is not UTF-8), spec, level, result (null on error) and error (null, or
{kind, message, position}; position is the byte offset of the `%`, null for
NotUtf8 and InternalError).

Exit status: 0 when every URL was normalized, 1 when some line is an error, 2
for a usage or I/O error.";

/// The `Examples:` section of `urlspec normalize --help`.
const EXAMPLES: &str = "\
Examples:
  # RFC 3986: case, escapes, dot-segments, the default port
  urlspec normalize --spec rfc3986 'eXAMPLE://a/./b/../b/%63/%7bfoo%7d' 'HTTP://A:80'

  # `~` is national in RFC 1808 (escaped) and unreserved in the 1996 draft
  urlspec normalize 'http://a/~u'
  urlspec normalize --spec draft96 'http://a/%7Eu'

  # The distinct URLs of a list, as RFC 3986 compares them
  urlspec normalize --spec rfc3986 < urls.txt | sort -u

  # Each URL beside its normalized form
  urlspec normalize < urls.txt | paste urls.txt -

  # JSON Lines: the URLs that cannot be compared, and where
  urlspec normalize --json < urls.txt | jq -c 'select(.error) | {input, at: .error.position}'";

/// The arguments of `urlspec normalize`.
#[derive(Debug, Args)]
#[command(
    about = "Bring URLs to a spec's canonical encoding level, the form \
             `equiv` compares, one line per input",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("urls", urls_help("normalize"))),
    mut_args(help_of("spec", "The spec to normalize under"))
)]
pub struct NormalizeArgs {
    /// `--spec`, `--json` and the URLs, worded for this command by the
    /// `mut_args` above
    #[command(flatten)]
    pub common: UrlArgs,

    /// How to normalize (last, as in [`EquivArgs`])
    #[command(flatten)]
    pub options: EquivOptions,
}

/// Normalizes every input of `args`, printing one line each.
pub fn run(args: &NormalizeArgs) -> Result<Status, Error> {
    let mut out = Output::stdout();
    let mut printer = Printer::new(
        args.common.spec.value,
        args.options.to_options(),
        args.common.json.on,
    );
    let mut all_ok = true;
    output::for_each_input_or_error(&args.common.urls, |origin, text| {
        all_ok &= printer.answer(&mut out, origin, text)?;
        out.end_record()
    })?;
    out.finish().map_err(Error::Write)?;
    Ok(Status::from_valid(all_ok))
}

/// Normalizes under one spec with one set of options and prints each
/// answer as text or JSON.
pub struct Printer {
    spec: Spec,
    options: Options,
    json: bool,
    /// The JSON line, one buffer reused for every input.
    line: Vec<u8>,
}

impl Printer {
    /// Normalizes under `spec` with `options`, as text or JSON.
    pub fn new(spec: Spec, options: Options, json: bool) -> Printer {
        Printer { spec, options, json, line: Vec::with_capacity(512) }
    }

    /// Writes the record of one input. Returns whether it is an answer
    /// (not an error).
    pub fn answer(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        input: Result<&str, NotUtf8>,
    ) -> io::Result<bool> {
        let answer = match input {
            Ok(text) => output::isolate(|| {
                equiv::normalize(text, self.spec, &self.options)
            }),
            Err(not_utf8) => Err(BadLine::NotUtf8(not_utf8)),
        };
        if self.json {
            self.write_json(out, input.ok(), &answer)?;
        } else {
            match &answer {
                Ok(Ok(result)) => writeln!(out, "{result}")?,
                Ok(Err(err)) => {
                    write_error(out, origin, "NotComparable", err)?
                }
                Err(bad) => write_error(out, origin, bad.kind(), bad)?,
            }
        }
        Ok(matches!(answer, Ok(Ok(_))))
    }

    /// Writes the JSON line of one input: `input`, `spec`, `level`,
    /// `result` and `error`.
    fn write_json(
        &mut self,
        out: &mut impl Write,
        input: Option<&str>,
        answer: &Result<Result<String, NotComparable>, BadLine>,
    ) -> io::Result<()> {
        self.line.clear();
        let mut o = JsonObject::new(&mut self.line);
        o.optional("input", input)
            .string("spec", self.spec.name())
            .string("level", self.options.comparison_level().name());
        match answer {
            Ok(Ok(result)) => {
                o.string("result", result).null("error");
            }
            Ok(Err(err)) => {
                o.null("result").object("error", |e| {
                    e.string("kind", "NotComparable")
                        .string("message", &err.to_string())
                        .number("position", err.position);
                });
            }
            Err(bad) => {
                o.null("result").object("error", |e| {
                    e.string("kind", bad.kind())
                        .string("message", &bad.to_string())
                        .null("position");
                });
            }
        }
        o.finish();
        self.line.push(b'\n');
        out.write_all(&self.line)
    }
}

/// Writes the text record of an error, `error: <kind>: <message>`, and the
/// same with where it came from on standard error.
fn write_error(
    out: &mut impl Write,
    origin: Origin,
    kind: &str,
    message: &dyn std::fmt::Display,
) -> io::Result<()> {
    let message = output::visible(&message.to_string()).into_owned();
    writeln!(out, "error: {kind}: {message}")?;
    let _ =
        writeln!(io::stderr().lock(), "urlspec: {origin}: {kind}: {message}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::equiv::Level;

    fn answers(printer: &mut Printer, inputs: &[&str]) -> (String, bool) {
        let mut out = Vec::new();
        let mut all_ok = true;
        for (n, input) in (1..).zip(inputs) {
            all_ok &=
                printer.answer(&mut out, Origin::Line(n), Ok(input)).unwrap();
        }
        (String::from_utf8(out).unwrap(), all_ok)
    }

    #[test]
    fn one_line_per_input_errors_in_place() {
        let mut printer =
            Printer::new(Spec::Rfc3986, Options::default(), false);
        let (text, ok) = answers(
            &mut printer,
            &["eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "a%zz", "HTTP://A:80"],
        );
        assert!(!ok);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "example://a/b/c/%7Bfoo%7D");
        assert!(lines[1].starts_with("error: NotComparable: `a%zz`"));
        assert!(lines[1].contains("at byte 1"));
        assert_eq!(lines[2], "http://a/");
    }

    #[test]
    fn json_lines() {
        let options = Options::default().level(Level::Case);
        let mut printer = Printer::new(Spec::Rfc1808, options, true);
        let mut out = Vec::new();
        printer.answer(&mut out, Origin::Line(1), Ok("HTTP://a/%7e")).unwrap();
        let bad = NotUtf8 { column: 2 };
        printer.answer(&mut out, Origin::Line(2), Err(bad)).unwrap();
        printer.answer(&mut out, Origin::Line(3), Ok("%")).unwrap();
        let text = String::from_utf8(out).unwrap();
        let v: Vec<serde_json::Value> =
            text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(v[0]["result"], "http://a/%7E");
        assert_eq!(v[0]["level"], "case");
        assert!(v[1]["input"].is_null());
        assert_eq!(v[1]["error"]["kind"], "NotUtf8");
        assert!(v[1]["error"]["position"].is_null());
        assert_eq!(v[2]["error"]["kind"], "NotComparable");
        assert_eq!(v[2]["error"]["position"], 0);
        assert!(v[2]["result"].is_null());
    }
}
