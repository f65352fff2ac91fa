//! The part after `//`: user, password, host and port.
//!
//! Each document names it differently and gives it another grammar:
//!
//! | spec | name | grammar |
//! |---|---|---|
//! | RFC 1630 | `login` (ftp, telnet) / `hostport` | `[ user [ : password ] @ ] host [ : port ]`; user and password `alphanum2`, no escapes |
//! | draft 04, RFC 1808 | `net_loc` | opaque `*( pchar \| ";" \| "?" )`, split here by the 1996 server grammar, leniently (docs/readings.md#a21) |
//! | 1996 drafts | `server` | `[ [ user [ ":" password ] "@" ] hostport ]`, host `hostname \| hostnumber`, `port = *digit` |
//! | RFC 2396 (+2732) | `authority` | `server \| reg_name`, server first (AS7); IPv6 literals from RFC 2732 |
//! | RFC 3986 | `authority` | `[ userinfo "@" ] host [ ":" port ]`, host `IP-literal / IPv4address / reg-name` |
//!
//! The split is the same everywhere: the user information ends at the
//! **last** `@`; the user ends at its **first** `:`; the port starts after
//! the **last** `:` outside brackets. Absent and empty stay apart:
//! `ftp://@h/` has an empty user, `ftp://h/` none.
//!
//! ```
//! use urlspec::{Reference, Spec};
//! use urlspec::server::HostKind;
//!
//! let r = Reference::parse_with("http://[::1]:8080/", Spec::Rfc3986);
//! let s = r.server().unwrap();
//! assert_eq!((s.host(), s.port(), s.host_kind()), (Some("[::1]"), Some("8080"), HostKind::Ipv6));
//! assert_eq!(s.port_number(), Some(8080));
//! ```

use core::fmt;

use crate::chars;
use crate::host;
use crate::names::option_names;
use crate::spec::{ServerGrammar, Spec};
use crate::violation::{Checker, ViolationKind};

/// What a host is, by the spec's host grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// A domain name (`hostname`).
    Hostname,
    /// A dotted IPv4 address (`hostnumber`, `IPv4address`).
    Ipv4,
    /// A bracketed IPv6 literal (RFC 2732, RFC 3986).
    Ipv6,
    /// A bracketed `IPvFuture` literal (RFC 3986).
    IpvFuture,
    /// A registered name (RFC 3986 `reg-name`, which may be empty).
    RegName,
    /// No host at all (`file:///`), where the grammar allows it.
    Empty,
    /// Matches no host rule of the spec.
    Invalid,
}

// `reg_name` is RFC 2396's rule name as it spells it, and the JSON
// output's value since the first release.
option_names!(HostKind, "host kind" {
    Hostname => "hostname",
    Ipv4 => "ipv4",
    Ipv6 => "ipv6",
    IpvFuture => "ipvfuture",
    RegName => "reg_name",
    Empty => "empty",
    Invalid => "invalid",
});

/// Which alternative of RFC 2396's `authority = server | reg_name` matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuthorityKind {
    /// User, password, host and port.
    Server,
    /// A registry-based name with no host or port (RFC 2396 `reg_name`).
    RegName,
}

type Span = Option<(usize, usize)>;

const NONE: usize = usize::MAX;

/// The parsed part after `//`, borrowing the reference's input.
///
/// It keeps three delimiter positions, from which every part is sliced.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Server<'a> {
    input: &'a str,
    start: usize,
    end: usize,
    /// The last `@`, or `NONE`.
    at: usize,
    /// The first `:` before `at`, or `NONE`.
    user_colon: usize,
    /// The `:` before the port, or `NONE`.
    port_colon: usize,
    spec: Spec,
    kind: AuthorityKind,
    host_kind: HostKind,
    scheme_is_login: bool,
    scheme_is_file: bool,
}

/// RFC 1630 gives `login` to these schemes only (ftp, telnet; rlogin and
/// tn3270 by its prose).
fn takes_login(scheme: &str) -> bool {
    ["ftp", "telnet", "rlogin", "tn3270"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

impl<'a> Server<'a> {
    /// Parses `net_loc` on its own under `spec` (no scheme known).
    ///
    /// ```
    /// use urlspec::server::Server;
    /// use urlspec::Spec;
    /// let s = Server::parse("user:pw@host:80", Spec::Draft96);
    /// assert_eq!((s.user(), s.password(), s.host(), s.port()),
    ///            (Some("user"), Some("pw"), Some("host"), Some("80")));
    /// ```
    #[must_use]
    pub fn parse(net_loc: &'a str, spec: Spec) -> Server<'a> {
        Server::parse_at(net_loc, 0, net_loc.len(), spec, None)
    }

    pub(crate) fn parse_at(
        input: &'a str,
        start: usize,
        end: usize,
        spec: Spec,
        scheme: Option<&str>,
    ) -> Server<'a> {
        let b = input.as_bytes();
        // One backward pass: the last `@`, and the last `:` after it.
        // Authorities are short, so a byte loop beats a vector search.
        let (mut at, mut last_colon) = (NONE, NONE);
        let mut i = end;
        while i > start {
            i -= 1;
            match b[i] {
                b'@' => {
                    at = i;
                    break;
                }
                b':' if last_colon == NONE => last_colon = i,
                _ => {}
            }
        }
        let user_colon = if at == NONE {
            NONE
        } else {
            b[start..at]
                .iter()
                .position(|&c| c == b':')
                .map_or(NONE, |k| start + k)
        };
        let host_start = if at == NONE { start } else { at + 1 };
        // An IP literal: the port follows its `]` directly.
        let port_colon =
            if b.get(host_start) == Some(&b'[') && host_start < end {
                match b[host_start..end].iter().position(|&c| c == b']') {
                    Some(k)
                        if host_start + k + 1 < end
                            && b[host_start + k + 1] == b':' =>
                    {
                        host_start + k + 1
                    }
                    _ => NONE,
                }
            } else {
                last_colon
            };
        let mut server = Server {
            input,
            start,
            end,
            at,
            user_colon,
            port_colon,
            spec,
            kind: AuthorityKind::Server,
            host_kind: HostKind::Invalid,
            scheme_is_login: scheme.is_none_or(takes_login),
            scheme_is_file: scheme
                .is_some_and(|s| s.eq_ignore_ascii_case("file")),
        };
        server.host_kind = server.classify_host();
        if spec.rules().server == ServerGrammar::Server2396
            && !server.is_valid()
        {
            // AS7: not a `server`; try `reg_name = 1*( … )`.
            let whole = &b[start..end];
            if !whole.is_empty() && reg_name_2396(whole) {
                server.kind = AuthorityKind::RegName;
                server.host_kind = HostKind::RegName;
            }
        }
        server
    }

    /// [`parse_at`](Self::parse_at) of an RFC 3986 authority that the
    /// splitter found to be all `reg-name` characters, none of them `%`:
    /// no `@`, `:` or `[`, so the whole authority is the host, an IPv4
    /// address or else a registered name.
    pub(crate) fn plain_reg_name(
        input: &'a str,
        start: usize,
        end: usize,
        spec: Spec,
        scheme: Option<&str>,
    ) -> Server<'a> {
        let h = &input.as_bytes()[start..end];
        let host_kind = if host::is_ipv4_3986(h) {
            HostKind::Ipv4
        } else {
            HostKind::RegName
        };
        Server {
            input,
            start,
            end,
            at: NONE,
            user_colon: NONE,
            port_colon: NONE,
            spec,
            kind: AuthorityKind::Server,
            host_kind,
            scheme_is_login: scheme.is_none_or(takes_login),
            scheme_is_file: scheme
                .is_some_and(|s| s.eq_ignore_ascii_case("file")),
        }
    }

    fn user_span(&self) -> Span {
        if self.at == NONE || self.kind == AuthorityKind::RegName {
            return None;
        }
        Some((
            self.start,
            if self.user_colon == NONE { self.at } else { self.user_colon },
        ))
    }

    fn password_span(&self) -> Span {
        if self.user_colon == NONE || self.kind == AuthorityKind::RegName {
            return None;
        }
        Some((self.user_colon + 1, self.at))
    }

    fn host_span(&self) -> Span {
        if self.kind == AuthorityKind::RegName {
            return None;
        }
        let s = if self.at == NONE { self.start } else { self.at + 1 };
        Some((
            s,
            if self.port_colon == NONE { self.end } else { self.port_colon },
        ))
    }

    fn port_span(&self) -> Span {
        if self.port_colon == NONE || self.kind == AuthorityKind::RegName {
            return None;
        }
        Some((self.port_colon + 1, self.end))
    }

    fn get(&self, span: Span) -> Option<&'a str> {
        span.map(|(s, e)| &self.input[s..e])
    }

    /// The whole net_loc / authority.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        &self.input[self.start..self.end]
    }

    /// `Server`, or RFC 2396's `RegName` when the authority is not a server.
    #[must_use]
    pub fn kind(&self) -> AuthorityKind {
        self.kind
    }

    /// The user name: `None` without `@`, `Some("")` for `@host`.
    #[must_use]
    pub fn user(&self) -> Option<&'a str> {
        self.get(self.user_span())
    }

    /// The password: `None` without `:` before the `@`.
    #[must_use]
    pub fn password(&self) -> Option<&'a str> {
        self.get(self.password_span())
    }

    /// The user information before the last `@` (RFC 2396/3986
    /// `userinfo`).
    #[must_use]
    pub fn userinfo(&self) -> Option<&'a str> {
        self.user_span().map(|(s, _)| {
            let e = self.at;
            &self.input[s..e]
        })
    }

    /// The host, brackets included for IP literals. `None` only for an RFC
    /// 2396 `reg_name` authority.
    #[must_use]
    pub fn host(&self) -> Option<&'a str> {
        self.get(self.host_span())
    }

    /// What the host is under the spec.
    #[must_use]
    pub fn host_kind(&self) -> HostKind {
        self.host_kind
    }

    /// The port as written: `None` without `:`, `Some("")` for `host:`
    /// (the default port).
    #[must_use]
    pub fn port(&self) -> Option<&'a str> {
        self.get(self.port_span())
    }

    /// The port as a number, when it is a non-empty run of digits that fits.
    #[must_use]
    pub fn port_number(&self) -> Option<u16> {
        self.port().filter(|p| !p.is_empty()).and_then(|p| p.parse().ok())
    }

    fn classify_host(&self) -> HostKind {
        let h = self.host().unwrap_or("").as_bytes();
        let grammar = self.spec.rules().server;
        if h.is_empty() {
            return match grammar {
                ServerGrammar::Authority3986 => HostKind::RegName,
                _ => HostKind::Empty,
            };
        }
        let bracketed = h.len() >= 2 && h[0] == b'[' && h[h.len() - 1] == b']';
        match grammar {
            ServerGrammar::Login1630 => {
                if host::is_dotted_quad(h, usize::MAX) {
                    HostKind::Ipv4
                } else if host::is_hostname_1630(h) {
                    HostKind::Hostname
                } else {
                    HostKind::Invalid
                }
            }
            ServerGrammar::OpaqueNetLoc | ServerGrammar::Server96 => {
                if host::is_dotted_quad(h, usize::MAX) {
                    HostKind::Ipv4
                } else if host::is_hostname(h, false) {
                    HostKind::Hostname
                } else {
                    HostKind::Invalid
                }
            }
            ServerGrammar::Server2396 => {
                if bracketed {
                    if host::is_ipv6(&h[1..h.len() - 1], |v4| {
                        host::is_dotted_quad(v4, 3)
                    }) {
                        HostKind::Ipv6
                    } else {
                        HostKind::Invalid
                    }
                } else if host::is_dotted_quad(h, 3) {
                    HostKind::Ipv4
                } else if host::is_hostname(h, true) {
                    HostKind::Hostname
                } else {
                    HostKind::Invalid
                }
            }
            ServerGrammar::Authority3986 => {
                if bracketed {
                    let inner = &h[1..h.len() - 1];
                    if host::is_ipv6(inner, host::is_ipv4_3986) {
                        HostKind::Ipv6
                    } else if host::is_ipvfuture(inner) {
                        HostKind::IpvFuture
                    } else {
                        HostKind::Invalid
                    }
                } else if host::is_ipv4_3986(h) {
                    HostKind::Ipv4
                } else if reg_name_3986(h) {
                    HostKind::RegName
                } else {
                    HostKind::Invalid
                }
            }
        }
    }

    /// Whether the server is valid under the spec (for RFC 1808's opaque
    /// net_loc: whether it fits the 1996 server grammar).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let mut valid = true;
        let mut sink = |_| {
            valid = false;
            false
        };
        let mut c = Checker::new(self.spec, &mut sink);
        self.check_server(&mut c);
        valid
    }

    /// Reports the server's violations under its spec. RFC 1808 and draft
    /// 04 check only the characters of their opaque net_loc.
    pub(crate) fn check(&self, c: &mut Checker<'_, '_>) {
        let rules = self.spec.rules();
        match rules.server {
            ServerGrammar::OpaqueNetLoc => c.chars(
                self.input,
                self.start..self.end,
                rules.grammar.net_loc,
                true,
                "net_loc",
                "net_loc",
            ),
            _ => self.check_server(c),
        }
    }

    fn check_server(&self, c: &mut Checker<'_, '_>) {
        let rules = self.spec.rules();
        let grammar = rules.server;
        if self.kind == AuthorityKind::RegName {
            return;
        }
        let is_1630 = grammar == ServerGrammar::Login1630;
        let (user_rule, host_rule, userinfo_class) = match grammar {
            ServerGrammar::Login1630 => {
                ("user", "host", chars::rfc1630::ALPHANUM2)
            }
            ServerGrammar::Server2396 => {
                ("userinfo", "host", rules.grammar.userinfo)
            }
            ServerGrammar::Authority3986 => {
                ("userinfo", "host", rules.grammar.userinfo)
            }
            _ => ("user", "host", chars::draft96::USER),
        };
        if self.user_span().is_some() && is_1630 && !self.scheme_is_login {
            c.report(self.start, "hostport", ViolationKind::LoginNotAllowed);
        }
        for (span, component) in
            [(self.user_span(), "user"), (self.password_span(), "password")]
        {
            let Some((s, e)) = span else { continue };
            if s == e && !rules.empty_userinfo {
                c.report(s, user_rule, ViolationKind::Empty { component });
            }
            let class = if grammar == ServerGrammar::Authority3986
                && component == "password"
            {
                userinfo_class
            } else if matches!(
                grammar,
                ServerGrammar::Server2396 | ServerGrammar::Authority3986
            ) {
                // The user part ends at the first `:`, so it cannot hold one.
                userinfo_class.without(b':')
            } else {
                userinfo_class
            };
            c.chars(self.input, s..e, class, !is_1630, user_rule, component);
        }
        if let Some((s, e)) = self.host_span() {
            let h = &self.input.as_bytes()[s..e];
            match self.host_kind {
                HostKind::Invalid
                    if h.first() == Some(&b'[')
                        && !matches!(
                            grammar,
                            ServerGrammar::Server2396
                                | ServerGrammar::Authority3986
                        ) =>
                {
                    c.report(s, host_rule, ViolationKind::Ipv6NotSupported)
                }
                HostKind::Invalid => {
                    let kind = if grammar == ServerGrammar::Server2396 {
                        ViolationKind::InvalidAuthority
                    } else {
                        ViolationKind::InvalidHost
                    };
                    c.report(s, host_rule, kind)
                }
                HostKind::Empty => {
                    // The whole server may be absent, but a user or port
                    // needs a host; RFC 1630's void host means localhost
                    // for `file` only (A27).
                    let lone = self.at == NONE && self.port_colon == NONE;
                    let ok = match grammar {
                        ServerGrammar::Login1630 => {
                            self.scheme_is_file || lone
                        }
                        _ => lone,
                    };
                    if !ok {
                        c.report(
                            s,
                            host_rule,
                            ViolationKind::Empty { component: "host" },
                        );
                    }
                }
                _ => {}
            }
        }
        if let Some((s, e)) = self.port_span() {
            let p = &self.input.as_bytes()[s..e];
            if p.is_empty() && !rules.empty_port {
                c.report(
                    s,
                    "port",
                    ViolationKind::Empty { component: "port" },
                );
            }
            if let Some(bad) = p.iter().position(|b| !b.is_ascii_digit()) {
                c.report(s + bad, "port", ViolationKind::InvalidPort);
            }
        }
    }
}

/// RFC 2396 `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" |
/// "@" | "&" | "=" | "+" )`.
fn reg_name_2396(b: &[u8]) -> bool {
    escaped_run(b, chars::rfc2396::REG_NAME)
}

/// RFC 3986 `reg-name = *( unreserved / pct-encoded / sub-delims )`.
fn reg_name_3986(b: &[u8]) -> bool {
    escaped_run(b, chars::rfc3986::REG_NAME)
}

fn escaped_run(b: &[u8], class: chars::CharClass) -> bool {
    let mut i = 0;
    while i < b.len() {
        if class.contains(b[i]) {
            i += 1;
        } else if crate::escape::is_escape_at(b, i) {
            i += 3;
        } else {
            return false;
        }
    }
    true
}

impl fmt::Debug for Server<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("kind", &self.kind)
            .field("user", &self.user())
            .field(
                "password",
                &self
                    .password()
                    .map(|p| if p.is_empty() { "" } else { "****" }),
            )
            .field("host", &self.host())
            .field("host_kind", &self.host_kind)
            .field("port", &self.port())
            .finish()
    }
}
