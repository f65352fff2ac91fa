//! The page of `urlspec serve`, rendered on the server for
//! `/?input=…&base=…&specs=…`: the form, then the view of `urlspec diff`
//! (the matrix, the differences and their explanations), the `check`
//! findings and the validity of the input under each spec.
//!
//! Every input is written through maud, which escapes it as text; none
//! becomes an attribute other than a form field's value, and none a link
//! (the one link, to the view itself, is this server's path with the
//! query percent-encoded). `assets/page.js` draws the same sections from
//! the API's JSON as the user types, with the same classes and data
//! attributes.

use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup, DOCTYPE};
use urlspec::check::{self, Finding};
use urlspec::diff::Column;
use urlspec::whatwg;
use urlspec::{Reference, Spec};
use urlspec_parsers::diff::Comparison;
use urlspec_parsers::{pairs, Profile, PROFILES};

use super::api::{self, ApiError};
use crate::args::SPECS;
use crate::cmd::diff::DiffArgs;
use crate::cmd::{diff, parse};
use crate::output;

/// What the page was asked for.
#[derive(Debug)]
pub struct Query {
    /// The URL or reference, when one was given.
    pub input: Option<String>,
    /// The base, when one was given and is not empty.
    pub base: Option<String>,
    /// The specs to compare, in order.
    pub specs: Vec<Spec>,
    /// The real parsers beside them, in order.
    pub parsers: Vec<&'static Profile>,
    /// The host an allowlist allows, when one was given.
    pub allowed: Option<String>,
    /// Why the query was refused, if it was (the view then shows all
    /// specs and no answer).
    pub problem: Option<String>,
}

impl Query {
    /// The query of `params`: `input`, `base`, and `specs` as `urlspec
    /// diff --specs` takes it, repeated or comma-separated (a form's check
    /// boxes repeat it); other parameters are ignored.
    pub fn of(params: &[(String, String)]) -> Query {
        let last = |key: &str| {
            params.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone())
        };
        let input = last("input");
        let base = last("base").filter(|b| !b.is_empty());
        let allowed = last("allowed").filter(|a| !a.trim().is_empty());
        let all = |key: &str| -> Vec<&str> {
            params
                .iter()
                .filter(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .collect()
        };
        let specs = all("specs");
        let parsers = all("parsers");
        let mut asked =
            vec![("input".to_owned(), input.clone().unwrap_or_default())];
        if !specs.is_empty() {
            asked.push(("specs".to_owned(), specs.join(",")));
        }
        if !parsers.is_empty() {
            asked.push(("parsers".to_owned(), parsers.join(",")));
        }
        if let Some(base) = &base {
            asked.push(("base".to_owned(), base.clone()));
        }
        let (specs, parsers, problem) =
            match api::arguments::<DiffArgs>(&api::DIFF, &asked) {
                Ok(args) => (args.specs.0, args.parsers.0, None),
                Err(ApiError { message, .. }) => {
                    (SPECS.to_vec(), Vec::new(), Some(message))
                }
            };
        Query { input, base, specs, parsers, allowed, problem }
    }
}

/// `GET /`: the page, with the view of its query.
pub async fn view(uri: Uri) -> Response {
    let query = Query::of(&api::params(&uri));
    let status = if query.problem.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let page = output::isolate(|| render(&query).into_string());
    let page = match page {
        Ok(page) => page,
        Err(bad) => {
            let message = bad.to_string();
            return api::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                bad.kind(),
                &message,
            );
        }
    };
    let kind = HeaderValue::from_static("text/html; charset=utf-8");
    (status, [(header::CONTENT_TYPE, kind)], page).into_response()
}

/// The whole page.
pub fn render(query: &Query) -> Markup {
    let title = query.input.as_deref().map(output::visible);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title {
                    @if let Some(title) = &title { (title) " — " }
                    "urlspec"
                }
                link rel="stylesheet" href="/assets/page.css";
                script src="/assets/page.js" defer {}
            }
            body {
                header {
                    h1 { "urlspec" }
                    p {
                        "What each generation of the URL specs makes of a URL, "
                        "or of a reference against a base: RFC 1630, the "
                        "relative-URL draft 04, RFC 1808, the 1996 drafts, "
                        "RFC 2396, RFC 3986 and the WHATWG URL Standard."
                    }
                }
                (form(query))
                main #view data-rendered="server" {
                    (view_of(query))
                }
            }
        }
    }
}

/// The form: the input, the base, the specs.
fn form(query: &Query) -> Markup {
    html! {
        form #query method="get" action="/" {
            label {
                span { "URL or reference" }
                input #input name="input" type="text" autocomplete="off"
                    spellcheck="false" value=[query.input.as_deref()];
            }
            label {
                span { "Base (optional: resolves the input against it)" }
                input #base name="base" type="text" autocomplete="off"
                    spellcheck="false" value=[query.base.as_deref()];
            }
            fieldset #specs {
                legend { "Specs" }
                @for spec in SPECS {
                    label title=(spec.summary()) {
                        input type="checkbox" name="specs" value=(spec.name())
                            checked[query.specs.contains(&spec)];
                        " " (spec.name())
                    }
                }
            }
            fieldset #parsers {
                legend { "Real parsers (beside the specs, without a base)" }
                @for p in PROFILES {
                    label title=(p.follows) {
                        input type="checkbox" name="parsers" value=(p.name)
                            checked[query.parsers.contains(p)];
                        " " (p.name)
                    }
                }
            }
            label {
                span { "Allowed host (which parsers would an allowlist of it be fooled with?)" }
                input #allowed name="allowed" type="text" autocomplete="off"
                    spellcheck="false" value=[query.allowed.as_deref()];
            }
            button type="submit" { "Compare" }
        }
    }
}

/// The view below the form: the problem with the query, or its answer.
fn view_of(query: &Query) -> Markup {
    if let Some(problem) = &query.problem {
        return html! { p .problem { (problem) } };
    }
    let Some(input) = query.input.as_deref() else {
        return html! {
            p .hint { "Type a URL (and a base, to resolve it as a reference)." }
        };
    };
    let c = diff::comparison(
        query.base.as_deref(),
        input,
        &query.specs,
        &query.parsers,
    );
    html! {
        p #permalink {
            a href=(permalink(query)) { "Link to this view" }
        }
        @if let Some(allowed) = &query.allowed {
            (allowlist(input, allowed, &query.parsers))
        }
        (matrix(&c))
        (differences(&c))
        (findings(input, &query.specs))
        (validity(input, &query.specs))
    }
}

/// The path of the view of `query`, on this server.
fn permalink(query: &Query) -> String {
    let mut q = form_urlencoded::Serializer::for_suffix(String::from("/?"), 2);
    q.append_pair("input", query.input.as_deref().unwrap_or_default());
    if let Some(base) = &query.base {
        q.append_pair("base", base);
    }
    let names: Vec<&str> = query.specs.iter().map(|s| s.name()).collect();
    q.append_pair("specs", &names.join(","));
    if !query.parsers.is_empty() {
        let names: Vec<&str> = query.parsers.iter().map(|p| p.name).collect();
        q.append_pair("parsers", &names.join(","));
    }
    if let Some(allowed) = &query.allowed {
        q.append_pair("allowed", allowed);
    }
    q.finish()
}

/// Which parsers an allowlist of `allowed` would be fooled with: each
/// that reads the allowed host, with those that connect elsewhere. The
/// parsers asked for, or every one.
fn allowlist(
    input: &str,
    allowed: &str,
    asked: &[&'static Profile],
) -> Markup {
    let parsers = if asked.is_empty() { PROFILES } else { asked };
    let fooled = pairs::fooled(input, allowed, parsers);
    html! {
        section #allowlist {
            h2 { "Allowlist" }
            @if fooled.is_empty() {
                p .agree { "No parser reads " code { (allowed) } " while another reads another host." }
            }
            @for f in &fooled {
                article data-parser=(f.parser.name) {
                    h3 { (f.parser.name) " reads " code { (allowed) } }
                    ul {
                        @for (p, host) in &f.elsewhere {
                            li data-parser=(p.name) {
                                (p.name) " connects to "
                                @match host {
                                    Some(h) => code { (output::visible(h)) },
                                    None => "no host",
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The verdict: whether the specs agree, or the columns they differ on.
fn verdict(c: &Comparison) -> String {
    if c.agrees() {
        return format!("The {} specs agree.", c.rows.len());
    }
    let columns: Vec<String> = c
        .differences
        .iter()
        .map(|d| {
            let name = d.column.name();
            if d.security {
                format!("{name} (security)")
            } else {
                name.to_owned()
            }
        })
        .collect();
    format!(
        "The specs disagree on {} of {} columns: {}.",
        c.differences.len(),
        c.columns.len(),
        columns.join(", ")
    )
}

/// The matrix: one row per spec, one column per component (or the
/// resolved URL), each cell that differs from its column's most common
/// answer marked, the security-relevant columns flagged.
fn matrix(c: &Comparison) -> Markup {
    let parse = c.base.is_none();
    let difference =
        |col: Column| c.differences.iter().find(|d| d.column == col);
    html! {
        section #matrix {
            h2 { "Matrix" }
            p #verdict .agree[c.agrees()] { (verdict(c)) }
            div .scroll {
                table .matrix {
                    thead { tr {
                        th { "spec" }
                        @for &col in &c.columns {
                            @let d = difference(col);
                            th data-column=(col.name()) .differs[d.is_some()]
                                .security[d.is_some_and(|d| d.security)] {
                                (col.name())
                                @if d.is_some_and(|d| d.security) {
                                    " " span .security-marker title="This difference changes where a request would go" { "security" }
                                }
                            }
                        }
                        @if parse { th { "valid" } }
                    } }
                    tbody {
                        @for row in &c.rows {
                            tr data-spec=(row.reader.name()) {
                                th { (row.reader.name()) }
                                @if let Some(error) = &row.error {
                                    td .error colspan=(c.columns.len()) { "error: " (output::visible(error)) }
                                } @else {
                                    @for (&col, cell) in c.columns.iter().zip(&row.cells) {
                                        @let d = difference(col);
                                        @let marked = d.is_some_and(|d| diff::is_marked(d, row.reader));
                                        @if diff::in_model(row.reader, col) {
                                            td data-column=(col.name()) .differs[marked]
                                                .security[marked && d.is_some_and(|d| d.security)]
                                                .absent[cell.is_none()] {
                                                (diff::shown_value(cell.as_deref()))
                                            }
                                        } @else {
                                            td data-column=(col.name()) .none { "-" }
                                        }
                                    }
                                }
                                @if parse { td .valid { @if row.valid == Some(true) { "yes" } @else { "no" } } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Each difference: its column, the answers with the specs that give
/// them, and the explanations with their citations.
fn differences(c: &Comparison) -> Markup {
    html! {
        section #differences {
            h2 { "Differences" }
            @if c.differences.is_empty() { p { "None." } }
            @for d in &c.differences {
                article data-column=(d.column.name()) {
                    h3 {
                        (d.column.name())
                        @if d.security { " " span .security-marker { "security" } }
                    }
                    ul .groups {
                        @for (value, readers) in &d.groups {
                            @let names: Vec<&str> = readers.iter().map(|r| r.name()).collect();
                            li { code { (diff::shown_cell(value)) } " ← " (names.join(", ")) }
                        }
                    }
                    @for why in &d.explanations {
                        p .why { (output::visible(why)) }
                    }
                }
            }
        }
    }
}

/// The input with carets under `span`, as the CLI draws them.
fn carets(input: &str, span: std::ops::Range<usize>) -> String {
    format!("{}\n{}", output::visible(input), output::carets("", input, span))
}

/// The `check` findings under each spec, specs with the same findings
/// together.
fn findings(input: &str, specs: &[Spec]) -> Markup {
    let mut groups: Vec<(Vec<Spec>, Vec<Finding>)> = Vec::new();
    for &spec in specs {
        let found = check::check(input, spec);
        match groups.iter_mut().find(|(_, f)| *f == found) {
            Some((specs, _)) => specs.push(spec),
            None => groups.push((vec![spec], found)),
        }
    }
    html! {
        section #findings {
            h2 { "Security findings (check)" }
            @for (specs, found) in &groups {
                @let names: Vec<&str> = specs.iter().map(|s| s.name()).collect();
                article data-specs=(names.join(",")) {
                    h3 { (names.join(", ")) }
                    @if found.is_empty() { p { "No findings." } }
                    @for f in found {
                        div .finding data-code=(f.code) {
                            p {
                                strong { (f.code) } " " span .severity { (f.severity.name()) }
                                " " (f.rule().name) " at " (f.span.start) ".." (f.span.end)
                            }
                            pre .caret { (carets(input, f.span.clone())) }
                            p { (output::visible(&f.message)) }
                            p .source { "source: " (f.source) }
                        }
                    }
                }
            }
        }
    }
}

/// One violation: where, which rule, what.
struct Violation {
    position: usize,
    rule: &'static str,
    message: String,
}

/// The input's violations under `spec`, as `urlspec parse` finds them.
fn violations(input: &str, spec: Spec) -> Vec<Violation> {
    if spec == Spec::Whatwg {
        return match whatwg::parse(input, None) {
            Ok(_) => Vec::new(),
            Err(failure) => vec![Violation {
                position: failure.position,
                rule: parse::WHATWG_RULE,
                message: parse::whatwg_message(&failure),
            }],
        };
    }
    let reference = Reference::parse_with(input, spec);
    let found = reference.violations();
    found
        .iter()
        .map(|v| Violation {
            position: v.position,
            rule: v.rule,
            message: v.to_string(),
        })
        .collect()
}

/// Whether the input, alone, is valid under each spec, and each
/// violation with its position and rule.
fn validity(input: &str, specs: &[Spec]) -> Markup {
    html! {
        section #validity {
            h2 { "Validity (the input alone, as parse)" }
            @for &spec in specs {
                @let found = violations(input, spec);
                article data-spec=(spec.name()) .valid[found.is_empty()] {
                    h3 {
                        (spec.name()) ": "
                        @if found.is_empty() { "valid" } @else { "invalid" }
                    }
                    @for v in found.iter().take(output::MAX_SHOWN) {
                        div .violation data-position=(v.position) data-rule=(v.rule) {
                            pre .caret {
                                (output::visible(input)) "\n" (output::caret("", input, v.position))
                            }
                            p { "rule " code { (v.rule) } " at byte " (v.position) ": " (output::visible(&v.message)) }
                        }
                    }
                    @if let Some(more) = output::more_line(found.len(), "violation") {
                        p { (more.trim()) }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn specs_repeated_or_comma_separated() {
        let q = Query::of(&params(&[
            ("input", "a"),
            ("specs", "rfc3986"),
            ("specs", "rfc1808,rfc2396"),
            ("base", ""),
        ]));
        assert_eq!(q.specs, [Spec::Rfc3986, Spec::Rfc1808, Spec::Rfc2396]);
        assert_eq!(
            (q.input.as_deref(), q.base, q.problem),
            (Some("a"), None, None)
        );
        let q = Query::of(&[]);
        assert_eq!((q.input, q.specs), (None, SPECS.to_vec()));
        let q = Query::of(&params(&[("input", "a"), ("specs", "rfc3986")]));
        assert!(q.problem.is_some_and(|p| p.contains("two specs or more")));
    }

    #[test]
    fn the_permalink_reproduces_the_query() {
        let asked = params(&[
            ("input", "http://a?@b/ &#"),
            ("base", "http://x/"),
            ("specs", "rfc1808,rfc3986"),
        ]);
        let q = Query::of(&asked);
        let link = permalink(&q);
        assert_eq!(
            link,
            "/?input=http%3A%2F%2Fa%3F%40b%2F+%26%23&base=http%3A%2F%2Fx%2F\
             &specs=rfc1808%2Crfc3986"
        );
        let uri: Uri = link.parse().unwrap();
        assert_eq!(api::params(&uri), asked);
    }
}
