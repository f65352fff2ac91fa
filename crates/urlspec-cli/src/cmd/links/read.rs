//! The reading of the inputs, in order: each opened by the library
//! ([`urlspec_links::open`]), its parts handed to a [`Stage`] as they come,
//! what could not be read said on standard error. [`Serial`] prints each
//! part at once; [`super::parallel`]'s stage hands it to a worker. The
//! reading itself, and what it reports, is the same for both.

use std::io::{self, IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use urlspec_links::{
    Context, Format, Input, InputError, Part, Step, Summary, Tally,
};

use super::args::LinksArgs;
use super::inputs::{self, Inputs};
use super::lookahead::{Listed, Lookahead, Next};
use super::printer::Printer;
use crate::output::{self, BadLine, Error, RecordWrite};

/// Where the reading of the inputs hands what it finds, in input order.
pub trait Stage {
    /// A new input, named `name`, begins.
    fn input(&mut self, name: &str);
    /// A part of the input (an archive's page, an HTML page or a message)
    /// to read and print; `bar`, the progress bar of its archive. `Err`
    /// when the output is gone.
    fn part(
        &mut self,
        part: Part,
        bar: Option<&ProgressBar>,
    ) -> io::Result<()>;
    /// A line for standard error.
    fn warn(&mut self, line: String);
    /// The counts of an input's own reading (its skipped records, what
    /// could not be read), at its end.
    fn add(&mut self, summary: Summary);
    /// An input whose reading panicked.
    fn unreadable(&mut self);
    /// An input that could not be read or named (exit status 2).
    fn failed(&mut self);
    /// Whether `-v` lists each skipped record.
    fn verbose(&self) -> bool;
    /// Whether an archive's gzip members are inflated ahead on a thread
    /// of their own ([`Input::inflate_ahead`]).
    fn inflate_ahead(&self) -> bool {
        false
    }
    /// How many inputs after the one being read are begun ahead of their
    /// turn ([`super::lookahead`]).
    fn lookahead(&self) -> usize {
        0
    }
}

/// `--threads 1`: each part printed as soon as it is read.
pub struct Serial<'a, W> {
    pub printer: &'a mut Printer,
    pub tally: &'a mut Tally,
    pub out: &'a mut W,
    pub verbose: bool,
    pub failed: bool,
}

impl<W: RecordWrite> Stage for Serial<'_, W> {
    fn input(&mut self, _: &str) {}

    fn part(
        &mut self,
        part: Part,
        bar: Option<&ProgressBar>,
    ) -> io::Result<()> {
        let interactive = self.out.interactive();
        let (tally, printer, out) =
            (&mut *self.tally, &mut *self.printer, &mut *self.out);
        let print = || print_part(part, tally, printer, out);
        let failed = match bar {
            // The bar and the output share the terminal.
            Some(bar) if interactive => bar.suspend(print),
            _ => print(),
        }?;
        self.failed |= failed;
        Ok(())
    }

    fn warn(&mut self, line: String) {
        self.out.warn(&line);
    }

    fn add(&mut self, summary: Summary) {
        self.tally.merge(summary);
    }

    fn unreadable(&mut self) {
        self.tally.merge(Summary { unreadable: 1, ..Summary::default() });
    }

    fn failed(&mut self) {
        self.failed = true;
    }

    fn verbose(&self) -> bool {
        self.verbose
    }
}

/// Reads `part` and prints its documents with `printer` to `out`, `tally`
/// keeping and counting their links; what could not be read is said on
/// standard error. `Ok(true)` when the input could not be read (exit
/// status 2); `Err` when the output is gone.
pub fn print_part(
    part: Part,
    tally: &mut Tally,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> io::Result<bool> {
    let name = Arc::<str>::from(part.name());
    printer.abandon();
    let mut written = Ok(());
    #[cfg(test)]
    let mut batches = 0;
    let read = part.read(tally, &mut |doc, last| {
        #[cfg(test)]
        super::panics::inject(&doc.name, &mut batches);
        if written.is_ok() {
            written = if last {
                printer.end(out, doc)
            } else {
                printer.links(out, doc)
            };
        }
    });
    written?;
    Ok(match read {
        Ok(()) => false,
        Err(e) => {
            out.warn(&format!("urlspec: {name}: {e}"));
            matches!(e, InputError::Io(_))
        }
    })
}

/// Reads every input of `args` in order into `stage`. `Err` only when
/// the output is gone.
pub fn read_all(
    args: &LinksArgs,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    read_inputs(Inputs::new(args), ctx, stage)
}

/// Reads `inputs` (an `Err`: one that could not be opened) in order into
/// `stage`, the next ones begun ahead as `stage` asks ([`Lookahead`]).
/// `Err` only when the output is gone.
pub fn read_inputs(
    inputs: impl Listed,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    let how = How { verbose: stage.verbose(), ahead: stage.inflate_ahead() };
    let ahead = Lookahead::new(inputs, stage.lookahead(), ctx, how);
    for next in ahead {
        let Next { opened, begun } = match next {
            Ok(next) => next,
            Err(problem) => {
                stage.input("");
                stage.failed();
                stage.warn(format!("urlspec: {problem}"));
                continue;
            }
        };
        let name = opened.input.name().to_owned();
        stage.input(&name);
        // A panic while it was begun ahead is reported at its turn.
        let read = begun.and_then(|()| {
            output::isolate(|| read_opened(opened, &mut *stage))
        });
        // The input's links up to a failure are printed; the next input
        // is read.
        if let Some(problem) =
            read_problem(&name, read).map_err(Error::Write)?
        {
            if problem.failed {
                stage.failed();
            } else {
                stage.unreadable();
            }
            stage.warn(problem.line);
        }
    }
    Ok(())
}

/// Why input `name` could not be read (to the end): the line for
/// standard error, and whether it is a failure of the input (exit status
/// 2, as a missing file) rather than an unreadable document.
pub struct ReadProblem {
    pub failed: bool,
    pub line: String,
}

/// What `read`, the isolated reading of input `name`, came to: `None`
/// when it was read, `Err` when the output is gone. One report for
/// [`read_inputs`] and for the long pages [`super::parallel`]'s writer
/// reads.
pub fn read_problem<T>(
    name: &str,
    read: Result<Result<T, Error>, BadLine>,
) -> io::Result<Option<ReadProblem>> {
    let (failed, line) = match read {
        Ok(Ok(_)) => return Ok(None),
        Ok(Err(Error::Write(err))) => return Err(err),
        Ok(Err(Error::Read(err))) => (true, format!("urlspec: {name}: {err}")),
        Ok(Err(Error::Usage(message))) => {
            (true, format!("urlspec: {name}: {message}"))
        }
        Err(bad) => (false, format!("urlspec: {name}: {}: {bad}", bad.kind())),
    };
    Ok(Some(ReadProblem { failed, line }))
}

/// How the inputs are opened: whether each skipped record is listed, and
/// whether an archive's members are inflated ahead.
#[derive(Clone, Copy)]
pub struct How {
    pub verbose: bool,
    pub ahead: bool,
}

/// An input opened for reading: the library's reading of it, the progress
/// bar shown on a terminal while an archive of known size is read, and
/// the flag that stops its reading once the output is gone.
pub struct Opened {
    pub input: Input<Counting<Box<dyn Read + Send>>>,
    /// Drawn from the input's turn, when it is an archive.
    bar: Option<ProgressBar>,
    stop: Arc<AtomicBool>,
    /// A regular file (which may be begun ahead of its turn).
    pub regular: bool,
}

impl Opened {
    /// Opens `input` for reading under `ctx`, with the retrieval URL its
    /// line gave.
    pub fn new(input: inputs::Input, ctx: &Context, how: How) -> Opened {
        let bar = input.size.filter(|_| io::stderr().is_terminal()).map(
            |len| {
                let style = ProgressStyle::with_template(
                    "{prefix} [{wide_bar}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                ProgressBar::with_draw_target(
                    Some(len),
                    ProgressDrawTarget::hidden(),
                )
                .with_style(style)
                .with_prefix(input.name.clone())
            },
        );
        let stop = Arc::new(AtomicBool::new(false));
        let counted = Counting {
            inner: input.reader,
            bar: bar.clone(),
            stop: stop.clone(),
        };
        let mut opened = match &input.url {
            Some(url) => {
                let ctx =
                    Context { retrieval: vec![url.clone()], ..ctx.clone() };
                urlspec_links::open(counted, input.name, &ctx)
            }
            None => urlspec_links::open(counted, input.name, ctx),
        };
        if how.verbose {
            opened.log_skipped();
        }
        if how.ahead {
            opened.inflate_ahead();
        }
        if let (Some(path), Some(size)) = (&input.path, input.size) {
            opened.in_place(path, size);
        }
        Opened { input: opened, bar, stop, regular: input.path.is_some() }
    }
}

/// Reads `input` alone into `stage`, on this thread. `Err(Usage)` for a
/// retrieval URL with an archive, `Err(Write)` when the output is gone.
pub fn read_one(
    input: inputs::Input,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    let how = How { verbose: stage.verbose(), ahead: false };
    read_opened(Opened::new(input, ctx, how), stage)
}

/// Reads an opened input into `stage`, its archive's progress bar drawn
/// from here on. `Err(Usage)` for a retrieval URL with an archive, `Err`
/// when the output is gone.
fn read_opened(opened: Opened, stage: &mut impl Stage) -> Result<(), Error> {
    let Opened { mut input, bar, stop, .. } = opened;
    input.start();
    let archive = input.format() == Some(Format::Warc);
    if archive && !input.context().retrieval.is_empty() {
        return Err(Error::Usage(
            "a retrieval URL (--url, or a PATH<TAB>URL line) does not \
             apply to a WARC archive: each record has its \
             WARC-Target-URI"
                .into(),
        ));
    }
    let bar = bar.filter(|_| archive);
    if let Some(bar) = &bar {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.reset_elapsed();
        bar.reset_eta();
    }
    let name = input.name().to_owned();
    let mut written = Ok(());
    while let Some(step) = input.step() {
        match step {
            Step::Part(part) => {
                written = stage.part(part, bar.as_ref());
                if written.is_err() {
                    // Stop reading: the output is gone.
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            Step::Skipped(skipped) => {
                let target =
                    skipped.target.as_deref().unwrap_or("(no target)");
                let kind =
                    if skipped.kind.is_empty() { "?" } else { &skipped.kind };
                stage.warn(format!(
                    "urlspec: {name}: record at byte {} ({kind} {}): \
                     skipped: {}",
                    skipped.offset,
                    output::visible(target),
                    skipped.reason.name()
                ));
            }
            Step::Error(e) => {
                if matches!(e, InputError::Io(_)) {
                    stage.failed();
                }
                stage.warn(format!("urlspec: {name}: {e}"));
            }
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    stage.add(input.summary());
    written.map_err(Error::Write)
}

/// A reader that moves a progress bar by the bytes read, and fails once
/// `stop` is set (so that a closed output ends the reading of an archive,
/// its inflating thread's too).
pub struct Counting<R> {
    inner: R,
    bar: Option<ProgressBar>,
    stop: Arc<AtomicBool>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("output closed"));
        }
        let n = self.inner.read(buf)?;
        if let Some(bar) = &self.bar {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}
