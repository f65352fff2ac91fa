//! Helpers shared by the data-driven test files.

use urlspec::Spec;

#[allow(unused_imports)]
pub use urlspec_test_support::paths::testdata;

/// The specs a data file names: spec names, or the groups `all` (every
/// spec urlspec implements from the documents) and `seed1808` (draft 04,
/// RFC 1808 and the 1996 drafts), as `testdata/README.md` defines them.
pub fn specs<S: AsRef<str>>(names: &[S]) -> Vec<Spec> {
    let mut out = Vec::new();
    for n in names {
        match n.as_ref() {
            "all" => out.extend(Spec::IETF),
            "seed1808" => out.extend([
                Spec::Draft04,
                Spec::Rfc1808,
                Spec::Draft96,
                Spec::Draft96Dec,
            ]),
            n => out.push(n.parse().unwrap_or_else(|e| panic!("{e}"))),
        }
    }
    out
}
