//! The reference reading of a page: `lol_html`'s tokenizer and tree
//! builder simulation, with the handlers that find the links. The
//! default reading ([`super::scan`]) gives the same documents; this one
//! stays for the differential test that shows it
//! (crates/urlspec-links/tests/html_engines.rs), chosen by
//! [`super::Engine::Reference`].

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use encoding_rs::Encoding;
use lol_html::errors::RewritingError;
use lol_html::html_content::{Element, SourceLocation, TextType};
use lol_html::{
    doc_comments, doc_text, element, text, AsciiCompatibleEncoding,
    HtmlRewriter, MemorySettings, Settings,
};

use super::elements::{self, Facts};
use super::{
    collect, stream, tree, Flow, Found, Needs, Pass, RawText, Source,
    StartTag, HTML_NS, MAX_OPEN_TEMPLATES, SELECTOR, SELECTOR_STYLE, SVG_NS,
};
use crate::{Problem, Within};

/// A start tag as lol_html hands it over.
struct LolTag<'e, 'a, 'b> {
    el: &'e Element<'a, 'b>,
    name: String,
    shift: usize,
}

impl StartTag for LolTag<'_, '_, '_> {
    fn name(&self) -> &[u8] {
        self.name.as_bytes()
    }

    fn owned_name(&self) -> String {
        self.name.clone()
    }

    fn html(&self) -> bool {
        self.el.namespace_uri() == HTML_NS
    }

    fn svg(&self) -> bool {
        self.el.namespace_uri() == SVG_NS
    }

    fn offset(&self) -> usize {
        self.shift + self.el.source_location().bytes().start
    }

    fn len(&self) -> usize {
        self.el.attributes().len()
    }

    fn attribute_name(&self, i: usize) -> Cow<'_, [u8]> {
        Cow::Owned(self.el.attributes()[i].name().into_bytes())
    }

    fn attribute_value(&self, i: usize) -> (Cow<'_, str>, Option<usize>) {
        let attr = &self.el.attributes()[i];
        let at =
            attr.value_source_location().map(|l| self.shift + l.bytes().start);
        (Cow::Owned(attr.value()), at)
    }

    fn attribute(&self, name: &str) -> Option<Cow<'_, str>> {
        self.el.get_attribute(name).map(Cow::Owned)
    }
}

/// Takes back the `</form>` of the bytes at `at` (from `shift` in the
/// document), which are no end tag.
fn not_ended(tree: &RefCell<tree::Tree>, shift: usize, at: SourceLocation) {
    let bytes = at.bytes();
    tree.borrow_mut().no_end_tag(shift + bytes.start, shift + bytes.end);
}

/// One pass of `lol_html` over `source` (at `shift` in the document),
/// as [`super::scan`] reads it.
#[allow(clippy::too_many_arguments)]
pub(super) fn scan(
    source: &Source<'_>,
    encoding: &'static Encoding,
    shift: usize,
    within: Option<Within>,
    depth: usize,
    found: &mut Found,
    problems: &mut Vec<Problem>,
    emit: &mut dyn FnMut(&mut Found) -> Flow,
) {
    let state = RefCell::new(Pass {
        found: std::mem::take(found),
        problems: Vec::new(),
        pending: None,
    });
    let templates = Rc::new(Cell::new(0usize));
    let tree = Rc::new(RefCell::new(tree::Tree::default()));
    let context = |templates: &Rc<Cell<usize>>| {
        if templates.get() > 0 {
            Some(Within::Template)
        } else {
            within
        }
    };
    let flush = |pass: &mut Pass| {
        pass.flush(source, encoding, shift, depth);
    };
    {
        let t = templates.clone();
        let in_template = tree.clone();
        let template = element!("template", move |el| {
            if el.namespace_uri() == HTML_NS {
                if t.get() >= MAX_OPEN_TEMPLATES {
                    return Err(super::too_many_templates().into());
                }
                t.set(t.get() + 1);
                let t = t.clone();
                let tree = in_template.clone();
                let start = shift + el.source_location().bytes().start;
                let end: lol_html::EndTagHandler<'static> =
                    Box::new(move |end| {
                        t.set(t.get().saturating_sub(1));
                        tree.borrow_mut().template(
                            start,
                            shift + end.source_location().bytes().end,
                        );
                        Ok(())
                    });
                let _ = el.on_end_tag(end);
            }
            Ok(())
        });
        let needs = match source {
            Source::Bytes(bytes) => Needs::of(bytes),
            // A file is not looked at beforehand.
            Source::File(_) => Needs {
                style: true,
                noscript: true,
                template: true,
                frameset: true,
                form: true,
            },
        };
        let selector = if needs.style { SELECTOR_STYLE } else { SELECTOR };
        let links = element!(selector, |el| {
            let within = context(&templates);
            let mut pass = state.borrow_mut();
            flush(&mut pass);
            let tag = LolTag { el, name: el.tag_name(), shift };
            let at = tag.offset();
            let html = tag.html();
            if tree.borrow_mut().inserts(html, tag.name(), at, within) {
                collect(&tag, within, &mut pass.found);
            }
            Ok(())
        });
        // The frameset-ok flag and the framesets open, on a page that has
        // one.
        let frameset_tags = element!(tree::FRAMESET_SELECTOR, |el| {
            let html = el.namespace_uri() == HTML_NS;
            let hidden = || {
                el.get_attribute("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden"))
            };
            let name = el.tag_name();
            let name = name.as_bytes();
            let not_ok = elements::facts(name).has(Facts::FRAMESET_NOT_OK);
            let opened =
                tree.borrow_mut().frameset_tag(html, name, not_ok, hidden);
            let replaced = tree.borrow_mut().replaced();
            if let Some(from) = replaced {
                let mut pass = state.borrow_mut();
                flush(&mut pass);
                pass.found.take_back(from);
            }
            if opened {
                let tree = tree.clone();
                let end: lol_html::EndTagHandler<'static> =
                    Box::new(move |_| {
                        tree.borrow_mut().frameset_closed();
                        Ok(())
                    });
                let _ = el.on_end_tag(end);
            }
            Ok(())
        });
        let frameset_text = doc_text!(|chunk| {
            if chunk.text_type() == TextType::Data {
                tree.borrow_mut().text(chunk.as_str().as_bytes());
            }
            Ok(())
        });
        // The `</form>` found in the bytes that are no end tag: in a
        // comment, in text that is not markup, in a start tag.
        let form_comments = doc_comments!(|c| {
            not_ended(&tree, shift, c.source_location());
            Ok(())
        });
        let form_text = doc_text!(|chunk| {
            if chunk.text_type() != TextType::Data {
                not_ended(&tree, shift, chunk.source_location());
            }
            Ok(())
        });
        let body_tags = element!("*", |el| {
            let html = el.namespace_uri() == HTML_NS;
            let at = shift + el.source_location().bytes().start;
            tree.borrow_mut().start_tag(html, el.tag_name().as_bytes(), at);
            Ok(())
        });
        let form_tags = element!("*", |el| {
            not_ended(&tree, shift, el.source_location());
            Ok(())
        });
        // Raw text (<noscript>, <style>): its range, filled in by its text
        // chunks; it cannot nest, so a chunk belongs to the last one.
        let raw_text = element!(needs.raw_text_selector(), |el| {
            let start = shift + el.source_location().bytes().end;
            let style = el.tag_name() == "style";
            let within = context(&templates);
            let mut pass = state.borrow_mut();
            flush(&mut pass);
            pass.pending =
                Some(RawText { range: start..start, within, style });
            Ok(())
        });
        let chunks = text!(needs.raw_text_selector(), |chunk| {
            let end = shift + chunk.source_location().bytes().end;
            if let Some(raw) = &mut state.borrow_mut().pending {
                raw.range.end = raw.range.end.max(end);
            }
            Ok(())
        });
        let mut settings = Settings::new();
        if let Some(ascii) = AsciiCompatibleEncoding::new(encoding) {
            settings = settings.with_encoding(ascii);
        }
        // Every page, in memory or not: a tag, or elements left open, that
        // would take more stop the reading instead of growing without end.
        // The contents of a <noscript> are parsed while the page's parser
        // is held: half as much again at each depth, so that all of them
        // together stay under twice the cap.
        let cap = stream::MAX_PARSER_MEMORY >> depth;
        settings = settings.with_memory_settings(
            MemorySettings::new().with_max_allowed_memory_usage(cap),
        );
        // Handlers cost lol_html time on every tag: only those the page
        // needs.
        if needs.template {
            settings = settings.append_element_content_handler(template);
        }
        if needs.frameset {
            settings = settings
                .append_element_content_handler(body_tags)
                .append_element_content_handler(frameset_tags)
                .append_document_content_handler(frameset_text);
        }
        if needs.form {
            settings = settings
                .append_document_content_handler(form_comments)
                .append_document_content_handler(form_text)
                .append_element_content_handler(form_tags);
        }
        settings = settings.append_element_content_handler(links);
        if needs.style || needs.noscript {
            settings = settings
                .append_element_content_handler(raw_text)
                .append_element_content_handler(chunks);
        }
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        // Where the parser stopped: the chunk it was given (a page in
        // memory is given in chunks too, so that the note can say where).
        let mut at = shift;
        let stopped = |e: RewritingError, at: usize, len: usize| {
            let end = at + len;
            match e {
                RewritingError::MemoryLimitExceeded(_) => {
                    super::out_of_memory(cap, at, end)
                }
                e => {
                    Problem::HtmlStopped(format!("{e} (in bytes {at}..{end})"))
                }
            }
        };
        let written = match source {
            Source::Bytes(bytes) => {
                bytes.chunks(stream::CHUNK).try_for_each(|chunk| {
                    if needs.form {
                        tree.borrow_mut().see(chunk, at);
                    }
                    rewriter
                        .write(chunk)
                        .map_err(|e| stopped(e, at, chunk.len()))?;
                    at += chunk.len();
                    Ok(())
                })
            }
            Source::File(file) => stream::chunks(file, shift, |chunk| {
                tree.borrow_mut().see(chunk, at);
                rewriter
                    .write(chunk)
                    .map_err(|e| stopped(e, at, chunk.len()))?;
                at += chunk.len();
                let mut pass = state.borrow_mut();
                let tentative = tree.borrow().tentative();
                Ok(pass.found.hand_on(tentative, emit))
            }),
        };
        let ended = written
            .and_then(|()| rewriter.end().map_err(|e| stopped(e, at, 0)));
        if let Err(problem) = ended {
            state.borrow_mut().problems.push(problem);
        }
    }
    let mut pass = state.into_inner();
    flush(&mut pass);
    emit(&mut pass.found);
    *found = pass.found;
    problems.append(&mut pass.problems);
}
