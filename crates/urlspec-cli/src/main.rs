//! `urlspec`: parse, validate, resolve, compare and check URLs under any
//! generation of the URL specifications, from RFC 1630 (1994) to RFC 3986
//! (2005), find the URLs in running text, and list the links of HTML
//! pages, MIME messages and WARC archives.
//!
//! The command is a thin layer over the [`urlspec`] and [`urlspec_links`]
//! libraries: [`cli`] holds the top-level parser, the list of
//! subcommands and their dispatch, [`cmd`] one module per subcommand
//! (`parse`, `resolve`, `links`, `scheme`, `equiv`, `normalize`, `check`,
//! `diff`, `extract`, and `completions` and `man`, made from the clap
//! definitions), each with its arguments, their help and their mapping
//! onto the libraries' options, [`serve`] a local web page and JSON API
//! over those commands, [`args`] the arguments several share (`--spec`,
//! the resolution and comparison options), [`status`] what a command
//! reports, and [`output`] the helpers they share (JSON building, caret
//! rendering, line-by-line input, each input's record made apart so that
//! one input cannot end a stream). The layers point down: `main` and
//! `cli` over `serve` over the commands, over `args`, `status` and
//! `output`; no command uses another.
//!
//! The specs are the seven documents and, with the `whatwg` feature (on by
//! default), the WHATWG URL Standard (the library's implementation of it).
//!
//! Exit status: 0 when every input is valid (`parse`, `scheme`), resolved
//! (`resolve`, and every link for `links`), normalized (`normalize`) or
//! without a finding at the `--fail-on` level (`check`), 1 when some input
//! is not or has no answer (a line of standard input that is not UTF-8,
//! an input the library fails on, a `links` input not of its format, an
//! `extract` URL not resolved), 2 for a usage or
//! I/O error (for `links` and `extract`, also a missing file, after the
//! other files were read). `equiv` exits with 0 when its two URLs are
//! equivalent, 1 when they are not, 2 when one cannot be compared. `diff`
//! exits with 0 when the specs agree (on every input, with `--batch`), 1
//! when they disagree.
//! A closed standard output (`urlspec parse … | head`) ends the command
//! quietly with status 0; any other failed write (a full disk) ends it
//! with status 2 and no summary.

mod args;
mod cli;
mod cmd;
mod output;
mod serve;
mod status;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::cli::Cli;
use crate::output::Error;

/// mimalloc rather than glibc's malloc: fewer instructions per
/// allocation, and blocks freed on another thread than the one that made
/// them (`links --threads`) without a shared arena's lock (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The exit status of a usage or I/O error.
const EXIT_ERROR: u8 = 2;

/// mimalloc's option of how long freed memory is kept before it goes back
/// to the system (`mi_option_purge_delay` of `mimalloc.h`, which the
/// binding does not name).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long mimalloc keeps freed memory before it goes back to the
/// system, in milliseconds (`MIMALLOC_PURGE_DELAY` overrides). Given back
/// at once, each document's freed blocks are faulted in again by the
/// next one: at 25 ms the real archives read 1.13 × as fast with one
/// thread and 1.17 × with two, for 5.6 and 15 MB more at the peak;
/// mimalloc's own second holds 8 and 27 MB more for 1.03 × more speed
/// (BENCHMARKS.md, Memory).
const PURGE_DELAY_MS: std::ffi::c_long = 25;

/// Sets mimalloc's purge delay to [`PURGE_DELAY_MS`], unless
/// `MIMALLOC_PURGE_DELAY` is set.
#[allow(unsafe_code)]
fn purge_soon() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's integer options, before any
        // thread is started; no memory is passed or kept.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) };
    }
}

fn main() -> ExitCode {
    purge_soon();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // `--help` and `--version` go to stdout and exit 0; usage errors
            // go to stderr and exit 2. A closed pipe is no reason to fail,
            // but help that could not be written (a full disk) is.
            if let Err(write) = err.print() {
                if write.kind() != io::ErrorKind::BrokenPipe {
                    let _ = writeln!(
                        io::stderr().lock(),
                        "urlspec: writing standard output: {write}"
                    );
                    return ExitCode::from(EXIT_ERROR);
                }
            }
            return ExitCode::from(
                u8::try_from(err.exit_code()).unwrap_or(EXIT_ERROR),
            );
        }
    };
    match cli::run(&cli.command) {
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

#[cfg(test)]
mod tests {
    /// The index taken for the purge delay is that option's: it holds
    /// that option's default (`options.c`: 1,000 ms), which no neighbour
    /// has; and the command sets it. One test, as the option is the
    /// process's.
    #[test]
    #[allow(unsafe_code)]
    fn the_purge_delay_is_mimallocs_option_and_the_command_sets_it() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reads one of mimalloc's integer options.
        let delay =
            || unsafe { libmimalloc_sys::mi_option_get(super::PURGE_DELAY) };
        assert_eq!(delay(), 1000);
        super::purge_soon();
        assert_eq!(delay(), super::PURGE_DELAY_MS);
    }
}
