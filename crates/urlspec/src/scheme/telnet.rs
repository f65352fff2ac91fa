//! `telnet`, `rlogin` and `tn3270` (RFC 1630 "Telnet, rlogin, tn3270").
//!
//! ```text
//! telnetaddress t e l n e t : / / login
//! login [ user [ : password ] @ ] hostport
//! ```
//!
//! A reference to an interactive session. RFC 1630 gives a production for
//! telnet only; rlogin and tn3270 are read with the same syntax. The
//! 1996 draft's example `telnet://melvyl.ucop.edu/` ends in a `/` the
//! production lacks; docs/readings.md#a26 tolerates one.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{push_login, Parts, SchemeViolation, Src, Strict};
use crate::reference::Reference;

/// The default ports, from the one registry.
const TELNET_PORT: u16 = super::registered("telnet");
const RLOGIN_PORT: u16 = super::registered("rlogin");
const TN3270_PORT: u16 = super::registered("tn3270");

/// Which interactive-session scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TelnetKind {
    /// `telnet`.
    Telnet,
    /// `rlogin`.
    Rlogin,
    /// `tn3270`.
    Tn3270,
}

impl TelnetKind {
    /// The scheme name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TelnetKind::Telnet => "telnet",
            TelnetKind::Rlogin => "rlogin",
            TelnetKind::Tn3270 => "tn3270",
        }
    }
}

/// A `telnet`, `rlogin` or `tn3270` URL.
///
/// ```
/// use urlspec::scheme::{Telnet, TelnetKind};
/// use urlspec::Reference;
/// let t = Telnet::new(&Reference::parse("telnet://melvyl.ucop.edu/"));
/// assert_eq!((t.kind(), t.host(), t.port()), (TelnetKind::Telnet, Some("melvyl.ucop.edu"), 23));
/// assert!(t.lenient()[0].starts_with("A26"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Telnet<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    kind: TelnetKind,
}

impl<'a> Telnet<'a> {
    /// Reads `r` as a telnet URL (rlogin or tn3270 by its scheme).
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Telnet<'a> {
        let kind = match r.scheme() {
            Some(s) if s.eq_ignore_ascii_case("rlogin") => TelnetKind::Rlogin,
            Some(s) if s.eq_ignore_ascii_case("tn3270") => TelnetKind::Tn3270,
            _ => TelnetKind::Telnet,
        };
        Telnet { r: Src(*r), parts: Parts::of(r), kind }
    }

    super::view_accessors! {
        /// User, password, host and port.
        login;
        /// The host.
        host;
    }

    /// Which scheme.
    #[must_use]
    pub fn kind(&self) -> TelnetKind {
        self.kind
    }

    /// The user to log in as, as written.
    #[must_use]
    pub fn user(&self) -> Option<&'a str> {
        self.login().and_then(|l| l.user())
    }

    /// The port: the one written, else the scheme's default (not a seed).
    #[must_use]
    pub fn port(&self) -> u16 {
        let default = match self.kind {
            TelnetKind::Telnet => TELNET_PORT,
            TelnetKind::Rlogin => RLOGIN_PORT,
            TelnetKind::Tn3270 => TN3270_PORT,
        };
        self.login().and_then(|l| l.port_number()).unwrap_or(default)
    }

    /// Where the URL breaks `telnetaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "telnetaddress", true);
            let tail = self.parts.tail;
            if !tail.is_empty() {
                let msg = if tail == "/" {
                    "`telnet://login` ends with the login; the trailing `/` \
                     is not in the production (tolerated: docs/readings.md#a26)"
                } else {
                    "`telnet://login` has no path or search"
                };
                s.report_at(tail, "telnetaddress", msg);
            }
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.kind != TelnetKind::Telnet {
            out.push(
                "rlogin and tn3270 have no RFC 1630 production; telnet's \
                 syntax is used",
            );
        }
        if self.parts.tail == "/" {
            out.push(
                "A26: a single trailing `/` after the login is tolerated",
            );
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("session", self.kind.name().to_string()));
        push_login(out, self.login(), Some(self.port()));
    }
}
