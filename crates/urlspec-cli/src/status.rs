//! How a subcommand ended, when it ran to completion: what every command
//! reports to `main` (its exit status).

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
