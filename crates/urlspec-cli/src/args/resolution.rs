//! The options of resolution where the specs leave a choice
//! ([`ResolveOptions`]), which `urlspec resolve` and `urlspec links` take,
//! and the mirror enums of their values.

use clap::{Args, ValueEnum};
use urlspec::resolve::{DotDotAboveRoot, Options, Rfc1630Dots, RootlessDots};

/// The options of `urlspec resolve` and `urlspec links` that become the
/// library's
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
