//! Hosts (URL Standard §3): the host parser with its IPv4, IPv6 and
//! opaque-host parsers, domain to ASCII (UTS #46 through the `idna`
//! crate), and the host serializer. Each parser appends the host's
//! serialization to the URL being written.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::error::{Failure, Part, State, Step, ValidationError as E};
use super::parser::Trace;
use super::percent;
use crate::chars::whatwg::{FORBIDDEN_DOMAIN, FORBIDDEN_HOST};
use crate::escape::escaped_octet;

/// What kind of host a URL has (the Standard's host is a domain, an IP
/// address, an opaque host or an empty host; a URL without one has null).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum HostKind {
    /// A domain: ASCII, lower-case, the result of domain to ASCII.
    Domain,
    /// An IPv4 address.
    Ipv4,
    /// An IPv6 address, serialized in brackets.
    Ipv6,
    /// The host of a URL that is not special, percent-encoded.
    Opaque,
    /// The empty host.
    Empty,
}

/// The host parser (§3.5) on `input`, which starts at byte `at` of the
/// URL's input: a domain or IP address for a special URL, an opaque host
/// otherwise. The serialization is appended to `out`. `sets` are the sets
/// of `input`'s bytes ([`percent::sets_of`]) when the caller has them.
pub(super) fn parse(
    input: &str,
    special: bool,
    sets: Option<percent::Set>,
    out: &mut String,
    t: &mut Trace<'_>,
    at: usize,
    state: State,
) -> Result<HostKind, Failure> {
    let fail = |e, i: usize| Failure::new(e, at + i, state);
    let bytes = input.as_bytes();
    if bytes.first() == Some(&b'[') {
        if bytes.last() != Some(&b']') || bytes.len() < 2 {
            return Err(fail(E::Ipv6Unclosed, 0));
        }
        let address = ipv6(&bytes[1..bytes.len() - 1])
            .map_err(|(e, i)| fail(e, i + 1))?;
        let start = out.len();
        write_ipv6(out, &address);
        if t.on() && out[start..] != *input {
            t.note(at, state, Part::Host, Step::Ipv6Serialized);
        }
        return Ok(HostKind::Ipv6);
    }
    if !special {
        return opaque(input, out, t, at, state);
    }
    let start = out.len();
    let sets = sets.unwrap_or_else(|| percent::sets_of(bytes));
    if sets & (percent::NOT_PLAIN_HOST | percent::FORBIDDEN_DOMAIN) == 0 {
        // An ASCII domain with nothing to decode and nothing forbidden:
        // domain to ASCII is ASCII lowercasing.
        out.push_str(input);
        if sets & percent::UPPER != 0 {
            if let Some(s) = out.get_mut(start..) {
                s.make_ascii_lowercase();
            }
        }
    } else if sets & percent::NOT_PLAIN_HOST == 0 {
        to_ascii(input, out).map_err(|(e, i)| fail(e, i))?;
    } else {
        let decoded = percent_decode(bytes);
        // UTF-8 decode without BOM: invalid sequences become U+FFFD, which
        // domain to ASCII refuses.
        let domain = String::from_utf8_lossy(&decoded);
        to_ascii(&domain, out).map_err(|(e, _)| fail(e, 0))?;
    }
    if t.on() && out[start..] != *input {
        t.note(at, state, Part::Host, Step::HostRewritten);
    }
    if ends_in_number(&out[start..]) {
        let address = ipv4(&out[start..], t, at, state)?;
        let text_changed = {
            let mut s = String::new();
            write_ipv4(&mut s, address);
            s != out[start..]
        };
        out.truncate(start);
        write_ipv4(out, address);
        if text_changed {
            t.note(at, state, Part::Host, Step::Ipv4Host);
        }
        return Ok(HostKind::Ipv4);
    }
    Ok(HostKind::Domain)
}

/// The Standard's domain to ASCII (§3.3) with beStrict false, as the host
/// parser runs it on a special URL's host after percent-decoding: an ASCII
/// domain is lowercased (for web compatibility not even `xn--` labels are
/// checked); any other goes through UTS #46 ToASCII (the `idna` crate:
/// CheckHyphens false, CheckBidi and CheckJoiners true, UseSTD3ASCIIRules
/// false, Transitional_Processing false, VerifyDnsLength false). The result
/// may hold no forbidden domain code point and may not be empty.
///
/// ```
/// use urlspec::whatwg::{domain_to_ascii, ValidationError};
/// assert_eq!(domain_to_ascii("Bücher.DE").unwrap(), "xn--bcher-kva.de");
/// assert_eq!(domain_to_ascii("XN--A.example").unwrap(), "xn--a.example");
/// assert_eq!(domain_to_ascii("a b").unwrap_err().error, Some(ValidationError::DomainInvalidCodePoint));
/// assert!(domain_to_ascii("\u{200D}.example").is_err()); // CheckJoiners
/// ```
///
/// # Errors
///
/// [`Failure`] in [`State::Host`]: [`DomainInvalidCodePoint`] at the byte
/// offset in `domain` of a forbidden domain code point (at 0 when UTS #46
/// ToASCII produced it); [`DomainToAscii`] at 0 when ToASCII fails or the
/// result is empty.
///
/// [`DomainInvalidCodePoint`]: super::ValidationError::DomainInvalidCodePoint
/// [`DomainToAscii`]: super::ValidationError::DomainToAscii
pub fn domain_to_ascii(domain: &str) -> Result<String, Failure> {
    let mut out = String::with_capacity(domain.len());
    to_ascii(domain, &mut out)
        .map_err(|(e, i)| Failure::new(e, i, State::Host))?;
    Ok(out)
}

/// [`domain_to_ascii`] appending to `out`; on error, the validation error
/// and the byte of `domain` it is at (0 when it comes from UTS #46).
fn to_ascii(domain: &str, out: &mut String) -> Result<(), (E, usize)> {
    let start = out.len();
    if domain.is_ascii() {
        if let Some(i) =
            domain.bytes().position(|b| FORBIDDEN_DOMAIN.contains(b))
        {
            return Err((E::DomainInvalidCodePoint, i));
        }
        out.push_str(domain);
        if let Some(s) = out.get_mut(start..) {
            s.make_ascii_lowercase();
        }
    } else {
        // UTS #46 one label at a time, so that the Bidi rule (CheckBidi)
        // holds each label that has right-to-left characters, not every
        // label of a domain that has some: `1.\u{64A}` is `1.xn--mhb`, as
        // web-platform-tests' toascii.json and browsers (Chromium, Node.js)
        // have it. UTS #46 read literally, and the `idna` crate given the
        // whole domain, refuse it (rule 1 for the label `1`). The labels
        // are split at the full stops UTS #46 maps to `.`.
        for (i, label) in domain.split(FULL_STOPS).enumerate() {
            if i > 0 {
                out.push('.');
            }
            let ascii = idna::domain_to_ascii_cow(
                label.as_bytes(),
                idna::AsciiDenyList::EMPTY,
            )
            .map_err(|_| (E::DomainToAscii, 0))?;
            if ascii.bytes().any(|b| FORBIDDEN_DOMAIN.contains(b)) {
                return Err((E::DomainInvalidCodePoint, 0));
            }
            out.push_str(&ascii);
        }
    }
    if out.len() == start {
        return Err((E::DomainToAscii, 0));
    }
    Ok(())
}

/// The label separators of UTS #46: U+002E FULL STOP and the three that
/// map to it (IDEOGRAPHIC, FULLWIDTH and HALFWIDTH IDEOGRAPHIC FULL STOP).
const FULL_STOPS: [char; 4] = ['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'];

/// Percent-decoding (§1.3): `%` and two hex digits become the byte; any
/// other `%` stays.
fn percent_decode(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'%') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(octet) = escaped_octet(bytes, i) {
            out.push(octet);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(out)
}

/// Whether a domain ends in a number (§3.5): its last label, a final
/// empty one aside, is decimal digits or `0x` and hex digits.
fn ends_in_number(domain: &str) -> bool {
    let domain = domain.strip_suffix('.').unwrap_or(domain);
    // Most domains end in a letter no number has: no need to look further.
    if !domain
        .bytes()
        .next_back()
        .is_some_and(|b| b.is_ascii_hexdigit() || b == b'x')
    {
        return false;
    }
    let last = domain.rsplit('.').next().unwrap_or("");
    (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
        || ipv4_number(last).is_some()
}

/// The IPv4 number parser (§3.5): the value, and whether it was written in
/// hexadecimal or octal (the IPv4-non-decimal-part validation error).
/// Values that no address can hold saturate.
fn ipv4_number(part: &str) -> Option<(u64, bool)> {
    let b = part.as_bytes();
    let (digits, radix, non_decimal) = match b {
        [] => return None,
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16, true),
        [b'0', rest @ ..] if !rest.is_empty() => (rest, 8, true),
        _ => (b, 10, false),
    };
    let mut value: u64 = 0;
    for &d in digits {
        let d = (d as char).to_digit(radix)?;
        value =
            value.saturating_mul(u64::from(radix)).saturating_add(d.into());
    }
    Some((value, non_decimal))
}

/// The IPv4 parser (§3.5) on an ASCII domain that ends in a number.
fn ipv4(
    s: &str,
    t: &mut Trace<'_>,
    at: usize,
    state: State,
) -> Result<u32, Failure> {
    let fail = |e| Failure::new(e, at, state);
    let mut count = s.split('.').count();
    if s.ends_with('.') {
        t.note(at, state, Part::Host, Step::Validation(E::Ipv4EmptyPart));
        if count > 1 {
            count -= 1;
        }
    }
    if count > 4 {
        return Err(fail(E::Ipv4TooManyParts));
    }
    let mut numbers = [0u64; 4];
    for (i, part) in s.split('.').take(count).enumerate() {
        let (n, non_decimal) =
            ipv4_number(part).ok_or(fail(E::Ipv4NonNumericPart))?;
        if non_decimal {
            let e = E::Ipv4NonDecimalPart;
            t.note(at, state, Part::Host, Step::Validation(e));
        }
        numbers[i] = n;
    }
    let numbers = &numbers[..count];
    let (last, init) = numbers.split_last().unwrap_or((&0, &[]));
    if init.iter().any(|&n| n > 255) {
        return Err(fail(E::Ipv4OutOfRangePart));
    }
    if *last >= 256u64.pow(5 - count as u32) {
        return Err(fail(E::Ipv4OutOfRangePart));
    }
    let mut address = *last;
    for (i, &n) in init.iter().enumerate() {
        address += n << (8 * (3 - i));
    }
    Ok(address as u32)
}

/// The IPv4 serializer (§3.6).
fn write_ipv4(out: &mut String, address: u32) {
    let [a, b, c, d] = address.to_be_bytes();
    let _ = write!(out, "{a}.{b}.{c}.{d}");
}

/// The IPv6 parser (§3.5) on what is between the brackets; on failure the
/// validation error and its byte offset.
fn ipv6(input: &[u8]) -> Result<[u16; 8], (E, usize)> {
    let mut address = [0u16; 8];
    let mut piece = 0;
    let mut compress = None;
    let mut p = 0;
    let c = |p: usize| input.get(p).copied();
    if c(0) == Some(b':') {
        if c(1) != Some(b':') {
            return Err((E::Ipv6InvalidCompression, 0));
        }
        p = 2;
        piece = 1;
        compress = Some(1);
    }
    while p < input.len() {
        if piece == 8 {
            return Err((E::Ipv6TooManyPieces, p));
        }
        if c(p) == Some(b':') {
            if compress.is_some() {
                return Err((E::Ipv6MultipleCompression, p));
            }
            p += 1;
            piece += 1;
            compress = Some(piece);
            continue;
        }
        let (mut value, mut length) = (0u16, 0);
        while length < 4 {
            let Some(d) = c(p).and_then(|b| (b as char).to_digit(16)) else {
                break;
            };
            value = value * 0x10 + d as u16;
            p += 1;
            length += 1;
        }
        match c(p) {
            Some(b'.') => {
                if length == 0 {
                    return Err((E::Ipv4InIpv6InvalidCodePoint, p));
                }
                p -= length;
                if piece > 6 {
                    return Err((E::Ipv4InIpv6TooManyPieces, p));
                }
                let mut seen = 0;
                while p < input.len() {
                    if seen > 0 {
                        if c(p) == Some(b'.') && seen < 4 {
                            p += 1;
                        } else {
                            return Err((E::Ipv4InIpv6InvalidCodePoint, p));
                        }
                    }
                    if !c(p).is_some_and(|b| b.is_ascii_digit()) {
                        return Err((E::Ipv4InIpv6InvalidCodePoint, p));
                    }
                    let mut part: Option<u16> = None;
                    while let Some(d) = c(p).filter(u8::is_ascii_digit) {
                        let d = u16::from(d - b'0');
                        part = match part {
                            None => Some(d),
                            Some(0) => {
                                return Err((E::Ipv4InIpv6InvalidCodePoint, p))
                            }
                            Some(n) => Some(n * 10 + d),
                        };
                        if part > Some(255) {
                            return Err((E::Ipv4InIpv6OutOfRangePart, p));
                        }
                        p += 1;
                    }
                    address[piece] =
                        address[piece] * 0x100 + part.unwrap_or(0);
                    seen += 1;
                    if seen == 2 || seen == 4 {
                        piece += 1;
                    }
                }
                if seen != 4 {
                    return Err((E::Ipv4InIpv6TooFewParts, p));
                }
                break;
            }
            Some(b':') => {
                p += 1;
                if p == input.len() {
                    return Err((E::Ipv6InvalidCodePoint, p));
                }
            }
            Some(_) => return Err((E::Ipv6InvalidCodePoint, p)),
            None => {}
        }
        address[piece] = value;
        piece += 1;
    }
    match compress {
        Some(compress) => {
            let mut swaps = piece - compress;
            piece = 7;
            while piece != 0 && swaps > 0 {
                address.swap(piece, compress + swaps - 1);
                piece -= 1;
                swaps -= 1;
            }
        }
        None if piece != 8 => return Err((E::Ipv6TooFewPieces, p)),
        None => {}
    }
    Ok(address)
}

/// The IPv6 serializer (§3.6), in brackets: lower-case hex, the first
/// longest run of two or more zero pieces written `::`.
fn write_ipv6(out: &mut String, address: &[u16; 8]) {
    let (mut best, mut best_len) = (None, 1);
    let mut i = 0;
    while i < 8 {
        let run = address[i..].iter().take_while(|&&p| p == 0).count();
        if run > best_len {
            (best, best_len) = (Some(i), run);
        }
        i += run.max(1);
    }
    out.push('[');
    let mut ignore0 = false;
    for (i, piece) in address.iter().enumerate() {
        if ignore0 && *piece == 0 {
            continue;
        }
        ignore0 = false;
        if best == Some(i) {
            out.push_str(if i == 0 { "::" } else { ":" });
            ignore0 = true;
            continue;
        }
        let _ = write!(out, "{piece:x}");
        if i != 7 {
            out.push(':');
        }
    }
    out.push(']');
}

/// The opaque-host parser (§3.5): no forbidden host code point, and the
/// rest encoded with the C0 control percent-encode set.
fn opaque(
    input: &str,
    out: &mut String,
    t: &mut Trace<'_>,
    at: usize,
    state: State,
) -> Result<HostKind, Failure> {
    if let Some(i) = input.bytes().position(|b| FORBIDDEN_HOST.contains(b)) {
        return Err(Failure::new(E::HostInvalidCodePoint, at + i, state));
    }
    if t.on() {
        if let Some(i) = percent::invalid_unit(input, 0, input.len()) {
            let e = Step::Validation(E::InvalidUrlUnit);
            t.note(at + i, state, Part::Host, e);
        }
    }
    let (_, first) = percent::encode_until(
        out,
        input,
        0,
        input.len(),
        0,
        percent::C0_CONTROL,
    );
    if let Some(i) = first {
        t.note(at + i, state, Part::Host, Step::PercentEncoded);
    }
    Ok(if input.is_empty() { HostKind::Empty } else { HostKind::Opaque })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(s: &str) -> Result<String, E> {
        let mut out = String::new();
        ipv6(s.as_bytes())
            .map(|a| write_ipv6(&mut out, &a))
            .map_err(|e| e.0)?;
        Ok(out)
    }

    #[test]
    fn ipv6_parse_and_serialize() {
        assert_eq!(v6("::1").unwrap(), "[::1]");
        assert_eq!(v6("1:0:0:2:0:0:0:3").unwrap(), "[1:0:0:2::3]");
        assert_eq!(v6("0:0:0:0:0:0:0:0").unwrap(), "[::]");
        assert_eq!(v6("1:2:3:4:5:6:7:0").unwrap(), "[1:2:3:4:5:6:7:0]");
        assert_eq!(v6("::ffff:192.168.0.1").unwrap(), "[::ffff:c0a8:1]");
        assert_eq!(v6("ABCD::").unwrap(), "[abcd::]");
        assert_eq!(v6(":1"), Err(E::Ipv6InvalidCompression));
        assert_eq!(v6("1::2::3"), Err(E::Ipv6MultipleCompression));
        assert_eq!(v6("1:2:3:4:5:6:7:8:9"), Err(E::Ipv6TooManyPieces));
        assert_eq!(v6("1:2"), Err(E::Ipv6TooFewPieces));
        assert_eq!(v6("1:"), Err(E::Ipv6InvalidCodePoint));
        assert_eq!(v6("::1.2.3"), Err(E::Ipv4InIpv6TooFewParts));
        assert_eq!(v6("::1.2.3.256"), Err(E::Ipv4InIpv6OutOfRangePart));
        assert_eq!(v6("::01.2.3.4"), Err(E::Ipv4InIpv6InvalidCodePoint));
        assert_eq!(
            v6("1:2:3:4:5:6:7:1.2.3.4"),
            Err(E::Ipv4InIpv6TooManyPieces)
        );
    }

    #[test]
    fn ipv4_numbers_and_endings() {
        assert_eq!(ipv4_number("0x1F"), Some((31, true)));
        assert_eq!(ipv4_number("017"), Some((15, true)));
        assert_eq!(ipv4_number("0"), Some((0, false)));
        assert_eq!(ipv4_number("0x"), Some((0, true)));
        assert_eq!(ipv4_number("09"), None);
        assert!(
            ends_in_number("a.1.")
                && ends_in_number("0x")
                && !ends_in_number("a.b")
        );
        assert!(!ends_in_number("1.0xg"));
        let mut t = Trace::off();
        let p = |s| ipv4(s, &mut Trace::off(), 0, State::Host);
        assert_eq!(p("1.2.3.4"), Ok(0x01020304));
        assert_eq!(p("0x7f.1"), Ok(0x7f000001));
        assert_eq!(p("4294967295"), Ok(u32::MAX));
        assert!(p("4294967296").is_err() && p("1.256.1.1").is_err());
        assert!(p("1.2.3.4.5").is_err() && p("1..2").is_err());
        assert_eq!(ipv4("1.2.3.4.", &mut t, 0, State::Host), Ok(0x01020304));
    }

    #[test]
    fn decoding() {
        assert_eq!(&*percent_decode(b"a%41%4g%"), b"aA%4g%");
        assert_eq!(&*percent_decode(b"%41"), b"A");
    }
}
