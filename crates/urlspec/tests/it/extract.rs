//! The `extract` module: every TV-TXT vector (the 1996 draft, App. B) and the other
//! cases of `testdata/extract/vectors.toml`, the delimited URLs of the
//! seeds (`testdata/extract/seeds-expected.tsv`), property tests and
//! hostile inputs.

use crate::common;

use std::borrow::Cow;
use std::path::PathBuf;

use proptest::prelude::*;
use serde::Deserialize;
use urlspec::extract::{extract, Finder, Form, Found, LineIndex};
use urlspec::Spec;
use urlspec_test_support::paths;

fn testdata() -> PathBuf {
    paths::testdata().join("extract")
}

/// The seed texts, when this checkout sits next to them.
fn seeds_dir() -> Option<PathBuf> {
    let dir = paths::seeds();
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "notice: {} not found; skipping the checks over the seed texts",
            dir.display()
        );
        None
    }
}

fn form_name(form: Form) -> &'static str {
    form.name()
}

fn urls<'a>(found: &'a [Found<'_>]) -> Vec<&'a str> {
    found.iter().map(|f| f.as_str()).collect()
}

// --- vectors.toml ----------------------------------------------------------

#[derive(Deserialize)]
struct Vectors {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    text: String,
    urls: Vec<String>,
    forms: Option<Vec<String>>,
    alternatives: Option<Vec<String>>,
    relative: Option<Vec<bool>>,
    specs: Option<Vec<String>>,
    bare: Option<bool>,
    #[serde(default)]
    find_relative: bool,
    #[allow(dead_code)]
    reading: Option<String>,
}

fn specs(names: &Option<Vec<String>>) -> Vec<Spec> {
    names.as_deref().map_or_else(|| Spec::IETF.to_vec(), common::specs)
}

/// What is wrong with `found` for `case`, if anything.
fn check_case(case: &Case, found: &[Found<'_>]) -> Option<String> {
    let got = urls(found);
    if got != case.urls {
        return Some(format!("urls {got:?}, expected {:?}", case.urls));
    }
    if let Some(forms) = &case.forms {
        let got: Vec<_> = found.iter().map(|f| form_name(f.form())).collect();
        if &got != forms {
            return Some(format!("forms {got:?}, expected {forms:?}"));
        }
    }
    if let Some(alts) = &case.alternatives {
        let got: Vec<_> = found
            .iter()
            .map(|f| f.alternative().unwrap_or_default())
            .collect();
        if &got != alts {
            return Some(format!("alternatives {got:?}, expected {alts:?}"));
        }
        for f in found {
            if f.ambiguous_hyphen() != f.alternative().is_some() {
                return Some(format!("{f:?}: flag and alternative disagree"));
            }
        }
    }
    let relative =
        case.relative.clone().unwrap_or_else(|| vec![false; found.len()]);
    let got: Vec<_> = found.iter().map(|f| f.is_relative()).collect();
    if got != relative {
        return Some(format!("relative {got:?}, expected {relative:?}"));
    }
    None
}

#[test]
fn vectors() {
    let path = testdata().join("vectors.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let vectors: Vectors = toml::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));

    // Every TV-TXT vector is in the file.
    for n in 1..=13 {
        let id = format!("TV-TXT-{n}");
        assert!(
            vectors.case.iter().any(|c| c.id == id),
            "{id} is missing from {}",
            path.display()
        );
    }

    let (mut failures, mut runs) = (Vec::new(), 0);
    for case in &vectors.case {
        let bare = match case.bare {
            Some(b) => vec![b],
            None => vec![false, true],
        };
        for spec in specs(&case.specs) {
            for &bare in &bare {
                let finder = Finder::new()
                    .spec(spec)
                    .bare(bare)
                    .relative(case.find_relative);
                let found: Vec<_> = finder.find_iter(&case.text).collect();
                runs += 1;
                if let Some(p) = check_case(case, &found) {
                    failures.push(format!(
                        "{} ({spec}, bare={bare}): {p}",
                        case.id
                    ));
                }
                // The same result over bytes.
                let over_bytes: Vec<_> =
                    finder.find_iter(case.text.as_bytes()).collect();
                assert_eq!(over_bytes, found);
                check_spans(&case.text, &found);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{} cases, {runs} runs passed", vectors.case.len());
}

// --- linkifiers.toml --------------------------------------------------------

#[derive(Deserialize)]
struct Linkifiers {
    case: Vec<LinkifierCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkifierCase {
    id: String,
    text: String,
    theirs: Vec<String>,
    ours: Vec<String>,
    appendix_b: String,
    reading: Option<String>,
}

/// Other linkifiers' test data: urlspec finds what `ours` says, and every
/// case where that is not what the source expects says why and who
/// follows the 1996 draft.
#[test]
fn linkifiers() {
    let path = testdata().join("linkifiers.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let data: Linkifiers = toml::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut differ = 0;
    for case in &data.case {
        let found: Vec<_> = Finder::new().find_iter(&case.text).collect();
        check_spans(&case.text, &found);
        if urls(&found) != case.ours {
            failures.push(format!(
                "{}: urlspec finds {:?}, the file says {:?}",
                case.id,
                urls(&found),
                case.ours
            ));
        }
        let known = ["both", "urlspec", "source", "silent"];
        assert!(known.contains(&case.appendix_b.as_str()), "{}", case.id);
        if case.ours != case.theirs {
            differ += 1;
            assert!(
                case.reading.as_deref().is_some_and(|r| !r.is_empty())
                    && case.appendix_b != "both",
                "{}: ours and theirs differ, with no reading",
                case.id
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} cases, {differ} differ from their source", data.case.len());
}

/// The invariants every result list keeps.
fn check_spans(text: &str, found: &[Found<'_>]) {
    let b = text.as_bytes();
    let mut prev_end = 0;
    for f in found {
        let (span, url_span) = (f.span(), f.url_span());
        assert!(prev_end <= span.start, "{f:?} overlaps the previous result");
        assert!(span.start <= url_span.start && url_span.end <= span.end);
        assert!(!f.as_str().is_empty());
        prev_end = span.end;
        match f.form() {
            Form::UrlPrefixed | Form::Angle => {
                assert_eq!((b[span.start], b[span.end - 1]), (b'<', b'>'));
            }
            Form::Quoted => {
                assert_eq!((b[span.start], b[span.end - 1]), (b'"', b'"'));
            }
            Form::Bare => assert_eq!(span, url_span),
            _ => unreachable!(),
        }
        // Without whitespace, the URL is the source text itself, borrowed.
        let source = &text[url_span];
        if !source.bytes().any(|c| c.is_ascii_whitespace() || c == 0x0b) {
            assert_eq!(source, f.as_str());
            assert!(matches!(f.clone().into_url(), Cow::Borrowed(_)));
        } else {
            let squeezed: String = source
                .chars()
                .filter(|c| !c.is_ascii_whitespace() && *c != '\u{b}')
                .collect();
            assert_eq!(squeezed, f.as_str());
        }
    }
}

// --- the example paragraph of App. B, from the seed itself -----------------

#[test]
fn appendix_b_example_paragraph() {
    const PARAGRAPH: &str = concat!(
        "      Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\n",
        "      type=d> but you can probably pick it up from <ftp://ds.in\n",
        "      ternic.net/rfc>.  Note the warning in <http://ds.internic.\n",
        "      net/instructions/overview.html#WARNING>.\n",
    );
    let expected = [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html#WARNING",
    ];
    for spec in Spec::IETF {
        for bare in [false, true] {
            let finder = Finder::new().spec(spec).bare(bare);
            let found: Vec<_> = finder.find_iter(PARAGRAPH).collect();
            assert_eq!(urls(&found), expected, "{spec}, bare={bare}");
            assert!(found.iter().all(|f| f.form() == Form::Angle
                && !f.ambiguous_hyphen()
                && !f.is_relative()));
        }
    }

    // The seed's own text, from "Examples:" to the end of the paragraph.
    let Some(dir) = seeds_dir() else { return };
    let seed =
        std::fs::read_to_string(dir.join("003_563c2e475a4eef24.txt")).unwrap();
    let from = seed.find("      Yes, Jim").expect("the App. B example");
    let to = from + seed[from..].find("#WARNING>.").unwrap() + 10;
    assert_eq!(&seed[from..to], PARAGRAPH.trim_end());
    assert_eq!(urls(&extract(&seed[from..to])), expected);
}

// --- the seeds -------------------------------------------------------------

#[test]
fn seeds_reference_lists() {
    let Some(dir) = seeds_dir() else { return };
    let tsv = std::fs::read_to_string(testdata().join("seeds-expected.tsv"))
        .unwrap();
    let expected: Vec<String> = tsv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect();

    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no seed texts in {}", dir.display());

    let finder = Finder::new().bare(false);
    let mut got = Vec::new();
    for name in &names {
        let text = std::fs::read(dir.join(name)).unwrap();
        let index = LineIndex::new(&text);
        for f in finder.find_iter(&text) {
            let (line, _) = index.line_col(f.span().start);
            got.push(format!("{name}\t{line}\t{}\t{}", f.form(), f.as_str()));
        }
        // Nothing found in a seed is ambiguous or relative, and the
        // default finder (bare URLs on) finds a superset.
        let all: Vec<_> = Finder::new().find_iter(&text).collect();
        let delimited: Vec<_> = finder.find_iter(&text).collect();
        assert!(delimited.iter().all(|f| all.contains(f)), "{name}");
        assert!(delimited
            .iter()
            .all(|f| !f.ambiguous_hyphen() && !f.is_relative()));
    }
    if got != expected {
        let missing: Vec<_> =
            expected.iter().filter(|e| !got.contains(e)).collect();
        let extra: Vec<_> =
            got.iter().filter(|g| !expected.contains(g)).collect();
        panic!(
            "seed URLs differ from seeds-expected.tsv\nmissing: \
             {missing:#?}\nunexpected: {extra:#?}"
        );
    }
    // The counts the TSV's header gives.
    let count = |file: &str, form: &str| {
        got.iter()
            .filter(|l| {
                l.starts_with(file) && l.contains(&format!("\t{form}\t"))
            })
            .count()
    };
    assert_eq!(count("000_", "url-prefixed"), 50); // 52 `<URL:`, less 2
    assert_eq!(count("001_", "url-prefixed"), 43); // 44 `<URL:`, less 1
    assert_eq!(count("003_", "angle"), 7);
    assert_eq!(count("004_", "angle"), 11);
}

// --- properties ------------------------------------------------------------

/// URLs of the kinds the seeds print, hyphens included.
fn url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "http", "ftp", "gopher", "wais", "HTTP", "x-y", "foo+bar",
        ]),
        "[a-z0-9][a-z0-9.-]{0,12}",
        prop::collection::vec("[a-zA-Z0-9_.~%;=&$+!*'(),@-]{0,8}", 0..5),
        prop::option::of("[a-z0-9=&/?:;-]{0,10}"),
        prop::option::of("[a-zA-Z0-9-]{0,8}"),
    )
        .prop_map(|(scheme, host, segments, query, fragment)| {
            let mut s = format!("{scheme}://{host}");
            for seg in segments {
                s.push('/');
                s.push_str(&seg);
            }
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = fragment {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

/// Whitespace a writer or typesetter might break a line with.
fn whitespace() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "\n", " ", "\t", "\r\n", "\n      ", "  \n  ", "\n\n", "\u{c}",
    ])
}

/// Prose around a URL: no colon, quote or bracket, so it holds no URL.
fn prose() -> impl Strategy<Value = String> {
    "[a-zA-Z ,.()\n-]{0,30}"
}

/// Inserts `breaks` into `url` at the given positions (fractions of its
/// length), never right after a `-`.
fn wrap(url: &str, breaks: &[(usize, &str)]) -> String {
    let mut cuts: Vec<(usize, &str)> = breaks
        .iter()
        .map(|&(at, ws)| (at % (url.len() + 1), ws))
        .filter(|&(at, _)| at == 0 || url.as_bytes()[at - 1] != b'-')
        .collect();
    cuts.sort_by_key(|&(at, _)| at);
    let mut out = String::new();
    let mut from = 0;
    for (at, ws) in cuts {
        out.push_str(&url[from..at]);
        out.push_str(ws);
        from = at;
    }
    out.push_str(&url[from..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        ..ProptestConfig::default()
    })]

    /// R96-B.2, B.4: `<URL:...>` with whitespace anywhere inside gives the
    /// URL back, exactly.
    #[test]
    fn wrapped_url_comes_back(
        url in url(),
        breaks in prop::collection::vec((0usize..200, whitespace()), 0..8),
        before in prose(),
        after in prose(),
        lead in prop::option::of(whitespace()),
        prefix in prop::sample::select(vec!["URL:", "url:", "Url:"]),
        bare in any::<bool>(),
        spec in prop::sample::select(vec![
            Spec::Draft04, Spec::Rfc1808, Spec::Draft96, Spec::Draft96Dec,
            Spec::Rfc2396, Spec::Rfc3986,
        ]),
    ) {
        let wrapped = wrap(&url, &breaks);
        let text = format!(
            "{before}<{prefix}{}{wrapped}>{after}",
            lead.unwrap_or(""),
        );
        let found: Vec<_> =
            Finder::new().spec(spec).bare(bare).find_iter(&text).collect();
        prop_assert_eq!(found.len(), 1, "{:?}", found);
        let f = &found[0];
        prop_assert_eq!(f.as_str(), url.as_str());
        prop_assert_eq!(f.form(), Form::UrlPrefixed);
        prop_assert!(!f.ambiguous_hyphen());
        prop_assert!(!f.is_relative());
        prop_assert_eq!(f.span(), before.len()..text.len() - after.len());
        check_spans(&text, &found);
    }

    /// R96-B.5: a line break right after a `-` keeps the hyphen and offers
    /// the reading without it.
    #[test]
    fn hyphen_break_is_ambiguous(
        url in url(),
        at in 0usize..200,
        ws in prop::sample::select(vec!["\n", "\r\n   ", " \n", "\n\t"]),
    ) {
        let cut = 6 + at % (url.len() - 6);
        let hyphenated = format!("{}-{}", &url[..cut], &url[cut..]);
        let text = format!("<{}-{ws}{}>", &url[..cut], &url[cut..]);
        let f = Finder::new().find(&text).unwrap();
        prop_assert_eq!(f.as_str(), hyphenated.as_str());
        prop_assert!(f.ambiguous_hyphen());
        prop_assert_eq!(f.hyphen_positions(), &[cut][..]);
        prop_assert_eq!(f.alternative(), Some(url));
    }

    /// Bare URLs in prose, followed by punctuation, come back without it.
    #[test]
    fn bare_url_in_prose(
        url in url().prop_filter(
            "ends in a letter or digit, no parentheses or quotes",
            |u| {
                u.ends_with(|c: char| c.is_ascii_alphanumeric())
                    && !u.contains(['(', ')', '\''])
            },
        ),
        before in prose(),
        punct in prop::sample::select(vec![
            "", ".", ",", ";", ":", "!", "?", ").", "'", "`",
        ]),
        after in prose(),
    ) {
        let text = format!("{before} {url}{punct} {after}");
        let found = extract(&text);
        prop_assert_eq!(urls(&found), vec![url.as_str()]);
        prop_assert_eq!(found[0].form(), Form::Bare);
        check_spans(&text, &found);
    }

    /// Any input: no panic, results in order, without overlap, within the
    /// input, each URL what its span says.
    #[test]
    fn any_input_keeps_the_invariants(
        text in prop_oneof![
            "[<>\"a-z:/ \n(\\[)\\]#@.,-]{0,80}",
            "(<|<URL:|\"|http:|//|-\n| |a|\\(|\\)|>)*",
            any::<String>(),
        ],
        spec in prop::sample::select(Spec::IETF.to_vec()),
        bare in any::<bool>(),
        relative in any::<bool>(),
    ) {
        let finder = Finder::new().spec(spec).bare(bare).relative(relative);
        let found: Vec<_> = finder.find_iter(&text).collect();
        check_spans(&text, &found);
        for f in &found {
            prop_assert!(relative || !f.is_relative());
            prop_assert!(bare || f.form() != Form::Bare);
            prop_assert_eq!(f.reference().has_scheme(), !f.is_relative());
        }
    }
}

// --- hostile inputs --------------------------------------------------------

/// Runs every finder configuration over `text` and returns the counts
/// (delimited only, with bare URLs).
fn counts(text: &[u8]) -> (usize, usize) {
    let delimited = Finder::new().bare(false).find_iter(text).count();
    let all = Finder::new().find_iter(text).count();
    let relative = Finder::new().relative(true).find_iter(text).count();
    assert!(relative >= all);
    (delimited, all)
}

const N: usize = 200 * 1024;

fn repeat(unit: &str) -> Vec<u8> {
    unit.repeat(N / unit.len()).into_bytes()
}

#[test]
fn hostile_inputs_finish() {
    assert_eq!(counts(&repeat("<")), (0, 0));
    assert_eq!(counts(&repeat("<URL:")), (0, 0));
    assert_eq!(counts(&repeat("\"")), (0, 0));
    assert_eq!(counts(&repeat(":")), (0, 0));
    assert_eq!(counts(&repeat("(((")), (0, 0));
    assert_eq!(counts(&repeat("-\n")), (0, 0));
    assert_eq!(counts(&repeat("a:")), (0, 0));
    assert_eq!(counts(&repeat("<a")), (0, 0));
    assert_eq!(counts(&repeat("<\"")), (0, 0));
    assert_eq!(counts(&repeat("http: ")), (0, 0));
    // One bare URL made of the whole megabyte.
    assert_eq!(counts(&repeat("http:")), (0, 1));
    assert_eq!(counts(&repeat("x-a:")), (0, 1));
    // Every `<http://` is cut short by the next `<`; each is a bare URL.
    let text = repeat("<http://a");
    assert_eq!(counts(&text), (0, text.len() / 9));
    // Many small URLs.
    let text = repeat("<a:b>");
    assert_eq!(counts(&text), (text.len() / 5, text.len() / 5));
    let text = repeat("\"http://a\"");
    assert_eq!(counts(&text), (text.len() / 10, text.len() / 10));
    // A long scheme-character run before one colon.
    let mut text = vec![b'a'; N];
    text.extend_from_slice(b"://x");
    assert_eq!(counts(&text), (0, 1));
    // Parentheses after a scheme: the walk forward counts them once.
    let mut text = b"http://a/".to_vec();
    text.extend(repeat("(("));
    text.extend(repeat(")"));
    assert_eq!(counts(&text), (0, 1));
    // Brackets too long to hold a URL (8 KiB): a finding, not a URL; the
    // text inside is not searched again.
    let mut text = b"<http://a/".to_vec();
    text.extend(vec![b'x'; 9000]);
    text.push(b'>');
    assert_eq!(counts(&text), (1, 1));
    let f = Finder::new().find(&text).unwrap();
    assert!(f.too_long());
    assert_eq!((f.form(), f.as_str()), (Form::Angle, ""));
    // Too long and no URL at its start: prose, searched for bare URLs.
    let mut text = b"<see ".to_vec();
    text.extend(vec![b'x'; 9000]);
    text.extend_from_slice(b" http://a/>");
    assert_eq!(
        urls(&Finder::new().find_iter(&text).collect::<Vec<_>>()),
        ["http://a/"]
    );
    // Thousands of hyphenated line breaks inside one bracket.
    let text = format!("<URL:http://a/{}b>", "-\n".repeat(2000));
    let f = Finder::new().find(&text).unwrap();
    assert_eq!(f.hyphen_positions().len(), 2000);
    assert_eq!(f.alternative().unwrap(), "http://a/b");
    // Closing brackets, quotes and wide characters after a scheme: each
    // read once forward and at most once back.
    let mut text = b"http://a/".to_vec();
    text.extend(repeat("\u{fc})"));
    assert_eq!(counts(&text), (0, 1));
    let mut text = b"http://".to_vec();
    text.extend(repeat(")]}.\u{ff09}"));
    assert_eq!(counts(&text), (0, 0));
    assert_eq!(counts(&repeat("http://)")), (0, 1));
    // A `<` with a `>` only at the very end, after many `<`.
    let mut text = repeat("<");
    text.extend_from_slice(b"<http://a/>");
    assert_eq!(counts(&text), (1, 1));
}

// --- LineIndex -------------------------------------------------------------

#[test]
fn line_index() {
    let text = "ab\nçd <URL:http://x/>\r\n\n  \"http://y/\"";
    let index = LineIndex::new(text);
    assert_eq!(index.lines(), 4);
    let found = extract(text);
    let at: Vec<_> =
        found.iter().map(|f| index.line_col(f.span().start)).collect();
    assert_eq!(at, [(2, 4), (4, 3)]);
    // Out of order, and past the end.
    assert_eq!(index.line_col(1), (1, 2));
    assert_eq!(index.line_col(text.len() + 5), (4, 14));
    assert_eq!(index.line_col(0), (1, 1));
    assert_eq!(LineIndex::new("").line_col(0), (1, 1));
}
