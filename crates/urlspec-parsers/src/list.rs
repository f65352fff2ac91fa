//! Lists of profiles as `--parsers` takes them: the one reading shared by
//! the command line, the Python package and the Spark job.

use std::error::Error;
use std::fmt;

use crate::profile::{profile, Profile, PROFILES};

/// The profiles of a comma-separated list of names, as `urlspec diff
/// --parsers` takes it: each name trimmed of whitespace and matched
/// with ASCII case ignored, `all` for every profile (in [`PROFILES`]'
/// order), `none` for no profile. A profile named twice counts once,
/// where it first appears. An empty name (`""`, `"a,,b"`) is unknown.
///
/// ```
/// use urlspec_parsers::profiles;
/// let names = |list| -> Vec<&str> {
///     profiles(list).unwrap().iter().map(|p| p.name).collect()
/// };
/// assert_eq!(names("curl, Go,curl"), ["curl", "go"]);
/// assert_eq!(names("none"), [] as [&str; 0]);
/// assert_eq!(names("ruby,all")[0], "ruby");
///
/// let e = profiles("curl,lynx").unwrap_err();
/// assert_eq!((e.name(), e.position()), ("lynx", 5));
/// assert!(e.to_string().contains("expected one of python-urllib"));
/// ```
///
/// # Errors
///
/// [`UnknownProfile`], for the first name that is neither a profile's
/// nor `all` nor `none`.
pub fn profiles(list: &str) -> Result<Vec<&'static Profile>, UnknownProfile> {
    profiles_from(list.split(','))
}

/// The profiles of `names`, one name each, read as [`profiles`] reads the
/// names of a list: a list of names is the list of those names joined by
/// commas, and an unknown name's [`UnknownProfile::position`] is its
/// offset in that list. No names at all is no profile.
///
/// ```
/// use urlspec_parsers::profiles_from;
/// let found = profiles_from(["python-urllib", "ALL"]).unwrap();
/// assert_eq!(found.len(), urlspec_parsers::PROFILES.len());
/// assert!(profiles_from([]).unwrap().is_empty());
/// let e = profiles_from(["go", " lynx"]).unwrap_err();
/// assert_eq!((e.name(), e.position()), ("lynx", 4));
/// ```
///
/// # Errors
///
/// [`UnknownProfile`], as [`profiles`].
pub fn profiles_from<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<&'static Profile>, UnknownProfile> {
    let mut found: Vec<&'static Profile> = Vec::new();
    let mut add = |p: &'static Profile| {
        // At most PROFILES.len() entries: the search stays short.
        if !found.contains(&p) {
            found.push(p);
        }
    };
    let mut at = 0;
    for item in names {
        let name = item.trim();
        if name.eq_ignore_ascii_case("all") {
            PROFILES.iter().copied().for_each(&mut add);
        } else if !name.eq_ignore_ascii_case("none") {
            match profile(name) {
                Some(p) => add(p),
                None => {
                    let lead = item.len() - item.trim_start().len();
                    return Err(UnknownProfile {
                        name: name.to_owned(),
                        position: at + lead,
                    });
                }
            }
        }
        at += item.len() + 1;
    }
    Ok(found)
}

/// A name in a list of profiles that is neither a profile's nor `all`
/// nor `none`: the name (trimmed) and its byte offset in the list.
///
/// Printed with every name the list takes:
///
/// ```
/// let e = urlspec_parsers::profiles("go,netscape").unwrap_err();
/// let text = e.to_string();
/// assert!(text.starts_with("unknown parser `netscape` at byte 3 of the list"));
/// assert!(text.ends_with("ruby, all or none"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile {
    name: String,
    position: usize,
}

impl UnknownProfile {
    /// The unknown name, trimmed as the list's names are.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The byte offset of the name in the list.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// Every name a list takes: the profiles' (in [`PROFILES`]' order),
    /// then `all` and `none`.
    ///
    /// ```
    /// let known: Vec<&str> = urlspec_parsers::UnknownProfile::known().collect();
    /// assert_eq!(known[0], "python-urllib");
    /// assert_eq!(known[known.len() - 2..], ["all", "none"]);
    /// ```
    pub fn known() -> impl Iterator<Item = &'static str> {
        PROFILES.iter().map(|p| p.name).chain(["all", "none"])
    }
}

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown parser `{}` at byte {} of the list; expected one of ",
            self.name.escape_debug(),
            self.position
        )?;
        for p in PROFILES {
            write!(f, "{}, ", p.name)?;
        }
        f.write_str("all or none")
    }
}

impl Error for UnknownProfile {}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &str) -> Vec<&'static str> {
        profiles(list).unwrap().iter().map(|p| p.name).collect()
    }

    fn every() -> Vec<&'static str> {
        PROFILES.iter().map(|p| p.name).collect()
    }

    #[test]
    fn names_in_first_appearance_order_each_once() {
        assert_eq!(names("go"), ["go"]);
        assert_eq!(names("curl,go,CURL, go "), ["curl", "go"]);
        assert_eq!(
            names("Python-URLLIB3,python-urllib"),
            ["python-urllib3", "python-urllib"]
        );
    }

    #[test]
    fn all_is_every_profile_and_none_is_no_profile() {
        assert_eq!(names("all"), every());
        assert_eq!(names(" ALL "), every());
        assert!(names("none").is_empty());
        assert!(names("None,NONE").is_empty());
        assert_eq!(names("none,go"), ["go"]);
        // `all` after a name keeps that name first.
        let mut want = vec!["ruby"];
        want.extend(every().into_iter().filter(|n| *n != "ruby"));
        assert_eq!(names("ruby,all,go"), want);
    }

    #[test]
    fn an_unknown_name_has_its_byte_position() {
        let e = profiles("go,  Lynx ,curl").unwrap_err();
        assert_eq!(e.name(), "Lynx");
        assert_eq!(e.position(), 5);
        assert_eq!(&"go,  Lynx ,curl"[e.position()..][..4], "Lynx");
        // The first unknown name is the one reported.
        let e = profiles("lynx,netscape").unwrap_err();
        assert_eq!((e.name(), e.position()), ("lynx", 0));
        // Non-ASCII: offsets in bytes.
        let e = profiles("é,x").unwrap_err();
        assert_eq!((e.name(), e.position()), ("é", 0));
        let e = profiles("curl,é,x").unwrap_err();
        assert_eq!(e.position(), 5);
    }

    #[test]
    fn an_empty_name_is_unknown() {
        for (list, at) in [("", 0), ("go,", 3), ("go,,curl", 3), ("go, ", 4)] {
            let e = profiles(list).unwrap_err();
            assert_eq!((e.name(), e.position()), ("", at), "{list:?}");
        }
    }

    #[test]
    fn names_one_by_one_read_as_their_list() {
        for list in
            ["go,curl", "all", "none", "curl, lynx", "go,,x", "ruby,ALL"]
        {
            assert_eq!(
                profiles_from(list.split(',')),
                profiles(list),
                "{list}"
            );
        }
        // A name holding a comma is one (unknown) name.
        let e = profiles_from(["go,curl"]).unwrap_err();
        assert_eq!((e.name(), e.position()), ("go,curl", 0));
        assert_eq!(profiles_from(Vec::<&str>::new()), Ok(Vec::new()));
    }

    #[test]
    fn the_error_lists_every_name_the_list_takes() {
        let text = profiles("x\u{0}y").unwrap_err().to_string();
        assert!(
            text.starts_with("unknown parser `x\\0y` at byte 0"),
            "{text}"
        );
        for name in UnknownProfile::known() {
            assert!(text.contains(name), "{name}: {text}");
        }
        assert_eq!(UnknownProfile::known().count(), PROFILES.len() + 2);
    }
}
