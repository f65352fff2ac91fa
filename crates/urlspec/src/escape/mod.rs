//! Escaping and unescaping: the `%` hex hex triplets of every spec.
//!
//! The rules are the same in every document (RFC 1808 §2.2, the 1996
//! draft §2.3.2, RFC 3986 §2.4): a URL is always held in escaped form;
//! escape while composing it from components, unescape only after splitting
//! it into components, never twice. So there are two directions:
//!
//! * [`escape`] turns *data* into the text of one [`Component`] under one
//!   spec, escaping every byte that component cannot hold as data, `%`
//!   included. [`escape_unsafe`] instead takes text that is already a
//!   component and escapes only what may not appear there, leaving existing
//!   escapes alone, so it never double-escapes (RFC 1630 "a URI may be made
//!   safer by encoding more characters").
//! * [`unescape`] turns component text into octets, charset-neutral;
//!   [`unescape_str`] also requires UTF-8. An invalid sequence such as `%*`
//!   or `%as` (RFC 1630, Example 3) is an [`EscapeError`] with its byte
//!   position, or, with [`unescape_lenient`], is kept verbatim and reported.
//!
//! `+` means a space only in RFC 1630 query strings; that reading exists
//! solely as the explicit [`escape_form`] / [`unescape_form`] pair.
//!
//! Every function returns borrowed data when nothing changes.
//!
//! ```
//! use std::borrow::Cow;
//! use urlspec::escape::{escape, unescape, Component};
//! use urlspec::Spec;
//!
//! let text = escape("Los Angeles", Component::PathSegment, Spec::Rfc1808);
//! assert_eq!(text, "Los%20Angeles");
//! assert_eq!(unescape(&text).unwrap(), &b"Los Angeles"[..]);
//! // Nothing to do: nothing allocated.
//! assert!(matches!(escape("a-b", Component::Query, Spec::Rfc1808), Cow::Borrowed(_)));
//! ```

mod wire;

pub use wire::{
    decode_for_wire, is_line_oriented, WireError, WireErrorKind, LINE_ORIENTED,
};
pub(crate) use wire::{
    decode_for_wire_in, decode_for_wire_text, delimiter_name, wire_text,
};

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::chars::CharClass;
use crate::names::UnknownName;
use crate::spec::Spec;

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// A component whose data can be escaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// One path segment: `/` is escaped.
    PathSegment = 0,
    /// One parameter of the params (RFC 1808 `param`): `;` is escaped.
    Params = 1,
    /// The query.
    Query = 2,
    /// The fragment.
    Fragment = 3,
    /// The user name of a server: `:`, `@` and `/` are escaped.
    User = 4,
    /// The password of a server.
    Password = 5,
    /// A host name.
    Host = 6,
}

impl Component {
    /// Every component.
    pub const ALL: [Component; 7] = [
        Component::PathSegment,
        Component::Params,
        Component::Query,
        Component::Fragment,
        Component::User,
        Component::Password,
        Component::Host,
    ];

    /// The name used on the command line and in data files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Component::PathSegment => "path_segment",
            Component::Params => "params",
            Component::Query => "query",
            Component::Fragment => "fragment",
            Component::User => "user",
            Component::Password => "password",
            Component::Host => "host",
        }
    }

    /// The characters that stand for themselves as data in this component
    /// under `spec`.
    ///
    /// ```
    /// use urlspec::escape::Component;
    /// use urlspec::Spec;
    /// // `+` is safe in RFC 1808 but reserved in the 1996 draft.
    /// assert!(Component::Query.data_chars(Spec::Rfc1808).contains(b'+'));
    /// assert!(!Component::Query.data_chars(Spec::Draft96).contains(b'+'));
    /// ```
    #[must_use]
    pub fn data_chars(self, spec: Spec) -> CharClass {
        spec.rules().data[self as usize]
    }

    /// The characters the component's grammar admits unescaped under
    /// `spec`, delimiters included.
    #[must_use]
    pub fn grammar_chars(self, spec: Spec) -> CharClass {
        let g = &spec.rules().grammar;
        match self {
            Component::PathSegment => g.segment,
            Component::Params => g.param,
            Component::Query => g.query,
            Component::Fragment => g.fragment,
            Component::User | Component::Password => g.userinfo,
            Component::Host => g.reg_name,
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every component's name, in [`Component::ALL`]'s order.
const NAMES: [&str; Component::ALL.len()] = {
    let mut names = [""; Component::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Component::ALL[i].name();
        i += 1;
    }
    names
};

impl FromStr for Component {
    type Err = UnknownName;

    /// Reads a component's name as every option name is read
    /// ([`crate::names`]: any ASCII case, `-` for `_`); `path` is the path
    /// segment too.
    ///
    /// ```
    /// use urlspec::escape::Component;
    /// assert_eq!("path-segment".parse::<Component>(), Ok(Component::PathSegment));
    /// assert_eq!("path".parse::<Component>(), Ok(Component::PathSegment));
    /// let e = "paths".parse::<Component>().unwrap_err();
    /// assert_eq!(e.expected(), ["path_segment", "params", "query", "fragment", "user", "password", "host"]);
    /// assert!(e.to_string().starts_with("unknown component `paths`; expected one of: path_segment"));
    /// ```
    fn from_str(s: &str) -> Result<Component, UnknownName> {
        if crate::names::is(s, "path") {
            return Ok(Component::PathSegment);
        }
        Component::ALL
            .into_iter()
            .find(|c| crate::names::is(s, c.name()))
            .ok_or_else(|| UnknownName::new(s, "component", &NAMES))
    }
}

/// Escapes `data` for `component` under `spec`: every byte the component
/// cannot hold as data becomes `%XX` (upper-case hex), `%` included.
///
/// ```
/// use urlspec::escape::{escape, Component};
/// use urlspec::Spec;
///
/// assert_eq!(escape("a+b", Component::Query, Spec::Rfc1808), "a+b");
/// assert_eq!(escape("a+b", Component::Query, Spec::Draft96), "a%2Bb");
/// assert_eq!(escape("100%", Component::Query, Spec::Rfc3986), "100%25");
/// assert_eq!(escape("a/b", Component::PathSegment, Spec::Rfc3986), "a%2Fb");
/// ```
#[must_use]
pub fn escape(data: &str, component: Component, spec: Spec) -> Cow<'_, str> {
    match escape_with(data.as_bytes(), component.data_chars(spec), false) {
        None => Cow::Borrowed(data),
        Some(s) => Cow::Owned(s),
    }
}

/// Escapes arbitrary octets for `component` under `spec`, as [`escape`].
///
/// ```
/// use urlspec::escape::{escape_bytes, Component};
/// use urlspec::Spec;
/// assert_eq!(escape_bytes(b"\xE9t\xE9", Component::PathSegment, Spec::Rfc1630), "%E9t%E9");
/// ```
#[must_use]
pub fn escape_bytes(
    data: &[u8],
    component: Component,
    spec: Spec,
) -> Cow<'_, str> {
    match escape_with(data, component.data_chars(spec), false) {
        // Nothing to escape: every byte is in a class, so ASCII.
        None => Cow::Borrowed(core::str::from_utf8(data).unwrap_or_default()),
        Some(s) => Cow::Owned(s),
    }
}

/// Escapes what `text` may not hold as `component` under `spec`, leaving
/// valid escapes as they are: applying it twice changes nothing more.
///
/// A `%` that does not start a valid escape is escaped as `%25`.
///
/// ```
/// use urlspec::escape::{escape_unsafe, Component};
/// use urlspec::Spec;
///
/// let once = escape_unsafe("a b%20c", Component::PathSegment, Spec::Rfc1808);
/// assert_eq!(once, "a%20b%20c");
/// assert_eq!(escape_unsafe(&once, Component::PathSegment, Spec::Rfc1808), once);
/// assert_eq!(escape_unsafe("100%", Component::Query, Spec::Rfc3986), "100%25");
/// ```
#[must_use]
pub fn escape_unsafe(
    text: &str,
    component: Component,
    spec: Spec,
) -> Cow<'_, str> {
    match escape_with(text.as_bytes(), component.grammar_chars(spec), true) {
        None => Cow::Borrowed(text),
        Some(s) => Cow::Owned(s),
    }
}

/// The escaped form of `data`, or `None` when every byte stays (and so no
/// allocation is made): a byte stays when it is in `keep`, or, with
/// `keep_escapes`, when it starts a valid escape (whose hex digits are in
/// every class).
fn escape_with(
    data: &[u8],
    keep: CharClass,
    keep_escapes: bool,
) -> Option<String> {
    let escapes = if keep_escapes { Escapes::Keep } else { Escapes::Data };
    let rw = Rewrite::new(Some(keep), escapes);
    let mut out = Vec::new();
    let done = rw.changes(data, &mut out, data.len() + data.len() / 2 + 3);
    if done == 0 {
        return None;
    }
    out.extend_from_slice(&data[done..]);
    // Every byte written is a byte of `keep` (ASCII), `%` or a hex digit,
    // so the conversion cannot fail.
    Some(String::from_utf8(out).unwrap_or_default())
}

/// What a [`Rewrite`] does with the escapes already in the text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Escapes {
    /// There are none: `%` is data like any byte (escaped as `%25` unless
    /// the class keeps it).
    Data,
    /// Kept as written.
    Keep,
    /// Hex digits in upper case, and the escape of a character of the
    /// class decoded to the character (RFC 3986 §6.2.2.1–2). A `%` that
    /// starts no escape is a byte like any other.
    Normalize(CharClass),
}

/// One percent-encoding rewrite of component text: the raw bytes outside
/// a class escaped, the escapes kept, taken as data or normalized. Runs of
/// bytes that stay are copied whole.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rewrite {
    /// The bytes that stay as they are, as a bitmap over all 256 (one
    /// load and one bit test per byte); `%` is never in it when escapes
    /// are normalized, since they all change case or decode.
    stays: [u64; 4],
    /// Whether a `%` that starts no escape stays.
    stray_percent_stays: bool,
    escapes: Escapes,
}

impl Rewrite {
    /// A rewrite that keeps the raw bytes of `keep` (every byte: `None`)
    /// and escapes every other one, its escapes handled as `escapes` says.
    pub(crate) const fn new(
        keep: Option<CharClass>,
        escapes: Escapes,
    ) -> Rewrite {
        let mut stays = match keep {
            Some(class) => {
                let bits = class.bits();
                [bits as u64, (bits >> 64) as u64, 0, 0]
            }
            None => [u64::MAX; 4],
        };
        let stray_percent_stays = stays[0] & (1 << b'%') != 0;
        if let Escapes::Normalize(_) = escapes {
            stays[0] &= !(1 << b'%');
        }
        Rewrite { stays, stray_percent_stays, escapes }
    }

    #[inline(always)]
    fn stays(&self, b: u8) -> bool {
        self.stays[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }

    /// Calls `stop(at)` at each byte at or after `from` that does not
    /// stay, in order; `stop` returns the index to go on from, past `at`.
    /// Where the CPU has AVX2, sixteen bytes are classified at a time.
    #[inline]
    fn each_stop(
        &self,
        data: &[u8],
        from: usize,
        mut stop: impl FnMut(usize) -> usize,
    ) {
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "sse2",
            feature = "std"
        ))]
        if let Some(avx2) = crate::bytes::x86::Avx2::get() {
            crate::bytes::x86::each_outside(
                avx2,
                &self.stays,
                data,
                from,
                stop,
            );
            return;
        }
        let mut i = from;
        while i < data.len() {
            if self.stays(data[i]) {
                i += 1;
            } else {
                i = stop(i);
            }
        }
    }

    /// What becomes of the byte at `at`, one that does not stay: how
    /// many bytes it takes and what replaces them (`None`: they stay).
    #[inline(always)]
    fn at(&self, data: &[u8], at: usize) -> (usize, Option<Put>) {
        let b = data[at];
        match self.escapes {
            Escapes::Data => (1, Some(Put::Hex(b))),
            Escapes::Keep if is_escape_at(data, at) => (3, None),
            Escapes::Keep => (1, Some(Put::Hex(b))),
            Escapes::Normalize(decode) => match escaped_octet(data, at) {
                Some(v) if decode.contains(v) => (3, Some(Put::Byte(v))),
                Some(v) => (3, Some(Put::Hex(v))),
                None if b == b'%' && self.stray_percent_stays => (1, None),
                None => (1, Some(Put::Hex(b))),
            },
        }
    }

    /// Appends to `out` the rewrite of `data` up to its last change, and
    /// returns the index where the rest, which stays, begins: 0 when
    /// nothing changes, and then nothing is appended (and `out` not
    /// grown). At the first change, an `out` without capacity is given
    /// `room` bytes.
    #[inline]
    fn changes(&self, data: &[u8], out: &mut Vec<u8>, room: usize) -> usize {
        let mut done = 0;
        self.each_stop(
            data,
            0,
            #[inline(always)]
            |at| {
                let (n, put) = self.at(data, at);
                if let Some(put) = put {
                    if done == 0 && out.capacity() == 0 {
                        *out = Vec::with_capacity(room);
                    }
                    out.extend_from_slice(&data[done..at]);
                    match put {
                        Put::Byte(v) => out.push(v),
                        Put::Hex(v) => push_hex(out, v),
                    }
                    done = at + n;
                }
                at + n
            },
        );
        done
    }

    /// Appends the rewrite of `data` to `out`.
    pub(crate) fn apply(&self, data: &[u8], out: &mut Vec<u8>) {
        let done = self.changes(data, out, 0);
        out.extend_from_slice(&data[done..]);
    }
}

/// What a [`Rewrite`] writes for the bytes it changes.
#[derive(Clone, Copy)]
enum Put {
    /// The byte itself (a decoded escape).
    Byte(u8),
    /// The byte escaped, `%` and two upper-case hex digits.
    Hex(u8),
}

fn push_hex(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[
        b'%',
        UPPER_HEX[usize::from(b >> 4)],
        UPPER_HEX[usize::from(b & 15)],
    ]);
}

/// Appends `%XX` for `b`, upper-case as RFC 3986 §2.1 and the WHATWG
/// URL Standard write escapes.
#[inline]
pub(crate) fn push_escape(out: &mut String, b: u8) {
    out.push('%');
    out.push(UPPER_HEX[usize::from(b >> 4)] as char);
    out.push(UPPER_HEX[usize::from(b & 15)] as char);
}

/// Whether `bytes[i..]` starts with `%` hex hex.
#[inline]
pub(crate) fn is_escape_at(bytes: &[u8], i: usize) -> bool {
    bytes.len() > i + 2
        && bytes[i] == b'%'
        && bytes[i + 1].is_ascii_hexdigit()
        && bytes[i + 2].is_ascii_hexdigit()
}

/// The octet of the escape `%` hex hex at `bytes[i..]`, if one starts
/// there.
#[inline]
pub(crate) fn escaped_octet(bytes: &[u8], i: usize) -> Option<u8> {
    is_escape_at(bytes, i)
        .then(|| hex_value(bytes[i + 1]) << 4 | hex_value(bytes[i + 2]))
}

/// The value of a hex digit (any other byte gives a meaningless value).
#[inline]
pub(crate) fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

/// Why unescaping failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EscapeErrorKind {
    /// A `%` not followed by two hex digits (`%*`, `%as`, a final `%4`).
    InvalidEscape,
    /// The octets are not UTF-8 (only from [`unescape_str`]).
    NotUtf8,
}

/// An invalid escape or non-UTF-8 result, with the byte position in the
/// input where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscapeError {
    /// Byte offset in the input.
    pub position: usize,
    /// What is wrong there.
    pub kind: EscapeErrorKind,
    /// The offending text (for an escape, the `%` and at most two more
    /// characters).
    pub found: String,
}

impl fmt::Display for EscapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            EscapeErrorKind::InvalidEscape => write!(
                f,
                "invalid escape `{}` at byte {}: `%` must be followed by two \
                 hex digits (write a literal `%` as `%25`)",
                self.found, self.position
            ),
            EscapeErrorKind::NotUtf8 => write!(
                f,
                "the octets escaped at byte {} are not UTF-8 text (unescape \
                 to bytes to keep them)",
                self.position
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EscapeError {}

fn invalid_at(text: &str, i: usize) -> EscapeError {
    // Whole characters: the `%` and what stands where its digits should.
    let found = text[i..].chars().take(3).collect();
    EscapeError { position: i, kind: EscapeErrorKind::InvalidEscape, found }
}

/// Unescapes component text to octets. Any `%` that does not start a valid
/// escape is an error. Each escape is decoded once: `%2541` is `%41`.
///
/// ```
/// use urlspec::escape::unescape;
/// assert_eq!(unescape("%2541").unwrap(), &b"%41"[..]);
/// assert_eq!(unescape("a%e9").unwrap(), &b"a\xE9"[..]);
/// let err = unescape("asdf%*.fred").unwrap_err();
/// assert_eq!(err.position, 4);
/// ```
///
/// # Errors
///
/// [`EscapeError`] of kind [`EscapeErrorKind::InvalidEscape`] at the byte
/// offset of the first `%` not followed by two hex digits, its `found` the
/// `%` and at most two more characters.
pub fn unescape(text: &str) -> Result<Cow<'_, [u8]>, EscapeError> {
    decode(text.as_bytes(), false, false).map_err(|i| invalid_at(text, i))
}

/// Unescapes octets that need not be UTF-8 (a Python `bytes`, a header
/// value), keeping each `%` that does not start a valid escape as it is:
/// Python's `urllib.parse.unquote_to_bytes` rule.
///
/// ```
/// use urlspec::escape::unescape_bytes_lenient;
/// assert_eq!(unescape_bytes_lenient(b"\xFF%41%zz"), &b"\xFFA%zz"[..]);
/// assert_eq!(unescape_bytes_lenient(b"%e9%4"), &b"\xE9%4"[..]);
/// ```
#[must_use]
pub fn unescape_bytes_lenient(bytes: &[u8]) -> Cow<'_, [u8]> {
    match decode(bytes, false, true) {
        Ok(out) => out,
        // `decode` fails only when not lenient.
        Err(_) => Cow::Borrowed(bytes),
    }
}

/// Unescapes component text to UTF-8 text.
///
/// ```
/// use urlspec::escape::{unescape_str, EscapeErrorKind};
/// assert_eq!(unescape_str("caf%C3%A9").unwrap(), "café");
/// let err = unescape_str("x%E9").unwrap_err();
/// assert_eq!((err.position, err.kind), (1, EscapeErrorKind::NotUtf8));
/// ```
///
/// # Errors
///
/// [`EscapeError`] of kind [`EscapeErrorKind::InvalidEscape`] as
/// [`unescape`] gives it; of kind [`EscapeErrorKind::NotUtf8`] when the
/// octets are not UTF-8, at the byte offset in `text` where the first
/// sequence that is not UTF-8 starts (its `found` empty).
pub fn unescape_str(text: &str) -> Result<Cow<'_, str>, EscapeError> {
    match unescape(text)? {
        Cow::Borrowed(_) => Ok(Cow::Borrowed(text)),
        Cow::Owned(bytes) => {
            String::from_utf8(bytes).map(Cow::Owned).map_err(|e| {
                let position =
                    input_offset(text, e.utf8_error().valid_up_to());
                EscapeError {
                    position,
                    kind: EscapeErrorKind::NotUtf8,
                    found: String::new(),
                }
            })
        }
    }
}

/// The offset in `text` of the octet `decoded` of its unescaped form.
fn input_offset(text: &str, decoded: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() && n < decoded {
        i += if is_escape_at(bytes, i) { 3 } else { 1 };
        n += 1;
    }
    i
}

/// The result of [`unescape_lenient`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lenient<'a> {
    /// The octets, with every invalid `%` kept verbatim.
    pub bytes: Cow<'a, [u8]>,
    /// The byte positions of the `%`s that did not start a valid escape.
    pub invalid: Vec<usize>,
}

/// Unescapes component text, keeping each invalid `%` verbatim and saying
/// where it was (docs/readings.md#a28: RFC 1630's own `%%3D`).
///
/// ```
/// use urlspec::escape::unescape_lenient;
/// let out = unescape_lenient("name%%3Ddobbins");
/// assert_eq!(out.bytes, &b"name%=dobbins"[..]);
/// assert_eq!(out.invalid, [4]);
/// ```
#[must_use]
pub fn unescape_lenient(text: &str) -> Lenient<'_> {
    let bytes = text.as_bytes();
    let mut invalid = Vec::new();
    let Some(first) = memchr::memchr(b'%', bytes) else {
        return Lenient { bytes: Cow::Borrowed(bytes), invalid };
    };
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..first]);
    let mut i = first;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if is_escape_at(bytes, i) {
                out.push(
                    hex_value(bytes[i + 1]) << 4 | hex_value(bytes[i + 2]),
                );
                i += 3;
                continue;
            }
            invalid.push(i);
        }
        out.push(bytes[i]);
        i += 1;
    }
    Lenient { bytes: Cow::Owned(out), invalid }
}

/// Decodes escapes (and `+` when `plus` is set). `Err` is the position of
/// the first invalid `%` unless `lenient`.
fn decode(
    bytes: &[u8],
    plus: bool,
    lenient: bool,
) -> Result<Cow<'_, [u8]>, usize> {
    // The next byte that decoding changes, at or after `from`.
    let next = |from: usize| {
        let rest = &bytes[from..];
        let k = if plus {
            memchr::memchr2(b'%', b'+', rest)
        } else {
            memchr::memchr(b'%', rest)
        };
        k.map_or(bytes.len(), |k| from + k)
    };
    let mut i = next(0);
    if i == bytes.len() {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..i]);
    // Between the bytes that change, runs are copied whole.
    while i < bytes.len() {
        match bytes[i] {
            b'%' if is_escape_at(bytes, i) => {
                out.push(
                    hex_value(bytes[i + 1]) << 4 | hex_value(bytes[i + 2]),
                );
                i += 3;
            }
            b'%' if !lenient => return Err(i),
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
        let end = next(i);
        out.extend_from_slice(&bytes[i..end]);
        i = end;
    }
    Ok(Cow::Owned(out))
}

/// Escapes RFC 1630 query-string data: a space becomes `+`, so a real `+`
/// becomes `%2B` ("QUERY STRINGS": "the plus sign is reserved as shorthand
/// notation for a space").
///
/// ```
/// use urlspec::escape::escape_form;
/// assert_eq!(escape_form("a b"), "a+b");
/// assert_eq!(escape_form("a+b"), "a%2Bb");
/// ```
#[must_use]
pub fn escape_form(data: &str) -> Cow<'_, str> {
    let keep = Component::Query.data_chars(Spec::Rfc1630);
    if data.bytes().all(|b| keep.contains(b)) {
        return Cow::Borrowed(data);
    }
    let mut out = String::with_capacity(data.len() + 8);
    for b in data.bytes() {
        match b {
            b' ' => out.push('+'),
            b if keep.contains(b) => out.push(b as char),
            b => push_escape(&mut out, b),
        }
    }
    Cow::Owned(out)
}

/// Unescapes an RFC 1630 query string: `+` is a space, then escapes.
///
/// ```
/// use urlspec::escape::unescape_form;
/// assert_eq!(unescape_form("a+b%2Bc").unwrap(), &b"a b+c"[..]);
/// ```
///
/// # Errors
///
/// [`EscapeError`] of kind [`EscapeErrorKind::InvalidEscape`] at the byte
/// offset of the first `%` not followed by two hex digits.
pub fn unescape_form(text: &str) -> Result<Cow<'_, [u8]>, EscapeError> {
    decode(text.as_bytes(), true, false).map_err(|i| invalid_at(text, i))
}

/// Decodes ISO Latin-1 octets to text, the charset RFC 1630 gives escapes
/// (R1630-ENC.1).
///
/// ```
/// use urlspec::escape::{latin1_to_string, unescape};
/// assert_eq!(latin1_to_string(&unescape("caf%E9").unwrap()), "café");
/// ```
#[must_use]
pub fn latin1_to_string(octets: &[u8]) -> String {
    octets.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_is_zero_copy_when_nothing_changes() {
        for spec in Spec::IETF {
            for c in Component::ALL {
                assert!(matches!(
                    escape("abc", c, spec),
                    Cow::Borrowed("abc")
                ));
            }
        }
        assert!(matches!(unescape("abc").unwrap(), Cow::Borrowed(_)));
        assert!(matches!(unescape_str("abc").unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn escaping_agrees_with_a_byte_at_a_time_version() {
        let naive = |data: &[u8], keep: CharClass, keep_escapes: bool| {
            let mut out = String::new();
            let mut i = 0;
            while i < data.len() {
                if keep.contains(data[i]) {
                    out.push(char::from(data[i]));
                } else if keep_escapes && is_escape_at(data, i) {
                    out.push_str(
                        core::str::from_utf8(&data[i..i + 3]).unwrap(),
                    );
                    i += 2;
                } else {
                    push_escape(&mut out, data[i]);
                }
                i += 1;
            }
            out
        };
        for text in crate::reference::tests::samples() {
            let data = text.as_bytes();
            for spec in Spec::IETF {
                for c in Component::ALL {
                    for (keep, keep_escapes) in [
                        (c.data_chars(spec), false),
                        (c.grammar_chars(spec), true),
                    ] {
                        let want = naive(data, keep, keep_escapes);
                        let got = escape_with(data, keep, keep_escapes);
                        assert_eq!(
                            got.as_deref().unwrap_or(&text),
                            want,
                            "{text:?}"
                        );
                        assert_eq!(got.is_none(), want == text, "{text:?}");
                    }
                }
            }
            let plain: Vec<u8> = {
                let mut out = Vec::new();
                let mut i = 0;
                while i < data.len() {
                    if is_escape_at(data, i) {
                        out.push(
                            hex_value(data[i + 1]) << 4
                                | hex_value(data[i + 2]),
                        );
                        i += 3;
                    } else {
                        out.push(data[i]);
                        i += 1;
                    }
                }
                out
            };
            let lenient = decode(text.as_bytes(), false, true).unwrap();
            assert_eq!(&*lenient, &plain[..], "{text:?}");
        }
    }

    #[test]
    fn normalizing_agrees_with_a_byte_at_a_time_version() {
        // Upper-case every escape, decode those of `decode`, escape the raw
        // bytes outside `legal` (when given), copy the rest.
        let naive =
            |text: &str, decode: CharClass, legal: Option<CharClass>| {
                let b = text.as_bytes();
                let mut out = String::new();
                let mut i = 0;
                while i < b.len() {
                    if let Some(v) = escaped_octet(b, i) {
                        if decode.contains(v) {
                            out.push(char::from(v));
                        } else {
                            push_escape(&mut out, v);
                        }
                        i += 3;
                    } else if legal.is_some_and(|l| !l.contains(b[i])) {
                        push_escape(&mut out, b[i]);
                        i += 1;
                    } else {
                        let ch = text[i..].chars().next().unwrap();
                        out.push(ch);
                        i += ch.len_utf8();
                    }
                }
                out
            };
        let mut texts = crate::reference::tests::samples();
        texts
            .extend(["%7e%2f%41%zz%", "a%c3%A9é b", "%%41"].map(String::from));
        for text in &texts {
            for spec in Spec::IETF {
                let eq = &spec.rules().equivalence;
                for (decode, legal) in [
                    (eq.decodable, Some(eq.legal)),
                    (CharClass::EMPTY, Some(eq.legal)),
                    (CharClass::EMPTY, None),
                ] {
                    let mut out = Vec::new();
                    Rewrite::new(legal, Escapes::Normalize(decode))
                        .apply(text.as_bytes(), &mut out);
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        naive(text, decode, legal),
                        "{spec}: {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn invalid_escapes_are_located() {
        // TV-ENC-3
        let t = "fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred";
        assert_eq!(unescape(t).unwrap_err().position, 36);
        let t = "news:12345667123%asdghfh@info.cern.ch";
        let e = unescape(t).unwrap_err();
        assert_eq!((e.position, e.found.as_str()), (16, "%as"));
        assert!(e.to_string().contains("at byte 16"));
        assert_eq!(unescape("%4").unwrap_err().position, 0);
        assert_eq!(unescape("ab%").unwrap_err().found, "%");
    }

    #[test]
    fn not_utf8_position_is_in_the_input() {
        let e = unescape_str("ab%C3%28").unwrap_err();
        assert_eq!((e.position, e.kind), (2, EscapeErrorKind::NotUtf8));
    }

    #[test]
    fn user_escapes_delimiters() {
        for spec in Spec::IETF {
            let out = escape("a:b@c/d", Component::User, spec);
            assert!(!out.contains([':', '@', '/']), "{spec}: {out}");
        }
    }

    #[test]
    fn component_names() {
        for c in Component::ALL {
            assert_eq!(c.name().parse::<Component>(), Ok(c));
        }
        assert_eq!("path".parse::<Component>(), Ok(Component::PathSegment));
        assert!("nope".parse::<Component>().is_err());
    }
}
