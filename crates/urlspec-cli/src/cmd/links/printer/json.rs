//! `--output json`: one object per link (JSON Lines), with the keys
//! document, element, attribute, reference, url, base, base_source,
//! error, offset, base_chain, containers, encoding and context, and
//! host_split with `--parsers`.

use std::io::{self, Write};

use urlspec_links::{Document, Link};

use super::BaseInfo;
use crate::output::JsonObject;

/// The JSON printer.
pub struct Json {
    /// One line, reused for every link.
    line: Vec<u8>,
    /// Whether each line has a `host_split` member (`--parsers`).
    parsers: bool,
}

impl Json {
    pub fn new(parsers: bool) -> Json {
        Json { line: Vec::with_capacity(1024), parsers }
    }

    /// A line for each link of `doc`.
    pub fn links(
        &mut self,
        out: &mut impl Write,
        doc: &Document,
    ) -> io::Result<()> {
        let shared = Shared::of(doc, &BaseInfo::of(&doc.base));
        for link in &doc.links {
            self.line.clear();
            line(&mut self.line, &shared, link, self.parsers);
            out.write_all(&self.line)?;
        }
        Ok(())
    }
}

/// The members of a document's lines that are the same for each of its
/// links, rendered once: `document`; `base` and `base_source`;
/// `base_chain`, `containers` and `encoding`.
struct Shared {
    document: Vec<u8>,
    base: Vec<u8>,
    tail: Vec<u8>,
}

impl Shared {
    fn of(doc: &Document, info: &BaseInfo) -> Shared {
        let render = |each: &dyn Fn(&mut JsonObject<'_>)| {
            let mut buf = Vec::new();
            let mut o = JsonObject::new(&mut buf);
            each(&mut o);
            o.finish();
            // The members, without the braces.
            buf[1..buf.len() - 1].to_vec()
        };
        Shared {
            document: render(&|o| {
                o.string("document", &doc.name);
            }),
            base: render(&|o| {
                o.optional("base", doc.base.url())
                    .string("base_source", &info.source);
            }),
            tail: render(&|o| {
                match &info.chain {
                    Some(chain) => o.strings("base_chain", *chain),
                    None => o.null("base_chain"),
                };
                o.strings("containers", doc.base.containers());
                o.optional("encoding", doc.encoding.map(|e| e.name()));
            }),
        }
    }
}

/// One line: document, element, attribute, reference, url, base,
/// base_source, error, offset, base_chain, containers, encoding (an HTML
/// page's), context (`noscript`, `template`, or null for the document
/// tree) and, with `parsers`, host_split (null, or an object of each
/// parser's host, null where it reads none).
fn line(buf: &mut Vec<u8>, shared: &Shared, link: &Link, parsers: bool) {
    let mut o = JsonObject::new(buf);
    o.members(&shared.document)
        .string("element", &link.element)
        .string("attribute", &link.attribute)
        .string("reference", &link.reference)
        .optional("url", link.url.as_deref().ok())
        .members(&shared.base)
        .optional(
            "error",
            link.url.as_ref().err().map(ToString::to_string).as_deref(),
        )
        .number("offset", link.offset)
        .members(&shared.tail)
        .optional("context", link.within.map(|w| w.name()));
    if parsers {
        match &link.host_split {
            Some(split) => {
                o.object("host_split", |hosts| {
                    for (parser, host) in split.iter() {
                        hosts.optional(parser.name, host.as_deref());
                    }
                });
            }
            None => {
                o.null("host_split");
            }
        }
    }
    o.finish();
    buf.push(b'\n');
}
