//! The names of option values on the command line and in data files, in
//! one spelling (kebab-case), read back by one rule, with one error for a
//! name that names no value.

use alloc::string::String;
use core::fmt;

/// A name that names no value of an option: what was given, and the
/// names that would have.
///
/// ```
/// use urlspec::resolve::RootlessDots;
/// let e = "keep".parse::<RootlessDots>().unwrap_err();
/// assert_eq!(e.given(), "keep");
/// assert_eq!(e.expected(), ["literal", "keep-rootless"]);
/// assert_eq!(e.to_string(), "unknown value `keep`; expected one of: literal, keep-rootless");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    given: String,
    what: &'static str,
    expected: &'static [&'static str],
}

impl UnknownName {
    /// `given` names none of `expected`, the names of a `what` (`value`,
    /// `level`, …).
    pub(crate) fn new(
        given: &str,
        what: &'static str,
        expected: &'static [&'static str],
    ) -> UnknownName {
        UnknownName { given: given.into(), what, expected }
    }

    /// The name given.
    #[must_use]
    pub fn given(&self) -> &str {
        &self.given
    }

    /// Every name the option knows.
    #[must_use]
    pub fn expected(&self) -> &'static [&'static str] {
        self.expected
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}`; expected one of: ",
            self.what, self.given
        )?;
        for (i, name) in self.expected.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownName {}

/// Whether `given` is `name`, ignoring ASCII case, `-` and `_` (so that
/// `keep_rootless`, `KeepRootless` and `percentencoding` are read too).
pub(crate) fn is(given: &str, name: &str) -> bool {
    key(given).eq(key(name))
}

fn key(s: &str) -> impl Iterator<Item = u8> + '_ {
    s.bytes()
        .filter(|b| !matches!(b, b'-' | b'_'))
        .map(|b| b.to_ascii_lowercase())
}

/// Gives an option enum its names: `name()`, `Display` by that name, and `FromStr` by [`is`] with an
/// [`UnknownName`] error that calls the option `$what`.
macro_rules! option_names {
    ($ty:ident, $what:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// The value's name on the command line and in data files.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $ty {
            type Err = crate::names::UnknownName;

            fn from_str(s: &str) -> Result<$ty, crate::names::UnknownName> {
                [$($ty::$variant),+]
                    .into_iter()
                    .find(|v| crate::names::is(s, v.name()))
                    .ok_or_else(|| {
                        crate::names::UnknownName::new(s, $what, &[$($name),+])
                    })
            }
        }
    };
}

pub(crate) use option_names;

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use core::fmt::Display;
    use core::str::FromStr;

    use super::*;
    use crate::check::Severity;
    use crate::equiv::Level;
    use crate::escape::Component;
    use crate::extract::Form;
    use crate::resolve::{DotDotAboveRoot, Rfc1630Dots, RootlessDots};
    use crate::server::HostKind;
    use crate::spec::Spec;

    /// Every value's name reads back as the value, in its own spelling,
    /// upper case and with `_` for `-`; its `Display` is its name.
    fn round_trip<T>(values: &[T], name: fn(T) -> &'static str)
    where
        T: Copy + PartialEq + core::fmt::Debug + Display + FromStr,
        T::Err: core::fmt::Debug,
    {
        for &v in values {
            let n = name(v);
            assert_eq!(v.to_string(), n);
            for spelling in
                [n.to_string(), n.to_ascii_uppercase(), n.replace('-', "_")]
            {
                assert_eq!(spelling.parse::<T>().ok(), Some(v), "{spelling}");
            }
        }
    }

    #[test]
    fn every_option_name_reads_back() {
        round_trip(&[Severity::Info, Severity::High], Severity::name);
        round_trip(&Level::ALL, Level::name);
        round_trip(&[Form::UrlPrefixed, Form::Bare], Form::name);
        round_trip(&[HostKind::RegName, HostKind::IpvFuture], HostKind::name);
        round_trip(&[DotDotAboveRoot::Keep], DotDotAboveRoot::name);
        round_trip(&[Rfc1630Dots::Like1808], Rfc1630Dots::name);
        round_trip(&[RootlessDots::KeepRootless], RootlessDots::name);
        round_trip(&Spec::IETF_AND_WHATWG, Spec::name);
        round_trip(&Component::ALL, Component::name);
    }

    #[test]
    fn an_unknown_name_says_what_it_is_and_what_would_do() {
        let e = "rung".parse::<Level>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown level `rung`; expected one of: string, case, \
             percent-encoding, path-segment, scheme"
        );
        assert_eq!("x".parse::<Severity>().unwrap_err().expected().len(), 4);
        // Specs and components fail the same way.
        let e = "rfc0".parse::<Spec>().unwrap_err();
        assert!(e.to_string().starts_with("unknown spec `rfc0`; expected"));
        assert_eq!(e.expected().len(), Spec::IETF_AND_WHATWG.len());
        let e = "segment".parse::<Component>().unwrap_err();
        assert_eq!(e.given(), "segment");
        assert!(!is("keep", "keep-rootless"));
    }
}
