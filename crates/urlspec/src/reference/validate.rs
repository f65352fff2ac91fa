//! Strict validation of a parsed reference against its spec's grammar.
//!
//! Parsing never fails; this module answers whether the reference is in the
//! spec's language, and if not, where and why, one [`Violation`] per
//! offending place.

use core::fmt;

use super::table::{self, AUTH, NOT_SLASHES, NO_PCT, SEGMENT, TAIL_CLASSES};
use super::{Reference, NONE};
use crate::chars::{self, CharClass};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, ServerGrammar, Spec};

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
    use chars::*;
    let table: &[(CharClass, &'static str)] = match spec {
        Spec::Rfc1630 => &[
            (rfc1630::NATIONAL, "national"),
            (rfc1630::PUNCTUATION, "punctuation"),
            (rfc1630::RESERVED, "reserved"),
            (rfc1630::SAFE, "safe"),
            (rfc1630::EXTRA, "extra"),
        ],
        Spec::Draft04 | Spec::Rfc1808 => &[
            (rfc1808::NATIONAL, "national"),
            (rfc1808::PUNCTUATION, "punctuation"),
            (rfc1808::RESERVED, "reserved"),
            (rfc1808::SAFE, "safe"),
            (rfc1808::EXTRA, "extra"),
        ],
        Spec::Draft96 | Spec::Draft96Dec => &[
            (draft96::UNWISE, "unwise"),
            (draft96::DELIMS, "delims"),
            (draft96::RESERVED, "reserved"),
            (draft96::MARK, "mark"),
            (CONTROL, "control"),
            (SPACE, "space"),
        ],
        Spec::Rfc2396 => &[
            (rfc2732::UNWISE, "unwise"),
            (rfc2396::DELIMS, "delims"),
            (rfc2732::RESERVED, "reserved"),
            (rfc2396::MARK, "mark"),
            (CONTROL, "control"),
            (SPACE, "space"),
        ],
        Spec::Rfc3986 | Spec::Whatwg => &[
            (rfc3986::GEN_DELIMS, "gen-delims"),
            (rfc3986::SUB_DELIMS, "sub-delims"),
        ],
    };
    if byte >= 0x80 {
        return Some(if matches!(spec, Spec::Draft96 | Spec::Draft96Dec) {
            "national"
        } else {
            "non-ASCII"
        });
    }
    if matches!(
        spec,
        Spec::Rfc1630
            | Spec::Draft04
            | Spec::Rfc1808
            | Spec::Rfc3986
            | Spec::Whatwg
    ) && (CONTROL.contains(byte) || byte == b' ')
    {
        if spec == Spec::Rfc1630 && byte == b' ' {
            return Some("reserved");
        }
        return Some("control or space");
    }
    table.iter().find(|(class, _)| class.contains(byte)).map(|&(_, name)| name)
}

struct Names {
    segment: &'static str,
    first_segment: &'static str,
    param: &'static str,
    query: &'static str,
    fragment: &'static str,
}

fn names(spec: Spec) -> Names {
    match spec {
        Spec::Rfc1630 => Names {
            segment: "xpalphas",
            first_segment: "xpalphas",
            param: "xpalphas",
            query: "search",
            fragment: "fragmentid",
        },
        Spec::Draft04 | Spec::Rfc1808 => Names {
            segment: "pchar",
            first_segment: "pchar",
            param: "param",
            query: "query",
            fragment: "fragment",
        },
        Spec::Draft96 | Spec::Draft96Dec => Names {
            segment: "pchar",
            first_segment: "pchar",
            param: "param",
            query: "urlchar",
            fragment: "urlchar",
        },
        Spec::Rfc2396 => Names {
            segment: "pchar",
            first_segment: "rel_segment",
            param: "param",
            query: "uric",
            fragment: "uric",
        },
        Spec::Rfc3986 | Spec::Whatwg => Names {
            segment: "pchar",
            first_segment: "segment-nz-nc",
            param: "pchar",
            query: "query",
            fragment: "fragment",
        },
    }
}

/// `is_valid()` from what the splitter noted ([`Meta::fits`](super::Meta)),
/// when that settles it; `None` when only [`check`] can tell.
///
/// Each test below mirrors one part of [`check`]. The class flags of the
/// path, params, query and fragment are exactly the classes [`check`]
/// applies to them (the cases where they are not are left to [`check`]),
/// and a byte outside its class that is not `%` is always reported, so a
/// missing flag settles the answer either way.
#[inline]
pub(crate) fn quick(r: &Reference<'_>) -> Option<bool> {
    // The common case in one test: an absolute URL with a `//` net_loc
    // that is a plain registered name (or RFC 1808's opaque net_loc), every
    // component in its class and no `%`, under a spec whose other checks
    // (below) cannot apply to such a URL unless its path starts with `//`.
    const PLAIN: u16 = AUTH | TAIL_CLASSES | NO_PCT | NOT_SLASHES;
    let m = r.meta();
    if m.fits & PLAIN == PLAIN
        && m.scheme_end != NONE
        && m.net_loc_start != NONE
        && matches!(r.spec(), Spec::Rfc1808 | Spec::Draft04 | Spec::Rfc3986)
    {
        return Some(true);
    }
    quick_rest(r)
}

/// [`quick`] for every other reference.
#[inline(never)]
fn quick_rest(r: &Reference<'_>) -> Option<bool> {
    let spec = r.spec();
    let rules = spec.rules();
    let m = r.meta();
    let input = r.as_str().as_bytes();
    let path = &input[m.path_start..m.path_end];
    let rooted = path.first() == Some(&b'/');
    let opaque_2396 = rules.server == ServerGrammar::Server2396
        && m.scheme_end != NONE
        && m.net_loc_start == NONE
        && !rooted;
    let relative_first = m.scheme_end == NONE && m.net_loc_start == NONE;
    let g = &rules.grammar;
    if spec == Spec::Whatwg
        || opaque_2396
        || (relative_first && g.first_segment.with(b':') != g.segment)
    {
        // Classes of their own: RFC 2396's opaque part, and a first
        // segment of a relative path whose class differs from the path's
        // (no spec has one today).
        return None;
    }
    // The splitter ANDs the whole word in which the net_loc and the path
    // end (`table::scan`), and the path's flags may include the net_loc's
    // bytes, so these two class flags may have been cleared by bytes of
    // other components: look at such a component again on its own.
    let t = table::of(spec);
    let mut fits = m.fits;
    // (The net_loc's flag is looked at again where it is used, below.)
    if fits & SEGMENT == 0
        && !table::spill_exact(spec)
        && table::classes(path, t) & SEGMENT != 0
    {
        fits |= SEGMENT;
    }
    if fits & TAIL_CLASSES != TAIL_CLASSES {
        return Some(false);
    }
    // Every `%` starts an escape (components end at delimiters, which are
    // not hex digits, so no escape straddles two).
    if fits & NO_PCT == 0 && !escapes_valid(input) {
        return None;
    }
    // The first segment of a relative path: no `:` where it would read as
    // a scheme (AS12).
    if relative_first && rules.scheme == SchemeRule::LetterFirst {
        let first = &path[..memchr::memchr(b'/', path).unwrap_or(path.len())];
        if first.contains(&b':') {
            return Some(false);
        }
    }
    // `fsegment = 1*pchar`: no path starting with an empty segment.
    if matches!(
        rules.server,
        ServerGrammar::OpaqueNetLoc | ServerGrammar::Server96
    ) && path.starts_with(b"//")
    {
        return Some(false);
    }
    // RFC 1630 has no empty `search`.
    if spec == Spec::Rfc1630 && m.query_start != NONE && r.query() == Some("")
    {
        return Some(false);
    }
    if m.net_loc_start != NONE
        && fits & AUTH == 0
        && table::classes(&input[m.net_loc_start..m.path_start], t) & AUTH == 0
    {
        // RFC 1808's opaque net_loc has its class checked; another
        // authority that is not a plain registered name gets the server
        // check, which is exact.
        return Some(
            rules.server != ServerGrammar::OpaqueNetLoc
                && r.server().is_some_and(|s| s.is_valid()),
        );
    }
    Some(true)
}

/// Whether every `%` of `b` starts an escape.
fn escapes_valid(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'%', &b[i..]) {
        if !is_escape_at(b, i + k) {
            return false;
        }
        i += k + 3;
    }
    true
}

/// Runs every check of `r`'s spec, in input order.
pub(crate) fn check(r: &Reference<'_>, sink: &mut Sink<'_>) {
    let spec = r.spec();
    let rules = spec.rules();
    let g = &rules.grammar;
    let n = names(spec);
    let m = *r.meta();
    let input = r.as_str();
    let mut c = Checker::new(spec, sink);
    if spec == Spec::Whatwg {
        let relative = m.scheme_end == NONE;
        if let Err(f) = crate::whatwg::check(input, relative) {
            c.report(f.position, "URL", ViolationKind::NotAWhatwgUrl);
        }
        return;
    }

    // A prefix that the regular expression of RFC 2396/3986 Appendix B
    // would take for a scheme, but the scheme rule rejects (AS12).
    if m.scheme_end == NONE && rules.scheme == SchemeRule::LetterFirst {
        let end = m.path_end;
        let first = &input.as_bytes()[m.path_start..end];
        if m.net_loc_start == NONE && !first.starts_with(b"/") {
            let seg_end =
                first.iter().position(|&b| b == b'/').unwrap_or(first.len());
            if let Some(colon) =
                first[..seg_end].iter().position(|&b| b == b':')
            {
                c.report(
                    m.path_start + colon,
                    n.first_segment,
                    ViolationKind::ColonInFirstSegment,
                );
            }
        }
    }

    if m.net_loc_start != NONE {
        if rules.server == ServerGrammar::OpaqueNetLoc {
            // RFC 1808 and draft 04 keep the net_loc opaque.
            let range = m.net_loc_start..m.path_start;
            c.chars(input, range, g.net_loc, true, "net_loc", "net_loc");
        } else if let Some(server) = r.server() {
            server.check(&mut c);
        }
    }

    // The path.
    let opaque_2396 = rules.server == ServerGrammar::Server2396
        && m.scheme_end != NONE
        && m.net_loc_start == NONE
        && !r.path_is_absolute();
    if opaque_2396 {
        if r.path().is_empty() && m.query_start == NONE {
            c.report(
                m.scheme_end,
                "opaque_part",
                ViolationKind::EmptyAfterScheme,
            );
        }
        let end =
            if m.query_start == NONE { m.path_end } else { m.query_start };
        c.chars(
            input,
            m.path_start..end,
            g.opaque,
            true,
            "uric",
            "opaque part",
        );
    } else {
        let relative_first = m.scheme_end == NONE && m.net_loc_start == NONE;
        let path = r.path().as_bytes();
        let seeds_fsegment = matches!(
            rules.server,
            ServerGrammar::OpaqueNetLoc | ServerGrammar::Server96
        );
        if seeds_fsegment && path.starts_with(b"//") {
            c.report(
                m.path_start + 1,
                "fsegment",
                ViolationKind::EmptySegment,
            );
        }
        // The first segment of a relative path may be narrower (no `:` in
        // RFC 2396 `rel_segment` and RFC 3986 `segment-nz-nc`; that case
        // was reported above with its reason, so `:` passes here).
        let mut from = m.path_start;
        if relative_first && g.first_segment != g.segment {
            let seg_end = memchr::memchr(b'/', path)
                .map_or(m.path_end, |k| m.path_start + k);
            let class = g.first_segment.with(b':');
            c.chars(
                input,
                m.path_start..seg_end,
                class,
                true,
                n.first_segment,
                "path",
            );
            from = seg_end;
        }
        // The other segments, with the `/` between them.
        let class = g.segment.with(b'/');
        c.chars(input, from..m.path_end, class, true, n.segment, "path");
    }

    if let Some(params) = r.params() {
        // `params = param *( ";" param )`
        let start = m.params_start + 1;
        let class = g.param.with(b';');
        let range = start..start + params.len();
        c.chars(input, range, class, true, n.param, "params");
    }
    if let Some(q) = r.query() {
        if !opaque_2396 {
            let start = m.query_start + 1;
            if spec == Spec::Rfc1630 && q.is_empty() {
                c.report(
                    start,
                    n.query,
                    ViolationKind::Empty { component: "search" },
                );
            }
            c.chars(
                input,
                start..start + q.len(),
                g.query,
                true,
                n.query,
                "query",
            );
        } else {
            let start = m.query_start;
            c.chars(
                input,
                start..start + q.len() + 1,
                g.opaque,
                true,
                "uric",
                "opaque part",
            );
        }
    }
    if let Some(f) = r.fragment() {
        let start = m.fragment_start + 1;
        c.chars(
            input,
            start..start + f.len(),
            g.fragment,
            true,
            n.fragment,
            "fragment",
        );
    }
}
