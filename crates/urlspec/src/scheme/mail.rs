//! `mailto`, `mid` and `cid` (RFC 1630 "Mailto", "Message-Id",
//! "Content-Id").
//!
//! ```text
//! mailtoaddress m a i l t o : xalphas @ hostname
//! midaddress m i d : addr-spec
//! cidaddress c i d : content-identifier
//! ```
//!
//! A mailto URL holds an RFC 822 addr-spec; "use of % … requires
//! conversion to %25 in a URL". A mid URL is "the RFC822 msg-id with the
//! constant <> wrapper removed"; a cid URL does the same with a MIME
//! Content-ID, meaningful only within its message.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{decode, push_opt, Parts, SchemeViolation, Src, Strict, XALPHA};
use crate::escape::{escape, Component};
use crate::reference::Reference;
use crate::spec::Spec;

/// A `mailto` URL.
///
/// ```
/// use urlspec::scheme::Mailto;
/// use urlspec::Reference;
/// let r = Reference::parse("mailto:masinter@parc.xerox.com");
/// let m = Mailto::new(&r);
/// assert_eq!(m.addr_spec(), "masinter@parc.xerox.com");
/// assert_eq!((m.local_part(), m.domain()), ("masinter", Some("parc.xerox.com")));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Mailto<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
}

impl<'a> Mailto<'a> {
    /// Reads `r` as a mailto URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Mailto<'a> {
        Mailto { r: Src(*r), parts: Parts::of(r) }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The addr-spec as written (after `mailto:`, up to `?` or `#`).
    #[must_use]
    pub fn addr_spec(&self) -> &'a str {
        self.parts.path_text()
    }

    /// The addr-spec, decoded (`%25` becomes `%` again).
    #[must_use]
    pub fn address(&self) -> Cow<'a, str> {
        decode(self.addr_spec())
    }

    /// The local part: before the last `@`.
    #[must_use]
    pub fn local_part(&self) -> &'a str {
        let a = self.addr_spec();
        a.rfind('@').map_or(a, |k| &a[..k])
    }

    /// The domain: after the last `@`.
    #[must_use]
    pub fn domain(&self) -> Option<&'a str> {
        let a = self.addr_spec();
        a.rfind('@').map(|k| &a[k + 1..])
    }

    /// What follows `?` (RFC 2368 header fields, not a seed), as written.
    #[must_use]
    pub fn headers(&self) -> Option<&'a str> {
        self.parts.search()
    }

    /// Where the URL breaks `mailtoaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            no_net_loc(s, &self.r, "mailtoaddress");
            let local = self.local_part();
            if s.nonempty(local, "xalphas", "local part") {
                s.chars(local, XALPHA, "xalphas", "local part");
            }
            match self.domain() {
                Some(d) => s.host(d, "mail domain"),
                None => s.report_at(
                    self.addr_spec(),
                    "mailtoaddress",
                    "`mailto:xalphas@hostname`: the address has no `@`",
                ),
            }
            s.no_search(&self.parts, "mailtoaddress");
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.headers().is_some() {
            out.push(
                "the `?` part is kept apart as header fields (RFC 2368, not \
                 a seed)",
            );
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("addr_spec", self.addr_spec().to_string()));
        out.push(("address", self.address().into_owned()));
        out.push(("local_part", self.local_part().to_string()));
        push_opt(out, "domain", self.domain());
        push_opt(out, "headers", self.headers());
    }
}

/// Which identifier a [`MessageId`] URL holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MailIdKind {
    /// `mid:`: an RFC 822 Message-ID.
    Mid,
    /// `cid:`: a MIME Content-ID.
    Cid,
}

impl MailIdKind {
    /// `mid` or `cid`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MailIdKind::Mid => "mid",
            MailIdKind::Cid => "cid",
        }
    }

    /// The URL for a Message-ID or Content-ID header value: the `<>`
    /// wrapper (and surrounding white space) removed, every character that
    /// is not RFC 1630 path data escaped.
    ///
    /// ```
    /// use urlspec::scheme::MailIdKind;
    /// assert_eq!(MailIdKind::Mid.url("<foo@bar.example>"), "mid:foo@bar.example");
    /// assert_eq!(MailIdKind::Cid.url("<part1/a%b@x>"), "cid:part1%2Fa%25b@x");
    /// ```
    #[must_use]
    pub fn url(self, header: &str) -> String {
        let id = header.trim();
        let id = id
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
            .unwrap_or(id);
        let mut out = String::with_capacity(id.len() + 4);
        out.push_str(self.name());
        out.push(':');
        out.push_str(&escape(id, Component::PathSegment, Spec::Rfc1630));
        out
    }
}

impl fmt::Display for MailIdKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `mid` or `cid` URL.
///
/// ```
/// use urlspec::scheme::{MailIdKind, MessageId};
/// use urlspec::Reference;
/// let r = Reference::parse("mid:foo@bar.example");
/// let m = MessageId::new(&r);
/// assert_eq!(m.kind(), MailIdKind::Mid);
/// assert_eq!(m.id(), "foo@bar.example");
/// assert_eq!(m.header(), "<foo@bar.example>");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MessageId<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    kind: MailIdKind,
}

impl<'a> MessageId<'a> {
    /// Reads `r` as a mid URL (a cid URL when its scheme is `cid`).
    #[must_use]
    pub fn new(r: &Reference<'a>) -> MessageId<'a> {
        let kind = match r.scheme() {
            Some(s) if s.eq_ignore_ascii_case("cid") => MailIdKind::Cid,
            _ => MailIdKind::Mid,
        };
        MessageId { r: Src(*r), parts: Parts::of(r), kind }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// `mid` or `cid`.
    #[must_use]
    pub fn kind(&self) -> MailIdKind {
        self.kind
    }

    /// The identifier as written, without `<>`.
    #[must_use]
    pub fn id(&self) -> &'a str {
        self.parts.tail
    }

    /// The header value: the identifier decoded, in its `<>` wrapper.
    #[must_use]
    pub fn header(&self) -> String {
        let id = decode(self.id());
        let mut s = String::with_capacity(id.len() + 2);
        s.push('<');
        s.push_str(&id);
        s.push('>');
        s
    }

    /// Where the URL breaks `midaddress` / `cidaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        let production = match self.kind {
            MailIdKind::Mid => "midaddress",
            MailIdKind::Cid => "cidaddress",
        };
        Strict::run(&self.r, |s| {
            no_net_loc(s, &self.r, production);
            let id = self.parts.path_text();
            if s.nonempty(id, production, "identifier") {
                s.chars(id, XALPHA, "xalphas", "identifier");
            }
            if self.kind == MailIdKind::Mid {
                let ok =
                    id.rfind('@').is_some_and(|k| k > 0 && k + 1 < id.len());
                if !ok && !id.is_empty() {
                    s.report_at(
                        id,
                        "addr-spec",
                        "a Message-ID has the addr-spec form `local@domain`",
                    );
                }
            }
            s.no_search(&self.parts, production);
        })
    }

    /// The lenient readings applied (none).
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        Vec::new()
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("id", self.id().to_string()));
        out.push(("header", self.header()));
    }
}

/// Reports a `//` part on a scheme whose production has none.
pub(crate) fn no_net_loc<'a>(
    s: &mut Strict<'a>,
    r: &Reference<'a>,
    production: &'static str,
) {
    if let Some(n) = r.net_loc() {
        let at = s.at(n).saturating_sub(2);
        s.report(
            at,
            production,
            alloc::format!("the {production} production has no `//` part"),
        );
    }
}
