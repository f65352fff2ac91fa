//! The generated inputs: a deterministic generator (xorshift64*, fixed
//! seed, no dependencies) of base/reference pairs dense in the places where
//! resolvers part ways: dot segments (plain and percent-encoded), empty
//! components, `?`, `#` and `;`, `//` runs, colons in first segments,
//! schemes in other case, rootless and pathless bases, IPv6 and IPvFuture
//! literals, and a few characters outside the grammar (which validating
//! libraries refuse).

/// The seed of the generated inputs: the same pairs on every machine.
pub const SEED: u64 = 0x3986_2396_1808_1630;

/// A xorshift64* generator.
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (zero is replaced, xorshift has no zero
    /// state).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Schemes of bases: common hierarchical ones, upper case, ones Python does
/// not list as relative, and opaque ones.
const BASE_SCHEMES: &[&str] = &[
    "http", "http", "http", "http", "https", "HTTP", "Http", "ftp", "file",
    "foo", "g", "x-y.z+w", "mailto", "urn", "svn+ssh", "ws",
];

/// Authorities, empty and IP literals included.
const AUTHORITIES: &[&str] = &[
    "a",
    "a",
    "a",
    "a.example",
    "A.Example.COM",
    "",
    "u:p@a:8080",
    "u@a",
    "a:",
    "a:80",
    "10.0.0.1",
    "999.1.1.1",
    "[::1]",
    "[2001:db8::7]",
    "[v1.fe]",
    "xn--n3h",
    "a_b",
    "%61",
];

/// Path segments, dense in dots.
const SEGMENTS: &[&str] = &[
    "b", "c", "d", "g", "b", "c", ".", "..", ".", "..", "", "", "d;p",
    "g;x=1", "%2E", "%2e%2E", ".%2e", "%2E.", "g.", "..g", ".g", "g..", "x:y",
    "~u", "%41", "a=1", "@", "a%2Fb", "...",
];

/// Rare segments that are not RFC 3986 `pchar`s: the validating libraries
/// refuse them.
const BAD_SEGMENTS: &[&str] = &["[x]", "a b", "é", "{x}", "a|b", "%zz"];

/// Queries (no `#`).
const QUERIES: &[&str] =
    &["q", "", "y", "a=1&b=2", "y/./x", "y/../x", "?", "x:y@z", "%3F"];

/// Fragments.
const FRAGMENTS: &[&str] = &["f", "", "s", "s/../x", "a#b", "%23"];

/// Schemes a reference may carry besides the base's own.
const OTHER_SCHEMES: &[&str] = &["g", "https", "foo", "urn", "mailto"];

/// A path of `n` segments from [`SEGMENTS`] (rarely [`BAD_SEGMENTS`]),
/// joined by `/`.
fn segments(rng: &mut XorShift, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push('/');
        }
        if rng.chance(3) {
            out.push_str(rng.pick(BAD_SEGMENTS));
        } else {
            out.push_str(rng.pick(SEGMENTS));
        }
    }
    out
}

/// `?query` and `#fragment`, each with the given chance.
fn tail(rng: &mut XorShift, query: usize, fragment: usize) -> String {
    let mut out = String::new();
    if rng.chance(query) {
        out.push('?');
        out.push_str(rng.pick(QUERIES));
    }
    if rng.chance(fragment) {
        out.push('#');
        out.push_str(rng.pick(FRAGMENTS));
    }
    out
}

/// One base: a scheme, then an authority and an absolute or empty path, or
/// no authority and an absolute, rootless or empty path; then a query, and
/// rarely a fragment.
pub fn base(rng: &mut XorShift) -> String {
    let scheme = rng.pick(BASE_SCHEMES);
    let mut out = format!("{scheme}:");
    let opaque = matches!(scheme, "mailto" | "urn");
    if !opaque && rng.chance(85) {
        out.push_str("//");
        out.push_str(rng.pick(AUTHORITIES));
        if !rng.chance(8) {
            out.push('/');
            let n = rng.below(5);
            out.push_str(&segments(rng, n));
        }
    } else {
        match rng.below(10) {
            0 => {}
            1..=4 => {
                out.push('/');
                let n = rng.below(4);
                out.push_str(&segments(rng, n));
            }
            _ => {
                // A rootless path must not start with an empty segment.
                out.push_str(rng.pick(&["x@y", "a", "bar", "h:i", "."]));
                let n = rng.below(3);
                if n > 0 {
                    out.push('/');
                    out.push_str(&segments(rng, n));
                }
            }
        }
    }
    out.push_str(&tail(rng, 40, 6));
    out
}

/// One reference to resolve against `base` (whose scheme a
/// scheme-qualified reference may repeat).
pub fn reference(rng: &mut XorShift, base: &str) -> String {
    let base_scheme = base.split(':').next().unwrap_or("http");
    let mut out = String::new();
    match rng.below(20) {
        // The same document and its components.
        0 => {
            if rng.chance(50) {
                return String::new();
            }
            out.push_str(&tail(rng, 50, 100));
        }
        1 => {
            out.push('?');
            out.push_str(rng.pick(QUERIES));
            out.push_str(&tail(rng, 0, 30));
        }
        // Relative paths, with and without leading dots.
        2..=6 => {
            let lead = rng.pick(&["", "", "./", "../", "../../", "../../../"]);
            out.push_str(lead);
            let n = 1 + rng.below(4);
            let path = segments(rng, n);
            // A first segment with a colon would be a scheme: keep a
            // `./` before it unless the generator wants the scheme.
            if lead.is_empty()
                && path.split('/').next().is_some_and(|s| s.contains(':'))
                && rng.chance(50)
            {
                out.push_str("./");
            }
            out.push_str(&path);
            if rng.chance(20) {
                out.push('/');
            }
            out.push_str(&tail(rng, 25, 20));
        }
        // Dot-only and dot-heavy forms.
        7 | 8 => {
            out.push_str(rng.pick(&[
                ".",
                "..",
                "./",
                "../",
                "../..",
                "../../",
                "../../../..",
                ".//g",
                "..//g",
                "g/..",
                "./g/..",
                "g/./h",
                "g/../h",
                "%2E%2E/g",
                ".%2e/g",
                "%2e",
                "%2E%2E",
                "g/%2E%2E",
                "./..//g",
                ".///g",
                "..///g",
                "a/b/../../..",
                ";x",
                "g;x",
                ";x?y#s",
                "g;x=1/../y",
            ]));
            out.push_str(&tail(rng, 15, 15));
        }
        // Absolute paths.
        9 | 10 => {
            out.push('/');
            let n = rng.below(4);
            out.push_str(&segments(rng, n));
            out.push_str(&tail(rng, 25, 15));
        }
        // Network paths.
        11 | 12 => {
            out.push_str("//");
            out.push_str(rng.pick(AUTHORITIES));
            if rng.chance(80) {
                out.push('/');
                let n = rng.below(4);
                out.push_str(&segments(rng, n));
            }
            out.push_str(&tail(rng, 20, 15));
        }
        13 => {
            out.push_str(rng.pick(&["///g", "//", "///", "////g", "/..//g"]));
            out.push_str(&tail(rng, 10, 10));
        }
        // Scheme-qualified: the base's scheme (as written or in other
        // case) or another one.
        14..=16 => {
            let scheme = match rng.below(4) {
                0 => base_scheme.to_ascii_uppercase(),
                1 => rng.pick(OTHER_SCHEMES).to_string(),
                _ => base_scheme.to_string(),
            };
            out.push_str(&scheme);
            out.push(':');
            match rng.below(4) {
                0 => {}
                1 => {
                    out.push_str("//");
                    out.push_str(rng.pick(AUTHORITIES));
                    out.push('/');
                    let n = rng.below(4);
                    out.push_str(&segments(rng, n));
                }
                2 => {
                    out.push('/');
                    let n = rng.below(4);
                    out.push_str(&segments(rng, n));
                }
                _ => {
                    out.push_str(rng.pick(&["g", "h", "x@y", ".", ".."]));
                    let n = rng.below(3);
                    if n > 0 {
                        out.push('/');
                        out.push_str(&segments(rng, n));
                    }
                }
            }
            out.push_str(&tail(rng, 20, 15));
        }
        // Colons in the first segment, which are or are not schemes.
        17 => {
            out.push_str(rng.pick(&[
                "1x:y",
                "a@b:c",
                "./this:that",
                "this:that",
                "x/y:z",
                "-a:b",
                "+a:b",
                "a:b/../c",
                "%3A:b",
            ]));
            out.push_str(&tail(rng, 15, 15));
        }
        // A few characters outside the grammar, anywhere.
        _ => {
            out.push_str(rng.pick(&[
                "a b", "[x]", "é/g", "g?[x]", "g#[x]", "{g}", "a|b", "\\g",
                "g^", "%", "%g", "`g`", "<g>", "\"g\"",
            ]));
            out.push_str(&tail(rng, 10, 10));
        }
    }
    out
}

/// `n` generated base/reference pairs, the same for a given seed.
pub fn pairs(n: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = XorShift::new(seed);
    (0..n)
        .map(|_| {
            let b = base(&mut rng);
            let r = reference(&mut rng, &b);
            (b, r)
        })
        .collect()
}
