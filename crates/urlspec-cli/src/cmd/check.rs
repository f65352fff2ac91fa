//! `urlspec check`: the security findings of [`check::check`] for each
//! URL, and an exit status that can gate a pipeline.

use std::fmt::Write as _;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use urlspec::check::{self, Finding, Severity, RULES};
use urlspec::Spec;

use crate::args::{help_of, url_inputs, urls_help, UrlArgs};
use crate::output::{self, BadLine, Error, JsonObject};
use crate::status::Status;

/// The long description of `urlspec check`, with the rule list from
/// [`RULES`], so the list follows the library.
fn check_long_about() -> String {
    let mut text = String::from(
        "\
Check each URL for the hazards the specs' security sections warn of, and
those that studies of URL-parser differentials found: a port that reaches
another protocol, an escaped line break that injects a command, a password, a
file URL naming another host, a backslash, several `@`, raw whitespace or a
control character, a user name that looks like a host, a host the specs read
differently.

Each finding has a stable code, a severity (info < low < medium < high), the
bytes of the input it concerns (shown with carets under them), an explanation
for this input, and the source it rests on (a source in docs/readings.md is the
reading urlspec takes where the documents leave a choice). The URL is parsed
under --spec.

Rules (the severity is the highest the rule reports):
",
    );
    let width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    for rule in RULES {
        let _ = writeln!(
            text,
            "  {}  {:width$}  up to {}\n          {}",
            rule.code, rule.name, rule.severity, rule.source
        );
    }
    text.push_str(concat!(
        "
--fail-on sets the threshold: the exit status is 1 when some finding is at or
above it. The default, medium, lets a low finding (a non-default port above
1023) pass; --fail-on high fails only on the worst, --fail-on info on any
finding. The findings are printed whatever the threshold.

",
        url_inputs!(),
        "

--only-findings leaves out the URLs without findings: a clean URL prints
nothing, as text or JSON.

With --json, each line is one object with the keys input, spec, max_severity
(null when there is no finding), fails (some finding reaches --fail-on),
findings (each with code, name, severity, span {start, end} in bytes of input,
end excluded, message and source) and error (null, or {kind, message} for an
input without an answer).

Exit status: 0 when no finding reaches --fail-on, 1 when some finding does or
some input has no answer, 2 for a usage or I/O error.",
    ));
    text
}

/// The `Examples:` section of `urlspec check --help`.
const EXAMPLES: &str = "\
Examples:
  # The 1996 draft's example: gopher to an SMTP port, CR LF escaped
  urlspec check 'gopher://h:25/0HELO%0D%0AMAIL'

  # A user name that looks like a host (RFC 3986 section 7.6)
  urlspec check --spec rfc3986 'ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm'

  # Gate a pipeline: fail only on high findings
  urlspec check --fail-on high < urls.txt > findings.txt || exit 1

  # JSON Lines: count the findings by code
  urlspec check --json < urls.txt | jq -r '.findings[].code' | sort | uniq -c

  # Only the URLs that have findings
  urlspec check --only-findings --fail-on high < urls.txt";

/// The arguments of `urlspec check`.
#[derive(Debug, Args)]
#[command(
    about = "Report the security hazards of URLs (ports, escaped line \
             breaks, passwords, parser confusion), with stable rule \
             codes; fail a pipeline at a chosen severity",
    long_about = check_long_about(),
    after_help = EXAMPLES,
    mut_args(help_of("urls", urls_help("check"))),
    mut_args(help_of("spec", "The spec to parse the URLs under"))
)]
pub struct CheckArgs {
    /// `--spec`, `--json` and the URLs, worded for this command by the
    /// `mut_args` above
    #[command(flatten)]
    pub common: UrlArgs,

    /// Exit with status 1 when some finding is at or above this severity
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t)]
    pub fail_on: FailOn,

    /// Print only the URLs that have findings (nothing for a clean URL)
    #[arg(long)]
    pub only_findings: bool,
}

/// The values of `--fail-on`: the severities of [`Severity`], lowest
/// first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding
    Info,
    /// A low, medium or high finding
    Low,
    /// A medium or high finding
    #[default]
    Medium,
    /// A high finding only
    High,
}

impl From<FailOn> for Severity {
    fn from(value: FailOn) -> Severity {
        match value {
            FailOn::Info => Severity::Info,
            FailOn::Low => Severity::Low,
            FailOn::Medium => Severity::Medium,
            FailOn::High => Severity::High,
        }
    }
}

/// Checks every input of `args`, printing its findings as text or a JSON
/// line; `Invalid` when some finding reaches `--fail-on`. With
/// `--only-findings`, an input without findings prints nothing.
pub fn run(args: &CheckArgs) -> Result<Status, Error> {
    let spec = args.common.spec.value;
    let passes = output::answer_each(
        &args.common.urls,
        args.common.json.on,
        |buf, input| answer(args, buf, input),
        |buf, input, bad| write_bad_json(buf, input, spec, bad),
    )?;
    Ok(Status::from_valid(passes))
}

/// Appends the record of `input` to `buf` (text, or a JSON line with
/// `--json`; nothing with `--only-findings` and no finding) and says
/// whether it passes: no finding reaches `--fail-on`.
pub fn answer(args: &CheckArgs, buf: &mut Vec<u8>, input: &str) -> bool {
    let findings = check::check(input, args.common.spec.value);
    let fails = fails(&findings, Severity::from(args.fail_on));
    if args.only_findings && findings.is_empty() {
        return true;
    }
    if args.common.json.on {
        write_json(buf, input, args.common.spec.value, &findings, fails);
        buf.push(b'\n');
    } else {
        // A Vec takes every write.
        let _ = write_human(buf, input, args.common.spec.value, &findings);
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
    use crate::cli::{Cli, Command};
    use clap::Parser;

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

    #[test]
    fn check_fails_on_medium_by_default() {
        let cli = Cli::try_parse_from(["urlspec", "check"]).unwrap();
        let Command::Check(args) = cli.command else { panic!() };
        assert_eq!(Severity::from(args.fail_on), Severity::Medium);
        for (name, severity) in [
            ("info", Severity::Info),
            ("low", Severity::Low),
            ("high", Severity::High),
        ] {
            let cli =
                Cli::try_parse_from(["urlspec", "check", "--fail-on", name])
                    .unwrap();
            let Command::Check(args) = cli.command else { panic!() };
            assert_eq!(Severity::from(args.fail_on), severity);
        }
        let long = check_long_about();
        assert!(RULES.iter().all(|r| long.contains(r.code)));
    }
}
