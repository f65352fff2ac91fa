//! `wais` (RFC 1630 "WAIS").
//!
//! ```text
//! waisaddress waisindex | waisdoc
//! waisindex w a i s : / / hostport / database [ ? search ]
//! waisdoc w a i s : / / hostport / database / wtype / wpath
//! wpath digits = path ; [ wpath ]
//! database xalphas
//! wtype xalphas
//! ```
//!
//! "The wpath of a WAIS URL consists of encoded fields of the WAIS
//! identifier, in the same order as in the WAIS identifier. For each field,
//! the identifier field number is the digits before the equals sign, and
//! the field contents follow, encoded in the conventional encoding,
//! terminated by ";"." The wtype is in the URL because WAIS clients need the
//! type before retrieval.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{
    decode, push_login, push_opt, strip_slash, Parts, SchemeViolation, Src,
    Strict, XALPHA,
};
use crate::chars::DIGIT;
use crate::reference::Reference;

/// The default port, from the one registry.
const DEFAULT_PORT: u16 = super::registered("wais");

/// What a wais URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaisTarget<'a> {
    /// `waisindex`: a database, searched when `search` is present.
    Index {
        /// The search, as written.
        search: Option<&'a str>,
    },
    /// `waisdoc`: one document of a database.
    Document {
        /// The document type, as written.
        wtype: &'a str,
        /// The identifier's fields, as written (`digits=path;…`).
        wpath: &'a str,
    },
}

/// One `digits = path ;` field of a wais document path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaisField<'a> {
    /// The field number, as written.
    pub number: &'a str,
    /// The contents, as written (still escaped).
    pub content: &'a str,
    /// Whether the field ends with its `;`.
    pub terminated: bool,
}

impl<'a> WaisField<'a> {
    /// The field number, when it is digits that fit.
    #[must_use]
    pub fn number_value(&self) -> Option<u32> {
        self.number.parse().ok()
    }

    /// The contents, decoded.
    #[must_use]
    pub fn decoded(&self) -> Cow<'a, str> {
        decode(self.content)
    }
}

/// A `wais` URL.
///
/// ```
/// use urlspec::scheme::{Wais, WaisTarget};
/// use urlspec::Reference;
///
/// let w = Wais::new(&Reference::parse("wais://quake.think.com/wais-discussion-archives?lynch"));
/// assert_eq!(w.database(), "wais-discussion-archives");
/// assert_eq!(w.target(), WaisTarget::Index { search: Some("lynch") });
///
/// let w = Wais::new(&Reference::parse("wais://h/db/TEXT/0=abc;1=d%2Fe;"));
/// let fields: Vec<_> = w.fields().iter().map(|f| (f.number_value().unwrap(), f.decoded())).collect();
/// assert_eq!(fields, [(0, "abc".into()), (1, "d/e".into())]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Wais<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    database: &'a str,
    target: WaisTarget<'a>,
}

impl<'a> Wais<'a> {
    /// Reads `r` as a wais URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Wais<'a> {
        let parts = Parts::of(r);
        let t = strip_slash(parts.tail);
        let db_end = t.find(['/', '?']).unwrap_or(t.len());
        let database = &t[..db_end];
        let rest = &t[db_end..];
        let target = if let Some(doc) = rest.strip_prefix('/') {
            let k = doc.find('/').unwrap_or(doc.len());
            let wpath = doc.get(k + 1..).unwrap_or(&doc[doc.len()..]);
            WaisTarget::Document { wtype: &doc[..k], wpath }
        } else {
            WaisTarget::Index { search: rest.strip_prefix('?') }
        };
        Wais { r: Src(*r), parts, database, target }
    }

    super::view_accessors! {
        /// Host and port.
        login;
        /// The host.
        host;
        /// The port: the one written, else 210 (RFC 1738, not a seed).
        port = DEFAULT_PORT;
    }

    /// The database, as written.
    #[must_use]
    pub fn database(&self) -> &'a str {
        self.database
    }

    /// An index (with its search) or a document.
    #[must_use]
    pub fn target(&self) -> WaisTarget<'a> {
        self.target
    }

    /// The document's `wpath` fields in order (empty for an index).
    #[must_use]
    pub fn fields(&self) -> Vec<WaisField<'a>> {
        let WaisTarget::Document { wpath, .. } = self.target else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut rest = wpath;
        while !rest.is_empty() {
            let (field, terminated, next) = match rest.find(';') {
                Some(k) => (&rest[..k], true, &rest[k + 1..]),
                None => (rest, false, &rest[rest.len()..]),
            };
            let (number, content) = match field.find('=') {
                Some(k) => (&field[..k], &field[k + 1..]),
                None => (&field[..0], field),
            };
            out.push(WaisField { number, content, terminated });
            rest = next;
        }
        out
    }

    /// Where the URL breaks `waisindex` / `waisdoc`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "waisaddress", false);
            if s.nonempty(self.database, "database", "database") {
                s.chars(self.database, XALPHA, "xalphas", "database");
            }
            match self.target {
                WaisTarget::Index { search } => {
                    if let Some(q) = search {
                        s.search(q);
                    }
                }
                WaisTarget::Document { wtype, wpath } => {
                    if s.nonempty(wtype, "wtype", "wtype") {
                        s.chars(wtype, XALPHA, "xalphas", "wtype");
                    }
                    s.nonempty(wpath, "wpath", "wpath");
                    for f in self.fields() {
                        if f.number.is_empty()
                            || !f.number.bytes().all(|b| DIGIT.contains(b))
                        {
                            s.report_at(
                                f.number,
                                "wpath",
                                "`wpath digits = path ;`: a field starts \
                                 with its number and `=`",
                            );
                        }
                        let content = match f.content.find('?') {
                            Some(k) => &f.content[..k],
                            None => f.content,
                        };
                        s.path(content, "wais field");
                        if !f.terminated {
                            let end = &f.content[f.content.len()..];
                            s.report_at(
                                end,
                                "wpath",
                                "each wpath field is \"terminated by ;\"",
                            );
                        }
                    }
                    s.no_search(&self.parts, "waisdoc");
                }
            }
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.fields().iter().any(|f| !f.terminated) {
            out.push("a last wpath field without its `;` is accepted");
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_login(out, self.login(), Some(self.port()));
        out.push(("database", self.database.to_string()));
        match self.target {
            WaisTarget::Index { search } => {
                out.push(("kind", "index".to_string()));
                push_opt(out, "search", search);
            }
            WaisTarget::Document { wtype, .. } => {
                out.push(("kind", "document".to_string()));
                out.push(("wtype", wtype.to_string()));
                for f in self.fields() {
                    out.push((
                        "field",
                        alloc::format!("{}={}", f.number, f.decoded()),
                    ));
                }
            }
        }
    }
}
