//! `--output tsv`: a header row, then one row per link: document,
//! element, attribute, offset, reference, url, base, base_source, error,
//! encoding, context (and host_split with `--parsers`: `NAME=HOST` for
//! each parser, when they read different hosts); control characters in a field shown as Unicode
//! control pictures, so that a field never breaks its row.

use std::io::{self, Write};

use urlspec_links::{Document, Link};

use super::BaseInfo;
use crate::output;

/// The header row.
pub const HEADER: &str =
    "document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror\tencoding\tcontext\n";

/// The TSV printer.
pub struct Tsv {
    /// One row, reused for every link.
    line: Vec<u8>,
    /// Whether rows end with a `host_split` column (`--parsers`).
    parsers: bool,
}

impl Tsv {
    pub fn new(parsers: bool) -> Tsv {
        Tsv { line: Vec::with_capacity(1024), parsers }
    }

    /// A row for each link of `doc`.
    pub fn links(
        &mut self,
        out: &mut impl Write,
        doc: &Document,
    ) -> io::Result<()> {
        let info = BaseInfo::of(&doc.base);
        for link in &doc.links {
            self.line.clear();
            row(&mut self.line, doc, &info, link);
            if self.parsers {
                self.line.pop();
                self.line.push(b'\t');
                if let Some(split) = &link.host_split {
                    let text = super::host_split_text(split);
                    self.line
                        .extend_from_slice(output::visible(&text).as_bytes());
                }
                self.line.push(b'\n');
            }
            out.write_all(&self.line)?;
        }
        Ok(())
    }
}

/// One row.
fn row(buf: &mut Vec<u8>, doc: &Document, info: &BaseInfo, link: &Link) {
    let offset = link.offset.to_string();
    let why;
    let (url, error) = match &link.url {
        Ok(url) => (url.as_str(), ""),
        Err(e) => {
            why = e.to_string();
            ("", why.as_str())
        }
    };
    let fields = [
        doc.name.as_str(),
        &link.element,
        &link.attribute,
        &offset,
        &link.reference,
        url,
        doc.base.url().unwrap_or(""),
        &info.source,
        error,
        doc.encoding.map_or("", |e| e.name()),
        link.within.map_or("", |w| w.name()),
    ];
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            buf.push(b'\t');
        }
        buf.extend_from_slice(output::visible(field).as_bytes());
    }
    buf.push(b'\n');
}
