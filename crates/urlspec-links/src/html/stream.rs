//! Pages of any size in bounded memory. A page up to [`IN_MEMORY`] bytes
//! is read whole, as [`super::document_in`] reads it. A longer one is read
//! from a file in two passes, since a `<base>` may come after the links it
//! applies to: the first finds the base (and stops there), the second
//! hands the links on in batches as they are found. A stream (standard
//! input, a decompressed page) past [`IN_MEMORY`] is spooled to a
//! temporary file first. A reference longer than [`MAX_REFERENCE`] is
//! left out and its offset kept ([`Document::too_long`]); a tag, or elements
//! left open, taking more than [`MAX_PARSER_MEMORY`] stop the reading of
//! the page, in memory too (a problem of the document),
//! and a `<style>` or `<noscript>` longer than [`MAX_RAW_TEXT`] is passed
//! over (likewise). The encoding is sniffed from the first [`HEAD`] bytes.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use encoding_rs::{Encoding, UTF_8};
use urlspec::base::Base;

use super::{
    based, changed, page_encoding, page_pass, Charset, Flow, Found, Links,
    Source,
};
use crate::{Context, Document, Problem};

/// The longest page read whole into memory: 2 MiB.
pub const IN_MEMORY: usize = 2 << 20;

/// The longest reference read: 1 MiB. A longer one is reported, not
/// resolved.
pub const MAX_REFERENCE: usize = 1 << 20;

/// The most memory the HTML parser may take for a page, wherever it
/// comes from (a tag being read, the elements left open): 8 MiB. Each
/// worker of `urlspec links -j N` parses one page at a time.
pub const MAX_PARSER_MEMORY: usize = 8 << 20;

/// The most one parse of a page allocates: the parser's cap, what lol_html
/// allocates beside what it counts against it (a vector being grown is
/// copied, so it is held twice for a moment), the parses of `<noscript>`
/// contents (each with half the cap of the one around it), the end-tag
/// handlers of the `<template>` elements left open (at most 4,096) and
/// the page itself, when it is held in memory: 12 MiB.
pub const PARSE_BUDGET: usize = 12 << 20;

/// The longest `<style>` or `<noscript>` whose links a streamed page
/// gives: 8 MiB.
pub const MAX_RAW_TEXT: usize = 8 << 20;

/// The bytes of a page its encoding is sniffed from (the meta prescan
/// reads the first 1024; `--encoding detect` all of these).
pub const HEAD: usize = 64 << 10;

/// The links a streamed page hands on at a time.
pub const BATCH: usize = 4096;

/// The size of a chunk read from a file, or given to the parser.
pub(super) const CHUNK: usize = 64 << 10;

/// Reads the links of the page `input` yields, as [`super::document_in`]
/// does, in bounded memory: `sink` is handed the document with each batch
/// of links as they are found (the links are dropped after), and the
/// document with the last links and the problems is returned. An `Err`
/// only when `input` or the temporary file fails.
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{html::{stream, Charset}, Context};
/// let ctx = Context::new(Spec::Rfc3986);
/// let base = ctx.retrieval_base();
/// // A page past the in-memory size, its base at the end.
/// let mut page = "<a href=x></a>".repeat(stream::IN_MEMORY / 14 + 1);
/// page.push_str("<base href='http://h/d/'>");
/// let (mut links, mut batches) = (0, 0);
/// let last = stream::document(&mut page.as_bytes(), Charset::Unknown, "p", &base, &ctx, &mut |doc| {
///     batches += 1;
///     links += doc.links.len();
///     assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/d/x"));
/// })
/// .unwrap();
/// assert_eq!(links + last.links.len(), stream::IN_MEMORY / 14 + 2);
/// assert!(batches > 1);
/// assert_eq!(last.base.url(), Some("http://h/d/"));
/// ```
///
/// # Errors
///
/// An I/O error from reading `input`, or from writing or reading the
/// temporary file a long page is spooled to; the links found before it
/// were handed to `sink`.
pub fn document(
    input: &mut dyn Read,
    charset: Charset<'_>,
    name: &str,
    outer: &Base,
    ctx: &Context,
    sink: &mut dyn FnMut(&mut Document),
) -> io::Result<Document> {
    document_sized(input, 0, charset, name, outer, ctx, sink)
}

/// [`document`] of an `input` of about `size` bytes (0: not known), read
/// into memory at once rather than grown into.
pub(crate) fn document_sized(
    input: &mut dyn Read,
    size: usize,
    charset: Charset<'_>,
    name: &str,
    outer: &Base,
    ctx: &Context,
    sink: &mut dyn FnMut(&mut Document),
) -> io::Result<Document> {
    match spool_sized(input, size)? {
        Spooled::Memory(page) => {
            Ok(super::document_in(&page, charset, name, outer, ctx))
        }
        Spooled::File(file) => {
            document_of_file(&file, charset, name, outer, ctx, sink)
        }
    }
}

/// A page read from a stream: in memory up to [`IN_MEMORY`] bytes, else
/// in a temporary file.
pub enum Spooled {
    /// A page of at most [`IN_MEMORY`] bytes.
    Memory(Vec<u8>),
    /// A longer page, in a temporary file (deleted when dropped).
    File(File),
}

/// Reads `input` to its end: into memory when it is short, else into a
/// temporary file, for [`document_of_file`].
///
/// ```
/// use urlspec_links::html::stream::{spool, Spooled, IN_MEMORY};
/// let short = spool(&mut &b"<a href=x>"[..]).unwrap();
/// assert!(matches!(short, Spooled::Memory(page) if page == b"<a href=x>"));
/// let long = vec![b' '; IN_MEMORY + 1];
/// let spooled = spool(&mut &long[..]).unwrap();
/// assert!(matches!(spooled, Spooled::File(f) if f.metadata().unwrap().len() == long.len() as u64));
/// ```
///
/// # Errors
///
/// An I/O error from reading `input`, or from creating or writing the
/// temporary file.
pub fn spool(input: &mut dyn Read) -> io::Result<Spooled> {
    spool_sized(input, 0)
}

/// [`spool`] of an `input` of about `size` bytes (0: not known): a page
/// grown into costs a copy at each doubling and zeroes every new part
/// (`read_to_end`): 4 % of the instructions of reading a generated crawl.
fn spool_sized(input: &mut dyn Read, size: usize) -> io::Result<Spooled> {
    let mut head = Vec::with_capacity(size.min(IN_MEMORY + 1));
    input.take(IN_MEMORY as u64 + 1).read_to_end(&mut head)?;
    if head.len() <= IN_MEMORY {
        return Ok(Spooled::Memory(head));
    }
    let mut file = tempfile::tempfile()?;
    file.write_all(&head)?;
    drop(head);
    io::copy(input, &mut file)?;
    Ok(Spooled::File(file))
}

/// [`document`] for a page in `file` (read from its start, in two
/// passes), whatever its size.
///
/// # Errors
///
/// An I/O error from seeking in or reading `file`; the links found before
/// it were handed to `sink`.
pub fn document_of_file(
    file: &File,
    charset: Charset<'_>,
    name: &str,
    outer: &Base,
    ctx: &Context,
    sink: &mut dyn FnMut(&mut Document),
) -> io::Result<Document> {
    let mut head = Vec::with_capacity(HEAD);
    let mut from_start = file;
    from_start.seek(SeekFrom::Start(0))?;
    from_start.take(HEAD as u64).read_to_end(&mut head)?;
    let (mut encoding, decoded, tentative) =
        page_encoding(&head, charset, ctx);
    let bom = if decoded {
        0
    } else {
        Encoding::for_bom(&head).map_or(0, |(_, len)| len)
    };
    drop(head);
    let mut tokenized = tokenized_file(file, bom, encoding, decoded)?;
    // The first pass: the first base of the document tree, and no further,
    // unless the encoding is tentative and no <meta> has declared one yet.
    let (page, read_as) = tokenized.view(file);
    let mut found = first_pass(page, read_as, bom, tentative);
    // A tentative encoding gives way to the first <meta> that declares
    // another (HTML's "change the encoding", as in memory): the page is
    // read again in it, its base too.
    if let Some(new) = changed(&found, encoding, tentative) {
        encoding = new;
        tokenized = tokenized_file(file, bom, encoding, decoded)?;
        let (page, read_as) = tokenized.view(file);
        found = first_pass(page, read_as, bom, false);
    }
    let mut doc = based(&found, name, outer, ctx, encoding);
    let (file, tokenized) = tokenized.view(file);
    let source = Source::File(file);
    // The second: the links, handed on as they come.
    let mut links = Links::new(ctx, outer);
    let mut problems = Vec::new();
    page_pass(&source, tokenized, bom, &mut problems, &mut |f| {
        for raw in f.links.drain(..) {
            links.push(&mut doc, raw);
        }
        doc.too_long.append(&mut f.too_long);
        if doc.links.len() >= BATCH {
            sink(&mut doc);
            doc.links.clear();
        }
        Flow::Go
    });
    doc.problems.extend(problems);
    Ok(doc)
}

/// The file a page's pass reads, and the encoding it reads it in.
enum Tokenized {
    /// The page itself, in its ASCII-compatible encoding.
    Page(&'static Encoding),
    /// The page decoded into UTF-8 (its offsets those of the UTF-8 text,
    /// as in memory): lol_html reads ASCII-compatible encodings only.
    Decoded(File),
}

impl Tokenized {
    /// The file to read for `page`, and the encoding to read it in.
    fn view<'a>(&'a self, page: &'a File) -> (&'a File, &'static Encoding) {
        match self {
            Tokenized::Page(e) => (page, e),
            Tokenized::Decoded(f) => (f, UTF_8),
        }
    }
}

/// How `file`, in `encoding` (`decoded`: UTF-8 already), is tokenized.
fn tokenized_file(
    file: &File,
    bom: usize,
    encoding: &'static Encoding,
    decoded: bool,
) -> io::Result<Tokenized> {
    let tokenized = if decoded { UTF_8 } else { encoding };
    if tokenized.is_ascii_compatible() {
        Ok(Tokenized::Page(tokenized))
    } else {
        decode_to_file(file, bom, encoding).map(Tokenized::Decoded)
    }
}

/// The first pass over a page: until its first base of the document tree
/// and, while the encoding is `tentative`, its first `<meta>` that
/// declares one.
fn first_pass(
    file: &File,
    tokenized: &'static Encoding,
    bom: usize,
    tentative: bool,
) -> Found {
    let source = Source::File(file);
    page_pass(&source, tokenized, bom, &mut Vec::new(), &mut |f| {
        f.links.clear();
        f.too_long.clear();
        if f.bases.is_empty() || tentative && f.declared.is_none() {
            Flow::Go
        } else {
            Flow::Stop
        }
    })
}

/// Writes each chunk of `file` from byte `start` to `write`, while it
/// says to go on. The file is positioned before each read: the handlers
/// of a pass read the text of raw text elements from it between chunks.
pub(super) fn chunks(
    mut file: &File,
    start: usize,
    mut write: impl FnMut(&[u8]) -> Result<Flow, Problem>,
) -> Result<(), Problem> {
    let mut buf = vec![0; CHUNK];
    let mut at = start as u64;
    loop {
        let read = file
            .seek(SeekFrom::Start(at))
            .and_then(|_| file.read(&mut buf))
            .map_err(|e| Problem::SpoolRead(e.into()))?;
        if read == 0 {
            return Ok(());
        }
        at += read as u64;
        if write(&buf[..read])? == Flow::Stop {
            return Ok(());
        }
    }
}

/// `file` from byte `bom` decoded from `encoding` into a new temporary
/// file of UTF-8, preceded by `bom` bytes so that an offset in the text is
/// an offset in the file.
fn decode_to_file(
    mut file: &File,
    bom: usize,
    encoding: &'static Encoding,
) -> io::Result<File> {
    let mut out = io::BufWriter::new(tempfile::tempfile()?);
    out.write_all(&vec![0; bom])?;
    file.seek(SeekFrom::Start(bom as u64))?;
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut input = vec![0; CHUNK];
    let mut text = String::with_capacity(CHUNK * 3 + 16);
    loop {
        let read = file.read(&mut input)?;
        let last = read == 0;
        let mut consumed = 0;
        loop {
            text.clear();
            let (result, n, _) = decoder.decode_to_string(
                &input[consumed..read],
                &mut text,
                last,
            );
            consumed += n;
            out.write_all(text.as_bytes())?;
            if result == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
        if last {
            break;
        }
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_spooled_page_that_cannot_be_read_again_keeps_the_io_error() {
        // A file open for writing only: reading it fails, as a spool file
        // gone bad would.
        let path = std::env::temp_dir()
            .join(format!("urlspec-spool-{}", std::process::id()));
        let file = File::create(&path).unwrap();
        let got = chunks(&file, 0, |_| Ok(Flow::Go));
        std::fs::remove_file(&path).unwrap();
        let Err(problem) = got else { panic!("read") };
        let Problem::SpoolRead(e) = &problem else { panic!("{problem:?}") };
        assert!(e.get().raw_os_error().is_some(), "{e:?}");
        assert!(problem.source().is_some());
        assert_eq!(problem.to_string(), format!("HTML reading stopped: {e}"));
    }
}
