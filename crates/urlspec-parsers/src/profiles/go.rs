//! `go`: `net/url.Parse` of Go 1.19.8, the split `net/http` sends a
//! request by, written after `src/net/url/url.go` of that release.
//!
//! Go cuts the fragment at the first `#`, refuses an ASCII control
//! character before it, takes a scheme of a letter then letters, digits,
//! `+`, `-` and `.`, cuts the query at the first `?`, and reads the rest
//! as an opaque text when a scheme is followed by anything but `/`. The
//! authority runs from `//` to the next `/` (so `\` is data), splits at
//! its last `@`; the host may hold no escape of an ASCII byte but `%25`.
//! The user information, path and fragment are decoded; the query is
//! kept as written.
//!
//! The components are those a Go program reads: `Scheme`; `User`'s
//! `Username()` and, when set, `:` and `Password()`; `Hostname()` and
//! `Port()`; `Path`, or `Opaque` for an opaque URL (`mailto:a@b`);
//! `RawQuery`, absent when the URL has no `?` (`RawQuery` empty and no
//! `ForceQuery`); `Fragment`. Go's strings are empty where a URL has
//! none of a part. A decoded byte sequence that is not UTF-8 is shown
//! with one U+FFFD per byte, as Go's `encoding/json` writes it.
//!
//! ```
//! use urlspec_parsers::profile;
//! let go = profile("go").unwrap();
//! let c = go.parse("HTTP://u%41:p@[::1]:8080/a%2Fb?x=%41#f%20").unwrap();
//! assert_eq!(c.scheme.as_deref(), Some("http"));
//! assert_eq!(c.userinfo.as_deref(), Some("uA:p"));
//! assert_eq!(c.host.as_deref(), Some("::1"));
//! assert_eq!(c.port.as_deref(), Some("8080"));
//! assert_eq!(c.path.as_deref(), Some("/a/b"));
//! assert_eq!(c.query.as_deref(), Some("x=%41"));
//! assert_eq!(c.fragment.as_deref(), Some("f "));
//! let e = go.parse("http://a b/").unwrap_err();
//! assert_eq!(e.kind, "url.InvalidHostError");
//! assert_eq!(e.position, Some(8));
//! ```

use std::borrow::Cow;

use super::lossy::per_byte;
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "go",
    follows: "Go 1.19.8 net/url.Parse (URL's .Scheme, .User.Username() and \
              .Password(), .Hostname(), .Port(), .Path or .Opaque, \
              .RawQuery with .ForceQuery, .Fragment)",
    empty_is_absent: &[
        Part::Scheme,
        Part::Host,
        Part::Port,
        Part::Path,
        Part::Fragment,
    ],
    fills_default_port: false,
    notes: &[
        (Part::Scheme, "Go lower-cases the scheme"),
        (Part::Userinfo, "Go decodes the user name and the password"),
        (
            Part::Host,
            "Go ends the authority at `/` only (`\\` is data), decodes `%25` \
             and escapes of non-ASCII bytes in the host and drops an IPv6 \
             address's brackets",
        ),
        (
            Part::Path,
            "Go decodes the path (`%2F` becomes `/`); an opaque URL's text \
             after its scheme is kept as written",
        ),
        (Part::Fragment, "Go decodes the fragment"),
    ],
    split,
};

/// The `Err`s of Go's `*url.Error`: the error types by name, the errors
/// made with `errors.New` or `fmt.Errorf` by their text (without the
/// quoted part).
const ESCAPE_ERROR: &str = "url.EscapeError";
const INVALID_HOST_ERROR: &str = "url.InvalidHostError";
const CONTROL: &str = "net/url: invalid control character in URL";
const MISSING_SCHEME: &str = "missing protocol scheme";
const COLON_IN_FIRST_SEGMENT: &str =
    "first path segment in URL cannot contain colon";
const MISSING_BRACKET: &str = "missing ']' in host";
const INVALID_PORT: &str = "invalid port after host";
const INVALID_USERINFO: &str = "net/url: invalid userinfo";

/// What `unescape` decodes: its `encoding` modes that `Parse` uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// A refusal about byte `at` of the input.
fn refuse(kind: &'static str, reason: String, at: usize) -> Refusal {
    Refusal::new(kind, reason).at(at)
}

/// The byte of `url` where `part`, a slice of it, starts.
fn offset(url: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(url.as_ptr() as usize)
}

/// `Parse(rawURL)`.
fn split(raw: &str) -> Parsed<'_> {
    // Cut off #frag.
    let (u, frag) = match memchr::memchr(b'#', raw.as_bytes()) {
        Some(k) => (&raw[..k], &raw[k + 1..]),
        None => (raw, ""),
    };
    let mut c = parse(raw, u)?;
    c.fragment = Some(Cow::Borrowed(""));
    if !frag.is_empty() {
        c.fragment = Some(unescape(raw, frag, Mode::Fragment)?);
    }
    Ok(c)
}

/// `parse(rawURL, viaRequest=false)`, of the input before its `#`.
fn parse<'a>(raw: &'a str, u: &'a str) -> Parsed<'a> {
    // `stringContainsCTLByte`.
    if let Some(k) = u.bytes().position(|b| b < b' ' || b == 0x7f) {
        return Err(refuse(CONTROL, CONTROL.into(), k));
    }
    let empty = || Some(Cow::Borrowed(""));
    let mut c = Components {
        scheme: empty(),
        userinfo: None,
        host: empty(),
        port: empty(),
        path: empty(),
        query: None,
        fragment: None,
    };
    if u == "*" {
        c.path = Some(Cow::Borrowed(u));
        return Ok(c);
    }
    let (scheme, mut rest) = get_scheme(u)?;
    c.scheme = Some(lower_ascii(scheme));
    // A single `?` at the end is `ForceQuery`: an empty query.
    let q = memchr::memchr(b'?', rest.as_bytes());
    if let Some(k) = q {
        c.query = Some(Cow::Borrowed(&rest[k + 1..]));
        rest = &rest[..k];
    }
    if !rest.starts_with('/') {
        if !scheme.is_empty() {
            // Rootless paths are opaque (RFC 3986): kept as written.
            c.path = Some(Cow::Borrowed(rest));
            return Ok(c);
        }
        let segment = rest.split('/').next().unwrap_or("");
        if let Some(k) = segment.find(':') {
            return Err(refuse(
                COLON_IN_FIRST_SEGMENT,
                COLON_IN_FIRST_SEGMENT.into(),
                offset(raw, rest) + k,
            ));
        }
    }
    if (!scheme.is_empty() || !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let after = &rest[2..];
        let end =
            memchr::memchr(b'/', after.as_bytes()).unwrap_or(after.len());
        let authority = &after[..end];
        rest = &after[end..];
        parse_authority(raw, authority, &mut c)?;
    }
    c.path = Some(unescape(raw, rest, Mode::Path)?);
    Ok(c)
}

/// `getScheme`: a letter, then letters, digits, `+`, `-` and `.`, up to a
/// `:`; an empty scheme (and the whole input) otherwise.
fn get_scheme(u: &str) -> Result<(&str, &str), Refusal> {
    for (i, c) in u.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => {
                return Err(refuse(MISSING_SCHEME, MISSING_SCHEME.into(), 0))
            }
            b':' => return Ok((&u[..i], &u[i + 1..])),
            _ => return Ok(("", u)),
        }
    }
    Ok(("", u))
}

/// `parseAuthority`: the host after the last `@` first, then the user
/// information before it.
fn parse_authority<'a>(
    raw: &'a str,
    authority: &'a str,
    c: &mut Components<'a>,
) -> Result<(), Refusal> {
    let at = authority.rfind('@');
    let host = match at {
        Some(k) => &authority[k + 1..],
        None => authority,
    };
    let host = parse_host(raw, host)?;
    let (name, port) = split_host_port(host);
    c.host = Some(name);
    c.port = Some(port);
    let Some(k) = at else {
        return Ok(());
    };
    let userinfo = &authority[..k];
    // `validUserinfo`: unreserved, sub-delims, `:`, `%` and `@`.
    if let Some(bad) = userinfo.bytes().position(|b| {
        !(b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            ))
    }) {
        return Err(refuse(
            INVALID_USERINFO,
            INVALID_USERINFO.into(),
            offset(raw, userinfo) + bad,
        ));
    }
    c.userinfo = Some(match userinfo.split_once(':') {
        None => unescape(raw, userinfo, Mode::UserPassword)?,
        Some((user, password)) => {
            let user = unescape(raw, user, Mode::UserPassword)?;
            let password = unescape(raw, password, Mode::UserPassword)?;
            match (user, password) {
                (Cow::Borrowed(_), Cow::Borrowed(_)) => {
                    Cow::Borrowed(userinfo)
                }
                (user, password) => Cow::Owned(format!("{user}:{password}")),
            }
        }
    });
    Ok(())
}

/// `parseHost`: an IP literal in brackets (with an RFC 6874 zone after
/// `%25`), or a name, each with an optional `:` and digits; decoded.
fn parse_host<'a>(
    raw: &'a str,
    host: &'a str,
) -> Result<Cow<'a, str>, Refusal> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err(refuse(
                MISSING_BRACKET,
                MISSING_BRACKET.into(),
                offset(raw, host),
            ));
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(invalid_port(raw, colon_port));
        }
        if let Some(zone) = host[..i].find("%25") {
            let host1 = unescape(raw, &host[..zone], Mode::Host)?;
            let host2 = unescape(raw, &host[zone..i], Mode::Zone)?;
            let host3 = unescape(raw, &host[i..], Mode::Host)?;
            return Ok(Cow::Owned(format!("{host1}{host2}{host3}")));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(invalid_port(raw, colon_port));
        }
    }
    unescape(raw, host, Mode::Host)
}

fn invalid_port(raw: &str, colon_port: &str) -> Refusal {
    refuse(
        INVALID_PORT,
        format!("invalid port {colon_port:?} after host"),
        offset(raw, colon_port),
    )
}

/// `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// `splitHostPort` of the decoded host, as `Hostname()` and `Port()`
/// give it: the port after the last `:` when it is digits, the brackets
/// of an IP literal dropped.
fn split_host_port(host: Cow<'_, str>) -> (Cow<'_, str>, Cow<'_, str>) {
    let cut = host.rfind(':').filter(|&k| valid_optional_port(&host[k..]));
    let (name, port) = match (cut, host) {
        (None, host) => (host, Cow::Borrowed("")),
        (Some(k), Cow::Borrowed(h)) => {
            (Cow::Borrowed(&h[..k]), Cow::Borrowed(&h[k + 1..]))
        }
        (Some(k), Cow::Owned(h)) => {
            (Cow::Owned(h[..k].to_owned()), Cow::Owned(h[k + 1..].to_owned()))
        }
    };
    let bracketed =
        name.len() >= 2 && name.starts_with('[') && name.ends_with(']');
    let name = match name {
        Cow::Borrowed(n) if bracketed => Cow::Borrowed(&n[1..n.len() - 1]),
        Cow::Owned(n) if bracketed => Cow::Owned(n[1..n.len() - 1].to_owned()),
        name => name,
    };
    (name, port)
}

/// `shouldEscape(c, encodeHost)` (and `encodeZone`) for an ASCII byte:
/// what a host may not hold as it is.
fn host_escapes(c: u8) -> bool {
    !(c.is_ascii_alphanumeric()
        || matches!(
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
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
                | b'-'
                | b'_'
                | b'.'
                | b'~'
        ))
}

/// `unescape(s, mode)`: every `%` checked to start an escape (in a host,
/// only of a non-ASCII byte or `%25`; in a zone, of a byte a host may
/// hold, a space, or `%25`), a host's bytes checked, then the escapes
/// decoded. Borrowed when `s` holds no `%`.
fn unescape<'a>(
    raw: &str,
    s: &'a str,
    mode: Mode,
) -> Result<Cow<'a, str>, Refusal> {
    let b = s.as_bytes();
    let host = matches!(mode, Mode::Host | Mode::Zone);
    let mut escapes = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            escapes += 1;
            let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
            let bad = if !hex(i + 1) || !hex(i + 2) {
                true
            } else {
                let is_25 = &b[i..i + 3] == b"%25";
                let v = unhex(b[i + 1]) << 4 | unhex(b[i + 2]);
                match mode {
                    Mode::Host => unhex(b[i + 1]) < 8 && !is_25,
                    Mode::Zone => !is_25 && v != b' ' && host_escapes_any(v),
                    _ => false,
                }
            };
            if bad {
                let text =
                    String::from_utf8_lossy(&b[i..(i + 3).min(b.len())]);
                return Err(refuse(
                    ESCAPE_ERROR,
                    format!("invalid URL escape {text:?}"),
                    offset(raw, s) + i,
                ));
            }
            i += 3;
        } else {
            if host && c < 0x80 && host_escapes(c) {
                return Err(refuse(
                    INVALID_HOST_ERROR,
                    format!(
                        "invalid character {:?} in host name",
                        char::from(c)
                    ),
                    offset(raw, s) + i,
                ));
            }
            i += 1;
        }
    }
    if escapes == 0 {
        return Ok(Cow::Borrowed(s));
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(Cow::Owned(per_byte(out)))
}

/// `shouldEscape(v, encodeHost)` for any byte: every non-ASCII byte is
/// escaped.
fn host_escapes_any(v: u8) -> bool {
    v >= 0x80 || host_escapes(v)
}

/// The value of a hex digit.
fn unhex(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        b'A'..=b'F' => d - b'A' + 10,
        _ => 0,
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
    fn host_and_port_as_hostname_and_port_give_them() {
        let split = |h: &'static str| {
            let (n, p) = split_host_port(Cow::Borrowed(h));
            (n.into_owned(), p.into_owned())
        };
        assert_eq!(split("a:80"), ("a".into(), "80".into()));
        assert_eq!(split("[::1]:"), ("::1".into(), "".into()));
        assert_eq!(split("[::1]"), ("::1".into(), "".into()));
        assert_eq!(split("a:b"), ("a:b".into(), "".into()));
    }
}
