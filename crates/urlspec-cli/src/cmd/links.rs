//! `urlspec links`: every link in HTML files, MIME messages and WARC
//! archives, resolved against the base each spec establishes.
//!
//! The reading is [`urlspec_links`]'s: this module picks the inputs (the
//! files, standard input, or the built-in sample), detects their format,
//! hands each document the library finds to a [`Printer`] as soon as it is
//! found, and ends with the [`Summary`]. A WARC archive is streamed record
//! by record, so memory stays bounded by the largest record; HTML and MIME
//! inputs are read whole, as their parsers need.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::rc::Rc;

use indicatif::{ProgressBar, ProgressStyle};
use urlspec::base::{Base, Source};
use urlspec_links::{html, mime, warc, Context, Document, Format, Summary};

use super::Status;
use crate::cli::{InputFormat, LinksArgs, LinksOutput};
use crate::output::{self, Error, JsonObject, Output, RecordWrite};

/// The built-in sample: a MIME message that shows every base layer.
pub const SAMPLE: &[u8] = include_bytes!("../../../../examples/sample.eml");

/// The name of the built-in sample in the output.
pub const SAMPLE_NAME: &str = "examples/sample.eml";

/// The widest `element@attribute` column of the text output.
const MAX_PLACE_WIDTH: usize = 24;

/// The widest reference column of the text output (longer references
/// push their `->` to the right).
const MAX_REFERENCE_WIDTH: usize = 40;

/// How many bytes are read to detect an input's format.
const HEAD: usize = 1024;

/// Reads every input of `args` and prints its links.
pub fn run(args: &LinksArgs) -> Result<Status, Error> {
    let ctx = context(args);
    let mut out = Output::stdout();
    let interactive = io::stdout().is_terminal();
    let mut printer = Printer::new(args.output);
    printer.start(&mut out).map_err(Error::Write)?;
    let mut failed = false;
    if args.files.is_empty() {
        let input =
            Input { name: SAMPLE_NAME, reader: Box::new(SAMPLE), size: None };
        read(input, args.format, &ctx, &mut printer, &mut out, interactive)?;
    }
    for path in &args.files {
        let input = if path == "-" {
            Input { name: "-", reader: Box::new(io::stdin()), size: None }
        } else {
            match File::open(path) {
                Ok(file) => {
                    // A size to show progress against: a regular file's.
                    let size = file
                        .metadata()
                        .ok()
                        .filter(|m| m.is_file())
                        .map(|m| m.len());
                    Input { name: path, reader: Box::new(file), size }
                }
                Err(err) => {
                    failed = true;
                    let _ = writeln!(
                        io::stderr().lock(),
                        "urlspec: {path}: {err}"
                    );
                    continue;
                }
            }
        };
        let read = output::isolate(|| {
            read(input, args.format, &ctx, &mut printer, &mut out, interactive)
        });
        match read {
            Ok(Ok(())) => {}
            Ok(Err(Error::Read(err))) => {
                failed = true;
                let _ =
                    writeln!(io::stderr().lock(), "urlspec: {path}: {err}");
            }
            Ok(Err(err)) => return Err(err),
            // The input's links up to the failure are printed; the next
            // input is read.
            Err(bad) => {
                printer.unreadable += 1;
                let _ = writeln!(
                    io::stderr().lock(),
                    "urlspec: {path}: {}: {bad}",
                    bad.kind()
                );
            }
        }
    }
    printer.finish(&mut out).map_err(Error::Write)?;
    out.finish().map_err(Error::Write)?;
    // After TSV or JSON the summary goes to standard error, and only once
    // the links are all written: a failed write is no success to report.
    printer.finish_stderr();
    let s = &printer.summary;
    Ok(if failed {
        Status::Failed
    } else {
        Status::from_valid(s.unresolved == 0 && printer.unreadable == 0)
    })
}

/// How `args` reads documents: the spec, the base options, the retrieval
/// chain.
fn context(args: &LinksArgs) -> Context {
    Context {
        spec: args.spec,
        base: args.base_options(),
        retrieval: args.retrieval(),
        encoding: args.encoding,
        exclude: args.exclude_context.clone(),
    }
}

/// Reads one input held in memory, `data` named `name`, as `args` says,
/// and prints its documents with `printer` (the body of `urlspec serve`'s
/// `POST /api/links`). An input not of its format is counted as
/// unreadable in `printer`.
pub fn read_bytes(
    data: Vec<u8>,
    name: &str,
    args: &LinksArgs,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> Result<(), Error> {
    let input =
        Input { name, reader: Box::new(io::Cursor::new(data)), size: None };
    read(input, args.format, &context(args), printer, out, false)
}

/// One input: its name, its bytes, and its size when known.
struct Input<'a> {
    name: &'a str,
    reader: Box<dyn Read>,
    size: Option<u64>,
}

/// Reads one input in its format and prints its documents. `Err(Read)`
/// when it could not be read at all; an input that is not of its format is
/// reported and counted as unreadable.
fn read(
    mut input: Input<'_>,
    format: InputFormat,
    ctx: &Context,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
    interactive: bool,
) -> Result<(), Error> {
    let head = read_head(&mut input.reader).map_err(Error::Read)?;
    let format = match format {
        InputFormat::Auto => Format::detect(&head),
        InputFormat::Html => Format::Html,
        InputFormat::Mime => Format::Mime,
        InputFormat::Warc => Format::Warc,
    };
    let mut rest = io::Cursor::new(head).chain(input.reader);
    if format == Format::Warc {
        return read_warc(
            rest,
            input.name,
            input.size,
            ctx,
            printer,
            out,
            interactive,
        );
    }
    let mut data = Vec::new();
    rest.read_to_end(&mut data).map_err(Error::Read)?;
    let mut write_result = Ok(());
    let mut sink = |doc: Document| {
        if write_result.is_ok() {
            write_result = printer.document(out, &doc);
        }
    };
    if format == Format::Html {
        let base = ctx.retrieval_base();
        sink(html::document(&data, input.name, &base, ctx));
    } else if let Err(problem) =
        mime::documents(&data, input.name, ctx, &mut sink)
    {
        printer.unreadable += 1;
        let _ = writeln!(io::stderr().lock(), "urlspec: {problem}");
    }
    write_result.map_err(Error::Write)
}

/// Reads the first [`HEAD`] bytes (fewer at the end of the input), for
/// [`Format::detect`].
fn read_head(reader: &mut dyn Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    reader.take(HEAD as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Streams a WARC archive, record by record, with a progress bar on a
/// terminal when its size is known.
fn read_warc(
    input: impl Read + 'static,
    name: &str,
    size: Option<u64>,
    ctx: &Context,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
    interactive: bool,
) -> Result<(), Error> {
    let bar = size.filter(|_| io::stderr().is_terminal()).map(|len| {
        let style = ProgressStyle::with_template(
            "{prefix} [{wide_bar}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        ProgressBar::new(len).with_style(style).with_prefix(name.to_string())
    });
    let stop = Rc::new(Cell::new(false));
    let counted =
        Counting { inner: input, bar: bar.clone(), stop: stop.clone() };
    let reader = warc::reader(counted).map_err(Error::Read)?;
    let mut records = Summary::default();
    let mut write_result = Ok(());
    let outcome = {
        let mut sink = |doc: Document| {
            if write_result.is_err() {
                return;
            }
            let mut write = || printer.document(out, &doc);
            write_result = match (&bar, interactive) {
                // The bar and the output share the terminal.
                (Some(bar), true) => bar.suspend(write),
                _ => write(),
            };
            if write_result.is_err() {
                // Stop reading: the output is gone.
                stop.set(true);
            }
        };
        warc::documents(reader, ctx, &mut records, &mut sink)
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    printer.summary.skipped_records += records.skipped_records;
    for (reason, n) in records.skipped_by_reason {
        *printer.summary.skipped_by_reason.entry(reason).or_default() += n;
    }
    write_result.map_err(Error::Write)?;
    if let Err(problem) = outcome {
        printer.unreadable += 1;
        let _ = writeln!(io::stderr().lock(), "urlspec: {name}: {problem}");
    }
    Ok(())
}

/// A reader that moves a progress bar by the bytes read, and fails once
/// `stop` is set (so that a closed output ends the reading of an archive).
struct Counting<R> {
    inner: R,
    bar: Option<ProgressBar>,
    stop: Rc<Cell<bool>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.get() {
            return Err(io::Error::other("output closed"));
        }
        let n = self.inner.read(buf)?;
        if let Some(bar) = &self.bar {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}

/// What is said of a document's base once and repeated on each of its
/// links in TSV and JSON: the same strings as the Python package's `Link`
/// (both come from `urlspec_links`).
struct BaseInfo<'a> {
    /// `embedded`, `header:NAME`, `retrieval` or `none`.
    source: String,
    /// The redirect chain, when the base is a retrieval URL reached
    /// through redirects.
    chain: Option<&'a [String]>,
}

impl<'a> BaseInfo<'a> {
    fn of(base: &'a Base) -> BaseInfo<'a> {
        BaseInfo {
            source: urlspec_links::base_source(base),
            chain: urlspec_links::base_chain(base),
        }
    }
}

/// Prints documents as they come, in one of the output formats, and keeps
/// the counts.
pub struct Printer {
    how: LinksOutput,
    /// The counts over the run.
    pub summary: Summary,
    /// Inputs or documents that could not be read (wholly or in part).
    pub unreadable: usize,
    /// Whether no document has been printed yet (text blocks are separated
    /// by a blank line).
    first: bool,
    /// One line, reused for every link.
    line: Vec<u8>,
}

/// The TSV header row.
pub const TSV_HEADER: &str =
    "document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror\tencoding\tcontext\n";

impl Printer {
    /// A printer in format `how`.
    pub fn new(how: LinksOutput) -> Printer {
        Printer {
            how,
            summary: Summary::default(),
            unreadable: 0,
            first: true,
            line: Vec::with_capacity(1024),
        }
    }

    /// Writes what comes before the first document: the TSV header row.
    pub fn start(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.how == LinksOutput::Tsv {
            out.write_all(TSV_HEADER.as_bytes())?;
        }
        Ok(())
    }

    /// Counts and prints one document.
    pub fn document(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &Document,
    ) -> io::Result<()> {
        self.summary.add(doc);
        if !doc.problems.is_empty() {
            self.unreadable += 1;
        }
        match self.how {
            LinksOutput::Text => self.text(out, doc)?,
            LinksOutput::Tsv | LinksOutput::Json => {
                for problem in &doc.problems {
                    let _ = writeln!(
                        io::stderr().lock(),
                        "urlspec: {}: {problem}",
                        doc.name
                    );
                }
                let info = BaseInfo::of(&doc.base);
                for link in &doc.links {
                    self.line.clear();
                    if self.how == LinksOutput::Tsv {
                        tsv_row(&mut self.line, doc, &info, link);
                    } else {
                        json_line(&mut self.line, doc, &info, link);
                    }
                    out.write_all(&self.line)?;
                }
            }
        }
        out.end_record()
    }

    /// One text block: the name, the base, the notes, the links.
    fn text(
        &mut self,
        out: &mut impl Write,
        doc: &Document,
    ) -> io::Result<()> {
        if !self.first {
            out.write_all(b"\n")?;
        }
        self.first = false;
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
        for note in base.notes().iter().chain(&doc.problems) {
            writeln!(out, "   note: {}", output::visible(note))?;
        }
        if doc.links.is_empty() {
            writeln!(out, "   (no links)")?;
        }
        // Columns aligned within the document, up to a width.
        let place_width = doc
            .links
            .iter()
            .map(|l| {
                output::text_width(&l.element)
                    + 1
                    + output::text_width(&l.attribute)
            })
            .max()
            .unwrap_or(0)
            .min(MAX_PLACE_WIDTH);
        let reference_width = doc
            .links
            .iter()
            .map(|l| output::text_width(&output::visible(&l.reference)))
            .max()
            .unwrap_or(0)
            .min(MAX_REFERENCE_WIDTH);
        for link in &doc.links {
            let place = format!("{}@{}", link.element, link.attribute);
            let place = output::pad(&place, place_width);
            let reference = output::visible(&link.reference);
            let reference = output::pad(&reference, reference_width);
            write!(out, "   {place}  {reference}  ->  ")?;
            match &link.url {
                Ok(url) => writeln!(out, "{}", output::visible(url))?,
                Err(reason) => writeln!(out, "error: {reason}")?,
            }
        }
        Ok(())
    }

    /// Writes the summary after text output, to `out`.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.how != LinksOutput::Text {
            return Ok(());
        }
        if !self.first {
            out.write_all(b"\n")?;
        }
        writeln!(out, "{}", summary_line(&self.summary, self.unreadable))
    }

    /// Writes the summary after TSV or JSON output, to standard error.
    pub fn finish_stderr(&self) {
        if self.how != LinksOutput::Text {
            let line = summary_line(&self.summary, self.unreadable);
            let _ = writeln!(io::stderr().lock(), "{line}");
        }
    }
}

/// `N documents, M links, U unresolved; bases: embedded X, header Y,
/// retrieval Z, none W; skipped records S`, and the unreadable inputs when
/// there are any.
pub fn summary_line(s: &Summary, unreadable: usize) -> String {
    let layer = |name| s.by_base_source.get(name).copied().unwrap_or(0);
    let plural = |n: usize, one: &str, many: &str| {
        format!("{n} {}", if n == 1 { one } else { many })
    };
    let mut line = format!(
        "{}, {}, {} unresolved; bases: embedded {}, header {}, retrieval {}, \
         none {}; skipped records {}",
        plural(s.documents, "document", "documents"),
        plural(s.links, "link", "links"),
        s.unresolved,
        layer("embedded"),
        layer("header"),
        layer("retrieval"),
        layer("none"),
        s.skipped_records,
    );
    if unreadable > 0 {
        line.push_str(&format!("; unreadable {unreadable}"));
    }
    line
}

/// One TSV row: document, element, attribute, offset, reference, url,
/// base, base_source, error, encoding, context; control characters made visible so that a
/// field never breaks the row.
fn tsv_row(
    buf: &mut Vec<u8>,
    doc: &Document,
    info: &BaseInfo,
    link: &urlspec_links::Link,
) {
    let offset = link.offset.to_string();
    let (url, error) = match &link.url {
        Ok(url) => (url.as_str(), ""),
        Err(reason) => ("", reason.as_str()),
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

/// One JSON line: document, element, attribute, reference, url, base,
/// base_source, error, offset, base_chain, encoding (an HTML page's), and
/// context (`noscript`, `template`, or null for the document tree).
fn json_line(
    buf: &mut Vec<u8>,
    doc: &Document,
    info: &BaseInfo,
    link: &urlspec_links::Link,
) {
    let mut o = JsonObject::new(buf);
    o.string("document", &doc.name)
        .string("element", &link.element)
        .string("attribute", &link.attribute)
        .string("reference", &link.reference)
        .optional("url", link.url.as_deref().ok())
        .optional("base", doc.base.url())
        .string("base_source", &info.source)
        .optional("error", link.url.as_ref().err().map(String::as_str))
        .number("offset", link.offset);
    match &info.chain {
        Some(chain) => o.strings("base_chain", *chain),
        None => o.null("base_chain"),
    };
    o.optional("encoding", doc.encoding.map(|e| e.name()))
        .optional("context", link.within.map(|w| w.name()));
    o.finish();
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    fn sample(spec: Spec, how: LinksOutput) -> String {
        let ctx = Context::new(spec);
        let mut printer = Printer::new(how);
        let mut out = Vec::new();
        printer.start(&mut out).unwrap();
        mime::documents(SAMPLE, SAMPLE_NAME, &ctx, &mut |d| {
            printer.document(&mut out, &d).unwrap();
        })
        .unwrap();
        printer.finish(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn sample_text_shows_each_spec_its_own_base() {
        let text = sample(Spec::Rfc1808, LinksOutput::Text);
        assert!(text.starts_with("== examples/sample.eml (headers)\n"));
        assert!(text.contains(
            "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]\n"
        ));
        let text = sample(Spec::Draft96, LinksOutput::Text);
        assert!(text.contains(
            "   base: http://www.w3.org/Addressing/  [Content-Base header]\n"
        ));
        let text = sample(Spec::Rfc3986, LinksOutput::Text);
        assert!(text.contains(
            "   base: http://archive.example.org/1996/06/  [Content-Location header]\n"
        ));
        // The App. D example is the same under every spec.
        for spec in
            [Spec::Rfc1630, Spec::Rfc1808, Spec::Draft96, Spec::Rfc3986]
        {
            let text = sample(spec, LinksOutput::Text);
            assert!(
                text.contains("   a@href     ../x                               ->  http://www.ics.uci.edu/Test/a/x\n"),
                "{spec}"
            );
        }
    }

    #[test]
    fn tsv_rows_have_eleven_fields() {
        let text = sample(Spec::Rfc3986, LinksOutput::Tsv);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(TSV_HEADER.trim_end()));
        for line in lines {
            assert_eq!(line.split('\t').count(), 11, "{line}");
        }
    }

    #[test]
    fn json_base_source_names_the_header() {
        let text = sample(Spec::Draft96, LinksOutput::Json);
        let first: serde_json::Value =
            serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(first["base_source"], "header:Content-Base");
        assert!(first["base_chain"].is_null());
    }

    #[test]
    fn summary_counts_layers() {
        let mut s = Summary {
            documents: 1,
            links: 2,
            unresolved: 1,
            skipped_records: 3,
            ..Summary::default()
        };
        s.by_base_source.insert("none", 1);
        assert_eq!(
            summary_line(&s, 0),
            "1 document, 2 links, 1 unresolved; bases: embedded 0, header 0, \
             retrieval 0, none 1; skipped records 3"
        );
        assert!(summary_line(&s, 2).ends_with("; unreadable 2"));
    }
}
