//! `news` and `nntp` (RFC 1630 "News", "NNTP").
//!
//! ```text
//! newsaddress n e w s : groupart
//! groupart * | group | article
//! group ialpha [ . group ]
//! article xalphas @ host
//! nntpaddress n n t p : group / digits
//! ```
//!
//! "A message identifier may be distinguished from a news group name by the
//! presence of the commercial at "@" character." "News host names are NOT
//! part of news URLs": the reader's local news host is used. The nntp
//! production has no host, but its prose gives "The news server name,
//! newsgroup name, and index number of an article"; docs/readings.md#a25 accepts
//! both `nntp:group/digits` and `nntp://host/group/digits`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::mail::no_net_loc;
use super::{
    push_login, push_opt, strip_slash, Parts, SchemeViolation, Src, Strict,
    XALPHA,
};
use crate::chars::{ALPHA, DIGIT};
use crate::reference::Reference;

/// The default port, from the one registry.
const DEFAULT_PORT: u16 = super::registered("nntp");

/// What a news URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NewsTarget<'a> {
    /// `*`: every group (RFC 1630 does not explain it; read as all groups).
    AllGroups,
    /// A newsgroup name, as written.
    Group(&'a str),
    /// An article's message-id, as written (without `<>`).
    Article(&'a str),
}

/// A `news` URL.
///
/// ```
/// use urlspec::scheme::{News, NewsTarget};
/// use urlspec::Reference;
/// let news = News::new(&Reference::parse("news:comp.infosystems.www.servers.unix"));
/// assert_eq!(news.target(), NewsTarget::Group("comp.infosystems.www.servers.unix"));
/// let news = News::new(&Reference::parse("news:123abc@info.cern.ch"));
/// assert_eq!(news.target(), NewsTarget::Article("123abc@info.cern.ch"));
/// assert_eq!(news.message_id().unwrap(), "<123abc@info.cern.ch>");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct News<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    text: &'a str,
}

impl<'a> News<'a> {
    /// Reads `r` as a news URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> News<'a> {
        let parts = Parts::of(r);
        let text = if r.net_loc().is_some() {
            strip_slash(parts.path_text())
        } else {
            parts.path_text()
        };
        News { r: Src(*r), parts, text }
    }

    /// The reference.
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        &self.r.0
    }

    /// The `groupart` as written.
    #[must_use]
    pub fn groupart(&self) -> &'a str {
        self.text
    }

    /// A group, an article or all groups.
    #[must_use]
    pub fn target(&self) -> NewsTarget<'a> {
        if self.text == "*" {
            NewsTarget::AllGroups
        } else if self.text.contains('@') {
            NewsTarget::Article(self.text)
        } else {
            NewsTarget::Group(self.text)
        }
    }

    /// For an article, the message-id in its `<>` wrapper, decoded, as
    /// NNTP's `ARTICLE` command takes it.
    #[must_use]
    pub fn message_id(&self) -> Option<String> {
        match self.target() {
            NewsTarget::Article(id) => {
                let id = super::decode(id);
                Some(alloc::format!("<{id}>"))
            }
            _ => None,
        }
    }

    /// Where the URL breaks `newsaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            no_net_loc(s, &self.r, "newsaddress");
            match self.target() {
                NewsTarget::AllGroups => {}
                NewsTarget::Group(g) => group(s, g),
                NewsTarget::Article(a) => {
                    let k = a.rfind('@').unwrap_or(0);
                    let (id, host) = (&a[..k], &a[k + 1..]);
                    if s.nonempty(id, "xalphas", "message-id") {
                        s.chars(id, XALPHA, "xalphas", "message-id");
                    }
                    s.host(host, "message-id host");
                }
            }
            s.no_search(&self.parts, "newsaddress");
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.r.net_loc().is_some() {
            out.push(
                "a `//host` on news is skipped (\"News host names are NOT \
                 part of news URLs\"); the group or article follows it",
            );
        }
        if self.target() == NewsTarget::AllGroups {
            out.push("`*` is read as all groups (RFC 1630 does not say)");
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        match self.target() {
            NewsTarget::AllGroups => out.push(("groupart", "*".to_string())),
            NewsTarget::Group(g) => out.push(("group", g.to_string())),
            NewsTarget::Article(a) => out.push(("article", a.to_string())),
        }
        push_opt(out, "message_id", self.message_id());
    }
}

/// `group ialpha [ . group ]`: a letter, then `xalpha`s (which include
/// `.`).
fn group<'a>(s: &mut Strict<'a>, g: &'a str) {
    if !s.nonempty(g, "group", "group") {
        return;
    }
    if !g.as_bytes().first().is_some_and(|b| ALPHA.contains(*b)) {
        s.report_at(g, "ialpha", "a group name starts with a letter");
    }
    s.chars(g, XALPHA, "group", "group");
}

/// Which of RFC 1630's two nntp forms a URL uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NntpForm {
    /// `nntp:group/digits`: the production.
    Bnf,
    /// `nntp://host/group/digits`: the prose ("the news server name").
    Prose,
}

/// An `nntp` URL.
///
/// ```
/// use urlspec::scheme::{Nntp, NntpForm};
/// use urlspec::Reference;
/// let n = Nntp::new(&Reference::parse("nntp://h/comp.x/123"));
/// assert_eq!((n.form(), n.host(), n.group()), (NntpForm::Prose, Some("h"), "comp.x"));
/// assert_eq!(n.article_number(), Some(123));
/// let n = Nntp::new(&Reference::parse("nntp:comp.x/123"));
/// assert_eq!((n.form(), n.host(), n.article()), (NntpForm::Bnf, None, Some("123")));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Nntp<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    group: &'a str,
    article: Option<&'a str>,
}

impl<'a> Nntp<'a> {
    /// Reads `r` as an nntp URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Nntp<'a> {
        let parts = Parts::of(r);
        let text = parts.path_text();
        let text =
            if r.net_loc().is_some() { strip_slash(text) } else { text };
        let (group, article) = match text.find('/') {
            Some(k) => (&text[..k], Some(&text[k + 1..])),
            None => (text, None),
        };
        Nntp { r: Src(*r), parts, group, article }
    }

    /// The form used.
    #[must_use]
    pub fn form(&self) -> NntpForm {
        if self.r.net_loc().is_some() {
            NntpForm::Prose
        } else {
            NntpForm::Bnf
        }
    }

    super::view_accessors! {
        /// Host and port (prose form only).
        login;
        /// The news server (prose form only).
        host;
        /// The port: the one written, else 119 (RFC 1738, not a seed).
        port = DEFAULT_PORT;
    }

    /// The newsgroup, as written.
    #[must_use]
    pub fn group(&self) -> &'a str {
        self.group
    }

    /// The article number, as written.
    #[must_use]
    pub fn article(&self) -> Option<&'a str> {
        self.article
    }

    /// The article number, when it is digits that fit.
    #[must_use]
    pub fn article_number(&self) -> Option<u64> {
        self.article.and_then(|a| a.parse().ok())
    }

    /// Where the URL breaks `nntpaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            if self.r.net_loc().is_some() {
                s.server(&self.r, "nntpaddress", false);
            }
            group(s, self.group);
            match self.article {
                Some(a) => {
                    if a.is_empty() || !a.bytes().all(|b| DIGIT.contains(b)) {
                        s.report_at(
                            a,
                            "digits",
                            "the article number is one or more digits",
                        );
                    }
                }
                None => {
                    let end = &self.group[self.group.len()..];
                    s.report_at(
                        end,
                        "nntpaddress",
                        "`nntp:group/digits`: the article number is missing",
                    );
                }
            }
            s.no_search(&self.parts, "nntpaddress");
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        match self.form() {
            NntpForm::Prose => alloc::vec![
                "A25: the server name from RFC 1630's prose (and RFC 1808 \
                 §2.3's generic form); the production has none",
            ],
            NntpForm::Bnf => Vec::new(),
        }
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        out.push((
            "form",
            match self.form() {
                NntpForm::Bnf => "bnf",
                NntpForm::Prose => "prose",
            }
            .to_string(),
        ));
        push_login(out, self.login(), Some(self.port()));
        out.push(("group", self.group.to_string()));
        push_opt(out, "article", self.article);
    }
}
