//! `urlspec diff`: where the specs disagree on one input, or on each line
//! of a list, and the rule behind each difference.
//!
//! The comparison is the library's [`diff::compare`] (how each spec splits
//! a URL) or [`diff::compare_resolution`] (how each resolves a reference
//! against a base). This module draws its [`Comparison`]: a matrix of the
//! rows with the differing cells marked ([`write_matrix`]), the differences
//! with their groups of specs and explanations ([`write_differences`]), or
//! one JSON object ([`write_json`]). `--batch` streams standard input
//! through the same drawing and keeps a [`Tally`] for the summary.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};

use urlspec::diff::{self, Comparison, Difference, Row};
use urlspec::Spec;

use super::Status;
use crate::cli::DiffArgs;
use crate::output::{
    self, BadLine, Error, JsonObject, LineReader, NotUtf8, Origin, Output,
    RecordWrite, STDIN,
};

/// Compares the input of `args` (or, with `--batch`, every line of
/// standard input) under the chosen specs.
pub fn run(args: &DiffArgs) -> Result<Status, Error> {
    let paint = Paint::detect(args.json);
    let mut out = Output::stdout();
    let batch_mode = args.batch || args.input.as_deref() == Some(STDIN);
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
        let c = comparison(args.base.as_deref(), input, &args.specs.0);
        if args.json {
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

/// The comparison of `input`: parsed, or resolved against `base`.
pub fn comparison(
    base: Option<&str>,
    input: &str,
    specs: &[Spec],
) -> Comparison {
    match base {
        Some(base) => diff::compare_resolution(base, input, specs),
        None => diff::compare(input, specs),
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

/// An input or base as a header shows it: `""` when empty.
fn shown_input(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        Cow::Borrowed("\"\"")
    } else {
        output::visible(text)
    }
}

/// Whether `spec` has the column (the WHATWG standard has no net_loc and
/// no params; the library does not compare them).
pub fn in_model(spec: Spec, column: diff::Column) -> bool {
    spec != Spec::Whatwg
        || !matches!(column, diff::Column::NetLoc | diff::Column::Params)
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

/// Whether `spec`'s answer in `d` is not the column's most common one.
pub fn is_marked(d: &Difference, spec: Spec) -> bool {
    let group = d.groups.iter().position(|(_, s)| s.contains(&spec));
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
    if !c.differences.is_empty() {
        writeln!(out)?;
        write_differences(out, c, "", paint)?;
    }
    writeln!(out)?;
    writeln!(out, "{}", verdict(c, paint))
}

/// The last line: `the N specs agree`, or the columns on which they
/// disagree, each security-relevant one marked.
fn verdict(c: &Comparison, paint: Paint) -> String {
    if c.agrees() {
        return format!("the {} specs agree", c.rows.len());
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
        "the specs disagree on {} of {}: {}",
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
                    if !in_model(row.spec, col) {
                        return ("-".to_owned(), false);
                    }
                    let marked = d.is_some_and(|d| is_marked(d, row.spec));
                    match (&row.error, cell) {
                        (Some(err), _) => (format!("error: {err}"), marked),
                        (None, cell) => {
                            (shown_value(cell.as_deref()).into_owned(), marked)
                        }
                    }
                })
                .collect();
            if parse {
                let valid = if row.valid { "yes" } else { "no" };
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
    let name_width = c.rows.iter().map(|r| r.spec.name().len()).max();
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
        let mut line = format!("  {:name_width$}", row.spec.name());
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
            d.groups.iter().map(|(v, _)| shown_value(v.as_deref())).collect();
        let width = values.iter().map(|v| output::text_width(v)).max();
        let width = width.unwrap_or(0);
        for (value, (_, specs)) in values.iter().zip(&d.groups) {
            let names: Vec<&str> = specs.iter().map(|s| s.name()).collect();
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

/// The JSON object of one comparison (no line ending): `input`, `base`,
/// `specs`, `rows`, `differences` and `agree`.
pub fn write_json(buf: &mut Vec<u8>, c: &Comparison) {
    let mut o = JsonObject::new(buf);
    o.string("input", &c.input)
        .optional("base", c.base.as_deref())
        .strings("specs", c.rows.iter().map(|r| r.spec.name()))
        .objects("rows", &c.rows, |o, row| {
            o.string("spec", row.spec.name())
                .boolean("valid", row.valid)
                .optional("error", row.error.as_deref())
                .object("cells", |o| {
                    for (col, cell) in c.columns.iter().zip(&row.cells) {
                        o.optional(col.name(), cell.as_deref());
                    }
                });
        })
        .objects("differences", &c.differences, |o, d| {
            o.string("column", d.column.name())
                .boolean("security", d.security)
                .objects("groups", &d.groups, |o, (value, specs)| {
                    o.optional("value", value.as_deref())
                        .strings("specs", specs.iter().map(|s| s.name()));
                })
                .strings("explanations", &d.explanations);
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
    if args.json {
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
        let compared = read.and_then(|(base, input)| {
            output::isolate(|| comparison(base, input, specs))
                .map_err(|bad| (Some(input), bad))
        });
        let c = match compared {
            Ok(c) => c,
            Err((input, bad)) => {
                tally.errors += 1;
                if args.json {
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
        if args.json {
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

    const SEEDS: [Spec; 4] =
        [Spec::Rfc1630, Spec::Draft04, Spec::Rfc1808, Spec::Draft96];

    fn single(c: &Comparison, paint: Paint) -> String {
        let mut buf = Vec::new();
        write_single(&mut buf, c, paint).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn matrix_marks_the_minority_cells() {
        let c = diff::compare("http://a?q", &SEEDS);
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
        let c = diff::compare("http://u@a:8/p;x?q#f", &SEEDS);
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
        let c = diff::compare("http://u@a:8/p?q#f", &SEEDS);
        let text = single(&c, Paint::default());
        assert!(text.ends_with("\n\nthe 4 specs agree\n"), "{text}");
        assert!(!text.contains('*'), "{text}");
    }

    #[test]
    fn resolution_has_one_result_column() {
        let c = diff::compare_resolution("http://a/b/c/d;p?q#f", "?y", &SEEDS);
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
        let c = diff::compare("g", &[Spec::Rfc3986, Spec::Whatwg]);
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
            let c = diff::compare("http://a/", &[Spec::Rfc3986, Spec::Whatwg]);
            let text = single(&c, Paint::default());
            let row = text.lines().find(|l| l.contains("  whatwg")).unwrap();
            assert!(row.starts_with("  whatwg    http     -   "), "{row}");
            assert!(text.ends_with("the 2 specs agree\n"), "{text}");
        }
    }

    #[test]
    fn colours_only_when_asked() {
        let c = diff::compare("http://a?q", &SEEDS);
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
        let c = diff::compare("http://a?q", &SEEDS);
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
            let c = diff::compare(input, &SEEDS);
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
        let c = diff::compare("g;x", &SEEDS);
        assert!(!tally.count(&c, true));
        assert_eq!((tally.disagree, tally.printed), (4, 3));
    }
}
