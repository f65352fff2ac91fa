//! A MIME message of any size in bounded memory: its framing read as the
//! bytes stream by. Each header block (at most [`MAX_HEADER`] bytes) is
//! held and parsed by `mail-parser`; bodies are never held: the
//! delimiter lines of RFC 2046 §5.1.1 are found at line starts as the
//! bytes pass (nested multiparts, preamble and epilogue, a body that ends
//! without its closing delimiter), a part's transfer encoding is undone
//! as it is read ([`super::transfer`]), and an HTML part goes to
//! [`html::stream`], as a WARC payload does. The documents, names, bases
//! and problems are those of [`super::documents`], which reads a message
//! held in memory; an mbox is split on its `From ` lines as it is read.

use std::io::{self, Read};

use mail_parser::{MessageParser, MimeHeaders};
use urlspec::base::Base;

use super::transfer::Transfer;
use super::{header_document, layer_unread, raw_headers, MAX_DEPTH};
use crate::html::{self, stream};
use crate::{Context, Document, Error, Problem, Reason, UnreadHeader};

/// The longest header block of an entity: 1 MiB. A longer one is an
/// error of the message; the entity's body is passed over.
pub const MAX_HEADER: usize = 1 << 20;

/// The longest boundary read as one: RFC 2046 allows 70 characters. A
/// multipart whose boundary is longer is read as an opaque part.
const MAX_BOUNDARY: usize = 256;

/// The bytes read from the input at a time.
const CHUNK: usize = 64 << 10;

/// Reads the message (or the mbox) `input` yields as [`super::documents`]
/// reads one in memory, in bounded memory: `sink` is handed each document
/// with `true` once it is whole, and the links of a long HTML part in
/// batches with `false` as they are found (the links are dropped after
/// each call; the document's last links come with `true`).
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{mime, Context};
/// let msg = "Content-Location: http://h/d/\r\nContent-Type: multipart/related; boundary=b\r\n\r\n\
///            --b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n\
///            PGEgaHJlZj14Pg==\r\n--b--\r\n";
/// let mut urls = Vec::new();
/// mime::stream::documents(msg.as_bytes(), "m", &Context::new(Spec::Rfc3986), &mut |doc, _| {
///     urls.extend(doc.links.iter().map(|l| l.url.clone().unwrap()));
/// })
/// .unwrap();
/// assert_eq!(urls, ["http://h/d/x"]);
/// ```
///
/// # Errors
///
/// [`Error`] with [`Reason::NotMessage`] (offset 0) when the input has no
/// header, [`Reason::TooDeep`] or [`Reason::TooManyMessages`] (offset 0)
/// as [`super::documents`] gives them, [`Reason::HeaderTooLong`] when a
/// header block passes [`MAX_HEADER`] (at the block's offset; that part
/// is passed over and the reading goes on), and an I/O error with the
/// offset reached when `input` fails. The documents read before an error have been given to `sink`;
/// in an mbox, the first error of its messages, after every message.
pub fn documents(
    input: impl Read,
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(&mut Document, bool),
) -> Result<(), Error> {
    let mut input = Buffered::new(input);
    let head = input.fill_to(5).map_err(|e| Error::io(0, e))?;
    if !head.starts_with(b"From ") {
        let mut source = Source::new(Box::new(input));
        return message(&mut source, name, ctx, sink);
    }
    let mut mbox = Mbox { input, line_start: true, at_from: true };
    let mut first_error = None;
    let mut n = 0;
    while mbox.next_message().map_err(|e| Error::io(0, e))? {
        n += 1;
        let named = format!("{name}[{n}]");
        let mut source = Source::new(Box::new(&mut mbox));
        if let Err(e) = message(&mut source, &named, ctx, sink) {
            first_error.get_or_insert(e);
        }
        // What an error left unread.
        io::copy(&mut source.input, &mut io::sink())
            .map_err(|e| Error::io(0, e))?;
    }
    first_error.map_or(Ok(()), Err)
}

/// One message, from the start of `source`.
fn message(
    source: &mut Source<'_>,
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(&mut Document, bool),
) -> Result<(), Error> {
    let mut walker = Walker {
        ctx,
        sink,
        name,
        depth: 0,
        messages: 0,
        unread: None,
        error: None,
    };
    walker.message(source, &ctx.retrieval_base(), "", true)?;
    match walker.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// An entity's header block as read.
struct Head {
    block: Vec<u8>,
    /// Where the block starts in the message.
    at: usize,
}

/// The name, raw value and value offset (in the message) of each header
/// of an entity, and what its `Content-Type` and
/// `Content-Transfer-Encoding` say; `None` when the block holds no
/// header field at all. `in_digest`: the entity is a part of a
/// `multipart/digest`, whose parts are messages by default.
type Parsed<'h> = (Vec<(&'h str, &'h str, usize)>, Kind);

impl Head {
    fn parse(&self, in_digest: bool) -> Option<Parsed<'_>> {
        let msg = MessageParser::default().parse_headers(&self.block)?;
        let root = msg.root_part();
        let mut headers = raw_headers(&self.block, root);
        for h in &mut headers {
            h.2 += self.at;
        }
        Some((headers, Kind::of(root, in_digest)))
    }
}

/// What an entity's `Content-Type` and `Content-Transfer-Encoding` say.
struct Kind {
    /// `type/subtype` as mail-parser reads them.
    name: String,
    boundary: Option<Vec<u8>>,
    charset: Option<String>,
    transfer: Transfer,
    what: What,
}

#[derive(PartialEq, Eq)]
enum What {
    Html,
    Multipart,
    Message,
    Other,
}

impl Kind {
    fn of(part: &mail_parser::MessagePart<'_>, in_digest: bool) -> Kind {
        let transfer =
            Transfer::of(part.content_transfer_encoding().unwrap_or(""));
        let Some(ct) = part.content_type() else {
            let what = if in_digest { What::Message } else { What::Other };
            return Kind {
                name: String::new(),
                boundary: None,
                charset: None,
                transfer,
                what,
            };
        };
        let (ctype, sub) = (ct.ctype(), ct.subtype().unwrap_or(""));
        let is = |t: &str, s: &str| {
            ctype.eq_ignore_ascii_case(t) && sub.eq_ignore_ascii_case(s)
        };
        let boundary = ct
            .attribute("boundary")
            .filter(|b| !b.is_empty() && b.len() <= MAX_BOUNDARY)
            .map(|b| [b"--", b.as_bytes()].concat());
        let what = if ctype.eq_ignore_ascii_case("multipart") {
            if boundary.is_some() {
                What::Multipart
            } else {
                What::Other
            }
        } else if is("text", "html") || is("application", "xhtml+xml") {
            What::Html
        } else if is("message", "rfc822") || is("message", "global") {
            // RFC 2046 §5.2.1 allows no other encoding than 7bit, 8bit
            // or binary; one encoded anyway is passed over.
            if transfer == Transfer::Identity {
                What::Message
            } else {
                What::Other
            }
        } else {
            What::Other
        };
        Kind {
            name: format!("{ctype}/{sub}"),
            boundary,
            charset: ct.attribute("charset").map(str::to_owned),
            transfer,
            what,
        }
    }
}

struct Walker<'a> {
    ctx: &'a Context,
    sink: &'a mut dyn FnMut(&mut Document, bool),
    name: &'a str,
    depth: usize,
    messages: usize,
    /// As [`super::Walker`]'s.
    unread: Option<UnreadHeader>,
    /// The first error of the message that did not end its reading.
    error: Option<Error>,
}

impl Walker<'_> {
    /// A message at the start of `source`: its headers, their links, its
    /// body. `Err` only for the top message without headers, or when the
    /// input fails.
    fn message(
        &mut self,
        source: &mut Source<'_>,
        outer: &Base,
        path: &str,
        top: bool,
    ) -> Result<(), Error> {
        let Some(head) = self.head(source)? else { return Ok(()) };
        let (headers, kind) = match head.parse(false) {
            Some(parsed) => parsed,
            None if top => return Err(Error::new(0, Reason::NotMessage)),
            None => (Vec::new(), Kind::of(&Default::default(), false)),
        };
        let base = self
            .ctx
            .establish()
            .headers(outer, headers.iter().map(|h| (h.0, h.1)));
        let saved = self.unread.clone();
        self.layer_unread(&headers);
        if let Some(mut doc) = header_document(
            self.ctx,
            self.name,
            path,
            &base,
            &headers,
            self.unread.clone(),
        ) {
            (self.sink)(&mut doc, true);
        }
        self.body(source, &kind, &base, path)?;
        self.unread = saved;
        Ok(())
    }

    /// The header block at the start of the current part, or `None` when
    /// it is too long (an error of the message, the part passed over).
    fn head(
        &mut self,
        source: &mut Source<'_>,
    ) -> Result<Option<Head>, Error> {
        let at = source.pos;
        match source.header_block() {
            Ok(Some(block)) => Ok(Some(Head { block, at })),
            Ok(None) => {
                self.error.get_or_insert(Error::new(
                    at as u64,
                    Reason::HeaderTooLong,
                ));
                source.drain_part()?;
                Ok(None)
            }
            Err(e) => Err(Error::io(source.pos as u64, e)),
        }
    }

    fn layer_unread(&mut self, headers: &[(&str, &str, usize)]) {
        layer_unread(self.ctx, &mut self.unread, headers);
    }

    /// The body of an entity of `kind`, whose headers gave `base`, up to
    /// the end of its part.
    fn body(
        &mut self,
        source: &mut Source<'_>,
        kind: &Kind,
        base: &Base,
        path: &str,
    ) -> Result<(), Error> {
        if self.depth >= MAX_DEPTH {
            self.error.get_or_insert(Error::new(0, Reason::TooDeep));
            return source.drain_part();
        }
        self.depth += 1;
        let read = match kind.what {
            What::Html => self.html(source, kind, base, path),
            What::Multipart => self.multipart(source, kind, base, path),
            What::Message => {
                self.messages += 1;
                if self.messages > super::MAX_MESSAGES {
                    self.error
                        .get_or_insert(Error::new(0, Reason::TooManyMessages));
                    source.drain_part()
                } else {
                    let outer = base.enclosed(&format!(
                        "message/rfc822 {}",
                        if path.is_empty() { "body" } else { path }
                    ));
                    self.message(source, &outer, path, false)
                }
            }
            What::Other => source.drain_part(),
        };
        self.depth -= 1;
        read
    }

    fn multipart(
        &mut self,
        source: &mut Source<'_>,
        kind: &Kind,
        base: &Base,
        path: &str,
    ) -> Result<(), Error> {
        let boundary = kind.boundary.clone().unwrap_or_default();
        let level = source.boundaries.len();
        source.boundaries.push(boundary);
        // The header block ended with a line break, checked for the
        // delimiters of the enclosing parts only.
        source.line_start = true;
        // The preamble.
        source.drain_part()?;
        let mut i = 0;
        while source.ended == Some(Ended::Delimiter { level, closing: false })
        {
            source.ended = None;
            i += 1;
            let child_path = if path.is_empty() {
                format!("{i}")
            } else {
                format!("{path}.{i}")
            };
            let Some(head) = self.head(source)? else { continue };
            let digest = kind.name.eq_ignore_ascii_case("multipart/digest");
            let (headers, child) = head.parse(digest).unwrap_or_else(|| {
                (Vec::new(), Kind::of(&Default::default(), digest))
            });
            let outer =
                base.enclosed(&format!("{} part {child_path}", kind.name));
            let child_base = self
                .ctx
                .establish()
                .headers(&outer, headers.iter().map(|h| (h.0, h.1)));
            let saved = self.unread.clone();
            self.layer_unread(&headers);
            self.body(source, &child, &child_base, &child_path)?;
            self.unread = saved;
            if source.ended.is_none() {
                source.drain_part()?;
            }
        }
        source.boundaries.truncate(level);
        match source.ended {
            // The epilogue, up to the enclosing part's end.
            Some(Ended::Delimiter { level: l, closing: true })
                if l == level =>
            {
                source.ended = None;
                source.drain_part()
            }
            // An enclosing delimiter, or the end of the input, ends this
            // body too: the enclosing part's reading sees it.
            _ => Ok(()),
        }
    }

    fn html(
        &mut self,
        source: &mut Source<'_>,
        kind: &Kind,
        base: &Base,
        path: &str,
    ) -> Result<(), Error> {
        let name = if path.is_empty() {
            self.name.to_string()
        } else {
            format!("{}#{path}", self.name)
        };
        let charset = kind
            .charset
            .as_deref()
            .map_or(html::Charset::Unknown, html::Charset::Transport);
        let ctx = self.ctx;
        let unread = self.unread.clone();
        let sink = &mut *self.sink;
        let mut batch = |doc: &mut Document| {
            doc.unread_base_header.clone_from(&unread);
            sink(doc, false);
        };
        let mut body = kind.transfer.reader(Part { source: &mut *source });
        let read =
            stream::document(&mut body, charset, &name, base, ctx, &mut batch);
        let drained = io::copy(&mut body, &mut io::sink());
        drop(body);
        let at = source.pos as u64;
        let mut doc = read.map_err(|e| Error::io(at, e))?;
        drained.map_err(|e| Error::io(at, e))?;
        doc.unread_base_header = self.unread.clone();
        if source.ended == Some(Ended::Eof) && !source.boundaries.is_empty() {
            doc.problems.push(Problem::NoClosingBoundary);
        }
        (self.sink)(&mut doc, true);
        Ok(())
    }
}

/// How the current part ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// A delimiter line of the boundary at `level` of
    /// [`Source::boundaries`]; `closing`: `--BOUNDARY--`.
    Delimiter { level: usize, closing: bool },
    /// The end of the input.
    Eof,
}

/// A reader with a window of lookahead.
struct Buffered<R> {
    input: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
}

impl<R: Read> Buffered<R> {
    fn new(input: R) -> Buffered<R> {
        Buffered { input, buf: vec![0; CHUNK], start: 0, end: 0, eof: false }
    }

    /// The bytes available, at least `n` of them unless the input ends
    /// first (`n` at most [`CHUNK`]).
    fn fill_to(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.end - self.start < n && !self.eof {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            let read = self.input.read(&mut self.buf[self.end..])?;
            self.eof = read == 0;
            self.end += read;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
    }
}

impl<R: Read> Read for Buffered<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_to(1)?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// The bytes of one message of an mbox at a time, its `From ` line left
/// out and `>From ` lines unquoted (the mboxrd convention, as
/// `mail-parser`'s reader reads them).
struct Mbox<R> {
    input: Buffered<R>,
    line_start: bool,
    /// A `From ` line is next: the message has ended.
    at_from: bool,
}

impl<R: Read> Mbox<R> {
    /// Passes over the rest of the message and the next `From ` line:
    /// `false` at the end of the input.
    fn next_message(&mut self) -> io::Result<bool> {
        io::copy(self, &mut io::sink())?;
        if self.input.fill_to(1)?.is_empty() {
            return Ok(false);
        }
        loop {
            let avail = self.input.fill_to(1)?;
            if avail.is_empty() {
                break;
            }
            if let Some(i) = memchr::memchr(b'\n', avail) {
                self.input.consume(i + 1);
                break;
            }
            let n = avail.len();
            self.input.consume(n);
        }
        self.at_from = false;
        self.line_start = true;
        Ok(true)
    }
}

impl<R: Read> Read for Mbox<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at_from || out.is_empty() {
            return Ok(0);
        }
        if self.line_start {
            let head = self.input.fill_to(MAX_BOUNDARY)?;
            if head.starts_with(b"From ") {
                self.at_from = true;
                return Ok(0);
            }
            let quotes = head.iter().take_while(|&&b| b == b'>').count();
            if quotes > 0 && head[quotes..].starts_with(b"From ") {
                self.input.consume(1);
            }
            self.line_start = false;
        }
        let avail = self.input.fill_to(1)?;
        if avail.is_empty() {
            return Ok(0);
        }
        let line = memchr::memchr(b'\n', avail).map_or(avail.len(), |i| i + 1);
        let n = line.min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.line_start = avail[n - 1] == b'\n';
        self.input.consume(n);
        Ok(n)
    }
}

/// A message's bytes as its parts' framing reads them.
struct Source<'r> {
    input: Buffered<Box<dyn Read + 'r>>,
    /// Where the next byte stands in the message.
    pos: usize,
    /// `--BOUNDARY` of each multipart open, outermost first.
    boundaries: Vec<Vec<u8>>,
    /// The next byte starts a line.
    line_start: bool,
    /// A line break read and not yet handed on: it belongs to a delimiter
    /// if one comes next (RFC 2046 §5.1.1).
    pending: &'static [u8],
    /// How the current part ended, once it has.
    ended: Option<Ended>,
}

impl<'r> Source<'r> {
    fn new(input: Box<dyn Read + 'r>) -> Source<'r> {
        Source {
            input: Buffered::new(input),
            pos: 0,
            boundaries: Vec::new(),
            line_start: true,
            pending: b"",
            ended: None,
        }
    }

    fn consume(&mut self, n: usize) {
        self.input.consume(n);
        self.pos += n;
    }

    /// Passes over the rest of a line.
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            let avail = self.input.fill_to(1)?;
            if avail.is_empty() {
                return Ok(());
            }
            if let Some(i) = memchr::memchr(b'\n', avail) {
                self.consume(i + 1);
                return Ok(());
            }
            let n = avail.len();
            self.consume(n);
        }
    }

    /// Reads bytes of the current part into `out`; 0 once it has ended
    /// ([`Source::ended`] says how).
    fn read_part(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.ended.is_some() || out.is_empty() {
            return Ok(0);
        }
        if self.line_start && !self.boundaries.is_empty() {
            let head = self.input.fill_to(MAX_BOUNDARY + 4)?;
            if let Some((level, closing)) = delimiter(&self.boundaries, head) {
                self.skip_line()?;
                self.pending = b"";
                self.line_start = true;
                self.ended = Some(Ended::Delimiter { level, closing });
                return Ok(0);
            }
            self.line_start = false;
        }
        if !self.pending.is_empty() {
            let n = self.pending.len().min(out.len());
            out[..n].copy_from_slice(&self.pending[..n]);
            self.pending = &self.pending[n..];
            return Ok(n);
        }
        let avail = self.input.fill_to(2)?;
        if avail.is_empty() {
            self.ended = Some(Ended::Eof);
            return Ok(0);
        }
        let (text, newline): (usize, &'static [u8]) =
            match memchr::memchr(b'\n', avail) {
                Some(i) if i > 0 && avail[i - 1] == b'\r' => (i - 1, b"\r\n"),
                Some(i) => (i, b"\n"),
                // A CR at the end of the window may begin a CRLF.
                None if avail.len() > 1 && avail.ends_with(b"\r") => {
                    (avail.len() - 1, b"")
                }
                None => (avail.len(), b""),
            };
        let n = text.min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        if n == text && !newline.is_empty() {
            self.consume(newline.len());
            self.pending = newline;
            self.line_start = true;
        }
        if n == 0 {
            // Only a line break: handed on by the next call, unless a
            // delimiter follows it.
            return self.read_part(out);
        }
        Ok(n)
    }

    /// [`Source::drain`], an error of the input given its position.
    fn drain_part(&mut self) -> Result<(), Error> {
        self.drain().map_err(|e| Error::io(self.pos as u64, e))
    }

    /// Reads the current part to its end.
    fn drain(&mut self) -> io::Result<()> {
        let mut buf = vec![0; CHUNK];
        while self.read_part(&mut buf)? > 0 {}
        Ok(())
    }

    /// The header block at the start of the current part, up to and with
    /// the empty line that ends it (or the end of the part); `None` when
    /// it is longer than [`MAX_HEADER`].
    fn header_block(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut block = Vec::new();
        let mut buf = [0; 4096];
        loop {
            let n = self.read_part(&mut buf)?;
            if n == 0 {
                break;
            }
            block.extend_from_slice(&buf[..n]);
            if block.len() > MAX_HEADER {
                return Ok(None);
            }
            // The line break of an empty line has been handed on whole.
            if self.pending.is_empty()
                && (block == b"\r\n"
                    || block == b"\n"
                    || block.ends_with(b"\n\r\n")
                    || block.ends_with(b"\n\n"))
            {
                break;
            }
        }
        Ok(Some(block))
    }
}

/// The delimiter line of one of `boundaries` (`--BOUNDARY`, outermost
/// first) at the start of `line`, innermost first: its level, and whether
/// it closes. After the boundary, and the `--` of a closing one, only
/// whitespace may come before the line break (RFC 2046 §5.1.1), so that
/// `--b1` does not end a part at the line `--b10`.
fn delimiter(boundaries: &[Vec<u8>], line: &[u8]) -> Option<(usize, bool)> {
    boundaries.iter().enumerate().rev().find_map(|(level, b)| {
        let rest = line.strip_prefix(b.as_slice())?;
        let closing = rest.starts_with(b"--");
        let rest = if closing { &rest[2..] } else { rest };
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        rest[..end]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t' | b'\r'))
            .then_some((level, closing))
    })
}

/// The current part of a [`Source`], as a reader.
struct Part<'s, 'r> {
    source: &'s mut Source<'r>,
}

impl Read for Part<'_, '_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.source.read_part(out)
    }
}
