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
//!   "ok": before an explicit `<body>`, body text, or one of
//!   [`FRAMESET_NOT_OK`];
//! * once a `<frameset>` made the document a frameset document, every
//!   element but `<frameset>`, `<frame>` and `<noframes>` is ignored ("in
//!   frameset", "after frameset").
//!
//! lol_html keeps a stack of its own and hands over no end tag it does
//! not match to an element it has open, so the `</form>` end tags are
//! found in the bytes as they are written ([`Tree::see`]): one between the
//! form that set the pointer and a later form clears it, unless it stands
//! in a `<template>`'s contents (docs/readings.md#html-tree).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use lol_html::html_content::Element;

use super::HTML_NS;
use crate::Within;

/// The start tags after which a `<frameset>` in the body is ignored: the
/// "in body" rules set the frameset-ok flag to "not ok" for each
/// (`input` unless its type is `hidden`; `image` is read as `img`).
pub(super) const FRAMESET_NOT_OK: &[&str] = &[
    "applet", "area", "br", "button", "dd", "dt", "embed", "hr", "iframe",
    "image", "img", "input", "keygen", "li", "listing", "marquee", "object",
    "pre", "select", "table", "textarea", "wbr", "xmp",
];

/// The selector of the start tags that change the frameset-ok flag or
/// open a frameset: [`FRAMESET_NOT_OK`], `body` and `frameset`.
pub(super) const FRAMESET_SELECTOR: &str = "applet, area, br, button, dd, \
    dt, embed, hr, iframe, image, img, input, keygen, li, listing, marquee, \
    object, pre, select, table, textarea, wbr, xmp, body, frameset";

/// The tree builder's state that decides which start tags it ignores,
/// shared with the end-tag handlers that change it.
#[derive(Clone, Default)]
pub(super) struct Tree {
    /// Where the form that set the form element pointer starts.
    form: Rc<Cell<Option<usize>>>,
    /// Where each `</form>` written so far starts, in order.
    form_ends: Rc<RefCell<Vec<usize>>>,
    /// The last bytes written, which may begin a `</form` the next ones
    /// end.
    tail: Rc<RefCell<Vec<u8>>>,
    /// The byte ranges of the `<template>` elements closed so far.
    templates: Rc<RefCell<Vec<(usize, usize)>>>,
    /// The frameset-ok flag is "not ok".
    frameset_not_ok: Rc<Cell<bool>>,
    /// The `<frameset>` elements open.
    framesets: Rc<Cell<usize>>,
    /// A `<frameset>` made the document a frameset document.
    frameset_document: Rc<Cell<bool>>,
}

impl Tree {
    /// Whether the tree builder inserts the element `el` starts at byte
    /// `at`, `within` a context: the links handler keeps its links only
    /// then.
    pub(super) fn inserts(
        &self,
        el: &Element<'_, '_>,
        at: usize,
        within: Option<Within>,
    ) -> bool {
        let html = el.namespace_uri() == HTML_NS;
        let tag = el.tag_name();
        if self.frameset_document.get() {
            return html && tag == "frame" && self.framesets.get() > 0;
        }
        if !html {
            return true;
        }
        match tag.as_str() {
            "frame" => false,
            // In a template's contents the pointer is neither read nor set.
            "form" if within == Some(Within::Template) => true,
            "form" => match self.form.get() {
                Some(open) if !self.form_ended(open, at) => false,
                _ => {
                    self.form.set(Some(at));
                    true
                }
            },
            _ => true,
        }
    }

    /// Whether a `</form>` outside template contents stands between bytes
    /// `open` and `at`.
    fn form_ended(&self, open: usize, at: usize) -> bool {
        let templates = self.templates.borrow();
        self.form_ends.borrow().iter().any(|&end| {
            open < end
                && end < at
                && !templates.iter().any(|&(s, e)| s < end && end < e)
        })
    }

    /// Notes the `</form>` end tags of `chunk`, the bytes of the page from
    /// byte `at` on, before the tokenizer is given them.
    pub(super) fn see(&self, chunk: &[u8], at: usize) {
        const END: &[u8] = b"</form";
        let mut tail = self.tail.borrow_mut();
        let mut ends = self.form_ends.borrow_mut();
        // A `</form` across the boundary with the chunk before.
        let head = &chunk[..chunk.len().min(END.len())];
        let joined = [&tail[..], head].concat();
        let from = at - tail.len();
        for i in memchr::memmem::find_iter(&joined, b"</") {
            if i < tail.len() && ends_form(&joined[i..]) {
                ends.push(from + i);
            }
        }
        for i in memchr::memmem::find_iter(chunk, b"</") {
            if ends_form(&chunk[i..]) {
                ends.push(at + i);
            }
        }
        let keep = chunk.len().min(END.len());
        *tail = chunk[chunk.len() - keep..].to_vec();
    }

    /// Notes a `<template>` element's byte range, once it is closed.
    pub(super) fn template(&self, start: usize, end: usize) {
        self.templates.borrow_mut().push((start, end));
    }

    /// Follows the frameset-ok flag and the framesets open, at a start tag
    /// of [`FRAMESET_SELECTOR`].
    pub(super) fn frameset_tag(&self, el: &mut Element<'_, '_>) {
        if el.namespace_uri() != HTML_NS {
            return;
        }
        let tag = el.tag_name();
        if tag == "frameset" {
            let nested = self.frameset_document.get();
            if !nested && self.frameset_not_ok.get() {
                return;
            }
            self.frameset_document.set(true);
            self.framesets.set(self.framesets.get() + 1);
            let framesets = self.framesets.clone();
            let end: lol_html::EndTagHandler<'static> = Box::new(move |_| {
                framesets.set(framesets.get().saturating_sub(1));
                Ok(())
            });
            let _ = el.on_end_tag(end);
            return;
        }
        let hidden = tag == "input"
            && el
                .get_attribute("type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden"));
        if tag == "body" || !hidden && FRAMESET_NOT_OK.contains(&tag.as_str())
        {
            self.frameset_not_ok.set(true);
        }
    }

    /// Follows the frameset-ok flag at text of the page: a character that
    /// is not whitespace sets it to "not ok".
    pub(super) fn text(&self, text: &str) {
        if text.contains(|c: char| {
            !matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ' | '\0')
        }) {
            self.frameset_not_ok.set(true);
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
