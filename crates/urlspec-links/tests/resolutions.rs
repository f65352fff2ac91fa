//! Each link is resolved once, as it is read: against the given base when
//! there is one, with the context's resolution options. A trace of every
//! resolution counts them over each kind of input (an HTML page, a
//! message with header links, an archive's records with `Link` headers, a
//! page and a record too long to hold in memory), read by the iterator
//! and part by part, and the readers of each format give the same links
//! without a second pass.

use std::io::Write;
use std::sync::{Arc, Mutex};

use flate2::write::GzEncoder;
use flate2::Compression;
use urlspec::resolve::{Options, ResolveError};
use urlspec::Spec;
use urlspec_links::html::stream::IN_MEMORY;
use urlspec_links::{
    html, mime, open, Context, Document, LinkError, Step, Tally, Trace,
};
use urlspec_test_support::warc::record;

/// The base given for every document.
const GIVEN: &str = "http://given/d/";

/// A page with a `<base href>`, a relative link and one that strict
/// resolution refuses (the space).
const PAGE: &str = "<base href='http://h/b/'><a href=x><a href='g h'>";

/// Each resolution: its options, its base, its reference.
type Seen = Arc<Mutex<Vec<(Options, Option<String>, String)>>>;

/// `ctx` with a trace that records each resolution in what it returns.
fn traced(ctx: &mut Context) -> Seen {
    let seen = Seen::default();
    let log = seen.clone();
    ctx.trace = Some(Trace::new(move |r| {
        let base = r.base.map(str::to_owned);
        let entry = (r.options, base, r.reference.to_owned());
        log.lock().unwrap().push(entry);
    }));
    seen
}

/// The context of the tests: strict resolution, and `given` as the base
/// of every document when set.
fn context(given: bool) -> Context {
    let mut ctx = Context::new(Spec::Rfc3986);
    ctx.options = Options::default().strict(true);
    ctx.retrieval = vec!["http://r/p".into()];
    if given {
        ctx.given = Some(GIVEN.into());
    }
    ctx
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// The inputs: each kind, with its name.
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let message = format!(
        "From: a@h\r\nList-Help: <help>\r\nContent-Location: http://m/\r\n\
         Content-Type: text/html\r\n\r\n{PAGE}"
    );
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: <l>; rel=x\r\n\
         \r\n{PAGE}"
    );
    let archive = [
        gzip(&record("response", "http://w/1", response.as_bytes())),
        gzip(&record("response", "http://w/2", response.as_bytes())),
    ]
    .concat();
    let long =
        format!("{PAGE}{}", "<a href=y></a>".repeat(IN_MEMORY / 14 + 1));
    let long_response =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{long}");
    let long_record =
        gzip(&record("response", "http://w/long", long_response.as_bytes()));
    vec![
        ("page.html", PAGE.as_bytes().to_vec()),
        ("message.eml", message.into_bytes()),
        ("archive.warc.gz", archive),
        ("long.html", long.into_bytes()),
        ("long.warc.gz", long_record),
    ]
}

/// Checks that `seen` holds one resolution per link of `docs`, each with
/// `ctx`'s options and, when given, against the given base.
fn once_each(name: &str, ctx: &Context, seen: &Seen, docs: &[Document]) {
    let seen = seen.lock().unwrap();
    let links: usize = docs.iter().map(|d| d.links.len()).sum();
    assert!(links > 1, "{name}: {links} links");
    assert_eq!(seen.len(), links, "{name}: one resolution per link");
    // The same references (a response's header links are resolved after
    // its page's, and put before them).
    let mut references: Vec<&str> = docs
        .iter()
        .flat_map(|d| d.links.iter().map(|l| l.reference.as_str()))
        .collect();
    let mut resolved: Vec<&str> = seen.iter().map(|s| s.2.as_str()).collect();
    references.sort_unstable();
    resolved.sort_unstable();
    assert_eq!(resolved, references, "{name}");
    for (options, base, reference) in seen.iter() {
        assert_eq!(*options, ctx.options, "{name}: {reference}");
        assert_ne!(*options, Options::default(), "{name}: {reference}");
        if ctx.given.is_some() {
            assert_eq!(base.as_deref(), Some(GIVEN), "{name}: {reference}");
        }
    }
    for doc in docs {
        assert!(doc.problems.is_empty(), "{name}: {:?}", doc.problems);
        if ctx.given.is_some() {
            assert_eq!(doc.base.url(), Some(GIVEN), "{name}");
            assert_eq!(doc.base.source().layer(), "given", "{name}");
        }
        // The strict options refused the reference with a space, at its
        // first and only resolution.
        for link in doc.links.iter().filter(|l| l.reference == "g h") {
            assert!(
                matches!(
                    link.url,
                    Err(LinkError::Resolve(ResolveError::InvalidReference(_)))
                ),
                "{name}: {:?}",
                link.url
            );
        }
    }
}

#[test]
fn each_link_is_resolved_once_with_the_options_and_base_given() {
    for given in [true, false] {
        for (name, data) in inputs() {
            let mut ctx = context(given);
            let seen = traced(&mut ctx);
            let mut input = open(&data[..], name, &ctx);
            let docs: Vec<Document> =
                input.by_ref().map(|d| d.unwrap()).collect();
            let want = match name {
                "message.eml" | "archive.warc.gz" => 2,
                _ => 1,
            };
            assert_eq!(docs.len(), want, "{name}");
            once_each(name, &ctx, &seen, &docs);
            let links: usize = docs.iter().map(|d| d.links.len()).sum();
            assert_eq!(input.summary().links, links, "{name}");
        }
    }
}

#[test]
fn parts_read_elsewhere_resolve_each_link_once() {
    for (name, data) in inputs() {
        let mut ctx = context(true);
        let seen = traced(&mut ctx);
        let mut input = open(&data[..], name, &ctx);
        let mut docs = Vec::new();
        let mut tally = Tally::new(&ctx.select);
        while let Some(step) = input.step() {
            let Step::Part(part) = step else { panic!("{name}") };
            // Read on another thread, as `urlspec links -j N` reads.
            let (read, back) = std::thread::scope(|s| {
                s.spawn(|| {
                    let mut read = Vec::new();
                    part.read_whole(&mut tally, &mut |d| read.push(d))
                        .unwrap();
                    (read, ())
                })
                .join()
                .unwrap()
            });
            let () = back;
            docs.extend(read);
        }
        once_each(name, &ctx, &seen, &docs);
        assert_eq!(tally.summary().documents, docs.len(), "{name}");
    }
}

#[test]
fn the_readers_of_each_format_resolve_as_the_context_says() {
    let mut ctx = context(true);
    let seen = traced(&mut ctx);
    let doc = html::document(
        PAGE.as_bytes(),
        "page.html",
        &ctx.retrieval_base(),
        &ctx,
    );
    once_each("html::document", &ctx, &seen, &[doc]);
    let mut ctx = context(true);
    let seen = traced(&mut ctx);
    let message =
        format!("List-Help: <help>\r\nContent-Type: text/html\r\n\r\n{PAGE}");
    let mut docs = Vec::new();
    mime::documents(message.as_bytes(), "m", &ctx, &mut |d| docs.push(d))
        .unwrap();
    assert_eq!(docs.len(), 2);
    once_each("mime::documents", &ctx, &seen, &docs);
}
