//! `curl`: libcurl 7.88.1's URL API as a transfer parses the URL it is
//! given, written after `lib/urlapi.c` of that release (`parseurl`,
//! `curl_url_get`) and the helpers it calls.
//!
//! A transfer (`lib/url.c`, `parseurlandfillconn`) calls
//! `curl_url_set(h, CURLUPART_URL, url, CURLU_GUESS_SCHEME |
//! CURLU_NON_SUPPORT_SCHEME)` on a new handle, then `curl_url_get(h,
//! CURLUPART_URL, ..., 0)`, then reads the parts. With those flags a
//! scheme is taken only when `:/` follows it (else `host:port` or
//! `user:password@` is read, and the scheme guessed from the host's first
//! label, `http` for most), any scheme is accepted, the authority runs to
//! the first `/`, `?` or `#` (`\` is data) and splits at its first `@`,
//! the host is decoded and an IPv4 number normalized, dot segments are
//! removed from the path, and a control character or a space anywhere
//! refuses the URL. `file:` URLs take no host but `localhost` or
//! `127.0.0.1`.
//!
//! The components are the parts as `curl_url_get` gives them with no
//! flag: the user information is `CURLUPART_USER` and, after a `:`,
//! `CURLUPART_PASSWORD` (the `;options` of IMAP, POP3 and SMTP user
//! information are a part of their own, left out); an IPv6 host keeps
//! its brackets, its zone is a part of its own (left out); the path is
//! `/` when the URL has none. libcurl reads a C string: the URL ends at
//! its first NUL. A decoded host that is not UTF-8 is shown with one
//! U+FFFD per byte.
//!
//! ```
//! use urlspec_parsers::profile;
//! let curl = profile("curl").unwrap();
//! let c = curl.parse("example.com:08080/a/../b").unwrap();
//! assert_eq!(c.scheme.as_deref(), Some("http"));
//! assert_eq!(c.host.as_deref(), Some("example.com"));
//! assert_eq!(c.port.as_deref(), Some("8080"));
//! assert_eq!(c.path.as_deref(), Some("/b"));
//! let c = curl.parse("http://0x7f.1/").unwrap();
//! assert_eq!(c.host.as_deref(), Some("127.0.0.1"));
//! // `\` is data: the user information runs to the `@`.
//! let c = curl.parse("http://allowed.example\\@evil.example/").unwrap();
//! assert_eq!(c.host.as_deref(), Some("evil.example"));
//! assert_eq!(curl.parse("http://a b/").unwrap_err().kind, "CURLUE_BAD_HOSTNAME");
//! ```

use std::borrow::Cow;
use std::fmt::Write;

use super::lossy::per_byte;
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "curl",
    follows: "libcurl 7.88.1 URL API: curl_url_set(CURLUPART_URL, \
              CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) and \
              curl_url_get(CURLUPART_URL) as a transfer calls them, then \
              curl_url_get of CURLUPART_SCHEME, USER, PASSWORD, HOST, PORT, \
              PATH, QUERY, FRAGMENT",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (
            Part::Scheme,
            "curl lower-cases the scheme, takes one only before `:/`, and \
             guesses one from the host when there is none (`ftp.` gives \
             ftp, most give http)",
        ),
        (
            Part::Userinfo,
            "curl splits the user information at the authority's first `@` \
             and leaves out the `;options` of IMAP, POP3 and SMTP",
        ),
        (
            Part::Host,
            "curl ends the authority at `/`, `?` or `#` only (`\\` is data), \
             decodes the host, writes an IPv4 number (`0x7f.1`) as four \
             decimals, shortens an IPv6 address as inet_ntop writes it, \
             drops its zone, and writes a `%` in the host as `%25`",
        ),
        (Part::Port, "curl drops the port's leading zeros"),
        (
            Part::Path,
            "curl removes dot segments and gives `/` for an empty path",
        ),
    ],
    split,
};

/// `CURL_MAX_INPUT_LENGTH`: the longest URL libcurl takes.
const MAX_INPUT_LENGTH: usize = 8_000_000;

/// `MAX_SCHEME_LEN`.
const MAX_SCHEME_LEN: usize = 40;

/// The `CURLUcode`s `parseurl` returns.
mod code {
    pub const MALFORMED_INPUT: &str = "CURLUE_MALFORMED_INPUT";
    pub const BAD_PORT_NUMBER: &str = "CURLUE_BAD_PORT_NUMBER";
    pub const NO_HOST: &str = "CURLUE_NO_HOST";
    pub const BAD_FILE_URL: &str = "CURLUE_BAD_FILE_URL";
    pub const BAD_FRAGMENT: &str = "CURLUE_BAD_FRAGMENT";
    pub const BAD_HOSTNAME: &str = "CURLUE_BAD_HOSTNAME";
    pub const BAD_IPV6: &str = "CURLUE_BAD_IPV6";
    pub const BAD_LOGIN: &str = "CURLUE_BAD_LOGIN";
    pub const BAD_PASSWORD: &str = "CURLUE_BAD_PASSWORD";
    pub const BAD_PATH: &str = "CURLUE_BAD_PATH";
    pub const BAD_QUERY: &str = "CURLUE_BAD_QUERY";
    pub const BAD_SLASHES: &str = "CURLUE_BAD_SLASHES";
    pub const BAD_USER: &str = "CURLUE_BAD_USER";
}

/// A `CURLUcode` as a refusal: `curl_url_strerror`'s text, and the byte
/// the check stopped at when there is one.
fn refuse(kind: &'static str, at: Option<usize>) -> Refusal {
    let reason = match kind {
        code::MALFORMED_INPUT => "Malformed input to a URL function",
        code::BAD_PORT_NUMBER => {
            "Port number was not a decimal number between 0 and 65535"
        }
        code::NO_HOST => "No host part in the URL",
        code::BAD_FILE_URL => "Bad file:// URL",
        code::BAD_FRAGMENT => "Bad fragment",
        code::BAD_HOSTNAME => "Bad hostname",
        code::BAD_IPV6 => "Bad IPv6 address",
        code::BAD_LOGIN => "Bad login part",
        code::BAD_PASSWORD => "Bad password",
        code::BAD_PATH => "Bad path",
        code::BAD_QUERY => "Bad query",
        code::BAD_SLASHES => "Unsupported number of slashes following scheme",
        code::BAD_USER => "Bad user",
        _ => "",
    };
    let refusal = Refusal::new(kind, reason);
    match at {
        Some(at) => refusal.at(at),
        None => refusal,
    }
}

/// `STARTS_WITH_URL_DRIVE_PREFIX`: a letter, `:` or `|`, then `/`, `\`
/// or the end.
fn starts_with_url_drive_prefix(s: &[u8]) -> bool {
    s.first().is_some_and(u8::is_ascii_alphabetic)
        && matches!(s.get(1), Some(b':' | b'|'))
        && matches!(s.get(2), None | Some(b'/' | b'\\'))
}

/// `junkscan`: the first control character (below 32, or DEL) or space
/// of a part, whose byte the refusal names.
fn junk(part: &str) -> Option<usize> {
    part.bytes().position(|b| b < 0x20 || b == 0x7f || b == b' ')
}

/// `Curl_is_absolute_url(url, buf, guess_scheme=TRUE)`: the scheme's
/// length when up to 40 letters, digits, `+`, `-` and `.` are followed by
/// `:/`.
fn absolute_url_scheme(url: &[u8]) -> usize {
    let i = url
        .iter()
        .take(MAX_SCHEME_LEN)
        .take_while(|&&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        })
        .count();
    if i > 0 && url.get(i) == Some(&b':') && url.get(i + 1) == Some(&b'/') {
        i
    } else {
        0
    }
}

/// The offset of `part`, a slice of `url`, in it.
fn offset(url: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(url.as_ptr() as usize)
}

/// `curl_url_set(CURLUPART_URL)` with the transfer's flags, then the
/// parts.
fn split(input: &str) -> Parsed<'_> {
    // A C string: up to the first NUL.
    let url = match memchr::memchr(0, input.as_bytes()) {
        Some(k) => &input[..k],
        None => input,
    };
    parseurl(url)
}

/// `parseurl(url, u, CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME)`.
fn parseurl(url: &str) -> Parsed<'_> {
    let b = url.as_bytes();
    if b.len() > MAX_INPUT_LENGTH {
        return Err(refuse(code::MALFORMED_INPUT, None));
    }
    let schemelen = absolute_url_scheme(b);
    let scheme_text = &url[..schemelen];
    let mut c = Components::default();
    let host: Option<&str>;
    let path: &str;
    if schemelen > 0 && scheme_text.eq_ignore_ascii_case("file") {
        if b.len() <= 6 {
            return Err(refuse(code::BAD_FILE_URL, None));
        }
        // The five bytes of `file:`, in any case: the scheme is "file".
        let mut p = &url[5..];
        c.scheme = Some(lower_ascii(scheme_text));
        if let Some(after) = p.strip_prefix("//") {
            let pb = after.as_bytes();
            if pb.first() != Some(&b'/') && !starts_with_url_drive_prefix(pb) {
                let local = |name: &[u8]| {
                    pb.len() >= name.len()
                        && pb[..name.len()].eq_ignore_ascii_case(name)
                };
                if local(b"localhost/") || local(b"127.0.0.1/") {
                    p = &after[9..];
                } else {
                    return Err(refuse(
                        code::BAD_FILE_URL,
                        Some(offset(url, after)),
                    ));
                }
            } else {
                p = after;
            }
        }
        let pb = p.as_bytes();
        if (pb.first() == Some(&b'/')
            && starts_with_url_drive_prefix(&pb[1..]))
            || starts_with_url_drive_prefix(pb)
        {
            return Err(refuse(code::BAD_FILE_URL, Some(offset(url, p))));
        }
        host = None;
        path = p;
    } else {
        let mut p = 0;
        if schemelen > 0 {
            p = schemelen + 1;
            let slashes =
                b[p..].iter().take(4).take_while(|&&c| c == b'/').count();
            p += slashes;
            if !(1..=3).contains(&slashes) {
                return Err(refuse(code::BAD_SLASHES, Some(schemelen + 1)));
            }
            c.scheme = Some(lower_ascii(scheme_text));
        }
        let end = b[p..]
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b'#'))
            .map_or(b.len(), |k| p + k);
        if end == p {
            return Err(refuse(code::NO_HOST, Some(p)));
        }
        host = Some(&url[p..end]);
        path = &url[end..];
    }

    // The fragment, after the first `#`: none when `#` ends the URL.
    let (before_fragment, fragment) =
        match memchr::memchr(b'#', path.as_bytes()) {
            Some(k) => {
                (&path[..k], Some(&path[k + 1..]).filter(|f| !f.is_empty()))
            }
            None => (path, None),
        };
    if let Some(f) = fragment {
        if let Some(k) = junk(f) {
            return Err(refuse(code::BAD_FRAGMENT, Some(offset(url, f) + k)));
        }
        c.fragment = Some(Cow::Borrowed(f));
    }
    let path = match memchr::memchr(b'?', before_fragment.as_bytes()) {
        Some(k) => {
            let query = &before_fragment[k + 1..];
            if let Some(j) = junk(query) {
                return Err(refuse(
                    code::BAD_QUERY,
                    Some(offset(url, query) + j),
                ));
            }
            c.query = Some(Cow::Borrowed(query));
            &before_fragment[..k]
        }
        None => before_fragment,
    };
    // A path of one byte (`/`) or none is unset: `curl_url_get` gives `/`.
    c.path = Some(if path.len() <= 1 {
        match path {
            "/" => Cow::Borrowed(path),
            _ => Cow::Owned("/".to_owned()),
        }
    } else {
        if let Some(k) = junk(path) {
            return Err(refuse(code::BAD_PATH, Some(offset(url, path) + k)));
        }
        dedotdotify(path)
    });

    let Some(host) = host else {
        return Ok(c);
    };
    let host = parse_hostname_login(url, host, &mut c)?;
    let host = parse_port(url, host, schemelen > 0, &mut c)?;
    if let Some(k) = junk(host) {
        return Err(refuse(code::BAD_HOSTNAME, Some(offset(url, host) + k)));
    }
    let host = match ipv4_normalize(host) {
        Some(quad) => Cow::Owned(quad),
        None => {
            let decoded = decode_host(url, host)?;
            hostname_check(url, host, decoded)?
        }
    };
    if c.scheme.is_none() {
        // Legacy curl-style guess based on the host name.
        let guess = ["ftp", "dict", "ldap", "imap", "smtp", "pop3"]
            .into_iter()
            .find(|s| {
                let h = host.as_bytes();
                h.len() > s.len()
                    && h[..s.len()].eq_ignore_ascii_case(s.as_bytes())
                    && h[s.len()] == b'.'
            })
            .unwrap_or("http");
        c.scheme = Some(Cow::Owned(guess.to_owned()));
    }
    // `curl_url_get(CURLUPART_URL)` writes each `%` of the host as `%25`
    // in the handle, which the host's part then gives.
    c.host = Some(if host.contains('%') {
        Cow::Owned(host.replace('%', "%25"))
    } else {
        host
    });
    Ok(c)
}

/// `parse_hostname_login`: the user information before the authority's
/// first `@` (options split off for the schemes whose handler takes
/// them), checked; the host after it.
fn parse_hostname_login<'a>(
    url: &'a str,
    host: &'a str,
    c: &mut Components<'a>,
) -> Result<&'a str, Refusal> {
    let Some(at) = memchr::memchr(b'@', host.as_bytes()) else {
        return Ok(host);
    };
    let login = &host[..at];
    // `Curl_builtin_scheme(u->scheme)->flags & PROTOPT_URLOPTIONS`.
    let options = c.scheme.as_deref().is_some_and(|s| {
        matches!(s, "imap" | "imaps" | "pop3" | "pop3s" | "smtp" | "smtps")
    });
    let (user, password, options) = parse_login_details(login, options);
    if let Some(k) = junk(user) {
        return Err(refuse(code::BAD_USER, Some(offset(url, user) + k)));
    }
    if let Some(k) = password.and_then(junk) {
        let password = password.unwrap_or("");
        return Err(refuse(
            code::BAD_PASSWORD,
            Some(offset(url, password) + k),
        ));
    }
    if let Some(o) = options {
        if let Some(k) = junk(o) {
            return Err(refuse(code::BAD_LOGIN, Some(offset(url, o) + k)));
        }
    }
    c.userinfo = Some(match password {
        None => Cow::Borrowed(user),
        // Without a `;` between them, `user:password` is the login.
        Some(p) if user.len() + 1 + p.len() == login.len() => {
            Cow::Borrowed(login)
        }
        Some(password) => Cow::Owned(format!("{user}:{password}")),
    });
    Ok(&host[at + 1..])
}

/// `Curl_parse_login_details`: the user name up to the first `:` or `;`,
/// the password after the first `:` (to a `;` after it), the options
/// after the first `;` (to a `:` after it; none when empty).
fn parse_login_details(
    login: &str,
    with_options: bool,
) -> (&str, Option<&str>, Option<&str>) {
    let psep = login.find(':');
    let osep = if with_options { login.find(';') } else { None };
    let len = login.len();
    let user_end = match (psep, osep) {
        (Some(p), Some(o)) if p > o => o,
        (Some(p), _) => p,
        (None, Some(o)) => o,
        (None, None) => len,
    };
    let password = psep.map(|p| match osep {
        Some(o) if o > p => &login[p + 1..o],
        _ => &login[p + 1..],
    });
    let options = osep
        .map(|o| match psep {
            Some(p) if p > o => &login[o + 1..p],
            _ => &login[o + 1..],
        })
        .filter(|o| !o.is_empty());
    (&login[..user_end], password, options)
}

/// `Curl_parse_port`: the host up to the port's `:` (after the `]` of an
/// IPv6 address, else the first), the port's digits as a number below
/// 65536, written anew.
fn parse_port<'a>(
    url: &'a str,
    host: &'a str,
    has_scheme: bool,
    c: &mut Components<'a>,
) -> Result<&'a str, Refusal> {
    let b = host.as_bytes();
    let colon = if b.first() == Some(&b'[') {
        let Some(close) = memchr::memchr(b']', b) else {
            return Err(refuse(code::BAD_IPV6, Some(offset(url, host))));
        };
        match b.get(close + 1) {
            None => None,
            Some(b':') => Some(close + 1),
            Some(_) => {
                return Err(refuse(
                    code::BAD_PORT_NUMBER,
                    Some(offset(url, host) + close + 1),
                ));
            }
        }
    } else {
        memchr::memchr(b':', b)
    };
    let Some(colon) = colon else {
        return Ok(host);
    };
    let name = &host[..colon];
    let digits = &host[colon + 1..];
    let at = Some(offset(url, digits));
    if digits.is_empty() {
        // "Browser behavior adaptation": `host:` has the default port,
        // unless the URL has no scheme.
        return if has_scheme {
            Ok(name)
        } else {
            Err(refuse(code::BAD_PORT_NUMBER, at))
        };
    }
    // `strtol(portptr, &rest, 10)`: the digits, all of them, at most
    // 65535 (an overflow is above it).
    let run = digits.bytes().take_while(u8::is_ascii_digit).count();
    if run == 0 || run < digits.len() {
        return Err(refuse(code::BAD_PORT_NUMBER, at));
    }
    let value = digits.bytes().try_fold(0u32, |n, d| {
        n.checked_mul(10)
            .map(|n| n + u32::from(d - b'0'))
            .filter(|&n| n <= 0xffff)
    });
    let Some(value) = value else {
        return Err(refuse(code::BAD_PORT_NUMBER, at));
    };
    let written = value.to_string();
    c.port = Some(if written == digits {
        Cow::Borrowed(digits)
    } else {
        Cow::Owned(written)
    });
    Ok(name)
}

/// `ipv4_normalize`: one to four numbers separated by dots, each
/// decimal, octal (a leading `0`) or hexadecimal (`0x`), as `strtoul`
/// reads them, the last filling the bytes the others leave: the address
/// in dotted decimal, or `None`.
fn ipv4_normalize(host: &str) -> Option<String> {
    let b = host.as_bytes();
    let mut parts = [0u64; 4];
    let mut n = 0;
    let mut i = 0;
    loop {
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let (value, end) = strtoul(b, i);
        parts[n] = value?;
        i = end;
        match b.get(i) {
            Some(b'.') if n < 3 => {
                n += 1;
                i += 1;
            }
            None => break,
            _ => return None,
        }
    }
    let [a, b2, c, d] = parts;
    let quad = match n {
        0 => [a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff],
        1 if a <= 0xff && b2 <= 0xff_ffff => {
            [a, (b2 >> 16) & 0xff, (b2 >> 8) & 0xff, b2 & 0xff]
        }
        2 if a <= 0xff && b2 <= 0xff && c <= 0xffff => {
            [a, b2, (c >> 8) & 0xff, c & 0xff]
        }
        3 if a <= 0xff && b2 <= 0xff && c <= 0xff && d <= 0xff => {
            [a, b2, c, d]
        }
        _ => return None,
    };
    let mut out = String::with_capacity(15);
    let _ = write!(out, "{}.{}.{}.{}", quad[0], quad[1], quad[2], quad[3]);
    Some(out)
}

/// `strtoul(b + i, &end, 0)` from a digit: the value (`None` above 32
/// bits, where `ipv4_normalize` gives up) and where it stopped.
fn strtoul(b: &[u8], i: usize) -> (Option<u64>, usize) {
    let (radix, start) = match (b[i], b.get(i + 1), b.get(i + 2)) {
        (b'0', Some(b'x' | b'X'), Some(h)) if h.is_ascii_hexdigit() => {
            (16, i + 2)
        }
        (b'0', ..) => (8, i),
        _ => (10, i),
    };
    let mut value = Some(0u64);
    let mut end = start;
    while let Some(d) = b.get(end).and_then(|&c| char::from(c).to_digit(radix))
    {
        value = value
            .and_then(|v| v.checked_mul(u64::from(radix)))
            .map(|v| v + u64::from(d))
            .filter(|&v| v <= u64::from(u32::MAX));
        end += 1;
    }
    (value, end)
}

/// `decode_host`: a host other than an IPv6 literal with its escapes
/// decoded (`Curl_urldecode`, refusing a control character).
fn decode_host<'a>(
    url: &str,
    host: &'a str,
) -> Result<Cow<'a, [u8]>, Refusal> {
    let b = host.as_bytes();
    if b.first() == Some(&b'[') || !b.contains(&b'%') {
        return Ok(Cow::Borrowed(b));
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let mut byte = b[i];
        let escape = byte == b'%'
            && b.len() - i > 2
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit();
        if escape {
            byte = hex(b[i + 1]) << 4 | hex(b[i + 2]);
            i += 3;
        } else {
            i += 1;
        }
        if byte < 0x20 {
            return Err(refuse(code::BAD_HOSTNAME, Some(offset(url, host))));
        }
        out.push(byte);
    }
    Ok(Cow::Owned(out))
}

fn hex(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        b'A'..=b'F' => d - b'A' + 10,
        _ => 0,
    }
}

/// `hostname_check`: not empty; an IPv6 literal of hex digits, `:` and
/// `.` (its zone cut off after `%` or `%25`) that `inet_pton` reads,
/// written shorter as `inet_ntop` writes it when that is shorter; else a
/// name without the bytes curl refuses in one.
fn hostname_check<'a>(
    url: &str,
    written: &'a str,
    host: Cow<'a, [u8]>,
) -> Result<Cow<'a, str>, Refusal> {
    let at = Some(offset(url, written));
    if host.is_empty() {
        return Err(refuse(code::NO_HOST, at));
    }
    if host[0] == b'[' {
        // An IPv6 literal is never decoded: `host` is `written`.
        let bad = || refuse(code::BAD_IPV6, at);
        if written.len() < 4 {
            return Err(bad());
        }
        let inside = &written[1..written.len() - 1];
        let len = inside
            .bytes()
            .take_while(|&c| c.is_ascii_hexdigit() || c == b':' || c == b'.')
            .count();
        let mut cut = false;
        if len != inside.len() {
            if inside.as_bytes()[len] != b'%' {
                return Err(bad());
            }
            // `%[zone id]`, after `25` when more than `25` follows; at
            // most 15 bytes before the `]`.
            let mut zone = &written[1 + len + 1..];
            if zone.len() > 2
                && zone.starts_with("25")
                && !zone[2..].starts_with(']')
            {
                zone = &zone[2..];
            }
            let id = zone.bytes().take(15).take_while(|&c| c != b']').count();
            if id == 0 || zone.as_bytes().get(id) != Some(&b']') {
                return Err(bad());
            }
            cut = true;
        }
        let address = &inside[..len];
        let Some(words) = inet_pton6(address.as_bytes()) else {
            return Err(bad());
        };
        let norm = inet_ntop6(&words);
        return Ok(if norm.len() < address.len() {
            Cow::Owned(format!("[{norm}]"))
        } else if cut {
            Cow::Owned(format!("[{address}]"))
        } else {
            Cow::Borrowed(written)
        });
    }
    if host.iter().any(|&c| BAD_IN_HOSTNAME[usize::from(c)]) {
        return Err(refuse(code::BAD_HOSTNAME, at));
    }
    Ok(match host {
        Cow::Borrowed(_) => Cow::Borrowed(written),
        Cow::Owned(bytes) => Cow::Owned(per_byte(bytes)),
    })
}

/// The bytes `hostname_check` refuses in a host name, by byte.
static BAD_IN_HOSTNAME: [bool; 256] = {
    let mut t = [false; 256];
    let bad = b" \r\n\t/:#?!@{}[]\\$'\"^`*<>=;,+&()";
    let mut i = 0;
    while i < bad.len() {
        t[bad[i] as usize] = true;
        i += 1;
    }
    t
};

/// glibc's `inet_pton(AF_INET6, ...)`: eight 16-bit words of up to four
/// hex digits, one `::` for a run of zeros, a dotted IPv4 address (of
/// four decimal numbers up to 255, without leading zeros) for the last
/// two.
fn inet_pton6(src: &[u8]) -> Option<[u16; 8]> {
    let mut words = [0u16; 8];
    let mut tp = 0;
    let mut colonp = None;
    let mut i = 0;
    if src.is_empty() {
        return None;
    }
    if src[0] == b':' {
        i = 1;
        if src.get(1) != Some(&b':') {
            return None;
        }
    }
    let mut curtok = i;
    let mut digits = 0;
    let mut val: u32 = 0;
    let mut saw_ipv4 = false;
    while i < src.len() {
        let ch = src[i];
        i += 1;
        if let Some(d) = char::from(ch).to_digit(16) {
            if digits == 4 {
                return None;
            }
            val = val << 4 | d;
            digits += 1;
            continue;
        }
        if ch == b':' {
            curtok = i;
            if digits == 0 {
                if colonp.is_some() {
                    return None;
                }
                colonp = Some(tp);
                continue;
            } else if i == src.len() || tp + 1 > 8 {
                return None;
            }
            words[tp] = val as u16;
            tp += 1;
            digits = 0;
            val = 0;
            continue;
        }
        if ch == b'.' && tp + 2 <= 8 {
            if let Some([a, b, c, d]) = inet_pton4(&src[curtok..]) {
                words[tp] = u16::from(a) << 8 | u16::from(b);
                words[tp + 1] = u16::from(c) << 8 | u16::from(d);
                tp += 2;
                digits = 0;
                saw_ipv4 = true;
                break;
            }
        }
        return None;
    }
    if digits > 0 && !saw_ipv4 {
        if tp + 1 > 8 {
            return None;
        }
        words[tp] = val as u16;
        tp += 1;
    }
    if let Some(colonp) = colonp {
        if tp == 8 {
            return None;
        }
        let n = tp - colonp;
        words.copy_within(colonp..tp, 8 - n);
        words[colonp..8 - n].fill(0);
        tp = 8;
    }
    (tp == 8).then_some(words)
}

/// glibc's `inet_pton4`: four decimal numbers up to 255, without leading
/// zeros, separated by dots.
fn inet_pton4(src: &[u8]) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut octets = 0;
    let mut saw_digit = false;
    let mut tp = 0;
    for &ch in src {
        if ch.is_ascii_digit() {
            let new = u32::from(out[tp]) * 10 + u32::from(ch - b'0');
            if saw_digit && out[tp] == 0 {
                return None;
            }
            if new > 255 {
                return None;
            }
            out[tp] = new as u8;
            if !saw_digit {
                octets += 1;
                if octets > 4 {
                    return None;
                }
                saw_digit = true;
            }
        } else if ch == b'.' && saw_digit {
            if octets == 4 {
                return None;
            }
            tp += 1;
            saw_digit = false;
        } else {
            return None;
        }
    }
    (octets == 4).then_some(out)
}

/// glibc's `inet_ntop(AF_INET6, ...)`: lower-case hex words, the first
/// longest run of two zero words or more as `::`, the last two words as
/// an IPv4 address after `::` or `::ffff:`.
fn inet_ntop6(words: &[u16; 8]) -> String {
    // Runs of zero words: (first word, length).
    let mut best: Option<(usize, usize)> = None;
    let mut cur: Option<(usize, usize)> = None;
    for (i, &w) in words.iter().enumerate() {
        if w == 0 {
            cur = Some(cur.map_or((i, 1), |(base, len)| (base, len + 1)));
        } else if let Some(run) = cur.take() {
            if best.is_none_or(|b| run.1 > b.1) {
                best = Some(run);
            }
        }
    }
    if let Some(run) = cur {
        if best.is_none_or(|b| run.1 > b.1) {
            best = Some(run);
        }
    }
    let best = best.filter(|b| b.1 >= 2);
    let mut out = String::with_capacity(39);
    let mut i = 0;
    while i < 8 {
        if let Some((base, len)) =
            best.filter(|&(base, len)| i >= base && i < base + len)
        {
            if i == base {
                out.push(':');
            }
            i = base + len;
            continue;
        }
        if i != 0 {
            out.push(':');
        }
        let ipv4 = best.is_some_and(|(base, len)| {
            i == 6
                && base == 0
                && (len == 6 || (len == 5 && words[5] == 0xffff))
        });
        if ipv4 {
            let _ = write!(
                out,
                "{}.{}.{}.{}",
                words[6] >> 8,
                words[6] & 0xff,
                words[7] >> 8,
                words[7] & 0xff
            );
            return out;
        }
        let _ = write!(out, "{:x}", words[i]);
        i += 1;
    }
    if best.is_some_and(|(base, len)| base + len == 8) {
        out.push(':');
    }
    out
}

/// `dedotdotify`: RFC 3986's removal of dot segments as curl writes it,
/// for a path that starts with `/` (the only paths `parseurl` gives it);
/// borrowed when nothing is removed.
fn dedotdotify(path: &str) -> Cow<'_, str> {
    // curl looks for any `.`; only a segment that starts with one can go
    // (`/.` in a path that starts with `/`).
    if path.len() < 2 || memchr::memmem::find(path.as_bytes(), b"/.").is_none()
    {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    let mut input = path;
    // Removes the output's last segment and the `/` before it.
    let pop = |out: &mut String| {
        let k = out.rfind('/').unwrap_or(0);
        out.truncate(k);
    };
    loop {
        if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            out.push('/');
            break;
        } else if input.starts_with("/../") {
            input = &input[3..];
            pop(&mut out);
        } else if input == "/.." {
            pop(&mut out);
            out.push('/');
            break;
        } else if let Some(rest) =
            input.strip_prefix("./").or_else(|| input.strip_prefix("../"))
        {
            input = rest;
        } else if input == "." || input == ".." {
            out.clear();
            break;
        } else {
            // The first segment, with its `/`, moved to the output.
            let end = input
                .bytes()
                .skip(1)
                .position(|c| c == b'/')
                .map_or(input.len(), |k| k + 1);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
        if input.is_empty() {
            break;
        }
    }
    if out == path {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_as_curl_removes_them() {
        assert_eq!(dedotdotify("/a/b/../c/./d"), "/a/c/d");
        assert_eq!(dedotdotify("/.."), "/");
        assert_eq!(dedotdotify("/a/."), "/a/");
        assert_eq!(dedotdotify("//x/../y"), "//y");
        assert_eq!(dedotdotify("/a/.b/..c"), "/a/.b/..c");
    }

    #[test]
    fn ipv4_numbers_as_strtoul_reads_them() {
        assert_eq!(ipv4_normalize("0x7f.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(ipv4_normalize("0177.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(ipv4_normalize("2130706433").as_deref(), Some("127.0.0.1"));
        assert_eq!(ipv4_normalize("08.1"), None);
        assert_eq!(ipv4_normalize("1.2.3.4."), None);
        assert_eq!(ipv4_normalize("4294967296"), None);
        assert_eq!(ipv4_normalize("0x"), None);
    }

    #[test]
    fn ipv6_as_glibc_reads_and_writes_it() {
        let norm = |s: &str| inet_pton6(s.as_bytes()).map(|w| inet_ntop6(&w));
        assert_eq!(norm("0:0:0:0:0:0:0:1").as_deref(), Some("::1"));
        assert_eq!(norm("::ffff:1.2.3.4").as_deref(), Some("::ffff:1.2.3.4"));
        assert_eq!(norm("1:0:0:2:0:0:0:3").as_deref(), Some("1:0:0:2::3"));
        assert_eq!(norm("1:2:3:4:5:6:7::"), Some("1:2:3:4:5:6:7:0".into()));
        assert_eq!(norm("::01.2.3.4"), None);
        assert_eq!(norm(":1::"), None);
        assert_eq!(norm("1::2::3"), None);
    }
}
