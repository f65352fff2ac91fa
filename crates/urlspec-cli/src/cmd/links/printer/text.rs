//! `--output text`: one block per document, `== NAME`, its base with its
//! layer, the notes, then a line per link in aligned columns:
//! `ELEMENT@ATTRIBUTE  REFERENCE  ->  URL` (or `error: REASON`).

use std::io;

use urlspec::base::Source;
use urlspec_links::{Document, Link};

use super::{url_and_error, write_lines, Places};
use crate::output::text::{put_visible, visible_room};
use crate::output::{self, extend_within, RecordWrite};

/// The widest `element@attribute` column.
const MAX_PLACE_WIDTH: usize = 24;

/// The widest reference column (longer references push their `->` to the
/// right).
const MAX_REFERENCE_WIDTH: usize = 40;

/// The spaces that pad a reference to its column.
const SPACES: [u8; MAX_REFERENCE_WIDTH] = [b' '; MAX_REFERENCE_WIDTH];

/// The links of a document whose columns are aligned together; a longer
/// document (read in batches) is aligned on its first block.
const TEXT_BLOCK: usize = 4096;

/// The text printer: blocks separated by a blank line.
pub struct Text {
    /// Whether no document has been printed yet.
    pub first: bool,
    /// The document being printed, between its first links and its end.
    open: Option<Open>,
    lines: Lines,
}

/// What is kept of a document while its links come.
#[derive(Default)]
struct Open {
    /// The widths of the columns, once the first block is written (else
    /// the document is written whole at its end).
    widths: Option<(usize, usize)>,
    /// The links not written yet.
    pending: Vec<Link>,
}

/// Room kept from document to document for writing their lines.
#[derive(Default)]
struct Lines {
    /// The start of a line, up to the reference, for each pair of names.
    places: Places,
    /// A link's error, as its line says it.
    error: String,
    /// The width of each pending link's reference as it is shown.
    shown: Vec<usize>,
}

impl Text {
    pub fn new() -> Text {
        Text { first: true, open: None, lines: Lines::default() }
    }

    /// Forgets a document begun and never ended.
    pub fn abandon(&mut self) {
        self.open = None;
    }

    /// A batch of the links of a document being read (taken out of
    /// `doc`): held until a block of them is full, then written.
    pub fn links(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        let open = self.open.get_or_insert_with(Open::default);
        if open.pending.is_empty() {
            // The links change hands, rather than each being moved.
            std::mem::swap(&mut open.pending, &mut doc.links);
        } else {
            open.pending.append(&mut doc.links);
        }
        // Columns are aligned over a block of links: the whole document
        // unless it is longer.
        if open.pending.len() >= TEXT_BLOCK {
            if open.widths.is_none() {
                write_head(
                    out,
                    doc,
                    std::mem::replace(&mut self.first, false),
                )?;
            }
            write_links(out, open, &mut self.lines)?;
            open.pending.clear();
        }
        Ok(())
    }

    /// Ends the document: its last links; its head first when it was not
    /// written yet, its problems after the links when it was.
    pub fn end(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        self.links(out, doc)?;
        let mut open = self.open.take().unwrap_or_default();
        let streamed = open.widths.is_some();
        if !streamed {
            write_head(out, doc, std::mem::replace(&mut self.first, false))?;
            if open.pending.is_empty() {
                writeln!(out, "   (no links)")?;
            }
        }
        write_links(out, &mut open, &mut self.lines)?;
        if streamed {
            // The problems of a long document come after its links.
            for problem in &doc.problems {
                let note = problem.to_string();
                writeln!(out, "   note: {}", output::visible(&note))?;
            }
        }
        Ok(())
    }
}

/// The head of a block: the name, the base, the notes (and the problems,
/// as far as they are known); after a blank line unless it is the
/// `first`.
fn write_head(
    out: &mut impl RecordWrite,
    doc: &Document,
    first: bool,
) -> io::Result<()> {
    out.begin_block(first)?;
    let base = &doc.base;
    writeln!(out, "== {}", output::visible(&doc.name))?;
    write!(
        out,
        "   base: {}  [{}",
        base.url().unwrap_or("(none)"),
        base.source()
    )?;
    if !base.containers().is_empty() {
        write!(out, "; via {}", base.containers().join(" > "))?;
    }
    writeln!(out, "]")?;
    if let Source::Retrieval { chain } = base.source() {
        if chain.len() > 1 {
            writeln!(out, "   redirects: {}", chain.join(" -> "))?;
        }
    }
    for note in base.notes() {
        let note = note.to_string();
        writeln!(out, "   note: {}", output::visible(&note))?;
    }
    for problem in &doc.problems {
        let note = problem.to_string();
        writeln!(out, "   note: {}", output::visible(&note))?;
    }
    Ok(())
}

/// A line for each of `open`'s pending links, in columns of its widths,
/// found on these links when there are none yet (the first block of the
/// document).
fn write_links(
    out: &mut impl RecordWrite,
    open: &mut Open,
    lines: &mut Lines,
) -> io::Result<()> {
    let Open { widths, pending: links } = open;
    let Lines { places, error, shown } = lines;
    shown.clear();
    shown.extend(links.iter().map(|l| output::shown_width(&l.reference)));
    let (place_width, reference_width) = *widths.get_or_insert_with(|| {
        let place = links
            .iter()
            .map(|l| place_shown(&l.element, &l.attribute))
            .max()
            .unwrap_or(0)
            .min(MAX_PLACE_WIDTH);
        let reference =
            shown.iter().copied().max().unwrap_or(0).min(MAX_REFERENCE_WIDTH);
        (place, reference)
    });
    // The links' widths, in the order `write_lines` takes the links.
    let mut shown = shown.iter();
    places.clear();
    write_lines(out, links, |lines, link| {
        // ELEMENT@ATTRIBUTE  REFERENCE  ->, padded in place.
        let place = places.of(link, |buf, element, attribute| {
            buf.extend_from_slice(b"   ");
            buf.extend_from_slice(element.as_bytes());
            buf.push(b'@');
            buf.extend_from_slice(attribute.as_bytes());
            let shown = place_shown(element, attribute);
            spaces(buf, place_width.saturating_sub(shown) + 2);
        });
        let (url, error) = url_and_error(link, error);
        let pad = reference_width
            .saturating_sub(*shown.next().expect("a width for each link"));
        let most = place.len()
            + visible_room([&link.reference, url])
            + pad
            + error.len()
            + 16;
        extend_within(lines, most, |line| {
            line.put(place);
            put_visible(line, &link.reference);
            line.put(&SPACES[..pad]);
            line.put(b"  ->  ");
            if link.url.is_ok() {
                put_visible(line, url);
            } else {
                line.put(b"error: ");
                line.put(error.as_bytes());
            }
            line.put(b"\n");
        });
        if let Some(split) = &link.host_split {
            lines.extend_from_slice(b"      hosts split: ");
            output::push_visible(lines, &super::host_split_text(split));
            lines.push(b'\n');
        }
    })
}

/// The width of the `ELEMENT@ATTRIBUTE` column's text.
fn place_shown(element: &str, attribute: &str) -> usize {
    output::text_width(element) + 1 + output::text_width(attribute)
}

/// Appends `n` spaces.
fn spaces(lines: &mut Vec<u8>, n: usize) {
    lines.resize(lines.len() + n, b' ');
}
