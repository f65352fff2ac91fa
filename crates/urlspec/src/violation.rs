//! Violations: where and why a text breaks its spec's grammar, one
//! [`Violation`] per offending place, and the [`Checker`] that reports
//! them into a sink. Below the host, server and reference grammars, which
//! all report through it.

use core::fmt;

use crate::chars::CharClass;
use crate::escape::is_escape_at;
use crate::spec::Spec;

/// One place where a reference breaks its spec's grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Byte offset in the input.
    pub position: usize,
    /// The grammar rule broken, by its name in the spec (`pchar`,
    /// `segment-nz-nc`, `hostname`, `port`, …).
    pub rule: &'static str,
    /// What is wrong.
    pub kind: ViolationKind,
    /// The spec whose grammar was applied.
    pub spec: Spec,
}

/// What a [`Violation`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// A character the component may not hold unescaped.
    Disallowed {
        /// The character.
        ch: char,
        /// The class the spec puts it in (`national`, `unwise`, …), if any.
        class: Option<&'static str>,
        /// The component it appears in.
        component: &'static str,
    },
    /// A `%` not followed by two hex digits.
    InvalidEscape,
    /// An escape where the grammar admits none (RFC 1630 user and password).
    EscapeNotAllowed,
    /// A `:` in the first segment of a relative path, where it would read as
    /// a scheme (RFC 2396 §5, RFC 3986 §4.2); also a prefix that looks like
    /// a scheme but is not one.
    ColonInFirstSegment,
    /// Nothing after `scheme:` (RFC 2396 admits no empty `opaque_part`).
    EmptyAfterScheme,
    /// A component the grammar requires to be non-empty is empty.
    Empty {
        /// The component.
        component: &'static str,
    },
    /// An empty path segment where the grammar needs `1*pchar`.
    EmptySegment,
    /// The host matches none of the spec's host rules.
    InvalidHost,
    /// An IPv6 literal under a spec without IPv6 (docs/readings.md#a43).
    Ipv6NotSupported,
    /// A port that is not all digits.
    InvalidPort,
    /// A user name or password on a scheme whose RFC 1630 production has no
    /// `login` (http, gopher, wais, prospero: docs/readings.md#a23).
    LoginNotAllowed,
    /// The authority is neither a `server` nor a `reg_name` (RFC 2396).
    InvalidAuthority,
    /// The WHATWG URL Standard's parser fails on the input (or this build
    /// lacks the `whatwg` feature).
    NotAWhatwgUrl,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = self.spec.name();
        match self.kind {
            ViolationKind::Disallowed { ch, class, component } => {
                write!(f, "{ch:?} is not allowed unescaped in the {component}")?;
                if let Some(class) = class {
                    write!(f, " (it is `{class}` in {spec})")?;
                }
                if ch.is_ascii() {
                    write!(f, "; write it as %{:02X}", ch as u32)
                } else {
                    f.write_str("; escape its UTF-8 octets")
                }
            }
            ViolationKind::InvalidEscape => f.write_str(
                "`%` must start an escape of two hex digits; a literal `%` is written %25",
            ),
            ViolationKind::EscapeNotAllowed => {
                f.write_str("escapes are not allowed here: the rule has no `escape`")
            }
            ViolationKind::ColonInFirstSegment => f.write_str(
                "the first segment of a relative path may not contain `:` (the text before it \
                 is not a scheme); write `./` before it or escape the colon as %3A",
            ),
            ViolationKind::EmptyAfterScheme => {
                f.write_str("nothing follows `scheme:`, and the grammar needs a path")
            }
            ViolationKind::Empty { component } => write!(f, "the {component} may not be empty"),
            ViolationKind::EmptySegment => {
                f.write_str("a path may not start with an empty segment (`fsegment = 1*pchar`)")
            }
            ViolationKind::InvalidHost => write!(f, "not a valid host under {spec}"),
            ViolationKind::Ipv6NotSupported => {
                write!(f, "IPv6 literals are not part of {spec} (RFC 2732 added them in 1999)")
            }
            ViolationKind::InvalidPort => f.write_str("a port is decimal digits only"),
            ViolationKind::LoginNotAllowed => f.write_str(
                "this scheme's RFC 1630 production has `hostport`, not `login`: no user or \
                 password",
            ),
            ViolationKind::InvalidAuthority => {
                f.write_str("the authority is neither a server nor a registry name")
            }
            ViolationKind::NotAWhatwgUrl => {
                let why = crate::whatwg::check("", false).err();
                match why {
                    Some(w) if !crate::whatwg::available() => write!(f, "{w}"),
                    _ => f.write_str("the WHATWG URL parser gives no URL for this input"),
                }
            }
        }
    }
}

/// A sink for violations; returns `false` to stop.
pub(crate) type Sink<'s> = dyn FnMut(Violation) -> bool + 's;

/// Reports into a sink until it says stop.
pub(crate) struct Checker<'s, 'k> {
    pub(crate) spec: Spec,
    sink: &'k mut Sink<'s>,
    stopped: bool,
}

impl<'s, 'k> Checker<'s, 'k> {
    pub(crate) fn new(spec: Spec, sink: &'k mut Sink<'s>) -> Self {
        Checker { spec, sink, stopped: false }
    }

    pub(crate) fn report(
        &mut self,
        position: usize,
        rule: &'static str,
        kind: ViolationKind,
    ) {
        if !self.stopped {
            let v = Violation { position, rule, kind, spec: self.spec };
            self.stopped = !(self.sink)(v);
        }
    }

    /// Checks `input[start..end]` against `class`, with escapes allowed
    /// when `escapes` is set.
    #[inline]
    pub(crate) fn chars(
        &mut self,
        input: &str,
        range: core::ops::Range<usize>,
        class: CharClass,
        escapes: bool,
        rule: &'static str,
        component: &'static str,
    ) {
        let end = range.end;
        let b = &input.as_bytes()[..end];
        let mut i = range.start;
        loop {
            // The common case: a run of plain characters.
            while i < end {
                if class.contains(b[i]) {
                    i += 1;
                } else if escapes && b[i] == b'%' && is_escape_at(b, i) {
                    i += 3;
                } else {
                    break;
                }
            }
            if i >= end || self.stopped {
                return;
            }
            i = self.odd_char(input, i, escapes, rule, component);
        }
    }

    /// Handles the character at `i`, which is not in `class`: an escape or
    /// a violation. Returns the index after it.
    #[cold]
    fn odd_char(
        &mut self,
        input: &str,
        i: usize,
        escapes: bool,
        rule: &'static str,
        component: &'static str,
    ) -> usize {
        let b = input.as_bytes();
        let c = b[i];
        if c == b'%' && is_escape_at(b, i) {
            if !escapes {
                self.report(i, rule, ViolationKind::EscapeNotAllowed);
            }
            return i + 3;
        }
        if c == b'%' {
            self.report(i, "escape", ViolationKind::InvalidEscape);
            return i + 1;
        }
        let ch = input[i..].chars().next().unwrap_or('\u{FFFD}');
        let class = class_name(self.spec, c);
        self.report(
            i,
            rule,
            ViolationKind::Disallowed { ch, class, component },
        );
        i + ch.len_utf8()
    }
}

/// The name the spec gives the class of `byte`, for messages.
pub(crate) fn class_name(spec: Spec, byte: u8) -> Option<&'static str> {
    let rules = spec.rules();
    if byte >= 0x80 {
        return Some(rules.non_ascii_class);
    }
    rules
        .class_names
        .iter()
        .find(|(class, _)| class.contains(byte))
        .map(|&(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_are_those_of_each_spec() {
        let name = |spec: Spec, byte: u8| class_name(spec, byte);
        assert_eq!(name(Spec::Rfc1630, b' '), Some("reserved"));
        assert_eq!(name(Spec::Rfc1630, 0x01), Some("control or space"));
        assert_eq!(name(Spec::Rfc1808, b' '), Some("control or space"));
        assert_eq!(name(Spec::Rfc1808, b'~'), Some("national"));
        assert_eq!(name(Spec::Draft04, b'{'), Some("national"));
        assert_eq!(name(Spec::Draft96, b' '), Some("space"));
        assert_eq!(name(Spec::Draft96Dec, b'{'), Some("unwise"));
        assert_eq!(name(Spec::Draft96, 0xE9), Some("national"));
        assert_eq!(name(Spec::Rfc2396, 0xE9), Some("non-ASCII"));
        assert_eq!(name(Spec::Rfc2396, b'"'), Some("delims"));
        assert_eq!(name(Spec::Rfc3986, b'['), Some("gen-delims"));
        assert_eq!(name(Spec::Whatwg, b'!'), Some("sub-delims"));
        assert_eq!(name(Spec::Rfc3986, b'a'), None);
    }
}
