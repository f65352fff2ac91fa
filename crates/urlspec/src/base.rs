//! Establishing a document's base URL: the layers of RFC 1808 §3 (draft
//! 04 §3, the 1996 draft §5, RFC 2396 §5.1, RFC 3986 §5.1).
//!
//! The innermost layer that defines a base wins:
//!
//! 1. **Embedded** in the content: HTML `<BASE href>` ([`Establish::embedded`]).
//! 2. **Headers** of the entity ([`Establish::headers`]), recognised per
//!    spec: `Base: <URL:…>` (draft 04, RFC 1808); `Content-Base`, then
//!    `Content-Location` (the 1996 drafts); `Content-Location` (MHTML, RFC
//!    2396 and RFC 3986). RFC 1808 counts the header as part of layer 1, draft
//!    04 as a layer of its own just below it: the order is the same.
//! 3. The **encapsulating entity**: a part of a `multipart/*` or `message/*`
//!    takes its container's base, recursively ([`Base::enclosed`]).
//! 4. The **retrieval URL**, the last of a redirect chain
//!    ([`Establish::retrieval`]).
//! 5. **None** ([`Base::none`]).
//!
//! A base that must be absolute (`BASE href`, `Base`, `Content-Base`) but is
//! not is a violation: [`Options::strict`] ignores it, and the lenient
//! default resolves it against the next outer layer and says so in
//! [`Base::notes`]. A relative `Content-Location` is allowed and is resolved
//! against the next outer layer (docs/readings.md#a35).
//!
//! ```
//! use urlspec::base::{Establish, Source};
//! use urlspec::Spec;
//!
//! let est = Establish::new(Spec::Rfc1808);
//! let outer = est.retrieval(&["http://h/a", "http://h/b/"]); // redirected
//! let part = est.headers(&outer, [("bAsE", "<URL:http://www.ics.uci.edu/Test/\r\n   a/b/c>")]);
//! assert_eq!(part.url(), Some("http://www.ics.uci.edu/Test/a/b/c"));
//! assert!(matches!(part.source(), Source::Header { name } if name == "Base"));
//! let html = est.embedded(&part, "../x");
//! // Not absolute: resolved against the header's base, and noted.
//! assert_eq!(html.url(), Some("http://www.ics.uci.edu/Test/a/x"));
//! assert_eq!(html.notes().len(), 1);
//! ```

use alloc::borrow::{Cow, ToOwned};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chars::strip_prefix_ignore_case;
use crate::reference::Reference;
use crate::resolve::{without_fragment, ResolveError, Resolver};
use crate::spec::{BaseHeader, Spec};

/// Where a base came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Embedded in the content: an HTML `BASE` element's `href`.
    Embedded,
    /// A header of the entity: `Base`, `Content-Base` or
    /// `Content-Location`, by its canonical name.
    Header {
        /// The header's name.
        name: String,
    },
    /// The URL used to retrieve the document: the last of `chain`.
    Retrieval {
        /// Every URL requested, in order; the last one retrieved it.
        chain: Vec<String>,
    },
    /// No base is known.
    None,
    /// Given by the user for every document, over every other layer (the
    /// `--base` of `urlspec links`): none of the specs' layers, so that a
    /// report never mistakes it for one.
    Given,
}

impl Source {
    /// A short name of the layer: `embedded`, `header`, `retrieval`,
    /// `none`, or `given`.
    #[must_use]
    pub fn layer(&self) -> &'static str {
        match self {
            Source::Embedded => "embedded",
            Source::Header { .. } => "header",
            Source::Retrieval { .. } => "retrieval",
            Source::None => "none",
            Source::Given => "given",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Embedded => f.write_str("<BASE href> in the document"),
            Source::Header { name } => write!(f, "{name} header"),
            Source::Retrieval { chain } if chain.len() > 1 => write!(
                f,
                "retrieval URL after {} redirect{}",
                chain.len() - 1,
                if chain.len() == 2 { "" } else { "s" }
            ),
            Source::Retrieval { .. } => f.write_str("retrieval URL"),
            Source::None => f.write_str("no base"),
            Source::Given => f.write_str("given"),
        }
    }
}

/// What was noticed while a base was established: a value that was
/// ignored, or resolved leniently, and why. `what` names the value's
/// place: `BASE href`, or the header's canonical name.
///
/// ```
/// use urlspec::base::{Establish, Note, Options};
/// use urlspec::Spec;
/// let strict = Establish::with_options(Spec::Rfc1808, Options::default().strict(true));
/// let outer = strict.retrieval(&["http://h/a/b"]);
/// let base = strict.embedded(&outer, "x/");
/// assert_eq!(base.notes(), [Note::NotAbsolute { what: "BASE href", value: "x/".into() }]);
/// assert_eq!(base.notes()[0].to_string(), r#"BASE href "x/" ignored: it must be an absolute URL"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// A `Base` header whose value is not of the form `<URL:...>`.
    NotUrlForm {
        /// The header's name.
        header: &'static str,
    },
    /// A value that must be absolute and is not, ignored under
    /// [`Options::strict`].
    NotAbsolute {
        /// `BASE href` or the header's name.
        what: &'static str,
        /// The value.
        value: String,
    },
    /// A relative value with no outer base to resolve it against.
    NoOuterBase {
        /// `BASE href` or the header's name.
        what: &'static str,
        /// The value.
        value: String,
    },
    /// A value that must be absolute and is not, resolved against the
    /// outer base all the same (the lenient default).
    Lenient {
        /// `BASE href` or the header's name.
        what: &'static str,
        /// The value.
        value: String,
        /// The outer base it was resolved against.
        against: String,
    },
    /// A value that does not resolve against the outer base.
    Unresolvable {
        /// `BASE href` or the header's name.
        what: &'static str,
        /// The value.
        value: String,
        /// Why.
        error: ResolveError,
    },
    /// Under the URL Standard, a `<base href>` that gives no frozen base
    /// URL: not a URL, or a `data:` or `javascript:` one (HTML's frozen
    /// base URL is then the document's).
    NotFrozen {
        /// The `href`.
        href: String,
        /// It parsed, as a `data:` or `javascript:` URL.
        refused_scheme: bool,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NotUrlForm { header } => {
                write!(f, "{header} header ignored: not of the form <URL:...>")
            }
            Note::NotAbsolute { what, value } => write!(
                f,
                "{what} {value:?} ignored: it must be an absolute URL"
            ),
            Note::NoOuterBase { what, value } => write!(
                f,
                "{what} {value:?} ignored: relative, and no outer base"
            ),
            Note::Lenient { what, value, against } => write!(
                f,
                "{what} {value:?} is not absolute; resolved against \
                 {against} (lenient)"
            ),
            Note::Unresolvable { what, value, error } => {
                write!(f, "{what} {value:?} ignored: {error}")
            }
            Note::NotFrozen { href, refused_scheme } => write!(
                f,
                "BASE href {href:?} ignored: {} (HTML's frozen base URL is \
                 then the document's)",
                if *refused_scheme {
                    "a data: or javascript: URL"
                } else {
                    "not a URL"
                }
            ),
        }
    }
}

/// A document's base URL and its provenance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    url: Option<String>,
    source: Source,
    containers: Vec<String>,
    notes: Vec<Note>,
}

impl Base {
    /// No base at all (layer 5): relative references cannot be resolved.
    #[must_use]
    pub fn none() -> Base {
        Base {
            url: None,
            source: Source::None,
            containers: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The base URL, when one is known.
    #[must_use]
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// Where the base came from.
    #[must_use]
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The containers the base was inherited through, outermost first
    /// (empty when the entity defines its own base).
    #[must_use]
    pub fn containers(&self) -> &[String] {
        &self.containers
    }

    /// What was noticed on the way: ignored or leniently resolved values.
    #[must_use]
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The base of an entity enclosed in this one (layer 3), labelled
    /// `container` (e.g. `multipart/mixed part 2`), before the entity's own
    /// headers or content are looked at.
    ///
    /// ```
    /// use urlspec::base::{Base, Establish};
    /// use urlspec::Spec;
    /// let est = Establish::new(Spec::Rfc1808);
    /// let msg = est.headers(&Base::none(), [("Base", "<URL:http://h/root/>")]);
    /// let part = msg.enclosed("multipart/mixed part 1");
    /// assert_eq!(part.url(), Some("http://h/root/"));
    /// assert_eq!(part.containers(), ["multipart/mixed part 1"]);
    /// ```
    #[must_use]
    pub fn enclosed(&self, container: &str) -> Base {
        let mut inner = self.clone();
        inner.containers.push(container.into());
        inner.notes.clear();
        inner
    }

    /// A [`Resolver`] for references in the entity this is the base of.
    pub fn resolver(&self, spec: Spec) -> Resolver<'_> {
        Resolver::new(self.url.as_deref().unwrap_or(""), spec)
    }
}

/// Which headers count as base headers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Headers {
    /// The spec's own ([`Rules::base_headers`](crate::spec::Rules::base_headers)):
    /// `Base` (draft 04, RFC 1808), `Content-Base` then `Content-Location`
    /// (1996 drafts), `Content-Location` (RFC 2396, RFC 3986), none (RFC
    /// 1630).
    #[default]
    Spec,
    /// All of them ([`BaseHeader::ALL`](crate::spec::BaseHeader::ALL)), in
    /// the order `Base`, `Content-Base`, `Content-Location`.
    All,
}

/// Options for [`Establish`]: [`Default`], then a setter per option that
/// differs.
///
/// ```
/// use urlspec::base::{Headers, Options};
/// let o = Options::default().headers(Headers::All);
/// assert!(!o.is_strict());
/// assert_eq!(o.base_headers(), Headers::All);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    strict: bool,
    headers: Headers,
}

impl Options {
    /// Ignore a `BASE`, `Base` or `Content-Base` that is not absolute,
    /// instead of resolving it against the next outer layer. Default: off.
    #[must_use]
    pub fn strict(mut self, on: bool) -> Options {
        self.strict = on;
        self
    }

    /// Which headers are recognised. Default: [`Headers::Spec`].
    #[must_use]
    pub fn headers(mut self, headers: Headers) -> Options {
        self.headers = headers;
        self
    }

    /// Whether a relative base that must be absolute is ignored
    /// ([`strict`](Self::strict)).
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Which headers are recognised ([`headers`](Self::headers)).
    #[must_use]
    pub fn base_headers(&self) -> Headers {
        self.headers
    }
}

/// Establishes bases under one spec.
#[derive(Clone, Copy, Debug)]
#[must_use = "establishing does nothing until it is given a layer"]
pub struct Establish {
    spec: Spec,
    options: Options,
}

/// The base headers recognised, highest precedence first: the spec's
/// ([`Rules::base_headers`](crate::spec::Rules::base_headers)), or all.
fn recognised_headers(spec: Spec, headers: Headers) -> &'static [BaseHeader] {
    match headers {
        Headers::Spec => spec.rules().base_headers,
        Headers::All => BaseHeader::ALL,
    }
}

impl Establish {
    /// Establishes bases under `spec` with default options.
    pub fn new(spec: Spec) -> Establish {
        Establish::with_options(spec, Options::default())
    }

    /// Establishes bases under `spec` with `options`.
    pub fn with_options(spec: Spec, options: Options) -> Establish {
        Establish { spec, options }
    }

    /// The spec.
    #[must_use]
    pub fn spec(&self) -> Spec {
        self.spec
    }

    /// The base given by retrieval (layer 4): the last URL of `chain`, the
    /// URLs requested in order (RFC 1808 §3.3: "the last URL"). An empty
    /// chain gives no base (layer 5).
    ///
    /// ```
    /// use urlspec::base::Establish;
    /// use urlspec::Spec;
    /// let b = Establish::new(Spec::Rfc1808).retrieval(&["http://h/a", "http://h/b/"]);
    /// assert_eq!(b.url(), Some("http://h/b/"));
    /// assert_eq!(b.source().to_string(), "retrieval URL after 1 redirect");
    /// ```
    #[must_use]
    pub fn retrieval<S: AsRef<str>>(&self, chain: &[S]) -> Base {
        match chain.last() {
            None => Base::none(),
            Some(last) => {
                // A base never carries a fragment (RFC 3986 §5.1).
                let r = Reference::parse_with(last.as_ref(), self.spec);
                let url = without_fragment(&r);
                Base {
                    url: Some(url.into()),
                    source: Source::Retrieval {
                        chain: chain
                            .iter()
                            .map(|s| s.as_ref().into())
                            .collect(),
                    },
                    containers: Vec::new(),
                    notes: Vec::new(),
                }
            }
        }
    }

    /// A base given from outside every layer (`urlspec links --base`),
    /// without its fragment.
    ///
    /// ```
    /// use urlspec::base::{Establish, Source};
    /// use urlspec::Spec;
    /// let b = Establish::new(Spec::Rfc3986).given("http://h/d/#top");
    /// assert_eq!((b.url(), b.source()), (Some("http://h/d/"), &Source::Given));
    /// ```
    #[must_use]
    pub fn given(&self, url: &str) -> Base {
        let r = Reference::parse_with(url, self.spec);
        Base {
            url: Some(without_fragment(&r).into()),
            source: Source::Given,
            containers: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The base of an entity with `headers` (name, value; names compared
    /// without regard to case) enclosed by or retrieved as `outer`. The
    /// first recognised header with a usable value wins; otherwise `outer`.
    #[must_use]
    pub fn headers<'h, I>(&self, outer: &Base, headers: I) -> Base
    where
        I: IntoIterator<Item = (&'h str, &'h str)>,
    {
        let names = recognised_headers(self.spec, self.options.headers);
        let mut found: [Option<&'h str>; BaseHeader::ALL.len()] =
            [None; BaseHeader::ALL.len()];
        for (name, value) in headers {
            let name = name.trim();
            if let Some(i) =
                names.iter().position(|h| h.name.eq_ignore_ascii_case(name))
            {
                found[i].get_or_insert(value);
            }
        }
        let mut notes = Vec::new();
        for (i, header) in names.iter().enumerate() {
            let Some(raw) = found[i] else { continue };
            let BaseHeader { name, absolute: must_be_absolute, .. } = *header;
            let value = if header.url_brackets {
                base_header_value(raw)
            } else {
                Some(squeeze(raw))
            };
            let Some(value) = value else {
                notes.push(Note::NotUrlForm { header: name });
                continue;
            };
            match self.layer(outer, &value, must_be_absolute, name, &mut notes)
            {
                Some(url) => {
                    return Base {
                        url: Some(url),
                        source: Source::Header { name: name.into() },
                        containers: Vec::new(),
                        notes,
                    }
                }
                None => continue,
            }
        }
        let mut base = outer.clone();
        base.notes = notes;
        base
    }

    /// [`Establish::headers`] for the headers of an HTTP response: under
    /// [`Spec::Whatwg`] none of them is a base, as browsers take none (HTML's
    /// document base URL is the `<base>`'s, else the document's URL), unless
    /// every base header is asked for ([`Headers::All`]). A MIME part's
    /// `Content-Location` is the part's URL to a browser (MHTML), so
    /// [`Establish::headers`] keeps it.
    ///
    /// ```
    /// use urlspec::base::{Base, Establish};
    /// use urlspec::Spec;
    /// let est = Establish::new(Spec::Whatwg);
    /// let page = est.retrieval(&["http://h/a/page"]);
    /// let base = est.http_headers(&page, [("Content-Location", "/b/")]);
    /// assert_eq!(base.url(), Some("http://h/a/page"));
    /// ```
    #[must_use]
    pub fn http_headers<'h, I>(&self, outer: &Base, headers: I) -> Base
    where
        I: IntoIterator<Item = (&'h str, &'h str)>,
    {
        if self.spec == Spec::Whatwg && self.options.headers != Headers::All {
            return outer.clone();
        }
        self.headers(outer, headers)
    }

    /// The base of a document whose content embeds `href` (HTML `BASE`,
    /// whose "HREF must be an absolute URL"), enclosed by or retrieved as
    /// `outer`.
    #[must_use]
    pub fn embedded(&self, outer: &Base, href: &str) -> Base {
        if self.spec == Spec::Whatwg {
            return frozen(outer, href);
        }
        let mut notes = Vec::new();
        let href = squeeze(href);
        match self.layer(outer, &href, true, "BASE href", &mut notes) {
            Some(url) => Base {
                url: Some(url),
                source: Source::Embedded,
                containers: Vec::new(),
                notes,
            },
            None => {
                let mut base = outer.clone();
                base.notes = notes;
                base
            }
        }
    }

    /// A candidate base value: absolute, or resolved against `outer` when
    /// allowed. `None` when it cannot serve.
    fn layer(
        &self,
        outer: &Base,
        value: &str,
        must_be_absolute: bool,
        what: &'static str,
        notes: &mut Vec<Note>,
    ) -> Option<String> {
        let r = Reference::parse_with(value, self.spec);
        if r.has_scheme() {
            return Some(without_fragment(&r).into());
        }
        let owned = || value.to_owned();
        if must_be_absolute && self.options.strict {
            notes.push(Note::NotAbsolute { what, value: owned() });
            return None;
        }
        let Some(outer_url) = outer.url() else {
            notes.push(Note::NoOuterBase { what, value: owned() });
            return None;
        };
        match Resolver::new(outer_url, self.spec).resolve(value) {
            Ok(resolved) => {
                if must_be_absolute {
                    notes.push(Note::Lenient {
                        what,
                        value: owned(),
                        against: outer_url.to_owned(),
                    });
                }
                Some(resolved.without_fragment().into())
            }
            Err(error) => {
                notes.push(Note::Unresolvable { what, value: owned(), error });
                None
            }
        }
    }
}

/// A header value with its whitespace removed: "Whitespace inside the field
/// value, including folding, is ignored" (1996 draft §5.1).
fn squeeze(value: &str) -> Cow<'_, str> {
    let value = value.trim();
    if value.bytes().any(|b| b.is_ascii_whitespace()) {
        Cow::Owned(
            value.chars().filter(|c| !c.is_ascii_whitespace()).collect(),
        )
    } else {
        Cow::Borrowed(value)
    }
}

/// HTML's frozen base URL of a `<base href>` (whose document's fallback
/// base URL is `outer`): the href parsed against `outer`, or `outer` itself
/// when that fails or gives a `data:` or `javascript:` URL.
fn frozen(outer: &Base, href: &str) -> Base {
    let parsed =
        crate::resolve::resolve(outer.url().unwrap_or(""), href, Spec::Whatwg);
    let refused = match &parsed {
        Ok(r) => {
            ["data:", "javascript:"].iter().any(|s| r.href.starts_with(s))
        }
        Err(_) => true,
    };
    match parsed {
        Ok(r) if !refused => Base {
            url: Some(r.href),
            source: Source::Embedded,
            containers: Vec::new(),
            notes: Vec::new(),
        },
        _ => {
            let mut base = outer.clone();
            base.notes = Vec::new();
            base.notes.push(Note::NotFrozen {
                href: href.to_owned(),
                refused_scheme: refused && parsed.is_ok(),
            });
            base
        }
    }
}

/// The URL of a `Base: <URL:absoluteURL>` value, whitespace (including line
/// folding) inside the angle brackets ignored (RFC 1808 §3.1, draft 04
/// §3.2). `None` when the value is not of that form.
///
/// ```
/// use urlspec::base::base_header_value;
/// assert_eq!(base_header_value(" <URL:http://a/\r\n b/>").as_deref(), Some("http://a/b/"));
/// assert_eq!(base_header_value("http://a/"), None);
/// ```
#[must_use]
pub fn base_header_value(value: &str) -> Option<Cow<'_, str>> {
    let inner = value.trim().strip_prefix('<')?.strip_suffix('>')?;
    Some(match squeeze(inner) {
        Cow::Borrowed(s) => {
            Cow::Borrowed(strip_prefix_ignore_case(s, "URL:")?)
        }
        Cow::Owned(s) => {
            Cow::Owned(strip_prefix_ignore_case(&s, "URL:")?.into())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_recognisers_per_spec() {
        let hdrs = [
            ("Content-Location", "http://h/y/z"),
            ("Base", "<URL:http://b/>"),
            ("Content-Base", "http://h/x/"),
        ];
        let pick =
            |spec| Establish::new(spec).headers(&Base::none(), hdrs).url;
        assert_eq!(pick(Spec::Rfc1808).as_deref(), Some("http://b/"));
        assert_eq!(pick(Spec::Draft04).as_deref(), Some("http://b/"));
        // TV-BASE-5: Content-Base beats Content-Location.
        assert_eq!(pick(Spec::Draft96).as_deref(), Some("http://h/x/"));
        assert_eq!(pick(Spec::Rfc3986).as_deref(), Some("http://h/y/z"));
        assert_eq!(pick(Spec::Rfc1630), None);
        let all = Options::default().headers(Headers::All);
        let b = Establish::with_options(Spec::Rfc3986, all)
            .headers(&Base::none(), hdrs);
        assert_eq!(b.url(), Some("http://b/"));
    }

    #[test]
    fn relative_values() {
        let est = Establish::new(Spec::Draft96);
        let outer = est.retrieval(&["http://h/a/b"]);
        // TV-BASE-6: a relative Content-Location against the retrieval URL.
        let b = est.headers(&outer, [("Content-Location", "c/d.html")]);
        assert_eq!(b.url(), Some("http://h/a/c/d.html"));
        assert!(b.notes().is_empty());
        // A relative Content-Base is a violation: strict ignores it.
        let strict = Options::default().strict(true);
        let b = Establish::with_options(Spec::Draft96, strict)
            .headers(&outer, [("Content-Base", "x/")]);
        assert_eq!(b.url(), Some("http://h/a/b"));
        assert_eq!(b.source().layer(), "retrieval");
        assert_eq!(b.notes().len(), 1);
    }

    #[test]
    fn base_fragment_is_dropped() {
        let est = Establish::new(Spec::Rfc3986);
        assert_eq!(est.retrieval(&["http://a/b#f"]).url(), Some("http://a/b"));
        let b = est.embedded(&Base::none(), "http://x/y#z");
        assert_eq!(b.url(), Some("http://x/y"));
    }
}
