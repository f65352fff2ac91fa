//! `java`: `java.net.URI` of OpenJDK 17 (`new URI(s)`), the URI class
//! `java.net.http.HttpClient` sends requests by, written after the
//! parser of `java/net/URI.java` (its inner class `Parser`) of that
//! release.
//!
//! Java follows RFC 2396 with RFC 2732's IPv6 literals: every character
//! of every component is checked against the grammar's character classes
//! (escapes and visible non-ASCII characters are allowed where the grammar
//! allows escapes), and an authority that does not parse as
//! `[userinfo@]host[:port]` with an RFC 2396 host name, an IPv4 address or
//! a bracketed IPv6 address, but holds only registry-name characters, is
//! a *registry-based* authority: it has no user information, host or
//! port (`HttpClient` refuses it).
//!
//! The components are Java's getters, raw (as written, never decoded):
//! `getScheme()`, `getRawUserInfo()`, `getHost()` (an IPv6 address with
//! its brackets), `getPort()` (absent for -1), `getRawPath()` (for an
//! opaque URI, which has none, `getRawSchemeSpecificPart()`),
//! `getRawQuery()`, `getRawFragment()`; every one a slice of the input
//! but the port. A `URISyntaxException`'s class is its reason; positions
//! are bytes of the input (Java counts UTF-16 code units: the reason
//! gives Java's index).
//!
//! ```
//! use urlspec_parsers::profile;
//! let java = profile("java").unwrap();
//! let c = java.parse("http://u@[::1]:080/%7e?q#f").unwrap();
//! assert_eq!(c.userinfo.as_deref(), Some("u"));
//! assert_eq!(c.host.as_deref(), Some("[::1]"));
//! assert_eq!(c.port.as_deref(), Some("80"));
//! assert_eq!(c.path.as_deref(), Some("/%7e"));
//! // `_` is no host name character: a registry-based authority.
//! let c = java.parse("http://a_b:80/p").unwrap();
//! assert_eq!((c.host, c.port), (None, None));
//! let e = java.parse("http://a/b c").unwrap_err();
//! assert_eq!(e.kind, "URISyntaxException: Illegal character in path");
//! assert_eq!(e.position, Some(10));
//! ```

#![allow(clippy::unreadable_literal)] // the constants of the source, as written there

use std::borrow::Cow;

use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "java",
    follows: "OpenJDK 17.0.15 java.net.URI(String) (.getScheme(), \
              .getRawUserInfo(), .getHost(), .getPort(), .getRawPath() or \
              .getRawSchemeSpecificPart() of an opaque URI, .getRawQuery(), \
              .getRawFragment())",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (
            Part::Host,
            "Java has no host for a registry-based authority (one that is \
             not an RFC 2396 host name, IPv4 address or bracketed IPv6 \
             address with an optional port: `a_b`, `1.2.3.4x`, `a:b`), and \
             keeps an IPv6 address's brackets",
        ),
        (
            Part::Userinfo,
            "Java has no user information for a registry-based authority",
        ),
        (
            Part::Port,
            "Java drops the port's leading zeros; a registry-based authority \
             has none",
        ),
        (
            Part::Path,
            "an opaque URI (`mailto:a@b`) has no path: its text after the \
             scheme (query included) is given",
        ),
    ],
    split,
};

/// What the parser throws: a `URISyntaxException` (its reason and the
/// byte it is about, when it names one), or the `NumberFormatException`
/// that `Integer.parseInt` throws for an IPv4 part inside an IPv6 literal
/// too large for an `int`, which `new URI` does not catch.
enum Thrown {
    Syntax(&'static str, Option<usize>),
    NumberFormat(usize, usize),
}

type Scan<T> = Result<T, Thrown>;

// The character classes of `URI.java`: a 64-bit mask for the characters
// below 64 and one for those from 64 to 127 (the constants of the source).
// Bit 0 of a low mask (NUL, which never matches) says that escapes and
// visible non-ASCII characters are allowed.
const L_DIGIT: u64 = 0x3FF000000000000;
const H_DIGIT: u64 = 0;
const L_ALPHA: u64 = 0;
const H_ALPHA: u64 = 0x7FFFFFE00000000 | 0x7FFFFFE;
const L_ALPHANUM: u64 = L_DIGIT | L_ALPHA;
const H_ALPHANUM: u64 = H_DIGIT | H_ALPHA;
const L_HEX: u64 = L_DIGIT;
const H_HEX: u64 = 0x7E0000007E;
const L_MARK: u64 = 0x678200000000;
const H_MARK: u64 = 0x4000000080000000;
const L_UNRESERVED: u64 = L_ALPHANUM | L_MARK;
const H_UNRESERVED: u64 = H_ALPHANUM | H_MARK;
const L_RESERVED: u64 = 0xAC00985000000000;
const H_RESERVED: u64 = 0x28000001;
const L_ESCAPED: u64 = 1;
const H_ESCAPED: u64 = 0;
const L_URIC: u64 = L_RESERVED | L_UNRESERVED | L_ESCAPED;
const H_URIC: u64 = H_RESERVED | H_UNRESERVED | H_ESCAPED;
const L_PCHAR: u64 = L_UNRESERVED | L_ESCAPED | 0x2400185000000000;
const H_PCHAR: u64 = H_UNRESERVED | H_ESCAPED | 0x1;
const L_PATH: u64 = L_PCHAR | 0x800800000000000;
const H_PATH: u64 = H_PCHAR;
const L_DASH: u64 = 0x200000000000;
const H_DASH: u64 = 0;
const L_DOT: u64 = 0x400000000000;
const H_DOT: u64 = 0;
const L_USERINFO: u64 = L_UNRESERVED | L_ESCAPED | 0x2C00185000000000;
const H_USERINFO: u64 = H_UNRESERVED | H_ESCAPED;
const L_REG_NAME: u64 = L_UNRESERVED | L_ESCAPED | 0x2C00185000000000;
const H_REG_NAME: u64 = H_UNRESERVED | H_ESCAPED | 0x1;
const L_SERVER: u64 = L_USERINFO | L_ALPHANUM | L_DASH | 0x400400000000000;
const H_SERVER: u64 = H_USERINFO | H_ALPHANUM | H_DASH | 0x28000001;
const L_SERVER_PERCENT: u64 = L_SERVER | 0x2000000000;
const H_SERVER_PERCENT: u64 = H_SERVER;
const L_SCHEME: u64 = L_ALPHA | L_DIGIT | 0x680000000000;
const H_SCHEME: u64 = H_ALPHA | H_DIGIT;
const L_SCOPE_ID: u64 = L_ALPHANUM | 0x400000000000;
const H_SCOPE_ID: u64 = H_ALPHANUM | 0x80000000;

/// A character class: its low and high masks.
type Mask = (u64, u64);

const DIGIT: Mask = (L_DIGIT, H_DIGIT);
const ALPHA: Mask = (L_ALPHA, H_ALPHA);
const ALPHANUM: Mask = (L_ALPHANUM, H_ALPHANUM);
const ALPHANUM_DASH: Mask = (L_ALPHANUM | L_DASH, H_ALPHANUM | H_DASH);
const DIGIT_DOT: Mask = (L_DIGIT | L_DOT, H_DIGIT | H_DOT);
const HEX: Mask = (L_HEX, H_HEX);
const URIC: Mask = (L_URIC, H_URIC);
const PATH: Mask = (L_PATH, H_PATH);
const USERINFO: Mask = (L_USERINFO, H_USERINFO);
const REG_NAME: Mask = (L_REG_NAME, H_REG_NAME);
const SERVER: Mask = (L_SERVER, H_SERVER);
const SERVER_PERCENT: Mask = (L_SERVER_PERCENT, H_SERVER_PERCENT);
const SCHEME: Mask = (L_SCHEME, H_SCHEME);
const SCOPE_ID: Mask = (L_SCOPE_ID, H_SCOPE_ID);

/// `match(c, lowMask, highMask)`: never NUL nor a non-ASCII character.
fn matches(c: u8, (low, high): Mask) -> bool {
    match c {
        0 => false,
        1..=63 => (1u64 << c) & low != 0,
        64..=127 => (1u64 << (c - 64)) & high != 0,
        _ => false,
    }
}

/// `Character.isSpaceChar` (Unicode's Zs, Zl and Zp, as Java 17's Unicode
/// 13 has them) or `Character.isISOControl`, for a character above U+0080.
fn space_or_control(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{9f}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// The state of `URI.Parser`: the components found so far, as byte ranges
/// of the input.
struct Parser<'a> {
    input: &'a str,
    b: &'a [u8],
    scheme: Option<&'a str>,
    scheme_specific_part: Option<&'a str>,
    user_info: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<u32>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
    ipv6_byte_count: usize,
}

/// `new URI(input)`.
fn split(input: &str) -> Parsed<'_> {
    let mut p = Parser {
        input,
        b: input.as_bytes(),
        scheme: None,
        scheme_specific_part: None,
        user_info: None,
        host: None,
        port: None,
        path: None,
        query: None,
        fragment: None,
        ipv6_byte_count: 0,
    };
    if let Err(thrown) = p.parse() {
        return Err(refusal(input, thrown));
    }
    fn own(s: Option<&str>) -> Option<Cow<'_, str>> {
        s.map(Cow::Borrowed)
    }
    Ok(Components {
        scheme: own(p.scheme),
        userinfo: own(p.user_info),
        host: own(p.host),
        port: p.port.map(|n| Cow::Owned(n.to_string())),
        // `isOpaque()` is `path == null`.
        path: own(p.path.or(p.scheme_specific_part)),
        query: own(p.query),
        fragment: own(p.fragment),
    })
}

/// The exception as a refusal: its byte, and Java's index (UTF-16 code
/// units) in the reason.
fn refusal(input: &str, thrown: Thrown) -> Refusal {
    let index = |at: usize| {
        input.get(..at).map_or(at, |before| before.encode_utf16().count())
    };
    match thrown {
        Thrown::Syntax(kind, None) => Refusal::new(
            kind,
            kind.trim_start_matches("URISyntaxException: ").to_owned(),
        ),
        Thrown::Syntax(kind, Some(at)) => Refusal::new(
            kind,
            format!(
                "{} at index {}",
                kind.trim_start_matches("URISyntaxException: "),
                index(at)
            ),
        )
        .at(at),
        Thrown::NumberFormat(start, end) => {
            let digits = input.get(start..end).unwrap_or("");
            // The digit at which the value passes `Integer.MAX_VALUE`.
            let mut value = 0u64;
            let fits = digits
                .bytes()
                .take_while(|&d| {
                    value = value * 10 + u64::from(d - b'0');
                    value <= i32::MAX as u64
                })
                .count();
            Refusal::new(
                "NumberFormatException",
                format!("Error at index {fits} in: {digits:?}"),
            )
            .at(start + fits)
        }
    }
}

/// The reasons of `URISyntaxException`s, as the class names them.
mod reason {
    pub const SCHEME_EXPECTED: &str =
        "URISyntaxException: Expected scheme name";
    pub const SCHEME: &str =
        "URISyntaxException: Illegal character in scheme name";
    pub const SSP_EXPECTED: &str =
        "URISyntaxException: Expected scheme-specific part";
    pub const OPAQUE: &str =
        "URISyntaxException: Illegal character in opaque part";
    pub const FRAGMENT: &str =
        "URISyntaxException: Illegal character in fragment";
    pub const END: &str = "URISyntaxException: end of URI";
    pub const AUTHORITY_EXPECTED: &str =
        "URISyntaxException: Expected authority";
    pub const PATH: &str = "URISyntaxException: Illegal character in path";
    pub const QUERY: &str = "URISyntaxException: Illegal character in query";
    pub const AUTHORITY_END: &str =
        "URISyntaxException: Expected end of authority";
    pub const AUTHORITY: &str =
        "URISyntaxException: Illegal character in authority";
    pub const USER_INFO: &str =
        "URISyntaxException: Illegal character in user info";
    pub const SCOPE_ID_EXPECTED: &str =
        "URISyntaxException: scope id expected";
    pub const SCOPE_ID: &str =
        "URISyntaxException: Illegal character in scope id";
    pub const BRACKET: &str =
        "URISyntaxException: Expected closing bracket for IPv6 address";
    pub const PORT: &str =
        "URISyntaxException: Illegal character in port number";
    pub const PORT_MALFORMED: &str =
        "URISyntaxException: Malformed port number";
    pub const PORT_EXPECTED: &str = "URISyntaxException: Expected port number";
    pub const IPV4: &str = "URISyntaxException: Malformed IPv4 address";
    pub const IPV4_EXPECTED: &str =
        "URISyntaxException: Expected IPv4 address";
    pub const HEX_OR_IPV4_EXPECTED: &str =
        "URISyntaxException: Expected hex digits or IPv4 address";
    pub const HOSTNAME: &str =
        "URISyntaxException: Illegal character in hostname";
    pub const HOSTNAME_EXPECTED: &str =
        "URISyntaxException: Expected hostname";
    pub const IPV6: &str = "URISyntaxException: Malformed IPv6 address";
    pub const IPV6_LONG: &str = "URISyntaxException: IPv6 address too long";
    pub const IPV6_SHORT: &str = "URISyntaxException: IPv6 address too short";
    pub const HEX_LONG: &str =
        "URISyntaxException: IPv6 hexadecimal digit sequence too long";
    pub const IPV6_DIGITS_EXPECTED: &str =
        "URISyntaxException: Expected digits for an IPv6 address";
    pub const ESCAPE: &str = "URISyntaxException: Malformed escape pair";
}

fn fail<T>(reason: &'static str, at: usize) -> Scan<T> {
    Err(Thrown::Syntax(reason, Some(at)))
}

impl<'a> Parser<'a> {
    // -- Simple access to the input string --

    /// `at(start, end, c)`.
    fn at(&self, start: usize, end: usize, c: u8) -> bool {
        start < end && self.b[start] == c
    }

    /// `at(start, end, "::")`.
    fn at2(&self, start: usize, end: usize) -> bool {
        start + 2 <= end && &self.b[start..start + 2] == b"::"
    }

    // -- Scanning --

    /// `scan(start, end, c)`: past `c` if it is at `start`.
    fn scan_char(&self, start: usize, end: usize, c: u8) -> usize {
        if self.at(start, end, c) {
            start + 1
        } else {
            start
        }
    }

    /// `scan(start, end, err, stop)`: the first of the `stop` characters,
    /// `None` (-1) when one of `err` comes first, else `end`.
    fn scan_err(
        &self,
        start: usize,
        end: usize,
        err: &[u8],
        stop: u8,
    ) -> Option<usize> {
        for p in start..end {
            let c = self.b[p];
            if err.contains(&c) {
                return None;
            }
            if c == stop {
                return Some(p);
            }
        }
        Some(end.max(start))
    }

    /// `scan(start, end, stop)`: the first of the `stop` characters, else
    /// `end`.
    fn scan_stop(&self, start: usize, end: usize, stop: &[u8]) -> usize {
        (start..end)
            .find(|&p| stop.contains(&self.b[p]))
            .unwrap_or(end.max(start))
    }

    /// `scanEscape(start, n, first)`: past an escape (a `%` without two
    /// hex digits throws), or a visible non-ASCII character.
    fn scan_escape(&self, start: usize, n: usize) -> Scan<usize> {
        let b = self.b;
        let c = b[start];
        if c == b'%' {
            if start + 3 <= n
                && b[start + 1].is_ascii_hexdigit()
                && b[start + 2].is_ascii_hexdigit()
            {
                return Ok(start + 3);
            }
            return fail(reason::ESCAPE, start);
        }
        if c >= 0x80 {
            // A character of the input (never cut: scans stop at ASCII).
            let ch = self.input.get(start..).and_then(|s| s.chars().next());
            if let Some(ch) = ch.filter(|&ch| !space_or_control(ch)) {
                // Above U+FFFF, Java reads two surrogates: both allowed.
                return Ok(start + ch.len_utf8());
            }
        }
        Ok(start)
    }

    /// `scan(start, n, lowMask, highMask)`: past the characters of the
    /// class (and escapes where it allows them).
    fn scan_mask(&self, start: usize, n: usize, mask: Mask) -> Scan<usize> {
        let mut p = start;
        while p < n {
            if matches(self.b[p], mask) {
                p += 1;
                continue;
            }
            if mask.0 & L_ESCAPED != 0 {
                let q = self.scan_escape(p, n)?;
                if q > p {
                    p = q;
                    continue;
                }
            }
            break;
        }
        Ok(p)
    }

    /// `checkChars(start, end, lowMask, highMask, what)`.
    fn check_chars(
        &self,
        start: usize,
        end: usize,
        mask: Mask,
        what: &'static str,
    ) -> Scan<()> {
        let p = self.scan_mask(start, end, mask)?;
        if p < end {
            return fail(what, p);
        }
        Ok(())
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.input.get(start..end).unwrap_or("")
    }

    // -- Parsing --

    /// `parse(false)`: `[<scheme>:]<scheme-specific-part>[#<fragment>]`.
    fn parse(&mut self) -> Scan<()> {
        let n = self.b.len();
        let mut p;
        match self.scan_err(0, n, b"/?#", b':') {
            Some(colon) if self.at(colon, n, b':') => {
                if colon == 0 {
                    return fail(reason::SCHEME_EXPECTED, 0);
                }
                self.check_chars(0, 1, ALPHA, reason::SCHEME)?;
                self.check_chars(1, colon, SCHEME, reason::SCHEME)?;
                self.scheme = Some(self.slice(0, colon));
                p = colon + 1;
                if self.at(p, n, b'/') {
                    p = self.parse_hierarchical(p, n)?;
                } else {
                    // Opaque: the scheme-specific part.
                    let q = self.scan_stop(p, n, b"#");
                    if q <= p {
                        return fail(reason::SSP_EXPECTED, p);
                    }
                    self.check_chars(p, q, URIC, reason::OPAQUE)?;
                    self.scheme_specific_part = Some(self.slice(p, q));
                    p = q;
                }
            }
            _ => p = self.parse_hierarchical(0, n)?,
        }
        if self.at(p, n, b'#') {
            self.check_chars(p + 1, n, URIC, reason::FRAGMENT)?;
            self.fragment = Some(self.slice(p + 1, n));
            p = n;
        }
        if p < n {
            return fail(reason::END, p);
        }
        Ok(())
    }

    /// `parseHierarchical`: `[//authority]<path>[?<query>]`, an empty
    /// authority allowed before a path, query or fragment, and an empty
    /// path.
    fn parse_hierarchical(&mut self, start: usize, n: usize) -> Scan<usize> {
        let mut p = start;
        if self.at(p, n, b'/') && self.at(p + 1, n, b'/') {
            p += 2;
            let q = self.scan_stop(p, n, b"/?#");
            if q > p {
                p = self.parse_authority(p, q)?;
            } else if q >= n {
                return fail(reason::AUTHORITY_EXPECTED, p);
            }
        }
        let q = self.scan_stop(p, n, b"?#");
        self.check_chars(p, q, PATH, reason::PATH)?;
        self.path = Some(self.slice(p, q));
        p = q;
        if self.at(p, n, b'?') {
            p += 1;
            let q = self.scan_stop(p, n, b"#");
            self.check_chars(p, q, URIC, reason::QUERY)?;
            self.query = Some(self.slice(p, q));
            p = q;
        }
        Ok(p)
    }

    /// `parseAuthority`: server-based when it parses as one, else
    /// registry-based when its characters allow.
    fn parse_authority(&mut self, start: usize, n: usize) -> Scan<usize> {
        let p = start;
        let mut q = p;
        let mut ex = None;
        // "Contains a literal IPv6 address, therefore % is allowed": the
        // test is whether the authority starts with anything but `]`.
        let server_chars = if self.scan_stop(p, n, b"]") > p {
            self.scan_mask(p, n, SERVER_PERCENT)? == n
        } else {
            self.scan_mask(p, n, SERVER)? == n
        };
        let reg_chars = self.scan_mask(p, n, REG_NAME)? == n;
        if reg_chars && !server_chars {
            return Ok(n);
        }
        let skip_parse_exception = reg_chars;
        if server_chars {
            let server = match self.parse_server(p, n, skip_parse_exception) {
                Ok(end) if end < n && skip_parse_exception => Ok(None),
                Ok(end) if end < n => fail(reason::AUTHORITY_END, end),
                Ok(end) => Ok(Some(end)),
                Err(e) => Err(e),
            };
            match server {
                Ok(Some(end)) => q = end,
                Ok(None) => self.undo_server(),
                Err(Thrown::Syntax(reason, at)) => {
                    self.undo_server();
                    ex = Some((reason, at));
                }
                Err(other) => return Err(other),
            }
        }
        if q < n {
            if reg_chars {
                // Registry-based.
            } else if let Some((reason, at)) = ex {
                return Err(Thrown::Syntax(reason, at));
            } else {
                return fail(reason::AUTHORITY, q);
            }
        }
        Ok(n)
    }

    /// The results of a failed server-based parse, undone.
    fn undo_server(&mut self) {
        self.user_info = None;
        self.host = None;
        self.port = None;
    }

    /// `parseServer`: `[<userinfo>@]<host>[:<port>]`.
    fn parse_server(
        &mut self,
        start: usize,
        n: usize,
        skip_parse_exception: bool,
    ) -> Scan<usize> {
        let mut p = start;
        // userinfo
        if let Some(q) = self.scan_err(p, n, b"/?#", b'@') {
            if self.at(q, n, b'@') {
                self.check_chars(p, q, USERINFO, reason::USER_INFO)?;
                self.user_info = Some(self.slice(p, q));
                p = q + 1;
            }
        }
        // hostname, IPv4 address, or IPv6 address
        if self.at(p, n, b'[') {
            p += 1;
            let q = self.scan_err(p, n, b"/?#", b']');
            let Some(q) = q.filter(|&q| q > p && self.at(q, n, b']')) else {
                // Java's index is -1 when a `/`, `?` or `#` came first,
                // which the authority never holds.
                return fail(reason::BRACKET, q.unwrap_or(p));
            };
            let r = self.scan_stop(p, q, b"%");
            if r > p {
                self.parse_ipv6_reference(p, r)?;
                if r + 1 == q {
                    return Err(Thrown::Syntax(
                        reason::SCOPE_ID_EXPECTED,
                        None,
                    ));
                }
                if r + 1 < q {
                    self.check_chars(r + 1, q, SCOPE_ID, reason::SCOPE_ID)?;
                }
            } else {
                self.parse_ipv6_reference(p, q)?;
            }
            self.host = Some(self.slice(p - 1, q + 1));
            p = q + 1;
        } else {
            p = match self.parse_ipv4_address(p, n) {
                Some(q) if q > p => q,
                _ => self.parse_hostname(p, n, skip_parse_exception)?,
            };
        }
        // port
        if self.at(p, n, b':') {
            p += 1;
            let q = self.scan_stop(p, n, b"/");
            if q > p {
                self.check_chars(p, q, DIGIT, reason::PORT)?;
                match parse_int(&self.b[p..q]) {
                    Some(port) => self.port = Some(port),
                    None => return fail(reason::PORT_MALFORMED, p),
                }
                p = q;
            }
        } else if p < n && skip_parse_exception {
            return Ok(p);
        }
        if p < n {
            return fail(reason::PORT_EXPECTED, p);
        }
        Ok(p)
    }

    /// `scanByte`: past a run of digits whose value fits in a byte.
    fn scan_byte(&self, start: usize, n: usize) -> Scan<usize> {
        let q = self.scan_mask(start, n, DIGIT)?;
        if q <= start {
            return Ok(q);
        }
        match parse_int(&self.b[start..q]) {
            None => Err(Thrown::NumberFormat(start, q)),
            Some(v) if v > 255 => Ok(start),
            Some(_) => Ok(q),
        }
    }

    /// `scanIPv4Address`: `None` (-1) when the interval does not start
    /// with (or, `strict`, consist of) digits and dots; else the end of
    /// the four numbers, or a throw.
    fn scan_ipv4_address(
        &self,
        start: usize,
        n: usize,
        strict: bool,
    ) -> Scan<Option<usize>> {
        let mut p = start;
        let m = self.scan_mask(p, n, DIGIT_DOT)?;
        if m <= p || (strict && m != n) {
            return Ok(None);
        }
        let mut q;
        // Four bytes, three dots: a step that scans nothing ends it.
        let mut step = 0;
        loop {
            q = if step % 2 == 0 {
                self.scan_byte(p, m)?
            } else {
                self.scan_char(p, m, b'.')
            };
            if q <= p {
                break;
            }
            p = q;
            step += 1;
            if step == 7 {
                if q < m {
                    break;
                }
                return Ok(Some(q));
            }
        }
        fail(reason::IPV4, q)
    }

    /// `takeIPv4Address`: an IPv4 address and nothing else.
    fn take_ipv4_address(
        &self,
        start: usize,
        n: usize,
        expected: &'static str,
    ) -> Scan<usize> {
        match self.scan_ipv4_address(start, n, true)? {
            Some(p) if p > start => Ok(p),
            _ => fail(expected, start),
        }
    }

    /// `parseIPv4Address`: an IPv4 address followed by nothing or `:`, or
    /// `None` (-1); its exceptions are caught.
    fn parse_ipv4_address(&mut self, start: usize, n: usize) -> Option<usize> {
        let p = self.scan_ipv4_address(start, n, false).ok()??;
        if p < n && self.b[p] != b':' {
            return None;
        }
        self.host = Some(self.slice(start, p));
        Some(p)
    }

    /// `parseHostname`: RFC 2396's `hostname`, its last label starting
    /// with a letter.
    fn parse_hostname(
        &mut self,
        start: usize,
        n: usize,
        skip_parse_exception: bool,
    ) -> Scan<usize> {
        let mut p = start;
        let mut l = None;
        loop {
            let q = self.scan_mask(p, n, ALPHANUM)?;
            if q <= p {
                break;
            }
            l = Some(p);
            p = q;
            let q = self.scan_mask(p, n, ALPHANUM_DASH)?;
            if q > p {
                if self.b[q - 1] == b'-' {
                    return fail(reason::HOSTNAME, q - 1);
                }
                p = q;
            }
            let q = self.scan_char(p, n, b'.');
            if q <= p {
                break;
            }
            p = q;
            if p >= n {
                break;
            }
        }
        if p < n && !self.at(p, n, b':') {
            if skip_parse_exception {
                return Ok(p);
            }
            return fail(reason::HOSTNAME, p);
        }
        let Some(l) = l else {
            return fail(reason::HOSTNAME_EXPECTED, start);
        };
        if l > start && !matches(self.b[l], ALPHA) {
            return fail(reason::HOSTNAME, l);
        }
        self.host = Some(self.slice(start, p));
        Ok(p)
    }

    /// `parseIPv6Reference`: RFC 2373's address, with the source's
    /// revised grammar (an IPv4 address after `::` or a hex sequence) and
    /// its count of bytes.
    fn parse_ipv6_reference(&mut self, start: usize, n: usize) -> Scan<usize> {
        let mut p = start;
        let mut compressed_zeros = false;
        match self.scan_hex_seq(p, n)? {
            Some(q) if q > p => {
                p = q;
                if self.at2(p, n) {
                    compressed_zeros = true;
                    p = self.scan_hex_post(p + 2, n)?;
                } else if self.at(p, n, b':') {
                    p = self.take_ipv4_address(
                        p + 1,
                        n,
                        reason::IPV4_EXPECTED,
                    )?;
                    self.ipv6_byte_count += 4;
                }
            }
            _ => {
                if self.at2(p, n) {
                    compressed_zeros = true;
                    p = self.scan_hex_post(p + 2, n)?;
                }
            }
        }
        if p < n {
            return fail(reason::IPV6, start);
        }
        if self.ipv6_byte_count > 16 {
            return fail(reason::IPV6_LONG, start);
        }
        if !compressed_zeros && self.ipv6_byte_count < 16 {
            return fail(reason::IPV6_SHORT, start);
        }
        if compressed_zeros && self.ipv6_byte_count == 16 {
            return fail(reason::IPV6, start);
        }
        Ok(p)
    }

    /// `scanHexPost`: what may follow `::`.
    fn scan_hex_post(&mut self, start: usize, n: usize) -> Scan<usize> {
        let mut p = start;
        if p == n {
            return Ok(p);
        }
        match self.scan_hex_seq(p, n)? {
            Some(q) if q > p => {
                p = q;
                if self.at(p, n, b':') {
                    p += 1;
                    p = self.take_ipv4_address(
                        p,
                        n,
                        reason::HEX_OR_IPV4_EXPECTED,
                    )?;
                    self.ipv6_byte_count += 4;
                }
            }
            _ => {
                p = self.take_ipv4_address(
                    p,
                    n,
                    reason::HEX_OR_IPV4_EXPECTED,
                )?;
                self.ipv6_byte_count += 4;
            }
        }
        Ok(p)
    }

    /// `scanHexSeq`: `hex4 *( ":" hex4)`, stopping before `::` and before
    /// an IPv4 address; `None` (-1) when none is there.
    fn scan_hex_seq(&mut self, start: usize, n: usize) -> Scan<Option<usize>> {
        let mut p = start;
        let q = self.scan_mask(p, n, HEX)?;
        if q <= p || self.at(q, n, b'.') {
            return Ok(None);
        }
        if q > p + 4 {
            return fail(reason::HEX_LONG, p);
        }
        self.ipv6_byte_count += 2;
        p = q;
        while p < n {
            if !self.at(p, n, b':') || self.at(p + 1, n, b':') {
                break;
            }
            p += 1;
            let q = self.scan_mask(p, n, HEX)?;
            if q <= p {
                return fail(reason::IPV6_DIGITS_EXPECTED, p);
            }
            if self.at(q, n, b'.') {
                p -= 1;
                break;
            }
            if q > p + 4 {
                return fail(reason::HEX_LONG, p);
            }
            self.ipv6_byte_count += 2;
            p = q;
        }
        Ok(Some(p))
    }
}

/// `Integer.parseInt` of ASCII digits: `None` above `Integer.MAX_VALUE`.
fn parse_int(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(10)
            .and_then(|n| n.checked_add(u32::from(d - b'0')))
            .filter(|&n| n <= i32::MAX as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks of the source, against the classes its comments give.
    #[test]
    fn masks_are_the_grammar_classes() {
        let class = |chars: &str, ranges: &[(u8, u8)], mask: Mask| {
            for c in 1..128u8 {
                let inside = chars.as_bytes().contains(&c)
                    || ranges.iter().any(|&(a, z)| (a..=z).contains(&c));
                assert_eq!(matches(c, mask), inside, "{:?}", char::from(c));
            }
        };
        let alnum = [(b'0', b'9'), (b'a', b'z'), (b'A', b'Z')];
        class("-_.!~*'()", &alnum, (L_UNRESERVED, H_UNRESERVED));
        class(";/?:@&=+$,[]", &[], (L_RESERVED, H_RESERVED));
        class("-_.!~*'();:&=+$,", &alnum, USERINFO);
        class("-_.!~*'()$,;:@&=+", &alnum, REG_NAME);
        class("-_.!~*'():@&=+$,;/", &alnum, PATH);
        class("-_.!~*'();:&=+$,.:@[]", &alnum, SERVER);
        class("+-.", &alnum, SCHEME);
        class("_.", &alnum, SCOPE_ID);
        class("", &[(b'0', b'9'), (b'a', b'f'), (b'A', b'F')], HEX);
        assert!(!matches(0, URIC));
    }

    #[test]
    fn ints_as_java_parses_them() {
        assert_eq!(parse_int(b"0080"), Some(80));
        assert_eq!(parse_int(b"2147483647"), Some(2_147_483_647));
        assert_eq!(parse_int(b"2147483648"), None);
        assert_eq!(parse_int(b"000000000000000000001"), Some(1));
    }
}
