//! The options of comparison ([`EquivOptions`]), which `urlspec equiv`
//! and `urlspec normalize` take, and the value parser of `--level`.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Arg, Args};
use urlspec::equiv::{self, Level};

use super::invalid_value;

/// The options of `urlspec equiv` and `urlspec normalize` that become the
/// library's [`equiv::Options`].
#[derive(Debug, Args)]
#[command(next_help_heading = "Comparison options")]
pub struct EquivOptions {
    /// The rung of RFC 3986 section 6.2's comparison ladder; each includes
    /// the ones below it
    #[arg(
        short,
        long,
        value_name = "LEVEL",
        value_parser = LevelParser,
        default_value_t = Level::default()
    )]
    pub level: Level,

    /// Compare the fragments too (they are not part of the URL)
    #[arg(long)]
    pub include_fragment: bool,

    /// Keep an empty port (host:) and the scheme's default port (:80 on
    /// http), which are otherwise dropped (docs/readings.md#a7)
    #[arg(long)]
    pub no_default_port: bool,

    /// Fold the host to lower case under the seed specs too (rfc2396 and
    /// rfc3986 always do; docs/readings.md#equivalence)
    #[arg(long)]
    pub host_case: bool,
}

impl EquivOptions {
    /// The library's options.
    pub fn to_options(&self) -> equiv::Options {
        equiv::Options::default()
            .level(self.level)
            .include_fragment(self.include_fragment)
            .default_port(!self.no_default_port)
            .host_case(self.host_case)
    }
}

/// The value parser of `--level`: any name [`Level::from_str`] accepts
/// (`percent-encoding`, `PercentEncoding`, `percent_encoding`, …), listed
/// in `--help` from [`Level::ALL`] with what each rung adds.
///
/// [`Level::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct LevelParser;

/// What each rung of the ladder adds to the ones below it, for `--help`.
pub fn level_summary(level: Level) -> &'static str {
    match level {
        Level::String => {
            "compares the input as it is, less the fragment (section 6.2.1)"
        }
        Level::Case => {
            "lower-cases the scheme, upper-cases the hex digits of escapes, \
             folds the host where the spec says so, drops an empty `;`, `?` \
             or `#` where the spec makes it absent (6.2.2.1)"
        }
        Level::PercentEncoding => {
            "decodes the escapes of characters the spec lets stand \
             unescaped; escapes the raw characters it requires escaped \
             (6.2.2.2)"
        }
        Level::PathSegment => {
            "rfc3986 only: removes dot-segments from the path of every URL \
             with a scheme, rooted or not, as resolving it would (6.2.2.3); \
             a relative reference keeps them"
        }
        Level::Scheme => {
            "drops an empty port and the scheme's default port, and writes \
             any other port by its value (:08080 as :8080); rfc3986 also \
             turns an empty path after an authority into `/` and folds a \
             mailto domain to lower case (6.2.3)"
        }
    }
}

impl TypedValueParser for LevelParser {
    type Value = Level;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Level, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Level>().map_err(|e| {
            let arg = arg.map_or_else(|| "--level".to_owned(), Arg::to_string);
            invalid_value(cmd, arg, e.given(), e.expected().iter().copied())
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Level::ALL
                .into_iter()
                .map(|l| PossibleValue::new(l.name()).help(level_summary(l))),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_parser_lists_every_level() {
        let names: Vec<String> = LevelParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names, want);
    }
}
