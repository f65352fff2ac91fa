//! Where the specs disagree: for one input (or one base and reference),
//! what each spec makes of it, which components differ, and the rule that
//! makes each difference.
//!
//! Every explanation is generated from the specs' [`Rules`]
//! — the same data the parser and resolvers run on — and cites where each
//! spec writes the rule down. Differences in the scheme, user, password,
//! host or port are flagged as security-relevant: two programs that follow
//! different specs would send the same URL to different places.
//!
//! ```
//! use urlspec::diff::{compare, Column};
//! use urlspec::Spec;
//!
//! let c = compare("http://a?q", &[Spec::Rfc1808, Spec::Rfc3986]);
//! let host = c.differences.iter().find(|d| d.column == Column::Host).unwrap();
//! assert!(host.security);
//! assert!(host.explanations[0].contains("RFC 1808 §2.4.3"));
//! assert!(host.explanations[0].contains("RFC 3986 §3.2"));
//! ```

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::reference::Reference;
use crate::resolve::{ResolveError, Resolver};
use crate::spec::{
    AboveRoot, DotSegments, EmptyReference, Rules, SchemeRule, ServerGrammar,
    Spec, Tail,
};
use crate::whatwg::Failure;

/// A column of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// The scheme.
    Scheme,
    /// The whole net_loc / authority.
    NetLoc,
    /// The user name.
    User,
    /// The password.
    Password,
    /// The host.
    Host,
    /// The port.
    Port,
    /// The path.
    Path,
    /// The params.
    Params,
    /// The query.
    Query,
    /// The fragment.
    Fragment,
    /// The resolved URL (with a base).
    Result,
    /// Whether the spec gives a URL at all (a row with an error differs
    /// here, not in every column).
    Outcome,
}

impl Column {
    /// The columns of a parse comparison.
    pub const PARSE: [Column; 10] = [
        Column::Scheme,
        Column::NetLoc,
        Column::User,
        Column::Password,
        Column::Host,
        Column::Port,
        Column::Path,
        Column::Params,
        Column::Query,
        Column::Fragment,
    ];

    /// The column's name in output.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Column::Scheme => "scheme",
            Column::NetLoc => "net_loc",
            Column::User => "user",
            Column::Password => "password",
            Column::Host => "host",
            Column::Port => "port",
            Column::Path => "path",
            Column::Params => "params",
            Column::Query => "query",
            Column::Fragment => "fragment",
            Column::Result => "result",
            Column::Outcome => "outcome",
        }
    }

    /// Whether a difference here sends a request elsewhere.
    #[must_use]
    pub const fn is_security_relevant(self) -> bool {
        matches!(
            self,
            Column::Scheme
                | Column::User
                | Column::Password
                | Column::Host
                | Column::Port
        )
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a spec gives no URL for the input.
///
/// ```
/// use urlspec::diff::{compare_resolution, Cell, NoUrl};
/// use urlspec::resolve::ResolveError;
/// use urlspec::Spec;
/// let c = compare_resolution("", "g", &[Spec::Rfc1808, Spec::Rfc3986]);
/// let error = c.rows[1].error.as_ref().unwrap();
/// assert_eq!(error, &NoUrl::Resolve(ResolveError::NoBase));
/// assert_eq!(error.position(), None);
/// assert_eq!(c.differences[0].groups[1].0, Cell::Error(error.clone()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoUrl {
    /// The WHATWG URL Standard's basic URL parser failed on the input (a
    /// comparison of parses: the other specs split every input).
    Parse(Failure),
    /// The reference could not be resolved against the base (a comparison
    /// of resolutions).
    Resolve(ResolveError),
}

impl NoUrl {
    /// The byte of the input (the reference) where the spec stopped, when
    /// the error is in the input: the parser's byte, or the invalid
    /// reference's ([`ResolveError::position`]).
    #[must_use]
    pub fn position(&self) -> Option<usize> {
        match self {
            NoUrl::Parse(f) => (!f.in_base).then_some(f.position),
            NoUrl::Resolve(e) => e.position(),
        }
    }
}

impl fmt::Display for NoUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoUrl::Parse(failure) => failure.fmt(f),
            NoUrl::Resolve(error) => error.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NoUrl {}

/// One answer of a column: a value, or the error of a spec that gives no
/// URL.
///
/// ```
/// use urlspec::diff::{compare, Cell, Column};
/// use urlspec::Spec;
/// let c = compare("http://a?q", &[Spec::Rfc1808, Spec::Rfc3986]);
/// let query = c.differences.iter().find(|d| d.column == Column::Query).unwrap();
/// assert_eq!(query.groups[0].0, Cell::Value(None));
/// assert_eq!(query.groups[1].0, Cell::Value(Some("q".into())));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The component (`None`: absent), the resolved URL, or, in the
    /// [`Column::Outcome`] column, `a URL`.
    Value(Option<String>),
    /// The spec gives no URL: why. It is the answer of the
    /// [`Column::Outcome`] column of a parse and of the
    /// [`Column::Result`] column of a resolution.
    Error(NoUrl),
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

/// What one spec makes of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The spec.
    pub spec: Spec,
    /// One cell per column of the comparison: `None` for absent.
    pub cells: Vec<Option<String>>,
    /// Why the spec gives no URL, if it gives none (its cells are then
    /// all `None`).
    pub error: Option<NoUrl>,
    /// Whether the input is valid under the spec (parse comparisons).
    pub valid: bool,
}

/// One column on which the specs disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The column.
    pub column: Column,
    /// The answers, each with the specs that give it, in spec order.
    pub groups: Vec<(Cell, Vec<Spec>)>,
    /// Whether the difference changes where a request would go.
    pub security: bool,
    /// One line per rule that differs between the groups, citing it.
    pub explanations: Vec<String>,
}

/// What each spec makes of one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The input (the reference, when there is a base).
    pub input: String,
    /// The base, for a resolution comparison.
    pub base: Option<String>,
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// One row per spec, in the order asked.
    pub rows: Vec<Row>,
    /// The columns on which the rows differ.
    pub differences: Vec<Difference>,
}

impl Comparison {
    /// Whether every spec gives the same answer.
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.differences.is_empty()
    }

    /// Whether some difference is security-relevant.
    #[must_use]
    pub fn is_security_relevant(&self) -> bool {
        self.differences.iter().any(|d| d.security)
    }
}

/// The components of `input` under `spec`, in [`Column::PARSE`] order.
fn parse_row(input: &str, spec: Spec) -> Row {
    if spec == Spec::Whatwg {
        return match crate::whatwg::parse(input, None) {
            Ok(c) => Row {
                spec,
                cells: alloc::vec![
                    Some(c.scheme),
                    None,
                    c.user,
                    c.password,
                    c.host,
                    c.port,
                    Some(c.path),
                    None,
                    c.query,
                    c.fragment,
                ],
                error: None,
                valid: true,
            },
            Err(e) => Row {
                spec,
                cells: alloc::vec![None; 10],
                error: Some(NoUrl::Parse(e)),
                valid: false,
            },
        };
    }
    let r = Reference::parse_with(input, spec);
    let s = r.server();
    let own = |v: Option<&str>| v.map(ToOwned::to_owned);
    Row {
        spec,
        cells: alloc::vec![
            own(r.scheme()),
            own(r.net_loc()),
            own(s.and_then(|s| s.user())),
            own(s.and_then(|s| s.password())),
            own(s.and_then(|s| s.host())),
            own(s.and_then(|s| s.port())),
            Some(r.path().to_owned()),
            own(r.params()),
            own(r.query()),
            own(r.fragment()),
        ],
        error: None,
        valid: r.is_valid(),
    }
}

/// Compares how `specs` parse `input` (the specs this build cannot parse
/// under, [`Spec::is_available`], are left out).
///
/// ```
/// use urlspec::diff::compare;
/// use urlspec::Spec;
/// let c = compare("g;x", &[Spec::Rfc1630, Spec::Rfc1808]);
/// assert_eq!(c.differences.len(), 2); // path and params
/// assert!(!c.is_security_relevant());
/// ```
#[must_use]
pub fn compare(input: &str, specs: &[Spec]) -> Comparison {
    let specs = specs.iter().copied().filter(|s| s.is_available());
    let rows: Vec<Row> = specs.map(|s| parse_row(input, s)).collect();
    let columns = Column::PARSE.to_vec();
    let differences = differences(&columns, &rows, input, None);
    Comparison { input: input.into(), base: None, columns, rows, differences }
}

/// Compares how `specs` resolve `reference` against `base`.
///
/// ```
/// use urlspec::diff::compare_resolution;
/// use urlspec::Spec;
/// let c = compare_resolution("http://a/b/c/d;p?q", "../../../g", &[Spec::Rfc1808, Spec::Rfc3986]);
/// let d = &c.differences[0];
/// assert_eq!(d.groups[0].0.value(), Some("http://a/../g"));
/// assert!(d.explanations.iter().any(|e| e.contains("above the root")));
/// ```
#[must_use]
pub fn compare_resolution(
    base: &str,
    reference: &str,
    specs: &[Spec],
) -> Comparison {
    let rows: Vec<Row> = specs
        .iter()
        .map(|&spec| match Resolver::new(base, spec).resolve(reference) {
            Ok(r) => Row {
                spec,
                cells: alloc::vec![Some(r.href)],
                error: None,
                valid: true,
            },
            Err(e) => Row {
                spec,
                cells: alloc::vec![None],
                error: Some(NoUrl::Resolve(e)),
                valid: false,
            },
        })
        .collect();
    let columns = alloc::vec![Column::Result];
    let differences = differences(&columns, &rows, reference, Some(base));
    Comparison {
        input: reference.into(),
        base: Some(base.into()),
        columns,
        rows,
        differences,
    }
}

fn differences(
    columns: &[Column],
    rows: &[Row],
    input: &str,
    base: Option<&str>,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut whatwg = WhatwgTrace::new(input, base);
    // A spec that gives no URL differs in the outcome, once.
    if rows.iter().any(|r| r.error.is_some()) && columns != [Column::Result] {
        let mut groups: Vec<(Cell, Vec<Spec>)> = Vec::new();
        for row in rows {
            let outcome = match &row.error {
                Some(e) => Cell::Error(e.clone()),
                None => Cell::Value(Some("a URL".into())),
            };
            push_group(&mut groups, outcome, row.spec);
        }
        if groups.len() > 1 {
            let mut explanations = explain(Column::Outcome, &groups, input);
            whatwg.explain(Column::Outcome, &groups, &mut explanations);
            let column = Column::Outcome;
            out.push(Difference {
                column,
                groups,
                security: false,
                explanations,
            });
        }
    }
    for (i, &column) in columns.iter().enumerate() {
        let mut groups: Vec<(Cell, Vec<Spec>)> = Vec::new();
        let mut effective: Vec<Option<String>> = Vec::new();
        for row in rows {
            // The WHATWG model has no net_loc and no params: nothing to
            // compare there.
            let outside_model =
                matches!(column, Column::NetLoc | Column::Params);
            if row.spec == Spec::Whatwg && outside_model {
                continue;
            }
            let value = match &row.error {
                // A resolution error is the answer of its row.
                Some(e) if column == Column::Result => Cell::Error(e.clone()),
                Some(_) => continue,
                None => Cell::Value(row.cells[i].clone()),
            };
            if column.is_security_relevant() || column == Column::Result {
                let e = where_it_goes(column, row, i);
                if !effective.contains(&e) {
                    effective.push(e);
                }
            }
            push_group(&mut groups, value, row.spec);
        }
        if groups.len() > 1 {
            let mut explanations = explain(column, &groups, input);
            whatwg.explain(column, &groups, &mut explanations);
            // Security: the request would go elsewhere, once spelling that
            // changes nothing (case, a written default port) is set aside.
            let security = effective.len() > 1;
            out.push(Difference { column, groups, security, explanations });
        }
    }
    out
}

fn push_group(groups: &mut Vec<(Cell, Vec<Spec>)>, value: Cell, spec: Spec) {
    match groups.iter_mut().find(|(v, _)| *v == value) {
        Some((_, specs)) => specs.push(spec),
        None => groups.push((value, alloc::vec![spec])),
    }
}

/// What decides where a request goes, for a security-relevant column: the
/// value with its case folded and a written default port dropped; for a
/// resolved URL, its scheme, userinfo, host and port read by RFC 3986.
fn where_it_goes(column: Column, row: &Row, i: usize) -> Option<String> {
    let default_port = |scheme: Option<&str>| {
        scheme.and_then(crate::scheme::default_port).map(|(p, _)| p)
    };
    // A port is a number: `:08080` and `:8080` go to the same place.
    let port_of = |port: Option<&str>, scheme: Option<&str>| {
        let p = port.filter(|p| !p.is_empty())?;
        let value = if p.bytes().all(|b| b.is_ascii_digit()) {
            let digits = p.trim_start_matches('0');
            if digits.is_empty() {
                "0"
            } else {
                digits
            }
        } else {
            p
        };
        (value.parse::<u16>().ok() != default_port(scheme))
            .then(|| String::from(value))
    };
    if column == Column::Result {
        let href = row.cells[0].as_deref()?;
        let r = Reference::parse_with(href, Spec::Rfc3986);
        let scheme = r.scheme().map(str::to_ascii_lowercase);
        let s = r.server();
        return Some(format!(
            "{:?} {:?} {:?} {:?}",
            scheme,
            s.and_then(|s| s.userinfo()),
            s.and_then(|s| s.host()).map(str::to_ascii_lowercase),
            port_of(s.and_then(|s| s.port()), scheme.as_deref()),
        ));
    }
    let cell = row.cells[i].as_deref();
    match column {
        Column::Scheme | Column::Host => cell.map(str::to_ascii_lowercase),
        Column::Port => port_of(cell, row.cells[0].as_deref()),
        _ => cell.map(Into::into),
    }
}

/// What the WHATWG URL Standard's parser did with the input, found when a
/// difference first involves [`Spec::Whatwg`]: the steps that explain its
/// answer by the parser's state, and the section of the Standard.
struct WhatwgTrace<'a> {
    input: &'a str,
    base: Option<&'a str>,
    /// The notes, and the failure if the parser gave no URL.
    found: Option<(Vec<crate::whatwg::Note>, Option<crate::whatwg::Failure>)>,
}

impl<'a> WhatwgTrace<'a> {
    fn new(input: &'a str, base: Option<&'a str>) -> WhatwgTrace<'a> {
        WhatwgTrace { input, base, found: None }
    }

    /// Adds to `lines`, when the WHATWG answer differs from RFC 3986's (or,
    /// without RFC 3986 in the comparison, from every other spec's), the
    /// parser's steps that bear on `column`: the state, the section, the
    /// byte and what the step did; or where and why it failed.
    fn explain(
        &mut self,
        column: Column,
        groups: &[(Cell, Vec<Spec>)],
        lines: &mut Vec<String>,
    ) {
        let Some(mine) =
            groups.iter().find(|(_, s)| s.contains(&Spec::Whatwg))
        else {
            return;
        };
        let compared = groups.iter().any(|(_, s)| s.contains(&Spec::Rfc3986));
        let apart = if compared {
            !mine.1.contains(&Spec::Rfc3986)
        } else {
            mine.1.len() == 1
        };
        if !apart {
            return;
        }
        let (notes, failure) = self.found();
        let mut added = Vec::new();
        if let Some(f) = failure {
            if matches!(column, Column::Outcome | Column::Result) {
                let e = f.error.map_or("", |e| e.name());
                added.push(format!(
                    "whatwg: the basic URL parser fails in the {} (URL Standard \
                     {}), byte {}: {e}",
                    f.state,
                    f.error.map_or(f.state.section(), |e| e.section()),
                    f.position,
                ));
            }
        }
        let parts = whatwg_parts(column);
        for note in notes.iter().filter(|n| parts.contains(&n.part)) {
            let line = format!("whatwg: {note}");
            if !added.contains(&line) && added.len() < 4 {
                added.push(line);
            }
        }
        if added.is_empty() {
            return;
        }
        // The state names the cause; the general remark is not needed.
        lines.retain(|l| !l.starts_with(NO_SWITCH));
        lines.extend(added);
    }

    fn found(
        &mut self,
    ) -> &(Vec<crate::whatwg::Note>, Option<crate::whatwg::Failure>) {
        let (input, base) = (self.input, self.base);
        self.found.get_or_insert_with(|| whatwg_trace(input, base))
    }
}

/// The parser's notes for `input` (against `base`), and its failure.
#[cfg(feature = "whatwg")]
fn whatwg_trace(
    input: &str,
    base: Option<&str>,
) -> (Vec<crate::whatwg::Note>, Option<crate::whatwg::Failure>) {
    use crate::whatwg::Url;
    let mut notes = Vec::new();
    let base = match base.map(Url::parse).transpose() {
        Ok(base) => base,
        Err(f) => {
            return (
                notes,
                Some(crate::whatwg::Failure { in_base: true, ..f }),
            )
        }
    };
    let failure = Url::options()
        .base(base.as_ref())
        .parse_traced(input, &mut notes)
        .err();
    (notes, failure)
}

#[cfg(not(feature = "whatwg"))]
fn whatwg_trace(
    _: &str,
    _: Option<&str>,
) -> (Vec<crate::whatwg::Note>, Option<crate::whatwg::Failure>) {
    (Vec::new(), None)
}

/// The parts of a WHATWG URL whose parsing steps bear on a column.
fn whatwg_parts(column: Column) -> &'static [crate::whatwg::Part] {
    use crate::whatwg::Part::*;
    match column {
        Column::Scheme => &[Whole, Scheme],
        Column::User | Column::Password => &[Whole, Userinfo],
        Column::Host => &[Whole, Host],
        Column::Port => &[Whole, Port],
        Column::Path => &[Whole, Path],
        Column::Query => &[Whole, Query],
        Column::Fragment => &[Whole, Fragment],
        Column::Result | Column::Outcome => {
            &[Whole, Scheme, Userinfo, Host, Port, Path, Query, Fragment]
        }
        Column::NetLoc | Column::Params => &[],
    }
}

/// The start of the explanation given when no rule splits the answers.
const NO_SWITCH: &str = "no switch of the specs' rule tables splits";

/// One aspect of the rules: its name, whether it bears on a column for an
/// input, and how to describe its value under a spec.
struct Aspect {
    name: &'static str,
    bears: fn(Column, &str) -> bool,
    value: fn(&Rules) -> String,
    cite: fn(&Rules) -> &'static str,
}

fn in_authority(c: Column) -> bool {
    matches!(
        c,
        Column::NetLoc
            | Column::User
            | Column::Password
            | Column::Host
            | Column::Port
    )
}

const ASPECTS: &[Aspect] = &[
    Aspect {
        name: "a scheme is",
        bears: |c, _| c == Column::Scheme || c == Column::Path,
        value: |r| {
            match r.scheme {
                SchemeRule::Ialpha => {
                    "an `ialpha` (a letter, then letters, digits and \
                                       `$-_@.&+!*\"'(),`) before any `/`"
                }
                SchemeRule::AnyFirst => {
                    "`[A-Za-z0-9+.-]` before a `:` that is not first"
                }
                SchemeRule::LetterFirst => "a letter, then `[A-Za-z0-9+.-]`",
            }
            .into()
        },
        cite: |r| r.cites.scheme,
    },
    Aspect {
        name: "the net_loc ends at",
        bears: |c, input| {
            // For the path and query only when a `?` stands inside what
            // follows `//`, before its next `/`.
            let after = input.split_once("//").map_or("", |(_, a)| a);
            let q_in_authority = after
                .find('?')
                .is_some_and(|q| after.find('/').is_none_or(|s| q < s));
            in_authority(c)
                || (matches!(c, Column::Query | Column::Path)
                    && q_in_authority)
        },
        value: |r| {
            if r.authority_ends.contains(b'?') {
                "`/`, `?` or `#`"
            } else {
                "`/` or `#` only"
            }
            .into()
        },
        cite: |r| r.cites.net_loc,
    },
    Aspect {
        name: "a backslash is",
        bears: |_, input| input.contains('\\'),
        value: |r| {
            if r.backslash_is_slash {
                "read as `/` in special URLs (http, https, ws, wss, ftp, file)"
                    .into()
            } else {
                "data, never a delimiter".into()
            }
        },
        cite: |r| r.cites.chars,
    },
    Aspect {
        name: "the part after `//` is",
        bears: |c, _| in_authority(c),
        value: |r| {
            match r.server {
                ServerGrammar::Login1630 => {
                    "RFC 1630's `login` (ftp, telnet) or `hostport`"
                }
                ServerGrammar::OpaqueNetLoc => {
                    "an opaque net_loc (split here by the 1996 server grammar)"
                }
                ServerGrammar::Server96 => {
                    "the server `user:password@host:port`"
                }
                ServerGrammar::Server2396 => {
                    "a `server`, or else a `reg_name` with no host"
                }
                ServerGrammar::Authority3986 => "`[userinfo@]host[:port]`",
            }
            .into()
        },
        cite: |r| r.cites.server,
    },
    Aspect {
        name: "params are",
        bears: |c, input| {
            matches!(c, Column::Path | Column::Params) && input.contains(';')
        },
        value: |r| {
            if r.params {
                "a component after the first `;` of the path".into()
            } else {
                "no component: `;` stays in the path".into()
            }
        },
        cite: |r| r.cites.params,
    },
    Aspect {
        name: "resolution is",
        bears: |c, _| c == Column::Result,
        value: |r| r.title.into(),
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "dot segments are removed",
        bears: |c, input| c == Column::Result && input.contains('.'),
        value: |r| {
            match r.dot_segments {
                DotSegments::Rfc1630 => {
                    "by rule .4 read literally (`/.` first, then `xxx/../`)"
                }
                DotSegments::MergedOnly => "only from a merged relative path",
                DotSegments::Every => "from every path of the result",
            }
            .into()
        },
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "`..` above the root is",
        bears: |c, input| c == Column::Result && input.contains(".."),
        value: |r| {
            let cancels = if r.dotdot_cancels_dotdot {
                ", and `..` cancels `..`"
            } else {
                ""
            };
            match r.above_root {
                AboveRoot::Kept => format!("kept{cancels}"),
                AboveRoot::Dropped => format!("dropped{cancels}"),
            }
        },
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "a reference of only `?query`",
        bears: |c, input| c == Column::Result && input.starts_with('?'),
        value: |r| tail(r.query_only),
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "a reference of only `;params`",
        bears: |c, input| c == Column::Result && input.starts_with(';'),
        value: |r| tail(r.params_only),
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "the empty reference is",
        bears: |c, input| {
            c == Column::Result && (input.is_empty() || input.starts_with('#'))
        },
        value: |r| {
            match r.empty_reference {
                EmptyReference::WholeBase => {
                    "the entire base, fragment included"
                }
                EmptyReference::CurrentDocument => {
                    "the current document, without its fragment"
                }
            }
            .into()
        },
        cite: |r| r.cites.resolution,
    },
    Aspect {
        name: "empty `;`, `?` and `#` components",
        bears: |c, input| {
            (c == Column::Result)
                && (input.ends_with('?')
                    || input.ends_with('#')
                    || input == ";")
        },
        value: |r| {
            if r.empty_is_absent {
                "count as absent".into()
            } else {
                "are kept".into()
            }
        },
        cite: |r| r.cites.empty,
    },
    Aspect {
        name: "a reference with the base's scheme is",
        bears: |c, input| c == Column::Result && input.contains(':'),
        value: |r| {
            if r.same_scheme_is_relative {
                "relative (the same-scheme loophole)".into()
            } else {
                "absolute".into()
            }
        },
        cite: |r| r.cites.resolution,
    },
];

fn tail(t: Tail) -> String {
    match t {
        Tail::KeepsBasePath => "keeps the base path".into(),
        Tail::ReplacesLastSegment => {
            "replaces the base path's last segment".into()
        }
    }
}

/// The rules behind a difference: the aspects that bear on the column for
/// this input and whose values split the specs along the same lines as their
/// answers (every group of specs sharing an aspect value gives one answer).
/// An aspect that splits them exactly as the answers do is preferred; the
/// document titles are the last resort.
fn explain(
    column: Column,
    groups: &[(Cell, Vec<Spec>)],
    input: &str,
) -> Vec<String> {
    let answer =
        |spec: Spec| groups.iter().position(|(_, s)| s.contains(&spec));
    let specs: Vec<Spec> =
        groups.iter().flat_map(|(_, s)| s.iter().copied()).collect();
    let mut exact = Vec::new();
    let mut refining = Vec::new();
    let mut fallback = Vec::new();
    for aspect in ASPECTS.iter().filter(|a| (a.bears)(column, input)) {
        // Group the specs by the aspect's value.
        let mut by_value: Vec<(String, Vec<Spec>)> = Vec::new();
        for &spec in &specs {
            let v = (aspect.value)(spec.rules());
            match by_value.iter_mut().find(|(x, _)| *x == v) {
                Some((_, s)) => s.push(spec),
                None => by_value.push((v, alloc::vec![spec])),
            }
        }
        let refines = by_value
            .iter()
            .all(|(_, s)| s.iter().all(|&x| answer(x) == answer(s[0])));
        if by_value.len() < 2 || !refines {
            continue;
        }
        let line = describe(aspect, &by_value);
        if aspect.name == "resolution is" {
            fallback.push(line);
        } else if by_value.len() == groups.len() {
            exact.push(line);
        } else {
            refining.push(line);
        }
    }
    let chosen =
        [exact, refining, fallback].into_iter().find(|v| !v.is_empty());
    chosen.unwrap_or_else(|| {
        alloc::vec![format!(
            "{NO_SWITCH} these answers: the grammars (character classes, host \
             rules) make the {column} differ"
        )]
    })
}

/// `aspect — specs: value (section) | specs: value (section)`.
fn describe(aspect: &Aspect, by_value: &[(String, Vec<Spec>)]) -> String {
    let parts: Vec<String> = by_value
        .iter()
        .map(|(value, specs)| {
            let names: Vec<&str> = specs.iter().map(|s| s.name()).collect();
            // The section, without the cite's own gloss.
            let mut cites: Vec<&str> = specs
                .iter()
                .map(|s| {
                    let c = (aspect.cite)(s.rules());
                    c.split(": ").next().unwrap_or(c)
                })
                .collect();
            cites.dedup();
            format!("{}: {value} ({})", names.join(", "), cites.join("; "))
        })
        .collect();
    format!("{} — {}", aspect.name, parts.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_5_7_rows() {
        // `?y` against RFC 1808's base (testdata/diff/spec-5.7.toml); RFC
        // 1630 replaces the last segment.
        let c =
            compare_resolution("http://a/b/c/d;p?q#f", "?y", &Spec::IETF[..3]);
        let d = &c.differences[0];
        assert_eq!(d.groups.len(), 2);
        assert!(d
            .explanations
            .iter()
            .any(|e| e.starts_with("a reference of only `?query`")));
        // `.` differs only by RFC 1630's literal rule .4.
        let c = compare_resolution("http://a/b/c/d;p?q#f", ".", &Spec::IETF);
        assert!(c.differences[0]
            .explanations
            .iter()
            .any(|e| e.contains("rule .4")));
    }

    #[test]
    fn host_confusion_is_flagged() {
        let c = compare("http://a@b@c/", &Spec::IETF);
        assert!(c.agrees() || c.is_security_relevant());
        let c = compare("http://a?q", &Spec::IETF);
        assert!(c.is_security_relevant());
        let host =
            c.differences.iter().find(|d| d.column == Column::Host).unwrap();
        assert_eq!(host.groups.len(), 2);
    }

    #[test]
    fn ports_compare_by_value() {
        // Leading zeros do not change where a request goes, whether or not
        // the port is the scheme's default.
        for input in ["http://h:08080/", "https://h:00443/", "http://h:080/"] {
            let c = compare(input, &Spec::IETF_AND_WHATWG);
            assert!(!c.is_security_relevant(), "{input}: {c:?}");
        }
        let c = compare("http://h:8080/", &Spec::IETF_AND_WHATWG);
        assert!(c.agrees(), "{c:?}");
    }

    #[test]
    fn agreement() {
        let c = compare("http://a/b", &Spec::IETF);
        assert!(c.agrees(), "{c:?}");
    }
}
