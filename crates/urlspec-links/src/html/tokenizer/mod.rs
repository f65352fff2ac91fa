//! The HTML Standard's tokenizer (§13.2.5), made for reading links: tags
//! with their attributes, end tags, comments, DOCTYPEs and text, each with
//! its byte offsets in the input, read from the bytes of an
//! ASCII-compatible encoding without copying them.
//!
//! Every state of the Standard's tokenizer is followed, with these
//! choices for speed:
//! - text is skipped up to the next `<` by a byte search (in script data
//!   and its escapes, `<` and `-`), and handed over as written: its
//!   character references, newlines and NULs are read only when asked
//!   for ([`Text::decoded`]); text of the data state is not handed over
//!   at all while the caller has no use for it
//!   ([`Tokenizer::skip_data_text`]);
//! - an attribute value is handed over as written too, with the offset of
//!   its first byte; [`Attribute::value`] gives it as the Standard's
//!   tokenizer does (character references of attribute values, newlines
//!   made LF, NUL made U+FFFD);
//! - names are lowercased (and NUL made U+FFFD) only when they need it,
//!   into a buffer the tokenizer keeps: no allocation per token once its
//!   buffers have grown;
//! - parse errors are not reported.
//!
//! The tree builder's part is left to the caller, with one default:
//! after a start tag read outside foreign content, the text state
//! switches as the tree builder switches it (`title` and `textarea` to
//! RCDATA; `style`, `xmp`, `iframe`, `noembed`, `noframes` and, with
//! scripting on, `noscript` to RAWTEXT; `script` to script data;
//! `plaintext` to PLAINTEXT), unless the caller sets the state itself
//! ([`Tokenizer::set_state`]) before the next token. The caller says
//! where foreign content (SVG, MathML) starts and ends
//! ([`Tokenizer::set_foreign`], after the tag that enters or leaves it):
//! there start tags switch nothing and `<![CDATA[` opens a CDATA
//! section.
//!
//! ```
//! use urlspec_links::html::tokenizer::{Token, Tokenizer};
//! let page = b"<A HREF='a?x=1&amp;y=2'>x</a><style><a href=no></style><img src=i.png>";
//! let mut tokens = Tokenizer::new(page);
//! let mut links = Vec::new();
//! while let Some(token) = tokens.next() {
//!     if let Token::StartTag(tag) = token {
//!         for a in tag.attributes() {
//!             links.push((tag.name().to_vec(), a.value().into_owned(), a.value_offset()));
//!         }
//!     }
//! }
//! assert_eq!(links, [
//!     (b"a".to_vec(), "a?x=1&y=2".to_string(), 9),
//!     (b"img".to_vec(), "i.png".to_string(), 64),
//! ]);
//! ```
//!
//! A page that comes in pieces is read with [`Tokenizer::partial`]: the
//! tokenizer stops before a token that the piece does not hold whole, and
//! its [`State`] goes on with the rest.

mod class;
pub mod decode;
mod doctype;
mod text;

use std::borrow::Cow;
use std::collections::HashSet;

use class::{is_ws, EQ, GT, NUL, SLASH, UPPER, WS};
pub use decode::TextKind;

/// How the tokenizer reads a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether scripting is on: then `noscript` holds raw text, as in a
    /// browser running scripts; off, its contents are markup.
    pub scripting: bool,
    /// Whether a start tag switches the text state as the tree builder
    /// does (on by default; off, every text is read in the data state
    /// unless the caller sets another, as html5lib's tokenizer tests do).
    pub switch_text: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { scripting: false, switch_text: true }
    }
}

/// Where script data stands among its escapes (`<!--`, `<script>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// Script data.
    None,
    /// Script data escaped.
    Escaped,
    /// Script data escaped, after `--`.
    DashDash,
    /// Script data double escaped.
    Double,
    /// Script data double escaped, after `--`.
    DoubleDashDash,
}

/// A name: in the input, or lowercased into the tokenizer's buffer.
#[derive(Clone, Copy, Debug)]
struct Name {
    start: usize,
    end: usize,
    copied: bool,
}

impl Name {
    fn get<'t>(self, input: &'t [u8], names: &'t [u8]) -> &'t [u8] {
        let from = if self.copied { names } else { input };
        &from[self.start..self.end]
    }
}

/// An attribute of the start tag being read.
#[derive(Clone, Copy, Debug)]
struct Attr {
    name: Name,
    /// Where its name starts in the input.
    name_at: usize,
    /// Whether it has a value (`=`), even an empty one.
    has_value: bool,
    /// Its value as written (inside the quotes); empty at the end of the
    /// name when it has none.
    value: (usize, usize),
}

/// What the tokenizer keeps from one token to the next: the state of its
/// text, the last start tag's name, its options and its buffers. Taken
/// from a tokenizer ([`Tokenizer::into_state`]) to go on with the next
/// piece of a page, or to read another page with the buffers grown.
#[derive(Clone, Debug)]
pub struct State {
    content: TextKind,
    escape: Escape,
    /// The name of the last start tag that switched the text state: the
    /// end tag that ends its text.
    appropriate: Vec<u8>,
    /// The text state the last start tag switches to, unless the caller
    /// sets another before the next token.
    switch: Option<TextKind>,
    foreign: bool,
    /// Whether text of the data state is passed over rather than handed
    /// out ([`Tokenizer::skip_data_text`]).
    skip_data_text: bool,
    options: Options,
    attrs: Vec<Attr>,
    /// Where the attributes of the last tag read whose count passes a
    /// power of two (1, 9, 17, 33, …) start: their count and offset.
    grew: Vec<(usize, usize)>,
    names: Vec<u8>,
}

impl State {
    /// The state at the start of a page read with `options`.
    #[must_use]
    pub fn new(options: Options) -> State {
        State {
            content: TextKind::Data,
            escape: Escape::None,
            appropriate: Vec::new(),
            switch: None,
            foreign: false,
            skip_data_text: false,
            options,
            attrs: Vec::new(),
            grew: Vec::new(),
            names: Vec::new(),
        }
    }

    /// Back to the start of a page, the buffers kept.
    pub fn reset(&mut self) {
        self.content = TextKind::Data;
        self.escape = Escape::None;
        self.appropriate.clear();
        self.switch = None;
        self.foreign = false;
        self.skip_data_text = false;
    }

    /// `input[start..end]`, a name whose bytes have the classes `classes`:
    /// lowercased into the buffer when it needs it.
    fn name(
        &mut self,
        input: &[u8],
        start: usize,
        end: usize,
        classes: u8,
    ) -> Name {
        if classes & (UPPER | NUL) == 0 {
            return Name { start, end, copied: false };
        }
        let from = self.names.len();
        decode::push_name(&input[start..end], &mut self.names);
        Name { start: from, end: self.names.len(), copied: true }
    }

    /// Keeps the first of attributes of the same name, as the Standard
    /// does when a tag ends: pairwise for a few, by a set for many.
    fn drop_repeats(&mut self, input: &[u8]) {
        let n = self.attrs.len();
        if n < 2 {
            return;
        }
        let names = &self.names;
        let mut kept = 0;
        if n <= 16 {
            for i in 0..n {
                let a = self.attrs[i];
                let name = a.name.get(input, names);
                let seen = self.attrs[..kept]
                    .iter()
                    .any(|b| b.name.get(input, names) == name);
                if !seen {
                    self.attrs[kept] = a;
                    kept += 1;
                }
            }
        } else {
            let mut seen = HashSet::with_capacity(n);
            for i in 0..n {
                let a = self.attrs[i];
                if seen.insert(a.name.get(input, names)) {
                    self.attrs[kept] = a;
                    kept += 1;
                }
            }
        }
        self.attrs.truncate(kept);
    }
}

/// A token, as the tokenizer found it: borrowed from the input and from
/// the tokenizer, until the next one is asked for.
#[derive(Debug)]
pub enum Token<'t> {
    /// A start tag.
    StartTag(Tag<'t>),
    /// An end tag.
    EndTag(EndTag<'t>),
    /// A run of text (a part of the characters between two other tokens).
    Text(Text<'t>),
    /// A comment, or what the Standard reads as one (`<!x>`, `<?x>`,
    /// `</ x>`).
    Comment(Comment<'t>),
    /// A DOCTYPE.
    Doctype(Doctype<'t>),
}

/// A start tag.
#[derive(Debug)]
pub struct Tag<'t> {
    input: &'t [u8],
    grew: &'t [(usize, usize)],
    names: &'t [u8],
    attrs: &'t [Attr],
    name: Name,
    start: usize,
    end: usize,
    self_closing: bool,
}

impl<'t> Tag<'t> {
    /// The tag's name, ASCII lowercased.
    #[must_use]
    pub fn name(&self) -> &'t [u8] {
        self.name.get(self.input, self.names)
    }

    /// The offset of its `<`.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The offset after its `>`.
    #[must_use]
    pub fn end(&self) -> usize {
        self.end
    }

    /// Whether it ends with `/>`.
    #[must_use]
    pub fn self_closing(&self) -> bool {
        self.self_closing
    }

    /// Its attributes in order, the first of each name only.
    #[must_use]
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = Attribute<'t>> {
        let (input, names) = (self.input, self.names);
        self.attrs.iter().map(move |a| Attribute { input, names, attr: *a })
    }

    /// [`Tokenizer::attributes_grew`] for this tag.
    #[must_use]
    pub fn attributes_grew(&self) -> &'t [(usize, usize)] {
        self.grew
    }

    /// Its attribute `i`, in the order of [`Tag::attributes`].
    #[must_use]
    pub fn nth_attribute(&self, i: usize) -> Option<Attribute<'t>> {
        let (input, names) = (self.input, self.names);
        let attr = *self.attrs.get(i)?;
        Some(Attribute { input, names, attr })
    }

    /// Its attribute `name` (lowercase).
    #[must_use]
    pub fn attribute(&self, name: &[u8]) -> Option<Attribute<'t>> {
        self.attributes().find(|a| a.name() == name)
    }
}

/// An attribute of a start tag.
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'t> {
    input: &'t [u8],
    names: &'t [u8],
    attr: Attr,
}

impl<'t> Attribute<'t> {
    /// Its name, ASCII lowercased.
    #[must_use]
    pub fn name(&self) -> &'t [u8] {
        self.attr.name.get(self.input, self.names)
    }

    /// The offset of its name.
    #[must_use]
    pub fn name_offset(&self) -> usize {
        self.attr.name_at
    }

    /// Its value as written, without quotes.
    #[must_use]
    pub fn raw_value(&self) -> &'t [u8] {
        &self.input[self.attr.value.0..self.attr.value.1]
    }

    /// Whether it has a value, even an empty one (`a=""`, `a=`), or only
    /// a name (`a`).
    #[must_use]
    pub fn has_value(&self) -> bool {
        self.attr.has_value
    }

    /// The offset of its value's first byte (after the quote); for an
    /// attribute without a value, the offset after its name.
    #[must_use]
    pub fn value_offset(&self) -> usize {
        self.attr.value.0
    }

    /// Its value as the Standard's tokenizer gives it, the input read as
    /// UTF-8 (invalid bytes as U+FFFD). A page in another encoding decodes
    /// [`Attribute::raw_value`] and gives it to [`decode::value`].
    #[must_use]
    pub fn value(&self) -> Cow<'t, str> {
        match String::from_utf8_lossy(self.raw_value()) {
            Cow::Borrowed(v) => decode::value(v),
            Cow::Owned(v) => Cow::Owned(decode::value(&v).into_owned()),
        }
    }
}

/// An end tag (its attributes are read and dropped, as the Standard
/// does).
#[derive(Debug)]
pub struct EndTag<'t> {
    name: &'t [u8],
    start: usize,
    end: usize,
}

impl<'t> EndTag<'t> {
    /// The tag's name, ASCII lowercased.
    #[must_use]
    pub fn name(&self) -> &'t [u8] {
        self.name
    }

    /// The offset of its `<`.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The offset after its `>`.
    #[must_use]
    pub fn end(&self) -> usize {
        self.end
    }
}

/// Text: characters between other tokens, in one state.
#[derive(Debug)]
pub struct Text<'t> {
    raw: &'t [u8],
    start: usize,
    kind: TextKind,
}

impl<'t> Text<'t> {
    /// The text as written.
    #[must_use]
    pub fn raw(&self) -> &'t [u8] {
        self.raw
    }

    /// The offset of its first byte.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The state that read it.
    #[must_use]
    pub fn kind(&self) -> TextKind {
        self.kind
    }

    /// Its characters as the Standard's tokenizer gives them, the input
    /// read as UTF-8 ([`decode::text`]). A text that came in parts (a
    /// page read in pieces) is decoded joined: a part may end inside a
    /// character reference, or between CR and LF.
    #[must_use]
    pub fn decoded(&self) -> Cow<'t, str> {
        match String::from_utf8_lossy(self.raw) {
            Cow::Borrowed(t) => decode::text(t, self.kind),
            Cow::Owned(t) => {
                Cow::Owned(decode::text(&t, self.kind).into_owned())
            }
        }
    }
}

/// A comment.
#[derive(Debug)]
pub struct Comment<'t> {
    raw: &'t [u8],
    start: usize,
    end: usize,
}

impl<'t> Comment<'t> {
    /// Its data as written.
    #[must_use]
    pub fn raw(&self) -> &'t [u8] {
        self.raw
    }

    /// The offset of its `<`.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.start
    }

    /// The offset after its end.
    #[must_use]
    pub fn end(&self) -> usize {
        self.end
    }

    /// Its data as the Standard's tokenizer gives it (newlines made LF,
    /// NUL made U+FFFD), the input read as UTF-8.
    #[must_use]
    pub fn data(&self) -> Cow<'t, str> {
        lossy_then(self.raw, |t| decode::text(t, TextKind::RawText))
    }
}

/// A DOCTYPE.
#[derive(Debug)]
pub struct Doctype<'t> {
    input: &'t [u8],
    found: doctype::Found,
}

impl<'t> Doctype<'t> {
    /// Its name, ASCII lowercased.
    #[must_use]
    pub fn name(&self) -> Option<Cow<'t, str>> {
        let (s, e) = self.found.name?;
        let mut name = Vec::with_capacity(e - s);
        decode::push_name(&self.input[s..e], &mut name);
        Some(Cow::Owned(String::from_utf8_lossy(&name).into_owned()))
    }

    /// Its public identifier.
    #[must_use]
    pub fn public_id(&self) -> Option<Cow<'t, str>> {
        self.id(self.found.public)
    }

    /// Its system identifier.
    #[must_use]
    pub fn system_id(&self) -> Option<Cow<'t, str>> {
        self.id(self.found.system)
    }

    /// Whether it puts the document in quirks mode (its force-quirks
    /// flag).
    #[must_use]
    pub fn force_quirks(&self) -> bool {
        self.found.force_quirks
    }

    /// The offset of its `<`.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.found.start
    }

    fn id(&self, span: Option<(usize, usize)>) -> Option<Cow<'t, str>> {
        let (s, e) = span?;
        Some(lossy_then(&self.input[s..e], |t| {
            decode::text(t, TextKind::RawText)
        }))
    }
}

/// `raw` read as UTF-8 (invalid bytes as U+FFFD), then `f`.
fn lossy_then<'t>(
    raw: &'t [u8],
    f: impl for<'x> Fn(&'x str) -> Cow<'x, str>,
) -> Cow<'t, str> {
    match String::from_utf8_lossy(raw) {
        Cow::Borrowed(t) => f(t),
        Cow::Owned(t) => Cow::Owned(f(&t).into_owned()),
    }
}

/// A token found, by its offsets.
enum Found {
    Start { start: usize, end: usize, name: Name, self_closing: bool },
    End { start: usize, end: usize, name: Name },
    Text { start: usize, end: usize, kind: TextKind },
    Comment { start: usize, end: usize, data: (usize, usize) },
    Doctype(doctype::Found),
}

/// What one step of the tokenizer did.
enum Step {
    /// Found a token.
    Token(Found),
    /// Read bytes that make no token (`</>`, an unfinished tag at the
    /// end); go on.
    Nothing,
    /// Needs the bytes after the input to go on.
    More,
}

/// The input ended inside a token.
struct Eof;

/// The tokenizer: a pull of tokens from a page.
#[derive(Debug)]
pub struct Tokenizer<'a> {
    input: &'a [u8],
    pos: usize,
    /// Whether the input ends the page (the Standard's end of file).
    last: bool,
    /// Where the text of the data state last passed over ends.
    skipped_to: usize,
    st: State,
}

impl<'a> Tokenizer<'a> {
    /// The tokenizer of the whole page `input`, with the default
    /// [`Options`].
    #[must_use]
    pub fn new(input: &'a [u8]) -> Tokenizer<'a> {
        Tokenizer::partial(input, State::new(Options::default()), true)
    }

    /// The tokenizer of the whole page `input`, with `options`.
    #[must_use]
    pub fn with_options(input: &'a [u8], options: Options) -> Tokenizer<'a> {
        Tokenizer::partial(input, State::new(options), true)
    }

    /// The tokenizer of a piece of a page, going on from `state`; `last`:
    /// the piece ends the page. It stops before a token the piece does
    /// not hold whole ([`Tokenizer::consumed`] says where); the next
    /// piece starts there. Text is handed over in parts as it comes.
    /// To stay linear, a piece given again after a stop should hold at
    /// least twice the bytes left unconsumed.
    ///
    /// ```
    /// use urlspec_links::html::tokenizer::{Options, State, Token, Tokenizer};
    /// let page = b"<p>text <a href='x'>";
    /// let mut tokens = Tokenizer::partial(&page[..13], State::new(Options::default()), false);
    /// assert!(matches!(tokens.next(), Some(Token::StartTag(_))));
    /// assert!(matches!(tokens.next(), Some(Token::Text(t)) if t.raw() == b"text "));
    /// assert!(tokens.next().is_none());
    /// let at = tokens.consumed();
    /// assert_eq!(at, 8);
    /// let mut tokens = Tokenizer::partial(&page[at..], tokens.into_state(), true);
    /// let Some(Token::StartTag(a)) = tokens.next() else { panic!() };
    /// assert_eq!(a.attributes().next().unwrap().value(), "x");
    /// ```
    #[must_use]
    pub fn partial(
        input: &'a [u8],
        state: State,
        last: bool,
    ) -> Tokenizer<'a> {
        Tokenizer { input, pos: 0, last, skipped_to: 0, st: state }
    }

    /// The tokenizer's state, to go on from where it stopped.
    #[must_use]
    pub fn into_state(self) -> State {
        self.st
    }

    /// The attributes of the last tag read (a start tag, or one the
    /// input ends in), before repeated names are dropped, at each power
    /// of two they pass: their count (1, 9, 17, 33, …) and where the one
    /// that passes it starts. What a reader that keeps every attribute
    /// grows its buffer at.
    #[must_use]
    pub fn attributes_grew(&self) -> &[(usize, usize)] {
        &self.st.grew
    }

    /// The bytes of the input read into tokens so far.
    #[must_use]
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// Says whether the current node is in foreign content (SVG, MathML),
    /// from the next token on: there a start tag does not switch the text
    /// state, and `<![CDATA[` opens a CDATA section. Called after the tag
    /// that enters or leaves it (`<svg>`, `</svg>`, an HTML integration
    /// point, a tag that breaks out).
    pub fn set_foreign(&mut self, foreign: bool) {
        self.st.foreign = foreign;
    }

    /// Whether text of the data state is passed over: read as it is, but
    /// not handed out as [`Token::Text`] (a caller that has no use for
    /// it is spared a token for each run of text between tags). Text of
    /// the other states is handed out all the same.
    ///
    /// ```
    /// use urlspec_links::html::tokenizer::{Token, Tokenizer};
    ///
    /// let mut t = Tokenizer::new(b"<p>text<title>title</title>");
    /// t.skip_data_text(true);
    /// let mut texts = Vec::new();
    /// while let Some(token) = t.next() {
    ///     if let Token::Text(text) = token {
    ///         texts.push(text.decoded().into_owned());
    ///     }
    /// }
    /// assert_eq!(texts, ["title"]);
    /// ```
    pub fn skip_data_text(&mut self, skip: bool) {
        self.st.skip_data_text = skip;
    }

    /// Where the text of the data state last passed over
    /// ([`Tokenizer::skip_data_text`]) ends: the start of the markup after
    /// it, or the end of the input. The bytes a token that [`next`] did
    /// not hand out stands in start there or after it.
    ///
    /// [`next`]: Tokenizer::next
    ///
    /// ```
    /// use urlspec_links::html::tokenizer::Tokenizer;
    ///
    /// // The page ends in a tag, which is dropped: it starts at 5.
    /// let mut t = Tokenizer::new(b"<b>a <a href");
    /// t.skip_data_text(true);
    /// while t.next().is_some() {}
    /// assert_eq!(t.skipped_to(), 5);
    /// // The page ends in text: nothing is left after it.
    /// let mut t = Tokenizer::new(b"<b>text <");
    /// t.skip_data_text(true);
    /// while t.next().is_some() {}
    /// assert_eq!(t.skipped_to(), 9);
    /// ```
    #[must_use]
    pub fn skipped_to(&self) -> usize {
        self.skipped_to
    }

    /// Sets the text state, as the tree builder does; `last_start_tag`:
    /// the name whose end tag ends raw text and RCDATA (none: nothing
    /// ends them). Overrides the switch of the last start tag.
    pub fn set_state(
        &mut self,
        kind: TextKind,
        last_start_tag: Option<&[u8]>,
    ) {
        self.st.switch = None;
        self.st.content = kind;
        self.st.escape = Escape::None;
        self.st.appropriate.clear();
        if let Some(name) = last_start_tag {
            self.st.appropriate.extend_from_slice(name);
        }
    }

    /// The next token; `None` at the end of the input (of the page, or of
    /// a piece that needs the next one).
    #[allow(clippy::should_implement_trait)]
    // Inlined where the passes pull tokens, no token crosses a call: 1 %
    // fewer instructions on a crawl.
    #[inline]
    pub fn next(&mut self) -> Option<Token<'_>> {
        if let Some(kind) = self.st.switch.take() {
            self.st.content = kind;
            self.st.escape = Escape::None;
        }
        loop {
            if self.pos >= self.input.len() {
                return None;
            }
            let step = match self.st.content {
                TextKind::Data => self.data(),
                TextKind::RcData | TextKind::RawText => self.raw_text(),
                TextKind::Script => self.script(),
                TextKind::Plaintext => {
                    let start = self.pos;
                    self.pos = self.input.len();
                    self.text(start, self.pos, TextKind::Plaintext)
                }
                TextKind::CData => self.cdata(self.pos, self.pos),
            };
            match step {
                Step::Token(found) => return Some(self.token(found)),
                Step::Nothing => {}
                Step::More => return None,
            }
        }
    }

    /// The token of `found`.
    fn token(&self, found: Found) -> Token<'_> {
        let input = self.input;
        match found {
            Found::Start { start, end, name, self_closing } => {
                Token::StartTag(Tag {
                    input,
                    grew: &self.st.grew,
                    names: &self.st.names,
                    attrs: &self.st.attrs,
                    name,
                    start,
                    end,
                    self_closing,
                })
            }
            Found::End { start, end, name } => Token::EndTag(EndTag {
                name: name.get(input, &self.st.names),
                start,
                end,
            }),
            Found::Text { start, end, kind } => {
                Token::Text(Text { raw: &input[start..end], start, kind })
            }
            Found::Comment { start, end, data } => Token::Comment(Comment {
                raw: &input[data.0..data.1],
                start,
                end,
            }),
            Found::Doctype(found) => Token::Doctype(Doctype { input, found }),
        }
    }

    /// Text `start..end` of `kind`, if there is any.
    fn text(&self, start: usize, end: usize, kind: TextKind) -> Step {
        if end > start {
            Step::Token(Found::Text { start, end, kind })
        } else {
            Step::Nothing
        }
    }

    /// The input ended inside the token at `lt`: the next piece is
    /// needed, or, at the end of the page, `at_end` says what the token
    /// makes.
    fn ended(
        &mut self,
        lt: usize,
        at_end: impl FnOnce(&mut Self) -> Step,
    ) -> Step {
        if self.last {
            at_end(self)
        } else {
            self.pos = lt;
            Step::More
        }
    }

    /// The data state: text up to a `<` that opens markup.
    fn data(&mut self) -> Step {
        let b = self.input;
        let start = self.pos;
        let mut p = start;
        loop {
            let Some(lt) = find_near(b, p, b'<') else {
                self.pos = b.len();
                return self.data_text(start, b.len());
            };
            let Some(&next) = b.get(lt + 1) else {
                if self.last {
                    self.pos = b.len();
                    return self.data_text(start, b.len());
                }
                self.pos = lt;
                return if lt > start {
                    self.data_text(start, lt)
                } else {
                    Step::More
                };
            };
            if next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?')
            {
                if lt > start {
                    self.pos = lt;
                    // Text passed over: on to the markup in the same step.
                    if let step @ Step::Token(_) = self.data_text(start, lt) {
                        return step;
                    }
                }
                return self.markup(lt);
            }
            p = lt + 1;
        }
    }

    /// Text `start..end` of the data state, unless it is skipped.
    fn data_text(&mut self, start: usize, end: usize) -> Step {
        if self.st.skip_data_text {
            self.skipped_to = end;
            Step::Nothing
        } else {
            self.text(start, end, TextKind::Data)
        }
    }

    /// Markup at `lt`, the `<` of a tag, an end tag, `<!` or `<?`.
    fn markup(&mut self, lt: usize) -> Step {
        match self.input[lt + 1] {
            b'/' => self.end_tag_open(lt),
            b'!' => self.declaration(lt),
            b'?' => self.bogus_comment(lt, lt + 1),
            _ => self.tag(lt, true),
        }
    }

    /// `</` at `lt`.
    fn end_tag_open(&mut self, lt: usize) -> Step {
        match self.input.get(lt + 2) {
            None => self.ended(lt, |t| {
                t.pos = t.input.len();
                t.text(lt, lt + 2, TextKind::Data)
            }),
            Some(c) if c.is_ascii_alphabetic() => self.tag(lt, false),
            Some(b'>') => {
                self.pos = lt + 3;
                Step::Nothing
            }
            Some(_) => self.bogus_comment(lt, lt + 2),
        }
    }

    /// `<!` at `lt`: a comment, a DOCTYPE, a CDATA section or a bogus
    /// comment.
    fn declaration(&mut self, lt: usize) -> Step {
        let rest = &self.input[lt + 2..];
        let s = lt + 2;
        if rest.starts_with(b"--") {
            return self.comment(lt, s + 2);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"DOCTYPE") {
            return self.doctype(lt, s + 7);
        }
        if rest.starts_with(b"[CDATA[") {
            if self.st.foreign {
                return self.cdata(lt, s + 7);
            }
            return self.bogus_comment(lt, s);
        }
        let n = rest.len();
        let maybe = n < 2 && b"--".starts_with(rest)
            || n < 7 && b"DOCTYPE"[..n].eq_ignore_ascii_case(rest)
            || n < 7 && b"[CDATA["[..n] == *rest;
        if maybe && !self.last {
            self.pos = lt;
            return Step::More;
        }
        self.bogus_comment(lt, s)
    }

    /// A bogus comment from `lt`, its data from `s` to the next `>`.
    fn bogus_comment(&mut self, lt: usize, s: usize) -> Step {
        match memchr::memchr(b'>', &self.input[s..]) {
            Some(k) => {
                self.pos = s + k + 1;
                Step::Token(Found::Comment {
                    start: lt,
                    end: self.pos,
                    data: (s, s + k),
                })
            }
            None => self.ended(lt, |t| {
                t.pos = t.input.len();
                Step::Token(Found::Comment {
                    start: lt,
                    end: t.pos,
                    data: (s, t.pos),
                })
            }),
        }
    }

    /// A comment from `lt`, its data from `s` (after `<!--`): it ends at
    /// the first `-->` or `--!>`; `<!-->` and `<!--->` are empty.
    fn comment(&mut self, lt: usize, s: usize) -> Step {
        let b = self.input;
        let found = |data: (usize, usize), end: usize| {
            Step::Token(Found::Comment { start: lt, end, data })
        };
        // `<!-->` and `<!--->`.
        let empty = match (b.get(s), b.get(s + 1)) {
            (Some(b'>'), _) => Some(s + 1),
            (Some(b'-'), Some(b'>')) => Some(s + 2),
            _ => None,
        };
        if let Some(end) = empty {
            self.pos = end;
            return found((s, s), end);
        }
        let mut from = s;
        while let Some(k) = memchr::memchr(b'-', &b[from..]) {
            let j = from + k;
            match (b.get(j + 1), b.get(j + 2), b.get(j + 3)) {
                (Some(b'-'), Some(b'>'), _) => {
                    self.pos = j + 3;
                    return found((s, j), j + 3);
                }
                (Some(b'-'), Some(b'!'), Some(b'>')) => {
                    self.pos = j + 4;
                    return found((s, j), j + 4);
                }
                (None, _, _)
                | (Some(b'-'), None, _)
                | (Some(b'-'), Some(b'!'), None) => break,
                _ => from = j + 1,
            }
        }
        self.ended(lt, |t| {
            // At the end, the dashes of an unfinished end are not data.
            let d = &b[s..];
            let cut = if d.ends_with(b"--!") {
                3
            } else if d.ends_with(b"--") {
                2
            } else {
                usize::from(d.ends_with(b"-"))
            };
            t.pos = b.len();
            found((s, b.len() - cut), b.len())
        })
    }

    /// A CDATA section from `lt`, its text from `s` to `]]>`.
    fn cdata(&mut self, lt: usize, s: usize) -> Step {
        match memchr::memmem::find(&self.input[s..], b"]]>") {
            Some(k) => {
                self.pos = s + k + 3;
                self.st.content = TextKind::Data;
                self.text(s, s + k, TextKind::CData)
            }
            None => self.ended(lt, |t| {
                t.pos = t.input.len();
                t.text(s, t.pos, TextKind::CData)
            }),
        }
    }

    /// A DOCTYPE from `lt`, `s` after `<!DOCTYPE`.
    fn doctype(&mut self, lt: usize, s: usize) -> Step {
        let (found, end) = doctype::read(self.input, lt, s);
        match end {
            Some(end) => {
                self.pos = end;
                Step::Token(Found::Doctype(found))
            }
            None => self.ended(lt, |t| {
                t.pos = t.input.len();
                Step::Token(Found::Doctype(found))
            }),
        }
    }

    /// A start tag (`start`) or an end tag at `lt`, whose name starts
    /// with an ASCII letter.
    fn tag(&mut self, lt: usize, start: bool) -> Step {
        match self.read_tag(lt, start) {
            Ok((found, end)) => {
                self.pos = end;
                Step::Token(found)
            }
            // A tag the page ends in is dropped.
            Err(Eof) => self.ended(lt, |t| {
                t.pos = t.input.len();
                Step::Nothing
            }),
        }
    }

    /// The before/after attribute name and value states of a tag at `lt`.
    fn read_tag(
        &mut self,
        lt: usize,
        start_tag: bool,
    ) -> Result<(Found, usize), Eof> {
        let b = self.input;
        let len = b.len();
        let name_start = lt + if start_tag { 1 } else { 2 };
        let mut i = name_start;
        let mut classes = 0;
        loop {
            let c = class::of(*b.get(i).ok_or(Eof)?);
            if c & (WS | SLASH | GT) != 0 {
                break;
            }
            classes |= c;
            i += 1;
        }
        let st = &mut self.st;
        st.names.clear();
        st.attrs.clear();
        st.grew.clear();
        let name = st.name(b, name_start, i, classes);
        let mut self_closing = false;
        loop {
            while i < len && is_ws(b[i]) {
                i += 1;
            }
            match *b.get(i).ok_or(Eof)? {
                b'>' => {
                    i += 1;
                    break;
                }
                b'/' => {
                    i += 1;
                    if *b.get(i).ok_or(Eof)? == b'>' {
                        self_closing = true;
                        i += 1;
                        break;
                    }
                }
                first => {
                    // An attribute: its name (the first byte may be `=`).
                    let an = i;
                    if start_tag {
                        let n = st.attrs.len() + 1;
                        if n == 1 || n > 8 && (n - 1).is_power_of_two() {
                            st.grew.push((n, an));
                        }
                    }
                    let mut classes = class::of(first);
                    i += 1;
                    while let Some(&c) = b.get(i) {
                        let c = class::of(c);
                        if c & (WS | SLASH | GT | EQ) != 0 {
                            break;
                        }
                        classes |= c;
                        i += 1;
                    }
                    let name_end = i;
                    while i < len && is_ws(b[i]) {
                        i += 1;
                    }
                    let mut value = (name_end, name_end);
                    let has_value = b.get(i) == Some(&b'=');
                    if has_value {
                        i += 1;
                        while i < len && is_ws(b[i]) {
                            i += 1;
                        }
                        match *b.get(i).ok_or(Eof)? {
                            q @ (b'"' | b'\'') => {
                                let k = memchr::memchr(q, &b[i + 1..])
                                    .ok_or(Eof)?;
                                value = (i + 1, i + 1 + k);
                                i += k + 2;
                            }
                            b'>' => value = (i, i),
                            _ => {
                                let vs = i;
                                while i < len
                                    && class::of(b[i]) & (WS | GT) == 0
                                {
                                    i += 1;
                                }
                                value = (vs, i);
                            }
                        }
                    }
                    if start_tag {
                        let name = st.name(b, an, name_end, classes);
                        st.attrs.push(Attr {
                            name,
                            name_at: an,
                            has_value,
                            value,
                        });
                    }
                }
            }
        }
        if !start_tag {
            return Ok((Found::End { start: lt, end: i, name }, i));
        }
        st.drop_repeats(b);
        if st.options.switch_text && !st.foreign {
            if let Some(kind) = switch_for(name.get(b, &st.names), st.options)
            {
                st.switch = Some(kind);
                st.appropriate.clear();
                st.appropriate.extend_from_slice(name.get(b, &st.names));
            }
        }
        Ok((Found::Start { start: lt, end: i, name, self_closing }, i))
    }
}

/// The text state a start tag of the HTML namespace switches to.
fn switch_for(name: &[u8], options: Options) -> Option<TextKind> {
    Some(match name {
        b"title" | b"textarea" => TextKind::RcData,
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
            TextKind::RawText
        }
        b"noscript" if options.scripting => TextKind::RawText,
        b"script" => TextKind::Script,
        b"plaintext" => TextKind::Plaintext,
        _ => return None,
    })
}

/// The index of the first `byte` at or after `from`: the next sixteen
/// bytes looked at inline, then `memchr` (whose set-up costs more than
/// the look where the byte is near).
#[inline(always)]
fn find_near(b: &[u8], from: usize, byte: u8) -> Option<usize> {
    let near = b.len().min(from + 16);
    let at = urlspec_bytes::scan::first_of(&b[..near], from, [byte]);
    if at < near {
        return Some(at);
    }
    memchr::memchr(byte, &b[near..]).map(|k| near + k)
}

#[cfg(test)]
mod tests;
