//! `urlspec resolve`: resolve references against a base URL, compare the
//! specs' answers, or find the relative form of a URL.
//!
//! Every input is a base and a reference: one `--base` with the arguments
//! or standard input lines, or `--pairs` lines of `BASE<TAB>REFERENCE`. The
//! driver ([`drive`], [`drive_pairs`]) reads them; a [`Mode`] answers each
//! one with exactly one record, an error record in place of an input that
//! cannot be answered, so the output lines up with the input.
//!
//! A mode [prepares](Mode::prepare) each base once (into [`Resolver`]s;
//! under one spec the library's [`PairResolver`] does it, only when a
//! second reference comes against the base) and answers every reference
//! against it; `--pairs` prepares again only when the base differs from
//! the previous line's.

use std::borrow::Cow;
use std::fmt::Display;
use std::fs::File;
use std::io::{self, Read, Write};

use clap::{Args, ValueEnum};
use urlspec::resolve::{
    make_relative, DotDotAboveRoot, Options, Outcome, PairResolver,
    ResolveError, Resolver, Rfc1630Dots, RootlessDots,
};
use urlspec::{Reference, Spec};

use super::Status;
use crate::args::{help_of, JsonArg, SpecArg, SPECS};
use crate::output::{
    self, BadLine, BlockReader, Error, JsonObject, Origin, Output, RecordWrite,
};

/// The long description of `urlspec resolve`.
const LONG_ABOUT: &str = "\
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
at all. With --pairs, the REF arguments are files (- for standard input,
which is also read when there are none) whose every line is
BASE<TAB>REFERENCE (split at the first TAB; an empty BASE is no base);
consecutive lines with the same base reuse the parsed base, so input grouped
by base is fastest. An error in a file names it by its argument and line
(argument 2, line 7).

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
const EXAMPLES: &str = "\
Examples:
  # One reference, as RFC 1808 (the default) resolves it: http://a/../g
  urlspec resolve --base 'http://a/b/c/d;p?q' '../../../g'

  # The same under RFC 3986, which removes `..` above the root: http://a/g
  urlspec resolve --spec rfc3986 --base 'http://a/b/c/d;p?q' '../../../g'

  # References from standard input, one per line
  urlspec resolve --spec rfc3986 --base https://example.com/docs/ < hrefs.txt

  # A TSV file of BASE<TAB>REFERENCE lines; put each answer beside its pair
  urlspec resolve --pairs --spec rfc3986 pairs.tsv > resolved.txt
  paste pairs.tsv resolved.txt

  # Every spec at once; `*` marks answers that differ from rfc1808's
  urlspec resolve --all-specs --base 'http://a/b/c/d;p?q' ';x' '?y'

  # The other way: the shortest reference from the base to a target (../g)
  urlspec resolve --relative --base 'http://a/b/c/d;p?q' http://a/b/g

  # JSON Lines: the pairs that failed, and why
  urlspec resolve --pairs --json < pairs.tsv | jq -c 'select(.error) | {base, reference, kind: .error.kind}'

  # The pairs on which RFC 2396 and RFC 3986 disagree
  urlspec resolve --pairs --all-specs --json < pairs.tsv | jq -c 'select(.rfc2396.result != .rfc3986.result) | [.reference, .rfc2396.result, .rfc3986.result]'";

/// The arguments of `urlspec resolve`.
#[derive(Debug, Args)]
#[command(
    about = "Resolve references against a base URL, compare the \
             specs' answers, or find the relative form of a URL",
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    mut_args(help_of("spec",
        "The spec to resolve under; with --all-specs, the one the others \
         are compared with"
    )),
    mut_args(help_of("json",
        "Print one JSON object per input (JSON Lines) instead of text"
    ))
)]
pub struct ResolveArgs {
    /// `--spec`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub spec: SpecArg,

    /// The base URL to resolve against ('' for none)
    #[arg(
        short,
        long,
        value_name = "BASE",
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub base: Option<String>,

    /// Read BASE<TAB>REFERENCE lines instead of taking one --base: from
    /// the files given as REF arguments (- for standard input), or from
    /// standard input when there are none
    #[arg(long)]
    pub pairs: bool,

    /// `--json`, worded for this command by the `mut_args` above
    #[command(flatten)]
    pub json: JsonArg,

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

/// The number of specs: one resolver, answer and row each with
/// `--all-specs`, one for each spec of this build ([`SPECS`]).
const SPEC_COUNT: usize = SPECS.len();

/// Resolves every input of `args`, printing one record each.
pub fn run(args: &ResolveArgs) -> Result<Status, Error> {
    let mut out = Output::stdout();
    let all_ok = if args.relative {
        drive(
            &mut Relative::new(args.spec.value, args.json.on),
            args,
            &mut out,
        )
    } else if args.all_specs {
        let mode = AllSpecs::new(
            args.spec.value,
            args.options.to_options(),
            args.json.on,
        );
        drive(&mut mode.show_base(args.pairs), args, &mut out)
    } else {
        let options = args.options.to_options();
        drive(
            &mut Single::new(args.spec.value, options, args.json.on),
            args,
            &mut out,
        )
    }?;
    out.finish().map_err(Error::Write)?;
    Ok(Status::from_valid(all_ok))
}

/// What `urlspec resolve` does with each base and reference: resolve under
/// one spec, under all, or find the relative form.
pub trait Mode {
    /// What the mode makes of a base once, to answer many references
    /// against it (parsed [`Resolver`]s, which borrow the base, or nothing
    /// when the mode's [`PairResolver`] keeps it).
    type Prepared<'b>;

    /// Prepares `base` ("" for no base).
    fn prepare<'b>(&self, base: &'b str) -> Self::Prepared<'b>;

    /// Writes the record for `reference` against `base`, which `prepared`
    /// was made from. Returns whether it is an answer (not an error).
    fn answer(
        &mut self,
        out: &mut impl Write,
        prepared: &Self::Prepared<'_>,
        origin: Origin,
        base: &str,
        reference: &str,
    ) -> io::Result<bool>;

    /// Writes what the mode holds back (see [`Single`]). The drivers call
    /// it before ending a record on a terminal, at the end of each block
    /// of `--pairs` input and at the end.
    fn flush(&mut self, _out: &mut impl Write) -> io::Result<()> {
        Ok(())
    }

    /// Writes the error record for an input line that holds no reference:
    /// `base` is what could be read of the base.
    fn bad_line(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        base: Option<&str>,
        bad: BadLine,
    ) -> io::Result<()>;
}

/// Ends one record: hands over what `mode` holds back first when `out`
/// shows each record at once.
fn end_record<M: Mode>(
    mode: &mut M,
    out: &mut impl RecordWrite,
) -> io::Result<()> {
    if out.interactive() {
        mode.flush(out)?;
    }
    out.end_record()
}

/// Answers every input of `args` with `mode`: the references (arguments or
/// standard input) against `--base`, or the `--pairs` lines. Returns
/// whether every record was an answer.
pub fn drive<M: Mode>(
    mode: &mut M,
    args: &ResolveArgs,
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    if args.pairs {
        return drive_pair_files(mode, &args.references, out);
    }
    let base = args.base.as_deref().unwrap_or_default();
    let prepared = mode.prepare(base);
    let mut all_ok = true;
    output::for_each_input_or_error(&args.references, |origin, text| {
        match text {
            Ok(reference) => {
                all_ok &=
                    mode.answer(out, &prepared, origin, base, reference)?;
            }
            Err(not_utf8) => {
                all_ok = false;
                let bad = BadLine::NotUtf8(not_utf8);
                mode.bad_line(out, origin, Some(base), bad)?;
            }
        }
        end_record(mode, out)
    })?;
    mode.flush(out).map_err(Error::Write)?;
    Ok(all_ok)
}

/// Answers every `BASE<TAB>REFERENCE` line of `input` with `mode`, read in
/// blocks of `block` bytes (small ones in tests, so that lines straddle
/// them).
#[cfg(test)]
fn drive_pairs<M: Mode>(
    mode: &mut M,
    input: impl Read,
    block: usize,
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    let lines = BlockReader::with_block_size(input, block);
    drive_pairs_from(mode, lines, Origin::Line, out)
}

/// Answers the `BASE<TAB>REFERENCE` lines of each file of `paths` in turn
/// (`-`, or no path at all, is standard input).
fn drive_pair_files<M: Mode>(
    mode: &mut M,
    paths: &[String],
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    if paths.is_empty() {
        return drive_pairs_from(
            mode,
            output::stdin_blocks(),
            Origin::Line,
            out,
        );
    }
    let mut all_ok = true;
    for (n, path) in (1..).zip(paths) {
        all_ok &= if path == output::STDIN {
            drive_pairs_from(mode, output::stdin_blocks(), Origin::Line, out)?
        } else {
            // A file that cannot be read is a usage error (exit 2), named.
            let unreadable =
                |err| Error::Usage(format!("reading {path}: {err}"));
            let file = File::open(path).map_err(unreadable)?;
            let at = |line| Origin::FileLine(n, line);
            drive_pairs_from(mode, BlockReader::new(file), at, out).map_err(
                |err| match err {
                    Error::Read(err) => unreadable(err),
                    other => other,
                },
            )?
        };
    }
    Ok(all_ok)
}

/// Answers every `BASE<TAB>REFERENCE` line of `lines` with `mode`, `origin`
/// naming each line by its number. The base
/// is prepared again only when it differs from the previous line's. The
/// prepared base borrows the block its line is in, so no base is copied
/// line by line; when a block ends, one owned copy of the last base is
/// kept (and prepared again) for the lines of the next block.
fn drive_pairs_from<M: Mode>(
    mode: &mut M,
    mut lines: BlockReader<impl Read>,
    origin_of: impl Fn(u64) -> Origin,
    out: &mut impl RecordWrite,
) -> Result<bool, Error> {
    let mut kept = String::new();
    let mut all_ok = true;
    while let Some(mut block) = lines.next_block().map_err(Error::Read)? {
        let mut base: &str = &kept;
        let mut prepared = mode.prepare(base);
        while let Some((number, split)) = block.next_split() {
            let origin = origin_of(number);
            let (line_base, reference) = match split {
                Ok((line_base, Some(reference))) => (line_base, reference),
                Ok((text, None)) => {
                    all_ok = false;
                    let bad = BadLine::MissingTab;
                    mode.bad_line(out, origin, Some(text), bad)
                        .map_err(Error::Write)?;
                    end_record(mode, out).map_err(Error::Write)?;
                    continue;
                }
                Err(not_utf8) => {
                    all_ok = false;
                    let bad = BadLine::NotUtf8(not_utf8);
                    mode.bad_line(out, origin, None, bad)
                        .map_err(Error::Write)?;
                    end_record(mode, out).map_err(Error::Write)?;
                    continue;
                }
            };
            if line_base != base {
                base = line_base;
                prepared = mode.prepare(base);
            }
            all_ok &= mode
                .answer(out, &prepared, origin, base, reference)
                .map_err(Error::Write)?;
            end_record(mode, out).map_err(Error::Write)?;
        }
        mode.flush(out).map_err(Error::Write)?;
        if !std::ptr::eq(base, kept.as_str()) {
            let base = base.to_owned();
            drop(prepared);
            kept = base;
        }
    }
    Ok(all_ok)
}

/// Writes the text record of an error: `error: <kind>: <message>`, and the
/// same with where it came from on standard error.
fn write_error(
    out: &mut impl Write,
    origin: Origin,
    kind: &str,
    message: &dyn Display,
) -> io::Result<()> {
    writeln!(out, "error: {kind}: {message}")?;
    let _ =
        writeln!(io::stderr().lock(), "urlspec: {origin}: {kind}: {message}");
    Ok(())
}

/// The members `result`, `same_document`, `error`, `taken_as_absolute`
/// and `note` of a resolution's JSON: `result` is `href` when `answer` is
/// `Ok`; `note` is `null` or `{kind, message}` when the result reads back
/// with other components (library `Note`).
fn answer_members(
    o: &mut JsonObject<'_>,
    href: &str,
    answer: &Result<Outcome, ResolveError>,
) {
    match answer {
        Ok(outcome) => {
            o.string("result", href)
                .boolean("same_document", outcome.same_document)
                .null("error")
                .boolean("taken_as_absolute", outcome.taken_as_absolute);
            match outcome.note {
                Some(note) => o.object("note", |n| {
                    n.string("kind", note.kind())
                        .string("message", &note.to_string());
                }),
                None => o.null("note"),
            };
        }
        Err(err) => {
            error_members(o, err.kind(), &err.to_string());
        }
    }
}

/// The members `result`, `same_document`, `error`, `taken_as_absolute` and
/// `note` of an error's JSON.
fn error_members(o: &mut JsonObject<'_>, kind: &str, message: &str) {
    o.null("result")
        .boolean("same_document", false)
        .object("error", |e| {
            e.string("kind", kind).string("message", message);
        })
        .boolean("taken_as_absolute", false)
        .null("note");
}

/// How many bytes of text records [`Single`] holds back before it writes
/// them out: as much as the buffer of [`Output`], so that a full piece
/// goes to standard output without being copied into that buffer.
const PENDING: usize = 64 * 1024;

/// Resolution under one spec: one line per reference, the absolute URL.
///
/// As text, the results are resolved straight into one buffer of lines
/// (`pending`) that is written out in large pieces: when it holds
/// [`PENDING`] bytes, before an error record, and when the driver
/// [flushes](Mode::flush) the mode.
pub struct Single {
    /// Resolves, preparing a base when a second reference comes against
    /// it. In `--pairs` input most bases come once, where the one-shot
    /// resolution is cheaper than a parse of the whole base (779
    /// instructions per pair on relative-pairs against 1,107 with a
    /// `Resolver` each; BENCHMARKS.md).
    pairs: PairResolver,
    spec: Spec,
    json: bool,
    /// The result as JSON, one buffer reused for every reference.
    href: String,
    /// Text records not written out yet.
    pending: String,
    /// The JSON line, one buffer reused for every reference.
    line: Vec<u8>,
}

impl Single {
    /// Resolves under `spec` with `options`, as text or JSON.
    pub fn new(spec: Spec, options: Options, json: bool) -> Single {
        Single {
            pairs: PairResolver::new(spec, options),
            spec,
            json,
            href: String::with_capacity(256),
            pending: String::with_capacity(PENDING + 1024),
            line: Vec::with_capacity(512),
        }
    }

    /// Writes the JSON line of one input.
    fn write_json(
        &mut self,
        out: &mut impl Write,
        base: Option<&str>,
        reference: Option<&str>,
        answer: Result<&Result<Outcome, ResolveError>, BadLine>,
    ) -> io::Result<()> {
        self.line.clear();
        let mut o = JsonObject::new(&mut self.line);
        o.optional("base", base)
            .optional("reference", reference)
            .string("spec", self.spec.name());
        match answer {
            Ok(answer) => answer_members(&mut o, &self.href, answer),
            Err(bad) => error_members(&mut o, bad.kind(), &bad.to_string()),
        }
        o.finish();
        self.line.push(b'\n');
        out.write_all(&self.line)
    }
}

impl Mode for Single {
    /// Nothing: [`Single::pairs`] keeps the base.
    type Prepared<'b> = ();

    fn prepare(&self, _base: &str) {}

    fn answer(
        &mut self,
        out: &mut impl Write,
        (): &(),
        origin: Origin,
        base: &str,
        reference: &str,
    ) -> io::Result<bool> {
        let pairs = &mut self.pairs;
        if self.json {
            self.href.clear();
            let href = &mut self.href;
            let answer =
                output::isolate(|| pairs.resolve_into(base, reference, href));
            let ok = matches!(answer, Ok(Ok(_)));
            let answer = answer.as_ref().map_err(Clone::clone);
            self.write_json(out, Some(base), Some(reference), answer)?;
            return Ok(ok);
        }
        let kept = self.pending.len();
        let pending = &mut self.pending;
        let answer =
            output::isolate(|| pairs.resolve_into(base, reference, pending));
        let answer = match answer {
            Ok(answer) => answer,
            Err(bad) => {
                self.pending.truncate(kept);
                self.flush(out)?;
                write_error(out, origin, bad.kind(), &bad)?;
                return Ok(false);
            }
        };
        match answer {
            Ok(_) => {
                self.pending.push('\n');
                if self.pending.len() >= PENDING {
                    self.flush(out)?;
                }
                Ok(true)
            }
            Err(err) => {
                self.flush(out)?;
                write_error(out, origin, err.kind(), &err)?;
                Ok(false)
            }
        }
    }

    fn flush(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.pending.is_empty() {
            out.write_all(self.pending.as_bytes())?;
            self.pending.clear();
        }
        Ok(())
    }

    fn bad_line(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        base: Option<&str>,
        bad: BadLine,
    ) -> io::Result<()> {
        if self.json {
            self.write_json(out, base, None, Err(bad))
        } else {
            self.flush(out)?;
            write_error(out, origin, bad.kind(), &bad)
        }
    }
}

/// Resolution under every spec, compared with one of them.
pub struct AllSpecs {
    /// The index in [`SPECS`] of the spec the others are compared with.
    selected: usize,
    options: Options,
    json: bool,
    /// Whether a text record names the base (it varies with `--pairs`).
    show_base: bool,
    /// Whether no record has been written yet (text records are separated
    /// by a blank line).
    first: bool,
    /// The results, one reused buffer per spec.
    hrefs: [String; SPEC_COUNT],
    /// The answers, one per spec.
    answers: [Result<Outcome, ResolveError>; SPEC_COUNT],
    /// The JSON line, one buffer reused for every reference.
    line: Vec<u8>,
}

impl AllSpecs {
    /// Resolves under every spec with `options`, comparing with `selected`.
    pub fn new(selected: Spec, options: Options, json: bool) -> AllSpecs {
        AllSpecs {
            selected: SPECS.iter().position(|&s| s == selected).unwrap_or(0),
            options,
            json,
            show_base: false,
            first: true,
            hrefs: std::array::from_fn(|_| String::with_capacity(256)),
            answers: std::array::from_fn(|_| Ok(Outcome::default())),
            line: Vec::with_capacity(2048),
        }
    }

    /// Names the base in each text record (for `--pairs`, where it varies).
    pub fn show_base(mut self, on: bool) -> AllSpecs {
        self.show_base = on;
        self
    }

    /// Whether the answer under `SPECS[i]` differs from the selected
    /// spec's: another result, an error instead of a result or the other way
    /// round, or an error of another kind.
    fn differs(&self, i: usize) -> bool {
        let s = self.selected;
        match (&self.answers[i], &self.answers[s]) {
            (Ok(_), Ok(_)) => self.hrefs[i] != self.hrefs[s],
            (Err(a), Err(b)) => a.kind() != b.kind(),
            _ => true,
        }
    }

    /// Starts a text record: a blank line after the previous one, then
    /// `header`.
    fn start_record(
        &mut self,
        out: &mut impl Write,
        header: &dyn Display,
    ) -> io::Result<()> {
        if !self.first {
            out.write_all(b"\n")?;
        }
        self.first = false;
        writeln!(out, "{header}")
    }
}

/// The width of the spec names in `--all-specs` rows.
const NAME_WIDTH: usize = {
    let mut width = 0;
    let mut i = 0;
    while i < SPEC_COUNT {
        let len = SPECS[i].name().len();
        if len > width {
            width = len;
        }
        i += 1;
    }
    width
};

/// A reference or base as a text header shows it: `""` when empty, control
/// characters made visible.
fn shown(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        Cow::Borrowed("\"\"")
    } else {
        output::visible(text)
    }
}

impl Mode for AllSpecs {
    type Prepared<'b> = [Resolver<'b>; SPEC_COUNT];

    fn prepare<'b>(&self, base: &'b str) -> [Resolver<'b>; SPEC_COUNT] {
        SPECS.map(|spec| Resolver::with_options(base, spec, self.options))
    }

    fn answer(
        &mut self,
        out: &mut impl Write,
        resolvers: &[Resolver<'_>; SPEC_COUNT],
        origin: Origin,
        base: &str,
        reference: &str,
    ) -> io::Result<bool> {
        let (hrefs, answers) = (&mut self.hrefs, &mut self.answers);
        let resolved = output::isolate(|| {
            for ((resolver, href), answer) in
                resolvers.iter().zip(hrefs).zip(answers)
            {
                href.clear();
                *answer = resolver.resolve_into(reference, href);
            }
        });
        if let Err(bad) = resolved {
            self.write_bad(out, origin, Some(base), Some(reference), &bad)?;
            return Ok(false);
        }
        let all_ok = self.answers.iter().all(Result::is_ok);

        if self.json {
            self.line.clear();
            let mut o = JsonObject::new(&mut self.line);
            o.string("base", base).string("reference", reference);
            for ((spec, href), answer) in
                SPECS.iter().zip(&self.hrefs).zip(&self.answers)
            {
                o.object(spec.name(), |o| answer_members(o, href, answer));
            }
            o.finish();
            self.line.push(b'\n');
            out.write_all(&self.line)?;
            return Ok(all_ok);
        }

        if self.show_base {
            let header =
                format!("{} against {}", shown(reference), shown(base));
            self.start_record(out, &header)?;
        } else {
            self.start_record(out, &shown(reference))?;
        }
        for (i, spec) in SPECS.iter().enumerate() {
            let mark = if self.differs(i) { '*' } else { ' ' };
            let name = spec.name();
            write!(out, "{mark} {name:NAME_WIDTH$}  ")?;
            match &self.answers[i] {
                Ok(_) => writeln!(out, "{}", output::visible(&self.hrefs[i]))?,
                Err(err) => writeln!(out, "error: {}: {err}", err.kind())?,
            }
        }
        Ok(all_ok)
    }

    fn bad_line(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        base: Option<&str>,
        bad: BadLine,
    ) -> io::Result<()> {
        self.write_bad(out, origin, base, None, &bad)
    }
}

impl AllSpecs {
    /// Writes the record of an input without answers: the same error under
    /// every spec. A text record is headed by the reference, or by where
    /// the line was when it holds none.
    fn write_bad(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        base: Option<&str>,
        reference: Option<&str>,
        bad: &BadLine,
    ) -> io::Result<()> {
        if self.json {
            self.line.clear();
            let message = bad.to_string();
            let mut o = JsonObject::new(&mut self.line);
            o.optional("base", base).optional("reference", reference);
            for spec in SPECS {
                o.object(spec.name(), |o| {
                    error_members(o, bad.kind(), &message);
                });
            }
            o.finish();
            self.line.push(b'\n');
            return out.write_all(&self.line);
        }
        match reference {
            Some(reference) => self.start_record(out, &shown(reference))?,
            None => self.start_record(out, &origin)?,
        }
        write_error(out, origin, bad.kind(), bad)
    }
}

/// The inverse: the shortest reference from the base to each target.
pub struct Relative {
    spec: Spec,
    json: bool,
    /// The JSON line, one buffer reused for every target.
    line: Vec<u8>,
}

impl Relative {
    /// Finds relative forms under `spec`, as text or JSON.
    pub fn new(spec: Spec, json: bool) -> Relative {
        Relative { spec, json, line: Vec::with_capacity(512) }
    }

    /// Why `target` has no relative form against `base`.
    fn why_none(&self, base: &str, target: &str) -> Cow<'static, str> {
        let has_scheme =
            |url| Reference::parse_with(url, self.spec).has_scheme();
        if base.is_empty() {
            Cow::Borrowed("there is no base URL")
        } else if !has_scheme(base) {
            Cow::Borrowed("the base URL has no scheme")
        } else if !has_scheme(target) {
            Cow::Borrowed(
                "the target has no scheme: it is not an absolute URL",
            )
        } else {
            Cow::Owned(format!(
                "no reference resolves against the base to exactly the \
                 target under {}",
                self.spec
            ))
        }
    }

    /// Writes the JSON line of one target.
    fn write_json(
        &mut self,
        out: &mut impl Write,
        base: Option<&str>,
        target: Option<&str>,
        answer: Result<&str, (&str, &str)>,
    ) -> io::Result<()> {
        self.line.clear();
        let mut o = JsonObject::new(&mut self.line);
        o.optional("base", base)
            .optional("target", target)
            .string("spec", self.spec.name());
        match answer {
            Ok(relative) => {
                o.string("result", relative).null("error");
            }
            Err((kind, message)) => {
                o.null("result").object("error", |e| {
                    e.string("kind", kind).string("message", message);
                });
            }
        }
        o.finish();
        self.line.push(b'\n');
        out.write_all(&self.line)
    }
}

impl Mode for Relative {
    type Prepared<'b> = ();

    fn prepare(&self, _base: &str) {}

    fn answer(
        &mut self,
        out: &mut impl Write,
        _prepared: &(),
        origin: Origin,
        base: &str,
        target: &str,
    ) -> io::Result<bool> {
        let relative =
            match output::isolate(|| make_relative(base, target, self.spec)) {
                Ok(relative) => relative,
                Err(bad) => {
                    if self.json {
                        let message = bad.to_string();
                        let error = Err((bad.kind(), message.as_str()));
                        self.write_json(out, Some(base), Some(target), error)?;
                    } else {
                        write_error(out, origin, bad.kind(), &bad)?;
                    }
                    return Ok(false);
                }
            };
        match (&relative, self.json) {
            (Some(relative), false) => writeln!(out, "{relative}")?,
            (Some(relative), true) => {
                self.write_json(out, Some(base), Some(target), Ok(relative))?;
            }
            (None, false) => {
                writeln!(out, "error: no relative form")?;
                let why = self.why_none(base, target);
                let _ = writeln!(
                    io::stderr().lock(),
                    "urlspec: {origin}: no relative form: {why}"
                );
            }
            (None, true) => {
                let why = self.why_none(base, target);
                let message = format!("no relative form: {why}");
                let error = ("NoRelativeForm", message.as_str());
                self.write_json(out, Some(base), Some(target), Err(error))?;
            }
        }
        Ok(relative.is_some())
    }

    fn bad_line(
        &mut self,
        out: &mut impl Write,
        origin: Origin,
        base: Option<&str>,
        bad: BadLine,
    ) -> io::Result<()> {
        if self.json {
            let message = bad.to_string();
            self.write_json(out, base, None, Err((bad.kind(), &message)))
        } else {
            write_error(out, origin, bad.kind(), &bad)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::subcommand_args;

    /// A mode that answers with the base and reference it was given, and
    /// notes each run of lines with the same base.
    struct Echo {
        runs: Vec<String>,
    }

    impl Mode for Echo {
        type Prepared<'b> = &'b str;

        fn prepare<'b>(&self, base: &'b str) -> &'b str {
            base
        }

        fn answer(
            &mut self,
            out: &mut impl Write,
            prepared: &&str,
            _origin: Origin,
            base: &str,
            reference: &str,
        ) -> io::Result<bool> {
            assert_eq!(*prepared, base);
            if self.runs.last().map(String::as_str) != Some(base) {
                self.runs.push(base.to_owned());
            }
            writeln!(out, "{base}|{reference}")?;
            Ok(true)
        }

        fn bad_line(
            &mut self,
            out: &mut impl Write,
            origin: Origin,
            _base: Option<&str>,
            bad: BadLine,
        ) -> io::Result<()> {
            writeln!(out, "{origin}: {}", bad.kind())
        }
    }

    fn pairs<M: Mode>(mode: &mut M, input: &[u8]) -> (String, bool) {
        pairs_in_blocks(mode, input, BLOCK_FOR_TESTS)
    }

    /// One block for the inputs of these tests.
    const BLOCK_FOR_TESTS: usize = 1 << 16;

    fn pairs_in_blocks<M: Mode>(
        mode: &mut M,
        input: &[u8],
        block: usize,
    ) -> (String, bool) {
        let mut out = Vec::new();
        let ok = drive_pairs(mode, input, block, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), ok)
    }

    /// A mode that counts how often [`Mode::prepare`] runs, wrapping
    /// [`Single`].
    struct PrepareCount {
        inner: Single,
        count: std::cell::Cell<usize>,
    }

    impl Mode for PrepareCount {
        type Prepared<'b> = ();

        fn prepare(&self, base: &str) {
            self.count.set(self.count.get() + 1);
            self.inner.prepare(base)
        }

        fn answer(
            &mut self,
            out: &mut impl Write,
            prepared: &(),
            origin: Origin,
            base: &str,
            reference: &str,
        ) -> io::Result<bool> {
            self.inner.answer(out, prepared, origin, base, reference)
        }

        fn flush(&mut self, out: &mut impl Write) -> io::Result<()> {
            self.inner.flush(out)
        }

        fn bad_line(
            &mut self,
            out: &mut impl Write,
            origin: Origin,
            base: Option<&str>,
            bad: BadLine,
        ) -> io::Result<()> {
            self.inner.bad_line(out, origin, base, bad)
        }
    }

    #[test]
    fn pairs_prepare_a_base_once_per_run() {
        let input = "http://a/b/c/d;p?q\tg\n\
                     http://a/b/c/d;p?q\t../../../g\n\
                     http://a/b/c/d;p?q\t?y\n\
                     http://x/y/\tz\n\
                     no tab here\n\
                     http://x/y/\t../z\n\
                     http://a/b/c/d;p?q\tg\n";
        let mut mode = PrepareCount {
            inner: Single::new(Spec::Rfc3986, Options::default(), false),
            count: std::cell::Cell::new(0),
        };
        let (text, ok) = pairs(&mut mode, input.as_bytes());
        assert!(!ok);
        assert_eq!(
            text,
            "http://a/b/c/g\nhttp://a/g\nhttp://a/b/c/d;p?y\nhttp://x/y/z\n\
             error: MissingTab: no TAB after the base (a --pairs line is \
             BASE<TAB>REFERENCE)\nhttp://x/z\nhttp://a/b/c/g\n"
        );
        // The empty base at the start, then three runs: the bad line in
        // the middle of the second does not end it.
        assert_eq!(mode.count.get(), 4);
    }

    #[test]
    fn pairs_give_what_the_library_gives_for_each_pair() {
        // Bases that come once, twice and three times in a row (the first
        // reference of a run takes the one-shot resolution, the others a
        // Resolver), under options that take either path.
        let pairs_in: [(&str, &str); 8] = [
            ("http://a/b/c/d;p?q", "../../../g"),
            ("http://x/y/", "z"),
            ("http://x/y/", "./../../w;v?u#t"),
            ("rel/base", "g"),
            ("http://a/b/c/d;p?q", "g h"),
            ("http://a/b/c/d;p?q", "?y"),
            ("http://a/b/c/d;p?q", "//h/./p"),
            ("", "g:h"),
        ];
        let input: String =
            pairs_in.iter().map(|(b, r)| format!("{b}\t{r}\n")).collect();
        let options = [
            Options::default(),
            Options::default().strict(true),
            Options::default()
                .dotdot_above_root(urlspec::resolve::DotDotAboveRoot::Remove),
        ];
        for spec in Spec::IETF {
            for opts in options {
                let (got, _) = pairs(
                    &mut Single::new(spec, opts, false),
                    input.as_bytes(),
                );
                let want: Vec<String> = pairs_in
                    .iter()
                    .map(|(b, r)| {
                        match Resolver::with_options(b, spec, opts).resolve(r)
                        {
                            Ok(x) => x.href,
                            Err(e) => format!("error: {}: {e}", e.kind()),
                        }
                    })
                    .collect();
                assert_eq!(
                    got.lines().collect::<Vec<_>>(),
                    want,
                    "{spec} {opts:?}"
                );
            }
        }
    }

    #[test]
    fn pairs_answer_the_same_whatever_the_blocks() {
        // CRLF, a last line without a line end, lines that are not UTF-8
        // or have no TAB between others, errors in text and JSON.
        let input = b"http://a/b/c/d;p?q\tg\r\n\
                      http://a/b/c/d;p?q\t../x\n\
                      http://a/b/\t\xc3\n\
                      http://x/y/\tz\n\
                      no tab\r\n\
                      \tg\n\
                      http://x/y/\t\xe2\x82\xac\n\
                      http://x/y/\t../z";
        let want_text = "http://a/b/c/g\nhttp://a/b/x\n\
                         error: NotUtf8: not UTF-8 (invalid byte at column \
                         13)\nhttp://x/y/z\n\
                         error: MissingTab: no TAB after the base (a --pairs \
                         line is BASE<TAB>REFERENCE)\n\
                         error: NoBase: a relative reference needs a base \
                         URL, and none is known\n\
                         http://x/y/\u{20ac}\nhttp://x/z\n";
        for json in [false, true] {
            let single =
                || Single::new(Spec::Rfc3986, Options::default(), json);
            let (want, ok) = pairs(&mut single(), input);
            assert!(!ok);
            if !json {
                assert_eq!(want, want_text);
            }
            assert_eq!(want.lines().count(), 8);
            for block in [1, 2, 3, 7, 16, 40, 100] {
                let got = pairs_in_blocks(&mut single(), input, block);
                assert_eq!(got, (want.clone(), false), "block {block}");
            }
        }
    }

    #[test]
    fn pairs_text_is_written_out_in_pieces_and_in_order() {
        // More than PENDING bytes of results, with an error in between.
        let mut input = String::new();
        for i in 0..3000 {
            input.push_str(&format!("http://h/{i}/\tpath/{i}\n"));
            if i == 1500 {
                input.push_str("no tab\n");
            }
        }
        let mut mode = Single::new(Spec::Rfc3986, Options::default(), false);
        let (text, ok) = pairs_in_blocks(&mut mode, input.as_bytes(), 4096);
        assert!(!ok);
        assert!(text.len() > PENDING);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3001);
        assert_eq!(lines[0], "http://h/0/path/0");
        assert!(lines[1501].starts_with("error: MissingTab"));
        assert_eq!(lines[1502], "http://h/1501/path/1501");
        assert_eq!(lines[3000], "http://h/2999/path/2999");
        assert!(mode.pending.is_empty());
    }

    #[test]
    fn pairs_split_at_the_first_tab_and_keep_alignment() {
        let mut mode = Echo { runs: Vec::new() };
        let input = b"b1\tr1\tmore\r\nb1\t\n\xff\tx\n\tr\nb2\tr2";
        let (text, ok) = pairs(&mut mode, input);
        assert!(!ok);
        assert_eq!(text, "b1|r1\tmore\nb1|\nline 3: NotUtf8\n|r\nb2|r2\n");
        assert_eq!(mode.runs, ["b1", "", "b2"]);
    }

    #[test]
    fn all_specs_marks_what_differs_from_the_selected_spec() {
        let mut mode = AllSpecs::new(Spec::Rfc1808, Options::default(), false);
        let resolvers = mode.prepare("http://a/b/c/d;p?q");
        let mut out = Vec::new();
        let ok = mode
            .answer(&mut out, &resolvers, Origin::Argument(1), "", ";x")
            .unwrap();
        assert!(ok);
        let text = String::from_utf8(out).unwrap();
        let mut want = String::from(
            ";x\n\
             * rfc1630     http://a/b/c/;x\n  \
               draft04     http://a/b/c/d;x\n  \
               rfc1808     http://a/b/c/d;x\n  \
               draft96     http://a/b/c/d;x\n  \
               draft96dec  http://a/b/c/d;x\n\
             * rfc2396     http://a/b/c/;x\n\
             * rfc3986     http://a/b/c/;x\n",
        );
        if Spec::Whatwg.is_available() {
            want.push_str("* whatwg      http://a/b/c/;x\n");
        }
        assert_eq!(text, want);
    }

    #[test]
    fn errors_of_the_same_kind_do_not_differ() {
        let mut mode = AllSpecs::new(Spec::Rfc3986, Options::default(), false);
        let resolvers = mode.prepare("");
        let mut out = Vec::new();
        let ok = mode
            .answer(&mut out, &resolvers, Origin::Argument(1), "", "g")
            .unwrap();
        assert!(!ok);
        let text = String::from_utf8(out).unwrap();
        let marked: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("* "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        // rfc2396 fails as rfc3986 does; the older specs answer `g`.
        assert_eq!(
            marked,
            ["rfc1630", "draft04", "rfc1808", "draft96", "draft96dec"]
        );
    }

    #[test]
    fn name_width_fits_every_spec() {
        assert_eq!(NAME_WIDTH, "draft96dec".len());
        assert!(Spec::IETF_AND_WHATWG
            .iter()
            .all(|s| s.name().len() <= NAME_WIDTH));
    }

    fn resolve_args(args: &[&str]) -> Result<ResolveArgs, clap::Error> {
        subcommand_args(&[&["resolve"], args].concat())
    }

    #[test]
    fn resolve_needs_a_base_or_pairs_but_not_both() {
        assert!(resolve_args(&["g"]).is_err());
        assert!(resolve_args(&["--pairs", "--base", "http://a/"]).is_err());
        // With --pairs, the arguments are files of pairs.
        let args = resolve_args(&["--pairs", "a.tsv", "-"]).unwrap();
        assert_eq!(args.references, ["a.tsv", "-"]);
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
            args.options.to_options().same_scheme_loophole(),
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
}
