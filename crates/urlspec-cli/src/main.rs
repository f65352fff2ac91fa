//! `urlspec`: parse, validate, resolve, compare and check URLs under any
//! generation of the URL specifications, from RFC 1630 (1994) to RFC 3986
//! (2005), find the URLs in running text, and list the links of HTML
//! pages, MIME messages and WARC archives.
//!
//! The command is a thin layer over the [`urlspec`] and [`urlspec_links`]
//! libraries: [`cli`] holds the clap definitions, [`cmd`] one module per
//! subcommand (`parse`, `resolve`, `links`, `scheme`, `equiv`,
//! `normalize`, `check`, `diff`, `extract`), and [`output`] the helpers
//! they share (JSON building, caret rendering, line-by-line input).
//!
//! The specs are the seven documents and, with the `whatwg` feature (on by
//! default), the WHATWG URL Standard (the library's implementation of it).
//!
//! Exit status: 0 when every input is valid (`parse`, `scheme`), resolved
//! (`resolve`, and every link for `links`), normalized (`normalize`) or
//! without a finding at the `--fail-on` level (`check`), 1 when some input
//! is not (or a line of standard input was not UTF-8, or a `links` input
//! not of its format, or an `extract` URL not resolved), 2 for a usage or
//! I/O error (for `links` and `extract`, also a missing file, after the
//! other files were read). `equiv` exits with 0 when its two URLs are
//! equivalent, 1 when they are not, 2 when one cannot be compared. `diff`
//! exits with 0 when the specs agree (on every input, with `--batch`), 1
//! when they disagree.
//! A closed standard output (`urlspec parse … | head`) ends the command
//! quietly with status 0.

mod cli;
mod cmd;
mod output;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::cli::Cli;
use crate::output::Error;

/// The exit status of a usage or I/O error.
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // `--help` and `--version` go to stdout and exit 0; usage errors
            // go to stderr and exit 2. A closed pipe is no reason to fail.
            let _ = err.print();
            return ExitCode::from(
                u8::try_from(err.exit_code()).unwrap_or(EXIT_ERROR),
            );
        }
    };
    match cmd::run(&cli.command) {
        Ok(status) => ExitCode::from(status.code()),
        Err(Error::Write(err)) if err.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(err) => {
            let _ = writeln!(io::stderr().lock(), "urlspec: {err}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
