//! The rule sets urlspec follows, and what each one switches.
//!
//! Every behaviour in which the documents differ is one field of
//! [`Rules`], and each [`Spec`] has
//! one `static` [`Rules`] value below. Comparing two specs, or adding one, is
//! a matter of reading or writing one table.

use core::fmt;
use core::str::FromStr;

use crate::chars::{self, CharClass};
use crate::names::UnknownName;

/// A URL specification: the rules for parsing, validating, escaping and
/// resolving.
///
/// The default is [`Spec::Rfc1808`], the one standards-track document among
/// the five 1994–1996 texts.
///
/// ```
/// use urlspec::Spec;
///
/// let spec: Spec = "rfc3986".parse().unwrap();
/// assert_eq!(spec, Spec::Rfc3986);
/// assert_eq!(Spec::default(), Spec::Rfc1808);
/// assert_eq!(Spec::Draft96Dec.name(), "draft96dec");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[non_exhaustive]
pub enum Spec {
    /// RFC 1630, *Universal Resource Identifiers in WWW* (June 1994).
    Rfc1630,
    /// draft-ietf-uri-relative-url-04, *Relative Uniform Resource Locators*
    /// (January 1995).
    Draft04,
    /// RFC 1808, *Relative Uniform Resource Locators* (June 1995).
    #[default]
    Rfc1808,
    /// draft-fielding-uri-url-00e, *Uniform Resource Locators (URL)*
    /// (10 November 1996).
    Draft96,
    /// The 1996 draft with the changes of 26 December 1996.
    Draft96Dec,
    /// RFC 2396, *URI: Generic Syntax* (August 1998), as amended by RFC 2732
    /// (IPv6 literals).
    Rfc2396,
    /// RFC 3986 (STD 66), *URI: Generic Syntax* (January 2005).
    Rfc3986,
    /// The WHATWG URL Standard, as browsers parse, by urlspec's own
    /// implementation of its basic URL parser ([`crate::whatwg`]; cargo
    /// feature `whatwg`: without it, parsing and resolving under this spec
    /// report it unavailable).
    Whatwg,
}

impl Spec {
    /// The IETF's documents, oldest first: every spec but
    /// [`Spec::Whatwg`], each implemented from its own text.
    pub const IETF: [Spec; 7] = [
        Spec::Rfc1630,
        Spec::Draft04,
        Spec::Rfc1808,
        Spec::Draft96,
        Spec::Draft96Dec,
        Spec::Rfc2396,
        Spec::Rfc3986,
    ];

    /// Every spec: [`Spec::IETF`], then [`Spec::Whatwg`].
    pub const IETF_AND_WHATWG: [Spec; 8] = [
        Spec::Rfc1630,
        Spec::Draft04,
        Spec::Rfc1808,
        Spec::Draft96,
        Spec::Draft96Dec,
        Spec::Rfc2396,
        Spec::Rfc3986,
        Spec::Whatwg,
    ];

    /// Whether urlspec can parse and resolve under this spec in this build
    /// (everything but [`Spec::Whatwg`] without the `whatwg` feature).
    #[must_use]
    pub const fn is_available(self) -> bool {
        !matches!(self, Spec::Whatwg) || cfg!(feature = "whatwg")
    }

    /// The specs urlspec can parse and resolve under in this build, oldest
    /// first: [`Spec::IETF_AND_WHATWG`], less [`Spec::Whatwg`] without the `whatwg`
    /// feature (those for which [`is_available`](Spec::is_available) holds).
    ///
    /// ```
    /// use urlspec::Spec;
    /// let specs = Spec::available();
    /// assert_eq!(specs[..7], Spec::IETF);
    /// assert!(specs.iter().all(|s| s.is_available()));
    /// ```
    #[must_use]
    pub const fn available() -> &'static [Spec] {
        if Spec::Whatwg.is_available() {
            &Spec::IETF_AND_WHATWG
        } else {
            &Spec::IETF
        }
    }

    /// The spec's name on the command line and in data files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.rules().name
    }

    /// The document's title and date.
    #[must_use]
    pub const fn title(self) -> &'static str {
        self.rules().title
    }

    /// One line on what sets the spec apart.
    #[must_use]
    pub const fn summary(self) -> &'static str {
        self.rules().summary
    }

    /// The spec's behaviour switches.
    #[must_use]
    pub const fn rules(self) -> &'static Rules {
        match self {
            Spec::Rfc1630 => &RFC1630,
            Spec::Draft04 => &DRAFT04,
            Spec::Rfc1808 => &RFC1808,
            Spec::Draft96 => &DRAFT96,
            Spec::Draft96Dec => &DRAFT96DEC,
            Spec::Rfc2396 => &RFC2396,
            Spec::Rfc3986 => &RFC3986,
            Spec::Whatwg => &WHATWG,
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every spec's name, oldest first: what [`Spec::from_str`] reads.
const NAMES: [&str; Spec::IETF_AND_WHATWG.len()] = {
    let mut names = [""; Spec::IETF_AND_WHATWG.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Spec::IETF_AND_WHATWG[i].name();
        i += 1;
    }
    names
};

impl FromStr for Spec {
    type Err = UnknownName;

    /// Parses a spec name, ignoring ASCII case and `-`/`_`
    /// (`RFC-1808` is `rfc1808`), as every option name is read
    /// ([`crate::names`]).
    ///
    /// ```
    /// use urlspec::Spec;
    /// assert_eq!("RFC-1808".parse::<Spec>(), Ok(Spec::Rfc1808));
    /// let e = "rfc9999".parse::<Spec>().unwrap_err();
    /// assert_eq!(e.given(), "rfc9999");
    /// assert_eq!(e.expected()[0], "rfc1630");
    /// assert!(e.to_string().starts_with("unknown spec `rfc9999`; expected one of: rfc1630, draft04"));
    /// ```
    fn from_str(s: &str) -> Result<Spec, UnknownName> {
        Spec::IETF_AND_WHATWG
            .into_iter()
            .find(|spec| crate::names::is(s, spec.name()))
            .ok_or_else(|| UnknownName::new(s, "spec", &NAMES))
    }
}

/// How a spec recognises a scheme at the start of a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemeRule {
    /// RFC 1630: a colon before any slash, after an `ialpha` (a letter,
    /// then `xalpha`s).
    Ialpha,
    /// RFC 1808 §2.4.2 (and draft 04, the 1996 drafts): characters of
    /// `[A-Za-z0-9+.-]` before a colon that is not the first character.
    AnyFirst,
    /// RFC 2396 §3.1 and RFC 3986 §3.1: a letter, then `[A-Za-z0-9+.-]`.
    LetterFirst,
}

/// The grammar of the part after `//`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerGrammar {
    /// RFC 1630 `login` (ftp, telnet) or `hostport` (the other schemes).
    Login1630,
    /// RFC 1808 and draft 04: an opaque `net_loc`; the 1996 server grammar
    /// splits it leniently (docs/readings.md#a21).
    OpaqueNetLoc,
    /// The 1996 drafts' `server`.
    Server96,
    /// RFC 2396 `server | reg_name`, with RFC 2732's IPv6 literals.
    Server2396,
    /// RFC 3986 `[ userinfo "@" ] host [ ":" port ]`.
    Authority3986,
}

/// Which document's resolution algorithm a spec follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// RFC 1630 partial forms (docs/readings.md#rfc1630-partial).
    Rfc1630,
    /// RFC 1808 §4 steps 1–7 (draft 04 differs only in the `..` exclusion).
    Rfc1808,
    /// The 1996 draft §6: 1808's steps with the "current document" step 2a.
    Draft96,
    /// RFC 2396 §5.2.
    Rfc2396,
    /// RFC 3986 §5.2.
    Rfc3986,
    /// The WHATWG URL Standard's basic URL parser with a base
    /// ([`crate::whatwg`]).
    Whatwg,
}

/// How a spec removes `.` and `..` segments in resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotSegments {
    /// Literally, string rules (RFC 1630 rule .4: `/.` then `xxx/../`).
    Rfc1630,
    /// Only in a merged relative path (RFC 1808 step 6, RFC 2396 6c–6f).
    MergedOnly,
    /// In every path of the result (RFC 3986 5.2.2, WHATWG).
    Every,
}

/// What happens to `..` segments that would climb above the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AboveRoot {
    /// They stay in the path (`http://a/../g`).
    Kept,
    /// They are dropped (`http://a/g`).
    Dropped,
}

/// How a reference of only `?y` (or only `;x`) treats the base path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// The base path is kept (`http://a/b/c/d;p?y`).
    KeepsBasePath,
    /// It replaces the last segment of the base path (`http://a/b/c/?y`).
    ReplacesLastSegment,
}

/// What an empty reference denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyReference {
    /// The entire base, fragment included (RFC 1808 step 2a).
    WholeBase,
    /// The current document: the base without its fragment.
    CurrentDocument,
}

/// A special scheme of the WHATWG URL Standard (§4.1 "URL
/// representation"): its URLs always have a host (but `file`'s may be
/// empty), read `\` as `/`, and lose their default port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialScheme {
    /// The scheme, lower-case.
    pub name: &'static str,
    /// The default port (`file` has none).
    pub default_port: Option<u16>,
}

/// Where each behaviour of a spec is written down, for explanations.
#[derive(Clone, Copy, Debug)]
pub struct Cites {
    /// Scheme detection.
    pub scheme: &'static str,
    /// What ends the net_loc / authority.
    pub net_loc: &'static str,
    /// The grammar of the server part.
    pub server: &'static str,
    /// Params as a component, per segment, or not at all.
    pub params: &'static str,
    /// The resolution algorithm.
    pub resolution: &'static str,
    /// Whether empty components count as absent.
    pub empty: &'static str,
    /// The character classes.
    pub chars: &'static str,
    /// What comparison decodes and what it escapes.
    pub equivalence: &'static str,
}

/// The characters each component admits unescaped under one spec, as used by
/// validation. Escapes (`%` hex hex) are allowed everywhere but in RFC
/// 1630's user and password.
#[derive(Clone, Copy, Debug)]
pub struct Grammar {
    /// A path segment (the separator `/` excluded).
    pub segment: CharClass,
    /// The first segment of a relative-path reference, where it is narrower
    /// (RFC 2396 `rel_segment`, RFC 3986 `segment-nz-nc`: no `:`).
    pub first_segment: CharClass,
    /// One parameter (the separator `;` excluded).
    pub param: CharClass,
    /// The query.
    pub query: CharClass,
    /// The fragment.
    pub fragment: CharClass,
    /// The net_loc as a whole, for specs that keep it opaque.
    pub net_loc: CharClass,
    /// User name and password.
    pub userinfo: CharClass,
    /// A registry-based authority or name (RFC 2396 `reg_name`, RFC 3986
    /// `reg-name`).
    pub reg_name: CharClass,
    /// The part after `scheme:` of an opaque URI (RFC 2396 `uric`).
    pub opaque: CharClass,
    /// The spec's unreserved characters: data that never needs escaping.
    pub unreserved: CharClass,
}

/// The names a spec's grammar gives the rules validation applies, for
/// messages ([`Violation::rule`](crate::reference::Violation)).
#[derive(Clone, Copy, Debug)]
pub struct RuleNames {
    /// A path segment.
    pub segment: &'static str,
    /// The first segment of a relative-path reference.
    pub first_segment: &'static str,
    /// One parameter.
    pub param: &'static str,
    /// The query.
    pub query: &'static str,
    /// The fragment.
    pub fragment: &'static str,
}

/// Which hosts comparison treats as case-insensitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostCase {
    /// None: no seed says hosts are case-insensitive (unless asked,
    /// [`equiv::Options::host_case`](crate::equiv::Options::host_case)).
    Sensitive,
    /// Host names and IP literals, not a `reg_name` (RFC 2396 §3.2.2:
    /// "domain names are case-insensitive").
    Hostnames,
    /// Every host (RFC 3986 §6.2.2.1).
    Insensitive,
}

/// What comparing URLs ([`crate::equiv`]) may change under a spec: which
/// escapes equal their characters, which characters must be escaped, and
/// which structural steps of RFC 3986 §6.2 apply (docs/readings.md#as16).
#[derive(Clone, Copy, Debug)]
pub struct Equivalence {
    /// The characters whose escapes equal the characters (`@` and `:` are
    /// taken out in the authority, where they delimit).
    pub decodable: CharClass,
    /// The same in a query, where a spec may reserve more (RFC 1630's `+`
    /// for a space, the December 1996 draft's `/ & = +`).
    pub query_decodable: CharClass,
    /// The schemes under which anything is decoded at all; `None`: every
    /// scheme (RFC 2396 allows it for http, https, ftp and file only, AS16).
    pub decode_schemes: Option<&'static [&'static str]>,
    /// The characters admitted raw somewhere (unreserved and reserved);
    /// every other one is escaped at
    /// [`Level::PercentEncoding`](crate::equiv::Level::PercentEncoding).
    pub legal: CharClass,
    /// Which hosts are folded to lower case.
    pub host_case: HostCase,
    /// Whether a URL with a scheme has its escaped dots decoded and its
    /// dot-segments removed (RFC 3986 §6.2.2.3, AS15); elsewhere decoding
    /// never makes a `.` or `..` segment (docs/readings.md#a40).
    pub remove_dot_segments: bool,
    /// RFC 3986 §6.2.3's scheme-based steps: an empty path with an
    /// authority is `/`, a mailto domain is in lower case.
    pub scheme_based: bool,
    /// Whether an empty fragment is no fragment (RFC 1630's "void
    /// fragment-id", and every spec whose empty components are absent).
    pub void_fragment: bool,
}

/// Everything that sets one spec apart, as data.
#[derive(Debug)]
#[non_exhaustive]
pub struct Rules {
    /// Command-line name.
    pub name: &'static str,
    /// Title and date of the document.
    pub title: &'static str,
    /// One line on what sets it apart.
    pub summary: &'static str,
    /// Scheme detection.
    pub scheme: SchemeRule,
    /// Bytes that end the net_loc (besides `#` and the end of input).
    /// RFC 1808 P3: only `/`; RFC 1630 `hostport`, RFC 2396 and RFC 3986:
    /// `/` and `?`.
    pub authority_ends: CharClass,
    /// Whether `;params` is a component of its own (RFC 1808 P5).
    pub params: bool,
    /// The grammar of the part after `//`.
    pub server: ServerGrammar,
    /// Whether an empty port (`http://a:/`) is valid.
    pub empty_port: bool,
    /// Whether an empty user or password (`ftp://@h/`) is valid.
    pub empty_userinfo: bool,
    /// The resolution algorithm.
    pub algorithm: Algorithm,
    /// Whether `http:g` is relative to an `http` base by default (the
    /// "loophole" RFC 1808 §5.2 attributes to RFC 1630).
    pub same_scheme_is_relative: bool,
    /// The schemes whose URLs are "never used with relative URLs" (RFC
    /// 1808 §2.3, draft 04 §2.3), refused as a base in strict mode; the
    /// 1808 list serves RFC 1630, which has none of its own, and the 1996
    /// drafts (docs/readings.md#a19, docs/readings.md#a44).
    pub never_base: &'static [&'static str],
    /// Whether a base must fit the generic syntax in strict mode
    /// ([`Reference::is_generic`](crate::Reference::is_generic): the 1996
    /// drafts' server, RFC 2396 §5's `hier_part`).
    pub base_must_be_generic: bool,
    /// The headers of an entity that give its base, highest precedence
    /// first (docs/readings.md#a34): `Base` (draft 04, RFC 1808),
    /// `Content-Base` then `Content-Location` (the 1996 drafts),
    /// `Content-Location` (RFC 2396, RFC 3986, and a MIME part's URL under
    /// the WHATWG URL Standard), none (RFC 1630).
    pub base_headers: &'static [BaseHeader],
    /// Whether resolution treats an empty `;`, `?` or `#` component as
    /// absent (docs/readings.md#a17).
    pub empty_is_absent: bool,
    /// Whether `..` may cancel a preceding `..` (draft 04 S6c/S6d, RFC 1630
    /// "xxx/../"; docs/readings.md#a8).
    pub dotdot_cancels_dotdot: bool,
    /// Characters per component, for validation.
    pub grammar: Grammar,
    /// The names of the grammar's rules, for validation's messages.
    pub rule_names: RuleNames,
    /// Whether an empty query (`a?`) is valid: not under RFC 1630, whose
    /// `search` is `xalphas [ + search ]`, one character at least.
    pub empty_query: bool,
    /// The classes the spec names, each with its name, for messages: the
    /// first class holding an ASCII character names it.
    pub class_names: &'static [(CharClass, &'static str)],
    /// The name of the class of a non-ASCII byte.
    pub non_ascii_class: &'static str,
    /// What comparison may change.
    pub equivalence: Equivalence,
    /// Characters that may stand for themselves as *data* in a path segment,
    /// a parameter, a query, a fragment, a user name, a password and a host
    /// (indexed by [`crate::escape::Component`]); everything else is
    /// escaped.
    pub data: [CharClass; 7],
    /// Whether `~` and `%7E` are interchangeable when comparing (unreserved).
    pub tilde_unreserved: bool,
    /// Where dot segments are removed in resolution.
    pub dot_segments: DotSegments,
    /// `..` above the root.
    pub above_root: AboveRoot,
    /// What `?y` does with the base path.
    pub query_only: Tail,
    /// What `;x` does with the base path.
    pub params_only: Tail,
    /// What the empty reference denotes.
    pub empty_reference: EmptyReference,
    /// Whether `\` is read as `/` (in the WHATWG standard's special
    /// schemes); elsewhere it is data that must be escaped.
    pub backslash_is_slash: bool,
    /// The schemes the spec treats apart, with their default ports: the
    /// WHATWG URL Standard's special schemes; none for the documents.
    pub special_schemes: &'static [SpecialScheme],
    /// Where each of these behaviours is written down.
    pub cites: Cites,
}

/// A header that may give an entity's base URL (the `base` module).
///
/// ```
/// use urlspec::spec::BaseHeader;
/// use urlspec::Spec;
/// assert_eq!(Spec::Rfc1808.rules().base_headers, [BaseHeader::BASE]);
/// assert_eq!(BaseHeader::ALL.len(), 3);
/// assert!(!BaseHeader::CONTENT_LOCATION.absolute);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseHeader {
    /// The header's canonical name.
    pub name: &'static str,
    /// Whether its value must be an absolute URL; a relative one is
    /// resolved against the next outer layer, with a note
    /// (docs/readings.md#a35).
    pub absolute: bool,
    /// Whether its value is written `<URL:…>` (RFC 1808 §3.1 `Base`).
    pub url_brackets: bool,
}

impl BaseHeader {
    /// `Base: <URL:…>` (draft 04, RFC 1808 §3.1).
    pub const BASE: BaseHeader =
        BaseHeader { name: "Base", absolute: true, url_brackets: true };
    /// `Content-Base` (the 1996 drafts).
    pub const CONTENT_BASE: BaseHeader = BaseHeader {
        name: "Content-Base",
        absolute: true,
        url_brackets: false,
    };
    /// `Content-Location` (the 1996 drafts, MHTML, RFC 2396, RFC 3986): may
    /// be relative.
    pub const CONTENT_LOCATION: BaseHeader = BaseHeader {
        name: "Content-Location",
        absolute: false,
        url_brackets: false,
    };
    /// Every base header any spec recognises, highest precedence first.
    pub const ALL: &'static [BaseHeader] = &[
        BaseHeader::BASE,
        BaseHeader::CONTENT_BASE,
        BaseHeader::CONTENT_LOCATION,
    ];
}

/// `/` and `?` delimit nothing inside a query or fragment, so data may use
/// them raw (every seed's query grammar admits them).
const QUERY_DATA_DELIMS: CharClass = CharClass::of("/?");

/// RFC 1808 §2.3: "some URL schemes (such as the mailto, news, and telnet
/// schemes) are never used with relative URLs".
const NEVER_BASE_1808: &[&str] = &["mailto", "telnet", "news"];

/// RFC 2396 §2.4.2 lets a scheme decode unreserved escapes only "if the
/// given URI scheme defines a canonicalization algorithm": those that do
/// (AS16).
const DECODE_SCHEMES_2396: &[&str] = &["http", "https", "ftp", "file"];

/// The class names of RFC 1808 §2.2 (and draft 04 §2.2); a control
/// character or space is in none of its classes.
const CLASS_NAMES_1808: &[(CharClass, &str)] = {
    use chars::rfc1808::*;
    &[
        (chars::CONTROL.or(chars::SPACE), "control or space"),
        (NATIONAL, "national"),
        (PUNCTUATION, "punctuation"),
        (RESERVED, "reserved"),
        (SAFE, "safe"),
        (EXTRA, "extra"),
    ]
};

/// The class names of the 1996 drafts §2.3 (both versions).
const CLASS_NAMES_96: &[(CharClass, &str)] = {
    use chars::draft96::*;
    &[
        (UNWISE, "unwise"),
        (DELIMS, "delims"),
        (RESERVED, "reserved"),
        (MARK, "mark"),
        (chars::CONTROL, "control"),
        (chars::SPACE, "space"),
    ]
};

/// What comparison may change under the specs before RFC 2396 whose empty
/// components are absent: decode the escapes of `unreserved`, escape what
/// is neither unreserved nor reserved.
const fn seed_equivalence(
    unreserved: CharClass,
    reserved: CharClass,
) -> Equivalence {
    Equivalence {
        decodable: unreserved,
        query_decodable: unreserved,
        decode_schemes: None,
        legal: unreserved.or(reserved),
        host_case: HostCase::Sensitive,
        remove_dot_segments: false,
        scheme_based: false,
        void_fragment: true,
    }
}

static RFC1630: Rules = {
    use chars::rfc1630::*;
    Rules {
        name: "rfc1630",
        title: "RFC 1630, Universal Resource Identifiers in WWW (June 1994)",
        summary: "scheme is an ialpha before any slash; ?search ends the \
                  host; no params; partial forms by slash runs",
        scheme: SchemeRule::Ialpha,
        authority_ends: CharClass::of("/?"),
        params: false,
        server: ServerGrammar::Login1630,
        empty_port: false,
        empty_userinfo: false,
        algorithm: Algorithm::Rfc1630,
        same_scheme_is_relative: true,
        never_base: NEVER_BASE_1808,
        base_must_be_generic: false,
        base_headers: &[],
        empty_is_absent: false,
        dotdot_cancels_dotdot: true,
        grammar: Grammar {
            segment: XPALPHA,
            first_segment: XPALPHA,
            param: XPALPHA,
            query: XALPHA.with(b'+'),
            fragment: XALPHA,
            net_loc: XALPHA.or(CharClass::of(":+")),
            userinfo: ALPHANUM2,
            reg_name: XALPHA,
            opaque: XPALPHA.or(CharClass::of("/;=?:")),
            unreserved: XALPHA,
        },
        rule_names: RuleNames {
            segment: "xpalphas",
            first_segment: "xpalphas",
            param: "xpalphas",
            query: "search",
            fragment: "fragmentid",
        },
        empty_query: false,
        class_names: &[
            (chars::CONTROL, "control or space"),
            (chars::SPACE, "reserved"),
            (NATIONAL, "national"),
            (PUNCTUATION, "punctuation"),
            (RESERVED, "reserved"),
            (SAFE, "safe"),
            (EXTRA, "extra"),
        ],
        non_ascii_class: "non-ASCII",
        equivalence: Equivalence {
            // Example 1: `%2D` is `-`; reserved characters "may NEVER be
            // encoded and unencoded"; `+` is a space in a query.
            decodable: chars::ALPHANUM.or(CharClass::of("$-_@.&+'(),\"")),
            query_decodable: chars::ALPHANUM.or(CharClass::of("$-_@.&'(),\"")),
            decode_schemes: None,
            legal: XPALPHA.or(CharClass::of("=;/?:")),
            host_case: HostCase::Sensitive,
            remove_dot_segments: false,
            scheme_based: false,
            void_fragment: true,
        },
        data: [
            XPALPHA,
            XPALPHA,
            XALPHA, // `+` means space in a query (R1630-QUERY)
            XALPHA,
            ALPHANUM2,
            ALPHANUM2,
            chars::ALPHANUM.or(CharClass::of("-.")),
        ],
        tilde_unreserved: false,
        dot_segments: DotSegments::Rfc1630,
        above_root: AboveRoot::Kept,
        query_only: Tail::ReplacesLastSegment,
        params_only: Tail::ReplacesLastSegment,
        empty_reference: EmptyReference::CurrentDocument,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "RFC 1630 \"Partial (relative) form\": a colon before any slash, `scheme ialpha`",
            net_loc: "RFC 1630 BNF: `h t t p : / / hostport [ / path ] [ ? search ]`",
            server: "RFC 1630 BNF: `login` (ftp, telnet) or `hostport`",
            params: "RFC 1630 BNF: no params component, `;` is just reserved",
            resolution: "RFC 1630 \"Partial (relative) form\" (docs/readings.md#rfc1630-partial)",
            empty: "RFC 1630 \"Fragment-id\": a void fragment means the whole object",
            chars: "RFC 1630 BNF: `safe`, `extra`, `national`",
            equivalence: "RFC 1630 \"Conventional URI encoding scheme\": URIs are compared at the same encoding level; reserved characters are never encoded or decoded",
        },
    }
};

/// Grammar and data sets shared by draft 04, RFC 1808 and the 1996 drafts,
/// built from each one's `uchar`, `pchar`, `param` and query classes.
const fn seed_grammar(
    uchar: CharClass,
    pchar: CharClass,
    param: CharClass,
    query: CharClass,
    userinfo: CharClass,
) -> Grammar {
    Grammar {
        segment: pchar,
        first_segment: pchar,
        param,
        query,
        fragment: query,
        net_loc: pchar.or(CharClass::of(";?")),
        userinfo,
        reg_name: pchar.or(CharClass::of(";?")),
        opaque: query,
        unreserved: uchar,
    }
}

const fn seed_data(
    g: &Grammar,
    query_data: CharClass,
    userinfo: CharClass,
) -> [CharClass; 7] {
    [
        g.segment,
        g.param.without(b';'),
        query_data,
        query_data,
        userinfo.without(b':').without(b'@').without(b'/'),
        userinfo.without(b':').without(b'@').without(b'/'),
        chars::ALPHANUM.or(CharClass::of("-.")),
    ]
}

/// The rule names of draft 04 and RFC 1808 §2.2.
const NAMES_1808: RuleNames = RuleNames {
    segment: "pchar",
    first_segment: "pchar",
    param: "param",
    query: "query",
    fragment: "fragment",
};

/// The rule names of the 1996 drafts §4.
const NAMES_96: RuleNames = RuleNames {
    segment: "pchar",
    first_segment: "pchar",
    param: "param",
    query: "urlchar",
    fragment: "urlchar",
};

/// RFC 1738's `user = *[ uchar | ";" | "?" | "&" | "=" ]`, which RFC 1808
/// cites for the inside of its net_loc.
const USER_1738: CharClass = chars::rfc1808::UCHAR.or(CharClass::of(";?&="));

static DRAFT04: Rules = {
    use chars::draft04::*;
    const G: Grammar =
        seed_grammar(UCHAR, PCHAR, PARAM, QUERY, USER_1738.or(UCHAR));
    Rules {
        name: "draft04",
        title: "draft-ietf-uri-relative-url-04, Relative Uniform Resource \
                Locators (January 1995)",
        summary: "RFC 1808's algorithm, but national characters are \
                  unreserved and `..` may cancel `..`",
        scheme: SchemeRule::AnyFirst,
        authority_ends: CharClass::of("/"),
        params: true,
        server: ServerGrammar::OpaqueNetLoc,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Rfc1808,
        same_scheme_is_relative: false,
        never_base: &["mailto", "telnet"],
        base_must_be_generic: false,
        base_headers: &[BaseHeader::BASE],
        empty_is_absent: true,
        dotdot_cancels_dotdot: true,
        grammar: G,
        rule_names: NAMES_1808,
        empty_query: true,
        class_names: CLASS_NAMES_1808,
        non_ascii_class: "non-ASCII",
        equivalence: seed_equivalence(UNRESERVED, chars::rfc1808::RESERVED),
        data: seed_data(&G, UCHAR.or(QUERY_DATA_DELIMS), USER_1738.or(UCHAR)),
        tilde_unreserved: true,
        dot_segments: DotSegments::MergedOnly,
        above_root: AboveRoot::Kept,
        query_only: Tail::KeepsBasePath,
        params_only: Tail::KeepsBasePath,
        empty_reference: EmptyReference::WholeBase,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "draft 04 §2.4.2",
            net_loc: "draft 04 §2.4.3: only `/` ends the net_loc",
            server: "draft 04 §2.2: `net_loc = *( pchar | \";\" | \"?\" )`, opaque",
            params: "draft 04 §2.4.5: params after the first `;` of the path",
            resolution: "draft 04 §4, steps 6c/6d without the `..` exclusion",
            empty: "draft 04 §2.4: a trailing `;`, `?` or `#` gives an empty component",
            chars: "draft 04 §2.2: `unreserved` includes `national`",
            equivalence: "draft 04 §2.2: escapes of unreserved characters (national included) equal them; reserved ones do not",
        },
    }
};

static RFC1808: Rules = {
    use chars::rfc1808::*;
    const G: Grammar = seed_grammar(UCHAR, PCHAR, PARAM, QUERY, USER_1738);
    Rules {
        name: "rfc1808",
        title: "RFC 1808, Relative Uniform Resource Locators (June 1995)",
        summary: "the default: params are a component, only `/` ends the \
                  net_loc, an empty reference keeps the base fragment",
        scheme: SchemeRule::AnyFirst,
        authority_ends: CharClass::of("/"),
        params: true,
        server: ServerGrammar::OpaqueNetLoc,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Rfc1808,
        same_scheme_is_relative: false,
        never_base: NEVER_BASE_1808,
        base_must_be_generic: false,
        base_headers: &[BaseHeader::BASE],
        empty_is_absent: true,
        dotdot_cancels_dotdot: false,
        grammar: G,
        rule_names: NAMES_1808,
        empty_query: true,
        class_names: CLASS_NAMES_1808,
        non_ascii_class: "non-ASCII",
        equivalence: seed_equivalence(UNRESERVED, RESERVED),
        data: seed_data(&G, UCHAR.or(QUERY_DATA_DELIMS), USER_1738),
        tilde_unreserved: false,
        dot_segments: DotSegments::MergedOnly,
        above_root: AboveRoot::Kept,
        query_only: Tail::KeepsBasePath,
        params_only: Tail::KeepsBasePath,
        empty_reference: EmptyReference::WholeBase,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "RFC 1808 §2.4.2: `[A-Za-z0-9+.-]` before a `:` that is not first",
            net_loc: "RFC 1808 §2.4.3: only `/` ends the net_loc",
            server: "RFC 1808 §2.2: `net_loc = *( pchar | \";\" | \"?\" )`, opaque",
            params: "RFC 1808 §2.4.5: params after the first `;` of the path",
            resolution: "RFC 1808 §4",
            empty: "RFC 1808 §2.4: a trailing `;`, `?` or `#` gives an empty component",
            chars: "RFC 1808 §2.2: `national` is not allowed unescaped",
            equivalence: "RFC 1808 §2.2: escapes of unreserved characters equal them; `~` is national, so `%7E` stays",
        },
    }
};

static DRAFT96: Rules = {
    use chars::draft96::*;
    const G: Grammar = seed_grammar(UCHAR, PCHAR, PARAM, URLCHAR, USER);
    Rules {
        name: "draft96",
        title: "draft-fielding-uri-url-00e, Uniform Resource Locators \
                (10 November 1996)",
        summary: "server grammar (user:password@host:port), `+` reserved, \
                  `~` unreserved, empty and #frag references are the \
                  current document",
        scheme: SchemeRule::AnyFirst,
        authority_ends: CharClass::of("/"),
        params: true,
        server: ServerGrammar::Server96,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Draft96,
        same_scheme_is_relative: false,
        never_base: NEVER_BASE_1808,
        base_must_be_generic: true,
        base_headers: &[BaseHeader::CONTENT_BASE, BaseHeader::CONTENT_LOCATION],
        empty_is_absent: true,
        dotdot_cancels_dotdot: false,
        grammar: G,
        rule_names: NAMES_96,
        empty_query: true,
        class_names: CLASS_NAMES_96,
        non_ascii_class: "national",
        equivalence: seed_equivalence(UNRESERVED, RESERVED),
        data: seed_data(&G, UNRESERVED.or(QUERY_DATA_DELIMS), USER),
        tilde_unreserved: true,
        dot_segments: DotSegments::MergedOnly,
        above_root: AboveRoot::Kept,
        query_only: Tail::KeepsBasePath,
        params_only: Tail::KeepsBasePath,
        empty_reference: EmptyReference::CurrentDocument,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "1996 draft §4.1",
            net_loc: "1996 draft §4.3.1: the server ends at the next `/`",
            server: "1996 draft §4.3.1: `[ [ user [ \":\" password ] \"@\" ] hostport ]`",
            params: "1996 draft §4.3.3: parameters after the first `;`",
            resolution: "1996 draft §6, whose step 2a makes the current document",
            empty: "1996 draft §4.3: a trailing `;`, `?` or `#` gives an empty component",
            chars: "1996 draft §2.3.3: `unwise` must be escaped",
            equivalence: "1996 draft §2.3: escapes of unreserved characters (with `~`) equal them; reserved (with `+`) do not",
        },
    }
};

static DRAFT96DEC: Rules = {
    use chars::draft96::*;
    const G: Grammar =
        seed_grammar(UCHAR, PCHAR, chars::draft96dec::PARAM, URLCHAR, USER);
    Rules {
        name: "draft96dec",
        title: "the URL draft with the changes of 26 December 1996",
        summary: "as draft96, but a param holds no `/` and `/ & = +` are \
                  reserved in a query",
        scheme: SchemeRule::AnyFirst,
        authority_ends: CharClass::of("/"),
        params: true,
        server: ServerGrammar::Server96,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Draft96,
        same_scheme_is_relative: false,
        never_base: NEVER_BASE_1808,
        base_must_be_generic: true,
        base_headers: &[BaseHeader::CONTENT_BASE, BaseHeader::CONTENT_LOCATION],
        empty_is_absent: true,
        dotdot_cancels_dotdot: false,
        grammar: G,
        rule_names: NAMES_96,
        empty_query: true,
        class_names: CLASS_NAMES_96,
        non_ascii_class: "national",
        equivalence: Equivalence {
            query_decodable: UNRESERVED
                .minus(chars::draft96dec::QUERY_RESERVED),
            ..seed_equivalence(UNRESERVED, RESERVED)
        },
        data: seed_data(
            &G,
            UNRESERVED
                .or(QUERY_DATA_DELIMS)
                .minus(chars::draft96dec::QUERY_RESERVED),
            USER,
        ),
        tilde_unreserved: true,
        dot_segments: DotSegments::MergedOnly,
        above_root: AboveRoot::Kept,
        query_only: Tail::KeepsBasePath,
        params_only: Tail::KeepsBasePath,
        empty_reference: EmptyReference::CurrentDocument,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "1996 draft §4.1 (December changes)",
            net_loc: "1996 draft §4.3.1: the server ends at the next `/`",
            server: "1996 draft §4.3.1: `[ [ user [ \":\" password ] \"@\" ] hostport ]`",
            params: "December 1996 changes, App. A: `param = *pchar`",
            resolution: "1996 draft §6, whose step 2a makes the current document",
            empty: "1996 draft §4.3: a trailing `;`, `?` or `#` gives an empty component",
            chars: "1996 draft §2.3.3: `unwise` must be escaped",
            equivalence: "December 1996 changes: as the draft, and `/ & = +` are reserved in a query",
        },
    }
};

static RFC2396: Rules = {
    use chars::rfc2396::*;
    Rules {
        name: "rfc2396",
        title: "RFC 2396, URI Generic Syntax (August 1998), with RFC 2732 \
                IPv6 literals (December 1999)",
        summary: "authority ends at `?`; params belong to each segment; \
                  empty and undefined components differ; `?y` replaces the \
                  last segment",
        scheme: SchemeRule::LetterFirst,
        authority_ends: CharClass::of("/?"),
        params: false,
        server: ServerGrammar::Server2396,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Rfc2396,
        same_scheme_is_relative: false,
        never_base: &[],
        base_must_be_generic: true,
        base_headers: &[BaseHeader::CONTENT_LOCATION],
        empty_is_absent: false,
        dotdot_cancels_dotdot: false,
        grammar: Grammar {
            // `segment = *pchar *( ";" param )`
            segment: PCHAR.with(b';'),
            first_segment: REL_SEGMENT,
            param: PCHAR,
            query: chars::rfc2732::URIC,
            fragment: chars::rfc2732::URIC,
            net_loc: REG_NAME,
            userinfo: USERINFO,
            reg_name: REG_NAME,
            opaque: chars::rfc2732::URIC,
            unreserved: UNRESERVED,
        },
        rule_names: RuleNames {
            segment: "pchar",
            first_segment: "rel_segment",
            param: "param",
            query: "uric",
            fragment: "uric",
        },
        empty_query: true,
        class_names: &[
            (chars::rfc2732::UNWISE, "unwise"),
            (DELIMS, "delims"),
            (chars::rfc2732::RESERVED, "reserved"),
            (MARK, "mark"),
            (chars::CONTROL, "control"),
            (chars::SPACE, "space"),
        ],
        non_ascii_class: "non-ASCII",
        equivalence: Equivalence {
            decodable: UNRESERVED,
            query_decodable: UNRESERVED,
            decode_schemes: Some(DECODE_SCHEMES_2396),
            legal: chars::rfc2732::URIC,
            host_case: HostCase::Hostnames,
            remove_dot_segments: false,
            scheme_based: false,
            void_fragment: false,
        },
        data: [
            PCHAR,
            PCHAR,
            UNRESERVED.or(CharClass::of("/?")),
            UNRESERVED.or(CharClass::of("/?")),
            USERINFO.without(b':'),
            USERINFO.without(b':'),
            chars::ALPHANUM.or(CharClass::of("-.")),
        ],
        tilde_unreserved: true,
        dot_segments: DotSegments::MergedOnly,
        above_root: AboveRoot::Kept,
        query_only: Tail::ReplacesLastSegment,
        params_only: Tail::ReplacesLastSegment,
        empty_reference: EmptyReference::CurrentDocument,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "RFC 2396 §3.1: `alpha *( alpha | digit | \"+\" | \"-\" | \".\" )`",
            net_loc: "RFC 2396 §3.2: the authority ends at the next `/` or `?`",
            server: "RFC 2396 §3.2: `authority = server | reg_name`",
            params: "RFC 2396 §3.3: params belong to each path segment",
            resolution: "RFC 2396 §5.2",
            empty: "RFC 2396 §5.2 step 7: undefined and empty components differ",
            chars: "RFC 2396 §2.4.3: `unwise` must be escaped",
            equivalence: "RFC 2396 §2.4.2: unreserved escapes are decoded only by a scheme's canonicalization (AS16); §3.2.2: host names are case-insensitive",
        },
    }
};

static RFC3986: Rules = RFC3986_RULES;

const RFC3986_RULES: Rules = {
    use chars::rfc3986::*;
    Rules {
        name: "rfc3986",
        title: "RFC 3986 (STD 66), URI Generic Syntax (January 2005)",
        summary: "the current standard: authority ends at `?` or `#`, \
                  dot-segments removed from every path, `..` never climbs \
                  above the root",
        scheme: SchemeRule::LetterFirst,
        authority_ends: CharClass::of("/?"),
        params: false,
        server: ServerGrammar::Authority3986,
        empty_port: true,
        empty_userinfo: true,
        algorithm: Algorithm::Rfc3986,
        same_scheme_is_relative: false,
        never_base: &[],
        base_must_be_generic: false,
        base_headers: &[BaseHeader::CONTENT_LOCATION],
        empty_is_absent: false,
        dotdot_cancels_dotdot: false,
        grammar: Grammar {
            segment: PCHAR,
            first_segment: SEGMENT_NZ_NC,
            param: PCHAR,
            query: QUERY,
            fragment: QUERY,
            net_loc: REG_NAME,
            userinfo: USERINFO,
            reg_name: REG_NAME,
            opaque: PCHAR.with(b'/'),
            unreserved: UNRESERVED,
        },
        rule_names: RuleNames {
            segment: "pchar",
            first_segment: "segment-nz-nc",
            param: "pchar",
            query: "query",
            fragment: "fragment",
        },
        empty_query: true,
        class_names: &[
            (chars::CONTROL.or(chars::SPACE), "control or space"),
            (GEN_DELIMS, "gen-delims"),
            (SUB_DELIMS, "sub-delims"),
        ],
        non_ascii_class: "non-ASCII",
        equivalence: Equivalence {
            decodable: UNRESERVED,
            query_decodable: UNRESERVED,
            decode_schemes: None,
            legal: UNRESERVED.or(RESERVED).without(b'#'),
            host_case: HostCase::Insensitive,
            remove_dot_segments: true,
            scheme_based: true,
            void_fragment: false,
        },
        data: [
            PCHAR,
            PCHAR.without(b';'),
            UNRESERVED.or(CharClass::of("/?:@")),
            UNRESERVED.or(CharClass::of("/?:@")),
            UNRESERVED.or(SUB_DELIMS),
            UNRESERVED.or(SUB_DELIMS),
            REG_NAME,
        ],
        tilde_unreserved: true,
        dot_segments: DotSegments::Every,
        above_root: AboveRoot::Dropped,
        query_only: Tail::KeepsBasePath,
        params_only: Tail::ReplacesLastSegment,
        empty_reference: EmptyReference::CurrentDocument,
        backslash_is_slash: false,
        special_schemes: &[],
        cites: Cites {
            scheme: "RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )`",
            net_loc: "RFC 3986 §3.2: the authority ends at the next `/`, `?` or `#`",
            server: "RFC 3986 §3.2: `[ userinfo \"@\" ] host [ \":\" port ]`",
            params: "RFC 3986 §3.3: no params; `;` is data in opaque segments",
            resolution: "RFC 3986 §5.2",
            empty: "RFC 3986 §5.3: undefined and empty components differ",
            chars: "RFC 3986 §2: not in the grammar, so percent-encoded",
            equivalence: "RFC 3986 §6.2.2: case, percent-encoding and path segment normalization; §6.2.3: scheme-based",
        },
    }
};

/// The WHATWG URL Standard's special schemes and their default ports
/// (§4.1: "ftp" 21, "file" null, "http" 80, "https" 443, "ws" 80, "wss"
/// 443).
pub const WHATWG_SPECIAL_SCHEMES: [SpecialScheme; 6] = [
    SpecialScheme { name: "ftp", default_port: Some(21) },
    SpecialScheme { name: "file", default_port: None },
    SpecialScheme { name: "http", default_port: Some(80) },
    SpecialScheme { name: "https", default_port: Some(443) },
    SpecialScheme { name: "ws", default_port: Some(80) },
    SpecialScheme { name: "wss", default_port: Some(443) },
];

/// The WHATWG URL Standard, through urlspec's own implementation of its
/// basic URL parser ([`crate::whatwg`], feature `whatwg`). The split of a
/// [`Reference`](crate::Reference) under it is RFC 3986's (the closest
/// syntactic reading); parsing, validity and resolution are the
/// Standard's.
static WHATWG: Rules = Rules {
    name: "whatwg",
    title: "WHATWG URL Standard (living standard)",
    summary: "as browsers parse: special schemes, `\\` read as `/`, hosts \
              and paths normalised (needs the whatwg feature)",
    algorithm: Algorithm::Whatwg,
    backslash_is_slash: true,
    special_schemes: &WHATWG_SPECIAL_SCHEMES,
    cites: Cites {
        scheme: "WHATWG URL §4.4, scheme start and scheme states",
        net_loc: "WHATWG URL §4.4, authority and host states: `/`, `?`, `#` (and `\\` for special schemes) end the host",
        server: "WHATWG URL §3.5 (host parsing) and §4.4 (authority, port states)",
        params: "WHATWG URL §4.4, path state: no params",
        resolution: "WHATWG URL §4.4, basic URL parser with a base",
        empty: "WHATWG URL §4.4: an empty query or fragment is kept",
        chars: "WHATWG URL §4.4: `\\` is a path separator in special URLs",
        equivalence: "WHATWG URL §4.6, URL equivalence: two URLs are equal when their serializations are",
    },
    ..RFC3986_RULES
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for spec in Spec::IETF_AND_WHATWG {
            assert_eq!(spec.name().parse::<Spec>(), Ok(spec));
            assert_eq!(spec.to_string(), spec.name());
        }
        assert_eq!("RFC-1808".parse::<Spec>(), Ok(Spec::Rfc1808));
        assert_eq!("Draft_96_Dec".parse::<Spec>(), Ok(Spec::Draft96Dec));
        let err = "rfc9999".parse::<Spec>().unwrap_err();
        assert!(err.to_string().contains("rfc1630, draft04"));
        assert_eq!(err.expected(), NAMES);
        assert!("a-very-long-name-indeed".parse::<Spec>().is_err());
    }

    #[test]
    fn equivalence_decodes_only_what_it_keeps_raw() {
        // A decoded character is legal raw, so normalizing twice changes
        // nothing more; a query reserves at least what a path does.
        for spec in Spec::IETF {
            let eq = &spec.rules().equivalence;
            assert_eq!(
                eq.decodable.minus(eq.legal),
                CharClass::EMPTY,
                "{spec}"
            );
            assert_eq!(
                eq.query_decodable.minus(eq.decodable),
                CharClass::EMPTY,
                "{spec}"
            );
        }
        let eq = &Spec::Rfc1630.rules().equivalence;
        assert!(
            eq.decodable.contains(b'+') && !eq.query_decodable.contains(b'+')
        );
    }

    #[test]
    fn switch_matrix_rows() {
        // The same-scheme loophole only in RFC 1630 (docs/readings.md#a13).
        let loophole: Vec<_> = Spec::IETF
            .iter()
            .filter(|s| s.rules().same_scheme_is_relative)
            .collect();
        assert_eq!(loophole, [&Spec::Rfc1630]);
        // `..` cancelling `..`: draft 04 and RFC 1630 (A8).
        assert!(Spec::Draft04.rules().dotdot_cancels_dotdot);
        assert!(!Spec::Rfc1808.rules().dotdot_cancels_dotdot);
        // Params: a component in the seeds after RFC 1630 only.
        assert!(
            !Spec::Rfc1630.rules().params && Spec::Draft96Dec.rules().params
        );
        assert!(
            !Spec::Rfc2396.rules().params && !Spec::Rfc3986.rules().params
        );
    }
}
