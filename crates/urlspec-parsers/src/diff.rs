//! The specs and the real parsers side by side: the comparison of
//! `urlspec::diff` with a row per profile, each column's answers grouped
//! again, and the differences a parser takes part in explained by what
//! the implementation does and the kinds of confusion the input shows.
//!
//! ```
//! use urlspec::diff::Column;
//! use urlspec::Spec;
//! use urlspec_parsers::diff::{compare, Reader};
//! use urlspec_parsers::profile;
//!
//! // RFC 3986 reads `a\` as user information; urllib3 ends the
//! // authority at the `\`.
//! let urllib3 = profile("python-urllib3").unwrap();
//! let c = compare("http://a\\@b/", &[Spec::Rfc3986], &[urllib3]);
//! let host = c.differences.iter().find(|d| d.column == Column::Host).unwrap();
//! assert!(host.security);
//! assert_eq!(host.groups[1].1, [Reader::Parser(urllib3)]);
//! assert!(host.explanations.iter().any(|e| e.contains("backslash")));
//! ```

use std::fmt;

use urlspec::diff::{self as specs, Column};
use urlspec::Spec;

use crate::components::Part;
use crate::confusion::{self, Confusion};
use crate::profile::Profile;

/// Who reads the input: a spec, or a real parser's profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reader {
    /// A spec of the `urlspec` crate.
    Spec(Spec),
    /// A profile of this crate.
    Parser(&'static Profile),
}

impl Reader {
    /// The name, as `--specs` or `--parsers` takes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reader::Spec(s) => s.name(),
            Reader::Parser(p) => p.name,
        }
    }

    /// Whether the reader has `column` (the WHATWG standard and the
    /// parsers have no net_loc and no params: not compared).
    ///
    /// ```
    /// use urlspec::{diff::Column, Spec};
    /// use urlspec_parsers::{diff::Reader, profile};
    /// assert!(Reader::Spec(Spec::Rfc1808).has(Column::Params));
    /// let urllib = profile("python-urllib").unwrap();
    /// assert!(!Reader::Parser(urllib).has(Column::NetLoc));
    /// ```
    #[must_use]
    pub fn has(self, column: Column) -> bool {
        let outside = matches!(column, Column::NetLoc | Column::Params);
        match self {
            Reader::Spec(s) => !(outside && s == Spec::Whatwg),
            Reader::Parser(_) => !outside,
        }
    }
}

impl fmt::Display for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One answer of a column: a value, or the error of a reader that gives
/// no URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The component (`None`: absent), the resolved URL, or, in the
    /// outcome column, `a URL`.
    Value(Option<String>),
    /// The reader gives no URL: why.
    Error(String),
}

impl Cell {
    /// The value, when the cell is one (`None` too when it is absent).
    #[must_use]
    pub fn value(&self) -> Option<&str> {
        match self {
            Cell::Value(v) => v.as_deref(),
            Cell::Error(_) => None,
        }
    }
}

/// What one reader makes of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The reader.
    pub reader: Reader,
    /// One cell per column: `None` for absent.
    pub cells: Vec<Option<String>>,
    /// Why the reader gives no URL, if it gives none.
    pub error: Option<String>,
    /// Whether the input is valid under the spec (a parser has no notion
    /// of validity beyond its error).
    pub valid: Option<bool>,
}

/// One column on which the readers disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The column.
    pub column: Column,
    /// The answers, each with the readers that give it, in row order.
    pub groups: Vec<(Cell, Vec<Reader>)>,
    /// Whether the difference changes where a request would go.
    pub security: bool,
    /// One line per rule or behaviour that makes the difference.
    pub explanations: Vec<String>,
    /// The kinds of confusion the input shows, in a comparison with
    /// parsers.
    pub confusions: Vec<Confusion>,
}

/// What each reader makes of one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The input (the reference, when there is a base).
    pub input: String,
    /// The base, for a resolution comparison.
    pub base: Option<String>,
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// One row per reader: the specs in the order asked, then the
    /// parsers.
    pub rows: Vec<Row>,
    /// The columns on which the rows differ.
    pub differences: Vec<Difference>,
}

impl Comparison {
    /// Whether every reader gives the same answer.
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.differences.is_empty()
    }

    /// Whether some difference is security-relevant.
    #[must_use]
    pub fn is_security_relevant(&self) -> bool {
        self.differences.iter().any(|d| d.security)
    }

    /// Whether a parser has a row.
    #[must_use]
    pub fn has_parsers(&self) -> bool {
        self.rows.iter().any(|r| matches!(r.reader, Reader::Parser(_)))
    }
}

impl From<specs::Comparison> for Comparison {
    /// The comparison of the specs alone, as it is.
    fn from(c: specs::Comparison) -> Comparison {
        let rows = c.rows.into_iter().map(spec_row).collect();
        let differences = c
            .differences
            .into_iter()
            .map(|d| Difference {
                column: d.column,
                groups: d
                    .groups
                    .into_iter()
                    .map(|(cell, specs)| {
                        (
                            cell_of(cell),
                            specs.into_iter().map(Reader::Spec).collect(),
                        )
                    })
                    .collect(),
                security: d.security,
                explanations: d.explanations,
                confusions: Vec::new(),
            })
            .collect();
        Comparison {
            input: c.input,
            base: c.base,
            columns: c.columns,
            rows,
            differences,
        }
    }
}

fn spec_row(r: specs::Row) -> Row {
    Row {
        reader: Reader::Spec(r.spec),
        cells: r.cells,
        error: r.error.map(|e| e.to_string()),
        valid: Some(r.valid),
    }
}

fn cell_of(cell: specs::Cell) -> Cell {
    match cell {
        specs::Cell::Value(v) => Cell::Value(v),
        specs::Cell::Error(e) => Cell::Error(e.to_string()),
    }
}

/// The part of a parser's components a column shows.
fn part_of(column: Column) -> Option<Part> {
    Some(match column {
        Column::Scheme => Part::Scheme,
        Column::User | Column::Password => Part::Userinfo,
        Column::Host => Part::Host,
        Column::Port => Part::Port,
        Column::Path => Part::Path,
        Column::Query => Part::Query,
        Column::Fragment => Part::Fragment,
        _ => return None,
    })
}

/// The row of `parser` for `input`, in [`Column::PARSE`] order.
fn parser_row(input: &str, parser: &'static Profile) -> Row {
    let reader = Reader::Parser(parser);
    match parser.parse(input) {
        Ok(c) => {
            let own = |v: Option<&str>| v.map(str::to_owned);
            Row {
                reader,
                cells: vec![
                    own(c.get(Part::Scheme)),
                    None,
                    own(c.user()),
                    own(c.password()),
                    own(c.get(Part::Host)),
                    own(c.get(Part::Port)),
                    own(c.get(Part::Path)),
                    None,
                    own(c.get(Part::Query)),
                    own(c.get(Part::Fragment)),
                ],
                error: None,
                valid: None,
            }
        }
        Err(e) => Row {
            reader,
            cells: vec![None; Column::PARSE.len()],
            error: Some(e.to_string()),
            valid: None,
        },
    }
}

/// Compares how `specs` and `parsers` split `input`. Without parsers,
/// the comparison of the specs alone ([`urlspec::diff::compare`]).
///
/// ```
/// use urlspec::diff::Column;
/// use urlspec::Spec;
/// use urlspec_parsers::{diff::compare, profile};
/// // urllib3 reads a URL without a scheme as `//` and the URL.
/// let urllib3 = profile("python-urllib3").unwrap();
/// let c = compare("example.com:80/a", &[Spec::Rfc3986], &[urllib3]);
/// let host = c.differences.iter().find(|d| d.column == Column::Host).unwrap();
/// assert_eq!(host.groups[1].0.value(), Some("example.com"));
/// assert_eq!(host.confusions[0].kind.name(), "scheme");
/// ```
#[must_use]
pub fn compare(
    input: &str,
    specs: &[Spec],
    parsers: &[&'static Profile],
) -> Comparison {
    let of_specs = specs::compare(input, specs);
    if parsers.is_empty() {
        return of_specs.into();
    }
    let mut rows: Vec<Row> =
        of_specs.rows.iter().cloned().map(spec_row).collect();
    rows.extend(parsers.iter().map(|&p| parser_row(input, p)));
    let found = confusion::find(input);
    let mut differences = Vec::new();
    if let Some(d) = outcome(&rows, &of_specs, &found) {
        differences.push(d);
    }
    for (i, &column) in of_specs.columns.iter().enumerate() {
        if let Some(d) = column_difference(&rows, i, column, &of_specs, &found)
        {
            differences.push(d);
        }
    }
    Comparison {
        input: input.to_owned(),
        base: None,
        columns: of_specs.columns,
        rows,
        differences,
    }
}

/// The outcome: which readers give a URL, which an error.
fn outcome(
    rows: &[Row],
    of_specs: &specs::Comparison,
    found: &[Confusion],
) -> Option<Difference> {
    let mut groups: Vec<(Cell, Vec<Reader>)> = Vec::new();
    for row in rows {
        let cell = match &row.error {
            Some(e) => Cell::Error(e.clone()),
            None => Cell::Value(Some("a URL".into())),
        };
        push(&mut groups, cell, row.reader);
    }
    if groups.len() < 2 {
        return None;
    }
    let mut explanations = spec_explanations(of_specs, Column::Outcome);
    let parsers = parsers_apart(&groups);
    explain_parsers(&mut explanations, &parsers, None, found);
    Some(Difference {
        column: Column::Outcome,
        groups,
        security: false,
        explanations,
        confusions: found.to_vec(),
    })
}

/// The difference in column `i`, if the readers disagree there.
fn column_difference(
    rows: &[Row],
    i: usize,
    column: Column,
    of_specs: &specs::Comparison,
    found: &[Confusion],
) -> Option<Difference> {
    let mut groups: Vec<(Cell, Vec<Reader>)> = Vec::new();
    let mut merged: Vec<Reader> = Vec::new();
    let mut defaults: Vec<(Reader, Option<String>)> = Vec::new();
    let mut effective: Vec<Option<String>> = Vec::new();
    for row in
        rows.iter().filter(|r| r.error.is_none() && r.reader.has(column))
    {
        let value = row.cells[i].clone();
        if column.is_security_relevant() {
            let e = where_it_goes(column, row, i);
            if !effective.contains(&e) {
                effective.push(e);
            }
        }
        // A parser whose empty text stands for absent too joins a group
        // once the others are placed.
        let empty_is_absent = match row.reader {
            Reader::Parser(p) => {
                part_of(column).is_some_and(|part| p.empty_is_absent(part))
            }
            Reader::Spec(_) => false,
        };
        if empty_is_absent && value.as_deref() == Some("") {
            merged.push(row.reader);
        } else if fills_default_port(row, column, value.as_deref()) {
            defaults.push((row.reader, value));
        } else {
            push(&mut groups, Cell::Value(value), row.reader);
        }
    }
    for reader in merged {
        let empty = Cell::Value(Some(String::new()));
        let cell = if groups.iter().any(|(c, _)| *c == empty)
            || !groups.iter().any(|(c, _)| *c == Cell::Value(None))
        {
            empty
        } else {
            Cell::Value(None)
        };
        push(&mut groups, cell, reader);
    }
    // A port filled in with the scheme's default joins those who read
    // that port, else those who read none.
    for (reader, value) in defaults {
        let cell =
            if groups.iter().any(|(c, _)| *c == Cell::Value(value.clone()))
                || !groups.iter().any(|(c, _)| *c == Cell::Value(None))
            {
                Cell::Value(value)
            } else {
                Cell::Value(None)
            };
        push(&mut groups, cell, reader);
    }
    if groups.len() < 2 {
        return None;
    }
    let mut explanations = spec_explanations(of_specs, column);
    let parsers = parsers_apart(&groups);
    explain_parsers(&mut explanations, &parsers, part_of(column), found);
    Some(Difference {
        column,
        groups,
        security: effective.len() > 1,
        explanations,
        confusions: found.to_vec(),
    })
}

/// Whether `value`, the port column of a parser's `row`, is the default
/// port the parser reports for its scheme when the URL names none.
fn fills_default_port(row: &Row, column: Column, value: Option<&str>) -> bool {
    let Reader::Parser(p) = row.reader else { return false };
    if column != Column::Port || !p.fills_default_port {
        return false;
    }
    let scheme = row.cells[0].as_deref().unwrap_or_default();
    let default = urlspec::scheme::default_port(scheme).map(|(port, _)| port);
    default.is_some() && value.and_then(|v| v.parse::<u16>().ok()) == default
}

fn push(groups: &mut Vec<(Cell, Vec<Reader>)>, cell: Cell, reader: Reader) {
    match groups.iter_mut().find(|(c, _)| *c == cell) {
        Some((_, readers)) => readers.push(reader),
        None => groups.push((cell, vec![reader])),
    }
}

/// The explanations the specs' comparison gives for `column`.
fn spec_explanations(
    of_specs: &specs::Comparison,
    column: Column,
) -> Vec<String> {
    of_specs
        .differences
        .iter()
        .find(|d| d.column == column)
        .map(|d| d.explanations.clone())
        .unwrap_or_default()
}

/// The parsers of every group but the largest: those whose answer is not
/// the column's most common one (all of them when they are the largest
/// group, since the specs then differ from them).
fn parsers_apart(groups: &[(Cell, Vec<Reader>)]) -> Vec<&'static Profile> {
    let largest = (0..groups.len()).fold(0, |best, g| {
        if groups[g].1.len() > groups[best].1.len() {
            g
        } else {
            best
        }
    });
    let specs_in_largest =
        groups[largest].1.iter().any(|r| matches!(r, Reader::Spec(_)));
    let mut apart = Vec::new();
    for (g, (_, readers)) in groups.iter().enumerate() {
        for r in readers {
            if let Reader::Parser(p) = r {
                if g != largest || !specs_in_largest {
                    apart.push(*p);
                }
            }
        }
    }
    apart
}

/// What each parser apart does to the part, then the confusions of the
/// input (or that it shows none of the five kinds).
fn explain_parsers(
    lines: &mut Vec<String>,
    parsers: &[&'static Profile],
    part: Option<Part>,
    found: &[Confusion],
) {
    for p in parsers {
        if let Some(note) = part.and_then(|part| p.note(part)) {
            lines.push(format!("{}: {note}", p.name));
        }
    }
    if found.is_empty() {
        lines.push("confusion: none of the five kinds (scheme, slashes, backslash, percent-encoded data, scheme mix-up) in the input".into());
    }
    for c in found {
        lines.push(format!("confusion: {c}"));
    }
}

/// What decides where a request goes, for a security-relevant column: the
/// value with its case folded, an empty one as none, a host's brackets
/// dropped, and a port as a number (none when it is the scheme's default).
fn where_it_goes(column: Column, row: &Row, i: usize) -> Option<String> {
    let cell = row.cells[i].as_deref().filter(|v| !v.is_empty());
    match column {
        Column::Scheme => cell.map(str::to_ascii_lowercase),
        Column::Host => {
            let host = cell?;
            let bare = host
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .unwrap_or(host);
            Some(bare.to_lowercase())
        }
        Column::Port => {
            let p = cell?;
            let digits = p.trim_start_matches('0');
            let value = if p.bytes().all(|b| b.is_ascii_digit()) {
                if digits.is_empty() {
                    "0"
                } else {
                    digits
                }
            } else {
                p
            };
            let scheme = row.cells[0].as_deref().unwrap_or_default();
            let default =
                urlspec::scheme::default_port(scheme).map(|(port, _)| port);
            (value.parse::<u16>().ok() != default || default.is_none())
                .then(|| value.to_owned())
        }
        _ => cell.map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    #[test]
    fn without_parsers_the_specs_comparison() {
        let specs = [Spec::Rfc1808, Spec::Rfc3986];
        let c = compare("http://a?q", &specs, &[]);
        let of_specs = specs::compare("http://a?q", &specs);
        assert_eq!(c.rows.len(), 2);
        assert_eq!(c.differences.len(), of_specs.differences.len());
        assert!(!c.has_parsers());
    }

    #[test]
    fn parsers_join_the_groups_and_are_explained() {
        let urllib = profile("python-urllib").unwrap();
        let urllib3 = profile("python-urllib3").unwrap();
        let c = compare("http://a\\@b/", &[Spec::Rfc3986], &[urllib, urllib3]);
        let host =
            c.differences.iter().find(|d| d.column == Column::Host).unwrap();
        // RFC 3986 and urllib: the user information runs to the `@`.
        assert_eq!(
            host.groups[0].1,
            [Reader::Spec(Spec::Rfc3986), Reader::Parser(urllib)]
        );
        assert_eq!(
            host.groups[1],
            (Cell::Value(Some("a".into())), vec![Reader::Parser(urllib3)])
        );
        assert!(host.security);
        assert_eq!(host.confusions[0].kind, confusion::Kind::Backslash);
        assert!(host.explanations.iter().any(|e| e.starts_with(
            "python-urllib3: urllib3 ends the authority at `\\`"
        )));
        // urllib's empty query stands for the absent one of the others.
        assert!(
            c.differences.iter().all(|d| d.column != Column::Query),
            "{c:?}"
        );
    }

    #[test]
    fn default_port_and_case_go_to_the_same_place() {
        let url = profile("rust-url").unwrap();
        let c = compare("HTTP://A:80/", &[Spec::Rfc3986], &[url]);
        for d in &c.differences {
            assert!(!d.security, "{d:?}");
        }
        assert!(c.differences.iter().any(|d| d.column == Column::Port));
    }

    #[test]
    fn a_port_filled_in_with_the_default_joins_the_readers_of_that_port() {
        let ruby = profile("ruby").unwrap();
        // Ruby's `URI#port` is 80 for `http://a/`: no port named, as the
        // spec reads it.
        let c = compare("http://a/", &[Spec::Rfc3986], &[ruby]);
        assert!(c.agrees(), "{c:?}");
        // For `http://a:80/` the spec reads 80 too.
        let c = compare("http://a:80/", &[Spec::Rfc3986], &[ruby]);
        assert!(c.agrees(), "{c:?}");
        // A port that is not the scheme's default stays apart.
        let c = compare("http://a:8080/", &[Spec::Rfc3986], &[ruby]);
        assert!(c.agrees(), "{c:?}");
        // ftp's default is 21 (Ruby drops ftp's leading `/`: the path
        // differs, the port does not).
        let c = compare("ftp://a/", &[Spec::Rfc3986], &[ruby]);
        assert!(c.differences.iter().all(|d| d.column != Column::Port));
    }
}
