//! A worker of [`super`]'s pipeline: takes tasks until there are none,
//! reads each part (decoded, parsed, resolved, kept and counted) and
//! formats its documents into a [`Spool`], held until the task's turn
//! once it passes its limit.

use std::io::{self, Write};
use std::mem;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Mutex, PoisonError};
use std::thread;

use indicatif::ProgressBar;
use urlspec_links::{InputError, Select, Tally};

use super::super::args::LinksOutput;
use super::super::printer::Printer;
use super::super::read::print_part;
use super::window::{gone, Window};
use super::{Msg, Piece, Task};
use crate::output::{self, RecordWrite};

/// What a worker needs: the window, the output format, the links kept,
/// whether the writer keeps and formats them instead, and whether the
/// output is a terminal.
pub struct Worker<'a> {
    pub window: &'a Window,
    pub output: LinksOutput,
    /// Whether links carry the hosts of `--parsers`.
    pub parsers: bool,
    pub select: &'a Select,
    /// `--unique=all`: the documents go to the writer, read but not kept,
    /// counted or formatted.
    pub defer: bool,
    pub interactive: bool,
}

impl Worker<'_> {
    /// Takes tasks from `tasks` until there are none, and sends each
    /// one's output to `results`.
    pub fn work(
        &self,
        tasks: &Mutex<Receiver<Task>>,
        results: &SyncSender<Msg>,
    ) {
        let mut printer = Printer::new(self.output, self.parsers);
        let mut tally = if self.defer {
            Tally::deferred()
        } else {
            Tally::new(self.select)
        };
        loop {
            let next =
                tasks.lock().unwrap_or_else(PoisonError::into_inner).recv();
            let Ok(task) = next else { return };
            // The reader, the inflating thread and the writer, which every
            // worker waits on, get no more of the cores than a worker
            // from the scheduler, and as batch threads (sched.rs) they
            // wait for a worker to give way: a worker that gives way once
            // a task keeps them from falling behind (BENCHMARKS.md,
            // Threads).
            thread::yield_now();
            let mut spool = Spool {
                seq: task.seq,
                input: task.input,
                pieces: Vec::new(),
                held: 0,
                results,
                window: self.window,
                bar: task.bar,
                interactive: self.interactive,
            };
            let mut read = Ok(Ok(()));
            for (before, part) in task.parts {
                spool.pieces.extend(before);
                read = output::isolate(|| {
                    if self.defer {
                        // Whole documents, for the writer to keep, count
                        // and format in order.
                        let name = part.name().to_owned();
                        let pieces = &mut spool.pieces;
                        let read = part.read_whole(&mut tally, &mut |doc| {
                            pieces.push(Piece::Doc(Box::new(doc)));
                        });
                        if let Err(e) = read {
                            if matches!(e, InputError::Io(_)) {
                                pieces.push(Piece::Failed);
                            }
                            spool.warn(&format!("urlspec: {name}: {e}"));
                        }
                        return Ok(());
                    }
                    // A long page is printed as it is read: its output
                    // waits for its turn in the spool, in bounded memory.
                    let failed = print_part(
                        part,
                        &mut tally,
                        &mut printer,
                        &mut spool,
                    )?;
                    if failed {
                        spool.pieces.push(Piece::Failed);
                    }
                    Ok(())
                });
                if !matches!(read, Ok(Ok(()))) {
                    break;
                }
            }
            let read: Result<io::Result<()>, _> = read;
            match read {
                Ok(Ok(())) => {}
                // The writer is gone.
                Ok(Err(_)) => return,
                // As with one thread: what was printed stays, the input is
                // read no further.
                Err(bad) => {
                    spool.pieces.push(Piece::Unreadable(1));
                    spool.warn(&format!(
                        "urlspec: {}: {}: {bad}",
                        task.name,
                        bad.kind()
                    ));
                    spool.pieces.push(Piece::Poison);
                }
            }
            spool.pieces.push(Piece::Add(tally.take_summary()));
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
}

/// A worker's output for one task, held until the task's turn once it
/// passes the limit, then handed over piece by piece.
pub struct Spool<'a> {
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

    fn gather(&self) -> usize {
        // Lines up to the spool limit at once: held output stays bounded
        // by the limit and one line, as it is spilled past it.
        self.window.limits.spool.saturating_sub(self.held).max(1)
    }

    fn extend_with(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        let added = match self.pieces.last_mut() {
            Some(Piece::Out(out)) => {
                let before = out.len();
                fill(out);
                out.len() - before
            }
            _ => {
                let mut out = self.window.buffer();
                fill(&mut out);
                let added = out.len();
                self.pieces.push(Piece::Out(out));
                added
            }
        };
        self.held += added;
        self.spill()
    }

    fn begin_block(&mut self, _first: bool) -> io::Result<()> {
        self.pieces.push(Piece::Block);
        Ok(())
    }

    fn warn(&mut self, line: &str) {
        self.pieces.push(Piece::Warn(line.to_string()));
    }
}
