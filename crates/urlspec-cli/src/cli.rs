//! The command line: clap definitions for `urlspec` and its subcommands.
//!
//! Each subcommand is one variant of [`Command`] with its own `…Args`
//! struct; options that several subcommands share (`--spec`, `--json`) use
//! the same value parsers and wording.

use std::ffi::OsStr;
use std::fmt::Write as _;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Args, Parser, Subcommand};
use urlspec::Spec;

/// One line on what the command does.
const ABOUT: &str =
    "Parse and validate URLs exactly as each generation of the URL \
     specifications defines them (RFC 1630 to RFC 3986)";

/// `urlspec`: the top-level parser.
#[derive(Debug, Parser)]
#[command(
    name = "urlspec",
    version,
    about = ABOUT,
    long_about = None,
    after_help = top_after_help(),
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Split URLs into their components and check them against a spec.
    #[command(
        about = "Split URLs into their components and check them against \
                 a spec",
        long_about = PARSE_LONG_ABOUT,
        after_help = PARSE_EXAMPLES
    )]
    Parse(ParseArgs),
}

/// The long description of `urlspec parse`.
const PARSE_LONG_ABOUT: &str = "\
Split each URL into scheme, net_loc (authority), user, password, host, port,
path, params, query and fragment, exactly as the chosen spec splits it, and
check it against that spec's grammar.

The URLs come from the arguments or, when there are none, one per line from
standard input (a trailing CR LF or LF is removed; a line that is not UTF-8 is
reported and skipped). Each invalid URL is printed with a caret under every
offending character and the grammar rule it breaks.

An absent component is shown as (absent) and an empty one as \"\": `http://a/b?`
has an empty query but no fragment. Control characters are shown as their
Unicode control pictures (a tab as \u{2409}).

With --json, each line is one object with the keys input, spec, scheme,
net_loc, user, password, host, port, path, params, query, fragment (null when
absent, \"\" when empty), valid and violations (each with position, a byte
offset into input, rule and message).

Exit status: 0 when every URL is valid, 1 when some URL is invalid (or a line
was not UTF-8), 2 for a usage or I/O error.";

/// The `Examples:` section of `urlspec parse --help`.
const PARSE_EXAMPLES: &str = "\
Examples:
  # One URL, as RFC 1808 (the default) splits it
  urlspec parse 'http://a/b/c/d;p?q#f'

  # The same text under RFC 3986: `;p` stays in the path, `~` is fine
  urlspec parse --spec rfc3986 'http://a/~u/d;p?q#f'

  # Stream a file, one URL per line; exit status 1 if any is invalid
  urlspec parse --spec rfc2396 < urls.txt

  # JSON Lines: list the invalid URLs with the rules they break
  urlspec parse --json < urls.txt | jq -c 'select(.valid | not) | {input, rules: [.violations[].rule]}'";

/// The text after the top-level `--help`: examples, specs, exit status.
fn top_after_help() -> String {
    let mut text = String::from(
        "Examples:\n  urlspec parse 'http://a/b/c/d;p?q#f'\n  \
         urlspec parse --spec rfc3986 --json < urls.txt | jq .host\n\n\
         Specs (--spec; the default is ",
    );
    let _ = writeln!(text, "{}):", Spec::default());
    text.push_str(&spec_list());
    text.push_str(
        "\nExit status: 0 all inputs valid, 1 some input invalid, 2 usage or \
         I/O error.",
    );
    text
}

/// Every spec name with its one-line summary, one per line, oldest first.
pub fn spec_list() -> String {
    let width = Spec::ALL.iter().map(|s| s.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    for spec in Spec::ALL {
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

/// The arguments of `urlspec parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The spec to split and validate under
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Print one JSON object per URL (JSON Lines) instead of a table
    #[arg(long)]
    pub json: bool,

    /// URLs to parse; when none are given, read one per line from standard
    /// input (put `--` before a URL that starts with `-`)
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,
}

/// The value parser of `--spec`: any name [`Spec::from_str`] accepts
/// (`rfc3986`, `RFC-3986`, …), listed in `--help` with each spec's summary
/// from [`Spec::summary`], so the list follows the library.
///
/// [`Spec::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecParser;

impl TypedValueParser for SpecParser {
    type Value = Spec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Spec, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Spec>().map_err(|_| {
            let mut err =
                clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            let arg = arg.map_or_else(|| "--spec".to_owned(), Arg::to_string);
            err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
            err.insert(
                ContextKind::InvalidValue,
                ContextValue::String(text.into_owned()),
            );
            err.insert(
                ContextKind::ValidValue,
                ContextValue::Strings(
                    Spec::ALL.iter().map(|s| s.name().to_owned()).collect(),
                ),
            );
            err
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Spec::ALL
                .into_iter()
                .map(|s| PossibleValue::new(s.name()).help(s.summary())),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn spec_names_parse_loosely() {
        let cli =
            Cli::try_parse_from(["urlspec", "parse", "-s", "RFC-3986", "x"])
                .unwrap();
        let Command::Parse(args) = cli.command;
        assert_eq!(args.spec, Spec::Rfc3986);
        assert_eq!(args.urls, ["x"]);
    }

    #[test]
    fn spec_list_has_every_spec() {
        let list = spec_list();
        for spec in Spec::ALL {
            assert!(list.contains(spec.name()));
            assert!(list.contains(spec.summary()));
        }
        assert_eq!(list.lines().count(), Spec::ALL.len());
    }
}
