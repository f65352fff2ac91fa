//! The subcommands, one module each, and what they report to `main`.

pub mod check;
pub mod completions;
pub mod diff;
pub mod equiv;
pub mod extract;
pub mod links;
pub mod man;
pub mod normalize;
pub mod parse;
pub mod resolve;
pub mod scheme;
pub mod serve;

use crate::cli::Command;
use crate::output::Error;

/// How a subcommand ended, when it ran to completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every input was valid (`parse`, `scheme`), resolved (`resolve`,
    /// `links`), normalized (`normalize`) or free of findings at the
    /// `--fail-on` level (`check`); the two URLs are equivalent (`equiv`);
    /// the specs agree (`diff`): exit status 0.
    Valid,
    /// Some input was invalid, not resolved or not normalized, or could
    /// not be read as text (or, for `links`, as its format); some finding
    /// reaches `--fail-on` (`check`); the two URLs are not equivalent
    /// (`equiv`); the specs disagree (`diff`): exit status 1.
    Invalid,
    /// Some input could not be read at all (a missing file, an I/O error),
    /// and the others were processed; a URL cannot be compared (`equiv`):
    /// exit status 2.
    Failed,
}

impl Status {
    /// `Valid` when `all_valid` holds, `Invalid` otherwise.
    pub fn from_valid(all_valid: bool) -> Status {
        if all_valid {
            Status::Valid
        } else {
            Status::Invalid
        }
    }

    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Status::Valid => 0,
            Status::Invalid => 1,
            Status::Failed => 2,
        }
    }
}

/// Runs one subcommand.
pub fn run(command: &Command) -> Result<Status, Error> {
    match command {
        Command::Parse(args) => parse::run(args),
        Command::Resolve(args) => resolve::run(args),
        Command::Links(args) => links::run(args),
        Command::Scheme(args) => scheme::run(args),
        Command::Equiv(args) => equiv::run(args),
        Command::Normalize(args) => normalize::run(args),
        Command::Check(args) => check::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
        Command::Serve(args) => serve::run(args),
    }
}
