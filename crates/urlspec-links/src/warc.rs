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
//! Records are read one at a time, so memory stays bounded by the largest
//! record, whatever the size of the archive; a damaged record is reported
//! with its byte offset and reading resumes after it.
//!
//! The reading comes in two halves. What depends on the records before
//! (the framing, gzip members included, each record's type and HTTP head,
//! the redirects) is done in order by [`Documents::next_page`]; what
//! depends on the record alone (its payload's codings, the HTML, the
//! links' resolution) is [`Page::document`], which can run on any thread.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read};

use flate2::read::{MultiGzDecoder, ZlibDecoder};

use crate::headers::{self, Form};
use crate::slice::offset_in;
use crate::{html, Context, Document, Error, Problem, Reason, Summary};

mod framing;

use framing::{Record, Records};

/// The longest redirect chain followed back.
const MAX_CHAIN: usize = 20;
/// The most a compressed HTTP body may expand to.
const MAX_BODY: u64 = 64 << 20;

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
pub fn reader<R: Read + 'static>(input: R) -> io::Result<Box<dyn BufRead>> {
    Ok(Box::new(decompress(input)?))
}

/// [`reader`] without the box: the result is `Send` when `input` is, so
/// it can be held by a value that moves between threads.
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
pub struct Documents<R> {
    ctx: Context,
    state: State<R>,
    /// Each redirect's target, mapped to the URL that redirected to it.
    redirected_from: HashMap<String, String>,
    /// Records skipped so far, indexed by [`Skip`]'s discriminant (the
    /// order of [`Skip::ALL`]).
    skipped: [usize; Skip::ALL.len()],
    /// Each skipped record, when asked for ([`Documents::log_skipped`]).
    log: Option<Vec<Skipped>>,
}

enum State<R> {
    /// Not looked at yet.
    Start(R),
    Reading(Box<Records<R>>),
    Done,
}

impl<R: BufRead> Documents<R> {
    /// The documents of the archive `input`, gzip-compressed or not, read
    /// under `ctx`.
    pub fn new(input: R, ctx: Context) -> Documents<R> {
        Documents {
            ctx,
            state: State::Start(input),
            redirected_from: HashMap::new(),
            skipped: [0; Skip::ALL.len()],
            log: None,
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
    pub fn skipped_records(&self) -> usize {
        self.skipped.iter().sum()
    }

    /// Records read so far that were skipped for `reason` (example:
    /// [`Documents::add_skipped`]).
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
    pub fn next_page(&mut self) -> Option<Result<Page, Error>> {
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

    /// The next page, `Ok(None)` at the end of the archive.
    fn read_page(&mut self) -> Result<Option<Page>, Error> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Start(input) => {
                    self.state =
                        State::Reading(Box::new(Records::new(input)?));
                }
                State::Done => return Ok(None),
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
                    self.skipped[Skip::Damaged as usize] += 1;
                    return Err(e);
                }
                Some(Ok(record)) => record,
            };
            match self.page(&mut record) {
                Ok(page) => return Ok(Some(page)),
                Err(reason) => self.skip(&record, reason),
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
                None => crate::sniff_html(&record.block),
            };
            if !html {
                return Err(Skip::NotHtml);
            }
            return Ok(Page {
                offset: record.offset,
                target,
                block: std::mem::take(&mut record.block),
                http: None,
            });
        }
        let response = Response::parse(&record.block).ok_or(Skip::NotHttp)?;
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
        // Sniffing §7.1), and so decoded here, once.
        let payload = match response.header("content-type") {
            Some(ct) if is_html_type(ct) => None,
            Some(_) => return Err(Skip::NotHtml),
            None => match response.body(&record.block) {
                Ok(body) if crate::sniff_html(&body) => Some(Ok(body)),
                _ => return Err(Skip::NotHtml),
            },
        };
        let chain = chain_to(&target, &self.redirected_from);
        Ok(Page {
            offset: record.offset,
            target,
            block: std::mem::take(&mut record.block),
            http: Some(Http { response, chain, payload }),
        })
    }
}

/// A record that holds an HTML page, as [`Documents::next_page`] hands it
/// over: everything the page's reading needs, owned, so that it can be
/// sent to another thread and read there with [`Page::document`].
pub struct Page {
    offset: u64,
    target: String,
    /// The record's block: the HTTP response, or the resource itself.
    block: Vec<u8>,
    /// A `response` record's HTTP head and redirect chain; `None` for a
    /// `resource` record.
    http: Option<Http>,
}

/// What the sequential reading found of a `response` record.
struct Http {
    response: Response,
    /// The URLs that led to the target, oldest first, the target last.
    chain: Vec<String>,
    /// The payload, when it was decoded to be sniffed.
    payload: Option<Result<Vec<u8>, Reason>>,
}

impl Page {
    /// The byte offset of the record (of its gzip member in a compressed
    /// archive).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The size of the record's block, in bytes: what the page holds in
    /// memory until it is read.
    pub fn len(&self) -> usize {
        self.block.len()
    }

    /// Whether the record's block is empty.
    pub fn is_empty(&self) -> bool {
        self.block.is_empty()
    }

    /// Reads the page under `ctx` (the context of the archive it came
    /// from): its payload decoded, its links found and resolved, the links
    /// of its `Link` and `Refresh` headers first. See
    /// [`Documents::next_page`].
    pub fn document(self, ctx: &Context) -> Document {
        let est = ctx.establish();
        let Some(http) = self.http else {
            let base = est.retrieval(&[self.target.as_str()]);
            let doc = html::document(&self.block, &self.target, &base, ctx);
            return ctx.finish(doc);
        };
        let Http { response, chain, payload } = http;
        let retrieval = est.retrieval(&chain);
        let headers =
            response.headers.iter().map(|(n, v, _)| (n.as_str(), v.as_str()));
        let base = est.http_headers(&retrieval, headers);
        let payload = payload.unwrap_or_else(|| response.body(&self.block));
        let mut doc = match payload {
            Ok(payload) => {
                let charset = response
                    .header("content-type")
                    .and_then(html::encoding::content_type_charset)
                    .map_or(html::Charset::Unknown, html::Charset::Transport);
                html::document_in(&payload, charset, &self.target, &base, ctx)
            }
            Err(e) => {
                let mut d = Document::new(self.target.clone(), base);
                d.problems.push(Problem::Payload(Error::new(self.offset, e)));
                d
            }
        };
        doc.unread_base_header = ctx.unread_base_header(
            response.headers.iter().map(|(n, v, _)| (n.as_str(), v.as_str())),
        );
        header_links(&mut doc, &response, ctx);
        ctx.finish(doc)
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

    /// The payload, with transfer and content codings undone.
    fn body(&self, record: &[u8]) -> Result<Vec<u8>, Reason> {
        let mut body = record[self.body_start.min(record.len())..].to_vec();
        if self
            .header("transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        {
            body = dechunk(&body);
        }
        let coding = self
            .header("content-encoding")
            .map(|c| c.trim().to_ascii_lowercase());
        let decoded = match coding.as_deref() {
            Some("gzip" | "x-gzip") => inflate(MultiGzDecoder::new(&body[..])),
            Some("deflate") => inflate(ZlibDecoder::new(&body[..])),
            Some("identity") | None => return Ok(body),
            Some(other) => {
                return Err(Reason::ContentCoding(format!(
                    "{other:?} not supported"
                )))
            }
        };
        decoded.map_err(|e| Reason::ContentCoding(e.to_string()))
    }
}

/// The links of a response's `Link` (RFC 8288 §3) and `Refresh` headers,
/// put before the links of its payload (the headers come first), with
/// their offsets in the record block.
fn header_links(doc: &mut Document, response: &Response, ctx: &Context) {
    let mut header = Document::new("", doc.base.clone());
    for (name, value, at) in &response.headers {
        match name.as_str() {
            "link" => {
                for (k, url) in headers::urls(value, Form::Link) {
                    header.push(ctx.spec, "header", "Link", &url, at + k);
                }
            }
            "refresh" => {
                if let Some((k, url)) = html::refresh_url(value) {
                    header.push(ctx.spec, "header", "Refresh", url, at + k);
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

fn inflate(r: impl Read) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    r.take(MAX_BODY).read_to_end(&mut out)?;
    Ok(out)
}

/// Removes HTTP/1.1 chunked framing; a malformed tail is kept as it is.
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    loop {
        match httparse::parse_chunk_size(data) {
            Ok(httparse::Status::Complete((_, 0))) => break,
            Ok(httparse::Status::Complete((used, size))) => {
                let size = usize::try_from(size).unwrap_or(usize::MAX);
                let chunk = &data[used..];
                let take = size.min(chunk.len());
                out.extend_from_slice(&chunk[..take]);
                data = chunk.get(take..).unwrap_or(&[]);
                data = data.strip_prefix(b"\r\n").unwrap_or(data);
                if take < size {
                    break;
                }
            }
            _ => {
                out.extend_from_slice(data);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dechunks() {
        assert_eq!(dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"), b"abcde");
        assert_eq!(dechunk(b"not chunked"), b"not chunked");
    }
}
