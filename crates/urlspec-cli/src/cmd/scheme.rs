//! `urlspec scheme`: what each URL's scheme makes of it, checked against
//! RFC 1630's production for the scheme.
//!
//! The reading is the library's [`scheme::view`]: this module prints its
//! [`fields`](SchemeView::fields), its strict
//! [`violations`](SchemeView::violations) with carets, its
//! [`lenient`](SchemeView::lenient) readings and its default port.
//!
//! Under `--spec whatwg` the text read is the WHATWG URL Standard's
//! serialization of the input (what a browser requests: `http://a\b/` is
//! `http://a/b/`), shown as an `href` row; an input the standard gives no
//! URL for is read as written, in RFC 3986's syntax.

use std::borrow::Cow;
use std::io::{self, Write};

use clap::Args;
use urlspec::scheme::{self, SchemeView, SchemeViolation};
use urlspec::whatwg::{self, Failure};
use urlspec::{Reference, Spec};

use crate::args::{help_of, url_inputs, urls_help, UrlArgs};
use crate::output::{self, BadLine, Error, JsonObject};
use crate::status::Status;

/// The long description of `urlspec scheme`.
const LONG_ABOUT: &str = concat!(
    "\
Read each URL as the scheme it names and show what that scheme's own syntax
makes of it: for ftp the login (anonymous unless one is written), the CWD list,
the file, the transfer type and the FTP commands a client sends; for http the
request target for an origin server and for a proxy; for gopher the type and
the selector; for mailto the address; for news the group or article; for file
the local path; and so on for nntp, telnet, rlogin, tn3270, wais, prospero,
mid, cid, urn, x-… and url:. Any other scheme, and a relative reference, is
shown in the generic syntax.

Each URL is then checked against RFC 1630's production for its scheme (the
strict reading): every violation is printed under the URL with a caret at the
offending character and the production it breaks. The lenient readings the
view applied to make sense of the URL anyway follow, each naming the entry of
docs/readings.md it follows (A24 is docs/readings.md#a24): `;type=d` on ftp, a
path that is RFC 1738's and not RFC 1630's, is read as a directory listing
(A24). Last comes the scheme's
default port and where that number comes from: only http's 80 is in the seed
documents; the others are RFC 1738's or later documents', and say so.

The components come from the parse under --spec: rfc1808 (the default) keeps
`;params` apart and `?` inside the net_loc; rfc1630 splits as its own
productions do; whatwg reads the WHATWG URL Standard's serialization of the
URL (what a browser requests: http://a\\b/ is http://a/b/), shown first as
href, or the URL as written when the standard gives none. A password is shown as ****. Values are decoded where the
scheme says so (a gopher selector's %09 is a tab, shown as \u{2409}).

", url_inputs!(), "

With --json, each line is one object with the keys input, spec, view, fields
(an array of {name, value} in the view's order; a name such as cwd, command
or segment may repeat), default_port (null, or {port, source, in_seeds}),
port (the port a client connects to: the one written, else the default; null
when none), valid (no strict violation), violations (each with position, a
byte offset into input, production and message; under whatwg, into the
serialization), lenient (an array of strings) and error (null, or {kind,
message} for an input without an answer).

Exit status: 0 when every URL meets RFC 1630's production for its scheme, 1
when some URL breaks it or has no answer, 2 for a usage or I/O error.");

/// The `Examples:` section of `urlspec scheme --help`.
const EXAMPLES: &str = "\
Examples:
  # ftp: anonymous login, then CWD rfc and RETR rfc1808.txt
  urlspec scheme ftp://ds.internic.net/rfc/rfc1808.txt

  # RFC 1738's ;type=d breaks RFC 1630's ftptype; read leniently (A24)
  urlspec scheme 'ftp://info.cern.ch/pub/www/doc;type=d'

  # http: the request target for the server and for a proxy
  urlspec scheme 'http://info.cern.ch:8000/hypertext/WWW/TheProject.html?x+y'

  # gopher: type 7, a selector and a search string separated by %09
  urlspec scheme 'gopher://h/7srch%09term'

  # JSON Lines: the URLs that break their scheme's production, and where
  urlspec scheme --json < urls.txt | jq -c 'select(.valid | not) | {input, p: [.violations[].production]}'";

/// The arguments of `urlspec scheme`.
#[derive(Debug, Args)]
#[command(
    about = "Show what each URL's scheme makes of it (ftp login and \
             commands, http request targets, gopher selector, …), \
             checked against RFC 1630's production for the scheme",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("urls", urls_help("read"))),
    mut_args(help_of("json",
        "Print one JSON object per URL (JSON Lines) instead of a table"
    )),
    mut_args(help_of("spec",
        "The spec to split the URL under before reading it by its scheme"
    ))
)]
pub struct SchemeArgs {
    /// `--spec`, `--json` and the URLs, worded for this command by the
    /// `mut_args` above
    #[command(flatten)]
    pub common: UrlArgs,
}

/// Reads every input of `args` by its scheme, printing a table or a JSON
/// line each.
pub fn run(args: &SchemeArgs) -> Result<Status, Error> {
    let spec = args.common.spec.value;
    let json = args.common.json.on;
    let all_valid = output::answer_each(
        &args.common.urls,
        json,
        |buf, input| {
            let standard = (spec == Spec::Whatwg)
                .then(|| whatwg::parse(input, None).map(|c| c.href));
            let text = match &standard {
                Some(Ok(href)) => Cow::Borrowed(href.as_str()),
                _ => Cow::Borrowed(input),
            };
            let reference = Reference::parse_with(&text, spec);
            let view = scheme::view(&reference);
            let violations = view.violations();
            if json {
                write_json(buf, input, &view, &violations);
                buf.push(b'\n');
            } else {
                let input = Input { text: input, standard: standard.as_ref() };
                // A Vec takes every write.
                let _ = write_human(buf, &input, &view, &violations);
            }
            violations.is_empty()
        },
        |buf, input, bad| write_bad_json(buf, input, spec, bad),
    )?;
    Ok(Status::from_valid(all_valid))
}

/// The JSON line (with its line ending) of an input without an answer:
/// the keys of [`write_json`], empty or `null`, `valid` false and `error`
/// saying why.
fn write_bad_json(
    buf: &mut Vec<u8>,
    input: Option<&str>,
    spec: Spec,
    bad: &BadLine,
) {
    let none = std::iter::empty::<&str>;
    let mut o = JsonObject::new(buf);
    o.optional("input", input)
        .string("spec", spec.name())
        .null("view")
        .strings("fields", none())
        .null("default_port")
        .null("port")
        .boolean("valid", false)
        .strings("violations", none())
        .strings("lenient", none());
    output::error_member(&mut o, Some(bad));
    o.finish();
    buf.push(b'\n');
}

/// The input as given, and under `--spec whatwg` what the standard makes
/// of it: its serialization, which the view reads, or why there is none.
pub struct Input<'a> {
    /// The input.
    pub text: &'a str,
    /// `Some` under `--spec whatwg`.
    pub standard: Option<&'a Result<String, Failure>>,
}

/// One JSON object (no line ending): `input`, `spec`, `view`, `fields`,
/// `default_port`, `port`, `valid`, `violations` and `lenient`, in that
/// order. `input` is as given; the view, and the positions of its
/// violations, are of the text it read (under `--spec whatwg`, the
/// standard's serialization).
pub fn write_json(
    buf: &mut Vec<u8>,
    input: &str,
    view: &SchemeView<'_>,
    violations: &[SchemeViolation],
) {
    let reference = view.reference();
    let mut o = JsonObject::new(buf);
    o.string("input", input)
        .string("spec", reference.spec().name())
        .string("view", view.name())
        .objects("fields", view.fields(), |o, (name, value)| {
            o.string("name", name).string("value", &value);
        });
    match view.default_port() {
        Some((port, source)) => o.object("default_port", |o| {
            o.number("port", usize::from(port))
                .string("source", source.citation)
                .boolean("in_seeds", source.in_seeds);
        }),
        None => o.null("default_port"),
    };
    o.optional_number("port", view.port().map(usize::from))
        .boolean("valid", violations.is_empty())
        .objects("violations", violations, |o, v| {
            o.number("position", v.position)
                .string("production", v.production)
                .string("message", &v.message);
        })
        .strings("lenient", view.lenient());
    output::error_member(&mut o, None);
    o.finish();
}

/// The input, the view's fields as a table (under `--spec whatwg`, after
/// the standard's serialization), the default port, the strict verdict
/// (each violation as the text read with a caret under it) and the lenient
/// readings.
pub fn write_human(
    out: &mut impl Write,
    input: &Input<'_>,
    view: &SchemeView<'_>,
    violations: &[SchemeViolation],
) -> io::Result<()> {
    writeln!(out, "{}", output::visible(input.text))?;
    let read = view.reference().as_str();
    let shown = output::visible(read);

    let default_port = match view.default_port() {
        Some((port, source)) => format!("{port}, from {source}"),
        None => "(none)".to_owned(),
    };
    let mut rows: Vec<(&str, String)> = Vec::new();
    match input.standard {
        Some(Ok(href)) => rows.push(("href", value(href))),
        Some(Err(failure)) => rows.push((
            "href",
            format!(
                "(none: {}; read as written)",
                output::visible(&failure.to_string())
            ),
        )),
        None => {}
    }
    rows.push(("view", view.name().to_owned()));
    rows.extend(
        view.fields().into_iter().map(|(name, text)| (name, value(&text))),
    );
    rows.push(("default_port", default_port));
    let width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    for (label, text) in rows {
        writeln!(out, "  {label:width$}  {text}")?;
    }

    match violations.len() {
        0 => writeln!(out, "strict RFC 1630: valid")?,
        1 => writeln!(out, "strict RFC 1630: 1 violation:")?,
        n => writeln!(out, "strict RFC 1630: {n} violations:")?,
    }
    for v in violations.iter().take(output::MAX_SHOWN) {
        writeln!(out, "  {shown}")?;
        let caret = output::caret("  ", read, v.position);
        writeln!(out, "{caret} {}: {}", v.production, v.message)?;
    }
    if let Some(more) = output::more_line(violations.len(), "violation") {
        writeln!(out, "{more}")?;
    }

    let lenient = view.lenient();
    if lenient.is_empty() {
        writeln!(out, "lenient readings: none")?;
    } else {
        writeln!(out, "lenient readings:")?;
        for reading in lenient {
            writeln!(out, "  {reading}")?;
        }
    }
    Ok(())
}

/// A field as the table shows it: `""` when empty, control characters made
/// visible.
fn value(text: &str) -> String {
    if text.is_empty() {
        "\"\"".to_owned()
    } else {
        output::visible(text).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    fn human(input: &str, spec: Spec) -> String {
        let r = Reference::parse_with(input, spec);
        let view = scheme::view(&r);
        let mut buf = Vec::new();
        let input = Input { text: input, standard: None };
        write_human(&mut buf, &input, &view, &view.violations()).unwrap();
        String::from_utf8(buf).unwrap()
    }

    fn json(input: &str, spec: Spec) -> serde_json::Value {
        let r = Reference::parse_with(input, spec);
        let view = scheme::view(&r);
        let mut buf = Vec::new();
        write_json(&mut buf, input, &view, &view.violations());
        serde_json::from_slice(&buf).unwrap()
    }

    #[test]
    fn whatwg_reads_the_serialization() {
        if !whatwg::available() {
            return;
        }
        let input = "HTTP://a\\b/c?d";
        let standard = whatwg::parse(input, None).map(|c| c.href);
        let href = standard.as_ref().unwrap();
        assert_eq!(href, "http://a/b/c?d");
        let r = Reference::parse_with(href, Spec::Whatwg);
        let view = scheme::view(&r);
        let mut buf = Vec::new();
        let given = Input { text: input, standard: Some(&standard) };
        write_human(&mut buf, &given, &view, &view.violations()).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.starts_with(
                "HTTP://a\\b/c?d\n  href            http://a/b/c?d\n  \
                 view            http\n"
            ),
            "{text}"
        );
        assert!(text.contains("\n  host            a\n"), "{text}");
        let standard = whatwg::parse("../x", None).map(|c| c.href);
        let r = Reference::parse_with("../x", Spec::Whatwg);
        let view = scheme::view(&r);
        let mut buf = Vec::new();
        let given = Input { text: "../x", standard: Some(&standard) };
        write_human(&mut buf, &given, &view, &view.violations()).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.contains(
                "\n  href          (none: missing-scheme-non-relative-URL at \
                 byte 0 (no scheme state): The input has no scheme, and \
                 there is no base it can be relative to.; read as written)\n  \
                 view          generic\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn ftp_table() {
        let text =
            human("ftp://ds.internic.net/rfc/rfc1808.txt", Spec::Rfc1808);
        assert!(text.starts_with(
            "ftp://ds.internic.net/rfc/rfc1808.txt\n  \
             view            ftp\n  \
             scheme          ftp\n  \
             host            ds.internic.net\n"
        ));
        assert!(text.contains("\n  command         CWD rfc\n"));
        assert!(text.contains("\n  command         RETR rfc1808.txt\n"));
        assert!(text.contains(
            "\n  default_port    21, from RFC 1738 §3.2 (not a seed)\n"
        ));
        assert!(
            text.ends_with("strict RFC 1630: valid\nlenient readings: none\n")
        );
    }

    #[test]
    fn violations_have_carets_and_lenient_readings_follow() {
        let input = "ftp://info.cern.ch/pub/www/doc;type=d";
        let text = human(input, Spec::Rfc1808);
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.contains("^ ftptype:")).unwrap();
        assert_eq!(lines[at - 1], format!("  {input}"));
        let column = lines[at].find('^').unwrap();
        assert_eq!(&lines[at - 1][column..column + 1], "d");
        assert!(text.contains("strict RFC 1630: 1 violation:\n"));
        assert!(text.contains("lenient readings:\n  A24: "));
    }

    #[test]
    fn control_characters_are_visible() {
        let text = human("gopher://h/7srch%09term", Spec::Rfc1808);
        assert!(text.contains("srch\u{2409}term"), "{text}");
        assert!(!text.contains('\t'));
    }

    #[test]
    fn json_object() {
        let v = json("http://joe@h:8000/a?x#f", Spec::Rfc1808);
        assert_eq!(v["view"], "http");
        assert_eq!(v["spec"], "rfc1808");
        assert_eq!(v["port"], 8000);
        assert_eq!(v["default_port"]["port"], 80);
        assert_eq!(v["default_port"]["in_seeds"], true);
        assert_eq!(v["valid"], false);
        assert_eq!(v["violations"][0]["position"], 7);
        assert_eq!(v["violations"][0]["production"], "hostport");
        assert!(v["lenient"][0].as_str().unwrap().starts_with("A23"));
        let fields = v["fields"].as_array().unwrap();
        assert!(fields
            .iter()
            .any(|f| f["name"] == "request_target" && f["value"] == "/a?x"));
        let v = json("file:///x", Spec::Rfc1808);
        assert!(v["default_port"].is_null() && v["port"].is_null());
    }
}
