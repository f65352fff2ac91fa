//! The kinds of URL parsing confusion an input shows: the five of Claroty
//! and Snyk's "Exploiting URL Parsing Confusion" (2022), found in the
//! input's bytes, so that a difference between parsers can be named.

use std::fmt;

/// A kind of confusion.
///
/// ```
/// use urlspec_parsers::confusion::Kind;
/// assert_eq!(Kind::Backslash.name(), "backslash");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A missing or malformed scheme: parsers guess, or strip, differently.
    Scheme,
    /// Not two slashes after the scheme: parsers find the authority, or
    /// none, differently.
    Slashes,
    /// A backslash: a `/` to some parsers (browsers', in special schemes),
    /// data to others.
    Backslash,
    /// Percent-encoded data where parsers look for delimiters or a host:
    /// some decode it before splitting, or after.
    PercentEncoded,
    /// A scheme other than `http` and `https`: parsers without a rule of
    /// that scheme read it as they read `http` URLs, or as opaque.
    SchemeMixUp,
}

impl Kind {
    /// Every kind, in the order of the paper.
    pub const ALL: [Kind; 5] = [
        Kind::Scheme,
        Kind::Slashes,
        Kind::Backslash,
        Kind::PercentEncoded,
        Kind::SchemeMixUp,
    ];

    /// The kind's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Scheme => "scheme",
            Kind::Slashes => "slashes",
            Kind::Backslash => "backslash",
            Kind::PercentEncoded => "percent-encoded data",
            Kind::SchemeMixUp => "scheme mix-up",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One confusion found in an input: its kind, the byte it starts at, and
/// what is there.
///
/// ```
/// use urlspec_parsers::confusion::{find, Kind};
/// let found = find("http://a\\@b/");
/// assert_eq!(found[0].kind, Kind::Backslash);
/// assert_eq!(found[0].position, 8);
/// assert_eq!(found[0].to_string(), "backslash at byte 8: a `\\` before the query");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confusion {
    /// The kind.
    pub kind: Kind,
    /// The byte of the input where it starts.
    pub position: usize,
    /// What is there.
    pub what: String,
}

impl fmt::Display for Confusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: {}", self.kind, self.position, self.what)
    }
}

/// The schemes whose URLs every parser of this crate reads alike by
/// design: the others are where a scheme mix-up can happen.
const PLAIN_SCHEMES: [&str; 2] = ["http", "https"];

/// The confusions `input` shows, at most one of each kind, in the order
/// of [`Kind::ALL`]. One pass over the input.
///
/// ```
/// use urlspec_parsers::confusion::{find, Kind};
/// let kinds: Vec<Kind> = find("HTTP:\\%65vil.com").iter().map(|c| c.kind).collect();
/// assert_eq!(kinds, [Kind::Slashes, Kind::Backslash, Kind::PercentEncoded]);
/// assert!(find("https://example.com/a?b#c").is_empty());
/// ```
#[must_use]
pub fn find(input: &str) -> Vec<Confusion> {
    let b = input.as_bytes();
    let mut found = Vec::new();
    let mut add = |kind, position, what: String| {
        found.push(Confusion { kind, position, what })
    };
    // RFC 3986's scheme: a letter, then letters, digits, `+`, `-`, `.`.
    let run = b
        .iter()
        .take_while(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        })
        .count();
    let scheme =
        (run > 0 && b[0].is_ascii_alphabetic() && b.get(run) == Some(&b':'))
            .then(|| &input[..run]);
    let first_delimiter =
        b.iter().position(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'));
    match scheme {
        None if b.first().is_some_and(|&c| c <= b' ') => {
            add(
                Kind::Scheme,
                0,
                "a control character or space before the scheme".into(),
            );
        }
        None => {
            let colon = memchr::memchr(b':', b)
                .filter(|&k| first_delimiter.is_none_or(|d| k < d));
            let what = match colon {
                Some(k) => format!(
                    "`{}` before the first `:` is not a scheme",
                    shown(&input[..k])
                ),
                None => "no scheme".into(),
            };
            add(Kind::Scheme, 0, what);
        }
        Some(s) => {
            if let Some(k) = s.find('.') {
                let what = format!("the scheme `{s}` holds a `.`, which some parsers do not take in a scheme");
                add(Kind::Scheme, k, what);
            }
        }
    }
    let after = scheme.map_or(0, |s| s.len() + 1);
    let slashes =
        b[after..].iter().take_while(|c| matches!(c, b'/' | b'\\')).count();
    let special = scheme.is_some_and(|s| {
        ["http", "https", "ws", "wss", "ftp"]
            .iter()
            .any(|p| p.eq_ignore_ascii_case(s))
    });
    if (scheme.is_some() && slashes != 2 && (slashes > 0 || special))
        || (scheme.is_none() && slashes > 2)
    {
        let what = match slashes {
            0 => "no slash after the scheme".to_owned(),
            1 => "one slash where two start an authority".to_owned(),
            n => format!("{n} slashes where two start an authority"),
        };
        add(Kind::Slashes, after, what);
    }
    let query =
        b.iter().position(|c| matches!(c, b'?' | b'#')).unwrap_or(b.len());
    if let Some(k) = memchr::memchr(b'\\', &b[..query]) {
        add(Kind::Backslash, k, "a `\\` before the query".into());
    }
    // Before the path: in the scheme or the authority.
    let authority_end = if slashes >= 2 || special {
        let start = after + slashes;
        b[start..]
            .iter()
            .position(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'))
            .map_or(b.len(), |k| start + k)
    } else {
        after
    };
    let escape = |from: usize, to: usize| {
        (from..to.min(b.len())).find(|&i| {
            b[i] == b'%'
                && b.len() > i + 2
                && b[i + 1].is_ascii_hexdigit()
                && b[i + 2].is_ascii_hexdigit()
        })
    };
    if let Some(k) = escape(0, authority_end) {
        add(
            Kind::PercentEncoded,
            k,
            format!("`{}` in the scheme or authority", &input[k..k + 3]),
        );
    } else if let Some(k) = (0..b.len()).find(|&i| encoded_delimiter(&b[i..]))
    {
        add(
            Kind::PercentEncoded,
            k,
            format!("`{}`, an encoded delimiter", &input[k..k + 3]),
        );
    }
    if let Some(s) = scheme
        .filter(|s| !PLAIN_SCHEMES.iter().any(|p| p.eq_ignore_ascii_case(s)))
    {
        add(
            Kind::SchemeMixUp,
            0,
            format!("the scheme `{s}`, not http or https"),
        );
    }
    found
}

/// Whether `b` starts with an escape of `/`, `\`, `.`, `@`, `:`, `?` or
/// `#`.
fn encoded_delimiter(b: &[u8]) -> bool {
    match b {
        [b'%', hi, lo, ..] => {
            let byte = (hi.to_ascii_uppercase(), lo.to_ascii_uppercase());
            matches!(
                byte,
                (b'2', b'F' | b'E' | b'3')
                    | (b'5', b'C')
                    | (b'4', b'0')
                    | (b'3', b'A' | b'F')
            )
        }
        _ => false,
    }
}

/// A text as an explanation quotes it: control characters escaped.
fn shown(text: &str) -> String {
    text.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<Kind> {
        find(input).iter().map(|c| c.kind).collect()
    }

    #[test]
    fn each_kind_from_its_bytes() {
        assert_eq!(kinds("example.com/a"), [Kind::Scheme]);
        assert_eq!(kinds(" http://a/"), [Kind::Scheme]);
        assert_eq!(kinds("1http://a/"), [Kind::Scheme]);
        assert_eq!(
            kinds("example.com:80/a"),
            [Kind::Scheme, Kind::SchemeMixUp]
        );
        assert_eq!(kinds("http:///a/"), [Kind::Slashes]);
        assert_eq!(kinds("http:a/"), [Kind::Slashes]);
        assert_eq!(kinds("http://a\\b/"), [Kind::Backslash]);
        assert_eq!(kinds("http://a/b?c\\d"), []);
        assert_eq!(kinds("http://%61/"), [Kind::PercentEncoded]);
        assert_eq!(kinds("http://a/%2e%2e/"), [Kind::PercentEncoded]);
        assert_eq!(kinds("http://a/%41"), []);
        assert_eq!(kinds("javascript://a/%0aalert(1)"), [Kind::SchemeMixUp]);
        assert_eq!(kinds("mailto:a@b"), [Kind::SchemeMixUp]);
        let c = &find("ht\ttp://a")[0];
        assert_eq!((c.kind, c.position), (Kind::Scheme, 0));
        assert_eq!(c.what, "`ht\\ttp` before the first `:` is not a scheme");
    }

    #[test]
    fn positions_are_bytes_of_the_input() {
        let found = find("http:\\\\é%40x/");
        assert_eq!(
            found.iter().map(|c| (c.kind, c.position)).collect::<Vec<_>>(),
            [(Kind::Backslash, 5), (Kind::PercentEncoded, 9),]
        );
    }
}
