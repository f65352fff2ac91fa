//! `urlspec check`: the security findings of [`check::check`] for each
//! URL, and an exit status that can gate a pipeline.

use std::io::{self, Write};

use urlspec::check::{self, Finding, Severity};
use urlspec::Spec;

use super::Status;
use crate::cli::CheckArgs;
use crate::output::{self, BadLine, Error, JsonObject};

/// Checks every input of `args`, printing its findings as text or a JSON
/// line; `Invalid` when some finding reaches `--fail-on`. With
/// `--only-findings`, an input without findings prints nothing.
pub fn run(args: &CheckArgs) -> Result<Status, Error> {
    let spec = args.spec;
    let passes = output::answer_each(
        &args.urls,
        args.json,
        |buf, input| answer(args, buf, input),
        |buf, input, bad| write_bad_json(buf, input, spec, bad),
    )?;
    Ok(Status::from_valid(passes))
}

/// Appends the record of `input` to `buf` (text, or a JSON line with
/// `--json`; nothing with `--only-findings` and no finding) and says
/// whether it passes: no finding reaches `--fail-on`.
pub fn answer(args: &CheckArgs, buf: &mut Vec<u8>, input: &str) -> bool {
    let findings = check::check(input, args.spec);
    let fails = fails(&findings, Severity::from(args.fail_on));
    if args.only_findings && findings.is_empty() {
        return true;
    }
    if args.json {
        write_json(buf, input, args.spec, &findings, fails);
        buf.push(b'\n');
    } else {
        // A Vec takes every write.
        let _ = write_human(buf, input, args.spec, &findings);
    }
    !fails
}

/// The JSON line (with its line ending) of an input without an answer:
/// the keys of [`write_json`], no findings, and `error` saying why.
fn write_bad_json(
    buf: &mut Vec<u8>,
    input: Option<&str>,
    spec: Spec,
    bad: &BadLine,
) {
    let mut o = JsonObject::new(buf);
    o.optional("input", input)
        .string("spec", spec.name())
        .null("max_severity")
        .boolean("fails", false)
        .strings("findings", std::iter::empty::<&str>());
    output::error_member(&mut o, Some(bad));
    o.finish();
    buf.push(b'\n');
}

/// Whether some finding is at or above `threshold`.
pub fn fails(findings: &[Finding], threshold: Severity) -> bool {
    findings.iter().any(|f| f.severity >= threshold)
}

/// The highest severity among `findings`.
fn max_severity(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

/// The input, then each finding: its code, severity and rule name, the
/// input again with carets under the span, the message and the source.
pub fn write_human(
    out: &mut impl Write,
    input: &str,
    spec: Spec,
    findings: &[Finding],
) -> io::Result<()> {
    let shown = output::visible(input);
    writeln!(out, "{shown}")?;
    match (findings.len(), max_severity(findings)) {
        (0, _) | (_, None) => {
            return writeln!(out, "  no findings under {spec}");
        }
        (1, Some(max)) => writeln!(out, "  1 finding under {spec} ({max})")?,
        (n, Some(max)) => {
            writeln!(out, "  {n} findings under {spec} (highest: {max})")?;
        }
    }
    for f in findings.iter().take(output::MAX_SHOWN) {
        let name = f.rule().name;
        let (start, end) = (f.span.start, f.span.end);
        writeln!(out, "  {} {} {name} at {start}..{end}", f.code, f.severity)?;
        writeln!(out, "    {shown}")?;
        writeln!(out, "{}", output::carets("    ", input, f.span.clone()))?;
        writeln!(out, "    {}", output::visible(&f.message))?;
        writeln!(out, "    source: {}", f.source)?;
    }
    if let Some(more) = output::more_line(findings.len(), "finding") {
        writeln!(out, "{more}")?;
    }
    Ok(())
}

/// One JSON object (no line ending): `input`, `spec`, `max_severity`,
/// `fails` and `findings`.
pub fn write_json(
    buf: &mut Vec<u8>,
    input: &str,
    spec: Spec,
    findings: &[Finding],
    fails: bool,
) {
    let mut o = JsonObject::new(buf);
    o.string("input", input)
        .string("spec", spec.name())
        .optional("max_severity", max_severity(findings).map(Severity::name))
        .boolean("fails", fails)
        .objects("findings", findings, |o, f| {
            o.string("code", f.code)
                .string("name", f.rule().name)
                .string("severity", f.severity.name())
                .object("span", |s| {
                    s.number("start", f.span.start).number("end", f.span.end);
                })
                .string("message", &f.message)
                .string("source", f.source);
        });
    output::error_member(&mut o, None);
    o.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOPHER: &str = "gopher://h:25/0HELO%0D%0AMAIL";

    #[test]
    fn findings_with_carets() {
        let findings = check::check(GOPHER, Spec::Rfc1808);
        let mut buf = Vec::new();
        write_human(&mut buf, GOPHER, Spec::Rfc1808, &findings).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], GOPHER);
        assert_eq!(lines[1], "  3 findings under rfc1808 (highest: high)");
        assert_eq!(lines[2], "  URL001 high non-default-port at 11..13");
        assert_eq!(lines[3], format!("    {GOPHER}"));
        assert_eq!(lines[4], "               ^^");
        assert!(lines[5].starts_with("    port 25 is not gopher's default"));
        assert!(lines[6].starts_with("    source: draft 1996 §8"));
        assert_eq!(lines[7], "  URL002 high escaped-line-delimiter at 19..22");
    }

    #[test]
    fn no_findings() {
        let mut buf = Vec::new();
        write_human(&mut buf, "http://a/", Spec::Rfc3986, &[]).unwrap();
        assert_eq!(buf, b"http://a/\n  no findings under rfc3986\n");
    }

    #[test]
    fn thresholds() {
        let low = check::check("http://a:8080/", Spec::Rfc1808);
        assert_eq!(low[0].severity, Severity::Low);
        assert!(fails(&low, Severity::Info));
        assert!(fails(&low, Severity::Low));
        assert!(!fails(&low, Severity::Medium));
        assert!(!fails(&[], Severity::Info));
    }

    #[test]
    fn json_object() {
        let findings = check::check("http://u:p@a/", Spec::Rfc1808);
        let mut buf = Vec::new();
        write_json(&mut buf, "http://u:p@a/", Spec::Rfc1808, &findings, true);
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["max_severity"], "medium");
        assert_eq!(v["fails"], true);
        let f = &v["findings"][0];
        assert_eq!(f["code"], "URL003");
        assert_eq!(f["name"], "password");
        assert_eq!(f["span"]["start"], 9);
        assert_eq!(f["span"]["end"], 10);
    }
}
