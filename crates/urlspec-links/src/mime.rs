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
//! The mail list headers of RFC 2369 (`List-Help`, `List-Post`, …) hold
//! links as `<URL>` lists, without the `URL:` prefix.
//!
//! The message tree is read by `mail-parser`, which also splits mbox
//! files into their messages. An HTML part is its bytes with the transfer
//! encoding undone ([`transfer`]), read as [`html::document_in`] reads a
//! WARC response: its `charset` parameter is the transport layer's
//! charset, and without one the page's own `<meta>` (or `--encoding`, or
//! windows-1252) decides.

use mail_parser::mailbox::mbox::MessageIterator;
use mail_parser::{Message, MessageParser, MimeHeaders, PartType};
use urlspec::base::Base;

use crate::headers::{self, Form};
use crate::{html, Context, Document, Error, Problem, Reason};

pub mod stream;
pub mod transfer;

use transfer::Transfer;

/// The headers of RFC 2369 §3, whose values are `<URL>` lists.
const LIST_HEADERS: &[&str] = &[
    "list-help",
    "list-unsubscribe",
    "list-subscribe",
    "list-post",
    "list-owner",
    "list-archive",
];

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

/// Reads a MIME message, or each message of an mbox file (one that starts
/// with a `From ` line; its messages are named `NAME[1]`, `NAME[2]`, …),
/// and hands each document (the headers' links, then each HTML part) to
/// `sink`, in message order. `Err` when the input is not a message, or
/// when parts nest deeper than [`MAX_DEPTH`] (the documents above that
/// depth were handed on); in an mbox, the first such error, after every
/// message was read.
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
///
/// # Errors
///
/// [`Error`] at offset 0 (the start of the message), with
/// [`Reason::NotMessage`] when `data` has no header,
/// [`Reason::TooManyMessages`] when it holds more than [`MAX_MESSAGES`]
/// `message/rfc822` or `message/global` parts, [`Reason::TooDeep`] when
/// parts nest deeper than [`MAX_DEPTH`]. In an mbox, the first error of
/// its messages, after every message was read.
pub fn documents(
    data: &[u8],
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(Document),
) -> Result<(), Error> {
    if !data.starts_with(b"From ") {
        return message(data, name, ctx, sink);
    }
    let mut first_error = None;
    for (i, msg) in MessageIterator::new(data).enumerate() {
        // Reading from memory: no I/O error.
        let Ok(msg) = msg else { break };
        let named = format!("{name}[{}]", i + 1);
        if let Err(e) = message(msg.contents(), &named, ctx, sink) {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// One message.
fn message(
    data: &[u8],
    name: &str,
    ctx: &Context,
    sink: &mut dyn FnMut(Document),
) -> Result<(), Error> {
    // mail-parser nests one `Message` per `message/*` part and frees them
    // recursively: a hostile message of many thousands overflows the stack
    // before any depth limit of ours could apply. No real message has this
    // many.
    let nested = count_ignoring_case(data, b"message/rfc822")
        + count_ignoring_case(data, b"message/global");
    if nested > MAX_MESSAGES {
        return Err(Error::new(0, Reason::TooManyMessages));
    }
    let parse = |data| {
        MessageParser::default()
            .parse(data)
            .ok_or(Error::new(0, Reason::NotMessage))
    };
    let msg = parse(data)?;
    // mail-parser drops the last part of a multipart body whose closing
    // delimiter never comes; browsers and mail readers show it. The
    // message is read again with the missing delimiters written at its
    // end, and the part they close gets a note.
    let missing = unclosed_boundaries(&msg);
    let patched;
    let (msg, cut) = if missing.is_empty() {
        (msg, None)
    } else {
        let mut bytes = data.to_vec();
        for boundary in missing.iter().rev() {
            bytes.extend_from_slice(
                format!("\r\n--{boundary}--\r\n").as_bytes(),
            );
        }
        patched = bytes;
        (parse(&patched)?, Some(data.len()))
    };
    let mut walker = Walker {
        ctx,
        sink,
        name,
        depth: 0,
        too_deep: false,
        cut,
        unread: None,
    };
    walker.message(&msg, &ctx.retrieval_base(), "");
    if walker.too_deep {
        return Err(Error::new(0, Reason::TooDeep));
    }
    Ok(())
}

struct Walker<'a> {
    ctx: &'a Context,
    sink: &'a mut dyn FnMut(Document),
    name: &'a str,
    depth: usize,
    too_deep: bool,
    /// Where the message ended, when closing delimiters were written
    /// after it.
    cut: Option<usize>,
    /// The innermost base header that the spec does not read, on the
    /// entities from the message down to the current one (none once an
    /// entity's headers set a base).
    unread: Option<crate::UnreadHeader>,
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
        let saved = self.unread.clone();
        self.layer_unread(&headers);
        let unread = self.unread.clone();
        if let Some(doc) =
            header_document(self.ctx, self.name, path, &base, &headers, unread)
        {
            (self.sink)(doc);
        }
        self.part(msg, 0, &base, path);
        self.unread = saved;
    }

    /// Applies an entity's headers to [`Walker::unread`].
    fn layer_unread(&mut self, headers: &[(&str, &str, usize)]) {
        layer_unread(self.ctx, &mut self.unread, headers);
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
            PartType::Html(_) => self.html(msg, part, base, path),
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
                    let saved = self.unread.clone();
                    self.layer_unread(&headers);
                    self.part(msg, child as usize, &child_base, &child_path);
                    self.unread = saved;
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
            | PartType::InlineBinary(_)
                if is_xhtml(part) =>
            {
                self.html(msg, part, base, path);
            }
            PartType::Text(_)
            | PartType::Binary(_)
            | PartType::InlineBinary(_) => {}
        }
    }

    fn part_name(&self, path: &str) -> String {
        if path.is_empty() {
            self.name.to_string()
        } else {
            format!("{}#{path}", self.name)
        }
    }

    /// Reads an HTML part and hands on its document, with the note of a
    /// multipart body that ended without its closing boundary (RFC 2046
    /// §5.1.1) when this part is the one it cut. The page is its bytes
    /// with the transfer encoding undone, its encoding sniffed as a WARC
    /// response's is, the part's `charset` the transport layer's.
    fn html(
        &mut self,
        msg: &Message<'_>,
        part: &mail_parser::MessagePart<'_>,
        base: &Base,
        path: &str,
    ) {
        let raw: &[u8] = &msg.raw_message;
        let body = raw
            .get(part.offset_body as usize..part.offset_end as usize)
            .unwrap_or_default();
        let page =
            Transfer::of(part.content_transfer_encoding().unwrap_or(""))
                .decode(body);
        let charset = part
            .content_type()
            .and_then(|ct| ct.attribute("charset"))
            .map_or(html::Charset::Unknown, html::Charset::Transport);
        let mut doc = html::document_in(
            &page,
            charset,
            &self.part_name(path),
            base,
            self.ctx,
        );
        doc.unread_base_header = self.unread.clone();
        // The part that ran to the end of the message (its body ends at
        // the CRLF before the delimiter written after it).
        if self.cut.is_some_and(|cut| part.offset_end as usize + 2 >= cut) {
            doc.problems.push(Problem::NoClosingBoundary);
        }
        (self.sink)(doc);
    }
}

/// Applies an entity's headers to `unread`, the innermost base header the
/// spec does not read on the entities from the message down (none once
/// an entity's headers set a base).
fn layer_unread(
    ctx: &Context,
    unread: &mut Option<crate::UnreadHeader>,
    headers: &[(&str, &str, usize)],
) {
    let headers = headers.iter().map(|h| (h.0, h.1));
    let own = ctx.establish().headers(&Base::none(), headers.clone());
    if own.url().is_some() {
        *unread = None;
    } else if let Some(header) = ctx.unread_base_header(headers) {
        *unread = Some(header);
    }
}

/// The document of a message's header links (`NAME#PATH (headers)`),
/// when it has any: `headers` are the message's (name, raw
/// value, offset), `unread` the base header its base layers left unread.
fn header_document(
    ctx: &Context,
    name: &str,
    path: &str,
    base: &Base,
    headers: &[(&str, &str, usize)],
    unread: Option<crate::UnreadHeader>,
) -> Option<Document> {
    let label =
        if path.is_empty() { String::new() } else { format!("#{path}") };
    let mut doc =
        ctx.document(format!("{name}{label} (headers)"), || base.clone());
    for &(hname, value, offset) in headers {
        if BASE_HEADERS.iter().any(|b| b.eq_ignore_ascii_case(hname)) {
            continue;
        }
        let list = LIST_HEADERS.iter().any(|l| l.eq_ignore_ascii_case(hname));
        let form = if list { Form::List } else { Form::Wrapped };
        for (at, url) in headers::urls(value, form) {
            doc.push(ctx, "header", hname.to_owned(), &url, offset + at);
        }
    }
    doc.unread_base_header = unread;
    (!doc.links.is_empty()).then_some(doc)
}

/// Whether a part is typed `application/xhtml+xml` (mail-parser reads
/// only `text/html` as HTML).
fn is_xhtml(part: &mail_parser::MessagePart<'_>) -> bool {
    part.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("application")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("xhtml+xml"))
    })
}

/// The boundaries of the multipart parts of `msg` whose closing delimiter
/// (a line `--BOUNDARY--`, RFC 2046 §5.1.1) is not in the message,
/// outermost first. One pass over the message, whatever the number of
/// parts.
fn unclosed_boundaries(msg: &Message<'_>) -> Vec<String> {
    let raw: &[u8] = &msg.raw_message;
    let closed: std::collections::HashSet<&[u8]> = raw
        .split(|&b| b == b'\n')
        .filter_map(|line| {
            let line = line.trim_ascii_end();
            line.strip_prefix(b"--")?.strip_suffix(b"--")
        })
        .collect();
    msg.parts
        .iter()
        .filter(|p| matches!(p.body, PartType::Multipart(_)))
        .filter_map(|p| p.content_type()?.attribute("boundary"))
        .filter(|boundary| !closed.contains(boundary.as_bytes()))
        .map(str::to_string)
        .collect()
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
            assert_eq!(e.reason, crate::Reason::TooDeep, "{e}");
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

    fn all(data: &[u8]) -> (Vec<Document>, Result<(), Error>) {
        let mut docs = Vec::new();
        let ctx = Context::new(Spec::Rfc3986);
        let result = documents(data, "m", &ctx, &mut |d| docs.push(d));
        (docs, result)
    }

    #[test]
    fn a_multipart_without_its_closing_boundary_yields_its_last_part() {
        let msg = "Content-Location: http://h/d/\r
Content-Type: multipart/related; boundary=\"b\"\r
\r
--b\r
Content-Type: text/html\r
\r
<a href=\"one\">1</a>\r
--b\r
Content-Type: text/html\r
\r
<a href=\"two\">2</a>\r
";
        let (docs, result) = all(msg.as_bytes());
        result.unwrap();
        let urls: Vec<&str> =
            docs.iter().map(|d| d.links[0].url.as_deref().unwrap()).collect();
        assert_eq!(urls, ["http://h/d/one", "http://h/d/two"]);
        assert!(docs[0].problems.is_empty());
        assert_eq!(docs[1].problems, [Problem::NoClosingBoundary]);
        assert!(docs[1].problems[0].to_string().contains("closing boundary"));
        // Closed: no note.
        let closed = format!("{msg}--b--\r\n");
        let (docs, _) = all(closed.as_bytes());
        assert!(docs.iter().all(|d| d.problems.is_empty()));
    }

    #[test]
    fn list_headers_hold_links_without_the_url_prefix() {
        let msg =
            "List-Help: <mailto:list@h?subject=help> (List Instructions),\r
 <http://h/help>\r
List-Unsubscribe: <URL:http://h/unsub>\r
List-Post: NO (posting not allowed)\r
List-Archive: <archive/>\r
Content-Location: http://h/l/\r
Content-Type: text/plain\r
\r
text";
        let (docs, result) = all(msg.as_bytes());
        result.unwrap();
        let links: Vec<(&str, &str)> = docs[0]
            .links
            .iter()
            .map(|l| (&*l.attribute, l.url.as_deref().unwrap()))
            .collect();
        assert_eq!(
            links,
            [
                ("List-Help", "mailto:list@h?subject=help"),
                ("List-Help", "http://h/help"),
                ("List-Unsubscribe", "http://h/unsub"),
                ("List-Archive", "http://h/l/archive/"),
            ]
        );
        for l in &docs[0].links {
            let at = l.offset;
            assert_eq!(&msg[at..at + l.reference.len()], l.reference, "{l:?}");
        }
    }

    #[test]
    fn an_mbox_is_read_message_by_message() {
        let mbox = "From a@h Thu Nov 26 04:00:00 2026\r
Content-Location: http://one/\r
Content-Type: text/html\r
\r
<a href=\"x\">x</a>\r
\r
From b@h Thu Nov 26 04:01:00 2026\r
Content-Location: http://two/\r
Content-Type: application/xhtml+xml\r
\r
<html xmlns=\"http://www.w3.org/1999/xhtml\"><a href=\"y\">y</a></html>\r
";
        let (docs, result) = all(mbox.as_bytes());
        result.unwrap();
        let got: Vec<(&str, &str)> = docs
            .iter()
            .map(|d| (d.name.as_str(), d.links[0].url.as_deref().unwrap()))
            .collect();
        assert_eq!(got, [("m[1]", "http://one/x"), ("m[2]", "http://two/y")]);
    }
}
