//! Scheme-specific views: what the part after `scheme:` means for each
//! scheme the seed documents define.
//!
//! RFC 1630's "BNF for specific URL schemes" gives a production per scheme
//! ("BNF for specific URL schemes"); its prose adds file, rlogin, tn3270 and urn, the `url:`
//! prefix and the `x-` experimental prefix. [`view`] reads a parsed
//! [`Reference`] as the scheme it names and returns a [`SchemeView`]: a
//! typed, zero-copy view that borrows the reference's input. Decoded values
//! (an FTP `CWD` argument, a gopher selector) are [`Cow`]s, borrowed when
//! nothing is escaped.
//!
//! | view | schemes | RFC 1630 production |
//! |---|---|---|
//! | [`Http`] | `http` (and `https`, not a seed) | `http://hostport[/path][?search]` |
//! | [`Ftp`] | `ftp` | `ftp://login/path[ftptype]` |
//! | [`Gopher`] | `gopher` | `gopher://hostport[/gtype[gcommand]]` |
//! | [`Mailto`] | `mailto` | `mailto:xalphas@hostname` |
//! | [`News`] | `news` | `news:groupart` |
//! | [`Nntp`] | `nntp` | `nntp:group/digits` (prose: with the server) |
//! | [`Telnet`] | `telnet`, `rlogin`, `tn3270` | `telnet://login` |
//! | [`Wais`] | `wais` | `waisindex` / `waisdoc` |
//! | [`File`] | `file` | prose only: "similar to the ftp syntax" |
//! | [`Prospero`] | `prospero` | `prospero://hostport/hsoname[%00version[attributes]]` |
//! | [`MessageId`] | `mid`, `cid` | `mid:addr-spec`, `cid:content-identifier` |
//! | [`Urn`] | `urn` | prose: `urn:` + URN, reserved characters escaped |
//! | [`Experimental`] | `x-…` | none: "by mutual agreement" |
//! | [`UrlPrefix`] | `url` (outside RFC 1630) | `prefixedurl u r l : url` |
//! | [`Generic`] | any other scheme, or none | the generic syntax |
//!
//! Every view answers two questions separately:
//!
//! * [`SchemeView::violations`]: where the URL breaks RFC 1630's production
//!   for its scheme (the strict reading), each with a byte position.
//! * [`SchemeView::lenient`]: which lenient readings the view applied to
//!   make sense of it anyway, each naming the entry of docs/readings.md it
//!   follows (`"A26: …"`: docs/readings.md#a26).
//!
//! The components come from the reference's own parse, so the spec it was
//! parsed under matters where the specs split differently (RFC 1808 keeps
//! `?` inside the net_loc; parse under [`Spec::Rfc1630`] for RFC 1630's own
//! split). Unknown schemes stay fully usable through [`Generic`], which is
//! the reference itself.
//!
//! ```
//! use urlspec::scheme::{view, SchemeView};
//! use urlspec::Reference;
//!
//! let r = Reference::parse("ftp://ds.internic.net/rfc/rfc1808.txt");
//! let SchemeView::Ftp(ftp) = view(&r) else { panic!() };
//! assert_eq!(ftp.ftp_login().user, "anonymous");
//! let commands: Vec<String> =
//!     ftp.commands().unwrap().iter().map(|c| c.to_string()).collect();
//! assert_eq!(commands, ["CWD rfc", "RETR rfc1808.txt"]);
//! assert!(view(&r).violations().is_empty());
//! ```

mod file;
mod ftp;
mod gopher;
mod http;
mod mail;
mod news;
mod prospero;
mod telnet;
mod urn;
mod wais;

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

pub use file::{File, LocalPathError, Locality};
pub use ftp::{FormCode, Ftp, FtpCommand, FtpLogin, FtpPassword, FtpType};
pub use gopher::Gopher;
pub use http::Http;
pub use mail::{MailIdKind, Mailto, MessageId};
pub use news::{News, NewsTarget, Nntp, NntpForm};
pub use prospero::Prospero;
pub use telnet::{Telnet, TelnetKind};
pub use urn::{Experimental, Generic, UrlPrefix, Urn};
pub use wais::{Wais, WaisField, WaisTarget};

use crate::chars::{rfc1630, strip_prefix_ignore_case, CharClass, DIGIT};
use crate::escape::{is_escape_at, latin1_to_string, unescape_lenient};
use crate::reference::Secret;
use crate::reference::{Part, Reference};
use crate::spec::Spec;

/// Where a piece of scheme knowledge comes from, and whether that source is
/// one of the seed documents.
///
/// ```
/// use urlspec::scheme::default_port;
/// let (port, source) = default_port("HTTP").unwrap();
/// assert_eq!(port, 80);
/// assert!(source.in_seeds);
/// let (port, source) = default_port("gopher").unwrap();
/// assert_eq!(port, 70);
/// assert!(!source.in_seeds);
/// assert_eq!(source.to_string(), "RFC 1738 §3.4 (not a seed)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The document and section.
    pub citation: &'static str,
    /// Whether the document is one of the five seeds (RFC 1630, draft 04,
    /// RFC 1808, the 1996 drafts).
    pub in_seeds: bool,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.citation)?;
        if !self.in_seeds {
            f.write_str(" (not a seed)")?;
        }
        Ok(())
    }
}

const fn outside(citation: &'static str) -> Source {
    Source { citation, in_seeds: false }
}

/// Default ports, lower-case scheme first. Only http's comes from a seed
/// (RFC 1630 "HTTP": "a server on a different port to 80"); the others are
/// RFC 1738's (§3.2–3.11) or later documents', and are marked
/// so.
pub const DEFAULT_PORTS: [(&str, u16, Source); 10] = [
    (
        "http",
        80,
        Source {
            citation: "RFC 1630 \"HTTP\" (\"a different port to 80\"); \
                       RFC 1738 §3.3",
            in_seeds: true,
        },
    ),
    ("https", 443, outside("RFC 2818 §2.3")),
    ("ftp", 21, outside("RFC 1738 §3.2")),
    ("gopher", 70, outside("RFC 1738 §3.4")),
    ("nntp", 119, outside("RFC 1738 §3.7")),
    ("telnet", 23, outside("RFC 1738 §3.8")),
    ("wais", 210, outside("RFC 1738 §3.9")),
    ("prospero", 1525, outside("RFC 1738 §3.11")),
    ("rlogin", 513, outside("IANA service `login` (RFC 1282)")),
    ("tn3270", 23, outside("RFC 1576 (TN3270 runs over Telnet)")),
];

/// The default port of `scheme` (ASCII case ignored), with its source.
/// `None` for schemes without one (`file`, `mailto`, `news`, …) and for
/// unknown schemes.
///
/// ```
/// use urlspec::scheme::default_port;
/// assert_eq!(default_port("ftp").map(|(p, _)| p), Some(21));
/// assert_eq!(default_port("mailto"), None);
/// ```
pub fn default_port(scheme: &str) -> Option<(u16, Source)> {
    DEFAULT_PORTS
        .iter()
        .find(|(s, _, _)| s.eq_ignore_ascii_case(scheme))
        .map(|&(_, port, source)| (port, source))
}

/// One place where a URL breaks RFC 1630's production for its scheme.
///
/// ```
/// use urlspec::scheme::view;
/// use urlspec::Reference;
/// let r = Reference::parse("ftp://h/f;type=E");
/// let v = view(&r).violations();
/// assert_eq!((v[0].position, v[0].production), (15, "ftptype"));
/// assert!(v[0].to_string().starts_with("ftptype at byte 15: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemeViolation {
    /// Byte offset in the input.
    pub position: usize,
    /// The RFC 1630 production broken (`hostport`, `ftptype`, `gtype`, …).
    pub production: &'static str,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for SchemeViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.production, self.position, self.message
        )
    }
}

/// The part after `//`, split into user, password, host and port by the
/// reference's spec. The password is a [`Secret`]: it prints as `****`.
///
/// ```
/// use urlspec::scheme::Login;
/// use urlspec::{Reference, Spec};
/// let r = Reference::parse_with("telnet://joe:pw@h:2323", Spec::Draft96);
/// let login = Login::of(&r).unwrap();
/// assert_eq!((login.user(), login.host(), login.port()), (Some("joe"), "h", Some("2323")));
/// assert_eq!(login.password().unwrap().expose(), "pw");
/// assert_eq!(format!("{login:?}").contains("pw"), false);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Login<'a> {
    user: Option<&'a str>,
    password: Option<Secret<'a>>,
    host: &'a str,
    port: Option<&'a str>,
}

impl<'a> Login<'a> {
    /// The login of `r`, or `None` when it has no `//` part.
    pub fn of(r: &Reference<'a>) -> Option<Login<'a>> {
        let s = r.server()?;
        let net_loc = r.net_loc()?;
        Some(Login {
            user: s.user(),
            password: s.password().map(Secret::new),
            // An RFC 2396 `reg_name` authority is all host here.
            host: s.host().unwrap_or(net_loc),
            port: s.port(),
        })
    }

    /// The user name, as written.
    pub fn user(&self) -> Option<&'a str> {
        self.user
    }

    /// The password, as written, behind [`Secret`].
    pub fn password(&self) -> Option<Secret<'a>> {
        self.password
    }

    /// The host, as written (`""` for a void host).
    pub fn host(&self) -> &'a str {
        self.host
    }

    /// The port, as written: `Some("")` for `host:`.
    pub fn port(&self) -> Option<&'a str> {
        self.port
    }

    /// The port as a number, when one is written and fits.
    pub fn port_number(&self) -> Option<u16> {
        self.port.filter(|p| !p.is_empty()).and_then(|p| p.parse().ok())
    }
}

/// The view of one URL, by its scheme. See the [module docs](self).
///
/// ```
/// use urlspec::scheme::{view, SchemeView};
/// use urlspec::Reference;
///
/// let r = Reference::parse("gopher://h/7srch%09term");
/// let SchemeView::Gopher(g) = view(&r) else { panic!() };
/// assert_eq!(g.gtype(), '7');
/// assert_eq!(g.command(), "srch\tterm");
/// assert_eq!(view(&r).name(), "gopher");
/// // Unknown schemes keep the generic syntax.
/// let r = Reference::parse("foo://a/b?c");
/// assert_eq!(view(&r).name(), "generic");
/// assert_eq!(view(&r).reference().query(), Some("c"));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum SchemeView<'a> {
    /// `http`, `https`.
    Http(Http<'a>),
    /// `ftp`.
    Ftp(Ftp<'a>),
    /// `gopher`.
    Gopher(Gopher<'a>),
    /// `mailto`.
    Mailto(Mailto<'a>),
    /// `news`.
    News(News<'a>),
    /// `nntp`.
    Nntp(Nntp<'a>),
    /// `telnet`, `rlogin`, `tn3270`.
    Telnet(Telnet<'a>),
    /// `wais`.
    Wais(Wais<'a>),
    /// `file`.
    File(File<'a>),
    /// `prospero`.
    Prospero(Prospero<'a>),
    /// `mid`, `cid`.
    MessageId(MessageId<'a>),
    /// `urn`.
    Urn(Urn<'a>),
    /// `x-…`.
    Experimental(Experimental<'a>),
    /// A scheme named `url` (the RFC 1630 prefix, not stripped outside
    /// RFC 1630).
    UrlPrefix(UrlPrefix<'a>),
    /// Any other scheme, or a relative reference.
    Generic(Generic<'a>),
}

/// Reads `r` as the scheme it names (ASCII case ignored).
///
/// ```
/// use urlspec::scheme::{view, SchemeView};
/// use urlspec::{Reference, Spec};
/// let r = Reference::parse_with("url:http://info.cern.ch/", Spec::Rfc1630);
/// assert!(matches!(view(&r), SchemeView::Http(_)));
/// let r = Reference::parse_with("url:http://info.cern.ch/", Spec::Rfc1808);
/// let SchemeView::UrlPrefix(u) = view(&r) else { panic!() };
/// assert_eq!(u.inner(), "http://info.cern.ch/");
/// ```
pub fn view<'a>(r: &Reference<'a>) -> SchemeView<'a> {
    let Some(scheme) = r.scheme() else {
        return SchemeView::Generic(Generic::new(r));
    };
    let is = |name: &str| scheme.eq_ignore_ascii_case(name);
    if is("http") || is("https") {
        SchemeView::Http(Http::new(r))
    } else if is("ftp") {
        SchemeView::Ftp(Ftp::new(r))
    } else if is("gopher") {
        SchemeView::Gopher(Gopher::new(r))
    } else if is("mailto") {
        SchemeView::Mailto(Mailto::new(r))
    } else if is("news") {
        SchemeView::News(News::new(r))
    } else if is("nntp") {
        SchemeView::Nntp(Nntp::new(r))
    } else if is("telnet") || is("rlogin") || is("tn3270") {
        SchemeView::Telnet(Telnet::new(r))
    } else if is("wais") {
        SchemeView::Wais(Wais::new(r))
    } else if is("file") {
        SchemeView::File(File::new(r))
    } else if is("prospero") {
        SchemeView::Prospero(Prospero::new(r))
    } else if is("mid") || is("cid") {
        SchemeView::MessageId(MessageId::new(r))
    } else if is("urn") {
        SchemeView::Urn(Urn::new(r))
    } else if is("url") {
        SchemeView::UrlPrefix(UrlPrefix::new(r))
    } else if strip_prefix_ignore_case(scheme, "x-")
        .is_some_and(|rest| !rest.is_empty())
    {
        SchemeView::Experimental(Experimental::new(r))
    } else {
        SchemeView::Generic(Generic::new(r))
    }
}

/// Dispatches one expression over every view.
macro_rules! each {
    ($self:expr, $v:ident => $e:expr) => {
        match $self {
            SchemeView::Http($v) => $e,
            SchemeView::Ftp($v) => $e,
            SchemeView::Gopher($v) => $e,
            SchemeView::Mailto($v) => $e,
            SchemeView::News($v) => $e,
            SchemeView::Nntp($v) => $e,
            SchemeView::Telnet($v) => $e,
            SchemeView::Wais($v) => $e,
            SchemeView::File($v) => $e,
            SchemeView::Prospero($v) => $e,
            SchemeView::MessageId($v) => $e,
            SchemeView::Urn($v) => $e,
            SchemeView::Experimental($v) => $e,
            SchemeView::UrlPrefix($v) => $e,
            SchemeView::Generic($v) => $e,
        }
    };
}

impl<'a> SchemeView<'a> {
    /// The view's name, stable for JSON output: `http`, `ftp`, `gopher`,
    /// `mailto`, `news`, `nntp`, `telnet`, `wais`, `file`, `prospero`,
    /// `mid`, `cid`, `urn`, `experimental`, `url`, `generic`.
    pub fn name(&self) -> &'static str {
        match self {
            SchemeView::Http(_) => "http",
            SchemeView::Ftp(_) => "ftp",
            SchemeView::Gopher(_) => "gopher",
            SchemeView::Mailto(_) => "mailto",
            SchemeView::News(_) => "news",
            SchemeView::Nntp(_) => "nntp",
            SchemeView::Telnet(_) => "telnet",
            SchemeView::Wais(_) => "wais",
            SchemeView::File(_) => "file",
            SchemeView::Prospero(_) => "prospero",
            SchemeView::MessageId(m) => m.kind().name(),
            SchemeView::Urn(_) => "urn",
            SchemeView::Experimental(_) => "experimental",
            SchemeView::UrlPrefix(_) => "url",
            SchemeView::Generic(_) => "generic",
        }
    }

    /// The parsed reference the view reads.
    pub fn reference(&self) -> &Reference<'a> {
        each!(self, v => v.reference())
    }

    /// User, password, host and port, when the URL has a `//` part.
    pub fn login(&self) -> Option<Login<'a>> {
        Login::of(self.reference())
    }

    /// The scheme's default port and where that knowledge comes from.
    pub fn default_port(&self) -> Option<(u16, Source)> {
        self.reference().scheme().and_then(default_port)
    }

    /// The port a client connects to: the one written, else the default.
    ///
    /// ```
    /// use urlspec::scheme::view;
    /// use urlspec::Reference;
    /// assert_eq!(view(&Reference::parse("http://info.cern.ch:8000/x")).port(), Some(8000));
    /// assert_eq!(view(&Reference::parse("gopher://h/")).port(), Some(70));
    /// assert_eq!(view(&Reference::parse("file:///x")).port(), None);
    /// ```
    pub fn port(&self) -> Option<u16> {
        self.login()
            .and_then(|l| l.port_number())
            .or_else(|| self.default_port().map(|(p, _)| p))
    }

    /// Where the URL breaks RFC 1630's production for its scheme, in input
    /// order. Empty when the URL is valid under it.
    ///
    /// ```
    /// use urlspec::scheme::view;
    /// use urlspec::Reference;
    /// // RFC 1630 gives http `hostport`, not `login`.
    /// let v = view(&Reference::parse("http://joe@h/")).violations();
    /// assert_eq!((v[0].position, v[0].production), (7, "hostport"));
    /// assert!(view(&Reference::parse("http://h/a/b?x+y")).violations().is_empty());
    /// ```
    pub fn violations(&self) -> Vec<SchemeViolation> {
        each!(self, v => v.violations())
    }

    /// Whether [`violations`](Self::violations) is empty.
    pub fn is_strictly_valid(&self) -> bool {
        self.violations().is_empty()
    }

    /// The lenient readings applied, each naming the entry of
    /// docs/readings.md (`A…`: docs/readings.md#a27 for `A27`) or the
    /// requirement it follows.
    ///
    /// ```
    /// use urlspec::scheme::view;
    /// use urlspec::Reference;
    /// let r = Reference::parse("file:/home/fred/bio.txt");
    /// assert!(view(&r).lenient()[0].starts_with("A27"));
    /// assert!(view(&Reference::parse("file:///x")).lenient().is_empty());
    /// ```
    pub fn lenient(&self) -> Vec<&'static str> {
        each!(self, v => v.lenient())
    }

    /// The view's values as named strings, in a stable order, for display
    /// and JSON output. A name may repeat (`cwd`, `command`, `field`);
    /// absent values are left out; passwords print as `****`.
    ///
    /// ```
    /// use urlspec::scheme::view;
    /// use urlspec::Reference;
    /// let r = Reference::parse("http://www.myu.edu/org/admin/people#andy");
    /// let fields = view(&r).fields();
    /// assert!(fields.contains(&("request_target", "/org/admin/people".to_string())));
    /// ```
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(p) = self.reference().prefix() {
            out.push(("prefix", p.to_string()));
        }
        if let Some(s) = self.reference().scheme() {
            out.push(("scheme", s.to_string()));
        }
        each!(self, v => v.fields_into(&mut out));
        if let Some(f) = self.reference().fragment() {
            out.push(("fragment", f.to_string()));
        }
        out
    }
}

impl fmt::Display for SchemeView<'_> {
    /// `name: key=value, key=value`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        f.write_str(":")?;
        for (i, (k, v)) in self.fields().iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{k}={v:?}")?;
        }
        Ok(())
    }
}

/// A view's reference, whose `Debug` hides the password (R96-8.4).
#[derive(Clone, Copy)]
pub(crate) struct Src<'a>(pub(crate) Reference<'a>);

impl<'a> core::ops::Deref for Src<'a> {
    type Target = Reference<'a>;

    fn deref(&self) -> &Reference<'a> {
        &self.0
    }
}

impl fmt::Debug for Src<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&crate::reference::Redacted::new(&self.0), f)
    }
}

/// Raw slices of a reference that every view starts from.
#[derive(Clone, Copy)]
pub(crate) struct Parts<'a> {
    /// The whole input.
    pub(crate) input: &'a str,
    /// After the scheme and `//net_loc`, before `#`: path, params and
    /// query together, as RFC 1630's productions see them.
    pub(crate) tail: &'a str,
}

impl fmt::Debug for Parts<'_> {
    /// The tail only: the input may hold a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parts").field("tail", &self.tail).finish()
    }
}

impl<'a> Parts<'a> {
    pub(crate) fn of(r: &Reference<'a>) -> Parts<'a> {
        let input = r.as_str();
        let start = r.span(Part::Path).map_or(0, |s| s.start);
        let end = r.span(Part::Fragment).map_or(input.len(), |s| s.start - 1);
        Parts { input, tail: &input[start..end] }
    }

    /// The tail up to its first `?`.
    pub(crate) fn path_text(&self) -> &'a str {
        match self.tail.find('?') {
            Some(q) => &self.tail[..q],
            None => self.tail,
        }
    }

    /// The tail after its first `?`.
    pub(crate) fn search(&self) -> Option<&'a str> {
        self.tail.find('?').map(|q| &self.tail[q + 1..])
    }
}

/// Decodes escapes to text: UTF-8 when the octets are UTF-8, else ISO
/// Latin-1 (RFC 1630's charset, docs/readings.md#a36). An invalid `%` is kept.
pub(crate) fn decode(s: &str) -> Cow<'_, str> {
    let l = unescape_lenient(s);
    match l.bytes {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        Cow::Owned(v) => match String::from_utf8(v) {
            Ok(t) => Cow::Owned(t),
            Err(e) => Cow::Owned(latin1_to_string(e.as_bytes())),
        },
    }
}

/// `s` without one leading `/`.
pub(crate) fn strip_slash(s: &str) -> &str {
    s.strip_prefix('/').unwrap_or(s)
}

/// Collects the violations of one view, with positions in the input.
pub(crate) struct Strict<'a> {
    input: &'a str,
    out: Vec<SchemeViolation>,
}

/// `alphanum2 alpha | digit | - | _ | . | +` (user and password).
const ALPHANUM2: CharClass = rfc1630::ALPHANUM2;
/// RFC 1630 `xalpha` (escapes checked apart).
pub(crate) const XALPHA: CharClass = rfc1630::XALPHA;
/// RFC 1630 `xpalpha`.
pub(crate) const XPALPHA: CharClass = rfc1630::XPALPHA;

impl<'a> Strict<'a> {
    /// Runs `f` and the checks every URL shares (`fragmentid xalphas`).
    pub(crate) fn run(
        r: &Reference<'a>,
        f: impl FnOnce(&mut Strict<'a>),
    ) -> Vec<SchemeViolation> {
        let mut s = Strict { input: r.as_str(), out: Vec::new() };
        f(&mut s);
        if let Some(frag) = r.fragment() {
            s.chars(frag, XALPHA, "fragmentid", "fragment");
        }
        s.out.sort_by_key(|v| v.position);
        s.out
    }

    /// The offset of `s`, a slice of the input.
    pub(crate) fn at(&self, s: &str) -> usize {
        (s.as_ptr() as usize)
            .saturating_sub(self.input.as_ptr() as usize)
            .min(self.input.len())
    }

    pub(crate) fn report(
        &mut self,
        position: usize,
        production: &'static str,
        message: impl Into<String>,
    ) {
        self.out.push(SchemeViolation {
            position,
            production,
            message: message.into(),
        });
    }

    pub(crate) fn report_at(
        &mut self,
        s: &str,
        production: &'static str,
        message: impl Into<String>,
    ) {
        let at = self.at(s);
        self.report(at, production, message);
    }

    /// Every character of `s` must be in `class` or start a valid escape.
    pub(crate) fn chars(
        &mut self,
        s: &'a str,
        class: CharClass,
        production: &'static str,
        what: &str,
    ) {
        self.chars_with(s, class, true, production, what);
    }

    pub(crate) fn chars_with(
        &mut self,
        s: &'a str,
        class: CharClass,
        escapes: bool,
        production: &'static str,
        what: &str,
    ) {
        let base = self.at(s);
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if class.contains(b[i]) {
                i += 1;
            } else if b[i] == b'%' && is_escape_at(b, i) {
                if !escapes {
                    self.report(
                        base + i,
                        production,
                        alloc::format!("no escapes are allowed in the {what}"),
                    );
                }
                i += 3;
            } else if b[i] == b'%' {
                self.report(
                    base + i,
                    "escape",
                    "`%` must be followed by two hex digits (a literal `%` \
                     is %25)",
                );
                i += 1;
            } else {
                let ch = s[i..].chars().next().unwrap_or('\u{FFFD}');
                self.report(
                    base + i,
                    production,
                    alloc::format!("{ch:?} is not allowed in the {what}"),
                );
                i += ch.len_utf8();
            }
        }
    }

    /// `s` must not be empty.
    pub(crate) fn nonempty(
        &mut self,
        s: &'a str,
        production: &'static str,
        what: &str,
    ) -> bool {
        if s.is_empty() {
            self.report_at(
                s,
                production,
                alloc::format!("the {what} may not be empty"),
            );
        }
        !s.is_empty()
    }

    /// `path void | segment [ / path ]`, `segment xpalphas`: no empty
    /// segment except a last one.
    pub(crate) fn path(&mut self, s: &'a str, what: &str) {
        let segs: Vec<&'a str> = s.split('/').collect();
        let n = segs.len();
        for (i, seg) in segs.into_iter().enumerate() {
            if seg.is_empty() && i + 1 < n {
                self.report_at(
                    seg,
                    "path",
                    alloc::format!(
                        "an empty segment (`//`) in the {what}: `segment \
                         xpalphas` needs a character"
                    ),
                );
            }
            self.chars(seg, XPALPHA, "xpalphas", what);
        }
    }

    /// `search xalphas [ + search ]`.
    pub(crate) fn search(&mut self, s: &'a str) {
        for piece in s.split('+') {
            if piece.is_empty() {
                self.report_at(
                    piece,
                    "search",
                    "`search xalphas [ + search ]`: no empty word between \
                     `+`s or at either end",
                );
            }
            self.chars(piece, XALPHA, "xalphas", "search");
        }
    }

    /// A URL without `?search` in its production.
    pub(crate) fn no_search(
        &mut self,
        p: &Parts<'a>,
        production: &'static str,
    ) {
        if let Some(q) = p.search() {
            let at = self.at(q).saturating_sub(1);
            self.report(
                at,
                production,
                alloc::format!(
                    "the {production} production has no `?search`; `?` is \
                     reserved"
                ),
            );
        }
    }

    /// `host hostname | hostnumber`.
    pub(crate) fn host(&mut self, h: &'a str, what: &str) {
        let b = h.as_bytes();
        if b.is_empty() {
            self.report_at(h, "host", alloc::format!("the {what} is empty"));
        } else if !crate::host::is_dotted_quad(b, usize::MAX)
            && !crate::host::is_hostname_1630(b)
        {
            self.report_at(
                h,
                "host",
                alloc::format!(
                    "the {what} `{h}` is neither `hostname ialpha [ . \
                     hostname ]` nor `hostnumber digits . digits . digits . \
                     digits`"
                ),
            );
        }
    }

    /// `//` + `login` (when `login` is set) or `hostport`.
    pub(crate) fn server(
        &mut self,
        r: &Reference<'a>,
        production: &'static str,
        login: bool,
    ) {
        let Some(net_loc) = r.net_loc() else {
            let at = r.span(Part::Path).map_or(0, |s| s.start);
            self.report(
                at,
                production,
                alloc::format!(
                    "the {production} production starts with `//` and a \
                     host"
                ),
            );
            return;
        };
        let Some(l) = Login::of(r) else { return };
        if let Some(user) = l.user() {
            if login {
                self.nonempty(user, "user", "user");
                self.chars_with(user, ALPHANUM2, false, "alphanum2", "user");
                if let Some(pw) = l.password() {
                    let pw = pw.expose();
                    self.nonempty(pw, "password", "password");
                    self.chars_with(
                        pw,
                        ALPHANUM2,
                        false,
                        "alphanum2",
                        "password",
                    );
                }
            } else {
                self.report_at(
                    net_loc,
                    "hostport",
                    alloc::format!(
                        "the {production} production has `hostport`, not \
                         `login`: no user or password (docs/readings.md#a23)"
                    ),
                );
            }
        }
        self.host(l.host(), "host");
        if let Some(port) = l.port() {
            if port.is_empty() || !port.bytes().all(|b| DIGIT.contains(b)) {
                let at = self.at(port);
                self.report(
                    at,
                    "port",
                    "`port digits`: at least one decimal digit",
                );
            }
        }
    }
}

/// Pushes `name` = `value` when present.
pub(crate) fn push_opt(
    out: &mut Vec<(&'static str, String)>,
    name: &'static str,
    value: Option<impl fmt::Display>,
) {
    if let Some(v) = value {
        out.push((name, v.to_string()));
    }
}

/// Pushes the login fields (user, password as `****`, host, port).
pub(crate) fn push_login(
    out: &mut Vec<(&'static str, String)>,
    login: Option<Login<'_>>,
    default: Option<u16>,
) {
    if let Some(l) = login {
        push_opt(out, "user", l.user());
        push_opt(out, "password", l.password());
        out.push(("host", l.host().to_string()));
        push_opt(out, "port", l.port());
        if let Some(p) = l.port_number().or(default) {
            out.push(("effective_port", p.to_string()));
        }
    }
}

/// The spec a view's strict check reads the input under, for the generic
/// parts: RFC 1630's.
pub(crate) const STRICT_SPEC: Spec = Spec::Rfc1630;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_lower_case_and_unique() {
        for (i, (s, _, _)) in DEFAULT_PORTS.iter().enumerate() {
            assert_eq!(s.to_ascii_lowercase(), *s);
            assert!(DEFAULT_PORTS[..i].iter().all(|(t, _, _)| t != s));
        }
        assert_eq!(
            DEFAULT_PORTS.iter().filter(|(_, _, src)| src.in_seeds).count(),
            1
        );
    }

    #[test]
    fn parts_tail_excludes_fragment_and_net_loc() {
        let r = Reference::parse("http://a/b;p?q#f");
        let p = Parts::of(&r);
        assert_eq!(
            (p.tail, p.path_text(), p.search()),
            ("/b;p?q", "/b;p", Some("q"))
        );
        let r = Reference::parse_with("http://a?q", Spec::Rfc1630);
        assert_eq!(Parts::of(&r).search(), Some("q"));
    }

    #[test]
    fn decode_falls_back_to_latin1() {
        assert_eq!(decode("caf%E9"), "café");
        assert_eq!(decode("caf%C3%A9"), "café");
        assert!(matches!(decode("plain"), Cow::Borrowed(_)));
        assert_eq!(decode("50%"), "50%");
    }
}
