//! A validator and a fetcher: the parser a program checks a URL with (an
//! allowlist on its host, a refusal of private addresses) and the parser
//! that then makes the request. Where the two read another host, port,
//! scheme or user information, the check is about one place and the
//! request goes to another (Orange Tsai, "A New Era of SSRF", 2017):
//! [`compare`] finds those parts, [`Split::finding`] reports each as the
//! rule `URL012` of [`urlspec::check`].
//!
//! ```
//! use urlspec_parsers::pairs::{compare, Pair};
//! use urlspec_parsers::Part;
//!
//! let pair = Pair::named("python-urllib", "python-urllib3").unwrap();
//! let url = "http://allowed.example\\@evil.example/";
//! let splits = compare(url, pair);
//! let host = splits.iter().find(|s| s.part == Part::Host).unwrap();
//! assert_eq!(host.seen.as_deref(), Some("evil.example"));
//! assert_eq!(host.reached.as_deref(), Some("allowed.example"));
//! // The bytes between the two hosts: the `\` one parser ends the
//! // authority at, and the `@` the other ends the user information at.
//! assert_eq!(&url[host.span.clone()], "\\@");
//! assert_eq!(host.finding().code, "URL012");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::net::Ipv6Addr;
use std::ops::Range;

use urlspec::check::{Finding, Severity};

use crate::components::{Components, Part};
use crate::confusion::{self, Confusion, Kind};
use crate::profile::{profile, Profile};

/// The parts that decide where a request goes and as whom, in the order
/// findings name them.
pub const PARTS: [Part; 4] =
    [Part::Scheme, Part::Userinfo, Part::Host, Part::Port];

/// A validator and a fetcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The parser the program checks the URL with.
    pub validator: &'static Profile,
    /// The parser that makes the request.
    pub fetcher: &'static Profile,
}

impl Pair {
    /// The pair of the profiles named `validator` and `fetcher`, if both
    /// exist.
    ///
    /// ```
    /// use urlspec_parsers::pairs::Pair;
    /// assert!(Pair::named("php", "curl").is_some());
    /// assert!(Pair::named("php", "lynx").is_none());
    /// ```
    #[must_use]
    pub fn named(validator: &str, fetcher: &str) -> Option<Pair> {
        Some(Pair {
            validator: profile(validator)?,
            fetcher: profile(fetcher)?,
        })
    }
}

impl fmt::Display for Pair {
    /// `validator:fetcher`, as `--parser-pairs` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.validator.name, self.fetcher.name)
    }
}

/// The stacks where a check made with one parser guards a request made
/// with another, each with why: the pairs `--parser-pairs common` runs.
/// A parser against itself is never in it: it reads the same URL alike
/// (Go's `net/http` and Java's `HttpClient` fetch with the parser they
/// are checked with, so Go and Java stand beside curl, where their URL
/// is handed to a `curl` command or libcurl).
///
/// ```
/// use urlspec_parsers::pairs::COMMON;
/// assert!(COMMON.iter().all(|(v, f, _)| v != f));
/// ```
pub const COMMON: [(&str, &str, &str); 5] = [
    (
        "python-urllib",
        "python-urllib3",
        "a Python check with urllib.parse, a fetch with requests or urllib3",
    ),
    (
        "python-urllib",
        "curl",
        "a Python check with urllib.parse, a fetch with pycurl or a curl command",
    ),
    ("php", "curl", "a PHP check with parse_url, a fetch with PHP's curl extension"),
    ("go", "curl", "a Go check with net/url, a fetch handed to libcurl or a curl command"),
    (
        "java",
        "curl",
        "a Java check with java.net.URI, a fetch handed to libcurl or a curl command",
    ),
];

/// The pairs of [`COMMON`].
///
/// ```
/// let pairs = urlspec_parsers::pairs::common();
/// assert_eq!(pairs[0].to_string(), "python-urllib:python-urllib3");
/// ```
#[must_use]
pub fn common() -> Vec<Pair> {
    COMMON.iter().filter_map(|(v, f, _)| Pair::named(v, f)).collect()
}

/// One part the validator and the fetcher read differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The pair.
    pub pair: Pair,
    /// The part: the scheme, the user information, the host or the port.
    pub part: Part,
    /// What the validator reads (`None`: no such part). A password is
    /// shown as `****`.
    pub seen: Option<String>,
    /// What the fetcher reads.
    pub reached: Option<String>,
    /// The bytes of the input that make the difference: those between the
    /// two readings when both are in the input, else the confusion the
    /// input shows first, else the reading that is in the input.
    pub span: Range<usize>,
    /// The kinds of confusion the input shows.
    pub confusions: Vec<Confusion>,
}

impl Split {
    /// The severity: high for the host, port and scheme (the request goes
    /// elsewhere), medium for the user information alone (it goes as
    /// someone else).
    #[must_use]
    pub fn severity(&self) -> Severity {
        if self.part == Part::Userinfo {
            Severity::Medium
        } else {
            Severity::High
        }
    }

    /// The finding `URL012`.
    ///
    /// ```
    /// use urlspec_parsers::pairs::{compare, Pair};
    /// // curl reads an octal IPv4 address; urllib gives the text.
    /// let pair = Pair::named("python-urllib", "curl").unwrap();
    /// let f = compare("http://0177.0.0.1/", pair)[0].finding();
    /// assert_eq!(f.code, "URL012");
    /// assert!(f.message.starts_with(
    ///     "python-urllib reads the host `0177.0.0.1`, curl connects to the host `127.0.0.1`"
    /// ));
    /// ```
    #[must_use]
    pub fn finding(&self) -> Finding {
        let what = match self.part {
            Part::Userinfo => "user information",
            part => part.name(),
        };
        let reading = |v: &Option<String>| match v.as_deref() {
            Some(v) if !v.is_empty() => format!("the {what} `{}`", shown(v)),
            _ if self.part == Part::Port => "the scheme's default port".into(),
            _ => format!("no {what}"),
        };
        let mut message = format!(
            "{} reads {}, {} {} {}: a check made on the one's reading is \
             not about the other's",
            self.pair.validator.name,
            reading(&self.seen),
            self.pair.fetcher.name,
            if self.part == Part::Userinfo { "sends" } else { "connects to" },
            reading(&self.reached),
        );
        if self.seen.is_some() && self.seen == self.reached {
            message.push_str(" (another password)");
        }
        if let Some(c) = self.confusions.first() {
            message.push_str(&format!(" ({c})"));
        }
        Finding::new("URL012", self.severity(), self.span.clone(), message)
    }
}

/// The parts of [`PARTS`] that `pair` reads differently in `input`, in
/// that order. Nothing when either parser refuses the URL: a validator
/// that raises lets nothing through, a fetcher that raises sends nothing.
///
/// Compared as a request uses them: a scheme and a host in any ASCII
/// case; a host through UTS #46 (as resolvers look names up, so that
/// `bücher.de` and `xn--bcher-kva.de` are one host), an IPv6 address as
/// an address, without brackets; a port as a number, none when it is the
/// scheme's default; the user information percent-decoded, as it is sent.
/// A host's escapes are not decoded: a validator that reads `%65vil.com`
/// does not read `evil.com`.
#[must_use]
pub fn compare(input: &str, pair: Pair) -> Vec<Split> {
    let (Ok(seen), Ok(reached)) =
        (pair.validator.parse(input), pair.fetcher.parse(input))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut found: Option<Vec<Confusion>> = None;
    for part in PARTS {
        if destination(part, &seen) == destination(part, &reached) {
            continue;
        }
        let confusions = found.get_or_insert_with(|| confusion::find(input));
        let located =
            [locate(input, part, &seen), locate(input, part, &reached)];
        out.push(Split {
            pair,
            part,
            seen: reading(part, &seen),
            reached: reading(part, &reached),
            span: cause(input, located, confusions),
            confusions: confusions.clone(),
        });
    }
    out
}

/// A parser an allowlist check would be fooled with: it reads the
/// allowed host in the URL, while the parsers of [`Fooled::elsewhere`]
/// connect to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fooled {
    /// The parser that reads the allowed host.
    pub parser: &'static Profile,
    /// Each parser that reads another host, with that host (`None`: no
    /// host).
    pub elsewhere: Vec<(&'static Profile, Option<String>)>,
}

/// Which of `parsers` an allowlist of the one host `allowed` would be
/// fooled with on `input`: each that reads `allowed` (compared as
/// [`compare`] compares hosts) while another of `parsers` reads another
/// host. Parsers that refuse the URL take no part.
///
/// ```
/// use urlspec_parsers::{pairs::fooled, profile, PROFILES};
/// let url = "http://allowed.example\\@evil.example/";
/// let f = fooled(url, "allowed.example", PROFILES);
/// let urllib3 = profile("python-urllib3").unwrap();
/// let urllib = profile("python-urllib").unwrap();
/// let by_urllib3 = f.iter().find(|f| f.parser == urllib3).unwrap();
/// assert!(by_urllib3.elsewhere.contains(&(urllib, Some("evil.example".into()))));
/// ```
#[must_use]
pub fn fooled(
    input: &str,
    allowed: &str,
    parsers: &[&'static Profile],
) -> Vec<Fooled> {
    let allowed = host_key(allowed.trim());
    let hosts: Vec<(&'static Profile, Option<String>, Option<String>)> =
        parsers
            .iter()
            .filter_map(|&p| {
                let c = p.parse(input).ok()?;
                let host = c.get(Part::Host).filter(|h| !h.is_empty());
                Some((p, host.map(str::to_owned), destination(Part::Host, &c)))
            })
            .collect();
    hosts
        .iter()
        .filter(|(_, _, key)| key.as_ref() == Some(&allowed))
        .map(|&(parser, _, _)| Fooled {
            parser,
            elsewhere: hosts
                .iter()
                .filter(|(_, _, key)| key.as_ref() != Some(&allowed))
                .map(|(p, host, _)| (*p, host.clone()))
                .collect(),
        })
        .filter(|f| !f.elsewhere.is_empty())
        .collect()
}

/// The host each of `parsers` reads in `input`, when they do not all
/// read the same one; `None` when they agree (compared as [`compare`]
/// compares hosts: `Example.COM` and `example.com` are one host). A
/// parser that refuses the URL takes no part; one that reads no host
/// stands with `None`. The hosts are given as each parser reports them,
/// in the order of `parsers`.
///
/// A crawl's links can be scanned with it for URLs that two programs
/// would send to different places (`urlspec links --parsers`).
///
/// ```
/// use urlspec_parsers::{pairs::host_split, profile};
/// let parsers = [profile("python-urllib").unwrap(), profile("python-urllib3").unwrap()];
/// let split = host_split("http://allowed.example\\@evil.example/", &parsers).unwrap();
/// assert_eq!(split[0].1.as_deref(), Some("evil.example"));
/// assert_eq!(split[1].1.as_deref(), Some("allowed.example"));
/// assert!(host_split("http://Example.COM/a", &parsers).is_none());
/// ```
#[must_use]
pub fn host_split(
    input: &str,
    parsers: &[&'static Profile],
) -> Option<Vec<(&'static Profile, Option<String>)>> {
    let mut read: Vec<(&'static Profile, Components<'_>)> =
        Vec::with_capacity(parsers.len());
    for &p in parsers {
        if let Ok(c) = p.parse(input) {
            read.push((p, c));
        }
    }
    let host = |c: &Components<'_>| {
        c.get(Part::Host).filter(|h| !h.is_empty()).map(str::to_owned)
    };
    let (first, rest) = read.split_first()?;
    let first_text = first.1.get(Part::Host).filter(|h| !h.is_empty());
    // The texts are nearly always equal: keys only when they are not.
    let same_text = rest.iter().all(|(_, c)| {
        c.get(Part::Host).filter(|h| !h.is_empty()) == first_text
    });
    if same_text {
        return None;
    }
    let first_key = destination(Part::Host, &first.1);
    if rest.iter().all(|(_, c)| destination(Part::Host, c) == first_key) {
        return None;
    }
    Some(read.iter().map(|(p, c)| (*p, host(c))).collect())
}

/// What `c`'s `part` decides, for comparison.
fn destination(part: Part, c: &Components<'_>) -> Option<String> {
    let value = c.get(part).filter(|v| !v.is_empty());
    match part {
        Part::Scheme => value.map(str::to_ascii_lowercase),
        Part::Host => value.map(host_key),
        Part::Userinfo => value.map(|v| decoded(v).into_owned()),
        Part::Port => {
            let port = value?;
            let number = port.parse::<u32>().ok();
            let scheme = c.get(Part::Scheme).unwrap_or_default();
            let default = urlspec::scheme::default_port(scheme)
                .map(|(p, _)| u32::from(p));
            match number {
                Some(n) if Some(n) == default => None,
                Some(n) => Some(n.to_string()),
                None => Some(port.to_owned()),
            }
        }
        _ => value.map(str::to_owned),
    }
}

/// A host as a request looks it up: an IPv6 address as its canonical
/// text, a name through UTS #46 (its text in lower case, marked, when the
/// mapping refuses it, so that it equals no mapped name).
fn host_key(host: &str) -> String {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(v6) = bare.parse::<Ipv6Addr>() {
        return v6.to_string();
    }
    match idna::domain_to_ascii_cow(
        bare.as_bytes(),
        idna::AsciiDenyList::EMPTY,
    ) {
        Ok(ascii) => ascii.into_owned(),
        Err(_) => format!("\u{0}{}", bare.to_lowercase()),
    }
}

/// `text` with its escapes decoded (an invalid one kept as it is).
fn decoded(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                // Two hex digits: at most 0xff.
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(u8::MAX));
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// The reading of `part` as a finding shows it: a password as `****`.
fn reading(part: Part, c: &Components<'_>) -> Option<String> {
    if part == Part::Userinfo && c.password().is_some() {
        return Some(format!("{}:****", c.user().unwrap_or_default()));
    }
    c.get(part).map(str::to_owned)
}

/// Where in `input` the reading of `part` is: the slice the parser gave
/// when it gave one, else the first place the text is found after the
/// scheme, in any ASCII case (a port written anew, a host lower-cased).
fn locate(
    input: &str,
    part: Part,
    c: &Components<'_>,
) -> Option<Range<usize>> {
    let value = match part {
        Part::Scheme => &c.scheme,
        Part::Userinfo => &c.userinfo,
        Part::Host => &c.host,
        _ => &c.port,
    };
    let value = value.as_ref().filter(|v| !v.is_empty())?;
    if let Cow::Borrowed(v) = value {
        let start =
            (v.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
        if start < input.len() && start + v.len() <= input.len() {
            return Some(start..start + v.len());
        }
    }
    let from = if part == Part::Scheme {
        0
    } else {
        input.find(':').map_or(0, |k| k + 1)
    };
    let hay = input[from..].to_ascii_lowercase();
    let at = hay.find(&value.to_ascii_lowercase())?;
    Some(from + at..from + at + value.len())
}

/// The bytes that make the difference (see [`Split::span`]).
fn cause(
    input: &str,
    located: [Option<Range<usize>>; 2],
    found: &[Confusion],
) -> Range<usize> {
    if let [Some(a), Some(b)] = &located {
        let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
        let span = if first.end <= second.start {
            // Apart: what lies between them.
            first.end..second.start
        } else if first.start == second.start {
            // One runs further: its tail.
            first.end.min(second.end)..first.end.max(second.end)
        } else {
            first.start..first.end.max(second.end)
        };
        if !span.is_empty() {
            return span;
        }
    }
    if let Some(c) = found.iter().find(|c| c.kind != Kind::SchemeMixUp) {
        return extent(input, c);
    }
    located.into_iter().flatten().next().unwrap_or(0..input.len())
}

/// The bytes confusion `c` covers, at least one when the input has any.
fn extent(input: &str, c: &Confusion) -> Range<usize> {
    let b = input.as_bytes();
    // A scheme's confusion is about the whole scheme.
    let at = if c.kind == Kind::Scheme { 0 } else { c.position.min(b.len()) };
    let run = |pick: fn(u8) -> bool| {
        b[at..].iter().take_while(|&&x| pick(x)).count()
    };
    let len = match c.kind {
        Kind::Backslash => run(|x| x == b'\\'),
        Kind::Slashes => run(|x| x == b'/' || x == b'\\'),
        Kind::PercentEncoded => 3,
        Kind::Scheme | Kind::SchemeMixUp => {
            run(|x| !matches!(x, b':' | b'/' | b'\\' | b'?' | b'#'))
        }
    };
    if len == 0 && at > 0 {
        // No slash after the scheme: its `:`.
        return at - 1..at;
    }
    at..(at + len.max(1)).min(b.len())
}

/// A reading as a message quotes it: control characters escaped.
fn shown(text: &str) -> String {
    text.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(v: &str, f: &str) -> Pair {
        Pair::named(v, f).unwrap()
    }

    #[test]
    fn alike_readings_are_no_split() {
        let p = pair("python-urllib", "python-urllib3");
        // Case, a default port and an empty user information go to the
        // same place.
        assert_eq!(compare("HTTP://Example.COM:80/a", p), []);
        assert_eq!(compare("http://@a/", p), []);
        // A refusal on either side: nothing.
        assert_eq!(compare("http://[::1/", p), []);
    }

    #[test]
    fn spans_and_passwords() {
        let p = pair("python-urllib", "python-urllib3");
        let url = "http://u:secret@a\\@b/";
        let s = compare(url, p);
        let info = s.iter().find(|s| s.part == Part::Userinfo).unwrap();
        assert_eq!(info.seen.as_deref(), Some("u:****"));
        assert_eq!(info.reached.as_deref(), Some("u:****"));
        assert_eq!(info.severity(), Severity::Medium);
        assert!(!format!("{s:?}").contains("secret"));
        assert!(!info.finding().message.contains("secret"));
        let host = s.iter().find(|s| s.part == Part::Host).unwrap();
        assert_eq!(
            (host.seen.as_deref(), host.reached.as_deref()),
            (Some("b"), Some("a"))
        );
        assert_eq!(&url[host.span.clone()], "\\@");
    }

    #[test]
    fn user_information_compared_decoded() {
        assert_eq!(decoded("a%40b%2F"), "a@b/");
        assert_eq!(decoded("a%4"), "a%4");
        let c = Components {
            userinfo: Some("a@b".into()),
            ..Components::default()
        };
        let d = Components {
            userinfo: Some("a%40b".into()),
            ..Components::default()
        };
        assert_eq!(
            destination(Part::Userinfo, &c),
            destination(Part::Userinfo, &d)
        );
    }

    #[test]
    fn hosts_compared_as_looked_up() {
        assert_eq!(host_key("BÜCHER.de"), host_key("xn--bcher-kva.de"));
        assert_eq!(host_key("[::1]"), host_key("0:0::1"));
        assert_ne!(host_key("%65vil.com"), host_key("evil.com"));
        assert_ne!(host_key("0x7f.1"), host_key("127.0.0.1"));
    }

    #[test]
    fn extents_of_confusions() {
        let c = |input: &str| {
            let found = confusion::find(input);
            extent(input, &found[0])
        };
        assert_eq!(c("http:\\\\a/"), 5..7);
        assert_eq!(c("http:a/"), 4..5);
        assert_eq!(c("http://%61/"), 7..10);
        assert_eq!(c("a.b:80/"), 0..3);
    }

    #[test]
    fn host_splits_among_many_parsers() {
        let all = crate::PROFILES;
        // Every parser reads one host, in whatever case: no split.
        assert_eq!(host_split("http://Example.COM:8080/a?b#c", all), None);
        // A refusal takes no part: IPv6 without its bracket.
        assert_eq!(host_split("http://[::1/", all), None);
        // No parser at all, or one: nothing to compare.
        assert_eq!(host_split("http://a\\@b/", &[]), None);
        let urllib = profile("python-urllib").unwrap();
        assert_eq!(host_split("http://a\\@b/", &[urllib]), None);
        // Hosts that differ only as names are looked up: no split.
        let two = [urllib, profile("python-urllib3").unwrap()];
        assert_eq!(host_split("http://b\u{fc}cher.de/", &two), None);
        // The backslash splits urllib from urllib3, each host as read.
        let split = host_split("http://a\\@b/", &two).unwrap();
        let names: Vec<_> =
            split.iter().map(|(p, h)| (p.name, h.as_deref())).collect();
        assert_eq!(
            names,
            [("python-urllib", Some("b")), ("python-urllib3", Some("a"))]
        );
        // A parser that reads no host stands with `None`.
        let curl = profile("curl").unwrap();
        let go = profile("go").unwrap();
        let split = host_split("http:/evil.example/p", &[go, curl]).unwrap();
        assert_eq!(split[0], (go, None));
        assert_eq!(split[1], (curl, Some("evil.example".into())));
    }
}
