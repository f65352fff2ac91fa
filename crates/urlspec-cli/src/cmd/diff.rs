//! `urlspec diff`: where the specs disagree on one input, or on each line
//! of a list, and the rule behind each difference; with `--parsers`, real
//! parsers' profiles beside them.
//!
//! The comparison is the library's [`diff::compare`] (how each spec splits
//! a URL) or [`diff::compare_resolution`] (how each resolves a reference
//! against a base), with the rows of `urlspec-parsers`' profiles when
//! asked ([`readers::compare`]). This module draws its [`Comparison`]: a matrix of the
//! rows with the differing cells marked ([`write_matrix`]), the differences
//! with their groups of specs and explanations ([`write_differences`]), or
//! one JSON object ([`write_json`]). `--batch` streams standard input
//! through the same drawing and keeps a [`Tally`] for the summary.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{self, IsTerminal, Write};

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{Arg, Args};
use urlspec::diff::{self, Column};
use urlspec::Spec;
use urlspec_parsers::diff::{
    self as readers, Cell, Comparison, Difference, Reader, Row,
};
use urlspec_parsers::Profile;

use crate::args::{
    help_of, spec_error, spec_of_build, JsonArg, ParserList, ParserListParser,
    SPECS,
};
use crate::output::{
    self, BadLine, Error, JsonObject, LineReader, NotUtf8, Origin, Output,
    RecordWrite, STDIN,
};
use crate::status::Status;

/// The long description of `urlspec diff`.
const LONG_ABOUT: &str = "\
Compare what the specs make of one input: how each splits a URL into its
components or, with --base, how each resolves a reference against the base.
Print a matrix with one row per spec and one column per component (scheme,
net_loc, user, password, host, port, path, params, query, fragment, and
whether the URL is valid under the spec), or a single result column with
--base; then, for each column on which the specs disagree, the answers with
the specs that give each, and the rule of the specs' rule tables that makes
the difference, citing where each spec writes it down.

Where the documents themselves leave a choice, urlspec takes the reading
docs/readings.md gives, with the text behind it and the option (if any) that
selects the other; an explanation that rests on one cites its anchor
(docs/readings.md#rfc1630-partial).

A difference in the scheme, user, password, host or port is marked
[security]: two programs that follow different specs would send the same URL
to different places (http://a?@b/: host a, or host b with user a?).

In the matrix, an absent component is (absent), an empty one \"\", and a
component outside the spec's model is - (the WHATWG standard has no net_loc
and no params; they are not compared). `*` marks a cell whose answer differs
from the column's most common one; a spec that gives no URL (the WHATWG
parser on a relative input, a resolution error) shows its error instead of
cells. Colours mark the same cells when standard output is a terminal and
NO_COLOR is not set.

--specs picks the specs, a comma-separated list of names (in the order given)
or all; the default, all, is every spec of this build: the seven documents
and, when built with the whatwg feature, the WHATWG URL Standard, as browsers
parse. Where whatwg gives another answer, the reason names the parser's
state and the section of the Standard.

--batch (or an INPUT of -) reads the inputs from standard input, one per line
(with --base, references; with --pairs, BASE<TAB>REFERENCE lines, split at the
first TAB), streamed, and prints only those on which the specs disagree: the
input, then the disagreeing columns. --security-only prints only the
security-relevant ones. A summary ends the output (on standard error with
--json, once the rest is written): the inputs read, how many the specs
disagree on, how many of those are security-relevant, and the most common sets
of disagreeing columns. A line that is not UTF-8, a --pairs line without a TAB
and an input urlspec fails on (a bug to report) are printed in their place,
with `error: KIND: MESSAGE` (NotUtf8, MissingTab, InternalError; `line N`
stands for an input that is not text), and reported on standard error.

With --json, one object (with --batch, one line per disagreement) with the
keys input, base (null without --base), specs, rows (one per spec: {spec,
valid, error, cells}, cells mapping each column name to its value or null),
differences (each {column, security, groups, explanations}, groups being
[{value, specs}] in spec order; an error is the value \"error: ...\" in
the first column), agree and error (null; for an input line without a
comparison, {kind, message, line}, with input null when it is not text, no
rows and agree null).

--parsers adds a row per real parser beside the specs: a comma-separated list
of profile names, or all (python-urllib, python-urllib3, rust-url, rust-http,
go, java, curl, php, node-legacy, ruby: each written after the
implementation's source, or calling the Rust crate itself, and checked against
the real one; each names the release it follows, listed under the matrix).
urlspec check --validator P --fetcher Q reports where two of them read another
host, port, scheme or user information (URL012). A parser's row shows the components as that
implementation reports them (its user and password are its user information
split at the first `:`), or the error it raises; where urllib gives an empty
text for an absent component, its empty text stands for either. A difference
a parser takes part in is explained by what that implementation does to the
component and by the kinds of URL parsing confusion the input shows
(scheme, slashes, backslash, percent-encoded data, scheme mix-up), each with
the byte where it starts. --parsers splits URLs: it does not go with --base
or --pairs. With --json, parser rows have the key parser (and follows)
instead of spec, valid null; the object gains parsers, each group parsers
and each difference confusions ([{kind, position, what}]).

Exit status: 0 when the specs agree (with --batch: on every input; with
--security-only: on where every input goes), 1 when they disagree (on some
input; or a line has no comparison), 2 for a usage or I/O error.";

/// The `Examples:` section of `urlspec diff --help`.
const EXAMPLES: &str = "\
Examples:
  # Where does http://a?q go? RFC 1808's net_loc runs to the `/`: a?q
  urlspec diff 'http://a?q'

  # A backslash: data to the RFCs, a `/` to browsers (another host)
  urlspec diff 'http://a\\@b/'

  # The seed specs on `?y` against RFC 1808's base (testdata/diff/spec-5.7.toml)
  urlspec diff --specs rfc1630,draft04,rfc1808,draft96 --base 'http://a/b/c/d;p?q#f' '?y'

  # Where Python's urllib, urllib3 and the Rust crates read a host
  # differently from the specs, and the kind of confusion
  urlspec diff --parsers all 'http://allowed.example\\@evil.example/'

  # Every URL of a list on which RFC 3986 and browsers disagree
  urlspec diff --batch --specs rfc3986,whatwg < urls.txt

  # Only the disagreements that change where a request goes; the exit
  # status says whether there is one
  urlspec diff --batch --security-only < urls.txt > confusions.txt

  # A TSV of BASE<TAB>REFERENCE lines, as JSON Lines; count the specs'
  # disagreements by column
  urlspec diff --batch --pairs --json < pairs.tsv | jq -r '.differences[].column' | sort | uniq -c";

/// The arguments of `urlspec diff`.
#[derive(Debug, Args)]
#[command(
    about = "Show where the specs disagree on a URL or a reference \
             (a matrix of every spec's answer), and the rule behind \
             each difference; --batch finds the disagreements in a list",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("json",
        "Print JSON instead of text (with --batch, one object per line)"
    ))
)]
pub struct DiffArgs {
    /// The base URL to resolve the input against ('' for none); without
    /// it, the input is parsed
    #[arg(short, long, value_name = "BASE", conflicts_with = "pairs")]
    pub base: Option<String>,

    /// The specs to compare: a comma-separated list of names, or all (every
    /// spec of this build)
    #[arg(
        long,
        value_name = "LIST",
        value_parser = SpecListParser,
        default_value = "all"
    )]
    pub specs: SpecList,

    /// Real parsers to compare beside the specs: a comma-separated list
    /// of profile names, all, or none
    #[arg(
        long,
        value_name = "LIST",
        value_parser = ParserListParser,
        default_value = "none"
    )]
    pub parsers: ParserList,

    /// `--json`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub json: JsonArg,

    /// Read the inputs from standard input, one per line, and print only
    /// those on which the specs disagree, then a summary
    #[arg(long)]
    pub batch: bool,

    /// With --batch: read BASE<TAB>REFERENCE lines
    #[arg(long)]
    pub pairs: bool,

    /// With --batch: print only the disagreements on the scheme, user,
    /// password, host or port
    #[arg(long)]
    pub security_only: bool,

    /// The URL to compare (with --base, the reference); - reads one per
    /// line from standard input, as --batch does (put `--` before one that
    /// starts with `-`)
    #[arg(
        value_name = "INPUT",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub input: Option<String>,
}

/// The specs of `urlspec diff --specs`, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecList(pub Vec<Spec>);

/// The value parser of `--specs`: a comma-separated list of spec names
/// (each as `--spec` takes it), or `all` for every spec of this build
/// ([`SPECS`]); at least two distinct specs. A name given twice counts
/// once, where it first appears.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecListParser;

impl TypedValueParser for SpecListParser {
    type Value = SpecList;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<SpecList, clap::Error> {
        let text = value.to_string_lossy();
        let mut specs: Vec<Spec> = Vec::new();
        for name in text.split(',').map(str::trim) {
            let found: Vec<Spec> = if name.eq_ignore_ascii_case("all") {
                SPECS.to_vec()
            } else {
                let spec = spec_of_build(name).ok_or_else(|| {
                    spec_error(cmd, arg, "--specs", name, &["all"])
                })?;
                vec![spec]
            };
            for spec in found {
                if !specs.contains(&spec) {
                    specs.push(spec);
                }
            }
        }
        if specs.len() < 2 {
            let arg = arg.map_or_else(|| "--specs".to_owned(), Arg::to_string);
            let message = format!(
                "invalid value '{text}' for '{arg}': a comparison needs two \
                 specs or more (a comma-separated list, or all)\n"
            );
            return Err(clap::Error::raw(ErrorKind::InvalidValue, message)
                .with_cmd(cmd));
        }
        Ok(SpecList(specs))
    }
}

/// Compares the input of `args` (or, with `--batch`, every line of
/// standard input) under the chosen specs.
pub fn run(args: &DiffArgs) -> Result<Status, Error> {
    let paint = Paint::detect(args.json.on);
    let mut out = Output::stdout();
    let batch_mode = args.batch || args.input.as_deref() == Some(STDIN);
    if !args.parsers.0.is_empty() && (args.base.is_some() || args.pairs) {
        let flag = if args.pairs { "--pairs" } else { "--base" };
        return Err(Error::Usage(format!(
            "--parsers compares how URLs are split; it does not go with \
             {flag} (the parsers' profiles do not resolve references)"
        )));
    }
    if (args.pairs || args.security_only) && !batch_mode {
        let flag = if args.pairs { "--pairs" } else { "--security-only" };
        return Err(Error::Usage(format!(
            "{flag} needs --batch (or an INPUT of -): it applies to the \
             lines of standard input"
        )));
    }
    let status = if batch_mode {
        batch(args, paint, &mut out)?
    } else {
        let input = args.input.as_deref().unwrap_or_default();
        let c = comparison(
            args.base.as_deref(),
            input,
            &args.specs.0,
            &args.parsers.0,
        );
        if args.json.on {
            let mut buf = Vec::with_capacity(2048);
            write_json(&mut buf, &c);
            buf.push(b'\n');
            out.write_all(&buf).map_err(Error::Write)?;
        } else {
            write_single(&mut out, &c, paint).map_err(Error::Write)?;
        }
        Status::from_valid(c.agrees())
    };
    out.finish().map_err(Error::Write)?;
    Ok(status)
}

/// The comparison of `input`: parsed by the specs and the parsers, or
/// resolved against `base` by the specs.
pub fn comparison(
    base: Option<&str>,
    input: &str,
    specs: &[Spec],
    parsers: &[&'static Profile],
) -> Comparison {
    match base {
        Some(base) => diff::compare_resolution(base, input, specs).into(),
        None => readers::compare(input, specs, parsers),
    }
}

/// ANSI colours, written by hand: on only when standard output is a
/// terminal, `NO_COLOR` is unset (or empty) and the output is not JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

/// Bold: the header row and the column of a difference.
const BOLD: &str = "1";
/// Yellow: a cell that differs from its column's most common answer.
const YELLOW: &str = "33";
/// Bold red: the same in a security-relevant column, and `[security]`.
const RED: &str = "1;31";
/// Dim: the explanations.
const DIM: &str = "2";

impl Paint {
    /// Colours for standard output, unless `json`.
    pub fn detect(json: bool) -> Paint {
        let no_color =
            std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Paint { on: !json && !no_color && io::stdout().is_terminal() }
    }

    /// Colours on (in tests).
    #[cfg(test)]
    pub fn always() -> Paint {
        Paint { on: true }
    }

    /// `text` in the colour `code`, when colours are on.
    fn paint<'t>(self, code: &str, text: &'t str) -> Cow<'t, str> {
        if self.on && !text.is_empty() {
            Cow::Owned(format!("\x1b[{code}m{text}\x1b[0m"))
        } else {
            Cow::Borrowed(text)
        }
    }

    /// `text` in `code`, padded with spaces to `width` characters (the
    /// padding outside the colour).
    fn padded(self, code: Option<&str>, text: &str, width: usize) -> String {
        let pad = width.saturating_sub(output::text_width(text));
        let text = match code {
            Some(code) => self.paint(code, text),
            None => Cow::Borrowed(text),
        };
        format!("{text}{:pad$}", "")
    }
}

/// A value as the matrix and the groups show it: `(absent)`, `""`, or the
/// text with control characters made visible.
pub fn shown_value(value: Option<&str>) -> Cow<'_, str> {
    match value {
        None => Cow::Borrowed("(absent)"),
        Some("") => Cow::Borrowed("\"\""),
        Some(text) => output::visible(text),
    }
}

/// An answer of a difference as the groups show it: its value
/// ([`shown_value`]), or `error: REASON` for a reader that gives no URL.
pub fn shown_cell(cell: &Cell) -> Cow<'_, str> {
    match cell {
        Cell::Value(value) => shown_value(value.as_deref()),
        Cell::Error(e) => {
            Cow::Owned(output::visible(&format!("error: {e}")).into_owned())
        }
    }
}

/// The text of an answer in JSON: the value (`None` when absent), or
/// `error: REASON` for a spec that gives no URL.
fn cell_text(cell: &Cell) -> Option<Cow<'_, str>> {
    match cell {
        Cell::Value(value) => value.as_deref().map(Cow::Borrowed),
        Cell::Error(e) => Some(Cow::Owned(format!("error: {e}"))),
    }
}

/// An input or base as a header shows it: `""` when empty.
fn shown_input(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        Cow::Borrowed("\"\"")
    } else {
        output::visible(text)
    }
}

/// Whether `reader` has the column (the WHATWG standard and the parsers
/// have no net_loc and no params; the library does not compare them).
pub fn in_model(reader: Reader, column: Column) -> bool {
    reader.has(column)
}

/// The index of the group with the most specs (the first of the largest):
/// the column's most common answer.
pub fn majority(d: &Difference) -> usize {
    let mut best = 0;
    for (i, (_, specs)) in d.groups.iter().enumerate() {
        if specs.len() > d.groups[best].1.len() {
            best = i;
        }
    }
    best
}

/// Whether `reader`'s answer in `d` is not the column's most common one.
pub fn is_marked(d: &Difference, reader: Reader) -> bool {
    let group = d.groups.iter().position(|(_, s)| s.contains(&reader));
    group.is_some_and(|g| g != majority(d))
}

/// The text output of one comparison: the input, the specs, the matrix,
/// the differences and the verdict.
pub fn write_single(
    out: &mut impl Write,
    c: &Comparison,
    paint: Paint,
) -> io::Result<()> {
    match &c.base {
        Some(base) => {
            writeln!(out, "reference  {}", shown_input(&c.input))?;
            writeln!(out, "base       {}", shown_input(base))?;
        }
        None => writeln!(out, "input  {}", shown_input(&c.input))?,
    }
    writeln!(out)?;
    write_matrix(out, c, paint)?;
    if c.has_parsers() {
        writeln!(out)?;
        write_parsers(out, c)?;
    }
    if !c.differences.is_empty() {
        writeln!(out)?;
        write_differences(out, c, "", paint)?;
    }
    writeln!(out)?;
    writeln!(out, "{}", verdict(c, paint))
}

/// The releases the parsers of the matrix follow, one per line.
fn write_parsers(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    let parsers: Vec<&Profile> = c
        .rows
        .iter()
        .filter_map(|r| match r.reader {
            Reader::Parser(p) => Some(p),
            Reader::Spec(_) => None,
        })
        .collect();
    let width = parsers.iter().map(|p| p.name.len()).max().unwrap_or(0);
    writeln!(out, "parsers")?;
    for p in parsers {
        writeln!(out, "  {:width$}  {}", p.name, p.follows)?;
    }
    Ok(())
}

/// The last line: `the N specs agree`, or the columns on which they
/// disagree, each security-relevant one marked.
fn verdict(c: &Comparison, paint: Paint) -> String {
    let who = if c.has_parsers() { "specs and parsers" } else { "specs" };
    if c.agrees() {
        return format!("the {} {who} agree", c.rows.len());
    }
    let columns: Vec<String> = c
        .differences
        .iter()
        .map(|d| {
            if d.security {
                format!("{} {}", d.column, paint.paint(RED, "[security]"))
            } else {
                d.column.to_string()
            }
        })
        .collect();
    format!(
        "the {who} disagree on {} of {}: {}",
        c.differences.len(),
        output::plural(c.columns.len() as u64, "column"),
        columns.join(", ")
    )
}

/// The matrix: a header row of column names (a parse comparison adds
/// `valid`), then one row per spec, each cell after a one-character gutter
/// that holds `*` when the cell differs from the column's most common
/// answer. A spec that gives no answer shows its error instead of cells.
pub fn write_matrix(
    out: &mut impl Write,
    c: &Comparison,
    paint: Paint,
) -> io::Result<()> {
    let parse = c.base.is_none();
    let diffs: Vec<Option<&Difference>> = c
        .columns
        .iter()
        .map(|col| c.differences.iter().find(|d| d.column == *col))
        .collect();

    // The text of every cell, and whether it is marked.
    let cells: Vec<Vec<(String, bool)>> = c
        .rows
        .iter()
        .map(|row| {
            let mut cells: Vec<(String, bool)> = c
                .columns
                .iter()
                .zip(&row.cells)
                .zip(&diffs)
                .map(|((&col, cell), d)| {
                    if !in_model(row.reader, col) {
                        return ("-".to_owned(), false);
                    }
                    let marked = d.is_some_and(|d| is_marked(d, row.reader));
                    match (&row.error, cell) {
                        (Some(err), _) => (format!("error: {err}"), marked),
                        (None, cell) => {
                            (shown_value(cell.as_deref()).into_owned(), marked)
                        }
                    }
                })
                .collect();
            if parse {
                let valid = match row.valid {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "-",
                };
                cells.push((valid.to_owned(), false));
            }
            cells
        })
        .collect();

    let mut headers: Vec<&str> = c.columns.iter().map(|c| c.name()).collect();
    if parse {
        headers.push("valid");
    }
    // An error row spans the columns: it does not widen them.
    let spanning = |row: &Row| row.error.is_some() && parse;
    let widths: Vec<usize> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            c.rows
                .iter()
                .zip(&cells)
                .filter(|(row, _)| !spanning(row))
                .map(|(_, cells)| output::text_width(&cells[i].0))
                .chain([h.len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let name_width = c.rows.iter().map(|r| r.reader.name().len()).max();
    let name_width = name_width.unwrap_or(0);

    // The header row.
    let mut line = format!("  {:name_width$}", "");
    for (i, (h, w)) in headers.iter().zip(&widths).enumerate() {
        let last = i + 1 == headers.len();
        let code = diffs.get(i).copied().flatten().map(|_| BOLD);
        line.push_str("   ");
        line.push_str(&paint.padded(code, h, if last { 0 } else { *w }));
    }
    writeln!(out, "{}", line.trim_end())?;

    for (row, cells) in c.rows.iter().zip(&cells) {
        let mut line = format!("  {:name_width$}", row.reader.name());
        if spanning(row) {
            let (text, marked) = &cells[0];
            let gutter = if *marked { '*' } else { ' ' };
            let code = marked.then_some(YELLOW);
            line.push_str(&format!("  {gutter}"));
            line.push_str(&paint.padded(code, text, 0));
            writeln!(out, "{line}")?;
            continue;
        }
        for (i, ((text, marked), w)) in cells.iter().zip(&widths).enumerate() {
            let last = i + 1 == cells.len();
            let gutter = if *marked { '*' } else { ' ' };
            let security =
                diffs.get(i).copied().flatten().is_some_and(|d| d.security);
            let code = marked.then_some(if security { RED } else { YELLOW });
            line.push_str(&format!("  {gutter}"));
            line.push_str(&paint.padded(
                code,
                text,
                if last { 0 } else { *w },
            ));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Every difference of `c`: the column (with `[security]` when flagged),
/// then one line per answer, `value  <- spec, spec`, then each
/// explanation, all after `indent`.
pub fn write_differences(
    out: &mut impl Write,
    c: &Comparison,
    indent: &str,
    paint: Paint,
) -> io::Result<()> {
    for d in &c.differences {
        let name = paint.paint(BOLD, d.column.name());
        if d.security {
            let flag = paint.paint(RED, "[security]");
            writeln!(out, "{indent}{name}  {flag}")?;
        } else {
            writeln!(out, "{indent}{name}")?;
        }
        let values: Vec<Cow<'_, str>> =
            d.groups.iter().map(|(cell, _)| shown_cell(cell)).collect();
        let width = values.iter().map(|v| output::text_width(v)).max();
        let width = width.unwrap_or(0);
        for (value, (_, readers)) in values.iter().zip(&d.groups) {
            let names: Vec<&str> = readers.iter().map(|r| r.name()).collect();
            let value = output::pad(value, width);
            writeln!(out, "{indent}  {value}  <- {}", names.join(", "))?;
        }
        for why in &d.explanations {
            let why = output::visible(why);
            writeln!(
                out,
                "{indent}  {}",
                paint.paint(DIM, &format!("why: {why}"))
            )?;
        }
    }
    Ok(())
}

/// The names of the specs among `readers`.
fn spec_names(readers: &[Reader]) -> impl Iterator<Item = &'static str> + '_ {
    readers.iter().filter_map(|r| match r {
        Reader::Spec(s) => Some(s.name()),
        Reader::Parser(_) => None,
    })
}

/// The names of the parsers among `readers`.
fn parser_names(
    readers: &[Reader],
) -> impl Iterator<Item = &'static str> + '_ {
    readers.iter().filter_map(|r| match r {
        Reader::Parser(p) => Some(p.name),
        Reader::Spec(_) => None,
    })
}

/// The JSON object of one comparison (no line ending): `input`, `base`,
/// `specs`, `rows`, `differences` and `agree`; with parsers, `parsers`
/// too, and their keys in rows, groups and differences.
pub fn write_json(buf: &mut Vec<u8>, c: &Comparison) {
    let parsers = c.has_parsers();
    let readers: Vec<Reader> = c.rows.iter().map(|r| r.reader).collect();
    let mut o = JsonObject::new(buf);
    o.string("input", &c.input)
        .optional("base", c.base.as_deref())
        .strings("specs", spec_names(&readers));
    if parsers {
        o.strings("parsers", parser_names(&readers));
    }
    o.objects("rows", &c.rows, |o, row| {
        match row.reader {
            Reader::Spec(s) => o.string("spec", s.name()),
            Reader::Parser(p) => {
                o.string("parser", p.name).string("follows", p.follows)
            }
        };
        match row.valid {
            Some(valid) => o.boolean("valid", valid),
            None => o.null("valid"),
        };
        o.optional("error", row.error.as_deref()).object("cells", |o| {
            for (col, cell) in c.columns.iter().zip(&row.cells) {
                o.optional(col.name(), cell.as_deref());
            }
        });
    })
    .objects("differences", &c.differences, |o, d| {
        o.string("column", d.column.name())
            .boolean("security", d.security)
            .objects("groups", &d.groups, |o, (cell, readers)| {
                o.optional("value", cell_text(cell).as_deref())
                    .strings("specs", spec_names(readers));
                if parsers {
                    o.strings("parsers", parser_names(readers));
                }
            })
            .strings("explanations", &d.explanations);
        if parsers {
            o.objects("confusions", &d.confusions, |o, k| {
                o.string("kind", k.kind.name())
                    .number("position", k.position)
                    .string("what", &k.what);
            });
        }
    })
    .boolean("agree", c.agrees());
    output::error_member(&mut o, None);
    o.finish();
}

/// The JSON line (with its line ending) of an input line without a
/// comparison: the keys of [`write_json`], no rows, `agree` null, and
/// `error` saying why, with the line's number (the output of `--batch`
/// does not line up with its input).
pub fn write_bad_json(
    buf: &mut Vec<u8>,
    input: Option<&str>,
    specs: &[Spec],
    number: u64,
    bad: &BadLine,
) {
    let none = std::iter::empty::<&str>;
    let mut o = JsonObject::new(buf);
    o.optional("input", input)
        .null("base")
        .strings("specs", specs.iter().map(|s| s.name()))
        .strings("rows", none())
        .strings("differences", none())
        .null("agree")
        .object("error", |e| {
            let number = usize::try_from(number).unwrap_or(usize::MAX);
            e.string("kind", bad.kind())
                .string("message", &bad.to_string())
                .number("line", number);
        });
    o.finish();
    buf.push(b'\n');
}

/// The text block of an input line without a comparison in `--batch`: a
/// blank line before it (unless `first`), the input (`line N` when it is
/// not text), then `error: KIND: MESSAGE`.
pub fn write_bad_block(
    out: &mut impl Write,
    input: Option<&str>,
    number: u64,
    first: bool,
    bad: &BadLine,
) -> io::Result<()> {
    if !first {
        writeln!(out)?;
    }
    match input {
        Some(input) => writeln!(out, "{}", shown_input(input))?,
        None => writeln!(out, "line {number}")?,
    }
    writeln!(out, "  error: {}: {bad}", bad.kind())
}

/// What `--batch` counts for its summary.
#[derive(Debug, Default)]
pub struct Tally {
    /// Lines read.
    pub inputs: u64,
    /// Lines without a comparison (not UTF-8; a `--pairs` line without a
    /// TAB; an input the library failed on).
    pub errors: u64,
    /// Inputs on which the specs disagree.
    pub disagree: u64,
    /// Of those, the security-relevant ones.
    pub security: u64,
    /// Inputs printed.
    pub printed: u64,
    /// How often each set of disagreeing columns occurs among the inputs
    /// printed.
    pub column_sets: HashMap<String, u64>,
}

impl Tally {
    /// Counts `c`; returns whether to print it.
    pub fn count(&mut self, c: &Comparison, security_only: bool) -> bool {
        if c.agrees() {
            return false;
        }
        self.disagree += 1;
        let security = c.is_security_relevant();
        self.security += u64::from(security);
        if security_only && !security {
            return false;
        }
        self.printed += 1;
        let columns: Vec<&str> =
            c.differences.iter().map(|d| d.column.name()).collect();
        *self.column_sets.entry(columns.join(", ")).or_insert(0) += 1;
        true
    }

    /// The summary: the counts, then the five most common sets of
    /// disagreeing columns.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        write!(
            out,
            "{} read, {} disagree, {} security-relevant",
            output::plural(self.inputs, "input"),
            self.disagree,
            self.security
        )?;
        if self.errors > 0 {
            let lines = output::plural(self.errors, "line");
            write!(out, ", {lines} with an error")?;
        }
        writeln!(out)?;
        let mut sets: Vec<(&String, &u64)> = self.column_sets.iter().collect();
        sets.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        if !sets.is_empty() {
            writeln!(out, "most common disagreements (columns):")?;
        }
        let width = sets.first().map_or(0, |(_, n)| n.to_string().len());
        for (set, n) in sets.into_iter().take(5) {
            writeln!(out, "  {n:>width$}  {set}")?;
        }
        Ok(())
    }
}

/// `--batch`: compares every line of standard input, prints the
/// disagreements, then the summary.
fn batch(
    args: &DiffArgs,
    paint: Paint,
    out: &mut Output,
) -> Result<Status, Error> {
    let mut tally = Tally::default();
    run_batch(args, paint, output::stdin(), out, &mut tally)?;
    if args.json.on {
        out.flush().map_err(Error::Write)?;
        let _ = tally.write(&mut io::stderr().lock());
    } else {
        if tally.printed > 0 {
            writeln!(out).map_err(Error::Write)?;
        }
        tally.write(out).map_err(Error::Write)?;
    }
    Ok(Status::from_valid(tally.printed == 0 && tally.errors == 0))
}

/// Reads `input` line by line, one reused buffer, and prints each
/// disagreement as it is found.
pub fn run_batch(
    args: &DiffArgs,
    paint: Paint,
    input: impl io::BufRead,
    out: &mut impl RecordWrite,
    tally: &mut Tally,
) -> Result<(), Error> {
    let specs = &args.specs.0;
    let mut lines = LineReader::new(input);
    let mut buf = Vec::with_capacity(4096);
    while let Some(line) = lines.next_line().map_err(Error::Read)? {
        tally.inputs += 1;
        let number = line.number;
        let read = match std::str::from_utf8(line.bytes) {
            Ok(text) if !args.pairs => Ok((args.base.as_deref(), text)),
            Ok(text) => match text.split_once('\t') {
                Some((base, reference)) => Ok((Some(base), reference)),
                None => Err((Some(text), BadLine::MissingTab)),
            },
            Err(err) => {
                Err((None, BadLine::NotUtf8(NotUtf8::of(&line, &err))))
            }
        };
        let parsers = &args.parsers.0;
        let compared = read.and_then(|(base, input)| {
            output::isolate(|| comparison(base, input, specs, parsers))
                .map_err(|bad| (Some(input), bad))
        });
        let c = match compared {
            Ok(c) => c,
            Err((input, bad)) => {
                tally.errors += 1;
                if args.json.on {
                    buf.clear();
                    write_bad_json(&mut buf, input, specs, number, &bad);
                    out.write_all(&buf).map_err(Error::Write)?;
                } else {
                    tally.printed += 1;
                    let first = tally.printed == 1;
                    write_bad_block(out, input, number, first, &bad)
                        .map_err(Error::Write)?;
                    output::report(Origin::Line(number), bad.kind(), &bad);
                }
                out.end_record().map_err(Error::Write)?;
                continue;
            }
        };
        if !tally.count(&c, args.security_only) {
            continue;
        }
        if args.json.on {
            buf.clear();
            write_json(&mut buf, &c);
            buf.push(b'\n');
            out.write_all(&buf).map_err(Error::Write)?;
        } else {
            write_block(out, &c, tally.printed == 1, paint)
                .map_err(Error::Write)?;
        }
        out.end_record().map_err(Error::Write)?;
    }
    Ok(())
}

/// The text block of one disagreement in `--batch`: a blank line before it
/// (unless `first`), the input (`REF against BASE` with a base), then its
/// differences.
pub fn write_block(
    out: &mut impl Write,
    c: &Comparison,
    first: bool,
    paint: Paint,
) -> io::Result<()> {
    if !first {
        writeln!(out)?;
    }
    match &c.base {
        Some(base) => writeln!(
            out,
            "{} against {}",
            shown_input(&c.input),
            shown_input(base)
        )?,
        None => writeln!(out, "{}", shown_input(&c.input))?,
    }
    write_differences(out, c, "  ", paint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::subcommand_args;

    const SEEDS: [Spec; 4] =
        [Spec::Rfc1630, Spec::Draft04, Spec::Rfc1808, Spec::Draft96];

    fn compare(input: &str, specs: &[Spec]) -> Comparison {
        comparison(None, input, specs, &[])
    }

    fn compare_resolution(
        base: &str,
        reference: &str,
        specs: &[Spec],
    ) -> Comparison {
        comparison(Some(base), reference, specs, &[])
    }

    fn single(c: &Comparison, paint: Paint) -> String {
        let mut buf = Vec::new();
        write_single(&mut buf, c, paint).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn matrix_marks_the_minority_cells() {
        let c = compare("http://a?q", &SEEDS);
        let text = single(&c, Paint::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "input  http://a?q");
        assert!(
            lines[2].starts_with("            scheme   net_loc"),
            "{text}"
        );
        assert!(lines[2].ends_with("fragment   valid"), "{text}");
        // RFC 1630 ends the net_loc at `?`: its net_loc, host and query
        // are the minority.
        assert_eq!(
            lines[3],
            "  rfc1630   http    *a         (absent)   (absent)  *a      \
             (absent)   \"\"     (absent)  *q          (absent)   yes"
        );
        assert_eq!(
            lines[6],
            "  draft96   http     a?q       (absent)   (absent)   a?q    \
             (absent)   \"\"     (absent)   (absent)   (absent)   no"
        );
        assert!(text.contains("\nhost  [security]\n"), "{text}");
        assert!(text.contains("\n  a    <- rfc1630\n"), "{text}");
        assert!(text.contains("  (absent)  <- draft04, rfc1808, draft96\n"));
        assert!(text.contains("  why: the net_loc ends at"), "{text}");
        assert!(text.ends_with(
            "the specs disagree on 3 of 10 columns: net_loc, host \
             [security], query\n"
        ));
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn matrix_columns_line_up() {
        let c = compare("http://u@a:8/p;x?q#f", &SEEDS);
        let text = single(&c, Paint::default());
        let lines: Vec<&str> = text.lines().skip(2).take(5).collect();
        // Every cell starts under its header, after its gutter.
        for header in ["host", "path", "params", "valid"] {
            let at = lines[0].find(header).unwrap();
            for line in &lines[1..] {
                let gutter = line.as_bytes()[at - 1];
                assert!(gutter == b' ' || gutter == b'*', "{line}");
                assert_ne!(line.as_bytes()[at], b' ', "{header}: {line}");
            }
        }
        assert!(lines[1].contains("*/p;x  *(absent)"), "{text}");
        let c = compare("http://u@a:8/p?q#f", &SEEDS);
        let text = single(&c, Paint::default());
        assert!(text.ends_with("\n\nthe 4 specs agree\n"), "{text}");
        assert!(!text.contains('*'), "{text}");
    }

    #[test]
    fn resolution_has_one_result_column() {
        let c = compare_resolution("http://a/b/c/d;p?q#f", "?y", &SEEDS);
        let text = single(&c, Paint::default());
        assert!(
            text.starts_with(
                "reference  ?y\nbase       http://a/b/c/d;p?q#f\n\n            \
                 result\n  rfc1630  *http://a/b/c/?y\n  draft04   \
                 http://a/b/c/d;p?y\n"
            ),
            "{text}"
        );
        assert!(text.contains("why: a reference of only `?query`"));
        assert!(text.ends_with("disagree on 1 of 1 column: result\n"));
    }

    #[test]
    fn error_rows_span_the_matrix() {
        let c = compare("g", &[Spec::Rfc3986, Spec::Whatwg]);
        let text = single(&c, Paint::default());
        if Spec::Whatwg.is_available() {
            let row = text.lines().find(|l| l.contains("  whatwg")).unwrap();
            assert!(row.contains("error: "), "{text}");
            assert!(row.contains("missing-scheme-non-relative-URL"), "{text}");
            // Why: the state and the section of the Standard.
            assert!(
                text.contains(
                    "why: whatwg: the basic URL parser fails in the no scheme \
                     state (URL Standard §4.4), byte 0: \
                     missing-scheme-non-relative-URL"
                ),
                "{text}"
            );
            let row = text.lines().find(|l| l.contains("  rfc3986")).unwrap();
            assert!(row.starts_with("  rfc3986   (absent)   "), "{row}");
            // The error is one difference, in the outcome, and not a
            // security matter by itself.
            assert!(text.contains("\noutcome\n"), "{text}");
            assert!(!text.contains("[security]"), "{text}");
        }
        if Spec::Whatwg.is_available() {
            // The standard has no net_loc or params: `-`, not compared.
            let c = compare("http://a/", &[Spec::Rfc3986, Spec::Whatwg]);
            let text = single(&c, Paint::default());
            let row = text.lines().find(|l| l.contains("  whatwg")).unwrap();
            assert!(row.starts_with("  whatwg    http     -   "), "{row}");
            assert!(text.ends_with("the 2 specs agree\n"), "{text}");
        }
    }

    #[test]
    fn colours_only_when_asked() {
        let c = compare("http://a?q", &SEEDS);
        let text = single(&c, Paint::always());
        assert!(text.contains("\x1b[1;31m[security]\x1b[0m"), "{text}");
        assert!(text.contains("*\x1b[1;31ma\x1b[0m "), "{text}");
        assert!(text.contains("*\x1b[33mq\x1b[0m"), "{text}");
        // The padding is outside the colour: the plain text lines up.
        let plain = single(&c, Paint::default());
        let strip = |t: &str| {
            let mut s = String::new();
            let mut esc = false;
            for ch in t.chars() {
                match (esc, ch) {
                    (false, '\x1b') => esc = true,
                    (true, 'm') => esc = false,
                    (false, _) => s.push(ch),
                    _ => {}
                }
            }
            s
        };
        assert_eq!(strip(&text), plain);
    }

    #[test]
    fn json_object() {
        let c = compare("http://a?q", &SEEDS);
        let mut buf = Vec::new();
        write_json(&mut buf, &c);
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["input"], "http://a?q");
        assert!(v["base"].is_null());
        assert_eq!(
            v["specs"],
            serde_json::json!(["rfc1630", "draft04", "rfc1808", "draft96"])
        );
        assert_eq!(v["rows"][0]["cells"]["host"], "a");
        assert_eq!(v["rows"][1]["cells"]["host"], "a?q");
        assert!(v["rows"][1]["cells"]["query"].is_null());
        assert_eq!(v["rows"][3]["valid"], false);
        assert!(v["rows"][0]["error"].is_null());
        assert_eq!(v["agree"], false);
        let host = v["differences"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["column"] == "host")
            .unwrap();
        assert_eq!(host["security"], true);
        assert_eq!(host["groups"][0]["value"], "a");
        assert_eq!(host["groups"][0]["specs"], serde_json::json!(["rfc1630"]));
        assert_eq!(host["groups"][1]["value"], "a?q");
        let query = &v["differences"][2];
        assert_eq!(query["column"], "query");
        assert!(query["groups"][1]["value"].is_null());
        assert!(host["explanations"][0].as_str().unwrap().contains("net_loc"));
    }

    #[test]
    fn tally_counts_and_ranks_column_sets() {
        let mut tally = Tally::default();
        for input in ["http://a?q", "http://b?r", "g;x", "http://a/b"] {
            tally.inputs += 1;
            let c = compare(input, &SEEDS);
            tally.count(&c, false);
        }
        assert_eq!((tally.disagree, tally.security, tally.printed), (3, 2, 3));
        let mut buf = Vec::new();
        tally.write(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with(
                "4 inputs read, 3 disagree, 2 security-relevant\n\
             most common disagreements (columns):\n  \
             2  net_loc, host, query\n  \
             1  path, params\n"
            ),
            "{text}"
        );
        let c = compare("g;x", &SEEDS);
        assert!(!tally.count(&c, true));
        assert_eq!((tally.disagree, tally.printed), (4, 3));
    }

    fn diff_args(args: &[&str]) -> Result<DiffArgs, clap::Error> {
        subcommand_args(&[&["diff"], args].concat())
    }

    #[test]
    fn diff_specs_list_all_or_names() {
        let args = diff_args(&["x"]).unwrap();
        assert_eq!(args.specs.0, SPECS);
        assert_eq!(args.input.as_deref(), Some("x"));
        let args =
            diff_args(&["--specs", "RFC-3986, rfc1808,rfc3986", "x"]).unwrap();
        assert_eq!(args.specs.0, [Spec::Rfc3986, Spec::Rfc1808]);
        let args = diff_args(&["--specs", "rfc2396,all", "x"]).unwrap();
        assert_eq!(args.specs.0[0], Spec::Rfc2396);
        assert_eq!(args.specs.0.len(), SPECS.len());
        for bad in ["rfc1808", "rfc1808,rfc1808", "rfc1808,nope", ""] {
            assert!(diff_args(&["--specs", bad, "x"]).is_err(), "{bad}");
        }
    }

    #[test]
    fn diff_needs_an_input_or_batch_but_not_both() {
        assert!(diff_args(&[]).is_err());
        assert!(diff_args(&["--batch", "x"]).is_err());
        assert!(diff_args(&["--pairs"]).is_err());
        // Refused by the command, which sees whether INPUT is `-`.
        assert!(diff_args(&["--security-only", "x"]).is_ok());
        assert!(diff_args(&["--batch", "--pairs", "--base", "h:"]).is_err());
        let args =
            diff_args(&["--batch", "--pairs", "--security-only"]).unwrap();
        assert!(args.batch && args.pairs && args.security_only);
        let args = diff_args(&["--base", "", ""]).unwrap();
        assert_eq!(
            (args.base.as_deref(), args.input.as_deref()),
            (Some(""), Some(""))
        );
    }
}
