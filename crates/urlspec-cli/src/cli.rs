//! The command line: clap definitions for `urlspec` and its subcommands.
//!
//! Each subcommand is one variant of [`Command`] with its own `…Args`
//! struct; options that several subcommands share (`--spec`, `--json`) use
//! the same value parsers and wording. The resolution options of `urlspec
//! resolve` are [`ResolveOptions`], which maps them onto the library's
//! [`Options`]; the base options of `urlspec links` are in [`LinksArgs`],
//! which maps them onto [`base::Options`]. The comparison options that
//! `urlspec equiv` and `urlspec normalize` share are [`EquivOptions`],
//! mapped onto [`equiv::Options`]; `--level` has its own value parser,
//! [`LevelParser`], and `urlspec extract` builds its [`Finder`] in
//! [`ExtractArgs::finder`]. Every list of specs is [`SPECS`], the specs of
//! this build; `urlspec diff --specs` takes several through
//! [`SpecListParser`].

use std::ffi::OsStr;
use std::fmt::Write as _;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Args, Parser, Subcommand, ValueEnum};
use urlspec::base;
use urlspec::check::{Severity, RULES};
use urlspec::equiv::{self, Level};
use urlspec::extract::Finder;
use urlspec::resolve::{DotDotAboveRoot, Options, Rfc1630Dots, RootlessDots};
use urlspec::Spec;
use urlspec_links::html::encoding::Choice;
use urlspec_links::Within;

/// One line on what the command does.
const ABOUT: &str =
    "Parse, validate, resolve, compare and check URLs exactly as each \
     generation of the URL specifications defines them (RFC 1630 to RFC \
     3986), and find every URL in running text and every link in HTML \
     pages, mail messages and web archives";

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
    /// Show what a URL's scheme makes of it: the typed view, RFC 1630's
    /// strict production for the scheme, the lenient readings applied and
    /// the default port.
    #[command(
        about = "Show what each URL's scheme makes of it (ftp login and \
                 commands, http request targets, gopher selector, …), \
                 checked against RFC 1630's production for the scheme",
        long_about = SCHEME_LONG_ABOUT,
        after_help = SCHEME_EXAMPLES
    )]
    Scheme(SchemeArgs),
    /// Say whether two URLs are the same URL under a spec.
    #[command(
        about = "Say whether two URLs are the same URL under a spec, \
                 showing both normalized forms (exit status 0 if so, 1 if \
                 not)",
        long_about = EQUIV_LONG_ABOUT,
        after_help = EQUIV_EXAMPLES
    )]
    Equiv(EquivArgs),
    /// Bring URLs to a spec's canonical encoding level, one per line.
    #[command(
        about = "Bring URLs to a spec's canonical encoding level, the form \
                 `equiv` compares, one line per input",
        long_about = NORMALIZE_LONG_ABOUT,
        after_help = NORMALIZE_EXAMPLES
    )]
    Normalize(NormalizeArgs),
    /// Report the security hazards of URLs, with stable rule codes.
    #[command(
        about = "Report the security hazards of URLs (ports, escaped line \
                 breaks, passwords, parser confusion), with stable rule \
                 codes; fail a pipeline at a chosen severity",
        long_about = check_long_about(),
        after_help = CHECK_EXAMPLES
    )]
    Check(CheckArgs),
    /// Show where the specs disagree on a URL (or a reference against a
    /// base), and the rule behind each difference.
    #[command(
        about = "Show where the specs disagree on a URL or a reference \
                 (a matrix of every spec's answer), and the rule behind \
                 each difference; --batch finds the disagreements in a list",
        long_about = DIFF_LONG_ABOUT,
        after_help = DIFF_EXAMPLES
    )]
    Diff(DiffArgs),
    /// Find the URLs in running text, by Appendix B of the 1996 draft.
    #[command(
        about = "Find the URLs in running text (<URL:...>, <...>, quotes, \
                 bare URLs), with line and column, optionally resolved",
        long_about = EXTRACT_LONG_ABOUT,
        after_help = EXTRACT_EXAMPLES
    )]
    Extract(ExtractArgs),
    /// Print the shell completion script for urlspec.
    #[command(
        about = "Print the completion script of a shell (bash, zsh, fish, \
                 powershell, elvish) for urlspec, made from these argument \
                 definitions",
        long_about = COMPLETIONS_LONG_ABOUT
    )]
    Completions(CompletionsArgs),
    /// Print the manual page.
    #[command(
        about = "Print the manual page of urlspec (roff, for man), or write \
                 one page per command into a directory",
        long_about = MAN_LONG_ABOUT
    )]
    Man(ManArgs),
    /// Serve the specs side by side in a browser, and a JSON API.
    #[command(
        about = "Serve the specs side by side in a browser (the matrix of \
                 diff, check's findings, validity per spec), and the same \
                 over a small JSON API, on loopback",
        long_about = crate::cmd::serve::LONG_ABOUT
    )]
    Serve(crate::cmd::serve::ServeArgs),
}

/// The long description of `urlspec completions`.
const COMPLETIONS_LONG_ABOUT: &str = "\
Print the completion script of SHELL for urlspec on standard output. It is made
from the same argument definitions as --help, so it knows every subcommand,
option and value (--spec names, --output formats, …).

Install it where the shell looks for completions:
  bash        urlspec completions bash > ~/.local/share/bash-completion/completions/urlspec
  zsh         urlspec completions zsh > ~/.zfunc/_urlspec
              (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)
  fish        urlspec completions fish > ~/.config/fish/completions/urlspec.fish
  powershell  urlspec completions powershell >> $PROFILE

Exit status: 0, or 2 when the script cannot be written.";

/// The long description of `urlspec man`.
const MAN_LONG_ABOUT: &str = "\
Print the manual page of urlspec (roff, section 1) on standard output, made
from the same definitions as --help: the description, every option, the
subcommands, the specs and the exit statuses. With --dir, write one page per
command into DIR instead: urlspec.1, urlspec-parse.1, urlspec-resolve.1, ….

  urlspec man | man -l -
  urlspec man --dir ~/.local/share/man/man1 && man urlspec-links

Exit status: 0, or 2 when a page cannot be written.";

/// The paragraph of `--help` on where the URLs of a command that reads
/// one per line come from, and what becomes of one without an answer.
macro_rules! url_inputs {
    () => {
        "\
The URLs come from the arguments; an argument of - stands for the lines of
standard input, one URL per line (a trailing CR LF or LF is removed), as does
giving no argument at all. (So the one-character reference `-` is given on
standard input.) A line that is not UTF-8, or an input urlspec fails on (a bug
to report), gets `error: KIND: MESSAGE` in its place (NotUtf8 or
InternalError; with --json, an object whose error says so), the same with its
line number on standard error, and the inputs after it are still read."
    };
}

/// The long description of `urlspec parse`.
const PARSE_LONG_ABOUT: &str = concat!(
    "\
Split each URL into scheme, net_loc (authority), user, password, host, port,
path, params, query and fragment, exactly as the chosen spec splits it, and
check it against that spec's grammar.

", url_inputs!(), "

Each invalid URL is printed with a caret under every offending character and
the grammar rule it breaks (aligned as a terminal shows the characters: two
columns for a CJK character, none for a combining mark).

An absent component is shown as (absent) and an empty one as \"\": `http://a/b?`
has an empty query but no fragment. Control characters are shown as their
Unicode control pictures (a tab as \u{2409}).

Under --spec whatwg the components are the WHATWG URL Standard's, as browsers
parse (urlspec's implementation of its basic URL parser): the table starts
with the standard's serialization (href); the host is lower-cased (and IDNA
mapped), the default port dropped, an empty user or password absent, the
empty host \"\" (file:///p), and net_loc and params are always absent (the
standard has neither). An input the standard gives no URL for, every relative
reference among them, is invalid, with one violation (rule URL) at the byte
where the parser stopped, naming the Standard's validation error and the
parser's state, and no components.

With --json, each line is one object with the keys input, spec, scheme,
net_loc, user, password, host, port, path, params, query, fragment (null when
absent, \"\" when empty; under whatwg, all null when the standard gives no
URL), valid, violations (each with position, a byte offset into input, rule
and message) and error (null, or {kind, message} for an input without an
answer; its input is null when it is not UTF-8).

Exit status: 0 when every URL is valid, 1 when some URL is invalid or has no
answer, 2 for a usage or I/O error.");

/// The `Examples:` section of `urlspec parse --help`.
const PARSE_EXAMPLES: &str = "\
Examples:
  # One URL, as RFC 1808 (the default) splits it
  urlspec parse 'http://a/b/c/d;p?q#f'

  # The same text under RFC 3986: `;p` stays in the path, `~` is fine
  urlspec parse --spec rfc3986 'http://a/~u/d;p?q#f'

  # As a browser parses it: `\\` is `/`, so the host is a, not b
  urlspec parse --spec whatwg 'http://a\\@b/'

  # Stream a file, one URL per line; exit status 1 if any is invalid
  urlspec parse --spec rfc2396 < urls.txt

  # Arguments and standard input together: - stands for its lines
  grep -o 'http[^\"]*' page.html | urlspec parse --spec rfc3986 http://a/ -

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

Where the texts leave a choice, the default is the reading of
docs/readings.md, and the options below select the others.

With no base (--base ''), RFC 1630, RFC 1808 and the drafts take the
reference as an absolute URL (RFC 1808 step 1, docs/readings.md#a20;
taken_as_absolute in --json);
RFC 2396 and RFC 3986 report NoBase. Under whatwg (the WHATWG URL Standard's
basic URL parser with the base, as browsers resolve) no base is the
Standard's null base: an absolute reference is parsed as `parse` does
(http://example.com/foo/bar/.. gives http://example.com/foo/), a relative
one is NoBase; a reference the standard cannot parse is InvalidReference,
at the byte where the parser stopped, with the Standard's validation error
and the parser's state.

Input: the REF arguments, where - stands for the lines of standard input, one
reference per line (a trailing CR LF or LF is removed), as does giving no REF
at all. With --pairs, each line of
standard input is BASE<TAB>REFERENCE (split at the first TAB; an empty BASE
is no base); consecutive lines with the same base reuse the parsed base, so
input grouped by base is fastest.

Output: one line per input, so the output lines up with the input (paste
pairs.tsv out.txt). An input that cannot be resolved gives, in its place,

  error: <kind>: <message>

and the same with its line number on standard error. The kinds: NoBase,
BaseNotAbsolute, BaseNotHierarchical and InvalidReference (--strict),
DotDotAboveRoot (--dotdot-above-root error), for unreadable input lines
MissingTab (a --pairs line without a TAB) and NotUtf8, and InternalError for an
input urlspec fails on (a bug to report); the lines after any of them are still
read. (An absolute reference
such as `error: x` resolves to itself and looks the same; --json tells the two
apart, and keeps standard error quiet.)

With --json, each line is one object with the keys base, reference, spec,
result (null on error), same_document (the reference is to the base document
itself), error (null, or {\"kind\", \"message\"}), taken_as_absolute (there
was no base and the reference was taken as absolute) and note (null, or
{\"kind\", \"message\"} when the result, read again, has other components than
the algorithm produced: PathReadAsAuthority, f:/a and .//g giving f://g under
rfc3986; PathJoinsAuthority, http://taccs.hu and index.html giving
http://taccs.huindex.html under rfc2396; AuthorityReadsLonger, http://a and ?g
giving http://a?g, whose net_loc is a?g, under rfc1808 and the 1996 drafts;
AuthorityEndsEarlier, a partial //? under rfc1630; or PathGuarded, when
--path-guard wrote /. before such a path). The result is each text's answer;
the note only reports it. A --pairs line without a TAB has the whole line as
base and a null reference; a line that is not UTF-8 has both null.

--all-specs resolves each reference under every spec (whatwg last, when
built in) and prints one row per spec, `*` marking the specs whose answer differs from that of --spec; with
--json, one object per reference with base, reference, and one key per spec
holding {result, same_document, error, taken_as_absolute, note}.

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
                (rfc2396, rfc3986, whatwg); none under rfc1630 (see
                --base-headers)
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

/// The long description of `urlspec scheme`.
const SCHEME_LONG_ABOUT: &str = concat!(
    "\
Read each URL as the scheme it names and show what that scheme's own syntax
makes of it: for ftp the login (anonymous unless one is written), the CWD list,
the file, the transfer type and the FTP commands a client sends; for http the
request target for an origin server and for a proxy; for gopher the type and
the selector; for mailto the address; for news the group or article; for file
the local path; and so on for nntp, telnet, rlogin, tn3270, wais, prospero,
mid, cid, urn, x-… and url:. Any other scheme, and a relative reference, is
shown in the generic syntax.

Each URL is then checked against RFC 1630's production for its scheme (the
strict reading): every violation is printed under the URL with a caret at the
offending character and the production it breaks. The lenient readings the
view applied to make sense of the URL anyway follow, each naming the entry of
docs/readings.md it follows (A24 is docs/readings.md#a24): `;type=d` on ftp, a
path that is RFC 1738's and not RFC 1630's, is read as a directory listing
(A24). Last comes the scheme's
default port and where that number comes from: only http's 80 is in the seed
documents; the others are RFC 1738's or later documents', and say so.

The components come from the parse under --spec: rfc1808 (the default) keeps
`;params` apart and `?` inside the net_loc; rfc1630 splits as its own
productions do; whatwg reads the WHATWG URL Standard's serialization of the
URL (what a browser requests: http://a\\b/ is http://a/b/), shown first as
href, or the URL as written when the standard gives none. A password is shown as ****. Values are decoded where the
scheme says so (a gopher selector's %09 is a tab, shown as \u{2409}).

", url_inputs!(), "

With --json, each line is one object with the keys input, spec, view, fields
(an array of {name, value} in the view's order; a name such as cwd, command
or segment may repeat), default_port (null, or {port, source, in_seeds}),
port (the port a client connects to: the one written, else the default; null
when none), valid (no strict violation), violations (each with position, a
byte offset into input, production and message; under whatwg, into the
serialization), lenient (an array of strings) and error (null, or {kind,
message} for an input without an answer).

Exit status: 0 when every URL meets RFC 1630's production for its scheme, 1
when some URL breaks it or has no answer, 2 for a usage or I/O error.");

/// The `Examples:` section of `urlspec scheme --help`.
const SCHEME_EXAMPLES: &str = "\
Examples:
  # ftp: anonymous login, then CWD rfc and RETR rfc1808.txt
  urlspec scheme ftp://ds.internic.net/rfc/rfc1808.txt

  # RFC 1738's ;type=d breaks RFC 1630's ftptype; read leniently (A24)
  urlspec scheme 'ftp://info.cern.ch/pub/www/doc;type=d'

  # http: the request target for the server and for a proxy
  urlspec scheme 'http://info.cern.ch:8000/hypertext/WWW/TheProject.html?x+y'

  # gopher: type 7, a selector and a search string separated by %09
  urlspec scheme 'gopher://h/7srch%09term'

  # JSON Lines: the URLs that break their scheme's production, and where
  urlspec scheme --json < urls.txt | jq -c 'select(.valid | not) | {input, p: [.violations[].production]}'";

/// The long description of `urlspec equiv`.
const EQUIV_LONG_ABOUT: &str = "\
Say whether two URLs A and B are the same URL under the chosen spec: bring
each to the spec's canonical encoding level (normalize it, as `urlspec
normalize` does), print both normalized forms, and compare them.

RFC 1630 states the rule that every later spec refines: two URLs must be
brought to the same encoding level before comparison. An escape of a character
that may stand unescaped equals the character (marie%2Dclaude is
marie-claude); an escaped reserved character never does (bertram%2Fmarie-claude
is not bertram/marie-claude); and a URL holding a `%` that does not start an
escape (asdf%*.fred) is illegal and cannot be compared at all: that is an
error, shown with a caret at the `%`, not a `no`.

Which escapes are decoded depends on the spec:
  rfc1630     alpha, digit, $ - _ @ . & ' ( ) , \" and + outside a query
  draft04     alpha, digit, safe, extra, national
  rfc1808     alpha, digit, safe, extra (%7E stays: ~ is national)
  draft96     alpha, digit, mark (with ~); draft96dec also keeps / & = +
              escaped in a query
  rfc2396     unreserved, for http, https, ftp and file only
  rfc3986     unreserved
  whatwg      the standard's own: its serialization is the normal form; --level and the port and host options do not
              apply, and a relative reference cannot be compared
Raw characters the spec requires escaped are escaped (a raw ~ under rfc1808
becomes %7E). Decoding never makes a `.` or `..` segment, except under rfc3986,
which then removes dot-segments.

--level picks the rung of RFC 3986 section 6.2's comparison ladder, each
including those below it; the default, scheme, is the highest that needs no
access to the resource. The fragment is not part of the URL and is ignored
unless --include-fragment. Hosts are compared case-sensitively under the seed
specs, none of which says they are case-insensitive, unless --host-case;
rfc2396 (host names and addresses) and rfc3986 always fold them. An empty port
and the scheme's default port are dropped unless --no-default-port; another
port is compared by value (:08080 is :8080).

A (or B) of - compares the other URL with every line of standard input in its
place, one answer each (separated by a blank line; with --json, one object per
line). A line that is not UTF-8, or one urlspec fails on (a bug to report),
gets `error: KIND: MESSAGE` in its place (NotUtf8, InternalError), and the
lines after it are still read.

With --json, one object with the keys spec, level, a and b (each {input,
normalized, error}: normalized is null and error is {position, found,
message} when the URL cannot be compared, position being a byte offset into
input), equivalent (true, false, or null when a URL cannot be compared) and
error (null, or {kind, message} for a line of standard input without an
answer).

Exit status: 0 when A and B are equivalent, 1 when they are not, 2 when one
cannot be compared, or for a usage error. Over standard input: 2 when some URL
cannot be compared, else 1 when some pair is not equivalent or some line has
no answer, else 0.";

/// The `Examples:` section of `urlspec equiv --help`.
const EQUIV_EXAMPLES: &str = "\
Examples:
  # An escaped `-` is `-` (RFC 1630 Example 1): equivalent, exit status 0
  urlspec equiv http://info.cern.ch/albert/bertram/marie-claude http://info.cern.ch/albert/bertram/marie%2Dclaude

  # An escaped `/` is not `/` (Example 2): not equivalent, exit status 1
  urlspec equiv http://info.cern.ch/albert/bertram/marie-claude http://info.cern.ch/albert/bertram%2Fmarie-claude

  # `+` is safe in RFC 1808 but reserved in the 1996 draft
  urlspec equiv 'http://a/x+y' 'http://a/x%2By'
  urlspec equiv --spec draft96 'http://a/x+y' 'http://a/x%2By'

  # Host case, default port and dot-segments under RFC 3986
  urlspec equiv --spec rfc3986 'HTTP://Example.COM:80/a/./b' 'http://example.com/a/b'

  # Only case normalization; and the fragments compared too
  urlspec equiv --level case 'http://a/%7e' 'http://a/%7E'
  urlspec equiv --include-fragment 'http://a/b#x' 'http://a/b#y'

  # In a script: 0 same, 1 different, 2 not comparable
  if urlspec equiv --spec rfc3986 \"$a\" \"$b\" > /dev/null; then echo same; fi

  # JSON: both normalized forms and the verdict
  urlspec equiv --json 'http://a/~u' 'http://a/%7Eu' | jq .equivalent

  # Which URLs of a list are the same as one URL (- is each line)
  urlspec equiv --spec rfc3986 --json http://example.com/ - < urls.txt | jq -r 'select(.equivalent) | .b.input'";

/// The long description of `urlspec normalize`.
const NORMALIZE_LONG_ABOUT: &str = "\
Print each URL brought to the chosen spec's canonical encoding level: the
string `urlspec equiv` compares. Two URLs are equivalent exactly when their
normalized forms are equal, so the output can be sorted, deduplicated (sort
-u) or joined on. Normalizing a normalized URL changes nothing more.

What is decoded, escaped and folded depends on the spec and on --level; see
`urlspec equiv --help` for the table. In short, at the default level
(scheme): the scheme and the hex digits of escapes are put in one case, the
escapes of characters that may stand unescaped are decoded, raw characters the
spec requires escaped are escaped, an empty or default port is dropped, the
fragment is dropped (--include-fragment keeps it), and under rfc3986 the
host is folded to lower case and the dot-segments are removed from the path
of every URL with a scheme, rooted or not: RFC 3986 section 6.2.2.3 applies
remove_dot_segments to the path, as resolving the URL against any base would
(x:./foo/bar gives x:foo/bar, x:mid/content=5/../6 gives x:mid/6, and
g:h/../i gives g:/i, the algorithm's output as printed). A relative reference
keeps its dot-segments (they climb a base), and a path that would then start
with // without an authority is left as it is. Ports are compared by value:
:080 is the default port, :08080 is :8080.

Input: the URL arguments, where - stands for the lines of standard input, one
URL per line (a trailing CR LF or LF is removed), streamed, as does giving no
URL at all.

Output: one line per input, so the output lines up with the input (paste
urls.txt normalized.txt). A URL that cannot be compared (it holds a `%` that
does not start an escape, which RFC 1630 makes illegal) gives, in its place,

  error: NotComparable: <message>

and the same with its line number on standard error; a line that is not UTF-8
gives `error: NotUtf8: <message>`, and an input urlspec fails on (a bug to
report) `error: InternalError: <message>`. The lines after any of them are
still read.

With --json, each line is one object with the keys input (null for a line
that is not UTF-8), spec, level, result (null on error) and error (null, or
{kind, message, position}; position is the byte offset of the `%`, null for
NotUtf8 and InternalError).

Exit status: 0 when every URL was normalized, 1 when some line is an error, 2
for a usage or I/O error.";

/// The `Examples:` section of `urlspec normalize --help`.
const NORMALIZE_EXAMPLES: &str = "\
Examples:
  # RFC 3986: case, escapes, dot-segments, the default port
  urlspec normalize --spec rfc3986 'eXAMPLE://a/./b/../b/%63/%7bfoo%7d' 'HTTP://A:80'

  # `~` is national in RFC 1808 (escaped) and unreserved in the 1996 draft
  urlspec normalize 'http://a/~u'
  urlspec normalize --spec draft96 'http://a/%7Eu'

  # The distinct URLs of a list, as RFC 3986 compares them
  urlspec normalize --spec rfc3986 < urls.txt | sort -u

  # Each URL beside its normalized form
  urlspec normalize < urls.txt | paste urls.txt -

  # JSON Lines: the URLs that cannot be compared, and where
  urlspec normalize --json < urls.txt | jq -c 'select(.error) | {input, at: .error.position}'";

/// The long description of `urlspec check`, with the rule list from
/// [`RULES`], so the list follows the library.
fn check_long_about() -> String {
    let mut text = String::from(
        "\
Check each URL for the hazards the specs' security sections warn of, and
those that studies of URL-parser differentials found: a port that reaches
another protocol, an escaped line break that injects a command, a password, a
file URL naming another host, a backslash, several `@`, raw whitespace or a
control character, a user name that looks like a host, a host the specs read
differently.

Each finding has a stable code, a severity (info < low < medium < high), the
bytes of the input it concerns (shown with carets under them), an explanation
for this input, and the source it rests on (a source in docs/readings.md is the
reading urlspec takes where the documents leave a choice). The URL is parsed
under --spec.

Rules (the severity is the highest the rule reports):
",
    );
    let width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    for rule in RULES {
        let _ = writeln!(
            text,
            "  {}  {:width$}  up to {}\n          {}",
            rule.code, rule.name, rule.severity, rule.source
        );
    }
    text.push_str(concat!(
        "
--fail-on sets the threshold: the exit status is 1 when some finding is at or
above it. The default, medium, lets a low finding (a non-default port above
1023) pass; --fail-on high fails only on the worst, --fail-on info on any
finding. The findings are printed whatever the threshold.

",
        url_inputs!(),
        "

--only-findings leaves out the URLs without findings: a clean URL prints
nothing, as text or JSON.

With --json, each line is one object with the keys input, spec, max_severity
(null when there is no finding), fails (some finding reaches --fail-on),
findings (each with code, name, severity, span {start, end} in bytes of input,
end excluded, message and source) and error (null, or {kind, message} for an
input without an answer).

Exit status: 0 when no finding reaches --fail-on, 1 when some finding does or
some input has no answer, 2 for a usage or I/O error.",
    ));
    text
}

/// The `Examples:` section of `urlspec check --help`.
const CHECK_EXAMPLES: &str = "\
Examples:
  # The 1996 draft's example: gopher to an SMTP port, CR LF escaped
  urlspec check 'gopher://h:25/0HELO%0D%0AMAIL'

  # A user name that looks like a host (RFC 3986 section 7.6)
  urlspec check --spec rfc3986 'ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm'

  # Gate a pipeline: fail only on high findings
  urlspec check --fail-on high < urls.txt > findings.txt || exit 1

  # JSON Lines: count the findings by code
  urlspec check --json < urls.txt | jq -r '.findings[].code' | sort | uniq -c

  # Only the URLs that have findings
  urlspec check --only-findings --fail-on high < urls.txt";

/// The long description of `urlspec diff`.
const DIFF_LONG_ABOUT: &str = "\
Compare what the specs make of one input: how each splits a URL into its
components or, with --base, how each resolves a reference against the base.
Print a matrix with one row per spec and one column per component (scheme,
net_loc, user, password, host, port, path, params, query, fragment, and
whether the URL is valid under the spec), or a single result column with
--base; then, for each column on which the specs disagree, the answers with
the specs that give each, and the rule of the specs' rule tables that makes
the difference, citing where each spec writes it down.

Where the documents themselves leave a choice, urlspec takes the reading
docs/readings.md gives, with the text behind it and the option (if any) that
selects the other; an explanation that rests on one cites its anchor
(docs/readings.md#rfc1630-partial).

A difference in the scheme, user, password, host or port is marked
[security]: two programs that follow different specs would send the same URL
to different places (http://a?@b/: host a, or host b with user a?).

In the matrix, an absent component is (absent), an empty one \"\", and a
component outside the spec's model is - (the WHATWG standard has no net_loc
and no params; they are not compared). `*` marks a cell whose answer differs
from the column's most common one; a spec that gives no URL (the WHATWG
parser on a relative input, a resolution error) shows its error instead of
cells. Colours mark the same cells when standard output is a terminal and
NO_COLOR is not set.

--specs picks the specs, a comma-separated list of names (in the order given)
or all; the default, all, is every spec of this build: the seven documents
and, when built with the whatwg feature, the WHATWG URL Standard, as browsers
parse. Where whatwg gives another answer, the reason names the parser's
state and the section of the Standard.

--batch (or an INPUT of -) reads the inputs from standard input, one per line
(with --base, references; with --pairs, BASE<TAB>REFERENCE lines, split at the
first TAB), streamed, and prints only those on which the specs disagree: the
input, then the disagreeing columns. --security-only prints only the
security-relevant ones. A summary ends the output (on standard error with
--json, once the rest is written): the inputs read, how many the specs
disagree on, how many of those are security-relevant, and the most common sets
of disagreeing columns. A line that is not UTF-8, a --pairs line without a TAB
and an input urlspec fails on (a bug to report) are printed in their place,
with `error: KIND: MESSAGE` (NotUtf8, MissingTab, InternalError; `line N`
stands for an input that is not text), and reported on standard error.

With --json, one object (with --batch, one line per disagreement) with the
keys input, base (null without --base), specs, rows (one per spec: {spec,
valid, error, cells}, cells mapping each column name to its value or null),
differences (each {column, security, groups, explanations}, groups being
[{value, specs}] in spec order; an error is the value \"error: ...\" in
the first column), agree and error (null; for an input line without a
comparison, {kind, message, line}, with input null when it is not text, no
rows and agree null).

Exit status: 0 when the specs agree (with --batch: on every input; with
--security-only: on where every input goes), 1 when they disagree (on some
input; or a line has no comparison), 2 for a usage or I/O error.";

/// The `Examples:` section of `urlspec diff --help`.
const DIFF_EXAMPLES: &str = "\
Examples:
  # Where does http://a?q go? RFC 1808's net_loc runs to the `/`: a?q
  urlspec diff 'http://a?q'

  # A backslash: data to the RFCs, a `/` to browsers (another host)
  urlspec diff 'http://a\\@b/'

  # The seed specs on `?y` against RFC 1808's base (testdata/diff/spec-5.7.toml)
  urlspec diff --specs rfc1630,draft04,rfc1808,draft96 --base 'http://a/b/c/d;p?q#f' '?y'

  # Every URL of a list on which RFC 3986 and browsers disagree
  urlspec diff --batch --specs rfc3986,whatwg < urls.txt

  # Only the disagreements that change where a request goes; the exit
  # status says whether there is one
  urlspec diff --batch --security-only < urls.txt > confusions.txt

  # A TSV of BASE<TAB>REFERENCE lines, as JSON Lines; count the specs'
  # disagreements by column
  urlspec diff --batch --pairs --json < pairs.tsv | jq -r '.differences[].column' | sort | uniq -c";

/// The long description of `urlspec extract`.
const EXTRACT_LONG_ABOUT: &str = "\
Find the URLs in running text (mail, news, plain-text documents) and print
each one with where it is (FILE:LINE:COLUMN), how it was delimited, and the URL
itself with its wrapper and line-wrapping whitespace removed.

Delimited URLs follow Appendix B of the 1996 draft (\"Recommendations for
Delimiting URLs in Context\"), which RFC 2396 and RFC 3986 repeat:
  * <URL:...> (the prefix in any case) and <...> delimit a URL; the wrapper is
    not part of it, and the URL runs to the first `>`.
  * All whitespace between the brackets is removed, so a URL broken across
    lines comes out whole.
  * A line break right after a `-` keeps the hyphen, but the hyphen may or may
    not be part of the URL: the URL is flagged as ambiguous, and the reading
    without the hyphen is given as its alternative.
  * Bracketed text is a URL only if it has a scheme under --spec:
    <fielding@ics.uci.edu> is not one.
  * Between the brackets, at most 8 KiB (8192 bytes) are read as a URL: a
    longer <URL:...> or <...> that starts like one (URL:, or a scheme) is
    reported as a finding, flagged too-long, with no URL, and its text is not
    searched for bare URLs.
Heuristics, in no seed: text in double quotes that starts with a known scheme
(RFC 2396 App. E), and bare URLs, found by their scheme (http:, ftp:,
gopher:, mailto:, news:, …, x-…, and any other scheme followed by //). A bare
URL ends at whitespace, `<`, `>`, `\"` or a control character; other
characters outside US-ASCII belong to it, as written (http://müller.de).
Trailing punctuation is trimmed, and so is a closing ), ] or } at its end
that the URL did not open (http://example.com/ab)c is whole). --no-bare turns
bare URLs off: only <URL:...>, <...> and quotes are reported.

--relative also reports references without a scheme: always inside <URL:...>,
whose prefix says a URL follows, and inside quotes when they look like a
relative path (\"../x\"). --base resolves each URL found against BASE under
--spec (BASE must be an absolute URL); relative references are found, and so
resolved, only with --relative.

Forms: url-prefixed (<URL:...>), angle (<...>), quoted (\"...\"), bare.

Input: each FILE, or standard input when there is none (a FILE of - is
standard input too), read as bytes: the text need not be UTF-8, and a URL is
reported only where its delimited text is. Lines count from 1 at each LF;
columns count characters from 1; both point at the opening delimiter (or at a
bare URL's first character).

Output (--output):
  text  FILE:LINE:COLUMN  FORM  URL  [FLAGS]
        with --base, URL -> RESOLVED (or -> error: KIND: MESSAGE); the
        flags are too-long (the URL is then -), relative, and
        ambiguous-hyphen (or ALTERNATIVE)
  tsv   a header row, then one row per URL: file, line, column, offset,
        form, url, resolved, ambiguous_hyphen, alternative, relative,
        too_long (standard input is named -)
  json  one object per URL (JSON Lines) with the keys file, line, column,
        offset (the byte offset of the opening delimiter), form, url (null
        when too long), resolved (null without --base), ambiguous_hyphen,
        alternative (the reading without the hyphens, or null), relative
        and too_long

Exit status: 0 when every FILE was read (whether or not it holds URLs), 1
when some URL could not be resolved against --base or some <...> form was
too long, 2 for a usage or I/O error: a missing FILE (reported after the
other files were read) or a BASE that is not absolute.";

/// The `Examples:` section of `urlspec extract --help`.
const EXTRACT_EXAMPLES: &str = "\
Examples:
  # The 1996 draft's own example, from standard input
  printf 'Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\\n      type=d> but\\n' | urlspec extract

  # Only <URL:...>, <...> and quoted URLs, as TSV
  urlspec extract --no-bare --output tsv notes.txt mail/*.eml > urls.tsv

  # Resolve relative references too, against the document's URL
  urlspec extract --relative --base http://example.com/docs/ README.txt

  # JSON Lines: the URLs broken at a hyphen, both readings
  urlspec extract --output json < message.txt | jq -c 'select(.ambiguous_hyphen) | [.url, .alternative]'";

/// The text after the top-level `--help`: examples, specs, exit status.
fn top_after_help() -> String {
    let mut text = String::from(
        "Examples:\n  urlspec parse 'http://a/b/c/d;p?q#f'\n  \
         urlspec parse --spec rfc3986 --json < urls.txt | jq .host\n  \
         urlspec resolve --base 'http://a/b/c/d;p?q' '../../../g'\n  \
         urlspec resolve --pairs --spec rfc3986 < pairs.tsv\n  \
         urlspec links\n  \
         urlspec links --output json crawl.warc.gz\n  \
         urlspec scheme ftp://ds.internic.net/rfc/rfc1808.txt\n  \
         urlspec equiv 'http://a/x+y' 'http://a/x%2By'\n  \
         urlspec normalize --spec rfc3986 < urls.txt | sort -u\n  \
         urlspec check --fail-on high < urls.txt\n  \
         urlspec extract --no-bare --output tsv notes.txt\n  \
         urlspec diff 'http://a?@b/'\n  \
         urlspec diff --batch --security-only < urls.txt\n  \
         urlspec completions bash > ~/.local/share/bash-completion/completions/urlspec\n  \
         urlspec man | man -l -\n\n\
         Specs (--spec; the default is ",
    );
    let _ = writeln!(text, "{}):", Spec::default());
    text.push_str(&spec_list());
    text.push_str(
        "\nInputs: where a command takes URLs or files, - stands for standard \
         input (one URL per line); each input that cannot be answered gets \
         its error in place, and the inputs after it are still read.\n\
         \nExit status: 0 all inputs valid (resolved), 1 some input invalid \
         (not resolved, or without an answer), 2 usage or I/O error (a \
         failed write among them); for equiv, 0 equivalent, 1 not, 2 not \
         comparable; for diff, 0 the specs agree, 1 they disagree.",
    );
    text
}

/// The number of specs this build can parse and resolve under.
pub const SPEC_COUNT: usize = Spec::available().len();

/// The specs this build can parse and resolve under, oldest first
/// ([`Spec::available`]), as an array. Every list of specs the command
/// shows or runs through is this one.
pub const SPECS: [Spec; SPEC_COUNT] = match Spec::available().first_chunk() {
    Some(specs) => *specs,
    None => unreachable!(),
};

/// Every spec name with its one-line summary, one per line, oldest first.
pub fn spec_list() -> String {
    let width = SPECS.iter().map(|s| s.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    for spec in SPECS {
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

    /// URLs to parse; - reads one per line from standard input, as does
    /// giving none (put `--` before a URL that starts with `-`)
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
            "path_guard",
        ]
    )]
    pub relative: bool,

    /// References to resolve (with --relative: TARGET URLs); - reads one
    /// per line from standard input, as does giving none (put `--` before
    /// one that starts with `-`)
    #[arg(value_name = "REF")]
    pub references: Vec<String>,

    /// How to resolve where the specs leave a choice (last: the heading it
    /// sets would otherwise take in the arguments after it)
    #[command(flatten)]
    pub options: ResolveOptions,
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
    /// draft96dec and rfc2396 (RFC 2396 §5). See docs/readings.md#a19,
    /// docs/readings.md#a20 and docs/readings.md#as17.
    #[arg(long)]
    pub strict: bool,

    /// Read `http:g` against an http base as the relative `g` [all
    /// specs]
    ///
    /// The same-scheme loophole: rfc2396 allows it for hierarchical bases
    /// (step 3c) and rfc3986 for non-strict parsers (§5.2.2); RFC 1808
    /// §5.2 describes it as what older parsers did and says it should be
    /// avoided. Off by default everywhere but rfc1630, which has it on
    /// (see --no-same-scheme; docs/readings.md#a13).
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
    /// always keep them (docs/readings.md#as2).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub dotdot_above_root: AboveRoot,

    /// Take an empty base path after a net_loc as `/` [rfc2396]
    ///
    /// Against a base with a net_loc and an empty path (http://a), RFC
    /// 2396 merges `g` into http://ag; with this option the path is taken
    /// as `/`, giving http://a/g, as rfc3986 and the older specs do anyway
    /// (docs/readings.md#as4).
    #[arg(long)]
    pub fix_pathless_base: bool,

    /// How rule .4 removes `.` and `..` segments [rfc1630]
    ///
    /// RFC 1630's rule .4 can be read literally or as RFC 1808's step 6
    /// (against http://a/b/c/d; docs/readings.md#a11).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub rfc1630_dots: Dots1630,

    /// How remove_dot_segments treats a path without a leading `/`
    /// [rfc3986]
    ///
    /// RFC 3986 §5.2.4 as printed turns the rootless path of g:h/../i into
    /// a rooted one; some implementations keep it rootless
    /// (docs/readings.md#as11).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    pub rootless_dots: Rootless,

    /// Write `/.` before a result's path that starts with `//` when there
    /// is no authority [all specs]
    ///
    /// Without an authority a path cannot begin with `//` (RFC 3986
    /// §3.3), yet the algorithms as printed can produce one: f:/a and
    /// .//g give f://g under rfc3986, which reads back with the authority
    /// g. With this option the result is f:/.//g, as the WHATWG URL
    /// Standard's serializer writes it. Either way --json's `note` says so.
    #[arg(long)]
    pub path_guard: bool,
}

impl ResolveOptions {
    /// The library's options.
    pub fn to_options(&self) -> Options {
        let mut options = Options::default()
            .strict(self.strict)
            .dotdot_above_root(self.dotdot_above_root.into())
            .fix_pathless_base(self.fix_pathless_base)
            .rfc1630_dots(self.rfc1630_dots.into())
            .rootless_dots(self.rootless_dots.into())
            .path_guard(self.path_guard);
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

    /// Files to read (- for standard input); with none, the built-in
    /// sample message
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
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

/// The arguments of `urlspec scheme`.
#[derive(Debug, Args)]
pub struct SchemeArgs {
    /// The spec to split the URL under before reading it by its scheme
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

    /// URLs to read; - reads one per line from standard input, as does
    /// giving none (put `--` before a URL that starts with `-`)
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,
}

/// The arguments of `urlspec equiv`.
#[derive(Debug, Args)]
pub struct EquivArgs {
    /// The spec to compare under
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,

    /// The first URL; - compares B with each line of standard input (put
    /// `--` before a URL that starts with `-`)
    #[arg(value_name = "A")]
    pub a: String,

    /// The second URL; - compares A with each line of standard input
    #[arg(value_name = "B")]
    pub b: String,

    /// How to compare (last: the heading it sets would otherwise take in
    /// the arguments after it)
    #[command(flatten)]
    pub options: EquivOptions,
}

/// The arguments of `urlspec normalize`.
#[derive(Debug, Args)]
pub struct NormalizeArgs {
    /// The spec to normalize under
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Print one JSON object per URL (JSON Lines) instead of text
    #[arg(long)]
    pub json: bool,

    /// URLs to normalize; - reads one per line from standard input, as
    /// does giving none (put `--` before a URL that starts with `-`)
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,

    /// How to normalize (last, as in [`EquivArgs`])
    #[command(flatten)]
    pub options: EquivOptions,
}

/// The options of `urlspec equiv` and `urlspec normalize` that become the
/// library's [`equiv::Options`].
#[derive(Debug, Args)]
#[command(next_help_heading = "Comparison options")]
pub struct EquivOptions {
    /// The rung of RFC 3986 section 6.2's comparison ladder; each includes
    /// the ones below it
    #[arg(
        short,
        long,
        value_name = "LEVEL",
        value_parser = LevelParser,
        default_value_t = Level::default()
    )]
    pub level: Level,

    /// Compare the fragments too (they are not part of the URL)
    #[arg(long)]
    pub include_fragment: bool,

    /// Keep an empty port (host:) and the scheme's default port (:80 on
    /// http), which are otherwise dropped (docs/readings.md#a7)
    #[arg(long)]
    pub no_default_port: bool,

    /// Fold the host to lower case under the seed specs too (rfc2396 and
    /// rfc3986 always do; docs/readings.md#equivalence)
    #[arg(long)]
    pub host_case: bool,
}

impl EquivOptions {
    /// The library's options.
    pub fn to_options(&self) -> equiv::Options {
        equiv::Options::default()
            .level(self.level)
            .include_fragment(self.include_fragment)
            .default_port(!self.no_default_port)
            .host_case(self.host_case)
    }
}

/// The arguments of `urlspec check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The spec to parse the URLs under
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Print one JSON object per URL (JSON Lines) instead of text
    #[arg(long)]
    pub json: bool,

    /// Exit with status 1 when some finding is at or above this severity
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t)]
    pub fail_on: FailOn,

    /// Print only the URLs that have findings (nothing for a clean URL)
    #[arg(long)]
    pub only_findings: bool,

    /// URLs to check; - reads one per line from standard input, as does
    /// giving none (put `--` before a URL that starts with `-`)
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,
}

/// The arguments of `urlspec completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// The arguments of `urlspec man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command (urlspec.1, urlspec-parse.1, …) into DIR
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// The values of `--fail-on`: the severities of [`Severity`], lowest
/// first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding
    Info,
    /// A low, medium or high finding
    Low,
    /// A medium or high finding
    #[default]
    Medium,
    /// A high finding only
    High,
}

impl From<FailOn> for Severity {
    fn from(value: FailOn) -> Severity {
        match value {
            FailOn::Info => Severity::Info,
            FailOn::Low => Severity::Low,
            FailOn::Medium => Severity::Medium,
            FailOn::High => Severity::High,
        }
    }
}

/// The arguments of `urlspec diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The base URL to resolve the input against ('' for none); without
    /// it, the input is parsed
    #[arg(short, long, value_name = "BASE", conflicts_with = "pairs")]
    pub base: Option<String>,

    /// The specs to compare: a comma-separated list of names, or all (every
    /// spec of this build)
    #[arg(
        long,
        value_name = "LIST",
        value_parser = SpecListParser,
        default_value = "all"
    )]
    pub specs: SpecList,

    /// Print JSON instead of text (with --batch, one object per line)
    #[arg(long)]
    pub json: bool,

    /// Read the inputs from standard input, one per line, and print only
    /// those on which the specs disagree, then a summary
    #[arg(long)]
    pub batch: bool,

    /// With --batch: read BASE<TAB>REFERENCE lines
    #[arg(long)]
    pub pairs: bool,

    /// With --batch: print only the disagreements on the scheme, user,
    /// password, host or port
    #[arg(long)]
    pub security_only: bool,

    /// The URL to compare (with --base, the reference); - reads one per
    /// line from standard input, as --batch does (put `--` before one that
    /// starts with `-`)
    #[arg(
        value_name = "INPUT",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub input: Option<String>,
}

/// The arguments of `urlspec extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The spec that decides what a scheme is, and resolves against --base
    #[arg(
        short,
        long,
        value_name = "SPEC",
        value_parser = SpecParser,
        default_value_t = Spec::default()
    )]
    pub spec: Spec,

    /// Resolve each URL found against this absolute URL
    #[arg(short, long, value_name = "BASE")]
    pub base: Option<String>,

    /// Also report references without a scheme: in <URL:...>, and quoted
    /// relative paths
    #[arg(long)]
    pub relative: bool,

    /// Report only delimited URLs (<URL:...>, <...>, quotes), not bare
    /// ones
    #[arg(long)]
    pub no_bare: bool,

    /// How to print the URLs
    #[arg(short, long, value_enum, value_name = "HOW", default_value_t)]
    pub output: ExtractOutput,

    /// Files to read (- for standard input); with none, standard input
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

impl ExtractArgs {
    /// The library's finder.
    pub fn finder(&self) -> Finder {
        Finder::new()
            .spec(self.spec)
            .bare(!self.no_bare)
            .relative(self.relative)
    }
}

/// The values of `--output` of `urlspec extract`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ExtractOutput {
    /// FILE:LINE:COLUMN, form, URL and flags, one line per URL
    #[default]
    Text,
    /// Tab-separated values, a header row first
    Tsv,
    /// One JSON object per URL (JSON Lines)
    Json,
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
/// (`rfc3986`, `RFC-3986`, `whatwg`, …) for a spec of this build
/// ([`SPECS`]), listed in `--help` with each spec's summary from
/// [`Spec::summary`], so the list follows the library.
///
/// [`Spec::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecParser;

/// The error for `text`, which is not the name of a spec of this build,
/// given to `arg` (named `default` when clap does not say): an unknown
/// name lists the names; a spec this build lacks says so.
fn spec_error(
    cmd: &clap::Command,
    arg: Option<&Arg>,
    default: &str,
    text: &str,
    extra: &[&str],
) -> clap::Error {
    let arg = arg.map_or_else(|| default.to_owned(), Arg::to_string);
    if let Ok(spec) = text.parse::<Spec>() {
        // Known, but not built in: say how to get it.
        let message = format!(
            "invalid value '{text}' for '{arg}': this urlspec was built \
             without the `{spec}` spec (cargo feature `{spec}`)\n"
        );
        return clap::Error::raw(ErrorKind::InvalidValue, message)
            .with_cmd(cmd);
    }
    let mut err = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
    err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
    err.insert(
        ContextKind::InvalidValue,
        ContextValue::String(text.to_owned()),
    );
    let names = SPECS.iter().map(|s| s.name()).chain(extra.iter().copied());
    err.insert(
        ContextKind::ValidValue,
        ContextValue::Strings(names.map(str::to_owned).collect()),
    );
    err
}

/// `text` as a spec of this build, if it is one.
fn spec_of_build(text: &str) -> Option<Spec> {
    text.parse::<Spec>().ok().filter(|s| s.is_available())
}

impl TypedValueParser for SpecParser {
    type Value = Spec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Spec, clap::Error> {
        let text = value.to_string_lossy();
        spec_of_build(&text)
            .ok_or_else(|| spec_error(cmd, arg, "--spec", &text, &[]))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            SPECS
                .into_iter()
                .map(|s| PossibleValue::new(s.name()).help(s.summary())),
        ))
    }
}

/// The specs of `urlspec diff --specs`, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecList(pub Vec<Spec>);

/// The value parser of `--specs`: a comma-separated list of spec names
/// (each as `--spec` takes it), or `all` for every spec of this build
/// ([`SPECS`]); at least two distinct specs. A name given twice counts
/// once, where it first appears.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecListParser;

impl TypedValueParser for SpecListParser {
    type Value = SpecList;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<SpecList, clap::Error> {
        let text = value.to_string_lossy();
        let mut specs: Vec<Spec> = Vec::new();
        for name in text.split(',').map(str::trim) {
            let found: Vec<Spec> = if name.eq_ignore_ascii_case("all") {
                SPECS.to_vec()
            } else {
                let spec = spec_of_build(name).ok_or_else(|| {
                    spec_error(cmd, arg, "--specs", name, &["all"])
                })?;
                vec![spec]
            };
            for spec in found {
                if !specs.contains(&spec) {
                    specs.push(spec);
                }
            }
        }
        if specs.len() < 2 {
            let arg = arg.map_or_else(|| "--specs".to_owned(), Arg::to_string);
            let message = format!(
                "invalid value '{text}' for '{arg}': a comparison needs two \
                 specs or more (a comma-separated list, or all)\n"
            );
            return Err(clap::Error::raw(ErrorKind::InvalidValue, message)
                .with_cmd(cmd));
        }
        Ok(SpecList(specs))
    }
}

/// The value parser of `--level`: any name [`Level::from_str`] accepts
/// (`percent-encoding`, `PercentEncoding`, `percent_encoding`, …), listed
/// in `--help` from [`Level::ALL`] with what each rung adds.
///
/// [`Level::from_str`]: std::str::FromStr::from_str
#[derive(Clone, Copy, Debug, Default)]
pub struct LevelParser;

/// What each rung of the ladder adds to the ones below it, for `--help`.
pub fn level_summary(level: Level) -> &'static str {
    match level {
        Level::String => {
            "compares the input as it is, less the fragment (section 6.2.1)"
        }
        Level::Case => {
            "lower-cases the scheme, upper-cases the hex digits of escapes, \
             folds the host where the spec says so, drops an empty `;`, `?` \
             or `#` where the spec makes it absent (6.2.2.1)"
        }
        Level::PercentEncoding => {
            "decodes the escapes of characters the spec lets stand \
             unescaped; escapes the raw characters it requires escaped \
             (6.2.2.2)"
        }
        Level::PathSegment => {
            "rfc3986 only: removes dot-segments from the path of every URL \
             with a scheme, rooted or not, as resolving it would (6.2.2.3); \
             a relative reference keeps them"
        }
        Level::Scheme => {
            "drops an empty port and the scheme's default port, and writes \
             any other port by its value (:08080 as :8080); rfc3986 also \
             turns an empty path after an authority into `/` and folds a \
             mailto domain to lower case (6.2.3)"
        }
    }
}

impl TypedValueParser for LevelParser {
    type Value = Level;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Level, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Level>().map_err(|_| {
            let mut err =
                clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            let arg = arg.map_or_else(|| "--level".to_owned(), Arg::to_string);
            err.insert(ContextKind::InvalidArg, ContextValue::String(arg));
            err.insert(
                ContextKind::InvalidValue,
                ContextValue::String(text.into_owned()),
            );
            err.insert(
                ContextKind::ValidValue,
                ContextValue::Strings(
                    Level::ALL.iter().map(|l| l.name().to_owned()).collect(),
                ),
            );
            err
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Level::ALL
                .into_iter()
                .map(|l| PossibleValue::new(l.name()).help(level_summary(l))),
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
    fn equiv_options_map_onto_the_library() {
        let cli = Cli::try_parse_from(["urlspec", "equiv", "a", "b"]).unwrap();
        let Command::Equiv(args) = cli.command else { panic!() };
        assert_eq!((args.a.as_str(), args.b.as_str()), ("a", "b"));
        let want = equiv::Options::default().level(Level::Scheme);
        assert_eq!(args.options.to_options(), want);
        let cli = Cli::try_parse_from([
            "urlspec",
            "normalize",
            "--level",
            "Percent_Encoding",
            "--include-fragment",
            "--no-default-port",
            "--host-case",
        ])
        .unwrap();
        let Command::Normalize(args) = cli.command else { panic!() };
        let want = equiv::Options::default()
            .level(Level::PercentEncoding)
            .include_fragment(true)
            .default_port(false)
            .host_case(true);
        assert_eq!(args.options.to_options(), want);
        assert!(args.urls.is_empty());
        let bad = ["urlspec", "normalize", "--level", "bytes"];
        assert!(Cli::try_parse_from(bad).is_err());
    }

    #[test]
    fn level_parser_lists_every_level() {
        let names: Vec<String> = LevelParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names, want);
    }

    #[test]
    fn check_fails_on_medium_by_default() {
        let cli = Cli::try_parse_from(["urlspec", "check"]).unwrap();
        let Command::Check(args) = cli.command else { panic!() };
        assert_eq!(Severity::from(args.fail_on), Severity::Medium);
        for (name, severity) in [
            ("info", Severity::Info),
            ("low", Severity::Low),
            ("high", Severity::High),
        ] {
            let cli =
                Cli::try_parse_from(["urlspec", "check", "--fail-on", name])
                    .unwrap();
            let Command::Check(args) = cli.command else { panic!() };
            assert_eq!(Severity::from(args.fail_on), severity);
        }
        let long = check_long_about();
        assert!(RULES.iter().all(|r| long.contains(r.code)));
    }

    #[test]
    fn extract_flags_build_the_finder() {
        let cli = Cli::try_parse_from(["urlspec", "extract"]).unwrap();
        let Command::Extract(args) = cli.command else { panic!() };
        assert_eq!(args.finder(), Finder::new());
        assert_eq!(args.output, ExtractOutput::Text);
        let cli = Cli::try_parse_from([
            "urlspec",
            "extract",
            "--no-bare",
            "--relative",
            "-s",
            "rfc3986",
            "-",
        ])
        .unwrap();
        let Command::Extract(args) = cli.command else { panic!() };
        let want =
            Finder::new().bare(false).relative(true).spec(Spec::Rfc3986);
        assert_eq!(args.finder(), want);
        assert_eq!(args.files, ["-"]);
    }

    #[test]
    fn spec_list_has_every_spec() {
        let list = spec_list();
        for spec in SPECS {
            assert!(list.contains(spec.name()));
            assert!(list.contains(spec.summary()));
        }
        assert_eq!(list.lines().count(), SPECS.len());
    }

    #[test]
    fn specs_are_every_spec_of_the_build() {
        let want: Vec<Spec> =
            Spec::EVERY.into_iter().filter(|s| s.is_available()).collect();
        assert_eq!(SPECS.to_vec(), want);
        assert_eq!(SPECS.contains(&Spec::Whatwg), cfg!(feature = "whatwg"));
        let names: Vec<String> = SpecParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_owned())
            .collect();
        let want: Vec<&str> = SPECS.iter().map(|s| s.name()).collect();
        assert_eq!(names, want);
    }

    fn diff_args(args: &[&str]) -> Result<DiffArgs, clap::Error> {
        let cli = Cli::try_parse_from(
            ["urlspec", "diff"].iter().chain(args).copied(),
        )?;
        match cli.command {
            Command::Diff(args) => Ok(args),
            other => panic!("not diff: {other:?}"),
        }
    }

    #[test]
    fn diff_specs_list_all_or_names() {
        let args = diff_args(&["x"]).unwrap();
        assert_eq!(args.specs.0, SPECS);
        assert_eq!(args.input.as_deref(), Some("x"));
        let args =
            diff_args(&["--specs", "RFC-3986, rfc1808,rfc3986", "x"]).unwrap();
        assert_eq!(args.specs.0, [Spec::Rfc3986, Spec::Rfc1808]);
        let args = diff_args(&["--specs", "rfc2396,all", "x"]).unwrap();
        assert_eq!(args.specs.0[0], Spec::Rfc2396);
        assert_eq!(args.specs.0.len(), SPECS.len());
        for bad in ["rfc1808", "rfc1808,rfc1808", "rfc1808,nope", ""] {
            assert!(diff_args(&["--specs", bad, "x"]).is_err(), "{bad}");
        }
    }

    #[test]
    fn diff_needs_an_input_or_batch_but_not_both() {
        assert!(diff_args(&[]).is_err());
        assert!(diff_args(&["--batch", "x"]).is_err());
        assert!(diff_args(&["--pairs"]).is_err());
        // Refused by the command, which sees whether INPUT is `-`.
        assert!(diff_args(&["--security-only", "x"]).is_ok());
        assert!(diff_args(&["--batch", "--pairs", "--base", "h:"]).is_err());
        let args =
            diff_args(&["--batch", "--pairs", "--security-only"]).unwrap();
        assert!(args.batch && args.pairs && args.security_only);
        let args = diff_args(&["--base", "", ""]).unwrap();
        assert_eq!(
            (args.base.as_deref(), args.input.as_deref()),
            (Some(""), Some(""))
        );
    }
}
