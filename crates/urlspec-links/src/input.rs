//! One input, whatever it holds, read as `urlspec links` reads it:
//! [`open`] takes any reader, its format is found from its first bytes
//! (inside gzip too) and its name ([`Format::of_input`]) or given
//! ([`Context::format`]), and its documents
//! come out with each link resolved once, as the context says.
//!
//! The reading comes in two halves, so that it can be spread over
//! threads. What must be done in order ([`Input::step`]: the first bytes,
//! an archive's framing, its records' types, their redirects) hands out
//! [`Part`]s: an archive's record that holds a page, or an HTML page or a
//! MIME message read whole (a long one in a file). A part can be read on
//! any thread ([`Part::read`]), into documents handed on whole, or a long
//! one's links in batches, in bounded memory. [`Input`] as an iterator
//! does both halves, for a caller that wants the documents one by one.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek};
use std::path::PathBuf;
use std::sync::Arc;

use flate2::read::MultiGzDecoder;
use urlspec::base::Base;

use crate::html::stream::{self, Spooled};
use crate::{
    html, mime, warc, Context, Document, Format, InputError, Reason, Summary,
    Tally,
};

/// How many bytes are read to find an input's format (the MIME Sniffing
/// Standard's resource header).
const HEAD: usize = 1024;

/// Opens `reader`, named `name` (the document name of an HTML page or a
/// message, the name in the warnings of all), for reading under `ctx`.
/// Nothing is read until the first [`Input::step`] (or
/// [`Input::start`]).
///
/// ```
/// use std::io::Write;
/// use urlspec::Spec;
/// use urlspec_links::{open, Context};
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
/// gz.write_all(b"<base href='http://h/d/'><a href=x>").unwrap();
/// let mut ctx = Context::new(Spec::Rfc3986);
/// ctx.options = ctx.options.strict(true);
/// let page = std::io::Cursor::new(gz.finish().unwrap());
/// let mut input = open(page, "page.html.gz", &ctx);
/// let doc = input.next().unwrap().unwrap();
/// assert_eq!(doc.links[1].url.as_deref(), Ok("http://h/d/x"));
/// assert!(input.next().is_none());
/// assert_eq!(input.summary().links, 2);
/// ```
pub fn open<R: Read>(
    reader: R,
    name: impl Into<String>,
    ctx: &Context,
) -> Input<R> {
    let name: String = name.into();
    Input {
        name: Arc::from(name),
        ctx: Arc::new(ctx.clone()),
        state: State::New(reader),
        steps: VecDeque::new(),
        tally: Tally::new(&ctx.select),
        ready: VecDeque::new(),
        log: false,
        ahead: None,
        in_place: None,
        gzip: false,
        format: None,
    }
}

/// An input being read ([`open`]): its parts in order ([`Input::step`]),
/// or its documents one by one (as an [`Iterator`]); the counts of what it
/// read ([`Input::summary`]).
#[must_use = "an input is read by its steps or as an iterator"]
pub struct Input<R> {
    name: Arc<str>,
    ctx: Arc<Context>,
    state: State<R>,
    /// Steps found and not handed out yet (the records an archive skipped
    /// before its next page, then the page).
    steps: VecDeque<Step>,
    /// The counts of the sequential half, and of the parts the iterator
    /// reads.
    tally: Tally,
    /// The iterator's documents read and not handed out yet.
    ready: VecDeque<Result<Document, InputError>>,
    log: bool,
    /// Sets an archive's members to inflate ahead
    /// ([`Input::inflate_ahead`]).
    ahead: Option<fn(&mut Archive<R>)>,
    /// The regular file the input is, and its size.
    in_place: Option<(PathBuf, u64)>,
    gzip: bool,
    format: Option<Format>,
}

/// What is left of an input once its first bytes are read: those bytes,
/// then the rest.
type Rest<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// An input read as an archive.
type Archive<R> = warc::Documents<BufReader<Rest<R>>>;

enum State<R> {
    /// Not read yet.
    New(R),
    /// An HTML page or a message, its first bytes read.
    Opened(Format, Rest<R>),
    /// An archive being read.
    Archive(Box<Archive<R>>),
    Done,
}

/// One step of the reading of an input, in order ([`Input::step`]).
pub enum Step {
    /// A part to read, here or on another thread ([`Part::read`]).
    Part(Part),
    /// An archive record that holds no page, when they are asked for
    /// ([`Input::log_skipped`]).
    Skipped(warc::Skipped),
    /// What could not be read: the input ([`InputError::ends_input`]), or
    /// a record of it (the next step is the record after it).
    Error(InputError),
}

impl<R: Read + Send + 'static> Input<R> {
    /// Inflates a gzip-compressed archive's members on a thread of their
    /// own, ahead of its reading ([`warc::Documents::inflate_ahead`]); with
    /// [`Input::start`], from then on.
    pub fn inflate_ahead(&mut self) {
        self.ahead = Some(|docs| docs.inflate_ahead());
    }
}

impl<R: Read> Input<R> {
    /// Keeps each record an archive skips, as a [`Step::Skipped`] (for
    /// `urlspec links -v`).
    pub fn log_skipped(&mut self) {
        self.log = true;
    }

    /// Says that the input is the regular file at `path`, of `size`
    /// bytes: a page or a message too long to hold in memory is read from
    /// it in place, rather than copied to a temporary file.
    pub fn in_place(&mut self, path: impl Into<PathBuf>, size: u64) {
        self.in_place = Some((path.into(), size));
    }

    /// The input's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The context it is read under.
    #[must_use]
    pub fn context(&self) -> &Arc<Context> {
        &self.ctx
    }

    /// Begins the reading now: reads the first bytes and finds the format
    /// (what they say, a read error or binary data, is the first step),
    /// and an archive's members begin to inflate
    /// ([`Input::inflate_ahead`]), while the caller reads something else.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{open, Context, Format};
    /// let ctx = Context::new(Spec::Rfc3986);
    /// let mut input = open(&b"From: a@h\r\nContent-Type: text/html\r\n\r\n<a href=x>"[..], "m", &ctx);
    /// assert_eq!(input.format(), None);
    /// input.start();
    /// assert_eq!(input.format(), Some(Format::Mime));
    /// let mut binary = open(&b"\x89PNG\r\n\x1a\n\0\0"[..], "i.png", &ctx);
    /// binary.start();
    /// assert_eq!(binary.format(), None);
    /// let error = binary.next().unwrap().unwrap_err();
    /// assert_eq!(error.to_string(), "binary data, not a document (--format reads it anyway)");
    /// ```
    pub fn start(&mut self) {
        if !matches!(self.state, State::New(_)) {
            return;
        }
        let State::New(mut reader) =
            std::mem::replace(&mut self.state, State::Done)
        else {
            return;
        };
        let mut head = Vec::with_capacity(HEAD);
        if let Err(e) = (&mut reader).take(HEAD as u64).read_to_end(&mut head)
        {
            self.fail(InputError::Io(e));
            return;
        }
        let sniffed = Format::of_input(&head, &self.name);
        self.gzip = sniffed.gzip;
        self.format = self.ctx.format.or(sniffed.format);
        let Some(format) = self.format else {
            self.fail(InputError::Refused(Reason::Binary));
            return;
        };
        let rest = io::Cursor::new(head).chain(reader);
        if format != Format::Warc {
            self.state = State::Opened(format, rest);
            return;
        }
        let reader = BufReader::with_capacity(1 << 15, rest);
        let mut docs = warc::Documents::new(reader, (*self.ctx).clone());
        if self.log {
            docs.log_skipped();
        }
        if let Some(ahead) = self.ahead {
            ahead(&mut docs);
            docs.start();
        }
        self.state = State::Archive(Box::new(docs));
    }

    /// The format the input is read as, once its first bytes are read
    /// ([`Input::start`]); `None` before, and for binary data.
    #[must_use]
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// The next step of the reading, in order: a part to read, a record
    /// skipped (when they are kept), or what could not be read. `None`
    /// once the input is read.
    pub fn step(&mut self) -> Option<Step> {
        loop {
            if let Some(step) = self.steps.pop_front() {
                return Some(step);
            }
            match std::mem::replace(&mut self.state, State::Done) {
                State::New(reader) => {
                    self.state = State::New(reader);
                    self.start();
                }
                State::Opened(format, rest) => {
                    let step = match self.whole(format, rest) {
                        Ok(part) => Step::Part(part),
                        Err(e) => Step::Error(InputError::Io(e)),
                    };
                    return Some(step);
                }
                State::Archive(mut docs) => {
                    let page = docs.next_page();
                    for skipped in docs.take_skipped() {
                        self.steps.push_back(Step::Skipped(skipped));
                    }
                    match page {
                        None => {
                            let mut skipped = Summary::default();
                            docs.add_skipped(&mut skipped);
                            self.tally.merge(skipped);
                            continue;
                        }
                        Some(Ok(page)) => {
                            let part = self.part(What::Page(page));
                            self.steps.push_back(Step::Part(part));
                        }
                        Some(Err(e)) => {
                            let e = InputError::Record(e);
                            self.tally.error(&e);
                            self.steps.push_back(Step::Error(e));
                        }
                    }
                    self.state = State::Archive(docs);
                }
                State::Done => return None,
            }
        }
    }

    /// The counts so far: the records an archive skipped, what could not
    /// be read, and the documents and links the iterator handed out
    /// (parts read by the caller count in the caller's [`Tally`]).
    #[must_use]
    pub fn summary(&self) -> Summary {
        let mut summary = self.tally.summary().clone();
        if let State::Archive(docs) = &self.state {
            docs.add_skipped(&mut summary);
        }
        summary
    }

    /// The input ends with `e`, the next step.
    fn fail(&mut self, e: InputError) {
        self.tally.error(&e);
        self.steps.push_back(Step::Error(e));
        self.state = State::Done;
    }

    fn part(&self, what: What) -> Part {
        Part { name: self.name.clone(), ctx: self.ctx.clone(), what }
    }

    /// An HTML page or a message, read to its end: into memory when it is
    /// short, else into a temporary file (or left in its own).
    fn whole(&self, format: Format, mut rest: Rest<R>) -> io::Result<Part> {
        let mime = format == Format::Mime;
        let long = |file| self.part(What::Long { mime, file });
        let in_place = self.in_place.as_ref().filter(|(_, size)| {
            !self.gzip && *size > stream::IN_MEMORY as u64
        });
        if let Some((path, _)) = in_place {
            return File::open(path).map(long);
        }
        let spooled = if self.gzip {
            stream::spool(&mut MultiGzDecoder::new(rest))?
        } else {
            stream::spool(&mut rest)?
        };
        Ok(match spooled {
            Spooled::Memory(data) => self.part(What::Whole { mime, data }),
            Spooled::File(file) => long(file),
        })
    }
}

/// An input's documents one by one, each whole (a long page's links
/// gathered), or what could not be read: a record of an archive (the
/// documents after it follow) or the input (the last item).
impl<R: Read> Iterator for Input<R> {
    type Item = Result<Document, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            let part = match self.step()? {
                Step::Part(part) => part,
                Step::Skipped(_) => continue,
                Step::Error(e) => return Some(Err(e)),
            };
            let ready = &mut self.ready;
            let read = part.read_whole(&mut self.tally, &mut |doc| {
                ready.push_back(Ok(doc))
            });
            if let Err(e) = read {
                self.ready.push_back(Err(e));
            }
        }
    }
}

/// A part of an input that can be read on any thread ([`Part::read`]):
/// an archive's record that holds a page, or an HTML page or a message
/// read whole, in memory or, when long, in a file.
pub struct Part {
    /// The input's name.
    name: Arc<str>,
    ctx: Arc<Context>,
    what: What,
}

enum What {
    Page(warc::Page),
    Whole { mime: bool, data: Vec<u8> },
    Long { mime: bool, file: File },
}

impl Part {
    /// The name of the input it is a part of.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The context it is read under.
    #[must_use]
    pub fn context(&self) -> &Arc<Context> {
        &self.ctx
    }

    /// The bytes it holds in memory until it is read.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.what {
            What::Page(page) => page.len(),
            What::Whole { data, .. } => data.len(),
            What::Long { .. } => 0,
        }
    }

    /// Whether it holds no bytes in memory.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether it is an HTML page or a message too long to hold in
    /// memory, read from a file in batches of links.
    #[must_use]
    pub fn is_long(&self) -> bool {
        matches!(self.what, What::Long { .. })
    }

    /// The byte offset of the archive record it is (of its gzip member in
    /// a compressed archive); `None` for an HTML page or a message.
    #[must_use]
    pub fn offset(&self) -> Option<u64> {
        match &self.what {
            What::Page(page) => Some(page.offset()),
            What::Whole { .. } | What::Long { .. } => None,
        }
    }

    /// Reads the part: `sink` is handed each of its documents with the
    /// links `tally` keeps, and whether this is the document's end (`true`;
    /// a long one's links come in batches before it, each dropped after
    /// `sink` returns), and `tally` counts them.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{open, Context, Step, Tally};
    /// let mut ctx = Context::new(Spec::Rfc3986);
    /// ctx.given = Some("http://given/d/".into());
    /// let page = b"<base href=http://h/><a href=x>";
    /// let Some(Step::Part(part)) = open(&page[..], "p", &ctx).step() else { panic!() };
    /// // A part can move to another thread and be read there.
    /// let (urls, summary) = std::thread::spawn(move || {
    ///     let mut tally = Tally::new(&part.context().select);
    ///     let mut urls = Vec::new();
    ///     part.read(&mut tally, &mut |doc, _| {
    ///         urls.extend(doc.links.iter().map(|l| l.url.clone().unwrap()));
    ///     }).unwrap();
    ///     (urls, tally.take_summary())
    /// }).join().unwrap();
    /// // Every link against the given base, <base href> too.
    /// assert_eq!(urls, ["http://h/", "http://given/d/x"]);
    /// assert_eq!(summary.by_base_source["given"], 1);
    /// ```
    ///
    /// # Errors
    ///
    /// [`InputError::Io`] when a long page's file cannot be read;
    /// [`InputError::Refused`] when a message is no message, or nests too
    /// deep (the documents read before were handed on). Either is counted
    /// by `tally`.
    pub fn read(
        self,
        tally: &mut Tally,
        sink: &mut dyn FnMut(&mut Document, bool),
    ) -> Result<(), InputError> {
        let Part { name, ctx, what } = self;
        let ctx = &*ctx;
        // A part's documents are its own: none began before it.
        tally.abandon();
        let mut hand = |doc: &mut Document, last: bool| {
            if last {
                tally.end(doc);
            } else {
                tally.batch(doc);
            }
            sink(doc, last);
        };
        let read = match what {
            What::Page(page) => {
                let mut last = page.read(ctx, &mut |doc| hand(doc, false));
                hand(&mut last, true);
                Ok(())
            }
            What::Whole { mime: false, data } => {
                let base = ctx.retrieval_base();
                let mut doc = html::document(&data, &name, &base, ctx);
                hand(&mut doc, true);
                Ok(())
            }
            What::Whole { mime: true, data } => {
                mime::documents(&data, &name, ctx, &mut |mut doc| {
                    hand(&mut doc, true);
                })
                .map_err(|e| InputError::Refused(e.reason))
            }
            What::Long { mime: false, file } => {
                let base = ctx.retrieval_base();
                html::stream::document_of_file(
                    &file,
                    html::Charset::Unknown,
                    &name,
                    &base,
                    ctx,
                    &mut |doc| hand(doc, false),
                )
                .map(|mut last| hand(&mut last, true))
                .map_err(InputError::Io)
            }
            What::Long { mime: true, mut file } => {
                file.rewind().map_err(InputError::Io).and_then(|()| {
                    mime::stream::documents(&file, &name, ctx, &mut hand)
                        .map_err(|e| InputError::Refused(e.reason))
                })
            }
        };
        if let Err(e) = &read {
            tally.error(e);
        }
        read
    }

    /// Reads the part as [`Part::read`] does, handing `sink` each of its
    /// documents whole (a long one's links gathered).
    ///
    /// # Errors
    ///
    /// As [`Part::read`].
    pub fn read_whole(
        self,
        tally: &mut Tally,
        sink: &mut dyn FnMut(Document),
    ) -> Result<(), InputError> {
        let mut links = Vec::new();
        self.read(tally, &mut |doc, last| {
            links.append(&mut doc.links);
            if last {
                let mut whole =
                    std::mem::replace(doc, Document::new("", Base::none()));
                whole.links = std::mem::take(&mut links);
                sink(whole);
            }
        })
    }
}
