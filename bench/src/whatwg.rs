//! The implementations of the WHATWG URL Standard the `whatwg` section of
//! `compare` measures side by side: urlspec's own (`urlspec::whatwg`), the
//! `url` crate, and Ada through the `ada-url` crate (C++). For each, how
//! many cases of the Standard's test suite (WPT `urltestdata.json`) it
//! passes, and its speed parsing the URL corpora and resolving the pair
//! corpora.

use std::hint::black_box;
use std::io;

use serde_json::Value;

use crate::{read_data, Pair};

/// The URL API's attributes, in this order: `href`, `protocol`,
/// `username`, `password`, `host`, `hostname`, `port`, `pathname`,
/// `search`, `hash`.
pub type Attributes = [String; 10];

/// The names of [`Attributes`], as the suite's keys.
pub const ATTRIBUTE_NAMES: [&str; 10] = [
    "href", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash",
];

/// One implementation of the Standard.
pub struct Engine {
    /// The name in the tables and in `--pass`.
    pub name: &'static str,
    /// Parses `input` against `base` (`None`: the null base); a base that
    /// fails makes the whole parse fail, as the URL constructor does.
    pub attributes: fn(&str, Option<&str>) -> Option<Attributes>,
    /// Parses every URL with a null base into an owned URL object (then
    /// dropped); returns how many parsed.
    pub parse: fn(&[&str]) -> usize,
    /// Parses each base, then the reference against it, into an owned
    /// serialization (then dropped); returns how many resolved.
    pub resolve: fn(&[Pair<'_>]) -> usize,
}

/// urlspec's implementation, the baseline of the ratios.
pub const OURS: &str = "urlspec-whatwg";

/// The candidates, in table order.
pub const ENGINES: &[Engine] = &[
    Engine {
        name: OURS,
        attributes: ours::attributes,
        parse: ours::parse,
        resolve: ours::resolve,
    },
    Engine {
        name: "url",
        attributes: rust_url::attributes,
        parse: rust_url::parse,
        resolve: rust_url::resolve,
    },
    Engine {
        name: "ada-url",
        attributes: ada::attributes,
        parse: ada::parse,
        resolve: ada::resolve,
    },
];

/// The engine named `name`.
pub fn engine(name: &str) -> Option<&'static Engine> {
    ENGINES.iter().find(|e| e.name == name)
}

/// `search` and `hash` from an optional query or fragment.
fn prefixed(prefix: &str, part: Option<&str>) -> String {
    match part {
        Some("") | None => String::new(),
        Some(p) => format!("{prefix}{p}"),
    }
}

mod ours {
    use super::*;
    use urlspec::whatwg::Url;

    pub fn attributes(input: &str, base: Option<&str>) -> Option<Attributes> {
        let base = base.map(Url::parse).transpose().ok()?;
        let url = Url::options().base(base.as_ref()).parse(input).ok()?;
        let port = url.port().map(|p| p.to_string()).unwrap_or_default();
        let hostname = url.host_str().unwrap_or("").to_owned();
        let host = match url.port() {
            Some(p) => format!("{hostname}:{p}"),
            None => hostname.clone(),
        };
        Some([
            url.as_str().into(),
            format!("{}:", url.scheme()),
            url.username().into(),
            url.password().unwrap_or("").into(),
            host,
            hostname,
            port,
            url.path().into(),
            prefixed("?", url.query()),
            prefixed("#", url.fragment()),
        ])
    }

    pub fn parse(urls: &[&str]) -> usize {
        urls.iter()
            .filter(|&&u| black_box(Url::parse(black_box(u))).is_ok())
            .count()
    }

    pub fn resolve(pairs: &[Pair<'_>]) -> usize {
        pairs
            .iter()
            .filter(|&&(b, r)| {
                let href = Url::parse(black_box(b))
                    .and_then(|b| b.join(black_box(r)))
                    .map(Url::into_string);
                black_box(href).is_ok()
            })
            .count()
    }
}

mod rust_url {
    use super::*;

    pub fn attributes(input: &str, base: Option<&str>) -> Option<Attributes> {
        let url = match base {
            Some(b) => url::Url::parse(b).ok()?.join(input).ok()?,
            None => url::Url::parse(input).ok()?,
        };
        let port = url.port().map(|p| p.to_string()).unwrap_or_default();
        let hostname = url.host_str().unwrap_or("").to_owned();
        let host = match url.port() {
            Some(p) => format!("{hostname}:{p}"),
            None => hostname.clone(),
        };
        Some([
            url.as_str().into(),
            format!("{}:", url.scheme()),
            url.username().into(),
            url.password().unwrap_or("").into(),
            host,
            hostname,
            port,
            url.path().into(),
            prefixed("?", url.query()),
            prefixed("#", url.fragment()),
        ])
    }

    pub fn parse(urls: &[&str]) -> usize {
        urls.iter()
            .filter(|&&u| black_box(url::Url::parse(black_box(u))).is_ok())
            .count()
    }

    pub fn resolve(pairs: &[Pair<'_>]) -> usize {
        pairs
            .iter()
            .filter(|&&(b, r)| {
                let href = url::Url::parse(black_box(b))
                    .and_then(|b| b.join(black_box(r)))
                    .map(String::from);
                black_box(href).is_ok()
            })
            .count()
    }
}

mod ada {
    use super::*;
    use ada_url::Url;

    pub fn attributes(input: &str, base: Option<&str>) -> Option<Attributes> {
        let url = Url::parse(input, base).ok()?;
        Some(
            [
                url.href(),
                url.protocol(),
                url.username(),
                url.password(),
                url.host(),
                url.hostname(),
                url.port(),
                url.pathname(),
                url.search(),
                url.hash(),
            ]
            .map(String::from),
        )
    }

    pub fn parse(urls: &[&str]) -> usize {
        urls.iter()
            .filter(|&&u| black_box(Url::parse(black_box(u), None)).is_ok())
            .count()
    }

    pub fn resolve(pairs: &[Pair<'_>]) -> usize {
        pairs
            .iter()
            .filter(|&&(b, r)| {
                let href = Url::parse(black_box(r), Some(black_box(b)))
                    .map(|u| String::from(u.href()));
                black_box(href).is_ok()
            })
            .count()
    }
}

/// One case of the suite: input, base, and the expected attributes
/// (`None`: the parse must fail).
pub struct Case {
    /// The input.
    pub input: String,
    /// The base, `None` for the null base.
    pub base: Option<String>,
    /// The attributes the suite gives, or `None` for an expected failure.
    pub expected: Option<Attributes>,
}

/// The cases of `wpt-urltestdata.json` in the data directory.
pub fn suite() -> io::Result<Vec<Case>> {
    let text = read_data("wpt-urltestdata.json")?;
    let all: Vec<Value> = serde_json::from_str(&text)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok(all
        .iter()
        .filter_map(Value::as_object)
        .map(|c| {
            let s =
                |k: &str| c.get(k).and_then(Value::as_str).map(String::from);
            let failure =
                c.get("failure").and_then(Value::as_bool) == Some(true);
            Case {
                input: s("input").unwrap_or_default(),
                base: s("base"),
                expected: (!failure).then(|| {
                    ATTRIBUTE_NAMES.map(|k| s(k).unwrap_or_default())
                }),
            }
        })
        .collect())
}

/// The cases `engine` fails: the input, the base, and what it gave.
pub fn failures<'c>(
    engine: &Engine,
    cases: &'c [Case],
) -> Vec<(&'c Case, Option<Attributes>)> {
    cases
        .iter()
        .filter_map(|c| {
            let got = (engine.attributes)(&c.input, c.base.as_deref());
            (got != c.expected).then_some((c, got))
        })
        .collect()
}
