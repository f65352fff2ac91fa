//! Differential test: the same inputs through urlspec and through
//! independent implementations of the same specs.
//!
//! | pair | other implementation | operation |
//! |---|---|---|
//! | `rfc3986/fluent-uri` | fluent-uri `UriRef::resolve_against` | resolve |
//! | `rfc3986/fluent-uri-parse` | fluent-uri `UriRef::parse` | split |
//! | `rfc3986/iri-string` | iri-string `resolve_against` | resolve |
//! | `rfc3986/iri-string-parse` | iri-string `UriReferenceStr::new` | split |
//! | `rfc3986/oxiri` | oxiri `Iri::resolve` | resolve |
//! | `rfc3986/python-urljoin` | CPython `urllib.parse.urljoin` | resolve |
//! | `rfc3986/python-urlsplit` | CPython `urllib.parse.urlsplit` | split |
//! | `rfc2396/java-uri-resolve` | `java.net.URI.resolve` | resolve |
//! | `rfc2396/java-uri-parse` | `java.net.URI` getters | split |
//! | `rfc3986/url-join` | the `url` crate (WHATWG), information only | resolve |
//!
//! Inputs: the pair corpora `relative-pairs.tsv` and `cc-relative-10k.tsv`
//! (resolution), the URL corpora of [`urlspec_bench::CORPORA`] (splitting),
//! the checked-in seed pairs `testdata/differential/seed-pairs.tsv` (RFC
//! examples and derived edge cases), and deterministic generated pairs
//! (`gen.rs`); the generated bases and references are split too.
//!
//! Every disagreement must be explained by entries of
//! `testdata/differential/known-deviations.toml` (see `deviations.rs`);
//! the test fails when any is unexplained, printing up to 20 per pair
//! (`URLSPEC_DIFF_DUMP=DIR` writes all of them to `DIR`, one file per
//! pair). The `url` pair is counted by class only: WHATWG differs from RFC
//! 3986 by design. `examples.rs` pins each entry to a worked example.
//!
//! By default (and under `CI=true`) the test runs a bounded sample: the
//! first 5,000 inputs of every corpus and 5,000 generated pairs. Set
//! `URLSPEC_DIFF_FULL=1` for everything (20,000 generated pairs), or
//! `URLSPEC_DIFF_SAMPLE=N` for another bound. python3, java and javac are
//! optional: when one is missing its pairs are skipped with a printed
//! notice. The tables are printed on stdout:
//!
//! ```text
//! cargo test -p urlspec-bench --test differential -- --nocapture
//! URLSPEC_DIFF_FULL=1 cargo test -p urlspec-bench --release --test differential -- --nocapture
//! ```

mod deviations;
mod examples;
mod gen;
mod libs;
mod oracle;

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value;
use urlspec::Spec;
use urlspec_bench::{Corpus, PairCorpus, CORPORA, PAIR_CORPORA};

use deviations::{Entry, Input, Parts, Verdict};
use libs::Outcome;

/// The file of checked-in seed pairs, relative to the workspace root.
const SEEDS: &str = "testdata/differential/seed-pairs.tsv";

/// The bound on each corpus and on the generated pairs outside full mode.
const SAMPLE: usize = 5_000;

/// The number of generated pairs in full mode.
const FULL_GENERATED: usize = 20_000;

/// How many unexplained examples to print per pair.
const EXAMPLES: usize = 20;

/// What a pair compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    /// Resolution of a reference against a base.
    Resolve,
    /// Splitting into components.
    Split,
}

/// One pairing of urlspec (under `spec`) with another implementation.
struct Pairing {
    /// The name, as in the deviations file.
    name: &'static str,
    /// urlspec's spec.
    spec: Spec,
    /// What is compared.
    op: Op,
    /// Counted by class only, never failing (WHATWG).
    info_only: bool,
    /// The other implementation, for the report (the out-of-process
    /// ones add the version they report).
    other: &'static str,
}

/// Every pairing, in table order.
const PAIRINGS: &[Pairing] = &[
    Pairing::resolve(
        "rfc3986/fluent-uri",
        Spec::Rfc3986,
        "fluent-uri 0.4 UriRef::resolve_against",
    ),
    Pairing::split(
        "rfc3986/fluent-uri-parse",
        Spec::Rfc3986,
        "fluent-uri 0.4 UriRef::parse",
    ),
    Pairing::resolve(
        "rfc3986/iri-string",
        Spec::Rfc3986,
        "iri-string 0.7 resolve_against",
    ),
    Pairing::split(
        "rfc3986/iri-string-parse",
        Spec::Rfc3986,
        "iri-string 0.7 UriReferenceStr::new",
    ),
    Pairing::resolve("rfc3986/oxiri", Spec::Rfc3986, "oxiri 0.3 Iri::resolve"),
    Pairing::resolve(
        "rfc3986/python-urljoin",
        Spec::Rfc3986,
        "python3 urllib.parse.urljoin",
    ),
    Pairing::split(
        "rfc3986/python-urlsplit",
        Spec::Rfc3986,
        "python3 urllib.parse.urlsplit",
    ),
    Pairing::resolve(
        "rfc2396/java-uri-resolve",
        Spec::Rfc2396,
        "java.net.URI.resolve",
    ),
    Pairing::split(
        "rfc2396/java-uri-parse",
        Spec::Rfc2396,
        "java.net.URI getters",
    ),
    Pairing {
        name: "rfc3986/url-join",
        spec: Spec::Rfc3986,
        op: Op::Resolve,
        info_only: true,
        other: "url 2.5 Url::join (WHATWG)",
    },
];

impl Pairing {
    /// A resolution pairing.
    const fn resolve(
        name: &'static str,
        spec: Spec,
        other: &'static str,
    ) -> Pairing {
        Pairing { name, spec, op: Op::Resolve, info_only: false, other }
    }

    /// A split pairing.
    const fn split(
        name: &'static str,
        spec: Spec,
        other: &'static str,
    ) -> Pairing {
        Pairing { name, spec, op: Op::Split, info_only: false, other }
    }
}

/// One input of a resolution pair.
struct PairInput {
    /// Where it comes from (a corpus name, `seeds` or `generated`).
    source: &'static str,
    /// The base.
    base: String,
    /// The reference.
    reference: String,
}

/// One input of a split pair.
struct UrlInput {
    /// Where it comes from.
    source: &'static str,
    /// The URL or reference.
    url: String,
}

/// Every input of one run.
struct Inputs {
    /// Resolution inputs.
    pairs: Vec<PairInput>,
    /// Split inputs.
    urls: Vec<UrlInput>,
}

/// The run's bound: `None` for everything.
fn bound() -> Option<usize> {
    if env::var("URLSPEC_DIFF_FULL").is_ok_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    Some(
        env::var("URLSPEC_DIFF_SAMPLE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(SAMPLE),
    )
}

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Loads the corpora (skipping, with a notice, those that are missing),
/// the seeds and the generated pairs.
fn inputs(bound: Option<usize>) -> Inputs {
    let take = |n: usize| bound.map_or(n, |b| b.min(n));
    let mut pairs = Vec::new();
    let mut urls = Vec::new();

    let seeds = fs::read_to_string(root().join(SEEDS))
        .unwrap_or_else(|e| panic!("{SEEDS}: {e}"));
    for line in seeds.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (base, reference) = line.split_once('\t').unwrap_or((line, ""));
        pairs.push(PairInput {
            source: "seeds",
            base: base.to_string(),
            reference: reference.to_string(),
        });
    }

    for name in PAIR_CORPORA {
        match PairCorpus::load(name) {
            Ok(corpus) => {
                let all = corpus.pairs();
                for &(base, reference) in &all[..take(all.len())] {
                    pairs.push(PairInput {
                        source: corpus.short_name(),
                        base: base.to_string(),
                        reference: reference.to_string(),
                    });
                }
            }
            Err(e) => println!("notice: corpus missing; skipping it: {e}"),
        }
    }

    let generated = gen::pairs(
        bound.map_or(FULL_GENERATED, |b| b.min(FULL_GENERATED)),
        gen::SEED,
    );
    let mut seen = std::collections::HashSet::new();
    for (base, reference) in &generated {
        for s in [base, reference] {
            if seen.insert(s.clone()) {
                urls.push(UrlInput { source: "generated", url: s.clone() });
            }
        }
    }
    pairs.extend(generated.into_iter().map(|(base, reference)| PairInput {
        source: "generated",
        base,
        reference,
    }));

    for name in CORPORA {
        match Corpus::load(name) {
            Ok(corpus) => {
                let all = corpus.urls();
                for &u in &all[..take(all.len())] {
                    urls.push(UrlInput {
                        source: corpus.short_name(),
                        url: u.to_string(),
                    });
                }
            }
            Err(e) => println!("notice: corpus missing; skipping it: {e}"),
        }
    }
    Inputs { pairs, urls }
}

/// One disagreement, for printing.
struct Example {
    /// Where the input comes from.
    source: &'static str,
    /// The input, as printed.
    input: String,
    /// urlspec's answer.
    ours: String,
    /// The other implementation's answer.
    theirs: String,
}

/// The counts of one pair.
#[derive(Default)]
struct Tally {
    /// Inputs compared, per source.
    compared: BTreeMap<&'static str, usize>,
    /// Agreements, per source.
    agreed: BTreeMap<&'static str, usize>,
    /// Disagreements explained, per entry id (an input explained by a
    /// combination counts for each of its entries).
    explained: BTreeMap<String, usize>,
    /// Disagreements explained, per combination of two or more entries.
    combined: BTreeMap<String, usize>,
    /// Explained disagreements in all.
    explained_total: usize,
    /// Unexplained disagreements.
    unexplained: usize,
    /// The first unexplained examples.
    examples: Vec<Example>,
    /// Information-only pairs: disagreements per class, with one example.
    classes: BTreeMap<&'static str, (usize, String)>,
    /// Why the pair was skipped, if it was.
    skipped: Option<String>,
    /// The other implementation's version, when it reports one.
    version: Option<String>,
}

impl Tally {
    /// Totals over every source.
    fn totals(&self) -> (usize, usize) {
        (self.compared.values().sum(), self.agreed.values().sum())
    }

    /// Records one comparison.
    fn record(
        &mut self,
        source: &'static str,
        verdict: &Verdict,
        entries: &[&Entry],
        example: impl FnOnce() -> Example,
    ) {
        *self.compared.entry(source).or_default() += 1;
        match verdict {
            Verdict::Agree => *self.agreed.entry(source).or_default() += 1,
            Verdict::Explained(set) => {
                self.explained_total += 1;
                for &i in set {
                    *self
                        .explained
                        .entry(entries[i].id.clone())
                        .or_default() += 1;
                }
                if set.len() > 1 {
                    let ids: Vec<&str> =
                        set.iter().map(|&i| entries[i].id.as_str()).collect();
                    *self.combined.entry(ids.join(" + ")).or_default() += 1;
                }
            }
            Verdict::Unexplained => {
                self.unexplained += 1;
                if self.examples.len() < EXAMPLES || dump_dir().is_some() {
                    self.examples.push(example());
                }
            }
        }
    }
}

/// `URLSPEC_DIFF_DUMP`: a directory to write every unexplained
/// disagreement to, one file per pair (for triage).
fn dump_dir() -> Option<PathBuf> {
    env::var_os("URLSPEC_DIFF_DUMP")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// An outcome, as printed.
fn show(o: &Result<String, String>) -> String {
    match o {
        Ok(s) => format!("{s:?}"),
        Err(e) => format!("refused: {e}"),
    }
}

/// Split parts, as printed.
fn show_parts(p: &Result<Parts, String>) -> String {
    match p {
        Ok(p) => format!(
            "scheme={:?} authority={:?} path={:?} query={:?} fragment={:?}",
            p.scheme, p.authority, p.path, p.query, p.fragment
        ),
        Err(e) => format!("refused: {e}"),
    }
}

/// Compares resolutions: `theirs(i)` is the other answer for input `i`.
fn compare_resolution(
    pairing: &Pairing,
    entries: &[&Entry],
    inputs: &[PairInput],
    theirs: impl Fn(usize, &PairInput) -> Outcome,
) -> Tally {
    let mut tally = Tally::default();
    for (i, p) in inputs.iter().enumerate() {
        let ours = libs::urlspec(&p.base, &p.reference, pairing.spec);
        let other = theirs(i, p);
        let input = Input { base: &p.base, reference: &p.reference };
        if pairing.info_only {
            *tally.compared.entry(p.source).or_default() += 1;
            if ours == other {
                *tally.agreed.entry(p.source).or_default() += 1;
            } else {
                let class = whatwg_class(&ours, &other);
                let slot = tally.classes.entry(class).or_insert_with(|| {
                    (
                        0,
                        format!(
                            "{:?} + {:?}: urlspec {}, url {}",
                            p.base,
                            p.reference,
                            show(&ours),
                            show(&other)
                        ),
                    )
                });
                slot.0 += 1;
            }
            continue;
        }
        let verdict = deviations::classify_resolution(
            entries,
            pairing.spec,
            &input,
            &ours,
            &other,
        );
        tally.record(p.source, &verdict, entries, || Example {
            source: p.source,
            input: format!("base {:?} reference {:?}", p.base, p.reference),
            ours: show(&ours),
            theirs: show(&other),
        });
    }
    tally
}

/// Compares splits: `theirs(i)` is the other split of input `i`, and
/// `view` puts urlspec's split in the other library's representation.
fn compare_split(
    pairing: &Pairing,
    entries: &[&Entry],
    inputs: &[UrlInput],
    theirs: impl Fn(usize, &UrlInput) -> Result<Parts, String>,
    view: impl Fn(Parts) -> Parts,
) -> Tally {
    let mut tally = Tally::default();
    for (i, u) in inputs.iter().enumerate() {
        let ours = view(Parts::of(&u.url, pairing.spec));
        let other = theirs(i, u);
        let verdict = deviations::classify_split(
            entries,
            pairing.spec,
            &u.url,
            &ours,
            &other,
        );
        tally.record(u.source, &verdict, entries, || Example {
            source: u.source,
            input: format!("{:?}", u.url),
            ours: show_parts(&Ok(ours.clone())),
            theirs: show_parts(&other),
        });
    }
    tally
}

/// The class of a disagreement with the WHATWG `url` crate: refusals
/// first, then the first step of a cumulative normalization of both
/// answers (scheme and host case, default ports, `/` for an empty path,
/// percent-encoding, dot segments, backslashes) after which they agree.
fn whatwg_class(ours: &Outcome, theirs: &Outcome) -> &'static str {
    let (mut a, mut b) = match (ours, theirs) {
        (Ok(a), Ok(b)) => (a.clone(), b.clone()),
        (Ok(_), Err(_)) => return "url refuses (not a valid WHATWG URL)",
        (Err(_), Ok(_)) => return "urlspec refuses",
        (Err(_), Err(_)) => return "both refuse",
    };
    let steps: [(&str, Normalize); 6] = [
        ("scheme or host case", whatwg_case),
        ("+ default port removed", whatwg_port),
        ("+ empty path written as `/`", whatwg_root),
        ("+ percent-encoding", whatwg_decode),
        ("+ dot segments (percent-encoded, or in the base)", whatwg_dots),
        ("+ backslash read as `/`", |s| s.replace('\\', "/")),
    ];
    for (class, step) in steps {
        a = step(&a);
        b = step(&b);
        if a == b {
            return class;
        }
    }
    "other (same-scheme references, opaque paths, hosts, IDNA, IPv4)"
}

/// One normalization step of [`whatwg_class`].
type Normalize = fn(&str) -> String;

/// A URL split at its path: `(scheme ":" ["//" authority], rest)`.
fn whatwg_split(s: &str) -> (&str, &str) {
    let r = urlspec::Reference::parse_with(s, Spec::Rfc3986);
    let at = r.span(urlspec::reference::Part::Path).map_or(0, |p| p.start);
    s.split_at(at)
}

/// Scheme and authority in lower case.
fn whatwg_case(s: &str) -> String {
    let (head, rest) = whatwg_split(s);
    format!("{}{rest}", head.to_ascii_lowercase())
}

/// The default port of http(s), ws(s) and ftp removed.
fn whatwg_port(s: &str) -> String {
    let (head, rest) = whatwg_split(s);
    let head = [":80", ":443", ":21"]
        .iter()
        .find_map(|p| head.strip_suffix(p))
        .unwrap_or(head);
    format!("{head}{rest}")
}

/// An empty path after an authority written as `/`.
fn whatwg_root(s: &str) -> String {
    let (head, rest) = whatwg_split(s);
    if head.contains("//") && !rest.starts_with('/') {
        format!("{head}/{rest}")
    } else {
        s.to_string()
    }
}

/// Every percent-encoding decoded.
fn whatwg_decode(s: &str) -> String {
    String::from_utf8_lossy(&urlspec::escape::unescape_lenient(s).bytes)
        .into_owned()
}

/// Dot segments removed from the path.
fn whatwg_dots(s: &str) -> String {
    let (head, rest) = whatwg_split(s);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    let path = urlspec::resolve::remove_dot_segments(&rest[..end]);
    format!("{head}{path}{}", &rest[end..])
}

/// Which pairs run an operation, for the deviations file's check.
fn pair_op(name: &str) -> Option<Op> {
    PAIRINGS.iter().find(|p| p.name == name).map(|p| p.op)
}

/// Python's `urlsplit` result as parts (every component present).
fn python_parts(v: &Value) -> Parts {
    let s = |i: usize| v[i].as_str().unwrap_or_default().to_string();
    Parts {
        scheme: Some(s(0)),
        authority: Some(s(1)),
        path: s(2),
        query: Some(s(3)),
        fragment: Some(s(4)),
    }
}

/// Java's URI getters as parts: an opaque URI's scheme-specific part is
/// its path (Java has no path for it).
fn java_parts(v: &Value) -> Parts {
    let s = |i: usize| v[i].as_str().map(str::to_string);
    let opaque = v[5].as_bool().unwrap_or(false);
    Parts {
        scheme: s(0),
        authority: s(1),
        path: if opaque { s(6) } else { s(2) }.unwrap_or_default(),
        query: s(3),
        fragment: s(4),
    }
}

/// Runs every pair over the inputs and prints the tables; fails when a
/// disagreement is unexplained.
#[test]
fn differential() {
    let started = Instant::now();
    let bound = bound();
    let mode = match bound {
        None => "full (URLSPEC_DIFF_FULL)".to_string(),
        Some(n) => format!(
            "bounded sample of {n} per corpus{}",
            if env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                " (CI)"
            } else {
                ""
            }
        ),
    };
    let all_entries =
        deviations::load(|pair| pair_op(pair).map(|op| op == Op::Split));
    let inputs = inputs(bound);
    println!(
        "differential: {mode}; {} resolution inputs, {} split inputs",
        inputs.pairs.len(),
        inputs.urls.len()
    );

    let dir = oracle::scratch("oracles");
    let python_ok = oracle::available("python3");
    let java_ok = oracle::available("java") && oracle::available("javac");
    let (python, java, mut tallies) = std::thread::scope(|s| {
        let python = python_ok.then(|| {
            s.spawn(|| {
                let t = Instant::now();
                let mut requests: Vec<oracle::Request<'_>> = inputs
                    .pairs
                    .iter()
                    .map(|p| oracle::Request::Join(&p.base, &p.reference))
                    .collect();
                requests.extend(
                    inputs.urls.iter().map(|u| oracle::Request::Split(&u.url)),
                );
                (oracle::python(&requests, &dir), t.elapsed())
            })
        });
        let java = java_ok.then(|| {
            s.spawn(|| {
                let t = Instant::now();
                let mut requests: Vec<oracle::Request<'_>> = inputs
                    .pairs
                    .iter()
                    .map(|p| oracle::Request::Join(&p.base, &p.reference))
                    .collect();
                requests.extend(
                    inputs.urls.iter().map(|u| oracle::Request::Split(&u.url)),
                );
                (oracle::java(&requests, &dir), t.elapsed())
            })
        });
        let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
        for pairing in PAIRINGS {
            let entries: Vec<&Entry> = all_entries
                .iter()
                .filter(|e| e.pair == pairing.name)
                .collect();
            let tally = match pairing.name {
                "rfc3986/fluent-uri" => compare_resolution(
                    pairing,
                    &entries,
                    &inputs.pairs,
                    |_, p| libs::fluent_uri(&p.base, &p.reference),
                ),
                "rfc3986/iri-string" => compare_resolution(
                    pairing,
                    &entries,
                    &inputs.pairs,
                    |_, p| libs::iri_string(&p.base, &p.reference),
                ),
                "rfc3986/oxiri" => compare_resolution(
                    pairing,
                    &entries,
                    &inputs.pairs,
                    |_, p| libs::oxiri(&p.base, &p.reference),
                ),
                "rfc3986/url-join" => compare_resolution(
                    pairing,
                    &entries,
                    &inputs.pairs,
                    |_, p| libs::url_join(&p.base, &p.reference),
                ),
                "rfc3986/fluent-uri-parse" => compare_split(
                    pairing,
                    &entries,
                    &inputs.urls,
                    |_, u| libs::fluent_uri_split(&u.url),
                    |p| p,
                ),
                "rfc3986/iri-string-parse" => compare_split(
                    pairing,
                    &entries,
                    &inputs.urls,
                    |_, u| libs::iri_string_split(&u.url),
                    |p| p,
                ),
                _ => continue, // the out-of-process pairs, below
            };
            tallies.insert(pairing.name, tally);
        }
        let python = python.map(|h| h.join().expect("python thread"));
        let java = java.map(|h| h.join().expect("java thread"));
        (python, java, tallies)
    });

    let n = inputs.pairs.len();
    let external = [
        (
            "python3",
            "rfc3986/python-urljoin",
            "rfc3986/python-urlsplit",
            &python,
        ),
        ("java", "rfc2396/java-uri-resolve", "rfc2396/java-uri-parse", &java),
    ];
    for (tool, join_name, split_name, answers) in external {
        let pairing = |name| PAIRINGS.iter().find(|p| p.name == name).unwrap();
        let Some((answers, took)) = answers else {
            let missing = if tool == "java" && oracle::available("java") {
                "javac"
            } else {
                tool
            };
            for name in [join_name, split_name] {
                println!("notice: {missing} not found; skipping {name}");
                tallies.insert(
                    name,
                    Tally {
                        skipped: Some(format!("{missing} not found")),
                        ..Tally::default()
                    },
                );
            }
            continue;
        };
        println!(
            "{tool} {} answered {} requests in {:.1?}",
            answers.version,
            answers.answers.len(),
            took
        );
        let entries = |name: &str| -> Vec<&Entry> {
            all_entries.iter().filter(|e| e.pair == name).collect()
        };
        let mut t = compare_resolution(
            pairing(join_name),
            &entries(join_name),
            &inputs.pairs,
            |i, _| {
                oracle::result(&answers.answers[i])
                    .map(|v| v.as_str().unwrap_or_default().to_string())
            },
        );
        t.version = Some(answers.version.clone());
        tallies.insert(join_name, t);
        let is_python = tool == "python3";
        let mut t = compare_split(
            pairing(split_name),
            &entries(split_name),
            &inputs.urls,
            |i, _| {
                oracle::result(&answers.answers[n + i]).map(|v| {
                    if is_python {
                        python_parts(v)
                    } else {
                        java_parts(v)
                    }
                })
            },
            |p| if is_python { p.flattened() } else { p },
        );
        t.version = Some(answers.version.clone());
        tallies.insert(split_name, t);
    }

    let unexplained = report(&tallies, &all_entries);
    println!("differential: {mode}; finished in {:.1?}", started.elapsed());
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(
        unexplained,
        0,
        "{unexplained} unexplained disagreements (see above); fix urlspec or \
         add a justified entry to {}",
        deviations::FILE
    );
}

/// Prints the details and the summary table; returns the number of
/// unexplained disagreements.
fn report(
    tallies: &BTreeMap<&'static str, Tally>,
    entries: &[Entry],
) -> usize {
    let mut unexplained = 0;
    for pairing in PAIRINGS {
        let Some(t) = tallies.get(pairing.name) else { continue };
        println!();
        println!(
            "== {}: urlspec {} vs {}{} ==",
            pairing.name,
            pairing.spec,
            pairing.other,
            t.version.as_ref().map_or(String::new(), |v| format!(" ({v})"))
        );
        if let Some(why) = &t.skipped {
            println!("   skipped: {why}");
            continue;
        }
        for (source, n) in &t.compared {
            let a = t.agreed.get(source).copied().unwrap_or(0);
            println!(
                "   {source:<18} {n:>7} compared {a:>7} agree ({:.2}%)",
                rate(a, *n)
            );
        }
        for (id, n) in &t.explained {
            let bug = entries.iter().any(|e| e.id == *id && e.urlspec_bug);
            println!(
                "   explained {n:>6} x {id}{}",
                if bug { "  [URLSPEC BUG]" } else { "" }
            );
        }
        for (ids, n) in &t.combined {
            println!("     combined {n:>5} x {ids}");
        }
        for (class, (n, example)) in &t.classes {
            println!("   class {n:>6} x {class}\n        e.g. {example}");
        }
        if t.unexplained > 0 {
            unexplained += t.unexplained;
            println!("   UNEXPLAINED {}:", t.unexplained);
            if let Some(dir) = dump_dir() {
                let mut text = String::new();
                for e in &t.examples {
                    text.push_str(&format!(
                        "[{}] {}\n    urlspec: {}\n    other:   {}\n",
                        e.source, e.input, e.ours, e.theirs
                    ));
                }
                let file = dir.join(pairing.name.replace('/', "_") + ".txt");
                let _ = fs::create_dir_all(&dir);
                fs::write(&file, text)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                println!("     (all written to {})", file.display());
            }
            for e in t.examples.iter().take(EXAMPLES) {
                println!(
                    "     [{}] {}\n        urlspec: {}\n        other:   {}",
                    e.source, e.input, e.ours, e.theirs
                );
            }
        }
    }
    println!();
    println!(
        "{:<28} {:>8} {:>8} {:>9} {:>11} {:>9}",
        "pair", "inputs", "agree", "explained", "unexplained", "agreement"
    );
    for pairing in PAIRINGS {
        let Some(t) = tallies.get(pairing.name) else { continue };
        if let Some(why) = &t.skipped {
            println!("{:<28} skipped ({why})", pairing.name);
            continue;
        }
        let (n, a) = t.totals();
        let explained = if pairing.info_only {
            format!("{} cls", t.classes.len())
        } else {
            t.explained_total.to_string()
        };
        println!(
            "{:<28} {n:>8} {a:>8} {explained:>9} {:>11} {:>8.2}%",
            pairing.name,
            if pairing.info_only {
                "info".to_string()
            } else {
                t.unexplained.to_string()
            },
            rate(a, n)
        );
    }
    let count = |e: &Entry| -> usize {
        tallies.values().filter_map(|t| t.explained.get(&e.id)).sum()
    };
    let bugs: Vec<&Entry> = entries.iter().filter(|e| e.urlspec_bug).collect();
    println!();
    if bugs.is_empty() {
        println!("urlspec bugs recorded in {}: none", deviations::FILE);
    } else {
        println!("urlspec bugs recorded in {}:", deviations::FILE);
        for e in bugs {
            println!(
                "   {} ({}): {} inputs; {}",
                e.id,
                e.pair,
                count(e),
                e.clause
            );
            if let Some(note) = &e.note {
                println!("      {note}");
            }
        }
    }
    // Entries of pairs that ran but explained nothing: a bounded sample
    // may miss them; in a full run they are candidates for removal.
    let idle: Vec<&str> = entries
        .iter()
        .filter(|e| {
            tallies.get(e.pair.as_str()).is_some_and(|t| t.skipped.is_none())
                && count(e) == 0
        })
        .map(|e| e.id.as_str())
        .collect();
    if !idle.is_empty() {
        println!(
            "notice: entries that explained nothing in this run: {}",
            idle.join(", ")
        );
    }
    unexplained
}

/// `a` of `n` in percent.
fn rate(a: usize, n: usize) -> f64 {
    if n == 0 {
        100.0
    } else {
        100.0 * a as f64 / n as f64
    }
}
