//! The page scan of `urlspec links`, measured: each candidate reads the
//! same pages and does the links job on them — for each start tag of the
//! HTML elements that hold URLs, its URL attributes, their values decoded
//! and, where the candidate gives them, their byte offsets.
//!
//! | candidate | what runs |
//! |---|---|
//! | `document` | `urlspec_links::html::document`: the reading of a page (sniffing, the tokenizer's pass, resolution) |
//! | `document-lol` | the same with lol_html's reading, the reference (`html::Engine::Reference`) |
//! | `lol-scan` | lol_html with the handlers `html::scan` sets up (the `<template>` counter and its end-tag handlers, the links selector, `<style>`/`<noscript>` text when the page has them), a rewriter per page |
//! | `lol-one` | lol_html with one element handler on the links selector |
//! | `html5ever` | html5ever's tokenizer, switching to raw text as a tree builder would (no offsets) |
//! | `html5gum` | html5gum's tokenizer, its token iterator (a tag's name and attributes owned) |
//! | `html5gum-cb` | html5gum's callback emitter, with spans |
//! | `ours` | `urlspec_links::html::tokenizer`, with the tree facts links needs (template depth, foreign content) |
//! | `ours-tokens` | `urlspec_links::html::tokenizer`, every token and nothing done with it |
//!
//! ```sh
//! # MB/s, median of 7 rounds, contenders interleaved:
//! cargo run --release -p urlspec-bench --bin html_parsers -- NAME=PATH...
//! # one pass of each contender, for callgrind (see scripts/bench-page-scan.sh):
//! html_parsers --once NAME=PATH
//! # the pages, each as a file:
//! html_parsers --dump DIR NAME=PATH
//! ```
//!
//! A PATH is a WARC file, an `.html` file or a directory of them; with no
//! corpus, 2,000 generated pages of prose and links are read.

use std::cell::{Cell, RefCell};
use std::convert::Infallible;
use std::hint::black_box;
use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token as H5Token, TokenSink, TokenSinkResult,
    Tokenizer as H5Tokenizer,
};
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use lol_html::html_content::Element;
use lol_html::{element, text, HtmlRewriter, MemorySettings, Settings};
use urlspec::Spec;
use urlspec_bench::pages::{self, Pages};
use urlspec_links::html::entities::decode_attribute;
use urlspec_links::html::tokenizer::{Token, Tokenizer};
use urlspec_links::{html, Context};

/// The URL attributes of an element of the HTML namespace, as links reads
/// them (`meta content` counted whatever its `http-equiv`).
fn url_attributes(tag: &[u8]) -> &'static [&'static [u8]] {
    match tag {
        b"a" | b"area" => &[b"href", b"ping"],
        b"link" | b"base" => &[b"href"],
        b"img" | b"source" => &[b"src", b"srcset"],
        b"script" | b"iframe" | b"frame" | b"embed" | b"audio" | b"track" => {
            &[b"src"]
        }
        b"input" => &[b"src", b"formaction"],
        b"video" => &[b"src", b"poster"],
        b"form" => &[b"action"],
        b"button" => &[b"formaction"],
        b"blockquote" | b"q" | b"del" | b"ins" => &[b"cite"],
        b"object" => &[b"data"],
        b"body" | b"table" | b"td" => &[b"background"],
        b"meta" => &[b"content"],
        _ => &[],
    }
}

/// The selector of every element of [`url_attributes`].
const SELECTOR: &str = "a, area, link, base, img, script, iframe, frame, embed, source, \
                        audio, video, track, input, form, button, blockquote, q, del, ins, \
                        object, body, table, td, meta";

/// What a candidate found: the URL values, their decoded bytes, and a sum
/// of their offsets (so that none is optimised away).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Tally {
    urls: usize,
    bytes: usize,
    offsets: usize,
}

impl Tally {
    fn add(&mut self, value: &str, offset: usize) {
        self.urls += 1;
        self.bytes += black_box(value).len();
        self.offsets = self.offsets.wrapping_add(offset);
    }
}

/// A candidate: a pass over every page.
struct Candidate {
    name: &'static str,
    run: fn(&[Vec<u8>]) -> Tally,
}

const CANDIDATES: [Candidate; 9] = [
    Candidate { name: "document", run: cand_document },
    Candidate { name: "document-lol", run: cand_document_lol },
    Candidate { name: "lol-scan", run: cand_lol_scan },
    Candidate { name: "lol-one", run: cand_lol_one },
    Candidate { name: "html5ever", run: cand_html5ever },
    Candidate { name: "html5gum", run: cand_html5gum },
    Candidate { name: "html5gum-cb", run: cand_html5gum_cb },
    Candidate { name: "ours", run: cand_ours },
    Candidate { name: "ours-tokens", run: cand_ours_tokens },
];

#[inline(never)]
fn cand_document(pages: &[Vec<u8>]) -> Tally {
    let ctx = Context::new(Spec::Rfc3986);
    let base =
        ctx.establish().retrieval(&["http://example.com/dir/page.html"]);
    let mut t = Tally::default();
    for page in pages {
        let doc = html::document(page, "p", &base, &ctx);
        for l in &doc.links {
            t.add(&l.reference, l.offset);
        }
    }
    t
}

#[inline(never)]
fn cand_document_lol(pages: &[Vec<u8>]) -> Tally {
    html::with_engine(html::Engine::Reference, || cand_document(pages))
}

/// The element's URL attributes, decoded, into `t`.
fn lol_collect(el: &Element<'_, '_>, t: &mut Tally) {
    let tag = el.tag_name();
    let wanted = url_attributes(tag.as_bytes());
    if wanted.is_empty() {
        return;
    }
    let mut seen = 0u32;
    for attr in el.attributes() {
        let name = attr.name();
        let Some(k) = wanted.iter().position(|w| *w == name.as_bytes()) else {
            continue;
        };
        if seen & (1 << k) != 0 {
            continue;
        }
        seen |= 1 << k;
        let start =
            attr.value_source_location().map_or(0, |l| l.bytes().start);
        t.add(&decode_attribute(&attr.value()), start);
    }
}

#[inline(never)]
fn cand_lol_one(pages: &[Vec<u8>]) -> Tally {
    let t = RefCell::new(Tally::default());
    for page in pages {
        let links = element!(SELECTOR, |el| {
            lol_collect(el, &mut t.borrow_mut());
            Ok(())
        });
        let settings = Settings::new().append_element_content_handler(links);
        let mut w = HtmlRewriter::new(settings, |_: &[u8]| {});
        let _ = w.write(page);
        let _ = w.end();
    }
    t.into_inner()
}

#[inline(never)]
fn cand_lol_scan(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        lol_scan(page, 0, &mut t);
    }
    t
}

/// A page as `html::scan` reads it with lol_html: the same handlers, the
/// style sheets' URLs by `html::css`, `<noscript>` contents read again.
fn lol_scan(page: &[u8], depth: usize, t: &mut Tally) {
    let needs = needs(page);
    let tally = RefCell::new(std::mem::take(t));
    let templates = Rc::new(Cell::new(0usize));
    // The raw text element read last: its range, and whether it is a
    // style sheet.
    let pending: RefCell<Option<(usize, usize, bool)>> = RefCell::new(None);
    let flush = |tally: &mut Tally| {
        if let Some((s, e, style)) = pending.borrow_mut().take() {
            let raw = &page[s..e.max(s)];
            if style {
                let css = String::from_utf8_lossy(raw);
                for (_, at, url) in html::css::urls(&css) {
                    tally.add(&url, s + at);
                }
            } else if depth < 4 {
                lol_scan(raw, depth + 1, tally);
            }
        }
    };
    {
        let tt = templates.clone();
        let template = element!("template", move |el| {
            tt.set(tt.get() + 1);
            let tt = tt.clone();
            let end: lol_html::EndTagHandler<'static> = Box::new(move |_| {
                tt.set(tt.get().saturating_sub(1));
                Ok(())
            });
            let _ = el.on_end_tag(end);
            Ok(())
        });
        let links = element!(SELECTOR, |el| {
            let mut tally = tally.borrow_mut();
            flush(&mut tally);
            black_box(templates.get());
            lol_collect(el, &mut tally);
            Ok(())
        });
        let raw_selector = match (needs.0, needs.1) {
            (true, true) => "noscript, style",
            (true, false) => "style",
            _ => "noscript",
        };
        let raw_text = element!(raw_selector, |el| {
            flush(&mut tally.borrow_mut());
            let start = el.source_location().bytes().end;
            *pending.borrow_mut() =
                Some((start, start, el.tag_name() == "style"));
            Ok(())
        });
        let chunks = text!(raw_selector, |chunk| {
            let end = chunk.source_location().bytes().end;
            if let Some(p) = &mut *pending.borrow_mut() {
                p.1 = p.1.max(end);
            }
            Ok(())
        });
        let mut settings = Settings::new().with_memory_settings(
            MemorySettings::new()
                .with_max_allowed_memory_usage((8 << 20) >> depth),
        );
        if needs.2 {
            settings = settings.append_element_content_handler(template);
        }
        settings = settings.append_element_content_handler(links);
        if needs.0 || needs.1 {
            settings = settings
                .append_element_content_handler(raw_text)
                .append_element_content_handler(chunks);
        }
        let mut w = HtmlRewriter::new(settings, |_: &[u8]| {});
        for chunk in page.chunks(64 << 10) {
            if w.write(chunk).is_err() {
                break;
            }
        }
        let _ = w.end();
    }
    let mut tally = tally.into_inner();
    flush(&mut tally);
    *t = tally;
}

/// Whether a page has `style` (an element or an attribute), `<noscript`
/// and `<template`, looked for as `html::scan` looks.
fn needs(b: &[u8]) -> (bool, bool, bool) {
    let style = memchr::memchr2_iter(b'y', b'Y', b).any(|i| {
        let Some(word) = i.checked_sub(2).and_then(|p| b.get(p..i + 3)) else {
            return false;
        };
        if !word.eq_ignore_ascii_case(b"style") || i < 3 {
            return false;
        }
        let before = b[i - 3];
        let after = b[i + 3..].iter().find(|c| !c.is_ascii_whitespace());
        before == b'<'
            || (matches!(before, b'"' | b'\'' | b'/')
                || before.is_ascii_whitespace())
                && after == Some(&b'=')
    });
    let (mut noscript, mut template) = (false, false);
    for i in memchr::memchr_iter(b'<', b) {
        let name = |n: &[u8]| {
            b.get(i + 1..i + 1 + n.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(n))
        };
        noscript |= name(b"noscript");
        template |= name(b"template");
        if noscript && template {
            break;
        }
    }
    (style, noscript, template)
}

/// html5ever's sink: the links job, and the raw text switch.
struct Sink(RefCell<Tally>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(
        &self,
        token: H5Token,
        _line: u64,
    ) -> TokenSinkResult<()> {
        if let H5Token::TagToken(Tag {
            kind: TagKind::StartTag,
            name,
            attrs,
            ..
        }) = token
        {
            let wanted = url_attributes(name.as_bytes());
            let mut seen = 0u32;
            for a in &attrs {
                let Some(k) =
                    wanted.iter().position(|w| *w == a.name.local.as_bytes())
                else {
                    continue;
                };
                if seen & (1 << k) == 0 {
                    seen |= 1 << k;
                    self.0.borrow_mut().add(&a.value, 0);
                }
            }
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
        TokenSinkResult::Continue
    }
}

#[inline(never)]
fn cand_html5ever(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        let input = BufferQueue::default();
        input
            .push_back(StrTendril::from_slice(&String::from_utf8_lossy(page)));
        let tok = H5Tokenizer::new(
            Sink(RefCell::new(Tally::default())),
            Default::default(),
        );
        let _ = tok.feed(&input);
        tok.end();
        let found = *tok.sink.0.borrow();
        t.urls += found.urls;
        t.bytes += found.bytes;
    }
    t
}

#[inline(never)]
fn cand_html5gum(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        let mut emitter = html5gum::DefaultEmitter::<usize>::new_with_span();
        emitter.naively_switch_states(true);
        for token in html5gum::Tokenizer::new_with_emitter(page, emitter) {
            let Ok(html5gum::Token::StartTag(tag)) = token else { continue };
            for name in url_attributes(&tag.name) {
                if let Some(v) = tag.attributes.get(*name) {
                    t.add(&String::from_utf8_lossy(v), v.span.start);
                }
            }
        }
    }
    t
}

#[inline(never)]
fn cand_html5gum_cb(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        let mut wanted: &[&[u8]] = &[];
        let mut at: Option<usize> = None;
        let mut seen = 0u32;
        let tally = &mut t;
        let mut emitter = CallbackEmitter::new(
            |event: CallbackEvent<'_>,
             span: html5gum::Span<usize>|
             -> Option<Infallible> {
                match event {
                    CallbackEvent::OpenStartTag { name } => {
                        wanted = url_attributes(name);
                        seen = 0;
                    }
                    CallbackEvent::AttributeName { name } => {
                        at = wanted.iter().position(|w| *w == name);
                    }
                    CallbackEvent::AttributeValue { value } => {
                        if let Some(k) = at.take() {
                            if seen & (1 << k) == 0 {
                                seen |= 1 << k;
                                tally.add(
                                    &String::from_utf8_lossy(value),
                                    span.start,
                                );
                            }
                        }
                    }
                    _ => {}
                }
                None
            },
        );
        emitter.naively_switch_states(true);
        for _ in html5gum::Tokenizer::new_with_emitter(page, emitter) {}
    }
    t
}

#[inline(never)]
fn cand_ours(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        let mut tokens = Tokenizer::new(page);
        // The tree facts the links need: inside a template, in foreign
        // content.
        let (mut templates, mut foreign) = (0usize, 0usize);
        while let Some(token) = tokens.next() {
            let mut enter = None;
            match token {
                Token::StartTag(tag) => {
                    let name = tag.name();
                    match name {
                        b"svg" | b"math" if !tag.self_closing() => {
                            enter = Some(true)
                        }
                        b"template" if foreign == 0 => templates += 1,
                        _ => {}
                    }
                    let wanted =
                        if foreign == 0 { url_attributes(name) } else { &[] };
                    if !wanted.is_empty() {
                        for a in tag.attributes() {
                            if wanted.contains(&a.name()) {
                                black_box(templates);
                                t.add(&a.value(), a.value_offset());
                            }
                        }
                    }
                }
                Token::EndTag(end) => match end.name() {
                    b"svg" | b"math" if foreign > 0 => enter = Some(false),
                    b"template" if foreign == 0 => {
                        templates = templates.saturating_sub(1)
                    }
                    _ => {}
                },
                _ => {}
            }
            match enter {
                Some(true) => foreign += 1,
                Some(false) => foreign -= 1,
                None => continue,
            }
            tokens.set_foreign(foreign > 0);
        }
    }
    t
}

#[inline(never)]
fn cand_ours_tokens(pages: &[Vec<u8>]) -> Tally {
    let mut t = Tally::default();
    for page in pages {
        let mut tokens = Tokenizer::new(page);
        while let Some(token) = tokens.next() {
            t.urls += 1;
            if let Token::StartTag(tag) = token {
                t.bytes += tag.attributes().len();
            }
        }
    }
    t
}

/// Pages of prose and links, the links taken from the kasztp corpus.
fn generated() -> Pages {
    let urls: Vec<String> = match urlspec_bench::Corpus::load("kasztp.txt") {
        Ok(c) => c.urls().into_iter().map(String::from).collect(),
        Err(e) => {
            eprintln!("{e}; using a built-in URL");
            vec!["http://example.com/a/b?c=d&amp;e".into()]
        }
    };
    let mut out = Vec::new();
    let mut k = 0;
    for p in 0..2000 {
        let mut page =
            String::from("<!DOCTYPE html><html><head><title>t</title>");
        page.push_str("<link rel=stylesheet href=\"/s.css\"></head><body>");
        for i in 0..60 {
            let u = &urls[k % urls.len()];
            k += 1;
            page.push_str(
                "<p>Some text of the page &amp; more words here.</p>",
            );
            match i % 4 {
                0 => page.push_str(&format!("<a href=\"{u}\">link {p}</a>")),
                1 => page.push_str(&format!("<img src=\"{u}\" alt=x>")),
                2 => page.push_str(&format!("<script src=\"{u}\"></script>")),
                _ => page.push_str(&format!("<a class=c href='{u}'>x</a>")),
            }
        }
        page.push_str("</body></html>");
        out.push(page.into_bytes());
    }
    Pages { name: "generated".into(), pages: out, file_bytes: 0, left_out: 0 }
}

fn main() {
    let mut rounds = 7;
    let mut once = false;
    let mut only: Option<Vec<String>> = None;
    let mut dump: Option<String> = None;
    let mut corpora = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--once" => once = true,
            "--dump" => dump = args.next(),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            "--only" => {
                only = args
                    .next()
                    .map(|s| s.split(',').map(String::from).collect());
            }
            spec => {
                let (name, path) = spec.split_once('=').expect("NAME=PATH");
                let pages = pages::load(name, Path::new(path))
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
                corpora.push(pages);
            }
        }
    }
    if corpora.is_empty() {
        corpora.push(generated());
    }
    let candidates: Vec<&Candidate> = CANDIDATES
        .iter()
        .filter(|c| {
            only.as_ref().is_none_or(|o| o.iter().any(|n| n == c.name))
        })
        .collect();
    for corpus in &corpora {
        println!(
            "corpus {}: {} pages, {} bytes of HTML, {} bytes of files, {} left out",
            corpus.name,
            corpus.pages.len(),
            corpus.bytes(),
            corpus.file_bytes,
            corpus.left_out
        );
    }
    if let Some(dir) = dump {
        // Each page as a file, for other tools to read.
        for corpus in &corpora {
            for (i, page) in corpus.pages.iter().enumerate() {
                let path = format!("{dir}/{}-{i:05}.html", corpus.name);
                std::fs::write(&path, page)
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
            }
        }
        return;
    }
    if once {
        // One pass of each, for an instruction count of each `cand_`
        // function.
        for corpus in &corpora {
            for c in &candidates {
                let t = (c.run)(&corpus.pages);
                println!("{} {} {:?}", corpus.name, c.name, t);
            }
        }
        return;
    }
    for corpus in &corpora {
        let mut times = vec![Vec::new(); candidates.len()];
        let mut tallies = vec![Tally::default(); candidates.len()];
        for _ in 0..rounds {
            for (i, c) in candidates.iter().enumerate() {
                let start = Instant::now();
                tallies[i] = (c.run)(&corpus.pages);
                times[i].push(start.elapsed().as_secs_f64());
            }
        }
        let bytes = corpus.bytes() as f64;
        println!("\n{}: median of {rounds} rounds", corpus.name);
        println!("| candidate | ms | MB/s of HTML | URL values |");
        println!("|---|---:|---:|---:|");
        for (i, c) in candidates.iter().enumerate() {
            times[i].sort_by(f64::total_cmp);
            let t = times[i][times[i].len() / 2];
            println!(
                "| {} | {:.1} | {:.0} | {} |",
                c.name,
                t * 1e3,
                bytes / 1e6 / t,
                tallies[i].urls
            );
        }
    }
}
