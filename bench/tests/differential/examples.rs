//! One worked example per entry of the deviations file: the other
//! library's documented answer for an input (taken from its docs, source
//! or an actual run) must be explained by exactly the entries named, and a
//! made-up wrong answer by none. This pins every kind to its meaning, so a
//! kind that stops matching (or starts matching too much) fails here and
//! not only on some corpus line.

use urlspec::Spec;

use crate::deviations::{self, Entry, Input, Parts, Verdict};
use crate::libs;
use crate::{pair_op, Op, PAIRINGS};

/// `(pair, base, reference, the other library's answer, entry ids)`; an
/// answer starting with `!` is a refusal with that message; no ids: the
/// answer must be unexplained.
#[rustfmt::skip]
const RESOLUTIONS: &[(&str, &str, &str, &str, &[&str])] = &[
    // fluent-uri, deviations 1-5 of its resolve_against docs, and E1.
    ("rfc3986/fluent-uri", "mailto:x@y", "g", "!when base has a rootless path and no authority, ...", &["fluent-uri/opaque-base"]),
    ("rfc3986/fluent-uri", "foo:/", ".//@@", "foo:/.//@@", &["fluent-uri/double-slash-path"]),
    ("rfc3986/fluent-uri", "http://a/b/c/", "%2E%2E/g", "http://a/b/g", &["fluent-uri/encoded-dot-segments"]),
    ("rfc3986/fluent-uri", "foo:/bar/..", ".", "foo:/", &["fluent-uri/base-ending-in-dotdot"]),
    ("rfc3986/fluent-uri", "http://a/b/./c", "?y", "http://a/b/c?y", &["fluent-uri/base-path-dots-removed"]),
    ("rfc3986/fluent-uri", "http://a/b/c/d;p?q", "g:h/../i", "g:h/../i", &["fluent-uri/rootless-reference-dots"]),
    ("rfc3986/fluent-uri", "http://a/b#f", "g", "!base should not have fragment", &["fluent-uri/base-with-fragment"]),
    ("rfc3986/fluent-uri", "http://a/b", "a b", "!reference: unexpected character at index 1", &["fluent-uri/reference-refused"]),
    ("rfc3986/fluent-uri", "http://a/b/c/d;p?q", "g", "http://a/b/c/h", &[]),
    ("rfc3986/fluent-uri", "http://a/b", "g", "!reference: unexpected character", &[]),
    // iri-string.
    ("rfc3986/iri-string", "foo:bar", ".///baz", "foo:/.//baz", &["iri-string/double-slash-path"]),
    ("rfc3986/iri-string", "HTTP://example.COM/base/base2/", "%2e%2e/../dot%2edot", "HTTP://example.COM/dot%2edot", &["iri-string/encoded-dot-segments"]),
    ("rfc3986/iri-string", "http://a/b#f", "g", "!base: invalid IRI: unexpected fragment", &["iri-string/base-with-fragment"]),
    ("rfc3986/iri-string", "http://a/b/c/d;p?q", "../../../g", "http://a/../g", &[]),
    // oxiri.
    ("rfc3986/oxiri", "foo:bar", ".///baz", "!An IRI path is not allowed to start with //", &["oxiri/double-slash-path"]),
    ("rfc3986/oxiri", "http://a/b", "a@b:c", "!reference: Invalid character '@' in scheme", &["oxiri/reference-refused"]),
    ("rfc3986/oxiri", "http://a/b", "g", "!reference: Invalid IRI code point", &[]),
    // Python's urljoin (CPython 3.11).
    ("rfc3986/python-urljoin", "foo:a/b", "../g", "../g", &["python-urljoin/uses-relative"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "g:h/../i", "g:h/../i", &["python-urljoin/other-scheme"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "http:g", "http://a/b/c/g", &["python-urljoin/same-scheme-relative"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "//g/./h/../i", "http://g/./h/../i", &["python-urljoin/authority-reference-dots"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "///g", "http://a/g", &["python-urljoin/empty-authority"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "?", "http://a/b/c/d;p?q", &["python-urljoin/empty-query"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "g?", "http://a/b/c/g", &["python-urljoin/empty-components"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "#", "http://a/b/c/d;p?q", &["python-urljoin/empty-components"]),
    ("rfc3986/python-urljoin", "http://a/b#f", "", "http://a/b#f", &["python-urljoin/empty-reference"]),
    ("rfc3986/python-urljoin", "HTTP://a/b", "g", "http://a/g", &["python-urljoin/scheme-case"]),
    ("rfc3986/python-urljoin", "http://a/b/c", "..//g", "http://a/g", &["python-urljoin/empty-segments"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "/..//g", "http://a/g", &["python-urljoin/dotdot-pops-root"]),
    ("rfc3986/python-urljoin", "http://a/b/c", "g;", "http://a/b/g", &["python-urljoin/empty-params"]),
    ("rfc3986/python-urljoin", "http://a/b", "..;x", "http://a/;x", &["python-urljoin/params-before-dots"]),
    ("rfc3986/python-urljoin", "http:/b/c", "g", "http:///b/g", &["python-urljoin/netloc-added"]),
    ("rfc3986/python-urljoin", "http:bar", "..", "http:///", &["python-urljoin/empty-path-is-root", "python-urljoin/netloc-added"]),
    ("rfc3986/python-urljoin", "ftp:///x", "////g", "ftp://g", &["python-urljoin/empty-netloc-lost"]),
    ("rfc3986/python-urljoin", "HTTP://a/b/c/d;p?q", "HTTP:g?", "http://a/b/c/g", &["python-urljoin/same-scheme-relative", "python-urljoin/empty-components", "python-urljoin/scheme-case"]),
    ("rfc3986/python-urljoin", "http://a/b", "//[x]/", "!ValueError: 'x' does not appear to be an IPv4 or IPv6 address", &["python-urljoin/reference-refused"]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "../../../g", "http://a/../g", &[]),
    ("rfc3986/python-urljoin", "http://a/b/c/d;p?q", "g", "http://a/b/c/g/", &[]),
    // java.net.URI (OpenJDK 17).
    ("rfc2396/java-uri-resolve", "http://a/b/c/d;p?q", "", "http://a/b/c/", &["java-uri/jdk-4666701"]),
    ("rfc2396/java-uri-resolve", "http://a", "g", "http://a/g", &["java-uri/pathless-base"]),
    ("rfc2396/java-uri-resolve", "http://a//x/y", "g", "http://a/x/g", &["java-uri/empty-segments"]),
    ("rfc2396/java-uri-resolve", "file:///x/y", "g", "file:/x/g", &["java-uri/empty-authority-dropped"]),
    ("rfc2396/java-uri-resolve", "foo:a/b", "../g", "../g", &["java-uri/opaque-base"]),
    ("rfc2396/java-uri-resolve", "http://a:/b", "g", "http://a/g", &["java-uri/empty-port"]),
    ("rfc2396/java-uri-resolve", "http://a/b/c/d;p?q", "///g", "http://a/g", &["java-uri/empty-authority"]),
    ("rfc2396/java-uri-resolve", "http://a/b", "//", "!URISyntaxException: Expected authority at index 2: //", &["java-uri/empty-authority-alone"]),
    ("rfc2396/java-uri-resolve", "http:", "g", "!URISyntaxException: Expected scheme-specific part at index 5: http:", &["java-uri/base-refused"]),
    ("rfc2396/java-uri-resolve", "http://a/b", "{g}", "!URISyntaxException: Illegal character in path at index 0: {g}", &["java-uri/reference-refused"]),
    ("rfc2396/java-uri-resolve", "http://a/b/c/d;p?q", "../../../g", "http://a/g", &[]),
];

/// `(pair, URL, the other library's split or `!` refusal, entry ids)`;
/// the split is `scheme|authority|path|query|fragment` with `~` for an
/// absent component.
#[rustfmt::skip]
const SPLITS: &[(&str, &str, &str, &[&str])] = &[
    ("rfc3986/fluent-uri-parse", "http://a/{x}", "!unexpected character at index 9", &["fluent-uri-parse/input-refused"]),
    ("rfc3986/iri-string-parse", "?y#a#b", "!invalid IRI: invalid fragment", &["iri-string-parse/input-refused"]),
    ("rfc3986/python-urlsplit", "HTTP://a/b", "http|a|/b||", &["python-urlsplit/scheme-case"]),
    ("rfc3986/python-urlsplit", "http://a/b", "http|a|/b|x|", &[]),
    ("rfc2396/java-uri-parse", "node:a?b", "node|~|a?b|~|~", &["java-uri-parse/opaque-query"]),
    ("rfc2396/java-uri-parse", "file:///x", "file|~|/x|~|~", &["java-uri-parse/empty-authority"]),
    ("rfc2396/java-uri-parse", "http://", "!URISyntaxException: Expected authority at index 7: http://", &["java-uri-parse/empty-authority-alone"]),
    ("rfc2396/java-uri-parse", "http://a/b c", "!URISyntaxException: Illegal character in path at index 10", &["java-uri-parse/input-refused"]),
    ("rfc2396/java-uri-parse", "http://a/b", "http|a|/c|~|~", &[]),
];

/// The entries of `pair`.
fn entries<'a>(all: &'a [Entry], pair: &str) -> Vec<&'a Entry> {
    all.iter().filter(|e| e.pair == pair).collect()
}

/// An answer as an outcome (`!` marks a refusal).
fn outcome(answer: &str) -> Result<String, String> {
    match answer.strip_prefix('!') {
        Some(msg) => Err(msg.to_string()),
        None => Ok(answer.to_string()),
    }
}

/// The ids a verdict names (empty: unexplained).
fn ids(verdict: &Verdict, entries: &[&Entry]) -> Vec<String> {
    match verdict {
        Verdict::Agree => vec!["(agree)".to_string()],
        Verdict::Explained(set) => {
            let mut v: Vec<String> =
                set.iter().map(|&i| entries[i].id.clone()).collect();
            v.sort();
            v
        }
        Verdict::Unexplained => Vec::new(),
    }
}

/// The spec of a pair.
fn spec(pair: &str) -> Spec {
    PAIRINGS.iter().find(|p| p.name == pair).expect("known pair").spec
}

/// Every resolution example is explained by exactly its entries.
#[test]
fn resolution_examples() {
    let all = deviations::load(|pair| pair_op(pair).map(|op| op == Op::Split));
    let mut failures = Vec::new();
    for &(pair, base, reference, answer, want) in RESOLUTIONS {
        let entries = entries(&all, pair);
        let spec = spec(pair);
        let ours = libs::urlspec(base, reference, spec);
        let input = Input { base, reference };
        let verdict = deviations::classify_resolution(
            &entries,
            spec,
            &input,
            &ours,
            &outcome(answer),
        );
        // The in-process libraries' answers are checked to be real.
        let actual = match pair {
            "rfc3986/fluent-uri" => Some(libs::fluent_uri(base, reference)),
            "rfc3986/iri-string" => Some(libs::iri_string(base, reference)),
            "rfc3986/oxiri" => Some(libs::oxiri(base, reference)),
            _ => None,
        };
        if let (Some(actual), false) = (&actual, want.is_empty()) {
            let real = match (actual, answer.strip_prefix('!')) {
                (Err(m), Some(msg)) => {
                    m.contains(msg.trim_end_matches(", ..."))
                }
                (Ok(href), None) => href == answer,
                _ => false,
            };
            if !real {
                failures.push(format!(
                    "{pair}: {base:?} + {reference:?}: the library answers \
                     {actual:?}, not {answer:?}"
                ));
            }
        }
        let mut want: Vec<String> =
            want.iter().map(|s| s.to_string()).collect();
        want.sort();
        let got = ids(&verdict, &entries);
        if got != want {
            failures.push(format!(
                "{pair}: {base:?} + {reference:?}: urlspec {ours:?}, other \
                 {answer:?}: explained by {got:?}, expected {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every split example is explained by exactly its entries.
#[test]
fn split_examples() {
    let all = deviations::load(|pair| pair_op(pair).map(|op| op == Op::Split));
    let mut failures = Vec::new();
    for &(pair, url, answer, want) in SPLITS {
        let entries = entries(&all, pair);
        let spec = spec(pair);
        let theirs = outcome(answer).map(|s| {
            let f: Vec<Option<String>> = s
                .split('|')
                .map(|c| (c != "~").then(|| c.to_string()))
                .collect();
            Parts {
                scheme: f[0].clone(),
                authority: f[1].clone(),
                path: f[2].clone().unwrap_or_default(),
                query: f[3].clone(),
                fragment: f[4].clone(),
            }
        });
        let mut ours = Parts::of(url, spec);
        if pair == "rfc3986/python-urlsplit" {
            ours = ours.flattened();
        }
        let verdict =
            deviations::classify_split(&entries, spec, url, &ours, &theirs);
        let mut want: Vec<String> =
            want.iter().map(|s| s.to_string()).collect();
        want.sort();
        let got = ids(&verdict, &entries);
        if got != want {
            failures.push(format!(
                "{pair}: {url:?}: other {answer:?}: explained by {got:?}, \
                 expected {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
