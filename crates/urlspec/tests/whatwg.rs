//! `Spec::Whatwg`: the web-platform-tests `urltestdata.json` suite run
//! through urlspec's mapping of the `url` crate's results (`whatwg`
//! module), as a test of the mapping.
//!
//! The suite is read from `../shared/data/urls/wpt-urltestdata.json` beside
//! the repository (web-platform-tests data, 3-Clause BSD License; see the
//! README of that folder). When it is absent the test says so and checks a
//! few built-in cases only.
#![cfg(feature = "whatwg")]

use std::path::Path;

use serde_json::Value;
use urlspec::resolve::Resolver;
use urlspec::{whatwg, Reference, Spec};

#[test]
fn built_in_cases() {
    let c = whatwg::parse("HTTP://User:@Example.COM:80/a/./b/../c?#", None)
        .unwrap();
    assert_eq!(c.href, "http://User@example.com/a/c?#");
    assert_eq!(
        (c.user.as_deref(), c.password.as_deref()),
        (Some("User"), None)
    );
    assert_eq!(
        (c.host.as_deref(), c.port.as_deref()),
        (Some("example.com"), None)
    );
    assert_eq!(
        (c.query.as_deref(), c.fragment.as_deref()),
        (Some(""), Some(""))
    );
    // Browsers read `\` as `/` in special URLs.
    let r = Resolver::new("http://a/b/c/d;p?q", Spec::Whatwg);
    assert_eq!(r.resolve("..\\g").unwrap().href, "http://a/b/g");
    assert!(!Reference::parse_with("http://[::1", Spec::Whatwg).is_valid());
    assert!(Reference::parse_with("g?y", Spec::Whatwg).is_valid());
}

/// A WPT field as the mapping gives it.
fn field(c: &whatwg::Components, name: &str) -> String {
    let opt = |prefix: &str, v: &Option<String>| match v.as_deref() {
        Some("") | None => String::new(),
        Some(v) => format!("{prefix}{v}"),
    };
    match name {
        "href" => c.href.clone(),
        "protocol" => format!("{}:", c.scheme),
        "username" => c.user.clone().unwrap_or_default(),
        "password" => c.password.clone().unwrap_or_default(),
        "hostname" => c.host.clone().unwrap_or_default(),
        "port" => c.port.clone().unwrap_or_default(),
        "pathname" => c.path.clone(),
        "search" => opt("?", &c.query),
        "hash" => opt("#", &c.fragment),
        _ => unreachable!("{name}"),
    }
}

#[test]
fn web_platform_tests() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/urls/wpt-urltestdata.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("notice: {} not found; WPT suite skipped", path.display());
        return;
    };
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    // The cases the `url` crate answers differently from this copy of the
    // suite (newer WPT rules for file hosts, opaque paths, IDNA): the
    // crate's, not the mapping's. The list cannot go stale: a listed case
    // that passes fails the test too.
    let list = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/whatwg/expected-failures.jsonl");
    let expected: Vec<(String, Option<String>)> =
        std::fs::read_to_string(&list)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (
                    v["input"].as_str().unwrap().to_string(),
                    v["base"].as_str().map(String::from),
                )
            })
            .collect();
    let (mut passed, mut unexpected, mut stale) = (0, Vec::new(), Vec::new());
    let mut failures = Vec::new();
    for case in cases.iter().filter_map(Value::as_object) {
        let input = case["input"].as_str().unwrap();
        let base = case.get("base").and_then(Value::as_str);
        let got = whatwg::parse(input, base);
        let problem = if case.get("failure").and_then(Value::as_bool)
            == Some(true)
        {
            got.as_ref().ok().map(|c| format!("should fail, gave {}", c.href))
        } else {
            let fields = [
                "href", "protocol", "username", "password", "hostname",
                "port", "pathname", "search", "hash",
            ];
            match &got {
                Err(e) => Some(format!("failed: {e}")),
                Ok(c) => fields
                    .iter()
                    .find(|&&name| {
                        case.get(name).and_then(Value::as_str)
                            != Some(&field(c, name))
                    })
                    .map(|name| {
                        format!(
                            "{name}: got {:?}, want {}",
                            field(c, name),
                            case[*name]
                        )
                    }),
            }
        };
        let listed =
            expected.iter().any(|(i, b)| i == input && b.as_deref() == base);
        match (problem, listed) {
            (None, false) => passed += 1,
            (None, true) => stale.push(format!("{input:?} (base {base:?})")),
            (Some(p), false) => {
                unexpected.push(format!("{input:?} (base {base:?}): {p}"))
            }
            (Some(_), true) => {
                let line = serde_json::json!({ "input": input, "base": base });
                failures.push(line.to_string());
            }
        }
    }
    eprintln!(
        "WPT urltestdata: {passed} passed, {} expected failures, {} unexpected, {} stale",
        failures.len(),
        unexpected.len(),
        stale.len()
    );
    assert!(
        unexpected.is_empty(),
        "unexpected failures:\n{}",
        unexpected.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed as failing but passing:\n{}",
        stale.join("\n")
    );
    assert!(passed > 800, "only {passed} cases passed");
}
