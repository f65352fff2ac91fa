//! The records of a WARC archive as bytes (ISO 28500 §4): a version line,
//! named fields up to a blank line, a block of `Content-Length` bytes and
//! two CRLFs; gzip-compressed per record (one member each), as a whole, or
//! not at all.
//!
//! Written here rather than read with a WARC crate because a damaged
//! record must not end the archive: after one, reading resumes at the next
//! gzip member of a compressed archive (found by its magic bytes, also
//! inside the bytes the broken member's inflater had already taken), or at
//! the next line that starts with `WARC/`. Each damage is reported with the
//! byte offset of the record (of its gzip member, in a compressed file).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Seek, SeekFrom, Write};
use std::sync::mpsc::Receiver;

use flate2::bufread::GzDecoder;

use crate::error::{Error, Reason};

mod ahead;
mod record;
pub(super) mod whole;

use record::{read_error, Carry, Step};
pub use record::{Kind, Record};

/// The buffer of the inflated bytes of one gzip member.
const MEMBER_BUFFER: usize = 8 << 10;
/// The gzip magic bytes and the deflate method, which start every member.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b\x08";

/// Whether the buffered bytes `head` (not empty) are read as a gzip
/// member: they start with the magic, or are too few to tell (a buffer
/// may end just past a member; the inflater then reads on and reports
/// what it finds).
fn starts_member(head: &[u8]) -> bool {
    head.starts_with(GZIP_MAGIC) || head.len() < GZIP_MAGIC.len()
}

/// Bytes held in memory up to a limit, and past it in a temporary file
/// (all of them then), so that neither a long block nor the compressed
/// bytes of a long gzip member take memory in proportion to their size.
pub struct Spill {
    memory: Held,
    file: Option<File>,
    len: u64,
    limit: usize,
    /// The temporary file could not be written: what follows is lost.
    broken: bool,
}

impl Spill {
    /// Empty, held in memory up to `limit` bytes.
    pub fn new(limit: usize) -> Spill {
        Spill {
            memory: Held::Own(Vec::new()),
            file: None,
            len: 0,
            limit,
            broken: false,
        }
    }

    /// Holds `bytes`, of an inflated member's buffer, when it is empty.
    fn lend(&mut self, bytes: ahead::Shared) {
        if self.len == 0 {
            self.len = bytes.as_ref().len() as u64;
            self.memory = Held::Lent(bytes);
        }
    }

    /// The bytes held in memory, taken out as a vector of their own (to
    /// be put back).
    fn take_own(&mut self) -> Vec<u8> {
        std::mem::replace(&mut self.memory, Held::Own(Vec::new())).into_vec()
    }

    /// Appends `bytes`.
    pub fn extend(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.len += bytes.len() as u64;
        if self.file.is_none() {
            let mut memory = self.take_own();
            if memory.len() + bytes.len() <= self.limit {
                memory.extend_from_slice(bytes);
                self.memory = Held::Own(memory);
                return Ok(());
            }
            let file = tempfile::tempfile()
                .and_then(|mut file| file.write_all(&memory).map(|()| file));
            match file {
                Ok(file) => self.file = Some(file),
                Err(e) => {
                    self.memory = Held::Own(memory);
                    return Err(e);
                }
            }
        }
        match &mut self.file {
            Some(file) => file.write_all(bytes),
            None => Ok(()),
        }
    }

    /// [`Spill::extend`] where an error cannot be returned: it is kept
    /// ([`Spill::reader`] then fails).
    fn extend_or_break(&mut self, bytes: &[u8]) {
        if !self.broken && self.extend(bytes).is_err() {
            self.broken = true;
        }
    }

    /// The number of bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The bytes, when they are held in memory.
    pub fn memory(&self) -> Option<&[u8]> {
        self.file.is_none().then_some(match &self.memory {
            Held::Own(memory) => memory,
            Held::Lent(lent) => lent.as_ref(),
        })
    }

    /// The first `n` bytes (fewer when there are fewer).
    pub fn head(&self, n: usize) -> io::Result<Vec<u8>> {
        let mut head = Vec::with_capacity(n.min(self.len as usize));
        self.reader(0)?.take(n as u64).read_to_end(&mut head)?;
        Ok(head)
    }

    /// The bytes from byte `from` on.
    pub fn reader(&self, from: u64) -> io::Result<Box<dyn BufRead + '_>> {
        if self.broken {
            return Err(io::Error::other("a temporary file failed"));
        }
        let from = from.min(self.len);
        Ok(match (&self.file, self.memory()) {
            (Some(file), _) => {
                let mut file: &File = file;
                file.seek(SeekFrom::Start(from))?;
                Box::new(BufReader::with_capacity(1 << 16, file))
            }
            (None, memory) => Box::new(
                memory
                    .unwrap_or_default()
                    .get(from as usize..)
                    .unwrap_or_default(),
            ),
        })
    }

    /// The temporary file the bytes are in, when they are not in memory.
    pub fn file(&self) -> Option<&File> {
        self.file.as_ref().filter(|_| !self.broken)
    }

    /// The offset of the first `needle` from byte `from` on.
    fn find(&self, needle: &[u8], from: u64) -> io::Result<Option<u64>> {
        if let Some(memory) = self.memory() {
            let from = (from as usize).min(memory.len());
            return Ok(
                find(&memory[from..], needle).map(|k| (from + k) as u64)
            );
        }
        let mut reader = self.reader(from)?;
        // The window: a needle may straddle two reads.
        let mut window: Vec<u8> = Vec::new();
        let mut at = from.min(self.len);
        loop {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let n = buf.len();
            window.extend_from_slice(buf);
            reader.consume(n);
            if let Some(k) = find(&window, needle) {
                return Ok(Some(at + k as u64));
            }
            let keep = window.len().min(needle.len() - 1);
            let drop = window.len() - keep;
            window.drain(..drop);
            at += drop as u64;
        }
    }

    /// A source of the bytes from `from` on, to be read again.
    fn into_front(self, from: u64) -> io::Result<Front> {
        if self.broken {
            return Err(io::Error::other("a temporary file failed"));
        }
        let from = from.min(self.len);
        Ok(match self.file {
            None => Front::Bytes(self.memory.into_vec(), from as usize),
            Some(mut file) => {
                file.seek(SeekFrom::Start(from))?;
                let reader = BufReader::with_capacity(1 << 16, file);
                Front::File(reader.take(self.len - from))
            }
        })
    }
}

/// The bytes of a [`Spill`] held in memory.
enum Held {
    Own(Vec<u8>),
    /// A part of the buffer of an inflated gzip member they lie whole in,
    /// lent rather than copied ([`Spill::lend`]).
    Lent(ahead::Shared),
}

impl Held {
    /// The bytes as a vector of their own: a lent part copied out.
    fn into_vec(self) -> Vec<u8> {
        match self {
            Held::Own(memory) => memory,
            Held::Lent(lent) => lent.as_ref().to_vec(),
        }
    }
}

/// Bytes given back to a [`Pushback`], to be read before what follows.
enum Front {
    /// In memory, read up to the offset.
    Bytes(Vec<u8>, usize),
    /// In a temporary file ([`Spill`]).
    File(io::Take<BufReader<File>>),
}

impl Front {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Front::Bytes(bytes, at) => Ok(&bytes[*at..]),
            Front::File(file) => file.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Front::Bytes(_, at) => *at += amt,
            Front::File(file) => file.consume(amt),
        }
    }
}

/// A reader that can be given bytes back (the bytes after a damaged
/// record, to be searched again), counts what it hands out, and can keep a
/// copy of it (the compressed bytes of the current gzip member).
pub struct Pushback<R> {
    inner: R,
    /// What was given back, the next to read last.
    front: Vec<Front>,
    /// Bytes handed out, less those given back.
    pub consumed: u64,
    tee: Option<Spill>,
    /// An error of `inner` met by a read whose bytes were given back: it
    /// comes after them.
    error: Option<io::Error>,
}

impl<R: BufRead> Pushback<R> {
    fn new(inner: R) -> Pushback<R> {
        Pushback {
            inner,
            front: Vec::new(),
            consumed: 0,
            tee: None,
            error: None,
        }
    }

    /// Puts `bytes` back in front of what is still unread.
    fn unread(&mut self, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.front.push(Front::Bytes(bytes.to_vec(), 0));
            self.consumed -= bytes.len() as u64;
        }
    }

    /// Puts the bytes of `spill` from `from` on back in front of what is
    /// still unread; `false` when its file cannot be read (they are lost).
    fn unread_spill(&mut self, spill: Spill, from: u64) -> bool {
        let len = spill.len().saturating_sub(from);
        match spill.into_front(from) {
            Ok(front) => {
                if len > 0 {
                    self.front.push(front);
                    self.consumed -= len;
                }
                true
            }
            Err(_) => false,
        }
    }
}

impl<R: BufRead> Read for Pushback<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Pushback<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while let Some(top) = self.front.last_mut() {
            if !top.fill_buf()?.is_empty() {
                break;
            }
            self.front.pop();
        }
        match self.front.last_mut() {
            Some(top) => top.fill_buf(),
            None => match self.error.take() {
                Some(e) => Err(e),
                None => self.inner.fill_buf(),
            },
        }
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        if let Some(top) = self.front.last_mut() {
            if let Some(tee) = &mut self.tee {
                if let Ok(buf) = top.fill_buf() {
                    tee.extend_or_break(&buf[..amt.min(buf.len())]);
                }
            }
            top.consume(amt);
            return;
        }
        if let Some(tee) = &mut self.tee {
            if let Ok(buf) = self.inner.fill_buf() {
                tee.extend_or_break(&buf[..amt.min(buf.len())]);
            }
        }
        self.inner.consume(amt);
    }
}

type Member<R> = Pushback<BufReader<GzDecoder<Pushback<R>>>>;

/// Takes the next `n` bytes of an input as a part of the buffer they lie
/// whole in, rather than as a copy: `None` when they do not
/// ([`ahead::Shared::lend`]).
type Lend<B> = fn(&mut Pushback<B>, u64) -> Option<ahead::Shared>;

/// Where the records of a gzip member are reported: at the member's
/// offset, but for a record carried into it from the member before, which
/// is reported where it starts.
#[derive(Clone, Copy)]
struct Origin {
    start: u64,
    /// The bytes at the member's front that were carried into it.
    carried: u64,
    /// Where the carried record starts.
    carried_from: u64,
}

impl Origin {
    fn new(start: u64) -> Origin {
        Origin { start, carried: 0, carried_from: start }
    }

    /// The offset reported for a record whose first line is at `at` of the
    /// member's bytes.
    fn offset(self, at: u64) -> u64 {
        if at < self.carried {
            self.carried_from
        } else {
            self.start
        }
    }
}

enum Input<R> {
    /// Not compressed: the records one after the other.
    Plain(Pushback<R>),
    /// gzip, between two members.
    Between(Pushback<R>),
    /// gzip, inside a member.
    Member { origin: Origin, member: Box<Member<R>> },
    /// gzip, the members inflated ahead on their own thread ([`ahead`]).
    Ahead(Box<Ahead<R>>),
    /// gzip, inside a member inflated ahead.
    Inflated {
        origin: Origin,
        member: Pushback<Cursor<ahead::Shared>>,
        ahead: Box<Ahead<R>>,
    },
    /// Nothing more can be read.
    Done,
}

/// The records of an archive, one at a time; a damaged record is an
/// `Err` and the next item is the record after it.
pub struct Records<R> {
    input: Input<R>,
    /// The kind of records, known from the first record start.
    kind: Kind,
    /// The items read and not handed out yet: damage found before the
    /// first record start is held until there is one (else the input is
    /// no archive, and only that is said).
    queue: VecDeque<Result<Record, Error>>,
    /// The input is read to its end.
    ended: bool,
    /// A record cut by the end of its gzip member, to go on in the next.
    carry: Option<Carry>,
    /// The longest block held in memory, a longer one is spilled; so are
    /// the compressed bytes of a gzip member, kept for a resync after
    /// damage.
    block_limit: usize,
    /// How gzip members are inflated.
    way: Way<R>,
    /// Where the thread handed the stream back: the member there is read
    /// the sequential way, the next one ahead again.
    not_ahead: Option<u64>,
}

type Spawn<R> = fn(
    Pushback<R>,
    usize,
) -> Result<Receiver<Vec<ahead::Item<R>>>, Pushback<R>>;

/// How the gzip members of an archive are inflated.
enum Way<R> {
    /// In batches ([`ahead::Members`]) on the framing's thread, when it
    /// asks for them.
    Batches,
    /// In batches on a thread of their own, started by the function
    /// ([`Records::inflate_ahead`]).
    Ahead(Spawn<R>),
    /// Each as a stream while its records are read.
    #[cfg(test)]
    Stream,
}

/// Where the batches of inflated members come from.
enum Source<R> {
    Here(Box<ahead::Members<R>>),
    Thread(Receiver<Vec<ahead::Item<R>>>),
}

impl<R: BufRead> Source<R> {
    /// The next batch, `None` when there is none.
    fn next(&mut self) -> Option<Vec<ahead::Item<R>>> {
        match self {
            Source::Here(members) => members.batch(),
            Source::Thread(batches) => batches.recv().ok(),
        }
    }
}

/// The members inflated in batches: the batches to come and the one being
/// read.
struct Ahead<R> {
    batches: Source<R>,
    items: VecDeque<ahead::Item<R>>,
    /// Where the member after the last one taken starts: where an
    /// error of the thread itself is reported.
    at: u64,
}

impl<R: BufRead + Send + 'static> Records<R> {
    /// Inflates the gzip members of a record-compressed archive on a
    /// thread of their own, in order, while the records of the members
    /// before are read. The records, their offsets and the damage reported
    /// are those of the sequential reading.
    pub fn inflate_ahead(&mut self) {
        self.way = Way::Ahead(ahead::spawn::<R>);
    }
}

impl<R: BufRead> Records<R> {
    /// The records of `input`, gzip-compressed or not (told by its first
    /// bytes). An input in which no record starts is no archive: its only
    /// item is [`Reason::NotWarc`] (none when it is empty). `Err` when it
    /// cannot be read.
    pub fn new(mut input: R) -> Result<Records<R>, Error> {
        let head = input.fill_buf().map_err(|e| Error::io(0, e))?;
        let gzip = head.starts_with(&GZIP_MAGIC[..head.len().min(3)])
            && !head.is_empty();
        let input = Pushback::new(input);
        Ok(Records {
            input: if gzip {
                Input::Between(input)
            } else {
                Input::Plain(input)
            },
            kind: Kind::Unknown,
            queue: VecDeque::new(),
            ended: false,
            carry: None,
            block_limit: crate::html::stream::IN_MEMORY,
            way: Way::Batches,
            not_ahead: None,
        })
    }

    /// Each gzip member inflated as a stream while its records are read:
    /// the reading the batches are checked against.
    #[cfg(test)]
    fn stream_members(&mut self) {
        self.way = Way::Stream;
    }

    /// Blocks longer than `bytes` go to a temporary file.
    pub fn set_block_limit(&mut self, bytes: usize) {
        self.block_limit = bytes;
    }

    /// The next record, `None` at the end of the archive.
    pub fn next_record(&mut self) -> Option<Result<Record, Error>> {
        loop {
            let known = self.kind != Kind::Unknown;
            if known || self.ended {
                if let Some(item) = self.queue.pop_front() {
                    return Some(item);
                }
            }
            if self.ended {
                return None;
            }
            match self.step() {
                None => {
                    self.ended = true;
                    if let Some(carry) = self.carry.take() {
                        self.queue.push_back(carry.into_item());
                    }
                    if self.kind == Kind::Unknown && !self.queue.is_empty() {
                        // Something was found, and no record.
                        self.queue.clear();
                        let e = Error::new(0, Reason::NotWarc);
                        return Some(Err(e));
                    }
                }
                // An input that cannot be read on ends the reading now.
                Some(Err(e))
                    if !known && matches!(e.reason, Reason::Io(_)) =>
                {
                    self.queue.clear();
                    self.ended = true;
                    return Some(Err(e));
                }
                Some(item) => self.queue.push_back(item),
            }
        }
    }

    /// Hands the record carried from the member before to `member`, a
    /// member about to be read at `origin`, when it goes on with it (its
    /// bytes do not start a record); else it is queued as it is
    /// ([`record::Carry::into_item`]). `Err` when the member cannot be
    /// read.
    fn join<B: BufRead>(
        &mut self,
        member: &mut Pushback<B>,
        origin: &mut Origin,
    ) -> io::Result<()> {
        let Some(carry) = self.carry.take() else { return Ok(()) };
        let head = match member.fill_buf() {
            Ok(head) => head,
            Err(e) => {
                self.queue.push_back(Err(carry.error()));
                return Err(e);
            }
        };
        if head.is_empty() || head.starts_with(&b"WARC/"[..head.len().min(5)])
        {
            self.queue.push_back(carry.into_item());
            return Ok(());
        }
        let error = carry.error();
        let (len, from) = (carry.len(), carry.offset);
        if carry.unread_into(member) {
            *origin = Origin {
                start: origin.start,
                carried: len,
                carried_from: from,
            };
        } else {
            self.queue.push_back(Err(error));
        }
        Ok(())
    }

    /// The record carried from the member before, now that no member
    /// follows it, queued as it is ([`record::Carry::into_item`]).
    fn drop_carry(&mut self) {
        if let Some(carry) = self.carry.take() {
            self.queue.push_back(carry.into_item());
        }
    }

    /// Reads on to the next item (a record carried over a member boundary
    /// queues its damage when it is not continued), `None` at the end.
    fn step(&mut self) -> Option<Result<Record, Error>> {
        let limit = self.block_limit;
        loop {
            match std::mem::replace(&mut self.input, Input::Done) {
                Input::Done => return None,
                Input::Plain(mut raw) => {
                    let read = record::read(
                        &mut raw,
                        |at| at,
                        limit,
                        &mut self.kind,
                        false,
                        None,
                    );
                    self.input = Input::Plain(raw);
                    match read {
                        Ok(Step::End) => self.input = Input::Done,
                        Ok(Step::Record(record)) => return Some(Ok(record)),
                        // Damaged data: it would be met again.
                        Ok(Step::Damaged(record)) => {
                            self.input = Input::Done;
                            return Some(Ok(record));
                        }
                        // Not read in a member: never cut.
                        Ok(Step::Cut(carry)) => {
                            return Some(Err(carry.error()))
                        }
                        Err(e) => {
                            // Not compressed: a read error is no damage
                            // to skip, and would come again.
                            if matches!(
                                e.reason,
                                Reason::Io(_) | Reason::Gzip(_)
                            ) {
                                self.input = Input::Done;
                            }
                            return Some(Err(e));
                        }
                    }
                }
                Input::Ahead(mut ahead) => {
                    let Some(item) = ahead.items.pop_front() else {
                        match ahead.batches.next() {
                            Some(batch) => {
                                ahead.items.extend(batch);
                                self.input = Input::Ahead(ahead);
                                continue;
                            }
                            // The thread ended without handing the stream
                            // back: it cannot have, short of a panic.
                            None => {
                                self.drop_carry();
                                let e =
                                    io::Error::other("the inflater stopped");
                                return Some(Err(Error::io(ahead.at, e)));
                            }
                        }
                    };
                    self.input = match item {
                        ahead::Item::Whole { start, end, bytes } => {
                            ahead.at = end;
                            let mut origin = Origin::new(start);
                            let mut member = Pushback::new(Cursor::new(bytes));
                            // In memory: it cannot fail.
                            let _ = self.join(&mut member, &mut origin);
                            Input::Inflated { origin, member, ahead }
                        }
                        ahead::Item::Live { start, member } => Input::Member {
                            origin: Origin::new(start),
                            member,
                        },
                        ahead::Item::Back(raw) => {
                            self.not_ahead = Some(raw.consumed);
                            Input::Between(raw)
                        }
                    };
                }
                Input::Inflated { origin, mut member, ahead } => {
                    // In memory: no read error, no gzip damage (checked as
                    // it was inflated).
                    let offset = |at| origin.offset(at);
                    // A block is lent by the member's buffer when that
                    // buffer is the member's own: one shared by a batch
                    // of members (inflated ahead) would be held whole by
                    // each page sent on to be read.
                    let lend = matches!(ahead.batches, Source::Here(_))
                        .then_some(ahead::Shared::lend as Lend<_>);
                    match record::read(
                        &mut member,
                        offset,
                        limit,
                        &mut self.kind,
                        true,
                        lend,
                    ) {
                        Ok(Step::End) => self.input = Input::Ahead(ahead),
                        Ok(Step::Cut(carry)) => {
                            self.carry = Some(carry);
                            self.input = Input::Ahead(ahead);
                        }
                        read => {
                            self.input =
                                Input::Inflated { origin, member, ahead };
                            return Some(read.map(|step| match step {
                                Step::Record(record)
                                | Step::Damaged(record) => record,
                                Step::Cut(_) | Step::End => unreachable!(),
                            }));
                        }
                    }
                }
                Input::Between(raw) if self.may_go_ahead(&raw) => {
                    self.input = self.start_ahead(raw);
                }
                Input::Between(mut raw) => match raw.fill_buf() {
                    Err(e) => {
                        self.drop_carry();
                        return Some(Err(Error::io(raw.consumed, e)));
                    }
                    Ok([]) => return None,
                    Ok(head) if starts_member(head) => {
                        let start = raw.consumed;
                        raw.tee = Some(Spill::new(limit));
                        // A buffer per member, zeroed on its first fill:
                        // kept small, as a record's member is (64 KiB
                        // cost 6% of the instructions on a crawl).
                        let member = BufReader::with_capacity(
                            MEMBER_BUFFER,
                            GzDecoder::new(raw),
                        );
                        self.input = Input::Member {
                            origin: Origin::new(start),
                            member: Box::new(Pushback::new(member)),
                        };
                    }
                    Ok(_) => {
                        // Bytes that start no member: skip to the next one.
                        self.drop_carry();
                        let start = raw.consumed;
                        raw.tee = Some(Spill::new(limit));
                        let resume = resync_gzip(raw, 0);
                        self.input = resume;
                        return Some(Err(Error::new(start, Reason::NotGzip)));
                    }
                },
                Input::Member { mut origin, mut member } => {
                    let read = match self.join(&mut member, &mut origin) {
                        Ok(()) => record::read(
                            &mut member,
                            |at| origin.offset(at),
                            limit,
                            &mut self.kind,
                            true,
                            None,
                        ),
                        Err(e) => Err(read_error(origin.start, e)),
                    };
                    match read {
                        Ok(Step::Record(record)) => {
                            self.input = Input::Member { origin, member };
                            return Some(Ok(record));
                        }
                        // The member stopped inflating inside the block:
                        // the record as far as it goes, then the next
                        // member.
                        Ok(Step::Damaged(record)) => {
                            let raw = member.inner.into_inner().into_inner();
                            self.input = resync_gzip(raw, 1);
                            return Some(Ok(record));
                        }
                        Ok(step @ (Step::End | Step::Cut(_))) => {
                            if let Step::Cut(carry) = step {
                                self.carry = Some(carry);
                            }
                            let mut raw =
                                member.inner.into_inner().into_inner();
                            raw.tee = None;
                            self.input = Input::Between(raw);
                        }
                        Err(e) if matches!(e.reason, Reason::Gzip(_)) => {
                            let raw = member.inner.into_inner().into_inner();
                            self.input = resync_gzip(raw, 1);
                            return Some(Err(e));
                        }
                        Err(e) if matches!(e.reason, Reason::Io(_)) => {
                            return Some(Err(e))
                        }
                        Err(e) => {
                            self.input = Input::Member { origin, member };
                            return Some(Err(e));
                        }
                    }
                }
            }
        }
    }
}

impl<R: BufRead> Records<R> {
    /// Starts the thread that inflates ahead now, if it is asked for and
    /// the archive is between two members, rather than at the first
    /// [`Records::next_record`].
    pub fn start(&mut self) {
        self.input = match std::mem::replace(&mut self.input, Input::Done) {
            Input::Between(raw)
                if matches!(self.way, Way::Ahead(_))
                    && self.may_go_ahead(&raw) =>
            {
                self.start_ahead(raw)
            }
            input => input,
        };
    }

    /// Whether members are to be inflated in batches from `raw`'s place
    /// on: they are not inflated as streams, and the batches did not hand
    /// the stream back there.
    fn may_go_ahead(&self, raw: &Pushback<R>) -> bool {
        #[cfg(test)]
        if matches!(self.way, Way::Stream) {
            return false;
        }
        self.not_ahead != Some(raw.consumed)
    }

    /// The batches of members from `raw`'s place on: on the thread that
    /// inflates ahead when it is asked for and can be started, else here.
    fn start_ahead(&mut self, raw: Pushback<R>) -> Input<R> {
        let at = raw.consumed;
        let (batches, way) = match self.way {
            Way::Ahead(spawn) => match spawn(raw, self.block_limit) {
                Ok(batches) => (Source::Thread(batches), Way::Ahead(spawn)),
                Err(raw) => {
                    let members =
                        ahead::Members::new(raw, self.block_limit, false);
                    (Source::Here(Box::new(members)), Way::Batches)
                }
            },
            Way::Batches => {
                let members =
                    ahead::Members::new(raw, self.block_limit, false);
                (Source::Here(Box::new(members)), Way::Batches)
            }
            #[cfg(test)]
            Way::Stream => return Input::Between(raw),
        };
        self.way = way;
        Input::Ahead(Box::new(Ahead { batches, items: VecDeque::new(), at }))
    }
}

/// Where reading resumes after a damaged gzip member: at the next gzip
/// magic in the member's own bytes from `from` on (its inflater may have
/// read past the member's end), or in what follows them.
fn resync_gzip<R: BufRead>(mut raw: Pushback<R>, from: u64) -> Input<R> {
    let seen = raw.tee.take().unwrap_or_else(|| Spill::new(0));
    let from = from.min(seen.len());
    let resume = match seen.find(GZIP_MAGIC, from) {
        Ok(Some(k)) => Some(k),
        Ok(None) => None,
        // The copy is lost: the search goes on after it.
        Err(_) => return resync_after(raw, Vec::new()),
    };
    if let Some(k) = resume {
        return if raw.unread_spill(seen, k) {
            Input::Between(raw)
        } else {
            Input::Done
        };
    }
    // The last bytes seen may begin a magic that the next ones end.
    let keep =
        seen.len().saturating_sub(GZIP_MAGIC.len() as u64 - 1).max(from);
    let mut tail = Vec::new();
    if let Ok(mut r) = seen.reader(keep) {
        let _ = r.read_to_end(&mut tail);
    }
    resync_after(raw, tail)
}

/// The search for the next gzip magic, with `tail` (the last bytes of the
/// damaged member) read first.
fn resync_after<R: BufRead>(mut raw: Pushback<R>, tail: Vec<u8>) -> Input<R> {
    raw.unread(&tail);
    let partial = GZIP_MAGIC.len() - 1;
    loop {
        let buf = match raw.fill_buf() {
            Ok([]) | Err(_) => return Input::Done,
            Ok(buf) => buf,
        };
        if let Some(k) = find(buf, GZIP_MAGIC) {
            raw.consume(k);
            return Input::Between(raw);
        }
        if buf.len() > partial {
            let n = buf.len() - partial;
            raw.consume(n);
            continue;
        }
        // A short tail: joined with the first bytes of the next buffer.
        let tail = buf.to_vec();
        raw.consume(tail.len());
        let more = match raw.fill_buf() {
            Ok([]) | Err(_) => return Input::Done,
            Ok(more) => more,
        };
        let mut joined = tail.clone();
        joined.extend_from_slice(&more[..more.len().min(partial)]);
        if let Some(k) = find(&joined, GZIP_MAGIC) {
            raw.unread(&tail[k..]);
            return Input::Between(raw);
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl Default for Spill {
    fn default() -> Spill {
        Spill::new(0)
    }
}
