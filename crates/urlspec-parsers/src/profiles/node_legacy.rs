//! `node-legacy`: the legacy `url.parse(s)` of Node.js 20.20.2, written
//! after `Url.prototype.parse` in its `lib/url.js` (and `parseHost`,
//! `getHostname`, `autoEscapeStr`), with the host's IDNA step, ada's
//! `to_ascii`, in the module `ada_idna` beside it.
//!
//! url.parse trims white space (and U+00A0, U+FEFF) from both ends,
//! turns `\` into `/` before the first `?` or `#`, takes a path that
//! starts with `/` (not `///`) and holds no white space as it is, reads
//! a protocol of letters, digits, `.`, `+` and `-`, and, after `//` or a
//! protocol other than http(s), ftp, gopher, file and ws(s), an
//! authority that ends at the first `/`, `?` or `#`, or at the first
//! character RFC 2396 never allows in a host after the last `@`. The
//! user information is percent-decoded; the host is cut at a `:` that
//! does not start a numeric port (the rest goes to the path),
//! lower-cased and passed through IDNA, and refused when that gives a
//! character WHATWG forbids in a host. The rest has its tab, CR, LF,
//! space, `"`, `'`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|` and `}`
//! percent-encoded (not for `javascript:`).

use std::borrow::Cow;

use memchr::{memchr, memchr2, memrchr};

use super::ada_idna;
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "node-legacy",
    follows: "Node.js 20.20.2 url.parse(s) (lib/url.js Url.prototype.parse: \
              .protocol without its `:`, .auth, .hostname, .port, \
              .pathname, .query, .hash without its `#`), its toASCII ada \
              2.9.2's",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (Part::Scheme, "url.parse lower-cases the protocol"),
        (
            Part::Userinfo,
            "url.parse percent-decodes the user information (a malformed \
             escape throws URIError) and removes tab, CR and LF from it",
        ),
        (
            Part::Host,
            "url.parse removes tab, CR and LF from the host, ends it at a \
             space or one of `\"%';<>\\^`{|}`, cuts it at a `:` that does \
             not start a numeric port, empties one longer than 255, \
             lower-cases it, maps and punycodes it (ada's IDNA) and drops \
             an IPv6 address's brackets; a host that IDNA refuses or \
             that holds a character WHATWG forbids throws \
             ERR_INVALID_URL",
        ),
        (
            Part::Port,
            "url.parse keeps the port's digits as written (leading zeros, \
             any size); a `:` followed by other text is moved to the path",
        ),
        (
            Part::Path,
            "url.parse turns `\\` into `/` before the first `?` or `#`, \
             percent-encodes tab, CR, LF, space, `\"'<>\\^`{|}` (not for \
             javascript:), puts the text a host was cut at before the path \
             and gives `/` for an empty path of http(s), ftp, gopher, file \
             and ws(s)",
        ),
        (
            Part::Query,
            "url.parse percent-encodes tab, CR, LF, space, `\"'<>\\^`{|}` \
             (not for javascript:)",
        ),
        (
            Part::Fragment,
            "url.parse percent-encodes tab, CR, LF, space, `\"'<>\\^`{|}` \
             (not for javascript:)",
        ),
    ],
    split,
};

/// The error `url.parse` throws for a host: its code.
const INVALID_URL: &str = "ERR_INVALID_URL";
/// The error `decodeURIComponent` throws for the user information.
const URI_ERROR: &str = "URIError";

/// `hostnameMaxLen`, in UTF-16 code units.
const HOSTNAME_MAX_LEN: usize = 255;

/// A part of the URL as url.parse holds it: a slice of the input while
/// nothing has changed it.
type Text<'a> = Cow<'a, str>;

/// `text.slice(range)`, borrowed from the input where `text` is.
fn slice<'a>(text: &Text<'a>, from: usize, to: usize) -> Text<'a> {
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(&s[from..to]),
        Cow::Owned(s) => Cow::Owned(s[from..to].to_owned()),
    }
}

/// Whether the character at byte `i` is white space `url.parse` trims
/// (below 33, U+00A0 and U+FEFF), and its width in bytes (1 for a byte
/// within a character: no other one is white space).
fn trimmed_at(b: &[u8], i: usize) -> (bool, usize) {
    match b[i] {
        0..=32 => (true, 1),
        0xc2 if b.get(i + 1) == Some(&0xa0) => (true, 2),
        0xef if b.get(i + 1..i + 3) == Some(&[0xbb, 0xbf]) => (true, 3),
        _ => (false, 1),
    }
}

/// `slashedProtocol`: the protocols that always have `//`.
fn slashed(protocol: &str) -> bool {
    matches!(
        protocol,
        "http"
            | "http:"
            | "https"
            | "https:"
            | "ftp"
            | "ftp:"
            | "gopher"
            | "gopher:"
            | "file"
            | "file:"
            | "ws"
            | "ws:"
            | "wss"
            | "wss:"
    )
}

/// `hostlessProtocol` and `unsafeProtocol`: `javascript`.
fn javascript(protocol: Option<&str>) -> bool {
    matches!(protocol, Some("javascript" | "javascript:"))
}

/// The components as `Url.prototype.parse` sets them.
#[derive(Default)]
struct Url<'a> {
    protocol: Option<Text<'a>>,
    auth: Option<Text<'a>>,
    hostname: Option<Text<'a>>,
    port: Option<Text<'a>>,
    pathname: Option<Text<'a>>,
    query: Option<Text<'a>>,
    hash: Option<Text<'a>>,
}

/// `url.parse(input)`.
fn split(input: &str) -> Parsed<'_> {
    let mut url = Url::default();
    parse(input, &mut url)?;
    // `protocol` ends with its `:`, `hash` starts with its `#`.
    let scheme = url.protocol.map(|p| {
        let n = p.len() - 1;
        slice(&p, 0, n)
    });
    Ok(Components {
        scheme,
        userinfo: url.auth,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        query: url.query,
        fragment: url.hash.map(|h| {
            let n = h.len();
            slice(&h, 1, n)
        }),
    })
}

/// `Url.prototype.parse(url, false, false)`.
fn parse<'a>(input: &'a str, url: &mut Url<'a>) -> Result<(), Refusal> {
    // The first loop: trim white space, and turn `\` into `/` before the
    // first `?` or `#` (the split). What it finds, with the same result:
    // `start` the first character not trimmed, `end` the start of the
    // trimmed run at the end; `hasHash` any `#`, `hasAt` an `@` before the
    // split. None of `?#@\` is white space, so none is trimmed.
    let b = input.as_bytes();
    let Some(start) = first_kept(b) else {
        // Only white space: `rest` is empty, nothing was seen.
        return simple_or_not(input, Cow::Borrowed(""), false, false, url);
    };
    let end = last_kept_end(b);
    let split = memchr2(b'?', b'#', b).unwrap_or(b.len());
    let has_hash = memchr(b'#', &b[split..]).is_some();
    let has_at = memchr(b'@', &b[..split]).is_some();
    let rest: Text<'a> = if memchr(b'\\', &b[..split]).is_some() {
        let mut turned = input[start..end].to_owned();
        let upto = split.min(end) - start;
        // SAFETY-free: `\` and `/` are both ASCII, so the text stays UTF-8.
        turned.replace_range(
            ..upto,
            &input[start..start + upto].replace('\\', "/"),
        );
        Cow::Owned(turned)
    } else {
        Cow::Borrowed(&input[start..end])
    };
    simple_or_not(input, rest, has_hash, has_at, url)
}

/// The first byte of `b` not trimmed (white space, U+00A0, U+FEFF).
fn first_kept(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < b.len() {
        match trimmed_at(b, i) {
            (true, width) => i += width,
            (false, _) => return Some(i),
        }
    }
    None
}

/// The end of `b` without its trimmed characters at the end.
fn last_kept_end(b: &[u8]) -> usize {
    let mut end = b.len();
    loop {
        match &b[..end] {
            [.., c] if *c < 33 => end -= 1,
            [.., 0xc2, 0xa0] => end -= 2,
            [.., 0xef, 0xbb, 0xbf] => end -= 3,
            _ => return end,
        }
    }
}

/// The rest of `Url.prototype.parse` after its first loop.
fn simple_or_not<'a>(
    input: &'a str,
    mut rest: Text<'a>,
    has_hash: bool,
    has_at: bool,
    url: &mut Url<'a>,
) -> Result<(), Refusal> {
    // `simplePathPattern`: `/^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/`.
    if !has_hash && !has_at && is_simple_path(&rest) {
        let question = memchr(b'?', rest.as_bytes()).unwrap_or(rest.len());
        url.pathname = Some(slice(&rest, 0, question));
        if question < rest.len() {
            url.query = Some(slice(&rest, question + 1, rest.len()));
        }
        return Ok(());
    }

    // `protocolPattern`: `/^[a-z0-9.+-]+:/i`.
    let written = rest
        .bytes()
        .take_while(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'-')
        })
        .count();
    let mut proto = None;
    if written > 0 && rest.as_bytes().get(written) == Some(&b':') {
        let p = slice(&rest, 0, written + 1);
        let lower = if p.bytes().any(|c| c.is_ascii_uppercase()) {
            Cow::Owned(p.to_ascii_lowercase())
        } else {
            p.clone()
        };
        url.protocol = Some(lower);
        proto = Some(p);
        let n = rest.len();
        rest = slice(&rest, written + 1, n);
    }
    let lower_proto = url.protocol.clone();
    let lower_proto = lower_proto.as_deref();

    // `slashes`: `//` starts a host after a protocol, or when
    // `hostPattern` (`/^\/\/[^@/]+@[^@/]+/`) finds user information.
    let mut slashes = false;
    if proto.is_some() || host_pattern(&rest) {
        slashes = rest.starts_with("//");
        if slashes && !(proto.is_some() && javascript(lower_proto)) {
            let n = rest.len();
            rest = slice(&rest, 2, n);
        }
    }

    let has_host = !javascript(lower_proto)
        && (slashes || proto.as_deref().is_some_and(|p| !slashed(p)));
    if has_host {
        rest = host(input, rest, url)?;
    }

    // `autoEscapeStr`, then the hash, the query and the path.
    if !javascript(lower_proto) {
        rest = auto_escape(rest);
    }
    let hash = memchr(b'#', rest.as_bytes());
    let question =
        memchr(b'?', &rest.as_bytes()[..hash.unwrap_or(rest.len())]);
    let n = rest.len();
    if let Some(h) = hash {
        url.hash = Some(slice(&rest, h, n));
    }
    let before_hash = hash.unwrap_or(n);
    if let Some(q) = question {
        url.query = Some(slice(&rest, q + 1, before_hash));
    }
    match question.or(hash) {
        None if n > 0 => url.pathname = Some(rest.clone()),
        Some(first) if first > 0 => {
            url.pathname = Some(slice(&rest, 0, first))
        }
        _ => {}
    }
    let named_host = url.hostname.as_deref().is_some_and(|h| !h.is_empty());
    if lower_proto.is_some_and(slashed) && named_host && url.pathname.is_none()
    {
        url.pathname = Some(Cow::Owned("/".to_owned()));
    }
    Ok(())
}

/// `simplePathPattern` matches: `/` or `//` (not `///`) first, and no
/// white space (JavaScript's `\s`).
fn is_simple_path(rest: &str) -> bool {
    rest.starts_with('/')
        && !rest.starts_with("///")
        && !(if rest.is_ascii() {
            rest.bytes().any(|c| matches!(c, b'\t'..=b'\r' | b' '))
        } else {
            rest.chars().any(is_js_space)
        })
}

/// JavaScript's `\s`: WhiteSpace and LineTerminator.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `hostPattern`: `//`, then text without `@` or `/`, `@`, and a
/// character that is neither.
fn host_pattern(rest: &str) -> bool {
    let Some(after) = rest.strip_prefix("//") else { return false };
    let b = after.as_bytes();
    let user = b.iter().take_while(|c| !matches!(c, b'@' | b'/')).count();
    user > 0
        && b.get(user) == Some(&b'@')
        && b.get(user + 1).is_some_and(|c| !matches!(c, b'@' | b'/'))
}

/// The authority at the start of `rest`: the user information, the host
/// and the port; what follows it.
fn host<'a>(
    input: &'a str,
    rest: Text<'a>,
    url: &mut Url<'a>,
) -> Result<Text<'a>, Refusal> {
    // Tab, CR and LF are removed up to the first `#`, `/` or `?`.
    let ends =
        |t: &str| t.bytes().position(|c| matches!(c, b'#' | b'/' | b'?'));
    let host_end = ends(&rest);
    let stop = host_end.unwrap_or(rest.len());
    let rest =
        if rest[..stop].bytes().any(|c| matches!(c, b'\t' | b'\n' | b'\r')) {
            let mut cleaned: String = rest[..stop]
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect();
            cleaned.push_str(&rest[stop..]);
            Cow::Owned(cleaned)
        } else {
            rest
        };
    let host_end = host_end.map(|_| ends(&rest).unwrap_or(rest.len()));
    let stop = host_end.unwrap_or(rest.len());
    // The last `@`; the first character never allowed in a host after it,
    // or the host's end.
    let at_sign = memrchr(b'@', &rest.as_bytes()[..stop]);
    let from = at_sign.map_or(0, |a| a + 1);
    let non_host = rest[from..stop]
        .bytes()
        .position(|c| {
            matches!(
                c,
                b' ' | b'"'
                    | b'%'
                    | b'\''
                    | b';'
                    | b'<'
                    | b'>'
                    | b'\\'
                    | b'^'
                    | b'`'
                    | b'{'
                    | b'|'
                    | b'}'
            )
        })
        .map(|k| from + k)
        .or(host_end);
    if let Some(a) = at_sign {
        let auth = slice(&rest, 0, a);
        let within = offset(input, &auth);
        url.auth = Some(decode_uri_component(auth).map_err(|at| {
            let refusal = Refusal::new(URI_ERROR, "URI malformed");
            match within {
                Some(start) => refusal.at(start + at),
                None => refusal,
            }
        })?);
    }
    let n = rest.len();
    let (host, after) = match non_host {
        None => (slice(&rest, from, n), Cow::Borrowed("")),
        Some(k) => (slice(&rest, from, k), slice(&rest, k, n)),
    };
    let mut rest = after;

    // `parseHost`: a `:` and digits at the end are the port.
    let digits = host.bytes().rev().take_while(u8::is_ascii_digit).count();
    let mut hostname = host.clone();
    let colon = host.len() - digits;
    if colon > 0 && host.as_bytes()[colon - 1] == b':' {
        if digits > 0 {
            url.port = Some(slice(&host, colon, host.len()));
        }
        hostname = slice(&host, 0, colon - 1);
    }
    let mut hostname: Text<'a> = hostname;

    let ipv6 = hostname.starts_with('[') && hostname.ends_with(']');
    if !ipv6 {
        // `getHostname`: a `:` (none of `/\#?` is left) ends the host;
        // the rest goes before the path.
        if let Some(k) = memchr(b':', hostname.as_bytes()) {
            let mut moved =
                String::with_capacity(1 + hostname.len() - k + rest.len());
            moved.push('/');
            moved.push_str(&hostname[k..]);
            moved.push_str(&rest);
            rest = Cow::Owned(moved);
            hostname = slice(&hostname, 0, k);
        }
    }
    let units = if hostname.is_ascii() {
        hostname.len()
    } else {
        hostname.encode_utf16().count()
    };
    if units > HOSTNAME_MAX_LEN {
        hostname = Cow::Borrowed("");
    } else if hostname.bytes().any(|c| c.is_ascii_uppercase())
        || !hostname.is_ascii()
    {
        // `toLowerCase`: Unicode's default lower-casing.
        let lower = hostname.to_lowercase();
        if lower != *hostname {
            hostname = Cow::Owned(lower);
        }
    }
    if !hostname.is_empty() {
        if ipv6 {
            if hostname.contains([
                '\0', '\t', '\n', '\r', ' ', '#', '%', '/', '<', '>', '?',
                '@', '\\', '^', '|',
            ]) {
                return Err(Refusal::new(INVALID_URL, "Invalid URL"));
            }
        } else {
            let mut ascii = ada_idna::to_ascii(&hostname);
            // The binding makes a JavaScript string of ada's as a C
            // string: it ends at a NUL.
            if let Some(nul) = ascii.find('\0') {
                ascii.truncate(nul);
            }
            let forbidden = ascii.contains([
                '\0', '\t', '\n', '\r', ' ', '#', '%', '/', ':', '<', '>',
                '?', '@', '[', '\\', ']', '^', '|',
            ]);
            if ascii.is_empty() || forbidden {
                return Err(Refusal::new(INVALID_URL, "Invalid URL"));
            }
            if ascii != *hostname {
                hostname = Cow::Owned(ascii);
            }
        }
    }
    if ipv6 {
        let n = hostname.len();
        hostname = if n >= 2 {
            slice(&hostname, 1, n - 1)
        } else {
            Cow::Borrowed("")
        };
        if !rest.starts_with('/') {
            rest = Cow::Owned(format!("/{rest}"));
        }
    }
    url.hostname = Some(hostname);
    Ok(rest)
}

/// The byte of `input` where `text` starts, when it is a slice of it.
fn offset(input: &str, text: &Text<'_>) -> Option<usize> {
    let at = (text.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    (matches!(text, Cow::Borrowed(_)) && at <= input.len()).then_some(at)
}

/// `autoEscapeStr`: the characters RFC 2396 calls delimiters or unwise,
/// and `'`, percent-encoded.
fn auto_escape(rest: Text<'_>) -> Text<'_> {
    let escaped = |c: char| -> Option<&'static str> {
        Some(match c {
            '\t' => "%09",
            '\n' => "%0A",
            '\r' => "%0D",
            ' ' => "%20",
            '"' => "%22",
            '\'' => "%27",
            '<' => "%3C",
            '>' => "%3E",
            '\\' => "%5C",
            '^' => "%5E",
            '`' => "%60",
            '{' => "%7B",
            '|' => "%7C",
            '}' => "%7D",
            _ => return None,
        })
    };
    if !rest.bytes().any(|c| c.is_ascii() && escaped(char::from(c)).is_some())
    {
        return rest;
    }
    let mut out = String::with_capacity(rest.len() + 16);
    for c in rest.chars() {
        match escaped(c) {
            Some(e) => out.push_str(e),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `decodeURIComponent(text)`: escapes of UTF-8 decoded; `Err` with the
/// byte of a malformed one (not `%` and two hex digits, or not UTF-8).
fn decode_uri_component(text: Text<'_>) -> Result<Text<'_>, usize> {
    if !text.contains('%') {
        return Ok(text);
    }
    let b = text.as_bytes();
    let hex = |i: usize| -> Option<u8> {
        let digit = |c: u8| char::from(c).to_digit(16);
        let (hi, lo) = (digit(*b.get(i + 1)?)?, digit(*b.get(i + 2)?)?);
        u8::try_from(hi * 16 + lo).ok()
    };
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            let next = b[i..]
                .iter()
                .position(|&c| c == b'%')
                .map_or(b.len(), |k| i + k);
            out.push_str(&text[i..next]);
            i = next;
            continue;
        }
        let lead = hex(i).ok_or(i)?;
        // The count of bytes the lead byte announces.
        let n = match lead.leading_ones() {
            0 => 1,
            2..=4 => lead.leading_ones() as usize,
            _ => return Err(i),
        };
        let mut bytes = [lead, 0, 0, 0];
        for (k, byte) in bytes.iter_mut().enumerate().take(n).skip(1) {
            let at = i + 3 * k;
            if b.get(at) != Some(&b'%') {
                return Err(i);
            }
            *byte = hex(at).filter(|c| c & 0xc0 == 0x80).ok_or(i)?;
        }
        let decoded = std::str::from_utf8(&bytes[..n]).map_err(|_| i)?;
        out.push_str(decoded);
        i += 3 * n;
    }
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::split;
    use crate::components::Components;

    #[test]
    fn splits_as_url_parse() {
        let c = split("  HTTP://u%40:p@Ex.COM:0080\\a b?q'#h ").unwrap();
        assert_eq!(c.scheme.as_deref(), Some("http"));
        assert_eq!(c.userinfo.as_deref(), Some("u@:p"));
        assert_eq!(c.host.as_deref(), Some("ex.com"));
        assert_eq!(c.port.as_deref(), Some("0080"));
        assert_eq!(c.path.as_deref(), Some("/a%20b"));
        assert_eq!(c.query.as_deref(), Some("q%27"));
        assert_eq!(c.fragment.as_deref(), Some("h"));
        // A `:` that does not start a numeric port ends the host.
        let c = split("http://a:b@c:d/e").unwrap();
        assert_eq!(c.host.as_deref(), Some("c"));
        assert_eq!(c.path.as_deref(), Some("/:d/e"));
        // A path is taken as it is.
        let c = split("//a/b?c").unwrap();
        assert_eq!((c.host, c.path.as_deref()), (None, Some("//a/b")));
        // IDNA.
        let c = split("http://Bücher.example/").unwrap();
        assert_eq!(c.host.as_deref(), Some("xn--bcher-kva.example"));
        let c = split("http://[::1]:8080").unwrap();
        assert_eq!(c.host.as_deref(), Some("::1"));
        assert_eq!(c.path.as_deref(), Some("/"));
    }

    #[test]
    fn quirks_as_url_parse() {
        let part = |input: &str, f: fn(&Components<'_>) -> Option<String>| {
            f(&split(input).unwrap())
        };
        let host = |c: &Components<'_>| c.host.as_deref().map(str::to_owned);
        let path = |c: &Components<'_>| c.path.as_deref().map(str::to_owned);
        // ada's answer becomes a JavaScript string as a C string.
        assert_eq!(part("http://a\0b/", host).as_deref(), Some("a"));
        // `user@host` after `//` is a host even without a protocol.
        assert_eq!(part("//u@h/p", host).as_deref(), Some("h"));
        // javascript: has no host; an upper-case protocol is not in
        // slashedProtocol, so its text is a host.
        assert_eq!(part("javascript://x/y", path).as_deref(), Some("//x/y"));
        assert_eq!(part("HTTP:foo", host).as_deref(), Some("foo"));
        assert_eq!(part("HTTP:foo", path).as_deref(), Some("/"));
        // U+00A0 and U+FEFF are trimmed; a `:` not starting a port ends
        // the host.
        assert_eq!(
            part("\u{a0} http://x/ \u{feff}", path).as_deref(),
            Some("/")
        );
        assert_eq!(part("http://x:y:80/", path).as_deref(), Some("/:y/"));
    }

    #[test]
    fn throws_as_url_parse() {
        assert_eq!(split("http://%zz@a/").unwrap_err().kind, "URIError");
        assert_eq!(split("http://[a/").unwrap_err().kind, "ERR_INVALID_URL");
        assert_eq!(split("http://xn--/").unwrap_err().kind, "ERR_INVALID_URL");
    }
}
