//! `diff`: the seed specs' disagreement table (testdata/diff), the
//! host-confusion examples, and a corpus run that counts disagreements per
//! spec pair.

use std::collections::BTreeMap;

use serde::Deserialize;
use urlspec::diff::{compare, compare_resolution, Cell, Column, NoUrl};
use urlspec::resolve::ResolveError;
use urlspec::Spec;
use urlspec_test_support::paths;

#[derive(Deserialize)]
struct Table {
    base: String,
    row: Vec<Row>,
    parse: ParseRow,
}

#[derive(Deserialize)]
struct Row {
    input: String,
    base: Option<String>,
    why: String,
    rfc1630: String,
    draft04: String,
    rfc1808: String,
    draft96: String,
}

#[derive(Deserialize)]
struct ParseRow {
    input: String,
    rfc1630: BTreeMap<String, toml::Value>,
    draft04: BTreeMap<String, toml::Value>,
    rfc1808: BTreeMap<String, toml::Value>,
    draft96: BTreeMap<String, toml::Value>,
}

const SEEDS: [Spec; 4] =
    [Spec::Rfc1630, Spec::Draft04, Spec::Rfc1808, Spec::Draft96];

fn table() -> Table {
    let path = paths::testdata().join("diff/spec-5.7.toml");
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn spec_5_7_resolution_rows() {
    let t = table();
    for row in &t.row {
        let base = row.base.as_deref().unwrap_or(&t.base);
        let c = compare_resolution(base, &row.input, &SEEDS);
        let want = [&row.rfc1630, &row.draft04, &row.rfc1808, &row.draft96];
        for (r, want) in c.rows.iter().zip(want) {
            assert_eq!(
                r.cells[0].as_deref(),
                Some(want.as_str()),
                "{:?} {}",
                row.input,
                r.spec
            );
        }
        // The specs are grouped by their answers, and every difference is
        // explained.
        let distinct = {
            let mut w: Vec<&String> = want.to_vec();
            w.sort();
            w.dedup();
            w.len()
        };
        match c.differences.as_slice() {
            [] => assert_eq!(distinct, 1),
            [d] => {
                assert_eq!(d.groups.len(), distinct, "{:?}", row.input);
                assert!(!d.explanations.is_empty());
                // Only a different scheme, host or port makes it a
                // security matter: `//g` (host `g` or none) and the scheme
                // rows do; dot segments and fragments do not.
                let moves = ["http:g", "http:", "a@b:c", "1x:y", "//g"];
                assert_eq!(
                    d.security,
                    moves.contains(&row.input.as_str()),
                    "{}",
                    row.why
                );
            }
            _ => panic!("one column only"),
        }
    }
}

#[test]
fn spec_5_7_parse_row() {
    let t = table();
    let c = compare(&t.parse.input, &SEEDS);
    let wants = [
        &t.parse.rfc1630,
        &t.parse.draft04,
        &t.parse.rfc1808,
        &t.parse.draft96,
    ];
    for (row, want) in c.rows.iter().zip(wants) {
        for (key, value) in want {
            if key == "valid" {
                assert_eq!(Some(row.valid), value.as_bool(), "{}", row.spec);
                continue;
            }
            let i =
                c.columns.iter().position(|col| col.name() == key).unwrap();
            assert_eq!(
                row.cells[i].as_deref(),
                value.as_str(),
                "{} {key}",
                row.spec
            );
        }
    }
    let host =
        c.differences.iter().find(|d| d.column == Column::Host).unwrap();
    assert!(host.security);
    assert!(
        host.explanations[0].starts_with("the net_loc ends at"),
        "{:?}",
        host.explanations
    );
}

#[test]
fn host_confusion() {
    // Inputs that send a request to different hosts depending on the spec.
    for input in ["http://a?q", "http://a@b@c/", "http://a?@b/"] {
        let c = compare(input, &Spec::IETF);
        assert!(c.is_security_relevant(), "{input}: {:?}", c.differences);
    }
    // Under the WHATWG standard `\` ends the host of a special URL.
    if Spec::Whatwg.is_available() {
        let c = compare("http://a\\@b/", &Spec::IETF_AND_WHATWG);
        let host =
            c.differences.iter().find(|d| d.column == Column::Host).unwrap();
        assert!(host
            .explanations
            .iter()
            .any(|e| e.starts_with("a backslash is")));
    }
}

#[test]
fn a_spec_without_a_url_answers_with_its_typed_error() {
    // Without a base RFC 1808 takes `g` as absolute; RFC 3986 has none.
    let c = compare_resolution("", "g", &[Spec::Rfc1808, Spec::Rfc3986]);
    let no_base = NoUrl::Resolve(ResolveError::NoBase);
    assert_eq!(c.rows[1].error, Some(no_base.clone()));
    let d = &c.differences[0];
    assert_eq!(d.column, Column::Result);
    assert_eq!(d.groups[0].0, Cell::Value(Some("g".into())));
    assert_eq!(d.groups[1].0, Cell::Error(no_base));
    assert_eq!(d.groups[1].0.value(), None);
    // The WHATWG parser gives no URL for a relative reference: the cell of
    // the outcome is its failure, with the byte and state it stopped at.
    if Spec::Whatwg.is_available() {
        let c = compare("a/b", &[Spec::Rfc3986, Spec::Whatwg]);
        let outcome =
            c.differences.iter().find(|d| d.column == Column::Outcome);
        let groups = &outcome.unwrap().groups;
        assert_eq!(groups[0].0, Cell::Value(Some("a URL".into())));
        let Cell::Error(error @ NoUrl::Parse(failure)) = &groups[1].0 else {
            panic!("{groups:?}")
        };
        assert_eq!(c.rows[1].error.as_ref(), Some(error));
        assert_eq!(error.position(), Some(failure.position));
        assert_eq!(error.to_string(), failure.to_string());
        // A parse error is never a cell of a component.
        assert!(c
            .differences
            .iter()
            .filter(|d| d.column != Column::Outcome)
            .all(|d| d
                .groups
                .iter()
                .all(|(c, _)| matches!(c, Cell::Value(_)))));
    }
}

/// Disagreements per spec pair over the URL corpora: printed (run with
/// `--nocapture`), and bounded below so a regression that makes every spec
/// agree (or none) shows.
#[test]
fn corpus_disagreements() {
    let dir = paths::urls();
    let Ok(text) = std::fs::read_to_string(dir.join("kasztp.txt")) else {
        eprintln!("notice: corpus not found; skipped");
        return;
    };
    let specs = Spec::IETF;
    let mut pairs = BTreeMap::new();
    let mut total = 0;
    for url in text.lines().filter(|l| !l.is_empty()).take(20_000) {
        total += 1;
        let c = compare(url, &specs);
        for (i, a) in c.rows.iter().enumerate() {
            for b in &c.rows[i + 1..] {
                if a.cells != b.cells {
                    *pairs
                        .entry((a.spec.name(), b.spec.name()))
                        .or_insert(0) += 1;
                }
            }
        }
    }
    eprintln!("{total} URLs of kasztp.txt; pairs of specs that split them differently:");
    for ((a, b), n) in &pairs {
        eprintln!("  {a:>10} / {b:<10} {n}");
    }
    // RFC 1808 and RFC 3986 split real web URLs differently when a query
    // follows the host directly, or params end the path.
    assert!(pairs.get(&("rfc1808", "rfc3986")).copied().unwrap_or(0) > 0);
    assert!(pairs.len() < specs.len() * (specs.len() - 1) / 2 + 1);
}
