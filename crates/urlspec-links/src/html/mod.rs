//! Links in HTML: every URL-valued attribute a crawler or archivist needs,
//! and the `BASE` element (RFC 1808 §10, RFC 2396 App. D: "a BASE element
//! in HEAD supplies the base through its HREF attribute").
//!
//! The document is tokenised by `lol_html`, which reports where each
//! attribute value starts in the input; values are entity-decoded as HTML
//! requires before any URL processing. The first `<base href>` sets the base
//! of the whole document, wherever it stands (as browsers do; the seeds put
//! it in `HEAD`).

use std::cell::RefCell;

use lol_html::html_content::Element;
use lol_html::{element, HtmlRewriter, Settings};
use urlspec::base::Base;

use crate::{Context, Document};

/// How an attribute holds URLs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// The whole value is one reference.
    Url,
    /// An image candidate list (`srcset`): each candidate's URL.
    Srcset,
    /// `meta http-equiv=refresh`'s `content`: the URL after `url=`.
    Refresh,
}

/// Every (element, attribute) that holds a URL.
const URL_ATTRIBUTES: &[(&str, &str, Holds)] = &[
    ("a", "href", Holds::Url),
    ("area", "href", Holds::Url),
    ("link", "href", Holds::Url),
    ("base", "href", Holds::Url),
    ("img", "src", Holds::Url),
    ("script", "src", Holds::Url),
    ("iframe", "src", Holds::Url),
    ("frame", "src", Holds::Url),
    ("embed", "src", Holds::Url),
    ("source", "src", Holds::Url),
    ("audio", "src", Holds::Url),
    ("video", "src", Holds::Url),
    ("track", "src", Holds::Url),
    ("input", "src", Holds::Url),
    ("img", "srcset", Holds::Srcset),
    ("source", "srcset", Holds::Srcset),
    ("form", "action", Holds::Url),
    ("button", "formaction", Holds::Url),
    ("input", "formaction", Holds::Url),
    ("blockquote", "cite", Holds::Url),
    ("q", "cite", Holds::Url),
    ("del", "cite", Holds::Url),
    ("ins", "cite", Holds::Url),
    ("object", "data", Holds::Url),
    ("video", "poster", Holds::Url),
    ("body", "background", Holds::Url),
    ("table", "background", Holds::Url),
    ("td", "background", Holds::Url),
    ("meta", "content", Holds::Refresh),
];

/// The CSS selector list matching every element of [`URL_ATTRIBUTES`].
const SELECTOR: &str = "a, area, link, base, img, script, iframe, frame, embed, source, \
                        audio, video, track, input, form, button, blockquote, q, del, ins, \
                        object, body, table, td, meta";

/// A reference as found, before a base is known.
struct Raw {
    element: &'static str,
    attribute: &'static str,
    reference: String,
    offset: usize,
}

/// Reads the links of an HTML document. `outer` is the base the document
/// gets from outside (its headers, its container, its retrieval URL); an
/// embedded `<base href>` overrides it.
pub fn document(
    html: &[u8],
    name: &str,
    outer: &Base,
    ctx: &Context,
) -> Document {
    let found = RefCell::new(Vec::<Raw>::new());
    let base_href = RefCell::new(None::<String>);
    let mut problem = None;
    {
        let handler = element!(SELECTOR, |el| {
            collect(el, &mut found.borrow_mut(), &mut base_href.borrow_mut());
            Ok(())
        });
        let settings = Settings::new().append_element_content_handler(handler);
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        if let Err(e) = rewriter.write(html).and_then(|()| rewriter.end()) {
            problem = Some(format!("HTML reading stopped: {e}"));
        }
    }
    let base = match base_href.into_inner() {
        Some(href) => ctx.establish().embedded(outer, &href),
        None => outer.clone(),
    };
    let mut doc = Document::new(name, base);
    for raw in found.into_inner() {
        doc.push(
            ctx.spec,
            raw.element,
            raw.attribute,
            &raw.reference,
            raw.offset,
        );
    }
    if let Some(p) = problem {
        doc.problems.push(p);
    }
    doc
}

fn collect(
    el: &Element<'_, '_>,
    out: &mut Vec<Raw>,
    base_href: &mut Option<String>,
) {
    let tag = el.tag_name();
    let tag_offset = el.source_location().bytes().start;
    for &(element, attribute, holds) in URL_ATTRIBUTES {
        if element != tag {
            continue;
        }
        let Some(attr) =
            el.attributes().iter().find(|a| a.name() == attribute)
        else {
            continue;
        };
        let raw = attr.value();
        let start = attr
            .value_source_location()
            .map_or(tag_offset, |l| l.bytes().start);
        let value = html_escape::decode_html_entities(&raw);
        // Offsets inside the value are exact when decoding changed nothing.
        let exact = value.len() == raw.len();
        let at = |i: usize| if exact { start + i } else { start };
        match holds {
            Holds::Url => {
                if element == "base" && base_href.is_none() {
                    *base_href = Some(value.to_string());
                }
                out.push(Raw {
                    element,
                    attribute,
                    reference: value.into_owned(),
                    offset: start,
                });
            }
            Holds::Srcset => {
                for (i, url) in srcset(&value) {
                    out.push(Raw {
                        element,
                        attribute,
                        reference: url.into(),
                        offset: at(i),
                    });
                }
            }
            Holds::Refresh => {
                let refresh = el
                    .get_attribute("http-equiv")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
                if let Some((i, url)) =
                    refresh.then(|| refresh_url(&value)).flatten()
                {
                    out.push(Raw {
                        element,
                        attribute,
                        reference: url.into(),
                        offset: at(i),
                    });
                }
            }
        }
    }
}

/// The URLs of an image candidate list, with their offsets, as the HTML
/// standard's "parse a srcset attribute" splits it: a URL is a run of
/// non-whitespace; trailing commas end a candidate; descriptors run to the
/// next comma outside parentheses.
///
/// ```
/// use urlspec_links::html::srcset;
/// let got: Vec<_> = srcset("a.png 1x, b.png 2x,c.png").collect();
/// assert_eq!(got, [(0, "a.png"), (10, "b.png"), (19, "c.png")]);
/// assert_eq!(srcset("data:x,y 1x").next(), Some((0, "data:x,y")));
/// ```
pub fn srcset(value: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = value.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut end = i;
        if b[end - 1] == b',' {
            while end > start && b[end - 1] == b',' {
                end -= 1;
            }
        } else {
            // Descriptors, up to a comma outside parentheses.
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    b',' if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
        }
        Some((start, &value[start..end]))
    })
}

/// The URL of a `meta http-equiv=refresh` content value (`5; url=x`), with
/// its offset, following the HTML standard's shared declarative refresh
/// steps.
///
/// ```
/// use urlspec_links::html::refresh_url;
/// assert_eq!(refresh_url("5; URL='next.html'"), Some((8, "next.html")));
/// assert_eq!(refresh_url("0;url=/x"), Some((6, "/x")));
/// assert_eq!(refresh_url("30"), None);
/// ```
pub fn refresh_url(content: &str) -> Option<(usize, &str)> {
    let b = content.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    skip_ws(&mut i);
    if i < b.len() && (b[i] == b';' || b[i] == b',') {
        i += 1;
    }
    skip_ws(&mut i);
    if i >= b.len() {
        return None;
    }
    if b.len() - i >= 3 && b[i..i + 3].eq_ignore_ascii_case(b"url") {
        let mut j = i + 3;
        skip_ws(&mut j);
        if j < b.len() && b[j] == b'=' {
            i = j + 1;
            skip_ws(&mut i);
        }
    }
    let (start, end) = match b.get(i) {
        Some(&q @ (b'"' | b'\'')) => {
            let end = b[i + 1..]
                .iter()
                .position(|&c| c == q)
                .map_or(b.len(), |k| i + 1 + k);
            (i + 1, end)
        }
        _ => (i, b.len()),
    };
    let url = content[start..end].trim_end();
    (!url.is_empty()).then_some((start, url))
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    #[test]
    fn every_attribute_and_offsets() {
        let page = r#"<html><head><base href="http://h/d/"></head><body background="bg.png">
<a href="a?x=1&amp;y=2">A</a><img src="i.png" srcset="s1.png 1x, s2.png 2x">
<form action="f"><button formaction="b">x</button><input type=image src="in.png"></form>
<q cite="c"></q><object data="o"></object><video poster="p" src="v"></video>
<meta http-equiv="Refresh" content="3; url=r.html"><meta name="x" content="not-a-url">
</body></html>"#;
        let ctx = Context::new(Spec::Rfc3986);
        let doc = document(page.as_bytes(), "t", &Base::none(), &ctx);
        let got: Vec<(&str, &str, &str)> = doc
            .links
            .iter()
            .map(|l| {
                (
                    l.element.as_str(),
                    l.attribute.as_str(),
                    l.url.as_deref().unwrap_or("?"),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("base", "href", "http://h/d/"),
                ("body", "background", "http://h/d/bg.png"),
                ("a", "href", "http://h/d/a?x=1&y=2"),
                ("img", "src", "http://h/d/i.png"),
                ("img", "srcset", "http://h/d/s1.png"),
                ("img", "srcset", "http://h/d/s2.png"),
                ("form", "action", "http://h/d/f"),
                ("button", "formaction", "http://h/d/b"),
                ("input", "src", "http://h/d/in.png"),
                ("q", "cite", "http://h/d/c"),
                ("object", "data", "http://h/d/o"),
                ("video", "src", "http://h/d/v"),
                ("video", "poster", "http://h/d/p"),
                ("meta", "content", "http://h/d/r.html"),
            ]
        );
        // Each offset points at the reference in the page.
        for l in &doc.links {
            if !l.reference.contains('&') {
                assert_eq!(
                    &page[l.offset..l.offset + l.reference.len()],
                    l.reference
                );
            }
        }
    }

    #[test]
    fn no_base_leaves_relative_links_unresolved() {
        let ctx = Context::new(Spec::Rfc1808);
        let doc = document(
            b"<a href='g'>g</a><a href='http://x/'>x</a>",
            "t",
            &Base::none(),
            &ctx,
        );
        assert!(doc.links[0].url.is_err());
        assert_eq!(doc.links[1].url.as_deref(), Ok("http://x/"));
    }
}
