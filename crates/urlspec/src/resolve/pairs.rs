//! Resolving a stream of (base, reference) pairs, each base prepared once
//! while it repeats: the policy of every caller that reads pairs (a page's
//! links, `resolve --pairs`, the Python package's batches).

use alloc::string::String;
use core::mem;

use super::{fast, fast_path, resolve_into, Options, Outcome, Resolved};
use super::{ResolveError, Resolver};
use crate::reference::ReferenceBuf;
use crate::spec::Spec;

/// Resolves (base, reference) pairs, preparing a base only when a second
/// reference comes against it.
///
/// The first reference against a base takes the one-shot resolution
/// ([`resolve_into`](super::resolve_into)), which reads only what that
/// reference needs of the base; a second reference against the same base
/// parses it whole (as [`Resolver::new`] does), and that parse serves
/// every further reference until the base changes. One reference per base
/// costs no parse of the base; many cost one. Bases are compared as text,
/// so the caller need not tell when its base changes. With options other
/// than the default every base is prepared at once (the one-shot form
/// has the default options only).
///
/// ```
/// use urlspec::resolve::{Options, PairResolver, ResolveError};
/// use urlspec::Spec;
///
/// let mut pairs = PairResolver::new(Spec::Rfc3986, Options::default());
/// let mut out = String::new();
/// for (base, r) in [("http://a/b/c", "d"), ("http://a/b/c", "../e"), ("http://x/", "y")] {
///     pairs.resolve_into(base, r, &mut out).unwrap();
///     out.push(' ');
/// }
/// assert_eq!(out, "http://a/b/d http://a/e http://x/y ");
/// assert_eq!(pairs.resolve("", "g"), Err(ResolveError::NoBase));
/// ```
#[derive(Clone, Debug)]
#[must_use = "a resolver does nothing until it resolves"]
pub struct PairResolver {
    spec: Spec,
    options: Options,
    current: Current,
}

/// What [`PairResolver`] holds of the base of the previous pair.
#[derive(Clone, Debug)]
enum Current {
    /// No pair yet.
    Nothing,
    /// The base, which served one reference by the one-shot form.
    Once(String),
    /// The base parsed, and what [`Resolver::new`] finds for the fast path.
    Prepared { base: ReferenceBuf, fast: Option<Option<fast::Dir>> },
}

impl PairResolver {
    /// Resolves pairs under `spec` with `options`.
    pub fn new(spec: Spec, options: Options) -> PairResolver {
        PairResolver { spec, options, current: Current::Nothing }
    }

    /// The spec.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Resolves `reference` against `base` ("" for no base) into a new
    /// string, as [`Resolver::resolve`] does.
    ///
    /// # Errors
    ///
    /// As [`resolve`](super::resolve), with the resolver's options.
    pub fn resolve(
        &mut self,
        base: &str,
        reference: &str,
    ) -> Result<Resolved, ResolveError> {
        match self.prepared(base) {
            Some(resolver) => resolver.resolve(reference),
            None => super::resolve(base, reference, self.spec),
        }
    }

    /// Resolves `reference` against `base`, appending the result to `out`
    /// (left as it was on error), as [`Resolver::resolve_into`] does.
    ///
    /// # Errors
    ///
    /// As [`resolve`](super::resolve), with the resolver's options.
    pub fn resolve_into(
        &mut self,
        base: &str,
        reference: &str,
        out: &mut String,
    ) -> Result<Outcome, ResolveError> {
        match self.prepared(base) {
            Some(resolver) => resolver.resolve_into(reference, out),
            None => resolve_into(base, reference, self.spec, out),
        }
    }

    /// The resolver for a pair with `base`: `None` when the one-shot form
    /// serves it (a new base, with default options). Inlined: a repeated
    /// base, nearly every pair of a document's links, costs the compare
    /// and the resolver's fields, where a call returned the resolver
    /// through memory.
    #[inline]
    fn prepared(&mut self, base: &str) -> Option<Resolver<'_>> {
        let repeats = matches!(
            &self.current,
            Current::Prepared { base: b, .. } if b.as_str() == base
        );
        if !(repeats || self.renew(base)) {
            return None;
        }
        match &self.current {
            Current::Prepared { base, fast } => Some(Resolver::from_parts(
                base.as_reference(),
                self.spec,
                self.options,
                *fast,
            )),
            // Not reached: `renew` prepares it.
            Current::Nothing | Current::Once(_) => None,
        }
    }

    /// Takes `base`, which is not the prepared base, as the current one:
    /// prepared when it is the second pair's in a row, or at once with
    /// options other than the default. Whether it is prepared (else the
    /// one-shot form serves the pair).
    #[inline(never)]
    fn renew(&mut self, base: &str) -> bool {
        if !matches!(&self.current, Current::Once(text) if text == base) {
            // The previous base's allocation holds the new one.
            let mut text =
                match mem::replace(&mut self.current, Current::Nothing) {
                    Current::Nothing => String::new(),
                    Current::Once(text) => text,
                    Current::Prepared { base, .. } => base.into_string(),
                };
            text.clear();
            text.push_str(base);
            self.current = Current::Once(text);
            if self.options == Options::default() {
                return false;
            }
        }
        if let Current::Once(text) = &mut self.current {
            let base = ReferenceBuf::parse_with(mem::take(text), self.spec);
            let fast =
                fast_path(&base.as_reference(), self.spec, self.options);
            self.current = Current::Prepared { base, fast };
        }
        true
    }
}
