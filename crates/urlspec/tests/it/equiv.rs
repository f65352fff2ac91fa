//! Runs `testdata/equiv/*.toml` (format in the header of `vectors.toml`),
//! and property tests: `normalize` is idempotent; `equivalent` is
//! reflexive, symmetric and transitive; URLs made equivalent by
//! construction normalize identically and hash alike.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};

use proptest::prelude::*;
use serde::Deserialize;
use urlspec::equiv::{
    equivalent, normalize, Level, NormalizedUrl, NotComparable, Options,
};
use urlspec::Spec;

fn specs(name: &str) -> Vec<Spec> {
    common::specs(&[name])
}

/// `{ key = value }` with group keys expanded; later keys win.
fn per_spec<T: Clone>(map: &[(String, T)]) -> BTreeMap<Spec, T> {
    let mut out = BTreeMap::new();
    // Groups first, so that a single spec overrides its group.
    let mut keys: Vec<&(String, T)> = map.iter().collect();
    keys.sort_by_key(|(k, _)| !matches!(k.as_str(), "all" | "seed1808"));
    for (k, v) in keys {
        for s in specs(k) {
            out.insert(s, v.clone());
        }
    }
    out
}

#[derive(Deserialize)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize, Default)]
struct Opts {
    default_port: Option<bool>,
    include_fragment: Option<bool>,
    host_case: Option<bool>,
    level: Option<String>,
}

impl Opts {
    fn build(&self) -> Options {
        let mut o = Options::default();
        if let Some(v) = self.default_port {
            o = o.default_port(v);
        }
        if let Some(v) = self.include_fragment {
            o = o.include_fragment(v);
        }
        if let Some(v) = self.host_case {
            o = o.host_case(v);
        }
        if let Some(l) = &self.level {
            o = o.level(l.parse::<Level>().unwrap());
        }
        o
    }
}

#[derive(Deserialize)]
struct Case {
    id: String,
    a: String,
    b: String,
    #[serde(default)]
    equivalent: toml::Table,
    #[serde(default)]
    error: bool,
    specs: Option<Vec<String>>,
    #[serde(default)]
    normal: toml::Table,
    #[serde(default)]
    options: Opts,
}

fn table<T>(
    t: &toml::Table,
    f: impl Fn(&toml::Value) -> T,
) -> Vec<(String, T)> {
    t.iter().map(|(k, v)| (k.clone(), f(v))).collect()
}

#[test]
fn vectors() {
    let text =
        std::fs::read_to_string(common::testdata().join("equiv/vectors.toml"))
            .unwrap();
    let data: File = toml::from_str(&text).unwrap();
    let (mut passed, mut failures) = (0, Vec::new());
    for c in &data.case {
        let o = c.options.build();
        let mut p = Vec::new();
        if c.error {
            let names = c.specs.clone().unwrap_or_else(|| vec!["all".into()]);
            for spec in names.iter().flat_map(|n| specs(n)) {
                match equivalent(&c.a, &c.b, spec, &o) {
                    Err(NotComparable { position, .. })
                        if c.a.as_bytes()[position] == b'%' =>
                    {
                        passed += 1
                    }
                    other => {
                        p.push(format!("{spec}: want an error, got {other:?}"))
                    }
                }
                match equivalent(&c.b, &c.a, spec, &o) {
                    Err(_) => {}
                    other => p.push(format!("{spec} (b, a): got {other:?}")),
                }
            }
        }
        let eq = per_spec(&table(&c.equivalent, |v| v.as_bool().unwrap()));
        for (&spec, &want) in &eq {
            match equivalent(&c.a, &c.b, spec, &o) {
                Ok(got) if got == want => passed += 1,
                got => {
                    let na = normalize(&c.a, spec, &o);
                    let nb = normalize(&c.b, spec, &o);
                    p.push(format!(
                        "{spec}: want {want}, got {got:?} ({na:?} vs {nb:?})"
                    ))
                }
            }
        }
        let normal =
            per_spec(&table(&c.normal, |v| v.as_str().unwrap().to_string()));
        for (&spec, want) in &normal {
            let got = normalize(&c.a, spec, &o);
            if got.as_deref() != Ok(want.as_str()) {
                p.push(format!(
                    "{spec}: normalize(a) = {got:?}, want {want:?}"
                ));
            }
            if eq.get(&spec) == Some(&true) {
                let got = normalize(&c.b, spec, &o);
                if got.as_deref() != Ok(want.as_str()) {
                    p.push(format!(
                        "{spec}: normalize(b) = {got:?}, want {want:?}"
                    ));
                }
            }
        }
        if !p.is_empty() {
            failures.push(format!(
                "{} {:?} {:?}: {}",
                c.id,
                c.a,
                c.b,
                p.join("; ")
            ));
        }
    }
    assert!(passed > 0);
    assert!(
        failures.is_empty(),
        "{} equivalence cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("equiv: {passed} checks passed");
}

#[test]
fn not_comparable_is_an_error_not_false() {
    let o = Options::default();
    for spec in Spec::IETF {
        let e =
            equivalent("http://a/%zz", "http://a/%zz", spec, &o).unwrap_err();
        assert_eq!(e.position, 9);
        assert!(e.to_string().contains("Example 3"));
        assert!(NormalizedUrl::new("http://a/50%", spec, &o).is_err());
    }
}

#[test]
fn equivalent_urls_hash_alike() {
    let o = Options::default();
    let state = RandomState::new();
    let urls = [
        "http://info.cern.ch/albert/bertram/marie-claude",
        "HTTP://info.cern.ch:80/albert/bertram/marie%2Dclaude",
        "http://info.cern.ch:/albert/bertram/marie%2dclaude#x",
    ];
    for spec in Spec::IETF {
        let keys: Vec<NormalizedUrl> = urls
            .iter()
            .map(|u| NormalizedUrl::new(u, spec, &o).unwrap())
            .collect();
        let hashes: Vec<u64> =
            keys.iter().map(|k| state.hash_one(k)).collect();
        assert!(hashes.windows(2).all(|w| w[0] == w[1]), "{spec}: {keys:?}");
        let mut map: HashMap<NormalizedUrl, usize> = HashMap::new();
        for k in keys {
            *map.entry(k).or_default() += 1;
        }
        assert_eq!(map.len(), 1, "{spec}");
        assert_eq!(map.values().next(), Some(&3));
        let other = NormalizedUrl::new("http://info.cern.ch/albert", spec, &o);
        assert!(!map.contains_key(&other.unwrap()));
    }
}

#[test]
fn normalized_debug_redacts_the_password() {
    let o = Options::default();
    let n = NormalizedUrl::new("ftp://u:pw@h/f", Spec::Rfc3986, &o).unwrap();
    assert_eq!(n.as_str(), "ftp://u:pw@h/f");
    assert!(!format!("{n:?}").contains("pw@"));
}

fn any_spec() -> impl Strategy<Value = Spec> {
    prop::sample::select(Spec::IETF.to_vec())
}

fn any_options() -> impl Strategy<Value = Options> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(prop::sample::select(Level::ALL.to_vec())),
    )
        .prop_map(|(port, frag, host, level)| {
            let o = Options::default()
                .default_port(port)
                .include_fragment(frag)
                .host_case(host);
            level.map_or(o, |level| o.level(level))
        })
}

/// Strings dense in delimiters, escapes (valid, invalid, of dots and of
/// reserved characters), case, and non-ASCII.
fn url_like() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "http:", "HTTP:", "ftp:", "mailto:", "foo:", "url:", "x:", "//", "/",
        "?", "#", ";", ":", "@", ".", "..", "a", "B", "~", "+", "=", "&",
        "%2E", "%2e", "%41", "%7e", "%7E", "%2F", "%3A", "%3a", "%25", "%40",
        "%2B", "%20", "%C3%A9", "%", "%4", " ", "é", "[", "]", "\\", "\"",
        "80", ":80", ":", "0", "-", "_", "!", "*", "'", "`", "{",
    ]);
    prop_oneof![
        prop::collection::vec(piece, 0..14).prop_map(|v| v.concat()),
        "[a-zA-Z0-9:/?#;@.%=+~ \\[\\]-]{0,24}",
        any::<String>(),
    ]
}

/// A mutation that keeps an http URL equivalent under every spec at the
/// default options: only alphanumerics are escaped (decodable in every
/// spec's every component, and RFC 2396 decodes for http), hex digits and
/// the scheme change case, the default port is added, the fragment changes.
#[derive(Clone, Debug)]
enum Mutation {
    EscapeAlnum(usize),
    FlipHex(usize),
    SchemeCase(usize),
    AddDefaultPort,
    Fragment(String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::EscapeAlnum),
        any::<usize>().prop_map(Mutation::FlipHex),
        any::<usize>().prop_map(Mutation::SchemeCase),
        Just(Mutation::AddDefaultPort),
        "[a-z]{0,3}".prop_map(Mutation::Fragment),
    ]
}

/// `http://host[:port]/path[?query][#fragment]` with escapes and the
/// characters the specs disagree on.
fn http_url() -> impl Strategy<Value = String> {
    let seg = prop::sample::select(vec![
        "a", "b0", "~u", "x+y", "%7e", "%41b", "c.d", "%2E", "%2F", "", "e;p",
        "f=g", "%c3%a9", "h_i", "-",
    ]);
    (
        "[a-z]{1,4}(\\.[a-z]{1,3}){0,2}",
        prop::option::of(prop::sample::select(vec!["8080", "80", "", "21"])),
        prop::collection::vec(seg, 0..4),
        prop::option::of("[a-z0-9=&+]{0,5}"),
        prop::option::of("[a-z]{0,3}"),
    )
        .prop_map(|(host, port, segs, query, frag)| {
            let mut s = format!("http://{host}");
            if let Some(p) = port {
                s.push(':');
                s.push_str(p);
            }
            s.push('/');
            s.push_str(&segs.join("/"));
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = frag {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

fn apply(url: &str, m: &Mutation) -> String {
    let b = url.as_bytes();
    let hash = url.find('#').unwrap_or(url.len());
    let after_scheme = "http://".len();
    match m {
        Mutation::EscapeAlnum(k) => {
            let idx: Vec<usize> = (after_scheme..hash)
                .filter(|&i| {
                    b[i].is_ascii_alphanumeric()
                        // not a hex digit of an existing escape
                        && !(i >= 1 && b[i - 1] == b'%')
                        && !(i >= 2 && b[i - 2] == b'%')
                })
                .collect();
            if idx.is_empty() {
                return url.to_string();
            }
            let i = idx[k % idx.len()];
            format!("{}%{:02x}{}", &url[..i], b[i], &url[i + 1..])
        }
        Mutation::FlipHex(k) => {
            let idx: Vec<usize> = (0..b.len().saturating_sub(2))
                .filter(|&i| b[i] == b'%')
                .collect();
            if idx.is_empty() {
                return url.to_string();
            }
            let i = idx[k % idx.len()];
            let mut s = url.as_bytes().to_vec();
            for c in &mut s[i + 1..i + 3] {
                *c = if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
            }
            String::from_utf8(s).unwrap()
        }
        Mutation::SchemeCase(k) => {
            let mut s = url.as_bytes().to_vec();
            let i = k % 4;
            s[i] = s[i].to_ascii_uppercase();
            String::from_utf8(s).unwrap()
        }
        Mutation::AddDefaultPort => {
            let host_end =
                url[after_scheme..].find('/').unwrap() + after_scheme;
            if url[after_scheme..host_end].contains(':') {
                url.to_string()
            } else {
                format!("{}:80{}", &url[..host_end], &url[host_end..])
            }
        }
        Mutation::Fragment(f) => format!("{}#{f}", &url[..hash]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn normalize_is_idempotent(
        input in url_like(),
        spec in any_spec(),
        o in any_options(),
    ) {
        match normalize(&input, spec, &o) {
            Ok(n) => prop_assert_eq!(normalize(&n, spec, &o), Ok(n.clone()), "{:?}", input),
            Err(e) => prop_assert!(input.as_bytes()[e.position] == b'%'),
        }
    }

    #[test]
    fn normalize_is_idempotent_on_http(
        input in http_url(),
        spec in any_spec(),
        o in any_options(),
    ) {
        let n = normalize(&input, spec, &o).unwrap();
        prop_assert_eq!(normalize(&n, spec, &o), Ok(n.clone()));
    }

    #[test]
    fn equivalence_is_reflexive_and_symmetric(
        a in url_like(),
        b in url_like(),
        spec in any_spec(),
        o in any_options(),
    ) {
        if let Ok(r) = equivalent(&a, &a, spec, &o) {
            prop_assert!(r);
        }
        let ab = equivalent(&a, &b, spec, &o).ok();
        let ba = equivalent(&b, &a, spec, &o).ok();
        prop_assert_eq!(ab, ba);
    }

    #[test]
    fn mutated_urls_are_equivalent_and_transitive(
        a in http_url(),
        m1 in prop::collection::vec(mutation(), 1..4),
        m2 in prop::collection::vec(mutation(), 1..4),
        spec in any_spec(),
    ) {
        let o = Options::default();
        let b = m1.iter().fold(a.clone(), |u, m| apply(&u, m));
        let c = m2.iter().fold(b.clone(), |u, m| apply(&u, m));
        prop_assert!(equivalent(&a, &b, spec, &o).unwrap(), "{} {} {}", spec, a, b);
        prop_assert!(equivalent(&b, &c, spec, &o).unwrap(), "{} {} {}", spec, b, c);
        // Transitivity, and equivalent URLs normalize identically.
        prop_assert!(equivalent(&a, &c, spec, &o).unwrap());
        let n = normalize(&a, spec, &o).unwrap();
        prop_assert_eq!(normalize(&b, spec, &o).unwrap(), n.clone());
        prop_assert_eq!(normalize(&c, spec, &o).unwrap(), n);
        let state = RandomState::new();
        let ka = NormalizedUrl::new(&a, spec, &o).unwrap();
        let kc = NormalizedUrl::new(&c, spec, &o).unwrap();
        prop_assert_eq!(state.hash_one(&ka), state.hash_one(&kc));
    }

    #[test]
    fn equivalence_is_transitive(
        a in http_url(),
        b in http_url(),
        c in http_url(),
        spec in any_spec(),
        o in any_options(),
    ) {
        let ab = equivalent(&a, &b, spec, &o).unwrap();
        let bc = equivalent(&b, &c, spec, &o).unwrap();
        if ab && bc {
            prop_assert!(equivalent(&a, &c, spec, &o).unwrap());
        }
        if ab {
            prop_assert_eq!(
                equivalent(&a, &c, spec, &o).unwrap(),
                equivalent(&b, &c, spec, &o).unwrap()
            );
        }
    }
}

#[test]
fn rfc1630_url_prefix_before_a_scheme_named_url_is_kept() {
    // Found by fuzzing: `url:` before a scheme that is itself `url` must
    // stay, or the normal form reads as a prefix and is not normal.
    let opts = Options::default();
    let once = normalize("uRl:uRl:uRl:AuRl:x", Spec::Rfc1630, &opts).unwrap();
    let twice = normalize(&once, Spec::Rfc1630, &opts).unwrap();
    assert_eq!(once, twice);
    // Elsewhere the prefix, no part of the URL, is dropped.
    let plain = normalize("URL:HTTP://a/b", Spec::Rfc1630, &opts).unwrap();
    assert_eq!(plain, "http://a/b");
}
