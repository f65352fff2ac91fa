//! `urlspec parse`: split URLs into their components and validate them.
//!
//! Under `--spec whatwg` the components are the WHATWG URL Standard's, from
//! [`whatwg::parse`] (the library's implementation of its basic URL
//! parser), in the same table and JSON keys: `net_loc` and `params` are
//! absent (the standard has neither), and an input the standard gives no URL
//! for (a relative reference among them) is invalid, with the parser's
//! reason (the Standard's validation error and state) and byte as its one
//! violation.

use std::io::{self, Write};

use clap::Args;
use urlspec::server::{AuthorityKind, Server};
use urlspec::whatwg::{self, Components, Failure};
use urlspec::{Reference, Spec, Violation};

use crate::args::{help_of, url_inputs, urls_help, UrlArgs};
use crate::output::{self, BadLine, Error, JsonObject};
use crate::status::Status;

/// The long description of `urlspec parse`.
const LONG_ABOUT: &str = concat!(
    "\
Split each URL into scheme, net_loc (authority), user, password, host, port,
path, params, query and fragment, exactly as the chosen spec splits it, and
check it against that spec's grammar.

", url_inputs!(), "

Each invalid URL is printed with a caret under every offending character and
the grammar rule it breaks (aligned as a terminal shows the characters: two
columns for a CJK character, none for a combining mark).

An absent component is shown as (absent) and an empty one as \"\": `http://a/b?`
has an empty query but no fragment. Control characters are shown as their
Unicode control pictures (a tab as \u{2409}).

Under --spec whatwg the components are the WHATWG URL Standard's, as browsers
parse (urlspec's implementation of its basic URL parser): the table starts
with the standard's serialization (href); the host is lower-cased (and IDNA
mapped), the default port dropped, an empty user or password absent, the
empty host \"\" (file:///p), and net_loc and params are always absent (the
standard has neither). An input the standard gives no URL for, every relative
reference among them, is invalid, with one violation (rule URL) at the byte
where the parser stopped, naming the Standard's validation error and the
parser's state, and no components.

With --json, each line is one object with the keys input, spec, scheme,
net_loc, user, password, host, port, path, params, query, fragment (null when
absent, \"\" when empty; under whatwg, all null when the standard gives no
URL), valid, violations (each with position, a byte offset into input, rule
and message) and error (null, or {kind, message} for an input without an
answer; its input is null when it is not UTF-8).

Exit status: 0 when every URL is valid, 1 when some URL is invalid or has no
answer, 2 for a usage or I/O error.");

/// The `Examples:` section of `urlspec parse --help`.
const EXAMPLES: &str = "\
Examples:
  # One URL, as RFC 1808 (the default) splits it
  urlspec parse 'http://a/b/c/d;p?q#f'

  # The same text under RFC 3986: `;p` stays in the path, `~` is fine
  urlspec parse --spec rfc3986 'http://a/~u/d;p?q#f'

  # As a browser parses it: `\\` is `/`, so the host is a, not b
  urlspec parse --spec whatwg 'http://a\\@b/'

  # Stream a file, one URL per line; exit status 1 if any is invalid
  urlspec parse --spec rfc2396 < urls.txt

  # Arguments and standard input together: - stands for its lines
  grep -o 'http[^\"]*' page.html | urlspec parse --spec rfc3986 http://a/ -

  # JSON Lines: list the invalid URLs with the rules they break
  urlspec parse --json < urls.txt | jq -c 'select(.valid | not) | {input, rules: [.violations[].rule]}'";

/// The arguments of `urlspec parse`.
#[derive(Debug, Args)]
#[command(
    about = "Split URLs into their components and check them against \
             a spec",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("urls", urls_help("parse"))),
    mut_args(help_of("json",
        "Print one JSON object per URL (JSON Lines) instead of a table"
    )),
    mut_args(help_of("spec", "The spec to split and validate under"))
)]
pub struct ParseArgs {
    /// `--spec`, `--json` and the URLs, worded for this command by the
    /// `mut_args` above
    #[command(flatten)]
    pub common: UrlArgs,
}

/// Parses every input of `args`, printing a table or a JSON line each.
pub fn run(args: &ParseArgs) -> Result<Status, Error> {
    let spec = args.common.spec.value;
    let all_valid = output::answer_each(
        &args.common.urls,
        args.common.json.on,
        |buf, input| answer(args, buf, input),
        |buf, input, bad| write_bad_json(buf, input, spec, bad),
    )?;
    Ok(Status::from_valid(all_valid))
}

/// Appends the record of `input` to `buf` (a table, or a JSON line with
/// `--json`) and says whether the input is valid.
pub fn answer(args: &ParseArgs, buf: &mut Vec<u8>, input: &str) -> bool {
    if args.common.spec.value == Spec::Whatwg {
        let parsed = whatwg::parse(input, None);
        if args.common.json.on {
            write_whatwg_json(buf, input, &parsed);
            buf.push(b'\n');
        } else {
            // A Vec takes every write.
            let _ = write_whatwg_human(buf, input, &parsed);
        }
        return parsed.is_ok();
    }
    let reference = Reference::parse_with(input, args.common.spec.value);
    let violations = reference.violations();
    if args.common.json.on {
        write_json(buf, &reference, &violations);
        buf.push(b'\n');
    } else {
        let _ = write_human(buf, &reference, &violations);
    }
    violations.is_empty()
}

/// The JSON line (with its line ending) of an input without an answer:
/// the keys of [`write_json`], every component `null`, `valid` false and
/// `error` saying why.
fn write_bad_json(
    buf: &mut Vec<u8>,
    input: Option<&str>,
    spec: Spec,
    bad: &BadLine,
) {
    let mut o = JsonObject::new(buf);
    o.optional("input", input).string("spec", spec.name());
    for key in COMPONENT_KEYS {
        o.null(key);
    }
    o.boolean("valid", false)
        .strings("violations", std::iter::empty::<&str>());
    output::error_member(&mut o, Some(bad));
    o.finish();
    buf.push(b'\n');
}

/// The components' keys of a JSON record, in order.
const COMPONENT_KEYS: [&str; 10] = [
    "scheme", "net_loc", "user", "password", "host", "port", "path", "params",
    "query", "fragment",
];

/// The server part, when there is one that has user, password, host and
/// port (not an RFC 2396 `reg_name` authority).
fn server_of<'a>(reference: &Reference<'a>) -> Option<Server<'a>> {
    reference.server().filter(|s| s.kind() == AuthorityKind::Server)
}

/// One JSON object (no line ending): `input`, `spec`, the components,
/// `valid` and `violations`, in that order.
pub fn write_json(
    buf: &mut Vec<u8>,
    reference: &Reference<'_>,
    violations: &[Violation],
) {
    let server = server_of(reference);
    let mut o = JsonObject::new(buf);
    o.string("input", reference.as_str())
        .string("spec", reference.spec().name())
        .optional("scheme", reference.scheme())
        .optional("net_loc", reference.net_loc())
        .optional("user", server.and_then(|s| s.user()))
        .optional("password", server.and_then(|s| s.password()))
        .optional("host", server.and_then(|s| s.host()))
        .optional("port", server.and_then(|s| s.port()))
        .string("path", reference.path())
        .optional("params", reference.params())
        .optional("query", reference.query())
        .optional("fragment", reference.fragment())
        .boolean("valid", violations.is_empty())
        .objects("violations", violations, |o, v| {
            o.number("position", v.position)
                .string("rule", v.rule)
                .string("message", &v.to_string());
        });
    output::error_member(&mut o, None);
    o.finish();
}

/// The rule a WHATWG failure breaks, as the library's validator names it.
pub const WHATWG_RULE: &str = "URL";

/// The message of the one violation of an input the WHATWG standard gives
/// no URL for.
pub fn whatwg_message(failure: &Failure) -> String {
    format!("not a URL for the WHATWG URL Standard: {}", failure.reason())
}

/// One JSON object (no line ending) for `--spec whatwg`, with the keys of
/// [`write_json`]: `net_loc` and `params` are null, and so is every
/// component when the standard gives no URL (`valid` false, one violation
/// at the byte the parser stopped at, with the validation error that made
/// it fail and its state).
pub fn write_whatwg_json(
    buf: &mut Vec<u8>,
    input: &str,
    parsed: &Result<Components, Failure>,
) {
    let c = parsed.as_ref().ok();
    let mut o = JsonObject::new(buf);
    o.string("input", input)
        .string("spec", Spec::Whatwg.name())
        .optional("scheme", c.map(|c| c.scheme.as_str()))
        .null("net_loc")
        .optional("user", c.and_then(|c| c.user.as_deref()))
        .optional("password", c.and_then(|c| c.password.as_deref()))
        .optional("host", c.and_then(|c| c.host.as_deref()))
        .optional("port", c.and_then(|c| c.port.as_deref()))
        .optional("path", c.map(|c| c.path.as_str()))
        .null("params")
        .optional("query", c.and_then(|c| c.query.as_deref()))
        .optional("fragment", c.and_then(|c| c.fragment.as_deref()))
        .boolean("valid", parsed.is_ok())
        .objects("violations", parsed.as_ref().err(), |o, failure| {
            o.number("position", failure.position)
                .string("rule", WHATWG_RULE)
                .string("message", &whatwg_message(failure));
        });
    output::error_member(&mut o, None);
    o.finish();
}

/// The table of [`write_human`] for `--spec whatwg`: the standard's
/// serialization (`href`) first, then the components; or, when the
/// standard gives no URL, the reason.
pub fn write_whatwg_human(
    out: &mut impl Write,
    input: &str,
    parsed: &Result<Components, Failure>,
) -> io::Result<()> {
    let shown = output::visible(input);
    writeln!(out, "{shown}")?;
    let spec = Spec::Whatwg;
    match parsed {
        Ok(c) => {
            let rows = [
                ("href", value(Some(&c.href))),
                ("scheme", value(Some(&c.scheme))),
                ("net_loc", value(None)),
                ("user", value(c.user.as_deref())),
                ("password", value(c.password.as_deref())),
                ("host", value(c.host.as_deref())),
                ("port", value(c.port.as_deref())),
                ("path", value(Some(&c.path))),
                ("params", value(None)),
                ("query", value(c.query.as_deref())),
                ("fragment", value(c.fragment.as_deref())),
            ];
            for (label, text) in rows {
                writeln!(out, "  {label:LABEL_WIDTH$}  {text}")?;
            }
            writeln!(out, "valid under {spec}")
        }
        Err(failure) => {
            writeln!(out, "invalid under {spec} (1 violation):")?;
            writeln!(out, "  {shown}")?;
            let caret = output::caret("  ", input, failure.position);
            let message = whatwg_message(failure);
            writeln!(out, "{caret} rule {WHATWG_RULE}: {message}")
        }
    }
}

/// The width of the component names in the table.
const LABEL_WIDTH: usize = 8;

/// The input, a table of its components, and the verdict: `valid under
/// SPEC`, or each violation as the input with a caret under it.
pub fn write_human(
    out: &mut impl Write,
    reference: &Reference<'_>,
    violations: &[Violation],
) -> io::Result<()> {
    let input = reference.as_str();
    let shown = output::visible(input);
    writeln!(out, "{shown}")?;

    let server = reference.server();
    let parts = server_of(reference);
    let host = match (server, parts) {
        (_, Some(s)) => {
            s.host().map(|h| format!("{} ({})", value(Some(h)), s.host_kind()))
        }
        (Some(_), None) => {
            Some("(absent: the authority is a reg_name)".to_owned())
        }
        (None, None) => None,
    };
    let mut rows: Vec<(&str, String)> = Vec::with_capacity(11);
    if let Some(prefix) = reference.prefix() {
        rows.push(("prefix", value(Some(prefix))));
    }
    rows.extend([
        ("scheme", value(reference.scheme())),
        ("net_loc", value(reference.net_loc())),
        ("user", value(parts.and_then(|s| s.user()))),
        ("password", value(parts.and_then(|s| s.password()))),
        ("host", host.unwrap_or_else(|| value(None))),
        ("port", value(parts.and_then(|s| s.port()))),
        ("path", value(Some(reference.path()))),
        ("params", value(reference.params())),
        ("query", value(reference.query())),
        ("fragment", value(reference.fragment())),
    ]);
    for (label, text) in rows {
        writeln!(out, "  {label:LABEL_WIDTH$}  {text}")?;
    }

    let spec = reference.spec();
    match violations.len() {
        0 => writeln!(out, "valid under {spec}")?,
        1 => writeln!(out, "invalid under {spec} (1 violation):")?,
        n => writeln!(out, "invalid under {spec} ({n} violations):")?,
    }
    for v in violations.iter().take(output::MAX_SHOWN) {
        writeln!(out, "  {shown}")?;
        let caret = output::caret("  ", input, v.position);
        writeln!(out, "{caret} rule {}: {v}", v.rule)?;
    }
    if let Some(more) = output::more_line(violations.len(), "violation") {
        writeln!(out, "{more}")?;
    }
    Ok(())
}

/// A component as the table shows it: `(absent)`, `""`, or the text with
/// control characters made visible.
fn value(component: Option<&str>) -> String {
    match component {
        None => "(absent)".to_owned(),
        Some("") => "\"\"".to_owned(),
        Some(text) => output::visible(text).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    fn json(input: &str, spec: Spec) -> String {
        let r = Reference::parse_with(input, spec);
        let mut buf = Vec::new();
        write_json(&mut buf, &r, &r.violations());
        String::from_utf8(buf).unwrap()
    }

    fn human(input: &str, spec: Spec) -> String {
        let r = Reference::parse_with(input, spec);
        let mut buf = Vec::new();
        write_human(&mut buf, &r, &r.violations()).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn json_line() {
        assert_eq!(
            json("http://u@a:8/b;p?#", Spec::Rfc1808),
            r#"{"input":"http://u@a:8/b;p?#","spec":"rfc1808","scheme":"http","net_loc":"u@a:8","user":"u","password":null,"host":"a","port":"8","path":"/b","params":"p","query":"","fragment":"","valid":true,"violations":[],"error":null}"#
        );
    }

    #[test]
    fn reg_name_authority_has_no_server_parts() {
        let line = json("http://a_b/", Spec::Rfc2396);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert!(v["net_loc"].is_string());
        assert!(v["host"].is_null() && v["user"].is_null());
    }

    #[test]
    fn human_table() {
        let text = human("http://a/b?", Spec::Rfc1808);
        assert_eq!(
            text,
            "http://a/b?\n  \
             scheme    http\n  \
             net_loc   a\n  \
             user      (absent)\n  \
             password  (absent)\n  \
             host      a (hostname)\n  \
             port      (absent)\n  \
             path      /b\n  \
             params    (absent)\n  \
             query     \"\"\n  \
             fragment  (absent)\n\
             valid under rfc1808\n"
        );
    }

    #[test]
    fn whatwg_json_has_the_same_keys() {
        let json = |input: &str| {
            let mut buf = Vec::new();
            write_whatwg_json(&mut buf, input, &whatwg::parse(input, None));
            let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
            v
        };
        let v = json("HTTP://u:@A:80/./b/../c?#");
        let r = json_value("http://a/", Spec::Rfc3986);
        let keys = |v: &serde_json::Value| -> Vec<String> {
            v.as_object().unwrap().keys().cloned().collect()
        };
        assert_eq!(keys(&v), keys(&r));
        assert_eq!(v["spec"], "whatwg");
        if !whatwg::available() {
            assert_eq!(v["valid"], false);
            return;
        }
        assert_eq!(v["scheme"], "http");
        assert_eq!(v["host"], "a");
        // The default port is dropped, and an empty password is absent.
        assert_eq!(v["user"], "u");
        assert!(v["port"].is_null() && v["password"].is_null());
        assert!(v["net_loc"].is_null() && v["params"].is_null());
        assert_eq!(v["path"], "/c");
        assert_eq!((&v["query"], &v["fragment"]), (&"".into(), &"".into()));
        assert_eq!(v["valid"], true);
        let v = json("g;x");
        assert_eq!(v["valid"], false);
        assert!(v["path"].is_null());
        let violation = &v["violations"][0];
        assert_eq!(violation["position"], 0);
        assert_eq!(violation["rule"], "URL");
        assert!(violation["message"]
            .as_str()
            .unwrap()
            .contains("missing-scheme-non-relative-URL (no scheme state)"));
        let v = json("http://h:80x/");
        assert_eq!(v["violations"][0]["position"], 11);
    }

    fn json_value(input: &str, spec: Spec) -> serde_json::Value {
        serde_json::from_str(&json(input, spec)).unwrap()
    }

    #[test]
    fn whatwg_human_table() {
        let human = |input: &str| {
            let mut buf = Vec::new();
            write_whatwg_human(&mut buf, input, &whatwg::parse(input, None))
                .unwrap();
            String::from_utf8(buf).unwrap()
        };
        if !whatwg::available() {
            assert!(human("http://a/").contains("invalid under whatwg"));
            return;
        }
        assert_eq!(
            human("http://a\\@b/"),
            "http://a\\@b/\n  \
             href      http://a/@b/\n  \
             scheme    http\n  \
             net_loc   (absent)\n  \
             user      (absent)\n  \
             password  (absent)\n  \
             host      a\n  \
             port      (absent)\n  \
             path      /@b/\n  \
             params    (absent)\n  \
             query     (absent)\n  \
             fragment  (absent)\n\
             valid under whatwg\n"
        );
        let text = human("../x");
        assert!(text.contains("invalid under whatwg (1 violation):\n  ../x\n  ^ rule URL: not a URL"), "{text}");
    }

    #[test]
    fn human_violations_have_carets() {
        let text = human("http://é/{x}", Spec::Rfc1808);
        let lines: Vec<&str> = text.lines().collect();
        let caret = lines.iter().position(|l| l.contains("^ rule")).unwrap();
        let above: Vec<char> = lines[caret - 1].chars().collect();
        let column = lines[caret].find('^').unwrap();
        assert!(lines[caret - 1].starts_with("  http://"));
        assert_eq!(above[column], 'é');
    }
}
