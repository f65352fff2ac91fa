//! Measures the two HTML parsers considered for `urlspec links` on the same
//! pages: `lol_html` (streaming rewriter; attribute value offsets) and
//! `html5ever`'s tokenizer (entity-decoded values; no byte offsets). Each
//! collects the URL attributes of `a`, `img`, `link` and `script`.
//!
//! ```sh
//! cargo run --release -p urlspec-bench --bin html_parsers
//! ```

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Instant;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use lol_html::{element, HtmlRewriter, Settings};

/// Pages of prose and links, the links taken from the kasztp corpus.
fn pages() -> Vec<String> {
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
        out.push(page);
    }
    out
}

fn with_lol_html(pages: &[String]) -> usize {
    let mut n = 0;
    for page in pages {
        let found = RefCell::new(0usize);
        let handler = element!("a, img, link, script", |el| {
            for name in ["href", "src"] {
                if let Some(v) = el.get_attribute(name) {
                    let v = html_escape::decode_html_entities(&v).len();
                    *found.borrow_mut() += black_box(v).min(1);
                }
            }
            Ok(())
        });
        let settings = Settings::new().append_element_content_handler(handler);
        let mut w = HtmlRewriter::new(settings, |_: &[u8]| {});
        w.write(page.as_bytes()).unwrap();
        w.end().unwrap();
        n += found.into_inner();
    }
    n
}

struct Sink(RefCell<usize>);

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        if let Token::TagToken(Tag {
            kind: TagKind::StartTag,
            name,
            attrs,
            ..
        }) = token
        {
            if matches!(&*name, "a" | "img" | "link" | "script") {
                for a in &attrs {
                    if matches!(&*a.name.local, "href" | "src") {
                        *self.0.borrow_mut() +=
                            black_box(a.value.len()).min(1);
                    }
                }
            }
        }
        TokenSinkResult::Continue
    }
}

fn with_html5ever(pages: &[String]) -> usize {
    let mut n = 0;
    for page in pages {
        let input = BufferQueue::default();
        input.push_back(StrTendril::from_slice(page));
        let tok = Tokenizer::new(Sink(RefCell::new(0)), Default::default());
        let _ = tok.feed(&input);
        tok.end();
        n += *tok.sink.0.borrow();
    }
    n
}

/// A parser run over every page, giving the number of URLs found.
type Collect = fn(&[String]) -> usize;

fn main() {
    let pages = pages();
    let bytes: usize = pages.iter().map(String::len).sum();
    let parsers: [(&str, Collect); 2] =
        [("lol_html", with_lol_html), ("html5ever tokenizer", with_html5ever)];
    let mut times = vec![Vec::new(); parsers.len()];
    let mut counts = vec![0; parsers.len()];
    for _round in 0..5 {
        for (i, (_, run)) in parsers.iter().enumerate() {
            let t = Instant::now();
            counts[i] = run(&pages);
            times[i].push(t.elapsed().as_secs_f64());
        }
    }
    println!(
        "{} pages, {:.1} MB; median of 5 rounds",
        pages.len(),
        bytes as f64 / 1e6
    );
    for (i, (name, _)) in parsers.iter().enumerate() {
        times[i].sort_by(f64::total_cmp);
        let t = times[i][2];
        println!(
            "{name:<22} {:>8.1} ms {:>8.1} MB/s  {} URLs",
            t * 1e3,
            bytes as f64 / 1e6 / t,
            counts[i]
        );
    }
}
