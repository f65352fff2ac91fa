//! The gzip members of a record-compressed archive inflated in batches,
//! in order ([`Members`]): ahead, on a thread of their own while the
//! records of the members before them are framed, or on the framing's
//! thread when it asks for the next batch.
//!
//! A member is taken only where the one before it ended, as the reading
//! of one member at a time does, so no place is inflated twice and bytes
//! that merely look like a gzip header inside compressed data are never
//! tried. The batches stop and hand the compressed stream back wherever
//! that reading has something to report or to stream: bytes that start no
//! member, a damaged member (rewound to its first byte, so that its
//! records, its offsets and the resync after it are those of that
//! reading), a member that inflates past the block limit (handed over
//! live, its inflated bytes so far in front), a read error, the end. The
//! framing starts new batches at the next member boundary after that.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::mem;
use std::ops::Range;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use flate2::bufread::GzDecoder;

use super::whole::{Failed, Inflater};
use super::{
    starts_member, Front, Member, Pushback, Spill, GZIP_MAGIC, MEMBER_BUFFER,
};

/// A batch is sent once it holds this many inflated bytes (or
/// [`BATCH_MEMBERS`] members): a hand-over per member would cost a
/// wake-up per record.
const BATCH_BYTES: usize = 128 << 10;
const BATCH_MEMBERS: usize = 64;
/// Batches sent and not yet taken. With the batch being filled and the
/// one being read, at most `BATCHES + 2` batches of at most
/// `BATCH_BYTES` plus one member (no more than the block limit) each
/// are in memory.
const BATCHES: usize = 2;
/// The least room a read into a batch's buffer is given.
const CHUNK: usize = 16 << 10;
/// The length a batch's buffer is given once, zeroed: room for
/// [`BATCH_BYTES`] and a member as long again. A member that does not fit
/// in what is left starts the next batch rather than growing the buffer.
const BATCH_ROOM: usize = 2 * BATCH_BYTES;
/// The first length of a buffer for one member at a time, doubled while
/// a member does not fit.
const MEMBER_ROOM: usize = 4 * CHUNK;

/// A member's inflated bytes, in the buffer its batch shares: one
/// allocation a batch, written once (a buffer a member cost 25 % more
/// instructions on the inflating thread, BENCHMARKS.md).
pub(super) struct Shared {
    batch: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.batch[self.range.clone()]
    }
}

impl Shared {
    /// The next `n` bytes of `member`, taken as a part of its buffer when
    /// they lie whole in it and nothing was given back in front of them.
    pub(super) fn lend(
        member: &mut Pushback<Cursor<Shared>>,
        n: u64,
    ) -> Option<Shared> {
        if !member.front.is_empty() || member.tee.is_some() {
            return None;
        }
        let at = usize::try_from(member.inner.position()).ok()?;
        let n = usize::try_from(n).ok()?;
        let whole = member.inner.get_ref();
        let start = whole.range.start.checked_add(at)?;
        let end =
            start.checked_add(n).filter(|&end| end <= whole.range.end)?;
        let part = Shared { batch: whole.batch.clone(), range: start..end };
        member.inner.set_position((at + n) as u64);
        member.consumed += n as u64;
        Some(part)
    }
}

/// What the inflating thread hands the framing, in order.
pub(super) enum Item<R> {
    /// The member at `start`, inflated whole; the next one starts at
    /// `end`.
    Whole { start: u64, end: u64, bytes: Shared },
    /// The member at `start`, longer than the block limit: its inflater,
    /// its inflated bytes so far in front. The thread has ended.
    Live { start: u64, member: Box<Member<R>> },
    /// The compressed stream, at a place the sequential reading takes
    /// over (see the module doc). The thread has ended.
    Back(Pushback<R>),
}

/// Starts the thread that inflates the members of `raw` from its current
/// place on, none held whole past `limit` inflated bytes; `Err(raw)`
/// when no thread can be started.
pub(super) fn spawn<R: BufRead + Send + 'static>(
    raw: Pushback<R>,
    limit: usize,
) -> Result<Receiver<Vec<Item<R>>>, Pushback<R>> {
    let (tx, rx) = mpsc::sync_channel(BATCHES);
    // The stream goes to the thread through a slot, so that it is still
    // there when the thread cannot be started.
    let slot = Arc::new(Mutex::new(Some(raw)));
    let taken = slot.clone();
    let started = thread::Builder::new().name("urlspec-inflate".into()).spawn(
        move || {
            let raw = taken.lock().ok().and_then(|mut raw| raw.take());
            if let Some(raw) = raw {
                let mut members = Members::new(raw, limit, true);
                while let Some(batch) = members.batch() {
                    if tx.send(batch).is_err() {
                        // The framing is gone.
                        return;
                    }
                }
            }
        },
    );
    if started.is_ok() {
        return Ok(rx);
    }
    let raw = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    // Not started, the closure never ran: the stream is in the slot.
    raw.map_or_else(|| Ok(rx), Err)
}

/// How many more of the stream's buffers a member that goes on past the
/// window may reach into, before it is inflated as a stream instead.
const MORE: usize = 2;
/// The least part of the stream's buffer looked at after the window's
/// bytes, for the rest of a member they cut: twice as much each time it
/// is short, up to the whole buffer.
const PEEK: usize = 8 << 10;
/// Batch buffers kept to be filled again once the framing has let go of
/// them (no zeroing of a fresh buffer); a buffer grown past
/// [`BATCH_ROOM`] for one long member is not kept.
const SPARE: usize = BATCHES + 3;

/// The members of a compressed stream, inflated one after the other into
/// batches, on the thread that inflates ahead ([`spawn`]) or on the
/// framing's own.
///
/// A member is inflated whole where it lies in the stream's buffer, or,
/// when that buffer cuts it, from a window of the compressed bytes
/// ([`Members::whole`]): the member's bytes in that buffer, then as much of
/// the next ones as it takes (up to [`MORE`] buffers), looked at there
/// first and consumed once the member is found to end in them, so that the
/// members after it are inflated in place again. It is tried once the bytes
/// after it hold a member header or the stream's end: where it ends is not
/// known before, and a try of a cut member is lost work ([`next_member`]).
/// A member that does not fit, is damaged or is longer than the limit is
/// inflated as a stream from the stream itself, the window's bytes given
/// back to it first, as the sequential reading does.
pub(super) struct Members<R> {
    /// `None` once handed back.
    raw: Option<Pushback<R>>,
    limit: usize,
    /// `None` when libdeflate had no memory: every member as a stream.
    inflater: Option<Inflater>,
    /// Compressed bytes of `raw`, from `pos` on not inflated yet; the
    /// last `peeked` of them are a copy of the start of `raw`'s buffer,
    /// not consumed from it.
    window: Vec<u8>,
    pos: usize,
    peeked: usize,
    /// The members of the batch being filled: where each starts and ends,
    /// where its bytes are in `buf`.
    members: Vec<(u64, u64, Range<usize>)>,
    /// The batch's bytes: the first `used`; its length is how much of it
    /// is initialized, kept from member to member and batch to batch.
    buf: Vec<u8>,
    used: usize,
    /// The buffers of batches sent, reused once only this holds them.
    sent: VecDeque<Arc<Vec<u8>>>,
    /// The next member does not fit in what is left of `buf`: the batch
    /// is sent first.
    full: bool,
    /// A batch holds this many inflated bytes at least, unless its next
    /// member does not fit.
    batch_bytes: usize,
    /// The length a buffer is first given.
    room: usize,
    /// The tries to inflate a member whole.
    #[cfg(test)]
    tries: usize,
}

impl<R: BufRead> Members<R> {
    /// The members of `raw` from its current place on, none held whole
    /// past `limit` inflated bytes; `ahead` when they are inflated on a
    /// thread of their own, in batches of several members (a hand-over a
    /// member would cost a wake-up a record), else one member a batch in
    /// a buffer its size (a third less peak memory on a crawl).
    pub(super) fn new(
        raw: Pushback<R>,
        limit: usize,
        ahead: bool,
    ) -> Members<R> {
        Members {
            raw: Some(raw),
            limit,
            inflater: Inflater::new(),
            window: Vec::new(),
            pos: 0,
            peeked: 0,
            members: Vec::new(),
            buf: Vec::new(),
            used: 0,
            sent: VecDeque::new(),
            full: false,
            batch_bytes: if ahead { BATCH_BYTES } else { 0 },
            room: if ahead { BATCH_ROOM } else { MEMBER_ROOM },
            #[cfg(test)]
            tries: 0,
        }
    }

    /// The next batch, `None` after the one that handed the stream back
    /// ([`Item::Back`], [`Item::Live`]).
    pub(super) fn batch(&mut self) -> Option<Vec<Item<R>>> {
        let mut raw = self.raw.take()?;
        if self.buf.is_empty() {
            // A buffer of an earlier batch the framing is done with, its
            // bytes initialized already: looked for when the batch starts
            // rather than when the last one was sent, so that with one
            // member a batch on the framing's thread, which lets go of a
            // member before it asks for the next, one buffer serves all.
            let spare =
                self.sent.iter().position(|b| Arc::strong_count(b) == 1);
            self.buf = spare
                .and_then(|i| self.sent.remove(i))
                .and_then(|b| Arc::try_unwrap(b).ok())
                .unwrap_or_default();
        }
        loop {
            raw = match self.member(raw) {
                Ok(raw) => raw,
                Err(last) => {
                    let mut batch = self.share();
                    batch.push(last);
                    // The stream goes on elsewhere: its buffers are not
                    // needed again.
                    self.sent = VecDeque::new();
                    self.buf = Vec::new();
                    self.window = Vec::new();
                    (self.pos, self.peeked) = (0, 0);
                    return Some(batch);
                }
            };
            if self.full
                || self.used >= self.batch_bytes
                || self.members.len() >= BATCH_MEMBERS
            {
                self.raw = Some(raw);
                return Some(self.share());
            }
        }
    }

    /// Adds the next member to the batch; `Err` with the item that hands
    /// the stream back.
    fn member(
        &mut self,
        mut raw: Pushback<R>,
    ) -> Result<Pushback<R>, Item<R>> {
        if self.whole(&mut raw) {
            return Ok(raw);
        }
        let member =
            raw.fill_buf().is_ok_and(|h| !h.is_empty() && starts_member(h));
        if !member {
            return Err(Item::Back(raw));
        }
        let start = raw.consumed;
        // The compressed bytes, to rewind to the member's start on damage.
        raw.tee = Some(Spill::new(self.limit));
        let mut decoder = GzDecoder::new(raw);
        let from = self.used;
        match fill(&mut decoder, &mut self.buf, &mut self.used, self.limit) {
            Ok(true) => {
                let mut raw = decoder.into_inner();
                raw.tee = None;
                self.members.push((start, raw.consumed, from..self.used));
                Ok(raw)
            }
            Ok(false) => {
                // The buffer itself when the member is all it holds, not
                // a copy as long as the limit beside it.
                let bytes = if from == 0 {
                    let mut bytes = mem::take(&mut self.buf);
                    bytes.truncate(self.used);
                    bytes
                } else {
                    let bytes = self.buf[from..self.used].to_vec();
                    self.buf.truncate(from);
                    bytes
                };
                self.used = from;
                let member = Pushback {
                    inner: BufReader::with_capacity(MEMBER_BUFFER, decoder),
                    front: vec![Front::Bytes(bytes, 0)],
                    consumed: 0,
                    tee: None,
                    error: None,
                };
                Err(Item::Live { start, member: Box::new(member) })
            }
            Err(_) => {
                self.used = from;
                let mut raw = decoder.into_inner();
                let seen = raw.tee.take().unwrap_or_else(|| Spill::new(0));
                // Rewound from the copy, as the resync after damage reads
                // it (a temporary file that fails loses the bytes there
                // too).
                raw.unread_spill(seen, 0);
                Err(Item::Back(raw))
            }
        }
    }

    /// Inflates the next member whole from the window into the batch, or
    /// finds that it does not fit in what is left of the batch's buffer
    /// (`full`, the member left in the window); `false` when it cannot be
    /// inflated whole, the window's bytes then given back to `raw`.
    fn whole(&mut self, raw: &mut Pushback<R>) -> bool {
        let mut more = 0;
        // Whether the window holds bytes the member was not tried on.
        let mut fresh = true;
        if self.pos == self.window.len() {
            match self.in_place(raw) {
                InPlace::Done => return true,
                InPlace::Cut => {
                    // The bytes it was tried on go to the window, and the
                    // next try has the next buffer.
                    fresh = !self.take(raw);
                    more = 1;
                }
                InPlace::Unsure => {
                    self.take(raw);
                    more = 1;
                }
                InPlace::Untried => {}
                InPlace::TooLong => return false,
            }
        }
        // Tried once the bytes after the member hold the next member's
        // header, or no more can be read.
        let mut last = false;
        while let Some(inflater) = &mut self.inflater {
            let input = &self.window[self.pos..];
            let known = input.len() >= GZIP_MAGIC.len();
            if known && !input.starts_with(GZIP_MAGIC) {
                break;
            }
            let next = if fresh && known { next_member(input) } else { None };
            if next.is_some() || fresh && known && last {
                fresh = false;
                #[cfg(test)]
                {
                    self.tries += 1;
                }
                let (buf, used) = (&mut self.buf, self.used);
                let (limit, room) = (self.limit, self.room);
                let size = next.and_then(|(_, size)| size);
                match inflate(inflater, input, buf, used, limit, room, size) {
                    Inflated::Done(taken, n) => {
                        let ends = self.pos + taken;
                        let held = self.window.len() - self.peeked;
                        if ends > held {
                            // It ends in the bytes looked at: they are
                            // consumed up to there, the window is done.
                            raw.consume(ends - held);
                            self.window.clear();
                            (self.pos, self.peeked) = (0, 0);
                        } else {
                            // The window is done when the member ends its
                            // bytes: the next member is looked at in place.
                            self.window.truncate(held);
                            self.pos = ends;
                            self.peeked = 0;
                            if ends == held {
                                self.window.clear();
                                self.pos = 0;
                            }
                        }
                        let after = (held.max(ends) - ends) as u64;
                        let end = raw.consumed - after;
                        let start = end - taken as u64;
                        self.members.push((start, end, used..used + n));
                        self.used += n;
                        return true;
                    }
                    Inflated::Full => {
                        self.full = true;
                        return true;
                    }
                    Inflated::Failed(Failed::Data) => {}
                    Inflated::Failed(Failed::Room) => break,
                }
            }
            if last {
                break;
            }
            match self.more(raw) {
                More::Looked => fresh = true,
                More::Next if more < MORE => {
                    fresh = true;
                    more += 1;
                }
                More::Next => (fresh, last) = (true, true),
                More::End => last = true,
            }
        }
        let held = self.window.len() - self.peeked;
        raw.unread(&self.window[self.pos..held]);
        self.window.clear();
        (self.pos, self.peeked) = (0, 0);
        false
    }

    /// The next member inflated straight from `raw`'s buffer, with no copy
    /// into the window, when that buffer holds all of it.
    fn in_place(&mut self, raw: &mut Pushback<R>) -> InPlace {
        let Some(inflater) = &mut self.inflater else {
            return InPlace::Untried;
        };
        // A read error is met, and kept, by the window's reading.
        let Ok(input) = raw.fill_buf() else {
            return InPlace::Untried;
        };
        if input.len() < GZIP_MAGIC.len() || !input.starts_with(GZIP_MAGIC) {
            return InPlace::Untried;
        }
        let Some((_, size)) = next_member(input) else {
            return InPlace::Unsure;
        };
        #[cfg(test)]
        {
            self.tries += 1;
        }
        let (buf, used) = (&mut self.buf, self.used);
        match inflate(inflater, input, buf, used, self.limit, self.room, size)
        {
            Inflated::Done(taken, n) => {
                let start = raw.consumed;
                raw.consume(taken);
                self.members.push((start, raw.consumed, used..used + n));
                self.used += n;
                InPlace::Done
            }
            Inflated::Full => {
                self.full = true;
                InPlace::Done
            }
            Inflated::Failed(Failed::Data) => InPlace::Cut,
            Inflated::Failed(Failed::Room) => InPlace::TooLong,
        }
    }

    /// Looks at more of `raw` after the window's bytes: a part of its
    /// buffer twice as long as the last, copied to the window and not
    /// consumed ([`More::Looked`]); once all of the buffer is in the
    /// window, it is consumed and the next one looked at ([`More::Next`]).
    fn more(&mut self, raw: &mut Pushback<R>) -> More {
        // What was inflated goes, what a member cut stays.
        self.window.drain(..self.pos);
        self.pos = 0;
        let mut next = false;
        loop {
            let bytes = match raw.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) => {
                    // Met with nothing looked at (the buffer was
                    // consumed): kept for the stream path to meet.
                    raw.error = Some(e);
                    return More::End;
                }
            };
            if self.peeked < bytes.len() {
                let most = (2 * self.peeked).max(PEEK).min(bytes.len());
                self.window.extend_from_slice(&bytes[self.peeked..most]);
                self.peeked = most;
                return if next { More::Next } else { More::Looked };
            }
            if bytes.is_empty() {
                return More::End;
            }
            raw.consume(self.peeked);
            self.peeked = 0;
            next = true;
        }
    }

    /// Moves the rest of `raw`'s buffer to the window; `false` at its end
    /// or on an error (kept in `raw` for the stream path to meet).
    fn take(&mut self, raw: &mut Pushback<R>) -> bool {
        let n = match raw.fill_buf() {
            Ok([]) => return false,
            Ok(bytes) => {
                // What was inflated goes, what a member cut stays.
                self.window.drain(..self.pos);
                self.pos = 0;
                self.window.extend_from_slice(bytes);
                bytes.len()
            }
            Err(e) => {
                raw.error = Some(e);
                return false;
            }
        };
        raw.consume(n);
        true
    }

    /// The batch of the members so far, their bytes shared; all left
    /// empty.
    fn share(&mut self) -> Vec<Item<R>> {
        if self.members.is_empty() {
            return Vec::new();
        }
        let batch = Arc::new(mem::take(&mut self.buf));
        self.used = 0;
        self.full = false;
        if batch.len() <= BATCH_ROOM {
            self.sent.push_back(batch.clone());
            if self.sent.len() > SPARE {
                self.sent.pop_front();
            }
        }
        self.members
            .drain(..)
            .map(|(start, end, range)| Item::Whole {
                start,
                end,
                bytes: Shared { batch: batch.clone(), range },
            })
            .collect()
    }
}

/// What [`Members::more`] put in the window.
enum More {
    /// More of the stream's buffer.
    Looked,
    /// The first bytes of its next buffer.
    Next,
    /// Nothing: the stream is at its end, or cannot be read.
    End,
}

/// What came of inflating a member straight from the stream's buffer.
enum InPlace {
    /// It is in the batch, or the batch is full and sent first.
    Done,
    /// The buffer holds no member start, or none could be read.
    Untried,
    /// Cut short by the end of the buffer, or damaged: read on in the
    /// window.
    Cut,
    /// Not tried: no member header follows it in the buffer, it may go on
    /// past it. Read on in the window.
    Unsure,
    /// Longer than the limit: inflated as a stream.
    TooLong,
}

/// What came of inflating a member into a batch's buffer.
enum Inflated {
    /// In the buffer: the bytes taken and written.
    Done(usize, usize),
    /// It does not fit in what is left of a buffer that holds members
    /// already, and is short of that room, not of the limit: the batch is
    /// full, the member starts the next one.
    Full,
    /// Damaged or cut short ([`Failed::Data`]), or longer than the limit
    /// ([`Failed::Room`]).
    Failed(Failed),
}

/// Inflates the member at the start of `input` into `buf` from `used` on,
/// `buf` given a length of `room` at least; the first member of a buffer
/// grows it (zeroed) as it needs, up to `limit` bytes. A member that does
/// not fit in what is left of a buffer that holds members already is
/// [`Inflated::Full`]; one that inflates to more than `limit` bytes,
/// [`Failed::Room`].
fn inflate(
    inflater: &mut Inflater,
    input: &[u8],
    buf: &mut Vec<u8>,
    used: usize,
    limit: usize,
    room: usize,
    size: Option<usize>,
) -> Inflated {
    let most = limit.saturating_add(1);
    if buf.len() < room {
        buf.resize(room, 0);
    }
    // Tried with the room there is; for a first member, each time it is
    // short, with twice more or the length its trailer says, up to the
    // limit (a guess of a stored header inside the member would grow a
    // buffer the member does not need: it is followed only once short).
    let mut room = (buf.len() - used).min(most);
    // A member its trailer says is longer is not tried in what is left of
    // a batch: a try that runs out of room is lost work.
    let longer = size.is_some_and(|size| size > room);
    if longer && used > 0 && buf.len() - used <= limit {
        return Inflated::Full;
    }
    let failed = loop {
        if buf.len() < used + room {
            buf.resize(used + room, 0);
        }
        match inflater.member(input, &mut buf[used..used + room]) {
            Ok((taken, n)) if n <= limit => return Inflated::Done(taken, n),
            Ok(_) => break Failed::Room,
            Err(Failed::Room) if used == 0 && room < most => {
                let twice = room.saturating_mul(2);
                room = twice.max(size.unwrap_or(0)).min(most);
            }
            Err(e) => break e,
        }
    };
    match failed {
        Failed::Room if used > 0 && buf.len() - used <= limit => {
            Inflated::Full
        }
        e => Inflated::Failed(e),
    }
}

/// Where the next member's header follows the member at the start of
/// `input`, and that member's inflated length as the trailer before it
/// says (modulo 2^32), unless deflate cannot inflate its bytes to as
/// much. A guess: the bytes may lie inside the member's own compressed
/// data (a stored block holds a gzip body as it is), and a wrong one only
/// costs a try or some room. With none, the member may go on past
/// `input`: a try then would be lost work (inflating cut members was
/// 60 % more inflating on the real archives).
fn next_member(input: &[u8]) -> Option<(usize, Option<usize>)> {
    // The least member: a header of 10 bytes, an empty block, a trailer
    // of 8.
    const LEAST: usize = 20;
    // Deflate's most: 258 bytes from a match of two bits at best.
    const MOST_RATIO: usize = 1032;
    let next = LEAST + memchr::memmem::find(input.get(LEAST..)?, GZIP_MAGIC)?;
    let size = input[next - 4..next].try_into().ok()?;
    let size = usize::try_from(u32::from_le_bytes(size)).ok()?;
    Some((next, (size <= next.saturating_mul(MOST_RATIO)).then_some(size)))
}

/// Inflates `member` into `buf` from `*used` on, moving `*used` past
/// its bytes: `Ok(true)` at its end, `Ok(false)` once it passed `limit`
/// bytes. `buf`'s length is how much of it is zeroed, kept between
/// members: `read_to_end` zeroed a chunk of every member afresh.
fn fill(
    member: &mut impl Read,
    buf: &mut Vec<u8>,
    used: &mut usize,
    limit: usize,
) -> io::Result<bool> {
    let from = *used;
    loop {
        if *used - from > limit {
            return Ok(false);
        }
        if buf.len() - *used < CHUNK {
            buf.resize(*used + 4 * CHUNK, 0);
        }
        let room = (buf.len() - *used).min(limit + 1 - (*used - from));
        match member.read(&mut buf[*used..*used + room]) {
            Ok(0) => return Ok(true),
            Ok(n) => *used += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Held, Records, GZIP_MAGIC};
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;
    use std::io::{Cursor, Write};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::{Duration, Instant};
    use urlspec_test_support::io::SaysEnd;

    fn gzip(bytes: &[u8], level: u32) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Compression::new(level));
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    fn record(i: usize, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://h/{i}\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    /// How the members are inflated.
    #[derive(Clone, Copy)]
    enum Way {
        Stream,
        Batches,
        Thread,
    }

    /// Each record's offset, target and block, or the error, as read
    /// with members inflated `way`, blocks past `limit` spilled.
    fn read(archive: &[u8], way: Way, limit: usize) -> Vec<String> {
        let input = std::io::BufReader::new(Cursor::new(archive.to_vec()));
        let mut records = Records::new(input).unwrap();
        records.set_block_limit(limit);
        match way {
            Way::Stream => records.stream_members(),
            Way::Batches => {}
            Way::Thread => records.inflate_ahead(),
        }
        let mut seen = Vec::new();
        while let Some(next) = records.next_record() {
            seen.push(match next {
                Ok(r) => {
                    let block = r.block.head(usize::MAX).unwrap();
                    let uri = r.field("WARC-Target-URI").unwrap_or("");
                    let sum: u64 = block.iter().map(|&b| u64::from(b)).sum();
                    format!("{} {uri} {} {sum}", r.offset, block.len())
                }
                Err(e) => format!("error {e}"),
            });
        }
        seen
    }

    /// Read the same in batches, here or on the thread, as with each
    /// member a stream; what was read.
    fn same(archive: &[u8], limit: usize) -> Vec<String> {
        let one = read(archive, Way::Stream, limit);
        assert_eq!(read(archive, Way::Batches, limit), one);
        assert_eq!(read(archive, Way::Thread, limit), one);
        one
    }

    #[test]
    fn members_read_ahead_as_they_are_read_in_order() {
        let archive: Vec<u8> = (0..300)
            .flat_map(|i| gzip(&record(i, &b"x".repeat(i * 37)), 6))
            .collect();
        let seen = same(&archive, 1 << 20);
        assert_eq!(seen.len(), 300);
        assert!(seen.iter().all(|s| !s.starts_with("error")));
    }

    /// `n` incompressible bytes from the generator state `x`.
    fn noise(x: &mut u32, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                *x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (*x >> 16) as u8
            })
            .collect()
    }

    #[test]
    fn members_cut_by_the_reads_are_read_whole_or_as_streams() {
        // Incompressible blocks: members of up to 40 KiB, cut by the
        // reader's 8 KiB reads, some longer than MORE more reads; one
        // with a header CRC, which is inflated as a stream.
        let mut x = 1u32;
        let mut members: Vec<Vec<u8>> = (0..60)
            .map(|i| gzip(&record(i, &noise(&mut x, i * 700)), 6))
            .collect();
        members[7][3] |= 2;
        let mut crc = flate2::Crc::new();
        crc.update(&members[7][..10]);
        let sum = (crc.sum() & 0xffff) as u16;
        members[7].splice(10..10, sum.to_le_bytes());
        let seen = same(&members.concat(), 1 << 20);
        assert_eq!(seen.len(), 60);
        assert!(seen.iter().all(|s| !s.starts_with("error")), "{seen:?}");
    }

    #[test]
    fn members_after_one_the_reads_cut_are_inflated_in_place() {
        // Incompressible members of about 3 KB, read 16 KiB at a time:
        // a member every few is cut by the end of a read.
        let mut x = 7u32;
        let archive: Vec<u8> = (0..100)
            .flat_map(|i| gzip(&record(i, &noise(&mut x, 3000)), 6))
            .collect();
        let input =
            std::io::BufReader::with_capacity(16 << 10, Cursor::new(archive));
        let mut members = Members::new(Pushback::new(input), 1 << 20, false);
        let (mut whole, mut windowed) = (0, 0);
        while let Some(batch) = members.batch() {
            whole += batch
                .iter()
                .filter(|i| matches!(i, Item::Whole { .. }))
                .count();
            // The rest of a member the read cut is looked at in the next
            // read's buffer, not copied out of it with the members after.
            windowed += usize::from(!members.window.is_empty());
        }
        assert_eq!(whole, 100);
        assert_eq!(windowed, 0);
    }

    /// The members of `archive` read `read` bytes at a time on the
    /// framing's thread: how many came whole, and the tries to inflate
    /// them whole.
    fn whole_and_tries(archive: Vec<u8>, read: usize) -> (usize, usize) {
        let input =
            std::io::BufReader::with_capacity(read, Cursor::new(archive));
        let mut members = Members::new(Pushback::new(input), 1 << 20, false);
        let mut whole = 0;
        while let Some(batch) = members.batch() {
            whole += batch
                .iter()
                .filter(|i| matches!(i, Item::Whole { .. }))
                .count();
        }
        (whole, members.tries)
    }

    #[test]
    fn a_member_is_tried_once_the_next_header_or_the_end_is_read() {
        // Incompressible members of 3 to 42 KB read 8 KiB at a time: most
        // are cut by the reads. A try of a cut member would inflate its
        // bytes so far for nothing.
        let mut x = 3u32;
        let archive: Vec<u8> = (0..40)
            .flat_map(|i| gzip(&record(i, &noise(&mut x, 3000 + i * 1000)), 6))
            .collect();
        assert_eq!(whole_and_tries(archive, 8 << 10), (40, 40));
        // The last member, no header after it, is inflated whole too.
        let archive: Vec<u8> =
            (0..3).flat_map(|i| gzip(&record(i, b"last"), 6)).collect();
        assert_eq!(whole_and_tries(archive, 8 << 10), (3, 3));
        // One many reads long is tried once, when its end is read.
        let archive = [
            gzip(&record(0, b"a"), 6),
            gzip(&record(1, &noise(&mut x, 300_000)), 6),
            gzip(&record(2, b"c"), 6),
        ]
        .concat();
        assert_eq!(whole_and_tries(archive, 8 << 10), (3, 3));
    }

    #[test]
    fn next_member_reads_the_trailer_before_the_next_header() {
        let first = gzip(&record(0, &b"z".repeat(5000)), 6);
        let second = gzip(&record(1, b"b"), 6);
        let size = record(0, &b"z".repeat(5000)).len();
        let both = [first.clone(), second].concat();
        assert_eq!(next_member(&both), Some((first.len(), Some(size))));
        assert_eq!(next_member(&first), None);
        assert_eq!(next_member(&both[..first.len() + 2]), None);
    }

    #[test]
    fn a_gzip_header_stored_inside_a_member_is_no_member() {
        // Level 0 stores the bytes as they are: the member's compressed
        // bytes hold a whole plausible gzip header.
        let fake = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03junk";
        let first =
            gzip(&record(0, &[&b"a ".repeat(100)[..], fake].concat()), 0);
        assert!(first[3..].windows(3).any(|w| w == GZIP_MAGIC));
        let archive = [first.clone(), gzip(&record(1, b"second"), 6)].concat();
        let seen = same(&archive, 1 << 20);
        assert_eq!(seen.len(), 2);
        assert!(seen[1].starts_with(&format!("{} http://h/1 6 ", first.len())));
    }

    #[test]
    fn damaged_members_are_reported_where_one_thread_reports_them() {
        let mut members: Vec<Vec<u8>> = (0..40)
            .map(|i| gzip(&record(i, &b"y".repeat(500 + i)), 6))
            .collect();
        // A wrong CRC, bytes overwritten inside the data, bytes between
        // two members that start none, and a member cut at the end.
        let crc = members[5].len() - 8;
        members[5][crc] ^= 1;
        let mid = members[12].len() / 2;
        members[12][mid..mid + 8].fill(b'x');
        members[20].splice(0..0, b"garbage".iter().copied());
        let last = members.len() - 1;
        let cut = members[last].len() / 2;
        members[last].truncate(cut);
        let seen = same(&members.concat(), 1 << 20);
        assert!(seen.iter().filter(|s| s.starts_with("error")).count() >= 4);
        // Reading goes on after each.
        assert!(seen.iter().any(|s| s.contains("http://h/38 ")));
    }

    #[test]
    fn members_past_the_limit_are_handed_over_among_tiny_ones() {
        let mut archive = Vec::new();
        for i in 0..30 {
            let len = if i % 7 == 3 { 300_000 } else { 20 + i };
            archive.extend(gzip(&record(i, &vec![b'z'; len]), 6));
        }
        // A whole-file-compressed tail: one member of many records.
        let many: Vec<u8> =
            (100..400).flat_map(|i| record(i, &b"w".repeat(900))).collect();
        archive.extend(gzip(&many, 6));
        let seen = same(&archive, 64 << 10);
        assert_eq!(seen.len(), 30 + 300);
    }

    #[test]
    fn blocks_are_lent_by_a_member_inflated_here_and_copied_from_a_batch() {
        let archive: Vec<u8> = (0..40)
            .flat_map(|i| gzip(&record(i, &b"x".repeat(100 * i)), 6))
            .collect();
        for (ahead, lent) in [(false, true), (true, false)] {
            let input = std::io::BufReader::new(Cursor::new(archive.clone()));
            let mut records = Records::new(input).unwrap();
            if ahead {
                records.inflate_ahead();
            }
            let mut n = 0;
            while let Some(next) = records.next_record() {
                let r = next.unwrap();
                let held = matches!(r.block.memory, Held::Lent(_));
                assert_eq!(held, lent, "record {n}");
                assert_eq!(r.block.memory(), Some(&b"x".repeat(100 * n)[..]));
                n += 1;
            }
            assert_eq!(n, 40);
        }
    }

    /// A reader that panics once `left` bytes are taken.
    struct Panics(Cursor<Vec<u8>>, usize);

    impl Read for Panics {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(self.1 > 0, "the input failed");
            let room = buf.len().min(self.1);
            let n = self.0.read(&mut buf[..room])?;
            self.1 -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_thread_that_dies_is_reported_where_its_members_stop() {
        // The input fails inside the second batch: the first batch's
        // members are read, then the error at the end of the last one.
        let members: Vec<Vec<u8>> = (0..2 * BATCH_MEMBERS)
            .map(|i| gzip(&record(i, b"v"), 6))
            .collect();
        let batch: usize = members[..BATCH_MEMBERS].iter().map(Vec::len).sum();
        let input = Panics(Cursor::new(members.concat()), batch + 40);
        let mut records =
            Records::new(std::io::BufReader::new(input)).unwrap();
        records.inflate_ahead();
        let mut seen = Vec::new();
        while let Some(next) = records.next_record() {
            seen.push(next.map(|r| r.offset).map_err(|e| e.to_string()));
        }
        assert_eq!(seen.len(), BATCH_MEMBERS + 1, "{seen:?}");
        let err = seen[BATCH_MEMBERS].clone().unwrap_err();
        assert!(err.contains(&format!("at byte {batch}:")), "{err}");
        assert!(err.contains("the inflater stopped"), "{err}");
    }

    /// A reader that counts the bytes taken from it.
    struct Counted<'a>(Cursor<Vec<u8>>, &'a AtomicU64);

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n as u64, Ordering::SeqCst);
            Ok(n)
        }
    }

    /// What `input` has given once the thread, started by the first
    /// record, has filled its batches and waits.
    fn taken_when_settled(taken: &AtomicU64) -> u64 {
        let start = Instant::now();
        let mut last = u64::MAX;
        loop {
            thread::sleep(Duration::from_millis(50));
            let now = taken.load(Ordering::SeqCst);
            if now == last {
                return last;
            }
            last = now;
            assert!(start.elapsed() < Duration::from_secs(60));
        }
    }

    #[test]
    fn a_buffer_ending_inside_a_gzip_header_does_not_stop_the_thread() {
        // A 2-byte buffer never shows a whole magic: the thread goes on,
        // as the sequential reading does, rather than handing back.
        let archive: Vec<u8> = (0..128)
            .flat_map(|i| gzip(&record(i, &vec![b'p'; 4 << 10]), 0))
            .collect();
        static TAKEN: AtomicU64 = AtomicU64::new(0);
        let input = std::io::BufReader::with_capacity(
            2,
            Counted(Cursor::new(archive), &TAKEN),
        );
        let mut records = Records::new(input).unwrap();
        records.inflate_ahead();
        assert!(records.next_record().unwrap().is_ok());
        assert!(taken_when_settled(&TAKEN) as usize >= BATCH_BYTES);
        let mut rest = 0;
        while let Some(next) = records.next_record() {
            assert!(next.is_ok());
            rest += 1;
        }
        assert_eq!(rest, 127);
    }

    #[test]
    fn started_documents_inflate_before_the_first_page_is_asked_for() {
        use crate::warc::Documents;
        use crate::Context;
        let html = b"<!doctype html><a href=x>";
        let archive: Vec<u8> =
            (0..20).flat_map(|i| gzip(&record(i, html), 6)).collect();
        let (done, ended) = mpsc::channel();
        // A small buffer: opening the archive reads 64 bytes of it.
        let input =
            std::io::BufReader::with_capacity(64, SaysEnd::new(archive, done));
        let ctx = Context::new(urlspec::Spec::Rfc3986);
        let mut docs = Documents::new(input, ctx);
        docs.inflate_ahead();
        docs.start();
        // No page asked for: the thread alone reads the archive to its
        // end (the wait is a guard against a hang, not a measure).
        assert!(ended.recv_timeout(Duration::from_secs(60)).is_ok());
        let mut pages = 0;
        while let Some(page) = docs.next_page() {
            assert!(page.is_ok());
            pages += 1;
        }
        assert_eq!(pages, 20);
    }

    #[test]
    fn the_thread_inflates_a_bounded_amount_ahead() {
        // 40 MiB of stored (level 0) members of 16 KiB: the compressed
        // bytes taken are about the inflated ones.
        let member = 16 << 10;
        let archive: Vec<u8> = (0..2560)
            .flat_map(|i| gzip(&record(i, &vec![b'q'; member]), 0))
            .collect();
        static TAKEN: AtomicU64 = AtomicU64::new(0);
        let input =
            std::io::BufReader::new(Counted(Cursor::new(archive), &TAKEN));
        let mut records = Records::new(input).unwrap();
        records.inflate_ahead();
        assert!(records.next_record().unwrap().is_ok());
        // The thread fills its batches and waits: what it took stays put.
        let last = taken_when_settled(&TAKEN);
        // The batches sent, the one being filled, the one read, each up
        // to BATCH_BYTES and a member, and the reader's buffer.
        let bound = (BATCHES + 2) * (BATCH_BYTES + 2 * member) + (64 << 10);
        assert!(last as usize <= bound, "{last} > {bound}");
        assert!(last as usize >= BATCH_BYTES, "{last}");
        let mut n = 1;
        while let Some(next) = records.next_record() {
            assert!(next.is_ok());
            n += 1;
        }
        assert_eq!(n, 2560);
    }
}
