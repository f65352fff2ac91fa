//! Shared code of the urlspec benchmarks: loading the URL corpora and the
//! lists of contenders that the criterion benches (`benches/parse.rs`,
//! `benches/resolve.rs`) and the ratio tables (`src/bin/compare.rs`) both
//! measure:
//!
//! * [`PARSERS`] over the URL corpora [`CORPORA`];
//! * [`RESOLVERS`] over the `BASE<TAB>REFERENCE` corpora [`PAIR_CORPORA`];
//! * [`HOSTILE`] over the one pathological pair of [`hostile_pair`];
//! * [`ESCAPES`], escaping and unescaping against the `percent-encoding`
//!   crate, over the URL corpora;
//! * [`whatwg::ENGINES`], the implementations of the WHATWG URL Standard:
//!   pass rate on its test suite, parse and resolve.
//!
//! The corpora are read at run time from `shared/data/urls/` beside the
//! workspace (see its `README.md`), or from the directory named by the
//! `URLSPEC_DATA` environment variable. They are never copied into the
//! repository.

use std::borrow::Cow;
use std::env;
use std::fs;
use std::hint::black_box;
use std::io;
use std::path::PathBuf;
use std::sync::LazyLock;

pub mod pages;
pub mod whatwg;

use urlspec::escape::{self, Component};
use urlspec::resolve::{Options, Resolver};
use urlspec::{Reference, Spec};

/// The environment variable that overrides the corpus directory.
pub const DATA_ENV: &str = "URLSPEC_DATA";

/// The corpora every bench runs over, one URL per line.
pub const CORPORA: [&str; 4] =
    ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"];

/// The directory holding the corpora: `$URLSPEC_DATA` when set, else
/// `shared/data/urls` next to the workspace root.
pub fn data_dir() -> PathBuf {
    match env::var_os(DATA_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/data/urls"),
    }
}

/// One corpus: its file name and whole text.
pub struct Corpus {
    /// The file name, e.g. `kasztp.txt`.
    pub name: &'static str,
    text: String,
}

impl Corpus {
    /// Reads corpus `name` from [`data_dir`].
    pub fn load(name: &'static str) -> io::Result<Corpus> {
        Ok(Corpus { name, text: read_data(name)? })
    }

    /// The corpus name without its `.txt`.
    pub fn short_name(&self) -> &'static str {
        self.name.strip_suffix(".txt").unwrap_or(self.name)
    }

    /// The URLs, one per non-empty line, borrowing the corpus text (one
    /// buffer, so a pass over the corpus walks memory in order).
    pub fn urls(&self) -> Vec<&str> {
        self.text.lines().filter(|l| !l.is_empty()).collect()
    }

    /// The total length of the URLs in bytes.
    pub fn bytes(&self) -> usize {
        self.urls().iter().map(|u| u.len()).sum()
    }
}

/// Reads data file `name` from [`data_dir`], saying where it looked when
/// it is missing.
fn read_data(name: &str) -> io::Result<String> {
    let path = data_dir().join(name);
    fs::read_to_string(&path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "{}: {e} (set {DATA_ENV} to the corpus directory)",
                path.display()
            ),
        )
    })
}

/// Loads every corpus of [`CORPORA`], or says which one is missing.
pub fn load_all() -> io::Result<Vec<Corpus>> {
    CORPORA.iter().map(|&name| Corpus::load(name)).collect()
}

/// What a parser does with one URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A byte loop that parses nothing: the lower bound.
    Floor,
    /// Splits into components and never fails.
    Split,
    /// Checks the whole grammar, and so accepts or rejects.
    Validate,
}

/// One parser under measurement.
pub struct Parser {
    /// The name in bench ids and in the table.
    pub name: &'static str,
    /// What the parser does.
    pub work: Work,
    /// Runs the parser over every URL; for [`Work::Validate`] returns how
    /// many URLs were accepted, otherwise a checksum.
    pub run: fn(&[&str]) -> usize,
}

/// The urlspec parser under RFC 1808, the baseline of every ratio.
pub const BASELINE: &str = "urlspec-rfc1808";

/// The floor: a plain byte loop, the baseline of the second ratio.
pub const FLOOR: &str = "floor";

/// Every parser, in table order.
pub const PARSERS: &[Parser] = &[
    Parser { name: FLOOR, work: Work::Floor, run: floor },
    Parser { name: BASELINE, work: Work::Split, run: urlspec_rfc1808 },
    Parser {
        name: "urlspec-rfc3986",
        work: Work::Split,
        run: urlspec_rfc3986,
    },
    Parser {
        name: "urlspec-rfc1808+valid",
        work: Work::Validate,
        run: urlspec_rfc1808_valid,
    },
    Parser {
        name: "urlspec-rfc3986+valid",
        work: Work::Validate,
        run: urlspec_rfc3986_valid,
    },
    Parser {
        name: "oxiri-unchecked",
        work: Work::Split,
        run: oxiri_iri_ref_unchecked,
    },
    Parser { name: "fluent-uri", work: Work::Validate, run: fluent_uri },
    Parser { name: "oxiri", work: Work::Validate, run: oxiri_iri_ref },
    Parser { name: "iri-string", work: Work::Validate, run: iri_string },
    Parser { name: "url", work: Work::Validate, run: url },
];

/// Counts `/` and `?` in every URL: touches each byte once and parses
/// nothing.
pub fn floor(urls: &[&str]) -> usize {
    let mut total = 0;
    for u in urls {
        let n = u.bytes().filter(|&b| b == b'/' || b == b'?').count();
        total += black_box(n);
    }
    total
}

fn split(urls: &[&str], spec: Spec) -> usize {
    for u in urls {
        black_box(Reference::parse_with(black_box(u), spec));
    }
    urls.len()
}

fn valid(urls: &[&str], spec: Spec) -> usize {
    urls.iter()
        .filter(|u| {
            black_box(Reference::parse_with(black_box(u), spec).is_valid())
        })
        .count()
}

/// `urlspec::Reference::parse_with(u, Spec::Rfc1808)`.
pub fn urlspec_rfc1808(urls: &[&str]) -> usize {
    split(urls, Spec::Rfc1808)
}

/// `urlspec::Reference::parse_with(u, Spec::Rfc3986)`.
pub fn urlspec_rfc3986(urls: &[&str]) -> usize {
    split(urls, Spec::Rfc3986)
}

/// Parse plus `is_valid()` under RFC 1808.
pub fn urlspec_rfc1808_valid(urls: &[&str]) -> usize {
    valid(urls, Spec::Rfc1808)
}

/// Parse plus `is_valid()` under RFC 3986.
pub fn urlspec_rfc3986_valid(urls: &[&str]) -> usize {
    valid(urls, Spec::Rfc3986)
}

/// `fluent_uri::UriRef::parse`: RFC 3986 URI-reference, validating.
pub fn fluent_uri(urls: &[&str]) -> usize {
    urls.iter()
        .filter(|&&u| {
            black_box(fluent_uri::UriRef::parse(black_box(u))).is_ok()
        })
        .count()
}

/// `oxiri::IriRef::parse`: RFC 3987 IRI-reference, validating.
pub fn oxiri_iri_ref(urls: &[&str]) -> usize {
    urls.iter()
        .filter(|&&u| black_box(oxiri::IriRef::parse(black_box(u))).is_ok())
        .count()
}

/// `oxiri::IriRef::parse_unchecked`: splits without validating, the
/// counterpart of urlspec's plain parse.
pub fn oxiri_iri_ref_unchecked(urls: &[&str]) -> usize {
    for &u in urls {
        black_box(oxiri::IriRef::parse_unchecked(black_box(u)));
    }
    urls.len()
}

/// `iri_string::types::UriReferenceStr::new`: RFC 3986 URI-reference,
/// validating only (it keeps no component offsets).
pub fn iri_string(urls: &[&str]) -> usize {
    use iri_string::types::UriReferenceStr;
    urls.iter()
        .filter(|&&u| black_box(UriReferenceStr::new(black_box(u))).is_ok())
        .count()
}

/// `url::Url::parse`: WHATWG URL, absolute only, normalizing into an owned
/// string.
pub fn url(urls: &[&str]) -> usize {
    urls.iter()
        .filter(|&&u| black_box(url::Url::parse(black_box(u))).is_ok())
        .count()
}

// ---------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------

/// The corpora of `BASE<TAB>REFERENCE` pairs the resolution benches run
/// over.
pub const PAIR_CORPORA: [&str; 2] =
    ["relative-pairs.tsv", "cc-relative-10k.tsv"];

/// A base URL and a reference to resolve against it.
pub type Pair<'a> = (&'a str, &'a str);

/// One corpus of pairs: its file name and whole text.
pub struct PairCorpus {
    /// The file name, e.g. `relative-pairs.tsv`.
    pub name: &'static str,
    text: String,
}

impl PairCorpus {
    /// Reads pair corpus `name` from [`data_dir`].
    pub fn load(name: &'static str) -> io::Result<PairCorpus> {
        Ok(PairCorpus { name, text: read_data(name)? })
    }

    /// The corpus name without its `.tsv`.
    pub fn short_name(&self) -> &'static str {
        self.name.strip_suffix(".tsv").unwrap_or(self.name)
    }

    /// The pairs, one per non-empty line, split at the first tab (a line
    /// without a tab is a base with an empty reference), borrowing the
    /// corpus text. Splitting happens here, outside any timed loop.
    pub fn pairs(&self) -> Vec<Pair<'_>> {
        self.text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.split_once('\t').unwrap_or((l, "")))
            .collect()
    }

    /// The total length of the bases and references in bytes.
    pub fn bytes(&self) -> usize {
        self.pairs().iter().map(|(b, r)| b.len() + r.len()).sum()
    }
}

/// Loads every corpus of [`PAIR_CORPORA`], or says which one is missing.
pub fn load_all_pairs() -> io::Result<Vec<PairCorpus>> {
    PAIR_CORPORA.iter().map(|&name| PairCorpus::load(name)).collect()
}

/// One resolver under measurement. The work per pair is: parse the base,
/// parse the reference, resolve, and produce the result as an owned
/// `String` (which the timed loop then drops).
pub struct Resolution {
    /// The name in bench ids and in the table.
    pub name: &'static str,
    /// Resolves one pair, `None` when the library refuses it (outside the
    /// timed loops: for the difference counts).
    pub one: fn(&str, &str) -> Option<String>,
    /// Resolves every pair, returning how many were resolved.
    pub run: fn(&[Pair<'_>]) -> usize,
}

/// urlspec under RFC 3986, the baseline of the resolution ratios and of
/// the difference counts.
pub const RESOLVE_BASELINE: &str = "urlspec-rfc3986";

/// Every resolver, in table order.
pub const RESOLVERS: &[Resolution] = &[
    Resolution {
        name: RESOLVE_BASELINE,
        one: urlspec_resolve_rfc3986,
        run: |pairs| resolve_all(pairs, urlspec_resolve_rfc3986),
    },
    Resolution {
        name: "urlspec-rfc3986-base-once",
        one: urlspec_resolve_rfc3986,
        run: urlspec_resolve_rfc3986_base_once,
    },
    Resolution {
        name: "urlspec-rfc1808",
        one: urlspec_resolve_rfc1808,
        run: |pairs| resolve_all(pairs, urlspec_resolve_rfc1808),
    },
    Resolution {
        name: "url-join",
        one: url_join,
        run: |pairs| resolve_all(pairs, url_join),
    },
    Resolution {
        name: "fluent-uri",
        one: fluent_uri_resolve,
        run: |pairs| resolve_all(pairs, fluent_uri_resolve),
    },
    Resolution {
        name: "oxiri",
        one: oxiri_resolve,
        run: |pairs| resolve_all(pairs, oxiri_resolve),
    },
];

/// The resolvers whose results are compared with [`RESOLVE_BASELINE`]'s:
/// the other two RFC 3986 implementations.
pub const DIFFERENTIAL: [&str; 2] = ["fluent-uri", "oxiri"];

/// The resolver named `name` in [`RESOLVERS`].
pub fn resolver(name: &str) -> Option<&'static Resolution> {
    RESOLVERS.iter().find(|r| r.name == name)
}

/// Runs `one` over every pair (monomorphized per resolver, so the call is
/// inlined) and counts the successes.
fn resolve_all(
    pairs: &[Pair<'_>],
    one: impl Fn(&str, &str) -> Option<String>,
) -> usize {
    pairs
        .iter()
        .filter(|&&(base, reference)| {
            black_box(one(black_box(base), black_box(reference))).is_some()
        })
        .count()
}

/// `urlspec::resolve::resolve(base, reference, spec)`: the one-shot API,
/// which parses the base for this one reference ([`Resolver`] parses it
/// once for many; see [`urlspec_resolve_rfc3986_base_once`]).
fn urlspec_resolve(base: &str, reference: &str, spec: Spec) -> Option<String> {
    urlspec::resolve::resolve(base, reference, spec).ok().map(|r| r.href)
}

/// `resolve(base, reference, Spec::Rfc3986)`.
pub fn urlspec_resolve_rfc3986(base: &str, reference: &str) -> Option<String> {
    urlspec_resolve(base, reference, Spec::Rfc3986)
}

/// `resolve(base, reference, Spec::Rfc1808)`.
pub fn urlspec_resolve_rfc1808(base: &str, reference: &str) -> Option<String> {
    urlspec_resolve(base, reference, Spec::Rfc1808)
}

/// Like [`urlspec_resolve_rfc3986`] over every pair, but parses a base
/// only when it differs from the previous pair's (pages of the Common
/// Crawl corpus contribute runs of pairs with the same base).
pub fn urlspec_resolve_rfc3986_base_once(pairs: &[Pair<'_>]) -> usize {
    let mut ok = 0;
    let mut current: Option<Resolver<'_>> = None;
    for &(base, reference) in pairs {
        let base = black_box(base);
        let resolver = match current {
            Some(r) if r.base().map(|b| b.as_str()) == Some(base) => r,
            _ => *current.insert(Resolver::new(base, Spec::Rfc3986)),
        };
        let href = resolver.resolve(black_box(reference)).ok().map(|r| r.href);
        ok += usize::from(black_box(href).is_some());
    }
    ok
}

/// `url::Url::parse(base)?.join(reference)`, into its `String`.
pub fn url_join(base: &str, reference: &str) -> Option<String> {
    let base = url::Url::parse(base).ok()?;
    base.join(reference).ok().map(String::from)
}

/// `fluent_uri::UriRef::parse(reference)?.resolve_against(&Uri::parse(base)?)`,
/// into its `String`. The base must be an absolute URI without a fragment.
pub fn fluent_uri_resolve(base: &str, reference: &str) -> Option<String> {
    let base = fluent_uri::Uri::parse(base).ok()?;
    let reference = fluent_uri::UriRef::parse(reference).ok()?;
    reference.resolve_against(&base).ok().map(|u| u.into_string())
}

/// `oxiri::Iri::parse(base)?.resolve(&IriRef::parse(reference)?)`, into its
/// `String`.
pub fn oxiri_resolve(base: &str, reference: &str) -> Option<String> {
    let base = oxiri::Iri::parse(base).ok()?;
    let reference = oxiri::IriRef::parse(reference).ok()?;
    base.resolve(&reference).ok().map(|i| i.into_inner())
}

/// A timed pass over pairs whose bases were parsed beforehand: resolves
/// every reference against its base and counts the successes.
pub type PreparedRun<'a> = Box<dyn Fn() -> usize + 'a>;

/// One resolver with every base parsed before the timed loop, as a
/// program that resolves many references against one page's base does.
/// The work per pair is: parse the reference, resolve, and produce the
/// result as an owned `String`.
pub struct PreparedResolution {
    /// The name in the table.
    pub name: &'static str,
    /// Parses every base (not timed) and gives the timed pass.
    pub prepare: for<'a> fn(&[Pair<'a>]) -> PreparedRun<'a>,
}

/// Strict resolution: a reference outside its spec's grammar is refused,
/// as oxiri and fluent-uri refuse it.
fn strict() -> Options {
    Options::default().strict(true)
}

/// Every resolver with prepared bases, in table order; the first is the
/// baseline of the ratios.
pub const PREPARED_RESOLVERS: &[PreparedResolution] = &[
    PreparedResolution {
        name: "urlspec-rfc3986",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| Some(Resolver::new(b, Spec::Rfc3986)),
                |base, r| base.resolve(r).ok().map(|r| r.href),
            )
        },
    },
    PreparedResolution {
        name: "urlspec-rfc1808",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| Some(Resolver::new(b, Spec::Rfc1808)),
                |base, r| base.resolve(r).ok().map(|r| r.href),
            )
        },
    },
    PreparedResolution {
        name: "urlspec-rfc3986-strict",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| Some(Resolver::with_options(b, Spec::Rfc3986, strict())),
                |base, r| base.resolve(r).ok().map(|r| r.href),
            )
        },
    },
    PreparedResolution {
        name: "urlspec-rfc1808-strict",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| Some(Resolver::with_options(b, Spec::Rfc1808, strict())),
                |base, r| base.resolve(r).ok().map(|r| r.href),
            )
        },
    },
    PreparedResolution {
        name: "url-join",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| url::Url::parse(b).ok(),
                |base, r| base.join(r).ok().map(String::from),
            )
        },
    },
    PreparedResolution {
        name: "fluent-uri",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| fluent_uri::Uri::parse(b).ok(),
                |base, r| {
                    let r = fluent_uri::UriRef::parse(r).ok()?;
                    r.resolve_against(base).ok().map(|u| u.into_string())
                },
            )
        },
    },
    PreparedResolution {
        name: "oxiri",
        prepare: |pairs| {
            prepared(
                pairs,
                |b| oxiri::Iri::parse(b).ok(),
                |base, r| {
                    let r = oxiri::IriRef::parse(r).ok()?;
                    base.resolve(&r).ok().map(|i| i.into_inner())
                },
            )
        },
    },
];

/// The prepared resolver named `name` in [`PREPARED_RESOLVERS`].
pub fn prepared_resolver(name: &str) -> Option<&'static PreparedResolution> {
    PREPARED_RESOLVERS.iter().find(|r| r.name == name)
}

/// Parses every base of `pairs` with `parse` (a refused base refuses its
/// pair), and gives the pass that resolves each reference with `one`.
fn prepared<'a, B: 'a>(
    pairs: &[Pair<'a>],
    parse: impl Fn(&'a str) -> Option<B>,
    one: impl Fn(&B, &str) -> Option<String> + 'a,
) -> PreparedRun<'a> {
    let items: Vec<(Option<B>, &'a str)> =
        pairs.iter().map(|&(b, r)| (parse(b), r)).collect();
    Box::new(move || {
        items
            .iter()
            .filter(|(base, r)| {
                let href = base.as_ref().and_then(|b| one(b, black_box(r)));
                black_box(href).is_some()
            })
            .count()
    })
}

/// A pair on which two resolvers disagree.
#[derive(Clone, Debug)]
pub struct Difference<'a> {
    /// The pair's index in the corpus, from 1 (its line number when the
    /// corpus has no empty lines).
    pub number: usize,
    /// The pair.
    pub pair: Pair<'a>,
    /// The first resolver's result (`None`: refused).
    pub left: Option<String>,
    /// The second resolver's result.
    pub right: Option<String>,
}

/// Every pair on which `left` and `right` give different results, counting
/// a refusal as a result. Not timed.
pub fn differences<'a>(
    pairs: &[Pair<'a>],
    left: &Resolution,
    right: &Resolution,
) -> Vec<Difference<'a>> {
    pairs
        .iter()
        .enumerate()
        .filter_map(|(i, &(base, reference))| {
            let l = (left.one)(base, reference);
            let r = (right.one)(base, reference);
            (l != r).then_some(Difference {
                number: i + 1,
                pair: (base, reference),
                left: l,
                right: r,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The hostile reference
// ---------------------------------------------------------------------------

/// The base of the hostile pair.
pub const HOSTILE_BASE: &str = "http://a/b/c/d";

/// How many `../` segments the hostile reference has before its `g`.
pub const HOSTILE_DOTDOTS: usize = 1_000_000;

/// The hostile reference: [`HOSTILE_DOTDOTS`] times `../`, then `g`
/// (3,000,001 bytes). A resolver that rescans the output for every `..`
/// is quadratic on it.
pub fn hostile_reference() -> String {
    let mut r = "../".repeat(HOSTILE_DOTDOTS);
    r.push('g');
    r
}

/// The hostile pair: [`HOSTILE_BASE`] and the given [`hostile_reference`].
pub fn hostile_pair(reference: &str) -> [Pair<'_>; 1] {
    [(HOSTILE_BASE, reference)]
}

/// The floor of the hostile group: copying the reference into a new
/// `String`, which every resolver must at least read.
pub const COPY: &str = "copy";

/// `String::from(reference)`: the cost of reading the reference once and
/// producing an owned string.
pub fn copy_reference(_base: &str, reference: &str) -> Option<String> {
    Some(String::from(reference))
}

/// The contenders of the hostile group, each run over the one-element
/// [`hostile_pair`]; the first is the [`COPY`] floor. All of them finish
/// a call in well under a second (url's `join` included), so none is left
/// out. RFC 1808 keeps the `..` that cannot be removed, so its result is
/// as long as the reference; the others give `http://a/g`.
pub const HOSTILE: &[Resolution] = &[
    Resolution {
        name: COPY,
        one: copy_reference,
        run: |pairs| resolve_all(pairs, copy_reference),
    },
    Resolution {
        name: "urlspec-rfc3986",
        one: urlspec_resolve_rfc3986,
        run: |pairs| resolve_all(pairs, urlspec_resolve_rfc3986),
    },
    Resolution {
        name: "urlspec-rfc1808",
        one: urlspec_resolve_rfc1808,
        run: |pairs| resolve_all(pairs, urlspec_resolve_rfc1808),
    },
    Resolution {
        name: "fluent-uri",
        one: fluent_uri_resolve,
        run: |pairs| resolve_all(pairs, fluent_uri_resolve),
    },
    Resolution {
        name: "oxiri",
        one: oxiri_resolve,
        run: |pairs| resolve_all(pairs, oxiri_resolve),
    },
    Resolution {
        name: "url-join",
        one: url_join,
        run: |pairs| resolve_all(pairs, url_join),
    },
];

// ---------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------

/// What an escape case feeds its contenders, made from a URL corpus
/// outside any timed loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeInput {
    /// The URLs as they are (for unescaping: those whose every `%` starts
    /// an escape, which both contenders then decode alike). Escaping them
    /// as query data changes few; unescaping them changes fewer still.
    Urls,
    /// The URLs escaped as path-segment data: every one holds escapes.
    Escaped,
}

/// One escaping or unescaping contender.
pub struct Escaper {
    /// The name in bench ids and in the table.
    pub name: &'static str,
    /// Runs over every input, returning the total length of the outputs.
    pub run: fn(&[&str]) -> usize,
    /// One input's output as bytes, for checking that the contenders of a
    /// case agree (not timed).
    pub one: fn(&str) -> Vec<u8>,
}

/// One escape case: an input and its contenders, `percent-encoding` first
/// (the baseline of the ratios).
pub struct EscapeCase {
    /// The case's name in bench ids and in the table.
    pub name: &'static str,
    /// What the contenders are fed.
    pub input: EscapeInput,
    /// The contenders, the baseline first.
    pub contenders: &'static [Escaper],
}

impl EscapeCase {
    /// The inputs of the case made from `urls`.
    pub fn inputs(&self, urls: &[&str]) -> Vec<String> {
        match self.input {
            EscapeInput::Urls if self.name.starts_with("unescape") => urls
                .iter()
                .filter(|u| escape::unescape(u).is_ok())
                .map(|&u| u.to_owned())
                .collect(),
            EscapeInput::Urls => urls.iter().map(|&u| u.to_owned()).collect(),
            EscapeInput::Escaped => urls
                .iter()
                .map(|u| {
                    escape::escape(u, Component::PathSegment, Spec::Rfc3986)
                        .into_owned()
                })
                .collect(),
        }
    }
}

/// The baseline of the escape ratios.
pub const PERCENT_ENCODING: &str = "percent-encoding";

/// The escape cases, each over every corpus of [`CORPORA`]: RFC 3986 data
/// characters for a query and for a path segment (the `percent-encoding`
/// set is built from the same class, so both give the same text), and
/// decoding to bytes.
pub const ESCAPES: &[EscapeCase] = &[
    EscapeCase {
        name: "escape-query",
        input: EscapeInput::Urls,
        contenders: &[
            Escaper {
                name: PERCENT_ENCODING,
                run: |xs| sum(xs, |x| pe_escape(x, &QUERY_SET).len()),
                one: |x| pe_escape(x, &QUERY_SET).as_bytes().to_vec(),
            },
            Escaper {
                name: "urlspec",
                run: |xs| sum(xs, |x| us_escape(x, Component::Query).len()),
                one: |x| us_escape(x, Component::Query).as_bytes().to_vec(),
            },
        ],
    },
    EscapeCase {
        name: "escape-segment",
        input: EscapeInput::Urls,
        contenders: &[
            Escaper {
                name: PERCENT_ENCODING,
                run: |xs| sum(xs, |x| pe_escape(x, &SEGMENT_SET).len()),
                one: |x| pe_escape(x, &SEGMENT_SET).as_bytes().to_vec(),
            },
            Escaper {
                name: "urlspec",
                run: |xs| {
                    sum(xs, |x| us_escape(x, Component::PathSegment).len())
                },
                one: |x| {
                    us_escape(x, Component::PathSegment).as_bytes().to_vec()
                },
            },
        ],
    },
    EscapeCase {
        name: "unescape",
        input: EscapeInput::Urls,
        contenders: UNESCAPERS,
    },
    EscapeCase {
        name: "unescape-escaped",
        input: EscapeInput::Escaped,
        contenders: UNESCAPERS,
    },
];

const UNESCAPERS: &[Escaper] = &[
    Escaper {
        name: PERCENT_ENCODING,
        run: |xs| sum(xs, |x| pe_unescape(x).len()),
        one: |x| pe_unescape(x).into_owned(),
    },
    Escaper {
        name: "urlspec",
        run: |xs| sum(xs, |x| us_unescape(x).len()),
        one: |x| us_unescape(x).into_owned(),
    },
];

/// Runs `f` over every input (monomorphized per contender, so the call is
/// inlined) and sums the results.
fn sum(xs: &[&str], f: impl Fn(&str) -> usize) -> usize {
    xs.iter().map(|&x| black_box(f(black_box(x)))).sum()
}

/// The bytes outside `component`'s RFC 3986 data characters, as a
/// `percent-encoding` set (which escapes non-ASCII bytes itself).
fn ascii_set(component: Component) -> percent_encoding::AsciiSet {
    let keep = component.data_chars(Spec::Rfc3986);
    (0u8..128)
        .filter(|&b| !keep.contains(b))
        .fold(percent_encoding::AsciiSet::EMPTY, |set, b| set.add(b))
}

static QUERY_SET: LazyLock<percent_encoding::AsciiSet> =
    LazyLock::new(|| ascii_set(Component::Query));
static SEGMENT_SET: LazyLock<percent_encoding::AsciiSet> =
    LazyLock::new(|| ascii_set(Component::PathSegment));

/// `percent_encoding::utf8_percent_encode(x, set)` into a `Cow` (borrowed
/// when nothing changes).
fn pe_escape<'a>(
    x: &'a str,
    set: &'static percent_encoding::AsciiSet,
) -> Cow<'a, str> {
    percent_encoding::utf8_percent_encode(x, set).into()
}

/// `urlspec::escape::escape(x, component, Spec::Rfc3986)`.
fn us_escape(x: &str, component: Component) -> Cow<'_, str> {
    escape::escape(x, component, Spec::Rfc3986)
}

/// `percent_encoding::percent_decode_str(x)` into a `Cow<[u8]>`.
fn pe_unescape(x: &str) -> Cow<'_, [u8]> {
    percent_encoding::percent_decode_str(x).into()
}

/// `urlspec::escape::unescape(x)` (its inputs are valid).
fn us_unescape(x: &str) -> Cow<'_, [u8]> {
    escape::unescape(x).unwrap_or(Cow::Borrowed(b""))
}
