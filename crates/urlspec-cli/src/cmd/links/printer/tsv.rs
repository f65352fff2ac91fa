//! `--output tsv`: a header row, then one row per link: document,
//! element, attribute, offset, reference, url, base, base_source, error,
//! encoding, context (and host_split with `--parsers`: `NAME=HOST` for
//! each parser, when they read different hosts); control characters in a field shown as Unicode
//! control pictures, so that a field never breaks its row.

use std::io;

use urlspec_links::Document;

use super::{url_and_error, write_lines, BaseInfo, Places};
use crate::output::text::{put_visible, visible_room};
use crate::output::{extend_within, push_visible, RecordWrite};

/// The header row.
pub const HEADER: &str =
    "document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror\tencoding\tcontext\n";

/// The TSV printer.
pub struct Tsv {
    /// The fields a document's rows share, shown once: its name (with
    /// the tab after it), and its base and the base's source (with the
    /// tabs around them).
    name: Vec<u8>,
    base: Vec<u8>,
    /// The encoding, with the tabs around it; and with an empty context
    /// and the row's end after it (unless `host_split` follows).
    encoding: Vec<u8>,
    encoding_in_tree: Vec<u8>,
    /// The start of a row up to the offset (document, element,
    /// attribute, with the tabs after them), for each pair of names of
    /// the document's links.
    places: Places,
    /// A link's error, as its row says it.
    error: String,
    /// Whether rows end with a `host_split` column (`--parsers`).
    parsers: bool,
}

impl Tsv {
    pub fn new(parsers: bool) -> Tsv {
        Tsv {
            name: Vec::new(),
            base: Vec::new(),
            encoding: Vec::new(),
            encoding_in_tree: Vec::new(),
            places: Places::default(),
            error: String::new(),
            parsers,
        }
    }

    /// A row for each link of `doc`.
    pub fn links(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &Document,
    ) -> io::Result<()> {
        if doc.links.is_empty() {
            return Ok(());
        }
        let info = BaseInfo::of(&doc.base);
        self.name.clear();
        push_visible(&mut self.name, &doc.name);
        self.name.push(b'\t');
        self.base.clear();
        self.base.push(b'\t');
        push_visible(&mut self.base, doc.base.url().unwrap_or(""));
        self.base.push(b'\t');
        push_visible(&mut self.base, &info.source);
        self.base.push(b'\t');
        self.encoding.clear();
        self.encoding.push(b'\t');
        push_visible(
            &mut self.encoding,
            doc.encoding.map_or("", |e| e.name()),
        );
        self.encoding.push(b'\t');
        self.encoding_in_tree.clear();
        self.encoding_in_tree.extend_from_slice(&self.encoding);
        if !self.parsers {
            self.encoding_in_tree.push(b'\n');
        }
        // The starts of rows hold the document's name.
        self.places.clear();
        let Tsv {
            name,
            base,
            encoding,
            encoding_in_tree,
            places,
            error,
            parsers,
        } = self;
        write_lines(out, &doc.links, |rows, link| {
            let start = places.of(link, |buf, element, attribute| {
                buf.extend_from_slice(name);
                push_visible(buf, element);
                buf.push(b'\t');
                push_visible(buf, attribute);
                buf.push(b'\t');
            });
            let (url, error) = url_and_error(link, error);
            // Room for the longest row these fields make: each shown at
            // its longest, the offset's twenty digits at most, the tabs.
            let most = start.len()
                + visible_room([&link.reference, url, error])
                + base.len()
                + encoding_in_tree.len().max(encoding.len() + 16)
                + 32;
            extend_within(rows, most, |row| {
                row.put(start);
                row.put(itoa::Buffer::new().format(link.offset).as_bytes());
                row.put(b"\t");
                put_visible(row, &link.reference);
                row.put(b"\t");
                put_visible(row, url);
                row.put(base);
                put_visible(row, error);
                match link.within {
                    None => row.put(encoding_in_tree),
                    Some(within) => {
                        row.put(encoding);
                        row.put(within.name().as_bytes());
                        if !*parsers {
                            row.put(b"\n");
                        }
                    }
                }
            });
            if *parsers {
                rows.push(b'\t');
                if let Some(split) = &link.host_split {
                    push_visible(rows, &super::host_split_text(split));
                }
                rows.push(b'\n');
            }
        })
    }
}
