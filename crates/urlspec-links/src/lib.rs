//! Every link in the documents found in the world — HTML pages, MIME
//! messages (`.eml`, MHTML) and WARC archives — as the absolute URL it
//! denotes, with the base it was resolved against and where that base came
//! from.
//!
//! The URL logic is [`urlspec`]'s: the base is established by the layers of
//! RFC 1808 §3 ([`urlspec::base`]) and references are resolved by the chosen
//! [`Spec`]. The document formats are read by well-kept parsers: `lol_html`
//! for HTML (streaming, with the byte position of every attribute value),
//! `mail-parser` for MIME trees, `warc` for archives.
//!
//! One entry point reads any input: [`open`] takes a reader (a file,
//! standard input, bytes; gzip-compressed or not), finds its format from
//! its first bytes, and yields its documents, each link resolved once,
//! against its base, with the context's options ([`Input`]). The readers
//! of each format ([`html`], [`mime`], [`warc`]) are there for callers
//! that hold one.
//!
//! ```
//! use urlspec_links::{open, Context};
//! use urlspec::Spec;
//!
//! // The HTML example of RFC 1808 §10 (draft 04 §10, 1996 draft App. D).
//! let page = br#"<HTML><HEAD><TITLE>An example HTML document</TITLE>
//! <BASE href="http://www.ics.uci.edu/Test/a/b/c"></HEAD>
//! <BODY>... <A href="../x">a hypertext anchor</A> ...</BODY></HTML>"#;
//! let mut ctx = Context::new(Spec::Rfc1808);
//! ctx.retrieval = vec!["http://elsewhere/".into()];
//! let mut input = open(&page[..], "example.html", &ctx);
//! let doc = input.next().unwrap().unwrap();
//! let a = doc.links.iter().find(|l| l.element == "a").unwrap();
//! assert_eq!(a.url.as_deref(), Ok("http://www.ics.uci.edu/Test/a/x"));
//! assert_eq!(doc.base.source().layer(), "embedded");
//! assert_eq!(input.summary().documents, 1);
//! ```
//!
//! # Crate features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `whatwg` | no | Links resolved under [`Spec::Whatwg`] with their query in the page's encoding, as browsers write it (the `whatwg` feature of [`urlspec`]). Without it a link read under that spec has no URL, and its [`LinkError`] says why. |

// Every fallible public function says which error it returns when, and
// one that can panic says when (none should: a finding is a bug to fix);
// a pure function's result, or a builder, is not dropped unread.
#![warn(
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::return_self_not_must_use
)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod error;
pub mod headers;
pub mod html;
mod input;
pub mod mime;
mod resolver;
mod select;
mod slice;
mod sniff;
pub mod warc;

use std::borrow::Cow;
use std::collections::BTreeMap;

pub use encoding_rs::Encoding;

use urlspec::base::{self, Base, Establish};
use urlspec::resolve::Options;
use urlspec::Spec;
use urlspec_parsers::pairs::host_split;
pub use urlspec_parsers::Profile;

pub use error::{Error, InputError, IoError, LinkError, Problem, Reason};
pub use input::{open, Input, Part, Step};
pub use resolver::{resolve, resolve_encoded, resolve_with, Trace, Traced};
pub use select::{Select, Tally, Unique};
pub use sniff::{is_binary, sniff_html, Format, Sniffed};

use resolver::LinkResolver;

/// What the reader needs to know: the spec, how bases are recognised, how
/// the input was retrieved, how links are resolved and which are kept.
#[derive(Clone, Debug)]
pub struct Context {
    /// The spec that establishes bases and resolves references.
    pub spec: Spec,
    /// Base recognition options (strictness, which headers).
    pub base: base::Options,
    /// The URL first requested, then each URL it was redirected to; the
    /// last one retrieved the input (RFC 1808 §3.3). Empty: not known.
    pub retrieval: Vec<String>,
    /// The base of every document over every layer, when given: each
    /// link is resolved against it.
    pub given: Option<String>,
    /// How references are resolved where the specs leave a choice.
    pub options: Options,
    /// How an HTML page's encoding is chosen (`--encoding`).
    pub encoding: html::encoding::Choice,
    /// The parts of a page whose links are left out
    /// (`--exclude-context`).
    pub exclude: Vec<Within>,
    /// The format inputs are read as ([`open`]); `None`: found from their
    /// first bytes.
    pub format: Option<Format>,
    /// The links a reading of inputs keeps ([`Input`], [`Part::read`]).
    pub select: Select,
    /// Told of each link's resolution, when set.
    pub trace: Option<Trace>,
    /// The real parsers each resolved URL is read with, to find the links
    /// whose host they read differently ([`Link::host_split`],
    /// [`Summary::host_splits`]). Empty: none (two are needed to differ).
    pub parsers: Vec<&'static Profile>,
}

impl Context {
    /// A context for `spec` with no retrieval URL.
    #[must_use]
    pub fn new(spec: Spec) -> Context {
        Context {
            spec,
            base: base::Options::default(),
            retrieval: Vec::new(),
            given: None,
            options: Options::default(),
            encoding: html::encoding::Choice::Sniff,
            exclude: Vec::new(),
            format: None,
            select: Select::default(),
            trace: None,
            parsers: Vec::new(),
        }
    }

    /// The first of `headers` that would set a base under another spec or
    /// with `--base-headers all`, when none sets it under this one: its
    /// name and what reads it, for the summary's hint.
    pub fn unread_base_header<'h>(
        &self,
        headers: impl Iterator<Item = (&'h str, &'h str)> + Clone,
    ) -> Option<UnreadHeader> {
        let own = self.establish().headers(&Base::none(), headers.clone());
        if own.url().is_some() {
            return None;
        }
        let all = self.base.headers(base::Headers::All);
        let with_all = Establish::with_options(self.spec, all)
            .headers(&Base::none(), headers.clone());
        let base::Source::Header { name } = with_all.source() else {
            return None;
        };
        let spec = Spec::available().iter().copied().find(|&s| {
            let b = Establish::new(s).headers(&Base::none(), headers.clone());
            matches!(b.source(), base::Source::Header { name: n } if n == name)
        });
        Some(UnreadHeader { name: name.clone(), spec })
    }

    /// The hosts [`Context::parsers`] read in `url`, when they differ.
    pub(crate) fn host_split(
        &self,
        url: &Result<String, LinkError>,
    ) -> Option<HostSplit> {
        if self.parsers.len() < 2 {
            return None;
        }
        let url = url.as_deref().ok()?;
        host_split(url, &self.parsers).map(Vec::into_boxed_slice)
    }

    /// The base establisher for this context.
    pub fn establish(&self) -> Establish {
        Establish::with_options(self.spec, self.base)
    }

    /// The base of a top-level input: its retrieval URL, if any.
    #[must_use]
    pub fn retrieval_base(&self) -> Base {
        self.establish().retrieval(&self.retrieval)
    }

    /// The given base ([`Context::given`]), if there is one.
    fn given_base(&self) -> Option<Base> {
        self.given.as_deref().map(|url| self.establish().given(url))
    }

    /// A new document named `name` whose layers establish `base`: its
    /// base is the given one instead, when there is one.
    pub(crate) fn document(
        &self,
        name: impl Into<String>,
        base: impl FnOnce() -> Base,
    ) -> Document {
        Document::new(name, self.given_base().unwrap_or_else(base))
    }
}

/// One link found in a document.
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{html, Context};
/// let ctx = Context::new(Spec::Rfc3986);
/// let doc = html::document(b"<img srcset='a.png 1x'>", "p", &ctx.retrieval_base(), &ctx);
/// let link = &doc.links[0];
/// assert_eq!((&*link.element, &*link.attribute), ("img", "srcset"));
/// assert_eq!(link.reference, "a.png");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The element (`a`, `img`, …) or, for a message header, `header`.
    /// Borrowed from the reader's tables when it is one of their names
    /// (nearly always: a page has one link per tag), so that a link
    /// allocates only for its reference and URL.
    pub element: Cow<'static, str>,
    /// The attribute (`href`, `srcset`, …) or the header's name; borrowed
    /// as [`Link::element`] is.
    pub attribute: Cow<'static, str>,
    /// The reference as written, after HTML entity decoding.
    pub reference: String,
    /// The byte offset of the reference in the document.
    pub offset: usize,
    /// The absolute URL, or why there is none.
    pub url: Result<String, LinkError>,
    /// Where in the page the link stands when a browser running scripts
    /// does not see it; `None` for the document tree.
    pub within: Option<Within>,
    /// The encoding its query is written in under [`Spec::Whatwg`] (the
    /// page's for most HTML attributes, see [`Document::query_encoding`]);
    /// `None`: UTF-8.
    pub query_encoding: Option<&'static Encoding>,
    /// The host each of [`Context::parsers`] reads in the URL, when they
    /// do not all read the same one ([`urlspec_parsers::pairs::host_split`]);
    /// `None` when they agree, or when there is no URL or no parser to
    /// compare.
    pub host_split: Option<HostSplit>,
}

/// The host each parser reads in a URL, in the order of
/// [`Context::parsers`] (`None`: no host), when they differ.
pub type HostSplit = Box<[(&'static Profile, Option<String>)]>;

/// A part of an HTML page a crawler reads and a browser running scripts
/// does not: `urlspec links` reports its links with a `context`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Within {
    /// `<noscript>`, read as the parser without scripting reads it.
    Noscript,
    /// The contents of a `<template>`, which are no part of the document
    /// tree.
    Template,
}

impl Within {
    /// `noscript` or `template`, as `--exclude-context` and the JSON
    /// `context` field name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Within::Noscript => "noscript",
            Within::Template => "template",
        }
    }

    /// The context `name` names.
    ///
    /// ```
    /// use urlspec_links::Within;
    /// assert_eq!(Within::parse("template"), Some(Within::Template));
    /// assert_eq!(Within::parse("head"), None);
    /// ```
    #[must_use]
    pub fn parse(name: &str) -> Option<Within> {
        [Within::Noscript, Within::Template]
            .into_iter()
            .find(|w| w.name() == name)
    }
}

/// A document and its links.
#[derive(Clone, Debug)]
pub struct Document {
    /// A name for the document: the file, a MIME part path, a WARC target.
    pub name: String,
    /// The base its references were resolved against, with provenance.
    pub base: Base,
    /// The links, in document order.
    pub links: Vec<Link>,
    /// Problems reading the document (the links found before are kept).
    pub problems: Vec<Problem>,
    /// The document's resolver: its base prepared once for all its links.
    resolver: Option<LinkResolver>,
    /// A base header the chosen spec does not read, which another spec or
    /// `--base-headers all` would.
    pub unread_base_header: Option<UnreadHeader>,
    /// The encoding its text was decoded from (an HTML page's); `None`
    /// for a message's headers.
    pub encoding: Option<&'static Encoding>,
    /// The offsets of references left out as longer than
    /// [`html::stream::MAX_REFERENCE`].
    pub too_long: Vec<usize>,
}

/// A header that sets a base under other options than those chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadHeader {
    /// Its canonical name (`Content-Location`, …).
    pub name: String,
    /// The first spec that reads it, if any does (else only
    /// `--base-headers all`).
    pub spec: Option<Spec>,
}

impl Document {
    /// A document named `name` with `base` and no links yet.
    pub fn new(name: impl Into<String>, base: Base) -> Document {
        Document {
            name: name.into(),
            base,
            links: Vec::new(),
            problems: Vec::new(),
            resolver: None,
            unread_base_header: None,
            encoding: None,
            too_long: Vec::new(),
        }
    }

    /// The encoding a query of the document's links is written in under
    /// [`Spec::Whatwg`]: `None` for UTF-8.
    pub fn query_encoding(&self) -> Option<&'static Encoding> {
        self.encoding.and_then(html::encoding::query_encoding)
    }

    /// Resolves `reference` against the document's base as `ctx` says
    /// (its spec, its options) and records it.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{Context, Document};
    /// let ctx = Context::new(Spec::Rfc3986);
    /// let mut doc = Document::new("m", ctx.establish().retrieval(&["http://h/d/"]));
    /// let name = String::from("List-Help");
    /// doc.push(&ctx, "header", name, "help", 7);
    /// assert_eq!(doc.links[0].attribute, "List-Help");
    /// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/help"));
    /// ```
    pub fn push(
        &mut self,
        ctx: &Context,
        element: impl Into<Cow<'static, str>>,
        attribute: impl Into<Cow<'static, str>>,
        reference: &str,
        offset: usize,
    ) {
        let resolver =
            self.resolver.get_or_insert_with(|| LinkResolver::new(ctx));
        let url = resolver.resolve(&self.base, reference, None);
        let host_split = ctx.host_split(&url);
        self.push_resolved(Link {
            element: element.into(),
            attribute: attribute.into(),
            reference: reference.into(),
            offset,
            url,
            within: None,
            query_encoding: None,
            host_split,
        });
    }

    /// Records a link resolved by the caller.
    pub fn push_resolved(&mut self, link: Link) {
        self.links.push(link);
    }
}

/// Where a document's base came from, as the `base_source` field of
/// `urlspec links` TSV and JSON output names it: `embedded`,
/// `header:NAME` (the header that gave it), `retrieval` or `none`.
#[must_use]
pub fn base_source(base: &Base) -> String {
    match base.source() {
        base::Source::Header { name } => format!("header:{name}"),
        other => other.layer().to_owned(),
    }
}

/// The redirect chain behind a retrieval base (the URLs requested, in
/// order, the last one retrieving the document), as the `base_chain` field
/// of `urlspec links --output json` gives it: `None` unless the base is a
/// retrieval URL reached through at least one redirect.
#[must_use]
pub fn base_chain(base: &Base) -> Option<&[String]> {
    match base.source() {
        base::Source::Retrieval { chain } if chain.len() > 1 => Some(chain),
        _ => None,
    }
}

/// Counts over a run, for the summary line: kept by the reading
/// ([`Input::summary`], [`Tally`]), added up over inputs and threads
/// ([`Summary::merge`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Documents read.
    pub documents: usize,
    /// Links found (and kept, [`Select`]).
    pub links: usize,
    /// Links that could not be resolved.
    pub unresolved: usize,
    /// Documents per base layer (`embedded`, `header`, `retrieval`, `none`).
    pub by_base_source: BTreeMap<&'static str, usize>,
    /// Archive records that were not HTML responses, and so skipped.
    pub skipped_records: usize,
    /// The skipped records by reason (the names of [`warc::Skip`]); every
    /// reason is present once an archive has been read.
    pub skipped_by_reason: BTreeMap<&'static str, usize>,
    /// Documents with unresolved links and a base header the chosen spec
    /// does not read, by that header (see [`Document::unread_base_header`]).
    pub unread_base_headers: BTreeMap<String, (usize, Option<Spec>)>,
    /// References left out as too long ([`Document::too_long`]).
    pub too_long: usize,
    /// Inputs, records and documents not read (wholly) as their format:
    /// binary data, a damaged record, a document with a problem that may
    /// have lost links ([`Problem::may_lose_links`]).
    pub unreadable: usize,
    /// Links whose host [`Context::parsers`] read differently
    /// ([`Link::host_split`]).
    pub host_splits: usize,
}

impl Summary {
    /// Adds a whole document, every link of it, to the counts (as a
    /// [`Tally`] that keeps every link does).
    pub fn add(&mut self, doc: &Document) {
        let unresolved = self.add_links(&doc.links);
        self.add_document(doc, unresolved);
    }

    /// Counts `links`: whether any is unresolved.
    pub(crate) fn add_links(&mut self, links: &[Link]) -> bool {
        let unresolved = links.iter().filter(|l| l.url.is_err()).count();
        self.host_splits +=
            links.iter().filter(|l| l.host_split.is_some()).count();
        self.links += links.len();
        self.unresolved += unresolved;
        unresolved > 0
    }

    /// Counts `doc`, whose links are counted already, `unresolved` telling
    /// whether any of them was.
    pub(crate) fn add_document(&mut self, doc: &Document, unresolved: bool) {
        self.documents += 1;
        self.too_long += doc.too_long.len();
        *self.by_base_source.entry(doc.base.source().layer()).or_default() +=
            1;
        if doc.problems.iter().any(Problem::may_lose_links) {
            self.unreadable += 1;
        }
        if let (Some(h), true) = (&doc.unread_base_header, unresolved) {
            let entry = self
                .unread_base_headers
                .entry(h.name.clone())
                .or_insert((0, h.spec));
            entry.0 += 1;
        }
    }

    /// Adds the counts of `more`.
    pub fn merge(&mut self, more: Summary) {
        self.documents += more.documents;
        self.links += more.links;
        self.unresolved += more.unresolved;
        self.skipped_records += more.skipped_records;
        self.too_long += more.too_long;
        self.unreadable += more.unreadable;
        self.host_splits += more.host_splits;
        for (layer, n) in more.by_base_source {
            *self.by_base_source.entry(layer).or_default() += n;
        }
        for (reason, n) in more.skipped_by_reason {
            *self.skipped_by_reason.entry(reason).or_default() += n;
        }
        for (name, (n, spec)) in more.unread_base_headers {
            self.unread_base_headers.entry(name).or_insert((0, spec)).0 += n;
        }
    }
}

/// The crate's README (its crates.io page), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
