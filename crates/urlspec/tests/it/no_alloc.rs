//! Parsing and the component getters allocate nothing.
//!
//! The counting global allocator of `urlspec-test-support` (installed by
//! `main.rs` for the whole test binary) wraps the system allocator; it
//! counts only on a thread that has switched counting on, and only while it is on, so
//! the test harness's own allocations (and those of other threads) are not
//! counted. Every URL of `kasztp.txt` (from `shared/data/urls/` beside the
//! workspace, or `$URLSPEC_DATA`) is parsed under every spec; without the
//! corpus a built-in list is used instead.

use std::hint::black_box;
use std::path::PathBuf;

use urlspec::{Reference, Spec};
use urlspec_test_support::alloc::measure;
use urlspec_test_support::paths;

/// The number of allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (out, allocated) = measure(f);
    (out, allocated.count)
}

/// Used when the corpus is absent: one URL per shape that the corpus has,
/// plus the specs' own odd cases.
const BUILT_IN: &[&str] = &[
    "http://a/b/c/d;p?q#f",
    "https://www.example.com/",
    "https://user:pw@example.com:8080/a/b?x=1&y=2#top",
    "http://192.168.0.1/index.html",
    "http://[::1]:80/",
    "http://[v1.x]/",
    "ftp://foo:@host.com/pub/file;type=a",
    "file:///etc/passwd",
    "file://relative/path/x.js",
    "file:///Users/x/a.js?tapmock=%5B%5D",
    "node:fs",
    "mailto:a@b.example",
    "news:comp.infosystems.www",
    "URL:http://a/b",
    "url:",
    "g;x?y#s",
    "../../../g",
    "//net/path?q",
    "a:b:c",
    "http://a/~u/{x}|%zz%41",
    "https://",
    "http://héllo.example/ü?ä#ö",
    "",
    "?",
    "#",
    ";",
    "http://a?q",
    "http://a:/",
    "http://@/",
];

fn data_dir() -> PathBuf {
    match std::env::var_os("URLSPEC_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => paths::urls(),
    }
}

fn corpus() -> Vec<String> {
    let path = data_dir().join("kasztp.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .chain(BUILT_IN.iter().map(|&u| u.to_owned()))
            .collect(),
        Err(e) => {
            eprintln!(
                "note: {}: {e}; using the {} built-in URLs instead \
                 (set URLSPEC_DATA to the corpus directory)",
                path.display(),
                BUILT_IN.len()
            );
            BUILT_IN.iter().map(|&u| u.to_owned()).collect()
        }
    }
}

/// Every getter of a parsed reference and of its server, so that none can
/// be optimized out.
fn use_everything(r: Reference<'_>) {
    black_box((
        r.prefix(),
        r.scheme(),
        r.net_loc(),
        r.authority(),
        r.path(),
        r.params(),
        r.query(),
        r.fragment(),
    ));
    black_box((r.kind(), r.has_hierarchical_path(), r.is_generic()));
    if let Some(s) = r.server() {
        black_box((s.user(), s.password(), s.userinfo(), s.host()));
        black_box((s.port(), s.port_number(), s.host_kind(), s.kind()));
        black_box(s.is_valid());
    }
    black_box(r.is_valid());
}

#[test]
fn parsing_and_getters_do_not_allocate() {
    // Everything that allocates happens before counting starts.
    let urls = corpus();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();

    // The counter works: a `Vec` in the region is seen.
    let ((), n) = allocations(|| {
        black_box(Vec::<u8>::with_capacity(16));
    });
    assert_eq!(n, 1, "the counting allocator does not count");

    for spec in Spec::IETF {
        let (parsed, n) = allocations(|| {
            let mut valid = 0usize;
            for &u in &urls {
                valid += usize::from(black_box(
                    Reference::parse_with(black_box(u), spec).is_valid(),
                ));
            }
            valid
        });
        assert_eq!(n, 0, "{spec:?}: parse + is_valid allocated {n} times");
        black_box(parsed);

        let ((), n) = allocations(|| {
            for &u in &urls {
                use_everything(Reference::parse_with(black_box(u), spec));
            }
        });
        if n > 0 {
            // Find the first culprit, for the message.
            let culprit = urls.iter().find(|&&u| {
                allocations(|| {
                    use_everything(Reference::parse_with(u, spec));
                })
                .1 > 0
            });
            panic!(
                "{spec:?}: getters allocated {n} times; first at {culprit:?}"
            );
        }
    }
}
