//! Which links a reading keeps ([`Select`]), and the counts of what it
//! kept ([`Tally`]), taken as the documents come: whole, or a long one's
//! links in batches.

use std::collections::HashSet;

use crate::{Document, InputError, Link, Summary};

/// Which links a reading of inputs keeps ([`crate::Input`],
/// [`crate::Part::read`]): the others are dropped before they are counted
/// or handed on. An empty list lets every value through; names are
/// compared without regard to ASCII case.
///
/// ```
/// use urlspec::Spec;
/// use urlspec_links::{html, Context, Select, Tally, Unique};
/// let ctx = Context::new(Spec::Rfc3986);
/// let page = b"<a href=x><img src=x><a href=x><a href=mailto:m@h>";
/// let mut doc = html::document(page, "p", &ctx.establish().given("http://h/"), &ctx);
/// let select = Select {
///     elements: vec!["A".into()],
///     schemes: vec!["http".into()],
///     unique: Some(Unique::Document),
///     ..Select::default()
/// };
/// let mut tally = Tally::new(&select);
/// tally.document(&mut doc);
/// assert_eq!(doc.links.len(), 1);
/// assert_eq!(doc.links[0].url.as_deref(), Ok("http://h/x"));
/// assert_eq!((tally.summary().documents, tally.summary().links), (1, 1));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Select {
    /// The elements kept (`a`, `img`, `header`, …).
    pub elements: Vec<String>,
    /// The attributes, or headers, kept (`href`, `src`, `Link`, …).
    pub attributes: Vec<String>,
    /// The schemes of the resolved URLs kept (an unresolved link has
    /// none, so none is kept when this is set).
    pub schemes: Vec<String>,
    /// Each resolved URL kept once per document, or once over all the
    /// documents a [`Tally`] sees; unresolved links are all kept.
    pub unique: Option<Unique>,
}

/// How often a resolved URL is kept ([`Select::unique`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unique {
    /// Once per document.
    Document,
    /// Once over everything one [`Tally`] sees, in the order it sees it.
    All,
}

impl Select {
    /// Whether every link is kept.
    #[must_use]
    pub fn keeps_all(&self) -> bool {
        self.elements.is_empty()
            && self.attributes.is_empty()
            && self.schemes.is_empty()
            && self.unique.is_none()
    }

    /// Whether `link` passes the lists (not [`Select::unique`]).
    fn lists_keep(&self, link: &Link) -> bool {
        let listed = |list: &[String], value: &str| {
            list.is_empty()
                || list.iter().any(|v| v.eq_ignore_ascii_case(value))
        };
        if !listed(&self.elements, &link.element)
            || !listed(&self.attributes, &link.attribute)
        {
            return false;
        }
        if self.schemes.is_empty() {
            return true;
        }
        let scheme = link
            .url
            .as_deref()
            .ok()
            .and_then(|u| u.split_once(':'))
            .map_or("", |(s, _)| s);
        listed(&self.schemes, scheme)
    }
}

/// The links a reading keeps ([`Select`]) and the counts over them
/// ([`Summary`]), taken document by document in the order the documents
/// are read: a document whole ([`Tally::document`]), or a long one's
/// links batch by batch ([`Tally::batch`], then [`Tally::end`]).
///
/// A reading on several threads gives each its own tally and adds their
/// summaries up ([`Summary::merge`]); but under [`Unique::All`] only one
/// tally that sees every document in order keeps each URL once, so such a
/// reading hands the documents to one, and its threads read them with
/// [`Tally::deferred`].
#[derive(Debug)]
pub struct Tally {
    select: Select,
    /// Counts documents and links (else only the errors).
    counts: bool,
    /// The URLs kept so far: in the open document, or over all.
    seen: HashSet<String>,
    /// The document being read in batches: whether any of its kept
    /// links was unresolved.
    open: Option<bool>,
    summary: Summary,
}

impl Tally {
    /// A tally that keeps what `select` keeps.
    #[must_use]
    pub fn new(select: &Select) -> Tally {
        Tally {
            select: select.clone(),
            counts: true,
            seen: HashSet::new(),
            open: None,
            summary: Summary::default(),
        }
    }

    /// A tally that keeps every link and counts only the errors: the
    /// documents are selected and counted by another tally, in order.
    #[must_use]
    pub fn deferred() -> Tally {
        Tally { counts: false, ..Tally::new(&Select::default()) }
    }

    /// The counts so far.
    #[must_use]
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Takes the counts so far, leaving zeros (what is kept, and an open
    /// document, stay).
    pub fn take_summary(&mut self) -> Summary {
        std::mem::take(&mut self.summary)
    }

    /// Selects and counts a batch of the links of a document being read:
    /// the links left in `doc` are the kept ones. [`Tally::end`] ends the
    /// document.
    pub fn batch(&mut self, doc: &mut Document) {
        if !self.counts {
            return;
        }
        let unresolved = match &mut self.open {
            Some(unresolved) => unresolved,
            none => {
                if self.select.unique == Some(Unique::Document) {
                    self.seen.clear();
                }
                none.insert(false)
            }
        };
        if !self.select.keeps_all() {
            let (select, seen) = (&self.select, &mut self.seen);
            doc.links.retain(|link| {
                if !select.lists_keep(link) {
                    return false;
                }
                match (select.unique, &link.url) {
                    (Some(_), Ok(url)) => seen.insert(url.clone()),
                    _ => true,
                }
            });
        }
        *unresolved |= self.summary.add_links(&doc.links);
    }

    /// Ends the document [`Tally::batch`] began with its last links (the
    /// whole document, if it began none): counts it.
    pub fn end(&mut self, doc: &mut Document) {
        if !self.counts {
            return;
        }
        self.batch(doc);
        let unresolved = self.open.take().unwrap_or(false);
        self.summary.add_document(doc, unresolved);
    }

    /// Selects and counts a whole document (forgetting a document whose
    /// batches were begun and never ended: its reading stopped).
    pub fn document(&mut self, doc: &mut Document) {
        self.abandon();
        self.end(doc);
    }

    /// Forgets a document begun in batches and never ended: the next one
    /// starts afresh.
    pub fn abandon(&mut self) {
        self.open = None;
    }

    /// Counts what `error` says could not be read (an input that could
    /// not be read at all is no document, and not counted).
    pub fn error(&mut self, error: &InputError) {
        if !matches!(error, InputError::Io(_)) {
            self.summary.unreadable += 1;
        }
    }

    /// Adds `more` to the counts.
    pub fn merge(&mut self, more: Summary) {
        self.summary.merge(more);
    }
}
