//! `python-urllib3`: `urllib3.util.parse_url` of urllib3 2.8.0, the split
//! `requests` connects by, written after `src/urllib3/util/url.py` of that
//! release.
//!
//! urllib3 splits with one regular expression (RFC 3986 Appendix B's, with
//! `\` ending the authority), puts `//` before an input that starts with
//! neither a scheme nor `/`, and then, for `http`, `https` and no scheme,
//! normalizes: the host lower-cased with escapes of unreserved characters
//! decoded, dot segments removed from the path, and characters RFC 3986
//! does not allow percent-encoded. A non-ASCII host label needs the
//! optional `idna` package: without it (as `pip install urllib3` leaves
//! it), urllib3 refuses the URL, and so does this profile.

use std::borrow::Cow;

use super::py_repr;
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "python-urllib3",
    follows: "urllib3 2.8.0 urllib3.util.parse_url (Url's .scheme, .auth, \
              .host, .port, .path, .query, .fragment), without the optional \
              idna package",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (Part::Scheme, "urllib3 lower-cases the scheme"),
        (
            Part::Userinfo,
            "urllib3 percent-encodes what RFC 3986 does not allow in user \
             information (http, https and no scheme)",
        ),
        (
            Part::Host,
            "urllib3 ends the authority at `\\` as at `/`, lower-cases the \
             host and decodes escapes of unreserved characters (http, https \
             and no scheme)",
        ),
        (Part::Port, "urllib3 drops the port's leading zeros"),
        (
            Part::Path,
            "urllib3 removes dot segments and percent-encodes what RFC 3986 \
             does not allow in a path, `\\` included (http, https and no \
             scheme), and puts `/` before a relative path",
        ),
        (
            Part::Query,
            "urllib3 percent-encodes what RFC 3986 does not allow in a query \
             (http, https and no scheme)",
        ),
        (
            Part::Fragment,
            "urllib3 percent-encodes what RFC 3986 does not allow in a \
             fragment (http, https and no scheme)",
        ),
    ],
    split,
};

/// The exception urllib3 raises.
const LOCATION_PARSE_ERROR: &str = "LocationParseError";

/// Characters of a set, by byte: `_UNRESERVED_CHARS`.
const UNRESERVED: u8 = 1;
/// `_SUB_DELIM_CHARS`.
const SUB_DELIM: u8 = 2;
/// `:`, in `_USERINFO_CHARS`.
const COLON: u8 = 4;
/// `@` and `/`, added for `_PATH_CHARS`.
const PATH_EXTRA: u8 = 8;
/// `?`, added for `_QUERY_CHARS` and `_FRAGMENT_CHARS`.
const QUERY_EXTRA: u8 = 16;

/// `_USERINFO_CHARS`.
const USERINFO: u8 = UNRESERVED | SUB_DELIM | COLON;
/// `_PATH_CHARS`.
const PATH: u8 = USERINFO | PATH_EXTRA;
/// `_QUERY_CHARS` and `_FRAGMENT_CHARS`.
const QUERY: u8 = PATH | QUERY_EXTRA;

static CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'~')
        {
            t[b] = UNRESERVED;
        }
        if matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
        ) {
            t[b] = SUB_DELIM;
        }
        if c == b':' {
            t[b] = COLON;
        }
        if matches!(c, b'@' | b'/') {
            t[b] = PATH_EXTRA;
        }
        if c == b'?' {
            t[b] = QUERY_EXTRA;
        }
        b += 1;
    }
    t
};

/// Whether the byte `b` is in the set `set`.
fn allowed(b: u8, set: u8) -> bool {
    b < 128 && CLASS[b as usize] & set != 0
}

/// The URL's parts as urllib3's regular expression finds them: slices of
/// the input (`authority` after the implied `//` of an input with neither
/// a scheme nor a leading `/`).
struct Pieces<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// `_SCHEME_RE`: a scheme of letters, digits, `+` and `-` then `:`, or a
/// leading `/`.
fn scheme_or_slash(url: &str) -> bool {
    let b = url.as_bytes();
    if b.first() == Some(&b'/') {
        return true;
    }
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let run = b
        .iter()
        .skip(1)
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-'));
    b.get(1 + run.count()) == Some(&b':')
}

/// The end of an authority: the first `\`, `/`, `?` or `#`.
fn authority_end(text: &str) -> usize {
    text.bytes()
        .position(|c| matches!(c, b'\\' | b'/' | b'?' | b'#'))
        .unwrap_or(text.len())
}

/// `_URI_RE` on the URL (with `//` before it when `_SCHEME_RE` finds
/// neither a scheme nor a `/`).
fn pieces(url: &str) -> Pieces<'_> {
    let (mut scheme, mut authority, mut rest) = (None, None, url);
    if scheme_or_slash(url) {
        let b = url.as_bytes();
        if b.first().is_some_and(u8::is_ascii_alphabetic) {
            let run = b
                .iter()
                .skip(1)
                .take_while(|c| {
                    c.is_ascii_alphanumeric()
                        || matches!(c, b'+' | b'-' | b'.')
                })
                .count();
            if b.get(1 + run) == Some(&b':') {
                scheme = Some(&url[..1 + run]);
                rest = &url[2 + run..];
            }
        }
        if let Some(after) = rest.strip_prefix("//") {
            let end = authority_end(after);
            authority = Some(&after[..end]);
            rest = &after[end..];
        }
    } else {
        let end = authority_end(url);
        authority = Some(&url[..end]);
        rest = &url[end..];
    }
    let (before_fragment, fragment) = match rest.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (rest, None),
    };
    let (path, query) = match before_fragment.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (before_fragment, None),
    };
    Pieces { scheme, authority, path, query, fragment }
}

/// The byte of `url` where `part`, a slice of it, starts.
fn offset(url: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(url.as_ptr() as usize)
}

/// `LocationParseError(location)`, about byte `at`.
fn refuse(location: String, at: usize) -> Refusal {
    Refusal::new(LOCATION_PARSE_ERROR, format!("Failed to parse: {location}"))
        .at(at)
}

/// `parse_url(url)`.
fn split(url: &str) -> Parsed<'_> {
    if url.is_empty() {
        return Ok(Components::default());
    }
    let p = pieces(url);
    let scheme = p.scheme.map(lower_ascii);
    let normalize =
        scheme.as_deref().is_none_or(|s| matches!(s, "http" | "https"));
    let (mut auth, mut host, mut port) = (None, None, None);
    if let Some(authority) = p.authority.filter(|a| !a.is_empty()) {
        let (userinfo, host_port) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u).filter(|u| !u.is_empty()), h),
            None => (None, authority),
        };
        let Some((h, written_port)) = host_port_match(host_port) else {
            let at = offset(url, host_port);
            let reason =
                match host_port.chars().find(|&c| is_invalid_host_char(c)) {
                    Some(c) => format!(
                        "Host {} contains invalid character {}",
                        py_repr(host_port),
                        py_repr(c.encode_utf8(&mut [0; 4]))
                    ),
                    None => format!(
                        "{} is not a valid host or port",
                        py_repr(host_port)
                    ),
                };
            return Err(refuse(reason, at));
        };
        auth = match userinfo {
            Some(u) if normalize => Some(encode_invalid(u, USERINFO)),
            other => other.map(Cow::Borrowed),
        };
        host = Some(h);
        if let Some(written) = written_port.filter(|p| !p.is_empty()) {
            let value = written
                .bytes()
                .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
            if value > 65535 {
                return Err(refuse(url.to_owned(), offset(url, written)));
            }
            port = Some(Cow::Borrowed(written));
        }
    }
    let host = match host {
        Some(h) => Some(normalize_host(url, h, scheme.as_deref())?),
        None => None,
    };
    let path = match p.path {
        "" => Cow::Borrowed(""),
        path if normalize => {
            encode_invalid_owned(remove_dot_segments(path), PATH)
        }
        path => Cow::Borrowed(path),
    };
    let query = normalized(p.query, normalize);
    let fragment = normalized(p.fragment, normalize);
    // An empty path is `None` unless a query or a fragment follows.
    let mut path = (!path.is_empty() || query.is_some() || fragment.is_some())
        .then_some(path);
    // `Url.__new__`: a path that does not start with `/` gets one.
    if let Some(text) =
        path.as_ref().filter(|t| !t.is_empty() && !t.starts_with('/'))
    {
        path = Some(Cow::Owned(format!("/{text}")));
    }
    Ok(Components {
        scheme,
        userinfo: auth,
        host,
        port,
        path,
        query,
        fragment,
    })
}

/// A query or fragment, percent-encoded where urllib3 normalizes.
fn normalized(part: Option<&str>, normalize: bool) -> Option<Cow<'_, str>> {
    match part {
        Some(text) if normalize && !text.is_empty() => {
            Some(encode_invalid(text, QUERY))
        }
        other => other.map(Cow::Borrowed),
    }
}

/// ASCII text lower-cased, borrowed when it has no upper-case letter.
fn lower_ascii(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// `_HOST_INVALID_CHAR_RE`: a C0 control, a space or DEL.
fn is_invalid_host_char(c: char) -> bool {
    c <= ' ' || c == '\x7f'
}

/// `_HOST_PORT_RE.fullmatch(host_port)`: the host and the port's digits
/// (leading zeros dropped; empty after a bare `:`), or `None` when it
/// does not match.
fn host_port_match(host_port: &str) -> Option<(&str, Option<&str>)> {
    let (host, rest) = if host_port.starts_with('[') {
        // `_IPV6_ADDRZ_PAT`: neither the address nor its zone holds `]`.
        let close = host_port.find(']')?;
        let inside = &host_port[1..close];
        let (addr, zone) = match inside.find('%') {
            Some(k) => (&inside[..k], Some(&inside[k + 1..])),
            None => (inside, None),
        };
        if !is_rfc3986_ipv6(addr) || zone.is_some_and(|z| !is_zone(z)) {
            return None;
        }
        host_port.split_at(close + 1)
    } else {
        let end = host_port.find(':').unwrap_or(host_port.len());
        let host = &host_port[..end];
        if !is_reg_name(host) {
            return None;
        }
        host_port.split_at(end)
    };
    let Some(digits) = rest.strip_prefix(':') else {
        return rest.is_empty().then_some((host, None));
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // `0*?(|0|[1-9][0-9]{0,4})`: leading zeros dropped, one kept for zero.
    let zeros = digits.bytes().take_while(|&b| b == b'0').count();
    let significant = &digits[zeros..];
    let port = match (significant.len(), zeros) {
        (0, 0) => "",
        (0, _) => &digits[zeros - 1..],
        (1..=5, _) => significant,
        _ => return None,
    };
    Some((host, Some(port)))
}

/// `_REG_NAME_PAT`: anything but `[`, `]`, `%`, `:`, `/`, `?` and `#`,
/// and `%` only as the start of an escape of two hex digits.
fn is_reg_name(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' | b']' | b':' | b'/' | b'?' | b'#' => return false,
            b'%' if !is_escape(b, i) => return false,
            b'%' => i += 3,
            _ => i += 1,
        }
    }
    true
}

/// Whether `b[i..]` starts with `%` and two hex digits.
fn is_escape(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b'%')
        && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// `_ZONE_ID_PAT` after its first `%`: one unreserved character or escape
/// or more (a `%25` start is such an escape).
fn is_zone(zone: &str) -> bool {
    let b = zone.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if is_escape(b, i) {
            i += 3;
        } else if allowed(b[i], UNRESERVED) {
            i += 1;
        } else {
            return false;
        }
    }
    !b.is_empty()
}

/// `_IPV6_PAT`: RFC 3986's `IPv6address`, with urllib3's IPv4 part of four
/// runs of one to three digits (any value).
fn is_rfc3986_ipv6(text: &str) -> bool {
    let h16 = |p: &str| {
        (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_hexdigit())
    };
    let ipv4 = |p: &str| {
        let mut n = 0;
        let each = p.split('.').all(|o| {
            n += 1;
            (1..=3).contains(&o.len()) && o.bytes().all(|b| b.is_ascii_digit())
        });
        each && n == 4
    };
    // The pieces of one side of `::` as hextets: `None` when one is not a
    // hextet (an IPv4 address counts two, only last and where `ls32` may
    // stand).
    let count = |side: &str, ls32: bool| -> Option<usize> {
        if side.is_empty() {
            return Some(0);
        }
        let parts: Vec<&str> = side.split(':').collect();
        let last = parts.len() - 1;
        let mut n = 0;
        for (i, p) in parts.iter().enumerate() {
            if h16(p) {
                n += 1;
            } else if i == last && ls32 && ipv4(p) {
                n += 2;
            } else {
                return None;
            }
        }
        Some(n)
    };
    match text.split_once("::") {
        Some((left, right)) => {
            if right.contains("::") {
                return false;
            }
            match (count(left, false), count(right, true)) {
                (Some(l), Some(r)) => l + r <= 7,
                _ => false,
            }
        }
        None => count(text, true) == Some(8),
    }
}

/// `_normalize_host(host, scheme)`.
fn normalize_host<'a>(
    url: &str,
    host: &'a str,
    scheme: Option<&str>,
) -> Result<Cow<'a, str>, Refusal> {
    if host.is_empty() {
        return Ok(Cow::Borrowed(host));
    }
    let at = offset(url, host);
    if let Some(c) = host.chars().find(|&c| is_invalid_host_char(c)) {
        let c = py_repr(c.encode_utf8(&mut [0; 4]));
        return Err(refuse(
            format!("Host {} contains invalid character {c}", py_repr(host)),
            at,
        ));
    }
    if !scheme.is_none_or(|s| matches!(s, "http" | "https")) {
        return Ok(Cow::Borrowed(host));
    }
    if host.starts_with('[') && host_port_match(host) == Some((host, None)) {
        let Some(pct) = host.find('%') else {
            return Ok(lower_ascii(host));
        };
        // `_ZONE_ID_RE`: the zone from its `%` to the `]`.
        let zone = &host[pct..host.len() - 1];
        let zone = match zone.strip_prefix("%25") {
            Some(rest) if !rest.is_empty() => rest,
            _ => &zone[1..],
        };
        let mut id = String::with_capacity(zone.len());
        let b = zone.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if is_escape(b, i) {
                let octet = hex(b[i + 1]) << 4 | hex(b[i + 2]);
                if octet < 0x20 || octet == 0x7f {
                    return Err(control_escape(host, &zone[i..i + 3], at));
                }
                id.push('%');
                id.push(char::from(b[i + 1].to_ascii_uppercase()));
                id.push(char::from(b[i + 2].to_ascii_uppercase()));
                i += 3;
            } else {
                id.push(char::from(b[i]));
                i += 1;
            }
        }
        let id = encode_invalid_owned(Cow::Owned(id), UNRESERVED);
        return Ok(Cow::Owned(format!(
            "{}%{id}]",
            host[..pct].to_ascii_lowercase()
        )));
    }
    if is_ipv4_like(host) {
        return Ok(Cow::Borrowed(host));
    }
    let mut decoded = Cow::Borrowed(host);
    if host.contains('%') {
        let b = host.as_bytes();
        let mut out = String::with_capacity(host.len());
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'%' {
                let end =
                    memchr::memchr(b'%', &b[i..]).map_or(b.len(), |k| i + k);
                out.push_str(&host[i..end]);
                i = end;
                continue;
            }
            if !is_escape(b, i) {
                return Err(refuse(
                    format!("{} is not a valid host", py_repr(host)),
                    at,
                ));
            }
            let octet = hex(b[i + 1]) << 4 | hex(b[i + 2]);
            if octet < 0x20 || octet == 0x7f {
                return Err(control_escape(host, &host[i..i + 3], at));
            }
            if allowed(octet, UNRESERVED) {
                out.push(char::from(octet));
            } else {
                out.push('%');
                out.push(char::from(b[i + 1].to_ascii_uppercase()));
                out.push(char::from(b[i + 2].to_ascii_uppercase()));
            }
            i += 3;
        }
        decoded = Cow::Owned(out);
    }
    // `_idna_encode` of each label: without the idna package a non-ASCII
    // label is refused; an ASCII one is lower-cased, its escapes
    // upper-cased.
    if !decoded.is_ascii() {
        return Err(refuse(
            "Unable to parse URL without the 'idna' module".into(),
            at,
        ));
    }
    if label_case_kept(decoded.as_bytes()) {
        return Ok(decoded);
    }
    let mut out = decoded.to_ascii_lowercase().into_bytes();
    let mut i = 0;
    while i < out.len() {
        if is_escape(&out, i) {
            out[i + 1].make_ascii_uppercase();
            out[i + 2].make_ascii_uppercase();
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(Cow::Owned(String::from_utf8_lossy(&out).into_owned()))
}

/// Whether an ASCII host is as `_idna_encode` leaves it: no upper-case
/// letter outside an escape, no lower-case one inside.
fn label_case_kept(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        if is_escape(b, i) {
            if b[i + 1].is_ascii_lowercase() || b[i + 2].is_ascii_lowercase() {
                return false;
            }
            i += 3;
        } else {
            if b[i].is_ascii_uppercase() {
                return false;
            }
            i += 1;
        }
    }
    true
}

fn control_escape(host: &str, escape: &str, at: usize) -> Refusal {
    refuse(
        format!(
            "Host {} contains invalid percent-encoded control character {}",
            py_repr(host),
            py_repr(escape)
        ),
        at,
    )
}

/// The value of a hex digit.
fn hex(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        b'A'..=b'F' => d - b'A' + 10,
        _ => 0,
    }
}

/// `_IPV4_RE`: one to four dot-separated numbers, each `0x` and hex
/// digits or decimal digits.
fn is_ipv4_like(host: &str) -> bool {
    let mut n = 0;
    let each = host.split('.').all(|part| {
        n += 1;
        let b = part.as_bytes();
        let hex = b.len() > 2
            && b[0] == b'0'
            && matches!(b[1], b'x' | b'X')
            && b[2..].iter().all(u8::is_ascii_hexdigit);
        hex || (!b.is_empty() && b.iter().all(u8::is_ascii_digit))
    });
    each && n <= 4
}

/// `_encode_invalid_chars(component, allowed_chars)` of a slice of the
/// input.
fn encode_invalid(component: &str, set: u8) -> Cow<'_, str> {
    encode_invalid_owned(Cow::Borrowed(component), set)
}

/// `_encode_invalid_chars`: escapes upper-cased; every byte outside `set`
/// percent-encoded, `%` too unless every `%` starts an escape.
fn encode_invalid_owned(component: Cow<'_, str>, set: u8) -> Cow<'_, str> {
    let b = component.as_bytes();
    if !b.contains(&b'%') && b.iter().all(|&c| allowed(c, set)) {
        return component;
    }
    let percents = memchr::memchr_iter(b'%', b).count();
    let mut escapes = 0;
    let mut i = 0;
    while i < b.len() {
        if is_escape(b, i) {
            escapes += 1;
            i += 3;
        } else {
            i += 1;
        }
    }
    let encoded = escapes == percents;
    let mut out = String::with_capacity(b.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Escapes are upper-cased first; their `%` is kept when every
        // `%` starts one, else encoded as any other.
        if is_escape(b, i) {
            out.push_str(if encoded { "%" } else { "%25" });
            out.push(char::from(b[i + 1].to_ascii_uppercase()));
            out.push(char::from(b[i + 2].to_ascii_uppercase()));
            i += 3;
            continue;
        }
        if allowed(c, set) {
            out.push(char::from(c));
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(c >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(c & 15)]));
        }
        i += 1;
    }
    if out == *component {
        return component;
    }
    Cow::Owned(out)
}

/// `_remove_path_dot_segments`: `.` segments dropped, `..` removing the
/// one before it; a leading `/` kept, a trailing one added after a last
/// `.` or `..`.
fn remove_dot_segments(path: &str) -> Cow<'_, str> {
    let dotted = path.split('/').any(|s| s == "." || s == "..");
    if !dotted {
        return Cow::Borrowed(path);
    }
    let mut output: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "." => {}
            ".." => {
                output.pop();
            }
            s => output.push(s),
        }
    }
    if path.starts_with('/') && output.first().is_none_or(|s| !s.is_empty()) {
        output.insert(0, "");
    }
    if path.ends_with("/.") || path.ends_with("/..") {
        output.push("");
    }
    let joined = output.join("/");
    if joined == path {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_and_port_as_the_expression_matches() {
        assert_eq!(host_port_match("a:080"), Some(("a", Some("80"))));
        assert_eq!(host_port_match("a:000"), Some(("a", Some("0"))));
        assert_eq!(host_port_match("a:"), Some(("a", Some(""))));
        assert_eq!(host_port_match("a:123456"), None);
        assert_eq!(
            host_port_match("a:0000099999"),
            Some(("a", Some("99999")))
        );
        assert_eq!(host_port_match("[::1]:8"), Some(("[::1]", Some("8"))));
        assert_eq!(
            host_port_match("[::1%25eth0]"),
            Some(("[::1%25eth0]", None))
        );
        assert_eq!(host_port_match("[::1%]"), None);
        assert_eq!(host_port_match("a%2"), None);
        assert_eq!(host_port_match(""), Some(("", None)));
    }

    #[test]
    fn ipv6_as_rfc_3986_writes_it() {
        for ok in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "::1.2.3.4",
            "1:2:3:4:5:6:999.2.3.4",
            "1::2:3.4.5.6",
        ] {
            assert!(is_rfc3986_ipv6(ok), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":::",
            "1:2:3:4:5:6:7",
            "1::2::3",
            "::1.2.3",
            "1:2:3:4:5:6:7::8",
            "12345::",
        ] {
            assert!(!is_rfc3986_ipv6(bad), "{bad}");
        }
    }

    #[test]
    fn dot_segments_as_urllib3_removes_them() {
        assert_eq!(remove_dot_segments("/a/b/../c/./d"), "/a/c/d");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments("a/.."), "");
        assert_eq!(remove_dot_segments("//x/../y"), "//y");
        assert_eq!(remove_dot_segments("/a/."), "/a/");
    }
}
