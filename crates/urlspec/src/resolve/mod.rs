//! Resolving a relative reference against a base URL, as each document
//! defines it, and the inverse, [`make_relative`].
//!
//! One module per document, each opening with that document's steps:
//!
//! | module | specs | algorithm |
//! |---|---|---|
//! | `rfc1630` | [`Spec::Rfc1630`] | partial forms: the consecutive-slash rule, then rule .3/.4, made deterministic by docs/readings.md#rfc1630-partial |
//! | `rfc1808` | [`Spec::Rfc1808`], [`Spec::Draft04`] | RFC 1808 §4 steps 1–7 (draft 04 lets `..` cancel `..`) |
//! | `draft96` | [`Spec::Draft96`], [`Spec::Draft96Dec`] | 1808's steps with the "current document" step 2a |
//! | `rfc2396` | [`Spec::Rfc2396`] | RFC 2396 §5.2 steps 1–7 |
//! | `rfc3986` | [`Spec::Rfc3986`] | RFC 3986 §5.2.1–5.2.4 |
//!
//! Every result is built in one buffer, allocated once; dot segments are
//! handled with a stack over that buffer, so resolution is linear in its
//! input.
//!
//! ```
//! use urlspec::{resolve::resolve, Spec};
//!
//! let base = "http://a/b/c/d;p?q";
//! assert_eq!(resolve(base, "../../../g", Spec::Rfc1808).unwrap().href, "http://a/../g");
//! assert_eq!(resolve(base, "../../../g", Spec::Rfc3986).unwrap().href, "http://a/g");
//! assert_eq!(resolve(base, ";x", Spec::Rfc1808).unwrap().href, "http://a/b/c/d;x");
//! assert_eq!(resolve(base, ";x", Spec::Rfc2396).unwrap().href, "http://a/b/c/;x");
//! ```

mod draft96;
mod fast;
pub(crate) mod path;
mod relative;
mod reread;
mod rfc1630;
mod rfc1808;
mod rfc2396;
mod rfc3986;
pub(crate) mod scan;

use alloc::string::String;
use core::fmt;

pub use path::DotDotAboveRoot;
pub use relative::{make_relative, make_relative_with};
pub use reread::Note;
pub(crate) use reread::{path_written, Shape};

use crate::reference::{Reference, NONE};
use crate::spec::{Algorithm, Spec};

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

/// Gives an option enum its command-line names, `name()` and `FromStr`.
macro_rules! option_names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// The value's name on the command line and in data files.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl core::str::FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<$ty, String> {
                let key = s.replace('-', "_");
                match key.as_str() {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(alloc::format!(
                        "unknown value `{s}`; expected one of: {}",
                        [$($name),+].join(", ")
                    )),
                }
            }
        }
    };
}

option_names!(DotDotAboveRoot { Keep => "keep", Remove => "remove", Error => "error" });
option_names!(Rfc1630Dots { Literal => "literal", Like1808 => "like1808" });
option_names!(RootlessDots { Literal => "literal", KeepRootless => "keep_rootless" });

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
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Refuse invalid references, absent bases and bases the spec calls
    /// unsuitable (RFC 1808 §2.3, RFC 2396 §5) instead of resolving them
    /// mechanically.
    pub strict: bool,
    /// The same-scheme "loophole" (`http:g` relative to an `http` base);
    /// `None` takes the spec's default (on for RFC 1630 only).
    pub same_scheme_is_relative: Option<bool>,
    /// RFC 2396 step 6g.
    pub dotdot_above_root: DotDotAboveRoot,
    /// RFC 2396 with a base that has an authority and an empty path: take
    /// the path as `/` (`http://a` + `g` gives `http://a/g`, not
    /// `http://ag`).
    pub fix_pathless_base: bool,
    /// RFC 1630 rule .4.
    pub rfc1630_dots: Rfc1630Dots,
    /// RFC 3986 `remove_dot_segments` on rootless paths.
    pub rootless_dots: RootlessDots,
    /// Write `/.` before a result's path that starts with `//` when there
    /// is no authority, as the WHATWG URL Standard's serializer does, so
    /// that the path is not read back as an authority (`f:/a` and `.//g`
    /// under RFC 3986: `f:/.//g` instead of `f://g`). Off: the text's own
    /// answer, with [`Note::PathReadAsAuthority`].
    pub path_guard: bool,
}

impl Options {
    /// Sets [`Options::strict`].
    pub fn strict(mut self, on: bool) -> Options {
        self.strict = on;
        self
    }

    /// Sets [`Options::same_scheme_is_relative`].
    pub fn same_scheme_is_relative(mut self, on: bool) -> Options {
        self.same_scheme_is_relative = Some(on);
        self
    }

    /// Sets [`Options::dotdot_above_root`].
    pub fn dotdot_above_root(mut self, what: DotDotAboveRoot) -> Options {
        self.dotdot_above_root = what;
        self
    }

    /// Sets [`Options::fix_pathless_base`].
    pub fn fix_pathless_base(mut self, on: bool) -> Options {
        self.fix_pathless_base = on;
        self
    }

    /// Sets [`Options::rfc1630_dots`].
    pub fn rfc1630_dots(mut self, how: Rfc1630Dots) -> Options {
        self.rfc1630_dots = how;
        self
    }

    /// Sets [`Options::rootless_dots`].
    pub fn rootless_dots(mut self, how: RootlessDots) -> Options {
        self.rootless_dots = how;
        self
    }

    /// Sets [`Options::path_guard`].
    pub fn path_guard(mut self, on: bool) -> Options {
        self.path_guard = on;
        self
    }

    pub(crate) fn loophole(&self, spec: Spec) -> bool {
        self.same_scheme_is_relative
            .unwrap_or(spec.rules().same_scheme_is_relative)
    }
}

/// Why a reference could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// A relative reference and no base (strict RFC 1808 step 1, RFC 2396
    /// and RFC 3986).
    NoBase,
    /// The base has no scheme, so it cannot serve as a base.
    BaseNotAbsolute,
    /// The base's scheme or form does not admit relative references (strict
    /// mode: RFC 1808 §2.3, RFC 2396 §5).
    BaseNotHierarchical {
        /// The base's scheme.
        scheme: String,
        /// The spec that forbids it.
        spec: Spec,
    },
    /// The reference breaks the spec's grammar (strict mode).
    InvalidReference {
        /// The first violation, as text.
        reason: String,
        /// Its byte position in the reference.
        position: usize,
    },
    /// `..` would climb above the root (RFC 2396 step 6g, `Error` option).
    DotDotAboveRoot,
}

impl ResolveError {
    /// A short name for the kind of error (`NoBase`, `BaseNotAbsolute`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            ResolveError::NoBase => "NoBase",
            ResolveError::BaseNotAbsolute => "BaseNotAbsolute",
            ResolveError::BaseNotHierarchical { .. } => "BaseNotHierarchical",
            ResolveError::InvalidReference { .. } => "InvalidReference",
            ResolveError::DotDotAboveRoot => "DotDotAboveRoot",
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoBase => {
                f.write_str("a relative reference needs a base URL, and none is known")
            }
            ResolveError::BaseNotAbsolute => {
                f.write_str("the base URL has no scheme, so it cannot serve as a base")
            }
            ResolveError::BaseNotHierarchical { scheme, spec } => write!(
                f,
                "`{scheme}:` URLs cannot be the base of relative references under {spec}"
            ),
            ResolveError::InvalidReference { reason, position } => {
                write!(f, "invalid reference at byte {position}: {reason}")
            }
            ResolveError::DotDotAboveRoot => {
                f.write_str("`..` would climb above the root of the path")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ResolveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_into_appends_what_resolve_gives() {
        let mut refs = crate::reference::tests::samples();
        refs.extend(
            ["", "#", "?", "//x", "/", "../../..", "a:b"].map(String::from),
        );
        for spec in Spec::ALL {
            for base in BASES.iter().copied().chain([""]) {
                for r in &refs {
                    let mut out = String::from("kept|");
                    let got = resolve_into(base, r, spec, &mut out);
                    match resolve(base, r, spec) {
                        Ok(want) => {
                            assert_eq!(
                                out,
                                alloc::format!("kept|{}", want.href)
                            );
                            let got = got.unwrap();
                            assert_eq!(
                                (
                                    got.same_document,
                                    got.taken_as_absolute,
                                    got.note
                                ),
                                (
                                    want.same_document,
                                    want.taken_as_absolute,
                                    want.note
                                )
                            );
                        }
                        Err(e) => {
                            assert_eq!(out, "kept|", "{spec} {base:?} {r:?}");
                            assert_eq!(got, Err(e));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn option_names_round_trip() {
        for v in [
            DotDotAboveRoot::Keep,
            DotDotAboveRoot::Remove,
            DotDotAboveRoot::Error,
        ] {
            assert_eq!(v.name().parse(), Ok(v));
        }
        assert_eq!("keep-rootless".parse(), Ok(RootlessDots::KeepRootless));
        assert_eq!("like1808".parse(), Ok(Rfc1630Dots::Like1808));
        assert!("nope"
            .parse::<DotDotAboveRoot>()
            .unwrap_err()
            .contains("keep, remove, error"));
    }

    /// Bases of every shape, for the tests that compare a shortcut with
    /// the algorithm's steps (here and in `fast`).
    pub(super) const BASES: &[&str] = &[
        "http://a/b/c/d;p?q",
        "http://a/b/c/d;p?q#f",
        "http://a",
        "http://a/",
        "http://a?q",
        "http://a#f",
        "http://a?x/y/z",
        "http://a/b/./c/",
        "http://a/b/../c",
        "http://a/.b/c",
        "http://a/b/.",
        "http://a//b//c",
        "ftp://u:p@h:21/x/y?z#w",
        "file:///a/b",
        "mailto:a@b",
        "a:b",
        "foo:a/b/c",
        "foo:",
        "g:h/../i",
        "//a/b",
        "/a/b",
        "1x:/a/b",
        "http://[::1]:8/x/y?z",
        "HTTP://A/B",
        "http://a/b;p",
        "http://a/b;?#",
        "http://a/b;p?",
        "http://a/b?",
        "http://a/b#",
        "http://a/b/c;p?q#",
        "http://a/b;x/c;y/d?q",
        "http://a/ü/b?é#ö",
        "",
    ];

    #[test]
    fn plans_agree_with_the_steps() {
        // The shortcut of `resolve` (a `Plan`) against the algorithm's
        // steps, on every sample reference and bases of every shape.
        let options = [
            Options::default(),
            Options::default().same_scheme_is_relative(true),
            Options::default().rootless_dots(RootlessDots::KeepRootless),
        ];
        let specs = [Spec::Rfc3986, Spec::Rfc1808, Spec::Draft04];
        for (base, opts, spec) in BASES.iter().flat_map(|&b| {
            options.into_iter().flat_map(move |o| specs.map(|s| (b, o, s)))
        }) {
            {
                let resolver = Resolver::with_options(base, spec, opts);
                for r in crate::reference::tests::samples() {
                    let parsed = Reference::parse_with(&r, spec);
                    let mut href = String::new();
                    let want = resolver
                        .resolve_general(&parsed, &mut href)
                        .map(|o| (href, o.same_document, o.taken_as_absolute));
                    let got = resolver.resolve(&r).map(|x| {
                        (x.href, x.same_document, x.taken_as_absolute)
                    });
                    assert_eq!(got, want, "{spec} {base:?} {r:?} {opts:?}");
                }
            }
        }
    }

    #[test]
    fn rfc1630_slash_fallback_keeps_the_contexts_scheme() {
        // No run of one slash in the context: RFC 1808's steps, but on the
        // RFC 1630 reading of the context, whose scheme `JJ'` RFC 1808
        // would not recognise (found by fuzzing).
        let out = resolve("JJ':.", "/.", Spec::Rfc1630).unwrap();
        assert_eq!(out.href, "JJ':/.");
    }

    #[test]
    fn loophole_is_an_option_under_every_spec() {
        // RFC 1808 §5.2: "some older parsers" take `http:g` as relative.
        let on = Options::default().same_scheme_is_relative(true);
        for spec in Spec::ALL {
            let r = Resolver::with_options("http://a/b/c/d;p?q", spec, on);
            assert_eq!(
                r.resolve("http:g").unwrap().href,
                "http://a/b/c/g",
                "{spec}"
            );
            let off = Resolver::new("http://a/b/c/d;p?q", spec);
            let want = if spec == Spec::Rfc1630 {
                "http://a/b/c/g"
            } else {
                "http:g"
            };
            assert_eq!(off.resolve("http:g").unwrap().href, want, "{spec}");
        }
        // A long run of `http:` is stripped in a loop, not by recursion.
        let many = "http:".repeat(100_000) + "g";
        let r = Resolver::with_options("http://a/b", Spec::Rfc1808, on);
        assert_eq!(r.resolve(&many).unwrap().href, "http://a/g");
    }
}

/// Facts about a resolution besides the resulting string.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// The reference is to the current document: its target without
    /// fragment is the base without fragment (normative in the 1996 drafts
    /// and RFC 2396; a user agent need not retrieve again).
    pub same_document: bool,
    /// There was no base, and the reference was taken as an absolute URL
    /// (RFC 1808 step 1).
    pub taken_as_absolute: bool,
    /// The result reads back with other components than the algorithm
    /// produced, or [`Options::path_guard`] prevented that.
    pub note: Option<Note>,
    /// The components the general algorithm produced (`None` on the
    /// shortcuts, whose results always read back as they were made).
    pub(crate) shape: Option<Shape>,
}

impl PartialEq for Outcome {
    /// The facts, not how they were found.
    fn eq(&self, other: &Outcome) -> bool {
        (self.same_document, self.taken_as_absolute, self.note)
            == (other.same_document, other.taken_as_absolute, other.note)
    }
}

impl Eq for Outcome {}

impl Outcome {
    /// An outcome of the general algorithm with the components it wrote.
    pub(crate) fn written(
        same_document: bool,
        (note, shape): (Option<Note>, Shape),
    ) -> Outcome {
        Outcome {
            same_document,
            taken_as_absolute: false,
            note,
            shape: Some(shape),
        }
    }
}

/// A resolved reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute result.
    pub href: String,
    /// The reference denotes the current document.
    pub same_document: bool,
    /// There was no base; the reference was taken as absolute.
    pub taken_as_absolute: bool,
    /// The result reads back with other components than the algorithm
    /// produced (see [`Note`]).
    pub note: Option<Note>,
}

/// Resolves `reference` against `base` under `spec` with default options.
/// An empty `base` means no base is known.
///
/// ```
/// use urlspec::{resolve::resolve, Spec};
/// let r = resolve("http://a/b/c/d;p?q#f", "", Spec::Rfc1808).unwrap();
/// assert_eq!(r.href, "http://a/b/c/d;p?q#f"); // S2a: the entire base
/// let r = resolve("http://a/b/c/d;p?q#f", "", Spec::Draft96).unwrap();
/// assert_eq!((r.href.as_str(), r.same_document), ("http://a/b/c/d;p?q", true));
/// ```
///
/// Under RFC 3986, RFC 1808 and draft 04 the common cases take a fast path
/// that reads only the delimiters they need of base and reference (no
/// full parse of either), as [`Resolver`] does with default options.
pub fn resolve(
    base: &str,
    reference: &str,
    spec: Spec,
) -> Result<Resolved, ResolveError> {
    if let Some(plan) = fast::plan(base, reference, spec) {
        return Ok(plan.resolved());
    }
    Resolver::new(base, spec).resolve_slow(reference)
}

/// [`resolve`], appending the result to `out` (which a batch can reuse, so
/// that a result costs no allocation of its own). On error `out` is left
/// as it was.
///
/// ```
/// use urlspec::{resolve::resolve_into, Spec};
/// let mut out = String::new();
/// for (base, r) in [("http://a/b/c/d;p?q", "g"), ("http://x/y", "../z")] {
///     out.clear();
///     resolve_into(base, r, Spec::Rfc3986, &mut out).unwrap();
///     println!("{out}");
/// }
/// assert_eq!(out, "http://x/z");
/// ```
pub fn resolve_into(
    base: &str,
    reference: &str,
    spec: Spec,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    if let Some(plan) = fast::plan(base, reference, spec) {
        return Ok(plan.append(out));
    }
    Resolver::new(base, spec).resolve_into(reference, out)
}

/// The components of a result as an algorithm produced them: whether it
/// wrote an authority, and the byte range of the path in the result.
#[doc(hidden)]
pub type Produced = (bool, core::ops::Range<usize>);

/// The general algorithm's result for one reference (no shortcut), its
/// note, and the components it produced (`None` under [`Spec::Whatwg`]),
/// for the tests that compare them with the result read again. Not part of
/// the API.
#[doc(hidden)]
pub fn produced(
    base: &str,
    reference: &str,
    spec: Spec,
    options: Options,
) -> Result<(String, Option<Note>, Option<Produced>), ResolveError> {
    let resolver = Resolver::with_options(base, spec, options);
    let r = Reference::parse_with(reference, spec);
    let mut out = String::new();
    let o = resolver.resolve_general(&r, &mut out)?;
    let shape = o.shape.map(|s| (s.authority, s.path.0..s.path.1));
    Ok((out, o.note, shape))
}

/// A base URL parsed once, for resolving many references against it.
///
/// With default options under RFC 3986, RFC 1808 and draft 04, the fast
/// path of [`resolve`] reads the base's offsets from this parse and its
/// directory from a scan made here, so each reference costs a scan of the
/// reference alone. For one reference per base, [`resolve`] is cheaper: it
/// reads only the parts of the base its case needs.
///
/// ```
/// use urlspec::{resolve::Resolver, Spec};
/// let r = Resolver::new("http://a/b/c/d;p?q", Spec::Rfc3986);
/// let mut out = String::new();
/// for (rel, want) in [("g", "http://a/b/c/g"), ("?y", "http://a/b/c/d;p?y")] {
///     out.clear();
///     r.resolve_into(rel, &mut out).unwrap();
///     assert_eq!(out, want);
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Resolver<'b> {
    base: Option<Reference<'b>>,
    spec: Spec,
    options: Options,
    /// With a base, default options and a spec the fast path serves: the
    /// base's directory as the fast path takes it (`None` when it does
    /// not), found once. `None` when the fast path is off.
    fast: Option<Option<fast::Dir>>,
}

impl<'b> Resolver<'b> {
    /// A resolver for `base` under `spec` (an empty `base`: no base).
    pub fn new(base: &'b str, spec: Spec) -> Resolver<'b> {
        Resolver::with_options(base, spec, Options::default())
    }

    /// A resolver with options.
    pub fn with_options(
        base: &'b str,
        spec: Spec,
        options: Options,
    ) -> Resolver<'b> {
        let base =
            (!base.is_empty()).then(|| Reference::parse_with(base, spec));
        let fast = match &base {
            Some(b)
                if options == Options::default()
                    && fast::SERVED.contains(&spec) =>
            {
                Some(fast::Prepared::directory_of(b, spec))
            }
            _ => None,
        };
        Resolver { base, spec, options, fast }
    }

    /// The parsed base, if any.
    pub fn base(&self) -> Option<&Reference<'b>> {
        self.base.as_ref()
    }

    /// The spec.
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// Resolves `reference` into a new string, allocated once: with its
    /// exact length in the common cases (a prefix of the base and a suffix
    /// of the reference; with default options found as by [`resolve`],
    /// without parsing the reference), else with room for base and
    /// reference together.
    pub fn resolve(&self, reference: &str) -> Result<Resolved, ResolveError> {
        if let Some(plan) = self.fast(reference) {
            return Ok(plan.resolved());
        }
        self.resolve_slow(reference)
    }

    /// [`Resolver::resolve`] without the fast path: the reference parsed.
    fn resolve_slow(&self, reference: &str) -> Result<Resolved, ResolveError> {
        let r = Reference::parse_with(reference, self.spec);
        if let Some(plan) = self.plan(&r) {
            return Ok(plan.resolved());
        }
        let cap =
            reference.len() + self.base.map_or(0, |b| b.as_str().len()) + 1;
        let mut href = String::with_capacity(cap);
        let o = self.resolve_general(&r, &mut href)?;
        Ok(Resolved {
            href,
            same_document: o.same_document,
            taken_as_absolute: o.taken_as_absolute,
            note: o.note,
        })
    }

    /// Resolves `reference`, appending the result to `out` (which a batch
    /// can reuse). On error `out` is left as it was.
    pub fn resolve_into(
        &self,
        reference: &str,
        out: &mut String,
    ) -> Result<Outcome, ResolveError> {
        if let Some(plan) = self.fast(reference) {
            return Ok(plan.append(out));
        }
        let r = Reference::parse_with(reference, self.spec);
        let mark = out.len();
        let result = self.resolve_parsed(&r, out);
        if result.is_err() {
            out.truncate(mark);
        }
        result
    }

    /// Resolves an already parsed reference (it must be parsed under the
    /// resolver's spec).
    pub fn resolve_parsed(
        &self,
        r: &Reference<'_>,
        out: &mut String,
    ) -> Result<Outcome, ResolveError> {
        if let Some(plan) = self.plan(r) {
            return Ok(plan.append(out));
        }
        self.resolve_general(r, out)
    }

    /// [`resolve`]'s fast path, for the default options, with the base's
    /// offsets and directory read from what [`Resolver::new`] found: only
    /// the reference is scanned.
    #[inline]
    fn fast<'p>(&'p self, reference: &'p str) -> Option<Plan<'p>> {
        let (Some(dir), Some(base)) = (self.fast, self.base.as_ref()) else {
            return None;
        };
        let prepared = fast::Prepared { base, dir };
        fast::plan_with(prepared, reference, self.spec)
    }

    /// The result as slices of base and reference, when the spec's
    /// algorithm has such a shortcut and the case is a common one.
    fn plan<'p>(&'p self, r: &Reference<'p>) -> Option<Plan<'p>> {
        let base = self.base.as_ref()?;
        if self.options.strict {
            return None;
        }
        let opts = &self.options;
        match self.spec.rules().algorithm {
            Algorithm::Rfc3986 => rfc3986::plan(base, r, opts),
            Algorithm::Rfc1808 => rfc1808::plan(base, r, self.spec, opts),
            _ => None,
        }
    }

    /// Every case, step by step.
    fn resolve_general(
        &self,
        r: &Reference<'_>,
        out: &mut String,
    ) -> Result<Outcome, ResolveError> {
        let opts = &self.options;
        if opts.strict {
            if let Some(v) = r.violations().into_iter().next() {
                return Err(ResolveError::InvalidReference {
                    reason: alloc::string::ToString::to_string(&v),
                    position: v.position,
                });
            }
        }
        let Some(base) = &self.base else {
            return self.no_base(r, out);
        };
        if !base.has_scheme() && !r.has_scheme() {
            return Err(ResolveError::BaseNotAbsolute);
        }
        if opts.strict && r_needs_base(r) {
            check_base_suitable(base, self.spec)?;
        }
        match self.spec.rules().algorithm {
            Algorithm::Rfc1630 => rfc1630::resolve(base, r, opts, out),
            Algorithm::Rfc1808 => {
                rfc1808::resolve(base, r, self.spec, opts, out)
            }
            Algorithm::Draft96 => {
                draft96::resolve(base, r, self.spec, opts, out)
            }
            Algorithm::Rfc2396 => rfc2396::resolve(base, r, opts, out),
            Algorithm::Rfc3986 => rfc3986::resolve(base, r, opts, out),
            Algorithm::Whatwg => whatwg_resolve(Some(base), r, out),
        }
    }

    /// RFC 1808 step 1: "If the base URL is the empty string (unknown), the
    /// embedded URL is interpreted as an absolute URL and we are done."
    ///
    /// A reference with a scheme gets what its spec's algorithm gives it
    /// with any base, since that branch reads nothing of the base: itself
    /// under every spec but RFC 3986, whose 5.2.2 also removes the dot
    /// segments of its path.
    ///
    /// The URL Standard parses the reference with a null base.
    fn no_base(
        &self,
        r: &Reference<'_>,
        out: &mut String,
    ) -> Result<Outcome, ResolveError> {
        let algorithm = self.spec.rules().algorithm;
        if self.spec.rules().algorithm == Algorithm::Whatwg {
            return whatwg_resolve(None, r, out);
        }
        let seed = matches!(
            algorithm,
            Algorithm::Rfc1630 | Algorithm::Rfc1808 | Algorithm::Draft96
        );
        if r.has_scheme() {
            if algorithm == Algorithm::Rfc3986 {
                let written = rfc3986::absolute(r, &self.options, out);
                push_opt(out, '#', r.fragment());
                Ok(Outcome::written(false, written))
            } else {
                Ok(verbatim(r, out))
            }
        } else if seed && !self.options.strict {
            Ok(Outcome { taken_as_absolute: true, ..verbatim(r, out) })
        } else {
            Err(ResolveError::NoBase)
        }
    }
}

/// [`Spec::Whatwg`]: the basic URL parser with the base (a null base when
/// there is none); a failure is an invalid reference, at the byte the
/// parser names, but for a relative reference with no base: `NoBase`.
fn whatwg_resolve(
    base: Option<&Reference<'_>>,
    r: &Reference<'_>,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    use crate::whatwg::ValidationError::MissingSchemeNonRelativeUrl;
    let invalid = |e: crate::whatwg::Failure| match e.error {
        Some(MissingSchemeNonRelativeUrl) if base.is_none() => {
            ResolveError::NoBase
        }
        _ => ResolveError::InvalidReference {
            reason: e.reason(),
            position: if e.in_base { 0 } else { e.position },
        },
    };
    #[cfg(feature = "whatwg")]
    {
        use crate::whatwg::{Failure, Url};
        let base = base
            .map(|b| Url::parse(b.as_str()))
            .transpose()
            .map_err(|f| invalid(Failure { in_base: true, ..f }))?;
        let url = Url::options()
            .base(base.as_ref())
            .parse(r.as_str())
            .map_err(invalid)?;
        let same_document = base
            .is_some_and(|b| b.without_fragment() == url.without_fragment());
        out.push_str(url.as_str());
        Ok(Outcome { same_document, ..Outcome::default() })
    }
    #[cfg(not(feature = "whatwg"))]
    {
        let _ = (base, r, out);
        Err(invalid(crate::whatwg::Failure::unavailable()))
    }
}

/// A reference (or base) that is the result as it is: the components it
/// reads with are the ones produced.
pub(crate) fn verbatim(r: &Reference<'_>, out: &mut String) -> Outcome {
    out.push_str(r.as_str());
    Outcome { shape: Some(Shape::of(r)), ..Outcome::default() }
}

/// A resolution result as the concatenation of three slices of the base
/// and the reference, so that it can be written with its exact length
/// known in advance, in three copies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan<'a> {
    pub(crate) parts: [&'a str; 3],
    /// [`Outcome::same_document`].
    pub(crate) same_document: bool,
}

impl<'a> Plan<'a> {
    /// A plan whose `same_document` is RFC 2396/3986's: the result without
    /// its fragment is the base without its fragment. The last part must be
    /// a suffix of `r`, which holds `r`'s fragment.
    pub(crate) fn compared(
        parts: [&'a str; 3],
        base: &Reference<'_>,
        r: &Reference<'_>,
    ) -> Plan<'a> {
        let [head, mid, tail] = parts;
        // Lengths first, from the offsets: they differ for nearly every
        // reference.
        let without = |r: &Reference<'_>| match r.meta().fragment_start {
            NONE => r.as_str().len(),
            f => f,
        };
        let fragment = r.as_str().len() - without(r);
        let tail = &tail[..tail.len() - fragment];
        let n = without(base);
        let same_document = head.len() + mid.len() + tail.len() == n && {
            let b = &base.as_str()[..n];
            b.starts_with(head)
                && b[head.len()..].starts_with(mid)
                && b[head.len() + mid.len()..] == *tail
        };
        Plan { parts, same_document }
    }

    pub(crate) fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    /// Appends the result to `out`, reserving its length first.
    pub(crate) fn append(&self, out: &mut String) -> Outcome {
        out.reserve(self.len());
        for p in self.parts {
            out.push_str(p);
        }
        Outcome { same_document: self.same_document, ..Outcome::default() }
    }

    /// The result in a string of its exact length.
    #[inline]
    pub(crate) fn resolved(&self) -> Resolved {
        let [a, b, c] = self.parts;
        let mut href = String::with_capacity(a.len() + b.len() + c.len());
        href.push_str(a);
        // The fast path's results are mostly two parts.
        for p in [b, c] {
            if !p.is_empty() {
                href.push_str(p);
            }
        }
        Resolved {
            href,
            same_document: self.same_document,
            taken_as_absolute: false,
            note: None,
        }
    }
}

/// The base's directory for the plans of RFC 1808 and RFC 3986: the end of
/// its path up to and including its last `/`, when that directory is
/// rooted and has no dot segment (or the base has a net_loc and an empty
/// path, whose directory is the root); `NONE` otherwise.
pub(crate) fn clean_directory(base: &Reference<'_>) -> usize {
    let m = base.meta();
    let path = base.path();
    if path.is_empty() {
        return if m.net_loc_start == NONE { NONE } else { m.path_start };
    }
    let dir = path::directory(path).as_bytes();
    if dir.first() != Some(&b'/') || path::has_dot_segment(dir) {
        return NONE;
    }
    m.path_start + dir.len()
}

/// Whether both references have a scheme and the two are equal, ignoring
/// ASCII case (docs/readings.md#a15, docs/readings.md#as10).
pub(crate) fn same_scheme(base: &Reference<'_>, r: &Reference<'_>) -> bool {
    match (base.scheme(), r.scheme()) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    }
}

fn r_needs_base(r: &Reference<'_>) -> bool {
    !r.has_scheme()
}

/// Strict mode: the base must be one the spec lets relative references use.
fn check_base_suitable(
    base: &Reference<'_>,
    spec: Spec,
) -> Result<(), ResolveError> {
    let scheme = base.scheme().unwrap_or("");
    // RFC 1808 §2.3 (draft 04 §2.3): schemes "never used with relative
    // URLs"; the 1808 list serves RFC 1808 and the later seeds
    // (docs/readings.md#a19, docs/readings.md#a44), and RFC 1630, which has none of its own.
    let never: &[&str] = match spec {
        Spec::Draft04 => &["mailto", "telnet"],
        Spec::Rfc2396 | Spec::Rfc3986 | Spec::Whatwg => &[],
        _ => &["mailto", "telnet", "news"],
    };
    let unsuitable = never.iter().any(|s| s.eq_ignore_ascii_case(scheme))
        || match spec {
            Spec::Draft96 | Spec::Draft96Dec | Spec::Rfc2396 => {
                !base.is_generic()
            }
            _ => false,
        };
    if unsuitable {
        return Err(ResolveError::BaseNotHierarchical {
            scheme: scheme.into(),
            spec,
        });
    }
    Ok(())
}

/// Appends `scheme ":"` and, when present, `"//" net_loc`.
pub(crate) fn push_prefix(
    out: &mut String,
    scheme: &str,
    net_loc: Option<&str>,
) {
    out.push_str(scheme);
    out.push(':');
    if let Some(n) = net_loc {
        out.push_str("//");
        out.push_str(n);
    }
}

/// Appends `delim part` when `part` is present.
pub(crate) fn push_opt(out: &mut String, delim: char, part: Option<&str>) {
    if let Some(p) = part {
        out.push(delim);
        out.push_str(p);
    }
}

/// The reference with every leading `scheme:` equal to the base's removed,
/// when the same-scheme loophole is on (RFC 1808 §5.2 describes it as what
/// "some older parsers" do); otherwise the reference itself.
pub(crate) fn strip_same_scheme<'r>(
    base: &Reference<'_>,
    r: &Reference<'r>,
    spec: Spec,
    opts: &Options,
) -> Reference<'r> {
    if !(opts.loophole(spec) && same_scheme(base, r)) {
        return *r;
    }
    // Skip every repetition of `scheme:` in one pass, then parse once.
    let scheme = base.scheme().unwrap_or("").as_bytes();
    let input = r.as_str();
    let mut at = r.prefix().map_or(0, str::len);
    while input.len() > at + scheme.len()
        && input.as_bytes()[at..at + scheme.len()].eq_ignore_ascii_case(scheme)
        && input.as_bytes()[at + scheme.len()] == b':'
    {
        at += scheme.len() + 1;
    }
    Reference::parse_with(&input[at..], spec)
}

/// `base` without its fragment.
pub(crate) fn without_fragment<'a>(r: &Reference<'a>) -> &'a str {
    let s = r.as_str();
    match r.fragment() {
        Some(f) => &s[..s.len() - f.len() - 1],
        None => s,
    }
}

/// RFC 3986 §5.2.4 `remove_dot_segments`, on its own: the path without its
/// `.` and `..` segments, exactly as the RFC's steps 2A–2E write it.
///
/// ```
/// use urlspec::resolve::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    path::remove_dot_segments(path, &mut out);
    out
}
