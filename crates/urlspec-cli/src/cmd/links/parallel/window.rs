//! The window of [`super`]'s pipeline: how much may be in flight between
//! the reader and the writer ([`Limits`]), the tasks in flight and whose
//! turn it is to be written ([`Window`]), and the spare output buffers.

use std::io;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::super::lookahead::MAX_DEPTH;

/// The room a new output buffer has past the spool limit, for the line
/// that passes it.
pub const OUT_CAPACITY: usize = 64 << 10;

/// The most records in one batch.
pub const BATCH_PAGES: usize = 32;

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

impl Limits {
    /// The limits for `threads` workers: 8 tasks each, 32 MiB of input
    /// in all, 1 MiB of held output per task, batches of 128 KiB, and as
    /// many inputs begun ahead as threads, at most
    /// [`MAX_DEPTH`]. A batch's JSON is about
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

/// The tasks in flight, and whose turn it is to be written.
pub struct Window {
    pub limits: Limits,
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

/// What is in flight, under the window's lock.
pub struct Flight {
    /// Tasks in flight.
    pub items: usize,
    /// Their bytes.
    pub bytes: usize,
    /// The task being written.
    pub head: u64,
    closed: bool,
    /// Whether the reader waits for room, how many workers for their
    /// turn: a notification with no one waiting is a system call spent.
    wants_room: bool,
    wants_turn: usize,
    peaks: Peaks,
}

impl Window {
    pub fn new(limits: Limits) -> Window {
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

    /// An empty output buffer: a spare one, or a new one with room for
    /// the output a task holds before it is spilled. Grown from less,
    /// each buffer was copied four or five times over before it reached
    /// that size; the room no output reaches is never touched, so it
    /// takes no memory.
    pub fn buffer(&self) -> Vec<u8> {
        let spare =
            self.spare.lock().unwrap_or_else(PoisonError::into_inner).pop();
        spare.unwrap_or_else(|| {
            Vec::with_capacity(self.limits.spool + OUT_CAPACITY)
        })
    }

    /// Keeps `buf`, emptied, for [`Window::buffer`]; as many as there can
    /// be tasks in flight, none grown past twice the spool limit (memory
    /// stays bounded).
    pub fn give_back(&self, mut buf: Vec<u8>) {
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

    pub fn lock(&self) -> MutexGuard<'_, Flight> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for room for a task of `bytes` (any task when none is in
    /// flight); `false` once the output is gone.
    pub fn admit(&self, bytes: usize) -> bool {
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
    pub fn wait_turn(&self, seq: u64) -> bool {
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
    pub fn written(&self, bytes: usize) {
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
    pub fn spooled(&self, bytes: usize) {
        let mut f = self.lock();
        f.peaks.spooled = f.peaks.spooled.max(bytes);
    }

    pub fn close(&self) {
        self.lock().closed = true;
        self.room.notify_all();
        self.turn.notify_all();
    }

    #[cfg(test)]
    pub fn peaks(&self) -> Peaks {
        self.lock().peaks
    }
}

/// The error of a send or a wait once the output is gone.
pub fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the output is gone")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(
            buf.is_empty() && buf.capacity() >= limits.spool + OUT_CAPACITY
        );
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
}
