//! `html::tokenizer` on arbitrary bytes: it never panics, its tokens come
//! in order inside the input, a page given in two pieces gives the tokens
//! of the whole; and two differentials — every token against html5ever's
//! tokenizer (both switching text states the same way), and every start
//! tag with its attributes' raw values and offsets against lol_html, which
//! `urlspec links` reads pages with, its foreign content followed as
//! lol_html's tree builder simulation follows it, a NUL of a name made
//! U+FFFD as the Standard makes it (lol_html keeps it), no offset for a
//! missing value (`a=>`, which lol_html gives none), and a byte order mark
//! that starts a name or value dropped (lol_html decodes them sniffing
//! one; a name that then repeats an earlier one is left out, as lol_html's
//! side leaves out repeated names).

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token as H5, TokenSink, TokenSinkResult,
    Tokenizer as H5Tokenizer, TokenizerOpts,
};
use lol_html::{element, HtmlRewriter, Settings};
use urlspec_links::html::tokenizer::{
    decode, Options, State, TextKind, Token, Tokenizer,
};

/// The properties, on `data`.
pub fn html_tokenizer(data: &[u8]) {
    for scripting in [false, true] {
        let options = Options { scripting, ..Options::default() };
        let whole = in_order(data, options);
        let cut =
            data.first().map_or(0, |&b| usize::from(b) * data.len() / 256);
        assert_eq!(pieces(data, options, cut), whole, "cut at {cut}");
    }
    let text = String::from_utf8_lossy(data);
    let ours = ours_as_html5ever(text.as_bytes());
    assert_eq!(ours, with_html5ever(&text), "html5ever");
    let ours = start_tags_as_lol_html(text.as_bytes());
    let lol = with_lol_html(text.as_bytes());
    // lol_html stops at a memory limit or where it cannot tell the
    // context (text switches inside `<select>` or after `<frameset>`):
    // what it gave by then agrees.
    match lol {
        Ok(lol) => assert_eq!(ours, lol, "lol_html"),
        Err(lol) => {
            assert_eq!(ours[..lol.len().min(ours.len())], lol[..], "lol_html")
        }
    }
}

/// The tokens of `data`, each as a line, checking that they come in
/// order inside the input.
fn in_order(data: &[u8], options: Options) -> Vec<String> {
    let mut t = Tokenizer::with_options(data, options);
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(token) = t.next() {
        let (start, end) = span(data, &token);
        assert!(
            at <= start && start <= end && end <= data.len(),
            "{at} {start} {end}"
        );
        at = end;
        out.push(line(&token));
    }
    assert_eq!(t.consumed(), data.len());
    joined(out)
}

/// `data` given in two pieces cut at `cut`.
fn pieces(data: &[u8], options: Options, cut: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut t = Tokenizer::partial(&data[..cut], State::new(options), false);
    while let Some(token) = t.next() {
        out.push(line(&token));
    }
    let at = t.consumed();
    assert!(at <= cut);
    let mut t = Tokenizer::partial(&data[at..], t.into_state(), true);
    while let Some(token) = t.next() {
        out.push(line(&token));
    }
    joined(out)
}

/// The offsets of a token in `data`, checking that what it borrows is in
/// it.
fn span(data: &[u8], token: &Token<'_>) -> (usize, usize) {
    let inside = |s: &[u8]| {
        let base = data.as_ptr() as usize;
        let p = s.as_ptr() as usize;
        s.is_empty() || (p >= base && p + s.len() <= base + data.len())
    };
    match token {
        Token::StartTag(t) => {
            for a in t.attributes() {
                let v = a.raw_value();
                assert!(inside(v));
                assert!(
                    t.offset() < a.name_offset()
                        && a.value_offset() + v.len() <= t.end()
                );
                assert_eq!(
                    &data[a.value_offset()..a.value_offset() + v.len()],
                    v
                );
            }
            (t.offset(), t.end())
        }
        Token::EndTag(t) => (t.offset(), t.end()),
        Token::Text(t) => {
            assert!(inside(t.raw()));
            (t.offset(), t.offset() + t.raw().len())
        }
        Token::Comment(c) => {
            assert!(inside(c.raw()));
            (c.offset(), c.end())
        }
        Token::Doctype(d) => (d.offset(), d.offset()),
    }
}

/// A token as a line; a text as written.
fn line(token: &Token<'_>) -> String {
    match token {
        Token::StartTag(t) => {
            let mut s = format!("<{}", String::from_utf8_lossy(t.name()));
            for a in t.attributes() {
                s += &format!(
                    " {}={:?}",
                    String::from_utf8_lossy(a.name()),
                    a.value()
                );
            }
            s + if t.self_closing() { "/>" } else { ">" }
        }
        Token::EndTag(t) => {
            format!("</{}>", String::from_utf8_lossy(t.name()))
        }
        Token::Text(t) => {
            format!("\"{:?}|{}", t.kind(), t.raw().escape_ascii())
        }
        Token::Comment(c) => format!("<!--{}-->", c.data()),
        Token::Doctype(d) => format!(
            "<!DOCTYPE {:?} {:?} {:?} {}>",
            d.name(),
            d.public_id(),
            d.system_id(),
            d.force_quirks()
        ),
    }
}

/// `lines` with neighbouring texts of one kind joined (a text may come in
/// parts).
fn joined(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in lines {
        if let (Some(last), Some((kind, text))) =
            (out.last_mut(), l.split_once('|'))
        {
            if l.starts_with('"') && last.starts_with(&format!("{kind}|")) {
                last.push_str(text);
                continue;
            }
        }
        out.push(l);
    }
    out
}

/// A token as the html5ever differential shows it: a text decoded, texts
/// joined.
enum Shown {
    Token(String),
    Text(String),
}

fn push(out: &mut Vec<Shown>, s: Shown) {
    if let (Some(Shown::Text(last)), Shown::Text(t)) = (out.last_mut(), &s) {
        last.push_str(t);
        return;
    }
    if !matches!(&s, Shown::Text(t) if t.is_empty()) {
        out.push(s);
    }
}

fn lines(shown: Vec<Shown>) -> Vec<String> {
    shown
        .into_iter()
        .map(|s| match s {
            Shown::Token(t) => t,
            Shown::Text(t) => format!("{t:?}"),
        })
        .collect()
}

fn tag_line(
    name: &str,
    attrs: &[(String, String)],
    self_closing: bool,
) -> String {
    let mut s = format!("<{name}");
    for (n, v) in attrs {
        s += &format!(" {n}={v:?}");
    }
    s + if self_closing { "/>" } else { ">" }
}

fn ours_as_html5ever(data: &[u8]) -> Vec<String> {
    let mut t = Tokenizer::new(data);
    let mut out = Vec::new();
    // Texts of one kind are decoded joined (a reference, or CR LF, may
    // straddle two parts).
    let mut raw: Vec<u8> = Vec::new();
    let mut kind = TextKind::Data;
    let flush = |raw: &mut Vec<u8>, kind: TextKind, out: &mut Vec<Shown>| {
        if !raw.is_empty() {
            let text =
                decode::text(&String::from_utf8_lossy(raw), kind).into_owned();
            push(out, Shown::Text(text));
            raw.clear();
        }
    };
    while let Some(token) = t.next() {
        if let Token::Text(x) = &token {
            if x.kind() != kind {
                flush(&mut raw, kind, &mut out);
                kind = x.kind();
            }
            raw.extend_from_slice(x.raw());
            continue;
        }
        flush(&mut raw, kind, &mut out);
        push(
            &mut out,
            Shown::Token(match token {
                Token::StartTag(tag) => {
                    let attrs: Vec<(String, String)> = tag
                        .attributes()
                        .map(|a| {
                            (
                                String::from_utf8_lossy(a.name()).into_owned(),
                                a.value().into_owned(),
                            )
                        })
                        .collect();
                    tag_line(
                        &String::from_utf8_lossy(tag.name()),
                        &attrs,
                        tag.self_closing(),
                    )
                }
                Token::EndTag(e) => {
                    format!("</{}>", String::from_utf8_lossy(e.name()))
                }
                Token::Comment(c) => format!("<!--{}-->", c.data()),
                Token::Doctype(d) => doctype_line(
                    d.name().map(|n| n.into_owned()),
                    d.public_id().map(|n| n.into_owned()),
                    d.system_id().map(|n| n.into_owned()),
                    d.force_quirks(),
                ),
                Token::Text(_) => unreachable!(),
            }),
        );
    }
    flush(&mut raw, kind, &mut out);
    lines(out)
}

fn doctype_line(
    name: Option<String>,
    public: Option<String>,
    system: Option<String>,
    quirks: bool,
) -> String {
    format!("<!DOCTYPE {name:?} {public:?} {system:?} {quirks}>")
}

struct Sink(RefCell<Vec<Shown>>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: H5, _line: u64) -> TokenSinkResult<()> {
        let mut out = self.0.borrow_mut();
        match token {
            H5::TagToken(Tag { kind, name, self_closing, attrs, .. }) => {
                if kind == TagKind::EndTag {
                    push(&mut out, Shown::Token(format!("</{}>", &*name)));
                    return TokenSinkResult::Continue;
                }
                let attrs: Vec<(String, String)> = attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                push(
                    &mut out,
                    Shown::Token(tag_line(&name, &attrs, self_closing)),
                );
                return match &*name {
                    "title" | "textarea" => {
                        TokenSinkResult::RawData(RawKind::Rcdata)
                    }
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        TokenSinkResult::RawData(RawKind::Rawtext)
                    }
                    "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                    "plaintext" => TokenSinkResult::Plaintext,
                    _ => TokenSinkResult::Continue,
                };
            }
            H5::CharacterTokens(t) => {
                push(&mut out, Shown::Text(t.to_string()))
            }
            H5::NullCharacterToken => push(&mut out, Shown::Text("\0".into())),
            H5::CommentToken(c) => {
                push(&mut out, Shown::Token(format!("<!--{c}-->")))
            }
            H5::DoctypeToken(d) => push(
                &mut out,
                Shown::Token(doctype_line(
                    d.name.map(|n| n.to_string()),
                    d.public_id.map(|n| n.to_string()),
                    d.system_id.map(|n| n.to_string()),
                    d.force_quirks,
                )),
            ),
            H5::EOFToken | H5::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}

fn with_html5ever(text: &str) -> Vec<String> {
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(text));
    // The byte order mark is the caller's (the encoding sniffing takes it).
    let opts =
        TokenizerOpts { discard_bom: false, ..TokenizerOpts::default() };
    let tok = H5Tokenizer::new(Sink(RefCell::new(Vec::new())), opts);
    let _ = tok.feed(&input);
    tok.end();
    let shown = tok.sink.0.take();
    lines(shown)
}

/// A start tag as lol_html shows it: its name, and each attribute's name,
/// raw value and the offset of its value.
fn lol_line(name: &str, attrs: &[(String, String, Option<usize>)]) -> String {
    let mut s = format!("<{name}");
    for (n, v, at) in attrs {
        s += &format!(" {n}={v:?}@{at:?}");
    }
    s + ">"
}

/// Adds `attr` (name, value, offset) unless an earlier one has its name:
/// both sides of the lol_html differential keep the first of repeats.
fn push_first(
    attrs: &mut Vec<(String, String, Option<usize>)>,
    attr: (String, String, Option<usize>),
) {
    if !attrs.iter().any(|(n, _, _)| *n == attr.0) {
        attrs.push(attr);
    }
}

fn with_lol_html(data: &[u8]) -> Result<Vec<String>, Vec<String>> {
    let out = RefCell::new(Vec::new());
    let ok = {
        let all = element!("*", |el| {
            let mut attrs: Vec<(String, String, Option<usize>)> = Vec::new();
            for a in el.attributes() {
                // lol_html keeps a NUL of a name; the Standard makes it
                // U+FFFD.
                let name = a.name().replace('\0', "\u{FFFD}");
                let at = a.value_source_location().map(|l| l.bytes().start);
                push_first(&mut attrs, (name, a.value(), at));
            }
            let tag = el.tag_name().replace('\0', "\u{FFFD}");
            out.borrow_mut().push(lol_line(&tag, &attrs));
            Ok(())
        });
        let settings = Settings::new().append_element_content_handler(all);
        let mut w = HtmlRewriter::new(settings, |_: &[u8]| {});
        w.write(data).and_then(|()| w.end()).is_ok()
    };
    let out = out.into_inner();
    if ok {
        Ok(out)
    } else {
        Err(out)
    }
}

/// Our start tags in lol_html's terms: scripting on (lol_html reads
/// `noscript` as raw text), foreign content followed as lol_html follows
/// it.
fn start_tags_as_lol_html(data: &[u8]) -> Vec<String> {
    let options = Options { scripting: true, ..Options::default() };
    let mut t = Tokenizer::with_options(data, options);
    let mut ns = Namespaces::default();
    let mut out = Vec::new();
    while let Some(token) = t.next() {
        let foreign = match token {
            Token::StartTag(tag) => {
                let mut attrs: Vec<(String, String, Option<usize>)> =
                    Vec::new();
                for a in tag.attributes() {
                    // lol_html gives no offset for a missing value
                    // (`a=>`), as for no value.
                    let missing = a.raw_value().is_empty()
                        && data.get(a.value_offset()) == Some(&b'>');
                    let at = (a.has_value() && !missing)
                        .then_some(a.value_offset());
                    // lol_html decodes a name or value sniffing a byte
                    // order mark, which it drops.
                    let bom = |b: &[u8]| {
                        let s = String::from_utf8_lossy(b);
                        s.strip_prefix('\u{FEFF}').unwrap_or(&s).to_string()
                    };
                    // A name the dropped mark makes the same as an earlier
                    // one (`y`, then U+FEFF `y`) is a repeat to lol_html.
                    push_first(
                        &mut attrs,
                        (bom(a.name()), bom(a.raw_value()), at),
                    );
                }
                out.push(lol_line(
                    &String::from_utf8_lossy(tag.name()),
                    &attrs,
                ));
                ns.start(&tag)
            }
            Token::EndTag(end) => ns.end(end.name()),
            _ => continue,
        };
        t.set_foreign(foreign);
    }
    out
}

/// The namespaces lol_html's tree builder simulation keeps.
#[derive(Default)]
struct Namespaces {
    /// Above the HTML of the page: `true` for SVG or MathML (and which),
    /// `false` for HTML (an integration point).
    stack: Vec<Ns>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

impl Namespaces {
    fn current(&self) -> Ns {
        self.stack.last().copied().unwrap_or(Ns::Html)
    }

    fn foreign(&self) -> bool {
        self.current() != Ns::Html
    }

    fn start(
        &mut self,
        tag: &urlspec_links::html::tokenizer::Tag<'_>,
    ) -> bool {
        let name = tag.name();
        match name {
            b"svg" => self.stack.push(Ns::Svg),
            b"math" => self.stack.push(Ns::Math),
            _ if self.current() == Ns::Html => {}
            _ if breaks_out(name) => {
                self.stack.pop();
            }
            _ => {
                let integration = match self.current() {
                    Ns::Svg => {
                        matches!(name, b"desc" | b"title" | b"foreignobject")
                    }
                    Ns::Math => matches!(
                        name,
                        b"mi" | b"mo" | b"mn" | b"ms" | b"mtext"
                    ),
                    Ns::Html => false,
                };
                let font = name == b"font"
                    && tag.attributes().any(|a| {
                        matches!(a.name(), b"color" | b"size" | b"face")
                    });
                let annotation = self.current() == Ns::Math
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
                } else if font {
                    self.stack.pop();
                }
            }
        }
        self.foreign()
    }

    fn end(&mut self, name: &[u8]) -> bool {
        match self.current() {
            Ns::Html => {
                let n = self.stack.len();
                let prev = (n >= 2).then(|| self.stack[n - 2]);
                let leaves = match prev {
                    Some(Ns::Math) => {
                        matches!(
                            name,
                            b"mi"
                                | b"mo"
                                | b"mn"
                                | b"ms"
                                | b"mtext"
                                | b"annotation-xml"
                        )
                    }
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
        self.foreign()
    }
}

/// The start tags that end foreign content in lol_html's simulation.
fn breaks_out(name: &[u8]) -> bool {
    matches!(
        name,
        b"b" | b"big"
            | b"blockquote"
            | b"body"
            | b"br"
            | b"center"
            | b"code"
            | b"dd"
            | b"div"
            | b"dl"
            | b"dt"
            | b"em"
            | b"embed"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"head"
            | b"hr"
            | b"i"
            | b"img"
            | b"li"
            | b"listing"
            | b"menu"
            | b"meta"
            | b"nobr"
            | b"ol"
            | b"p"
            | b"pre"
            | b"ruby"
            | b"s"
            | b"small"
            | b"span"
            | b"strong"
            | b"strike"
            | b"sub"
            | b"sup"
            | b"table"
            | b"tt"
            | b"u"
            | b"ul"
            | b"var"
    )
}
