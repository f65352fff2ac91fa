//! `urlspec completions`: a shell's completion script, made by
//! `clap_complete` from the argument definitions of [`crate::cli`].

use std::io::Write;

use clap::{Args, CommandFactory};

use crate::cli::Cli;
use crate::output::{Error, Output};
use crate::status::Status;

/// The long description of `urlspec completions`.
const LONG_ABOUT: &str = "\
Print the completion script of SHELL for urlspec on standard output. It is made
from the same argument definitions as --help, so it knows every subcommand,
option and value (--spec names, --output formats, …).

Install it where the shell looks for completions:
  bash        urlspec completions bash > ~/.local/share/bash-completion/completions/urlspec
  zsh         urlspec completions zsh > ~/.zfunc/_urlspec
              (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)
  fish        urlspec completions fish > ~/.config/fish/completions/urlspec.fish
  powershell  urlspec completions powershell >> $PROFILE

Exit status: 0, or 2 when the script cannot be written.";

/// The arguments of `urlspec completions`.
#[derive(Debug, Args)]
#[command(
    about = "Print the completion script of a shell (bash, zsh, fish, \
             powershell, elvish) for urlspec, made from these argument \
             definitions",
    long_about = LONG_ABOUT
)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

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
