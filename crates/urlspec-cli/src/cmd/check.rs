//! `urlspec check`: the security findings of [`check::check`] for each
//! URL, and an exit status that can gate a pipeline.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::{self, Write};

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{Arg, Args, ValueEnum};
use urlspec::check::{self, Finding, Severity, RULES};
use urlspec::Spec;
use urlspec_parsers::pairs::{self, Pair, Split, COMMON};
use urlspec_parsers::{Part, Profile};

use crate::args::{
    help_of, profile_of, url_inputs, urls_help, ProfileParser, UrlArgs,
};
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
    text.push_str(
        "
--validator P --fetcher Q adds URL012: the parser a program checks a URL with
(an allowlist on its host, a refusal of private addresses) against the parser
that makes the request. A finding for each of the scheme, user information,
host and port the two read differently, naming both readings, with the span of
the bytes that make the difference (those between the two readings, or where
the input shows a kind of confusion). Hosts are compared as resolvers look them
up (ASCII case, UTS #46, an IPv6 address as an address), a port as a number
(the scheme's default as none), the user information decoded; a host's escapes
are not decoded. A URL either parser refuses has no URL012: the validator lets
nothing through, or the fetcher sends nothing. --parser-pairs takes
VALIDATOR:FETCHER pairs, comma-separated, or common:
",
    );
    for (validator, fetcher, why) in COMMON {
        let _ = writeln!(text, "  {validator}:{fetcher}\n          {why}");
    }
    text.push_str(
        "\
A parser against itself reads alike: Go's net/http and Java's HttpClient fetch
with the parser they are checked with, so Go and Java stand beside curl, to
which their URL is handed. The parsers (urlspec diff --help lists the releases
they follow): ",
    );
    let names: Vec<&str> =
        urlspec_parsers::PROFILES.iter().map(|p| p.name).collect();
    text.push_str(&names.join(", "));
    text.push_str(".\n");
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
end excluded, message and source; a URL012 finding adds part, validator and
fetcher, each {parser, value}, value null for no such part, a password shown as
****) and error (null, or {kind, message} for an input without an answer).
With parser pairs, pairs (VALIDATOR:FETCHER names) follows spec.

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
  urlspec check --only-findings --fail-on high < urls.txt

  # An allowlist checked with Python's urllib.parse, the request made by curl
  urlspec check --validator python-urllib --fetcher curl 'http://allowed.example\\@evil.example/'

  # The common stacks (Python, PHP, Go, Java beside curl or urllib3)
  urlspec check --parser-pairs common --only-findings < urls.txt";

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

    /// The real parser a program checks the URLs with (an allowlist, a
    /// refusal of private hosts): URL012 when the --fetcher reads another
    /// host, port, scheme or user information
    #[arg(
        long,
        value_name = "PARSER",
        value_parser = ProfileParser,
        requires = "fetcher"
    )]
    pub validator: Option<&'static Profile>,

    /// The real parser that makes the request, beside --validator
    #[arg(
        long,
        value_name = "PARSER",
        value_parser = ProfileParser,
        requires = "validator"
    )]
    pub fetcher: Option<&'static Profile>,

    /// Validator and fetcher pairs: comma-separated VALIDATOR:FETCHER, or
    /// common (Python urllib beside urllib3 and curl; PHP, Go and Java
    /// beside curl)
    #[arg(long, value_name = "PAIRS", value_parser = PairListParser)]
    pub parser_pairs: Option<PairList>,
}

/// The pairs of `--parser-pairs`, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairList(pub Vec<Pair>);

/// The value parser of `--parser-pairs`: comma-separated
/// `VALIDATOR:FETCHER` profile names, `common` for [`COMMON`]. A pair
/// given twice counts once; a parser beside itself is refused.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairListParser;

impl TypedValueParser for PairListParser {
    type Value = PairList;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<PairList, clap::Error> {
        let text = value.to_string_lossy();
        let mut list = Vec::new();
        for item in text.split(',').map(str::trim) {
            let found = if item.eq_ignore_ascii_case("common") {
                pairs::common()
            } else {
                let Some((v, f)) = item.split_once(':') else {
                    let arg = arg.map_or_else(
                        || "--parser-pairs".to_owned(),
                        Arg::to_string,
                    );
                    let message = format!(
                        "invalid value '{item}' for '{arg}': a pair is \
                         VALIDATOR:FETCHER (python-urllib:curl), or common\n"
                    );
                    return Err(clap::Error::raw(
                        ErrorKind::InvalidValue,
                        message,
                    )
                    .with_cmd(cmd));
                };
                let validator = profile_of(cmd, arg, v.trim())?;
                let fetcher = profile_of(cmd, arg, f.trim())?;
                vec![Pair { validator, fetcher }]
            };
            for pair in found {
                if pair.validator == pair.fetcher {
                    return Err(clap::Error::raw(
                        ErrorKind::InvalidValue,
                        same_parser(pair.validator),
                    )
                    .with_cmd(cmd));
                }
                if !list.contains(&pair) {
                    list.push(pair);
                }
            }
        }
        Ok(PairList(list))
    }
}

/// Why a parser beside itself is refused.
fn same_parser(p: &Profile) -> String {
    format!(
        "{p} beside itself: a parser reads a URL alike when it checks it and \
         when it fetches it; pair it with the parser of the request\n"
    )
}

impl CheckArgs {
    /// The pairs of `--validator`/`--fetcher` and `--parser-pairs`, each
    /// once.
    pub fn pairs(&self) -> Vec<Pair> {
        let mut list: Vec<Pair> = Vec::new();
        if let (Some(validator), Some(fetcher)) =
            (self.validator, self.fetcher)
        {
            list.push(Pair { validator, fetcher });
        }
        for &pair in self.parser_pairs.iter().flat_map(|l| &l.0) {
            if !list.contains(&pair) {
                list.push(pair);
            }
        }
        list
    }
}

/// A finding, with the parts the two parsers read for URL012.
#[derive(Debug)]
pub struct Found {
    /// The finding.
    pub finding: Finding,
    /// For URL012: the pair's readings.
    pub split: Option<Split>,
}

/// The findings of `input` under `spec` and `pairs`, in input order (then
/// by code).
pub fn findings(input: &str, spec: Spec, pairs: &[Pair]) -> Vec<Found> {
    let mut all: Vec<Found> = check::check(input, spec)
        .into_iter()
        .map(|finding| Found { finding, split: None })
        .collect();
    for &pair in pairs {
        for split in pairs::compare(input, pair) {
            all.push(Found { finding: split.finding(), split: Some(split) });
        }
    }
    all.sort_by(|a, b| {
        (a.finding.span.start, a.finding.code)
            .cmp(&(b.finding.span.start, b.finding.code))
    });
    all
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
    if let Some(p) = args.validator.filter(|&v| Some(v) == args.fetcher) {
        return Err(Error::Usage(same_parser(p).trim_end().to_owned()));
    }
    let pairs = args.pairs();
    let passes = output::answer_each(
        &args.common.urls,
        args.common.json.on,
        |buf, input| answer(args, &pairs, buf, input),
        |buf, input, bad| write_bad_json(buf, input, spec, &pairs, bad),
    )?;
    Ok(Status::from_valid(passes))
}

/// Appends the record of `input` to `buf` (text, or a JSON line with
/// `--json`; nothing with `--only-findings` and no finding) and says
/// whether it passes: no finding reaches `--fail-on`.
pub fn answer(
    args: &CheckArgs,
    pairs: &[Pair],
    buf: &mut Vec<u8>,
    input: &str,
) -> bool {
    let spec = args.common.spec.value;
    let found = findings(input, spec, pairs);
    let fails = fails(&found, Severity::from(args.fail_on));
    if args.only_findings && found.is_empty() {
        return true;
    }
    if args.common.json.on {
        write_json(buf, input, spec, pairs, &found, fails);
        buf.push(b'\n');
    } else {
        // A Vec takes every write.
        let _ = write_human(buf, input, &under(spec, pairs), &found);
    }
    !fails
}

/// What the findings are under: the spec, and the pairs.
fn under(spec: Spec, pairs: &[Pair]) -> String {
    match pairs {
        [] => spec.to_string(),
        [pair] => format!("{spec} and {pair}"),
        _ => format!("{spec} and {} parser pairs", pairs.len()),
    }
}

/// The JSON line (with its line ending) of an input without an answer:
/// the keys of [`write_json`], no findings, and `error` saying why.
fn write_bad_json(
    buf: &mut Vec<u8>,
    input: Option<&str>,
    spec: Spec,
    pairs: &[Pair],
    bad: &BadLine,
) {
    let mut o = JsonObject::new(buf);
    o.optional("input", input).string("spec", spec.name());
    pairs_member(&mut o, pairs);
    o.null("max_severity")
        .boolean("fails", false)
        .strings("findings", std::iter::empty::<&str>());
    output::error_member(&mut o, Some(bad));
    o.finish();
    buf.push(b'\n');
}

/// Whether some finding is at or above `threshold`.
pub fn fails(found: &[Found], threshold: Severity) -> bool {
    found.iter().any(|f| f.finding.severity >= threshold)
}

/// The highest severity among `found`.
fn max_severity(found: &[Found]) -> Option<Severity> {
    found.iter().map(|f| f.finding.severity).max()
}

/// `pairs`, the names of the pairs, when there are some.
fn pairs_member(o: &mut JsonObject<'_>, pairs: &[Pair]) {
    if !pairs.is_empty() {
        o.strings("pairs", pairs.iter().map(Pair::to_string));
    }
}

/// The input, then each finding: its code, severity and rule name, the
/// input again with carets under the span, the message and the source.
pub fn write_human(
    out: &mut impl Write,
    input: &str,
    spec: &str,
    found: &[Found],
) -> io::Result<()> {
    let shown = output::visible(input);
    writeln!(out, "{shown}")?;
    match (found.len(), max_severity(found)) {
        (0, _) | (_, None) => {
            return writeln!(out, "  no findings under {spec}");
        }
        (1, Some(max)) => writeln!(out, "  1 finding under {spec} ({max})")?,
        (n, Some(max)) => {
            writeln!(out, "  {n} findings under {spec} (highest: {max})")?;
        }
    }
    for f in found.iter().take(output::MAX_SHOWN).map(|f| &f.finding) {
        let name = f.rule().name;
        let (start, end) = (f.span.start, f.span.end);
        writeln!(out, "  {} {} {name} at {start}..{end}", f.code, f.severity)?;
        writeln!(out, "    {shown}")?;
        writeln!(out, "{}", output::carets("    ", input, f.span.clone()))?;
        writeln!(out, "    {}", output::visible(&f.message))?;
        writeln!(out, "    source: {}", f.source)?;
    }
    if let Some(more) = output::more_line(found.len(), "finding") {
        writeln!(out, "{more}")?;
    }
    Ok(())
}

/// One JSON object (no line ending): `input`, `spec`, `pairs` (with
/// pairs), `max_severity`, `fails` and `findings`.
pub fn write_json(
    buf: &mut Vec<u8>,
    input: &str,
    spec: Spec,
    pairs: &[Pair],
    found: &[Found],
    fails: bool,
) {
    let mut o = JsonObject::new(buf);
    o.string("input", input).string("spec", spec.name());
    pairs_member(&mut o, pairs);
    o.optional("max_severity", max_severity(found).map(Severity::name))
        .boolean("fails", fails)
        .objects("findings", found, |o, found| {
            let f = &found.finding;
            o.string("code", f.code)
                .string("name", f.rule().name)
                .string("severity", f.severity.name())
                .object("span", |s| {
                    s.number("start", f.span.start).number("end", f.span.end);
                })
                .string("message", &f.message)
                .string("source", f.source);
            if let Some(split) = &found.split {
                let part = match split.part {
                    Part::Userinfo => "userinfo",
                    part => part.name(),
                };
                o.string("part", part)
                    .object("validator", |r| {
                        r.string("parser", split.pair.validator.name)
                            .optional("value", split.seen.as_deref());
                    })
                    .object("fetcher", |r| {
                        r.string("parser", split.pair.fetcher.name)
                            .optional("value", split.reached.as_deref());
                    });
            }
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
        let found = findings(GOPHER, Spec::Rfc1808, &[]);
        let mut buf = Vec::new();
        write_human(&mut buf, GOPHER, "rfc1808", &found).unwrap();
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
        write_human(&mut buf, "http://a/", "rfc3986", &[]).unwrap();
        assert_eq!(buf, b"http://a/\n  no findings under rfc3986\n");
    }

    #[test]
    fn thresholds() {
        let low = findings("http://a:8080/", Spec::Rfc1808, &[]);
        assert_eq!(low[0].finding.severity, Severity::Low);
        assert!(fails(&low, Severity::Info));
        assert!(fails(&low, Severity::Low));
        assert!(!fails(&low, Severity::Medium));
        assert!(!fails(&[], Severity::Info));
    }

    #[test]
    fn json_object() {
        let found = findings("http://u:p@a/", Spec::Rfc1808, &[]);
        let mut buf = Vec::new();
        write_json(
            &mut buf,
            "http://u:p@a/",
            Spec::Rfc1808,
            &[],
            &found,
            true,
        );
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
