//! One pass over a page with the project's tokenizer ([`super::tokenizer`]):
//! the tree facts the links need, followed beside it as a streaming
//! reader follows them, token by token:
//!
//! * foreign content (SVG, MathML) and its integration points, which say
//!   each element's namespace, where start tags switch the text state
//!   and where `<![CDATA[` opens a section ([`Namespaces`]);
//! * the elements open, each closed by the last open element of its
//!   end tag's name ([`Open`]): the `<template>` contents a link stands
//!   in, the `<frameset>` elements open, and the text of a `<style>` or
//!   `<noscript>`;
//! * the start tags whose text state the reader cannot tell from the
//!   tokens (text-switching tags inside `<select>` or after
//!   `<frameset>`), where the reading stops ([`Guard`]);
//! * the memory the reading may take: the elements open and a token held
//!   across the chunks of a page count against
//!   [`stream::MAX_PARSER_MEMORY`], as they would in a parser that keeps
//!   them ([`Budget`]).
//!
//! What a pass builds (the tokenizer's buffers, the stack, the tree's
//! lists) is kept on its thread and reused by the next page.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::File;

use encoding_rs::Encoding;

use super::elements::{self, Facts};
use super::tokenizer::{
    Attribute, EndTag, Options, State, Tag, Text, TextKind, Token, Tokenizer,
};
use super::tree::Tree;
use super::{
    collect, out_of_memory, same_name, stream, too_many_templates, Flow,
    Found, Pass, RawText, Source, StartTag, MAX_OPEN_TEMPLATES,
};
use crate::{Problem, Within};

/// The start tags that end foreign content.
const BREAKS_OUT: &[&[u8]] = &[
    b"b",
    b"big",
    b"blockquote",
    b"body",
    b"br",
    b"center",
    b"code",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"em",
    b"embed",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"hr",
    b"i",
    b"img",
    b"li",
    b"listing",
    b"menu",
    b"meta",
    b"nobr",
    b"ol",
    b"p",
    b"pre",
    b"ruby",
    b"s",
    b"small",
    b"span",
    b"strong",
    b"strike",
    b"sub",
    b"sup",
    b"table",
    b"tt",
    b"u",
    b"ul",
    b"var",
];

/// What the memory of a parser that keeps the open elements counts for
/// each (bytes), and the fewest it makes room for at once.
const OPEN_ELEMENT_BYTES: usize = 120;
const OPEN_ELEMENTS_AT_ONCE: usize = 8;
/// What the memory counts for each attribute of the tag being read
/// (every one, repeated names too).
const ATTRIBUTE_BYTES: usize = 48;
/// The buffer for a token across chunks, made at the start of a page.
const TOKEN_BUFFER: usize = 1024;

fn is(name: &[u8], set: &[&[u8]]) -> bool {
    set.contains(&name)
}

/// A namespace of the tree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

/// The namespaces entered: foreign content and the HTML integration
/// points in it.
#[derive(Default)]
struct Namespaces {
    /// Above the page's HTML: each namespace entered.
    stack: Vec<Ns>,
}

impl Namespaces {
    fn current(&self) -> Ns {
        self.stack.last().copied().unwrap_or(Ns::Html)
    }

    /// Follows a start tag; the namespace of its element after.
    fn start(&mut self, tag: &Tag<'_>) -> Ns {
        let name = tag.name();
        match name {
            b"svg" => self.stack.push(Ns::Svg),
            b"math" => self.stack.push(Ns::Math),
            _ if self.current() == Ns::Html => {}
            _ if is(name, BREAKS_OUT) => {
                self.stack.pop();
            }
            _ => {
                let current = self.current();
                let integration = match current {
                    Ns::Svg => {
                        matches!(name, b"desc" | b"title" | b"foreignobject")
                    }
                    Ns::Math => {
                        matches!(
                            name,
                            b"mi" | b"mo" | b"mn" | b"ms" | b"mtext"
                        )
                    }
                    Ns::Html => false,
                };
                let annotation = current == Ns::Math
                    && name == b"annotation-xml"
                    && !tag.self_closing()
                    && tag.attributes().any(|a| {
                        a.name() == b"encoding"
                            && (a
                                .raw_value()
                                .eq_ignore_ascii_case(b"text/html")
                                || a.raw_value().eq_ignore_ascii_case(
                                    b"application/xhtml+xml",
                                ))
                    });
                if integration && !tag.self_closing() || annotation {
                    self.stack.push(Ns::Html);
                } else if name == b"font"
                    && tag.attributes().any(|a| {
                        matches!(a.name(), b"color" | b"size" | b"face")
                    })
                {
                    self.stack.pop();
                }
            }
        }
        self.current()
    }

    /// Follows an end tag; whether foreign content goes on after it.
    fn end(&mut self, name: &[u8]) -> Ns {
        match self.current() {
            Ns::Html => {
                let n = self.stack.len();
                let leaves = match n.checked_sub(2).map(|i| self.stack[i]) {
                    Some(Ns::Math) => matches!(
                        name,
                        b"mi"
                            | b"mo"
                            | b"mn"
                            | b"ms"
                            | b"mtext"
                            | b"annotation-xml"
                    ),
                    Some(Ns::Svg) => {
                        matches!(name, b"desc" | b"title" | b"foreignobject")
                    }
                    _ => false,
                };
                if leaves {
                    self.stack.pop();
                }
            }
            ns => {
                if ns == Ns::Svg && name == b"svg"
                    || ns == Ns::Math && name == b"math"
                    || matches!(name, b"p" | b"br")
                {
                    self.stack.pop();
                }
            }
        }
        self.current()
    }
}

/// Where the reader stands for the text-switching start tags it cannot
/// place.
#[derive(Clone, Copy, Default)]
enum Guard {
    #[default]
    Default,
    InSelect,
    /// In `<template>` contents inside `<select>`, this many deep.
    InTemplateInSelect(usize),
    InOrAfterFrameset,
}

impl Guard {
    /// Follows a start tag `name` (that `switches` the text state or
    /// not): an error when it switches the text state where the reader
    /// cannot tell whether it counts.
    fn start(&mut self, name: &[u8], switches: bool) -> Result<(), ()> {
        match *self {
            Guard::Default => {
                if name == b"select" {
                    *self = Guard::InSelect;
                } else if name == b"frameset" {
                    *self = Guard::InOrAfterFrameset;
                }
            }
            Guard::InSelect => {
                if matches!(
                    name,
                    b"select" | b"textarea" | b"input" | b"keygen"
                ) {
                    *self = Guard::Default;
                } else if name == b"template" {
                    *self = Guard::InTemplateInSelect(1);
                } else if name != b"script" && switches {
                    return Err(());
                }
            }
            Guard::InTemplateInSelect(depth) => {
                if name == b"template" {
                    *self = Guard::InTemplateInSelect(depth + 1);
                } else if switches {
                    return Err(());
                }
            }
            Guard::InOrAfterFrameset => {
                if name != b"noframes" && switches {
                    return Err(());
                }
            }
        }
        Ok(())
    }

    fn end(&mut self, name: &[u8]) {
        match *self {
            Guard::InSelect if name == b"select" => *self = Guard::Default,
            Guard::InTemplateInSelect(depth) if name == b"template" => {
                *self = if depth == 1 {
                    Guard::InSelect
                } else {
                    Guard::InTemplateInSelect(depth - 1)
                };
            }
            _ => {}
        }
    }
}

/// The problem of a pass stopped at a start tag `name` it cannot place.
fn ambiguous(name: &[u8], at: usize, end: usize) -> Problem {
    Problem::HtmlStopped(format!(
        "a <{}> start tag inside <select> or after <frameset>, where a \
         streaming reader cannot tell whether its contents are text or \
         markup (in bytes {at}..{end})",
        String::from_utf8_lossy(name)
    ))
}

/// An element open.
struct Open {
    /// Its name: `names[name..]` up to the next element's.
    name: usize,
    hash: u64,
    /// A `<template>` of the HTML namespace: where it starts.
    template: Option<usize>,
    /// A `<frameset>` that made or kept a frameset document.
    frameset: bool,
    /// A `<style>` or `<noscript>`: its text is read.
    raw_text: bool,
}

/// The memory a reading takes, counted as a parser that keeps what the
/// reader keeps counts it.
struct Budget {
    cap: usize,
    used: usize,
    /// Room made for open elements.
    open_room: usize,
    /// Room made for a token across chunks.
    token_room: usize,
    /// Room made for the attributes of a tag.
    attribute_room: usize,
}

impl Budget {
    fn new(cap: usize) -> Budget {
        Budget {
            cap,
            used: TOKEN_BUFFER,
            open_room: 0,
            token_room: TOKEN_BUFFER,
            attribute_room: 0,
        }
    }

    /// Room for `open` elements open at once.
    fn open(&mut self, open: usize) -> bool {
        if open > self.open_room {
            let more = self.open_room.max(OPEN_ELEMENTS_AT_ONCE);
            self.open_room += more;
            self.used += more * OPEN_ELEMENT_BYTES;
        }
        self.used <= self.cap
    }

    /// Room for the attributes of a tag, at each count `grew` says it
    /// passes: the offset of the attribute that passes it out of room.
    fn attributes(&mut self, grew: &[(usize, usize)]) -> Result<(), usize> {
        for &(n, at) in grew {
            while n > self.attribute_room {
                let more = self.attribute_room.max(OPEN_ELEMENTS_AT_ONCE);
                self.attribute_room += more;
                self.used += more * ATTRIBUTE_BYTES;
            }
            if self.used > self.cap {
                return Err(at);
            }
        }
        Ok(())
    }

    /// Room for `bytes` of a token held across chunks.
    fn token(&mut self, bytes: usize) -> bool {
        if bytes > self.token_room {
            self.used += bytes - self.token_room;
            self.token_room = bytes;
        }
        self.used <= self.cap
    }
}

/// What a pass keeps from one page to the next on its thread.
#[derive(Default)]
struct Kept {
    state: Option<State>,
    tree: Tree,
    open: Vec<Open>,
    names: Vec<u8>,
    counts: Vec<u32>,
    namespaces: Vec<Ns>,
    buf: Vec<u8>,
}

thread_local! {
    /// The buffers of the passes of this thread not running (a pass over
    /// `<noscript>` contents runs inside the page's).
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// The state of a pass beside its tokenizer.
struct Sim<'s> {
    source: &'s Source<'s>,
    encoding: &'static Encoding,
    shift: usize,
    within: Option<Within>,
    depth: usize,
    pass: Pass,
    tree: Tree,
    open: Vec<Open>,
    names: Vec<u8>,
    counts: Vec<u32>,
    namespaces: Namespaces,
    guard: Guard,
    templates: usize,
    /// The open `<style>` and `<noscript>` elements.
    raw_text_open: usize,
    budget: Budget,
}

/// Where a pass stopped: the problem, said by the chunk of the page
/// (`at..end`) it stopped in.
struct Stop(Problem);

/// A start tag of the tokenizer as [`collect`] reads it.
struct TokTag<'t, 'i> {
    tag: &'t Tag<'i>,
    input: &'i [u8],
    encoding: &'static Encoding,
    ns: Ns,
    /// Where the tokenizer's input starts in the document.
    base: usize,
}

/// `bytes` as the page's encoding decodes them (a byte order mark first
/// read as one).
#[allow(unsafe_code)]
fn decoded<'b>(bytes: &'b [u8], encoding: &'static Encoding) -> Cow<'b, str> {
    // The pass reads only ASCII-compatible encodings (the others are
    // decoded to UTF-8 first), which read ASCII as itself; most values
    // are ASCII, and hold no byte order mark: borrowed after one scan,
    // where decoding took 144 instructions a value.
    debug_assert!(encoding.is_ascii_compatible());
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are UTF-8.
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    encoding.decode(bytes).0
}

/// An attribute's name as the tables compare it: a byte order mark
/// first is dropped, as decoding drops it.
fn table_name<'a>(a: &Attribute<'a>) -> &'a [u8] {
    let name = a.name();
    name.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(name)
}

impl StartTag for TokTag<'_, '_> {
    fn name(&self) -> &[u8] {
        self.tag.name()
    }

    fn owned_name(&self) -> String {
        // The name as written, decoded, then ASCII lowercased.
        let from = self.tag.offset() + 1;
        let rest = &self.input[from..];
        let len = rest
            .iter()
            .position(|c| {
                matches!(
                    c,
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'
                )
            })
            .unwrap_or(rest.len());
        decoded(&rest[..len], self.encoding).to_ascii_lowercase()
    }

    fn html(&self) -> bool {
        self.ns == Ns::Html
    }

    fn svg(&self) -> bool {
        self.ns == Ns::Svg
    }

    fn offset(&self) -> usize {
        self.base + self.tag.offset()
    }

    fn len(&self) -> usize {
        self.tag.attributes().len()
    }

    fn attribute_name(&self, i: usize) -> Cow<'_, [u8]> {
        self.tag
            .nth_attribute(i)
            .map_or(Cow::Borrowed(&[][..]), |a| Cow::Borrowed(table_name(&a)))
    }

    fn attribute_value(&self, i: usize) -> (Cow<'_, str>, Option<usize>) {
        let Some(a) = self.tag.nth_attribute(i) else {
            return (Cow::Borrowed(""), None);
        };
        // No value, or none after `=` (`a=>`): no offset.
        let missing = a.raw_value().is_empty()
            && self.input.get(a.value_offset()) == Some(&b'>');
        let at = (a.has_value() && !missing)
            .then_some(self.base + a.value_offset());
        (decoded(a.raw_value(), self.encoding), at)
    }

    fn attribute(&self, name: &str) -> Option<Cow<'_, str>> {
        let a = self.tag.attribute(name.as_bytes())?;
        Some(decoded(a.raw_value(), self.encoding))
    }
}

/// A name's hash (FNV-1a): names are short, and a collision only costs
/// a comparison.
fn hash(name: &[u8]) -> u64 {
    name.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The open elements are counted by their name's [`hash`] modulo this:
/// a zero says no open element has the name, which spares an end tag the
/// walk of the stack (a collision only costs the walk). Slots rather
/// than a map of the hashes: its lookups took 1 % of a crawl's
/// instructions.
const SLOTS: usize = 1024;

fn slot(hash: u64) -> usize {
    (hash % SLOTS as u64) as usize
}

impl Sim<'_> {
    /// The context of what is read now.
    fn context(&self) -> Option<Within> {
        if self.templates > 0 {
            Some(Within::Template)
        } else {
            self.within
        }
    }

    fn flush(&mut self) {
        self.pass.flush(self.source, self.encoding, self.shift, self.depth);
    }

    /// A start tag; `input` the tokenizer's, from byte `base` of the
    /// document; `chunk` says the chunk of the page a stop is in.
    fn start(
        &mut self,
        tag: &Tag<'_>,
        input: &[u8],
        base: usize,
        chunk: &dyn Fn(usize) -> (usize, usize),
    ) -> Result<bool, Stop> {
        let name = tag.name();
        let at = base + tag.offset();
        let last = base + tag.end() - 1;
        if let Err(k) = self.budget.attributes(tag.attributes_grew()) {
            let (from, to) = chunk(base + k);
            return Err(Stop(out_of_memory(self.budget.cap, from, to)));
        }
        let facts = elements::facts(name);
        if self.guard.start(name, facts.has(Facts::SWITCHES)).is_err() {
            let (from, to) = chunk(last);
            return Err(Stop(ambiguous(name, from, to)));
        }
        let ns = self.namespaces.start(tag);
        let html = ns == Ns::Html;
        // The element is open unless it is void (HTML) or self-closing
        // (foreign content).
        let opens =
            if html { !facts.has(Facts::VOID) } else { !tag.self_closing() };
        if opens {
            if !self.budget.open(self.open.len() + 1) {
                let (from, to) = chunk(last);
                return Err(Stop(out_of_memory(self.budget.cap, from, to)));
            }
            let h = hash(name);
            self.open.push(Open {
                name: self.names.len(),
                hash: h,
                template: None,
                frameset: false,
                raw_text: false,
            });
            self.names.extend_from_slice(name);
            self.counts[slot(h)] += 1;
        }
        if html && name == b"template" {
            if self.templates >= MAX_OPEN_TEMPLATES {
                let (from, to) = chunk(last);
                return Err(Stop(Problem::HtmlStopped(format!(
                    "{} (in bytes {from}..{to})",
                    too_many_templates()
                ))));
            }
            self.templates += 1;
            if let Some(open) = self.open.last_mut() {
                open.template = Some(at);
            }
        }
        self.tree.start_tag(html, name, at);
        if facts.has(Facts::FRAMESET) {
            let hidden = || {
                tag.attribute(b"type").is_some_and(|t| {
                    decoded(t.raw_value(), self.encoding)
                        .trim()
                        .eq_ignore_ascii_case("hidden")
                })
            };
            let not_ok = facts.has(Facts::FRAMESET_NOT_OK);
            if self.tree.frameset_tag(html, name, not_ok, hidden) {
                if let Some(open) = self.open.last_mut().filter(|_| opens) {
                    open.frameset = true;
                }
            }
            if let Some(from) = self.tree.replaced() {
                self.flush();
                self.pass.found.take_back(from);
            }
        }
        let links = facts.has(Facts::LINKS)
            || tag.attributes().any(|a| a.name() == b"style");
        if links {
            let within = self.context();
            self.flush();
            if self.tree.inserts(html, name, at, within) {
                let el =
                    TokTag { tag, input, encoding: self.encoding, ns, base };
                collect(&el, within, &mut self.pass.found);
            }
        }
        if facts.has(Facts::RAW_TEXT) {
            let start = base + tag.end();
            let within = self.context();
            self.flush();
            let style = name == b"style";
            self.pass.pending =
                Some(RawText { range: start..start, within, style });
            if let Some(open) = self.open.last_mut().filter(|_| opens) {
                open.raw_text = true;
                self.raw_text_open += 1;
            }
        }
        Ok(ns != Ns::Html)
    }

    /// An end tag, from byte `base` of the document.
    fn end(&mut self, tag: &EndTag<'_>, base: usize) -> bool {
        let name = tag.name();
        if name == b"form" {
            self.tree.form_end(base + tag.offset());
        }
        self.guard.end(name);
        let foreign = self.namespaces.end(name) != Ns::Html;
        let h = hash(name);
        if self.counts[slot(h)] == 0 {
            return foreign;
        }
        // The last open element of this name (hashes may collide: the
        // names are compared).
        let mut found = None;
        let mut upto = self.names.len();
        for i in (0..self.open.len()).rev() {
            let o = &self.open[i];
            if o.hash == h && same_name(&self.names[o.name..upto], name) {
                found = Some(i);
                break;
            }
            upto = o.name;
        }
        let Some(i) = found else { return foreign };
        let end = base + tag.end();
        self.names.truncate(self.open[i].name);
        // Looked at in place, then truncated: a drain took an eighth of
        // an end tag's instructions.
        for o in &self.open[i..] {
            self.counts[slot(o.hash)] -= 1;
            if let Some(start) = o.template {
                self.templates = self.templates.saturating_sub(1);
                self.tree.template(start, end);
            }
            if o.frameset {
                self.tree.frameset_closed();
            }
            if o.raw_text {
                self.raw_text_open -= 1;
            }
        }
        self.open.truncate(i);
        foreign
    }

    /// Whether text of the data state can change what the pass finds:
    /// while the tree reads it, and within raw text being collected.
    /// Otherwise the tokenizer passes over it.
    fn wants_data_text(&self) -> bool {
        self.tree.reads_text() || self.raw_text_open > 0
    }

    /// Text of the page, from byte `base` of the document.
    fn text(&mut self, text: &Text<'_>, base: usize) {
        if text.kind() == TextKind::Data {
            self.tree.text(text.raw());
        }
        if self.raw_text_open > 0 {
            if let Some(raw) = &mut self.pass.pending {
                let end = base + text.offset() + text.raw().len();
                raw.range.end = raw.range.end.max(end);
            }
        }
    }

    /// A token; whether foreign content goes on after it. Inlined into
    /// the pass's loop: a text token, the most common, then costs no call
    /// that saves the registers a start tag needs (callgrind: 2 % fewer
    /// instructions for `urlspec links` on a generated crawl).
    #[inline(always)]
    fn token(
        &mut self,
        token: &Token<'_>,
        input: &[u8],
        base: usize,
        chunk: &dyn Fn(usize) -> (usize, usize),
    ) -> Result<Option<bool>, Stop> {
        Ok(match token {
            Token::StartTag(tag) => Some(self.start(tag, input, base, chunk)?),
            Token::EndTag(end) => Some(self.end(end, base)),
            Token::Text(text) => {
                self.text(text, base);
                None
            }
            Token::Comment(_) | Token::Doctype(_) => None,
        })
    }
}

/// One pass of the tokenizer over `source`, as [`super::scan`] reads it.
#[allow(clippy::too_many_arguments)]
pub(super) fn scan(
    source: &Source<'_>,
    encoding: &'static Encoding,
    shift: usize,
    within: Option<Within>,
    depth: usize,
    found: &mut Found,
    problems: &mut Vec<Problem>,
    emit: &mut dyn FnMut(&mut Found) -> Flow,
) {
    let mut kept = KEPT.with(|k| k.borrow_mut().pop()).unwrap_or_default();
    let mut state = kept.state.take().unwrap_or_else(|| {
        State::new(Options { scripting: true, switch_text: true })
    });
    state.reset();
    kept.tree.reset();
    kept.open.clear();
    kept.names.clear();
    // Zero, as the last pass left them (below), once made.
    kept.counts.resize(SLOTS, 0);
    kept.namespaces.clear();
    let mut sim = Sim {
        source,
        encoding,
        shift,
        within,
        depth,
        pass: Pass {
            found: std::mem::take(found),
            problems: Vec::new(),
            pending: None,
        },
        tree: std::mem::take(&mut kept.tree),
        open: std::mem::take(&mut kept.open),
        names: std::mem::take(&mut kept.names),
        counts: std::mem::take(&mut kept.counts),
        namespaces: Namespaces { stack: std::mem::take(&mut kept.namespaces) },
        guard: Guard::Default,
        templates: 0,
        raw_text_open: 0,
        budget: Budget::new(stream::MAX_PARSER_MEMORY >> depth),
    };
    let mut buf = std::mem::take(&mut kept.buf);
    let stopped = match source {
        Source::Bytes(bytes) => bytes_pass(&mut sim, bytes, &mut state),
        Source::File(file) => {
            file_pass(&mut sim, file, &mut state, &mut buf, emit)
        }
    };
    if let Err(Stop(problem)) = stopped {
        sim.pass.problems.push(problem);
    }
    sim.flush();
    emit(&mut sim.pass.found);
    let mut pass = sim.pass;
    *found = std::mem::take(&mut pass.found);
    problems.append(&mut pass.problems);
    kept.state = Some(state);
    kept.tree = sim.tree;
    // The counts back to zero by the elements left open: a few, where
    // clearing every slot wrote 4 KiB a page.
    for o in &sim.open {
        sim.counts[slot(o.hash)] = 0;
    }
    kept.open = sim.open;
    kept.names = sim.names;
    kept.counts = sim.counts;
    kept.namespaces = sim.namespaces.stack;
    buf.clear();
    kept.buf = buf;
    KEPT.with(|k| k.borrow_mut().push(kept));
}

/// A pass over a page in memory, read whole; its stops said by the
/// chunk of [`stream::CHUNK`] bytes they fall in.
fn bytes_pass(
    sim: &mut Sim<'_>,
    bytes: &[u8],
    state: &mut State,
) -> Result<(), Stop> {
    let shift = sim.shift;
    let len = bytes.len();
    let chunk = move |abs: usize| {
        let k = (abs - shift) / stream::CHUNK;
        let from = k * stream::CHUNK;
        (shift + from, shift + (from + stream::CHUNK).min(len))
    };
    let mut t = Tokenizer::partial(
        bytes,
        std::mem::replace(state, State::new(Options::default())),
        true,
    );
    let mut result = Ok(());
    loop {
        let before = t.consumed();
        // The token looked at where `next` returns it: moved out of the
        // option, its 112 bytes were copied (0.5 % of `urlspec links`'
        // instructions on a crawl).
        let next = t.next();
        let Some(token) = &next else {
            // A tag the page ends in, dropped: held all the same (from
            // its start, after any text passed over).
            let dropped = before.max(t.skipped_to());
            if dropped < len {
                let grew = t.attributes_grew();
                if let Err(k) = sim.budget.attributes(grew) {
                    let (from, to) = chunk(shift + k);
                    result =
                        Err(Stop(out_of_memory(sim.budget.cap, from, to)));
                } else if let Err(stop) =
                    across(sim, dropped, len + 1, len, &chunk)
                {
                    result = Err(stop);
                }
            }
            break;
        };
        // A token read across chunks is held whole meanwhile.
        if !matches!(token, Token::Text(_)) {
            let start = before.max(token_start(token));
            let end = token_end(token);
            if let Err(stop) = across(sim, start, end, len, &chunk) {
                result = Err(stop);
                break;
            }
        }
        match sim.token(token, bytes, shift, &chunk) {
            Ok(Some(foreign)) => t.set_foreign(foreign),
            Ok(None) => {}
            Err(stop) => {
                result = Err(stop);
                break;
            }
        }
        t.skip_data_text(!sim.wants_data_text());
    }
    *state = t.into_state();
    result
}

/// Where a token starts in its input.
fn token_start(token: &Token<'_>) -> usize {
    match token {
        Token::StartTag(t) => t.offset(),
        Token::EndTag(t) => t.offset(),
        Token::Text(t) => t.offset(),
        Token::Comment(t) => t.offset(),
        Token::Doctype(t) => t.offset(),
    }
}

/// Where a token ends in its input (a DOCTYPE: where it starts).
fn token_end(token: &Token<'_>) -> usize {
    match token {
        Token::StartTag(t) => t.end(),
        Token::EndTag(t) => t.end(),
        Token::Text(t) => t.offset() + t.raw().len(),
        Token::Comment(t) => t.end(),
        Token::Doctype(t) => t.offset(),
    }
}

/// Counts a token at `start..end` of a page of `len` bytes in memory
/// held across the chunk boundaries it spans.
fn across(
    sim: &mut Sim<'_>,
    start: usize,
    end: usize,
    len: usize,
    chunk: &dyn Fn(usize) -> (usize, usize),
) -> Result<(), Stop> {
    let size = stream::CHUNK;
    let mut boundary = (start / size + 1) * size;
    if boundary >= end || boundary >= len {
        return Ok(());
    }
    // Held at the end of the chunk it starts in, then with each chunk
    // after, until the one it ends in.
    if !sim.budget.token(boundary - start) {
        let (from, to) = chunk(sim.shift + boundary - 1);
        return Err(Stop(out_of_memory(sim.budget.cap, from, to)));
    }
    // A tag the page ends in runs to `len + 1`: the chunk ending at `len`
    // is its last.
    while boundary < end && boundary < len {
        let next = (boundary + size).min(len);
        if !sim.budget.token(next - start) {
            let (from, to) = chunk(sim.shift + boundary);
            return Err(Stop(out_of_memory(sim.budget.cap, from, to)));
        }
        boundary = next;
    }
    Ok(())
}

/// A pass over a page in a file, read in chunks: the links found are
/// handed to `emit` after each.
fn file_pass(
    sim: &mut Sim<'_>,
    file: &File,
    state: &mut State,
    buf: &mut Vec<u8>,
    emit: &mut dyn FnMut(&mut Found) -> Flow,
) -> Result<(), Stop> {
    let shift = sim.shift;
    // Where `buf` starts in the source, and how much of it was held from
    // the chunks before.
    let mut base = 0usize;
    let mut held = 0usize;
    let mut st = std::mem::replace(state, State::new(Options::default()));
    let read = stream::chunks(file, shift, |chunk| {
        let at = shift + base + buf.len();
        let whole = (at, at + chunk.len());
        if held > 0 && !sim.budget.token(buf.len() + chunk.len()) {
            return Err(out_of_memory(sim.budget.cap, whole.0, whole.1));
        }
        buf.extend_from_slice(chunk);
        // A token held across chunks is read again once the bytes after
        // it are as many (linear in the page).
        if held > 0 && buf.len() < 2 * held {
            return Ok(sim.pass.found.hand_on(sim.tree.tentative(), emit));
        }
        let chunk_of = move |_: usize| whole;
        let input: &[u8] = buf;
        let mut t = Tokenizer::partial(
            input,
            std::mem::replace(&mut st, State::new(Options::default())),
            false,
        );
        let mut stop = None;
        // The token looked at where `next` returns it, not moved.
        while let Some(token) = &t.next() {
            match sim.token(token, input, shift + base, &chunk_of) {
                Ok(Some(foreign)) => t.set_foreign(foreign),
                Ok(None) => {}
                Err(Stop(p)) => {
                    stop = Some(p);
                    break;
                }
            }
            t.skip_data_text(!sim.wants_data_text());
        }
        let consumed = t.consumed();
        st = t.into_state();
        if let Some(p) = stop {
            return Err(p);
        }
        buf.drain(..consumed);
        base += consumed;
        held = buf.len();
        if held > 0 && !sim.budget.token(held) {
            return Err(out_of_memory(sim.budget.cap, whole.0, whole.1));
        }
        Ok(sim.pass.found.hand_on(sim.tree.tentative(), emit))
    });
    let mut result = Ok(());
    match read {
        Err(p) => result = Err(Stop(p)),
        Ok(()) => {
            let end = shift + base + buf.len();
            let chunk_of = move |_: usize| (end, end);
            let input: &[u8] = buf;
            let mut t = Tokenizer::partial(
                input,
                std::mem::replace(&mut st, State::new(Options::default())),
                true,
            );
            while let Some(token) = &t.next() {
                match sim.token(token, input, shift + base, &chunk_of) {
                    Ok(Some(foreign)) => t.set_foreign(foreign),
                    Ok(None) => {}
                    Err(stop) => {
                        result = Err(stop);
                        break;
                    }
                }
                t.skip_data_text(!sim.wants_data_text());
            }
            st = t.into_state();
        }
    }
    *state = st;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass leaves the counts of open elements at zero for the next,
    /// whatever its page leaves open.
    #[test]
    fn counts_are_zero_after_a_pass() {
        for page in [&b"<div><b><i>x<svg><g>"[..], b"<p>a</p>", b""] {
            let mut found = Found::default();
            let mut problems = Vec::new();
            scan(
                &Source::Bytes(page),
                encoding_rs::UTF_8,
                0,
                None,
                0,
                &mut found,
                &mut problems,
                &mut |_| Flow::Go,
            );
            KEPT.with(|k| {
                let kept = k.borrow();
                assert!(!kept.is_empty());
                for kept in kept.iter() {
                    assert_eq!(kept.counts.len(), SLOTS);
                    assert!(kept.counts.iter().all(|&c| c == 0));
                }
            });
        }
    }
}
