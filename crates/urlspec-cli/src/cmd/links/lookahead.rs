//! The inputs of `urlspec links --threads N`, begun ahead of their turn.
//!
//! A crawl is many record-compressed archives, and one reader frames them
//! in order ([`super::parallel`]). Opened only when the one before was
//! done, each archive's inflating thread
//! ([`warc::Documents::inflate_ahead`]) started cold at the file boundary
//! and the workers waited. So while input k is read, the next `depth`
//! inputs are already opened, their first bytes read and their format
//! told, and each gzip-compressed archive among them inflates its members
//! on its own thread ([`warc::Documents::start`]). At its turn an input is
//! read as if it had just been opened: its output, its warnings and their
//! places are those of one thread; an input that could not be opened is
//! reported at its turn with the same line.
//!
//! `depth` is the thread count, at most [`MAX_DEPTH`]
//! ([`super::parallel::Limits`]): as many archives can inflate at once as
//! there are cores to run them, which matters when archives are small
//! (one begun ahead is then read to its end before the next one could
//! have warmed up); more would only hold memory and files.
//!
//! Memory: an archive begun ahead holds what its inflating thread holds
//! ahead and no more, two batches sent and one being filled, each of at
//! most 256 KiB of inflated bytes and one member; a member past the 2 MiB
//! block limit ends the thread and is inflated at its turn. That is about
//! 0.8 MiB for the records of a crawl, under 7 MiB at worst, besides its
//! input buffer (64 KiB), its first bytes (1 KiB), an open file and a
//! thread: at most `depth` times that beyond the window of
//! [`super::parallel`]. Other inputs hold their first bytes and a file.
//!
//! Only regular files are begun ahead. An input that is not one (standard
//! input, a pipe, the sample) is left alone until its turn, and no input
//! after it is taken before it has been read: a list read from standard
//! input (`--paths-from -`) and a `-` among the files share it in their
//! order, as with one thread.
//!
//! One reader with the next inputs begun, rather than a reader per input:
//! the framing, redirects and warnings of the inputs come out in input
//! order anyway, the reader's own work (framing, HTTP heads) is small
//! beside inflating (moved off it) and parsing (the workers'), and what
//! a file boundary lost was the inflation's cold start.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::mem;

use urlspec_links::{Context, Format};

use super::inputs::Input;
use super::{Archive, Head, InputFormat};
use crate::output::{self, BadLine};

/// The most inputs begun ahead, whatever the thread count.
pub const MAX_DEPTH: usize = 4;

/// An input taken from the list, and how far its reading has begun.
pub struct Next {
    pub input: Input,
    /// `Err`: the library panicked while it was begun.
    pub begun: Result<Begun, BadLine>,
}

/// How far an input's reading went before its turn.
pub enum Begun {
    /// Not at all: it is read from its start.
    No,
    /// Its first bytes were read (or could not be).
    Head(io::Result<Head>),
    /// A gzip-compressed archive, its members inflating.
    Archive(Archive),
}

/// The inputs of `inputs`, in order, each after the next `depth` ones
/// were taken and begun.
pub struct Lookahead<'a, I> {
    inputs: I,
    queue: VecDeque<Result<Next, String>>,
    depth: usize,
    /// An input that is not a regular file is in the queue: nothing more
    /// is taken until it has been read.
    held: bool,
    format: InputFormat,
    ctx: &'a Context,
    verbose: bool,
}

impl<'a, I: Iterator<Item = Result<Input, String>>> Lookahead<'a, I> {
    /// `depth` 0 takes each input at its turn and begins none, as one
    /// thread reads; `format`, `ctx` and `verbose` are the run's.
    pub fn new(
        inputs: I,
        depth: usize,
        format: InputFormat,
        ctx: &'a Context,
        verbose: bool,
    ) -> Lookahead<'a, I> {
        Lookahead {
            inputs,
            queue: VecDeque::new(),
            depth,
            held: false,
            format,
            ctx,
            verbose,
        }
    }

    /// `input` taken, begun when it is a regular file and inputs are begun
    /// ahead.
    fn take(&mut self, mut input: Input) -> Next {
        if self.depth == 0 {
            return Next { input, begun: Ok(Begun::No) };
        }
        if input.path.is_none() {
            self.held = true;
            return Next { input, begun: Ok(Begun::No) };
        }
        let (format, ctx, verbose) = (self.format, self.ctx, self.verbose);
        let begun = output::isolate(|| {
            let head = match Head::read(&mut input.reader, format) {
                Ok(head) => head,
                Err(e) => return Begun::Head(Err(e)),
            };
            // What [`super::read_begun`] would read as an archive, and
            // inflate on its own thread.
            let archive = head.gzip
                && head.format == Some(Format::Warc)
                && input.url.is_none()
                && ctx.retrieval.is_empty();
            if !archive {
                return Begun::Head(Ok(head));
            }
            let reader =
                mem::replace(&mut input.reader, Box::new(io::empty()));
            let rest = io::Cursor::new(head.bytes).chain(reader);
            let mut archive = Archive::open_as(
                rest,
                &input.name,
                input.size,
                ctx,
                verbose,
                true,
                true,
            );
            archive.docs.start();
            Begun::Archive(archive)
        });
        Next { input, begun }
    }
}

impl<I: Iterator<Item = Result<Input, String>>> Iterator for Lookahead<'_, I> {
    type Item = Result<Next, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.held && self.queue.len() <= self.depth {
            let Some(next) = self.inputs.next() else { break };
            let next = next.map(|input| self.take(input));
            self.queue.push_back(next);
        }
        let next = self.queue.pop_front()?;
        if matches!(&next, Ok(n) if n.input.path.is_none()) {
            // Read next: what comes after it is taken once it is read.
            self.held = false;
        }
        Some(next)
    }
}
