//! `urlspec man`: the manual pages, made by `clap_mangen` from the argument
//! definitions of [`crate::cli`].

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use clap::{Args, CommandFactory};

use crate::cli::Cli;
use crate::output::{Error, Output};
use crate::status::Status;

/// The long description of `urlspec man`.
const LONG_ABOUT: &str = "\
Print the manual page of urlspec (roff, section 1) on standard output, made
from the same definitions as --help: the description, every option, the
subcommands, the specs and the exit statuses. With --dir, write one page per
command into DIR instead: urlspec.1, urlspec-parse.1, urlspec-resolve.1, ….

  urlspec man | man -l -
  urlspec man --dir ~/.local/share/man/man1 && man urlspec-links

Exit status: 0, or 2 when a page cannot be written.";

/// The arguments of `urlspec man`.
#[derive(Debug, Args)]
#[command(
    about = "Print the manual page of urlspec (roff, for man), or write \
             one page per command into a directory",
    long_about = LONG_ABOUT
)]
pub struct ManArgs {
    /// Write one page per command (urlspec.1, urlspec-parse.1, …) into DIR
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// Prints the page of `urlspec`, or writes one page per command into
/// `--dir`.
pub fn run(args: &ManArgs) -> Result<Status, Error> {
    if let Some(dir) = &args.dir {
        write_pages(dir).map_err(|err| {
            Error::Usage(format!(
                "writing the pages into {}: {err}",
                dir.display()
            ))
        })?;
        return Ok(Status::Valid);
    }
    let page = page(&Cli::command()).map_err(Error::Write)?;
    let mut out = Output::stdout();
    out.write_all(&page).map_err(Error::Write)?;
    out.finish().map_err(Error::Write)?;
    Ok(Status::Valid)
}

/// The roff page of `command`.
pub fn page(command: &clap::Command) -> io::Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut page)?;
    Ok(page)
}

/// Writes `urlspec.1` and one `urlspec-NAME.1` per subcommand into `dir`,
/// which is made when missing.
pub fn write_pages(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let mut command = Cli::command();
    // Building gives each subcommand its display name, `urlspec-NAME`,
    // which its page takes as its title.
    command.build();
    fs::write(dir.join("urlspec.1"), page(&command)?)?;
    let pages = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help");
    for sub in pages {
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        fs::write(dir.join(format!("{name}.1")), page(sub)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_every_subcommand() {
        let command = Cli::command();
        let page = String::from_utf8(page(&command).unwrap()).unwrap();
        assert!(page.starts_with(".ie"), "{}", &page[..80]);
        assert!(page.contains(".TH urlspec 1"), "{page}");
        for sub in command.get_subcommands() {
            let name = sub.get_name();
            assert!(page.contains(&format!("urlspec\\-{name}")), "{name}");
        }
    }
}
