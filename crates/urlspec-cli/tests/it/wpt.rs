//! The URL Standard's test suite (web-platform-tests `urltestdata.json`,
//! read from `../shared/data/urls/` beside the repository; 3-Clause BSD
//! License) through the `urlspec` binary under `--spec whatwg`: every case
//! whose input (and base) a line of standard input can carry, that is all
//! but those with a CR or LF, which `crates/urlspec/tests/whatwg.rs` runs
//! through the library. No list of expected failures.
//!
//! * `parse --spec whatwg --json`: each null-base case's components (and
//!   `valid` false for a failure);
//! * `resolve --spec whatwg --base '' --json`: each null-base case's
//!   serialization, as parsing gives it;
//! * `resolve --spec whatwg --pairs --json`: every case, `BASE<TAB>INPUT`
//!   (an empty base for the null-base ones), its serialization.
#![cfg(feature = "whatwg")]

use crate::common;

use serde_json::Value;

use common::run;
use urlspec_test_support::paths;

/// The JSON Lines of `args` run over `lines`, one object per line.
fn json_lines(args: &[&str], lines: &[String]) -> Vec<Value> {
    let mut stdin = lines.join("\n");
    stdin.push('\n');
    let out = run(args, stdin.as_bytes());
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let values: Vec<Value> =
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(values.len(), lines.len(), "one line out per line in");
    values
}

/// The cases a line of standard input can carry: no CR or LF (a NUL is
/// data like any other byte).
fn cases() -> Option<Vec<serde_json::Map<String, Value>>> {
    let path = paths::urls().join("wpt-urltestdata.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if std::env::var("URLSPEC_WPT").as_deref() == Ok("skip") => {
            eprintln!("notice: {}: {e}; skipped", path.display());
            return None;
        }
        Err(e) => panic!("{}: {e} (URLSPEC_WPT=skip to skip)", path.display()),
    };
    let all: Vec<Value> = serde_json::from_str(&text).unwrap();
    let carried = |s: &str| !s.contains(['\r', '\n']);
    let cases: Vec<_> = all
        .into_iter()
        .filter_map(|v| v.as_object().cloned())
        .filter(|c| {
            carried(c["input"].as_str().unwrap())
                && c.get("base").and_then(Value::as_str).is_none_or(carried)
        })
        .collect();
    assert!(cases.len() > 850, "only {} cases", cases.len());
    Some(cases)
}

fn failure(case: &serde_json::Map<String, Value>) -> bool {
    case.get("failure").and_then(Value::as_bool) == Some(true)
}

fn null_base(case: &&serde_json::Map<String, Value>) -> bool {
    !case.get("base").is_some_and(Value::is_string)
}

#[test]
fn parse_gives_the_standards_components() {
    let Some(cases) = cases() else { return };
    let cases: Vec<_> = cases.iter().filter(null_base).collect();
    let inputs: Vec<String> =
        cases.iter().map(|c| c["input"].as_str().unwrap().into()).collect();
    let got = json_lines(&["parse", "--spec", "whatwg", "--json"], &inputs);
    let mut wrong = Vec::new();
    for (case, v) in cases.iter().zip(&got) {
        assert_eq!(v["input"].as_str(), Some(case["input"].as_str().unwrap()));
        if failure(case) {
            if v["valid"] != false {
                wrong.push(format!("{:?}: should fail", case["input"]));
            }
            continue;
        }
        // The URL API's attributes from the JSON's components.
        let s = |k: &str| v[k].as_str().unwrap_or("").to_owned();
        let prefixed = |p: &str, k: &str| match v[k].as_str() {
            Some("") | None => String::new(),
            Some(x) => format!("{p}{x}"),
        };
        let fields = [
            ("protocol", format!("{}:", s("scheme"))),
            ("username", s("user")),
            ("password", s("password")),
            ("hostname", s("host")),
            ("port", s("port")),
            ("pathname", s("path")),
            ("search", prefixed("?", "query")),
            ("hash", prefixed("#", "fragment")),
        ];
        for (name, got) in fields {
            if case[name].as_str() != Some(got.as_str()) {
                wrong.push(format!("{:?}: {name} {got:?}", case["input"]));
            }
        }
        assert_eq!(v["valid"], true);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Compares the `result` of each JSON line with the case's `href`.
fn check_results(cases: &[&serde_json::Map<String, Value>], got: &[Value]) {
    let mut wrong = Vec::new();
    for (case, v) in cases.iter().zip(got) {
        let want = if failure(case) { None } else { case["href"].as_str() };
        if v["result"].as_str() != want {
            wrong.push(format!(
                "{:?} (base {:?}): {} {}",
                case["input"],
                case.get("base"),
                v["result"],
                v["error"]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn resolve_with_an_empty_base_parses_with_a_null_base() {
    let Some(cases) = cases() else { return };
    let cases: Vec<_> = cases.iter().filter(null_base).collect();
    let inputs: Vec<String> =
        cases.iter().map(|c| c["input"].as_str().unwrap().into()).collect();
    let args = ["resolve", "--spec", "whatwg", "--base", "", "--json"];
    check_results(&cases, &json_lines(&args, &inputs));
}

#[test]
fn resolve_pairs_give_the_standards_serialization() {
    let Some(cases) = cases() else { return };
    let cases: Vec<_> = cases.iter().collect();
    let lines: Vec<String> = cases
        .iter()
        .map(|c| {
            let base = c.get("base").and_then(Value::as_str).unwrap_or("");
            format!("{base}\t{}", c["input"].as_str().unwrap())
        })
        .collect();
    let args = ["resolve", "--spec", "whatwg", "--pairs", "--json"];
    check_results(&cases, &json_lines(&args, &lines));
}
