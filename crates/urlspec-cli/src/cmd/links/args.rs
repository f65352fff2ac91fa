//! The arguments of `urlspec links` ([`LinksArgs`]), their help, the
//! mirror enums of their values, and the [`Context`] they make.

use std::num::NonZeroUsize;

use clap::{Args, ValueEnum};
use urlspec::base;
use urlspec::resolve::Resolver;
use urlspec::Spec;
use urlspec_links::html::encoding::Choice;
use urlspec_links::{Context, Format, Select, Within};

use crate::args::{
    check_absolute, help_of, ParserList, ParserListParser, ResolveOptions,
    SpecArg,
};
use crate::output::{self, Error};

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
        containers (the MIME parts the base came through, outermost first);
        with --parsers, host_split: null, or each parser's host (null for
        none) when the parsers read different hosts in the URL
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

  # The links of a crawl that Python's urllib and curl send to different hosts
  urlspec links --parsers python-urllib,curl --output json crawl.warc.gz | jq -c 'select(.host_split)'

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

    /// Read each resolved URL with these real parsers too (a
    /// comma-separated list of profile names, as `urlspec diff --parsers`
    /// takes them, or all) and mark the links whose host they read
    /// differently: a host_split member in JSON and column in TSV, a line
    /// in text, and their count in the summary
    #[arg(
        long,
        value_name = "LIST",
        value_parser = ParserListParser,
        default_value = "none"
    )]
    pub parsers: ParserList,

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
    /// inflating, while one is read. On Linux these threads and the
    /// writer run as batch threads (SCHED_BATCH): woken, they wait for a
    /// worker to give way. Default: the available cores; 1 reads
    /// everything on the main thread
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
    /// Whether links are read with real parsers (`--parsers`, two or
    /// more: one has nothing to differ from).
    pub fn reads_hosts(&self) -> bool {
        self.parsers.0.len() > 1
    }

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

    /// The links kept: `--element`, `--attribute`, `--scheme` and
    /// `--unique`.
    pub fn select(&self) -> Select {
        let lower = |names: &[String]| {
            names.iter().map(|n| n.trim().to_ascii_lowercase()).collect()
        };
        Select {
            elements: lower(&self.element),
            attributes: lower(&self.attribute),
            schemes: lower(&self.scheme),
            unique: self.unique.map(|unique| match unique {
                Unique::Document => urlspec_links::Unique::Document,
                Unique::All => urlspec_links::Unique::All,
            }),
        }
    }

    /// How the inputs are read: the spec, the base options, the
    /// retrieval chain, the given base, the resolution options, the
    /// format, the links kept, the parsers each URL is read with. `Err(Usage)` for a `--url` or `--base`
    /// that is not absolute.
    pub fn context(&self) -> Result<Context, Error> {
        Ok(Context {
            spec: self.spec.value,
            base: self.base_options(),
            retrieval: self.retrieval()?,
            given: self.given_base()?,
            options: self.resolution.to_options(),
            encoding: self.encoding,
            exclude: self.exclude_context.clone(),
            format: match self.format {
                InputFormat::Auto => None,
                InputFormat::Html => Some(Format::Html),
                InputFormat::Mime => Some(Format::Mime),
                InputFormat::Warc => Some(Format::Warc),
            },
            select: self.select(),
            trace: None,
            parsers: self.parsers.0.clone(),
        })
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
