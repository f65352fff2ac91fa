//! The printers of `urlspec links`, one per output format ([`text`],
//! [`tsv`], [`json`]), behind one [`Printer`]: each document as its links
//! come (a long one's in batches), its problems on standard error after
//! TSV or JSON, and the summary line at the end.

mod json;
mod text;
mod tsv;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use urlspec::base::Base;
use urlspec_links::{html, Document, HostSplit, Link, Summary};

use super::args::LinksOutput;
use crate::output::RecordWrite;
use json::Json;
use text::Text;
use tsv::Tsv;

pub use tsv::HEADER as TSV_HEADER;

/// Writes a line for each of `items` with `line`, straight into `out`'s
/// buffer, as much at a time as it [gathers](RecordWrite::gather).
fn write_lines<T>(
    out: &mut impl RecordWrite,
    items: &[T],
    mut line: impl FnMut(&mut Vec<u8>, &T),
) -> io::Result<()> {
    let mut rest = items.iter();
    while rest.len() > 0 {
        let gather = out.gather();
        out.extend_with(|buf| {
            let start = buf.len();
            for item in rest.by_ref() {
                line(buf, item);
                if buf.len() - start >= gather {
                    break;
                }
            }
        })?;
    }
    Ok(())
}

/// What a line says of `link`'s URL: the URL and no error, or no URL and
/// the error, written into `error` (room kept from link to link).
#[inline]
fn url_and_error<'a>(
    link: &'a Link,
    error: &'a mut String,
) -> (&'a str, &'a str) {
    match &link.url {
        Ok(url) => (url, ""),
        Err(e) => {
            error.clear();
            let _ = write!(error, "{e}");
            ("", error)
        }
    }
}

/// The start of a row or line that a document and an element and
/// attribute name give, rendered once for each pair a document's links
/// have (a few: `a` `href`, `img` `src`, `link` `href`, ...).
#[derive(Default)]
struct Places {
    /// `pairs[..len]` are the document's; those after them keep their
    /// buffers for the next document's.
    pairs: Vec<Place>,
    len: usize,
    /// The pair of the last link, looked at first: links of the same
    /// pair often come in runs.
    last: usize,
}

struct Place {
    element: Cow<'static, str>,
    attribute: Cow<'static, str>,
    rendered: Vec<u8>,
}

impl Place {
    /// Whether this is the pair of `link`.
    #[inline]
    fn is(&self, link: &Link) -> bool {
        // The names are mostly the same static strings: equal addresses
        // spare comparing their bytes.
        fn same(a: &str, b: &str) -> bool {
            a.len() == b.len() && (a.as_ptr() == b.as_ptr() || a == b)
        }
        same(&self.element, &link.element)
            && same(&self.attribute, &link.attribute)
    }

    /// Whether this is the pair of `link` by the names' addresses alone:
    /// a few instructions, where [`Place::is`] may compare bytes.
    #[inline]
    fn is_at(&self, link: &Link) -> bool {
        fn at(a: &str, b: &str) -> bool {
            a.as_ptr() == b.as_ptr() && a.len() == b.len()
        }
        at(&self.element, &link.element)
            && at(&self.attribute, &link.attribute)
    }
}

impl Places {
    /// The pairs kept; a pair past them replaces the last one.
    const PAIRS: usize = 16;

    /// Forgets the pairs: what is rendered of them changes (it holds a
    /// document's own fields).
    fn clear(&mut self) {
        self.len = 0;
        self.last = 0;
    }

    /// The fields of `link`'s element and attribute, as `render` writes
    /// them.
    #[inline]
    fn of(
        &mut self,
        link: &Link,
        render: impl FnOnce(&mut Vec<u8>, &str, &str),
    ) -> &[u8] {
        let pairs = &self.pairs[..self.len];
        if !pairs.get(self.last).is_some_and(|pair| pair.is(link)) {
            // Most pairs are the tables' names: found by address here,
            // inline, rather than in a call to `find` (the same pass
            // inside `find` saved nothing: the call was the cost).
            self.last = match pairs.iter().position(|pair| pair.is_at(link)) {
                Some(at) => at,
                None => self.find(link, render),
            };
        }
        &self.pairs[self.last].rendered
    }

    /// The index of `link`'s pair, rendered by `render` if it is new.
    #[inline(never)]
    fn find(
        &mut self,
        link: &Link,
        render: impl FnOnce(&mut Vec<u8>, &str, &str),
    ) -> usize {
        let pairs = &self.pairs[..self.len];
        if let Some(at) = pairs.iter().position(|pair| pair.is(link)) {
            return at;
        }
        if self.len == Self::PAIRS {
            self.len -= 1;
        }
        if self.len == self.pairs.len() {
            self.pairs.push(Place {
                element: Cow::Borrowed(""),
                attribute: Cow::Borrowed(""),
                rendered: Vec::new(),
            });
        }
        let place = &mut self.pairs[self.len];
        place.element.clone_from(&link.element);
        place.attribute.clone_from(&link.attribute);
        place.rendered.clear();
        render(&mut place.rendered, &link.element, &link.attribute);
        self.len += 1;
        self.len - 1
    }
}

/// Prints documents as they come, in one of the output formats.
pub struct Printer {
    format: Format,
    /// Whether links carry the hosts of `--parsers` (the `host_split`
    /// member, and column).
    parsers: bool,
}

enum Format {
    Text(Text),
    Tsv(Tsv),
    Json(Json),
}

impl Printer {
    /// A printer in format `how`, whose links carry the hosts of
    /// `--parsers` when `parsers` (a `host_split` member in JSON, a last
    /// column in TSV; in text, a line under each link they split).
    pub fn new(how: LinksOutput, parsers: bool) -> Printer {
        let format = match how {
            LinksOutput::Text => Format::Text(Text::new()),
            LinksOutput::Tsv => Format::Tsv(Tsv::new(parsers)),
            LinksOutput::Json => Format::Json(Json::new(parsers)),
        };
        Printer { format, parsers }
    }

    /// Writes what comes before the first document: the TSV header row.
    pub fn start(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Format::Tsv(_) = self.format {
            if self.parsers {
                out.write_all(TSV_HEADER.trim_end().as_bytes())?;
                out.write_all(b"\thost_split\n")?;
            } else {
                out.write_all(TSV_HEADER.as_bytes())?;
            }
        }
        Ok(())
    }

    /// Forgets a document [`Printer::links`] began and nothing ended (its
    /// reading panicked, and was reported as such): the next document
    /// starts afresh.
    pub fn abandon(&mut self) {
        if let Format::Text(text) = &mut self.format {
            text.abandon();
        }
    }

    /// A text block begins: whether it is the first (no blank line before
    /// it). The blocks a worker writes are put in order by the writer,
    /// which asks this.
    pub fn begin_block(&mut self) -> bool {
        match &mut self.format {
            Format::Text(text) => std::mem::replace(&mut text.first, false),
            Format::Tsv(_) | Format::Json(_) => false,
        }
    }

    /// Prints a batch of the links of a document being read (the links
    /// are taken out of `doc`); [`Printer::end`] ends it.
    pub fn links(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        match &mut self.format {
            Format::Text(text) => text.links(out, doc),
            Format::Tsv(tsv) => {
                tsv.links(out, doc)?;
                doc.links.clear();
                Ok(())
            }
            Format::Json(json) => {
                json.links(out, doc)?;
                doc.links.clear();
                Ok(())
            }
        }
    }

    /// Ends the document [`Printer::links`] began: its last links, the
    /// references left out as too long, its notes and problems.
    pub fn end(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        self.links(out, doc)?;
        for &at in &doc.too_long {
            out.warn(&format!(
                "urlspec: {}: reference at byte {at} longer than {} bytes: \
                 skipped",
                doc.name,
                html::stream::MAX_REFERENCE
            ));
        }
        match &mut self.format {
            Format::Text(text) => text.end(out, doc)?,
            Format::Tsv(_) | Format::Json(_) => {
                for problem in &doc.problems {
                    out.warn(&format!("urlspec: {}: {problem}", doc.name));
                }
            }
        }
        out.end_record()
    }

    /// Prints a whole document.
    pub fn document(
        &mut self,
        out: &mut impl RecordWrite,
        doc: &mut Document,
    ) -> io::Result<()> {
        self.abandon();
        self.end(out, doc)
    }

    /// Writes the summary after text output, to `out`.
    pub fn finish(
        &mut self,
        out: &mut impl Write,
        summary: &Summary,
    ) -> io::Result<()> {
        let Format::Text(text) = &self.format else { return Ok(()) };
        if !text.first {
            out.write_all(b"\n")?;
        }
        writeln!(out, "{}", summary_line(summary))
    }

    /// Writes the summary after TSV or JSON output, to standard error.
    pub fn finish_stderr(&self, summary: &Summary) {
        if !matches!(self.format, Format::Text(_)) {
            let _ = writeln!(io::stderr().lock(), "{}", summary_line(summary));
        }
    }
}

/// `N documents, M links, U unresolved; bases: embedded X, header Y,
/// retrieval Z, none W; skipped records S`, the given bases, the
/// unreadable inputs and the links whose host `--parsers` read
/// differently when there are any, and the hint of the base headers
/// left unread.
pub fn summary_line(s: &Summary) -> String {
    let layer = |name| s.by_base_source.get(name).copied().unwrap_or(0);
    let plural = |n: usize, one: &str, many: &str| {
        format!("{n} {}", if n == 1 { one } else { many })
    };
    let mut line = format!(
        "{}, {}, {} unresolved; bases: embedded {}, header {}, retrieval {}, \
         none {}; skipped records {}",
        plural(s.documents, "document", "documents"),
        plural(s.links, "link", "links"),
        s.unresolved,
        layer("embedded"),
        layer("header"),
        layer("retrieval"),
        layer("none"),
        s.skipped_records,
    );
    if layer("given") > 0 {
        let _ = write!(line, "; given base {}", layer("given"));
    }
    if s.unreadable > 0 {
        let _ = write!(line, "; unreadable {}", s.unreadable);
    }
    if s.too_long > 0 {
        let _ = write!(line, "; references too long {}", s.too_long);
    }
    if s.host_splits > 0 {
        let _ = write!(line, "; hosts split by parsers {}", s.host_splits);
    }
    for (name, (n, spec)) in &s.unread_base_headers {
        let reader = match spec {
            Some(spec) => format!("--spec {spec} or --base-headers all"),
            None => "--base-headers all".into(),
        };
        let _ = write!(
            line,
            "\nnote: {} with unresolved links had a {name} header that this \
             spec does not read as a base ({reader} would)",
            plural(*n, "document", "documents"),
        );
    }
    line
}

/// The hosts of a [`HostSplit`]: `NAME=HOST` for each parser, separated
/// by spaces (`NAME=` where it reads no host).
fn host_split_text(split: &HostSplit) -> String {
    let mut text = String::new();
    for (i, (parser, host)) in split.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let _ =
            write!(text, "{}={}", parser.name, host.as_deref().unwrap_or(""));
    }
    text
}

/// What is said of a document's base once and repeated on each of its
/// links in TSV and JSON: the same strings as the Python package's `Link`
/// (both come from `urlspec_links`).
struct BaseInfo<'a> {
    /// `embedded`, `header:NAME`, `retrieval`, `given` or `none`.
    source: String,
    /// The redirect chain, when the base is a retrieval URL reached
    /// through redirects.
    chain: Option<&'a [String]>,
}

impl<'a> BaseInfo<'a> {
    fn of(base: &'a Base) -> BaseInfo<'a> {
        BaseInfo {
            source: urlspec_links::base_source(base),
            chain: urlspec_links::base_chain(base),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use urlspec::Spec;
    use urlspec_links::{Context, LinkError, Within};

    use super::*;
    use crate::output::visible;

    fn link(element: Cow<'static, str>, attribute: Cow<'static, str>) -> Link {
        Link {
            element,
            attribute,
            reference: String::new(),
            offset: 0,
            url: Ok(String::new()),
            within: None,
            query_encoding: None,
            host_split: None,
        }
    }

    #[test]
    fn each_pair_is_rendered_once_whether_found_by_address_or_by_bytes() {
        let a_href = || link(Cow::Borrowed("a"), Cow::Borrowed("href"));
        // The same names at other addresses, and names of the same length.
        let a_href_owned =
            link("a".to_owned().into(), "href".to_owned().into());
        let link_href = link(Cow::Borrowed("link"), Cow::Borrowed("href"));
        let area_href = link(Cow::Borrowed("area"), Cow::Borrowed("href"));
        let img_src = link(Cow::Borrowed("img"), Cow::Borrowed("src"));
        let mut places = Places::default();
        let rendered = std::cell::RefCell::new(Vec::new());
        let of = |places: &mut Places, link: &Link| {
            places
                .of(link, |buf, element, attribute| {
                    rendered
                        .borrow_mut()
                        .push(format!("{element}@{attribute}"));
                    buf.extend_from_slice(element.as_bytes());
                    buf.push(b'@');
                    buf.extend_from_slice(attribute.as_bytes());
                })
                .to_vec()
        };
        let links =
            [a_href(), link_href, a_href_owned, area_href, img_src, a_href()];
        for _ in 0..2 {
            for l in links.iter().chain(links.iter().rev()) {
                let want = format!("{}@{}", l.element, l.attribute);
                assert_eq!(of(&mut places, l), want.as_bytes());
            }
        }
        assert_eq!(
            *rendered.borrow(),
            ["a@href", "link@href", "area@href", "img@src"]
        );
        // A new document renders its pairs again.
        places.clear();
        assert_eq!(of(&mut places, &a_href()), b"a@href");
        assert_eq!(rendered.borrow().len(), 5);
    }

    /// Text of any characters, those the printers escape or replace
    /// often among them.
    fn text() -> impl Strategy<Value = String> {
        let c = prop_oneof![
            any::<char>(),
            (0u8..0x20).prop_map(char::from),
            prop::sample::select(vec![
                '"', '\\', '\t', '\u{7f}', '\u{85}', '\u{202e}', '\u{3000}',
                '\u{301}', 'a', '/',
            ]),
        ];
        prop::collection::vec(c, 0..70).prop_map(|c| c.into_iter().collect())
    }

    /// A link of `reference` whose URL is `url`, or an error when `url`
    /// is `None` (a resolver's, with its reason and position).
    fn any_link(
        (element, attribute, reference, url, offset, within): (
            String,
            String,
            String,
            Option<String>,
            usize,
            Option<bool>,
        ),
    ) -> Link {
        let url = url.ok_or(()).or_else(|()| {
            let base = Context::new(Spec::Whatwg)
                .establish()
                .retrieval(&["http://h/"]);
            let failed =
                urlspec_links::resolve(&base, Spec::Whatwg, "http://[");
            assert!(
                matches!(failed, Err(LinkError::Resolve(_))),
                "{failed:?}"
            );
            failed
        });
        Link {
            element: element.into(),
            attribute: attribute.into(),
            reference,
            offset,
            url,
            within: within.map(|t| {
                if t {
                    Within::Template
                } else {
                    Within::Noscript
                }
            }),
            query_encoding: None,
            host_split: None,
        }
    }

    fn document() -> impl Strategy<Value = Document> {
        let link = (
            text(),
            text(),
            text(),
            proptest::option::of(text()),
            any::<usize>(),
            proptest::option::of(any::<bool>()),
        )
            .prop_map(any_link);
        (
            text(),
            proptest::option::of(text()),
            prop::collection::vec(link, 0..12),
        )
            .prop_map(|(name, base, links)| {
                let establish = Context::new(Spec::Rfc3986).establish();
                let base = match base {
                    Some(url) => {
                        establish.retrieval(&[format!("http://h/{url}")])
                    }
                    None => Base::none().enclosed("multipart/\"mixed\""),
                };
                let mut doc = Document::new(name, base);
                doc.links = links;
                doc
            })
    }

    fn print(how: LinksOutput, doc: &Document) -> String {
        let mut printer = Printer::new(how, false);
        let mut out = Vec::new();
        printer.start(&mut out).unwrap();
        let mut doc = {
            let mut copy = Document::new(doc.name.clone(), doc.base.clone());
            copy.links.clone_from(&doc.links);
            copy
        };
        printer.document(&mut out, &mut doc).unwrap();
        String::from_utf8(out).unwrap()
    }

    proptest! {
        #[test]
        fn every_printer_writes_each_link_whole(doc in document()) {
            let json = print(LinksOutput::Json, &doc);
            let lines: Vec<&str> = json.lines().collect();
            prop_assert_eq!(lines.len(), doc.links.len());
            for (line, link) in lines.iter().zip(&doc.links) {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                prop_assert_eq!(&v["document"], &*doc.name);
                prop_assert_eq!(&v["element"], &*link.element);
                prop_assert_eq!(&v["attribute"], &*link.attribute);
                prop_assert_eq!(&v["reference"], &*link.reference);
                prop_assert_eq!(v["offset"].as_u64(), Some(link.offset as u64));
                match &link.url {
                    Ok(url) => {
                        prop_assert_eq!(&v["url"], &**url);
                        prop_assert!(v["error"].is_null());
                    }
                    Err(e) => {
                        prop_assert!(v["url"].is_null());
                        prop_assert_eq!(&v["error"], &*e.to_string());
                    }
                }
                let context = link.within.map(Within::name);
                prop_assert_eq!(v["context"].as_str(), context);
            }

            let tsv = print(LinksOutput::Tsv, &doc);
            let rows: Vec<&str> = tsv.lines().skip(1).collect();
            prop_assert_eq!(rows.len(), doc.links.len());
            for (row, link) in rows.iter().zip(&doc.links) {
                let fields: Vec<&str> = row.split('\t').collect();
                prop_assert_eq!(fields.len(), 11);
                prop_assert_eq!(fields[3], link.offset.to_string());
                prop_assert_eq!(fields[4], visible(&link.reference));
                let url = link.url.as_deref().unwrap_or("");
                prop_assert_eq!(fields[5], visible(url));
            }

            let text = print(LinksOutput::Text, &doc);
            let shown: Vec<&str> = text.lines().filter(|l| l.contains("  ->  ")).collect();
            prop_assert!(shown.len() >= doc.links.len());
            for link in &doc.links {
                prop_assert!(text.contains(&*visible(&link.reference)));
                let url = match &link.url {
                    Ok(url) => visible(url).into_owned(),
                    Err(e) => format!("error: {e}"),
                };
                prop_assert!(text.contains(&url));
            }
        }
    }
}
