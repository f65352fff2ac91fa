//! The command line: clap definitions for `urlspec` and its subcommands.
//!
//! Each subcommand is one variant of [`Command`] with its own `…Args`
//! struct; options that several subcommands share (`--spec`, `--json`) use
//! the same value parsers and wording. The resolution options of `urlspec
//! resolve` are [`ResolveOptions`], which maps them onto the library's
//! [`Options`]; the base options of `urlspec links` are in [`LinksArgs`],
//! which maps them onto [`base::Options`].

use std::ffi::OsStr;
use std::fmt::Write as _;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Args, Parser, Subcommand, ValueEnum};
use urlspec::base;
use urlspec::resolve::{DotDotAboveRoot, Options, Rfc1630Dots, RootlessDots};
use urlspec::Spec;

/// One line on what the command does.
const ABOUT: &str =
    "Parse, validate and resolve URLs exactly as each generation of the \
     URL specifications defines them (RFC 1630 to RFC 3986), and find every \
     link in HTML pages, mail messages and web archives";

/// `urlspec`: the top-level parser.
#[derive(Debug, Parser)]
#[command(
    name = "urlspec",
    version,
    about = ABOUT,
    long_about = None,
    after_help = top_after_help(),
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Split URLs into their components and check them against a spec.
    #[command(
        about = "Split URLs into their components and check them against \
                 a spec",
        long_about = PARSE_LONG_ABOUT,
        after_help = PARSE_EXAMPLES
    )]
    Parse(ParseArgs),
    /// Resolve references against a base URL, compare the specs' answers,
    /// or find the relative form of a URL.
    #[command(
        about = "Resolve references against a base URL, compare the \
                 specs' answers, or find the relative form of a URL",
        long_about = RESOLVE_LONG_ABOUT,
        after_help = RESOLVE_EXAMPLES
    )]
    Resolve(ResolveArgs),
    /// List every link in HTML files, MIME messages and WARC archives,
    /// resolved against the base each spec establishes.
    #[command(
        about = "List every link in HTML files, MIME messages and WARC \
                 archives, resolved against the base each spec establishes",
        long_about = LINKS_LONG_ABOUT,
        after_help = LINKS_EXAMPLES
    )]
    Links(LinksArgs),
}

/// The long description of `urlspec parse`.
const PARSE_LONG_ABOUT: &str = "\
Split each URL into scheme, net_loc (authority), user, password, host, port,
path, params, query and fragment, exactly as the chosen spec splits it, and
check it against that spec's grammar.

The URLs come from the arguments or, when there are none, one per line from
standard input (a trailing CR LF or LF is removed; a line that is not UTF-8 is
reported and skipped). Each invalid URL is printed with a caret under every
offending character and the grammar rule it breaks.

An absent component is shown as (absent) and an empty one as \"\": `http://a/b?`
has an empty query but no fragment. Control characters are shown as their
Unicode control pictures (a tab as \u{2409}).

With --json, each line is one object with the keys input, spec, scheme,
net_loc, user, password, host, port, path, params, query, fragment (null when
absent, \"\" when empty), valid and violations (each with position, a byte
offset into input, rule and message).

Exit status: 0 when every URL is valid, 1 when some URL is invalid (or a line
was not UTF-8), 2 for a usage or I/O error.";

/// The `Examples:` section of `urlspec parse --help`.
const PARSE_EXAMPLES: &str = "\
Examples:
  # One URL, as RFC 1808 (the default) splits it
  urlspec parse 'http://a/b/c/d;p?q#f'

  # The same text under RFC 3986: `;p` stays in the path, `~` is fine
  urlspec parse --spec rfc3986 'http://a/~u/d;p?q#f'

  # Stream a file, one URL per line; exit status 1 if any is invalid
  urlspec parse --spec rfc2396 < urls.txt

  # JSON Lines: list the invalid URLs with the rules they break
  urlspec parse --json < urls.txt | jq -c 'select(.valid | not) | {input, rules: [.violations[].rule]}'";

/// The long description of `urlspec resolve`.
const RESOLVE_LONG_ABOUT: &str = "\
Resolve each reference against a base URL under the chosen spec and print the
absolute URL it denotes, one line per reference, in input order.

Resolution turns a relative reference (g, ../g, ?y, #s, //host/p, ;x) into an
absolute URL: what the reference leaves out is taken from the base (scheme,
then net_loc, then the directory of the path), and `.` and `..` segments are
removed. The specs agree on everyday references and differ at the edges;
against the base http://a/b/c/d;p?q:

  reference   rfc1808             rfc2396             rfc3986
  ../../../g  http://a/../g       http://a/../g       http://a/g
  ;x          http://a/b/c/d;x    http://a/b/c/;x     http://a/b/c/;x
  ?y          http://a/b/c/d;p?y  http://a/b/c/?y     http://a/b/c/d;p?y

With no base (--base ''), RFC 1630, RFC 1808 and the drafts take the
reference as an absolute URL (RFC 1808 step 1; taken_as_absolute in --json);
RFC 2396 and RFC 3986 report NoBase.

Input: the REF arguments or, when there are none, one reference per line from
standard input (a trailing CR LF or LF is removed). With --pairs, each line of
standard input is BASE<TAB>REFERENCE (split at the first TAB; an empty BASE
is no base); consecutive lines with the same base reuse the parsed base, so
input grouped by base is fastest.

Output: one line per input, so the output lines up with the input (paste
pairs.tsv out.txt). An input that cannot be resolved gives, in its place,

  error: <kind>: <message>

and the same with its line number on standard error. The kinds: NoBase,
BaseNotAbsolute, BaseNotHierarchical and InvalidReference (--strict),
DotDotAboveRoot (--dotdot-above-root error), and for unreadable input lines
MissingTab (a --pairs line without a TAB) and NotUtf8. (An absolute reference
such as `error: x` resolves to itself and looks the same; --json tells the two
apart, and keeps standard error quiet.)

With --json, each line is one object with the keys base, reference, spec,
result (null on error), same_document (the reference is to the base document
itself), error (null, or {\"kind\", \"message\"}) and taken_as_absolute (there
was no base and the reference was taken as absolute). A --pairs line without a
TAB has the whole line as base and a null reference; a line that is not UTF-8
has both null.

--all-specs resolves each reference under every spec and prints one row per
spec, `*` marking the specs whose answer differs from that of --spec; with
--json, one object per reference with base, reference, and one key per spec
holding {result, same_document, error, taken_as_absolute}.

--relative goes the other way: each argument (or line) is a TARGET absolute
URL, and the answer is the shortest reference that resolves against BASE to
exactly TARGET under the spec, or `error: no relative form` when none does (a
base or target without a scheme, or a target the spec would rewrite). With
--json: base, target, spec, result, error.

Exit status: 0 when every input was resolved, 1 when some line is an error
(with --all-specs: an error under some spec), 2 for a usage or I/O error.";

/// The `Examples:` section of `urlspec resolve --help`.
const RESOLVE_EXAMPLES: &str = "\
Examples:
  # One reference, as RFC 1808 (the default) resolves it: http://a/../g
  urlspec resolve --base 'http://a/b/c/d;p?q' '../../../g'

  # The same under RFC 3986, which removes `..` above the root: http://a/g
  urlspec resolve --spec rfc3986 --base 'http://a/b/c/d;p?q' '../../../g'

  # References from standard input, one per line
  urlspec resolve --spec rfc3986 --base https://example.com/docs/ < hrefs.txt

  # A TSV file of BASE<TAB>REFERENCE lines; put each answer beside its pair
  urlspec resolve --pairs --spec rfc3986 < pairs.tsv > resolved.txt
  paste pairs.tsv resolved.txt

  # Every spec at once; `*` marks answers that differ from rfc1808's
  urlspec resolve --all-specs --base 'http://a/b/c/d;p?q' ';x' '?y'

  # The other way: the shortest reference from the base to a target (../g)
  urlspec resolve --relative --base 'http://a/b/c/d;p?q' http://a/b/g

  # JSON Lines: the pairs that failed, and why
  urlspec resolve --pairs --json < pairs.tsv | jq -c 'select(.error) | {base, reference, kind: .error.kind}'

  # The pairs on which RFC 2396 and RFC 3986 disagree
  urlspec resolve --pairs --all-specs --json < pairs.tsv | jq -c 'select(.rfc2396.result != .rfc3986.result) | [.reference, .rfc2396.result, .rfc3986.result]'";

/// The long description of `urlspec links`.
const LINKS_LONG_ABOUT: &str = "\
Find every link in HTML documents, MIME messages (.eml, .mht) and WARC
archives, and resolve each against the base URL of its document, established
as the chosen spec establishes it. With no FILE, run on the built-in sample,
a small MIME message that shows every base layer (examples/sample.eml).

The base of a document is given by the innermost layer that defines one
(RFC 1808 section 3, the 1996 draft section 5, RFC 3986 section 5.1):
  1. embedded   <BASE href> in the HTML itself
  2. header     Base: <URL:...> (draft04, rfc1808); Content-Base, then
                Content-Location (draft96, draft96dec); Content-Location
                (rfc2396, rfc3986); none under rfc1630 (see --base-headers)
  3. container  a part of a multipart/* or message/rfc822 takes its
                container's base, recursively
  4. retrieval  the URL the document was retrieved from: the last of
                --url and --redirect, or a WARC record's target URI after
                the redirects that led to it
  5. none       relative links cannot be resolved

Inputs (detected from their content, or set with --format):
  html  an HTML page; its retrieval URL is --url, or the last --redirect
  mime  a mail message or MHTML file: the links in its headers, written as
        <URL:...>, and in every HTML part, through nested multipart/* and
        message/rfc822 parts
  warc  a WARC archive, gzip-compressed or not: every HTML response record,
        with the 3xx redirects that led to it; other records are skipped
        and counted
A FILE of - is standard input. A WARC archive is read one record at a time,
so memory stays bounded whatever its size; when standard error is a
terminal, a progress bar shows how far a WARC file has been read.

Output (--output):
  text  one block per document: `== NAME`, the base with its layer and the
        containers it came through, any notes, then one line per link:
        ELEMENT@ATTRIBUTE  REFERENCE  ->  URL (or `error: REASON`)
  tsv   a header row, then one row per link: document, element, attribute,
        offset, reference, url, base, base_source, error (control characters
        in a field shown as Unicode control pictures)
  json  one object per link (JSON Lines) with the keys document, element,
        attribute, reference, url (null on error), base (null when none),
        base_source (embedded, header:NAME, retrieval or none), error (null
        or the reason), offset (the byte offset of the reference in its
        document) and base_chain (the URLs requested, in order, when the
        base is a retrieval URL reached through redirects; else null)
A summary follows: documents, links, unresolved links, documents per base
layer and skipped archive records, on standard output after text and on
standard error after tsv or json.

Exit status: 0 when every link was resolved, 1 when some link could not be
resolved or some input could not be read as its format, 2 for a usage or
I/O error (such as a missing FILE).";

/// The `Examples:` section of `urlspec links --help`.
const LINKS_EXAMPLES: &str = "\
Examples:
  # The built-in sample: one message, every base layer
  urlspec links

  # The same message under the 1996 draft: Content-Base wins over Base
  urlspec links --spec draft96

  # A page saved from a redirected request: the base is the last URL
  urlspec links --url http://example.com/a --redirect https://example.com/a/ page.html

  # A crawl, as JSON Lines: the links that did not resolve, and why
  urlspec links --spec rfc3986 --output json crawl.warc.gz | jq -c 'select(.error) | {document, reference, error}'

  # Every link of a crawl with its base, for a spreadsheet
  urlspec links --output tsv crawl.warc.gz > links.tsv

  # A saved web page (MHTML) from standard input
  urlspec links --format mime - < page.mht";

/// The text after the top-level `--help`: examples, specs, exit status.
fn top_after_help() -> String {
    let mut text = String::from(
        "Examples:\n  urlspec parse 'http://a/b/c/d;p?q#f'\n  \
         urlspec parse --spec rfc3986 --json < urls.txt | jq .host\n  \
         urlspec resolve --base 'http://a/b/c/d;p?q' '../../../g'\n  \
         urlspec resolve --pairs --spec rfc3986 < pairs.tsv\n  \
         urlspec links\n  \
         urlspec links --output json crawl.warc.gz\n\n\
         Specs (--spec; the default is ",
    );
    let _ = writeln!(text, "{}):", Spec::default());
    text.push_str(&spec_list());
    text.push_str(
        "\nExit status: 0 all inputs valid (resolved), 1 some input invalid \
         (not resolved), 2 usage or I/O error.",
    );
    text
}

/// Every spec name with its one-line summary, one per line, oldest first.
pub fn spec_list() -> String {
    let width = Spec::ALL.iter().map(|s| s.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    for spec in Spec::ALL {
        let default = if spec == Spec::default() { " (default)" } else { "" };
        let _ = writeln!(
            text,
            "  {:width$}  {}{default}",
            spec.name(),
            spec.summary(),
        );
    }
    text
}

/// The arguments of `urlspec parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The spec to split and validate under
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Print one JSON object per URL (JSON Lines) instead of a table
    #[arg(long)]
    pub json: bool,

    /// URLs to parse; when none are given, read one per line from standard
    /// input (put `--` before a URL that starts with `-`)
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,
}

/// The arguments of `urlspec resolve`.
#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// The spec to resolve under; with --all-specs, the one the others are
    /// compared with
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// The base URL to resolve against ('' for none)
    #[arg(
        short,
        long,
        value_name = "BASE",
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub base: Option<String>,

    /// Read BASE<TAB>REFERENCE lines from standard input instead of taking
    /// one --base
    #[arg(long, conflicts_with = "references")]
    pub pairs: bool,

    /// Print one JSON object per input (JSON Lines) instead of text
    #[arg(long)]
    pub json: bool,

    /// Resolve under every spec and show their answers side by side
    #[arg(long)]
    pub all_specs: bool,

    /// Print the shortest reference from BASE to each TARGET instead
    #[arg(
        long,
        conflicts_with_all = [
            "all_specs",
            "strict",
            "same_scheme",
            "no_same_scheme",
            "dotdot_above_root",
            "fix_pathless_base",
            "rfc1630_dots",
            "rootless_dots",
        ]
    )]
    pub relative: bool,

    /// How to resolve where the specs leave a choice
    #[command(flatten)]
    pub options: ResolveOptions,

    /// References to resolve (with --relative: TARGET URLs); when none are
    /// given, read one per line from standard input (put `--` before one
    /// that starts with `-`)
    #[arg(value_name = "REF")]
    pub references: Vec<String>,
}

/// The options of `urlspec resolve` that become the library's
/// [`Options`]; each says in its help which specs it changes.
#[derive(Debug, Args)]
#[command(next_help_heading = "Resolution options")]
pub struct ResolveOptions {
    /// Refuse what the spec calls an error instead of resolving
    /// mechanically [all specs]
    ///
    /// Refused: an invalid reference (InvalidReference, every spec); a
    /// relative reference with no base (NoBase; rfc1630, draft04, rfc1808
    /// and the 1996 drafts otherwise take it as absolute, RFC 1808 step 1);
    /// and a base the spec says relative references cannot use
    /// (BaseNotHierarchical): a mailto, news or telnet base under rfc1630,
    /// rfc1808 and the 1996 drafts, a mailto or telnet base under draft04
    /// (RFC 1808 §2.3), and any non-hierarchical base under draft96,
    /// draft96dec and rfc2396 (RFC 2396 §5).
    #[arg(long)]
    pub strict: bool,

    /// Read `http:g` against an http base as the relative `g` [all
    /// specs]
    ///
    /// The same-scheme loophole: rfc2396 allows it for hierarchical bases
    /// (step 3c) and rfc3986 for non-strict parsers (§5.2.2); RFC 1808
    /// §5.2 describes it as what older parsers did and says it should be
    /// avoided. Off by default everywhere but rfc1630, which has it on
    /// (see --no-same-scheme).
    #[arg(long, overrides_with = "no_same_scheme")]
    pub same_scheme: bool,

    /// Take `http:g` as absolute, also under rfc1630 [rfc1630]
    ///
    /// Turns off the same-scheme loophole that RFC 1630 has by default
    /// (see --same-scheme).
    #[arg(long, overrides_with = "same_scheme")]
    pub no_same_scheme: bool,

    /// What to do with `..` above the root, as in ../../../g [rfc2396]
    ///
    /// RFC 2396 step 6g leaves it to the implementation what happens to
    /// `..` segments that would climb above the root of the path
    /// (../../../g against http://a/b/c/d;p?q). Only rfc2396 has the
    /// choice: rfc3986 always removes them; rfc1808 and the other specs
    /// always keep them.
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub dotdot_above_root: AboveRoot,

    /// Take an empty base path after a net_loc as `/` [rfc2396]
    ///
    /// Against a base with a net_loc and an empty path (http://a), RFC
    /// 2396 merges `g` into http://ag; with this option the path is taken
    /// as `/`, giving http://a/g, as rfc3986 and the older specs do anyway.
    #[arg(long)]
    pub fix_pathless_base: bool,

    /// How rule .4 removes `.` and `..` segments [rfc1630]
    ///
    /// RFC 1630's rule .4 can be read literally or as RFC 1808's step 6
    /// (against http://a/b/c/d).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub rfc1630_dots: Dots1630,

    /// How remove_dot_segments treats a path without a leading `/`
    /// [rfc3986]
    ///
    /// RFC 3986 §5.2.4 as printed turns the rootless path of g:h/../i into
    /// a rooted one; some implementations keep it rootless.
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub rootless_dots: Rootless,
}

impl ResolveOptions {
    /// The library's options.
    pub fn to_options(&self) -> Options {
        let mut options = Options::default()
            .strict(self.strict)
            .dotdot_above_root(self.dotdot_above_root.into())
            .fix_pathless_base(self.fix_pathless_base)
            .rfc1630_dots(self.rfc1630_dots.into())
            .rootless_dots(self.rootless_dots.into());
        // Neither flag: the spec's own default.
        if self.same_scheme {
            options = options.same_scheme_is_relative(true);
        } else if self.no_same_scheme {
            options = options.same_scheme_is_relative(false);
        }
        options
    }
}

/// The arguments of `urlspec links`.
#[derive(Debug, Args)]
pub struct LinksArgs {
    /// The spec that establishes bases and resolves links
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// The URL first requested to retrieve an HTML or MIME input (its base
    /// when nothing inner sets one)
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// A URL the request was redirected to; repeat it for each redirect, in
    /// order: the last one is the retrieval URL
    #[arg(long, value_name = "URL", requires = "url")]
    pub redirect: Vec<String>,

    /// The kind of input; auto detects it from the first bytes
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

    /// Files to read (- for standard input); with none, the built-in
    /// sample message
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

impl LinksArgs {
    /// The library's base options.
    pub fn base_options(&self) -> base::Options {
        let mut options = base::Options::default();
        options.strict = self.strict_base;
        options.headers = self.base_headers.into();
        options
    }

    /// The retrieval chain: `--url`, then each `--redirect`.
    pub fn retrieval(&self) -> Vec<String> {
        self.url.iter().chain(&self.redirect).cloned().collect()
    }
}

/// The values of `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect from the content: WARC/ or gzip, a header line, or markup
    #[default]
    Auto,
    /// An HTML document
    Html,
    /// A MIME message (.eml, .mht)
    Mime,
    /// A WARC archive, gzip-compressed or not
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

/// The values of `--dotdot-above-root`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AboveRoot {
    /// Keep them in the path: http://a/../g (RFC 2396 App. C)
    #[default]
    Keep,
    /// Drop them: http://a/g
    Remove,
    /// Refuse the reference (error DotDotAboveRoot)
    Error,
}

impl From<AboveRoot> for DotDotAboveRoot {
    fn from(value: AboveRoot) -> DotDotAboveRoot {
        match value {
            AboveRoot::Keep => DotDotAboveRoot::Keep,
            AboveRoot::Remove => DotDotAboveRoot::Remove,
            AboveRoot::Error => DotDotAboveRoot::Error,
        }
    }
}

/// The values of `--rfc1630-dots`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Dots1630 {
    /// As written: `/.` first, then `xxx/../`; a final `xxx/..` stays
    /// (g/.. gives http://a/b/c/g/..) and a final `/.` loses its slash
    #[default]
    Literal,
    /// RFC 1808's step 6 instead (g/.. gives http://a/b/c/)
    #[value(name = "like1808")]
    Like1808,
}

impl From<Dots1630> for Rfc1630Dots {
    fn from(value: Dots1630) -> Rfc1630Dots {
        match value {
            Dots1630::Literal => Rfc1630Dots::Literal,
            Dots1630::Like1808 => Rfc1630Dots::Like1808,
        }
    }
}

/// The values of `--rootless-dots`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Rootless {
    /// The algorithm as printed: g:h/../i gives g:/i
    #[default]
    Literal,
    /// Keep a rootless path rootless, as uriparser does: g:i
    KeepRootless,
}

impl From<Rootless> for RootlessDots {
    fn from(value: Rootless) -> RootlessDots {
        match value {
            Rootless::Literal => RootlessDots::Literal,
            Rootless::KeepRootless => RootlessDots::KeepRootless,
        }
    }
}

/// The value parser of `--spec`: any name [`Spec::from_str`] accepts
/// (`rfc3986`, `RFC-3986`, …), listed in `--help` with each spec's summary
/// from [`Spec::summary`], so the list follows the library.
///
/// [`Spec::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecParser;

impl TypedValueParser for SpecParser {
    type Value = Spec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Spec, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Spec>().map_err(|_| {
            let mut err =
                clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            let arg = arg.map_or_else(|| "--spec".to_owned(), Arg::to_string);
            err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
            err.insert(
                ContextKind::InvalidValue,
                ContextValue::String(text.into_owned()),
            );
            err.insert(
                ContextKind::ValidValue,
                ContextValue::Strings(
                    Spec::ALL.iter().map(|s| s.name().to_owned()).collect(),
                ),
            );
            err
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Spec::ALL
                .into_iter()
                .map(|s| PossibleValue::new(s.name()).help(s.summary())),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn spec_names_parse_loosely() {
        let cli =
            Cli::try_parse_from(["urlspec", "parse", "-s", "RFC-3986", "x"])
                .unwrap();
        let Command::Parse(args) = cli.command else {
            panic!("not parse: {:?}", cli.command)
        };
        assert_eq!(args.spec, Spec::Rfc3986);
        assert_eq!(args.urls, ["x"]);
    }

    fn resolve_args(args: &[&str]) -> Result<ResolveArgs, clap::Error> {
        let cli = Cli::try_parse_from(
            ["urlspec", "resolve"].iter().chain(args).copied(),
        )?;
        match cli.command {
            Command::Resolve(args) => Ok(args),
            other => panic!("not resolve: {other:?}"),
        }
    }

    #[test]
    fn resolve_needs_a_base_or_pairs_but_not_both() {
        assert!(resolve_args(&["g"]).is_err());
        assert!(resolve_args(&["--pairs", "--base", "http://a/"]).is_err());
        assert!(resolve_args(&["--pairs", "g"]).is_err());
        let args = resolve_args(&["--base", "", "g"]).unwrap();
        assert_eq!(args.base.as_deref(), Some(""));
        assert!(resolve_args(&["--pairs"]).unwrap().base.is_none());
    }

    #[test]
    fn resolve_options_map_onto_the_library() {
        let args = resolve_args(&["--pairs"]).unwrap();
        assert_eq!(args.options.to_options(), Options::default());
        let args = resolve_args(&[
            "--pairs",
            "--strict",
            "--same-scheme",
            "--dotdot-above-root",
            "error",
            "--fix-pathless-base",
            "--rfc1630-dots",
            "like1808",
            "--rootless-dots",
            "keep-rootless",
        ])
        .unwrap();
        let want = Options::default()
            .strict(true)
            .same_scheme_is_relative(true)
            .dotdot_above_root(DotDotAboveRoot::Error)
            .fix_pathless_base(true)
            .rfc1630_dots(Rfc1630Dots::Like1808)
            .rootless_dots(RootlessDots::KeepRootless);
        assert_eq!(args.options.to_options(), want);
        // The last of --same-scheme and --no-same-scheme wins.
        let args =
            resolve_args(&["--pairs", "--same-scheme", "--no-same-scheme"])
                .unwrap();
        assert_eq!(
            args.options.to_options().same_scheme_is_relative,
            Some(false)
        );
    }

    #[test]
    fn relative_takes_no_resolution_options() {
        let base = ["--base", "http://a/", "--relative"];
        assert!(resolve_args(&base).is_ok());
        for extra in [&["--strict"][..], &["--all-specs"], &["--same-scheme"]]
        {
            let args: Vec<&str> = base.iter().chain(extra).copied().collect();
            assert!(resolve_args(&args).is_err(), "{extra:?}");
        }
    }

    #[test]
    fn links_options_map_onto_the_library() {
        let cli = Cli::try_parse_from([
            "urlspec",
            "links",
            "--url",
            "http://h/a",
            "--redirect",
            "http://h/b",
            "--redirect",
            "http://h/c/",
            "--base-headers",
            "all",
            "--strict-base",
            "-",
        ])
        .unwrap();
        let Command::Links(args) = cli.command else {
            panic!("not links: {:?}", cli.command)
        };
        assert_eq!(
            args.retrieval(),
            ["http://h/a", "http://h/b", "http://h/c/"]
        );
        let options = args.base_options();
        assert!(options.strict);
        assert_eq!(options.headers, base::Headers::All);
        assert_eq!(args.files, ["-"]);
        let cli = Cli::try_parse_from(["urlspec", "links"]).unwrap();
        let Command::Links(args) = cli.command else { panic!() };
        assert_eq!(args.base_options(), base::Options::default());
        assert!(args.retrieval().is_empty() && args.files.is_empty());
        assert_eq!(
            (args.format, args.output),
            (InputFormat::Auto, LinksOutput::Text)
        );
    }

    #[test]
    fn spec_list_has_every_spec() {
        let list = spec_list();
        for spec in Spec::ALL {
            assert!(list.contains(spec.name()));
            assert!(list.contains(spec.summary()));
        }
        assert_eq!(list.lines().count(), Spec::ALL.len());
    }
}
