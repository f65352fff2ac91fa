//! Security findings: what the documents' security sections, and later
//! studies of URL-parser differentials, say to watch for.
//!
//! [`check`] parses a URL and returns one [`Finding`] per hazard, each with
//! a stable code, a [`Severity`], the byte span it concerns, an explanation
//! and the source it rests on. The codes never change meaning:
//!
//! | code | severity | finding | source |
//! |---|---|---|---|
//! | `URL001` | low; high below 1024 | a port other than the scheme's default, worse "within the reserved space" (the gopher-to-SMTP example) | draft 1996 §8 (R96-8.2); RFC 2396 §7; RFC 3986 §7.2 |
//! | `URL002` | high | an escaped CR, LF or NUL in a scheme whose requests are lines (telnet, rlogin, tn3270, gopher, ftp, nntp) | draft 1996 §8 (R96-8.3); RFC 3986 §7.2 |
//! | `URL003` | medium | a password in the URL | draft 1996 §8 (R96-8.4); RFC 3986 §7.5 |
//! | `URL004` | medium | a `file:` URL naming another host | RFC 1630 "file" (R1630-FILE-SEC) |
//! | `URL005` | medium; high near the host | a backslash, which WHATWG-style parsers read as `/` | URL-parser differential studies (2022) |
//! | `URL006` | high | several `@` in the authority | URL-parser differential studies (2022) |
//! | `URL007` | medium; high for tab, CR, LF | whitespace or a control character, raw | RFC 1630 "Unsafe characters"; URL-parser differential studies (2022) |
//! | `URL008` | high | a user name that looks like a host name | RFC 3986 §7.6 (semantic attacks) |
//! | `URL009` | high | the host differs between the specs (browsers' WHATWG reading included, when built in), compared after the URL Standard's domain to ASCII (UTS #46), so that `bücher.de` and `xn--bcher-kva.de` are one host; a host the mapping refuses differs from any it accepts; the span is the host alone | docs/readings.md#a16; URL-parser differential studies (2022) |
//! | `URL010` | high | the scheme, port, user name or password differs between the specs | docs/readings.md#a14; URL-parser differential studies (2022) |
//! | `URL011` | high for a URL, medium for a reference or an RFC 2396 base, low for an RFC 1808 base | resolving it gives a result that reads back with another authority ([`Note`](crate::resolve::Note)): `f:/.//g` under RFC 3986, `.//g` against a base without an authority, a base with a net_loc and no path | RFC 3986 §3.3, §5.2.2, §5.2.4; RFC 2396 §5.2 step 6; RFC 1808 §2.4.3, §4 step 5 |
//! | `URL012` | high; medium for the user information alone | the parser a program checks a URL with (its validator) reads another host, port, scheme or user information than the parser that makes the request (its fetcher): reported by the `urlspec-parsers` crate, which holds the real parsers' profiles, never by [`check`] | Orange Tsai, "A New Era of SSRF" (2017); URL-parser differential studies (2022) |
//!
//! "URL-parser differential studies (2022)" are the January 2022 reports
//! by Claroty and Snyk ("Exploiting URL Parsing Confusion") that compared
//! sixteen parsers and found these inputs read differently.
//!
//! The wire-side helpers live beside what they guard:
//! [`escape::decode_for_wire`](crate::escape::decode_for_wire) refuses to
//! decode the escaped delimiters of a line-oriented protocol (R96-8.3), and
//! [`reference::Redacted`](crate::reference::Redacted) and
//! [`reference::Secret`](crate::reference::Secret) keep passwords out of
//! `Display`, `Debug` and logs (R96-8.4).
//!
//! ```
//! use urlspec::check::{check, Severity};
//! use urlspec::Spec;
//!
//! let findings = check("gopher://h:25/0HELO%0D%0AMAIL", Spec::Rfc1808);
//! let codes: Vec<_> = findings.iter().map(|f| f.code).collect();
//! assert_eq!(codes, ["URL001", "URL002", "URL002"]);
//! assert_eq!(findings[0].severity, Severity::High);
//! assert_eq!(findings[0].span, 11..13);
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use crate::chars::span_of;
use crate::diff::{Cell, Column};
use crate::escape::is_line_oriented;
use crate::escape::{delimiter_name, escaped_octet, unescape_lenient};
use crate::names::option_names;
use crate::reference::{password_span, Part, Reference};
use crate::scheme::{default_port, File, Locality};
use crate::spec::Spec;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Unusual, rarely harmful.
    Low,
    /// Can mislead a user or a parser.
    Medium,
    /// Can make a request do something else than it seems to.
    High,
}

option_names!(Severity, "severity" {
    Info => "info",
    Low => "low",
    Medium => "medium",
    High => "high",
});

/// One rule of [`check`]: the rows of the table in the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable code, `URL001` …
    pub code: &'static str,
    /// A short name, stable too (`non-default-port`, …).
    pub name: &'static str,
    /// The highest severity the rule reports.
    pub severity: Severity,
    /// The source it rests on.
    pub source: &'static str,
}

const STUDIES: &str = "URL-parser differential studies (Claroty and Snyk, \
                       \"Exploiting URL Parsing Confusion\", 2022)";

/// Every rule, by code.
///
/// ```
/// use urlspec::check::RULES;
/// assert_eq!(RULES[0].code, "URL001");
/// assert!(RULES.windows(2).all(|w| w[0].code < w[1].code));
/// ```
pub const RULES: [Rule; 12] = [
    Rule {
        code: "URL001",
        name: "non-default-port",
        severity: Severity::High,
        source: "draft 1996 §8 (R96-8.2); RFC 2396 §7; RFC 3986 §7.2",
    },
    Rule {
        code: "URL002",
        name: "escaped-line-delimiter",
        severity: Severity::High,
        source: "draft 1996 §8 (R96-8.3); RFC 3986 §7.2",
    },
    Rule {
        code: "URL003",
        name: "password",
        severity: Severity::Medium,
        source: "draft 1996 §8 (R96-8.4); RFC 3986 §3.2.1, §7.5",
    },
    Rule {
        code: "URL004",
        name: "remote-file",
        severity: Severity::Medium,
        source: "RFC 1630 \"file\" (R1630-FILE-SEC)",
    },
    Rule {
        code: "URL005",
        name: "backslash",
        severity: Severity::High,
        source: STUDIES,
    },
    Rule {
        code: "URL006",
        name: "several-at",
        severity: Severity::High,
        source: STUDIES,
    },
    Rule {
        code: "URL007",
        name: "whitespace-or-control",
        severity: Severity::High,
        source: "RFC 1630 \"Unsafe characters\"; URL-parser differential \
                 studies (2022)",
    },
    Rule {
        code: "URL008",
        name: "userinfo-looks-like-host",
        severity: Severity::High,
        source: "RFC 3986 §7.6 (R3986-7.6, TV-3986-PARSE-14)",
    },
    Rule {
        code: "URL009",
        name: "host-differs-between-specs",
        severity: Severity::High,
        source: "docs/readings.md#a16; URL-parser differential studies (2022)",
    },
    Rule {
        code: "URL010",
        name: "scheme-port-or-userinfo-differs-between-specs",
        severity: Severity::High,
        source: "docs/readings.md#a14; URL-parser differential studies (2022)",
    },
    Rule {
        code: "URL011",
        name: "resolution-reads-back-another-authority",
        severity: Severity::High,
        source: "RFC 3986 §3.3, §5.2.2, §5.2.4; RFC 2396 §5.2 step 6; RFC \
                 1808 §2.4.3, §4 step 5",
    },
    Rule {
        code: "URL012",
        name: "validator-and-fetcher-differ",
        severity: Severity::High,
        source: "Orange Tsai, \"A New Era of SSRF\" (2017); URL-parser \
                 differential studies (2022)",
    },
];

/// One hazard found in a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The stable code (see [`RULES`]).
    pub code: &'static str,
    /// How serious it is here.
    pub severity: Severity,
    /// The bytes of the input it concerns.
    pub span: Range<usize>,
    /// What the hazard is, for this input.
    pub message: String,
    /// The document and section it rests on.
    pub source: &'static str,
}

impl Finding {
    /// A finding of rule `code`, with that rule's source (none for a code
    /// outside [`RULES`]). For the rules other crates report (`URL012`).
    ///
    /// ```
    /// use urlspec::check::{Finding, Severity};
    /// let f = Finding::new("URL012", Severity::High, 7..8, "why".into());
    /// assert_eq!(f.rule().name, "validator-and-fetcher-differ");
    /// ```
    #[must_use]
    pub fn new(
        code: &'static str,
        severity: Severity,
        span: Range<usize>,
        message: String,
    ) -> Finding {
        let source =
            RULES.iter().find(|r| r.code == code).map_or("", |r| r.source);
        Finding { code, severity, span, message, source }
    }

    /// The rule that produced the finding.
    #[must_use]
    pub fn rule(&self) -> &'static Rule {
        RULES.iter().find(|r| r.code == self.code).unwrap_or(&RULES[0])
    }
}

impl fmt::Display for Finding {
    /// `URL001 high 11..13: message (source)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}..{}: {} ({})",
            self.code,
            self.severity,
            self.span.start,
            self.span.end,
            self.message,
            self.source
        )
    }
}

/// Parses `input` under `spec` and reports every hazard, in input order.
///
/// ```
/// use urlspec::check::check;
/// use urlspec::Spec;
/// assert!(check("http://info.cern.ch/", Spec::Rfc1808).is_empty());
/// let f = &check("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm", Spec::Rfc3986)[0];
/// assert_eq!(f.code, "URL008");
/// ```
#[must_use]
pub fn check(input: &str, spec: Spec) -> Vec<Finding> {
    check_reference(&Reference::parse_with(input, spec))
}

/// [`check`] on a parsed reference.
///
/// ```
/// use urlspec::check::check_reference;
/// use urlspec::{Reference, Spec};
/// let r = Reference::parse_with("http://a?@evil.example/", Spec::Rfc1808);
/// let f = check_reference(&r);
/// // RFC 1808: host evil.example; RFC 3986: a.
/// let host = f.iter().find(|f| f.code == "URL009").unwrap();
/// assert_eq!(&r.as_str()[host.span.clone()], "evil.example");
/// ```
#[must_use]
pub fn check_reference(r: &Reference<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    port(r, &mut out);
    escaped_delimiters(r, &mut out);
    password(r, &mut out);
    remote_file(r, &mut out);
    backslash(r, &mut out);
    several_at(r, &mut out);
    whitespace(r, &mut out);
    userinfo_host(r, &mut out);
    host_differs(r, &mut out);
    reads_back_another_authority(r, &mut out);
    out.sort_by(|a, b| (a.span.start, a.code).cmp(&(b.span.start, b.code)));
    out
}

/// The end of the URL proper: before `#`.
fn url_end(r: &Reference<'_>) -> usize {
    r.span(Part::Fragment).map_or(r.as_str().len(), |s| s.start - 1)
}

fn port(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let (Some(scheme), Some(server)) = (r.scheme(), r.server()) else {
        return;
    };
    let (Some((default, _)), Some(written)) =
        (default_port(scheme), server.port())
    else {
        return;
    };
    let Some(p) = server.port_number() else { return };
    if p == default {
        return;
    }
    let reserved = p < 1024;
    let mut message = alloc::format!(
        "port {p} is not {}'s default ({default}): a harmless retrieval can \
         reach a server of another protocol",
        scheme.to_ascii_lowercase()
    );
    if reserved {
        message.push_str(
            ", and it lies in the reserved range 0-1023 (the 1996 draft's \
             example: gopher URLs sending mail through an SMTP server)",
        );
    }
    let severity = if reserved { Severity::High } else { Severity::Low };
    out.push(Finding::new(
        "URL001",
        severity,
        span_of(r.as_str(), written),
        message,
    ));
}

fn escaped_delimiters(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let Some(scheme) = r.scheme().filter(|s| is_line_oriented(s)) else {
        return;
    };
    let b = &r.as_str().as_bytes()[..url_end(r)];
    for i in 0..b.len() {
        if let Some(o @ (b'\r' | b'\n' | 0)) = escaped_octet(b, i) {
            out.push(Finding::new(
                "URL002",
                Severity::High,
                i..i + 3,
                alloc::format!(
                    "an escaped {} in a {} URL: decoded before transmission \
                     it would end the request line and simulate another \
                     command",
                    delimiter_name(o),
                    scheme.to_ascii_lowercase()
                ),
            ));
        }
    }
}

fn password(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let Some(pw) = password_span(r) else { return };
    out.push(Finding::new(
        "URL003",
        Severity::Medium,
        pw,
        "the URL holds a password: \"the use of URLs containing passwords \
         that should be secret is clearly unwise\""
            .to_string(),
    ));
}

fn remote_file(r: &Reference<'_>, out: &mut Vec<Finding>) {
    if !r.scheme().is_some_and(|s| s.eq_ignore_ascii_case("file")) {
        return;
    }
    if let Locality::Remote(host) = File::new(r).locality() {
        out.push(Finding::new(
            "URL004",
            Severity::Medium,
            span_of(r.as_str(), host),
            alloc::format!(
                "a file URL on host `{host}`: not this machine's file system; \
                 following it elsewhere can have \"unexpected and possibly \
                 harmful results\""
            ),
        ));
    }
}

fn backslash(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let input = r.as_str();
    let net_loc = r.span(Part::NetLoc);
    let path = r.span(Part::Path).unwrap_or(0..0);
    let near_host = |i: usize| {
        net_loc.as_ref().is_some_and(|n| n.contains(&i))
            || (r.has_scheme() && net_loc.is_none() && i < path.start + 2)
    };
    // One finding per run of backslashes in the same place, so a hostile
    // input costs findings in proportion to its runs, not its bytes.
    for run in runs(input, |c| c == '\\') {
        let (severity, message) = if near_host(run.start) {
            (
                Severity::High,
                "a backslash where the host is: WHATWG-style parsers read it \
                 as `/` and reach another host than the specs do",
            )
        } else {
            (
                Severity::Medium,
                "a backslash is data to the specs but a `/` to WHATWG-style \
                 parsers",
            )
        };
        let message = with_count(message, run.len());
        out.push(Finding::new("URL005", severity, run, message));
    }
}

/// The runs of one repeated character `c` for which `pick(c)` holds.
fn runs(input: &str, pick: impl Fn(char) -> bool) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut last: Option<char> = None;
    for (i, c) in input.char_indices() {
        if !pick(c) {
            last = None;
            continue;
        }
        match out.last_mut() {
            Some(run) if last == Some(c) && run.end == i => {
                run.end = i + c.len_utf8()
            }
            _ => out.push(i..i + c.len_utf8()),
        }
        last = Some(c);
    }
    out
}

/// `message`, with how many characters the run has when more than one.
fn with_count(message: &str, count: usize) -> String {
    if count > 1 {
        alloc::format!("{message} ({count} in a row)")
    } else {
        message.to_string()
    }
}

fn several_at(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let Some(n) = r.net_loc() else { return };
    let count = n.bytes().filter(|&b| b == b'@').count();
    if count > 1 {
        let host = r.server().and_then(|s| s.host()).unwrap_or("");
        out.push(Finding::new(
            "URL006",
            Severity::High,
            span_of(r.as_str(), n),
            alloc::format!(
                "{count} `@` in the authority: the specs end the user \
                 information at the last one (host `{host}`), parsers that \
                 stop at the first reach another host"
            ),
        ));
    }
}

fn whitespace(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let input = r.as_str();
    for run in runs(input, |c| c.is_whitespace() || c.is_control()) {
        let c = input[run.clone()].chars().next().unwrap_or(' ');
        let severity = if matches!(c, '\t' | '\r' | '\n') {
            Severity::High
        } else {
            Severity::Medium
        };
        let message = alloc::format!(
            "a raw {c:?}: never legal unescaped; WHATWG-style parsers drop \
             tabs and line breaks and trim spaces, so parsers disagree on \
             what the URL is"
        );
        let message = with_count(&message, run.len() / c.len_utf8());
        out.push(Finding::new("URL007", severity, run, message));
    }
}

/// Whether `s` starts like a domain name (`cnn.example.com…`) or a dotted
/// IPv4 address.
fn looks_like_host(s: &str) -> bool {
    let end = s
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'.' || b == b'-'))
        .unwrap_or(s.len());
    let head = s[..end].trim_end_matches('.');
    let labels: Vec<&str> = head.split('.').collect();
    if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
        return false;
    }
    let quad = labels.len() == 4
        && labels.iter().all(|l| l.bytes().all(|b| b.is_ascii_digit()));
    let tld = labels[labels.len() - 1];
    quad || (tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic()))
}

fn userinfo_host(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let Some(server) = r.server() else { return };
    let Some(user) = server.user() else { return };
    if looks_like_host(user) {
        let host = server.host().unwrap_or("");
        out.push(Finding::new(
            "URL008",
            Severity::High,
            span_of(r.as_str(), user),
            alloc::format!(
                "the user name `{user}` looks like a host name, but the host \
                 is `{host}`: a reader may trust the wrong host"
            ),
        ));
    }
}

fn host_differs(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let input = r.as_str();
    // Every spec this build can parse under, browsers' included: the
    // confusion is between programs that follow different ones.
    let c = crate::diff::compare(input, &Spec::IETF_AND_WHATWG);
    let net_loc = r.span(Part::NetLoc).unwrap_or(0..input.len());
    // URL009 points at the host alone, not the user or the port.
    let host = r
        .server()
        .and_then(|s| s.host())
        .map_or(net_loc.clone(), |h| span_of(input, h));
    for d in c.differences.iter().filter(|d| d.security) {
        let span = if d.column == Column::Host { &host } else { &net_loc };
        let (code, what) = match d.column {
            Column::Host => ("URL009", "host"),
            Column::Scheme => ("URL010", "scheme"),
            Column::Port => ("URL010", "port"),
            Column::User => ("URL010", "user name"),
            _ => ("URL010", "password"),
        };
        // A spec that gives no URL at all says nothing about its parts.
        let answers: Vec<(Option<&str>, &Vec<Spec>)> = d
            .groups
            .iter()
            .filter_map(|(cell, specs)| match cell {
                Cell::Value(v) => Some((v.as_deref(), specs)),
                Cell::Error(_) => None,
            })
            .collect();
        let distinct: Vec<String> = answers
            .iter()
            .map(|&(v, _)| match (v, d.column) {
                (Some(host), Column::Host) => host_key(host),
                (v, _) => v.map(str::to_ascii_lowercase).unwrap_or_default(),
            })
            .collect();
        if distinct.iter().all(|v| *v == distinct[0]) {
            continue;
        }
        let mut message = alloc::format!("the {what} depends on the spec:");
        for (i, (value, specs)) in answers.iter().enumerate() {
            message.push_str(if i == 0 { " " } else { "; " });
            match value {
                // Never quote a password (R96-8.4).
                Some(_) if d.column == Column::Password => {
                    message.push_str("`****` under ")
                }
                Some(v) => message.push_str(&alloc::format!("`{v}` under ")),
                None => message.push_str(&alloc::format!("no {what} under ")),
            }
            let names: Vec<&str> = specs.iter().map(|s| s.name()).collect();
            message.push_str(&names.join(", "));
        }
        if let Some(why) = d.explanations.first() {
            message.push_str(" (");
            message.push_str(why);
            message.push(')');
        }
        out.push(Finding::new(code, Severity::High, span.clone(), message));
    }
}

/// A host as the URL Standard's host parser compares it: percent-decoded,
/// then through domain to ASCII (UTS #46, with the standard's forbidden
/// domain code points), so that `bücher.de` and `xn--bcher-kva.de` are one
/// host. A host the mapping refuses keeps its text, marked so that it
/// equals no mapped host: a failure on one side is still a difference.
fn host_key(host: &str) -> String {
    let decoded = unescape_lenient(host).bytes;
    match idna::domain_to_ascii_cow(&decoded, idna::AsciiDenyList::URL) {
        Ok(ascii) => ascii.into_owned(),
        Err(_) => alloc::format!("\u{0}{}", host.to_ascii_lowercase()),
    }
}

/// URL011: a resolution whose result, written out and read again, has
/// another authority than the algorithm produced (see
/// [`crate::resolve::Note`]). The text's answer stands; this says where it
/// would mislead.
fn reads_back_another_authority(r: &Reference<'_>, out: &mut Vec<Finding>) {
    let spec = r.spec();
    let path = r.path();
    let path_span = r.span(Part::Path).unwrap_or(0..0);
    if r.net_loc().is_none() && path.contains('.') {
        // A path whose dot segments, removed, leave it starting with `//`.
        // RFC 3986 removes them from every path, the URL's own included
        // (5.2.2, with a base or without); every spec removes them from a
        // relative path merged with a base directory, which against a base
        // without an authority (`f:/a`) can be just `/`.
        let rooted = path.starts_with('/');
        let merged = if rooted {
            crate::resolve::remove_dot_segments(path)
        } else {
            crate::resolve::remove_dot_segments(&alloc::format!("/{path}"))
        };
        let applies = spec == Spec::Rfc3986 || (!rooted && !r.has_scheme());
        if applies && merged.starts_with("//") {
            let (severity, how) = if r.has_scheme() {
                (Severity::High, "resolving this URL")
            } else {
                (
                    Severity::Medium,
                    "resolving this reference against a base without an \
                     authority (such as `f:/a`)",
                )
            };
            let authority = merged[2..].split('/').next().unwrap_or("");
            out.push(Finding::new(
                "URL011",
                severity,
                path_span,
                alloc::format!(
                    "{how} removes the dot segments of its path, which then \
                     starts with `//`: written out, the result reads back \
                     with the authority `{authority}` (RFC 3986 §3.3: \
                     without an authority a path cannot begin with `//`)"
                ),
            ));
            return;
        }
    }
    // A base with a net_loc and an empty path.
    let (Some(net_loc), true) = (r.net_loc(), path.is_empty()) else {
        return;
    };
    if !r.has_scheme() {
        return;
    }
    let span = r.span(Part::NetLoc).unwrap_or(0..0);
    // Every relative path misleads under RFC 2396; only `?y` and `;x`
    // under RFC 1808, which are rare against a base without a path.
    let (severity, message) = match spec.rules().algorithm {
        crate::spec::Algorithm::Rfc2396 => (
            Severity::Medium,
            alloc::format!(
            "as a base, RFC 2396 merges a relative path with the base path \
             up to its last `/`, which this URL has none of: `index.html` \
             gives `{}index.html`, which reads back with the authority \
             `{net_loc}index.html` (--fix-pathless-base takes the path as \
             `/`)",
            without_fragment_and_query(r)
        ),
        ),
        crate::spec::Algorithm::Rfc1808 | crate::spec::Algorithm::Draft96 => (
            Severity::Low,
            alloc::format!(
                "as a base, the reference `?y` gives `{}?y`, whose net_loc \
                 reads back as `{net_loc}?y`: the net_loc runs to the next \
                 `/` (RFC 1808 §2.4.3), and step 5 writes the query after \
                 the empty path",
                without_fragment_and_query(r)
            ),
        ),
        _ => return,
    };
    out.push(Finding::new("URL011", severity, span, message));
}

/// The URL up to its query or fragment (its scheme and net_loc here).
fn without_fragment_and_query<'a>(r: &Reference<'a>) -> &'a str {
    let s = r.as_str();
    &s[..r.span(Part::Path).map_or(s.len(), |p| p.end)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_like_user_names() {
        for yes in
            ["cnn.example.com&story=x", "www.google.com", "10.0.0.1", "a.bc"]
        {
            assert!(looks_like_host(yes), "{yes}");
        }
        for no in ["joe", "user", "a.b1", "a..com", ".com", "x.1"] {
            assert!(!looks_like_host(no), "{no}");
        }
    }

    #[test]
    fn rules_have_sources() {
        for r in RULES {
            assert!(!r.source.is_empty() && r.code.starts_with("URL"));
        }
    }
}
