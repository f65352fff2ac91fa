//! `--output json`: one object per link (JSON Lines), with the keys
//! document, element, attribute, reference, url, base, base_source,
//! error, offset, base_chain, containers, encoding and context, and
//! host_split with `--parsers`.

use std::io;

use urlspec_links::{Document, Link};

use super::{url_and_error, write_lines, BaseInfo, Places};
use crate::output::extend_within;
use crate::output::json::{json_room, push_json_string, put_json_body};
use crate::output::JsonObject;
use crate::output::RecordWrite;

/// The JSON printer.
pub struct Json {
    /// The members the lines of a document share.
    shared: Shared,
    /// The start of a line up to the body of `reference`, for each pair
    /// of names of the document's links.
    places: Places,
    /// A link's error, as its line says it.
    error: String,
    /// Whether each line has a `host_split` member (`--parsers`).
    parsers: bool,
}

impl Json {
    pub fn new(parsers: bool) -> Json {
        Json {
            shared: Shared::default(),
            places: Places::default(),
            error: String::new(),
            parsers,
        }
    }

    /// A line for each link of `doc`.
    pub fn links(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &Document,
    ) -> io::Result<()> {
        if doc.links.is_empty() {
            return Ok(());
        }
        let Json { shared, places, error, parsers } = self;
        shared.render(doc, &BaseInfo::of(&doc.base), *parsers);
        // The starts of lines hold the document's name.
        places.clear();
        write_lines(out, &doc.links, |buf, link| {
            let start = places.of(link, |buf, element, attribute| {
                buf.extend_from_slice(&shared.head);
                push_json_string(buf, element);
                buf.extend_from_slice(b",\"attribute\":");
                push_json_string(buf, attribute);
                buf.extend_from_slice(b",\"reference\":\"");
            });
            line(buf, error, shared, start, link);
            if *parsers {
                host_split(buf, link);
                buf.extend_from_slice(b"}\n");
            }
        })
    }
}

/// The parts of a document's lines that are the same for each of its
/// links, rendered once, each with the keys around it: `head`, the
/// opening brace and `document`; `base`, `base` and `base_source`
/// (before `error`); `resolved`, the same after a URL's closing quote,
/// with a null `error` and the key of `offset`; `tail`, `base_chain`,
/// `containers` and `encoding` (before `context`), and `tail_in_tree`,
/// the same with a null `context` and the line's end (the end of the
/// object and the newline, unless a `host_split` member comes after it).
#[derive(Default)]
struct Shared {
    head: Vec<u8>,
    base: Vec<u8>,
    resolved: Vec<u8>,
    tail: Vec<u8>,
    tail_in_tree: Vec<u8>,
    /// `}\n`, or nothing when the line goes on with `host_split`.
    end: &'static [u8],
}

impl Shared {
    /// Renders the parts of `doc`'s lines into the buffers; `parsers`:
    /// whether lines end with a `host_split` member.
    fn render(&mut self, doc: &Document, info: &BaseInfo, parsers: bool) {
        fn members(
            buf: &mut Vec<u8>,
            before: &[u8],
            each: impl FnOnce(&mut JsonObject<'_>),
            after: &[u8],
        ) {
            buf.clear();
            let mut o = JsonObject::new(buf);
            each(&mut o);
            o.finish();
            // The members, without the braces.
            buf.pop();
            buf.remove(0);
            buf.splice(0..0, before.iter().copied());
            buf.extend_from_slice(after);
        }
        members(
            &mut self.head,
            b"{",
            |o| {
                o.string("document", &doc.name);
            },
            b",\"element\":",
        );
        members(
            &mut self.base,
            b",",
            |o| {
                o.optional("base", doc.base.url())
                    .string("base_source", &info.source);
            },
            b",\"error\":",
        );
        members(
            &mut self.tail,
            b",",
            |o| {
                match &info.chain {
                    Some(chain) => o.strings("base_chain", *chain),
                    None => o.null("base_chain"),
                };
                o.strings("containers", doc.base.containers());
                o.optional("encoding", doc.encoding.map(|e| e.name()));
            },
            b",\"context\":",
        );
        self.end = if parsers { b"" } else { b"}\n" };
        self.resolved.clear();
        self.resolved.push(b'"');
        self.resolved.extend_from_slice(&self.base);
        self.resolved.extend_from_slice(b"null,\"offset\":");
        self.tail_in_tree.clear();
        self.tail_in_tree.extend_from_slice(&self.tail);
        self.tail_in_tree.extend_from_slice(b"null");
        self.tail_in_tree.extend_from_slice(self.end);
    }
}

/// One line: document, element, attribute, reference, url, base,
/// base_source, error, offset, base_chain, containers, encoding (an HTML
/// page's), and context (`noscript`, `template`, or null for the
/// document tree); ended unless `host_split` follows; written straight
/// into `buf`, the keys and quotes as literals. `start` is the line up
/// to the reference's body; `error` is room for the link's error.
#[inline(always)]
fn line(
    buf: &mut Vec<u8>,
    error: &mut String,
    shared: &Shared,
    start: &[u8],
    link: &Link,
) {
    let (url, error) = url_and_error(link, error);
    // Room for the longest line these pieces make: each escaped string
    // at its longest, the offset's twenty digits at most, and the quotes
    // and keys between them.
    let most = start.len()
        + json_room([&link.reference, url, error])
        + shared.resolved.len().max(shared.base.len())
        + shared.tail_in_tree.len().max(shared.tail.len() + 16)
        + 64;
    extend_within(buf, most, |room| {
        room.put(start);
        put_json_body(room, &link.reference);
        if link.url.is_ok() {
            room.put(b"\",\"url\":\"");
            put_json_body(room, url);
            room.put(&shared.resolved);
        } else {
            room.put(b"\",\"url\":null");
            room.put(&shared.base);
            room.put(b"\"");
            put_json_body(room, error);
            room.put(b"\",\"offset\":");
        }
        room.put(itoa::Buffer::new().format(link.offset).as_bytes());
        match link.within {
            Some(within) => {
                room.put(&shared.tail);
                room.put(b"\"");
                room.put(within.name().as_bytes());
                room.put(b"\"");
                room.put(shared.end);
            }
            None => room.put(&shared.tail_in_tree),
        }
    });
}

/// The `host_split` member (`--parsers`): null, or each parser's host
/// (null where it reads none).
fn host_split(buf: &mut Vec<u8>, link: &Link) {
    buf.extend_from_slice(b",\"host_split\":");
    let Some(split) = &link.host_split else {
        buf.extend_from_slice(b"null");
        return;
    };
    for (i, (parser, host)) in split.iter().enumerate() {
        buf.push(if i == 0 { b'{' } else { b',' });
        push_json_string(buf, parser.name);
        buf.push(b':');
        match host {
            Some(host) => push_json_string(buf, host),
            None => buf.extend_from_slice(b"null"),
        }
    }
    buf.push(b'}');
}
