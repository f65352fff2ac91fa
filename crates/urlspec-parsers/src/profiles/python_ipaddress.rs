//! Python's `ipaddress.ip_address` for a text, as CPython 3.11.7's
//! `Lib/ipaddress.py` reads it: which addresses urllib lets between
//! brackets.

/// What `ipaddress.ip_address(text)` makes of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// An `IPv4Address`.
    V4,
    /// An `IPv6Address` (possibly with a scope id after `%`).
    V6,
}

/// `ipaddress.ip_address(text)`: an IPv4 address, else an IPv6 one, else
/// `None` (Python's `ValueError`).
pub fn ip_address(text: &str) -> Option<Address> {
    if is_ipv4(text) {
        Some(Address::V4)
    } else if is_ipv6(text) {
        Some(Address::V6)
    } else {
        None
    }
}

/// `IPv4Address(text)` succeeds: four decimal octets of one to three
/// ASCII digits, no leading zero, none above 255.
fn is_ipv4(text: &str) -> bool {
    if text.is_empty() || text.contains('/') {
        return false;
    }
    let mut octets = 0;
    for octet in text.split('.') {
        octets += 1;
        let b = octet.as_bytes();
        let digits = !b.is_empty() && b.iter().all(u8::is_ascii_digit);
        if !digits || b.len() > 3 || (b.len() > 1 && b[0] == b'0') {
            return false;
        }
        let value = b.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        if value > 255 {
            return false;
        }
    }
    octets == 4
}

/// The hextets of an IPv6 address.
const HEXTETS: usize = 8;

/// `IPv6Address(text)` succeeds: an optional scope id after the first
/// `%` (not empty, no second `%`), then `_ip_int_from_string`'s rules.
fn is_ipv6(text: &str) -> bool {
    if text.contains('/') {
        return false;
    }
    let addr = match text.split_once('%') {
        Some((addr, scope)) if !scope.is_empty() && !scope.contains('%') => {
            addr
        }
        Some(_) => return false,
        None => text,
    };
    if addr.is_empty() {
        return false;
    }
    // At most 9 parts are ever looked at: more is an error.
    let mut parts: Vec<&str> = addr.split(':').take(HEXTETS + 2).collect();
    if parts.len() < 3 {
        return false;
    }
    // An IPv4 suffix stands for two hextets.
    if parts.last().is_some_and(|p| p.contains('.')) {
        if !parts.pop().is_some_and(is_ipv4) {
            return false;
        }
        parts.extend(["0", "0"]);
    }
    if parts.len() > HEXTETS + 1 {
        return false;
    }
    let n = parts.len();
    // A `::` between the ends: one run of zero hextets skipped.
    let mut skip = None;
    for (i, part) in parts.iter().enumerate().take(n - 1).skip(1) {
        if part.is_empty() {
            if skip.is_some() {
                return false;
            }
            skip = Some(i);
        }
    }
    let (hi, lo) = match skip {
        Some(k) => {
            let (mut hi, mut lo) = (k, n - k - 1);
            if parts[0].is_empty() {
                hi -= 1;
                if hi > 0 {
                    return false;
                }
            }
            if parts[n - 1].is_empty() {
                lo -= 1;
                if lo > 0 {
                    return false;
                }
            }
            if hi + lo >= HEXTETS {
                return false;
            }
            (hi, lo)
        }
        None => {
            if n != HEXTETS || parts[0].is_empty() || parts[n - 1].is_empty() {
                return false;
            }
            (n, 0)
        }
    };
    parts[..hi].iter().chain(&parts[n - lo..]).all(|h| is_hextet(h))
}

/// `_parse_hextet`: one to four ASCII hex digits.
fn is_hextet(text: &str) -> bool {
    (1..=4).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_is_strict() {
        for ok in ["1.2.3.4", "0.0.0.0", "255.255.255.255"] {
            assert_eq!(ip_address(ok), Some(Address::V4), "{ok}");
        }
        for bad in [
            "1.2.3",
            "1.2.3.4.5",
            "01.2.3.4",
            "256.1.1.1",
            "1.2.3.",
            "１.2.3.4",
        ] {
            assert!(!is_ipv4(bad), "{bad}");
        }
    }

    #[test]
    fn ipv6_as_ipaddress_reads_it() {
        let ok = [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "fe80::1%eth0",
            "fe80::1%25",
        ];
        for text in ok {
            assert_eq!(ip_address(text), Some(Address::V6), "{text}");
        }
        let bad = [
            "",
            ":",
            "::1::",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            ":1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:",
            "12345::",
            "::g",
            "fe80::1%",
            "fe80::1%a%b",
            "::1.2.3",
            "::01.2.3.4",
            "1:2:3:4:5:6:7:1.2.3.4",
            "::/1",
        ];
        for text in bad {
            assert_eq!(ip_address(text), None, "{text}");
        }
    }
}
