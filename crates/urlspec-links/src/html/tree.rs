//! Which elements the HTML tree builder inserts (HTML §13.2.6): the
//! tokenizer sees every start tag, and the tree builder ignores some, so
//! that no browser has their links. Kept here as rules about the start
//! tags the links handler sees, with the little state they need:
//!
//! * a `<form>` while the form element pointer is set (a form was opened
//!   and no `</form>` has come since, outside `<template>` contents) is
//!   ignored (§13.2.6.4.7, "in body");
//! * a `<frame>` outside a `<frameset>` is ignored ("in body"), and a
//!   `<frameset>` only replaces the body while the frameset-ok flag is
//!   "ok": before an explicit `<body>`, body text, or one of the start
//!   tags that set it to "not ok" ([`Facts::FRAMESET_NOT_OK`]);
//! * a `<frameset>` that counts while the tree builder has opened a body
//!   takes the body's place: what the body held is no longer in the
//!   document ([`Tree::replaced`]), so its links are taken back, and
//!   they are held meanwhile ([`Tree::tentative`]);
//! * once a `<frameset>` made the document a frameset document, every
//!   element but `<frameset>`, `<frame>` and `<noframes>` is ignored ("in
//!   frameset", "after frameset").
//!
//! Every `</form>` end tag clears the pointer, whether or not it closes an
//! element open, so the reader hands each over ([`Tree::form_end`]): one
//! between the form that set the pointer and a later form clears it,
//! unless it stands in a `<template>`'s contents. A reader that is not
//! given every end tag finds them in the bytes as they are written
//! ([`Tree::see`]) and takes back those that are no end tag, in a
//! comment, text or a start tag ([`Tree::no_end_tag`];
//! docs/readings.md#html-tree).

#[cfg(doc)]
use super::elements::Facts;
use crate::Within;

/// The start tags the tree builder puts in the head before the body
/// (and `html`, `head`, `body`, `frameset`, which open no body): any
/// other opens the body (§13.2.6.4.4 to §13.2.6.4.6, "anything else").
const OPEN_NO_BODY: &[&[u8]] = &[
    b"html",
    b"head",
    b"body",
    b"frameset",
    b"base",
    b"basefont",
    b"bgsound",
    b"link",
    b"meta",
    b"noframes",
    b"script",
    b"style",
    b"template",
    b"title",
    b"noscript",
];

/// The selector of the start tags that change the frameset-ok flag or
/// open a frameset: those of [`Facts::FRAMESET_NOT_OK`], `body` and
/// `frameset`.
pub(super) const FRAMESET_SELECTOR: &str = "applet, area, br, button, dd, \
    dt, embed, hr, iframe, image, img, input, keygen, li, listing, marquee, \
    object, pre, select, table, textarea, wbr, xmp, body, frameset";

/// The tree builder's state that decides which start tags it ignores.
/// Its buffers are kept from one page to the next ([`Tree::reset`]).
#[derive(Clone, Default)]
pub(super) struct Tree {
    /// Where the form that set the form element pointer starts.
    form: Option<usize>,
    /// Where each `</form>` written so far starts, in order.
    form_ends: Vec<usize>,
    /// The last bytes written, which may begin a `</form` the next ones
    /// end.
    tail: Vec<u8>,
    /// The byte ranges of the `<template>` elements closed so far.
    templates: Vec<(usize, usize)>,
    /// The frameset-ok flag is "not ok".
    frameset_not_ok: bool,
    /// The `<frameset>` elements open.
    framesets: usize,
    /// A `<frameset>` made the document a frameset document.
    frameset_document: bool,
    /// Where the body the tree builder opened (by a start tag, not
    /// `<body>`) starts.
    body: Option<usize>,
    /// Where the body a `<frameset>` has just taken the place of starts.
    replaced: Option<usize>,
}

impl Tree {
    /// Back to the start of a page, the buffers kept.
    pub(super) fn reset(&mut self) {
        self.form = None;
        self.form_ends.clear();
        self.tail.clear();
        self.templates.clear();
        self.frameset_not_ok = false;
        self.framesets = 0;
        self.frameset_document = false;
        self.body = None;
        self.replaced = None;
    }

    /// Follows a start tag `tag` (of the HTML namespace: `html`) at byte
    /// `at`, before any other rule: the first that is no head's opens the
    /// body (`<svg>` and `<math>` too, whose elements are of their own
    /// namespaces).
    pub(super) fn start_tag(&mut self, html: bool, tag: &[u8], at: usize) {
        let foreign = matches!(tag, b"svg" | b"math");
        if self.body.is_none()
            && !self.frameset_document
            && (html || foreign)
            && !OPEN_NO_BODY.contains(&tag)
        {
            self.body = Some(at);
        }
    }

    /// Whether a `<frameset>` may still take the place of the body opened
    /// (docs/readings.md#html-frameset-body): its links are not yet sure.
    pub(super) fn tentative(&self) -> bool {
        self.body.is_some() && !self.frameset_not_ok && !self.frameset_document
    }

    /// Where the body starts that a `<frameset>` has just taken the place
    /// of, once: the links from there on are no longer in the document.
    pub(super) fn replaced(&mut self) -> Option<usize> {
        self.replaced.take()
    }

    /// Whether the tree builder inserts the element `tag` (of the HTML
    /// namespace: `html`) that starts at byte `at`, `within` a context:
    /// the links handler keeps its links only then.
    pub(super) fn inserts(
        &mut self,
        html: bool,
        tag: &[u8],
        at: usize,
        within: Option<Within>,
    ) -> bool {
        if self.frameset_document {
            return html && tag == b"frame" && self.framesets > 0;
        }
        if !html {
            return true;
        }
        match tag {
            b"frame" => false,
            // In a template's contents the pointer is neither read nor set.
            b"form" if within == Some(Within::Template) => true,
            b"form" => match self.form {
                Some(open) if !self.form_ended(open, at) => false,
                _ => {
                    self.form = Some(at);
                    true
                }
            },
            _ => true,
        }
    }

    /// Whether a `</form>` outside template contents stands between bytes
    /// `open` and `at`.
    fn form_ended(&self, open: usize, at: usize) -> bool {
        self.form_ends.iter().any(|&end| {
            open < end
                && end < at
                && !self.templates.iter().any(|&(s, e)| s < end && end < e)
        })
    }

    /// Notes a `</form>` end tag that starts at byte `at`.
    pub(super) fn form_end(&mut self, at: usize) {
        self.form_ends.push(at);
    }

    /// Takes back the `</form>` noted by [`Tree::see`] in bytes
    /// `from..to`, which are no end tag (a comment, text, a start tag).
    /// The ranges come in the order of the page.
    pub(super) fn no_end_tag(&mut self, from: usize, to: usize) {
        let first = self.form_ends.partition_point(|&end| end < from);
        let last = self.form_ends.partition_point(|&end| end < to);
        if first < last {
            self.form_ends.drain(first..last);
        }
    }

    /// Notes the `</form>` end tags of `chunk`, the bytes of the page from
    /// byte `at` on, before the tokenizer is given them.
    pub(super) fn see(&mut self, chunk: &[u8], at: usize) {
        const END: &[u8] = b"</form";
        // A `</form` across the boundary with the chunk before.
        if !self.tail.is_empty() {
            let head = &chunk[..chunk.len().min(END.len())];
            let tail = self.tail.len();
            let joined = [&self.tail[..], head].concat();
            let from = at - tail;
            for i in memchr::memmem::find_iter(&joined, b"</") {
                if i < tail && ends_form(&joined[i..]) {
                    self.form_ends.push(from + i);
                }
            }
        }
        for i in memchr::memmem::find_iter(chunk, b"</") {
            if ends_form(&chunk[i..]) {
                self.form_ends.push(at + i);
            }
        }
        let keep = chunk.len().min(END.len());
        self.tail.clear();
        self.tail.extend_from_slice(&chunk[chunk.len() - keep..]);
    }

    /// Notes a `<template>` element's byte range, once it is closed.
    pub(super) fn template(&mut self, start: usize, end: usize) {
        self.templates.push((start, end));
    }

    /// Follows the frameset-ok flag and the framesets open, at a start tag
    /// of [`FRAMESET_SELECTOR`] (of the HTML namespace: `html`); `not_ok`:
    /// it is one of [`Facts::FRAMESET_NOT_OK`]; `hidden`: an `<input>`
    /// whose type is `hidden`. True when the tag opens a frameset, whose
    /// end the caller reports ([`Tree::frameset_closed`]).
    pub(super) fn frameset_tag(
        &mut self,
        html: bool,
        tag: &[u8],
        not_ok: bool,
        hidden: impl FnOnce() -> bool,
    ) -> bool {
        if !html {
            return false;
        }
        if tag == b"frameset" {
            let nested = self.frameset_document;
            if !nested && self.frameset_not_ok {
                return false;
            }
            if !nested {
                self.replaced = self.body.take();
            }
            self.frameset_document = true;
            self.framesets += 1;
            return true;
        }
        if tag == b"body" || not_ok && !(tag == b"input" && hidden()) {
            self.frameset_not_ok = true;
        }
        false
    }

    /// A `<frameset>` that [`Tree::frameset_tag`] opened is closed.
    pub(super) fn frameset_closed(&mut self) {
        self.framesets = self.framesets.saturating_sub(1);
    }

    /// Whether text of the page can still change what the tree tells:
    /// until the frameset-ok flag is "not ok", which text cannot undo.
    pub(super) fn reads_text(&self) -> bool {
        !self.frameset_not_ok
    }

    /// Follows the frameset-ok flag at text of the page (its bytes, in an
    /// ASCII-compatible encoding): a character that is not whitespace
    /// sets it to "not ok".
    pub(super) fn text(&mut self, text: &[u8]) {
        if !self.frameset_not_ok
            && text.iter().any(|c| {
                !matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | 0)
            })
        {
            self.frameset_not_ok = true;
        }
    }
}

/// Whether `bytes` start a `</form>` end tag (`</form` in any case, then
/// whitespace, `/` or `>`).
fn ends_form(bytes: &[u8]) -> bool {
    bytes.len() > 6
        && bytes[2..6].eq_ignore_ascii_case(b"form")
        && matches!(
            bytes[6],
            b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'
        )
}
