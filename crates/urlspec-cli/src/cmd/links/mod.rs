//! `urlspec links`: every link in HTML files, MIME messages and WARC
//! archives, resolved against the base each spec establishes.
//!
//! The reading is [`urlspec_links`]'s: its [`open`](urlspec_links::open)
//! finds each input's format, reads it, resolves each link once, keeps
//! the links asked for and counts them. This command chooses the inputs
//! and prints, by role:
//!
//! - [`args`]: the arguments, their help, and the library's
//!   [`Context`](urlspec_links::Context) they make;
//! - [`inputs`]: the files, the directories walked, the paths of
//!   `--paths-from`, standard input, or the built-in sample;
//! - [`read`]: the inputs read in order, each part of them handed to a
//!   stage, what could not be read said on standard error; with
//!   `--threads` above 1, [`parallel`]'s workers read and format the
//!   parts, and [`lookahead`] begins the next inputs while one is read;
//! - [`printer`]: one printer per output format (text, TSV, JSON), and
//!   the summary line.
//!
//! A WARC archive is streamed record by record, so memory stays bounded
//! by the largest record; HTML and MIME inputs are read whole, a long one
//! from a file in bounded memory. The output with `--threads` N is the
//! output of one thread.

mod args;
mod inputs;
mod lookahead;
#[cfg(test)]
mod panics;
mod parallel;
mod printer;
mod read;
#[cfg(test)]
mod tests;

use std::io;
use std::num::NonZeroUsize;

use urlspec_links::{Summary, Tally};

use crate::output::{Error, Output, RecordWrite};
use crate::status::Status;
use read::Serial;

pub use args::{LinksArgs, LinksOutput};
pub use printer::{summary_line, Printer};

/// The built-in sample: a MIME message that shows every base layer.
pub const SAMPLE: &[u8] = include_bytes!("../../../examples/sample.eml");

/// The name of the built-in sample in the output.
pub const SAMPLE_NAME: &str = "examples/sample.eml";

/// Reads every input of `args` and prints its links: on the main thread
/// with `--threads 1`, else with [`parallel`]'s workers.
pub fn run(args: &LinksArgs) -> Result<Status, Error> {
    let ctx = args.context()?;
    let mut out = Output::stdout();
    let mut printer = Printer::new(args.output, args.reads_hosts());
    let mut tally = Tally::new(&ctx.select);
    printer.start(&mut out).map_err(Error::Write)?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        NonZeroUsize::get,
    );
    let failed = if threads > 1 {
        parallel::run(args, &ctx, threads, &mut printer, &mut tally, &mut out)?
    } else {
        let mut stage = Serial {
            printer: &mut printer,
            tally: &mut tally,
            out: &mut out,
            verbose: args.verbose,
            failed: false,
        };
        read::read_all(args, &ctx, &mut stage)?;
        stage.failed
    };
    let summary = tally.take_summary();
    printer.finish(&mut out, &summary).map_err(Error::Write)?;
    out.finish().map_err(Error::Write)?;
    // After TSV or JSON the summary goes to standard error, and only once
    // the links are all written: a failed write is no success to report.
    printer.finish_stderr(&summary);
    Ok(if failed {
        Status::Failed
    } else {
        Status::from_valid(summary.unresolved == 0 && summary.unreadable == 0)
    })
}

/// Reads one input held in memory, `data` named `name`, as `args` says,
/// and prints its documents with `printer` (the body of `urlspec serve`'s
/// `POST /api/links`): the counts of what was read. An input not of its
/// format is counted as unreadable; `Err(Usage)` for a retrieval URL with
/// an archive.
pub fn read_bytes(
    data: Vec<u8>,
    name: &str,
    args: &LinksArgs,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> Result<Summary, Error> {
    let ctx = args.context()?;
    let mut tally = Tally::new(&ctx.select);
    let input = inputs::Input {
        name: name.to_string(),
        reader: Box::new(io::Cursor::new(data)),
        size: None,
        url: None,
        path: None,
    };
    let mut stage = Serial {
        printer,
        tally: &mut tally,
        out,
        verbose: false,
        failed: false,
    };
    read::read_one(input, &ctx, &mut stage)?;
    Ok(tally.take_summary())
}
