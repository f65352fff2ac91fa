//! Host grammars: RFC 1630 `hostname`/`hostnumber`, the 1996 draft's (and
//! RFC 2396's) `hostname`/`hostnumber`, RFC 2732 and RFC 3986 IPv6
//! literals, RFC 3986 `IPv4address` and `IPvFuture`.
//!
//! Each function checks one rule on the bytes of a host, brackets excluded
//! for the IP literals.

use crate::chars::{rfc1630, rfc3986, ALPHA, ALPHANUM, HEX};
use crate::escape::is_escape_at;

/// RFC 1630 `hostnumber digits . digits . digits . digits`, the 1996
/// draft's `hostnumber = 1*digit "." 1*digit "." 1*digit "." 1*digit` and
/// RFC 2396's `IPv4address` (no range check); with `max_digits = 3`, RFC
/// 2373's `1*3DIGIT` form that RFC 2732 substitutes.
pub fn is_dotted_quad(b: &[u8], max_digits: usize) -> bool {
    let mut groups = 0;
    for part in b.split(|&c| c == b'.') {
        groups += 1;
        if part.is_empty()
            || part.len() > max_digits
            || !part.iter().all(u8::is_ascii_digit)
        {
            return false;
        }
    }
    groups == 4
}

/// RFC 3986 `IPv4address = dec-octet "." dec-octet "." dec-octet "."
/// dec-octet`, each 0–255 without leading zeros.
pub fn is_ipv4_3986(b: &[u8]) -> bool {
    is_dotted_quad(b, 3)
        && b.split(|&c| c == b'.').all(|p| {
            (p.len() == 1 || p[0] != b'0')
                && p.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
                    <= 255
        })
}

/// The 1996 draft's `hostname = *( domainlabel "." ) toplabel`, where a
/// `domainlabel` is alphanumerics with inner `-` and a `toplabel` starts with
/// a letter; with `trailing_dot`, RFC 2396's `[ "." ]` after it.
pub fn is_hostname(b: &[u8], trailing_dot: bool) -> bool {
    let b = match b.split_last() {
        Some((b'.', rest)) if trailing_dot => rest,
        _ => b,
    };
    // One pass: every byte alphanumeric, `-` or `.`; no label empty or
    // starting or ending with `-` (the byte before the first counts as a
    // `.`); then the last label must start with a letter.
    let mut prev = b'.';
    let mut last_label = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'.' if prev == b'.' || prev == b'-' => return false,
            b'.' => last_label = i + 1,
            b'-' if prev == b'.' => return false,
            b'-' => {}
            _ if ALPHANUM.contains(c) => {}
            _ => return false,
        }
        prev = c;
    }
    prev != b'.' && prev != b'-' && ALPHA.contains(b[last_label])
}

/// RFC 1630 `hostname ialpha [ . hostname ]`: a letter, then `xalpha`s
/// (which include `.` and escapes).
pub fn is_hostname_1630(b: &[u8]) -> bool {
    let Some(&first) = b.first() else { return false };
    if !ALPHA.contains(first) {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        if rfc1630::XALPHA.contains(b[i]) {
            i += 1;
        } else if is_escape_at(b, i) {
            i += 3;
        } else {
            return false;
        }
    }
    true
}

/// RFC 3986 `IPv6address` (eight `h16` pieces, one `::` elision, an
/// optional dotted IPv4 tail checked by `ipv4`). RFC 2396 as amended by RFC
/// 2732 uses it too, with RFC 2373's `1*3DIGIT` tail (docs/readings.md#as8).
pub fn is_ipv6(b: &[u8], ipv4: fn(&[u8]) -> bool) -> bool {
    let elision = b.windows(2).position(|w| w == b"::");
    let (head, tail) = match elision {
        Some(i) => {
            let tail = &b[i + 2..];
            if tail.windows(2).any(|w| w == b"::") {
                return false;
            }
            (&b[..i], Some(tail))
        }
        None => (b, None),
    };
    let head_pieces = match pieces(head, tail.is_none(), ipv4) {
        Some(n) => n,
        None => return false,
    };
    match tail {
        None => head_pieces == 8,
        Some(tail) => match pieces(tail, true, ipv4) {
            Some(n) => head_pieces + n <= 7,
            None => false,
        },
    }
}

/// Counts the 16-bit pieces of `h16 *( ":" h16 )`, an IPv4 tail counting
/// two; `None` when malformed.
fn pieces(b: &[u8], v4_last: bool, ipv4: fn(&[u8]) -> bool) -> Option<usize> {
    if b.is_empty() {
        return Some(0);
    }
    let mut n = 0;
    let mut parts = b.split(|&c| c == b':').peekable();
    while let Some(p) = parts.next() {
        let last = parts.peek().is_none();
        if last && v4_last && p.contains(&b'.') {
            if !ipv4(p) {
                return None;
            }
            n += 2;
        } else if (1..=4).contains(&p.len())
            && p.iter().all(|&c| HEX.contains(c))
        {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

/// RFC 3986 `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":"
/// )`.
pub fn is_ipvfuture(b: &[u8]) -> bool {
    let Some((v, rest)) = b.split_first() else { return false };
    if !v.eq_ignore_ascii_case(&b'v') {
        return false;
    }
    let Some(dot) = rest.iter().position(|&c| c == b'.') else { return false };
    let (version, addr) = (&rest[..dot], &rest[dot + 1..]);
    !version.is_empty()
        && version.iter().all(|&c| HEX.contains(c))
        && !addr.is_empty()
        && addr.iter().all(|&c| rfc3986::IPVFUTURE.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_table_96() {
        // TV-HOST (testdata/server/seed.toml), the 1996 column.
        for ok in [
            "www.ics.uci.edu",
            "info.cern.ch",
            "localhost",
            "a",
            "x-1.y2",
            "3com.com",
        ] {
            assert!(is_hostname(ok.as_bytes(), false), "{ok}");
        }
        for bad in
            ["a.1com", "-a.com", "a-.com", "a_b.com", "a..b", "a.b.", ""]
        {
            assert!(!is_hostname(bad.as_bytes(), false), "{bad}");
        }
        assert!(is_hostname(b"a.b.", true));
        assert!(is_dotted_quad(b"999.1.1.1", usize::MAX));
        assert!(!is_dotted_quad(b"1.2.3", usize::MAX));
        assert!(!is_dotted_quad(b"1234.1.1.1", 3));
    }

    #[test]
    fn host_table_1630() {
        for ok in ["3com.com", "a.1com", "a-.com", "a_b.com", "a..b", "a.b."] {
            let expect = ok != "3com.com";
            assert_eq!(is_hostname_1630(ok.as_bytes()), expect, "{ok}");
        }
        assert!(!is_hostname_1630(b"-a.com"));
    }

    #[test]
    fn ipv6_forms() {
        let v4 = is_ipv4_3986 as fn(&[u8]) -> bool;
        for ok in [
            "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
            "1080:0:0:0:8:800:200C:417A",
            "3ffe:2a00:100:7031::1",
            "1080::8:800:200C:417A",
            "::192.9.5.5",
            "::FFFF:129.144.52.38",
            "2010:836B:4179::836B:4179",
            "::",
            "::1",
            "1::",
            "2001:db8::7",
        ] {
            assert!(is_ipv6(ok.as_bytes(), v4), "{ok}");
        }
        for bad in [
            "1:2:3:4:5:6:7:8:9",
            ":::192.9.5.5",
            "1::2::3",
            "12345::",
            "1:2:3:4:5:6:7",
            ":1::2",
            "fe80::1%25eth0",
            "::256.1.1.1",
            "",
        ] {
            assert!(!is_ipv6(bad.as_bytes(), v4), "{bad}");
        }
    }

    #[test]
    fn ipv4_and_future() {
        assert!(is_ipv4_3986(b"192.0.2.16"));
        for bad in ["999.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "256.0.0.0"]
        {
            assert!(!is_ipv4_3986(bad.as_bytes()), "{bad}");
        }
        assert!(is_ipvfuture(b"v1.fe"));
        assert!(is_ipvfuture(b"VF.a:b"));
        assert!(
            !is_ipvfuture(b"v.fe")
                && !is_ipvfuture(b"v1.")
                && !is_ipvfuture(b"x1.a")
        );
    }
}
