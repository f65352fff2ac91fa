//! Why a reference could not be resolved.

use alloc::string::String;
use core::fmt;

use crate::spec::Spec;

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
