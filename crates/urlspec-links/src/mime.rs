//! Links in MIME messages: the message's own headers, and every HTML part,
//! recursively through `multipart/*` and `message/rfc822`.
//!
//! Each entity's base follows RFC 1808 §3: its headers (`Base`,
//! `Content-Base`, `Content-Location`, as the spec recognises them) or else
//! the base of the entity that encloses it (§3.2, "applied recursively"),
//! and at the top the retrieval URL. "The base URL of the message" is also
//! the base "for relative URLs inside the message headers" (§3.1), so URLs
//! written in headers as `<URL:…>` are links too.
//!
//! The message tree is read by `mail-parser`, which also undoes transfer
//! encodings and charsets of the HTML parts.

use mail_parser::{Message, MessageParser, MimeHeaders, PartType};
use urlspec::base::Base;

use crate::{html, Context, Document};

/// How deep `multipart/*` and `message/*` may nest before the walk stops.
pub const MAX_DEPTH: usize = 64;

/// How many `message/rfc822` parts a message may hold in all.
pub const MAX_MESSAGES: usize = 1000;

/// How often `needle` (lower case) occurs in `hay`, ignoring ASCII case.
fn count_ignoring_case(hay: &[u8], needle: &[u8]) -> usize {
    let first = needle[0];
    let mut n = 0;
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if hay[i].to_ascii_lowercase() == first
            && hay[i..i + needle.len()].eq_ignore_ascii_case(needle)
        {
            n += 1;
            i += needle.len();
        } else {
            i += 1;
        }
    }
    n
}

/// Headers that set a base rather than hold a link.
const BASE_HEADERS: &[&str] = &["base", "content-base", "content-location"];

/// Reads a MIME message and hands each document (the headers' links, then
/// each HTML part) to `sink`, in message order. `Err` when the input is not
/// a message, or when parts nest deeper than [`MAX_DEPTH`] (the documents
/// above that depth were handed on).
///
/// ```
/// use urlspec_links::{mime, Context};
/// use urlspec::Spec;
/// let msg = b"Base: <URL:http://h/d/>\r\nX-See: <URL:x>\r\nContent-Type: text/html\r\n\r\n<a href=y>y</a>";
/// let mut docs = Vec::new();
/// mime::documents(msg, "m.eml", &Context::new(Spec::Rfc1808), &mut |d| docs.push(d)).unwrap();
/// assert_eq!(docs[0].links[0].url.as_deref(), Ok("http://h/d/x")); // TV-BASE-11
/// assert_eq!(docs[1].links[0].url.as_deref(), Ok("http://h/d/y"));
/// ```
pub fn documents(
    data: &[u8],
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(Document),
) -> Result<(), String> {
    // mail-parser nests one `Message` per `message/*` part and frees them
    // recursively: a hostile message of many thousands overflows the stack
    // before any depth limit of ours could apply. No real message has this
    // many.
    let nested = count_ignoring_case(data, b"message/rfc822")
        + count_ignoring_case(data, b"message/global");
    if nested > MAX_MESSAGES {
        return Err(format!(
            "{name}: more than {MAX_MESSAGES} message/rfc822 parts; not read"
        ));
    }
    let msg = MessageParser::default().parse(data).ok_or_else(|| {
        format!("{name}: not a MIME message (no header found)")
    })?;
    let mut walker = Walker { ctx, sink, name, depth: 0, too_deep: false };
    walker.message(&msg, &ctx.retrieval_base(), "");
    if walker.too_deep {
        return Err(format!(
            "{name}: parts nested more than {MAX_DEPTH} levels deep were not read"
        ));
    }
    Ok(())
}

struct Walker<'a> {
    ctx: &'a Context,
    sink: &'a mut dyn FnMut(Document),
    name: &'a str,
    depth: usize,
    too_deep: bool,
}

impl Walker<'_> {
    /// A message: its headers set its base; header links; then its body.
    fn message(&mut self, msg: &Message<'_>, outer: &Base, path: &str) {
        // Header offsets index the whole buffer the message was parsed
        // from (for a nested message, its outer message's), which the
        // field holds; `raw_message()` would start at this message.
        let raw: &[u8] = &msg.raw_message;
        let root = msg.root_part();
        let headers = raw_headers(raw, root);
        let base = self
            .ctx
            .establish()
            .headers(outer, headers.iter().map(|h| (h.0, h.1)));
        let label =
            if path.is_empty() { String::new() } else { format!("#{path}") };
        let mut doc = Document::new(
            format!("{}{label} (headers)", self.name),
            base.clone(),
        );
        for &(hname, value, offset) in &headers {
            if BASE_HEADERS.iter().any(|b| b.eq_ignore_ascii_case(hname)) {
                continue;
            }
            for (at, url) in header_urls(value) {
                doc.push(self.ctx.spec, "header", hname, &url, offset + at);
            }
        }
        if !doc.links.is_empty() {
            (self.sink)(doc);
        }
        self.part(msg, 0, &base, path);
    }

    /// One part, whose own headers were already applied to `base`.
    fn part(&mut self, msg: &Message<'_>, id: usize, base: &Base, path: &str) {
        let Some(part) = msg.parts.get(id) else { return };
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            return;
        }
        self.depth += 1;
        self.part_body(msg, part, base, path);
        self.depth -= 1;
    }

    fn part_body(
        &mut self,
        msg: &Message<'_>,
        part: &mail_parser::MessagePart<'_>,
        base: &Base,
        path: &str,
    ) {
        match &part.body {
            PartType::Html(text) => {
                let name = if path.is_empty() {
                    self.name.to_string()
                } else {
                    format!("{}#{path}", self.name)
                };
                // mail-parser has decoded the part from its charset.
                let charset = part
                    .content_type()
                    .and_then(|ct| ct.attribute("charset"))
                    .unwrap_or("utf-8");
                (self.sink)(html::document_in(
                    text.as_bytes(),
                    html::Charset::Decoded(charset),
                    &name,
                    base,
                    self.ctx,
                ));
            }
            PartType::Multipart(children) => {
                let kind = part.content_type().map_or_else(
                    || "multipart".to_string(),
                    |ct| {
                        format!(
                            "{}/{}",
                            ct.ctype(),
                            ct.subtype().unwrap_or("")
                        )
                    },
                );
                for (i, &child) in children.iter().enumerate() {
                    let child_path = if path.is_empty() {
                        format!("{}", i + 1)
                    } else {
                        format!("{path}.{}", i + 1)
                    };
                    let Some(child_part) = msg.parts.get(child as usize)
                    else {
                        continue;
                    };
                    let outer =
                        base.enclosed(&format!("{kind} part {child_path}"));
                    let headers = raw_headers(&msg.raw_message, child_part);
                    let child_base = self
                        .ctx
                        .establish()
                        .headers(&outer, headers.iter().map(|h| (h.0, h.1)));
                    self.part(msg, child as usize, &child_base, &child_path);
                }
            }
            PartType::Message(inner) => {
                let outer = base.enclosed(&format!(
                    "message/rfc822 {}",
                    if path.is_empty() { "body" } else { path }
                ));
                self.message(inner, &outer, path);
            }
            PartType::Text(_)
            | PartType::Binary(_)
            | PartType::InlineBinary(_) => {}
        }
    }
}

/// The name, raw value and value offset of each header of `part`.
fn raw_headers<'m>(
    raw: &'m [u8],
    part: &mail_parser::MessagePart<'_>,
) -> Vec<(&'m str, &'m str, usize)> {
    part.headers
        .iter()
        .filter_map(|h| {
            let (s, e, f) = (
                h.offset_start as usize,
                h.offset_end as usize,
                h.offset_field as usize,
            );
            let value = std::str::from_utf8(raw.get(s..e)?).ok()?;
            // The name as written, up to its colon.
            let field = std::str::from_utf8(raw.get(f..s)?).ok()?;
            let name = field.split(':').next().unwrap_or("").trim();
            Some((name, value, s))
        })
        .collect()
}

/// The `<URL:…>` references in a header value, whitespace removed, with
/// the offset of each in the value (RFC 1808 §3.1's form for URLs in
/// headers; the 1996 draft App. B).
fn header_urls(value: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lower = value.to_ascii_lowercase();
    let mut from = 0;
    while let Some(k) = lower[from..].find("<url:") {
        let start = from + k + 5;
        let Some(len) = value[start..].find('>') else { break };
        let url: String = value[start..start + len]
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        if !url.is_empty() {
            out.push((start, url));
        }
        from = start + len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlspec::Spec;

    /// TV-BASE-7: a message with `Base: <URL:http://h/root/>` holding P1 (no
    /// base), P2 (HTML with `<BASE href="http://o/p">`) and P3 (a multipart
    /// with `Base: <URL:http://n/>` holding P3a).
    const TV_BASE_7: &str = "Base: <URL:http://h/root/>\r
Content-Type: multipart/mixed; boundary=\"b1\"\r
\r
--b1\r
Content-Type: text/html\r
\r
<a href=\"p1\">p1</a>\r
--b1\r
Content-Type: text/html\r
\r
<html><head><base href=\"http://o/p\"></head><a href=\"p2\">p2</a></html>\r
--b1\r
Base: <URL:http://n/>\r
Content-Type: multipart/alternative; boundary=\"b2\"\r
\r
--b2\r
Content-Type: text/html\r
\r
<a href=\"p3a\">p3a</a>\r
--b2--\r
--b1--\r
";

    #[test]
    fn nesting_is_bounded() {
        let mut msg = String::new();
        for i in 0..200 {
            msg.push_str(&format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"));
        }
        msg.push_str("Content-Type: text/html\r\n\r\n<a href=x>x</a>\r\n");
        let ctx = Context::new(Spec::Rfc1808);
        let mut n = 0;
        let result = documents(msg.as_bytes(), "deep", &ctx, &mut |_| n += 1);
        // mail-parser may stop nesting first; either way the walk ends.
        if let Err(e) = result {
            assert!(e.contains("nested more than 64 levels"), "{e}");
        }
    }

    #[test]
    fn tv_base_7() {
        let mut docs = Vec::new();
        let ctx = Context::new(Spec::Rfc1808);
        documents(TV_BASE_7.as_bytes(), "m", &ctx, &mut |d| docs.push(d))
            .unwrap();
        let urls: Vec<(&str, &str)> = docs
            .iter()
            .flat_map(|d| {
                d.links.iter().map(move |l| {
                    (d.name.as_str(), l.url.as_deref().unwrap_or("?"))
                })
            })
            .collect();
        assert_eq!(
            urls,
            [
                ("m#1", "http://h/root/p1"),
                ("m#2", "http://o/p"),
                ("m#2", "http://o/p2"),
                ("m#3.1", "http://n/p3a")
            ]
        );
        // P1 inherits the message's base through its container; P3a its
        // own container's.
        assert_eq!(docs[0].base.containers(), ["multipart/mixed part 1"]);
        assert_eq!(
            docs[2].base.containers(),
            ["multipart/alternative part 3.1"]
        );
        assert_eq!(docs[1].base.source().layer(), "embedded");
    }
}
