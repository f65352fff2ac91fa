//! Generated hostile URLs: pieces that cause the five kinds of URL parsing
//! confusion (scheme, slashes, backslash, percent-encoded data, scheme
//! mix-up; Claroty and Snyk 2022) and Orange Tsai's (2017) `@`, `#` and
//! `:` tricks, mixed at random from a fixed seed: the same list on every
//! run.

/// SplitMix64: a small generator with a fixed seed, so that a failure
/// names inputs that come back on the next run.
pub struct Mix(u64);

impl Mix {
    pub fn new(seed: u64) -> Mix {
        Mix(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const SCHEMES: &[&str] = &[
    "http",
    "https",
    "HTTP",
    "hTtPs",
    "ftp",
    "file",
    "ws",
    "javascript",
    "gopher",
    "foo",
    "a.b",
    "git+ssh",
    "",
    "1http",
    " http",
    "ht\ttp",
    "ht\ntp",
    "\u{0}http",
    "http\u{3000}",
    "h%74tp",
];
const AFTER_SCHEME: &[&str] = &[
    "://", "://", "://", ":", ":/", ":///", "://///", ":\\\\", ":/\\", ":\\/",
    ":\\", "//", "\\\\", ":%2f%2f", ":\t//", ": //", "",
];
const USERINFO: &[&str] = &[
    "",
    "",
    "",
    "user@",
    "u:p@",
    "a@b@",
    "@",
    ":@",
    "%40@",
    "user%40evil.com@",
    "a:b:c@",
    "good.com@",
    "u\\@",
    "u#@",
    "u?@",
    "u/@",
    "[::1]@",
    "ü@",
    "u%3Ap@",
];
const HOSTS: &[&str] = &[
    "example.com",
    "EXAMPLE.com",
    "ex%61mple.com",
    "%65xample.com",
    "ex%00ample.com",
    "ex%2eample.com",
    "127.0.0.1",
    "0x7f.1",
    "2130706433",
    "0177.0.0.1",
    "[::1]",
    "[::1",
    "::1]",
    "[::ffff:127.0.0.1]",
    "[fe80::1%25eth0]",
    "[fe80::1%eth0]",
    "[v1.x]",
    "[vz.x]",
    "[1.2.3.4]",
    "[::1]x",
    "x[::1]",
    "évil.com",
    "ⓔxample.com",
    "example\u{3002}com",
    "a\u{2100}b",
    "ex ample.com",
    "ex\tample.com",
    "ex\u{7f}ample.com",
    "",
    "a.b.c.d.e",
    "localhost.",
    "xn--nxasmq6b",
    "EXAMPLE.COM.",
    "a_b",
];
const PORTS: &[&str] = &[
    "",
    "",
    "",
    ":",
    ":80",
    ":080",
    ":0080",
    ":443",
    ":65535",
    ":65536",
    ":99999",
    ":123456",
    ":-1",
    ":8a",
    ":0",
    ":00",
    ":1:2",
    ": 80",
    ":\u{0661}",
];
const PATHS: &[&str] = &[
    "",
    "/",
    "/p",
    "/a/b",
    "\\p",
    "/a\\b",
    "/../x",
    "/./x",
    "/%2e%2e/x",
    "/a/%2E./b",
    "/a;b",
    "//x",
    "/@evil.com",
    "/é",
    "/a b",
    "/%",
    "/%zz",
    "x/../y",
    "/\u{0}",
];
const TAILS: &[&str] = &[
    "",
    "",
    "",
    "?q",
    "#f",
    "?q#f",
    "#@evil.com",
    "?@evil.com",
    "?a=/\\#b",
    "#a?b",
    "?",
    "#",
    "?%41",
    "#%41",
    "?\u{7f}",
    "?é",
];
const NOISE: &[&str] = &[
    " ", "\t", "\n", "\r", "\u{0}", "\u{1f}", "\u{3000}", "\u{a0}", "\\", "%",
    "@", "#", "?", ":", "/", "[", "]",
];

/// `n` hostile URLs, each a scheme, the slashes after it, user
/// information, a host, a port, a path and a tail from the lists above,
/// with noise put at a random byte of one in four.
pub fn urls(n: usize) -> Vec<String> {
    let mut mix = Mix::new(0x5eed_2017_2022);
    (0..n)
        .map(|_| {
            let mut url = String::new();
            for list in
                [SCHEMES, AFTER_SCHEME, USERINFO, HOSTS, PORTS, PATHS, TAILS]
            {
                url.push_str(mix.pick(list));
            }
            if mix.below(4) == 0 {
                let at = mix.below(url.len() + 1);
                if url.is_char_boundary(at) {
                    url.insert_str(at, mix.pick(NOISE));
                }
            }
            url
        })
        .collect()
}
