//! Shared code of the urlspec benchmarks: loading the URL corpora and the
//! list of parsers that the criterion benches (`benches/parse.rs`) and the
//! ratio table (`src/bin/compare.rs`) both measure.
//!
//! The corpora are read at run time from `shared/data/urls/` beside the
//! workspace (see its `README.md`), or from the directory named by the
//! `URLSPEC_DATA` environment variable. They are never copied into the
//! repository.

use std::env;
use std::fs;
use std::hint::black_box;
use std::io;
use std::path::PathBuf;

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
        let path = data_dir().join(name);
        let text = fs::read_to_string(&path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "{}: {e} (set {DATA_ENV} to the corpus directory)",
                    path.display()
                ),
            )
        })?;
        Ok(Corpus { name, text })
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
