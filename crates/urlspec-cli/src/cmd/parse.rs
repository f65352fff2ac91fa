//! `urlspec parse`: split URLs into their components and validate them.

use std::io::{self, Write};

use urlspec::server::{AuthorityKind, Server};
use urlspec::{Reference, Violation};

use super::Status;
use crate::cli::ParseArgs;
use crate::output::{self, Error, JsonObject, Output};

/// Parses every input of `args`, printing a table or a JSON line each.
pub fn run(args: &ParseArgs) -> Result<Status, Error> {
    let mut out = Output::stdout();
    let mut buf = Vec::with_capacity(1024);
    let mut all_valid = true;
    let mut first = true;
    let all_text = output::for_each_input(&args.urls, |input| {
        let reference = Reference::parse_with(input, args.spec);
        let violations = reference.violations();
        all_valid &= violations.is_empty();
        if args.json {
            buf.clear();
            write_json(&mut buf, &reference, &violations);
            buf.push(b'\n');
            out.write_all(&buf)?;
        } else {
            if !first {
                out.write_all(b"\n")?;
            }
            write_human(&mut out, &reference, &violations)?;
        }
        first = false;
        out.end_record()
    })?;
    out.finish().map_err(Error::Write)?;
    Ok(Status::from_valid(all_text && all_valid))
}

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
    o.finish();
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
    for v in violations {
        writeln!(out, "  {shown}")?;
        let caret = output::caret("  ", input, v.position);
        writeln!(out, "{caret} rule {}: {v}", v.rule)?;
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
            r#"{"input":"http://u@a:8/b;p?#","spec":"rfc1808","scheme":"http","net_loc":"u@a:8","user":"u","password":null,"host":"a","port":"8","path":"/b","params":"p","query":"","fragment":"","valid":true,"violations":[]}"#
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
