//! Links in HTML: every URL-valued attribute a crawler or archivist needs,
//! the URLs of style sheets, and the `BASE` element (RFC 1808 §10, RFC 2396
//! App. D: "a BASE element in HEAD supplies the base through its HREF
//! attribute").
//!
//! The page is decoded as a browser decodes it ([`encoding`]) and
//! tokenised by the HTML Standard's tokenizer ([`tokenizer`]), which
//! reports where each attribute value starts in the input, with the tree
//! facts a streaming reader can follow beside it (`pass`); values are
//! entity-decoded as HTML requires before any URL processing. `lol_html`
//! reads pages the same way as a reference ([`Engine::Reference`]), for
//! the differential test that compares the two. The base is the first HTML `<base href>` of the
//! document tree, wherever it stands (as browsers do; the seeds put it in
//! `HEAD`): not one inside `<template>` contents, nor one in SVG or MathML
//! (another namespace). `<noscript>` is read as the HTML parser reads it
//! with scripting disabled, as a crawler runs no scripts: its links are
//! reported (and marked, [`Within::Noscript`]), and a `<base>` in it counts.

pub mod css;
mod elements;
pub mod encoding;
pub mod entities;
mod pass;
mod reference;
pub mod stream;
pub mod tokenizer;
mod tree;

use std::borrow::Cow;
use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;

use encoding_rs::{Encoding, UTF_8};
use urlspec::base::Base;
use urlspec_bytes::scan::first_of;

use crate::resolver::LinkResolver;
use crate::slice::offset_in;
use crate::{Context, Document, Link, Problem, Within};

/// The HTML namespace, as `lol_html` names an element's.
const HTML_NS: &str = "http://www.w3.org/1999/xhtml";
/// The SVG namespace.
const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// How deep `<noscript>` inside `<noscript>` is read.
const MAX_NOSCRIPT_DEPTH: usize = 4;

/// The most `<template>` elements open at once: each holds a handler for
/// its end tag, which lol_html does not count against its memory cap
/// (about 150 bytes each). A page that opens more stops there.
pub(crate) const MAX_OPEN_TEMPLATES: usize = 4096;

/// How an attribute holds URLs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// The whole value is one reference.
    Url,
    /// An image candidate list (`srcset`): each candidate's URL.
    Srcset,
    /// Space-separated URLs (`ping`).
    Urls,
    /// `meta`'s `content`: the URL after `url=` of `http-equiv=refresh`, or
    /// the whole value of an Open Graph `property`.
    Meta,
    /// A form's action (`action`, `formaction`): one reference, and under
    /// the URL Standard the document's URL when it is empty (HTML's form
    /// submission algorithm, step "If action is the empty string").
    Action,
}

/// Every (element, attribute) of the HTML namespace that holds a URL.
const URL_ATTRIBUTES: &[(&str, &str, Holds)] = &[
    ("a", "href", Holds::Url),
    ("a", "ping", Holds::Urls),
    ("area", "href", Holds::Url),
    ("area", "ping", Holds::Urls),
    ("link", "href", Holds::Url),
    ("base", "href", Holds::Url),
    ("img", "src", Holds::Url),
    ("script", "src", Holds::Url),
    ("iframe", "src", Holds::Url),
    ("frame", "src", Holds::Url),
    ("embed", "src", Holds::Url),
    ("source", "src", Holds::Url),
    ("audio", "src", Holds::Url),
    ("video", "src", Holds::Url),
    ("track", "src", Holds::Url),
    ("input", "src", Holds::Url),
    ("img", "srcset", Holds::Srcset),
    ("source", "srcset", Holds::Srcset),
    ("form", "action", Holds::Action),
    ("button", "formaction", Holds::Action),
    ("input", "formaction", Holds::Action),
    ("blockquote", "cite", Holds::Url),
    ("q", "cite", Holds::Url),
    ("del", "cite", Holds::Url),
    ("ins", "cite", Holds::Url),
    ("object", "data", Holds::Url),
    ("video", "poster", Holds::Url),
    ("body", "background", Holds::Url),
    ("table", "background", Holds::Url),
    ("td", "background", Holds::Url),
    ("meta", "content", Holds::Meta),
];

/// Every (element, attribute) of the SVG namespace that holds a URL.
/// (Both tables stay under 32 entries: `collect` keeps a bit for each.)
const SVG_ATTRIBUTES: &[(&str, &str)] = &[
    ("a", "href"),
    ("a", "xlink:href"),
    ("image", "href"),
    ("image", "xlink:href"),
    ("use", "href"),
    ("use", "xlink:href"),
    ("script", "href"),
    ("script", "xlink:href"),
];

const _: () =
    assert!(URL_ATTRIBUTES.len() <= 32 && SVG_ATTRIBUTES.len() <= 31);

/// The entries of [`URL_ATTRIBUTES`] (bit k) and [`SVG_ATTRIBUTES`] (bit
/// 32 + k) by [`element_key`] of their element: a tag's name is compared
/// with the few entries of its key instead of every entry (a walk of both
/// tables was 3 % of a real archive's reading).
const BY_ELEMENT: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut k = 0;
    while k < URL_ATTRIBUTES.len() {
        table[element_key(URL_ATTRIBUTES[k].0.as_bytes())] |= 1 << k;
        k += 1;
    }
    let mut k = 0;
    while k < SVG_ATTRIBUTES.len() {
        table[element_key(SVG_ATTRIBUTES[k].0.as_bytes())] |= 1 << (32 + k);
        k += 1;
    }
    table
};

/// A non-empty element name's entry in [`BY_ELEMENT`]: the low five bits
/// of its first byte and its length (15 for any longer).
const fn element_key(name: &[u8]) -> usize {
    let len = if name.len() < 15 { name.len() } else { 15 };
    ((name[0] & 0x1f) as usize) << 4 | len
}

/// The entries of the tables, among `mask`'s bits, whose element is
/// `tag`.
fn entries_of(tag: &[u8], mask: u64) -> u64 {
    if tag.is_empty() {
        return 0;
    }
    let mut bits = BY_ELEMENT[element_key(tag)] & mask;
    let mut of = 0;
    while bits != 0 {
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if same_name(element_of(bit).as_bytes(), tag) {
            of |= 1 << bit;
        }
    }
    of
}

/// Whether two element names are the same, compared byte by byte in
/// place: names are a few bytes, for which a call to `memcmp` costs
/// more than the comparison.
#[inline]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The element of the tables' entry `bit` (as [`BY_ELEMENT`] numbers
/// them).
fn element_of(bit: usize) -> &'static str {
    if bit < 32 {
        URL_ATTRIBUTES[bit].0
    } else {
        SVG_ATTRIBUTES[bit - 32].0
    }
}

/// The bits of [`URL_ATTRIBUTES`]' entries in [`BY_ELEMENT`].
const HTML_ENTRIES: u64 = u32::MAX as u64;

/// The Open Graph properties whose `content` is a URL.
const OPEN_GRAPH: &[&str] = &["og:url", "og:image", "og:video", "og:audio"];

/// The CSS selector list matching every element of [`URL_ATTRIBUTES`] and
/// [`SVG_ATTRIBUTES`].
const SELECTOR: &str = "a, area, link, base, img, script, iframe, frame, embed, source, \
                        audio, video, track, input, form, button, blockquote, q, del, ins, \
                        object, body, table, td, meta, image, use";

/// [`SELECTOR`] and any element with a `style` attribute.
const SELECTOR_STYLE: &str = "a, area, link, base, img, script, iframe, frame, embed, source, \
                        audio, video, track, input, form, button, blockquote, q, del, ins, \
                        object, body, table, td, meta, image, use, [style]";

/// The charset a page arrived with, from its container.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset<'a> {
    /// Nothing said: the page's bytes are sniffed.
    #[default]
    Unknown,
    /// The `charset` of the HTTP `Content-Type` (a WARC response), or of
    /// a MIME part's.
    Transport(&'a str),
    /// The bytes are UTF-8 already, decoded from this charset by the
    /// caller.
    Decoded(&'a str),
}

/// A reference as found, before a base is known.
struct Raw {
    element: Cow<'static, str>,
    attribute: &'static str,
    reference: String,
    offset: usize,
    within: Option<Within>,
    /// A `style` attribute's URL or an `@import`: its query is UTF-8
    /// whatever the page's encoding (measured in Chromium:
    /// crates/urlspec-cli/tests/it/links_browser.rs).
    utf8_query: bool,
    /// Under the URL Standard, resolved against the base the document
    /// has before its `<base>` ([`Against`]).
    against: Against,
}

/// What a link is resolved against under [`urlspec::Spec::Whatwg`]
/// (HTML's processing models; the other specs resolve every link of a
/// document against its base: docs/readings.md#html-insertion-base).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Against {
    /// The document's base URL.
    #[default]
    Base,
    /// The base from outside the document, its `<base>` aside: a meta
    /// refresh before any `<base>` (resolved when the `<meta>` is
    /// inserted, against the base then) and an empty form action (the
    /// document's URL).
    Outer,
}

/// What one pass of the tokenizer found.
#[derive(Default)]
struct Found {
    /// The references, in document order.
    links: Vec<Raw>,
    /// Each `<base href>` of the document tree, in document order: its
    /// offset and value.
    bases: Vec<(usize, String)>,
    /// The offsets of the references longer than
    /// [`stream::MAX_REFERENCE`], left out.
    too_long: Vec<usize>,
    /// The first `<meta>` that declares an encoding: its offset and
    /// encoding.
    declared: Option<(usize, &'static Encoding)>,
}

impl Found {
    /// Keeps `raw`, unless it is too long to be a reference.
    fn push(&mut self, raw: Raw) {
        keep(&mut self.links, &mut self.too_long, raw);
    }

    /// Takes back what was found from byte `from` on (a body a
    /// `<frameset>` took the place of).
    fn take_back(&mut self, from: usize) {
        self.links.retain(|l| l.offset < from);
        self.bases.retain(|&(at, _)| at < from);
        self.too_long.retain(|&at| at < from);
    }

    /// Hands the links found on to `emit`, unless they are `tentative`
    /// (a `<frameset>` may take them back) and fewer than [`MAX_HELD`].
    fn hand_on(
        &mut self,
        tentative: bool,
        emit: &mut dyn FnMut(&mut Found) -> Flow,
    ) -> Flow {
        if tentative && self.links.len() < MAX_HELD {
            return Flow::Go;
        }
        emit(self)
    }
}

/// The most links of a streamed page held while a `<frameset>` may take
/// them back: past it they are handed on
/// (docs/readings.md#html-frameset-body).
const MAX_HELD: usize = 1 << 16;

/// Adds `raw` to `links`, or its offset to `too_long` when it is longer
/// than [`stream::MAX_REFERENCE`].
fn keep(links: &mut Vec<Raw>, too_long: &mut Vec<usize>, raw: Raw) {
    if raw.reference.len() > stream::MAX_REFERENCE {
        too_long.push(raw.offset);
    } else {
        links.push(raw);
    }
}

/// The handlers a page needs beyond the links': found by a look at its
/// bytes for `style`, `<noscript`, `<template`, `<frameset` and `<form`
/// (any case).
struct Needs {
    style: bool,
    noscript: bool,
    template: bool,
    frameset: bool,
    form: bool,
}

impl Needs {
    fn of(bytes: &[u8]) -> Needs {
        // `<style`, or a `style` attribute (after a space, a quote or a
        // slash, before `=`), found by its rare `y`.
        let style = memchr::memchr2_iter(b'y', b'Y', bytes).any(|i| {
            let Some(word) =
                i.checked_sub(2).and_then(|p| bytes.get(p..i + 3))
            else {
                return false;
            };
            if !word.eq_ignore_ascii_case(b"style") || i < 3 {
                return false;
            }
            let before = bytes[i - 3];
            let after =
                bytes[i + 3..].iter().find(|c| !c.is_ascii_whitespace());
            before == b'<'
                || (matches!(before, b'"' | b'\'' | b'/')
                    || before.is_ascii_whitespace())
                    && after == Some(&b'=')
        });
        let (mut noscript, mut template, mut frameset, mut form) =
            (false, false, false, false);
        for i in memchr::memchr_iter(b'<', bytes) {
            let name = |n: &[u8]| {
                bytes
                    .get(i + 1..i + 1 + n.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(n))
            };
            noscript |= name(b"noscript");
            template |= name(b"template");
            frameset |= name(b"frameset");
            form |= name(b"form");
            if noscript && template && frameset && form {
                break;
            }
        }
        Needs { style, noscript, template, frameset, form }
    }

    /// The raw text elements to follow.
    fn raw_text_selector(&self) -> &'static str {
        match (self.style, self.noscript) {
            (true, true) => "noscript, style",
            (true, false) => "style",
            _ => "noscript",
        }
    }
}

/// Reads the links of an HTML document. `outer` is the base the document
/// gets from outside (its headers, its container, its retrieval URL); an
/// embedded `<base href>` overrides it. [`document_in`] with a charset
/// from the page's container.
#[must_use]
pub fn document(
    html: &[u8],
    name: &str,
    outer: &Base,
    ctx: &Context,
) -> Document {
    document_in(html, Charset::Unknown, name, outer, ctx)
}

/// [`document`] for a page that came with `charset`.
///
#[cfg_attr(feature = "whatwg", doc = "```")]
#[cfg_attr(not(feature = "whatwg"), doc = "```ignore")]
/// use urlspec::Spec;
/// use urlspec_links::{html::{self, Charset}, Context};
/// let ctx = Context::new(Spec::Whatwg);
/// let base = ctx.establish().retrieval(&["http://h/"]);
/// let page = b"<a href='caf\xe9.html?q=\xe9'>";
/// let doc = html::document_in(page, Charset::Unknown, "p", &base, &ctx);
/// assert_eq!(doc.encoding.unwrap().name(), "windows-1252");
/// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/caf%C3%A9.html?q=%E9"));
/// let doc = html::document_in(page, Charset::Transport("iso-8859-7"), "p", &base, &ctx);
/// assert_eq!(doc.encoding.unwrap().name(), "ISO-8859-7");
/// ```
#[must_use]
pub fn document_in(
    html: &[u8],
    charset: Charset<'_>,
    name: &str,
    outer: &Base,
    ctx: &Context,
) -> Document {
    let (mut encoding, decoded, tentative) = page_encoding(html, charset, ctx);
    let (mut found, mut problems) = tokenize(html, encoding, decoded);
    // A tentative encoding gives way to the first <meta> the tree builder
    // meets that declares another, wherever it stands: the page is read
    // again in that one (HTML's "change the encoding").
    if let Some(new) = changed(&found, encoding, tentative) {
        encoding = new;
        (found, problems) = tokenize(html, encoding, decoded);
    }
    let mut doc = based(&found, name, outer, ctx, encoding);
    let mut links = Links::new(ctx, outer);
    doc.links.reserve(found.links.len());
    let mut raws = std::mem::take(&mut found.links);
    for raw in raws.drain(..) {
        links.push(&mut doc, raw);
    }
    if raws.capacity() <= SPARE_RAWS {
        SPARE.set(raws);
    }
    doc.too_long = found.too_long;
    doc.problems.extend(problems);
    doc
}

/// The encoding a page read as `encoding` changes to (HTML's "change the
/// encoding"): the one its first declaring `<meta>` names, when
/// `encoding` was `tentative` and that one differs.
fn changed(
    found: &Found,
    encoding: &'static Encoding,
    tentative: bool,
) -> Option<&'static Encoding> {
    let (_, declared) = found.declared.filter(|_| tentative)?;
    encoding::change(encoding, declared)
}

/// What the tokenizer finds in `html` read as `encoding` (`decoded`: the
/// bytes are UTF-8 already), and the problems it meets.
fn tokenize(
    html: &[u8],
    encoding: &'static Encoding,
    decoded: bool,
) -> (Found, Vec<Problem>) {
    let bom = if decoded {
        0
    } else {
        Encoding::for_bom(html).map_or(0, |(_, len)| len)
    };
    // lol_html reads ASCII-compatible encodings itself; the others (UTF-16,
    // ISO-2022-JP, replacement) are decoded first, and their offsets are
    // then those of the UTF-8 text.
    let tokenized = if decoded { UTF_8 } else { encoding };
    let (bytes, tokenized) = if tokenized.is_ascii_compatible() {
        (Cow::Borrowed(&html[bom..]), tokenized)
    } else {
        let (text, _) = encoding.decode_without_bom_handling(&html[bom..]);
        (Cow::Owned(text.into_owned().into_bytes()), UTF_8)
    };
    let mut problems = Vec::new();
    let source = Source::Bytes(&bytes);
    let found =
        page_pass(&source, tokenized, bom, &mut problems, &mut |_| Flow::Go);
    (found, problems)
}

/// A pass over a whole page in `source`, which starts at `shift`.
fn page_pass(
    source: &Source<'_>,
    tokenized: &'static Encoding,
    shift: usize,
    problems: &mut Vec<Problem>,
    emit: &mut dyn FnMut(&mut Found) -> Flow,
) -> Found {
    let mut found = Found { links: SPARE.take(), ..Found::default() };
    scan(source, tokenized, shift, None, 0, &mut found, problems, emit);
    found
}

thread_local! {
    /// The buffer of a page's references, kept for the next page read on
    /// this thread: grown afresh for each page, it cost 0.4 % of the real
    /// archives' instructions.
    static SPARE: Cell<Vec<Raw>> = const { Cell::new(Vec::new()) };
}

/// The most references a kept buffer has room for (a few hundred KB).
const SPARE_RAWS: usize = 4096;

/// The document `name`, in `encoding`, with the base `found` gives: the
/// first `<base href>` of the document tree, else `outer` (or the given
/// base over both).
fn based(
    found: &Found,
    name: &str,
    outer: &Base,
    ctx: &Context,
    encoding: &'static Encoding,
) -> Document {
    let mut doc = ctx.document(name, || match found.bases.first() {
        Some((_, href)) => ctx.establish().embedded(outer, href),
        None => outer.clone(),
    });
    doc.encoding = Some(encoding);
    doc
}

/// The encoding of a page that came with `charset`, sniffed from its
/// first bytes (`head`), whether its bytes are UTF-8 already, and whether
/// the encoding is tentative (a `<meta>` may change it).
fn page_encoding(
    head: &[u8],
    charset: Charset<'_>,
    ctx: &Context,
) -> (&'static Encoding, bool, bool) {
    let transport = match charset {
        Charset::Decoded(label) => {
            let e = Encoding::for_label(label.trim().as_bytes());
            return (e.unwrap_or(UTF_8), true, false);
        }
        Charset::Transport(label) => Some(label),
        Charset::Unknown => None,
    };
    let (e, source) = encoding::sniff(head, transport, ctx.encoding);
    (e, false, source.is_tentative())
}

/// Resolves the references a pass finds into a document's links, with one
/// resolver for the page (the base is prepared once while it repeats).
struct Links<'c> {
    ctx: &'c Context,
    /// What a `<base href>` (and, under the URL Standard, a link resolved
    /// before the page's base) is resolved against: the base outside the
    /// page, unless a base is given for every link.
    outer: Option<&'c Base>,
    resolver: LinkResolver,
}

impl<'c> Links<'c> {
    fn new(ctx: &'c Context, outer: &'c Base) -> Links<'c> {
        let outer = ctx.given.is_none().then_some(outer);
        Links { ctx, outer, resolver: LinkResolver::new(ctx) }
    }

    /// Resolves `raw` and adds it to `doc`, unless its context is
    /// excluded.
    fn push(&mut self, doc: &mut Document, raw: Raw) {
        if raw.within.is_some_and(|w| self.ctx.exclude.contains(&w)) {
            return;
        }
        // A `<base href>` is itself resolved against the base it falls back
        // to (HTML's "fallback base URL"), not against itself.
        let outer = raw.element == "base"
            || raw.against == Against::Outer
                && self.ctx.spec == urlspec::Spec::Whatwg;
        let against = match self.outer {
            Some(base) if outer => base,
            _ => &doc.base,
        };
        let query_encoding =
            if raw.utf8_query { None } else { doc.query_encoding() };
        let url =
            self.resolver.resolve(against, &raw.reference, query_encoding);
        let host_split = self.ctx.host_split(&url);
        doc.push_resolved(Link {
            element: raw.element,
            attribute: Cow::Borrowed(raw.attribute),
            reference: raw.reference,
            offset: raw.offset,
            url,
            within: raw.within,
            query_encoding,
            host_split,
        });
    }
}

/// Where a pass reads the page: from memory, or from a file, read in
/// chunks and at the ranges of raw text elements.
enum Source<'a> {
    Bytes(&'a [u8]),
    File(&'a File),
}

/// Whether a pass goes on after the links found so far.
#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

impl Source<'_> {
    /// The bytes at `range` of the source.
    fn range(&self, range: Range<usize>) -> io::Result<Cow<'_, [u8]>> {
        match self {
            Source::Bytes(b) => b
                .get(range)
                .map(Cow::Borrowed)
                .ok_or_else(|| io::ErrorKind::UnexpectedEof.into()),
            Source::File(f) => {
                let mut f: &File = f;
                let mut buf = vec![0; range.len()];
                f.seek(SeekFrom::Start(range.start as u64))?;
                f.read_exact(&mut buf)?;
                Ok(Cow::Owned(buf))
            }
        }
    }
}

/// Which reading of a page's markup [`document`] and [`stream`] use.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The project's tokenizer ([`tokenizer`]), with the tree facts of
    /// [`scan`]: the default.
    Tokenizer,
    /// `lol_html`: the reference the differential test compares the
    /// default with.
    Reference,
}

thread_local! {
    static ENGINE: Cell<Option<Engine>> = const { Cell::new(None) };
}

/// The reading of this thread: the one [`with_engine`] set, else
/// `URLSPEC_HTML_ENGINE=reference` in the environment (read once), else
/// [`Engine::Tokenizer`].
fn engine() -> Engine {
    static FROM_ENV: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    ENGINE.with(Cell::get).unwrap_or_else(|| {
        *FROM_ENV.get_or_init(|| {
            match std::env::var("URLSPEC_HTML_ENGINE").as_deref() {
                Ok("reference") => Engine::Reference,
                _ => Engine::Tokenizer,
            }
        })
    })
}

/// Runs `f` with pages read by `engine` on this thread.
#[doc(hidden)]
pub fn with_engine<T>(engine: Engine, f: impl FnOnce() -> T) -> T {
    let before = ENGINE.with(|e| e.replace(Some(engine)));
    let out = f();
    ENGINE.with(|e| e.set(before));
    out
}

/// One pass over `source` (at `shift` in the document), everything in it
/// `within` that context. Links reach `found` in document order: the
/// contents of a `<style>` or `<noscript>` are read when the next element
/// starts (raw text holds no element). `emit` is handed them after each
/// chunk of a file.
#[allow(clippy::too_many_arguments)]
fn scan(
    source: &Source<'_>,
    encoding: &'static Encoding,
    shift: usize,
    within: Option<Within>,
    depth: usize,
    found: &mut Found,
    problems: &mut Vec<Problem>,
    emit: &mut dyn FnMut(&mut Found) -> Flow,
) {
    let scan = match engine() {
        Engine::Tokenizer => pass::scan,
        Engine::Reference => reference::scan,
    };
    scan(source, encoding, shift, within, depth, found, problems, emit);
}

/// The state of a pass that its handlers share.
struct Pass {
    found: Found,
    problems: Vec<Problem>,
    /// The raw text element read last, until the next element.
    pending: Option<RawText>,
}

/// A `<style>` or `<noscript>` and the range of its text.
struct RawText {
    range: Range<usize>,
    within: Option<Within>,
    style: bool,
}

impl Pass {
    /// Reads the links of the pending raw text element: a style sheet's,
    /// decoded as the page is, or those of `<noscript>` contents as the
    /// parser without scripting reads them.
    fn flush(
        &mut self,
        source: &Source<'_>,
        encoding: &'static Encoding,
        shift: usize,
        depth: usize,
    ) {
        let Some(RawText { range, within, style }) = self.pending.take()
        else {
            return;
        };
        if !style && depth >= MAX_NOSCRIPT_DEPTH {
            return;
        }
        if matches!(source, Source::File(_))
            && range.len() > stream::MAX_RAW_TEXT
        {
            let name = if style { "style" } else { "noscript" };
            self.problems.push(Problem::RawTextTooLong {
                element: name,
                offset: range.start,
                len: range.len(),
            });
            return;
        }
        let raw = match source.range(range.start - shift..range.end - shift) {
            Ok(raw) => raw,
            Err(e) => {
                self.problems.push(Problem::SpoolRead(e.into()));
                return;
            }
        };
        if style {
            let (css, _) = encoding.decode_without_bom_handling(&raw);
            let exact = css.len() == raw.len();
            for (kind, at, url) in css::urls(&css) {
                self.found.push(Raw {
                    element: Cow::Borrowed("style"),
                    attribute: kind.name(),
                    reference: url,
                    offset: range.start + if exact { at } else { 0 },
                    within,
                    // Measured in Chromium: a <style>'s url() in the page's
                    // encoding, its @import in UTF-8.
                    utf8_query: kind == css::Kind::Import,
                    against: Against::Base,
                });
            }
        } else {
            let inner = within.or(Some(Within::Noscript));
            scan(
                &Source::Bytes(&raw),
                encoding,
                range.start,
                inner,
                depth + 1,
                &mut self.found,
                &mut self.problems,
                &mut |_| Flow::Go,
            );
        }
    }
}

/// A start tag as [`collect`] reads it, from either tokenizer: names
/// ASCII lowercased, values decoded from the page's encoding as written
/// (character references and newlines as in the page), offsets in the
/// document.
pub(super) trait StartTag {
    /// The element's name.
    fn name(&self) -> &[u8];
    /// The element's name as a string, for a link of an element outside
    /// the tables.
    fn owned_name(&self) -> String;
    /// Whether the element is of the HTML namespace.
    fn html(&self) -> bool;
    /// Whether the element is of the SVG namespace.
    fn svg(&self) -> bool;
    /// The offset of its `<`.
    fn offset(&self) -> usize;
    /// The number of its attributes.
    fn len(&self) -> usize;
    /// The name of attribute `i`.
    fn attribute_name(&self, i: usize) -> Cow<'_, [u8]>;
    /// The value of attribute `i`, and where it starts (none when it has
    /// no value).
    fn attribute_value(&self, i: usize) -> (Cow<'_, str>, Option<usize>);
    /// The value of its first attribute `name` (lowercase).
    fn attribute(&self, name: &str) -> Option<Cow<'_, str>>;
}

/// The message of a pass stopped at [`MAX_OPEN_TEMPLATES`].
fn too_many_templates() -> String {
    format!("more than {MAX_OPEN_TEMPLATES} <template> elements open")
}

/// The problem of a pass whose parser used up its `cap` of memory in
/// bytes `at..end`.
fn out_of_memory(cap: usize, at: usize, end: usize) -> Problem {
    Problem::HtmlStopped(format!(
        "the parser's {} KiB of memory (elements left open, or a tag) used \
         up in bytes {at}..{end}",
        cap >> 10
    ))
}

/// The links of the start tag `el`, `within` a context, into `found`.
fn collect(el: &impl StartTag, within: Option<Within>, found: &mut Found) {
    let tag = el.name();
    let tag_offset = el.offset();
    let (html, svg) = (el.html(), el.svg());
    if tag == b"meta" && html {
        let attribute = |name| {
            el.attribute(name)
                .map(|v| entities::decode_attribute(&v).into_owned())
        };
        let declared = encoding::declared(
            attribute("charset").as_deref(),
            attribute("http-equiv").as_deref(),
            attribute("content").as_deref(),
        );
        if let Some(e) = declared {
            if found.declared.is_none_or(|(at, _)| tag_offset < at) {
                found.declared = Some((tag_offset, e));
            }
        }
    }
    // The tokenizer keeps the first of repeated attributes: one bit per
    // entry of the tables (HTML's from 0, SVG's from 32, style 63) says
    // it was seen, which keeps a tag of many attributes linear.
    let mut seen = 0u64;
    // The table entries of this element, found once: bit k for HTML's
    // entry k, 32 + k for SVG's.
    let candidates = if html {
        entries_of(tag, HTML_ENTRIES)
    } else if svg {
        entries_of(tag, !HTML_ENTRIES)
    } else {
        0
    };
    for i in 0..el.len() {
        let name = el.attribute_name(i);
        let name = &*name;
        let mut bits = candidates;
        let mut entry = None;
        if name == b"style" {
            entry = Some((63, ("", "style", None)));
        }
        while entry.is_none() && bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            entry = if bit < 32 {
                let (e, a, h) = URL_ATTRIBUTES[bit];
                same_name(a.as_bytes(), name).then_some((bit, (e, a, Some(h))))
            } else {
                let (e, a) = SVG_ATTRIBUTES[bit - 32];
                same_name(a.as_bytes(), name)
                    .then_some((bit, (e, a, Some(Holds::Url))))
            };
        }
        let Some((bit, entry)) = entry else { continue };
        if seen & (1 << bit) != 0 {
            continue;
        }
        seen |= 1 << bit;
        let (element, attribute, holds) = entry;
        let (raw, start) = el.attribute_value(i);
        let start = start.unwrap_or(tag_offset);
        // The input stream's newlines normalised (HTML §13.2.3.5), before
        // character references are (`&#13;` stays a CR); most values hold
        // neither, found in one scan.
        let plain = first_of(raw.as_bytes(), 0, [b'\r', b'&']) == raw.len();
        let normalized;
        let value = if plain {
            Cow::Borrowed(&*raw)
        } else {
            normalized = normalize_newlines(&raw);
            entities::decode_attribute(&normalized)
        };
        // Offsets inside the value are exact when neither changed it.
        let exact = value.len() == raw.len();
        let at = |i: usize| if exact { start + i } else { start };
        let bases_before = found.bases.len();
        let mut push = |element: Cow<'static, str>,
                        reference: &str,
                        offset: usize,
                        utf8_query: bool,
                        against: Against| {
            let raw = Raw {
                element,
                attribute,
                reference: reference.into(),
                offset,
                within,
                utf8_query,
                against,
            };
            keep(&mut found.links, &mut found.too_long, raw);
        };
        match holds {
            None => {
                // A style attribute, of any element: its name borrowed
                // from the tables when they have it.
                let name = match entries_of(tag, u64::MAX) {
                    0 => Cow::Owned(el.owned_name()),
                    of => {
                        Cow::Borrowed(element_of(of.trailing_zeros() as usize))
                    }
                };
                for (_, i, url) in css::urls(&value) {
                    push(name.clone(), &url, at(i), true, Against::Base);
                }
            }
            Some(Holds::Url) => {
                if element == "base" && within != Some(Within::Template) {
                    found.bases.push((start, value.to_string()));
                }
                push(
                    Cow::Borrowed(element),
                    &value,
                    start,
                    false,
                    Against::Base,
                );
            }
            Some(Holds::Action) => {
                let against = if value.is_empty() {
                    Against::Outer
                } else {
                    Against::Base
                };
                push(Cow::Borrowed(element), &value, start, false, against);
            }
            Some(Holds::Srcset) => {
                for (i, url) in srcset(&value) {
                    push(
                        Cow::Borrowed(element),
                        url,
                        at(i),
                        false,
                        Against::Base,
                    );
                }
            }
            Some(Holds::Urls) => {
                for (i, url) in split_ascii_whitespace(&value) {
                    push(
                        Cow::Borrowed(element),
                        url,
                        at(i),
                        false,
                        Against::Base,
                    );
                }
            }
            Some(Holds::Meta) => {
                let refresh = el
                    .attribute("http-equiv")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
                let graph = el.attribute("property").is_some_and(|p| {
                    OPEN_GRAPH.iter().any(|g| p.trim().eq_ignore_ascii_case(g))
                });
                if refresh {
                    // Resolved when the <meta> is inserted: against the
                    // base of a <base> before it, else the one from
                    // outside.
                    let against = if bases_before > 0 {
                        Against::Base
                    } else {
                        Against::Outer
                    };
                    if let Some((i, url)) = refresh_url(&value) {
                        push(
                            Cow::Borrowed(element),
                            url,
                            at(i),
                            false,
                            against,
                        );
                    }
                } else if graph {
                    push(
                        Cow::Borrowed(element),
                        &value,
                        start,
                        false,
                        Against::Base,
                    );
                }
            }
        }
    }
}

/// `value` with each CR LF and each CR alone made a LF, as HTML's input
/// stream preprocessing makes them before tokenising.
fn normalize_newlines(value: &str) -> Cow<'_, str> {
    // memchr's search: 2.6 M instructions fewer than `str::contains` on
    // the real archives' values, which mostly hold no CR.
    if memchr::memchr(b'\r', value.as_bytes()).is_none() {
        return Cow::Borrowed(value);
    }
    Cow::Owned(value.replace("\r\n", "\n").replace('\r', "\n"))
}

/// The space-separated tokens of `value`, with their offsets.
fn split_ascii_whitespace(value: &str) -> impl Iterator<Item = (usize, &str)> {
    value
        .split(|c: char| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(move |t| (offset_in(value.as_bytes(), t.as_bytes()), t))
}

/// The URLs of an image candidate list, with their offsets, as the HTML
/// standard's "parse a srcset attribute" reads it: a URL is a run of
/// non-whitespace; trailing commas end a candidate; descriptors run to the
/// next comma outside parentheses (only `)` leaves them); a candidate
/// whose descriptors are not valid is dropped ([`srcset_descriptors`];
/// docs/readings.md#srcset).
///
/// ```
/// use urlspec_links::html::srcset;
/// let got: Vec<_> = srcset("a.png 1x, b.png 2x,c.png").collect();
/// assert_eq!(got, [(0, "a.png"), (10, "b.png"), (19, "c.png")]);
/// assert_eq!(srcset("data:x,y 1x").next(), Some((0, "data:x,y")));
/// // Invalid descriptors drop their candidate; `(` does not nest.
/// assert_eq!(srcset("a.png foo, b.png 1x 1x, c.png 100w").collect::<Vec<_>>(), [(24, "c.png")]);
/// assert_eq!(srcset("a.png ((( , b.png 1x, ), c.png").collect::<Vec<_>>(), [(25, "c.png")]);
/// ```
pub fn srcset(value: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = value.as_bytes();
    let mut i = 0;
    // One list of descriptor ranges, emptied for each candidate.
    let mut descriptors = Vec::new();
    std::iter::from_fn(move || loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut end = i;
        descriptors.clear();
        if b[end - 1] == b',' {
            while end > start && b[end - 1] == b',' {
                end -= 1;
            }
        } else {
            i = tokenize_descriptors(b, i, &mut descriptors);
        }
        if srcset_descriptors(descriptors.iter().map(|d| &value[d.clone()])) {
            return Some((start, &value[start..end]));
        }
    })
}

/// The descriptor tokenizer of "parse a srcset attribute": the
/// descriptors from byte `i` of `b` on (their ranges, into `out`), and
/// where the next candidate starts.
fn tokenize_descriptors(
    b: &[u8],
    mut i: usize,
    out: &mut Vec<Range<usize>>,
) -> usize {
    #[derive(PartialEq)]
    enum State {
        InDescriptor,
        InParens,
        AfterDescriptor,
    }
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let mut state = State::InDescriptor;
    let mut current = i..i;
    loop {
        let c = b.get(i).copied();
        match state {
            State::InDescriptor => match c {
                Some(c) if c.is_ascii_whitespace() => {
                    if !current.is_empty() {
                        out.push(current.clone());
                    }
                    state = State::AfterDescriptor;
                }
                Some(b',') => {
                    if !current.is_empty() {
                        out.push(current);
                    }
                    return i + 1;
                }
                Some(b'(') => {
                    current.end = i + 1;
                    state = State::InParens;
                }
                None => {
                    if !current.is_empty() {
                        out.push(current);
                    }
                    return i;
                }
                Some(_) => current.end = i + 1,
            },
            State::InParens => match c {
                Some(b')') => {
                    current.end = i + 1;
                    state = State::InDescriptor;
                }
                None => {
                    out.push(current);
                    return i;
                }
                Some(_) => current.end = i + 1,
            },
            State::AfterDescriptor => match c {
                Some(c) if c.is_ascii_whitespace() => {}
                None => return i,
                Some(_) => {
                    state = State::InDescriptor;
                    current = i..i;
                    continue;
                }
            },
        }
        i += 1;
    }
}

/// Whether a candidate's descriptors are valid, as the descriptor parser
/// of "parse a srcset attribute" finds them: at most one width (`100w`,
/// a valid non-negative integer above 0) or density (`1.5x`, a valid
/// floating-point number, not below 0), and a future-compatible height
/// (`100h`) only beside a width.
///
/// ```
/// use urlspec_links::html::srcset_descriptors;
/// assert!(srcset_descriptors(["1.5x"]) && srcset_descriptors(["100w", "50h"]));
/// assert!(srcset_descriptors(Vec::<&str>::new()) && srcset_descriptors(["0x"]));
/// for bad in [&["foo"][..], &["1x", "1x"], &["0w"], &["-1x"], &["1h"], &["1X"], &["100w", "1x"]] {
///     assert!(!srcset_descriptors(bad.iter().copied()), "{bad:?}");
/// }
/// ```
pub fn srcset_descriptors<'d>(
    descriptors: impl IntoIterator<Item = &'d str>,
) -> bool {
    let (mut width, mut density, mut height) = (false, false, false);
    for d in descriptors {
        let unit_len = d.chars().next_back().map_or(0, char::len_utf8);
        let (number, unit) = d.split_at(d.len() - unit_len);
        let integer = !number.is_empty()
            && number.bytes().all(|c| c.is_ascii_digit())
            && number.bytes().any(|c| c != b'0');
        match unit {
            "w" if integer && !width && !density => width = true,
            "h" if integer && !height && !density => height = true,
            "x" if !width && !density && !height => {
                match valid_float(number) {
                    Some(x) if x >= 0.0 => density = true,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    !height || width
}

/// The value of a valid floating-point number (HTML §2.3.4.3: an optional
/// `-`, digits and/or `.` and digits, an optional exponent), when it is
/// one and finite.
fn valid_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > from
    };
    let whole = digits(&mut i);
    let fraction = if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return None;
        }
        true
    } else {
        false
    };
    if !whole && !fraction {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if !digits(&mut i) {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// The URL of a `meta http-equiv=refresh` content value (`5; url=x`), with
/// its offset, following the HTML standard's shared declarative refresh
/// steps.
///
/// ```
/// use urlspec_links::html::refresh_url;
/// assert_eq!(refresh_url("5; URL='next.html'"), Some((8, "next.html")));
/// assert_eq!(refresh_url("0;url=/x"), Some((6, "/x")));
/// assert_eq!(refresh_url("30"), None);
/// ```
#[must_use]
pub fn refresh_url(content: &str) -> Option<(usize, &str)> {
    let b = content.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    skip_ws(&mut i);
    if i < b.len() && (b[i] == b';' || b[i] == b',') {
        i += 1;
    }
    skip_ws(&mut i);
    if i >= b.len() {
        return None;
    }
    if b.len() - i >= 3 && b[i..i + 3].eq_ignore_ascii_case(b"url") {
        let mut j = i + 3;
        skip_ws(&mut j);
        if j < b.len() && b[j] == b'=' {
            i = j + 1;
            skip_ws(&mut i);
        }
    }
    let (start, end) = match b.get(i) {
        Some(&q @ (b'"' | b'\'')) => {
            let end = b[i + 1..]
                .iter()
                .position(|&c| c == q)
                .map_or(b.len(), |k| i + 1 + k);
            (i + 1, end)
        }
        _ => (i, b.len()),
    };
    let url = content[start..end].trim_end();
    (!url.is_empty()).then_some((start, url))
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    #[test]
    fn a_tags_entries_are_those_a_walk_of_the_tables_finds() {
        let elements = URL_ATTRIBUTES.iter().map(|&(e, _, _)| e);
        let elements = elements.chain(SVG_ATTRIBUTES.iter().map(|&(e, _)| e));
        let others = ["", "x", "b", "audios", "tr", "annotation-xml"];
        for tag in elements.chain(others) {
            let mut walked = 0u64;
            for (k, &(e, _, _)) in URL_ATTRIBUTES.iter().enumerate() {
                walked |= u64::from(e == tag) << k;
            }
            for (k, &(e, _)) in SVG_ATTRIBUTES.iter().enumerate() {
                walked |= u64::from(e == tag) << (32 + k);
            }
            assert_eq!(entries_of(tag.as_bytes(), u64::MAX), walked, "{tag}");
        }
    }

    #[test]
    fn names_are_the_same_only_byte_for_byte() {
        assert!(same_name(b"", b"") && same_name(b"a", b"a"));
        assert!(same_name(b"blockquote", b"blockquote"));
        for (a, b) in [("a", "ab"), ("ab", "a"), ("img", "ins"), ("a", "A")] {
            assert!(!same_name(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
    }

    #[test]
    fn every_attribute_and_offsets() {
        let page = r#"<html><head><base href="http://h/d/"></head><body background="bg.png">
<a href="a?x=1&amp;y=2">A</a><img src="i.png" srcset="s1.png 1x, s2.png 2x">
<form action="f"><button formaction="b">x</button><input type=image src="in.png"></form>
<q cite="c"></q><object data="o"></object><video poster="p" src="v"></video>
<meta http-equiv="Refresh" content="3; url=r.html"><meta name="x" content="not-a-url">
</body></html>"#;
        let ctx = Context::new(Spec::Rfc3986);
        let doc = document(page.as_bytes(), "t", &Base::none(), &ctx);
        let got: Vec<(&str, &str, &str)> = doc
            .links
            .iter()
            .map(|l| {
                (&*l.element, &*l.attribute, l.url.as_deref().unwrap_or("?"))
            })
            .collect();
        assert_eq!(
            got,
            [
                ("base", "href", "http://h/d/"),
                ("body", "background", "http://h/d/bg.png"),
                ("a", "href", "http://h/d/a?x=1&y=2"),
                ("img", "src", "http://h/d/i.png"),
                ("img", "srcset", "http://h/d/s1.png"),
                ("img", "srcset", "http://h/d/s2.png"),
                ("form", "action", "http://h/d/f"),
                ("button", "formaction", "http://h/d/b"),
                ("input", "src", "http://h/d/in.png"),
                ("q", "cite", "http://h/d/c"),
                ("object", "data", "http://h/d/o"),
                // An element's links in the order of its attributes.
                ("video", "poster", "http://h/d/p"),
                ("video", "src", "http://h/d/v"),
                ("meta", "content", "http://h/d/r.html"),
            ]
        );
        // Each offset points at the reference in the page.
        for l in &doc.links {
            if !l.reference.contains('&') {
                assert_eq!(
                    &page[l.offset..l.offset + l.reference.len()],
                    l.reference
                );
            }
        }
    }

    /// One link as a test shows it: element@attribute, url or error, context.
    type Shown = (String, String, Option<&'static str>);

    /// Each link shown as its element and attribute, and its URL.
    fn pairs(got: &[Shown]) -> Vec<(&str, &str)> {
        got.iter().map(|l| (l.0.as_str(), l.1.as_str())).collect()
    }

    /// (element@attribute, url or error, context) of each link.
    fn links_of(
        page: &[u8],
        spec: Spec,
        ctx: Option<Context>,
    ) -> (Document, Vec<Shown>) {
        let ctx = ctx.unwrap_or_else(|| Context::new(spec));
        let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
        let doc = document(page, "t", &base, &ctx);
        let got = doc
            .links
            .iter()
            .map(|l| {
                let url =
                    l.url.clone().unwrap_or_else(|e| format!("error: {e}"));
                (
                    format!("{}@{}", l.element, l.attribute),
                    url,
                    l.within.map(Within::name),
                )
            })
            .collect();
        (doc, got)
    }

    #[test]
    fn the_base_comes_from_the_document_tree() {
        for page in [
            &b"<template><base href='http://evil/'></template><a href=g>"[..],
            b"<svg><base href='http://evil/'/></svg><a href=g>",
            b"<math><base href='http://evil/'/></math><a href=g>",
        ] {
            let (doc, got) = links_of(page, Spec::Rfc3986, None);
            assert_eq!(doc.base.url(), Some("http://h/d/p.html"), "{page:?}");
            let a = got.iter().find(|l| l.0 == "a@href").unwrap();
            assert_eq!(a.1, "http://h/d/g");
        }
        // A base in noscript counts: the parser without scripting puts it
        // in the tree.
        let (doc, got) = links_of(
            b"<noscript><base href='http://ns/'><img src=i></noscript><a href=g>",
            Spec::Rfc3986,
            None,
        );
        assert_eq!(doc.base.url(), Some("http://ns/"));
        assert_eq!(
            got,
            [
                ("base@href".into(), "http://ns/".into(), Some("noscript")),
                ("img@src".into(), "http://ns/i".into(), Some("noscript")),
                ("a@href".into(), "http://ns/g".into(), None),
            ]
        );
        // The first in document order, even after the links.
        let (doc, _) = links_of(
            b"<a href=g><base href='/x/'><base href='/y/'>",
            Spec::Rfc3986,
            None,
        );
        assert_eq!(doc.base.url(), Some("http://h/x/"));
    }

    #[cfg(feature = "whatwg")]
    #[test]
    fn whatwg_frozen_base_url() {
        for href in ["javascript:alert(1)", "data:text/html,x", "http://[x/"] {
            let page = format!("<base href='{href}'><a href=g>");
            let (doc, got) = links_of(page.as_bytes(), Spec::Whatwg, None);
            assert_eq!(doc.base.url(), Some("http://h/d/p.html"), "{href}");
            assert_eq!(got[1].1, "http://h/d/g", "{href}");
        }
    }

    #[test]
    fn other_specs_take_a_javascript_base() {
        let (doc, _) = links_of(
            b"<base href='javascript:x'><a href=g>",
            Spec::Rfc3986,
            None,
        );
        assert_eq!(doc.base.url(), Some("javascript:x"));
    }

    #[test]
    fn contexts_and_their_exclusion() {
        let page = b"<template><a href=t><template><img src=tt></template></template>\
<noscript><a href=n></noscript><a href=d>";
        let (_, got) = links_of(page, Spec::Rfc3986, None);
        let contexts: Vec<_> =
            got.iter().map(|l| (l.1.as_str(), l.2)).collect();
        assert_eq!(
            contexts,
            [
                ("http://h/d/t", Some("template")),
                ("http://h/d/tt", Some("template")),
                ("http://h/d/n", Some("noscript")),
                ("http://h/d/d", None),
            ]
        );
        let mut ctx = Context::new(Spec::Rfc3986);
        ctx.exclude = vec![Within::Noscript, Within::Template];
        let (_, got) = links_of(page, Spec::Rfc3986, Some(ctx));
        assert_eq!(got, [("a@href".into(), "http://h/d/d".into(), None)]);
    }

    #[test]
    fn names_are_borrowed_from_the_tables() {
        let page = br#"<a href=a><td style="background: url(t.png)"><p style="background: url(p.png)">"#;
        let ctx = Context::new(Spec::Rfc3986);
        let doc = document(page, "t", &ctx.retrieval_base(), &ctx);
        let got: Vec<_> = doc
            .links
            .iter()
            .map(|l| {
                let borrowed =
                    |c: &Cow<'static, str>| matches!(c, Cow::Borrowed(_));
                (&*l.element, borrowed(&l.element), borrowed(&l.attribute))
            })
            .collect();
        // `p` is in no table: its name is the tokenizer's, owned.
        assert_eq!(
            got,
            [("a", true, true), ("td", true, true), ("p", false, true)]
        );
    }

    #[test]
    fn css_svg_ping_and_open_graph() {
        let page = br#"<meta property="og:image" content="/og.png"><meta name="og:url" content="no">
<style>@import "s.css"; p { background: url(b.png) } /* url(c.png) */</style>
<p style="background: url('p.png')"><a href=a ping="/p1 p2">a</a>
<svg><a xlink:href="sa"/><image href="si"/><use href="su#i"/><script href="ss"/></svg>"#;
        let (_, got) = links_of(page, Spec::Rfc3986, None);
        let got = pairs(&got);
        assert_eq!(
            got,
            [
                ("meta@content", "http://h/og.png"),
                ("style@@import", "http://h/d/s.css"),
                ("style@url()", "http://h/d/b.png"),
                ("p@style", "http://h/d/p.png"),
                ("a@href", "http://h/d/a"),
                ("a@ping", "http://h/p1"),
                ("a@ping", "http://h/d/p2"),
                ("a@xlink:href", "http://h/d/sa"),
                ("image@href", "http://h/d/si"),
                ("use@href", "http://h/d/su#i"),
                ("script@href", "http://h/d/ss"),
            ]
        );
    }

    #[test]
    fn text_after_tags_is_read_where_it_counts() {
        // A <style> in SVG holds markup, so its CSS comes as text of the
        // data state, read although the page's text before it ended the
        // frameset-ok flag.
        let page =
            br#"<p>text</p><svg><style>a{background:url(s.png)}</style></svg>
<noscript><p style="background: url(n.png)"></noscript>"#;
        let (_, got) = links_of(page, Spec::Rfc3986, None);
        let got = pairs(&got);
        assert_eq!(
            got,
            [
                ("style@url()", "http://h/d/s.png"),
                ("p@style", "http://h/d/n.png")
            ]
        );
    }

    #[test]
    fn style_handlers_only_where_style_is() {
        for (page, style) in [
            (&b"<link rel=stylesheet href=s.css>"[..], false),
            (b"<p>a style guide</p>", false),
            (b"<STYLE>", true),
            (b"<p style='x'>", true),
            (b"<p\nSTYLE = x>", true),
            (b"<p/style=x>", true),
        ] {
            assert_eq!(Needs::of(page).style, style, "{page:?}");
        }
        let needs = Needs::of(b"<p><NoScript><TEMPLATE>");
        assert!(needs.noscript && needs.template);
    }

    #[test]
    fn a_tag_the_page_ends_in_may_span_chunks() {
        // Cut across several of the scan's chunks, after text passed
        // over and after none: dropped, the links before it kept.
        for text in ["", "text "] {
            let page = format!(
                "<p>x</p><a href=a>{text}<a href='{}",
                "z".repeat(3 * stream::CHUNK)
            );
            let (_, got) = links_of(page.as_bytes(), Spec::Rfc3986, None);
            assert_eq!(got, [("a@href".into(), "http://h/d/a".into(), None)]);
        }
        // 40,000 elements left open take all but half a MiB of the
        // parser's memory; the text passed over before the tag is not
        // held as part of it.
        let page = format!(
            "<p>x</p><a href=a>{}{}<a href=",
            "<b>".repeat(40_000),
            "y".repeat(10 * stream::CHUNK)
        );
        let (doc, got) = links_of(page.as_bytes(), Spec::Rfc3986, None);
        assert_eq!(got, [("a@href".into(), "http://h/d/a".into(), None)]);
        assert_eq!(doc.problems, []);
    }

    #[test]
    fn a_repeated_attribute_counts_once() {
        // The first, as the tokenizer keeps it; 50,000 of them read in
        // linear time (200,000 take the parser past its memory cap).
        let page = format!("<a href=first {}>", "href=again ".repeat(50_000));
        let (_, got) = links_of(page.as_bytes(), Spec::Rfc3986, None);
        assert_eq!(got, [("a@href".into(), "http://h/d/first".into(), None)]);
    }

    #[test]
    fn no_base_leaves_relative_links_unresolved() {
        let ctx = Context::new(Spec::Rfc1808);
        let doc = document(
            b"<a href='g'>g</a><a href='http://x/'>x</a>",
            "t",
            &Base::none(),
            &ctx,
        );
        assert!(doc.links[0].url.is_err());
        assert_eq!(doc.links[1].url.as_deref(), Ok("http://x/"));
    }
}
