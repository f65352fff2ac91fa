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
//! ```
//! use urlspec::base::Base;
//! use urlspec_links::{html, Context};
//! use urlspec::Spec;
//!
//! // The HTML example of RFC 1808 §10 (draft 04 §10, 1996 draft App. D).
//! let page = br#"<HTML><HEAD><TITLE>An example HTML document</TITLE>
//! <BASE href="http://www.ics.uci.edu/Test/a/b/c"></HEAD>
//! <BODY>... <A href="../x">a hypertext anchor</A> ...</BODY></HTML>"#;
//! let ctx = Context::new(Spec::Rfc1808);
//! let doc = html::document(page, "example.html", &ctx.establish().retrieval(&["http://elsewhere/"]), &ctx);
//! let a = doc.links.iter().find(|l| l.element == "a").unwrap();
//! assert_eq!(a.url.as_deref(), Ok("http://www.ics.uci.edu/Test/a/x"));
//! assert_eq!(doc.base.source().layer(), "embedded");
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
pub mod mime;
mod slice;
mod sniff;
pub mod warc;

use std::borrow::Cow;
use std::collections::BTreeMap;

pub use encoding_rs::Encoding;

use urlspec::base::{self, Base, Establish};
use urlspec::resolve::{Options, PairResolver};
use urlspec::{Reference, Spec};

pub use error::{Error, LinkError, Problem, Reason};
pub use sniff::{is_binary, sniff_html, Format, Sniffed};

/// What the reader needs to know: the spec, how bases are recognised, and
/// how the input was retrieved.
#[derive(Clone, Debug)]
pub struct Context {
    /// The spec that establishes bases and resolves references.
    pub spec: Spec,
    /// Base recognition options (strictness, which headers).
    pub base: base::Options,
    /// The URL first requested, then each URL it was redirected to; the
    /// last one retrieved the input (RFC 1808 §3.3). Empty: not known.
    pub retrieval: Vec<String>,
    /// The base of every document over every layer, when given.
    pub given: Option<String>,
    /// How references are resolved where the specs leave a choice.
    pub options: Options,
    /// How an HTML page's encoding is chosen (`--encoding`).
    pub encoding: html::encoding::Choice,
    /// The parts of a page whose links are left out
    /// (`--exclude-context`).
    pub exclude: Vec<Within>,
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
        }
    }

    /// `doc` with the given base and the resolution options applied: its
    /// links resolved again when either is set (the readers resolve each
    /// link as they find it, against the layers and with the defaults),
    /// each query in the encoding its first resolution used.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{html, Context};
    /// let mut ctx = Context::new(Spec::Rfc3986);
    /// ctx.given = Some("http://given/d/".into());
    /// let doc = html::document(b"<base href=http://h/><a href=x>", "p", &ctx.retrieval_base(), &ctx);
    /// let doc = ctx.finish(doc);
    /// assert_eq!(doc.links[1].url.as_deref(), Ok("http://given/d/x"));
    /// assert_eq!(urlspec_links::base_source(&doc.base), "given");
    /// ```
    #[must_use]
    pub fn finish(&self, mut doc: Document) -> Document {
        if let Some(given) = &self.given {
            doc.base = self.establish().given(given);
        } else if self.options == Options::default() {
            return doc;
        }
        let mut resolver = PairResolver::new(self.spec, self.options);
        for link in &mut doc.links {
            link.url = resolve_encoded_with(
                &mut resolver,
                &doc.base,
                &link.reference,
                link.query_encoding,
            );
        }
        doc
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

    /// The base establisher for this context.
    pub fn establish(&self) -> Establish {
        Establish::with_options(self.spec, self.base)
    }

    /// The base of a top-level input: its retrieval URL, if any.
    #[must_use]
    pub fn retrieval_base(&self) -> Base {
        self.establish().retrieval(&self.retrieval)
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
}

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
    resolver: Option<PairResolver>,
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

    /// Resolves `reference` against the document's base and records it.
    ///
    /// ```
    /// use urlspec::Spec;
    /// use urlspec_links::{Context, Document};
    /// let ctx = Context::new(Spec::Rfc3986);
    /// let mut doc = Document::new("m", ctx.establish().retrieval(&["http://h/d/"]));
    /// let name = String::from("List-Help");
    /// doc.push(Spec::Rfc3986, "header", name, "help", 7);
    /// assert_eq!(doc.links[0].attribute, "List-Help");
    /// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/help"));
    /// ```
    pub fn push(
        &mut self,
        spec: Spec,
        element: impl Into<Cow<'static, str>>,
        attribute: impl Into<Cow<'static, str>>,
        reference: &str,
        offset: usize,
    ) {
        let resolver = match &mut self.resolver {
            Some(r) if r.spec() == spec => r,
            other => other.insert(PairResolver::new(spec, Options::default())),
        };
        let url = resolve_with(resolver, &self.base, reference);
        self.push_resolved(Link {
            element: element.into(),
            attribute: attribute.into(),
            reference: reference.into(),
            offset,
            url,
            within: None,
            query_encoding: None,
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

/// Resolves `reference` against `base` for a link: a relative reference
/// with no base is unresolved (it is not taken as absolute, as RFC 1808
/// step 1 would for a lone URL).
///
/// # Errors
///
/// [`LinkError::NoBase`] when the reference is relative and `base` has no
/// URL. Otherwise [`LinkError::Resolve`] with the spec's
/// [`ResolveError`](urlspec::resolve::ResolveError): a base that cannot
/// serve (`BaseNotAbsolute`, `BaseNotHierarchical`); under
/// [`Spec::Whatwg`], the parser's failure (`Whatwg`, with its byte
/// position); with strict options ([`resolve_with`]), the reference's
/// first violation (`InvalidReference`, with its byte position) or a `..`
/// above the root (`DotDotAboveRoot`). [`LinkError::position`] gives the
/// byte position.
pub fn resolve(
    base: &Base,
    spec: Spec,
    reference: &str,
) -> Result<String, LinkError> {
    resolve_encoded(base, spec, reference, None)
}

/// [`resolve`] by `resolver`, which prepares a base once for all the links
/// that share it.
///
/// # Errors
///
/// As [`resolve`].
pub fn resolve_with(
    resolver: &mut PairResolver,
    base: &Base,
    reference: &str,
) -> Result<String, LinkError> {
    resolve_encoded_with(resolver, base, reference, None)
}

/// [`resolve`], the query written in `query` (a page's encoding) under
/// [`Spec::Whatwg`], as the URL parser's *encoding* says; UTF-8 when
/// `None`, and under every other spec, which keep the characters as
/// they are.
///
#[cfg_attr(feature = "whatwg", doc = "```")]
#[cfg_attr(not(feature = "whatwg"), doc = "```ignore")]
/// use urlspec::Spec;
/// use urlspec_links::{resolve_encoded, Context};
/// let base = Context::new(Spec::Whatwg).establish().retrieval(&["http://h/"]);
/// let koi8 = encoding_rs::KOI8_R;
/// assert_eq!(resolve_encoded(&base, Spec::Whatwg, "я?я€", Some(koi8)).as_deref(),
///            Ok("http://h/%D1%8F?%D1%26%238364%3B"));
/// assert_eq!(resolve_encoded(&base, Spec::Rfc3986, "a?я", Some(koi8)).as_deref(),
///            Ok("http://h/a?я"));
/// ```
///
/// # Errors
///
/// As [`resolve`]; with an encoding under [`Spec::Whatwg`], a failure of
/// the URL Standard's parser is [`LinkError::Whatwg`] (its `in_base` set
/// when the base failed).
pub fn resolve_encoded(
    base: &Base,
    spec: Spec,
    reference: &str,
    query: Option<&'static Encoding>,
) -> Result<String, LinkError> {
    resolve_encoded_with(
        &mut PairResolver::new(spec, Options::default()),
        base,
        reference,
        query,
    )
}

/// [`resolve_encoded`] by `resolver`, which prepares a base once for all
/// the links that share it.
pub(crate) fn resolve_encoded_with(
    resolver: &mut PairResolver,
    base: &Base,
    reference: &str,
    query: Option<&'static Encoding>,
) -> Result<String, LinkError> {
    let trimmed = reference.trim_matches(|c: char| c.is_ascii_whitespace());
    let spec = resolver.spec();
    // The URL Standard's parser, which has no "taken as absolute", decides
    // for itself what a scheme is; the rule here is the splitter's.
    if base.url().is_none()
        && spec == Spec::Whatwg
        && !Reference::parse_with(trimmed, spec).has_scheme()
    {
        return Err(LinkError::NoBase);
    }
    #[cfg(feature = "whatwg")]
    if let (Spec::Whatwg, Some(encoding)) = (spec, query) {
        return whatwg_encoded(base, trimmed, encoding);
    }
    #[cfg(not(feature = "whatwg"))]
    let _ = query;
    match resolver.resolve(base.url().unwrap_or(""), trimmed) {
        Ok(r) if r.outcome.taken_as_absolute => Err(LinkError::NoBase),
        Ok(r) => Ok(r.href),
        Err(e) => Err(e.into()),
    }
}

/// The WHATWG basic URL parser with `encoding` for the query: the
/// Encoding Standard's "encode or fail", through `encoding_rs`.
#[cfg(feature = "whatwg")]
fn whatwg_encoded(
    base: &Base,
    reference: &str,
    encoding: &'static Encoding,
) -> Result<String, LinkError> {
    use encoding_rs::EncoderResult;
    use urlspec::whatwg::Url;
    let encode = |text: &str, out: &mut Vec<u8>| {
        let mut encoder = encoding.new_encoder();
        let mut read = 0;
        loop {
            let need = encoder
                .max_buffer_length_from_utf8_without_replacement(
                    text.len() - read,
                )
                .unwrap_or(usize::MAX / 2);
            out.reserve(need.max(16));
            let (result, n) = encoder
                .encode_from_utf8_to_vec_without_replacement(
                    &text[read..],
                    out,
                    true,
                );
            read += n;
            match result {
                EncoderResult::InputEmpty => return None,
                EncoderResult::Unmappable(c) => return Some((c, read)),
                EncoderResult::OutputFull => {}
            }
        }
    };
    let base = base.url().map(Url::parse).transpose().map_err(|mut f| {
        f.in_base = true;
        LinkError::Whatwg(f)
    })?;
    Url::options()
        .base(base.as_ref())
        .encoding(Some(&encode))
        .parse(reference)
        .map(|url| url.as_str().to_owned())
        .map_err(LinkError::Whatwg)
}

/// Counts over a run, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Documents read.
    pub documents: usize,
    /// Links found.
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
}

impl Summary {
    /// Adds a document to the counts.
    pub fn add(&mut self, doc: &Document) {
        let unresolved = self.add_links(&doc.links);
        self.add_document(doc, unresolved > 0);
    }

    /// Adds a batch of a document's links to the counts (a streamed
    /// document's): the number of them unresolved.
    pub fn add_links(&mut self, links: &[Link]) -> usize {
        let unresolved = links.iter().filter(|l| l.url.is_err()).count();
        self.links += links.len();
        self.unresolved += unresolved;
        unresolved
    }

    /// Adds a document whose links are counted already, `unresolved`
    /// telling whether any of them was.
    pub fn add_document(&mut self, doc: &Document, unresolved: bool) {
        self.documents += 1;
        self.too_long += doc.too_long.len();
        *self.by_base_source.entry(doc.base.source().layer()).or_default() +=
            1;
        if let Some(h) = &doc.unread_base_header {
            if unresolved {
                let entry = self
                    .unread_base_headers
                    .entry(h.name.clone())
                    .or_insert((0, h.spec));
                entry.0 += 1;
            }
        }
    }
}

/// The crate's README (its crates.io page), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
