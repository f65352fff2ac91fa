//! Runs `testdata/scheme/*.toml` (see the header of `vectors.toml` for the
//! format) and checks the scheme views' API beyond the data.

use crate::common;

use common::{specs, testdata};
use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use urlspec::escape::WireErrorKind;
use urlspec::scheme::{
    self, default_port, view, Ftp, FtpCommand, FtpType, Gopher, MailIdKind,
    MessageId, SchemeView, DEFAULT_PORTS,
};
use urlspec::{Reference, Spec};

fn files(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(testdata().join(dir))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    out.sort();
    out
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    case: Vec<Case>,
    #[serde(default)]
    message_id: Vec<MessageIdCase>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Values {
    One(String),
    Many(Vec<String>),
}

impl Values {
    fn to_vec(&self) -> Vec<String> {
        match self {
            Values::One(s) => vec![s.clone()],
            Values::Many(v) => v.clone(),
        }
    }
}

#[derive(Deserialize)]
struct Case {
    id: String,
    input: String,
    specs: Option<Vec<String>>,
    view: String,
    strict: Option<bool>,
    #[serde(default)]
    violation_productions: Vec<String>,
    lenient: Option<Vec<String>>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    fields: BTreeMap<String, Values>,
}

#[derive(Deserialize)]
struct MessageIdCase {
    id: String,
    kind: String,
    header: String,
    url: String,
}

fn check_case(c: &Case, spec: Spec) -> Vec<String> {
    let mut p = Vec::new();
    let r = Reference::parse_with(&c.input, spec);
    let v = view(&r);
    if v.name() != c.view {
        p.push(format!("view: got {}, want {}", v.name(), c.view));
        return p;
    }
    let violations = v.violations();
    if let Some(strict) = c.strict {
        if violations.is_empty() != strict {
            let got: Vec<String> =
                violations.iter().map(|v| v.to_string()).collect();
            p.push(format!("strict should be {strict}; violations: {got:?}"));
        }
    }
    for prod in &c.violation_productions {
        if !violations.iter().any(|v| v.production == prod) {
            p.push(format!("no `{prod}` violation in {violations:?}"));
        }
    }
    let lenient = v.lenient();
    if let Some(want) = &c.lenient {
        if want.is_empty() && !lenient.is_empty() {
            p.push(format!("lenient readings: got {lenient:?}, want none"));
        }
        for w in want {
            if !lenient.iter().any(|l| l.contains(w.as_str())) {
                p.push(format!("no lenient reading with {w:?}: {lenient:?}"));
            }
        }
    }
    let fields = v.fields();
    for (name, want) in &c.fields {
        let got: Vec<String> = fields
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect();
        if got != want.to_vec() {
            p.push(format!("{name}: got {got:?}, want {:?}", want.to_vec()));
        }
    }
    for name in &c.absent {
        if let Some((_, v)) = fields.iter().find(|(k, _)| k == name) {
            p.push(format!("{name} should be absent, got {v:?}"));
        }
    }
    // Every violation lies inside the input.
    for v in &violations {
        if v.position > c.input.len() {
            p.push(format!("violation outside the input: {v}"));
        }
    }
    p
}

#[test]
fn vectors() {
    let mut failures = Vec::new();
    let mut passed = 0;
    for path in files("scheme") {
        let text = std::fs::read_to_string(&path).unwrap();
        let data: File = toml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for c in &data.case {
            let names = c.specs.clone().unwrap_or_else(|| vec!["all".into()]);
            for spec in specs(&names) {
                let p = check_case(c, spec);
                if p.is_empty() {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{} {spec} {:?}: {}",
                        c.id,
                        c.input,
                        p.join("; ")
                    ));
                }
            }
        }
        for m in &data.message_id {
            let kind = match m.kind.as_str() {
                "mid" => MailIdKind::Mid,
                "cid" => MailIdKind::Cid,
                k => panic!("{}: unknown kind {k}", m.id),
            };
            let url = kind.url(&m.header);
            let r = Reference::parse(&url);
            let header = MessageId::new(&r).header();
            if url == m.url && header == m.header {
                passed += 1;
            } else {
                failures.push(format!(
                    "{}: url {url:?} (want {:?}), header {header:?} (want \
                     {:?})",
                    m.id, m.url, m.header
                ));
            }
        }
    }
    assert!(passed > 0, "no case ran");
    assert!(
        failures.is_empty(),
        "{} scheme cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("scheme: {passed} cases passed");
}

#[test]
fn default_port_table() {
    assert_eq!(default_port("http").unwrap().0, 80);
    assert!(default_port("http").unwrap().1.in_seeds);
    for (scheme, port) in [
        ("ftp", 21),
        ("gopher", 70),
        ("nntp", 119),
        ("telnet", 23),
        ("wais", 210),
        ("prospero", 1525),
    ] {
        let (p, source) = default_port(scheme).unwrap();
        assert_eq!(p, port, "{scheme}");
        assert!(!source.in_seeds, "{scheme}");
        assert!(source.citation.starts_with("RFC 1738 §3."), "{scheme}");
        assert!(source.to_string().ends_with("(not a seed)"));
    }
    for none in ["file", "mailto", "news", "mid", "cid", "urn", "x-foo"] {
        assert_eq!(default_port(none), None, "{none}");
    }
    assert_eq!(DEFAULT_PORTS.len(), 10);
}

#[test]
fn views_borrow_from_the_input() {
    let input = String::from("ftp://h/pub/a%20b;type=i");
    let r = Reference::parse(&input);
    let ftp = Ftp::new(&r);
    let range = input.as_ptr() as usize..input.as_ptr() as usize + input.len();
    assert!(range.contains(&(ftp.path().as_ptr() as usize)));
    // Undecoded values borrow; decoded ones allocate only when needed.
    assert!(matches!(ftp.cwd()[0], std::borrow::Cow::Borrowed("pub")));
    assert!(matches!(ftp.target(), std::borrow::Cow::Owned(_)));
    assert_eq!(ftp.ftp_type(), Some(FtpType::Image));
}

#[test]
fn ftp_commands_refuse_escaped_line_ends() {
    let r = Reference::parse("ftp://h/a%0D%0ADELE%20x/f");
    let err = Ftp::new(&r).commands().unwrap_err();
    assert_eq!(err.kind, WireErrorKind::EscapedDelimiter { octet: b'\r' });
    assert_eq!(err.position, 9);
    let r = Reference::parse("ftp://h/d/");
    assert_eq!(
        Ftp::new(&r).commands().unwrap(),
        [FtpCommand::Cwd("d".into()), FtpCommand::Nlst(None)]
    );
}

#[test]
fn gopher_wire_command() {
    let r = Reference::parse("gopher://h/7srch%09term");
    assert_eq!(Gopher::new(&r).wire_command().unwrap(), &b"srch\tterm"[..]);
    let r = Reference::parse("gopher://h/0a%0D%0Ab");
    let e = Gopher::new(&r).wire_command().unwrap_err();
    assert_eq!(e.position, 13);
    let r = Reference::parse("gopher://h/1sel%09find%09+");
    let g = Gopher::new(&r);
    assert_eq!(g.gopher_plus().unwrap(), "+");
}

#[test]
fn unknown_schemes_keep_the_generic_syntax() {
    for spec in Spec::IETF {
        let r = Reference::parse_with("foo://u@a:9/b?c#d", spec);
        let v = view(&r);
        assert!(matches!(v, SchemeView::Generic(_)));
        assert_eq!(v.reference().query(), Some("c"));
        assert_eq!(v.login().unwrap().host(), "a");
        assert_eq!(v.port(), Some(9));
    }
    let r = Reference::parse("../g");
    assert_eq!(view(&r).name(), "generic");
}

#[test]
fn passwords_never_print() {
    let r = Reference::parse_with("ftp://joe:s3cret@h/f", Spec::Draft96);
    let v = view(&r);
    let shown = format!("{v} {v:?} {:?}", v.fields());
    let r2 = Reference::parse_with("http://joe:s3cret@h/", Spec::Rfc3986);
    let shown = format!("{shown} {}", view(&r2));
    assert!(!shown.contains("s3cret"), "{shown}");
    let SchemeView::Ftp(ftp) = v else { panic!() };
    let scheme::FtpPassword::Given(pw) = ftp.ftp_login().password else {
        panic!()
    };
    assert_eq!(pw.expose(), "s3cret");
}

#[test]
fn display_lists_fields() {
    let r = Reference::parse("news:comp.x");
    assert_eq!(
        view(&r).to_string(),
        "news: scheme=\"news\", group=\"comp.x\""
    );
}

#[test]
fn local_path_refusals() {
    use urlspec::scheme::{File, LocalPathError};
    let r = Reference::parse("file:///a%2Fb");
    assert_eq!(
        File::new(&r).to_local_path(),
        Err(LocalPathError::EncodedSeparator { position: 9 })
    );
    let r = Reference::parse("file:///a%00b");
    assert!(matches!(
        File::new(&r).to_local_path(),
        Err(LocalPathError::Nul { .. })
    ));
    let r = Reference::parse("file://LOCALHOST/x%20y");
    assert_eq!(File::new(&r).to_local_path().unwrap(), "/x y");
}
