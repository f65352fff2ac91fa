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
//! `?` inside the net_loc; parse under [`Spec::Rfc1630`](crate::Spec::Rfc1630) for RFC 1630's own
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

mod ports;
mod production;

use ports::registered;
pub use ports::{default_port, Source, DEFAULT_PORTS};
pub(crate) use production::{Strict, STRICT_SPEC, XALPHA, XPALPHA};

use crate::chars::strip_prefix_ignore_case;
use crate::escape::{latin1_to_string, unescape_lenient};
use crate::reference::Secret;
use crate::reference::{Part, Reference};

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
    #[must_use]
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
    #[must_use]
    pub fn user(&self) -> Option<&'a str> {
        self.user
    }

    /// The password, as written, behind [`Secret`].
    #[must_use]
    pub fn password(&self) -> Option<Secret<'a>> {
        self.password
    }

    /// The host, as written (`""` for a void host).
    #[must_use]
    pub fn host(&self) -> &'a str {
        self.host
    }

    /// The port, as written: `Some("")` for `host:`.
    #[must_use]
    pub fn port(&self) -> Option<&'a str> {
        self.port
    }

    /// The port as a number, when one is written and fits.
    #[must_use]
    pub fn port_number(&self) -> Option<u16> {
        self.port.filter(|p| !p.is_empty()).and_then(|p| p.parse().ok())
    }
}

/// The accessors of a view whose URL has a `//` part, written once for
/// every such view: `reference`, `login` ([`Login::of`] the reference),
/// `host`, and where the scheme has one default port, `port` (the one
/// written, else that default). Each view gives the doc comments of
/// `login`, `host` and `port`, which say what they are for its scheme.
/// Expands inside `impl<'a> View<'a>` of a view that keeps its reference
/// in `r`.
macro_rules! view_accessors {
    (
        $(#[$login:meta])* login;
        $(#[$host:meta])* host;
        $($(#[$port:meta])* port = $default:expr;)?
    ) => {
        /// The reference.
        #[must_use]
        pub fn reference(&self) -> &$crate::reference::Reference<'a> {
            &self.r.0
        }

        $(#[$login])*
        #[must_use]
        pub fn login(&self) -> Option<$crate::scheme::Login<'a>> {
            $crate::scheme::Login::of(&self.r)
        }

        $(#[$host])*
        #[must_use]
        pub fn host(&self) -> Option<&'a str> {
            self.login().map(|l| l.host())
        }

        $(
            $(#[$port])*
            #[must_use]
            pub fn port(&self) -> u16 {
                self.login().and_then(|l| l.port_number()).unwrap_or($default)
            }
        )?
    };
}
pub(crate) use view_accessors;

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
#[must_use]
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
    #[must_use]
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
    #[must_use]
    pub fn reference(&self) -> &Reference<'a> {
        each!(self, v => v.reference())
    }

    /// User, password, host and port, when the URL has a `//` part.
    #[must_use]
    pub fn login(&self) -> Option<Login<'a>> {
        Login::of(self.reference())
    }

    /// The scheme's default port and where that knowledge comes from.
    #[must_use]
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
    #[must_use]
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
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        each!(self, v => v.violations())
    }

    /// Whether [`violations`](Self::violations) is empty.
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Spec;

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
