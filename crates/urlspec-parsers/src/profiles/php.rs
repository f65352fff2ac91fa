//! `php`: `parse_url` of PHP 8.2, written after `php_url_parse_ex2` in
//! `ext/standard/url.c` of that branch (8.2.36, as Debian 12 ships it).
//!
//! parse_url reads bytes with C's `<ctype.h>` in the C (or C.UTF-8)
//! locale: no byte above 127 is a letter, a digit or a control. It looks
//! for a scheme before the first `:`, takes a port from text such as
//! `a.com:80` (where what precedes the `:` could be a scheme), reads the
//! user information up to the authority's last `@` and the port after
//! its last `:`, and cuts the rest at the first `#` and then the first
//! `?`. Every control character of a component becomes `_`. It returns
//! `false` for a port that is not a number of 0 to 65535 (or longer than
//! five characters) and for an empty host after `//`.

use std::borrow::Cow;

use memchr::{memchr, memchr2, memchr3, memrchr};

use super::text;
use crate::bytes::holds_control;
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "php",
    follows: "PHP 8.2.36 parse_url (ext/standard/url.c php_url_parse_ex2: \
              scheme, user and pass, host, port, path, query, fragment, or \
              false), in the C or C.UTF-8 locale",
    empty_is_absent: &[],
    fills_default_port: false,
    notes: &[
        (Part::Scheme, "parse_url replaces control characters with `_`"),
        (
            Part::Userinfo,
            "parse_url's user runs to the first `:` before the authority's \
             last `@`, its pass from there; control characters become `_`",
        ),
        (
            Part::Host,
            "parse_url replaces control characters with `_` and keeps the \
             case; the host runs to the authority's last `:` unless it is \
             `[...]`",
        ),
        (
            Part::Port,
            "parse_url reads the port with strtol (leading spaces, a sign \
             and text after the digits accepted) as an integer of 0 to \
             65535",
        ),
        (Part::Path, "parse_url replaces control characters with `_`"),
        (Part::Query, "parse_url replaces control characters with `_`"),
        (Part::Fragment, "parse_url replaces control characters with `_`"),
    ],
    split,
};

/// What parse_url returns instead of an array.
const FALSE: &str = "false";

/// `false`, for `reason`, about byte `at`.
fn refuse(reason: &'static str, at: usize) -> Refusal {
    Refusal::new(FALSE, reason).at(at)
}

/// `isdigit` in the C locale.
fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// `iscntrl` in the C locale.
fn is_control(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

/// `zend_string_init` and `php_replace_controlchars`: `input[s..e]`,
/// with every control character replaced by `_` (borrowed when there is
/// none). Every cut is at an ASCII byte, so at a character's boundary.
fn component(input: &str, s: usize, e: usize) -> Cow<'_, str> {
    let bytes = &input.as_bytes()[s..e];
    if !holds_control(bytes) {
        return input.get(s..e).map_or_else(|| text(bytes), Cow::Borrowed);
    }
    let replaced: Vec<u8> =
        bytes.iter().map(|&b| if is_control(b) { b'_' } else { b }).collect();
    Cow::Owned(String::from_utf8_lossy(&replaced).into_owned())
}

/// `binary_strcspn(s, ue, "?#")`: the first `?` or `#` from `s`, else
/// the end.
fn strcspn_query_fragment(b: &[u8], s: usize) -> usize {
    memchr2(b'?', b'#', &b[s..]).map_or(b.len(), |k| s + k)
}

/// `binary_strcspn(s, ue, "/?#")`: the end of an authority from `s`.
fn strcspn_authority(b: &[u8], s: usize) -> usize {
    memchr3(b'/', b'?', b'#', &b[s..]).map_or(b.len(), |k| s + k)
}

/// `s + 1 < ue && *s == '/' && *(s + 1) == '/'`.
fn two_slashes(b: &[u8], s: usize) -> bool {
    b.get(s..s + 2) == Some(b"//")
}

/// `ZEND_STRTOL(text, &end, 10)` of at most five bytes: the value, or
/// `None` where no digit is read (`end == port_buf`). strtol skips
/// leading white space and takes a sign.
fn strtol(text: &[u8]) -> Option<i64> {
    let mut i = 0;
    while i < text.len() && matches!(text[i], b' ' | b'\t'..=b'\r') {
        i += 1;
    }
    let negative = match text.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digits = text[i.min(text.len())..]
        .iter()
        .take_while(|b| is_digit(**b))
        .fold(None, |n: Option<i64>, &d| {
            Some(n.unwrap_or(0) * 10 + i64::from(d - b'0'))
        })?;
    Some(if negative { -digits } else { digits })
}

/// The port parse_url accepts: 0 to 65535.
fn port_value(text: &[u8]) -> Option<u16> {
    strtol(text).and_then(|p| u16::try_from(p).ok())
}

/// Where `php_url_parse_ex2` goes after looking at the text before the
/// first `:`.
enum Step {
    /// `goto parse_port`, the first `:` at the byte given.
    Port(usize),
    /// `goto parse_host` (or falling into it), from the byte given.
    Host(usize),
    /// `goto just_path`, from the byte given.
    Path(usize),
    /// `return ret`: the URL is a scheme and its `:`.
    Done,
}

/// The components as `php_url_parse_ex2` builds them.
#[derive(Default)]
struct Url<'a> {
    scheme: Option<Cow<'a, str>>,
    /// Where the user runs in the input.
    user: Option<(usize, usize)>,
    /// Where the password runs in the input.
    pass: Option<(usize, usize)>,
    host: Option<Cow<'a, str>>,
    /// The port (`has_port` and `ret->port`).
    port: Option<u16>,
    path: Option<Cow<'a, str>>,
    query: Option<Cow<'a, str>>,
    fragment: Option<Cow<'a, str>>,
}

/// `parse_url(input)`: `php_url_parse_ex2`, and the user information
/// made of its `user` and `pass`.
fn split(input: &str) -> Parsed<'_> {
    let b = input.as_bytes();
    let mut url = Url::default();
    // `/* parse scheme */`: the first `:`.
    let step = match memchr(b':', b) {
        Some(e) if e != 0 => scheme(input, e, &mut url),
        // `/* no scheme; starts with colon: look for port */`
        Some(e) => Step::Port(e),
        None if two_slashes(b, 0) => Step::Host(2),
        None => Step::Path(0),
    };
    let step = match step {
        Step::Port(e) => parse_port(b, e, &mut url)?,
        other => other,
    };
    let path = match step {
        Step::Host(s) => parse_host(input, s, &mut url)?,
        Step::Path(s) => Some(s),
        Step::Port(_) | Step::Done => None,
    };
    if let Some(s) = path {
        just_path(input, s, &mut url);
    }
    // `user`, `:` and `pass` are the text from the user's start to the
    // password's end (control characters replaced alike).
    let userinfo = url.user.map(|(us, ue)| {
        component(input, us, url.pass.map_or(ue, |(_, pe)| pe))
    });
    Ok(Components {
        scheme: url.scheme,
        userinfo,
        host: url.host,
        port: url.port.map(|p| Cow::Owned(p.to_string())),
        path: url.path,
        query: url.query,
        fragment: url.fragment,
    })
}

/// The text before the first `:` (at `e`, not the first byte): a scheme,
/// or a host and a port (`a.com:80`), or none.
fn scheme<'a>(input: &'a str, e: usize, url: &mut Url<'a>) -> Step {
    let b = input.as_bytes();
    let ue = b.len();
    // `/* validate scheme */`
    let valid = b[..e].iter().all(|&c| {
        c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-')
    });
    if !valid {
        return if e + 1 < ue && e < strcspn_query_fragment(b, 0) {
            Step::Port(e)
        } else if two_slashes(b, 0) {
            // `/* relative-scheme URL */`
            Step::Host(2)
        } else {
            Step::Path(0)
        };
    }
    if e + 1 == ue {
        // `/* only scheme is available */`
        url.scheme = Some(component(input, 0, e));
        return Step::Done;
    }
    if b[e + 1] != b'/' {
        // `mailto:` and `zlib:`, or a port: `a.com:80`.
        let digits = b[e + 1..].iter().take_while(|c| is_digit(**c)).count();
        let p = e + 1 + digits;
        if (p == ue || b[p] == b'/') && p - e < 7 {
            return Step::Port(e);
        }
        url.scheme = Some(component(input, 0, e));
        return Step::Path(e + 1);
    }
    url.scheme = Some(component(input, 0, e));
    if e + 2 < ue && b[e + 2] == b'/' {
        let mut s = e + 3;
        // `file:///c:/somedir/file.txt`: Windows drive letters.
        if b[..e].eq_ignore_ascii_case(b"file")
            && e + 3 < ue
            && b[e + 3] == b'/'
        {
            if e + 5 < ue && b[e + 5] == b':' {
                s = e + 4;
            }
            return Step::Path(s);
        }
        Step::Host(s)
    } else {
        Step::Path(e + 1)
    }
}

/// `parse_port`: one to five digits after the first `:` (at `e`), then
/// the end or `/`, are the port; the host is read from the start.
fn parse_port(b: &[u8], e: usize, url: &mut Url<'_>) -> Result<Step, Refusal> {
    let ue = b.len();
    let p = e + 1;
    let digits =
        b[p.min(ue)..].iter().take(6).take_while(|c| is_digit(**c)).count();
    let pp = p + digits;
    if (1..6).contains(&digits) && (pp == ue || b[pp] == b'/') {
        let Some(port) = port_value(&b[p..pp]) else {
            return Err(refuse("a port above 65535", p));
        };
        url.port = Some(port);
        Ok(Step::Host(if two_slashes(b, 0) { 2 } else { 0 }))
    } else if digits == 0 && pp == ue {
        Err(refuse("nothing after the `:`", e))
    } else if two_slashes(b, 0) {
        Ok(Step::Host(2))
    } else {
        Ok(Step::Path(0))
    }
}

/// `parse_host`: the user information, host and port of the authority
/// from `s` to the first `/`, `?` or `#`; where the path starts, if the
/// URL goes on.
fn parse_host<'a>(
    input: &'a str,
    mut s: usize,
    url: &mut Url<'a>,
) -> Result<Option<usize>, Refusal> {
    let b = input.as_bytes();
    let ue = b.len();
    let e = strcspn_authority(b, s);
    // `/* check for login and password */`: the last `@`.
    if let Some(at) = memrchr(b'@', &b[s..e]) {
        let p = s + at;
        match memchr(b':', &b[s..p]) {
            Some(colon) => {
                url.user = Some((s, s + colon));
                url.pass = Some((s + colon + 1, p));
            }
            None => url.user = Some((s, p)),
        }
        s = p + 1;
    }
    // `/* check for port */`: after the last `:`, unless the host is
    // `[...]`.
    let colon = if s < ue && b[s] == b'[' && b[e - 1] == b']' {
        None
    } else {
        memrchr(b':', &b[s..e]).map(|k| s + k)
    };
    let host_end = match colon {
        Some(p) => {
            // A port read before (`a.com:80`) stands, unless it is 0.
            if url.port.unwrap_or(0) == 0 {
                let written = &b[p + 1..e];
                if written.len() > 5 {
                    return Err(refuse(
                        "a port longer than five characters",
                        p + 1,
                    ));
                }
                if !written.is_empty() {
                    let Some(port) = port_value(written) else {
                        return Err(refuse(
                            "a port that is not a number of 0 to 65535",
                            p + 1,
                        ));
                    };
                    url.port = Some(port);
                }
            }
            p
        }
        None => e,
    };
    // `/* check if we have a valid host, if we don't reject the string as
    // url */`
    if host_end <= s {
        return Err(refuse("an empty host", s));
    }
    url.host = Some(component(input, s, host_end));
    Ok((e != ue).then_some(e))
}

/// `just_path`: the fragment after the first `#`, the query after the
/// first `?` before it, and the path before them.
fn just_path<'a>(input: &'a str, s: usize, url: &mut Url<'a>) {
    let b = input.as_bytes();
    let ue = b.len();
    let mut e = ue;
    if let Some(k) = memchr(b'#', &b[s..]) {
        url.fragment = Some(component(input, s + k + 1, ue));
        e = s + k;
    }
    if let Some(k) = memchr(b'?', &b[s..e]) {
        url.query = Some(component(input, s + k + 1, e));
        e = s + k;
    }
    if s < e || s == ue {
        url.path = Some(component(input, s, e));
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    fn parts(input: &str) -> Option<[Option<String>; 7]> {
        let c = split(input).ok()?;
        let own =
            |v: Option<std::borrow::Cow<'_, str>>| v.map(|v| v.into_owned());
        Some([
            own(c.scheme),
            own(c.userinfo),
            own(c.host),
            own(c.port),
            own(c.path),
            own(c.query),
            own(c.fragment),
        ])
    }

    fn some(v: &str) -> Option<String> {
        Some(v.to_owned())
    }

    #[test]
    fn splits_as_parse_url() {
        assert_eq!(
            parts("http://u:p:q@a@b:8080/p?q#f"),
            Some([
                some("http"),
                some("u:p:q@a"),
                some("b"),
                some("8080"),
                some("/p"),
                some("q"),
                some("f")
            ])
        );
        // `a.com:80` is a host and a port, not a scheme.
        assert_eq!(
            parts("a.com:80/x"),
            Some([
                None,
                None,
                some("a.com"),
                some("80"),
                some("/x"),
                None,
                None
            ])
        );
        // A scheme alone; an empty text is a path.
        assert_eq!(
            parts("mailto:"),
            Some([some("mailto"), None, None, None, None, None, None])
        );
        assert_eq!(
            parts(""),
            Some([None, None, None, None, some(""), None, None])
        );
        // Control characters become `_`.
        assert_eq!(
            parts("http://a\u{1}b/").and_then(|p| p[2].clone()),
            some("a_b")
        );
        // strtol: a sign and trailing text.
        assert_eq!(
            parts("http://a:+8x/").and_then(|p| p[3].clone()),
            some("8")
        );
    }

    #[test]
    fn refuses_as_parse_url() {
        for input in [
            "http://a:65536/",
            "http://a:123456/",
            "http:///x",
            "http://a:x/",
            ":",
            "//:80",
        ] {
            assert!(split(input).is_err(), "{input}");
        }
    }
}
