//! `urlspec extract`: the URLs in running text, with where they are, how
//! they were delimited and, with `--base`, what they resolve to.
//!
//! The finding is the library's [`Finder`]; this module reads each input
//! whole, as bytes (a URL broken across lines needs the lines after it),
//! runs the finder over the bytes and numbers lines and columns with a
//! [`LineIndex`] over the same bytes, so that offsets, lines and columns
//! agree whether or not the text is UTF-8.

use std::fs;
use std::io::{self, Read, Write};

use clap::{Args, ValueEnum};
use urlspec::extract::{Finder, Found, LineIndex, MAX_DELIMITED};
use urlspec::resolve::{ResolveError, Resolved, Resolver};
use urlspec::{Reference, Spec};

use super::Status;
use crate::args::{help_of, SpecArg};
use crate::output::{self, Error, JsonObject, Output, RecordWrite};

/// The long description of `urlspec extract`.
const LONG_ABOUT: &str = "\
Find the URLs in running text (mail, news, plain-text documents) and print
each one with where it is (FILE:LINE:COLUMN), how it was delimited, and the URL
itself with its wrapper and line-wrapping whitespace removed.

Delimited URLs follow Appendix B of the 1996 draft (\"Recommendations for
Delimiting URLs in Context\"), which RFC 2396 and RFC 3986 repeat:
  * <URL:...> (the prefix in any case) and <...> delimit a URL; the wrapper is
    not part of it, and the URL runs to the first `>`.
  * All whitespace between the brackets is removed, so a URL broken across
    lines comes out whole.
  * A line break right after a `-` keeps the hyphen, but the hyphen may or may
    not be part of the URL: the URL is flagged as ambiguous, and the reading
    without the hyphen is given as its alternative.
  * Bracketed text is a URL only if it has a scheme under --spec:
    <fielding@ics.uci.edu> is not one.
  * Between the brackets, at most 8 KiB (8192 bytes) are read as a URL: a
    longer <URL:...> or <...> that starts like one (URL:, or a scheme) is
    reported as a finding, flagged too-long, with no URL, and its text is not
    searched for bare URLs.
Heuristics, in no seed: text in double quotes that starts with a known scheme
(RFC 2396 App. E), and bare URLs, found by their scheme (http:, ftp:,
gopher:, mailto:, news:, …, x-…, and any other scheme followed by //). A bare
URL ends at whitespace, `<`, `>`, `\"` or a control character; other
characters outside US-ASCII belong to it, as written (http://müller.de).
Trailing punctuation is trimmed, and so is a closing ), ] or } at its end
that the URL did not open (http://example.com/ab)c is whole). An opening
bracket just before the URL is closed by the first partner the URL did not
open, which ends it: (http://one.org/)(http://two.org/) gives two URLs, and
[text](http://a/b_(c)) gives http://a/b_(c). Quotes (') at the end are
trimmed as far as those just before the URL go, since they close the
quotation or wiki markup those opened (''https://example.org'' gives
https://example.org); past them, a final ' is trimmed when the URL holds an
odd number of them (http://a/'x' is whole). --no-bare turns bare URLs off:
only <URL:...>, <...> and quotes are reported.

--relative also reports references without a scheme: always inside <URL:...>,
whose prefix says a URL follows, and inside quotes when they look like a
relative path (\"../x\"). --base resolves each URL found against BASE under
--spec (BASE must be an absolute URL); relative references are found, and so
resolved, only with --relative.

Forms: url-prefixed (<URL:...>), angle (<...>), quoted (\"...\"), bare.

Input: each FILE, or standard input when there is none (a FILE of - is
standard input too), read as bytes: the text need not be UTF-8, and a URL is
reported only where its delimited text is. Lines count from 1 at each LF;
columns count characters from 1; both point at the opening delimiter (or at a
bare URL's first character).

Output (--output):
  text  FILE:LINE:COLUMN  FORM  URL  [FLAGS]
        with --base, URL -> RESOLVED (or -> error: KIND: MESSAGE); the
        flags are too-long (the URL is then -), relative, and
        ambiguous-hyphen (or ALTERNATIVE)
  tsv   a header row, then one row per URL: file, line, column, offset,
        form, url, resolved, ambiguous_hyphen, alternative, relative,
        too_long (standard input is named -)
  json  one object per URL (JSON Lines) with the keys file, line, column,
        offset (the byte offset of the opening delimiter), form, url (null
        when too long), resolved (null without --base), ambiguous_hyphen,
        alternative (the reading without the hyphens, or null), relative
        and too_long

Exit status: 0 when every FILE was read (whether or not it holds URLs), 1
when some URL could not be resolved against --base or some <...> form was
too long, 2 for a usage or I/O error: a missing FILE (reported after the
other files were read) or a BASE that is not absolute.";

/// The `Examples:` section of `urlspec extract --help`.
const EXAMPLES: &str = "\
Examples:
  # The 1996 draft's own example, from standard input
  printf 'Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\\n      type=d> but\\n' | urlspec extract

  # Only <URL:...>, <...> and quoted URLs, as TSV
  urlspec extract --no-bare --output tsv notes.txt mail/*.eml > urls.tsv

  # Resolve relative references too, against the document's URL
  urlspec extract --relative --base http://example.com/docs/ README.txt

  # JSON Lines: the URLs broken at a hyphen, both readings
  urlspec extract --output json < message.txt | jq -c 'select(.ambiguous_hyphen) | [.url, .alternative]'";

/// The arguments of `urlspec extract`.
#[derive(Debug, Args)]
#[command(
    about = "Find the URLs in running text (<URL:...>, <...>, quotes, \
             bare URLs), with line and column, optionally resolved",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("spec",
        "The spec that decides what a scheme is, and resolves against \
         --base"
    ))
)]
pub struct ExtractArgs {
    /// `--spec`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub spec: SpecArg,

    /// Resolve each URL found against this absolute URL
    #[arg(short, long, value_name = "BASE")]
    pub base: Option<String>,

    /// Also report references without a scheme: in <URL:...>, and quoted
    /// relative paths
    #[arg(long)]
    pub relative: bool,

    /// Report only delimited URLs (<URL:...>, <...>, quotes), not bare
    /// ones
    #[arg(long)]
    pub no_bare: bool,

    /// How to print the URLs
    #[arg(short, long, value_enum, value_name = "HOW", default_value_t)]
    pub output: ExtractOutput,

    /// Files to read (- for standard input); with none, standard input
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

impl ExtractArgs {
    /// The library's finder.
    pub fn finder(&self) -> Finder {
        Finder::new()
            .spec(self.spec.value)
            .bare(!self.no_bare)
            .relative(self.relative)
    }
}

/// The values of `--output` of `urlspec extract`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ExtractOutput {
    /// FILE:LINE:COLUMN, form, URL and flags, one line per URL
    #[default]
    Text,
    /// Tab-separated values, a header row first
    Tsv,
    /// One JSON object per URL (JSON Lines)
    Json,
}

/// The TSV header row.
pub const TSV_HEADER: &str = "file\tline\tcolumn\toffset\tform\turl\t\
                              resolved\tambiguous_hyphen\talternative\t\
                              relative\ttoo_long\n";

/// Finds the URLs of every input of `args` and prints them.
pub fn run(args: &ExtractArgs) -> Result<Status, Error> {
    if let Some(base) = &args.base {
        check_base(base, args.spec.value)?;
    }
    let resolver =
        args.base.as_deref().map(|b| Resolver::new(b, args.spec.value));
    let finder = args.finder();
    let mut out = Output::stdout();
    let mut printer = Printer::new(args.output, resolver);
    printer.start(&mut out).map_err(Error::Write)?;
    let stdin_only = [output::STDIN.to_owned()];
    let names =
        if args.files.is_empty() { &stdin_only[..] } else { &args.files };
    let mut failed = false;
    // Some file's reading stopped at an input the library failed on.
    let mut broken = false;
    for name in names {
        let data = if name == output::STDIN {
            let mut data = Vec::new();
            io::stdin().lock().read_to_end(&mut data).map(|_| data)
        } else {
            fs::read(name)
        };
        match data {
            Ok(data) => {
                let found = output::isolate(|| {
                    printer.file(&mut out, name, &data, &finder)
                });
                match found {
                    Ok(written) => written.map_err(Error::Write)?,
                    // The URLs found up to the failure are printed; the
                    // next file is read.
                    Err(bad) => {
                        broken = true;
                        let _ = writeln!(
                            io::stderr().lock(),
                            "urlspec: {name}: {}: {bad}",
                            bad.kind()
                        );
                    }
                }
            }
            Err(err) => {
                failed = true;
                let _ =
                    writeln!(io::stderr().lock(), "urlspec: {name}: {err}");
            }
        }
    }
    out.finish().map_err(Error::Write)?;
    Ok(if failed {
        Status::Failed
    } else {
        Status::from_valid(
            printer.unresolved == 0 && printer.too_long == 0 && !broken,
        )
    })
}

/// Refuses a `--base` that cannot resolve references: one without a scheme
/// under `spec` (the empty string included).
fn check_base(base: &str, spec: Spec) -> Result<(), Error> {
    check_absolute("--base <BASE>", base, spec)
}

/// Refuses a `value` of the option `flag` (`--base <BASE>`) that is not an
/// absolute URL: one without a scheme under `spec`.
pub fn check_absolute(
    flag: &str,
    value: &str,
    spec: Spec,
) -> Result<(), Error> {
    if Reference::parse_with(value, spec).has_scheme() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "invalid value '{}' for '{flag}': not an absolute URL (it has \
         no scheme under {spec})",
        output::visible(value)
    )))
}

/// Prints the URLs found, in one of the output formats, and counts those
/// that could not be resolved.
pub struct Printer<'b> {
    how: ExtractOutput,
    resolver: Option<Resolver<'b>>,
    /// The URLs that could not be resolved against the base.
    pub unresolved: usize,
    /// The `<...>` forms too long to be read as a URL.
    pub too_long: usize,
    /// One line, reused for every URL.
    line: Vec<u8>,
}

impl<'b> Printer<'b> {
    /// A printer in format `how`, resolving with `resolver` when given.
    pub fn new(how: ExtractOutput, resolver: Option<Resolver<'b>>) -> Self {
        Printer {
            how,
            resolver,
            unresolved: 0,
            too_long: 0,
            line: Vec::with_capacity(512),
        }
    }

    /// Writes what comes before the first URL: the TSV header row.
    pub fn start(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.how == ExtractOutput::Tsv {
            out.write_all(TSV_HEADER.as_bytes())?;
        }
        Ok(())
    }

    /// Finds and prints every URL of one input, `data`, named `name`.
    pub fn file(
        &mut self,
        out: &mut impl RecordWrite,
        name: &str,
        data: &[u8],
        finder: &Finder,
    ) -> io::Result<()> {
        let index = LineIndex::new(data);
        for found in finder.find_iter(data) {
            let (line, column) = index.line_col(found.span().start);
            let place = Place { name, line, column };
            if found.too_long() {
                self.too_long += 1;
                let _ = writeln!(
                    io::stderr().lock(),
                    "urlspec: {name}:{line}:{column}: not read as a URL: {}",
                    too_long_detail(&found)
                );
            }
            let resolved = match self.resolver {
                Some(r) if !found.too_long() => {
                    Some(r.resolve(found.as_str()))
                }
                _ => None,
            };
            if let Some(Err(err)) = &resolved {
                self.unresolved += 1;
                let _ = writeln!(
                    io::stderr().lock(),
                    "urlspec: {name}:{line}:{column}: {}: {}: {err}",
                    output::visible(found.as_str()),
                    err.kind()
                );
            }
            self.line.clear();
            match self.how {
                ExtractOutput::Text => {
                    text_line(
                        &mut self.line,
                        &place,
                        &found,
                        resolved.as_ref(),
                    );
                }
                ExtractOutput::Tsv => {
                    tsv_row(&mut self.line, &place, &found, resolved.as_ref());
                }
                ExtractOutput::Json => {
                    json_line(
                        &mut self.line,
                        &place,
                        &found,
                        resolved.as_ref(),
                    );
                }
            }
            out.write_all(&self.line)?;
        }
        out.end_record()
    }
}

/// Where a URL was found: the input's name, and the line and column (from
/// 1) of its opening delimiter.
pub struct Place<'a> {
    /// The file name as given, `-` for standard input.
    pub name: &'a str,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
}

/// The length of a form too long, with the limit, for the text output
/// and standard error.
fn too_long_detail(found: &Found<'_>) -> String {
    format!(
        "{} bytes between the brackets, over the {MAX_DELIMITED}-byte limit",
        found.span().len() - 2
    )
}

/// The flags of a text line: `too-long`, `relative`,
/// `ambiguous-hyphen (or ALT)`.
fn flags(found: &Found<'_>) -> Vec<String> {
    let mut flags = Vec::new();
    if found.too_long() {
        flags.push(format!("too-long ({})", too_long_detail(found)));
    }
    if found.is_relative() {
        flags.push("relative".to_owned());
    }
    if let Some(alternative) = found.alternative() {
        flags.push(format!(
            "ambiguous-hyphen (or {})",
            output::visible(&alternative)
        ));
    }
    flags
}

/// `FILE:LINE:COLUMN  FORM  URL[ -> RESOLVED][  [FLAGS]]`.
fn text_line(
    buf: &mut Vec<u8>,
    place: &Place<'_>,
    found: &Found<'_>,
    resolved: Option<&Result<Resolved, ResolveError>>,
) {
    let mut line = format!(
        "{}:{}:{}  {}  {}",
        output::visible(place.name),
        place.line,
        place.column,
        found.form(),
        if found.too_long() {
            "-".into()
        } else {
            output::visible(found.as_str())
        }
    );
    match resolved {
        Some(Ok(resolved)) => {
            line.push_str(" -> ");
            line.push_str(&output::visible(&resolved.href));
        }
        Some(Err(err)) => {
            line.push_str(&format!(" -> error: {}: {err}", err.kind()));
        }
        None => {}
    }
    let flags = flags(found);
    if !flags.is_empty() {
        line.push_str(&format!("  [{}]", flags.join(", ")));
    }
    line.push('\n');
    buf.extend_from_slice(line.as_bytes());
}

/// One TSV row: file, line, column, offset, form, url (empty for a form
/// too long), resolved (empty without a base or on error),
/// ambiguous_hyphen, alternative (empty when none), relative, too_long;
/// control characters made visible so that a field never breaks the row.
fn tsv_row(
    buf: &mut Vec<u8>,
    place: &Place<'_>,
    found: &Found<'_>,
    resolved: Option<&Result<Resolved, ResolveError>>,
) {
    let line = place.line.to_string();
    let column = place.column.to_string();
    let offset = found.span().start.to_string();
    let resolved = match resolved {
        Some(Ok(resolved)) => resolved.href.as_str(),
        _ => "",
    };
    let alternative = found.alternative().unwrap_or_default();
    let fields = [
        place.name,
        &line,
        &column,
        &offset,
        found.form().name(),
        found.as_str(),
        resolved,
        bool_name(found.ambiguous_hyphen()),
        &alternative,
        bool_name(found.is_relative()),
        bool_name(found.too_long()),
    ];
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            buf.push(b'\t');
        }
        buf.extend_from_slice(output::visible(field).as_bytes());
    }
    buf.push(b'\n');
}

/// `true` or `false`.
fn bool_name(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

/// One JSON line: file, line, column, offset, form, url (null for a form
/// too long), resolved, ambiguous_hyphen, alternative, relative, too_long.
fn json_line(
    buf: &mut Vec<u8>,
    place: &Place<'_>,
    found: &Found<'_>,
    resolved: Option<&Result<Resolved, ResolveError>>,
) {
    let resolved = match resolved {
        Some(Ok(resolved)) => Some(resolved.href.as_str()),
        _ => None,
    };
    let mut o = JsonObject::new(buf);
    o.string("file", place.name)
        .number("line", place.line)
        .number("column", place.column)
        .number("offset", found.span().start)
        .string("form", found.form().name())
        .optional("url", (!found.too_long()).then(|| found.as_str()))
        .optional("resolved", resolved)
        .boolean("ambiguous_hyphen", found.ambiguous_hyphen())
        .optional("alternative", found.alternative().as_deref())
        .boolean("relative", found.is_relative())
        .boolean("too_long", found.too_long());
    o.finish();
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    /// The draft's example (TV-TXT-1 … 3), with a hyphen broken at a line
    /// end and a relative reference.
    const TEXT: &str = "Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\n      \
                        type=d> but you can probably pick it up from <ftp://ds.in\n      \
                        ternic.net/rfc>.  See <URL:http://a.example/foo-\n  bar> and <URL:../g>.";

    fn print(
        how: ExtractOutput,
        base: Option<&str>,
        finder: Finder,
    ) -> String {
        let resolver = base.map(|b| Resolver::new(b, Spec::Rfc1808));
        let mut printer = Printer::new(how, resolver);
        let mut out = Vec::new();
        printer.start(&mut out).unwrap();
        printer.file(&mut out, "t.txt", TEXT.as_bytes(), &finder).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_lines() {
        let text = print(ExtractOutput::Text, None, Finder::new());
        assert_eq!(
            text,
            "t.txt:1:28  angle  ftp://info.cern.ch/pub/www/doc;type=d\n\
             t.txt:2:52  angle  ftp://ds.internic.net/rfc\n\
             t.txt:3:29  url-prefixed  http://a.example/foo-bar  \
             [ambiguous-hyphen (or http://a.example/foobar)]\n"
        );
    }

    #[test]
    fn relative_references_resolve_with_a_base() {
        let finder = Finder::new().relative(true);
        let text =
            print(ExtractOutput::Text, Some("http://a/b/c/d;p?q"), finder);
        let last = text.lines().last().unwrap();
        assert_eq!(
            last,
            "t.txt:4:12  url-prefixed  ../g -> http://a/b/g  [relative]"
        );
        let first = text.lines().next().unwrap();
        assert!(first
            .ends_with("doc;type=d -> ftp://info.cern.ch/pub/www/doc;type=d"));
    }

    #[test]
    fn tsv_rows_have_eleven_fields() {
        let text =
            print(ExtractOutput::Tsv, None, Finder::new().relative(true));
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(TSV_HEADER.trim_end()));
        let rows: Vec<Vec<&str>> =
            lines.map(|l| l.split('\t').collect()).collect();
        assert!(rows.iter().all(|r| r.len() == 11));
        assert_eq!(
            rows[2],
            [
                "t.txt",
                "3",
                "29",
                &TEXT.find("<URL:http").unwrap().to_string(),
                "url-prefixed",
                "http://a.example/foo-bar",
                "",
                "true",
                "http://a.example/foobar",
                "false",
                "false"
            ]
        );
        assert_eq!(rows[3][9], "true");
    }

    #[test]
    fn json_lines() {
        let text =
            print(ExtractOutput::Json, Some("http://h/"), Finder::new());
        let v: Vec<serde_json::Value> =
            text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0]["offset"], 27);
        assert_eq!(v[0]["resolved"], "ftp://info.cern.ch/pub/www/doc;type=d");
        assert!(v[0]["alternative"].is_null());
        assert_eq!(v[2]["alternative"], "http://a.example/foobar");
        assert_eq!(v[2]["ambiguous_hyphen"], true);
    }

    #[test]
    fn columns_count_characters_and_bytes_need_not_be_utf8() {
        let data = b"\xff\xfe caf\xc3\xa9 <URL:http://x/>\n";
        let mut printer = Printer::new(ExtractOutput::Text, None);
        let mut out = Vec::new();
        printer.file(&mut out, "b", data, &Finder::new()).unwrap();
        // Two invalid bytes, a space, `café` (4), a space: column 9.
        assert_eq!(out, b"b:1:9  url-prefixed  http://x/\n");
    }

    #[test]
    fn a_form_too_long_is_a_finding_not_a_url() {
        let mut data = b"see <URL:http://a/".to_vec();
        data.extend(vec![b'x'; MAX_DELIMITED]);
        data.extend_from_slice(b"\n y> and http://b/\n");
        let resolver = Some(Resolver::new("http://h/", Spec::Rfc1808));
        let mut printer = Printer::new(ExtractOutput::Json, resolver);
        let mut out = Vec::new();
        printer.file(&mut out, "t", &data, &Finder::new()).unwrap();
        let v: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0]["too_long"].clone(), v[0]["url"].clone()),
            (true.into(), serde_json::Value::Null)
        );
        assert!(v[0]["resolved"].is_null());
        assert_eq!(
            (v[1]["url"].clone(), v[1]["too_long"].clone()),
            ("http://b/".into(), false.into())
        );
        assert_eq!((printer.too_long, printer.unresolved), (1, 0));
        let mut printer = Printer::new(ExtractOutput::Text, None);
        let mut out = Vec::new();
        printer.file(&mut out, "t", &data, &Finder::new()).unwrap();
        let first =
            String::from_utf8(out).unwrap().lines().next().unwrap().to_owned();
        let inner = MAX_DELIMITED + "URL:http://a/\n y".len();
        assert_eq!(
            first,
            format!(
                "t:1:5  url-prefixed  -  [too-long ({inner} bytes between the \
                 brackets, over the 8192-byte limit)]"
            )
        );
    }

    #[test]
    fn base_must_be_absolute() {
        assert!(check_base("http://a/", Spec::Rfc3986).is_ok());
        for base in ["", "../x", "//h/p"] {
            let Err(Error::Usage(message)) = check_base(base, Spec::Rfc1808)
            else {
                panic!("{base:?} accepted");
            };
            assert!(message.contains("not an absolute URL"), "{message}");
        }
    }

    #[test]
    fn extract_flags_build_the_finder() {
        let cli = Cli::try_parse_from(["urlspec", "extract"]).unwrap();
        let Command::Extract(args) = cli.command else { panic!() };
        assert_eq!(args.finder(), Finder::new());
        assert_eq!(args.output, ExtractOutput::Text);
        let cli = Cli::try_parse_from([
            "urlspec",
            "extract",
            "--no-bare",
            "--relative",
            "-s",
            "rfc3986",
            "-",
        ])
        .unwrap();
        let Command::Extract(args) = cli.command else { panic!() };
        let want =
            Finder::new().bare(false).relative(true).spec(Spec::Rfc3986);
        assert_eq!(args.finder(), want);
        assert_eq!(args.files, ["-"]);
    }
}
