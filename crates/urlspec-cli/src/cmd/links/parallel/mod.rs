//! `urlspec links --threads N`: the documents read on N worker threads,
//! printed in input order, the output byte for byte that of one thread.
//!
//! Three kinds of thread (four with the inflating one), joined by bounded
//! channels:
//!
//! - the reader (one) does what must be done in order: it takes the
//!   steps of each input ([`urlspec_links::Input::step`]: its first
//!   bytes, an archive's framing, each record's type and HTTP head, the
//!   redirects; the gzip members of a record-compressed archive inflated
//!   ahead of it, in order, on a thread of their own, and the next
//!   [`Limits::ahead`] inputs opened and their archives inflating while
//!   one is read: [`lookahead`](super::lookahead)), and reads HTML and
//!   MIME inputs whole. Each part becomes a task, its warnings and counts
//!   ride along. A page or message too long to hold in memory is not
//!   read whole: its part goes to the writer, which reads it in bounded
//!   memory in its turn;
//! - the workers (N, [`worker`]) read each task's parts (the payload
//!   decoded, the HTML parsed, the links resolved, kept and counted) and
//!   format them, into a [`Spool`](worker::Spool); each yields its core
//!   once a task, so that the threads they all wait on keep up;
//! - the writer (the calling thread, [`writer`]) puts the finished
//!   outputs back in order and only copies their bytes to standard
//!   output, their warnings to standard error, and their counts into the
//!   summary.
//!
//! The reader, the threads it starts and the writer are batch threads
//! ([`sched`]): woken by a worker, they wait for it to give way instead
//! of preempting it.
//!
//! The records of an archive go to the workers in batches
//! ([`Limits::batch`]), each record after the warnings and counts that
//! came before it.
//!
//! Memory stays bounded: the [`Window`] admits at most [`Limits::items`]
//! tasks, and [`Limits::bytes`] bytes of them, between the reader and the
//! writer (and the reader holds one batch more; a task larger than that
//! waits until it is alone in flight, and so is read in order), each
//! input begun ahead holds what its inflating thread holds (bounded in
//! [`lookahead`](super::lookahead)), and a worker whose output passes
//! [`Limits::spool`] bytes before its turn waits for its turn, then hands
//! the output over piece by piece.
//!
//! With `--unique=all` the URLs kept so far depend on every document
//! before, so the workers only read the documents and the writer keeps,
//! counts and formats them.

mod sched;
mod window;
mod worker;
mod writer;

#[cfg(test)]
mod tests;

use std::mem;
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;

use indicatif::ProgressBar;
use urlspec_links::{Context, Document, Part, Summary, Tally, Unique};

use super::args::LinksArgs;
use super::inputs::Inputs;
use super::lookahead::Listed;
use super::printer::Printer;
use super::read::{read_inputs, Stage};
use crate::output::{Error, RecordWrite};
use sched::Batch;
use window::{gone, BATCH_PAGES};
use writer::Writer;

pub use window::{Limits, Window};

/// Reads every input of `args` on `threads` workers, printing with
/// `printer` to `out`, `tally` keeping and counting in order what the
/// workers do not; `Ok(true)` when some input could not be read or named
/// (exit status 2).
pub fn run(
    args: &LinksArgs,
    ctx: &Context,
    threads: usize,
    printer: &mut Printer,
    tally: &mut Tally,
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    let window = Window::new(Limits::new(threads));
    let inputs = || Inputs::new(args);
    let run = Run { args, ctx, threads, window: &window };
    pipeline(&run, printer, tally, out, inputs)
}

/// What a pipeline reads, and how.
struct Run<'a> {
    args: &'a LinksArgs,
    ctx: &'a Context,
    threads: usize,
    window: &'a Window,
}

/// [`run`] through `run.window`, on the inputs `inputs` makes (on the
/// reader thread).
fn pipeline<I>(
    run: &Run<'_>,
    printer: &mut Printer,
    tally: &mut Tally,
    out: &mut impl RecordWrite,
    inputs: impl FnOnce() -> I + Send,
) -> Result<bool, Error>
where
    I: Listed,
{
    let Run { args, ctx, threads, window } = *run;
    let defer = ctx.select.unique == Some(Unique::All);
    let (task_tx, task_rx) = mpsc::sync_channel::<Task>(threads);
    // Held by the workers alone: when they are all gone, the reader's
    // send fails instead of waiting for ever.
    let task_rx = Arc::new(Mutex::new(task_rx));
    let (msg_tx, msg_rx) = mpsc::sync_channel::<Msg>(4 * threads);
    let interactive = out.interactive();
    let (written, read) = thread::scope(|scope| {
        for _ in 0..threads {
            let (tasks, results) = (task_rx.clone(), msg_tx.clone());
            let worker = worker::Worker {
                window,
                output: args.output,
                parsers: args.reads_hosts(),
                select: &ctx.select,
                defer,
                interactive,
            };
            scope.spawn(move || worker.work(&tasks, &results));
        }
        drop(task_rx);
        let reader = scope.spawn(move || {
            // The inflating threads it starts are batch threads too.
            let _batch = Batch::enter();
            let mut feed = Feed {
                window,
                tasks: task_tx,
                results: msg_tx,
                seq: 0,
                input: 0,
                name: Arc::from(""),
                pending: Vec::new(),
                batch: Vec::new(),
                batch_bytes: 0,
                bar: None,
                verbose: args.verbose,
            };
            let read = read_inputs(inputs(), ctx, &mut feed);
            let _ = feed.flush();
            read
        });
        // After the workers are started: they stay under the default
        // policy.
        let _batch = Batch::enter();
        let mut writer = Writer::new(printer, tally, out, window);
        let written = writer.run(&msg_rx).map(|()| writer.failed);
        // On a failed write: wake and stop everyone.
        window.close();
        drop(msg_rx);
        let read = reader.join();
        (written, read)
    });
    let failed = written.map_err(Error::Write)?;
    match read {
        Ok(read) => read?,
        Err(panic) => std::panic::resume_unwind(panic),
    }
    Ok(failed)
}

/// One task for a worker: its place in the output, the input it comes
/// from, and the parts to read, each after what came before it in the
/// input (warnings, counts).
struct Task {
    seq: u64,
    input: usize,
    name: Arc<str>,
    /// The bytes it holds (for the window).
    bytes: usize,
    parts: Vec<(Vec<Piece>, Part)>,
    bar: Option<ProgressBar>,
}

/// One piece of a task's output, replayed by the writer in order.
enum Piece {
    /// Bytes for standard output.
    Out(Vec<u8>),
    /// A text block begins (after a blank line, unless it is the first).
    Block,
    /// A record ends (standard output is flushed on a terminal).
    EndRecord,
    /// A line for standard error.
    Warn(String),
    /// A document to keep, count and format in order (`--unique=all`).
    Doc(Box<Document>),
    /// A page or message too long to hold in memory, read and printed by
    /// the writer in its turn.
    Long(Box<Part>),
    /// Counts for the summary.
    Add(Summary),
    /// Inputs whose reading panicked.
    Unreadable(usize),
    /// An input that could not be read or named.
    Failed,
    /// The reading of the input failed here: nothing more of it is
    /// printed (as with one thread, which stops reading it).
    Poison,
}

/// A task's output (or part of it) for the writer.
struct Msg {
    seq: u64,
    input: usize,
    /// The end of the task, and the bytes it held; `None`: a part, sent
    /// when the task's turn has come.
    done: Option<usize>,
    pieces: Vec<Piece>,
    bar: Option<ProgressBar>,
}

/// The reader's [`Stage`]: each part becomes a task (an archive's pages in
/// batches); warnings and counts wait for the next task (or the end of
/// the input) and go with it.
struct Feed<'a> {
    window: &'a Window,
    tasks: SyncSender<Task>,
    results: SyncSender<Msg>,
    seq: u64,
    input: usize,
    name: Arc<str>,
    pending: Vec<Piece>,
    /// The pages of the batch being gathered, their bytes, and the
    /// progress bar of their archive.
    batch: Vec<(Vec<Piece>, Part)>,
    batch_bytes: usize,
    bar: Option<ProgressBar>,
    verbose: bool,
}

impl Feed<'_> {
    /// Sends `parts`, of `bytes`.
    fn send(
        &mut self,
        parts: Vec<(Vec<Piece>, Part)>,
        bytes: usize,
        bar: Option<ProgressBar>,
    ) -> std::io::Result<()> {
        if !self.window.admit(bytes) {
            return Err(gone());
        }
        let task = Task {
            seq: self.seq,
            input: self.input,
            name: self.name.clone(),
            bytes,
            parts,
            bar,
        };
        self.seq += 1;
        self.tasks.send(task).map_err(|_| gone())
    }

    /// Sends the batch of pages gathered so far, if any. What came before
    /// each page rides with it; what is pending came after the last one,
    /// and stays for what comes next.
    fn send_batch(&mut self) -> std::io::Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let pages = mem::take(&mut self.batch);
        let bytes = mem::take(&mut self.batch_bytes);
        let bar = self.bar.take();
        self.send(pages, bytes, bar)
    }

    /// Sends the batch, then the warnings and counts not sent with a
    /// task yet.
    fn flush(&mut self) -> std::io::Result<()> {
        self.send_batch()?;
        if self.pending.is_empty() {
            return Ok(());
        }
        if !self.window.admit(0) {
            return Err(gone());
        }
        let msg = Msg {
            seq: self.seq,
            input: self.input,
            done: Some(0),
            pieces: mem::take(&mut self.pending),
            bar: None,
        };
        self.seq += 1;
        self.results.send(msg).map_err(|_| gone())
    }
}

impl Stage for Feed<'_> {
    fn input(&mut self, name: &str) {
        let _ = self.flush();
        self.input += 1;
        self.name = Arc::from(name);
    }

    fn part(
        &mut self,
        part: Part,
        bar: Option<&ProgressBar>,
    ) -> std::io::Result<()> {
        if part.is_long() {
            // After what came before it, in the writer's turn.
            self.pending.push(Piece::Long(Box::new(part)));
            return self.flush();
        }
        let bytes = part.len();
        let before = mem::take(&mut self.pending);
        if part.offset().is_none() {
            // An HTML page or a message, whole: a task of its own.
            self.send_batch()?;
            return self.send(vec![(before, part)], bytes, None);
        }
        if self.batch.is_empty() {
            self.bar = bar.cloned();
        }
        self.batch_bytes += bytes;
        self.batch.push((before, part));
        if self.batch_bytes >= self.window.limits.batch
            || self.batch.len() >= BATCH_PAGES
        {
            self.send_batch()?;
        }
        Ok(())
    }

    fn warn(&mut self, line: String) {
        self.pending.push(Piece::Warn(line));
    }

    fn add(&mut self, summary: Summary) {
        self.pending.push(Piece::Add(summary));
    }

    fn unreadable(&mut self) {
        self.pending.push(Piece::Unreadable(1));
    }

    fn failed(&mut self) {
        self.pending.push(Piece::Failed);
    }

    fn verbose(&self) -> bool {
        self.verbose
    }

    fn inflate_ahead(&self) -> bool {
        true
    }

    fn lookahead(&self) -> usize {
        self.window.limits.ahead
    }
}
