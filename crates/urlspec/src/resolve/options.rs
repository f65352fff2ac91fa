//! The options of resolution: how far each algorithm is followed to the
//! letter, and the names of their values.

use super::DotDotAboveRoot;
use crate::names::option_names;
use crate::spec::Spec;

/// How RFC 1630's rule .4 removes dot segments (docs/readings.md#a11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rfc1630Dots {
    /// The literal reading (C6): `/.` first, then `xxx/../`; a final
    /// `xxx/..` stays and a final `/.` loses its slash.
    #[default]
    Literal,
    /// RFC 1808's step 6 instead.
    Like1808,
}

/// How RFC 3986's `remove_dot_segments` treats a path without a leading
/// `/` (docs/readings.md#as11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RootlessDots {
    /// The algorithm as printed: `g:h/../i` gives `g:/i`.
    #[default]
    Literal,
    /// Keep a rootless path rootless, as uriparser does: `g:i`.
    KeepRootless,
}

option_names!(DotDotAboveRoot, "value" { Keep => "keep", Remove => "remove", Error => "error" });
option_names!(Rfc1630Dots, "value" { Literal => "literal", Like1808 => "like1808" });
option_names!(RootlessDots, "value" { Literal => "literal", KeepRootless => "keep-rootless" });

/// Options of a resolution. Every option left at its default follows the
/// spec's text; [`Options::strict`] turns reported problems into errors.
///
/// ```
/// use urlspec::resolve::{Options, Resolver};
/// use urlspec::Spec;
///
/// let opts = Options::default().same_scheme_is_relative(true);
/// let r = Resolver::with_options("http://a/b/c/d;p?q", Spec::Rfc3986, opts);
/// assert_eq!(r.resolve("http:g").unwrap().href, "http://a/b/c/g");
/// // Read back: as set, `None` where the spec decides.
/// assert_eq!(opts.same_scheme_loophole(), Some(true));
/// assert!(!opts.is_strict() && !opts.has_path_guard());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub(crate) strict: bool,
    pub(crate) same_scheme_is_relative: Option<bool>,
    pub(crate) dotdot_above_root: DotDotAboveRoot,
    pub(crate) fix_pathless_base: bool,
    pub(crate) rfc1630_dots: Rfc1630Dots,
    pub(crate) rootless_dots: RootlessDots,
    pub(crate) path_guard: bool,
}

impl Options {
    /// Refuse invalid references, absent bases and bases the spec calls
    /// unsuitable (RFC 1808 §2.3, RFC 2396 §5) instead of resolving them
    /// mechanically.
    #[must_use]
    pub fn strict(mut self, on: bool) -> Options {
        self.strict = on;
        self
    }

    /// The same-scheme "loophole" (`http:g` relative to an `http` base).
    /// Default: the spec's (on for RFC 1630 only).
    #[must_use]
    pub fn same_scheme_is_relative(mut self, on: bool) -> Options {
        self.same_scheme_is_relative = Some(on);
        self
    }

    /// RFC 2396 step 6g.
    #[must_use]
    pub fn dotdot_above_root(mut self, what: DotDotAboveRoot) -> Options {
        self.dotdot_above_root = what;
        self
    }

    /// RFC 2396 with a base that has an authority and an empty path: take
    /// the path as `/` (`http://a` + `g` gives `http://a/g`, not
    /// `http://ag`).
    #[must_use]
    pub fn fix_pathless_base(mut self, on: bool) -> Options {
        self.fix_pathless_base = on;
        self
    }

    /// RFC 1630 rule .4.
    #[must_use]
    pub fn rfc1630_dots(mut self, how: Rfc1630Dots) -> Options {
        self.rfc1630_dots = how;
        self
    }

    /// RFC 3986 `remove_dot_segments` on rootless paths.
    #[must_use]
    pub fn rootless_dots(mut self, how: RootlessDots) -> Options {
        self.rootless_dots = how;
        self
    }

    /// Write `/.` before a result's path that starts with `//` when there
    /// is no authority, as the WHATWG URL Standard's serializer does, so
    /// that the path is not read back as an authority (`f:/a` and `.//g`
    /// under RFC 3986: `f:/.//g` instead of `f://g`). Off: the text's own
    /// answer, with [`Note::PathReadAsAuthority`](super::Note::PathReadAsAuthority).
    #[must_use]
    pub fn path_guard(mut self, on: bool) -> Options {
        self.path_guard = on;
        self
    }

    /// Whether problems are errors ([`strict`](Self::strict)).
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The same-scheme loophole as set; `None`: the spec's default
    /// ([`same_scheme_is_relative`](Self::same_scheme_is_relative)).
    #[must_use]
    pub fn same_scheme_loophole(&self) -> Option<bool> {
        self.same_scheme_is_relative
    }

    /// What `..` above the root does (RFC 2396 step 6g), as set
    /// ([`dotdot_above_root`](Self::dotdot_above_root)).
    #[must_use]
    pub fn above_root(&self) -> DotDotAboveRoot {
        self.dotdot_above_root
    }

    /// Whether a pathless base is read with the path `/`
    /// ([`fix_pathless_base`](Self::fix_pathless_base)).
    #[must_use]
    pub fn fixes_pathless_base(&self) -> bool {
        self.fix_pathless_base
    }

    /// How RFC 1630 rule .4 removes dot segments, as set
    /// ([`rfc1630_dots`](Self::rfc1630_dots)).
    #[must_use]
    pub fn rfc1630_dot_removal(&self) -> Rfc1630Dots {
        self.rfc1630_dots
    }

    /// How `remove_dot_segments` treats rootless paths, as set
    /// ([`rootless_dots`](Self::rootless_dots)).
    #[must_use]
    pub fn rootless_dot_removal(&self) -> RootlessDots {
        self.rootless_dots
    }

    /// Whether `/.` guards a path that starts with `//`
    /// ([`path_guard`](Self::path_guard)).
    #[must_use]
    pub fn has_path_guard(&self) -> bool {
        self.path_guard
    }

    pub(crate) fn loophole(&self, spec: Spec) -> bool {
        self.same_scheme_is_relative
            .unwrap_or(spec.rules().same_scheme_is_relative)
    }
}
