//! Passwords kept out of `Display`, `Debug` and logs (R96-8.4; RFC 3986
//! §3.2.1): [`Redacted`] prints a reference with its password hidden,
//! [`Secret`] any secret text.

use alloc::string::{String, ToString};
use core::fmt;
use core::ops::Range;

use super::{Part, Reference};
use crate::chars::span_of;
use crate::server::Server;
use crate::spec::Spec;

/// Where the password is: the server's, or, where the spec's grammar
/// gives the authority no password (an RFC 2396 `reg_name`, an opaque
/// net_loc), what RFC 3986's split would call one: a secret is a secret
/// whatever the grammar calls it.
pub(crate) fn password_span(r: &Reference<'_>) -> Option<Range<usize>> {
    let input = r.as_str();
    let net_loc = r.span(Part::NetLoc)?;
    let pw = match r.server().and_then(|s| s.password()) {
        Some(pw) => span_of(input, pw),
        None => {
            let s = Server::parse(&input[net_loc.clone()], Spec::Rfc3986);
            let pw = s.password()?;
            let at = net_loc.start + span_of(&input[net_loc], pw).start;
            at..at + pw.len()
        }
    };
    (!pw.is_empty()).then_some(pw)
}

/// A password, or any secret text: `Display` and `Debug` print `****`
/// (or nothing when it is empty); [`expose`](Secret::expose) gives it.
///
/// ```
/// use urlspec::reference::Secret;
/// let s = Secret::new("hunter2");
/// assert_eq!(format!("{s} {s:?}"), "**** ****");
/// assert_eq!(s.expose(), "hunter2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Secret<'a>(&'a str);

impl<'a> Secret<'a> {
    /// Wraps `s`.
    #[must_use]
    pub const fn new(s: &'a str) -> Secret<'a> {
        Secret(s)
    }

    /// The secret text.
    #[must_use]
    pub const fn expose(&self) -> &'a str {
        self.0
    }

    /// Whether the secret is empty (`user:@host`).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Secret<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "" } else { "****" })
    }
}

impl fmt::Debug for Secret<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A reference that prints with its password replaced by `****`, unless
/// asked to [reveal it](Redacted::reveal_password) (R96-8.4; RFC 3986
/// §3.2.1: "should not render as clear text any data after the first colon
/// … unless the data after the colon is the empty string").
///
/// ```
/// use urlspec::reference::Redacted;
/// use urlspec::{Reference, Spec};
/// let r = Reference::parse_with("ftp://user:secret@h/f", Spec::Draft96);
/// assert_eq!(Redacted::new(&r).to_string(), "ftp://user:****@h/f");
/// assert!(!format!("{:?}", Redacted::new(&r)).contains("secret"));
/// assert_eq!(Redacted::new(&r).reveal_password(true).to_string(), r.as_str());
/// ```
#[derive(Clone, Copy)]
#[must_use = "a redacted reference does nothing unless formatted"]
pub struct Redacted<'r, 'a> {
    r: &'r Reference<'a>,
    reveal: bool,
}

impl<'r, 'a> Redacted<'r, 'a> {
    /// Wraps `r`; the password is hidden.
    pub fn new(r: &'r Reference<'a>) -> Redacted<'r, 'a> {
        Redacted { r, reveal: false }
    }

    /// Shows the password after all (when `reveal` is set).
    pub fn reveal_password(mut self, reveal: bool) -> Redacted<'r, 'a> {
        self.reveal = reveal;
        self
    }

    /// The password's span, when it is to be hidden.
    fn hidden(&self) -> Option<Range<usize>> {
        if self.reveal {
            return None;
        }
        password_span(self.r)
    }

    fn redact(&self, s: &str) -> String {
        let input = self.r.as_str();
        let Some(hide) = self.hidden() else { return s.to_string() };
        let at = span_of(input, s);
        if hide.start < at.start || hide.end > at.end {
            return s.to_string();
        }
        let (a, b) = (hide.start - at.start, hide.end - at.start);
        alloc::format!("{}****{}", &s[..a], &s[b..])
    }
}

/// `s`, a slice of `r`'s input, with `r`'s password hidden.
pub(crate) fn redact_slice(r: &Reference<'_>, s: &str) -> String {
    Redacted::new(r).redact(s)
}

impl fmt::Display for Redacted<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redact(self.r.as_str()))
    }
}

impl fmt::Debug for Redacted<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.r;
        f.debug_struct("Reference")
            .field("spec", &r.spec())
            .field("scheme", &r.scheme())
            .field("net_loc", &r.net_loc().map(|n| self.redact(n)))
            .field("path", &r.path())
            .field("params", &r.params())
            .field("query", &r.query())
            .field("fragment", &r.fragment())
            .finish()
    }
}
