//! `urlspec completions`: a shell's completion script, made by
//! `clap_complete` from the argument definitions of [`crate::cli`].

use std::io::Write;

use clap::CommandFactory;

use super::Status;
use crate::cli::{Cli, CompletionsArgs};
use crate::output::{Error, Output};

/// Prints the completion script of `args.shell`.
pub fn run(args: &CompletionsArgs) -> Result<Status, Error> {
    let script = script(args.shell);
    let mut out = Output::stdout();
    out.write_all(&script).map_err(Error::Write)?;
    out.finish().map_err(Error::Write)?;
    Ok(Status::Valid)
}

/// The completion script of `shell` for `urlspec`. Made in memory:
/// `clap_complete` panics when its writer fails, and standard output may
/// (a full disk, a closed pipe).
pub fn script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(
        shell,
        &mut Cli::command(),
        "urlspec",
        &mut script,
    );
    script
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_shell_completes_every_subcommand() {
        let command = Cli::command();
        let names: Vec<&str> =
            command.get_subcommands().map(|c| c.get_name()).collect();
        assert!(names.len() >= 11, "{names:?}");
        for shell in clap_complete::Shell::value_variants() {
            let script = String::from_utf8(script(*shell)).unwrap();
            for name in &names {
                assert!(script.contains(name), "{shell}: {name}");
            }
            assert!(script.contains("spec"), "{shell}");
            assert!(script.contains("rfc3986"), "{shell}: the spec names");
        }
    }
}
