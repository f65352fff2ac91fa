//! `ruby`: `URI.parse` of the uri library 0.11.0 that Ruby 3.1.2
//! bundles, written after its `lib/uri/rfc3986_parser.rb`,
//! `lib/uri/common.rb`, `lib/uri/generic.rb` and the classes of the
//! schemes it knows (`ftp.rb`, `file.rb`, `mailto.rb`, `ldap.rb`).
//!
//! `URI::RFC3986_Parser#split` matches the URL against two regular
//! expressions, `RFC3986_URI` and then `RFC3986_relative_ref`: RFC 3986's
//! grammar, with a host that is absent rather than empty, an IPv6 form
//! `[h16::...]` whose leading `h16` is required (a lazy `\h{1,4}?` where
//! the RFC has an optional one), and, in the relative form, an IP literal
//! grouped wrongly: `\[` and an IPv6 address with no `]`, or an IPvFuture
//! with a `]` and no `[`. The parse is written here as the language those
//! expressions accept, in linear time, with the captures Onigmo's
//! backtracking gives. `URI.for` then builds the scheme's class, whose
//! setters change some components (see the profile's notes).

use std::borrow::Cow;

use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "ruby",
    follows: "Ruby 3.1.2 uri 0.11.0 URI.parse (URI::RFC3986_Parser, then \
              the scheme's class: #scheme, #userinfo, #host, #port, #path, \
              #query, #fragment)",
    empty_is_absent: &[],
    fills_default_port: true,
    notes: &[
        (Part::Scheme, "URI lower-cases the scheme"),
        (
            Part::Userinfo,
            "URI gives no user information for an empty one, nor for a \
             file URI",
        ),
        (
            Part::Host,
            "URI#host keeps an IP literal's brackets (URI#hostname, which \
             Net::HTTP connects to, drops them) and the case; a file URI's \
             host is empty for none and for `localhost`",
        ),
        (
            Part::Port,
            "URI#port is an integer (leading zeros dropped), the scheme's \
             default (http and ws 80, https 443, ftp 21, ldap 389, \
             ldaps 636) when the URL names none or an empty one; none for \
             a file URI",
        ),
        (
            Part::Path,
            "URI#path is none for an opaque URI (`mailto:a@b`, \
             `http:x`); for ftp it drops the path's leading `/`, reads a \
             leading `%2F` as `/` and cuts a `;type=` typecode",
        ),
        (
            Part::Query,
            "URI removes tab, CR and LF from the query and percent-encodes \
             controls, space, `\"`, `'`, `<`, `>`, `` ` `` and DEL; `%` and \
             two characters that are not hex digits is an error",
        ),
    ],
    split,
};

/// The error `URI.parse` raises for a URL it cannot split.
const INVALID_URI: &str = "URI::InvalidURIError";
/// The error a scheme's class raises for a component it does not accept.
const INVALID_COMPONENT: &str = "URI::InvalidComponentError";

/// Character classes of the expressions, by byte.
const REG_NAME: u8 = 1; // [!$&-.0-9;=A-Z_a-z~]
const COLON: u8 = 2; // `:`, added for userinfo `[!$&-.0-;=A-Z_a-z~]`
const AT: u8 = 4; // `@`, added for segments `[!$&-.0-;=@-Z_a-z~]`
const SLASH_QUESTION: u8 = 8; // `/` and `?`, added for the fragment

const USERINFO: u8 = REG_NAME | COLON;
const SEGMENT: u8 = USERINFO | AT;
const SEGMENT_NC: u8 = REG_NAME | AT;
const FRAGMENT: u8 = SEGMENT | SLASH_QUESTION;

static CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'$' | b'&'..=b'.' | b';' | b'=' | b'_' | b'~'
            )
        {
            t[b] = REG_NAME;
        }
        if c == b':' {
            t[b] = COLON;
        }
        if c == b'@' {
            t[b] = AT;
        }
        if matches!(c, b'/' | b'?') {
            t[b] = SLASH_QUESTION;
        }
        b += 1;
    }
    t
};

/// Whether byte `c` is in `set`.
fn is(c: u8, set: u8) -> bool {
    c < 128 && CLASS[c as usize] & set != 0
}

/// The end of the run from `i` of bytes of `set` and escapes (`%\h\h`).
fn run(b: &[u8], mut i: usize, set: u8) -> usize {
    while i < b.len() {
        if is(b[i], set) {
            i += 1;
        } else if b[i] == b'%'
            && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            i += 3;
        } else {
            break;
        }
    }
    i
}

/// The end of a path from `i`: segments of `SEGMENT` and `/`.
fn path_end(b: &[u8], mut i: usize) -> usize {
    loop {
        i = run(b, i, SEGMENT);
        if b.get(i) == Some(&b'/') {
            i += 1;
        } else {
            return i;
        }
    }
}

/// `RFC3986_Parser#split`'s array: slices of the input.
#[derive(Default)]
struct Split<'a> {
    scheme: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<&'a str>,
    path: Option<&'a str>,
    /// `path-rootless`: the opaque part (without the query the parser
    /// appends to it, which only `URI::MailTo` reads, and only before its
    /// `?`).
    opaque: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// Which IP literal the expression has: `RFC3986_URI`'s, or
/// `RFC3986_relative_ref`'s misgrouped one.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Absolute,
    Relative,
}

/// `(?:\?(?<query>[^#]*))?(?:\#(?<fragment>...))?\z` from `i`.
fn tail<'a>(s: &'a str, mut i: usize, out: &mut Split<'a>) -> Option<()> {
    let b = s.as_bytes();
    if b.get(i) == Some(&b'?') {
        let end =
            b[i..].iter().position(|&c| c == b'#').map_or(b.len(), |k| i + k);
        out.query = Some(&s[i + 1..end]);
        i = end;
    }
    if b.get(i) == Some(&b'#') {
        let end = run(b, i + 1, FRAGMENT);
        out.fragment = Some(&s[i + 1..end]);
        i = end;
    }
    (i == b.len()).then_some(())
}

/// `RFC3986_URI.match(uri)`.
fn absolute(s: &str) -> Option<Split<'_>> {
    let b = s.as_bytes();
    // `(?<scheme>[A-Za-z][+\-.0-9A-Za-z]*):`
    let colon = b.iter().position(|&c| c == b':')?;
    let valid = b.first().is_some_and(u8::is_ascii_alphabetic)
        && b[..colon].iter().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        });
    if !valid {
        return None;
    }
    let mut out = Split { scheme: Some(&s[..colon]), ..Split::default() };
    let i = colon + 1;
    let end = if b[i..].starts_with(b"//") {
        // `//` authority path-abempty
        let j = authority(s, i + 2, Form::Absolute, &mut out)?;
        let k = path_end(b, j);
        out.path = Some(&s[j..k]);
        k
    } else if b.get(i) == Some(&b'/') {
        // path-absolute
        let k = path_end(b, i);
        out.path = Some(&s[i..k]);
        k
    } else if run(b, i, SEGMENT) > i {
        // path-rootless: an opaque URI
        let k = path_end(b, i);
        out.opaque = Some(&s[i..k]);
        k
    } else {
        // path-empty
        out.path = Some("");
        i
    };
    tail(s, end, &mut out)?;
    if out.opaque.is_some() {
        // `split` appends the query to the opaque part: no query.
        out.query = None;
    }
    Some(out)
}

/// `RFC3986_relative_ref.match(uri)`.
fn relative(s: &str) -> Option<Split<'_>> {
    let b = s.as_bytes();
    let mut out = Split::default();
    let end = if b.starts_with(b"//") {
        let j = authority(s, 2, Form::Relative, &mut out)?;
        let k = path_end(b, j);
        out.path = Some(&s[j..k]);
        k
    } else if b.first() == Some(&b'/') {
        let k = path_end(b, 0);
        out.path = Some(&s[..k]);
        k
    } else if run(b, 0, SEGMENT_NC) > 0 {
        // path-noscheme: no `:` in the first segment.
        let first = run(b, 0, SEGMENT_NC);
        let k = if b.get(first) == Some(&b'/') {
            path_end(b, first)
        } else {
            first
        };
        out.path = Some(&s[..k]);
        k
    } else {
        out.path = Some("");
        0
    };
    tail(s, end, &mut out)?;
    Some(out)
}

/// The authority from `i`: `(?:(?<userinfo>...)@)?(?<host>...)?(?::(?<port>\d*))?`,
/// which, as no part of it holds `/`, `?` or `#`, runs to the first of
/// them. Where the path starts.
fn authority<'a>(
    s: &'a str,
    i: usize,
    form: Form,
    out: &mut Split<'a>,
) -> Option<usize> {
    let b = s.as_bytes();
    let end = b[i..]
        .iter()
        .position(|c| matches!(c, b'/' | b'?' | b'#'))
        .map_or(b.len(), |k| i + k);
    let mut h = i;
    if let Some(at) = b[i..end].iter().position(|&c| c == b'@') {
        // The user information holds no `@`, nor does the host.
        if run(b, i, USERINFO) != i + at {
            return None;
        }
        out.userinfo = Some(&s[i..i + at]);
        h = i + at + 1;
    }
    let (host, port) = host_port(&s[h..end], form)?;
    out.host = host;
    out.port = port;
    Some(end)
}

/// The host and port of `text`, all of it matched.
fn host_port(text: &str, form: Form) -> Option<(Option<&str>, Option<&str>)> {
    let b = text.as_bytes();
    // `(?::(?<port>\d*))?\z` after the host.
    let port_after = |k: usize| -> Option<Option<&str>> {
        match b.get(k) {
            None => Some(None),
            Some(b':') if b[k + 1..].iter().all(u8::is_ascii_digit) => {
                Some(Some(&text[k + 1..]))
            }
            Some(_) => None,
        }
    };
    if b.first() == Some(&b'[') {
        return match form {
            Form::Absolute => {
                // `\[(?:IPv6address|IPvFuture)\]`
                let close = b.iter().position(|&c| c == b']')?;
                let inside = &text[1..close];
                if ipv6(inside).is_none() && !ipv_future(inside) {
                    return None;
                }
                Some((Some(&text[..=close]), port_after(close + 1)?))
            }
            Form::Relative => relative_ipv6(text),
        };
    }
    if form == Form::Relative {
        // `(?<IPvFuture>v\h+\.[...]+)\]`, tried before a reg-name.
        if let Some(close) = b.iter().position(|&c| c == b']') {
            if ipv_future(&text[..close]) {
                if let Some(port) = port_after(close + 1) {
                    return Some((Some(&text[..=close]), port));
                }
            }
        }
    }
    // An IPv4 address or a reg-name: the same characters.
    let r = run(b, 0, REG_NAME);
    Some(((r > 0).then(|| &text[..r]), port_after(r)?))
}

/// `RFC3986_relative_ref`'s `\[(?<IPv6address>...)` with no `]`: the
/// address runs to the end, or to a last `:` and digits, the port; of
/// the two, the one matching an earlier alternative of the expression
/// is taken, as the backtracking takes it.
fn relative_ipv6(text: &str) -> Option<(Option<&str>, Option<&str>)> {
    let t = &text[1..];
    let whole = ipv6(t).map(|alt| (alt, (Some(text), None)));
    let with_port = t.rfind(':').and_then(|k| {
        let digits = &t[k + 1..];
        if !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        ipv6(&t[..k]).map(|alt| (alt, (Some(&text[..=k]), Some(digits))))
    });
    match (whole, with_port) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a.1 } else { b.1 }),
        (Some(a), None) | (None, Some(a)) => Some(a.1),
        (None, None) => None,
    }
}

/// `IPvFuture`: `v\h+\.[!$&-.0-;=A-Z_a-z~]+` (no escapes).
fn ipv_future(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('v') else { return false };
    let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
    let Some(tail) = rest[hex..].strip_prefix('.') else { return false };
    hex > 0 && !tail.is_empty() && tail.bytes().all(|c| is(c, USERINFO))
}

/// `h16`: one to four hex digits.
fn is_h16(p: &str) -> bool {
    (1..=4).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_hexdigit())
}

/// `IPv4address`: four `dec-octet`s, `0` to `255` without leading zeros.
fn is_ipv4(p: &str) -> bool {
    let octet = |o: &str| match o.as_bytes() {
        [d] => d.is_ascii_digit(),
        [b'1'..=b'9', rest @ ..] if rest.len() <= 2 => {
            rest.iter().all(u8::is_ascii_digit)
                && o.parse::<u16>().is_ok_and(|v| v <= 255)
        }
        _ => false,
    };
    let mut n = 0;
    for o in p.split('.') {
        if !octet(o) {
            return false;
        }
        n += 1;
    }
    n == 4
}

/// `IPv6address` of the expressions: the number (1 to 9) of the first
/// alternative matching all of `text`, if one does.
///
/// With `n` the `h16`s before `::` and `r` the 16-bit pieces after it
/// (an IPv4 address last counting two), the alternatives are RFC 3986's:
/// `6(h16:)ls32`; `::` with `r` 7; `h16::` with `r` 6 (the `h16` is
/// required: a lazy `\h{1,4}?` stands where the RFC has `[h16]`); then
/// `r` 5 to 0 with at most 2 to 7 `h16`s before the `::`.
fn ipv6(text: &str) -> Option<u8> {
    /// The pieces of a side: how many 16-bit pieces, and whether the
    /// last is an IPv4 address; `None` if a piece is neither.
    fn pieces(side: &str, ipv4_last: bool) -> Option<(usize, bool)> {
        if side.is_empty() {
            return Some((0, false));
        }
        let mut count = 0;
        let mut parts = side.split(':').peekable();
        while let Some(p) = parts.next() {
            if is_h16(p) {
                count += 1;
            } else if ipv4_last && parts.peek().is_none() && is_ipv4(p) {
                return Some((count + 2, true));
            } else {
                return None;
            }
        }
        Some((count, false))
    }
    match text.find("::") {
        None => {
            let (r, _) = pieces(text, true)?;
            (r == 8).then_some(1)
        }
        Some(k) => {
            let (n, _) = pieces(&text[..k], false)?;
            let (r, v4) = pieces(&text[k + 2..], true)?;
            match r {
                7 if n == 0 => Some(2),
                6 if n == 1 => Some(3),
                5 if n <= 2 => Some(4),
                4 if n <= 3 => Some(5),
                3 if n <= 4 => Some(6),
                2 if n <= 5 => Some(7),
                1 if n <= 6 && !v4 => Some(8),
                0 if n <= 7 => Some(9),
                _ => None,
            }
        }
    }
}

/// The class `URI.for` builds for a scheme (`URI::Generic` for any
/// other), with its `DEFAULT_PORT`: those `require 'uri'` loads
/// (`uri/wss.rb` is not among them, so `wss` is generic).
#[derive(Clone, Copy, PartialEq)]
enum Class {
    Generic,
    Http,
    Https,
    Ftp,
    File,
    Ldap,
    Ldaps,
    MailTo,
    Ws,
}

impl Class {
    /// `INITIAL_SCHEMES[scheme.to_s.upcase]`.
    fn of(scheme: Option<&str>) -> Class {
        let Some(scheme) = scheme else { return Class::Generic };
        [
            ("http", Class::Http),
            ("https", Class::Https),
            ("ftp", Class::Ftp),
            ("file", Class::File),
            ("ldap", Class::Ldap),
            ("ldaps", Class::Ldaps),
            ("mailto", Class::MailTo),
            ("ws", Class::Ws),
        ]
        .into_iter()
        .find(|(name, _)| scheme.eq_ignore_ascii_case(name))
        .map_or(Class::Generic, |(_, class)| class)
    }

    fn default_port(self) -> Option<&'static str> {
        match self {
            Class::Http | Class::Ws => Some("80"),
            Class::Https => Some("443"),
            Class::Ftp => Some("21"),
            Class::Ldap => Some("389"),
            Class::Ldaps => Some("636"),
            Class::Generic | Class::File | Class::MailTo => None,
        }
    }
}

/// `URI.parse(input)`: `RFC3986_Parser#split`, then `URI.for`.
fn split(input: &str) -> Parsed<'_> {
    if let Some(at) = input.bytes().position(|c| !c.is_ascii()) {
        return Err(Refusal::new(INVALID_URI, "URI must be ascii only").at(at));
    }
    let parts = absolute(input)
        .or_else(|| relative(input))
        .ok_or_else(|| Refusal::new(INVALID_URI, "bad URI(is not URI?)"))?;
    let class = Class::of(parts.scheme);
    // `URI::FTP#initialize`: an opaque ftp URI has no path.
    if class == Class::Ftp && parts.path.is_none() {
        return Err(Refusal::new(INVALID_URI, "an ftp URI without a path"));
    }
    // `URI::Generic#initialize`, with the setters of the class.
    let scheme = parts.scheme.map(|s| {
        if s.bytes().any(|c| c.is_ascii_uppercase()) {
            Cow::Owned(s.to_ascii_lowercase())
        } else {
            Cow::Borrowed(s)
        }
    });
    let userinfo = match class {
        Class::File => None,
        // `split_userinfo`: `"".split(':', 2)` is `[]`, no user.
        _ => parts.userinfo.filter(|u| !u.is_empty()).map(Cow::Borrowed),
    };
    let host = match (class, parts.host) {
        (Class::File, None | Some("localhost")) => Some(Cow::Borrowed("")),
        (_, host) => host.map(Cow::Borrowed),
    };
    let port = match class {
        Class::File => None,
        _ => parts.port.filter(|p| !p.is_empty()).map(integer).or_else(|| {
            class.default_port().map(|p| Cow::Owned(p.to_owned()))
        }),
    };
    let path = match (class, parts.path) {
        (Class::Ftp, Some(path)) => Some(ftp_path(path)),
        (_, path) => path.map(Cow::Borrowed),
    };
    let query = match parts.query {
        Some(q) => Some(escape_query(input, q)?),
        None => None,
    };
    let fragment = parts.fragment.map(Cow::Borrowed);
    if class == Class::MailTo {
        mailto(&parts, query.is_some())?;
    }
    // `URI::LDAP#initialize`: no fragment, and a path (`parse_dn`).
    let ldap = matches!(class, Class::Ldap | Class::Ldaps);
    if ldap && (fragment.is_some() || parts.path.is_none()) {
        return Err(Refusal::new(INVALID_URI, "bad LDAP URL"));
    }
    Ok(Components { scheme, userinfo, host, port, path, query, fragment })
}

/// `String#to_i` of digits: leading zeros dropped.
fn integer(digits: &str) -> Cow<'_, str> {
    let zeros = digits.bytes().take_while(|&c| c == b'0').count();
    match zeros {
        0 => Cow::Borrowed(digits),
        z if z == digits.len() => Cow::Borrowed(&digits[z - 1..]),
        z => Cow::Borrowed(&digits[z..]),
    }
}

/// `URI::FTP`'s path: `initialize` drops a leading `/` and reads a
/// leading `%2F` as `/`; `set_path` stores `/` and that path with a
/// leading `/` written `%2F`; `initialize` cuts the stored path before
/// `;type=`; `#path` drops the stored path's `/` and reads a leading
/// `%2F` as `/` again.
fn ftp_path(path: &str) -> Cow<'_, str> {
    let mut given = path.strip_prefix('/').unwrap_or(path).to_owned();
    if given.starts_with("%2F") {
        given.replace_range(..3, "/");
    }
    let mut stored = String::with_capacity(given.len() + 3);
    stored.push('/');
    match given.strip_prefix('/') {
        Some(rest) => {
            stored.push_str("%2F");
            stored.push_str(rest);
        }
        None => stored.push_str(&given),
    }
    if let Some(k) = stored.find(";type=") {
        stored.truncate(k);
    }
    let read = &stored[1..];
    Cow::Owned(match read.strip_prefix("%2F") {
        Some(rest) => format!("/{rest}"),
        None => read.to_owned(),
    })
}

/// `URI::Generic#query=`: tab, CR and LF removed; an error for `%` and
/// two bytes that are not hex digits; every byte outside
/// `[!$-&(-;=?-_a-~]` percent-encoded.
fn escape_query<'a>(
    input: &'a str,
    query: &'a str,
) -> Result<Cow<'a, str>, Refusal> {
    let kept = || {
        query
            .bytes()
            .enumerate()
            .filter(|(_, c)| !matches!(c, b'\t' | b'\r' | b'\n'))
    };
    let bytes: Vec<(usize, u8)> = kept().collect();
    for w in bytes.windows(3) {
        if w[0].1 == b'%'
            && !w[1].1.is_ascii_hexdigit()
            && !w[2].1.is_ascii_hexdigit()
        {
            let at = offset(input, query) + w[0].0;
            return Err(
                Refusal::new(INVALID_URI, "invalid percent escape").at(at)
            );
        }
    }
    let allowed = |c: u8| matches!(c, b'!' | b'$'..=b'&' | b'('..=b';' | b'=' | b'?'..=b'_' | b'a'..=b'~');
    if query.bytes().all(allowed) {
        return Ok(Cow::Borrowed(query));
    }
    let mut out = String::with_capacity(query.len() + 8);
    for (_, c) in bytes {
        if allowed(c) {
            out.push(char::from(c));
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    Ok(Cow::Owned(out))
}

/// The byte of `input` where `part`, a slice of it, starts.
fn offset(input: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize)
}

/// `URI::MailTo#initialize`: an opaque part is required (the query, when
/// the URL has only that), and its text before `?` must be addresses:
/// `\A(?:[^@,;]+@[^@,;]+(?:\z|[,;]))*\z`.
fn mailto(parts: &Split<'_>, has_query: bool) -> Result<(), Refusal> {
    let to = match parts.opaque {
        Some(opaque) => opaque,
        None if has_query => "",
        None => {
            return Err(Refusal::new(
                INVALID_COMPONENT,
                "missing opaque part for mailto URL",
            ));
        }
    };
    let b = to.as_bytes();
    let plain = |c: &u8| !matches!(c, b'@' | b',' | b';');
    let mut i = 0;
    while i < b.len() {
        let local = b[i..].iter().take_while(|c| plain(c)).count();
        let at = i + local;
        let domain = b
            .get(at + 1..)
            .map_or(0, |d| d.iter().take_while(|c| plain(c)).count());
        if local == 0 || b.get(at) != Some(&b'@') || domain == 0 {
            return Err(Refusal::new(
                INVALID_COMPONENT,
                "unrecognised opaque part for mailtoURL",
            ));
        }
        i = at + 1 + domain;
        match b.get(i) {
            // `[,;]`, then another address or the end.
            Some(b',' | b';') => i += 1,
            Some(_) => {
                return Err(Refusal::new(
                    INVALID_COMPONENT,
                    "unrecognised opaque part for mailtoURL",
                ));
            }
            None => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{ipv6, split};

    #[test]
    fn ipv6_alternatives_as_the_expression_orders_them() {
        assert_eq!(ipv6("1:2:3:4:5:6:7:8"), Some(1));
        assert_eq!(ipv6("::1:2:3:4:5:6:7"), Some(2));
        assert_eq!(ipv6("1::2:3:4:5:6:7"), Some(3));
        // The lazy `\h{1,4}?` makes the leading h16 of the third form
        // required.
        assert_eq!(ipv6("::1:2:3:4:5:6"), None);
        assert_eq!(ipv6("::1:80"), Some(7));
        assert_eq!(ipv6("::1"), Some(8));
        assert_eq!(ipv6("::"), Some(9));
        assert_eq!(ipv6("::1.2.3.4"), Some(7));
        assert_eq!(ipv6("::01.2.3.4"), None);
        assert_eq!(ipv6("1::2::3"), None);
    }

    #[test]
    fn relative_ip_literals_as_misgrouped() {
        let c = split("//[::1:80/").unwrap();
        assert_eq!(c.host.as_deref(), Some("[::1:80"));
        assert_eq!(c.port, None);
        let c = split("//v1.x]:80/a").unwrap();
        assert_eq!(c.host.as_deref(), Some("v1.x]"));
        assert_eq!(c.port.as_deref(), Some("80"));
        assert!(split("//[::1]/").is_err());
    }

    #[test]
    fn classes_change_components() {
        let c = split("ftp://h/%2Fa;type=i").unwrap();
        assert_eq!(c.path.as_deref(), Some("/a"));
        assert_eq!(c.port.as_deref(), Some("21"));
        let c = split("file://localhost/x").unwrap();
        assert_eq!(c.host.as_deref(), Some(""));
        assert_eq!(
            split("HTTP://a:0080/?a b").unwrap().query.as_deref(),
            Some("a%20b")
        );
        assert_eq!(
            split("mailto:").unwrap_err().kind,
            "URI::InvalidComponentError"
        );
        assert!(split("ldap://h/#f").is_err());
        assert!(split("http://a/?%zz").is_err());
    }
}
