//! `--output text`: one block per document, `== NAME`, its base with its
//! layer, the notes, then a line per link in aligned columns:
//! `ELEMENT@ATTRIBUTE  REFERENCE  ->  URL` (or `error: REASON`).

use std::io::{self, Write};

use urlspec::base::Source;
use urlspec_links::{Document, Link};

use super::write_lines;
use crate::output::{self, RecordWrite};

/// The widest `element@attribute` column.
const MAX_PLACE_WIDTH: usize = 24;

/// The widest reference column (longer references push their `->` to the
/// right).
const MAX_REFERENCE_WIDTH: usize = 40;

/// The links of a document whose columns are aligned together; a longer
/// document (read in batches) is aligned on its first block.
const TEXT_BLOCK: usize = 4096;

/// The text printer: blocks separated by a blank line.
pub struct Text {
    /// Whether no document has been printed yet.
    pub first: bool,
    /// The document being printed, between its first links and its end.
    open: Option<Open>,
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

impl Text {
    pub fn new() -> Text {
        Text { first: true, open: None }
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
        open.pending.append(&mut doc.links);
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
            write_links(out, &open.pending, &mut open.widths)?;
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
        write_links(out, &open.pending, &mut open.widths)?;
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

/// A line for each of `links`, in columns of `widths`, found on these
/// links when there are none yet (the first block of the document).
fn write_links(
    out: &mut impl RecordWrite,
    links: &[Link],
    widths: &mut Option<(usize, usize)>,
) -> io::Result<()> {
    let (place_width, reference_width) = *widths.get_or_insert_with(|| {
        let place = links
            .iter()
            .map(|l| {
                output::text_width(&l.element)
                    + 1
                    + output::text_width(&l.attribute)
            })
            .max()
            .unwrap_or(0)
            .min(MAX_PLACE_WIDTH);
        let reference = links
            .iter()
            .map(|l| output::text_width(&output::visible(&l.reference)))
            .max()
            .unwrap_or(0)
            .min(MAX_REFERENCE_WIDTH);
        (place, reference)
    });
    write_lines(out, links, |lines, link| {
        // ELEMENT@ATTRIBUTE  REFERENCE  ->, padded in place.
        lines.extend_from_slice(b"   ");
        lines.extend_from_slice(link.element.as_bytes());
        lines.push(b'@');
        lines.extend_from_slice(link.attribute.as_bytes());
        let place = output::text_width(&link.element)
            + 1
            + output::text_width(&link.attribute);
        spaces(lines, place_width.saturating_sub(place) + 2);
        let reference = output::visible(&link.reference);
        lines.extend_from_slice(reference.as_bytes());
        let shown = output::text_width(&reference);
        spaces(lines, reference_width.saturating_sub(shown));
        lines.extend_from_slice(b"  ->  ");
        match &link.url {
            Ok(url) => output::push_visible(lines, url),
            // Writing to a `Vec` does not fail.
            Err(reason) => {
                let _ = write!(lines, "error: {reason}");
            }
        }
        lines.push(b'\n');
        if let Some(split) = &link.host_split {
            lines.extend_from_slice(b"      hosts split: ");
            output::push_visible(lines, &super::host_split_text(split));
            lines.push(b'\n');
        }
    })
}

/// Appends `n` spaces.
fn spaces(lines: &mut Vec<u8>, n: usize) {
    lines.resize(lines.len() + n, b' ');
}
