//! One record's bytes: a WARC record (ISO 28500 §4: a version line, named
//! fields up to a blank line, a block of `Content-Length` bytes, two
//! CRLFs) or an ARC record (the Internet Archive's format before WARC: a
//! header line of space-separated fields, the last the block's length,
//! then the block and a line feed).
//!
//! What follows a block is read leniently, as writers differ: any run of
//! line ends (CRLF CRLF, one CRLF, LF alone, CR CR LF, none at the end of
//! a gzip member) is a record's end, and what follows them the next
//! record. Other bytes right after the block mean its length is wrong: a
//! record whose block holds no start of another is kept as its length
//! says, and the bytes up to the next record are reported
//! ([`Reason::Trailing`]); one whose block runs into the next record is
//! damaged, and reading resumes at that record (docs/readings.md#warc-record-end,
//! docs/readings.md#arc).

use std::borrow::Cow;
use std::io::{self, BufRead};
use std::ops::Range;

use super::{Lend, Pushback, Spill};
use crate::error::{Error, Reason};

/// The longest line of a record header, and the most header bytes.
const MAX_LINE: usize = 64 << 10;
const MAX_HEADER: usize = 1 << 20;
/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";
/// The room made for a record header's bytes at first: a crawler's
/// response header is 300 to 600 bytes.
const HEADER_ROOM: usize = 1 << 10;
/// The fields of an ARC header line: version 1 (URL, IP address, date,
/// content type, length) and version 2 (result code, checksum, location,
/// offset and file name before the length).
const ARC_FIELDS: [usize; 2] = [10, 5];

/// What kind of archive the records are of, once a record start is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No record start seen yet.
    Unknown,
    /// WARC records.
    Warc,
    /// ARC records of this many header fields ([`ARC_FIELDS`]).
    Arc(usize),
}

/// One record: where it starts, its named fields and its block.
pub struct Record {
    /// The byte offset of the record in the input (of its gzip member in a
    /// compressed input).
    pub offset: u64,
    /// The fields, names as written: an ARC record's header line is given
    /// as the WARC fields that say the same (`WARC-Type`,
    /// `WARC-Target-URI`, `Content-Type`, `Content-Length`).
    pub fields: Fields,
    /// The block, `Content-Length` bytes: in memory, or in a temporary
    /// file when it is longer than the archive's block limit.
    pub block: Spill,
    /// The bytes after the block that are neither its end nor another
    /// record (its length is short of the data), skipped up to the next
    /// record: how many.
    pub trailing: Option<u64>,
    /// The block is cut short: what is there was kept.
    pub cut: Option<Cut>,
}

/// A block cut short by the end of the input or by damage to it (a gzip
/// member that stops inflating): the block holds what came before
/// (docs/readings.md#warc-cut-block).
#[derive(Clone, Debug)]
pub struct Cut {
    /// The block's `Content-Length`.
    pub declared: u64,
    /// The damage that cut it; `None` when the input ends.
    pub damage: Option<Reason>,
}

impl Record {
    /// The value of field `name` (any case), trimmed.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(str::trim)
    }
}

/// `s` trimmed as [`str::trim`] trims it, at once when it starts and ends
/// with a printable ASCII character, as a header's names and values do.
fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let (Some(first), Some(last)) = (b.first(), b.last()) else {
        return s;
    };
    if first.is_ascii_graphic() && last.is_ascii_graphic() {
        return s;
    }
    s.trim()
}

/// A record header's fields: their text, decoded once, and where each
/// name and value stands in it (two allocations a header, where a string
/// for each name and value took a fifth of reading a record).
#[derive(Clone, Debug, Default)]
pub struct Fields {
    text: String,
    spans: Vec<(Range<usize>, Range<usize>)>,
}

impl Fields {
    /// Adds a field, `name` and `value` trimmed.
    fn push(&mut self, name: &str, value: &str) {
        let (name, value) = (trim(name), trim(value));
        let at = self.text.len();
        self.text.push_str(name);
        self.text.push_str(value);
        let mid = at + name.len();
        self.spans.push((at..mid, mid..self.text.len()));
    }

    /// Appends `more` (a continuation line) to the last field's value;
    /// `false` when there is none.
    fn continue_last(&mut self, more: &str) -> bool {
        // The last value ends the text: it was pushed last.
        let Some((_, value)) = self.spans.last_mut() else {
            return false;
        };
        self.text.push_str(more);
        value.end = self.text.len();
        true
    }

    /// The value of the first field `name` (any case), as read: trimmed
    /// where its first line was, continuation lines appended.
    fn get(&self, name: &str) -> Option<&str> {
        let bytes = self.text.as_bytes();
        self.spans
            .iter()
            .find(|(n, _)| {
                bytes
                    .get(n.clone())
                    .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            })
            .and_then(|(_, v)| self.text.get(v.clone()))
    }
}

/// What reading one record gave.
pub enum Step {
    /// A record.
    Record(Record),
    /// A record whose block damage to the input cut short ([`Record::cut`]):
    /// the input cannot be read on from there.
    Damaged(Record),
    /// The input (a gzip member) ended inside a record: what was read of
    /// it, to go on in the next member, and why it is damaged if it does
    /// not.
    Cut(Carry),
    /// The end of the input.
    End,
}

/// A record cut by the end of a gzip member: its bytes so far and where
/// it starts.
pub struct Carry {
    /// The offset reported for the record.
    pub offset: u64,
    /// Why the record is damaged if the next member does not go on with
    /// it.
    pub reason: Reason,
    taken: Taken,
    /// The fields, when the cut is in the block.
    fields: Option<Fields>,
    kind: Kind,
}

impl Carry {
    /// The number of bytes carried.
    pub fn len(&self) -> u64 {
        self.taken.len()
    }

    /// The error of the record when no member goes on with it.
    pub fn error(&self) -> Error {
        Error::new(self.offset, self.reason.clone())
    }

    /// The record when no member goes on with it: one cut in its block
    /// is read as far as it goes ([`Record::cut`]), unless the block holds
    /// the start of another record; else its error.
    pub fn into_item(self) -> Result<Record, Error> {
        let error = self.error();
        let (Some(fields), Reason::Truncated { declared, .. }) =
            (self.fields, &self.reason)
        else {
            return Err(error);
        };
        if runs_on(&self.taken.block, self.kind).unwrap_or(true) {
            return Err(error);
        }
        Ok(Record {
            offset: self.offset,
            fields,
            block: self.taken.block,
            trailing: None,
            cut: Some(Cut { declared: *declared, damage: None }),
        })
    }

    /// Puts the bytes back in front of `input`, whose place is then the
    /// record's start; `false` when a temporary file failed (the bytes are
    /// lost).
    pub fn unread_into<B: BufRead>(self, input: &mut Pushback<B>) -> bool {
        input.consumed += self.taken.len();
        self.taken.unread_into(input)
    }
}

/// What a record's parse read, to be searched again if the record is
/// damaged, or carried into the next member if it is cut.
#[derive(Default)]
struct Taken {
    /// The first line.
    line: Vec<u8>,
    /// The header lines.
    head: Vec<u8>,
    /// The block, as far as it was read.
    block: Spill,
    /// What came after the block.
    end: Vec<u8>,
}

impl Taken {
    fn len(&self) -> u64 {
        (self.line.len() + self.head.len() + self.end.len()) as u64
            + self.block.len()
    }

    /// Gives every byte back to `input`, to be read first; `false` when
    /// the block's temporary file cannot be read again.
    fn unread_into<B: BufRead>(self, input: &mut Pushback<B>) -> bool {
        input.unread(&self.end);
        let kept = input.unread_spill(self.block, 0);
        input.unread(&self.head);
        input.unread(&self.line);
        kept
    }
}

enum Damage {
    Io(io::Error),
    /// The input ended inside the record.
    Cut(Reason),
    Bad(Reason),
}

impl From<io::Error> for Damage {
    fn from(e: io::Error) -> Damage {
        Damage::Io(e)
    }
}

/// Reads one record from `input`, of `kind` (set by the first record
/// start seen); `offset` maps the position of its first line to the
/// offset reported. In a gzip `member`, a record the input ends inside is
/// [`Step::Cut`]; elsewhere it is damaged. On damage, reading is left at
/// the next record start after the record's first line. A block that
/// `lend` can take whole is held as it lends it, not copied.
pub fn read<B: BufRead>(
    input: &mut Pushback<B>,
    offset: impl Fn(u64) -> u64,
    block_limit: usize,
    kind: &mut Kind,
    member: bool,
    lend: Option<Lend<B>>,
) -> Result<Step, Error> {
    let mut taken =
        Taken { block: Spill::new(block_limit), ..Taken::default() };
    // Blank lines between records are tolerated.
    let start = loop {
        taken.line.clear();
        let at = input.consumed;
        let n = read_line(input, &mut taken.line)
            .map_err(|e| read_error(offset(at), e))?;
        if n == 0 {
            return Ok(Step::End);
        }
        if !taken.line.iter().all(u8::is_ascii_whitespace) {
            break at;
        }
    };
    // A UTF-8 byte order mark before the first record (an archive saved
    // by a text editor) is read past, as the format's detection reads
    // past it: the record starts after it.
    let start = if *kind == Kind::Unknown && taken.line.starts_with(BOM) {
        taken.line.drain(..BOM.len());
        start + BOM.len() as u64
    } else {
        start
    };
    let at = offset(start);
    let cut = |taken, reason, fields, kind| {
        Ok(Step::Cut(Carry { offset: at, reason, taken, fields, kind }))
    };
    if member && !taken.line.ends_with(b"\n") {
        return cut(taken, Reason::CutInHeader, None, *kind);
    }
    // The fields of a record whose block the end of its member cuts.
    let mut cut_fields = None;
    let read = match starts(&taken.line, *kind) {
        Some(Start::Warc) => {
            *kind = Kind::Warc;
            warc_fields(input, &mut taken).and_then(|fields| {
                let length = content_length(&fields)?;
                let cut = read_block(input, length, &mut taken.block, lend)?;
                Ok((fields, cut))
            })
        }
        Some(Start::Arc(header)) => {
            *kind = Kind::Arc(header.fields);
            read_block(input, header.length, &mut taken.block, lend)
                .map(|cut| (header.warc_fields(&taken.block), cut))
        }
        None => {
            let why = match kind {
                Kind::Arc(_) => "no ARC record header",
                _ => "no WARC/ version line",
            };
            skip_to_next_record(input, Taken::default(), *kind);
            return Err(Error::new(at, Reason::BadRecord(why.into())));
        }
    };
    let read = read.and_then(|(fields, cut)| {
        let Some(cut) = cut else {
            let trailing = end_of_block(input, &mut taken, *kind)?;
            return Ok((fields, trailing, None));
        };
        let got = taken.block.len();
        // Cut by the end of a member, the next may go on with it; a block
        // that holds the start of another record is damaged (its length
        // too long), and reading resumes there.
        let cut_by_end = cut.damage.is_none();
        if cut_by_end && member || runs_on(&taken.block, *kind)? {
            let declared = cut.declared;
            cut_fields = Some(fields);
            return Err(Damage::Cut(Reason::Truncated { declared, got }));
        }
        Ok((fields, None, Some(cut)))
    });
    match read {
        Ok((fields, trailing, cut)) => {
            let damaged = cut.as_ref().is_some_and(|c| c.damage.is_some());
            let record = Record {
                offset: at,
                fields,
                block: taken.block,
                trailing,
                cut,
            };
            Ok(if damaged {
                Step::Damaged(record)
            } else {
                Step::Record(record)
            })
        }
        Err(Damage::Io(e)) => Err(read_error(at, e)),
        Err(Damage::Cut(reason)) if member => {
            cut(taken, reason, cut_fields, *kind)
        }
        Err(Damage::Cut(reason) | Damage::Bad(reason)) => {
            taken.line.clear();
            skip_to_next_record(input, taken, *kind);
            Err(Error::new(at, reason))
        }
    }
}

/// A read error at `at`: damaged compressed data (the inflater's kinds of
/// error), or an input that cannot be read on.
pub fn read_error(at: u64, e: io::Error) -> Error {
    if damaged_data(&e) {
        Error::new(at, Reason::Gzip(e.into()))
    } else {
        Error::io(at, e)
    }
}

/// Whether `e` is of the inflater's kinds of error: damaged compressed
/// data.
fn damaged_data(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::InvalidData
            | io::ErrorKind::InvalidInput
            | io::ErrorKind::UnexpectedEof
    )
}

/// The start of a record, from its first line.
enum Start {
    Warc,
    Arc(ArcHeader),
}

/// Whether `line` starts a record of `kind`: a `WARC/` version line, or an
/// ARC header line (before any record, an ARC file's `filedesc://` line,
/// or a header line of either version).
fn starts(line: &[u8], kind: Kind) -> Option<Start> {
    match kind {
        Kind::Warc => line.starts_with(b"WARC/").then_some(Start::Warc),
        Kind::Arc(fields) => ArcHeader::parse(line, fields).map(Start::Arc),
        Kind::Unknown if line.starts_with(b"WARC/") => Some(Start::Warc),
        Kind::Unknown => ARC_FIELDS
            .iter()
            .find_map(|&n| ArcHeader::parse(line, n))
            .map(Start::Arc),
    }
}

/// An ARC record's header line.
struct ArcHeader {
    url: String,
    content_type: String,
    length: u64,
    /// How many fields it has.
    fields: usize,
}

impl ArcHeader {
    /// The header line `line` of `fields` fields: a URL with a scheme, a
    /// 12 or 14 digit date third, the length last. The URL may hold
    /// spaces, as some writers leave them: the other fields are counted
    /// from the end.
    fn parse(line: &[u8], fields: usize) -> Option<ArcHeader> {
        let line = std::str::from_utf8(line).ok()?;
        let line = line.trim_end_matches(['\r', '\n']);
        let parts: Vec<&str> = line.rsplitn(fields, ' ').collect();
        if parts.len() != fields || parts.iter().any(|p| p.is_empty()) {
            return None;
        }
        // From the end: the length, ..., the date, the IP address, the
        // URL.
        let (length, url) = (parts[0], parts[fields - 1]);
        let date = parts[fields - 3];
        let content_type = parts[fields - 4];
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        let scheme = url.split_once(':').is_some_and(|(s, _)| {
            s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        });
        let ok = scheme
            && digits(date)
            && matches!(date.len(), 12 | 14)
            && digits(length);
        if !ok {
            return None;
        }
        Some(ArcHeader {
            url: url.to_owned(),
            content_type: content_type.to_owned(),
            length: length.parse().ok()?,
            fields,
        })
    }

    /// The WARC fields that say what the header line says: the file's
    /// description is its `warcinfo`, a `block` that is an HTTP response
    /// a `response`, any other a `resource` of the line's content type.
    fn warc_fields(&self, block: &Spill) -> Fields {
        let kind = if self.url.starts_with("filedesc:") {
            "warcinfo"
        } else if block.head(5).is_ok_and(|h| h == b"HTTP/") {
            "response"
        } else {
            "resource"
        };
        let mut fields = Fields::default();
        fields.push("WARC-Type", kind);
        fields.push("WARC-Target-URI", &self.url);
        fields.push("Content-Type", &self.content_type);
        fields.push("Content-Length", &self.length.to_string());
        fields
    }
}

/// The fields of a WARC header up to the blank line; every byte read is
/// kept in `taken`.
fn warc_fields<B: BufRead>(
    input: &mut Pushback<B>,
    taken: &mut Taken,
) -> Result<Fields, Damage> {
    // Room for a usual header at once, not grown line by line.
    let mut fields = Fields {
        text: String::with_capacity(HEADER_ROOM / 2),
        spans: Vec::with_capacity(16),
    };
    taken.head.reserve(HEADER_ROOM);
    loop {
        // Read into the header's bytes, and looked at there.
        let start = taken.head.len();
        let n = read_line(input, &mut taken.head)?;
        let line = &taken.head[start..];
        if n == 0 || !line.ends_with(b"\n") {
            return Err(Damage::Cut(Reason::CutInHeader));
        }
        if taken.head.len() > MAX_HEADER {
            return Err(Damage::Bad(Reason::BadRecord(
                "header over 1 MiB".into(),
            )));
        }
        // Checked whole first: `from_utf8` looks at words where
        // `from_utf8_lossy` looks at each byte (a fifth of a header's
        // instructions).
        let text = match std::str::from_utf8(line) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(line),
        };
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            return Ok(fields);
        }
        if text.starts_with([' ', '\t']) {
            if !fields.continue_last(text) {
                return Err(Damage::Bad(Reason::BadRecord(
                    "a continuation line first".into(),
                )));
            }
            continue;
        }
        let colon = memchr::memchr(b':', text.as_bytes());
        let Some((name, value)) = colon.map(|i| (&text[..i], &text[i + 1..]))
        else {
            return Err(Damage::Bad(Reason::BadRecord(format!(
                "a field without a colon: {:?}",
                truncate(text)
            ))));
        };
        fields.push(name, value);
    }
}

/// The `Content-Length` of a WARC header.
fn content_length(fields: &Fields) -> Result<u64, Damage> {
    let length = fields
        .get("content-length")
        .ok_or(Damage::Bad(Reason::BadRecord("no Content-Length".into())))?;
    match length.parse() {
        Ok(n) if length.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(Damage::Bad(Reason::BadRecord(format!(
            "Content-Length {:?} is no number",
            truncate(length)
        )))),
    }
}

/// Reads a block of `length` bytes into `block`: `Some` when it is cut
/// short, by the end of the input or, after some of it, by damaged
/// compressed data.
fn read_block<B: BufRead>(
    input: &mut Pushback<B>,
    length: u64,
    block: &mut Spill,
    lend: Option<Lend<B>>,
) -> Result<Option<Cut>, Damage> {
    if block.len() == 0 && length <= block.limit as u64 {
        if let Some(bytes) = lend.and_then(|lend| lend(input, length)) {
            block.lend(bytes);
            return Ok(None);
        }
    }
    // Copied out of the reader's buffer (`read_to_end` would zero the
    // spare room first: 9% of the instructions on a crawl); room for the
    // declared length up front when it is held in memory, so that a
    // lying length costs nothing.
    if length <= block.limit as u64 {
        let mut memory = block.take_own();
        memory.reserve_exact(length as usize);
        block.memory = super::Held::Own(memory);
    }
    let mut left = length;
    while left > 0 {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if block.len() > 0 && damaged_data(&e) => {
                let damage = Some(Reason::Gzip(e.into()));
                return Ok(Some(Cut { declared: length, damage }));
            }
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        block.extend(&buf[..n])?;
        input.consume(n);
        left -= n as u64;
    }
    if block.len() < length {
        return Ok(Some(Cut { declared: length, damage: None }));
    }
    Ok(None)
}

/// Whether a block holds the start of another record of `kind`.
fn runs_on(block: &Spill, kind: Kind) -> io::Result<bool> {
    match kind {
        Kind::Arc(_) => runs_into_arc(block, kind),
        _ => Ok(block.find(b"\nWARC/", 0)?.is_some()),
    }
}

/// Reads the end of a block: the line ends after it (kept in `taken`),
/// up to the next record or the end of the input. `Some(n)`: `n` other
/// bytes came first, now skipped up to the next record.
fn end_of_block<B: BufRead>(
    input: &mut Pushback<B>,
    taken: &mut Taken,
    kind: Kind,
) -> Result<Option<u64>, Damage> {
    loop {
        let buf = input.fill_buf()?;
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if n == 0 {
            break;
        }
        taken.end.extend_from_slice(&buf[..n]);
        input.consume(n);
    }
    let mut next = Vec::new();
    read_line(input, &mut next)?;
    input.unread(&next);
    // After line ends, other bytes are a record of their own (whose start
    // is damaged), read as the next one.
    if next.is_empty()
        || starts(&next, kind).is_some()
        || !taken.end.is_empty()
    {
        return Ok(None);
    }
    // A length short of the data, or one past it: then the block holds
    // the start of the next record, which is read from there.
    if runs_on(&taken.block, kind)? {
        return Err(Damage::Bad(Reason::BadRecord(
            "the block runs into the next record (Content-Length too long?)"
                .into(),
        )));
    }
    let from = input.consumed;
    skip_to_next_record(input, Taken::default(), kind);
    Ok(Some(input.consumed - from))
}

/// Whether an ARC block holds a line that is an ARC header of `kind`.
fn runs_into_arc(block: &Spill, kind: Kind) -> io::Result<bool> {
    let mut reader = block.reader(0)?;
    let mut line = Vec::new();
    loop {
        line.clear();
        if read_line(&mut reader, &mut line)? == 0 {
            return Ok(false);
        }
        if starts(&line, kind).is_some() {
            return Ok(true);
        }
    }
}

fn truncate(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Appends one line to `line`, at most [`MAX_LINE`] bytes, its line feed
/// kept; how many bytes (0: the end of the input). What `read_until`
/// through `take` does, with `memchr`'s search: a line's reading took a
/// third of a record header's.
fn read_line<B: BufRead + ?Sized>(
    input: &mut B,
    line: &mut Vec<u8>,
) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let buf = &buf[..buf.len().min(MAX_LINE - read)];
        let (n, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), buf.is_empty()),
        };
        line.extend_from_slice(&buf[..n]);
        input.consume(n);
        read += n;
        if done || read == MAX_LINE {
            return Ok(read);
        }
    }
}

/// Gives back `taken` (what a damaged record's parse read) and skips to
/// the next line that starts a record of `kind`, leaving it unread.
fn skip_to_next_record<B: BufRead>(
    input: &mut Pushback<B>,
    taken: Taken,
    kind: Kind,
) {
    // A block whose file cannot be read again is passed over.
    taken.unread_into(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(input, &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if starts(&line, kind).is_some() => {
                input.unread(&line);
                return;
            }
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_across_buffers_up_to_the_limit() {
        let text = b"WARC/1.0\r\nA: b\nlast";
        let mut input = io::BufReader::with_capacity(3, &text[..]);
        let mut lines = Vec::new();
        loop {
            let mut line = Vec::new();
            let n = read_line(&mut input, &mut line).unwrap();
            assert_eq!(n, line.len());
            if n == 0 {
                break;
            }
            lines.push(line);
        }
        assert_eq!(lines, [&b"WARC/1.0\r\n"[..], b"A: b\n", b"last"]);
        let long = vec![b'x'; MAX_LINE + 5];
        let mut input = io::BufReader::with_capacity(1000, &long[..]);
        let mut line = b"kept".to_vec();
        assert_eq!(read_line(&mut input, &mut line).unwrap(), MAX_LINE);
        assert_eq!(line.len(), 4 + MAX_LINE);
        assert_eq!(read_line(&mut input, &mut Vec::new()).unwrap(), 5);
    }

    #[test]
    fn fields_keep_their_values_as_read() {
        let mut fields = Fields::default();
        assert!(!fields.continue_last(" more"));
        fields.push(" WARC-Type ", " response\u{a0}");
        fields.push("Content-Length", "12");
        assert!(fields.continue_last(" "));
        fields.push("content-length", "7");
        fields.push("X-Long", "a");
        assert!(fields.continue_last("\tb"));
        assert_eq!(fields.get("warc-type"), Some("response"));
        // The first of a repeated name; a continuation kept as read.
        assert_eq!(fields.get("CONTENT-LENGTH"), Some("12 "));
        assert_eq!(fields.get("x-long"), Some("a\tb"));
        assert_eq!(fields.get("X-Lon"), None);
        assert!(matches!(content_length(&fields), Err(Damage::Bad(_))));
        assert_eq!(trim(" \u{3000}a b\u{a0}"), "a b");
        assert_eq!(trim("a"), "a");
        assert_eq!(trim(""), "");
    }
}
