//! The writer of [`super`]'s pipeline: the tasks' outputs put back in
//! order and replayed on the real output, their counts added to the
//! run's, the long pages read and printed in their turn.

use std::collections::BTreeMap;
use std::io;
use std::sync::mpsc::Receiver;

use urlspec_links::{Part, Summary, Tally};

use super::super::printer::Printer;
use super::super::read::{print_part, read_problem};
use super::window::Window;
use super::{Msg, Piece};
use crate::output::{self, RecordWrite};

/// The writer: the tasks' outputs in order, replayed on the real output.
pub struct Writer<'a, W> {
    printer: &'a mut Printer,
    /// Keeps and counts the documents the workers leave to it.
    tally: &'a mut Tally,
    out: &'a mut W,
    window: &'a Window,
    pub failed: bool,
    /// An input whose reading failed: the rest of it is dropped.
    poisoned: Option<usize>,
}

impl<'a, W: RecordWrite> Writer<'a, W> {
    pub fn new(
        printer: &'a mut Printer,
        tally: &'a mut Tally,
        out: &'a mut W,
        window: &'a Window,
    ) -> Writer<'a, W> {
        Writer { printer, tally, out, window, failed: false, poisoned: None }
    }

    /// Replays the tasks' outputs as they come, in order.
    pub fn run(&mut self, results: &Receiver<Msg>) -> io::Result<()> {
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
                if !self.printer.begin_block() {
                    self.out.write_all(b"\n")?;
                }
            }
            Piece::EndRecord => self.out.end_record()?,
            Piece::Warn(line) => self.out.warn(&line),
            Piece::Doc(mut doc) => {
                self.tally.document(&mut doc);
                self.printer.document(self.out, &mut doc)?;
            }
            Piece::Long(part) => self.long(*part)?,
            Piece::Add(summary) => self.tally.merge(summary),
            Piece::Unreadable(unreadable) => {
                self.tally.merge(Summary { unreadable, ..Summary::default() });
            }
            Piece::Failed => self.failed = true,
            Piece::Poison => self.poisoned = Some(input),
        }
        Ok(())
    }

    /// Reads and prints a long page or message, reporting what cannot be
    /// read as [`super::super::read`] does; `Err` only when the output is
    /// gone.
    fn long(&mut self, part: Part) -> io::Result<()> {
        let name = part.name().to_owned();
        let read = output::isolate(|| {
            print_part(part, self.tally, self.printer, self.out)
                .map_err(crate::output::Error::Write)
        });
        if let Ok(Ok(true)) = read {
            self.failed = true;
        }
        match read_problem(&name, read)? {
            None => Ok(()),
            Some(problem) => {
                if problem.failed {
                    self.failed = true;
                } else {
                    self.tally.merge(Summary {
                        unreadable: 1,
                        ..Summary::default()
                    });
                }
                self.out.warn(&problem.line);
                Ok(())
            }
        }
    }
}
