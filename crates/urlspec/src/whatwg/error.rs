//! The Standard's vocabulary for what its parser does: the states of the
//! basic URL parser, its named validation errors, and the failures and
//! notes this implementation reports with a byte position.

use core::fmt;

/// A state of the basic URL parser (URL Standard §4.4), or the steps
/// before its state machine.
///
/// ```
/// use urlspec::whatwg::State;
/// assert_eq!(State::SpecialAuthorityIgnoreSlashes.to_string(), "special authority ignore slashes state");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum State {
    /// Steps 1–3, before the state machine: leading and trailing C0
    /// controls and spaces, then every tab and newline, are removed.
    Input,
    /// The scheme start state.
    SchemeStart,
    /// The scheme state.
    Scheme,
    /// The no scheme state.
    NoScheme,
    /// The special relative or authority state.
    SpecialRelativeOrAuthority,
    /// The path or authority state.
    PathOrAuthority,
    /// The relative state.
    Relative,
    /// The relative slash state.
    RelativeSlash,
    /// The special authority slashes state.
    SpecialAuthoritySlashes,
    /// The special authority ignore slashes state.
    SpecialAuthorityIgnoreSlashes,
    /// The authority state.
    Authority,
    /// The host state (the hostname state is the same without a state
    /// override).
    Host,
    /// The port state.
    Port,
    /// The file state.
    File,
    /// The file slash state.
    FileSlash,
    /// The file host state.
    FileHost,
    /// The path start state.
    PathStart,
    /// The path state.
    Path,
    /// The opaque path state.
    OpaquePath,
    /// The query state.
    Query,
    /// The fragment state.
    Fragment,
    /// The URL serializer (§4.5), which writes `/.` before a path that
    /// would otherwise read as an authority.
    Serializer,
}

impl State {
    /// The state's name as the Standard writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            State::Input => "basic URL parser steps 1-3",
            State::SchemeStart => "scheme start state",
            State::Scheme => "scheme state",
            State::NoScheme => "no scheme state",
            State::SpecialRelativeOrAuthority => {
                "special relative or authority state"
            }
            State::PathOrAuthority => "path or authority state",
            State::Relative => "relative state",
            State::RelativeSlash => "relative slash state",
            State::SpecialAuthoritySlashes => {
                "special authority slashes state"
            }
            State::SpecialAuthorityIgnoreSlashes => {
                "special authority ignore slashes state"
            }
            State::Authority => "authority state",
            State::Host => "host state",
            State::Port => "port state",
            State::File => "file state",
            State::FileSlash => "file slash state",
            State::FileHost => "file host state",
            State::PathStart => "path start state",
            State::Path => "path state",
            State::OpaquePath => "opaque path state",
            State::Query => "query state",
            State::Fragment => "fragment state",
            State::Serializer => "URL serializer",
        }
    }

    /// The section of the URL Standard that defines the state.
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            State::Serializer => "§4.5",
            _ => "§4.4",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Gives the validation errors their names and descriptions from one table.
macro_rules! validation_errors {
    ($($variant:ident => $name:literal, $section:literal, $what:literal;)+) => {
        /// A validation error of the URL Standard, by the name its table of
        /// validation errors gives it. Some make parsing fail (the
        /// [`Failure`]s); the others are reported and parsing goes on.
        ///
        /// ```
        /// use urlspec::whatwg::ValidationError;
        /// assert_eq!(ValidationError::Ipv4NonDecimalPart.name(), "IPv4-non-decimal-part");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ValidationError {
            $(
                #[doc = $what]
                $variant,
            )+
        }

        impl ValidationError {
            /// The Standard's name for the error.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(ValidationError::$variant => $name,)+
                }
            }

            /// The section of the URL Standard whose algorithm reports it.
            #[must_use]
            pub const fn section(self) -> &'static str {
                match self {
                    $(ValidationError::$variant => $section,)+
                }
            }

            /// What the error means, in a few words.
            #[must_use]
            pub const fn description(self) -> &'static str {
                match self {
                    $(ValidationError::$variant => $what,)+
                }
            }
        }
    };
}

validation_errors! {
    DomainToAscii => "domain-to-ASCII", "§3.3",
        "Unicode ToASCII (UTS #46) gives an error or an empty domain.";
    DomainInvalidCodePoint => "domain-invalid-code-point", "§3.3",
        "The domain holds a forbidden domain code point.";
    HostInvalidCodePoint => "host-invalid-code-point", "§3.5",
        "An opaque host holds a forbidden host code point.";
    Ipv4EmptyPart => "IPv4-empty-part", "§3.5",
        "An IPv4 address ends with a `.`.";
    Ipv4TooManyParts => "IPv4-too-many-parts", "§3.5",
        "An IPv4 address has more than four parts.";
    Ipv4NonNumericPart => "IPv4-non-numeric-part", "§3.5",
        "A part of an IPv4 address is not a number.";
    Ipv4NonDecimalPart => "IPv4-non-decimal-part", "§3.5",
        "A part of an IPv4 address is written in hexadecimal or octal.";
    Ipv4OutOfRangePart => "IPv4-out-of-range-part", "§3.5",
        "A part of an IPv4 address exceeds 255 (or the last part what is left).";
    Ipv6Unclosed => "IPv6-unclosed", "§3.5",
        "An IPv6 address has no closing `]`.";
    Ipv6InvalidCompression => "IPv6-invalid-compression", "§3.5",
        "An IPv6 address begins with a single `:`.";
    Ipv6TooManyPieces => "IPv6-too-many-pieces", "§3.5",
        "An IPv6 address has more than eight pieces.";
    Ipv6MultipleCompression => "IPv6-multiple-compression", "§3.5",
        "An IPv6 address has `::` more than once.";
    Ipv6InvalidCodePoint => "IPv6-invalid-code-point", "§3.5",
        "An IPv6 address holds a code point it may not, or ends with `:`.";
    Ipv6TooFewPieces => "IPv6-too-few-pieces", "§3.5",
        "An uncompressed IPv6 address has fewer than eight pieces.";
    Ipv4InIpv6TooManyPieces => "IPv4-in-IPv6-too-many-pieces", "§3.5",
        "An IPv6 address with an IPv4 address in it has more than eight pieces.";
    Ipv4InIpv6InvalidCodePoint => "IPv4-in-IPv6-invalid-code-point", "§3.5",
        "The IPv4 part of an IPv6 address is not four decimal numbers.";
    Ipv4InIpv6OutOfRangePart => "IPv4-in-IPv6-out-of-range-part", "§3.5",
        "A part of the IPv4 part of an IPv6 address exceeds 255.";
    Ipv4InIpv6TooFewParts => "IPv4-in-IPv6-too-few-parts", "§3.5",
        "The IPv4 part of an IPv6 address has fewer than four parts.";
    InvalidUrlUnit => "invalid-URL-unit", "§4.4",
        "A code point that is not a URL unit (a control, a space, a stray `%`, …).";
    SpecialSchemeMissingFollowingSolidus => "special-scheme-missing-following-solidus", "§4.4",
        "A special scheme is not followed by `//`, or is followed by more slashes.";
    MissingSchemeNonRelativeUrl => "missing-scheme-non-relative-URL", "§4.4",
        "The input has no scheme, and there is no base it can be relative to.";
    InvalidReverseSolidus => "invalid-reverse-solidus", "§4.4",
        "A special URL uses `\\` where `/` belongs.";
    InvalidCredentials => "invalid-credentials", "§4.4",
        "The input holds credentials (`user:password@`).";
    HostMissing => "host-missing", "§4.4",
        "A special URL, or one with credentials or a port, has no host.";
    PortOutOfRange => "port-out-of-range", "§4.4",
        "The port is larger than 65535.";
    PortInvalid => "port-invalid", "§4.4",
        "The port holds something other than digits.";
    FileInvalidWindowsDriveLetter => "file-invalid-Windows-drive-letter", "§4.4",
        "A relative file URL starts with a Windows drive letter.";
    FileInvalidWindowsDriveLetterHost => "file-invalid-Windows-drive-letter-host", "§4.4",
        "A file URL's host is a Windows drive letter.";
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the Standard gives no URL: the validation error that makes the
/// parser return failure, where in the input, and in which state.
///
/// ```
/// # #[cfg(feature = "whatwg")] {
/// use urlspec::whatwg::{Url, State, ValidationError};
/// let f = Url::parse("http://h:8o/").unwrap_err();
/// assert_eq!((f.error, f.position, f.state), (Some(ValidationError::PortInvalid), 10, State::Port));
/// assert_eq!(f.to_string(), "port-invalid at byte 10 (port state): The port holds something other than digits.");
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Failure {
    /// The validation error; `None` when this build has no WHATWG parser
    /// (the `whatwg` feature is off).
    pub error: Option<ValidationError>,
    /// The byte offset into the input (into the base, when `in_base`).
    pub position: usize,
    /// The state the parser was in.
    pub state: State,
    /// Whether the base, not the input, failed to parse.
    pub in_base: bool,
}

impl Failure {
    #[cfg_attr(not(feature = "whatwg"), allow(dead_code))]
    pub(crate) const fn new(
        error: ValidationError,
        position: usize,
        state: State,
    ) -> Failure {
        Failure { error: Some(error), position, state, in_base: false }
    }

    /// The failure of a build without the `whatwg` feature.
    #[must_use]
    pub const fn unavailable() -> Failure {
        Failure {
            error: None,
            position: 0,
            state: State::Input,
            in_base: false,
        }
    }

    /// The failure without the position of the input's byte: the
    /// validation error, the state, and what the error means (for a base
    /// that fails, with the position in the base).
    ///
    /// ```
    /// # #[cfg(feature = "whatwg")] {
    /// use urlspec::whatwg::Url;
    /// let f = Url::parse("http://a:99999/").unwrap_err();
    /// assert_eq!(f.reason(), "port-out-of-range (port state): The port is larger than 65535.");
    /// # }
    /// ```
    #[must_use]
    pub fn reason(&self) -> alloc::string::String {
        alloc::format!("{}", Reason(self))
    }
}

/// [`Failure::reason`], written.
struct Reason<'a>(&'a Failure);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Failure { error, position, state, in_base } = *self.0;
        match error {
            None => f.write_str(
                "the whatwg spec needs urlspec built with the `whatwg` feature",
            ),
            Some(e) if in_base => write!(
                f,
                "the base is not a URL: {e} at byte {position} of the base \
                 ({state}): {}",
                e.description()
            ),
            Some(e) => write!(f, "{e} ({state}): {}", e.description()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            Some(e) if !self.in_base => write!(
                f,
                "{e} at byte {} ({}): {}",
                self.position,
                self.state,
                e.description()
            ),
            _ => Reason(self).fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Failure {}

/// Which part of the URL a [`Note`] bears on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// The input as a whole (steps before the state machine).
    Whole,
    /// The scheme.
    Scheme,
    /// The username and password.
    Userinfo,
    /// The host.
    Host,
    /// The port.
    Port,
    /// The path.
    Path,
    /// The query.
    Query,
    /// The fragment.
    Fragment,
}

/// What the parser did besides reading the input as written: a
/// validation error it went on after, or a step that rewrites the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Step {
    /// A validation error that does not stop the parser.
    Validation(ValidationError),
    /// The scheme was ASCII-lowercased.
    SchemeLowercased,
    /// The host is not as written: domain to ASCII lowercased it, mapped
    /// it (UTS #46) or percent-decoded it (§3.5 host parsing).
    HostRewritten,
    /// The host ends in a number, so it was parsed and serialized as an
    /// IPv4 address (§3.5).
    Ipv4Host,
    /// An IPv6 address was serialized in its canonical form (§3.6).
    Ipv6Serialized,
    /// A file URL's host `localhost` became the empty host.
    LocalhostDropped,
    /// The port was the scheme's default, and was dropped.
    DefaultPortDropped,
    /// The port was written with leading zeros, dropped in serializing.
    PortNormalized,
    /// An empty username or password was dropped.
    EmptyCredentialsDropped,
    /// Code points were percent-encoded (the first one at this position).
    PercentEncoded,
    /// A special URL's path ended where it started, so it is `/`: the
    /// path start state goes on to the path state, which appends an empty
    /// segment.
    EmptyPathIsSlash,
    /// A single-dot path segment (`.`, `%2e`) was removed.
    SingleDotSegment,
    /// A double-dot path segment (`..`, `.%2e`, …) removed itself and the
    /// segment before it.
    DoubleDotSegment,
    /// A Windows drive letter's `|` became `:`, or the drive letter was
    /// kept where a path would otherwise lose it.
    WindowsDriveLetter,
    /// The base's components were taken where the input has none.
    FromBase,
    /// A space before `?` or `#` at the end of an opaque path was encoded.
    OpaquePathSpace,
    /// `/.` was written before a path starting with `//` in a URL without
    /// a host, so that it does not read as one.
    SlashDotPrefix,
}

impl Step {
    /// What the step does, in a few words.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Step::Validation(e) => e.description(),
            Step::SchemeLowercased => "the scheme is ASCII-lowercased",
            Step::HostRewritten => {
                "the host is the result of domain to ASCII (lowercased, \
                 percent-decoded, UTS #46-mapped)"
            }
            Step::Ipv4Host => {
                "the host ends in a number, so it is an IPv4 address, \
                 serialized as four decimal numbers"
            }
            Step::Ipv6Serialized => {
                "the IPv6 address is serialized in its shortest form"
            }
            Step::LocalhostDropped => {
                "a file URL's host `localhost` becomes the empty host"
            }
            Step::DefaultPortDropped => "the scheme's default port is dropped",
            Step::PortNormalized => {
                "the port is serialized without leading zeros"
            }
            Step::EmptyCredentialsDropped => {
                "an empty username or password is not serialized"
            }
            Step::PercentEncoded => {
                "code points of the component's percent-encode set are \
                 percent-encoded"
            }
            Step::EmptyPathIsSlash => {
                "a special URL's path is never empty: with nothing written \
                 it is `/`"
            }
            Step::SingleDotSegment => "a `.` segment is removed",
            Step::DoubleDotSegment => {
                "a `..` segment removes the segment before it (shorten the \
                 path)"
            }
            Step::WindowsDriveLetter => {
                "a Windows drive letter is kept as the first segment, `|` \
                 written as `:`"
            }
            Step::FromBase => "the base's components are taken",
            Step::OpaquePathSpace => {
                "a space before `?` or `#` ending an opaque path is written \
                 `%20`"
            }
            Step::SlashDotPrefix => {
                "`/.` is written before a path starting with `//` in a URL \
                 without a host"
            }
        }
    }
}

/// One thing the parser did, with the byte of the input (into the base,
/// for steps taken on the base's components) and the state it was in.
/// [`ParseOptions::parse_traced`](crate::whatwg::ParseOptions::parse_traced)
/// lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    /// The byte offset into the input.
    pub position: usize,
    /// The parser's state.
    pub state: State,
    /// The part of the URL it bears on.
    pub part: Part,
    /// What it did.
    pub step: Step,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let section = match self.step {
            Step::Validation(e) => e.section(),
            Step::HostRewritten | Step::Ipv4Host | Step::Ipv6Serialized => {
                "§3.5"
            }
            _ => self.state.section(),
        };
        write!(f, "{} ({section}), byte {}: ", self.state, self.position)?;
        if let Step::Validation(e) = self.step {
            write!(f, "{} validation error: ", e.name())?;
        }
        f.write_str(self.step.description())
    }
}
