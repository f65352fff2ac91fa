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

mod error;
mod options;
mod pairs;
mod plan;
#[cfg(test)]
mod tests;
mod whatwg;

use alloc::string::String;

pub use error::ResolveError;
pub use options::{Options, Rfc1630Dots, RootlessDots};
pub use pairs::PairResolver;
pub use path::DotDotAboveRoot;
pub(crate) use plan::Plan;
pub use relative::{make_relative, make_relative_with};
pub use reread::Note;
pub(crate) use reread::{path_written, Shape};
use whatwg::whatwg_resolve;

use crate::reference::{validate, Reference, NONE};
use crate::spec::{Algorithm, Spec};

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

/// A resolved reference: the absolute result and the facts about it.
///
/// ```
/// use urlspec::{resolve::resolve, Spec};
/// let r = resolve("http://a/b/c/d;p?q", "../g#s", Spec::Rfc3986).unwrap();
/// assert_eq!(r.href, "http://a/b/g#s");
/// assert_eq!((r.fragment(), r.without_fragment()), (Some("s"), "http://a/b/g"));
/// assert!(!r.outcome.same_document);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute result.
    pub href: String,
    /// What else the resolution found (same document, taken as absolute,
    /// a note).
    pub outcome: Outcome,
}

impl Resolved {
    /// The byte position of the `#` that starts the result's fragment, if
    /// it has one. Under every spec the first `#` of a result is that
    /// delimiter: no component before the fragment may hold one (each is
    /// cut at the first `#` of base or reference, and the URL Standard
    /// escapes it elsewhere), so it is found without parsing the result
    /// again.
    #[must_use]
    pub fn fragment_start(&self) -> Option<usize> {
        memchr::memchr(b'#', self.href.as_bytes())
    }

    /// The result's fragment, without its `#`.
    #[must_use]
    pub fn fragment(&self) -> Option<&str> {
        self.fragment_start().map(|at| &self.href[at + 1..])
    }

    /// The result without its fragment: the URL of the resource, as a
    /// base is (RFC 3986 §5.1).
    #[must_use]
    pub fn without_fragment(&self) -> &str {
        &self.href[..self.fragment_start().unwrap_or(self.href.len())]
    }
}

/// Resolves `reference` against `base` under `spec` with default options.
/// An empty `base` means no base is known.
///
/// ```
/// use urlspec::{resolve::resolve, Spec};
/// let r = resolve("http://a/b/c/d;p?q#f", "", Spec::Rfc1808).unwrap();
/// assert_eq!(r.href, "http://a/b/c/d;p?q#f"); // S2a: the entire base
/// let r = resolve("http://a/b/c/d;p?q#f", "", Spec::Draft96).unwrap();
/// assert_eq!((r.href.as_str(), r.outcome.same_document), ("http://a/b/c/d;p?q", true));
/// ```
///
/// Under RFC 3986, RFC 1808 and draft 04 the common cases take a fast path
/// that reads only the delimiters they need of base and reference (no
/// full parse of either), as [`Resolver`] does with default options.
///
/// # Errors
///
/// The [`ResolveError`] of the spec's algorithm: [`NoBase`] for a relative
/// reference and an empty `base` where the spec has no RFC 1808 step 1
/// (RFC 2396, RFC 3986, and any spec with [`Options::strict`]);
/// [`BaseNotAbsolute`] for a base without a scheme; [`Whatwg`] under
/// [`Spec::Whatwg`] when the Standard's parser fails, its [`Failure`]
/// carrying the byte position (in the base when `in_base`). With
/// [`Options::strict`] also [`InvalidReference`], the reference's first
/// [`Violation`] with its byte position, and [`BaseNotHierarchical`] for a
/// base the spec does not resolve against; with
/// [`DotDotAboveRoot::Error`], [`DotDotAboveRoot`](ResolveError::DotDotAboveRoot)
/// for a `..` above the root. [`ResolveError::position`] gives the byte
/// position.
///
/// [`NoBase`]: ResolveError::NoBase
/// [`BaseNotAbsolute`]: ResolveError::BaseNotAbsolute
/// [`Whatwg`]: ResolveError::Whatwg
/// [`Failure`]: crate::whatwg::Failure
/// [`InvalidReference`]: ResolveError::InvalidReference
/// [`Violation`]: crate::Violation
/// [`BaseNotHierarchical`]: ResolveError::BaseNotHierarchical
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
///
/// # Errors
///
/// As [`resolve`].
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
#[must_use = "a resolver does nothing until it resolves"]
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
        let base = Reference::parse_with(base, spec);
        let fast = fast_path(&base, spec, options);
        Resolver::from_parts(base, spec, options, fast)
    }

    /// A resolver for a base parsed before, with [`fast_path`]'s answer for
    /// it (an empty base: no base).
    fn from_parts(
        base: Reference<'b>,
        spec: Spec,
        options: Options,
        fast: Option<Option<fast::Dir>>,
    ) -> Resolver<'b> {
        let base = (!base.as_str().is_empty()).then_some(base);
        Resolver { base, spec, options, fast }
    }

    /// The parsed base, if any.
    #[must_use]
    pub fn base(&self) -> Option<&Reference<'b>> {
        self.base.as_ref()
    }

    /// The spec.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// Resolves `reference` into a new string, allocated once: with its
    /// exact length in the common cases (a prefix of the base and a suffix
    /// of the reference; with default options found as by [`resolve`],
    /// without parsing the reference), else with room for base and
    /// reference together.
    ///
    /// # Errors
    ///
    /// As [`resolve`](fn@resolve), with the resolver's options.
    pub fn resolve(&self, reference: &str) -> Result<Resolved, ResolveError> {
        if let Some(plan) = self.fast(reference) {
            return Ok(plan.resolved());
        }
        self.resolve_slow(reference)
    }

    /// [`Resolver::resolve`] without the fast path: the reference parsed.
    fn resolve_slow(&self, reference: &str) -> Result<Resolved, ResolveError> {
        let r = Reference::parse_with(reference, self.spec);
        // Strict: an invalid reference is refused before any plan or
        // allocation (resolve_general would refuse it first too).
        if self.options.strict {
            if let Some(v) = r.first_violation() {
                return Err(ResolveError::InvalidReference(v));
            }
        }
        if let Some(plan) = self.plan(&r) {
            return Ok(plan.resolved());
        }
        let cap =
            reference.len() + self.base.map_or(0, |b| b.as_str().len()) + 1;
        let mut href = String::with_capacity(cap);
        let o = self.resolve_general(&r, &mut href)?;
        Ok(Resolved { href, outcome: o })
    }

    /// Resolves `reference`, appending the result to `out` (which a batch
    /// can reuse). On error `out` is left as it was.
    ///
    /// # Errors
    ///
    /// As [`resolve`](fn@resolve), with the resolver's options.
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
    ///
    /// # Errors
    ///
    /// As [`resolve`](fn@resolve), with the resolver's options.
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

    /// [`resolve`]'s fast path, for the default options (strict or not),
    /// with the base's offsets and directory read from what
    /// [`Resolver::new`] found: only the reference is scanned. Always
    /// inlined: as a call of its own (LLVM's choice once `resolve_general`
    /// grew) it returns its `Option<Plan>` through memory, a cost the
    /// callgrind counts of the resolve benchmark show.
    #[inline(always)]
    fn fast<'p>(&'p self, reference: &'p str) -> Option<Plan<'p>> {
        let (Some(dir), Some(base)) = (self.fast, self.base.as_ref()) else {
            return None;
        };
        if self.options.strict {
            return self.fast_strict(fast::Prepared { base, dir }, reference);
        }
        fast::plan_with(fast::Prepared { base, dir }, reference, self.spec)
    }

    /// The fast path of a strict resolver: taken for a reference that its
    /// bytes alone show valid; any other goes to the parse, which finds
    /// the error and its position.
    #[inline(never)]
    fn fast_strict<'p>(
        &self,
        base: fast::Prepared<'p>,
        reference: &'p str,
    ) -> Option<Plan<'p>> {
        let plan = fast::plan_with(base, reference, self.spec)?;
        validate::plain(reference, self.spec).then_some(plan)
    }

    /// The result as slices of base and reference, when the spec's
    /// algorithm has such a shortcut and the case is a common one.
    fn plan<'p>(&'p self, r: &Reference<'p>) -> Option<Plan<'p>> {
        let base = self.base.as_ref()?;
        // Strict: only where the general code would find no error.
        if self.options.strict
            && !(r.is_valid()
                && (r.has_scheme() || admits_relative(base, self.spec)))
        {
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
            if let Some(v) = r.first_violation() {
                return Err(ResolveError::InvalidReference(v));
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

/// What [`Resolver::fast`] needs of `base`: with default options, a base
/// and a spec the fast path serves, the base's directory as the fast path
/// takes it (`None` when it does not); `None` when the fast path is off.
fn fast_path(
    base: &Reference<'_>,
    spec: Spec,
    options: Options,
) -> Option<Option<fast::Dir>> {
    // Strict resolution takes the fast path too, for valid references
    // (`fast` checks them) against a base that admits relative ones.
    let lax = Options { strict: false, ..options };
    (!base.as_str().is_empty()
        && lax == Options::default()
        && fast::SERVED.contains(&spec)
        && (!options.strict || admits_relative(base, spec)))
    .then(|| fast::Prepared::directory_of(base, spec))
}

/// A reference (or base) that is the result as it is: the components it
/// reads with are the ones produced.
pub(crate) fn verbatim(r: &Reference<'_>, out: &mut String) -> Outcome {
    out.push_str(r.as_str());
    Outcome { shape: Some(Shape::of(r)), ..Outcome::default() }
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

/// Strict mode: whether `base` can serve a relative reference (it has a
/// scheme, which the spec lets relative references use).
fn admits_relative(base: &Reference<'_>, spec: Spec) -> bool {
    base.has_scheme() && check_base_suitable(base, spec).is_ok()
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
    let rules = spec.rules();
    let unsuitable =
        rules.never_base.iter().any(|s| s.eq_ignore_ascii_case(scheme))
            || (rules.base_must_be_generic && !base.is_generic());
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
#[must_use]
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    path::remove_dot_segments(path, &mut out);
    out
}
