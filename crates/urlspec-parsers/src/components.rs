//! What a parser makes of a URL: its components as the implementation
//! reports them, or the error it raises.

use std::borrow::Cow;
use std::fmt;

/// A component a parser reports.
///
/// ```
/// use urlspec_parsers::Part;
/// assert_eq!(Part::Userinfo.name(), "userinfo");
/// assert_eq!(Part::ALL.len(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The scheme, as the implementation gives it (often lower-cased).
    Scheme,
    /// The user information before the host's `@`: the user name, and the
    /// password after a `:` when there is one.
    Userinfo,
    /// The host.
    Host,
    /// The port, in decimal.
    Port,
    /// The path.
    Path,
    /// The query, without its `?`.
    Query,
    /// The fragment, without its `#`.
    Fragment,
}

impl Part {
    /// Every component, in the order of a URL.
    pub const ALL: [Part; 7] = [
        Part::Scheme,
        Part::Userinfo,
        Part::Host,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
    ];

    /// The component's name: the key of the oracles' JSON objects.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::Userinfo => "userinfo",
            Part::Host => "host",
            Part::Port => "port",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The components of a URL as one implementation reports them: `None`
/// where it reports nothing (Python's `None`, Go's empty `User`), an
/// empty text where it reports an empty one. Texts are slices of the
/// input where the implementation gives a part of it unchanged, and owned
/// where it changes them (case, escapes, a port number written anew).
///
/// ```
/// use urlspec_parsers::profile;
/// let urllib3 = profile("python-urllib3").unwrap();
/// let c = urllib3.parse("HTTP://u:p@Example.com:0080/a/../b?q").unwrap();
/// assert_eq!(c.scheme.as_deref(), Some("http"));
/// assert_eq!(c.userinfo.as_deref(), Some("u:p"));
/// assert_eq!(c.user(), Some("u"));
/// assert_eq!(c.password(), Some("p"));
/// assert_eq!(c.host.as_deref(), Some("example.com"));
/// assert_eq!(c.port.as_deref(), Some("80"));
/// assert_eq!(c.path.as_deref(), Some("/b"));
/// assert_eq!(c.query.as_deref(), Some("q"));
/// assert_eq!(c.fragment, None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components<'a> {
    /// The scheme.
    pub scheme: Option<Cow<'a, str>>,
    /// The user information (`user` or `user:password`).
    pub userinfo: Option<Cow<'a, str>>,
    /// The host.
    pub host: Option<Cow<'a, str>>,
    /// The port, in decimal.
    pub port: Option<Cow<'a, str>>,
    /// The path.
    pub path: Option<Cow<'a, str>>,
    /// The query.
    pub query: Option<Cow<'a, str>>,
    /// The fragment.
    pub fragment: Option<Cow<'a, str>>,
}

impl<'a> Components<'a> {
    /// The component `part`.
    ///
    /// ```
    /// use urlspec_parsers::{profile, Part};
    /// let c = profile("rust-url").unwrap().parse("http://a/b").unwrap();
    /// assert_eq!(c.get(Part::Host), Some("a"));
    /// assert_eq!(c.get(Part::Query), None);
    /// ```
    #[must_use]
    pub fn get(&self, part: Part) -> Option<&str> {
        let value = match part {
            Part::Scheme => &self.scheme,
            Part::Userinfo => &self.userinfo,
            Part::Host => &self.host,
            Part::Port => &self.port,
            Part::Path => &self.path,
            Part::Query => &self.query,
            Part::Fragment => &self.fragment,
        };
        value.as_deref()
    }

    /// The user name: the user information up to its first `:`.
    #[must_use]
    pub fn user(&self) -> Option<&str> {
        let info = self.userinfo.as_deref()?;
        Some(info.split_once(':').map_or(info, |(user, _)| user))
    }

    /// The password: the user information after its first `:`, if any.
    #[must_use]
    pub fn password(&self) -> Option<&str> {
        let info = self.userinfo.as_deref()?;
        info.split_once(':').map(|(_, password)| password)
    }

    /// The same components, owning their texts.
    #[must_use]
    pub fn into_owned(self) -> Components<'static> {
        let own =
            |v: Option<Cow<'a, str>>| v.map(|v| Cow::Owned(v.into_owned()));
        Components {
            scheme: own(self.scheme),
            userinfo: own(self.userinfo),
            host: own(self.host),
            port: own(self.port),
            path: own(self.path),
            query: own(self.query),
            fragment: own(self.fragment),
        }
    }
}

/// The error an implementation raises instead of components: its type
/// (`ValueError`, `url::ParseError`), why, and the byte of the input it
/// is about when the implementation's error points at one.
///
/// ```
/// use urlspec_parsers::profile;
/// let e = profile("python-urllib").unwrap().parse("http://[::1/").unwrap_err();
/// assert_eq!(e.kind, "ValueError");
/// assert_eq!(e.reason, "Invalid IPv6 URL");
/// assert_eq!(e.position, Some(7));
/// assert_eq!(e.to_string(), "ValueError at byte 7: Invalid IPv6 URL");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The implementation's error type, as its language names it.
    pub kind: &'static str,
    /// Why: the implementation's message where it is fixed text, else a
    /// description of the same check.
    pub reason: Cow<'static, str>,
    /// The byte of the input the error is about, if known.
    pub position: Option<usize>,
}

impl Refusal {
    /// A refusal of type `kind` for `reason`, at no byte in particular.
    #[must_use]
    pub fn new(
        kind: &'static str,
        reason: impl Into<Cow<'static, str>>,
    ) -> Refusal {
        Refusal { kind, reason: reason.into(), position: None }
    }

    /// The same refusal, about byte `position` of the input.
    #[must_use]
    pub fn at(mut self, position: usize) -> Refusal {
        self.position = Some(position);
        self
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind)?;
        if let Some(at) = self.position {
            write!(f, " at byte {at}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for Refusal {}

/// What a parser makes of a URL.
pub type Parsed<'a> = Result<Components<'a>, Refusal>;
