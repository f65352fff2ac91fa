//! Pages past [`stream::IN_MEMORY`] are read in two passes from a file,
//! and give the links a reading in memory gives: the same references,
//! offsets, URLs, contexts, base and encoding, in the same order.

use std::io::Write;

use urlspec::Spec;
use urlspec_links::html::{self, stream, Charset};
use urlspec_links::{Context, Document, Link, Within};

/// Text that holds no link, to push a page past the in-memory size.
fn filler() -> String {
    format!("<p>{}</p>\n", "lorem ipsum ".repeat(stream::IN_MEMORY / 12 + 1))
}

/// The links of `page` read through [`stream::document`], every batch
/// joined, and the last document (with the batches' count).
fn streamed(page: &[u8], ctx: &Context) -> (Document, Vec<Link>, usize) {
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    let mut links = Vec::new();
    let mut batches = 0;
    let doc = stream::document(
        &mut &page[..],
        Charset::Unknown,
        "p",
        &base,
        ctx,
        &mut |doc| {
            batches += 1;
            assert!(doc.links.len() >= stream::BATCH);
            links.append(&mut doc.links.clone());
        },
    )
    .unwrap();
    links.extend(doc.links.iter().cloned());
    (doc, links, batches)
}

/// Checks that `page` streamed gives what it gives in memory.
fn same_as_in_memory(page: &[u8], ctx: &Context) -> Vec<Link> {
    assert!(page.len() > stream::IN_MEMORY);
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    let whole = html::document(page, "p", &base, ctx);
    let (doc, links, _) = streamed(page, ctx);
    assert_eq!(links, whole.links);
    assert_eq!(doc.base.url(), whole.base.url());
    assert_eq!(doc.encoding, whole.encoding);
    assert_eq!(doc.problems, whole.problems);
    assert_eq!(doc.too_long, whole.too_long);
    links
}

#[test]
fn a_late_base_applies_to_the_links_before_it() {
    let mut page = String::from("<a href=early>");
    page.push_str(&filler());
    page.push_str("<img src=late><base href='http://b/x/'><a href=after>");
    let ctx = Context::new(Spec::Rfc3986);
    let links = same_as_in_memory(page.as_bytes(), &ctx);
    let urls: Vec<_> = links.iter().map(|l| l.url.as_deref()).collect();
    assert_eq!(
        urls,
        [
            Ok("http://b/x/early"),
            Ok("http://b/x/late"),
            Ok("http://b/x/"),
            Ok("http://b/x/after")
        ]
    );
}

#[test]
fn every_source_of_links_streamed() {
    // Style sheets, noscript (with a base inside), templates, SVG, srcset,
    // refresh, entities: each on both sides of the filler.
    let part = r#"<style>@import "i.css"; p { background: url(b.png) }</style>
<p style="background: url('s.png')"><a href="a?x=1&amp;y=2" ping="p1 p2">a</a>
<template><a href=t><img src=ti></template><noscript><img src=n></noscript>
<svg><a xlink:href="sa"/><use href="su#i"/></svg>
<img srcset="c1.png 1x, c2.png 2x"><meta http-equiv=refresh content="0; url=r">
"#;
    let page = format!(
        "{part}{}{part}<noscript><base href='/ns/'></noscript>{part}",
        filler()
    );
    for spec in [Spec::Rfc1808, Spec::Rfc3986, Spec::Whatwg] {
        let links = same_as_in_memory(page.as_bytes(), &Context::new(spec));
        assert_eq!(links.len(), 3 * 14 + 1, "{spec}");
        assert!(links.iter().any(|l| l.within == Some(Within::Noscript)));
        assert!(links.iter().any(|l| l.within == Some(Within::Template)));
    }
    // Excluded contexts stay out of the streamed links too.
    let mut ctx = Context::new(Spec::Rfc3986);
    ctx.exclude = vec![Within::Noscript, Within::Template];
    let links = same_as_in_memory(page.as_bytes(), &ctx);
    assert!(links.iter().all(|l| l.within.is_none()));
}

// Its queries are encoded as WHATWG encodes them.
#[cfg(feature = "whatwg")]
#[test]
fn encodings_streamed() {
    let ctx = Context::new(Spec::Whatwg);
    // windows-1252 by default, a meta charset in the head, and UTF-16
    // (decoded into a file of its own): the query in the page's encoding.
    let body =
        format!("<a href='caf\u{e9}?q=\u{e9}'>{}<a href=z?\u{e9}>", filler());
    let latin1: Vec<u8> = body.chars().map(|c| c as u8).collect();
    let links = same_as_in_memory(&latin1, &ctx);
    assert_eq!(links[0].url.as_deref(), Ok("http://h/d/caf%C3%A9?q=%E9"));
    let koi8 = format!("<meta charset=koi8-r>{body}");
    let (koi8, _, _) = encoding_rs::KOI8_R.encode(&koi8);
    same_as_in_memory(&koi8, &ctx);
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in body.encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let links = same_as_in_memory(&utf16, &ctx);
    assert_eq!(links[1].url.as_deref(), Ok("http://h/d/z?%C3%A9"));
}

#[test]
fn links_come_in_batches() {
    let page =
        "<a href=x></a>".repeat(3 * stream::BATCH + stream::IN_MEMORY / 14);
    let ctx = Context::new(Spec::Rfc3986);
    let (_, links, batches) = streamed(page.as_bytes(), &ctx);
    assert_eq!(links.len(), 3 * stream::BATCH + stream::IN_MEMORY / 14);
    assert!(batches >= 3, "{batches}");
}

#[test]
fn a_reference_past_the_limit_is_left_out_with_its_offset() {
    let long = "x".repeat(stream::MAX_REFERENCE + 1);
    let page = format!(
        "<a href=a><img src='{long}'><p style='background: url({long})'>\
         <img srcset='ok.png 1x, {long} 2x'><a href=b>"
    );
    let ctx = Context::new(Spec::Rfc3986);
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    // In memory and streamed alike.
    let whole = html::document(page.as_bytes(), "p", &base, &ctx);
    let (doc, links, _) = streamed(page.as_bytes(), &ctx);
    assert_eq!(links, whole.links);
    let refs: Vec<_> = links.iter().map(|l| l.reference.as_str()).collect();
    assert_eq!(refs, ["a", "ok.png", "b"]);
    let src = page.find("x").unwrap();
    assert_eq!(doc.too_long.len(), 3);
    assert_eq!(doc.too_long[0], src);
    assert_eq!(doc.too_long, whole.too_long);
}

#[test]
fn a_file_is_read_in_place() {
    let mut page = filler();
    page.push_str("<base href='http://f/'><a href=g>");
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(page.as_bytes()).unwrap();
    let ctx = Context::new(Spec::Rfc3986);
    let base = ctx.retrieval_base();
    let doc = stream::document_of_file(
        &file,
        Charset::Unknown,
        "f",
        &base,
        &ctx,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(doc.links[1].url.as_deref(), Ok("http://f/g"));
    assert_eq!(doc.links[1].offset, page.len() - 2);
}

#[test]
fn a_late_meta_changes_the_encoding_streamed() {
    // windows-1251 declared after the base and past the in-memory size:
    // the first pass goes on to find it, and the page is read again in it
    // (HTML's "change the encoding"), as in memory.
    let ctx = Context::new(Spec::Rfc3986);
    let mut page = b"<base href='http://b/d/'><a href='\xe9'>".to_vec();
    page.extend_from_slice(filler().as_bytes());
    page.extend_from_slice(b"<meta charset=windows-1251><a href=z>");
    let links = same_as_in_memory(&page, &ctx);
    let (doc, _, _) = streamed(&page, &ctx);
    assert_eq!(doc.encoding, Some(encoding_rs::WINDOWS_1251));
    assert_eq!(links[1].reference, "\u{439}");
}
