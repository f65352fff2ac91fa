//! The command line: the top-level parser of `urlspec` and the list of its
//! subcommands.
//!
//! Everything about one subcommand (its arguments, their help, the mirror
//! enums of its values and their mapping onto the library's options) is in
//! its module of [`crate::cmd`], or for `serve`, which answers with the
//! others, in [`crate::serve`]; the arguments several share (`--spec`) are
//! in [`crate::args`]. [`run`] hands the command line to its subcommand.

use std::fmt::Write as _;

use clap::{Parser, Subcommand};
use urlspec::Spec;

use crate::args::spec_list;
use crate::cmd;
use crate::cmd::check::CheckArgs;
use crate::cmd::completions::CompletionsArgs;
use crate::cmd::diff::DiffArgs;
use crate::cmd::equiv::EquivArgs;
use crate::cmd::extract::ExtractArgs;
use crate::cmd::links::LinksArgs;
use crate::cmd::man::ManArgs;
use crate::cmd::normalize::NormalizeArgs;
use crate::cmd::parse::ParseArgs;
use crate::cmd::resolve::ResolveArgs;
use crate::cmd::scheme::SchemeArgs;
use crate::output::Error;
use crate::serve::{self, ServeArgs};
use crate::status::Status;

/// One line on what the command does.
const ABOUT: &str =
    "Parse, validate, resolve, compare and check URLs exactly as each \
     generation of the URL specifications defines them (RFC 1630 to RFC \
     3986), and find every URL in running text and every link in HTML \
     pages, mail messages and web archives";

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

/// The subcommands, each described by its arguments' own `#[command]`.
#[derive(Debug, Subcommand)]
pub enum Command {
    Parse(ParseArgs),
    Resolve(ResolveArgs),
    Links(LinksArgs),
    Scheme(SchemeArgs),
    Equiv(EquivArgs),
    Normalize(NormalizeArgs),
    Check(CheckArgs),
    Diff(DiffArgs),
    Extract(ExtractArgs),
    Completions(CompletionsArgs),
    Man(ManArgs),
    Serve(ServeArgs),
}

/// Runs one subcommand.
pub fn run(command: &Command) -> Result<Status, Error> {
    match command {
        Command::Parse(args) => cmd::parse::run(args),
        Command::Resolve(args) => cmd::resolve::run(args),
        Command::Links(args) => cmd::links::run(args),
        Command::Scheme(args) => cmd::scheme::run(args),
        Command::Equiv(args) => cmd::equiv::run(args),
        Command::Normalize(args) => cmd::normalize::run(args),
        Command::Check(args) => cmd::check::run(args),
        Command::Extract(args) => cmd::extract::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Completions(args) => cmd::completions::run(args),
        Command::Man(args) => cmd::man::run(args),
        Command::Serve(args) => serve::run(args),
    }
}

/// The text after the top-level `--help`: examples, specs, exit status.
fn top_after_help() -> String {
    let mut text = String::from(
        "Examples:\n  urlspec parse 'http://a/b/c/d;p?q#f'\n  \
         urlspec parse --spec rfc3986 --json < urls.txt | jq .host\n  \
         urlspec resolve --base 'http://a/b/c/d;p?q' '../../../g'\n  \
         urlspec resolve --pairs --spec rfc3986 < pairs.tsv\n  \
         urlspec links\n  \
         urlspec links --output json crawl.warc.gz\n  \
         urlspec scheme ftp://ds.internic.net/rfc/rfc1808.txt\n  \
         urlspec equiv 'http://a/x+y' 'http://a/x%2By'\n  \
         urlspec normalize --spec rfc3986 < urls.txt | sort -u\n  \
         urlspec check --fail-on high < urls.txt\n  \
         urlspec extract --no-bare --output tsv notes.txt\n  \
         urlspec diff 'http://a?@b/'\n  \
         urlspec diff --batch --security-only < urls.txt\n  \
         urlspec completions bash > ~/.local/share/bash-completion/completions/urlspec\n  \
         urlspec man | man -l -\n\n\
         Specs (--spec; the default is ",
    );
    let _ = writeln!(text, "{}):", Spec::default());
    text.push_str(&spec_list());
    text.push_str(
        "\nInputs: where a command takes URLs or files, - stands for standard \
         input (one URL per line); each input that cannot be answered gets \
         its error in place, and the inputs after it are still read.\n\
         \nExit status: 0 all inputs valid (resolved), 1 some input invalid \
         (not resolved, or without an answer), 2 usage or I/O error (a \
         failed write among them); for equiv, 0 equivalent, 1 not, 2 not \
         comparable; for diff, 0 the specs agree, 1 they disagree.",
    );
    text
}

/// The arguments of the subcommand that `argv` (without the program name)
/// calls, as `urlspec` parses them, for the tests of each command's own.
#[cfg(test)]
pub fn subcommand_args<A: clap::FromArgMatches>(
    argv: &[&str],
) -> Result<A, clap::Error> {
    use clap::CommandFactory;
    let argv = std::iter::once("urlspec").chain(argv.iter().copied());
    let matches = Cli::command().try_get_matches_from(argv)?;
    let (_, sub) = matches.subcommand().expect("a subcommand is required");
    A::from_arg_matches(sub)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }
}
