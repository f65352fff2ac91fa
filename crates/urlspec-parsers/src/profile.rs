//! The registry of profiles: each real parser by name, with the
//! implementation and release it follows.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::components::{Parsed, Part};
use crate::profiles;

/// One real URL parser, written in Rust: its name, the implementation and
/// release it follows, and its split.
///
/// ```
/// use urlspec_parsers::profile;
/// let p = profile("python-urllib").unwrap();
/// assert_eq!(p.name, "python-urllib");
/// assert!(p.follows.starts_with("CPython 3.11.7"));
/// // urllib reads `\` as data: the host runs to the `@`.
/// let c = p.parse("http://a\\@b/").unwrap();
/// assert_eq!(c.host.as_deref(), Some("b"));
/// ```
pub struct Profile {
    /// The name, as `--parsers` takes it: `python-urllib`.
    pub name: &'static str,
    /// The implementation, its release and the calls whose answers the
    /// profile gives: `CPython 3.11.7 urllib.parse.urlsplit, SplitResult
    /// .username/.password/.hostname/.port`.
    pub follows: &'static str,
    /// The components for which the implementation gives an empty text
    /// both when the URL has an empty one and when it has none (urllib's
    /// `query` of `http://a/` and of `http://a/?`): in comparisons, its
    /// empty text stands for either.
    pub empty_is_absent: &'static [Part],
    /// Whether the implementation reports the scheme's default port when
    /// the URL names none (Ruby's `URI#port`): in comparisons, a port
    /// equal to the default stands for an absent one too.
    pub fills_default_port: bool,
    /// What the implementation does to each component beyond taking it
    /// out of the URL, where it does something: the explanation of a
    /// difference in that component.
    pub notes: &'static [(Part, &'static str)],
    /// The split.
    pub split: for<'a> fn(&'a str) -> Parsed<'a>,
}

impl Profile {
    /// The components of `input` as the implementation reports them, or
    /// the error it raises. Never panics; linear in the input's length.
    ///
    /// ```
    /// use urlspec_parsers::profile;
    /// let c = profile("rust-http").unwrap().parse("http://a:8080/p?q").unwrap();
    /// assert_eq!(c.port.as_deref(), Some("8080"));
    /// ```
    pub fn parse<'a>(&self, input: &'a str) -> Parsed<'a> {
        (self.split)(input)
    }

    /// What the implementation does to `part`, if [`Profile::notes`]
    /// says.
    #[must_use]
    pub fn note(&self, part: Part) -> Option<&'static str> {
        self.notes.iter().find(|(p, _)| *p == part).map(|(_, n)| *n)
    }

    /// Whether the implementation gives an empty `part` for an absent one.
    #[must_use]
    pub fn empty_is_absent(&self, part: Part) -> bool {
        self.empty_is_absent.contains(&part)
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Profile) -> bool {
        self.name == other.name
    }
}

impl Eq for Profile {}

impl Hash for Profile {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Profile")
            .field("name", &self.name)
            .field("follows", &self.follows)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every profile, in the order `--parsers all` lists them.
///
/// ```
/// let names: Vec<&str> = urlspec_parsers::PROFILES.iter().map(|p| p.name).collect();
/// assert!(names.contains(&"python-urllib3"));
/// ```
pub static PROFILES: &[&Profile] = &[
    &profiles::python_urllib::PROFILE,
    &profiles::python_urllib3::PROFILE,
    &profiles::rust_url::PROFILE,
    &profiles::rust_http::PROFILE,
    &profiles::go::PROFILE,
    &profiles::java::PROFILE,
    &profiles::curl::PROFILE,
    &profiles::php::PROFILE,
    &profiles::node_legacy::PROFILE,
    &profiles::ruby::PROFILE,
];

/// The profile named `name` (ASCII case ignored).
///
/// ```
/// assert!(urlspec_parsers::profile("Rust-URL").is_some());
/// assert!(urlspec_parsers::profile("netscape").is_none());
/// ```
#[must_use]
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name))
}
