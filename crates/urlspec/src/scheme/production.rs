//! RFC 1630's productions for each scheme, checked: the [`Strict`]
//! collector the views report their [`SchemeViolation`]s through.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Login, Parts, SchemeViolation};
use crate::chars::{rfc1630, CharClass, DIGIT};
use crate::escape::is_escape_at;
use crate::reference::{Part, Reference};
use crate::spec::Spec;

/// Collects the violations of one view, with positions in the input.
pub(crate) struct Strict<'a> {
    input: &'a str,
    out: Vec<SchemeViolation>,
}

/// `alphanum2 alpha | digit | - | _ | . | +` (user and password).
const ALPHANUM2: CharClass = rfc1630::ALPHANUM2;
/// RFC 1630 `xalpha` (escapes checked apart).
pub(crate) const XALPHA: CharClass = rfc1630::XALPHA;
/// RFC 1630 `xpalpha`.
pub(crate) const XPALPHA: CharClass = rfc1630::XPALPHA;

impl<'a> Strict<'a> {
    /// Runs `f` and the checks every URL shares (`fragmentid xalphas`).
    pub(crate) fn run(
        r: &Reference<'a>,
        f: impl FnOnce(&mut Strict<'a>),
    ) -> Vec<SchemeViolation> {
        let mut s = Strict { input: r.as_str(), out: Vec::new() };
        f(&mut s);
        if let Some(frag) = r.fragment() {
            s.chars(frag, XALPHA, "fragmentid", "fragment");
        }
        s.out.sort_by_key(|v| v.position);
        s.out
    }

    /// The offset of `s`, a slice of the input.
    pub(crate) fn at(&self, s: &str) -> usize {
        crate::chars::span_of(self.input, s).start
    }

    pub(crate) fn report(
        &mut self,
        position: usize,
        production: &'static str,
        message: impl Into<String>,
    ) {
        self.out.push(SchemeViolation {
            position,
            production,
            message: message.into(),
        });
    }

    pub(crate) fn report_at(
        &mut self,
        s: &str,
        production: &'static str,
        message: impl Into<String>,
    ) {
        let at = self.at(s);
        self.report(at, production, message);
    }

    /// Every character of `s` must be in `class` or start a valid escape.
    pub(crate) fn chars(
        &mut self,
        s: &'a str,
        class: CharClass,
        production: &'static str,
        what: &str,
    ) {
        self.chars_with(s, class, true, production, what);
    }

    pub(crate) fn chars_with(
        &mut self,
        s: &'a str,
        class: CharClass,
        escapes: bool,
        production: &'static str,
        what: &str,
    ) {
        let base = self.at(s);
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if class.contains(b[i]) {
                i += 1;
            } else if b[i] == b'%' && is_escape_at(b, i) {
                if !escapes {
                    self.report(
                        base + i,
                        production,
                        alloc::format!("no escapes are allowed in the {what}"),
                    );
                }
                i += 3;
            } else if b[i] == b'%' {
                self.report(
                    base + i,
                    "escape",
                    "`%` must be followed by two hex digits (a literal `%` \
                     is %25)",
                );
                i += 1;
            } else {
                let ch = s[i..].chars().next().unwrap_or('\u{FFFD}');
                self.report(
                    base + i,
                    production,
                    alloc::format!("{ch:?} is not allowed in the {what}"),
                );
                i += ch.len_utf8();
            }
        }
    }

    /// `s` must not be empty.
    pub(crate) fn nonempty(
        &mut self,
        s: &'a str,
        production: &'static str,
        what: &str,
    ) -> bool {
        if s.is_empty() {
            self.report_at(
                s,
                production,
                alloc::format!("the {what} may not be empty"),
            );
        }
        !s.is_empty()
    }

    /// `path void | segment [ / path ]`, `segment xpalphas`: no empty
    /// segment except a last one.
    pub(crate) fn path(&mut self, s: &'a str, what: &str) {
        let segs: Vec<&'a str> = s.split('/').collect();
        let n = segs.len();
        for (i, seg) in segs.into_iter().enumerate() {
            if seg.is_empty() && i + 1 < n {
                self.report_at(
                    seg,
                    "path",
                    alloc::format!(
                        "an empty segment (`//`) in the {what}: `segment \
                         xpalphas` needs a character"
                    ),
                );
            }
            self.chars(seg, XPALPHA, "xpalphas", what);
        }
    }

    /// `search xalphas [ + search ]`.
    pub(crate) fn search(&mut self, s: &'a str) {
        for piece in s.split('+') {
            if piece.is_empty() {
                self.report_at(
                    piece,
                    "search",
                    "`search xalphas [ + search ]`: no empty word between \
                     `+`s or at either end",
                );
            }
            self.chars(piece, XALPHA, "xalphas", "search");
        }
    }

    /// A URL without `?search` in its production.
    pub(crate) fn no_search(
        &mut self,
        p: &Parts<'a>,
        production: &'static str,
    ) {
        if let Some(q) = p.search() {
            let at = self.at(q).saturating_sub(1);
            self.report(
                at,
                production,
                alloc::format!(
                    "the {production} production has no `?search`; `?` is \
                     reserved"
                ),
            );
        }
    }

    /// `host hostname | hostnumber`.
    pub(crate) fn host(&mut self, h: &'a str, what: &str) {
        let b = h.as_bytes();
        if b.is_empty() {
            self.report_at(h, "host", alloc::format!("the {what} is empty"));
        } else if !crate::host::is_dotted_quad(b, usize::MAX)
            && !crate::host::is_hostname_1630(b)
        {
            self.report_at(
                h,
                "host",
                alloc::format!(
                    "the {what} `{h}` is neither `hostname ialpha [ . \
                     hostname ]` nor `hostnumber digits . digits . digits . \
                     digits`"
                ),
            );
        }
    }

    /// `//` + `login` (when `login` is set) or `hostport`.
    pub(crate) fn server(
        &mut self,
        r: &Reference<'a>,
        production: &'static str,
        login: bool,
    ) {
        let Some(net_loc) = r.net_loc() else {
            let at = r.span(Part::Path).map_or(0, |s| s.start);
            self.report(
                at,
                production,
                alloc::format!(
                    "the {production} production starts with `//` and a \
                     host"
                ),
            );
            return;
        };
        let Some(l) = Login::of(r) else { return };
        if let Some(user) = l.user() {
            if login {
                self.nonempty(user, "user", "user");
                self.chars_with(user, ALPHANUM2, false, "alphanum2", "user");
                if let Some(pw) = l.password() {
                    let pw = pw.expose();
                    self.nonempty(pw, "password", "password");
                    self.chars_with(
                        pw,
                        ALPHANUM2,
                        false,
                        "alphanum2",
                        "password",
                    );
                }
            } else {
                self.report_at(
                    net_loc,
                    "hostport",
                    alloc::format!(
                        "the {production} production has `hostport`, not \
                         `login`: no user or password (docs/readings.md#a23)"
                    ),
                );
            }
        }
        self.host(l.host(), "host");
        if let Some(port) = l.port() {
            if port.is_empty() || !port.bytes().all(|b| DIGIT.contains(b)) {
                let at = self.at(port);
                self.report(
                    at,
                    "port",
                    "`port digits`: at least one decimal digit",
                );
            }
        }
    }
}

/// The spec a view's strict check reads the input under, for the generic
/// parts: RFC 1630's.
pub(crate) const STRICT_SPEC: Spec = Spec::Rfc1630;
