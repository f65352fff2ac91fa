//! Links in WARC archives, as crawlers write them (ISO 28500; gzip
//! compressed per record or not).
//!
//! Each `response` record whose payload is HTML is a document. Its
//! retrieval URL is the record's `WARC-Target-URI`; when earlier records
//! were 3xx responses whose `Location` led to it, the document reports the
//! whole chain, and the base is the last URL of it (RFC 1808 §3.3). The HTTP
//! headers of the response (`Content-Location`, `Content-Base`) are its
//! headers layer. Other records are skipped and counted.
//!
//! Records are read one at a time, so memory stays bounded by the largest
//! record, whatever the size of the archive.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use flate2::read::{MultiGzDecoder, ZlibDecoder};
use warc::{RawRecordHeader, RawRecordIter, WarcHeader, WarcReader};

use crate::{html, Context, Document, Summary};

/// The longest redirect chain followed back.
const MAX_CHAIN: usize = 20;
/// The most a compressed HTTP body may expand to.
const MAX_BODY: u64 = 64 << 20;

/// Why a record is not a document. Each reason is counted on its own
/// ([`Documents::skipped`], [`Summary::skipped_by_reason`]), so a crawl's
/// statistics say what its archives held besides pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Skip {
    /// A record of another type than `response`: `warcinfo`, `request`,
    /// `metadata`, `revisit`, `resource`, ...
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
    /// A record whose WARC header lacks a mandatory field or is malformed
    /// (the archive is read on after it).
    MalformedHeader,
}

impl Skip {
    /// Every reason, in the order of the summary.
    pub const ALL: [Skip; 6] = [
        Skip::NotResponse,
        Skip::NoTargetUri,
        Skip::NotHttp,
        Skip::Redirect,
        Skip::NotHtml,
        Skip::MalformedHeader,
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

/// Reads every record of a WARC archive from `input` (already decompressed:
/// see [`reader`]), handing each HTML document to `sink` and counting the
/// skipped records in `summary`. `Err` when the archive cannot be read on; documents found
/// before that were already handed on.
pub fn documents<R: BufRead>(
    input: R,
    ctx: &Context,
    summary: &mut Summary,
    sink: &mut dyn FnMut(Document),
) -> Result<(), String> {
    let mut docs = Documents::new(input, ctx.clone());
    let mut outcome = Ok(());
    for doc in &mut docs {
        match doc {
            Ok(doc) => sink(doc),
            Err(e) => outcome = Err(e),
        }
    }
    docs.add_skipped(summary);
    outcome
}

/// The HTML documents of a WARC archive, pulled one at a time: the
/// iterator form of [`documents`], for callers that cannot hand over a
/// sink (a Python iterator, a Spark partition).
///
/// Each item is a document, or the reason the archive cannot be read on
/// (after which the iterator ends). Only the current record is held in
/// memory.
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
    /// The bytes the reader has consumed, and how many of them belonged to
    /// whole records: the `warc` reader ends quietly at a record cut inside
    /// its header, and this tells that apart from the end of the archive.
    consumed: Arc<AtomicU64>,
    whole: u64,
    /// Records read so far.
    n: usize,
    /// Records skipped so far, indexed by [`Skip`]'s discriminant (the
    /// order of [`Skip::ALL`]).
    skipped: [usize; Skip::ALL.len()],
}

enum State<R> {
    /// Not looked at yet.
    Start(R),
    Reading(RawRecordIter<Tracked<R>>),
    Done,
}

impl<R: BufRead> Documents<R> {
    /// The documents of the archive `input` (already decompressed: see
    /// [`reader`]), read under `ctx`.
    pub fn new(input: R, ctx: Context) -> Documents<R> {
        Documents {
            ctx,
            state: State::Start(input),
            redirected_from: HashMap::new(),
            consumed: Arc::new(AtomicU64::new(0)),
            whole: 0,
            n: 0,
            skipped: [0; Skip::ALL.len()],
        }
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

    fn skip(&mut self, reason: Skip) {
        self.skipped[reason as usize] += 1;
    }

    /// The context the archive is read under.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    fn start(&mut self, mut input: R) -> Result<(), String> {
        // The `warc` reader looks for a blank CR LF line before anything
        // else: an input that is not an archive would be read whole into
        // memory and taken for an empty one.
        let head = input.fill_buf().map_err(|e| format!("WARC: {e}"))?;
        let n = head.len().min(5);
        if head[..n] != b"WARC/"[..n] {
            return Err(
                "not a WARC archive (it does not start with WARC/)".into()
            );
        }
        let tracked =
            Tracked { inner: input, consumed: Arc::clone(&self.consumed) };
        self.state =
            State::Reading(WarcReader::new(tracked).iter_raw_records());
        Ok(())
    }

    /// The next HTML document, `Ok(None)` at the end of the archive.
    fn read_next(&mut self) -> Result<Option<Document>, String> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Start(input) => self.start(input)?,
                State::Done => return Ok(None),
                reading @ State::Reading(_) => self.state = reading,
            }
            let State::Reading(records) = &mut self.state else {
                return Ok(None);
            };
            let n = self.n;
            self.n += 1;
            // warc 0.4 adds 4 to the declared Content-Length without
            // checking, which panics in a debug build for a length at the
            // top of `usize`: an error here, as in a release build.
            let next = catch_unwind(AssertUnwindSafe(|| records.next()));
            let item = match next {
                Ok(Some(item)) => item,
                Ok(None) if self.consumed.load(Relaxed) > self.whole => {
                    return Err(format!(
                        "WARC record {}: cut inside its header",
                        n + 1
                    ));
                }
                Ok(None) => return Ok(None),
                Err(_) => {
                    return Err(format!(
                        "WARC record {}: Content-Length out of range",
                        n + 1
                    ))
                }
            };
            self.whole = self.consumed.load(Relaxed);
            let (header, body) = match item {
                Ok(record) => record,
                // A record that is well-formed but breaks the standard:
                // skip it.
                Err(
                    warc::Error::MissingHeader(_)
                    | warc::Error::MalformedHeader(..),
                ) => {
                    self.skip(Skip::MalformedHeader);
                    continue;
                }
                Err(e) => return Err(format!("WARC record {}: {e}", n + 1)),
            };
            match self.record(&header, &body) {
                Ok(doc) => return Ok(Some(doc)),
                Err(reason) => self.skip(reason),
            }
        }
    }

    /// The document of one record, or why the record is skipped.
    fn record(
        &mut self,
        header: &RawRecordHeader,
        body: &[u8],
    ) -> Result<Document, Skip> {
        let ctx = &self.ctx;
        let field = |h: WarcHeader| {
            header.as_ref().get(&h).map(|v| String::from_utf8_lossy(v))
        };
        let is_response = field(WarcHeader::WarcType)
            .is_some_and(|t| t.trim() == "response");
        if !is_response {
            return Err(Skip::NotResponse);
        }
        let target = field(WarcHeader::TargetURI)
            .map(|t| t.trim().trim_matches(['<', '>']).to_string())
            .ok_or(Skip::NoTargetUri)?;
        let response = Response::parse(body).ok_or(Skip::NotHttp)?;
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
        if !response.is_html() {
            return Err(Skip::NotHtml);
        }
        let chain = chain_to(&target, &self.redirected_from);
        let est = ctx.establish();
        let retrieval = est.retrieval(&chain);
        let headers =
            response.headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        let base = est.http_headers(&retrieval, headers);
        Ok(match response.body(body) {
            Ok(payload) => {
                let charset = response
                    .header("content-type")
                    .and_then(html::encoding::content_type_charset)
                    .map_or(html::Charset::Unknown, html::Charset::Transport);
                html::document_in(&payload, charset, &target, &base, ctx)
            }
            Err(e) => {
                let mut d = Document::new(target.clone(), base);
                d.problems.push(e);
                d
            }
        })
    }
}

impl<R: BufRead> Iterator for Documents<R> {
    type Item = Result<Document, String>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.read_next() {
            Ok(doc) => doc.map(Ok),
            Err(e) => {
                self.state = State::Done;
                Some(Err(e))
            }
        }
    }
}

/// A reader that counts the bytes consumed through it.
struct Tracked<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: BufRead> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tracked<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed.fetch_add(amt as u64, Relaxed);
        self.inner.consume(amt);
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
    /// Lower-cased names and raw values.
    headers: Vec<(String, String)>,
    body_start: usize,
}

impl Response {
    fn parse(record: &[u8]) -> Option<Response> {
        let mut slots = [httparse::EMPTY_HEADER; 128];
        let mut r = httparse::Response::new(&mut slots);
        let httparse::Status::Complete(body_start) = r.parse(record).ok()?
        else {
            return None;
        };
        let headers = r
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_ascii_lowercase(),
                    String::from_utf8_lossy(h.value).into_owned(),
                )
            })
            .collect();
        Some(Response { status: r.code?, headers, body_start })
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn is_html(&self) -> bool {
        match self.header("content-type") {
            Some(ct) => {
                let ct = ct.to_ascii_lowercase();
                ct.contains("text/html") || ct.contains("application/xhtml")
            }
            None => false,
        }
    }

    /// The payload, with transfer and content codings undone.
    fn body(&self, record: &[u8]) -> Result<Vec<u8>, String> {
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
                return Err(format!("content coding {other:?} not supported"))
            }
        };
        decoded.map_err(|e| format!("content coding: {e}"))
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
