//! `urlspec links --threads N`: the documents read on N worker threads,
//! printed in input order, the output byte for byte that of one thread.
//!
//! Three kinds of thread (four with the inflating one), joined by bounded
//! channels:
//!
//! - the reader (one) does what must be done in order: it opens the
//!   inputs, detects their formats, frames each WARC archive into records
//!   (the gzip members of a record-compressed one inflated ahead of it,
//!   in order, on a thread of their own:
//!   [`warc::Documents::inflate_ahead`]; the next [`Limits::ahead`]
//!   inputs are opened and their archives inflating while one is read:
//!   [`lookahead`](super::lookahead)), reads each record's type and
//!   HTTP head and follows its redirects
//!   ([`warc::Documents::next_page`]), and reads HTML and MIME inputs
//!   whole. Each page or input becomes a task, its warnings and counts
//!   ride along. An HTML page past
//!   [`html::stream::IN_MEMORY`](urlspec_links::html::stream::IN_MEMORY)
//!   is not read whole: its file goes to the writer, which reads it in
//!   bounded memory in its turn;
//! - the workers (N) read each task's documents (the payload decoded, the
//!   HTML parsed, the links resolved) and format them, into a [`Spool`];
//! - the writer (the calling thread) puts the finished outputs back in
//!   order and only copies their bytes to standard output, their warnings
//!   to standard error, and their counts into the summary.
//!
//! The records of an archive go to the workers in batches
//! ([`Limits::batch`]), each record after the warnings and counts that
//! came before it.
//!
//! Memory stays bounded: the [`Window`] admits at most
//! [`Limits::items`] tasks, and [`Limits::bytes`] bytes of them, between
//! the reader and the writer (and the reader holds one batch more) (a task larger than that waits until it is
//! alone in flight, and so is read in order), each input begun ahead holds
//! what its inflating thread holds (bounded in
//! [`lookahead`](super::lookahead)), and a worker whose output
//! passes [`Limits::spool`] bytes before its turn waits for its turn, then
//! hands the output over piece by piece.
//!
//! With `--unique=all` the set of URLs printed so far depends on every
//! document before, so the workers only read the documents and the writer
//! filters and formats them.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::mem;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use indicatif::ProgressBar;
use urlspec_links::{warc, Context, Document, Format, Summary};

use super::inputs::Inputs;
use super::lookahead::{Listed, MAX_DEPTH};
use super::{
    data_documents, merge, print_data, print_page, read_html, read_inputs,
    read_problem, LinksArgs, Printer, Stage, Unique,
};
use crate::output::{self, Error, RecordWrite};

/// The room a new output buffer starts with.
const OUT_CAPACITY: usize = 64 << 10;

/// How much may be in flight between the reader and the writer.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Tasks (archive records, inputs, batches of warnings).
    pub items: usize,
    /// The bytes of the records and inputs those tasks hold.
    pub bytes: usize,
    /// A worker's formatted output held back before its turn.
    pub spool: usize,
    /// The records of an archive go to a worker in batches of this many
    /// bytes (or [`BATCH_PAGES`] records): a hand-over per record cost
    /// three context switches a record (BENCHMARKS.md).
    pub batch: usize,
    /// Inputs opened, and their archives inflating, while the one before
    /// them is read.
    pub ahead: usize,
}

/// The most records in one batch.
const BATCH_PAGES: usize = 32;

impl Limits {
    /// The limits for `threads` workers: 8 tasks each, 32 MiB of input
    /// in all, 1 MiB of held output per task, batches of 128 KiB, and as
    /// many inputs begun ahead as threads, at most
    /// [`MAX_DEPTH`](super::lookahead::MAX_DEPTH). A batch's JSON is about
    /// twice its input: at 256 KiB of held output most batches waited for
    /// their turn before they were done (BENCHMARKS.md).
    pub fn new(threads: usize) -> Limits {
        Limits {
            items: 8 * threads,
            bytes: 32 << 20,
            spool: 1 << 20,
            batch: 128 << 10,
            ahead: threads.min(MAX_DEPTH),
        }
    }
}

/// Reads every input of `args` on `threads` workers, printing with
/// `printer` to `out`; `Ok(true)` when some input could not be read or
/// named (exit status 1).
pub fn run(
    args: &LinksArgs,
    ctx: &Context,
    threads: usize,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    let window = Window::new(Limits::new(threads));
    let inputs = || Inputs::new(args);
    pipeline(args, ctx, threads, &window, printer, out, inputs)
}

/// What the [`Window`] saw at its fullest (read by the tests of the
/// bound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub struct Peaks {
    /// The most tasks in flight.
    pub items: usize,
    /// The most bytes of tasks in flight.
    pub bytes: usize,
    /// The most output a worker held before its turn.
    pub spooled: usize,
    /// The largest task.
    pub largest: usize,
}

/// [`run`] through `window`, on the inputs `inputs` makes (on the reader
/// thread).
fn pipeline<I>(
    args: &LinksArgs,
    ctx: &Context,
    threads: usize,
    window: &Window,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
    inputs: impl FnOnce() -> I + Send,
) -> Result<bool, Error>
where
    I: Listed,
{
    let defer = args.unique == Some(Unique::All);
    let (task_tx, task_rx) = mpsc::sync_channel::<Task>(threads);
    // Held by the workers alone: when they are all gone, the reader's
    // send fails instead of waiting for ever.
    let task_rx = Arc::new(Mutex::new(task_rx));
    let (msg_tx, msg_rx) = mpsc::sync_channel::<Msg>(4 * threads);
    let verbose = printer.verbose;
    let interactive = out.interactive();
    let (written, read) = thread::scope(|scope| {
        for _ in 0..threads {
            let (tasks, results) = (task_rx.clone(), msg_tx.clone());
            scope.spawn(move || {
                work(&tasks, &results, window, args, defer, interactive)
            });
        }
        drop(task_rx);
        let reader = scope.spawn(move || {
            let mut feed = Feed {
                window,
                tasks: task_tx,
                results: msg_tx,
                seq: 0,
                input: 0,
                name: Arc::from(""),
                ctx: None,
                pending: Vec::new(),
                batch: Vec::new(),
                batch_bytes: 0,
                bar: None,
                verbose,
                interactive,
            };
            let read = read_inputs(inputs(), args, ctx, &mut feed);
            let _ = feed.flush();
            read
        });
        let mut writer =
            Writer { printer, out, window, failed: false, poisoned: None };
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
/// from, and what to read.
struct Task {
    seq: u64,
    input: usize,
    name: Arc<str>,
    ctx: Arc<Context>,
    /// The bytes it holds (for the window).
    bytes: usize,
    /// What came before it in the input: warnings, counts.
    before: Vec<Piece>,
    work: Work,
    bar: Option<ProgressBar>,
}

enum Work {
    /// WARC records that hold pages, each after what came before it in
    /// the input (warnings, counts).
    Pages(Vec<(Vec<Piece>, warc::Page)>),
    /// An HTML or MIME input, whole.
    Data(Format, Vec<u8>),
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
    /// A document to filter and format in order (`--unique=all`).
    Doc(Box<Document>),
    /// A long HTML page, read and printed by the writer in its turn.
    LongHtml(Box<LongHtml>),
    /// Counts for the summary.
    Add(Summary),
    /// Inputs, records or documents that could not be read.
    Unreadable(usize),
    /// An input that could not be read or named.
    Failed,
    /// The reading of the input failed here: nothing more of it is
    /// printed (as with one thread, which stops reading it).
    Poison,
}

/// An HTML page past [`IN_MEMORY`](urlspec_links::html::stream::IN_MEMORY):
/// its file, read by the writer with the main printer, so that its links
/// stream out in bounded memory and in order.
struct LongHtml {
    format: Format,
    file: File,
    name: Arc<str>,
    ctx: Arc<Context>,
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

/// The tasks in flight, and whose turn it is to be written.
struct Window {
    limits: Limits,
    state: Mutex<Flight>,
    /// Output buffers the writer has emptied, for the workers to fill
    /// again: a buffer freed on one thread and allocated on another cost
    /// page faults and cross-thread frees (BENCHMARKS.md).
    spare: Mutex<Vec<Vec<u8>>>,
    /// The reader waits here for room.
    room: Condvar,
    /// Workers wait here for their turn.
    turn: Condvar,
}

struct Flight {
    items: usize,
    bytes: usize,
    /// The task being written.
    head: u64,
    closed: bool,
    /// Whether the reader waits for room, how many workers for their
    /// turn: a notification with no one waiting is a system call spent.
    wants_room: bool,
    wants_turn: usize,
    peaks: Peaks,
}

impl Window {
    fn new(limits: Limits) -> Window {
        Window {
            limits,
            state: Mutex::new(Flight {
                items: 0,
                bytes: 0,
                head: 0,
                closed: false,
                wants_room: false,
                wants_turn: 0,
                peaks: Peaks::default(),
            }),
            spare: Mutex::new(Vec::new()),
            room: Condvar::new(),
            turn: Condvar::new(),
        }
    }

    /// An empty output buffer: a spare one (grown to the outputs it
    /// held), or a new one.
    fn buffer(&self) -> Vec<u8> {
        let spare =
            self.spare.lock().unwrap_or_else(PoisonError::into_inner).pop();
        spare.unwrap_or_else(|| Vec::with_capacity(OUT_CAPACITY))
    }

    /// Keeps `buf`, emptied, for [`Window::buffer`]; as many as there can
    /// be tasks in flight, none grown past twice the spool limit (memory
    /// stays bounded).
    fn give_back(&self, mut buf: Vec<u8>) {
        if buf.capacity() > 2 * (self.limits.spool + OUT_CAPACITY) {
            return;
        }
        buf.clear();
        let mut spare =
            self.spare.lock().unwrap_or_else(PoisonError::into_inner);
        if spare.len() < self.limits.items {
            spare.push(buf);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Flight> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for room for a task of `bytes` (any task when none is in
    /// flight); `false` once the output is gone.
    fn admit(&self, bytes: usize) -> bool {
        let mut f = self.lock();
        while !f.closed
            && f.items > 0
            && (f.items >= self.limits.items
                || f.bytes + bytes > self.limits.bytes)
        {
            f.wants_room = true;
            f = self.room.wait(f).unwrap_or_else(PoisonError::into_inner);
        }
        f.wants_room = false;
        f.items += 1;
        f.bytes += bytes;
        let (items, in_flight) = (f.items, f.bytes);
        let p = &mut f.peaks;
        p.items = p.items.max(items);
        p.bytes = p.bytes.max(in_flight);
        p.largest = p.largest.max(bytes);
        !f.closed
    }

    /// Waits until task `seq` is the one being written; `false` once the
    /// output is gone.
    fn wait_turn(&self, seq: u64) -> bool {
        let mut f = self.lock();
        while !f.closed && f.head < seq {
            f.wants_turn += 1;
            f = self.turn.wait(f).unwrap_or_else(PoisonError::into_inner);
            f.wants_turn -= 1;
        }
        !f.closed
    }

    /// Task `head` has been written, with its `bytes`. The reader, once
    /// it waits, is woken when half the window is free, not for each task
    /// (it would wake to send one and wait again).
    fn written(&self, bytes: usize) {
        let mut f = self.lock();
        f.items -= 1;
        f.bytes -= bytes;
        f.head += 1;
        if f.wants_turn > 0 {
            self.turn.notify_all();
        }
        let half = f.items <= self.limits.items / 2
            && f.bytes <= self.limits.bytes / 2;
        if f.wants_room && half {
            self.room.notify_one();
        }
    }

    /// A worker held `bytes` of output before its turn.
    fn spooled(&self, bytes: usize) {
        let mut f = self.lock();
        f.peaks.spooled = f.peaks.spooled.max(bytes);
    }

    fn close(&self) {
        self.lock().closed = true;
        self.room.notify_all();
        self.turn.notify_all();
    }

    #[cfg(test)]
    fn peaks(&self) -> Peaks {
        self.lock().peaks
    }
}

fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the output is gone")
}

/// The reader's [`Stage`]: each page or input becomes a task; warnings
/// and counts wait for the next task (or the end of the input) and go
/// with it.
struct Feed<'a> {
    window: &'a Window,
    tasks: SyncSender<Task>,
    results: SyncSender<Msg>,
    seq: u64,
    input: usize,
    name: Arc<str>,
    /// The context of the current input, once a task needed it.
    ctx: Option<Arc<Context>>,
    pending: Vec<Piece>,
    /// The pages of the batch being gathered, their bytes, and the
    /// progress bar of their archive.
    batch: Vec<(Vec<Piece>, warc::Page)>,
    batch_bytes: usize,
    bar: Option<ProgressBar>,
    verbose: bool,
    interactive: bool,
}

impl Feed<'_> {
    /// The context of the current input, shared by its tasks.
    fn context(&mut self, ctx: &Context) -> Arc<Context> {
        self.ctx.get_or_insert_with(|| Arc::new(ctx.clone())).clone()
    }

    /// Sends `work`, after `before` (what came before it in the input and
    /// was not sent yet).
    fn send(
        &mut self,
        work: Work,
        before: Vec<Piece>,
        bytes: usize,
        ctx: Arc<Context>,
        bar: Option<ProgressBar>,
    ) -> io::Result<()> {
        if !self.window.admit(bytes) {
            return Err(gone());
        }
        let task = Task {
            seq: self.seq,
            input: self.input,
            name: self.name.clone(),
            ctx,
            bytes,
            before,
            work,
            bar,
        };
        self.seq += 1;
        self.tasks.send(task).map_err(|_| gone())
    }

    /// Sends the batch of pages gathered so far, if any. What came before
    /// each page rides with it; what is pending came after the last one,
    /// and stays for what comes next.
    fn send_batch(&mut self) -> io::Result<()> {
        let Some(ctx) = self.ctx.clone().filter(|_| !self.batch.is_empty())
        else {
            return Ok(());
        };
        let pages = mem::take(&mut self.batch);
        let bytes = mem::take(&mut self.batch_bytes);
        let bar = self.bar.take();
        self.send(Work::Pages(pages), Vec::new(), bytes, ctx, bar)
    }

    /// Sends the batch, then the warnings and counts not sent with a
    /// task yet.
    fn flush(&mut self) -> io::Result<()> {
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
        self.ctx = None;
    }

    fn page(
        &mut self,
        page: warc::Page,
        ctx: &Context,
        bar: Option<&ProgressBar>,
    ) -> io::Result<()> {
        self.context(ctx);
        if self.batch.is_empty() {
            self.bar = bar.cloned();
        }
        self.batch_bytes += page.len();
        self.batch.push((mem::take(&mut self.pending), page));
        if self.batch_bytes >= self.window.limits.batch
            || self.batch.len() >= BATCH_PAGES
        {
            self.send_batch()?;
        }
        Ok(())
    }

    fn data(
        &mut self,
        format: Format,
        data: Vec<u8>,
        _: &str,
        ctx: &Context,
    ) -> io::Result<()> {
        self.send_batch()?;
        let (bytes, ctx) = (data.len(), self.context(ctx));
        let before = mem::take(&mut self.pending);
        self.send(Work::Data(format, data), before, bytes, ctx, None)
    }

    fn long_html(
        &mut self,
        format: Format,
        file: File,
        name: &str,
        ctx: &Context,
    ) -> Result<(), Error> {
        let ctx = self.context(ctx);
        let long = LongHtml { format, file, name: Arc::from(name), ctx };
        self.pending.push(Piece::LongHtml(Box::new(long)));
        self.flush().map_err(Error::Write)
    }

    fn warn(&mut self, line: String) {
        self.pending.push(Piece::Warn(line));
    }

    fn unreadable(&mut self) {
        self.pending.push(Piece::Unreadable(1));
    }

    fn add(&mut self, summary: Summary) {
        self.pending.push(Piece::Add(summary));
    }

    fn failed(&mut self) {
        self.pending.push(Piece::Failed);
    }

    fn verbose(&self) -> bool {
        self.verbose
    }

    fn interactive(&self) -> bool {
        self.interactive
    }

    fn inflate_ahead(&self) -> bool {
        true
    }

    fn lookahead(&self) -> usize {
        self.window.limits.ahead
    }
}

/// A worker: takes tasks until there are none, reads and formats each
/// into a [`Spool`]. `defer`: the documents go to the writer unformatted.
fn work(
    tasks: &Mutex<Receiver<Task>>,
    results: &SyncSender<Msg>,
    window: &Window,
    args: &LinksArgs,
    defer: bool,
    interactive: bool,
) {
    let mut printer = Printer::new(args.output);
    if !defer {
        printer = printer.with_filter(args.filter());
    }
    loop {
        let next = tasks.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(task) = next else { return };
        let mut spool = Spool {
            seq: task.seq,
            input: task.input,
            pieces: task.before,
            held: 0,
            results,
            window,
            bar: task.bar,
            interactive,
        };
        let (name, ctx) = (task.name, task.ctx);
        let read = match task.work {
            Work::Pages(pages) => {
                let mut read = Ok(Ok(()));
                for (before, page) in pages {
                    spool.pieces.extend(before);
                    read = output::isolate(|| {
                        if defer {
                            let doc = page.document(&ctx);
                            spool.pieces.push(Piece::Doc(Box::new(doc)));
                            return Ok(());
                        }
                        // A long page is printed as it is read: its output
                        // waits for its turn in the spool, in bounded
                        // memory.
                        print_page(&mut printer, &mut spool, page, &ctx)
                    });
                    if !matches!(read, Ok(Ok(()))) {
                        break;
                    }
                }
                read
            }
            Work::Data(format, data) if defer => output::isolate(|| {
                let mut docs = Vec::new();
                let read =
                    data_documents(format, &data, &name, &ctx, &mut |d| {
                        docs.push(Piece::Doc(Box::new(d)));
                    });
                spool.pieces.append(&mut docs);
                if let Err(problem) = read {
                    spool.pieces.push(Piece::Unreadable(1));
                    spool
                        .warn(&format!("urlspec: {name}: {}", problem.reason));
                }
                Ok(())
            }),
            Work::Data(format, data) => output::isolate(|| {
                print_data(
                    format,
                    &data,
                    &name,
                    &ctx,
                    &mut printer,
                    &mut spool,
                )
            }),
        };
        match read {
            Ok(Ok(())) => {}
            // The writer is gone.
            Ok(Err(_)) => return,
            // As with one thread: what was printed stays, the input is
            // read no further.
            Err(bad) => {
                spool.pieces.push(Piece::Unreadable(1));
                spool.warn(&format!("urlspec: {name}: {}: {bad}", bad.kind()));
                spool.pieces.push(Piece::Poison);
            }
        }
        spool.pieces.push(Piece::Add(mem::take(&mut printer.summary)));
        spool
            .pieces
            .push(Piece::Unreadable(mem::take(&mut printer.unreadable)));
        let msg = Msg {
            seq: spool.seq,
            input: spool.input,
            done: Some(task.bytes),
            pieces: mem::take(&mut spool.pieces),
            bar: spool.bar.take(),
        };
        if results.send(msg).is_err() {
            return;
        }
    }
}

/// A worker's output for one task, held until the task's turn once it
/// passes the limit, then handed over piece by piece.
struct Spool<'a> {
    seq: u64,
    input: usize,
    pieces: Vec<Piece>,
    /// The output bytes in `pieces`.
    held: usize,
    results: &'a SyncSender<Msg>,
    window: &'a Window,
    bar: Option<ProgressBar>,
    /// Whether records are flushed as they end (a terminal); if not, the
    /// outputs of a batch's pages share their buffers.
    interactive: bool,
}

impl Spool<'_> {
    /// Hands the output over if it passed the limit, once it is the
    /// task's turn.
    fn spill(&mut self) -> io::Result<()> {
        if self.held <= self.window.limits.spool {
            return Ok(());
        }
        self.window.spooled(self.held);
        if !self.window.wait_turn(self.seq) {
            return Err(gone());
        }
        let msg = Msg {
            seq: self.seq,
            input: self.input,
            done: None,
            pieces: mem::take(&mut self.pieces),
            bar: self.bar.clone(),
        };
        self.held = 0;
        self.results.send(msg).map_err(|_| gone())
    }
}

impl Write for Spool<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.pieces.last_mut() {
            Some(Piece::Out(out)) => out.extend_from_slice(buf),
            _ => {
                // Room for a task's output at once: growing from a line
                // copied it over and over (a fifth of the threads' extra
                // instructions, BENCHMARKS.md).
                let mut out = self.window.buffer();
                out.extend_from_slice(buf);
                self.pieces.push(Piece::Out(out));
            }
        }
        self.held += buf.len();
        self.spill()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl RecordWrite for Spool<'_> {
    fn end_record(&mut self) -> io::Result<()> {
        if self.interactive {
            self.pieces.push(Piece::EndRecord);
        }
        Ok(())
    }

    fn begin_block(&mut self, _first: bool) -> io::Result<()> {
        self.pieces.push(Piece::Block);
        Ok(())
    }

    fn warn(&mut self, line: &str) {
        self.pieces.push(Piece::Warn(line.to_string()));
    }
}

/// The writer: the tasks' outputs in order, replayed on the real output.
struct Writer<'a, W> {
    printer: &'a mut Printer,
    out: &'a mut W,
    window: &'a Window,
    failed: bool,
    /// An input whose reading failed: the rest of it is dropped.
    poisoned: Option<usize>,
}

impl<W: RecordWrite> Writer<'_, W> {
    fn run(&mut self, results: &Receiver<Msg>) -> io::Result<()> {
        let mut waiting = BTreeMap::new();
        let mut head = 0;
        for msg in results {
            let Some(bytes) = msg.done else {
                // A part of the task being written.
                self.apply(msg)?;
                continue;
            };
            waiting.insert(msg.seq, (msg, bytes));
            while let Some((msg, bytes)) = waiting.remove(&head) {
                self.apply(msg)?;
                head += 1;
                self.window.written(bytes);
            }
        }
        Ok(())
    }

    fn apply(&mut self, msg: Msg) -> io::Result<()> {
        if self.poisoned == Some(msg.input) {
            return Ok(());
        }
        let (input, interactive) = (msg.input, self.out.interactive());
        let replay = || {
            for piece in msg.pieces {
                self.piece(piece, input)?;
            }
            Ok(())
        };
        match &msg.bar {
            // The bar and the output share the terminal.
            Some(bar) if interactive => bar.suspend(replay),
            _ => replay(),
        }
    }

    fn piece(&mut self, piece: Piece, input: usize) -> io::Result<()> {
        match piece {
            Piece::Out(bytes) => {
                self.out.write_all(&bytes)?;
                self.window.give_back(bytes);
            }
            Piece::Block => {
                let first = mem::replace(&mut self.printer.first, false);
                if !first {
                    self.out.write_all(b"\n")?;
                }
            }
            Piece::EndRecord => self.out.end_record()?,
            Piece::Warn(line) => self.out.warn(&line),
            Piece::Doc(doc) => self.printer.document(self.out, *doc)?,
            Piece::LongHtml(long) => self.long_html(*long)?,
            Piece::Add(summary) => merge(&mut self.printer.summary, summary),
            Piece::Unreadable(n) => self.printer.unreadable += n,
            Piece::Failed => self.failed = true,
            Piece::Poison => self.poisoned = Some(input),
        }
        Ok(())
    }

    /// Reads and prints a long page, reporting what cannot be read as
    /// [`read_all`] does; `Err` only when the output is gone.
    fn long_html(&mut self, long: LongHtml) -> io::Result<()> {
        let LongHtml { format, file, name, ctx } = long;
        let read = output::isolate(|| {
            read_html(format, &file, &name, &ctx, self.printer, self.out)
        });
        if let Some(problem) = read_problem(&name, read)? {
            if problem.failed {
                self.failed = true;
            } else {
                self.printer.unreadable += 1;
            }
            self.out.warn(&problem.line);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::inputs::Input;
    use super::super::lookahead::tests::{archive as archive_of, input};
    use super::super::panics::Capture;
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    fn links_args(args: &[&str]) -> LinksArgs {
        let argv = ["urlspec", "links"].iter().chain(args);
        let Command::Links(args) = Cli::try_parse_from(argv).unwrap().command
        else {
            panic!("not links")
        };
        args
    }

    /// An archive of `n` small pages, the tenth with 3,000 links.
    fn archive(n: usize) -> Vec<u8> {
        let mut warc = Vec::new();
        for i in 0..n {
            let links = if i == 10 { 3000 } else { 5 };
            let html: String =
                (0..links).map(|k| format!("<a href=\"{k}/x\">")).collect();
            let block = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}"
            );
            warc.extend_from_slice(
                format!(
                    "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: \
                     http://h/{i}/\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
                    block.len()
                )
                .as_bytes(),
            );
        }
        warc
    }

    /// An output whose writes wait until it is opened.
    struct Stalled<'a> {
        open: &'a (Mutex<bool>, Condvar),
        bytes: Vec<u8>,
    }

    impl Write for Stalled<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let (open, changed) = self.open;
            let mut is_open = open.lock().unwrap();
            while !*is_open {
                is_open = changed.wait(is_open).unwrap();
            }
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl RecordWrite for Stalled<'_> {
        fn end_record(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn spare_buffers_are_reused_emptied_and_bounded() {
        let limits = Limits {
            items: 2,
            bytes: 1 << 20,
            spool: 1 << 10,
            batch: 1,
            ahead: 1,
        };
        let window = Window::new(limits);
        let mut buf = window.buffer();
        assert!(buf.is_empty() && buf.capacity() >= OUT_CAPACITY);
        buf.extend_from_slice(b"a line\n");
        let at = buf.as_ptr();
        window.give_back(buf);
        // The same allocation, emptied.
        let again = window.buffer();
        assert_eq!((again.as_ptr(), again.len()), (at, 0));
        // No more spares than tasks in flight.
        for _ in 0..5 {
            window.give_back(Vec::with_capacity(16));
        }
        assert_eq!(window.spare.lock().unwrap().len(), limits.items);
        // A buffer grown past twice the spool limit is freed.
        let mut spare = window.spare.lock().unwrap();
        spare.clear();
        drop(spare);
        window.give_back(vec![0; 2 * (limits.spool + OUT_CAPACITY) + 1]);
        assert!(window.spare.lock().unwrap().is_empty());
    }

    #[test]
    fn the_window_bounds_what_is_in_flight() {
        let path = std::env::temp_dir()
            .join(format!("urlspec-parallel-{}.warc", std::process::id()));
        std::fs::write(&path, archive(200)).unwrap();
        let args = links_args(&["-o", "json", path.to_str().unwrap()]);
        let ctx = super::super::context(&args).unwrap();
        // One page a task: the window fills before the long tenth page.
        let limits = Limits {
            items: 6,
            bytes: 4 << 10,
            spool: 8 << 10,
            batch: 1,
            ahead: 1,
        };
        let window = Window::new(limits);
        let open = (Mutex::new(false), Condvar::new());
        let mut printer = Printer::new(args.output);
        let mut out = Stalled { open: &open, bytes: Vec::new() };
        thread::scope(|scope| {
            let run = scope.spawn(|| {
                let inputs = || Inputs::new(&args);
                pipeline(
                    &args,
                    &ctx,
                    2,
                    &window,
                    &mut printer,
                    &mut out,
                    inputs,
                )
            });
            // With the output stalled on the first page, the reader fills
            // the window and waits: it has taken no more of the archive
            // than the window holds.
            let start = Instant::now();
            let full = loop {
                let f = window.lock();
                if f.items == limits.items {
                    break (f.head, f.items, f.bytes);
                }
                drop(f);
                assert!(start.elapsed() < Duration::from_secs(60));
                thread::sleep(Duration::from_millis(5));
            };
            thread::sleep(Duration::from_millis(50));
            let f = window.lock();
            assert_eq!((f.head, f.items, f.bytes), full, "the reader waits");
            drop(f);
            *open.0.lock().unwrap() = true;
            open.1.notify_all();
            assert!(!run.join().unwrap().unwrap());
        });
        std::fs::remove_file(&path).unwrap();
        let peaks = window.peaks();
        assert!(peaks.items <= limits.items, "{peaks:?}");
        assert!(peaks.bytes <= limits.bytes.max(peaks.largest), "{peaks:?}");
        // The page of 3,000 links spilled its output past the limit, held
        // no more than the limit and a line before it could write.
        assert!(peaks.spooled > limits.spool, "{peaks:?}");
        assert!(peaks.spooled < limits.spool + 512, "{peaks:?}");
        // The same output as one thread's.
        let mut serial = Vec::new();
        let mut one = Printer::new(args.output);
        let mut stage = super::super::Serial {
            printer: &mut one,
            out: &mut serial,
            failed: false,
        };
        std::fs::write(&path, archive(200)).unwrap();
        super::super::read_all(&args, &ctx, &mut stage).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(out.bytes == serial, "the output differs");
        assert_eq!(printer.summary, one.summary);
        assert_eq!(printer.summary.links, 199 * 5 + 3000);
    }

    /// What the readers of [`failing_inputs`] saw: how many were read
    /// from, how many dropped.
    #[derive(Default)]
    struct Seen {
        read: AtomicUsize,
        dropped: AtomicUsize,
    }

    /// A reader that panics once `left` bytes are taken (saying so on
    /// `failing` first), or waits on `gate` once `wait` bytes are taken.
    struct Fails {
        data: io::Cursor<Vec<u8>>,
        left: Option<usize>,
        failing: Option<mpsc::Sender<()>>,
        wait: Option<(usize, mpsc::Receiver<()>)>,
        seen: Arc<Seen>,
    }

    impl io::Read for Fails {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.data.position() == 0 {
                self.seen.read.fetch_add(1, Ordering::SeqCst);
            }
            if let Some((at, gate)) = &self.wait {
                if self.data.position() >= *at as u64 {
                    // A guard against a hang, not a measure.
                    gate.recv_timeout(Duration::from_secs(60))
                        .map_err(io::Error::other)?;
                    self.wait = None;
                }
            }
            let room = match self.left {
                Some(0) => {
                    if let Some(failing) = self.failing.take() {
                        let _ = failing.send(());
                    }
                    panic!("the input failed")
                }
                Some(left) => left.min(buf.len()),
                None => buf.len(),
            };
            let n = self.data.read(&mut buf[..room])?;
            if let Some(left) = &mut self.left {
                *left -= n;
            }
            Ok(n)
        }
    }

    impl Drop for Fails {
        fn drop(&mut self) {
            self.seen.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Inputs of the archives `data` (named `0.warc.gz`, ...), the one at
    /// `fails` panicking after `left` bytes, the first waiting past its
    /// head until it does; what their readers saw.
    fn failing_inputs(
        data: Vec<Vec<u8>>,
        fails: usize,
        left: usize,
    ) -> (Vec<Result<Input, String>>, Arc<Seen>) {
        let seen = Arc::new(Seen::default());
        let (failing, gate) = mpsc::channel();
        let (mut failing, mut gate) = (Some(failing), Some(gate));
        let inputs = data
            .into_iter()
            .enumerate()
            .map(|(i, data)| {
                let len = data.len();
                let reader = Fails {
                    data: io::Cursor::new(data),
                    left: (i == fails).then_some(left),
                    failing: if i == fails { failing.take() } else { None },
                    wait: if i == 0 && fails < usize::MAX {
                        gate.take().map(|gate| (4096, gate))
                    } else {
                        None
                    },
                    seen: seen.clone(),
                };
                Ok(input(&format!("{i}.warc.gz"), len, reader))
            })
            .collect();
        (inputs, seen)
    }

    #[test]
    fn an_archive_begun_ahead_whose_inflating_thread_dies_is_reported_at_its_turn(
    ) {
        let args = links_args(&["-o", "tsv"]);
        let ctx = super::super::context(&args).unwrap();
        // 100 members in the second archive: the first batch of 64 is
        // inflated, then its input fails on the thread inflating it, ahead
        // of its turn: the first archive is read no further than its head
        // before that.
        let data: Vec<Vec<u8>> = ["a", "b", "c"]
            .iter()
            .map(|name| archive_of(name, 100, 50, false))
            .collect();
        let members = archive_of("b", 80, 50, false).len();
        let (inputs, seen) = failing_inputs(data, 1, members);
        let window = Window::new(Limits::new(2));
        let mut printer = Printer::new(args.output);
        let mut out = Capture::default();
        let inputs = move || inputs.into_iter();
        let failed =
            pipeline(&args, &ctx, 2, &window, &mut printer, &mut out, inputs)
                .unwrap();
        assert!(!failed);
        let text = String::from_utf8(out.out).unwrap();
        let warning = "stderr: urlspec: 1.warc.gz: ";
        let at = text.find(warning).unwrap_or_else(|| panic!("{text}"));
        let line = text[at..].lines().next().unwrap();
        assert!(line.contains("the inflater stopped"), "{line}");
        // Reported at its turn: after every page of the first archive and
        // those of the second inflated before the failure, before the
        // third; the third read whole.
        assert!(text[..at].contains("http://a/99/l99"));
        assert!(text[..at].contains("http://b/63/l63"));
        assert!(!text[..at].contains("http://c/"));
        assert!(text[at..].contains("http://c/0/l0"));
        assert!(text[at..].contains("http://c/99/l99"));
        assert_eq!(printer.unreadable, 1);
        assert_eq!(printer.summary.documents, 264);
        assert_eq!(seen.dropped.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_closed_output_ends_the_inputs_begun_ahead() {
        let args = links_args(&["-o", "json"]);
        let ctx = super::super::context(&args).unwrap();
        // 2,000 pages of 2 KB an archive: the window fills inside the
        // first one, so the reader stays in it.
        let data: Vec<Vec<u8>> = (0..20)
            .map(|i| archive_of(&format!("h{i}"), 2000, 2000, false))
            .collect();
        let (inputs, seen) = failing_inputs(data, usize::MAX, 0);
        let window = Window::new(Limits::new(2));
        let mut printer = Printer::new(args.output);
        // The output closes inside the second archive's pages.
        let mut out = Capture { out: Vec::new(), room: 40_000 };
        let inputs = move || inputs.into_iter();
        let run =
            pipeline(&args, &ctx, 2, &window, &mut printer, &mut out, inputs);
        assert!(matches!(run, Err(Error::Write(_))));
        // The output closed inside the first archive, the next two begun
        // ahead, no more.
        assert_eq!(seen.read.load(Ordering::SeqCst), 1 + 2);
        // Every input has been let go, those begun ahead too: their
        // inflating threads, which held them, ended (the wait guards
        // against a hang).
        let start = Instant::now();
        while seen.dropped.load(Ordering::SeqCst) < 20 {
            assert!(start.elapsed() < Duration::from_secs(60));
            thread::sleep(Duration::from_millis(5));
        }
    }
}
