//! Why a reference could not be resolved.

use alloc::string::String;
use core::fmt;

use crate::spec::Spec;
use crate::violation::Violation;
use crate::whatwg::Failure;

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
    /// The reference breaks the spec's grammar (strict mode): its first
    /// violation.
    InvalidReference(Violation),
    /// The URL Standard's basic URL parser failed on the reference, or on
    /// the base ([`Failure::in_base`]), under [`Spec::Whatwg`].
    Whatwg(Failure),
    /// `..` would climb above the root (RFC 2396 step 6g, `Error` option).
    DotDotAboveRoot,
}

impl ResolveError {
    /// A short name for the kind of error (`NoBase`, `BaseNotAbsolute`, …).
    /// A WHATWG failure is an `InvalidReference` too: the reference is
    /// not one the Standard's grammar admits.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ResolveError::NoBase => "NoBase",
            ResolveError::BaseNotAbsolute => "BaseNotAbsolute",
            ResolveError::BaseNotHierarchical { .. } => "BaseNotHierarchical",
            ResolveError::InvalidReference(_) | ResolveError::Whatwg(_) => {
                "InvalidReference"
            }
            ResolveError::DotDotAboveRoot => "DotDotAboveRoot",
        }
    }

    /// The byte position in the reference of an invalid reference (0 when
    /// the WHATWG parser failed on the base); `None` for the other errors.
    ///
    /// ```
    /// use urlspec::resolve::{Options, ResolveError, Resolver};
    /// use urlspec::Spec;
    /// let strict = Resolver::with_options("http://a/", Spec::Rfc3986, Options::default().strict(true));
    /// let e = strict.resolve("g h").unwrap_err();
    /// let ResolveError::InvalidReference(v) = &e else { panic!("{e:?}") };
    /// assert_eq!((v.position, e.position()), (1, Some(1)));
    /// assert_eq!(e.to_string(), format!("invalid reference at byte 1: {v}"));
    /// ```
    #[must_use]
    pub fn position(&self) -> Option<usize> {
        match self {
            ResolveError::InvalidReference(v) => Some(v.position),
            ResolveError::Whatwg(f) => {
                Some(if f.in_base { 0 } else { f.position })
            }
            _ => None,
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
            ResolveError::InvalidReference(v) => {
                write!(f, "invalid reference at byte {}: {v}", v.position)
            }
            ResolveError::Whatwg(failure) => {
                let at = self.position().unwrap_or(0);
                write!(f, "invalid reference at byte {at}: {}", failure.reason())
            }
            ResolveError::DotDotAboveRoot => {
                f.write_str("`..` would climb above the root of the path")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ResolveError {}
