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

use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;

use crate::error::{Error, Reason};

/// The longest line of a record header, and the most header bytes.
const MAX_LINE: u64 = 64 << 10;
const MAX_HEADER: usize = 1 << 20;
/// The buffer of the inflated bytes of one gzip member.
const MEMBER_BUFFER: usize = 8 << 10;
/// The gzip magic bytes and the deflate method, which start every member.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b\x08";

/// One record: where it starts, its named fields and its block.
pub struct Record {
    /// The byte offset of the record in the input (of its gzip member in a
    /// compressed input).
    pub offset: u64,
    /// The fields, names as written.
    pub fields: Vec<(String, String)>,
    /// The block, `Content-Length` bytes.
    pub block: Vec<u8>,
}

impl Record {
    /// The value of field `name` (any case), trimmed.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }
}

/// A reader that can be given bytes back (the bytes after a damaged
/// record, to be searched again), counts what it hands out, and can keep a
/// copy of it (the compressed bytes of the current gzip member).
pub struct Pushback<R> {
    inner: R,
    front: Vec<u8>,
    at: usize,
    /// Bytes handed out, less those given back.
    pub consumed: u64,
    tee: Option<Vec<u8>>,
}

impl<R: BufRead> Pushback<R> {
    fn new(inner: R) -> Pushback<R> {
        Pushback { inner, front: Vec::new(), at: 0, consumed: 0, tee: None }
    }

    /// Puts `bytes` back in front of what is still unread.
    fn unread(&mut self, bytes: &[u8]) {
        let mut front = bytes.to_vec();
        front.extend_from_slice(&self.front[self.at..]);
        self.front = front;
        self.at = 0;
        self.consumed -= bytes.len() as u64;
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
        if self.at < self.front.len() {
            return Ok(&self.front[self.at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        if self.at < self.front.len() {
            if let Some(tee) = &mut self.tee {
                tee.extend_from_slice(&self.front[self.at..self.at + amt]);
            }
            self.at += amt;
            if self.at == self.front.len() {
                self.front.clear();
                self.at = 0;
            }
            return;
        }
        if let Some(tee) = &mut self.tee {
            if let Ok(buf) = self.inner.fill_buf() {
                tee.extend_from_slice(&buf[..amt.min(buf.len())]);
            }
        }
        self.inner.consume(amt);
    }
}

type Member<R> = Pushback<BufReader<GzDecoder<Pushback<R>>>>;

enum Input<R> {
    /// Not compressed: the records one after the other.
    Plain(Pushback<R>),
    /// gzip, between two members.
    Between(Pushback<R>),
    /// gzip, inside the member that starts at `start`.
    Member { start: u64, member: Box<Member<R>> },
    /// Nothing more can be read.
    Done,
}

/// The records of an archive, one at a time; a damaged record is an
/// `Err` and the next item is the record after it.
pub struct Records<R> {
    input: Input<R>,
}

impl<R: BufRead> Records<R> {
    /// The records of `input`, gzip-compressed or not (told by its first
    /// bytes). `Err` when it is not an archive.
    pub fn new(mut input: R) -> Result<Records<R>, Error> {
        let head = input.fill_buf().map_err(|e| Error::io(0, &e))?;
        let gzip = head.starts_with(&GZIP_MAGIC[..head.len().min(3)])
            && !head.is_empty();
        if !gzip {
            let n = head.len().min(5);
            if head[..n] != b"WARC/"[..n] {
                return Err(Error::new(0, Reason::NotWarc));
            }
        }
        let input = Pushback::new(input);
        Ok(Records {
            input: if gzip {
                Input::Between(input)
            } else {
                Input::Plain(input)
            },
        })
    }

    /// The next record, `None` at the end of the archive.
    pub fn next_record(&mut self) -> Option<Result<Record, Error>> {
        loop {
            match std::mem::replace(&mut self.input, Input::Done) {
                Input::Done => return None,
                Input::Plain(mut raw) => {
                    let read = read_record(&mut raw, |at| at);
                    self.input = Input::Plain(raw);
                    match read {
                        Ok(None) => self.input = Input::Done,
                        Ok(Some(record)) => return Some(Ok(record)),
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
                Input::Between(mut raw) => match raw.fill_buf() {
                    Err(e) => return Some(Err(Error::io(raw.consumed, &e))),
                    Ok([]) => return None,
                    Ok(head)
                        if head.starts_with(GZIP_MAGIC) || head.len() < 3 =>
                    {
                        let start = raw.consumed;
                        raw.tee = Some(Vec::new());
                        // A buffer per member, zeroed on its first fill:
                        // kept small, as a record's member is (64 KiB
                        // cost 6% of the instructions on a crawl).
                        let member = BufReader::with_capacity(
                            MEMBER_BUFFER,
                            GzDecoder::new(raw),
                        );
                        self.input = Input::Member {
                            start,
                            member: Box::new(Pushback::new(member)),
                        };
                    }
                    Ok(_) => {
                        // Bytes that start no member: skip to the next one.
                        let start = raw.consumed;
                        raw.tee = Some(Vec::new());
                        let resume = resync_gzip(raw, 0);
                        self.input = resume;
                        return Some(Err(Error::new(start, Reason::NotGzip)));
                    }
                },
                Input::Member { start, mut member } => {
                    let read = read_record(&mut member, |_| start);
                    match read {
                        Ok(Some(record)) => {
                            self.input = Input::Member { start, member };
                            return Some(Ok(record));
                        }
                        Ok(None) => {
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
                            self.input = Input::Member { start, member };
                            return Some(Err(e));
                        }
                    }
                }
            }
        }
    }
}

/// Where reading resumes after a damaged gzip member: at the next gzip
/// magic in the member's own bytes from `from` on (its inflater may have
/// read past the member's end), or in what follows them.
fn resync_gzip<R: BufRead>(mut raw: Pushback<R>, from: usize) -> Input<R> {
    let seen = raw.tee.take().unwrap_or_default();
    let from = from.min(seen.len());
    if let Some(k) = find(&seen[from..], GZIP_MAGIC) {
        raw.unread(&seen[from + k..]);
        return Input::Between(raw);
    }
    // The last bytes seen may begin a magic that the next ones end.
    let keep = seen.len().saturating_sub(GZIP_MAGIC.len() - 1).max(from);
    raw.unread(&seen[keep..]);
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

/// Reads one record from `input`; `offset` maps the position of its first
/// line to the offset reported. On damage, the bytes after the record's
/// first line are given back and skipped up to the next `WARC/` line.
fn read_record<B: BufRead>(
    input: &mut Pushback<B>,
    offset: impl Fn(u64) -> u64,
) -> Result<Option<Record>, Error> {
    let mut line = Vec::new();
    // Blank lines between records are tolerated.
    let start = loop {
        line.clear();
        let at = input.consumed;
        let n = read_line(input, &mut line)
            .map_err(|e| read_error(offset(at), &e))?;
        if n == 0 {
            return Ok(None);
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            break at;
        }
    };
    let at = offset(start);
    if !line.starts_with(b"WARC/") {
        skip_to_next_record(input, &[]);
        return Err(Error::new(
            at,
            Reason::BadRecord("no WARC/ version line".into()),
        ));
    }
    let mut taken = Vec::new();
    let outcome = read_fields_and_block(input, &mut taken);
    match outcome {
        Ok((fields, block)) => Ok(Some(Record { offset: at, fields, block })),
        Err(Damage::Io(e)) => Err(read_error(at, &e)),
        Err(Damage::Bad(reason)) => {
            skip_to_next_record(input, &taken);
            Err(Error::new(at, reason))
        }
    }
}

enum Damage {
    Io(io::Error),
    Bad(Reason),
}

impl From<io::Error> for Damage {
    fn from(e: io::Error) -> Damage {
        Damage::Io(e)
    }
}

/// A read error at `at`: damaged compressed data (the inflater's kinds of
/// error), or an input that cannot be read on.
fn read_error(at: u64, e: &io::Error) -> Error {
    match e.kind() {
        io::ErrorKind::InvalidData
        | io::ErrorKind::InvalidInput
        | io::ErrorKind::UnexpectedEof => {
            Error::new(at, Reason::Gzip(e.to_string()))
        }
        _ => Error::io(at, e),
    }
}

type Fields = Vec<(String, String)>;

/// The fields up to the blank line, then the block and its two CRLFs;
/// every byte read is also kept in `taken`, to be searched again if the
/// record is damaged.
fn read_fields_and_block<B: BufRead>(
    input: &mut Pushback<B>,
    taken: &mut Vec<u8>,
) -> Result<(Fields, Vec<u8>), Damage> {
    let mut fields: Fields = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if read_line(input, &mut line)? == 0 || !line.ends_with(b"\n") {
            return Err(Damage::Bad(Reason::CutInHeader));
        }
        taken.extend_from_slice(&line);
        if taken.len() > MAX_HEADER {
            return Err(Damage::Bad(Reason::BadRecord(
                "header over 1 MiB".into(),
            )));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        if text.starts_with([' ', '\t']) {
            match fields.last_mut() {
                Some((_, value)) => value.push_str(text),
                None => {
                    return Err(Damage::Bad(Reason::BadRecord(
                        "a continuation line first".into(),
                    )))
                }
            }
            continue;
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(Damage::Bad(Reason::BadRecord(format!(
                "a field without a colon: {:?}",
                truncate(text)
            ))));
        };
        fields.push((name.trim().to_string(), value.trim().to_string()));
    }
    let length = fields
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.as_str())
        .ok_or(Damage::Bad(Reason::BadRecord("no Content-Length".into())))?;
    let length: u64 = match length.parse() {
        Ok(n) if length.bytes().all(|b| b.is_ascii_digit()) => n,
        _ => {
            return Err(Damage::Bad(Reason::BadRecord(format!(
                "Content-Length {:?} is no number",
                truncate(length)
            ))))
        }
    };
    // Copied out of the reader's buffer (`read_to_end` would zero the
    // spare room first: 9% of the instructions on a crawl); room for the
    // declared length up front, but no more than a MiB on the word of a
    // header, so that a lying length costs nothing.
    let mut block = Vec::with_capacity(length.min(1 << 20) as usize);
    let mut left = length;
    while left > 0 {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        block.extend_from_slice(&buf[..n]);
        input.consume(n);
        left -= n as u64;
    }
    let got = block.len() as u64;
    taken.extend_from_slice(&block);
    if got < length {
        return Err(Damage::Bad(Reason::Truncated { declared: length, got }));
    }
    let mut end = [0u8; 4];
    let mut n = 0;
    while n < 4 {
        match input.read(&mut end[n..])? {
            0 => break,
            k => n += k,
        }
    }
    taken.extend_from_slice(&end[..n]);
    if &end[..n] != b"\r\n\r\n" {
        return Err(Damage::Bad(Reason::BadRecord(
            "the block does not end with two CRLFs (Content-Length wrong?)"
                .into(),
        )));
    }
    Ok((fields, block))
}

fn truncate(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// One line, at most [`MAX_LINE`] bytes.
fn read_line<B: BufRead>(
    input: &mut B,
    line: &mut Vec<u8>,
) -> io::Result<usize> {
    input.take(MAX_LINE).read_until(b'\n', line)
}

/// Gives back `taken` (what a damaged record's parse read after its first
/// line) and skips to the next line that starts with `WARC/`, leaving it
/// unread.
fn skip_to_next_record<B: BufRead>(input: &mut Pushback<B>, taken: &[u8]) {
    input.unread(taken);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(input, &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if line.starts_with(b"WARC/") => {
                input.unread(&line);
                return;
            }
            Ok(_) => {}
        }
    }
}
