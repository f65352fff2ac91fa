//! Runs every case of `testdata/` (see `testdata/README.md` for the format).
//!
//! Each test collects all failing cases and reports them together, so one
//! run shows everything that disagrees with the specs. A case marked `xfail`
//! must fail: when it starts to pass, the run fails, so the list of expected
//! failures cannot go stale.

use std::collections::BTreeMap;

use crate::common;

use common::{specs, testdata};
use serde::Deserialize;
use urlspec::escape::{self, Component};
use urlspec::resolve::{
    self, DotDotAboveRoot, Options, Resolver, Rfc1630Dots, RootlessDots,
};
use urlspec::server::HostKind;
use urlspec::{Reference, Spec};

fn load<T: for<'de> Deserialize<'de>>(rel: &str) -> T {
    let path = testdata().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(testdata().join(dir))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    names.sort();
    names
}

/// Collects failures; panics with all of them at the end.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    passed: usize,
}

impl Report {
    fn check(
        &mut self,
        id: &str,
        xfail: Option<&str>,
        problem: Option<String>,
    ) {
        match (problem, xfail) {
            (None, None) => self.passed += 1,
            (Some(_), Some(_)) => self.passed += 1,
            (Some(p), None) => self.failures.push(format!("{id}: {p}")),
            (None, Some(why)) => self.failures.push(format!(
                "{id}: passes but is listed as an expected failure ({why})"
            )),
        }
    }

    fn finish(self, what: &str) {
        assert!(self.passed > 0, "{what}: no case ran");
        if !self.failures.is_empty() {
            panic!(
                "{what}: {} of {} cases failed:\n{}",
                self.failures.len(),
                self.failures.len() + self.passed,
                self.failures.join("\n")
            );
        }
        eprintln!("{what}: {} cases passed", self.passed);
    }
}

/// `valid = true` or `valid = { spec = bool, … }`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Validity {
    All(bool),
    Per(BTreeMap<String, bool>),
}

impl Validity {
    fn pairs(&self, default_specs: &[Spec]) -> Vec<(Spec, bool)> {
        match self {
            Validity::All(v) => {
                default_specs.iter().map(|s| (*s, *v)).collect()
            }
            Validity::Per(map) => map
                .iter()
                .flat_map(|(k, v)| {
                    specs(std::slice::from_ref(k))
                        .into_iter()
                        .map(move |s| (s, *v))
                })
                .collect(),
        }
    }
}

fn check_validity(spec: Spec, input: &str, want: bool) -> Option<String> {
    let r = Reference::parse_with(input, spec);
    let v = r.violations();
    (v.is_empty() != want).then(|| {
        let why: Vec<String> = v
            .iter()
            .map(|v| format!("{}@{} {}", v.rule, v.position, v))
            .collect();
        format!("{spec}: valid should be {want}; violations: {why:?}")
    })
}

#[derive(Deserialize)]
struct ParseFile {
    case: Vec<ParseCase>,
}

#[derive(Deserialize)]
struct ParseCase {
    id: String,
    input: String,
    specs: Vec<String>,
    scheme: Option<String>,
    net_loc: Option<String>,
    path: String,
    params: Option<String>,
    query: Option<String>,
    fragment: Option<String>,
    valid: Option<Validity>,
    kind: Option<String>,
    authority_kind: Option<String>,
    user: Option<String>,
    password: Option<String>,
    host: Option<String>,
    port: Option<String>,
    host_kind: Option<String>,
    xfail: Option<String>,
}

fn diff<T: PartialEq + std::fmt::Debug>(
    name: &str,
    got: T,
    want: T,
    out: &mut Vec<String>,
) {
    if got != want {
        out.push(format!("{name}: got {got:?}, want {want:?}"));
    }
}

#[test]
fn parse() {
    let mut report = Report::default();
    for file in files("parse") {
        let data: ParseFile = load(&file);
        for c in &data.case {
            let specs = specs(&c.specs);
            for &spec in &specs {
                let r = Reference::parse_with(&c.input, spec);
                let mut p = Vec::new();
                diff("scheme", r.scheme(), c.scheme.as_deref(), &mut p);
                diff("net_loc", r.net_loc(), c.net_loc.as_deref(), &mut p);
                diff("path", r.path(), &c.path, &mut p);
                diff("params", r.params(), c.params.as_deref(), &mut p);
                diff("query", r.query(), c.query.as_deref(), &mut p);
                diff("fragment", r.fragment(), c.fragment.as_deref(), &mut p);
                diff(
                    "recompose",
                    r.recompose().as_str(),
                    c.input.as_str(),
                    &mut p,
                );
                if let Some(kind) = &c.kind {
                    let got = format!("{:?}", r.kind()).to_lowercase();
                    diff("kind", got.as_str(), kind.as_str(), &mut p);
                }
                if let Some(ak) = &c.authority_kind {
                    let got = r.server().map(|s| match s.kind() {
                        urlspec::server::AuthorityKind::Server => "server",
                        urlspec::server::AuthorityKind::RegName => "reg_name",
                    });
                    diff("authority_kind", got, Some(ak.as_str()), &mut p);
                }
                let server_stated = c.user.is_some()
                    || c.host.is_some()
                    || c.port.is_some()
                    || c.host_kind.is_some();
                if server_stated || c.authority_kind.is_some() {
                    let s = r.server();
                    diff(
                        "user",
                        s.and_then(|s| s.user()),
                        c.user.as_deref(),
                        &mut p,
                    );
                    diff(
                        "password",
                        s.and_then(|s| s.password()),
                        c.password.as_deref(),
                        &mut p,
                    );
                    diff(
                        "host",
                        s.and_then(|s| s.host()),
                        c.host.as_deref(),
                        &mut p,
                    );
                    diff(
                        "port",
                        s.and_then(|s| s.port()),
                        c.port.as_deref(),
                        &mut p,
                    );
                    if let Some(hk) = &c.host_kind {
                        let got = s.map(|s| s.host_kind().name());
                        diff("host_kind", got, Some(hk.as_str()), &mut p);
                    }
                }
                if let Some(valid) = &c.valid {
                    for (vs, want) in valid.pairs(&[spec]) {
                        if vs == spec {
                            p.extend(check_validity(spec, &c.input, want));
                        }
                    }
                }
                let problem = (!p.is_empty()).then(|| {
                    format!("{spec} {:?}: {}", c.input, p.join("; "))
                });
                report.check(&c.id, c.xfail.as_deref(), problem);
            }
        }
    }
    report.finish("parse");
}

#[derive(Deserialize)]
struct ServerFile {
    case: Vec<ServerCase>,
}

#[derive(Deserialize)]
struct ServerCase {
    id: String,
    input: String,
    #[serde(default)]
    specs: Vec<String>,
    user: Option<String>,
    password: Option<String>,
    host: Option<String>,
    port: Option<String>,
    host_kind: Option<String>,
    valid: Option<Validity>,
    host_valid: Option<BTreeMap<String, bool>>,
    xfail: Option<String>,
}

#[test]
fn server() {
    let mut report = Report::default();
    for file in files("server") {
        let data: ServerFile = load(&file);
        for c in &data.case {
            let mut p = Vec::new();
            if let Some(hv) = &c.host_valid {
                for (name, want) in hv {
                    for spec in specs(std::slice::from_ref(name)) {
                        let url = format!("http://{}/", c.input);
                        let r = Reference::parse_with(&url, spec);
                        let kind = r.server().map(|s| s.host_kind());
                        let ok = !matches!(
                            kind,
                            Some(HostKind::Invalid | HostKind::Empty) | None
                        );
                        if ok != *want {
                            p.push(format!("{spec}: host valid = {ok:?} ({kind:?}), want {want}"));
                        }
                    }
                }
            } else {
                for spec in specs(&c.specs) {
                    let r = Reference::parse_with(&c.input, spec);
                    let s = r.server();
                    let mut q = Vec::new();
                    diff(
                        "user",
                        s.and_then(|s| s.user()),
                        c.user.as_deref(),
                        &mut q,
                    );
                    diff(
                        "password",
                        s.and_then(|s| s.password()),
                        c.password.as_deref(),
                        &mut q,
                    );
                    if c.host.is_some() {
                        diff(
                            "host",
                            s.and_then(|s| s.host()),
                            c.host.as_deref(),
                            &mut q,
                        );
                    }
                    if c.port.is_some() || c.host.is_some() {
                        diff(
                            "port",
                            s.and_then(|s| s.port()),
                            c.port.as_deref(),
                            &mut q,
                        );
                    }
                    if let Some(hk) = &c.host_kind {
                        let got = s.map(|s| s.host_kind().name());
                        diff("host_kind", got, Some(hk.as_str()), &mut q);
                    }
                    p.extend(q.into_iter().map(|e| format!("{spec}: {e}")));
                }
                if let Some(valid) = &c.valid {
                    let default = specs(&c.specs);
                    for (spec, want) in valid.pairs(&default) {
                        p.extend(check_validity(spec, &c.input, want));
                    }
                }
            }
            let problem = (!p.is_empty())
                .then(|| format!("{:?}: {}", c.input, p.join("; ")));
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
    }
    report.finish("server");
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CharsFile {
    validity: Vec<ValidityCase>,
    escape: Vec<EscapeCase>,
    unescape: Vec<UnescapeCase>,
    form: Vec<FormCase>,
    same_path: Vec<SamePathCase>,
}

#[derive(Deserialize)]
struct ValidityCase {
    id: String,
    input: String,
    valid: Validity,
    xfail: Option<String>,
}

#[derive(Deserialize)]
struct EscapeCase {
    id: String,
    specs: Vec<String>,
    component: String,
    data: String,
    expected: String,
    xfail: Option<String>,
}

#[derive(Deserialize)]
struct UnescapeCase {
    id: String,
    input: String,
    expected: Option<String>,
    expected_hex: Option<String>,
    error_at: Option<usize>,
    xfail: Option<String>,
}

#[derive(Deserialize)]
struct FormCase {
    id: String,
    data: String,
    expected: String,
    xfail: Option<String>,
}

#[derive(Deserialize)]
struct SamePathCase {
    id: String,
    a: String,
    b: String,
    equal: bool,
    xfail: Option<String>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The unescaped octets of each segment of a path: an escaped `/` stays
/// inside its segment.
fn segment_octets(url: &str) -> Vec<Vec<u8>> {
    let r = Reference::parse(url);
    r.path()
        .split('/')
        .map(|s| escape::unescape(s).unwrap().into_owned())
        .collect()
}

#[test]
fn chars() {
    let mut report = Report::default();
    for file in files("chars") {
        let data: CharsFile = load(&file);
        for c in &data.validity {
            let p: Vec<String> = c
                .valid
                .pairs(&Spec::IETF)
                .into_iter()
                .filter_map(|(spec, want)| {
                    check_validity(spec, &c.input, want)
                })
                .collect();
            let problem = (!p.is_empty())
                .then(|| format!("{:?}: {}", c.input, p.join("; ")));
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
        for c in &data.escape {
            let component: Component = c.component.parse().unwrap();
            let mut p = Vec::new();
            for spec in specs(&c.specs) {
                let got = escape::escape(&c.data, component, spec);
                if got != c.expected {
                    p.push(format!(
                        "{spec}: got {got:?}, want {:?}",
                        c.expected
                    ));
                }
                let back = escape::unescape(&got).map(|b| b.into_owned());
                if back.as_deref() != Ok(c.data.as_bytes()) {
                    p.push(format!("{spec}: {got:?} does not unescape back"));
                }
            }
            report.check(
                &c.id,
                c.xfail.as_deref(),
                (!p.is_empty()).then(|| p.join("; ")),
            );
        }
        for c in &data.unescape {
            let got = escape::unescape(&c.input);
            let problem = match (&got, c.error_at) {
                (Err(e), Some(at)) if e.position == at => None,
                (got, Some(at)) => {
                    Some(format!("got {got:?}, want an error at {at}"))
                }
                (Ok(bytes), None) => {
                    let want_hex =
                        c.expected_hex.clone().unwrap_or_else(|| {
                            hex(c.expected.as_deref().unwrap_or("").as_bytes())
                        });
                    (hex(bytes) != want_hex.to_lowercase()).then(|| {
                        format!("got {}, want {want_hex}", hex(bytes))
                    })
                }
                (Err(e), None) => Some(format!("unexpected error {e}")),
            };
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
        for c in &data.form {
            let got = escape::escape_form(&c.data);
            let mut problem = (got != c.expected)
                .then(|| format!("got {got:?}, want {:?}", c.expected));
            let back = escape::unescape_form(&got).map(|b| b.into_owned());
            if back.as_deref() != Ok(c.data.as_bytes()) {
                problem = Some(format!(
                    "{got:?} does not decode back to {:?}",
                    c.data
                ));
            }
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
        for c in &data.same_path {
            let equal = segment_octets(&c.a) == segment_octets(&c.b);
            let problem = (equal != c.equal)
                .then(|| format!("equal = {equal}, want {}", c.equal));
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
    }
    report.finish("chars");
}

#[derive(Deserialize)]
struct ResolveFile {
    spec: String,
    base: String,
    #[serde(default)]
    case: Vec<ResolveCase>,
    #[serde(default)]
    remove_dot_segments: Vec<RdsCase>,
}

#[derive(Deserialize)]
struct ResolveCase {
    id: String,
    input: String,
    base: Option<String>,
    expected: Option<String>,
    error: Option<String>,
    same_document: Option<bool>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    xfail: Option<String>,
}

#[derive(Deserialize)]
struct RdsCase {
    id: String,
    input: String,
    expected: String,
    xfail: Option<String>,
}

fn options(map: &BTreeMap<String, toml::Value>) -> Options {
    let mut o = Options::default();
    for (k, v) in map {
        let s = v.as_str().unwrap_or("");
        let b = v.as_bool().unwrap_or(false);
        o = match k.as_str() {
            "strict" => o.strict(b),
            "same_scheme_is_relative" => o.same_scheme_is_relative(b),
            "fix_pathless_base" => o.fix_pathless_base(b),
            "dotdot_above_root" => o.dotdot_above_root(match s {
                "keep" => DotDotAboveRoot::Keep,
                "remove" => DotDotAboveRoot::Remove,
                "error" => DotDotAboveRoot::Error,
                _ => panic!("dotdot_above_root = {s}"),
            }),
            "rfc1630_dots" => o.rfc1630_dots(match s {
                "literal" => Rfc1630Dots::Literal,
                "like1808" => Rfc1630Dots::Like1808,
                _ => panic!("rfc1630_dots = {s}"),
            }),
            "rootless_dots" => o.rootless_dots(match s {
                "literal" => RootlessDots::Literal,
                "keep_rootless" => RootlessDots::KeepRootless,
                _ => panic!("rootless_dots = {s}"),
            }),
            other => panic!("unknown option {other}"),
        };
    }
    o
}

#[test]
fn resolution() {
    let mut report = Report::default();
    for file in files("resolve") {
        let data: ResolveFile = load(&file);
        let spec: Spec = data.spec.parse().unwrap();
        for c in &data.case {
            let base = c.base.as_deref().unwrap_or(&data.base);
            let resolver =
                Resolver::with_options(base, spec, options(&c.options));
            let got = resolver.resolve(&c.input);
            let mut p = Vec::new();
            match (&got, &c.expected, &c.error) {
                (Ok(r), Some(want), None) => {
                    if &r.href != want {
                        p.push(format!("got {:?}, want {want:?}", r.href));
                    }
                    if let Some(sd) = c.same_document {
                        if r.outcome.same_document != sd {
                            p.push(format!(
                                "same_document = {}, want {sd}",
                                r.outcome.same_document
                            ));
                        }
                    }
                }
                (Err(e), None, Some(kind)) if e.kind() == kind => {}
                (got, want, err) => {
                    p.push(format!(
                        "got {got:?}, want {want:?} / error {err:?}"
                    ));
                }
            }
            let problem = (!p.is_empty()).then(|| {
                format!(
                    "{spec} base {base:?} ref {:?}: {}",
                    c.input,
                    p.join("; ")
                )
            });
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
        for c in &data.remove_dot_segments {
            let got = resolve::remove_dot_segments(&c.input);
            let problem = (got != c.expected)
                .then(|| format!("got {got:?}, want {:?}", c.expected));
            report.check(&c.id, c.xfail.as_deref(), problem);
        }
    }
    report.finish("resolution");
}

#[test]
fn expected_failures_cannot_go_stale() {
    // A case listed as an expected failure that passes is itself a failure,
    // and one that fails as expected is not.
    let mut report = Report::default();
    report.check("stale", Some("was broken"), None);
    report.check("still-broken", Some("is broken"), Some("wrong".into()));
    assert_eq!(report.failures.len(), 1);
    assert!(report.failures[0].starts_with("stale: passes but is listed"));
    assert_eq!(report.passed, 1);
}
