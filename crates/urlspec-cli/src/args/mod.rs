//! The arguments several subcommands share, declared once: `--spec`
//! ([`SpecArg`], flattened into each command that takes it, with the
//! value parser [`SpecParser`]), `--json` ([`JsonArg`], likewise), the
//! URLs of the commands that answer one at a time ([`UrlArgs`]), the
//! resolution options of `resolve` and `links` ([`ResolveOptions`]), the
//! comparison options of `equiv` and `normalize` ([`EquivOptions`]), the
//! real parsers' profiles ([`ParserListParser`], [`ProfileParser`]), the
//! check of a URL option that must be absolute ([`check_absolute`]), the
//! specs of this build ([`SPECS`]) that every list of specs shows, and
//! the `--help` paragraph on inputs read one per line ([`url_inputs!`]).
//!
//! A command words the help of `--spec` (and of `--json` and the URLs)
//! for what it does with them, with [`help_of`] on its arguments; the
//! flag, its value, its default and its parser are the ones here.

use std::ffi::OsStr;
use std::fmt::Write as _;

use clap::builder::{PossibleValue, StyledStr, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Args};
use urlspec::{Reference, Spec};
use urlspec_parsers::{Profile, UnknownProfile, PROFILES};

use crate::output::{self, Error};

mod comparison;
mod resolution;

pub use comparison::EquivOptions;
pub use resolution::ResolveOptions;

/// `--spec` (`-s`): the spec a command works under, by default
/// [`Spec::default`].
#[derive(Clone, Copy, Debug, Args)]
pub struct SpecArg {
    /// The spec to work under
    #[arg(
        id = "spec",
        short = 's',
        long = "spec",
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub value: Spec,
}

/// `--json`: JSON instead of text, in every command that has it; each
/// words its help for what it prints ([`help_of`]).
#[derive(Clone, Copy, Debug, Args)]
pub struct JsonArg {
    /// Print one JSON object per URL (JSON Lines) instead of text
    #[arg(id = "json", long = "json")]
    pub on: bool,
}

/// The arguments of a command that answers URLs one at a time (`parse`,
/// `scheme`, `normalize`, `check`): `--spec`, `--json` and the URLs. Each
/// command words the help of `--spec` and of the URLs
/// ([`urls_help`]) for what it does with them.
#[derive(Debug, Args)]
pub struct UrlArgs {
    /// `--spec`
    #[command(flatten)]
    pub spec: SpecArg,

    /// `--json`
    #[command(flatten)]
    pub json: JsonArg,

    /// The URLs
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,
}

/// For `#[command(mut_args(help_of(ID, HELP)))]` on a command's arguments:
/// the shared argument `id` with this command's `help`. (`mut_arg` would
/// move the argument to the end of the command's list, and so change the
/// order of the completion scripts; `mut_args` changes it in place.)
pub fn help_of(
    id: &'static str,
    help: impl Into<StyledStr>,
) -> impl FnMut(Arg) -> Arg {
    let mut help = Some(help.into());
    move |arg| match help.take_if(|_| arg.get_id() == id) {
        Some(help) => arg.help(help),
        None => arg,
    }
}

/// The help of the URL arguments of a command that does `verb` to each.
pub fn urls_help(verb: &str) -> String {
    format!(
        "URLs to {verb}; - reads one per line from standard input, as does \
         giving none (put `--` before a URL that starts with `-`)"
    )
}

/// The paragraph of `--help` on where the URLs of a command that reads
/// one per line come from, and what becomes of one without an answer.
macro_rules! url_inputs {
    () => {
        "\
The URLs come from the arguments; an argument of - stands for the lines of
standard input, one URL per line (a trailing CR LF or LF is removed), as does
giving no argument at all. (So the one-character reference `-` is given on
standard input.) A line that is not UTF-8, or an input urlspec fails on (a bug
to report), gets `error: KIND: MESSAGE` in its place (NotUtf8 or
InternalError; with --json, an object whose error says so), the same with its
line number on standard error, and the inputs after it are still read."
    };
}
pub(crate) use url_inputs;

/// The number of specs this build can parse and resolve under.
pub const SPEC_COUNT: usize = Spec::available().len();

/// The specs this build can parse and resolve under, oldest first
/// ([`Spec::available`]), as an array. Every list of specs the command
/// shows or runs through is this one.
pub const SPECS: [Spec; SPEC_COUNT] = match Spec::available().first_chunk() {
    Some(specs) => *specs,
    None => unreachable!(),
};

/// Every spec name with its one-line summary, one per line, oldest first.
pub fn spec_list() -> String {
    let width = SPECS.iter().map(|s| s.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    for spec in SPECS {
        let default = if spec == Spec::default() { " (default)" } else { "" };
        let _ = writeln!(
            text,
            "  {:width$}  {}{default}",
            spec.name(),
            spec.summary(),
        );
    }
    text
}

/// The value parser of `--spec`: any name [`Spec::from_str`] accepts
/// (`rfc3986`, `RFC-3986`, `whatwg`, …) for a spec of this build
/// ([`SPECS`]), listed in `--help` with each spec's summary from
/// [`Spec::summary`], so the list follows the library.
///
/// [`Spec::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecParser;

/// The error for `text`, which is not the name of a spec of this build,
/// given to `arg` (named `default` when clap does not say): an unknown
/// name lists the names; a spec this build lacks says so.
pub fn spec_error(
    cmd: &clap::Command,
    arg: Option<&Arg>,
    default: &str,
    text: &str,
    extra: &[&str],
) -> clap::Error {
    let arg = arg.map_or_else(|| default.to_owned(), Arg::to_string);
    if let Ok(spec) = text.parse::<Spec>() {
        // Known, but not built in: say how to get it.
        let message = format!(
            "invalid value '{text}' for '{arg}': this urlspec was built \
             without the `{spec}` spec (cargo feature `{spec}`)\n"
        );
        return clap::Error::raw(ErrorKind::InvalidValue, message)
            .with_cmd(cmd);
    }
    let names = SPECS.iter().map(|s| s.name()).chain(extra.iter().copied());
    invalid_value(cmd, arg, text, names)
}

/// clap's own error for `text`, not a value of `arg`, listing the `valid`
/// ones (as clap lists the values of an enum).
pub fn invalid_value<'v>(
    cmd: &clap::Command,
    arg: String,
    text: &str,
    valid: impl Iterator<Item = &'v str>,
) -> clap::Error {
    let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
    err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
    err.insert(
        ContextKind::InvalidValue,
        ContextValue::String(text.to_owned()),
    );
    err.insert(
        ContextKind::ValidValue,
        ContextValue::Strings(valid.map(str::to_owned).collect()),
    );
    err
}

/// `text` as a spec of this build, if it is one.
pub fn spec_of_build(text: &str) -> Option<Spec> {
    text.parse::<Spec>().ok().filter(|s| s.is_available())
}

impl TypedValueParser for SpecParser {
    type Value = Spec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Spec, clap::Error> {
        let text = value.to_string_lossy();
        spec_of_build(&text)
            .ok_or_else(|| spec_error(cmd, arg, "--spec", &text, &[]))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            SPECS
                .into_iter()
                .map(|s| PossibleValue::new(s.name()).help(s.summary())),
        ))
    }
}

/// Refuses a `value` of the option `flag` (`--base <BASE>`) that is not an
/// absolute URL: one without a scheme under `spec`.
pub fn check_absolute(
    flag: &str,
    value: &str,
    spec: Spec,
) -> Result<(), Error> {
    if Reference::parse_with(value, spec).has_scheme() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "invalid value '{}' for '{flag}': not an absolute URL (it has \
         no scheme under {spec})",
        output::visible(value)
    )))
}

/// The parsers of `--parsers` (`urlspec diff`), in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserList(pub Vec<&'static Profile>);

/// The value parser of `--parsers`: a list of profiles as
/// [`urlspec_parsers::profiles`] reads it (comma-separated names, ASCII
/// case ignored, `all`, `none`, each profile once where it first appears);
/// an unknown name is clap's error listing the names the list takes.
#[derive(Clone, Copy, Debug, Default)]
pub struct ParserListParser;

impl TypedValueParser for ParserListParser {
    type Value = ParserList;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<ParserList, clap::Error> {
        urlspec_parsers::profiles(&value.to_string_lossy())
            .map(ParserList)
            .map_err(|e| {
                let arg =
                    arg.map_or_else(|| "--parsers".to_owned(), Arg::to_string);
                invalid_value(cmd, arg, e.name(), UnknownProfile::known())
            })
    }
}

/// The value parser of one profile's name (ASCII case ignored):
/// `urlspec check --validator` and `--fetcher`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProfileParser;

impl TypedValueParser for ProfileParser {
    type Value = &'static Profile;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<&'static Profile, clap::Error> {
        let text = value.to_string_lossy();
        profile_of(cmd, arg, text.trim())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(PROFILES.iter().map(|p| PossibleValue::new(p.name))))
    }
}

/// The profile named `name`, or clap's error listing the names.
pub fn profile_of(
    cmd: &clap::Command,
    arg: Option<&Arg>,
    name: &str,
) -> Result<&'static Profile, clap::Error> {
    urlspec_parsers::profile(name).ok_or_else(|| {
        let arg = arg.map_or_else(|| "--parsers".to_owned(), Arg::to_string);
        let names = PROFILES.iter().map(|p| p.name);
        invalid_value(cmd, arg, name, names)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    #[test]
    fn spec_names_parse_loosely() {
        let cli =
            Cli::try_parse_from(["urlspec", "parse", "-s", "RFC-3986", "x"])
                .unwrap();
        let Command::Parse(args) = cli.command else {
            panic!("not parse: {:?}", cli.command)
        };
        assert_eq!(args.common.spec.value, Spec::Rfc3986);
        assert_eq!(args.common.urls, ["x"]);
    }

    #[test]
    fn spec_list_has_every_spec() {
        let list = spec_list();
        for spec in SPECS {
            assert!(list.contains(spec.name()));
            assert!(list.contains(spec.summary()));
        }
        assert_eq!(list.lines().count(), SPECS.len());
    }

    #[test]
    fn specs_are_every_spec_of_the_build() {
        let want: Vec<Spec> = Spec::IETF_AND_WHATWG
            .into_iter()
            .filter(|s| s.is_available())
            .collect();
        assert_eq!(SPECS.to_vec(), want);
        assert_eq!(SPECS.contains(&Spec::Whatwg), cfg!(feature = "whatwg"));
        let names: Vec<String> = SpecParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want: Vec<&str> = SPECS.iter().map(|s| s.name()).collect();
        assert_eq!(names, want);
    }

    /// `--parsers` reads its list as `urlspec_parsers::profiles` does; an
    /// unknown name is a usage error naming every word the list takes.
    #[test]
    fn parser_lists_are_read_by_the_profiles_crate() {
        let parsers = |list: &str| {
            Cli::try_parse_from(["urlspec", "diff", "--parsers", list, "x"])
                .map(|cli| match cli.command {
                    Command::Diff(args) => args.parsers.0,
                    other => panic!("not diff: {other:?}"),
                })
        };
        for list in ["Curl, go,curl,none", "all", "none", "ruby,ALL"] {
            assert_eq!(
                parsers(list).unwrap(),
                urlspec_parsers::profiles(list).unwrap(),
                "{list}"
            );
        }
        for list in ["go,lynx", "go,", ""] {
            let e = parsers(list).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidValue, "{list:?}");
            let text = e.to_string();
            for name in UnknownProfile::known() {
                assert!(text.contains(name), "{list:?}: {text}");
            }
        }
    }
}
