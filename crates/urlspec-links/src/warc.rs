//! Links in WARC archives, as crawlers write them (ISO 28500; gzip
//! compressed per record or not).
//!
//! Each `response` record whose payload is HTML (by its `Content-Type`,
//! or sniffed when it has none; HTTP/1.x, HTTP/2 or HTTP/3 status lines),
//! and each `resource` record holding HTML, is a document. Its retrieval
//! URL is the record's `WARC-Target-URI`; when earlier records were 3xx
//! responses whose `Location` led to it, the document reports the whole
//! chain, and the base is the last URL of it (RFC 1808 §3.3). The HTTP
//! headers of the response (`Content-Location`, `Content-Base`) are its
//! headers layer, and its `Link` and `Refresh` headers hold links. Other
//! records are skipped and counted by reason.
//!
//! Records are read one at a time, and a record's block longer than
//! [`stream::IN_MEMORY`] is spilled to a temporary file as it is framed,
//! then its payload read as [`stream`] reads a long page ([`Page::read`]),
//! so memory stays bounded whatever the size of a record or of the
//! archive; a damaged record is reported with its byte offset and reading
//! resumes after it.
//!
//! The reading comes in two halves. What depends on the records before
//! (the framing, gzip members included, each record's type and HTTP head,
//! the redirects) is done in order by [`Documents::next_page`]; what
//! depends on the record alone (its payload's codings, the HTML, the
//! links' resolution) is [`Page::document`], which can run on any thread.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read};

use std::cell::RefCell;

use flate2::read::MultiGzDecoder;
use urlspec::base::Base;

use crate::headers::{self, Form};
use crate::html::stream;
use crate::slice::offset_in;
use crate::{html, Context, Document, Error, Problem, Reason, Summary};

mod coding;
mod dechunk;
mod framing;

use coding::Coding;
use dechunk::Dechunked;
use framing::{Record, Records, Spill};

/// The longest redirect chain followed back.
const MAX_CHAIN: usize = 20;
/// The most a response's payload is read to once its codings are undone
/// (past it, the page's problems say so): 4 GiB, spooled to a temporary
/// file, so that a small compressed body cannot fill the disk.
pub const MAX_PAYLOAD: u64 = 4 << 30;
/// The most of a spooled block read for its HTTP head.
const MAX_HTTP_HEAD: usize = 1 << 20;
/// The bytes of a payload sniffed for HTML (MIME Sniffing §7.1 skips 1445
/// bytes of whitespace before its longest pattern).
const SNIFF: u64 = 1536;

/// Why a record is not a document. Each reason is counted on its own
/// ([`Documents::skipped`], [`Summary::skipped_by_reason`]), so a crawl's
/// statistics say what its archives held besides pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Skip {
    /// A record of another type than `response` or `resource`:
    /// `warcinfo`, `request`, `metadata`, `revisit`, ...
    NotResponse,
    /// A `response` record without a `WARC-Target-URI`.
    NoTargetUri,
    /// A `response` whose content is not an HTTP response message.
    NotHttp,
    /// A 3xx response: its `Location` is followed for the redirect chain,
    /// but it is no page.
    Redirect,
    /// A response whose payload is not HTML (by its `Content-Type`).
    NotHtml,
    /// A record whose WARC header lacks its `WARC-Type`.
    MalformedHeader,
    /// A damaged record: a corrupt or cut gzip member, a bad header, a
    /// block shorter than its length (reported as an [`Error`] with its
    /// offset; the archive is read on after it).
    Damaged,
}

impl Skip {
    /// Every reason, in the order of the summary.
    pub const ALL: [Skip; 7] = [
        Skip::NotResponse,
        Skip::NoTargetUri,
        Skip::NotHttp,
        Skip::Redirect,
        Skip::NotHtml,
        Skip::MalformedHeader,
        Skip::Damaged,
    ];

    /// The reason's name in summaries and statistics.
    ///
    /// ```
    /// use urlspec_links::warc::Skip;
    ///
    /// let names: Vec<&str> = Skip::ALL.iter().map(|s| s.name()).collect();
    /// assert_eq!(names[..2], ["not_response", "no_target_uri"]);
    /// ```
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Skip::NotResponse => "not_response",
            Skip::NoTargetUri => "no_target_uri",
            Skip::NotHttp => "not_http",
            Skip::Redirect => "redirect",
            Skip::NotHtml => "not_html",
            Skip::MalformedHeader => "malformed_header",
            Skip::Damaged => "damaged",
        }
    }
}

/// Wraps `input` so that a gzip-compressed archive (one gzip member per
/// record, or one for the whole file) is read decompressed.
///
/// # Errors
///
/// The I/O error of the first read of `input` (which tells whether it is
/// gzip).
pub fn reader<R: Read + 'static>(input: R) -> io::Result<Box<dyn BufRead>> {
    Ok(Box::new(decompress(input)?))
}

/// [`reader`] without the box: the result is `Send` when `input` is, so
/// it can be held by a value that moves between threads.
///
/// # Errors
///
/// As [`reader`].
pub fn decompress<R: Read>(input: R) -> io::Result<Decompressed<R>> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let gzip = input.fill_buf()?.starts_with(b"\x1f\x8b");
    Ok(if gzip {
        Decompressed::Gzip(Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(input),
        )))
    } else {
        Decompressed::Plain(input)
    })
}

/// An archive's bytes, decompressed when they were gzip-compressed: see
/// [`decompress`].
pub enum Decompressed<R: Read> {
    /// Not compressed.
    Plain(BufReader<R>),
    /// gzip, one member per record or one for the whole file.
    Gzip(Box<BufReader<MultiGzDecoder<BufReader<R>>>>),
}

impl<R: Read> Read for Decompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decompressed::Plain(r) => r.read(buf),
            Decompressed::Gzip(r) => r.read(buf),
        }
    }
}

impl<R: Read> BufRead for Decompressed<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Decompressed::Plain(r) => r.fill_buf(),
            Decompressed::Gzip(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Decompressed::Plain(r) => r.consume(amt),
            Decompressed::Gzip(r) => r.consume(amt),
        }
    }
}

/// Reads every record of a WARC archive from `input` (gzip-compressed or
/// not), handing each HTML document, or why a record could not be read,
/// to `sink`, and counting the skipped records in `summary`. A damaged
/// record does not end the archive: reading resumes at the next record.
pub fn documents<R: BufRead>(
    input: R,
    ctx: &Context,
    summary: &mut Summary,
    sink: &mut dyn FnMut(Result<Document, Error>),
) {
    let mut docs = Documents::new(input, ctx.clone());
    for doc in &mut docs {
        sink(doc);
    }
    docs.add_skipped(summary);
}

/// A record that was not read as a document: where it is, its target if
/// it has one, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The byte offset of the record (of its gzip member in a compressed
    /// archive).
    pub offset: u64,
    /// The record's `WARC-Type`.
    pub kind: String,
    /// The record's `WARC-Target-URI`.
    pub target: Option<String>,
    /// Why it was skipped.
    pub reason: Skip,
}

/// The HTML documents of a WARC archive, pulled one at a time: the
/// iterator form of [`documents`], for callers that cannot hand over a
/// sink (a Python iterator, a Spark partition).
///
/// Each item is a document, or why a record could not be read; after a
/// damaged record the next item is the record after it (the next gzip
/// member, or the next `WARC/` line), and after an input that cannot be
/// read on ([`Reason::Io`], [`Reason::NotWarc`]) the iterator ends. Only
/// the current record is held in memory.
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{warc::Documents, Context};
///
/// let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>";
/// let archive = format!(
///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
///      WARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
///      Content-Length: {}\r\n\r\n{html}\r\n\r\n",
///     html.len()
/// );
/// let mut docs = Documents::new(archive.as_bytes(), Context::new(Spec::Rfc3986));
/// let doc = docs.next().unwrap().unwrap();
/// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/x"));
/// assert!(docs.next().is_none());
/// assert_eq!(docs.skipped_records(), 0);
/// ```
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Documents<R> {
    ctx: Context,
    state: State<R>,
    /// The longest record block held in memory ([`Documents::spill_past`]).
    block_limit: usize,
    /// Sets the records to inflate ahead ([`Documents::inflate_ahead`]).
    ahead: Option<fn(&mut Records<R>)>,
    /// Each redirect's target, mapped to the URL that redirected to it.
    redirected_from: HashMap<String, String>,
    /// Records skipped so far, indexed by [`Skip`]'s discriminant (the
    /// order of [`Skip::ALL`]).
    skipped: [usize; Skip::ALL.len()],
    /// Each skipped record, when asked for ([`Documents::log_skipped`]).
    log: Option<Vec<Skipped>>,
    /// Damage after the last record read, said next.
    pending: Option<Error>,
}

enum State<R> {
    /// Not looked at yet.
    Start(R),
    Reading(Box<Records<R>>),
    /// Not an archive, or not readable: said at the first page
    /// ([`Documents::start`]).
    Failed(Error),
    Done,
}

impl<R: BufRead + Send + 'static> Documents<R> {
    /// Inflates the gzip members of a record-compressed archive on a
    /// thread of their own, in order, each while the records of the ones
    /// before are read. The pages, their offsets and the damage reported
    /// are those of the sequential reading; a member that inflates past
    /// [`Documents::spill_past`], a damaged one and bytes that start no
    /// member are read the sequential way.
    ///
    /// ```
    /// use std::io::Write;
    /// use urlspec::Spec;
    /// use urlspec_links::{warc::Documents, Context};
    /// let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>";
    /// let record = format!(
    ///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
    ///      Content-Length: {}\r\n\r\n{html}\r\n\r\n",
    ///     html.len()
    /// );
    /// let mut archive = Vec::new();
    /// for _ in 0..3 {
    ///     let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    ///     gz.write_all(record.as_bytes()).unwrap();
    ///     archive.extend(gz.finish().unwrap());
    /// }
    /// let len = archive.len();
    /// let input = std::io::Cursor::new(archive);
    /// let mut docs = Documents::new(input, Context::new(Spec::Rfc3986));
    /// docs.inflate_ahead();
    /// let mut offsets = Vec::new();
    /// while let Some(page) = docs.next_page() {
    ///     offsets.push(page.unwrap().offset());
    /// }
    /// assert_eq!(offsets, [0, len as u64 / 3, 2 * len as u64 / 3]);
    /// ```
    pub fn inflate_ahead(&mut self) {
        self.ahead = Some(Records::inflate_ahead);
        if let State::Reading(records) = &mut self.state {
            records.inflate_ahead();
        }
    }
}

impl<R: BufRead> Documents<R> {
    /// The documents of the archive `input`, gzip-compressed or not, read
    /// under `ctx`.
    pub fn new(input: R, ctx: Context) -> Documents<R> {
        Documents {
            ctx,
            state: State::Start(input),
            block_limit: stream::IN_MEMORY,
            ahead: None,
            redirected_from: HashMap::new(),
            skipped: [0; Skip::ALL.len()],
            log: None,
            pending: None,
        }
    }

    /// Holds record blocks of more than `bytes` in a temporary file rather
    /// than in memory ([`stream::IN_MEMORY`] unless set); their pages are
    /// then read in bounded memory ([`Page::read`]).
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{warc::Documents, Context};
    /// let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>";
    /// let archive = format!(
    ///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
    ///      Content-Length: {}\r\n\r\n{html}\r\n\r\n",
    ///     html.len()
    /// );
    /// let mut docs = Documents::new(archive.as_bytes(), Context::new(Spec::Rfc3986));
    /// docs.spill_past(10);
    /// let page = docs.next_page().unwrap().unwrap();
    /// assert!(page.is_spilled());
    /// assert_eq!(page.len(), 0);
    /// let doc = page.document(docs.context());
    /// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/x"));
    /// ```
    pub fn spill_past(&mut self, bytes: usize) {
        self.block_limit = bytes;
        if let State::Reading(records) = &mut self.state {
            records.set_block_limit(bytes);
        }
    }

    /// Keeps each skipped record for [`Documents::take_skipped`] (for
    /// `urlspec links -v`).
    pub fn log_skipped(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The records skipped since the last call, when
    /// [`Documents::log_skipped`] asked for them.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::warc::{Documents, Skip};
    /// use urlspec_links::Context;
    ///
    /// let info = "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    /// let mut docs = Documents::new(info.as_bytes(), Context::new(Spec::Rfc3986));
    /// docs.log_skipped();
    /// assert!(docs.next().is_none());
    /// let skipped = docs.take_skipped();
    /// assert_eq!((skipped[0].offset, skipped[0].reason), (0, Skip::NotResponse));
    /// ```
    pub fn take_skipped(&mut self) -> Vec<Skipped> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Records read so far that were not HTML responses, and so skipped
    /// (redirects included).
    #[must_use]
    pub fn skipped_records(&self) -> usize {
        self.skipped.iter().sum()
    }

    /// Records read so far that were skipped for `reason` (example:
    /// [`Documents::add_skipped`]).
    #[must_use]
    pub fn skipped(&self, reason: Skip) -> usize {
        self.skipped[reason as usize]
    }

    /// Adds the records skipped so far to `summary`, in total and by
    /// reason.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::warc::{Documents, Skip};
    /// use urlspec_links::{Context, Summary};
    ///
    /// let info = "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:1>\r\n\
    ///             WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    /// let mut docs = Documents::new(info.as_bytes(), Context::new(Spec::Rfc3986));
    /// assert!(docs.next().is_none());
    /// assert_eq!(docs.skipped(Skip::NotResponse), 1);
    /// let mut summary = Summary::default();
    /// docs.add_skipped(&mut summary);
    /// assert_eq!(summary.skipped_records, 1);
    /// assert_eq!(summary.skipped_by_reason["not_response"], 1);
    /// assert_eq!(summary.skipped_by_reason["redirect"], 0);
    /// ```
    pub fn add_skipped(&self, summary: &mut Summary) {
        summary.skipped_records += self.skipped_records();
        for reason in Skip::ALL {
            *summary.skipped_by_reason.entry(reason.name()).or_default() +=
                self.skipped(reason);
        }
    }

    fn skip(&mut self, record: &Record, reason: Skip) {
        self.skipped[reason as usize] += 1;
        if let Some(log) = &mut self.log {
            log.push(Skipped {
                offset: record.offset,
                kind: record.field("WARC-Type").unwrap_or("").to_string(),
                target: record.field("WARC-Target-URI").map(target_uri),
                reason,
            });
        }
    }

    /// The context the archive is read under.
    #[must_use]
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The next record that holds an HTML page, not read yet, or why a
    /// record could not be read: the sequential half of the reading (the
    /// framing, the record's type, its HTTP head and the redirects that
    /// led to it), leaving the page's parse to [`Page::document`], which
    /// may run on another thread. The items come in the order of
    /// [`Documents`]'s, and end as they do.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{warc::Documents, Context};
    ///
    /// let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>";
    /// let archive = format!(
    ///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
    ///      Content-Length: {}\r\n\r\n{html}\r\n\r\n",
    ///     html.len()
    /// );
    /// let ctx = Context::new(Spec::Rfc3986);
    /// let mut docs = Documents::new(archive.as_bytes(), ctx.clone());
    /// let page = docs.next_page().unwrap().unwrap();
    /// assert_eq!((page.offset(), page.len()), (0, html.len()));
    /// let page = std::thread::spawn(move || page.document(&ctx)).join().unwrap();
    /// assert_eq!(page.links[0].url.as_deref(), Ok("http://h/d/x"));
    /// assert!(docs.next_page().is_none());
    /// ```
    ///
    /// # Errors
    ///
    /// An item is an [`Error`] at the byte offset of the record (of its
    /// gzip member in a compressed archive) that could not be read:
    /// [`Reason::NotGzip`], [`Reason::Gzip`], [`Reason::BadRecord`],
    /// [`Reason::CutInHeader`] or [`Reason::Truncated`], and the next item
    /// is the record after the damaged one; [`Reason::Io`] or
    /// [`Reason::NotWarc`], and the items end ([`ends_reading`]).
    pub fn next_page(&mut self) -> Option<Result<Page, Error>> {
        if let Some(e) = self.pending.take() {
            return Some(Err(e));
        }
        match self.read_page() {
            Ok(page) => page.map(Ok),
            Err(e) => {
                if ends_reading(&e) {
                    self.state = State::Done;
                }
                Some(Err(e))
            }
        }
    }

    /// Begins reading now rather than at the first page: the archive's
    /// first bytes are read, and with [`Documents::inflate_ahead`] its
    /// inflating thread starts, so that the members are inflated while
    /// the caller reads something else (the archive before this one).
    /// What the first bytes say (not an archive, a read error) is the
    /// first page's [`Error`], as without this call.
    ///
    /// ```
    /// use std::io::Write;
    /// use urlspec::Spec;
    /// use urlspec_links::{warc::Documents, Context};
    /// let html = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>";
    /// let record = format!(
    ///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
    ///      Content-Length: {}\r\n\r\n{html}\r\n\r\n",
    ///     html.len()
    /// );
    /// let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    /// gz.write_all(record.as_bytes()).unwrap();
    /// let input = std::io::Cursor::new(gz.finish().unwrap());
    /// let mut docs = Documents::new(input, Context::new(Spec::Rfc3986));
    /// docs.inflate_ahead();
    /// docs.start(); // the member inflates from here on
    /// let doc = docs.next().unwrap().unwrap();
    /// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/x"));
    ///
    /// let mut not_warc = Documents::new(&b"<html>"[..], Context::new(Spec::Rfc3986));
    /// not_warc.start();
    /// assert!(not_warc.next().unwrap().is_err());
    /// assert!(not_warc.next().is_none());
    /// ```
    pub fn start(&mut self) {
        self.state = match std::mem::replace(&mut self.state, State::Done) {
            State::Start(input) => match self.records(input) {
                Ok(records) => State::Reading(records),
                Err(e) => State::Failed(e),
            },
            state => state,
        };
        if let State::Reading(records) = &mut self.state {
            records.start();
        }
    }

    /// The records of `input`, read as this reading is set to.
    fn records(&self, input: R) -> Result<Box<Records<R>>, Error> {
        let mut records = Records::new(input)?;
        records.set_block_limit(self.block_limit);
        if let Some(ahead) = self.ahead {
            ahead(&mut records);
        }
        Ok(Box::new(records))
    }

    /// The next page, `Ok(None)` at the end of the archive.
    fn read_page(&mut self) -> Result<Option<Page>, Error> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Start(input) => {
                    self.state = State::Reading(self.records(input)?);
                }
                State::Done => return Ok(None),
                State::Failed(e) => return Err(e),
                reading @ State::Reading(_) => self.state = reading,
            }
            let State::Reading(records) = &mut self.state else {
                return Ok(None);
            };
            let mut record = match records.next_record() {
                None => {
                    self.state = State::Done;
                    return Ok(None);
                }
                Some(Err(e)) => {
                    if !ends_reading(&e) {
                        self.skipped[Skip::Damaged as usize] += 1;
                    }
                    return Err(e);
                }
                Some(Ok(record)) => record,
            };
            // The record was read; the bytes after it are said after it.
            self.pending = record.trailing.map(|bytes| {
                Error::new(record.offset, Reason::Trailing { bytes })
            });
            let cut = record.cut.take().map(|cut| {
                let got = record.block.len();
                (cut.declared, got, cut.damage)
            });
            match self.page(&mut record) {
                Ok(mut page) => {
                    page.cut =
                        cut.map(|(declared, got, damage)| Problem::CutShort {
                            offset: record.offset,
                            declared,
                            got,
                            damage,
                        });
                    return Ok(Some(page));
                }
                // A record cut short that is no page is damaged, as
                // before it was read.
                Err(_) if cut.is_some() => {
                    self.skipped[Skip::Damaged as usize] += 1;
                    let (declared, got, damage) = cut.unwrap_or_default();
                    let reason =
                        damage.unwrap_or(Reason::Truncated { declared, got });
                    return Err(Error::new(record.offset, reason));
                }
                Err(reason) => self.skip(&record, reason),
            }
            if let Some(e) = self.pending.take() {
                return Err(e);
            }
        }
    }

    /// The page of one record (its block taken), or why the record is
    /// skipped. A redirect is remembered for the pages after it.
    fn page(&mut self, record: &mut Record) -> Result<Page, Skip> {
        let ctx = &self.ctx;
        let kind = record.field("WARC-Type").ok_or(Skip::MalformedHeader)?;
        if !(kind == "response" || kind == "resource") {
            return Err(Skip::NotResponse);
        }
        let target = record
            .field("WARC-Target-URI")
            .map(target_uri)
            .ok_or(Skip::NoTargetUri)?;
        if kind == "resource" {
            // The block is the resource itself, typed by the record.
            let html = match record.field("Content-Type") {
                Some(ct) => is_html_type(ct),
                None => record
                    .block
                    .head(SNIFF as usize)
                    .is_ok_and(|head| crate::sniff_html(&head)),
            };
            if !html {
                return Err(Skip::NotHtml);
            }
            return Ok(Page {
                offset: record.offset,
                target,
                block: std::mem::take(&mut record.block),
                http: None,
                cut: None,
            });
        }
        let response = match record.block.memory() {
            Some(block) => Response::parse(block),
            None => record
                .block
                .head(MAX_HTTP_HEAD)
                .ok()
                .and_then(|head| Response::parse(&head)),
        }
        .ok_or(Skip::NotHttp)?;
        if (300..400).contains(&response.status) {
            if let Some(location) = response.header("location") {
                if let Ok(next) = crate::resolve(
                    &ctx.retrieval_base_for(&target),
                    ctx.spec,
                    location,
                ) {
                    self.redirected_from.insert(next, target.clone());
                }
            }
            return Err(Skip::Redirect);
        }
        // No Content-Type: the payload is sniffed, as browsers do (MIME
        // Sniffing §7.1), from its first bytes decoded.
        match response.header("content-type") {
            Some(ct) if is_html_type(ct) => {}
            Some(_) => return Err(Skip::NotHtml),
            None => {
                let mut head = Vec::new();
                let found = RefCell::new(coding::Found::default());
                let read =
                    response.payload(&record.block, &found).map(|payload| {
                        let payload = payload.into_read();
                        payload.take(SNIFF).read_to_end(&mut head).is_ok()
                    });
                if read != Ok(true) || !crate::sniff_html(&head) {
                    return Err(Skip::NotHtml);
                }
            }
        }
        let chain = chain_to(&target, &self.redirected_from);
        Ok(Page {
            offset: record.offset,
            target,
            block: std::mem::take(&mut record.block),
            http: Some(Http { response, chain }),
            cut: None,
        })
    }
}

/// A record that holds an HTML page, as [`Documents::next_page`] hands it
/// over: everything the page's reading needs, owned, so that it can be
/// sent to another thread and read there with [`Page::document`].
pub struct Page {
    offset: u64,
    target: String,
    /// The record's block: the HTTP response, or the resource itself; in
    /// a temporary file when it is long.
    block: Spill,
    /// A `response` record's HTTP head and redirect chain; `None` for a
    /// `resource` record.
    http: Option<Http>,
    /// The record's block is cut short: said with the document.
    cut: Option<Problem>,
}

/// What the sequential reading found of a `response` record.
struct Http {
    response: Response,
    /// The URLs that led to the target, oldest first, the target last.
    chain: Vec<String>,
}

impl Page {
    /// The byte offset of the record (of its gzip member in a compressed
    /// archive).
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The bytes the page holds in memory until it is read: its record's
    /// block, or nothing when the block is in a temporary file
    /// ([`Page::is_spilled`]).
    #[must_use]
    pub fn len(&self) -> usize {
        self.block.memory().map_or(0, <[u8]>::len)
    }

    /// Whether the page holds no bytes in memory.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the record's block was longer than the archive's limit
    /// ([`Documents::spill_past`]) and so is in a temporary file.
    #[must_use]
    pub fn is_spilled(&self) -> bool {
        self.block.memory().is_none()
    }

    /// Reads the page under `ctx` (the context of the archive it came
    /// from), whole: its payload decoded, its links found and resolved,
    /// the links of its `Link` and `Refresh` headers first. See
    /// [`Documents::next_page`]; [`Page::read`] reads a long page in
    /// bounded memory.
    #[must_use]
    pub fn document(self, ctx: &Context) -> Document {
        let mut links = Vec::new();
        let mut doc = self.read(ctx, &mut |batch| {
            links.append(&mut batch.links);
        });
        if !links.is_empty() {
            links.append(&mut doc.links);
            doc.links = links;
        }
        doc
    }

    /// Reads the page as [`Page::document`] does, in bounded memory: a
    /// payload past [`stream::IN_MEMORY`] bytes (once its codings are
    /// undone) is read as [`stream::document`] reads a stream, and `sink`
    /// is handed the document with each batch of its links, resolved, as
    /// they are found (the links are dropped after). The document with
    /// the last links and the problems is returned.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{html::stream, warc::Documents, Context};
    /// let page = "<a href=x></a>".repeat(stream::IN_MEMORY / 14 + 1);
    /// let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{page}");
    /// let archive = format!(
    ///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/d/\r\n\
    ///      Content-Length: {}\r\n\r\n{http}\r\n\r\n",
    ///     http.len()
    /// );
    /// let ctx = Context::new(Spec::Rfc3986);
    /// let mut docs = Documents::new(archive.as_bytes(), ctx.clone());
    /// let page = docs.next_page().unwrap().unwrap();
    /// let mut links = 0;
    /// let last = page.read(&ctx, &mut |batch| {
    ///     assert_eq!(batch.links[0].url.as_deref(), Ok("http://h/d/x"));
    ///     links += batch.links.len();
    /// });
    /// assert_eq!(links + last.links.len(), stream::IN_MEMORY / 14 + 1);
    /// assert!(last.links.len() < links);
    /// ```
    pub fn read(
        self,
        ctx: &Context,
        sink: &mut dyn FnMut(&mut Document),
    ) -> Document {
        let cut = self.cut.clone();
        let mut doc = self.read_whole(ctx, sink);
        doc.problems.extend(cut);
        doc
    }

    /// [`Page::read`], but for the block's being cut short.
    fn read_whole(
        self,
        ctx: &Context,
        sink: &mut dyn FnMut(&mut Document),
    ) -> Document {
        let est = ctx.establish();
        let Some(Http { response, chain }) = self.http else {
            let base = est.retrieval(&[self.target.as_str()]);
            let read = match (self.block.memory(), self.block.file()) {
                (Some(block), _) => {
                    Ok(html::document(block, &self.target, &base, ctx))
                }
                (None, Some(file)) => stream::document_of_file(
                    file,
                    html::Charset::Unknown,
                    &self.target,
                    &base,
                    ctx,
                    sink,
                ),
                (None, None) => {
                    Err(io::Error::other("a temporary file failed"))
                }
            };
            return read.unwrap_or_else(|e| {
                let mut d = ctx.document(self.target.clone(), || base);
                d.problems.push(Problem::Payload(Error::io(self.offset, e)));
                d
            });
        };
        let retrieval = est.retrieval(&chain);
        let headers =
            response.headers.iter().map(|(n, v, _)| (n.as_str(), v.as_str()));
        let base = est.http_headers(&retrieval, headers.clone());
        let unread = ctx.unread_base_header(headers);
        let charset = response
            .header("content-type")
            .and_then(html::encoding::content_type_charset)
            .map_or(html::Charset::Unknown, html::Charset::Transport);
        // The header links go first, with the first batch (or the whole
        // document).
        let mut headed = false;
        let mut head = |doc: &mut Document| {
            doc.unread_base_header.clone_from(&unread);
            if !std::mem::replace(&mut headed, true) {
                header_links(doc, &response, &base, ctx);
            }
        };
        let mut capped = false;
        let found = RefCell::new(coding::Found::default());
        let read = response.payload(&self.block, &found).and_then(|payload| {
            // Whole in memory and short: read where it lies, as a stream
            // of it would be once copied (read whole) into memory.
            if let Some(page) =
                payload.whole().filter(|page| page.len() <= stream::IN_MEMORY)
            {
                let target = &self.target;
                return Ok(html::document_in(
                    page, charset, target, &base, ctx,
                ));
            }
            let mut payload = Capped {
                inner: payload.into_read(),
                left: MAX_PAYLOAD,
                hit: &mut capped,
            };
            let mut batch = |doc: &mut Document| {
                head(doc);
                sink(doc);
            };
            stream::document_sized(
                &mut payload,
                response.payload_size(&self.block),
                charset,
                &self.target,
                &base,
                ctx,
                &mut batch,
            )
            .map_err(|e| Reason::Io(e.into()))
        });
        let mut doc = read.unwrap_or_else(|e| {
            let mut d = ctx.document(self.target.clone(), || base.clone());
            d.problems.push(Problem::Payload(Error::new(self.offset, e)));
            d
        });
        doc.problems.extend(found.into_inner().problems(self.offset));
        if capped {
            doc.problems.push(Problem::PayloadCapped(MAX_PAYLOAD));
        }
        head(&mut doc);
        doc
    }
}

/// A reader that ends after `left` bytes, and says so in `hit` if there
/// were more.
struct Capped<'a, R> {
    inner: R,
    left: u64,
    hit: &'a mut bool,
}

impl<R: Read> Read for Capped<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            let mut probe = [0u8; 1];
            if self.inner.read(&mut probe)? > 0 {
                *self.hit = true;
            }
            return Ok(0);
        }
        let max =
            buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..max])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// A `WARC-Target-URI` without the angle brackets of WARC 1.0's examples.
fn target_uri(value: &str) -> String {
    value.trim().trim_matches(['<', '>']).to_string()
}

/// Whether a `Content-Type` names HTML or XHTML.
fn is_html_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("text/html")
        || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

/// Whether [`Documents`] ends after `e`: a failure to read the input, or
/// an input that is no archive. After any other error (a damaged record)
/// it goes on with the next record.
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{warc, Context};
/// let page = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=g>";
/// let record = |n: &str| format!(
///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/\r\n\
///      Content-Length: {n}\r\n\r\n{page}\r\n\r\n");
/// let archive = record("-1") + &record(&page.len().to_string());
/// let mut docs = warc::Documents::new(archive.as_bytes(), Context::new(Spec::Rfc3986));
/// let damaged = docs.next().unwrap().unwrap_err();
/// assert!(!warc::ends_reading(&damaged));
/// assert_eq!(docs.next().unwrap().unwrap().links[0].url.as_deref(), Ok("http://h/g"));
/// let not_warc = warc::Documents::new(&b"<html>"[..], Context::new(Spec::Rfc3986))
///     .next().unwrap().unwrap_err();
/// assert!(warc::ends_reading(&not_warc));
/// ```
#[must_use]
pub fn ends_reading(e: &Error) -> bool {
    matches!(e.reason, Reason::Io(_) | Reason::NotWarc)
}

impl<R: BufRead> Iterator for Documents<R> {
    type Item = Result<Document, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let page = self.next_page()?;
        Some(page.map(|page| page.document(&self.ctx)))
    }
}

/// The URLs that led to `target`, oldest first, `target` last.
fn chain_to(
    target: &str,
    redirected_from: &HashMap<String, String>,
) -> Vec<String> {
    let mut chain = vec![target.to_string()];
    let mut at = target;
    while let Some(prev) = redirected_from.get(at) {
        if chain.len() >= MAX_CHAIN || chain.iter().any(|c| c == prev) {
            break;
        }
        chain.push(prev.clone());
        at = prev;
    }
    chain.reverse();
    chain
}

impl Context {
    /// The base for resolving a redirect's `Location` against the URL that
    /// was requested.
    fn retrieval_base_for(&self, url: &str) -> urlspec::base::Base {
        self.establish().retrieval(&[url])
    }
}

/// An HTTP response held in a WARC record.
struct Response {
    status: u16,
    /// Lower-cased names, raw values, and each value's offset in the
    /// record block.
    headers: Vec<(String, String, usize)>,
    body_start: usize,
}

impl Response {
    fn parse(block: &[u8]) -> Option<Response> {
        // httparse reads HTTP/1.x; an HTTP/2 or HTTP/3 status line, as
        // archives of those protocols write it (`HTTP/2 200`), is read as
        // one of 1.1 with the same status and headers.
        let modern = [&b"HTTP/2 "[..], b"HTTP/2.0 ", b"HTTP/3 ", b"HTTP/3.0 "]
            .into_iter()
            .find(|p| block.starts_with(p));
        let (head, shift): (std::borrow::Cow<[u8]>, isize) = match modern {
            Some(p) => {
                let mut v = b"HTTP/1.1 ".to_vec();
                v.extend_from_slice(&block[p.len()..]);
                (v.into(), 9 - p.len() as isize)
            }
            None => (block.into(), 0),
        };
        let mut slots = [httparse::EMPTY_HEADER; 128];
        let mut r = httparse::Response::new(&mut slots);
        let httparse::Status::Complete(body_start) = r.parse(&head).ok()?
        else {
            return None;
        };
        let headers = r
            .headers
            .iter()
            .map(|h| {
                let at = offset_in(&head, h.value) as isize - shift;
                (
                    h.name.to_ascii_lowercase(),
                    String::from_utf8_lossy(h.value).into_owned(),
                    at.max(0) as usize,
                )
            })
            .collect();
        let body_start = (body_start as isize - shift).max(0) as usize;
        Some(Response { status: r.code?, headers, body_start })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, _)| v.as_str())
    }

    /// The likely size of the payload of `block`, 0 when not known: that
    /// of a body held in memory with no coding, or the size a body in one
    /// gzip coding gives in its trailer (RFC 1952 §2.3.1, ISIZE). Only a
    /// hint: wrong, it costs a reallocation.
    fn payload_size(&self, block: &Spill) -> usize {
        let Some(body) = block.memory().and_then(|b| b.get(self.body_start..))
        else {
            return 0;
        };
        let codings = match self.header("content-encoding") {
            Some(value) => Coding::list(value).unwrap_or_default(),
            None => Vec::new(),
        };
        match codings[..] {
            [] => body.len(),
            [Coding::Gzip] if !self.chunked() => body
                .last_chunk::<4>()
                .map_or(0, |&size| u32::from_le_bytes(size) as usize),
            _ => 0,
        }
    }

    /// Whether the body is in the chunked transfer coding.
    fn chunked(&self) -> bool {
        self.header("transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
    }

    /// The payload, with transfer and content codings undone as it is
    /// read ([`coding`]); what the decoding finds besides the bytes goes
    /// to `found`.
    fn payload<'b>(
        &self,
        block: &'b Spill,
        found: &'b RefCell<coding::Found>,
    ) -> Result<Payload<'b>, Reason> {
        let chunked = self.chunked();
        let body_start = self.body_start as u64;
        let open = || -> io::Result<Box<dyn BufRead + 'b>> {
            let body = block.reader(body_start)?;
            Ok(if chunked {
                Box::new(BufReader::new(Dechunked::new(body)))
            } else {
                body
            })
        };
        let codings = match self.header("content-encoding") {
            Some(value) => {
                Coding::list(value).map_err(Reason::ContentCoding)?
            }
            None => Vec::new(),
        };
        if let (false, Some(block)) = (chunked, block.memory()) {
            let body = block.get(self.body_start..).unwrap_or_default();
            match &codings[..] {
                // In no coding: the body itself.
                [] => return Ok(Payload::Body(body)),
                // In one gzip member: inflated at once.
                [Coding::Gzip] => {
                    if let Some(page) =
                        coding::gunzip_whole(body, stream::IN_MEMORY)
                    {
                        return Ok(Payload::Inflated(page));
                    }
                }
                _ => {}
            }
        }
        coding::decode(&open, &codings, found)
            .map(Payload::Stream)
            .map_err(|e| Reason::Io(e.into()))
    }
}

/// A response's payload, its codings undone.
enum Payload<'b> {
    /// The body in memory, in no coding.
    Body(&'b [u8]),
    /// The body in memory, inflated whole ([`coding::gunzip_whole`]).
    Inflated(coding::Inflated),
    /// Decoded as it is read.
    Stream(Box<dyn Read + 'b>),
}

impl<'b> Payload<'b> {
    /// The payload, when it is whole in memory.
    fn whole(&self) -> Option<&[u8]> {
        match self {
            Payload::Body(body) => Some(body),
            Payload::Inflated(page) => Some(page.as_ref()),
            Payload::Stream(_) => None,
        }
    }

    /// The payload as a reader.
    fn into_read(self) -> Box<dyn Read + 'b> {
        match self {
            Payload::Body(body) => Box::new(body),
            Payload::Inflated(page) => Box::new(io::Cursor::new(page)),
            Payload::Stream(stream) => stream,
        }
    }
}

/// The links of a response's `Link` (RFC 8288 §3) and `Refresh` headers,
/// put before the links of its payload (the headers come first), with
/// their offsets in the record block. They are resolved against `outer`,
/// the base the response has outside its payload: "any base URI carried
/// in the payload body is NOT used" (RFC 8288 §3.1), and a browser
/// processes both before the document has a `<base>`
/// (docs/readings.md#header-links).
fn header_links(
    doc: &mut Document,
    response: &Response,
    outer: &Base,
    ctx: &Context,
) {
    let mut header = ctx.document("", || outer.clone());
    for (name, value, at) in &response.headers {
        match name.as_str() {
            "link" => {
                for (k, url) in headers::urls(value, Form::Link) {
                    header.push(ctx, "header", "Link", &url, at + k);
                }
            }
            "refresh" => {
                if let Some((k, url)) = html::refresh_url(value) {
                    header.push(ctx, "header", "Refresh", url, at + k);
                }
            }
            _ => {}
        }
    }
    if !header.links.is_empty() {
        header.links.append(&mut doc.links);
        doc.links = header.links;
    }
}
