//! Other projects' URL test suites, kept as data under `testdata/peers/`
//! (made by `scripts/import-peer-suites.py`, each file naming its source,
//! commit and licence): uriparser's and Go's resolution tests under RFC
//! 3986, and the null-base cases of web-platform-tests `urltestdata.json`
//! under the URL Standard.
//!
//! Every case must give the peer's answer, unless
//! `testdata/peers/deviations.toml` lists it with urlspec's own answer, who
//! follows the text and the clause that decides. A listed case must still
//! give exactly the listed answer and still differ from the peer's, so the
//! list cannot outlive the disagreement it explains.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use urlspec::resolve::{make_relative, Options, Resolver, RootlessDots};
use urlspec::Spec;

#[derive(Deserialize)]
struct Suite {
    source: Source,
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Source {
    repository: String,
    commit: String,
    licence: String,
    spec: String,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    kind: String,
    #[serde(default)]
    base: String,
    #[serde(default)]
    reference: String,
    #[serde(default)]
    target: String,
    #[serde(default)]
    input: String,
    expected: Option<String>,
    #[serde(default)]
    failure: bool,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
struct Deviations {
    #[serde(default)]
    deviation: Vec<Deviation>,
}

/// One case where urlspec answers otherwise than the peer.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deviation {
    /// `FILE-STEM/CASE-ID`, e.g. `go-net-url/resolveReferenceTests/3`.
    id: String,
    /// urlspec's answer: a URL, or `error` for none.
    urlspec: String,
    /// Who follows the text: `urlspec`, `peer`, or `both` where the text
    /// leaves the choice open.
    follows_text: String,
    /// The clause of the spec that decides the case.
    clause: String,
    /// Why the peer answers otherwise (its documented behaviour).
    peer: String,
    /// The resolver options under which urlspec gives the peer's answer,
    /// when it has the peer's reading as an option (checked).
    #[serde(default)]
    peer_options: BTreeMap<String, toml::Value>,
}

fn load<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = common::testdata().join("peers").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Resolver options named as in `testdata/README.md`.
fn options<'a>(
    id: &str,
    named: impl IntoIterator<Item = (&'a String, &'a toml::Value)>,
) -> Options {
    let mut o = Options::default();
    for (name, value) in named {
        o = match (name.as_str(), value) {
            ("same_scheme_is_relative", toml::Value::Boolean(on)) => {
                o.same_scheme_is_relative(*on)
            }
            ("path_guard", toml::Value::Boolean(on)) => o.path_guard(*on),
            ("rootless_dots", toml::Value::String(v))
                if v == "keep_rootless" =>
            {
                o.rootless_dots(RootlessDots::KeepRootless)
            }
            _ => panic!("{id}: unknown option {name} = {value}"),
        };
    }
    o
}

/// urlspec's answer to a case, as the deviation list writes it, and the
/// peer's.
fn answer(spec: Spec, case: &Case) -> (String, String) {
    let or_error = |r: Option<String>| r.unwrap_or_else(|| "error".into());
    let peer = case.expected.clone().unwrap_or_else(|| "error".into());
    match case.kind.as_str() {
        "resolve" => {
            let r = Resolver::with_options(
                &case.base,
                spec,
                options(&case.id, &case.options),
            );
            (or_error(r.resolve(&case.reference).ok().map(|r| r.href)), peer)
        }
        // The peer's relative reference must denote the target: the answer
        // compared is what it resolves to.
        "relativize" => {
            let r = Resolver::new(&case.base, spec);
            let back = r.resolve(&peer).ok().map(|r| r.href);
            // urlspec's own relative reference resolves to the target too.
            let ours = make_relative(&case.base, &case.target, spec)
                .unwrap_or_else(|| {
                    panic!("{}: make_relative gave none", case.id)
                });
            assert_eq!(
                r.resolve(&ours).unwrap().href,
                case.target,
                "{}",
                case.id
            );
            (or_error(back), case.target.clone())
        }
        // A null base: the URL Standard's parser alone, and a resolver with
        // an empty base must give the same.
        "parse" => {
            let parsed =
                urlspec::whatwg::parse(&case.input, None).ok().map(|c| c.href);
            let resolved = Resolver::new("", spec)
                .resolve(&case.input)
                .ok()
                .map(|r| r.href);
            assert_eq!(parsed, resolved, "{}: the empty base", case.id);
            assert_eq!(case.failure, case.expected.is_none(), "{}", case.id);
            (or_error(parsed), peer)
        }
        other => panic!("{}: unknown kind {other}", case.id),
    }
}

fn run(
    file: &str,
    deviations: &BTreeMap<String, Deviation>,
    seen: &mut BTreeSet<String>,
) {
    let suite: Suite = load(&format!("{file}.toml"));
    let s = &suite.source;
    assert!(
        !s.repository.is_empty()
            && s.commit.len() >= 7
            && !s.licence.is_empty()
    );
    let spec = common::specs(&[&s.spec])[0];
    let mut failures = Vec::new();
    let (mut agree, mut listed) = (0, 0);
    for case in &suite.case {
        let id = format!("{file}/{}", case.id);
        let (ours, peer) = answer(spec, case);
        match deviations.get(&id) {
            Some(d) => {
                seen.insert(id.clone());
                listed += 1;
                if ours == peer {
                    failures.push(format!("{id}: listed, but urlspec now agrees ({ours})"));
                } else if ours != d.urlspec {
                    failures.push(format!("{id}: urlspec gives {ours:?}, listed {:?}", d.urlspec));
                }
                if !d.peer_options.is_empty() {
                    let named = case.options.iter().chain(&d.peer_options);
                    let r = Resolver::with_options(&case.base, spec, options(&id, named));
                    let with = r.resolve(&case.reference).map(|r| r.href);
                    if with.as_deref() != Ok(peer.as_str()) {
                        failures.push(format!("{id}: peer_options give {with:?}, not {peer:?}"));
                    }
                }
            }
            None if ours == peer => agree += 1,
            None => failures.push(format!(
                "{id}: urlspec {ours:?}, {} {peer:?} (base {:?}, reference {:?})",
                s.repository,
                case.base,
                if case.kind == "parse" { &case.input } else { &case.reference }
            )),
        }
    }
    eprintln!(
        "{file}: {agree} agree, {listed} listed deviations, {} cases",
        suite.case.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn deviations() -> BTreeMap<String, Deviation> {
    let list: Deviations = load("deviations.toml");
    let mut map = BTreeMap::new();
    for d in list.deviation {
        assert!(
            ["urlspec", "peer", "both"].contains(&d.follows_text.as_str()),
            "{}: follows_text",
            d.id
        );
        assert!(!d.clause.is_empty() && !d.peer.is_empty(), "{}", d.id);
        assert!(
            map.insert(d.id.clone(), d).is_none(),
            "a deviation listed twice"
        );
    }
    map
}

#[test]
fn peer_suites() {
    let deviations = deviations();
    let mut seen = BTreeSet::new();
    let mut failed = Vec::new();
    let mut files = vec!["uriparser", "go-net-url"];
    // The URL Standard's parser is the `whatwg` feature (on in the
    // workspace's builds, through urlspec-cli).
    if urlspec::whatwg::available() {
        files.push("wpt-null-base");
    } else {
        eprintln!("notice: wpt-null-base needs the `whatwg` feature; not run");
        seen.extend(
            deviations.keys().filter(|id| id.starts_with("wpt-")).cloned(),
        );
    }
    for file in files {
        if let Err(e) = std::panic::catch_unwind(|| {
            let mut own = BTreeSet::new();
            run(file, &deviations, &mut own);
            own
        })
        .map(|own| seen.extend(own))
        {
            failed.push(format!("{file}: {e:?}"));
        }
    }
    assert!(failed.is_empty(), "suites failed: {}", failed.len());
    let stale: Vec<_> =
        deviations.keys().filter(|id| !seen.contains(*id)).collect();
    assert!(stale.is_empty(), "deviations of no case: {stale:?}");
}
