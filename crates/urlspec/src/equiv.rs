//! Normalization and equivalence: when two URLs are the same URL, per spec.
//!
//! RFC 1630 states the rule every later document refines: "two URIs must be
//! brought to the same encoding level before comparison" (R1630-CMP.1);
//! an escape of a non-reserved character equals the character (Example 1),
//! an escaped reserved character never does (`%2F` is not `/`, Example 2),
//! and a string with an invalid `%` is illegal and cannot be compared at
//! all (Example 3). [`normalize`] brings a URL to its spec's canonical
//! encoding level and [`equivalent`] compares two URLs there; an illegal
//! URL is a [`NotComparable`] error, never `false`.
//!
//! The steps (docs/readings.md#equivalence; RFC 2396 §6, RFC 3986 §6.2) are rungs
//! of RFC 3986 §6.2's comparison ladder, each [`Level`] including the ones
//! below it:
//!
//! | [`Level`] | what it does |
//! |---|---|
//! | [`String`](Level::String) | nothing: simple string comparison (RFC 3986 §6.2.1) |
//! | [`Case`](Level::Case) | scheme in lower case (A15); hex digits of escapes in upper case (A37); the host in lower case where the spec makes it case-insensitive; an empty `;`, `?` or `#` dropped where the spec treats empty as absent (RFC 1808 P1, P4, P5; RFC 1630's void fragment) |
//! | [`PercentEncoding`](Level::PercentEncoding) | escapes of the spec's decodable characters decoded; raw characters the spec requires escaped are escaped (a raw `~` under RFC 1808 becomes `%7E`) |
//! | [`PathSegment`](Level::PathSegment) | RFC 3986 only: `remove_dot_segments` on the path of a URL with a scheme, rooted or not, after decoding (AS15; see below) |
//! | [`Scheme`](Level::Scheme) (default) | an empty port, or the scheme's default port, dropped ([`Options::default_port`]), and any other port written by its value (`:08080` as `:8080`); RFC 3986 only: an empty path with an authority becomes `/`, a mailto domain is lower-cased |
//!
//! What may be decoded, per spec (RFC 1630: URLs are compared at "the same encoding level";
//! docs/readings.md#as16):
//!
//! | spec | decodable (escape ≡ character) | never decoded |
//! |---|---|---|
//! | RFC 1630 | alpha, digit, `$ - _ @ . & ' ( ) , "`, `+` outside a query | `= ; / # ? : %`, `*` and `!`, space, `+` in a query, `@` in the host part |
//! | draft 04 | alpha, digit, safe, extra, national | reserved, `#`, `%` |
//! | RFC 1808 | alpha, digit, safe, extra (`%7E` stays: `~` is national) | reserved, `#`, `%` |
//! | 1996 drafts | alpha, digit, mark (with `~`) | reserved (with `+`), delims; D96: `/ & = +` in a query |
//! | RFC 2396 | `unreserved`, for http, https, ftp and file only | everything else, for every other scheme |
//! | RFC 3986 | `unreserved` | reserved |
//!
//! Decoding never creates a `.` or `..` segment (docs/readings.md#a40): a segment
//! that would decode to one keeps its dots escaped, so `%2E%2E` stays data.
//! RFC 3986 URLs with a scheme are the exception (AS15): their escapes of
//! unreserved characters are decoded, and at [`Level::PathSegment`] and
//! above the dot-segments that result are then removed. The seeds and RFC
//! 2396 never remove dot-segments.
//!
//! RFC 3986 §6.2.2.3 says normalizers "should remove dot-segments by
//! applying the remove_dot_segments algorithm to the path", and resolving a
//! URL with a scheme against any base does the same (5.2.2), so every such
//! path loses them, rooted or not: `x:./foo/bar` gives `x:foo/bar`,
//! `x:mid/content=5/../6` gives `x:mid/6` (5.2.4's own example), and
//! `g:h/../i` gives `g:/i`, the algorithm's output as printed (the
//! resolution option [`RootlessDots`](crate::resolve::RootlessDots) reads
//! it otherwise; normalization follows the text). A relative reference
//! keeps its dot-segments, which climb the base it is resolved against,
//! and a path that would come to start with `//` without an authority
//! (`x:/.//a`) is left as it is, since that would read as an authority.
//!
//! The fragment is not part of the URL (R1808-2.1-FRAG, R96-3-FRAG): it is
//! left out unless [`Options::include_fragment`] is set. The host is
//! compared case-sensitively under the seed specs unless
//! [`Options::host_case`] is set (no seed says hosts are case-insensitive);
//! RFC 2396 (hostnames) and RFC 3986 always fold it.
//!
//! ```
//! use urlspec::equiv::{equivalent, normalize, Options};
//! use urlspec::Spec;
//!
//! let o = Options::default();
//! let a = "http://info.cern.ch/albert/bertram/marie-claude";
//! assert!(equivalent(a, "http://info.cern.ch/albert/bertram/marie%2Dclaude", Spec::Rfc1630, &o).unwrap());
//! assert!(!equivalent(a, "http://info.cern.ch/albert/bertram%2Fmarie-claude", Spec::Rfc1630, &o).unwrap());
//! assert!(equivalent("fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", a, Spec::Rfc1630, &o).is_err());
//! assert_eq!(
//!     normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", Spec::Rfc3986, &o).unwrap(),
//!     "example://a/b/c/%7Bfoo%7D"
//! );
//! ```

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use core::fmt;

use alloc::vec::Vec;

use crate::chars::CharClass;
use crate::escape::{is_escape_at, Escapes, Rewrite};
use crate::names::option_names;
use crate::reference::Redacted;
use crate::reference::{Part, Reference};
use crate::resolve::remove_dot_segments;
use crate::scheme::default_port;
use crate::server::HostKind;
use crate::spec::{HostCase, Spec};

/// A rung of RFC 3986 §6.2's comparison ladder; each includes the ones
/// below it. See the [module docs](self) for what each does per spec.
///
/// ```
/// use urlspec::equiv::Level;
/// assert!(Level::String < Level::Scheme);
/// assert_eq!("percent-encoding".parse::<Level>(), Ok(Level::PercentEncoding));
/// assert_eq!(Level::PathSegment.to_string(), "path-segment");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
pub enum Level {
    /// Simple string comparison (§6.2.1).
    String,
    /// Case normalization (§6.2.2.1).
    Case,
    /// Percent-encoding normalization (§6.2.2.2).
    PercentEncoding,
    /// Path segment normalization (§6.2.2.3).
    PathSegment,
    /// Scheme-based normalization (§6.2.3): the highest rung that needs no
    /// access to the resource.
    #[default]
    Scheme,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 5] = [
        Level::String,
        Level::Case,
        Level::PercentEncoding,
        Level::PathSegment,
        Level::Scheme,
    ];
}

option_names!(Level, "level" {
    String => "string",
    Case => "case",
    PercentEncoding => "percent-encoding",
    PathSegment => "path-segment",
    Scheme => "scheme",
});

/// How to compare: [`Default`], then a setter per option that differs.
///
/// ```
/// use urlspec::equiv::{Level, Options};
/// let o = Options::default().include_fragment(true).level(Level::Case);
/// assert!(o.includes_fragment() && o.drops_default_port() && !o.folds_host_case());
/// assert_eq!(o.comparison_level(), Level::Case);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    default_port: bool,
    include_fragment: bool,
    host_case: bool,
    level: Level,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            default_port: true,
            include_fragment: false,
            host_case: false,
            level: Level::Scheme,
        }
    }
}

impl Options {
    /// Treat an empty port (`host:`) and the scheme's default port
    /// ([`crate::scheme::default_port`]) as no port. Default: on.
    #[must_use]
    pub fn default_port(mut self, on: bool) -> Options {
        self.default_port = on;
        self
    }

    /// Compare the fragments too (they are not part of the URL). Default:
    /// off.
    #[must_use]
    pub fn include_fragment(mut self, on: bool) -> Options {
        self.include_fragment = on;
        self
    }

    /// Fold the host to lower case under the seed specs, which do not say
    /// hosts are case-insensitive. RFC 2396 and RFC 3986 always fold it.
    /// Default: off.
    #[must_use]
    pub fn host_case(mut self, on: bool) -> Options {
        self.host_case = on;
        self
    }

    /// The rung of the ladder. Default: [`Level::Scheme`].
    #[must_use]
    pub fn level(mut self, level: Level) -> Options {
        self.level = level;
        self
    }

    /// Whether default and empty ports are dropped
    /// ([`default_port`](Self::default_port)).
    #[must_use]
    pub fn drops_default_port(&self) -> bool {
        self.default_port
    }

    /// Whether fragments are compared
    /// ([`include_fragment`](Self::include_fragment)).
    #[must_use]
    pub fn includes_fragment(&self) -> bool {
        self.include_fragment
    }

    /// Whether hosts are folded under every spec
    /// ([`host_case`](Self::host_case)).
    #[must_use]
    pub fn folds_host_case(&self) -> bool {
        self.host_case
    }

    /// The rung of the ladder ([`level`](Self::level)).
    #[must_use]
    pub fn comparison_level(&self) -> Level {
        self.level
    }
}

/// A URL that cannot be compared: it holds a `%` that does not start an
/// escape, which RFC 1630 (Example 3) makes illegal.
///
/// ```
/// use urlspec::equiv::normalize;
/// use urlspec::Spec;
/// let e = normalize("news:12345667123%asdghfh@info.cern.ch", Spec::Rfc1630, &Default::default())
///     .unwrap_err();
/// assert_eq!((e.position, e.found.as_str()), (16, "%as"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct NotComparable {
    /// The URL.
    pub input: String,
    /// The byte offset of the `%`.
    pub position: usize,
    /// The text there (the `%` and at most two more characters), or, under
    /// [`Spec::Whatwg`], the parser's reason.
    pub found: String,
}

impl NotComparable {
    /// The input with its password hidden, for messages (R96-8.4).
    fn shown(&self) -> String {
        let r = Reference::parse_with(&self.input, Spec::Rfc3986);
        Redacted::new(&r).to_string()
    }
}

impl fmt::Debug for NotComparable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NotComparable")
            .field("input", &self.shown())
            .field("position", &self.position)
            .field("found", &self.found)
            .finish()
    }
}

impl fmt::Display for NotComparable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.found.starts_with('%') {
            // Under the WHATWG spec: the parser's reason.
            return write!(
                f,
                "`{}` is not a URL for the WHATWG URL Standard: {}",
                self.shown(),
                self.found
            );
        }
        write!(
            f,
            "`{}` is not a legal URL and cannot be compared: `{}` at byte {} \
             is not an escape (`%` must be followed by two hex digits; RFC \
             1630, Example 3)",
            self.shown(),
            self.found,
            self.position
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NotComparable {}

fn check_escapes(input: &str) -> Result<(), NotComparable> {
    let b = input.as_bytes();
    match (0..b.len()).find(|&i| b[i] == b'%' && !is_escape_at(b, i)) {
        None => Ok(()),
        Some(i) => Err(NotComparable {
            input: input.to_string(),
            position: i,
            // Whole characters: the `%` and what stands where its two hex
            // digits should.
            found: input[i..].chars().take(3).collect(),
        }),
    }
}

/// Brings `input` to `spec`'s canonical encoding level: the string
/// [`equivalent`] compares. Applying it twice changes nothing more.
///
/// ```
/// use urlspec::equiv::{normalize, Options};
/// use urlspec::Spec;
/// let o = Options::default();
/// // `~` is national in RFC 1808 and unreserved in the 1996 draft.
/// assert_eq!(normalize("HTTP://a/~u", Spec::Rfc1808, &o).unwrap(), "http://a/%7Eu");
/// assert_eq!(normalize("HTTP://a/%7eu", Spec::Draft96, &o).unwrap(), "http://a/~u");
/// assert_eq!(normalize("http://a:80/b#f", Spec::Rfc1808, &o).unwrap(), "http://a/b");
/// assert_eq!(normalize("http://example.com", Spec::Rfc3986, &o).unwrap(), "http://example.com/");
/// ```
///
/// # Errors
///
/// [`NotComparable`], when `input` holds a `%` that does not start an
/// escape (its `position`: the byte offset of that `%`; its `found`: the
/// `%` and at most two more characters). Under [`Spec::Whatwg`], when the
/// standard's parser fails instead (its `position`: the failure's byte
/// offset; its `found`: the parser's reason), which a build without the
/// `whatwg` feature always does, at position 0.
pub fn normalize(
    input: &str,
    spec: Spec,
    options: &Options,
) -> Result<String, NotComparable> {
    if spec == Spec::Whatwg {
        // The standard's serialization is its normal form.
        let c =
            crate::whatwg::parse(input, None).map_err(|e| NotComparable {
                input: input.into(),
                position: e.position,
                found: e.to_string(),
            })?;
        let end = match (&c.fragment, options.include_fragment) {
            (Some(f), false) => c.href.len() - f.len() - 1,
            _ => c.href.len(),
        };
        return Ok(c.href[..end].into());
    }
    check_escapes(input)?;
    let r = Reference::parse_with(input, spec);
    let level = options.level;
    if level == Level::String {
        let end = match r.span(Part::Fragment) {
            Some(f) if !options.include_fragment => f.start - 1,
            _ => input.len(),
        };
        return Ok(input[..end].to_string());
    }
    let s1 = rewrite_escapes(&r, spec, level);
    Ok(structure(&Reference::parse_with(&s1, spec), spec, level, options))
}

/// Whether `a` and `b` are the same URL under `spec`: whether they
/// [`normalize`] to the same string.
///
/// ```
/// use urlspec::equiv::{equivalent, Options};
/// use urlspec::Spec;
/// let o = Options::default();
/// // `+` is safe in RFC 1808 and reserved in the 1996 draft.
/// assert!(equivalent("http://a/x+y", "http://a/x%2By", Spec::Rfc1808, &o).unwrap());
/// assert!(!equivalent("http://a/x+y", "http://a/x%2By", Spec::Draft96, &o).unwrap());
/// // The fragment is not part of the URL, unless asked.
/// assert!(equivalent("http://a/b#x", "http://a/b#y", Spec::Rfc1808, &o).unwrap());
/// assert!(!equivalent("http://a/b#x", "http://a/b#y", Spec::Rfc1808, &o.include_fragment(true)).unwrap());
/// ```
///
/// # Errors
///
/// [`NotComparable`], as [`normalize`] gives it, for the first of `a` and
/// `b` that cannot be normalized (its `input` tells which).
pub fn equivalent(
    a: &str,
    b: &str,
    spec: Spec,
    options: &Options,
) -> Result<bool, NotComparable> {
    let a = normalize(a, spec, options)?;
    let b = normalize(b, spec, options)?;
    Ok(a == b)
}

/// A normalized URL, usable as a key: equivalent URLs make equal keys with
/// equal hashes.
///
/// ```
/// use std::collections::HashMap;
/// use urlspec::equiv::{NormalizedUrl, Options};
/// use urlspec::Spec;
///
/// let o = Options::default();
/// let mut hits: HashMap<NormalizedUrl, u32> = HashMap::new();
/// for url in ["http://a/~u", "HTTP://a/%7Eu", "http://a:80/%7eu#top"] {
///     *hits.entry(NormalizedUrl::new(url, Spec::Draft96, &o).unwrap()).or_default() += 1;
/// }
/// assert_eq!(hits.len(), 1);
/// assert_eq!(hits.keys().next().unwrap().as_str(), "http://a/~u");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NormalizedUrl {
    text: String,
    spec: Spec,
}

impl NormalizedUrl {
    /// Normalizes `input` under `spec`.
    ///
    /// # Errors
    ///
    /// [`NotComparable`], as [`normalize`] gives it.
    pub fn new(
        input: &str,
        spec: Spec,
        options: &Options,
    ) -> Result<NormalizedUrl, NotComparable> {
        Ok(NormalizedUrl { text: normalize(input, spec, options)?, spec })
    }

    /// The normalized string.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The spec it was normalized under.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The normalized string, given back.
    #[must_use]
    pub fn into_string(self) -> String {
        self.text
    }
}

impl AsRef<str> for NormalizedUrl {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for NormalizedUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for NormalizedUrl {
    /// Redacts a password (R96-8.4).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = Reference::parse_with(&self.text, self.spec);
        write!(
            f,
            "NormalizedUrl({:?}, {})",
            Redacted::new(&r).to_string(),
            self.spec
        )
    }
}

/// The parts of a URL whose decodable set differs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Comp {
    Authority,
    Path,
    Query,
    Other,
}

/// The characters whose escapes `spec` lets normalization decode in `comp`.
fn decodable(spec: Spec, comp: Comp, scheme: Option<&str>) -> CharClass {
    let eq = &spec.rules().equivalence;
    let allowed = eq.decode_schemes.is_none_or(|schemes| {
        scheme
            .is_some_and(|s| schemes.iter().any(|a| a.eq_ignore_ascii_case(s)))
    });
    if !allowed {
        return CharClass::EMPTY;
    }
    match comp {
        // `@` and `:` delimit user, password, host and port.
        Comp::Authority => eq.decodable.without(b'@').without(b':'),
        Comp::Query => eq.query_decodable,
        _ => eq.decodable,
    }
}

/// Phase 1: each component's escapes, per the spec's sets. Decoding never
/// adds a delimiter, so the result splits into the same components.
fn rewrite_escapes(r: &Reference<'_>, spec: Spec, level: Level) -> String {
    let decoding = level >= Level::PercentEncoding;
    let scheme = r.scheme();
    let eq = &spec.rules().equivalence;
    // Below `PercentEncoding`, escapes only have their hex digits
    // upper-cased; from it on, the decodable ones are decoded and raw
    // characters outside the spec's legal set escaped.
    let rw = |comp| {
        if decoding {
            Rewrite::new(
                Some(eq.legal),
                Escapes::Normalize(decodable(spec, comp, scheme)),
            )
        } else {
            Rewrite::new(None, Escapes::Normalize(CharClass::EMPTY))
        }
    };
    // Neither decoding nor escaping raw characters.
    let verbatim = Rewrite::new(None, Escapes::Normalize(CharClass::EMPTY));
    let mut out = Vec::with_capacity(r.as_str().len() + 8);
    if has_url_prefix(r) {
        out.extend_from_slice(b"url:");
    }
    if let Some(s) = scheme {
        let no_decoding = if decoding {
            Rewrite::new(Some(eq.legal), Escapes::Normalize(CharClass::EMPTY))
        } else {
            verbatim
        };
        no_decoding.apply(s.as_bytes(), &mut out);
        out.push(b':');
    }
    if let Some(n) = r.net_loc() {
        out.extend_from_slice(b"//");
        rw(Comp::Authority).apply(n.as_bytes(), &mut out);
    }
    // A relative path whose first segment holds `:` must not gain a
    // scheme by decoding what precedes the colon (`%61:b` is not `a:b`).
    let guard_first = scheme.is_none() && r.net_loc().is_none();
    // A40: no new `.` or `..` segments, except where RFC 3986 decodes
    // unreserved dots in a URL with a scheme (AS15).
    let protect_dots = !(eq.remove_dot_segments && scheme.is_some());
    let path_rw = rw(Comp::Path);
    for (k, seg) in r.path().split('/').enumerate() {
        if k > 0 {
            out.push(b'/');
        }
        let start = out.len();
        let seg = seg.as_bytes();
        match memchr::memchr(b':', seg) {
            // Neither decoding nor escaping may turn the text before the
            // colon into a scheme: RFC 1630's `ialpha` admits escapes, so
            // `U<SUB>-:` escaped becomes the scheme `U%1A-` (fuzzing).
            Some(c) if k == 0 && guard_first => {
                verbatim.apply(&seg[..c], &mut out);
                path_rw.apply(&seg[c..], &mut out);
            }
            _ => path_rw.apply(seg, &mut out),
        }
        if protect_dots && seg.contains(&b'%') {
            let dots = out.len() - start;
            if &out[start..] == b"." || &out[start..] == b".." {
                out.truncate(start);
                for _ in 0..dots {
                    out.extend_from_slice(b"%2E");
                }
            }
        }
    }
    for (delim, part, comp) in [
        (b';', r.params(), Comp::Other),
        (b'?', r.query(), Comp::Query),
        (b'#', r.fragment(), Comp::Other),
    ] {
        if let Some(p) = part {
            out.push(delim);
            rw(comp).apply(p.as_bytes(), &mut out);
        }
    }
    // A run of raw bytes copied ends only at a `%` or at a byte that is
    // escaped, with every byte of its character: the text stays UTF-8.
    String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether the normal form keeps RFC 1630's `url:` prefix. It is no part
/// of the URL and is dropped, except before a scheme that is itself `url`:
/// without it, `url:` would be read as the prefix again and the normal
/// form would not be normal (found by fuzzing).
fn has_url_prefix(r: &Reference<'_>) -> bool {
    r.prefix().is_some()
        && r.scheme().is_some_and(|s| s.eq_ignore_ascii_case("url"))
}

/// Pushes `s` with its ASCII letters in lower case, escapes excepted.
fn push_lower(out: &mut String, s: &str) {
    let b = s.as_bytes();
    let mut i = 0;
    for (k, ch) in s.char_indices() {
        if k < i {
            continue;
        }
        if ch == '%' && is_escape_at(b, k) {
            out.push_str(&s[k..k + 3]);
            i = k + 3;
        } else {
            out.push(ch.to_ascii_lowercase());
        }
    }
}

/// Phase 2: case, ports, dot-segments and empty components, on the
/// re-parsed result of phase 1.
fn structure(
    r: &Reference<'_>,
    spec: Spec,
    level: Level,
    options: &Options,
) -> String {
    let rules = spec.rules();
    let scheme = r.scheme();
    let mut out = String::with_capacity(r.as_str().len() + 1);
    if has_url_prefix(r) {
        out.push_str("url:");
    }
    if let Some(s) = scheme {
        push_lower(&mut out, s);
        out.push(':');
    }
    if let Some(n) = r.net_loc() {
        out.push_str("//");
        authority(&mut out, r, n, spec, level, options);
    }
    let mut path = Cow::Borrowed(r.path());
    let eq = &rules.equivalence;
    // §6.2.2.3: remove_dot_segments on the path, rooted or not, as
    // resolving the URI against any base would (5.2.2). A relative
    // reference keeps its dot segments: they climb the base.
    if eq.remove_dot_segments
        && level >= Level::PathSegment
        && scheme.is_some()
    {
        let p = remove_dot_segments(&path);
        // Without an authority, a path may not start with `//`.
        if r.net_loc().is_some() || !p.starts_with("//") {
            path = Cow::Owned(p);
        }
    }
    if eq.scheme_based && level >= Level::Scheme {
        if r.net_loc().is_some() && path.is_empty() {
            path = Cow::Borrowed("/");
        }
        if scheme.is_some_and(|s| s.eq_ignore_ascii_case("mailto")) {
            if let Some(at) = path.rfind('@') {
                let mut p = String::with_capacity(path.len());
                p.push_str(&path[..=at]);
                push_lower(&mut p, &path[at + 1..]);
                path = Cow::Owned(p);
            }
        }
    }
    out.push_str(&path);
    let drop_empty = rules.empty_is_absent;
    if let Some(p) = r.params().filter(|p| !(p.is_empty() && drop_empty)) {
        out.push(';');
        out.push_str(p);
    }
    if let Some(q) = r.query().filter(|q| !(q.is_empty() && drop_empty)) {
        out.push('?');
        out.push_str(q);
    }
    if options.include_fragment {
        // RFC 1630: "A void fragment-id with or without the hash sign
        // means that the URL refers to the whole object".
        let void = eq.void_fragment;
        if let Some(f) = r.fragment().filter(|f| !(f.is_empty() && void)) {
            out.push('#');
            out.push_str(f);
        }
    }
    out
}

/// The authority: user information as it is, the host folded where the
/// spec (or the option) says so, the port dropped when empty or default.
fn authority(
    out: &mut String,
    r: &Reference<'_>,
    net_loc: &str,
    spec: Spec,
    level: Level,
    options: &Options,
) {
    let Some(server) = r.server() else {
        out.push_str(net_loc);
        return;
    };
    let Some(host) = server.host() else {
        // An RFC 2396 `reg_name`: no host to fold, no port.
        out.push_str(net_loc);
        return;
    };
    if let Some(ui) = server.userinfo() {
        out.push_str(ui);
        out.push('@');
    }
    let fold = options.host_case
        || match spec.rules().equivalence.host_case {
            HostCase::Sensitive => false,
            HostCase::Hostnames => matches!(
                server.host_kind(),
                HostKind::Hostname | HostKind::Ipv4 | HostKind::Ipv6
            ),
            HostCase::Insensitive => true,
        };
    if fold {
        push_lower(out, host);
    } else {
        out.push_str(host);
    }
    if let Some(port) = server.port() {
        // A `:` left in the host would make the next parse split there.
        let clean = host.starts_with('[') || !host.contains(':');
        let default = r.scheme().and_then(default_port).map(|(p, _)| p);
        let drop = level >= Level::Scheme
            && options.default_port
            && clean
            && (port.is_empty()
                || (default.is_some() && server.port_number() == default));
        if !drop {
            out.push(':');
            // By value: `:08080` is `:8080`, as `:080` is the default 80.
            let digits =
                !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
            if level >= Level::Scheme && digits {
                let value = port.trim_start_matches('0');
                out.push_str(if value.is_empty() { "0" } else { value });
            } else {
                out.push_str(port);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str, spec: Spec) -> String {
        normalize(s, spec, &Options::default()).unwrap()
    }

    #[test]
    fn dots_stay_escaped_when_they_would_make_a_dot_segment() {
        assert_eq!(
            n("http://a/b/%2E%2E/c", Spec::Rfc1808),
            "http://a/b/%2E%2E/c"
        );
        assert_eq!(
            n("http://a/b/.%2e/c", Spec::Rfc1808),
            "http://a/b/%2E%2E/c"
        );
        assert_eq!(n("http://a/b/%2Ex/c", Spec::Rfc1808), "http://a/b/.x/c");
        assert_eq!(n("http://a/b/%2E%2E/c", Spec::Rfc3986), "http://a/c");
        assert_eq!(n("%2E%2E/g", Spec::Rfc3986), "%2E%2E/g");
    }

    #[test]
    fn relative_first_segment_gains_no_scheme() {
        assert_eq!(n("%61:b", Spec::Rfc3986), "%61:b");
        assert_eq!(n("a%2Bb:c", Spec::Rfc1808), "a%2Bb:c");
        assert_eq!(n("x/%61:b", Spec::Rfc1808), "x/a:b");
    }

    #[test]
    fn ports() {
        assert_eq!(n("http://a:80:80/", Spec::Rfc1808), "http://a:80:80/");
        assert_eq!(n("foo://a:/", Spec::Rfc3986), "foo://a/");
        assert_eq!(n("foo://a:80/", Spec::Rfc3986), "foo://a:80/");
        let o = Options::default().default_port(false);
        assert_eq!(
            normalize("http://a:/", Spec::Rfc1808, &o).unwrap(),
            "http://a:/"
        );
    }

    #[test]
    fn host_folding() {
        assert_eq!(n("http://A%41.com/", Spec::Rfc3986), "http://aa.com/");
        assert_eq!(n("http://A.com/", Spec::Rfc1808), "http://A.com/");
        let o = Options::default().host_case(true);
        assert_eq!(
            normalize("http://A.com/", Spec::Rfc1808, &o).unwrap(),
            "http://a.com/"
        );
        assert_eq!(
            n("http://www.XEROX.com", Spec::Rfc2396),
            "http://www.xerox.com"
        );
        assert_eq!(n("foo://A_B/", Spec::Rfc2396), "foo://A_B/");
    }

    #[test]
    fn push_lower_keeps_escapes() {
        let mut s = String::new();
        push_lower(&mut s, "AB%C3%A9Cé");
        assert_eq!(s, "ab%C3%A9cé");
    }

    #[test]
    fn string_level_is_the_input() {
        let o = Options::default().level(Level::String);
        assert_eq!(
            normalize("HTTP://a/%7e#f", Spec::Rfc3986, &o).unwrap(),
            "HTTP://a/%7e"
        );
    }
}
