//! The subcommands, one module each, and what they report to `main`.

pub mod links;
pub mod parse;
pub mod resolve;

use crate::cli::Command;
use crate::output::Error;

/// How a subcommand ended, when it ran to completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every input was valid (`parse`) or resolved (`resolve`): exit
    /// status 0.
    Valid,
    /// Some input was invalid or not resolved, or could not be read as
    /// text (or, for `links`, as its format): exit status 1.
    Invalid,
    /// Some input could not be read at all (a missing file, an I/O error),
    /// and the others were processed: exit status 2.
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
    }
}
