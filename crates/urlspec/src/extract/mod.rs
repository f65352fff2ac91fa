//! Finding URLs in running text: mail, news, printed documents, prose.
//!
//! A [`Finder`] searches bytes or a `&str` for URLs and yields each one as
//! a [`Found`]: where it is in the source ([`Found::span`]), how it was
//! delimited ([`Form`]), the URL with its wrapper and line-wrapping
//! whitespace removed ([`Found::as_str`]), and two flags:
//! [`ambiguous_hyphen`](Found::ambiguous_hyphen) (a line break right after
//! a `-`, with [`alternative`](Found::alternative) giving the reading
//! without the hyphen) and [`is_relative`](Found::is_relative) (no scheme;
//! only reported when the finder is asked for relative references).
//!
//! ```
//! use urlspec::extract::extract;
//!
//! let text = "Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;
//!       type=d> but you can probably pick it up from <ftp://ds.in
//!       ternic.net/rfc>.  Note the warning in <http://ds.internic.
//!       net/instructions/overview.html#WARNING>.";
//! let found = extract(text);
//! let urls: Vec<_> = found.iter().map(|f| f.as_str()).collect();
//! assert_eq!(urls, [
//!     "ftp://info.cern.ch/pub/www/doc;type=d",
//!     "ftp://ds.internic.net/rfc",
//!     "http://ds.internic.net/instructions/overview.html#WARNING",
//! ]);
//! ```
//!
//! # What follows the seed, and what is heuristic
//!
//! **Seed-exact: Appendix B of the 1996 draft** (seed 003, "Recommendations
//! for Delimiting URLs in Context", rules B.1 to B.5; RFC
//! 2396 App. E and RFC 3986 App. C repeat the bracket, whitespace and
//! hyphen rules). The rules live in `extract/delimit.rs`, each citing the
//! appendix:
//!
//! * `<URL:...>` and `<...>` delimit a URL; the wrapper "does not form part
//!   of the URL". The `URL:` prefix is matched in any case (`<url:...>`).
//! * The URL runs to the first `>`, so a `#fragment` inside the brackets is
//!   part of it.
//! * All whitespace between the brackets (space, tab, CR, LF, vertical tab,
//!   form feed) "should be ignored when extracting the URL": it is
//!   removed, wherever it is. So `<gopher://h/00/About Gopher>` is
//!   `gopher://h/00/AboutGopher` (data spaces must be written `%20`,
//!   docs/readings.md#a42), and, by the letter of the rule, `<see http://x>` is
//!   `seehttp://x`.
//! * A line break inside the URL right after a `-`: the whitespace is
//!   removed, the hyphen is kept, and the URL is flagged as ambiguous
//!   (docs/readings.md#a41). Blanks between the hyphen and the line break are
//!   ignored (they are invisible at the end of a line); a break after the
//!   URL's last character (`<http://a/b-⏎>`) is not inside the URL.
//! * Bracketed text is a URL only if it has a scheme under the finder's
//!   [`Spec`]: `<fielding@ics.uci.edu>` is not a URL.
//!   With [`Finder::relative`], `<URL:...>` without a scheme is reported as
//!   a relative reference.
//!
//! Guards that no URL grammar contradicts: bracketed text holding another
//! `<`, a control character, or `"` (except under RFC 1630, whose `extra`
//! class holds `"`) is not a URL, nor is text that is not UTF-8. Nor is
//! text longer than [`MAX_DELIMITED`] (8 KiB) between the brackets: when
//! it starts like a URL (`URL:`, or a scheme and its `:`), the form is
//! reported as a finding, [`Found::too_long`], with no URL, and the text
//! inside is not searched for bare URLs.
//!
//! **Heuristics** (in no seed), in `extract/bare.rs` and, for quotes, in
//! `extract/delimit.rs`:
//!
//! * *Quotes* (`"..."`, named by RFC 2396 App. E, not by the seeds): the
//!   text must start with a scheme that passes the bare-URL test below,
//!   written without whitespace up to its `:`. Whitespace is removed only
//!   where a line breaks; a space within a line means prose, not a URL.
//! * *Bare URLs* ([`Finder::bare`], on by default): scheme-based detection,
//!   for the schemes of RFC 1630 (`http`, `https`, `ftp`, `gopher`,
//!   `mailto`, `news`, `nntp`, `telnet`, `rlogin`, `tn3270`, `wais`,
//!   `file`, `prospero`, `mid`, `cid`, `urn`) and `x-…`, and for any other
//!   registered-looking scheme followed by `//`. A bare URL ends at
//!   whitespace (Unicode's too), `<`, `>`, `"`, a control character or
//!   the ideographic full stop or comma; other characters outside US-ASCII
//!   belong to it, as written (`http://müller.de`). Trailing `.` `,` `;`
//!   `:` `!` `?` `` ` `` (and their full-width forms, `…` and closing
//!   quotes) are trimmed, and so is a closing `)`, `]` or `}` at the end
//!   that the URL did not open, as GitHub's autolink extension does with
//!   `)` (`http://example.com/ab)c` is whole); an opening bracket just
//!   before the URL is closed by the first partner the URL did not open,
//!   which ends it (`(http://one.org/)(http://two.org/)` gives both). As
//!   many `'` at the end as stand just before the URL are trimmed (they
//!   close a quotation, or wiki markup: `''https://example.org''`), and
//!   past those a `'` at the end of a URL holding an odd number of them.
//!   Bare URLs never span lines, so the hyphen rule does not apply to
//!   them.
//! * *Quoted relative references* (only with [`Finder::relative`]): quoted
//!   text without a scheme that starts with `/`, `./`, `../`, `#` or `?`,
//!   holds a letter or digit, and is valid under the spec (`"../x"`). Text
//!   in plain `<...>` without a scheme is never reported (`</TITLE>` is a
//!   tag), nor are bare relative references.
//!
//! # Cost
//!
//! One forward scan: [`memchr`](https://docs.rs/memchr) finds the next
//! `<`, `"` or (for bare URLs) `:`, and each candidate is confirmed or
//! dropped by reading the text around it, so that every byte is read a
//! constant number of times in all: the position of the next `>` is
//! remembered, brackets holding another `<` are dropped at once, and a
//! bare URL's scheme is confirmed before its end is looked for. A megabyte
//! of `<`, of `http:` or of `((((` takes time linear in its length. Nothing is allocated until a URL is found, and
//! then only when whitespace had to be removed ([`Found::as_str`] borrows
//! from the input otherwise).

mod bare;
mod delimit;
mod line;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::iter::FusedIterator;
use core::ops::Range;

use memchr::{memchr2, memchr3};

pub use delimit::MAX_DELIMITED;
pub use line::LineIndex;

use crate::names::option_names;
use crate::reference::Reference;
use crate::spec::Spec;

/// How a URL was delimited in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// `<URL:...>`, the wrapper App. B recommends (prefix in any case).
    UrlPrefixed,
    /// `<...>` without the prefix.
    Angle,
    /// `"..."` (RFC 2396 App. E).
    Quoted,
    /// No delimiters: found by its scheme.
    Bare,
}

// A short name for output: `url-prefixed`, `angle`, `quoted`, `bare`.
option_names!(Form, "form" {
    UrlPrefixed => "url-prefixed",
    Angle => "angle",
    Quoted => "quoted",
    Bare => "bare",
});

/// A URL found in text.
///
/// ```
/// use urlspec::extract::{Finder, Form};
///
/// let text = "Base: <URL:http://a.example/foo-\n   bar>";
/// let found = Finder::new().find(text).unwrap();
/// assert_eq!(found.span(), 6..text.len());
/// assert_eq!(found.form(), Form::UrlPrefixed);
/// assert_eq!(found.as_str(), "http://a.example/foo-bar");
/// assert!(found.ambiguous_hyphen());
/// let other = found.alternative();
/// assert_eq!(other.as_deref(), Some("http://a.example/foobar"));
/// assert_eq!(found.reference().net_loc(), Some("a.example"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Found<'h> {
    span: Range<usize>,
    url_span: Range<usize>,
    url: Cow<'h, str>,
    form: Form,
    hyphens: Vec<usize>,
    relative: bool,
    too_long: bool,
    spec: Spec,
}

impl<'h> Found<'h> {
    /// The byte range of the whole delimited text in the input, wrapper
    /// included: from `<` to `>`, from `"` to `"`, or the bare URL.
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The byte range in the input from the URL's first byte to its last,
    /// without the wrapper (`<`, `URL:`, `>`, quotes) or whitespace around
    /// it; whitespace inside the URL is within it.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let text = "< URL:http://a/b >";
    /// let found = Finder::new().find(text).unwrap();
    /// assert_eq!(&text[found.url_span()], "http://a/b");
    /// ```
    #[must_use]
    pub fn url_span(&self) -> Range<usize> {
        self.url_span.clone()
    }

    /// The URL: the delimited text without its wrapper and with every
    /// whitespace character removed. Empty for a form that is
    /// [too long](Self::too_long).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// The URL, borrowed from the input when nothing had to be removed.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use urlspec::extract::Finder;
    ///
    /// let finder = Finder::new();
    /// let found = finder.find("<URL:http://a/b>").unwrap();
    /// assert!(matches!(found.into_url(), Cow::Borrowed("http://a/b")));
    /// let found = finder.find("<http://a/\n b>").unwrap();
    /// assert!(matches!(found.into_url(), Cow::Owned(_)));
    /// ```
    #[must_use]
    pub fn into_url(self) -> Cow<'h, str> {
        self.url
    }

    /// How the URL was delimited.
    #[must_use]
    pub fn form(&self) -> Form {
        self.form
    }

    /// Whether the URL has no scheme under the finder's spec (reported only
    /// by a finder with [`Finder::relative`] set).
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let finder = Finder::new().relative(true);
    /// let found = finder.find("<URL:../g>").unwrap();
    /// assert!(found.is_relative());
    /// assert_eq!(found.as_str(), "../g");
    /// assert!(Finder::new().find("<URL:../g>").is_none());
    /// ```
    #[must_use]
    pub fn is_relative(&self) -> bool {
        self.relative
    }

    /// Whether this is a `<...>` or `<URL:...>` form that starts like a URL
    /// but holds more than [`MAX_DELIMITED`] bytes between its brackets:
    /// a finding, not a URL ([`as_str`](Self::as_str) is empty). The text
    /// inside is not searched for a bare URL either, which would cut it at
    /// its first line break.
    ///
    /// ```
    /// use urlspec::extract::{Finder, MAX_DELIMITED};
    /// let long = format!("<URL:http://a/{}\n{}>", "x".repeat(MAX_DELIMITED), "y");
    /// let found: Vec<_> = Finder::new().find_iter(&long).collect();
    /// assert_eq!(found.len(), 1);
    /// assert!(found[0].too_long());
    /// assert_eq!((found[0].as_str(), found[0].span()), ("", 0..long.len()));
    /// ```
    #[must_use]
    pub fn too_long(&self) -> bool {
        self.too_long
    }

    /// Whether a line break came right after a `-` inside the URL, so that
    /// the hyphen "may or may not actually be part of the URL" (R96-B.5).
    /// [`as_str`](Self::as_str) keeps the hyphen;
    /// [`alternative`](Self::alternative) drops it.
    #[must_use]
    pub fn ambiguous_hyphen(&self) -> bool {
        !self.hyphens.is_empty()
    }

    /// The byte positions in [`as_str`](Self::as_str) of each hyphen that
    /// stood before a line break.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let found = Finder::new().find("<http://a/b-\nc-\nd>").unwrap();
    /// assert_eq!(found.as_str(), "http://a/b-c-d");
    /// assert_eq!(found.hyphen_positions(), &[10, 12]);
    /// ```
    #[must_use]
    pub fn hyphen_positions(&self) -> &[usize] {
        &self.hyphens
    }

    /// The other reading of an [ambiguous](Self::ambiguous_hyphen) URL:
    /// every hyphen that stood before a line break removed. `None` when
    /// there was no such hyphen.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let found = Finder::new().find("<http://a/b-\nc>").unwrap();
    /// assert_eq!(found.alternative().as_deref(), Some("http://a/bc"));
    /// ```
    #[must_use]
    pub fn alternative(&self) -> Option<String> {
        if self.hyphens.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(self.url.len());
        let mut from = 0;
        for &h in &self.hyphens {
            out.push_str(&self.url[from..h]);
            from = h + 1;
        }
        out.push_str(&self.url[from..]);
        Some(out)
    }

    /// The spec the finder detected schemes with.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The URL parsed under the finder's spec.
    #[must_use]
    pub fn reference(&self) -> Reference<'_> {
        Reference::parse_with(&self.url, self.spec)
    }

    /// The same result, owning its URL.
    ///
    /// ```
    /// use urlspec::extract::{Finder, Found};
    /// let found: Found<'static> = {
    ///     let text = String::from("<URL:http://a/>");
    ///     Finder::new().find(&text).unwrap().into_owned()
    /// };
    /// assert_eq!(found.as_str(), "http://a/");
    /// ```
    #[must_use]
    pub fn into_owned(self) -> Found<'static> {
        Found {
            span: self.span,
            url_span: self.url_span,
            url: Cow::Owned(self.url.into_owned()),
            form: self.form,
            hyphens: self.hyphens,
            relative: self.relative,
            too_long: self.too_long,
            spec: self.spec,
        }
    }
}

impl fmt::Debug for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Found")
            .field("span", &self.span)
            .field("url", &self.as_str())
            .field("form", &self.form)
            .field("ambiguous_hyphen", &self.ambiguous_hyphen())
            .field("relative", &self.relative)
            .field("too_long", &self.too_long)
            .finish()
    }
}

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

/// A URL searcher: which spec decides what a scheme is, and which kinds of
/// URL to report.
///
/// The defaults: [`Spec::Rfc1808`], bare URLs reported, relative
/// references not. A `Finder` is a small `Copy` value; building one
/// allocates nothing.
///
/// ```
/// use urlspec::extract::{Finder, Form};
/// use urlspec::Spec;
///
/// let text = "See <URL:http://a/b>, or http://c/d.";
/// let finder = Finder::new();
/// let all: Vec<_> =
///     finder.find_iter(text).map(|f| (f.form(), f.span())).collect();
/// assert_eq!(all, [(Form::UrlPrefixed, 4..20), (Form::Bare, 25..35)]);
///
/// let delimited_only = Finder::new().bare(false).spec(Spec::Rfc3986);
/// assert_eq!(delimited_only.find_iter(text).count(), 1);
/// assert!(!delimited_only.finds_bare() && !delimited_only.finds_relative());
/// assert_eq!(delimited_only.scheme_spec(), Spec::Rfc3986);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[must_use = "a finder does nothing until it searches"]
pub struct Finder {
    spec: Spec,
    relative: bool,
    bare: bool,
}

impl Default for Finder {
    fn default() -> Finder {
        Finder::new()
    }
}

impl Finder {
    /// A finder with the defaults: RFC 1808, bare URLs, no relative
    /// references.
    pub const fn new() -> Finder {
        Finder { spec: Spec::Rfc1808, relative: false, bare: true }
    }

    /// Decide what counts as a scheme by `spec` (RFC 1808 by default).
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// use urlspec::Spec;
    /// // RFC 1808 lets a scheme start with a digit; RFC 3986 does not.
    /// assert!(Finder::new().find("<1x:y>").is_some());
    /// assert!(Finder::new().spec(Spec::Rfc3986).find("<1x:y>").is_none());
    /// ```
    pub const fn spec(mut self, spec: Spec) -> Finder {
        self.spec = spec;
        self
    }

    /// Also report references without a scheme: always inside `<URL:...>`
    /// (whose prefix says a URL follows), and inside quotes when they look
    /// like a relative path (see the module docs). Off by default.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let finder = Finder::new().relative(true);
    /// let rel: Vec<_> = finder
    ///     .find_iter(r#"<A href="../x"> or <fielding@ics.uci.edu>"#)
    ///     .map(|f| f.as_str().to_owned())
    ///     .collect();
    /// assert_eq!(rel, ["../x"]);
    /// ```
    pub const fn relative(mut self, yes: bool) -> Finder {
        self.relative = yes;
        self
    }

    /// Also report URLs without delimiters (on by default); see the module
    /// docs for the heuristics.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let text = "(see http://en.wikipedia.org/wiki/URL_(disambiguation)).";
    /// let found = Finder::new().find(text).unwrap();
    /// let wiki = "http://en.wikipedia.org/wiki/URL_(disambiguation)";
    /// assert_eq!(found.as_str(), wiki);
    /// assert!(Finder::new().bare(false).find(text).is_none());
    /// ```
    pub const fn bare(mut self, yes: bool) -> Finder {
        self.bare = yes;
        self
    }

    /// The spec that decides what a scheme is.
    #[must_use]
    pub const fn scheme_spec(&self) -> Spec {
        self.spec
    }

    /// Whether relative references are reported.
    #[must_use]
    pub const fn finds_relative(&self) -> bool {
        self.relative
    }

    /// Whether bare URLs are reported.
    #[must_use]
    pub const fn finds_bare(&self) -> bool {
        self.bare
    }

    /// Every URL in `text` (a `&str` or bytes), in order, without overlaps.
    ///
    /// Bytes need not be UTF-8 as a whole; a URL is reported only where its
    /// delimited text is.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let text: &[u8] = b"\xff <URL:ftp://a/b> \xfe mailto:x@y.";
    /// let found: Vec<_> = Finder::new().find_iter(text).collect();
    /// let urls: Vec<_> = found.iter().map(|f| f.as_str()).collect();
    /// assert_eq!(urls, ["ftp://a/b", "mailto:x@y"]);
    /// ```
    pub fn find_iter<'h, T: ?Sized + AsRef<[u8]>>(
        &self,
        text: &'h T,
    ) -> FindIter<'h> {
        FindIter {
            finder: *self,
            haystack: text.as_ref(),
            pos: 0,
            floor: 0,
            next_gt: delimit::NextGt::default(),
        }
    }

    /// The first URL in `text`.
    ///
    /// ```
    /// use urlspec::extract::Finder;
    /// let found = Finder::new().find("<url:http://x/>").unwrap();
    /// assert_eq!(found.as_str(), "http://x/");
    /// assert!(Finder::new().find("<fielding@ics.uci.edu>").is_none());
    /// ```
    #[must_use]
    pub fn find<'h, T: ?Sized + AsRef<[u8]>>(
        &self,
        text: &'h T,
    ) -> Option<Found<'h>> {
        self.find_iter(text).next()
    }
}

/// The iterator of [`Finder::find_iter`].
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct FindIter<'h> {
    finder: Finder,
    haystack: &'h [u8],
    /// Where the search for the next anchor resumes.
    pos: usize,
    /// The end of the last result: no later result reaches back past it.
    floor: usize,
    next_gt: delimit::NextGt,
}

impl<'h> Iterator for FindIter<'h> {
    type Item = Found<'h>;

    fn next(&mut self) -> Option<Found<'h>> {
        let h = self.haystack;
        while self.pos < h.len() {
            // Dense anchors (`<<<<`) are common in hostile input: look at
            // the next byte before setting up a vector search.
            let first = h[self.pos];
            let next = if first == b'<'
                || first == b'"'
                || (first == b':' && self.finder.bare)
            {
                Some(0)
            } else if self.finder.bare {
                memchr3(b'<', b'"', b':', &h[self.pos..])
            } else {
                memchr2(b'<', b'"', &h[self.pos..])
            };
            let Some(k) = next else {
                self.pos = h.len();
                break;
            };
            let at = self.pos + k;
            let found = match h[at] {
                b'<' => delimit::angle(h, at, &mut self.next_gt, &self.finder),
                b'"' => delimit::quoted(h, at, &self.finder),
                _ => bare::at_colon(h, at, self.floor, &self.finder),
            };
            match found {
                Some(found) => {
                    self.pos = found.span.end;
                    self.floor = found.span.end;
                    return Some(found);
                }
                None => self.pos = at + 1,
            }
        }
        None
    }
}

impl FusedIterator for FindIter<'_> {}

/// Every URL in `text`, found with the default [`Finder`] (RFC 1808
/// schemes, bare URLs included, no relative references).
///
/// ```
/// let found = urlspec::extract::extract(
///     "Note the warning in <http://ds.internic.
///       net/instructions/overview.html#WARNING>.",
/// );
/// assert_eq!(found.len(), 1);
/// let url = "http://ds.internic.net/instructions/overview.html#WARNING";
/// assert_eq!(found[0].as_str(), url);
/// ```
#[must_use]
pub fn extract(text: &str) -> Vec<Found<'_>> {
    Finder::new().find_iter(text).collect()
}
