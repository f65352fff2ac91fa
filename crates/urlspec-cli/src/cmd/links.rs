//! `urlspec links`: every link in HTML files, MIME messages and WARC
//! archives, resolved against the base each spec establishes.
//!
//! The reading is [`urlspec_links`]'s: this module holds the command's
//! arguments ([`LinksArgs`]), picks the inputs (the files, the directories
//! walked, the paths of `--paths-from`, standard input, or the built-in
//! sample: [`inputs`]), detects their format (looking inside gzip, refusing
//! binary data), hands each document the library finds to a [`Printer`] as
//! soon as it is found, and ends with the [`Summary`]. A WARC archive is
//! streamed record by record, so memory stays bounded by the largest
//! record; HTML and MIME inputs are read whole, as their parsers need.
//! With `--threads` above 1 the same reading hands the records and inputs
//! to worker threads instead ([`parallel`]), and the output is the same.

mod inputs;
mod lookahead;
#[cfg(test)]
mod panics;
mod parallel;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use flate2::read::MultiGzDecoder;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use urlspec::base::{self, Base, Source};
use urlspec::resolve::Resolver;
use urlspec::Spec;
use urlspec_links::html::encoding::Choice;
use urlspec_links::html::stream::{spool, Spooled};
use urlspec_links::{
    html, mime, warc, Context, Document, Format, Summary, Within,
};

use super::Status;
use crate::args::{help_of, SpecArg};
use crate::cmd::extract::check_absolute;
use crate::cmd::resolve::ResolveOptions;
use crate::output::{self, Error, JsonObject, Output, RecordWrite};
use inputs::Input;
use lookahead::{Begun, Listed, Lookahead, Next};

/// The built-in sample: a MIME message that shows every base layer.
pub const SAMPLE: &[u8] = include_bytes!("../../examples/sample.eml");

/// The name of the built-in sample in the output.
pub const SAMPLE_NAME: &str = "examples/sample.eml";

/// The widest `element@attribute` column of the text output.
const MAX_PLACE_WIDTH: usize = 24;

/// The widest reference column of the text output (longer references
/// push their `->` to the right).
const MAX_REFERENCE_WIDTH: usize = 40;

/// How many bytes are read to detect an input's format (the MIME Sniffing
/// Standard's resource header).
const HEAD: usize = 1024;

/// The long description of `urlspec links`.
const LONG_ABOUT: &str = "\
Find every link in HTML documents, MIME messages (.eml, .mht, mbox) and WARC
archives, and resolve each against the base URL of its document, established
as the chosen spec establishes it. With no FILE, read standard input; when
standard input is a terminal, run on the built-in sample, a small MIME
message that shows every base layer (examples/sample.eml; --sample reads it
anywhere).

The base of a document is given by the innermost layer that defines one
(RFC 1808 section 3, the 1996 draft section 5, RFC 3986 section 5.1):
  1. embedded   <BASE href> in the HTML itself
  2. header     Base: <URL:...> (draft04, rfc1808); Content-Base, then
                Content-Location (draft96, draft96dec); Content-Location
                (rfc2396, rfc3986, whatwg); none under rfc1630 (see
                --base-headers)
  3. container  a part of a multipart/* or message/rfc822 takes its
                container's base, recursively
  4. retrieval  the URL the document was retrieved from: the last of
                --url and --redirect, a PATH<TAB>URL line of --paths-from,
                or a WARC record's target URI after the redirects that led
                to it
  5. none       relative links cannot be resolved
--base URL overrides them all (base_source `given`).

Inputs (detected from their content, or set with --format):
  html  an HTML page; its retrieval URL is --url, or the last --redirect
  mime  a mail message or MHTML file: the links in its headers, written as
        <URL:...> or in the <URL> lists of List-Help, List-Post, ...
        (RFC 2369), and in every HTML part, through nested multipart/* and
        message/rfc822 parts; an mbox file, message by message (NAME[1],
        NAME[2], ...)
  warc  a WARC archive, or an ARC archive (versions 1 and 2), gzip-compressed
        or not: every HTML response record (HTTP/1.x, HTTP/2; HTML by
        Content-Type, or sniffed when there is none) and resource record,
        with the 3xx redirects that led to it and the links of its Link and
        Refresh headers; its content codings (gzip, deflate, br, zstd)
        undone, and a body not in the coding it names read as it is, with a
        note; other records are skipped and counted by reason (-v lists
        each)
A message is recognised by an mbox From line followed by a header, or by a
known header field on its first line (Received, DKIM-Signature, From,
MIME-Version, Content-*, X-*, ...); anything else is HTML. An archive is
also recognised past a damaged first record or gzip member, and by its name
(.warc, .warc.gz, .arc, .arc.gz). gzip-compressed HTML and MIME inputs are
read too. An input whose first 1024 bytes hold
binary data (the MIME Sniffing Standard's binary data bytes) is refused,
unless --format says how to read it. A FILE of - is standard input; a
directory is walked (its files in name order). A WARC archive is read one
record at a time, so memory stays bounded whatever its size; a damaged
record (a corrupt gzip member, a bad header, a cut block) is reported with
its byte offset and reading resumes at the next one. When standard error is
a terminal, a progress bar shows how far a WARC file has been read.
-j N (--threads; default: the available cores) reads the records of an
archive, and separate inputs, on N threads at once; the output comes in
input order, byte for byte what -j 1 (everything on one thread) prints.

Output (--output):
  text  one block per document: `== NAME`, the base with its layer and the
        containers it came through, any notes, then one line per link:
        ELEMENT@ATTRIBUTE  REFERENCE  ->  URL (or `error: REASON`)
  tsv   a header row, then one row per link: document, element, attribute,
        offset, reference, url, base, base_source, error (control characters
        in a field shown as Unicode control pictures)
  json  one object per link (JSON Lines) with the keys document, element,
        attribute, reference, url (null on error), base (null when none),
        base_source (embedded, header:NAME, retrieval, given or none), error
        (null or the reason), offset (the byte offset of the reference in
        its document), base_chain (the URLs requested, in order, when the
        base is a retrieval URL reached through redirects; else null) and
        containers (the MIME parts the base came through, outermost first)
--element, --attribute and --scheme keep only the links they name; --unique
prints each URL once per document (--unique=all: once in all).
A summary follows: documents, links, unresolved links, documents per base
layer and skipped archive records, on standard output after text and on
standard error after tsv or json. When links stayed unresolved in documents
whose Content-Location, Content-Base or Base header the chosen spec does not
read, it says which spec or --base-headers value would read it.

Exit status: 0 when every link was resolved, 1 when some link could not be
resolved or some input or record could not be read as its format (binary
input included), 2 for a usage or I/O error (such as a missing FILE, a
relative --url, or --url with a WARC archive).";

/// The `Examples:` section of `urlspec links --help`.
const EXAMPLES: &str = "\
Examples:
  # The built-in sample: one message, every base layer
  urlspec links --sample

  # The same message under the 1996 draft: Content-Base wins over Base
  urlspec links --sample --spec draft96

  # A page saved from a redirected request: the base is the last URL
  urlspec links --url http://example.com/a --redirect https://example.com/a/ page.html

  # A crawl, as JSON Lines: the links that did not resolve, and why
  urlspec links --spec rfc3986 --output json crawl.warc.gz | jq -c 'select(.error) | {document, reference, error}'

  # Every distinct http(s) link of a crawl, with its base, for a spreadsheet
  urlspec links --output tsv --unique=all --scheme http,https crawl.warc.gz > links.tsv

  # Saved pages with the URL each was fetched from (PATH<TAB>URL lines)
  urlspec links --paths-from saved.tsv

  # A mailbox, and the list headers of each message
  urlspec links --attribute list-help,list-archive,list-post archive.mbox

  # A saved web page (MHTML) from standard input
  urlspec links --format mime < page.mht";

/// The arguments of `urlspec links`.
#[derive(Debug, Args)]
#[command(
    about = "List every link in HTML files, MIME messages and WARC \
             archives, resolved against the base each spec establishes",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("spec",
        "The spec that establishes bases and resolves links"
    ))
)]
pub struct LinksArgs {
    /// `--spec`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub spec: SpecArg,

    /// The URL first requested to retrieve an HTML or MIME input (its base
    /// when nothing inner sets one); it must be absolute
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// A URL the request was redirected to; repeat it for each redirect, in
    /// order: the last one is the retrieval URL. A relative one is resolved
    /// against the URL before it, as a Location header is
    #[arg(long, value_name = "URL", requires = "url")]
    pub redirect: Vec<String>,

    /// The base URL of every document, whatever its <BASE href>, headers,
    /// containers or retrieval URL say (base_source `given`)
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,

    /// The kind of input; auto detects it from the first bytes (and refuses
    /// binary data)
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub format: InputFormat,

    /// How to print the links
    #[arg(short, long, value_enum, value_name = "HOW", default_value_t)]
    pub output: LinksOutput,

    /// Which headers set a base: the spec's own, or all of Base,
    /// Content-Base and Content-Location (in that order) under every spec
    #[arg(long, value_enum, value_name = "WHICH", default_value_t)]
    pub base_headers: BaseHeaders,

    /// Ignore a <BASE href>, Base or Content-Base that is not absolute,
    /// instead of resolving it against the next outer layer
    #[arg(long)]
    pub strict_base: bool,

    /// An HTML page's encoding: sniff (as a browser: byte order mark,
    /// Content-Type charset, <meta> in the first 1024 bytes, else
    /// windows-1252), detect (a guess from the bytes when nothing is
    /// declared), or an encoding label for every page
    #[arg(long, value_name = "LABEL", default_value = "sniff", value_parser = parse_encoding)]
    pub encoding: Choice,

    /// Leave out the links inside these parts of a page, which a browser
    /// running scripts does not see: noscript, template (comma-separated)
    #[arg(long, value_name = "CONTEXT", value_delimiter = ',', value_parser = parse_within)]
    pub exclude_context: Vec<Within>,

    /// Read the files named in FILE, one per line, or PATH<TAB>URL to give
    /// each its retrieval URL (- for standard input)
    #[arg(long, value_name = "FILE")]
    pub paths_from: Option<String>,

    /// Read the built-in sample message (what a run with no FILE reads when
    /// standard input is a terminal)
    #[arg(long, conflicts_with_all = ["files", "paths_from"])]
    pub sample: bool,

    /// Print each resolved URL once per document; `all`: once over the
    /// whole run (which remembers every URL it printed)
    #[arg(
        long,
        value_enum,
        value_name = "SCOPE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "document"
    )]
    pub unique: Option<Unique>,

    /// Only links of these elements (a, img, header, …; comma-separated,
    /// any case)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub element: Vec<String>,

    /// Only links in these attributes or headers (href, src, Link, …;
    /// comma-separated, any case)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub attribute: Vec<String>,

    /// Only resolved URLs with these schemes (http, https, mailto, …;
    /// comma-separated, any case)
    #[arg(long, value_name = "SCHEMES", value_delimiter = ',')]
    pub scheme: Vec<String>,

    /// List each skipped or damaged archive record on standard error, with
    /// its byte offset and reason
    #[arg(short, long)]
    pub verbose: bool,

    /// How many threads read the documents: WARC records and separate
    /// inputs are decoded, parsed, resolved and formatted in parallel on N
    /// workers, and printed in input order, the same output as with one
    /// thread. One reader thread frames the archives and follows their
    /// redirects, in order; the gzip members of a record-compressed
    /// archive are inflated, in order, on a thread of their own ahead of
    /// it (a damaged member, or one past 2 MiB, the reader inflates); the
    /// next N input files (at most 4) are opened, and their archives
    /// inflating, while one is read. Default: the available cores; 1
    /// reads everything on the main thread
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,

    /// Files or directories to read (- for standard input; a directory is
    /// walked); with none, standard input, or the built-in sample when
    /// standard input is a terminal
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// How to resolve where the specs leave a choice, as `urlspec resolve`
    /// does (last: the heading it sets would otherwise take in the
    /// arguments after it)
    #[command(flatten)]
    pub resolution: ResolveOptions,
}

/// `--encoding`: `sniff`, `detect` or a label of the Encoding Standard.
fn parse_encoding(name: &str) -> Result<Choice, String> {
    Choice::parse(name).ok_or_else(|| {
        format!("not an encoding label, sniff or detect: {name}")
    })
}

/// `--exclude-context`: `noscript` or `template`.
fn parse_within(name: &str) -> Result<Within, String> {
    Within::parse(name)
        .ok_or_else(|| format!("not a context (noscript, template): {name}"))
}

impl LinksArgs {
    /// The library's base options.
    pub fn base_options(&self) -> base::Options {
        base::Options::default()
            .strict(self.strict_base)
            .headers(self.base_headers.into())
    }

    /// The retrieval chain: `--url`, then each `--redirect`, each relative
    /// redirect resolved against the URL before it. `Err` with the usage
    /// message when `--url` is not absolute or a redirect does not
    /// resolve.
    pub fn retrieval(&self) -> Result<Vec<String>, Error> {
        let Some(url) = &self.url else { return Ok(Vec::new()) };
        let mut chain = vec![absolute("--url <URL>", url, self.spec.value)?];
        for redirect in &self.redirect {
            let before = chain.last().map_or("", String::as_str);
            let next = Resolver::new(before, self.spec.value)
                .resolve(redirect.trim())
                .map_err(|e| {
                    Error::Usage(format!(
                        "invalid value '{}' for '--redirect <URL>': it does \
                         not resolve against {before}: {e}",
                        output::visible(redirect)
                    ))
                })?;
            chain.push(next.href);
        }
        Ok(chain)
    }

    /// The `--base` URL, checked to be absolute.
    pub fn given_base(&self) -> Result<Option<String>, Error> {
        match &self.base {
            Some(url) => {
                absolute("--base <URL>", url, self.spec.value).map(Some)
            }
            None => Ok(None),
        }
    }

    /// The filters of `--element`, `--attribute`, `--scheme` and
    /// `--unique`.
    pub fn filter(&self) -> Filter {
        let lower = |names: &[String]| {
            names.iter().map(|n| n.trim().to_ascii_lowercase()).collect()
        };
        Filter {
            elements: lower(&self.element),
            attributes: lower(&self.attribute),
            schemes: lower(&self.scheme),
            unique: self.unique,
            seen: HashSet::new(),
        }
    }
}

/// `url` if it is an absolute URL under `spec` (it has a scheme), else
/// the usage error naming `option`.
fn absolute(option: &str, url: &str, spec: Spec) -> Result<String, Error> {
    check_absolute(option, url.trim(), spec)?;
    Ok(url.trim().to_string())
}

/// The values of `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect from the content and name: WARC/ or an ARC file's first line,
    /// a message header or mbox From line, or else HTML (gzip-compressed or
    /// not; binary data refused)
    #[default]
    Auto,
    /// An HTML document
    Html,
    /// A MIME message (.eml, .mht) or an mbox file of messages
    Mime,
    /// A WARC or ARC archive, gzip-compressed or not
    Warc,
}

/// The values of `--output` of `urlspec links`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LinksOutput {
    /// Links grouped by document, each document's base shown once
    #[default]
    Text,
    /// Tab-separated values, a header row first
    Tsv,
    /// One JSON object per link (JSON Lines)
    Json,
}

/// The values of `--base-headers`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BaseHeaders {
    /// The spec's own base headers
    #[default]
    Spec,
    /// Base, Content-Base and Content-Location under every spec
    All,
}

impl From<BaseHeaders> for base::Headers {
    fn from(value: BaseHeaders) -> base::Headers {
        match value {
            BaseHeaders::Spec => base::Headers::Spec,
            BaseHeaders::All => base::Headers::All,
        }
    }
}

/// The values of `--unique`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Unique {
    /// Each resolved URL once per document
    Document,
    /// Each resolved URL once over the whole run
    All,
}

/// Which links are printed: `--element`, `--attribute`, `--scheme` and
/// `--unique`. An empty list lets every value through.
pub struct Filter {
    elements: Vec<String>,
    attributes: Vec<String>,
    schemes: Vec<String>,
    unique: Option<Unique>,
    /// The URLs printed so far (in the document, or in the run).
    seen: HashSet<String>,
}

impl Filter {
    /// Whether any filter is set (otherwise documents are printed as they
    /// come).
    pub fn is_active(&self) -> bool {
        !(self.elements.is_empty()
            && self.attributes.is_empty()
            && self.schemes.is_empty()
            && self.unique.is_none())
    }

    /// Begins a document: `--unique` forgets the URLs of the last one.
    pub fn begin(&mut self) {
        if self.unique == Some(Unique::Document) {
            self.seen.clear();
        }
    }

    /// Drops the links of `doc` that the filters refuse.
    pub fn apply(&mut self, doc: &mut Document) {
        let listed = |list: &[String], value: &str| {
            list.is_empty()
                || list.iter().any(|v| v.eq_ignore_ascii_case(value))
        };
        doc.links.retain(|link| {
            if !listed(&self.elements, &link.element)
                || !listed(&self.attributes, &link.attribute)
            {
                return false;
            }
            if !self.schemes.is_empty() {
                let scheme = link
                    .url
                    .as_deref()
                    .ok()
                    .and_then(|u| u.split_once(':'))
                    .map_or("", |(s, _)| s);
                if !listed(&self.schemes, scheme) {
                    return false;
                }
            }
            match (self.unique, &link.url) {
                (Some(_), Ok(url)) => self.seen.insert(url.clone()),
                _ => true,
            }
        });
    }
}

/// Reads every input of `args` and prints its links: on the main thread
/// with `--threads 1`, else with [`parallel`]'s workers.
pub fn run(args: &LinksArgs) -> Result<Status, Error> {
    let ctx = context(args)?;
    let mut out = Output::stdout();
    let mut printer = Printer::new(args.output).with_filter(args.filter());
    printer.verbose = args.verbose;
    printer.start(&mut out).map_err(Error::Write)?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        NonZeroUsize::get,
    );
    let failed = if threads > 1 {
        parallel::run(args, &ctx, threads, &mut printer, &mut out)?
    } else {
        let mut stage =
            Serial { printer: &mut printer, out: &mut out, failed: false };
        read_all(args, &ctx, &mut stage)?;
        stage.failed
    };
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

/// Where the reading of the inputs hands what it finds, in input order:
/// [`Serial`] prints each document at once, [`parallel`]'s stage sends it
/// to a worker. The reading itself ([`read_all`]: the inputs, their
/// formats, a WARC archive's framing, its records' types and redirects)
/// is the same for both, so is what it reports.
trait Stage {
    /// A new input, named `name`, begins.
    fn input(&mut self, name: &str);
    /// An archive record that holds a page, from an archive read under
    /// `ctx` (the progress bar shows how far it has been read).
    fn page(
        &mut self,
        page: warc::Page,
        ctx: &Context,
        bar: Option<&ProgressBar>,
    ) -> io::Result<()>;
    /// An HTML or MIME input, read whole.
    fn data(
        &mut self,
        format: Format,
        data: Vec<u8>,
        name: &str,
        ctx: &Context,
    ) -> io::Result<()>;
    /// An HTML page or a MIME message past [`html::stream::IN_MEMORY`],
    /// in `file` (the input's own, or a temporary one), read in place in
    /// its turn, in bounded memory.
    fn long_html(
        &mut self,
        format: Format,
        file: File,
        name: &str,
        ctx: &Context,
    ) -> Result<(), Error>;
    /// A line for standard error.
    fn warn(&mut self, line: String);
    /// An input, record or document that could not be read.
    fn unreadable(&mut self);
    /// Counts to add to the summary (an archive's skipped records).
    fn add(&mut self, summary: Summary);
    /// An input that could not be read or named (exit status 1).
    fn failed(&mut self);
    /// Whether `-v` lists each skipped record.
    fn verbose(&self) -> bool;
    /// Whether standard output is a terminal (the progress bar then
    /// steps aside while documents are printed).
    fn interactive(&self) -> bool;
    /// Whether an archive's gzip members are inflated ahead on a thread
    /// of their own ([`warc::Documents::inflate_ahead`]).
    fn inflate_ahead(&self) -> bool {
        false
    }
    /// How many inputs after the one being read are begun ahead of their
    /// turn ([`lookahead`]).
    fn lookahead(&self) -> usize {
        0
    }
}

/// `--threads 1`: each document printed as soon as it is read.
struct Serial<'a, W> {
    printer: &'a mut Printer,
    out: &'a mut W,
    failed: bool,
}

impl<W: RecordWrite> Stage for Serial<'_, W> {
    fn input(&mut self, _: &str) {}

    fn page(
        &mut self,
        page: warc::Page,
        ctx: &Context,
        bar: Option<&ProgressBar>,
    ) -> io::Result<()> {
        let interactive = self.interactive();
        let write = || print_page(self.printer, self.out, page, ctx);
        match bar {
            // The bar and the output share the terminal.
            Some(bar) if interactive => bar.suspend(write),
            _ => write(),
        }
    }

    fn data(
        &mut self,
        format: Format,
        data: Vec<u8>,
        name: &str,
        ctx: &Context,
    ) -> io::Result<()> {
        print_data(format, &data, name, ctx, self.printer, self.out)
    }

    fn long_html(
        &mut self,
        format: Format,
        file: File,
        name: &str,
        ctx: &Context,
    ) -> Result<(), Error> {
        read_html(format, &file, name, ctx, self.printer, self.out)
    }

    fn warn(&mut self, line: String) {
        self.out.warn(&line);
    }

    fn unreadable(&mut self) {
        self.printer.unreadable += 1;
    }

    fn add(&mut self, summary: Summary) {
        merge(&mut self.printer.summary, summary);
    }

    fn failed(&mut self) {
        self.failed = true;
    }

    fn verbose(&self) -> bool {
        self.printer.verbose
    }

    fn interactive(&self) -> bool {
        self.out.interactive()
    }
}

/// Adds the counts of `more` to `summary`.
fn merge(summary: &mut Summary, more: Summary) {
    summary.documents += more.documents;
    summary.links += more.links;
    summary.unresolved += more.unresolved;
    summary.skipped_records += more.skipped_records;
    summary.too_long += more.too_long;
    for (layer, n) in more.by_base_source {
        *summary.by_base_source.entry(layer).or_default() += n;
    }
    for (reason, n) in more.skipped_by_reason {
        *summary.skipped_by_reason.entry(reason).or_default() += n;
    }
    for (name, (n, spec)) in more.unread_base_headers {
        summary.unread_base_headers.entry(name).or_insert((0, spec)).0 += n;
    }
}

/// Reads every input of `args` in order into `stage`. `Err` only when
/// the output is gone.
fn read_all(
    args: &LinksArgs,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    read_inputs(inputs::Inputs::new(args), args, ctx, stage)
}

/// Reads `inputs` (an `Err`: one that could not be opened) in order into
/// `stage`, the next ones begun ahead as `stage` asks ([`lookahead`]).
/// `Err` only when the output is gone.
fn read_inputs(
    inputs: impl Listed,
    args: &LinksArgs,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    let depth = stage.lookahead();
    let verbose = stage.verbose();
    let ahead = Lookahead::new(inputs, depth, args.format, ctx, verbose);
    for next in ahead {
        let Next { input, begun } = match next {
            Ok(next) => next,
            Err(problem) => {
                stage.input("");
                stage.failed();
                stage.warn(format!("urlspec: {problem}"));
                continue;
            }
        };
        let name = input.name.clone();
        stage.input(&name);
        let ctx = match &input.url {
            Some(url) => {
                Context { retrieval: vec![url.clone()], ..ctx.clone() }
            }
            None => ctx.clone(),
        };
        // A panic while it was begun ahead is reported at its turn.
        let read = begun.and_then(|begun| {
            output::isolate(|| {
                read_begun(input, begun, args.format, &ctx, &mut *stage)
            })
        });
        // The input's links up to a failure are printed; the next input
        // is read.
        if let Some(problem) =
            read_problem(&name, read).map_err(Error::Write)?
        {
            if problem.failed {
                stage.failed();
            } else {
                stage.unreadable();
            }
            stage.warn(problem.line);
        }
    }
    Ok(())
}

/// Why input `name` could not be read (to the end): the line for
/// standard error, and whether it is a failure of the input (exit status
/// 1, as a missing file) rather than an unreadable document.
struct ReadProblem {
    failed: bool,
    line: String,
}

/// What `read`, the isolated reading of input `name`, came to: `None`
/// when it was read, `Err` when the output is gone. One report for
/// [`read_all`] and for the long pages [`parallel`]'s writer reads.
fn read_problem(
    name: &str,
    read: Result<Result<(), Error>, output::BadLine>,
) -> io::Result<Option<ReadProblem>> {
    let (failed, line) = match read {
        Ok(Ok(())) => return Ok(None),
        Ok(Err(Error::Write(err))) => return Err(err),
        Ok(Err(Error::Read(err))) => (true, format!("urlspec: {name}: {err}")),
        Ok(Err(Error::Usage(message))) => {
            (true, format!("urlspec: {name}: {message}"))
        }
        Err(bad) => (false, format!("urlspec: {name}: {}: {bad}", bad.kind())),
    };
    Ok(Some(ReadProblem { failed, line }))
}

/// How `args` reads documents: the spec, the base options, the retrieval
/// chain, the given base, the resolution options. `Err(Usage)` for a
/// `--url` or `--base` that is not absolute.
fn context(args: &LinksArgs) -> Result<Context, Error> {
    Ok(Context {
        spec: args.spec.value,
        base: args.base_options(),
        retrieval: args.retrieval()?,
        given: args.given_base()?,
        options: args.resolution.to_options(),
        encoding: args.encoding,
        exclude: args.exclude_context.clone(),
    })
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
    let input = Input {
        name: name.to_string(),
        reader: Box::new(io::Cursor::new(data)),
        size: None,
        url: None,
        path: None,
    };
    let ctx = context(args)?;
    let mut stage = Serial { printer, out, failed: false };
    read(input, args.format, &ctx, &mut stage)
}

/// Reads one input in its format and hands its documents to `stage`.
/// `Err(Read)` when it could not be read at all, `Err(Usage)` for `--url`
/// with an archive; an input that is not of its format, or binary, is
/// reported and counted as unreadable.
fn read(
    input: Input,
    format: InputFormat,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    read_begun(input, Begun::No, format, ctx, stage)
}

/// [`read`] for an input whose reading may have begun ahead of its turn
/// ([`lookahead`]): what it does from there is what [`read`] does.
fn read_begun(
    mut input: Input,
    begun: Begun,
    format: InputFormat,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    let head = match begun {
        Begun::Archive(archive) => {
            return read_archive(*archive, &input.name, ctx, stage)
        }
        Begun::Head(head) => head,
        Begun::No => Head::read(&mut input.reader, &input.name, format),
    }
    .map_err(Error::Read)?;
    let Some(format) = head.format else {
        stage.unreadable();
        stage.warn(format!(
            "urlspec: {}: {}",
            input.name,
            urlspec_links::Reason::Binary
        ));
        return Ok(());
    };
    let gzip = head.gzip;
    let rest = io::Cursor::new(head.bytes).chain(input.reader);
    if format == Format::Warc {
        if !ctx.retrieval.is_empty() {
            return Err(Error::Usage(
                "a retrieval URL (--url, or a PATH<TAB>URL line) does not \
                 apply to a WARC archive: each record has its \
                 WARC-Target-URI"
                    .into(),
            ));
        }
        let archive = Archive::open(
            rest,
            &input.name,
            input.size,
            ctx,
            stage.verbose(),
            stage.inflate_ahead(),
            false,
        );
        return read_archive(archive, &input.name, ctx, stage);
    }
    // A long page or message in a regular file is read in place, a long
    // stream spooled to a temporary file; a short one is read whole.
    let in_place = input.path.as_deref().filter(|_| {
        !gzip && input.size > Some(html::stream::IN_MEMORY as u64)
    });
    let page = match in_place {
        Some(path) => std::fs::File::open(path).map(Spooled::File),
        None if gzip => spool(&mut MultiGzDecoder::new(rest)),
        None => spool(&mut { rest }),
    }
    .map_err(Error::Read)?;
    match page {
        Spooled::Memory(data) => {
            stage.data(format, data, &input.name, ctx).map_err(Error::Write)
        }
        Spooled::File(file) => stage.long_html(format, file, &input.name, ctx),
    }
}

/// Prints the documents of an HTML or MIME input held in memory; a
/// message that cannot be read is reported and counted as unreadable.
fn print_data(
    format: Format,
    data: &[u8],
    name: &str,
    ctx: &Context,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> io::Result<()> {
    let mut write_result = Ok(());
    let read = data_documents(format, data, name, ctx, &mut |doc| {
        if write_result.is_ok() {
            write_result = printer.document(out, doc);
        }
    });
    if let Err(problem) = read {
        printer.unreadable += 1;
        out.warn(&format!("urlspec: {name}: {}", problem.reason));
    }
    write_result
}

/// Hands each document of an HTML or MIME input held in memory to
/// `sink`; `Err` when a message cannot be read.
fn data_documents(
    format: Format,
    data: &[u8],
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(Document),
) -> Result<(), urlspec_links::Error> {
    if format == Format::Html {
        let base = ctx.retrieval_base();
        sink(ctx.finish(html::document(data, name, &base, ctx)));
        Ok(())
    } else {
        mime::documents(data, name, ctx, sink)
    }
}

/// Prints the links of an archive's page as they are read: a long page
/// in batches, in bounded memory ([`warc::Page::read`]).
fn print_page(
    printer: &mut Printer,
    out: &mut impl RecordWrite,
    page: warc::Page,
    ctx: &Context,
) -> io::Result<()> {
    printer.abandon();
    let mut write_result = Ok(());
    #[cfg(test)]
    let mut batches = 0;
    let mut last = page.read(ctx, &mut |doc| {
        #[cfg(test)]
        panics::inject(&doc.name, &mut batches);
        if write_result.is_ok() {
            write_result = printer.links(out, doc);
        }
    });
    write_result?;
    printer.end(out, &mut last)
}

/// Reads a long HTML page or MIME message from `file` and prints its
/// links as they are found ([`html::stream`], [`mime::stream`]).
fn read_html(
    format: Format,
    file: &File,
    name: &str,
    ctx: &Context,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> Result<(), Error> {
    if format == Format::Mime {
        return read_mime(file, name, ctx, printer, out);
    }
    let base = ctx.retrieval_base();
    printer.abandon();
    let mut write_result = Ok(());
    let mut batch = |doc: &mut Document| {
        if write_result.is_ok() {
            let taken =
                std::mem::replace(doc, Document::new("", Base::none()));
            *doc = ctx.finish(taken);
            write_result = printer.links(out, doc);
        }
    };
    let charset = html::Charset::Unknown;
    let doc = html::stream::document_of_file(
        file, charset, name, &base, ctx, &mut batch,
    )
    .map_err(Error::Read)?;
    write_result.map_err(Error::Write)?;
    printer.end(out, &mut ctx.finish(doc)).map_err(Error::Write)
}

/// Reads a long MIME message (or mbox) from `file` and prints its
/// documents as they are read, a long part's links in batches; a message
/// that cannot be read is reported and counted as unreadable, as
/// [`print_data`] does.
fn read_mime(
    mut file: &File,
    name: &str,
    ctx: &Context,
    printer: &mut Printer,
    out: &mut impl RecordWrite,
) -> Result<(), Error> {
    file.seek(io::SeekFrom::Start(0)).map_err(Error::Read)?;
    printer.abandon();
    let mut write_result = Ok(());
    let read = mime::stream::documents(file, name, ctx, &mut |doc, last| {
        if write_result.is_ok() {
            write_result = if last {
                printer.end(out, doc)
            } else {
                printer.links(out, doc)
            };
        }
    });
    write_result.map_err(Error::Write)?;
    if let Err(problem) = read {
        printer.unreadable += 1;
        out.warn(&format!("urlspec: {name}: {}", problem.reason));
    }
    Ok(())
}

/// An input's first [`HEAD`] bytes, and what they say.
struct Head {
    bytes: Vec<u8>,
    /// They start a gzip member.
    gzip: bool,
    /// The format the input is read as; `None`: binary data, refused.
    format: Option<Format>,
}

impl Head {
    /// Reads the head of `reader`, and its format as `format` says (told
    /// from what a gzip input holds and the input's `name`, for `auto`).
    fn read(
        reader: &mut dyn Read,
        name: &str,
        format: InputFormat,
    ) -> io::Result<Head> {
        let bytes = read_head(reader)?;
        let sniffed = Format::of_input(&bytes, name);
        let format = match format {
            InputFormat::Auto => sniffed.format,
            InputFormat::Html => Some(Format::Html),
            InputFormat::Mime => Some(Format::Mime),
            InputFormat::Warc => Some(Format::Warc),
        };
        Ok(Head { bytes, gzip: sniffed.gzip, format })
    }
}

/// Reads the first [`HEAD`] bytes (fewer at the end of the input), for
/// [`Format::of_input`].
fn read_head(reader: &mut dyn Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    reader.take(HEAD as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// What is left of an input once its head is read: the head, then the
/// rest.
type Rest = io::Chain<io::Cursor<Vec<u8>>, Box<dyn Read + Send>>;

/// A WARC archive open for reading: its records, the progress bar shown
/// on a terminal when its size is known, and the flag that stops its
/// reading once the output is gone.
struct Archive {
    docs: warc::Documents<io::BufReader<Counting<Rest>>>,
    bar: Option<ProgressBar>,
    /// The bar is not drawn until [`read_archive`]: the archive was
    /// begun ahead of its turn.
    hidden: bool,
    stop: Arc<AtomicBool>,
}

impl Archive {
    /// The archive `input`, named `name`, read under `ctx`; `verbose`:
    /// each skipped record is kept; `ahead`: its members are inflated on a
    /// thread of their own; `hidden`: its bar is not drawn until its turn
    /// (it was begun ahead, [`lookahead`]).
    fn open(
        input: Rest,
        name: &str,
        size: Option<u64>,
        ctx: &Context,
        verbose: bool,
        ahead: bool,
        hidden: bool,
    ) -> Archive {
        let bar = size.filter(|_| io::stderr().is_terminal()).map(|len| {
            let style = ProgressStyle::with_template(
                "{prefix} [{wide_bar}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            let target = if hidden {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            };
            ProgressBar::with_draw_target(Some(len), target)
                .with_style(style)
                .with_prefix(name.to_string())
        });
        let stop = Arc::new(AtomicBool::new(false));
        let counted =
            Counting { inner: input, bar: bar.clone(), stop: stop.clone() };
        let reader = io::BufReader::with_capacity(1 << 16, counted);
        let mut docs = warc::Documents::new(reader, ctx.clone());
        if verbose {
            docs.log_skipped();
        }
        if ahead {
            docs.inflate_ahead();
        }
        Archive { docs, bar, hidden, stop }
    }
}

/// Streams a WARC archive, record by record, its progress bar drawn from
/// here on.
fn read_archive(
    archive: Archive,
    name: &str,
    ctx: &Context,
    stage: &mut impl Stage,
) -> Result<(), Error> {
    let Archive { mut docs, bar, hidden, stop } = archive;
    if let Some(bar) = bar.as_ref().filter(|_| hidden) {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.reset_elapsed();
        bar.reset_eta();
    }
    let mut write_result = Ok(());
    loop {
        let page = docs.next_page();
        for skipped in docs.take_skipped() {
            let target = skipped.target.as_deref().unwrap_or("(no target)");
            stage.warn(format!(
                "urlspec: {name}: record at byte {} ({} {}): skipped: {}",
                skipped.offset,
                if skipped.kind.is_empty() { "?" } else { &skipped.kind },
                output::visible(target),
                skipped.reason.name()
            ));
        }
        let page = match page {
            None => break,
            Some(Ok(page)) => page,
            Some(Err(e)) => {
                stage.unreadable();
                stage.warn(format!("urlspec: {name}: {e}"));
                continue;
            }
        };
        write_result = stage.page(page, ctx, bar.as_ref());
        if write_result.is_err() {
            // Stop reading: the output is gone.
            stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut skipped = Summary::default();
    docs.add_skipped(&mut skipped);
    stage.add(skipped);
    write_result.map_err(Error::Write)
}

/// A reader that moves a progress bar by the bytes read, and fails once
/// `stop` is set (so that a closed output ends the reading of an archive).
struct Counting<R> {
    inner: R,
    bar: Option<ProgressBar>,
    stop: Arc<AtomicBool>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
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
    /// `embedded`, `header:NAME`, `retrieval`, `given` or `none`.
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
    /// Which links are printed.
    filter: Option<Filter>,
    /// Whether each skipped archive record is listed (`-v`).
    pub verbose: bool,
    /// The counts over the run.
    pub summary: Summary,
    /// Inputs or documents that could not be read (wholly or in part).
    pub unreadable: usize,
    /// Whether no document has been printed yet (text blocks are separated
    /// by a blank line).
    first: bool,
    /// One line, reused for every link.
    line: Vec<u8>,
    /// The document being printed, between its first links and its end.
    open: Option<Open>,
}

/// What is kept of a document while its links are printed.
#[derive(Default)]
struct Open {
    /// Whether any of its links was unresolved.
    unresolved: bool,
    /// Text output: the widths of the columns, once the first block is
    /// written (else the document is written whole at its end).
    widths: Option<(usize, usize)>,
    /// Text output: the links not written yet.
    pending: Vec<urlspec_links::Link>,
}

/// The links of a document whose text columns are aligned together; a
/// longer document (read in batches) is aligned on its first block.
const TEXT_BLOCK: usize = 4096;

/// The TSV header row.
pub const TSV_HEADER: &str =
    "document\telement\tattribute\toffset\treference\turl\tbase\tbase_source\terror\tencoding\tcontext\n";

impl Printer {
    /// A printer in format `how`.
    pub fn new(how: LinksOutput) -> Printer {
        Printer {
            how,
            filter: None,
            verbose: false,
            summary: Summary::default(),
            unreadable: 0,
            first: true,
            line: Vec::with_capacity(1024),
            open: None,
        }
    }

    /// The printer with `filter` applied to every document (no cost when
    /// it filters nothing).
    pub fn with_filter(mut self, filter: Filter) -> Printer {
        self.filter = filter.is_active().then_some(filter);
        self
    }

    /// Writes what comes before the first document: the TSV header row.
    pub fn start(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.how == LinksOutput::Tsv {
            out.write_all(TSV_HEADER.as_bytes())?;
        }
        Ok(())
    }

    /// Counts and prints one document (the links the filters keep).
    pub fn document(
        &mut self,
        out: &mut impl RecordWrite,
        mut doc: Document,
    ) -> io::Result<()> {
        self.abandon();
        self.end(out, &mut doc)
    }

    /// Forgets a document [`Printer::links`] began and nothing ended (its
    /// reading panicked, and was reported as such): the next document
    /// starts afresh.
    pub fn abandon(&mut self) {
        self.open = None;
    }

    /// Counts and prints a batch of the links of a document being read
    /// (the links are taken out of `doc`); [`Printer::end`] ends it.
    pub fn links(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        let open = match &mut self.open {
            Some(open) => open,
            none => {
                if let Some(filter) = &mut self.filter {
                    filter.begin();
                }
                none.insert(Open::default())
            }
        };
        if let Some(filter) = &mut self.filter {
            filter.apply(doc);
        }
        open.unresolved |= self.summary.add_links(&doc.links) > 0;
        match self.how {
            LinksOutput::Text => {
                open.pending.append(&mut doc.links);
                // Columns are aligned over a block of links: the whole
                // document unless it is longer.
                if open.pending.len() >= TEXT_BLOCK {
                    if open.widths.is_none() {
                        let first = self.first;
                        self.first = false;
                        text_head(out, doc, first)?;
                    }
                    let Some(open) = &mut self.open else {
                        return Ok(());
                    };
                    text_links(out, &open.pending, &mut open.widths)?;
                    open.pending.clear();
                }
            }
            LinksOutput::Tsv | LinksOutput::Json => {
                let info = BaseInfo::of(&doc.base);
                let json = (self.how == LinksOutput::Json)
                    .then(|| JsonShared::of(doc, &info));
                for link in &doc.links {
                    self.line.clear();
                    match &json {
                        Some(json) => json_line(&mut self.line, json, link),
                        None => tsv_row(&mut self.line, doc, &info, link),
                    }
                    out.write_all(&self.line)?;
                }
                doc.links.clear();
            }
        }
        Ok(())
    }

    /// Ends the document [`Printer::links`] began: its last links, its
    /// notes and problems, its counts.
    pub fn end(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        self.links(out, doc)?;
        let doc = &*doc;
        let open = self.open.take().unwrap_or_default();
        self.summary.add_document(doc, open.unresolved);
        if doc.problems.iter().any(urlspec_links::Problem::may_lose_links) {
            self.unreadable += 1;
        }
        for &at in &doc.too_long {
            out.warn(&format!(
                "urlspec: {}: reference at byte {at} longer than {} bytes: \
                 skipped",
                doc.name,
                html::stream::MAX_REFERENCE
            ));
        }
        match self.how {
            LinksOutput::Text => {
                let mut open = open;
                let streamed = open.widths.is_some();
                if !streamed {
                    text_head(out, doc, self.first)?;
                    self.first = false;
                }
                if !streamed && open.pending.is_empty() {
                    writeln!(out, "   (no links)")?;
                }
                text_links(out, &open.pending, &mut open.widths)?;
                if streamed {
                    // The problems of a long document come after its links.
                    for problem in &doc.problems {
                        let note = problem.to_string();
                        writeln!(out, "   note: {}", output::visible(&note))?;
                    }
                }
            }
            LinksOutput::Tsv | LinksOutput::Json => {
                for problem in &doc.problems {
                    out.warn(&format!("urlspec: {}: {problem}", doc.name));
                }
            }
        }
        out.end_record()
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

/// Writes `n` spaces.
fn spaces(out: &mut impl Write, mut n: usize) -> io::Result<()> {
    const SPACES: &[u8; 64] = &[b' '; 64];
    while n > 0 {
        let k = n.min(SPACES.len());
        out.write_all(&SPACES[..k])?;
        n -= k;
    }
    Ok(())
}

/// The head of a text block: the name, the base, the notes (and the
/// problems, as far as they are known); after a blank line unless it is
/// the `first`.
fn text_head(
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
        writeln!(out, "   note: {}", output::visible(note))?;
    }
    for problem in &doc.problems {
        let note = problem.to_string();
        writeln!(out, "   note: {}", output::visible(&note))?;
    }
    Ok(())
}

/// Text lines for `links`, in columns of `widths`, found on these links
/// when there are none yet (the first block of the document).
fn text_links(
    out: &mut impl Write,
    links: &[urlspec_links::Link],
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
    for link in links {
        // ELEMENT@ATTRIBUTE  REFERENCE  ->, padded in place.
        out.write_all(b"   ")?;
        out.write_all(link.element.as_bytes())?;
        out.write_all(b"@")?;
        out.write_all(link.attribute.as_bytes())?;
        let place = output::text_width(&link.element)
            + 1
            + output::text_width(&link.attribute);
        spaces(out, place_width.saturating_sub(place) + 2)?;
        let reference = output::visible(&link.reference);
        out.write_all(reference.as_bytes())?;
        let shown = output::text_width(&reference);
        spaces(out, reference_width.saturating_sub(shown))?;
        out.write_all(b"  ->  ")?;
        match &link.url {
            Ok(url) => writeln!(out, "{}", output::visible(url))?,
            Err(reason) => writeln!(out, "error: {reason}")?,
        }
    }
    Ok(())
}

/// `N documents, M links, U unresolved; bases: embedded X, header Y,
/// retrieval Z, none W; skipped records S`, the given bases and the
/// unreadable inputs when there are any, and the hint of the base headers
/// left unread.
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
    if layer("given") > 0 {
        let _ = write!(line, "; given base {}", layer("given"));
    }
    if unreadable > 0 {
        let _ = write!(line, "; unreadable {unreadable}");
    }
    if s.too_long > 0 {
        let _ = write!(line, "; references too long {}", s.too_long);
    }
    for (name, (n, spec)) in &s.unread_base_headers {
        let reader = match spec {
            Some(spec) => format!("--spec {spec} or --base-headers all"),
            None => "--base-headers all".into(),
        };
        let _ = write!(
            line,
            "\nnote: {} with unresolved links had a {name} header that this \
             spec does not read as a base ({reader} would)",
            plural(*n, "document", "documents"),
        );
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

/// The members of a document's JSON lines that are the same for each of
/// its links, rendered once: `document`; `base` and `base_source`;
/// `base_chain`, `containers` and `encoding`.
struct JsonShared {
    document: Vec<u8>,
    base: Vec<u8>,
    tail: Vec<u8>,
}

impl JsonShared {
    fn of(doc: &Document, info: &BaseInfo) -> JsonShared {
        let render = |each: &dyn Fn(&mut JsonObject<'_>)| {
            let mut buf = Vec::new();
            let mut o = JsonObject::new(&mut buf);
            each(&mut o);
            o.finish();
            // The members, without the braces.
            buf[1..buf.len() - 1].to_vec()
        };
        JsonShared {
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

/// One JSON line: document, element, attribute, reference, url, base,
/// base_source, error, offset, base_chain, containers, encoding (an HTML
/// page's), and context (`noscript`, `template`, or null for the document
/// tree).
fn json_line(
    buf: &mut Vec<u8>,
    shared: &JsonShared,
    link: &urlspec_links::Link,
) {
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
    o.finish();
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    pub(super) fn links_args(args: &[&str]) -> LinksArgs {
        let argv = ["urlspec", "links"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).unwrap();
        let Command::Links(args) = cli.command else {
            panic!("not links: {:?}", cli.command)
        };
        args
    }

    #[test]
    fn links_options_map_onto_the_library() {
        let args = links_args(&[
            "--url",
            "http://h/a",
            "--redirect",
            "http://h/b",
            "--redirect",
            "c/",
            "--base-headers",
            "all",
            "--strict-base",
            "--dotdot-above-root",
            "remove",
            "-",
        ]);
        // A relative redirect is resolved against the URL before it.
        assert_eq!(
            args.retrieval().unwrap(),
            ["http://h/a", "http://h/b", "http://h/c/"]
        );
        let options = args.base_options();
        assert!(options.is_strict());
        assert_eq!(options.base_headers(), base::Headers::All);
        assert_eq!(args.files, ["-"]);
        let ctx = context(&args).unwrap();
        assert_eq!(
            ctx.options,
            urlspec::resolve::Options::default()
                .dotdot_above_root(urlspec::resolve::DotDotAboveRoot::Remove)
        );
        let args = links_args(&[]);
        assert_eq!(args.base_options(), base::Options::default());
        assert!(args.retrieval().unwrap().is_empty() && args.files.is_empty());
        assert_eq!(
            (args.format, args.output, args.unique),
            (InputFormat::Auto, LinksOutput::Text, None)
        );
        assert!(!args.filter().is_active());
        assert_eq!(links_args(&["--unique"]).unique, Some(Unique::Document));
        assert_eq!(links_args(&["--unique=all"]).unique, Some(Unique::All));
    }

    #[test]
    fn url_and_base_must_be_absolute() {
        for args in [&["--url", "a/b"][..], &["--base", "/x"]] {
            let Err(Error::Usage(message)) = context(&links_args(args)) else {
                panic!("{args:?} accepted")
            };
            assert!(message.contains("not an absolute URL"), "{message}");
        }
    }

    #[test]
    fn filters_keep_what_they_name_and_each_url_once() {
        let page = br#"<a href="x">x</a><a href="X.html">X</a><img src="x"><a href="mailto:m@h">m</a><a href="x">x</a>"#;
        let ctx = Context {
            retrieval: vec!["http://h/".into()],
            ..Context::new(Spec::Rfc3986)
        };
        let doc = |_| html::document(page, "p", &ctx.retrieval_base(), &ctx);
        let kept = |args: &[&str]| {
            let mut filter = links_args(args).filter();
            let mut d = doc(());
            filter.apply(&mut d);
            d.links
                .iter()
                .map(|l| {
                    format!(
                        "{}@{} {}",
                        l.element,
                        l.attribute,
                        l.url.as_deref().unwrap()
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(&["--element", "IMG"]), ["img@src http://h/x"]);
        assert_eq!(kept(&["--scheme", "mailto"]), ["a@href mailto:m@h"]);
        assert_eq!(
            kept(&["--unique", "--attribute", "href"]),
            [
                "a@href http://h/x",
                "a@href http://h/X.html",
                "a@href mailto:m@h"
            ]
        );
        // Once per document, or once in all.
        let mut per_doc = links_args(&["--unique"]).filter();
        let mut all = links_args(&["--unique=all"]).filter();
        let (mut a, mut b) = (doc(()), doc(()));
        per_doc.begin();
        per_doc.apply(&mut a);
        per_doc.begin();
        per_doc.apply(&mut b);
        assert_eq!((a.links.len(), b.links.len()), (3, 3));
        let (mut a, mut b) = (doc(()), doc(()));
        all.apply(&mut a);
        all.apply(&mut b);
        assert_eq!((a.links.len(), b.links.len()), (3, 0));
    }

    fn sample(spec: Spec, how: LinksOutput) -> String {
        let ctx = Context::new(spec);
        let mut printer = Printer::new(how);
        let mut out = Vec::new();
        printer.start(&mut out).unwrap();
        mime::documents(SAMPLE, SAMPLE_NAME, &ctx, &mut |d| {
            printer.document(&mut out, d).unwrap();
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
        assert_eq!(first["containers"], serde_json::json!([]));
        // A part's base came through its container.
        let part = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|l| l["containers"] != serde_json::json!([]))
            .unwrap();
        assert!(part["containers"][0]
            .as_str()
            .unwrap()
            .starts_with("multipart/"));
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
