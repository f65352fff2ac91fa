//! `python-urllib`: `urllib.parse.urlsplit` of CPython 3.11.7, and what
//! its `SplitResult` gives as `username`, `password`, `hostname` and
//! `port`.
//!
//! The split is urllib's own rules ([`crate::urllib`]) with the
//! behaviour of 3.11.7; the checks urllib makes of a netloc with
//! brackets or non-ASCII text (`_check_bracketed_host`, `_checknetloc`)
//! and the properties are written here after `Lib/urllib/parse.py` and
//! `Lib/ipaddress.py` of that release.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use super::python_ipaddress::{ip_address, Address};
use super::{py_repr, text};
use crate::components::{Components, Parsed, Part, Refusal};
use crate::profile::Profile;
use crate::urllib::{self, Behaviour, Interpreter};

/// The profile.
pub static PROFILE: Profile = Profile {
    name: "python-urllib",
    follows: "CPython 3.11.7 urllib.parse.urlsplit (SplitResult's \
              .scheme, .username, .password, .hostname, .port, .path, \
              .query, .fragment)",
    empty_is_absent: &[Part::Scheme, Part::Path, Part::Query, Part::Fragment],
    fills_default_port: false,
    notes: &[
        (Part::Scheme, "urllib lower-cases the scheme"),
        (
            Part::Host,
            "urllib's hostname is the netloc after its last `@`, up to a \
             `:` (or between `[` and `]`), lower-cased up to a `%`",
        ),
        (Part::Port, "urllib reads the port as an integer"),
    ],
    split,
};

/// The rules of 3.11.7 where urllib's releases differ.
const BEHAVIOUR: Behaviour = Behaviour {
    strip_url: true,
    strip_scheme: true,
    remove_tab_cr_lf: true,
    scheme_starts_with_letter: true,
    unsplit_keeps_slashes: false,
};

/// The exception urllib raises.
const VALUE_ERROR: &str = "ValueError";

/// CPython 3.11.7 as urllib's rules ask it: its default scheme lists, its
/// netloc checks, and where a slice of the cleaned URL is in the input.
struct Cpython<'t> {
    input: &'t str,
    clean: &'t [u8],
}

/// `urllib.parse.uses_relative` of 3.11.7.
const USES_RELATIVE: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https",
    "shttp", "mms", "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn",
    "svn+ssh", "ws", "wss",
];

/// `urllib.parse.uses_netloc` of 3.11.7.
const USES_NETLOC: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file",
    "mms", "https", "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu",
    "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss",
];

/// `urllib.parse.uses_params` of 3.11.7.
const USES_PARAMS: &[&str] = &[
    "", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp",
    "rtsps", "rtspu", "sip", "sips", "mms", "sftp", "tel",
];

fn listed(list: &[&str], scheme: &[u8]) -> bool {
    list.iter().any(|s| s.as_bytes() == scheme)
}

impl Cpython<'_> {
    /// The byte of the input where `part`, a slice of the cleaned URL,
    /// starts: the cleaned URL is the input without its leading C0
    /// controls and spaces, and without tab, CR and LF.
    fn position(&self, part: &[u8]) -> usize {
        let at = (part.as_ptr() as usize)
            .wrapping_sub(self.clean.as_ptr() as usize);
        let input = self.input.as_bytes();
        let start =
            input.iter().position(|&c| c > b' ').unwrap_or(input.len());
        let mut kept = 0;
        for (i, &c) in input.iter().enumerate().skip(start) {
            if kept == at {
                return i;
            }
            kept += usize::from(!matches!(c, b'\t' | b'\r' | b'\n'));
        }
        input.len()
    }

    fn refuse(
        &self,
        part: &[u8],
        reason: impl Into<Cow<'static, str>>,
    ) -> Refusal {
        Refusal::new(VALUE_ERROR, reason).at(self.position(part))
    }
}

impl Interpreter for Cpython<'_> {
    type Error = Refusal;

    fn uses_relative(&self, scheme: &[u8]) -> Result<bool, Refusal> {
        Ok(listed(USES_RELATIVE, scheme))
    }

    fn uses_netloc(&self, scheme: &[u8]) -> Result<bool, Refusal> {
        Ok(listed(USES_NETLOC, scheme))
    }

    fn uses_params(&self, scheme: &[u8]) -> Result<bool, Refusal> {
        Ok(listed(USES_PARAMS, scheme))
    }

    /// urlsplit's checks of a netloc: brackets in pairs, a bracketed host
    /// that `ipaddress` reads as IPv6 (or an IPvFuture), and no NFKC
    /// normalization that makes a delimiter.
    fn check_netloc(&self, netloc: &[u8]) -> Result<(), Refusal> {
        let open = memchr::memchr(b'[', netloc);
        let close = memchr::memchr(b']', netloc);
        if open.is_some() != close.is_some() {
            return Err(self.refuse(netloc, "Invalid IPv6 URL"));
        }
        if let Some(open) = open {
            let inside = &netloc[open + 1..];
            let host = &inside
                [..memchr::memchr(b']', inside).unwrap_or(inside.len())];
            check_bracketed_host(&text(host))
                .map_err(|reason| self.refuse(host, reason))?;
        }
        if !netloc.is_ascii() {
            check_nfkc(&text(netloc))
                .map_err(|reason| self.refuse(netloc, reason))?;
        }
        Ok(())
    }
}

/// `_check_bracketed_host`: `v`, hex digits, `.` and one character or
/// more (an IPvFuture), or an address `ipaddress` reads as IPv6.
fn check_bracketed_host(host: &str) -> Result<(), Cow<'static, str>> {
    if let Some(rest) = host.strip_prefix('v') {
        let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        let tail = rest[hex..].strip_prefix('.');
        let future = hex > 0
            && tail.is_some_and(|t| !t.is_empty() && !t.contains('\n'));
        return if future {
            Ok(())
        } else {
            Err("IPvFuture address is invalid".into())
        };
    }
    match ip_address(host) {
        Some(Address::V6) => Ok(()),
        Some(Address::V4) => {
            Err("An IPv4 address cannot be in brackets".into())
        }
        None => Err(format!(
            "{} does not appear to be an IPv4 or IPv6 address",
            py_repr(host)
        )
        .into()),
    }
}

/// `_checknetloc`: the netloc without `@`, `:`, `#` and `?`, normalized
/// by NFKC, must be unchanged or hold none of `/?#@:`.
fn check_nfkc(netloc: &str) -> Result<(), Cow<'static, str>> {
    let n: String = netloc
        .chars()
        .filter(|c| !matches!(c, '@' | ':' | '#' | '?'))
        .collect();
    let normalized: String = n.nfkc().collect();
    if n == normalized || !normalized.contains(['/', '?', '#', '@', ':']) {
        return Ok(());
    }
    Err(format!(
        "netloc {} contains invalid characters under NFKC normalization",
        py_repr(netloc)
    )
    .into())
}

/// The split of `input`, and the properties of its result.
fn split(input: &str) -> Parsed<'_> {
    match urllib::clean_url(input.as_bytes(), &BEHAVIOUR) {
        Cow::Borrowed(clean) => components(input, clean),
        Cow::Owned(clean) => {
            components(input, &clean).map(Components::into_owned)
        }
    }
}

fn components<'a>(input: &str, clean: &'a [u8]) -> Parsed<'a> {
    let interp = Cpython { input, clean };
    let s = urllib::split(clean, true, &BEHAVIOUR, &interp)?;
    let scheme = match s.lower_scheme() {
        Some(Cow::Borrowed(b)) => text(b),
        Some(Cow::Owned(b)) => Cow::Owned(text(&b).into_owned()),
        None => Cow::Borrowed(""),
    };
    let netloc = s.netloc;
    // `_userinfo` and `_hostinfo`: the netloc's last `@` ends the user
    // information.
    let (userinfo, hostinfo) = match memchr::memrchr(b'@', netloc) {
        Some(k) => (Some(&netloc[..k]), &netloc[k + 1..]),
        None => (None, netloc),
    };
    let (hostname, port) = match memchr::memchr(b'[', hostinfo) {
        Some(k) => {
            let bracketed = &hostinfo[k + 1..];
            let (hostname, after) = partition(bracketed, b']');
            (hostname, partition(after, b':').1)
        }
        None => partition(hostinfo, b':'),
    };
    let port = match port {
        [] => None,
        port => Some(
            port_number(port).map_err(|reason| interp.refuse(port, reason))?,
        ),
    };
    Ok(Components {
        scheme: Some(scheme),
        userinfo: userinfo.map(text),
        host: (!hostname.is_empty()).then(|| lower_hostname(hostname)),
        port,
        path: Some(text(s.path)),
        query: Some(text(s.query)),
        fragment: Some(text(s.fragment)),
    })
}

/// Python's `text.partition(sep)` without the separator: what comes
/// before the first `sep` and what follows it (empty when there is none).
fn partition(text: &[u8], sep: u8) -> (&[u8], &[u8]) {
    match memchr::memchr(sep, text) {
        Some(k) => (&text[..k], &text[k + 1..]),
        None => (text, b""),
    }
}

/// `hostname`: lower-cased (Python's `str.lower`, full Unicode case
/// mapping) up to the first `%`, the zone after it kept as written.
fn lower_hostname(hostname: &[u8]) -> Cow<'_, str> {
    let (head, zone) = match memchr::memchr(b'%', hostname) {
        Some(k) => hostname.split_at(k),
        None => (hostname, &b""[..]),
    };
    let head = text(head);
    let unchanged = if head.is_ascii() {
        !head.bytes().any(|b| b.is_ascii_uppercase())
    } else {
        head.chars().all(|c| c.to_lowercase().eq([c]))
    };
    if unchanged {
        return text(hostname);
    }
    let mut lowered = head.to_lowercase();
    lowered.push_str(&text(zone));
    Cow::Owned(lowered)
}

/// `port`: ASCII digits read as an integer from 0 to 65535, written back
/// in decimal.
fn port_number(port: &[u8]) -> Result<Cow<'_, str>, Cow<'static, str>> {
    if !port.iter().all(u8::is_ascii_digit) {
        let shown = py_repr(&text(port));
        return Err(format!(
            "Port could not be cast to integer value as {shown}"
        )
        .into());
    }
    let zeros = port.iter().take_while(|&&d| d == b'0').count();
    let digits = &port[zeros.min(port.len().saturating_sub(1))..];
    let value = digits.iter().try_fold(0u32, |n, &d| {
        let n = n * 10 + u32::from(d - b'0');
        (n <= 65535).then_some(n)
    });
    if value.is_none() {
        return Err("Port out of range 0-65535".into());
    }
    Ok(text(digits))
}
