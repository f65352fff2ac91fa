//! `gopher` (RFC 1630 "Gopher"; RFC 1738 §3.4 for the `%09` search).
//!
//! ```text
//! gopheraddress g o p h e r : / / hostport [/ gtype [ gcommand ] ]
//! gtype xalpha
//! gcommand path
//! ```
//!
//! The type character "is used by the client to determine how to interpret
//! the server's reply and is not for sending to server. The command string
//! to be sent to the server immediately follows the gopher type character.
//! It consists of the gopher selector string followed by any "Gopher plus"
//! syntax, but always omitting the trailing CR LF pair." CR, LF and HT in
//! it are escaped. "If the encoded command string … would be void then the
//! gopher type character may be omitted and "1" … is assumed"
//! (docs/readings.md#a32). RFC 1738 separates a search string and a Gopher+ string from the
//! selector with `%09` (HT), as the gopher protocol does on the wire.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{
    decode, push_login, push_opt, Parts, SchemeViolation, Src, Strict, XALPHA,
};
use crate::escape::is_escape_at;
use crate::escape::{decode_for_wire_in, WireError};
use crate::reference::Reference;

/// The default port, from the one registry.
const DEFAULT_PORT: u16 = super::registered("gopher");

/// A `gopher` URL.
///
/// ```
/// use urlspec::scheme::Gopher;
/// use urlspec::Reference;
///
/// let r = Reference::parse("gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles");
/// let g = Gopher::new(&r);
/// assert_eq!(g.gtype(), '0');
/// assert_eq!(g.selector(), "0/Weather/California/Los Angeles");
///
/// let g = Gopher::new(&Reference::parse("gopher://h"));
/// assert_eq!((g.gtype(), g.type_assumed(), g.selector().as_ref()), ('1', true, ""));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Gopher<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    /// The type character as written (one character or one escape), or
    /// `None` when omitted.
    gtype: Option<&'a str>,
    /// The command string as written: after the type, up to `#`.
    command: &'a str,
}

impl<'a> Gopher<'a> {
    /// Reads `r` as a gopher URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Gopher<'a> {
        let parts = Parts::of(r);
        let t = parts.tail;
        let t = t.strip_prefix('/').unwrap_or(t);
        let b = t.as_bytes();
        let type_len = if b.is_empty() {
            0
        } else if is_escape_at(b, 0) {
            3
        } else {
            t.chars().next().map_or(0, char::len_utf8)
        };
        let (gtype, command) = if type_len == 0 {
            (None, &t[t.len()..])
        } else {
            (Some(&t[..type_len]), &t[type_len..])
        };
        Gopher { r: Src(*r), parts, gtype, command }
    }

    super::view_accessors! {
        /// Host and port.
        login;
        /// The host.
        host;
        /// The port: the one written, else 70 (RFC 1738, not a seed).
        port = DEFAULT_PORT;
    }

    /// The type character; `1` (a directory) when omitted.
    #[must_use]
    pub fn gtype(&self) -> char {
        match self.gtype {
            None => '1',
            Some(t) => decode(t).chars().next().unwrap_or('1'),
        }
    }

    /// Whether the type was omitted and `1` assumed.
    #[must_use]
    pub fn type_assumed(&self) -> bool {
        self.gtype.is_none()
    }

    /// The command string as written (selector, search, Gopher+).
    #[must_use]
    pub fn command_raw(&self) -> &'a str {
        self.command
    }

    /// The command string, decoded: what is sent, before CR LF.
    #[must_use]
    pub fn command(&self) -> Cow<'a, str> {
        decode(self.command)
    }

    fn piece(&self, n: usize) -> Option<&'a str> {
        let c = self.command;
        let mut start = 0;
        for _ in 0..n {
            start += find_tab(&c[start..])? + 3;
        }
        let end = if n < 2 {
            find_tab(&c[start..]).map_or(c.len(), |k| start + k)
        } else {
            c.len()
        };
        Some(&c[start..end])
    }

    /// The selector, decoded: the command up to its first `%09`.
    #[must_use]
    pub fn selector(&self) -> Cow<'a, str> {
        decode(self.piece(0).unwrap_or(""))
    }

    /// The search string, decoded: between the first and second `%09`.
    #[must_use]
    pub fn search(&self) -> Option<Cow<'a, str>> {
        self.piece(1).map(decode)
    }

    /// The Gopher+ string, decoded: after the second `%09`.
    #[must_use]
    pub fn gopher_plus(&self) -> Option<Cow<'a, str>> {
        self.piece(2).map(decode)
    }

    /// The command as octets for the wire (HT kept, CR LF not yet added);
    /// an escaped CR, LF or NUL is refused (the 1996 draft §8).
    ///
    /// ```
    /// use urlspec::scheme::Gopher;
    /// use urlspec::Reference;
    /// let g = Gopher::new(&Reference::parse("gopher://h/7find%09cats"));
    /// assert_eq!(g.wire_command().unwrap(), &b"find\tcats"[..]);
    /// let g = Gopher::new(&Reference::parse("gopher://h:25/0x%0D%0AMAIL"));
    /// assert_eq!(g.wire_command().unwrap_err().position, 16);
    /// ```
    ///
    /// # Errors
    ///
    /// [`WireError`] at the byte offset in the URL of the first byte refused:
    /// [`EscapedDelimiter`] for an escaped CR, LF or NUL, [`Unescaped`] for
    /// a raw one, [`InvalidEscape`] for a `%` not followed by two hex
    /// digits.
    ///
    /// [`EscapedDelimiter`]: crate::escape::WireErrorKind::EscapedDelimiter
    /// [`Unescaped`]: crate::escape::WireErrorKind::Unescaped
    /// [`InvalidEscape`]: crate::escape::WireErrorKind::InvalidEscape
    pub fn wire_command(&self) -> Result<Cow<'a, [u8]>, WireError> {
        decode_for_wire_in(self.command, self.parts.input, "gopher")
    }

    /// Where the URL breaks `gopheraddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "gopheraddress", false);
            if let Some(t) = self.gtype {
                s.chars(t, XALPHA, "gtype", "type character");
            }
            s.path(self.command_path(), "gopher command");
            if let Some(q) = self.parts.search() {
                let at = s.at(q).saturating_sub(1);
                s.report(
                    at,
                    "gcommand",
                    "`gcommand path`: `?` is reserved (RFC 1738 searches \
                     with %09)",
                );
            }
        })
    }

    /// The command up to a `?` (whose place the strict check reports).
    fn command_path(&self) -> &'a str {
        match self.command.find('?') {
            Some(q) => &self.command[..q],
            None => self.command,
        }
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.type_assumed() {
            out.push(
                "A32: no type character; the command is void, so type `1` \
                 (a directory) is assumed",
            );
        }
        if self.parts.search().is_some() {
            out.push(
                "`?` and what follows are kept in the gopher command (RFC \
                 1630's gcommand is a path, with no search)",
            );
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_login(out, self.login(), Some(self.port()));
        out.push(("gtype", self.gtype().to_string()));
        out.push(("type_assumed", self.type_assumed().to_string()));
        out.push(("command", self.command().into_owned()));
        out.push(("selector", self.selector().into_owned()));
        push_opt(out, "search", self.search());
        push_opt(out, "gopher_plus", self.gopher_plus());
    }
}

/// The offset of the first `%09` in `s`.
fn find_tab(s: &str) -> Option<usize> {
    s.find("%09")
}
