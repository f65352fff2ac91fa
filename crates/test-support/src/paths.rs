//! Where the tests' data lives: the repository's `testdata/`, and the
//! `shared/` folder beside the repository (the URL corpora and the seed
//! documents, which are not part of the repository).

use std::path::{Path, PathBuf};

/// The repository's root.
///
/// ```
/// assert!(urlspec_test_support::paths::repository().join("Cargo.toml").is_file());
/// ```
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's `testdata/` folder.
pub fn testdata() -> PathBuf {
    repository().join("testdata")
}

/// The `shared/` folder beside the repository; it may be absent.
pub fn shared() -> PathBuf {
    repository().join("../shared")
}

/// The URL corpora and test suites: `shared/data/urls/`.
pub fn urls() -> PathBuf {
    shared().join("data/urls")
}

/// The seed documents: `shared/seeds/`.
pub fn seeds() -> PathBuf {
    shared().join("seeds")
}

/// Real WARC and ARC archives of other projects, damage included:
/// `shared/data/warc-real/` (its `MANIFEST.tsv` names each source).
pub fn warc_real() -> PathBuf {
    shared().join("data/warc-real")
}

/// Real pages nobody on this project wrote, each with its URL:
/// `shared/data/browser-pages/` (`pages/NAME.html`, `pages/NAME.url`).
pub fn browser_pages() -> PathBuf {
    shared().join("data/browser-pages")
}
