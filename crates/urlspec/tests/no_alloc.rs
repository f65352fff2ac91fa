//! Parsing and the component getters allocate nothing.
//!
//! A counting global allocator wraps the system allocator; it counts only
//! on a thread that has switched counting on, and only while it is on, so
//! the test harness's own allocations (and those of other threads) are not
//! counted. Every URL of `kasztp.txt` (from `shared/data/urls/` beside the
//! workspace, or `$URLSPEC_DATA`) is parsed under every spec; without the
//! corpus a built-in list is used instead.

// The one exception to the workspace's `unsafe_code = "deny"`: implementing
// `GlobalAlloc` takes an `unsafe impl`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use urlspec::{Reference, Spec};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // `const` and `Drop`-free, so reading it never allocates and never
    // re-enters the allocator.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards its arguments unchanged to `System`, which
// upholds the `GlobalAlloc` contract; the only addition is a relaxed counter
// increment, which neither allocates nor touches the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's guarantees for `alloc` pass through as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        note();
        // SAFETY: `ptr` came from `System` through this allocator, and the
        // caller's guarantees for `realloc` pass through as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, ALLOCATIONS.load(Ordering::Relaxed) - before)
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
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/urls"),
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
