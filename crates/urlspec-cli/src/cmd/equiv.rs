//! `urlspec equiv`: whether two URLs are the same URL under a spec, with
//! both normalized forms.
//!
//! Each URL is brought to the spec's canonical encoding level by
//! [`equiv::normalize`]; the verdict is whether the two strings are equal,
//! which is what [`equiv::equivalent`] answers. A URL that cannot be
//! compared ([`NotComparable`]) makes the answer an error, exit status 2.

use std::cell::Cell;
use std::ffi::OsStr;
use std::io::{self, Write};

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Arg, Args};
use urlspec::equiv::{self, Level, NotComparable, Options};
use urlspec::Spec;

use super::Status;
use crate::args::{help_of, invalid_value, JsonArg, SpecArg};
use crate::output::{self, BadLine, Error, JsonObject, Output, STDIN};

/// The long description of `urlspec equiv`.
const LONG_ABOUT: &str = "\
Say whether two URLs A and B are the same URL under the chosen spec: bring
each to the spec's canonical encoding level (normalize it, as `urlspec
normalize` does), print both normalized forms, and compare them.

RFC 1630 states the rule that every later spec refines: two URLs must be
brought to the same encoding level before comparison. An escape of a character
that may stand unescaped equals the character (marie%2Dclaude is
marie-claude); an escaped reserved character never does (bertram%2Fmarie-claude
is not bertram/marie-claude); and a URL holding a `%` that does not start an
escape (asdf%*.fred) is illegal and cannot be compared at all: that is an
error, shown with a caret at the `%`, not a `no`.

Which escapes are decoded depends on the spec:
  rfc1630     alpha, digit, $ - _ @ . & ' ( ) , \" and + outside a query
  draft04     alpha, digit, safe, extra, national
  rfc1808     alpha, digit, safe, extra (%7E stays: ~ is national)
  draft96     alpha, digit, mark (with ~); draft96dec also keeps / & = +
              escaped in a query
  rfc2396     unreserved, for http, https, ftp and file only
  rfc3986     unreserved
  whatwg      the standard's own: its serialization is the normal form; --level and the port and host options do not
              apply, and a relative reference cannot be compared
Raw characters the spec requires escaped are escaped (a raw ~ under rfc1808
becomes %7E). Decoding never makes a `.` or `..` segment, except under rfc3986,
which then removes dot-segments.

--level picks the rung of RFC 3986 section 6.2's comparison ladder, each
including those below it; the default, scheme, is the highest that needs no
access to the resource. The fragment is not part of the URL and is ignored
unless --include-fragment. Hosts are compared case-sensitively under the seed
specs, none of which says they are case-insensitive, unless --host-case;
rfc2396 (host names and addresses) and rfc3986 always fold them. An empty port
and the scheme's default port are dropped unless --no-default-port; another
port is compared by value (:08080 is :8080).

A (or B) of - compares the other URL with every line of standard input in its
place, one answer each (separated by a blank line; with --json, one object per
line). A line that is not UTF-8, or one urlspec fails on (a bug to report),
gets `error: KIND: MESSAGE` in its place (NotUtf8, InternalError), and the
lines after it are still read.

With --json, one object with the keys spec, level, a and b (each {input,
normalized, error}: normalized is null and error is {position, found,
message} when the URL cannot be compared, position being a byte offset into
input), equivalent (true, false, or null when a URL cannot be compared) and
error (null, or {kind, message} for a line of standard input without an
answer).

Exit status: 0 when A and B are equivalent, 1 when they are not, 2 when one
cannot be compared, or for a usage error. Over standard input: 2 when some URL
cannot be compared, else 1 when some pair is not equivalent or some line has
no answer, else 0.";

/// The `Examples:` section of `urlspec equiv --help`.
const EXAMPLES: &str = "\
Examples:
  # An escaped `-` is `-` (RFC 1630 Example 1): equivalent, exit status 0
  urlspec equiv http://info.cern.ch/albert/bertram/marie-claude http://info.cern.ch/albert/bertram/marie%2Dclaude

  # An escaped `/` is not `/` (Example 2): not equivalent, exit status 1
  urlspec equiv http://info.cern.ch/albert/bertram/marie-claude http://info.cern.ch/albert/bertram%2Fmarie-claude

  # `+` is safe in RFC 1808 but reserved in the 1996 draft
  urlspec equiv 'http://a/x+y' 'http://a/x%2By'
  urlspec equiv --spec draft96 'http://a/x+y' 'http://a/x%2By'

  # Host case, default port and dot-segments under RFC 3986
  urlspec equiv --spec rfc3986 'HTTP://Example.COM:80/a/./b' 'http://example.com/a/b'

  # Only case normalization; and the fragments compared too
  urlspec equiv --level case 'http://a/%7e' 'http://a/%7E'
  urlspec equiv --include-fragment 'http://a/b#x' 'http://a/b#y'

  # In a script: 0 same, 1 different, 2 not comparable
  if urlspec equiv --spec rfc3986 \"$a\" \"$b\" > /dev/null; then echo same; fi

  # JSON: both normalized forms and the verdict
  urlspec equiv --json 'http://a/~u' 'http://a/%7Eu' | jq .equivalent

  # Which URLs of a list are the same as one URL (- is each line)
  urlspec equiv --spec rfc3986 --json http://example.com/ - < urls.txt | jq -r 'select(.equivalent) | .b.input'";

/// The arguments of `urlspec equiv`.
#[derive(Debug, Args)]
#[command(
    about = "Say whether two URLs are the same URL under a spec, \
             showing both normalized forms (exit status 0 if so, 1 if \
             not)",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("spec", "The spec to compare under")),
    mut_args(help_of("json", "Print one JSON object instead of text"))
)]
pub struct EquivArgs {
    /// `--spec`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub spec: SpecArg,

    /// `--json`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub json: JsonArg,

    /// The first URL; - compares B with each line of standard input (put
    /// `--` before a URL that starts with `-`)
    #[arg(value_name = "A")]
    pub a: String,

    /// The second URL; - compares A with each line of standard input
    #[arg(value_name = "B")]
    pub b: String,

    /// How to compare (last: the heading it sets would otherwise take in
    /// the arguments after it)
    #[command(flatten)]
    pub options: EquivOptions,
}

/// The options of `urlspec equiv` and `urlspec normalize` that become the
/// library's [`equiv::Options`].
#[derive(Debug, Args)]
#[command(next_help_heading = "Comparison options")]
pub struct EquivOptions {
    /// The rung of RFC 3986 section 6.2's comparison ladder; each includes
    /// the ones below it
    #[arg(
        short,
        long,
        value_name = "LEVEL",
        value_parser = LevelParser,
        default_value_t = Level::default()
    )]
    pub level: Level,

    /// Compare the fragments too (they are not part of the URL)
    #[arg(long)]
    pub include_fragment: bool,

    /// Keep an empty port (host:) and the scheme's default port (:80 on
    /// http), which are otherwise dropped (docs/readings.md#a7)
    #[arg(long)]
    pub no_default_port: bool,

    /// Fold the host to lower case under the seed specs too (rfc2396 and
    /// rfc3986 always do; docs/readings.md#equivalence)
    #[arg(long)]
    pub host_case: bool,
}

impl EquivOptions {
    /// The library's options.
    pub fn to_options(&self) -> equiv::Options {
        equiv::Options::default()
            .level(self.level)
            .include_fragment(self.include_fragment)
            .default_port(!self.no_default_port)
            .host_case(self.host_case)
    }
}

/// The value parser of `--level`: any name [`Level::from_str`] accepts
/// (`percent-encoding`, `PercentEncoding`, `percent_encoding`, …), listed
/// in `--help` from [`Level::ALL`] with what each rung adds.
///
/// [`Level::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct LevelParser;

/// What each rung of the ladder adds to the ones below it, for `--help`.
pub fn level_summary(level: Level) -> &'static str {
    match level {
        Level::String => {
            "compares the input as it is, less the fragment (section 6.2.1)"
        }
        Level::Case => {
            "lower-cases the scheme, upper-cases the hex digits of escapes, \
             folds the host where the spec says so, drops an empty `;`, `?` \
             or `#` where the spec makes it absent (6.2.2.1)"
        }
        Level::PercentEncoding => {
            "decodes the escapes of characters the spec lets stand \
             unescaped; escapes the raw characters it requires escaped \
             (6.2.2.2)"
        }
        Level::PathSegment => {
            "rfc3986 only: removes dot-segments from the path of every URL \
             with a scheme, rooted or not, as resolving it would (6.2.2.3); \
             a relative reference keeps them"
        }
        Level::Scheme => {
            "drops an empty port and the scheme's default port, and writes \
             any other port by its value (:08080 as :8080); rfc3986 also \
             turns an empty path after an authority into `/` and folds a \
             mailto domain to lower case (6.2.3)"
        }
    }
}

impl TypedValueParser for LevelParser {
    type Value = Level;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Level, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Level>().map_err(|e| {
            let arg = arg.map_or_else(|| "--level".to_owned(), Arg::to_string);
            invalid_value(cmd, arg, e.given(), e.expected().iter().copied())
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Level::ALL
                .into_iter()
                .map(|l| PossibleValue::new(l.name()).help(level_summary(l))),
        ))
    }
}

/// Normalizes both URLs of `args` and compares them: `Valid` when they are
/// equivalent, `Invalid` when not, `Failed` when one cannot be compared.
/// When A or B is `-`, the other is compared with every line of standard
/// input instead, one record each (see [`run_stream`]).
pub fn run(args: &EquivArgs) -> Result<Status, Error> {
    let options = args.options.to_options();
    match (args.a == STDIN, args.b == STDIN) {
        (true, true) => {
            return Err(Error::Usage(
                "only one of A and B can be - (standard input): the lines \
                 are compared with the other"
                    .to_owned(),
            ))
        }
        (true, false) => return run_stream(args, &options, "B"),
        (false, true) => return run_stream(args, &options, "A"),
        (false, false) => {}
    }
    let a = Side::new("A", &args.a, args.spec.value, &options);
    let b = Side::new("B", &args.b, args.spec.value, &options);
    let mut out = Output::stdout();
    if args.json.on {
        let mut buf = Vec::with_capacity(1024);
        write_json(&mut buf, args.spec.value, &options, &a, &b);
        buf.push(b'\n');
        out.write_all(&buf).map_err(Error::Write)?;
    } else {
        write_human(&mut out, args.spec.value, &options, &a, &b)
            .map_err(Error::Write)?;
        for side in [&a, &b] {
            if let Err(err) = &side.normalized {
                let _ = writeln!(
                    io::stderr().lock(),
                    "urlspec: {}: {err}",
                    side.name
                );
            }
        }
    }
    out.finish().map_err(Error::Write)?;
    Ok(match verdict(&a, &b) {
        Some(true) => Status::Valid,
        Some(false) => Status::Invalid,
        None => Status::Failed,
    })
}

/// Compares the URL given as `fixed` (A or B) with every line of standard
/// input, in the other's place: one record each, as for a single pair.
/// `Failed` when some URL cannot be compared, else `Invalid` when some pair
/// is not equivalent or some line has no answer, else `Valid`.
fn run_stream(
    args: &EquivArgs,
    options: &Options,
    fixed: &'static str,
) -> Result<Status, Error> {
    let spec = args.spec.value;
    let given = if fixed == "A" { &args.a } else { &args.b };
    let side = Side::new(fixed, given, spec, options);
    let not_comparable = Cell::new(side.normalized.is_err());
    let lines = [STDIN.to_owned()];
    let all_equivalent = output::answer_each(
        &lines,
        args.json.on,
        |buf, input| {
            let other = if fixed == "A" { "B" } else { "A" };
            let line = Side::new(other, input, spec, options);
            let (a, b) =
                if fixed == "A" { (&side, &line) } else { (&line, &side) };
            if args.json.on {
                write_json(buf, spec, options, a, b);
                buf.push(b'\n');
            } else {
                // A Vec takes every write.
                let _ = write_human(buf, spec, options, a, b);
            }
            let verdict = verdict(a, b);
            if verdict.is_none() {
                not_comparable.set(true);
            }
            verdict == Some(true)
        },
        |buf, input, bad| write_bad_json(buf, spec, options, input, bad),
    )?;
    Ok(if not_comparable.get() {
        Status::Failed
    } else {
        Status::from_valid(all_equivalent)
    })
}

/// The JSON line (with its line ending) of a line of standard input
/// without an answer: the keys of [`write_json`], no normalized forms,
/// `equivalent` null, and `error` saying why.
fn write_bad_json(
    buf: &mut Vec<u8>,
    spec: Spec,
    options: &Options,
    input: Option<&str>,
    bad: &BadLine,
) {
    let mut o = JsonObject::new(buf);
    o.string("spec", spec.name())
        .string("level", options.comparison_level().name());
    for key in ["a", "b"] {
        o.object(key, |o| {
            o.optional("input", input).null("normalized").null("error");
        });
    }
    o.null("equivalent");
    output::error_member(&mut o, Some(bad));
    o.finish();
    buf.push(b'\n');
}

/// One of the two URLs and its normalized form.
pub struct Side<'a> {
    /// `A` or `B`.
    pub name: &'static str,
    /// The URL as given.
    pub input: &'a str,
    /// Its normalized form, or why it cannot be compared.
    pub normalized: Result<String, NotComparable>,
}

impl<'a> Side<'a> {
    /// Normalizes `input` under `spec` with `options`.
    pub fn new(
        name: &'static str,
        input: &'a str,
        spec: Spec,
        options: &Options,
    ) -> Side<'a> {
        let normalized = equiv::normalize(input, spec, options);
        Side { name, input, normalized }
    }
}

/// Whether the two are equivalent; `None` when one cannot be compared.
pub fn verdict(a: &Side<'_>, b: &Side<'_>) -> Option<bool> {
    match (&a.normalized, &b.normalized) {
        (Ok(a), Ok(b)) => Some(a == b),
        _ => None,
    }
}

/// The level and the options that differ from the defaults, for the
/// verdict line: `level scheme`, `level case, fragments compared`, ….
pub fn describe(options: &Options) -> String {
    let mut text = format!("level {}", options.comparison_level());
    if options.includes_fragment() {
        text.push_str(", fragments compared");
    }
    if !options.drops_default_port() {
        text.push_str(", default ports kept");
    }
    if options.folds_host_case() {
        text.push_str(", hosts folded");
    }
    text
}

/// The message of a [`NotComparable`] beside a caret at its `%`, which
/// already shows the input: the `%` and what follows it up to the first
/// character that is not a hex digit. (Only for an error whose `found`
/// starts with `%`; under `--spec whatwg`, `found` is the parser's reason
/// instead.)
pub fn not_comparable_reason(err: &NotComparable) -> String {
    let rest = err.found.strip_prefix('%').unwrap_or(&err.found);
    let mut end = err.found.len() - rest.len();
    for c in rest.chars() {
        end += c.len_utf8();
        if !c.is_ascii_hexdigit() {
            break;
        }
    }
    format!(
        "not comparable: `{}` is not an escape (`%` must be followed by two \
         hex digits; RFC 1630, Example 3)",
        output::visible(&err.found[..end])
    )
}

/// The indent of a normalized form under its input.
const ARROW: &str = "   -> ";

/// Each URL with its normalized form (or a caret at the `%` that makes it
/// not comparable), then the verdict; when the two differ, a caret under
/// the first difference of B's normalized form.
pub fn write_human(
    out: &mut impl Write,
    spec: Spec,
    options: &Options,
    a: &Side<'_>,
    b: &Side<'_>,
) -> io::Result<()> {
    for side in [a, b] {
        writeln!(out, "{}  {}", side.name, output::visible(side.input))?;
        match &side.normalized {
            Ok(text) => writeln!(out, "{ARROW}{}", output::visible(text))?,
            Err(err) if err.found.starts_with('%') => {
                let caret = output::caret("   ", side.input, err.position);
                writeln!(out, "{caret} {}", not_comparable_reason(err))?;
            }
            // Not an escape: a reason with no position (the WHATWG
            // parser's, under --spec whatwg).
            Err(err) => writeln!(
                out,
                "   not comparable: {}",
                output::visible(&err.found)
            )?,
        }
    }
    let how = describe(options);
    match (&a.normalized, &b.normalized) {
        (Ok(na), Ok(nb)) if na == nb => {
            writeln!(out, "equivalent under {spec} ({how})")
        }
        (Ok(na), Ok(nb)) => {
            let at = first_difference(na, nb);
            let caret = output::caret(&" ".repeat(ARROW.len()), nb, at);
            writeln!(out, "{caret} first difference")?;
            writeln!(out, "not equivalent under {spec} ({how})")
        }
        (Err(_), Err(_)) => writeln!(
            out,
            "cannot compare under {spec}: neither A nor B is a legal URL"
        ),
        (Err(_), Ok(_)) => {
            writeln!(out, "cannot compare under {spec}: A is not a legal URL")
        }
        (Ok(_), Err(_)) => {
            writeln!(out, "cannot compare under {spec}: B is not a legal URL")
        }
    }
}

/// The byte offset in `b` of the first character where `a` and `b` differ
/// (the end of `b` when `b` is a prefix of `a`).
pub fn first_difference(a: &str, b: &str) -> usize {
    a.chars()
        .zip(b.char_indices())
        .find(|(ca, (_, cb))| ca != cb)
        .map_or_else(|| a.len().min(b.len()), |(_, (i, _))| i)
}

/// The JSON object (no line ending): `spec`, `level`, `a`, `b` (each
/// `{input, normalized, error}`) and `equivalent`.
pub fn write_json(
    buf: &mut Vec<u8>,
    spec: Spec,
    options: &Options,
    a: &Side<'_>,
    b: &Side<'_>,
) {
    let side_members = |o: &mut JsonObject<'_>, side: &Side<'_>| {
        o.string("input", side.input);
        match &side.normalized {
            Ok(text) => {
                o.string("normalized", text).null("error");
            }
            Err(err) => {
                o.null("normalized").object("error", |e| {
                    e.number("position", err.position)
                        .string("found", &err.found)
                        .string("message", &err.to_string());
                });
            }
        }
    };
    let mut o = JsonObject::new(buf);
    o.string("spec", spec.name())
        .string("level", options.comparison_level().name())
        .object("a", |o| side_members(o, a))
        .object("b", |o| side_members(o, b));
    match verdict(a, b) {
        Some(same) => o.boolean("equivalent", same),
        None => o.null("equivalent"),
    };
    output::error_member(&mut o, None);
    o.finish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;
    use urlspec::equiv::Level;

    fn human(a: &str, b: &str, spec: Spec, options: &Options) -> String {
        let a = Side::new("A", a, spec, options);
        let b = Side::new("B", b, spec, options);
        let mut buf = Vec::new();
        write_human(&mut buf, spec, options, &a, &b).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn equivalent_shows_both_forms() {
        let o = Options::default();
        let text = human("HTTP://a/%7eu", "http://a/~u", Spec::Draft96, &o);
        assert_eq!(
            text,
            "A  HTTP://a/%7eu\n   -> http://a/~u\n\
             B  http://a/~u\n   -> http://a/~u\n\
             equivalent under draft96 (level scheme)\n"
        );
    }

    #[test]
    fn not_equivalent_points_at_the_first_difference() {
        let o = Options::default();
        let text = human(
            "http://info.cern.ch/albert/bertram/marie-claude",
            "http://info.cern.ch/albert/bertram%2Fmarie-claude",
            Spec::Rfc1630,
            &o,
        );
        let lines: Vec<&str> = text.lines().collect();
        let column = lines[4].find('^').unwrap();
        assert_eq!(&lines[3][column..column + 3], "%2F");
        assert!(lines[4].ends_with("^ first difference"));
        assert_eq!(lines[5], "not equivalent under rfc1630 (level scheme)");
    }

    #[test]
    fn not_comparable_has_a_caret_at_the_percent() {
        let o = Options::default().level(Level::Case).include_fragment(true);
        let text = human("a/%*b", "a", Spec::Rfc1808, &o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "A  a/%*b");
        assert!(lines[1].starts_with("     ^ not comparable: `%*` is not"));
        assert_eq!(
            lines.last().unwrap(),
            &"cannot compare under rfc1808: A is not a legal URL"
        );
        assert_eq!(describe(&o), "level case, fragments compared");
    }

    #[test]
    fn reason_quotes_up_to_the_first_non_hex_character() {
        let reason = |input: &str| {
            let o = Options::default();
            let err = equiv::normalize(input, Spec::Rfc1808, &o).unwrap_err();
            not_comparable_reason(&err)
        };
        assert!(reason("a%*.b").contains("`%*` is"));
        assert!(reason("a%4g").contains("`%4g` is"));
        assert!(reason("a%").contains("`%` is"));
        assert!(reason("a%é").contains("`%é` is"));
    }

    #[test]
    fn first_difference_in_bytes_of_b() {
        assert_eq!(first_difference("aéb", "aéc"), 3);
        assert_eq!(first_difference("abc", "ab"), 2);
        assert_eq!(first_difference("ab", "abc"), 2);
        assert_eq!(first_difference("", "x"), 0);
    }

    #[test]
    fn json_object() {
        let o = Options::default();
        let a = Side::new("A", "%*", Spec::Rfc1808, &o);
        let b = Side::new("B", "x", Spec::Rfc1808, &o);
        let mut buf = Vec::new();
        write_json(&mut buf, Spec::Rfc1808, &o, &a, &b);
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert!(v["equivalent"].is_null());
        assert!(v["a"]["normalized"].is_null());
        assert_eq!(v["a"]["error"]["position"], 0);
        assert_eq!(v["a"]["error"]["found"], "%*");
        assert_eq!(v["b"]["normalized"], "x");
        assert!(v["b"]["error"].is_null());
        assert_eq!(v["level"], "scheme");
    }

    #[test]
    fn equiv_options_map_onto_the_library() {
        let cli = Cli::try_parse_from(["urlspec", "equiv", "a", "b"]).unwrap();
        let Command::Equiv(args) = cli.command else { panic!() };
        assert_eq!((args.a.as_str(), args.b.as_str()), ("a", "b"));
        let want = equiv::Options::default().level(Level::Scheme);
        assert_eq!(args.options.to_options(), want);
        let cli = Cli::try_parse_from([
            "urlspec",
            "normalize",
            "--level",
            "Percent_Encoding",
            "--include-fragment",
            "--no-default-port",
            "--host-case",
        ])
        .unwrap();
        let Command::Normalize(args) = cli.command else { panic!() };
        let want = equiv::Options::default()
            .level(Level::PercentEncoding)
            .include_fragment(true)
            .default_port(false)
            .host_case(true);
        assert_eq!(args.options.to_options(), want);
        assert!(args.common.urls.is_empty());
        let bad = ["urlspec", "normalize", "--level", "bytes"];
        assert!(Cli::try_parse_from(bad).is_err());
    }

    #[test]
    fn level_parser_lists_every_level() {
        let names: Vec<String> = LevelParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names, want);
    }
}
