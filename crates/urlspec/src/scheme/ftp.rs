//! `ftp` (RFC 1630 "FTP"; RFC 1738 §3.2 for the codes RFC 1630 lacks).
//!
//! ```text
//! ftpaddress f t p : / / login / path [ ftptype ]
//! ftptype A formcode | E formcode | I | L digits
//! formcode N | T | C
//! ```
//!
//! * Login: "if no user or password is supplied", the user name is
//!   `anonymous` and the password "the user's Internet-style mail address".
//! * Path: "The arguments of any CWD commands are successive segment parts
//!   of the URL delimited by slash, and the final segment is suitable as the
//!   filename argument to the RETR command for retrieval or the directory
//!   argument to NLIST."
//! * Type: the suffix `;type=<type-code>` gives the TYPE, "in the format
//!   defined in RFC 959 except that THE SPACE IS OMITTED FROM THE URL"; a
//!   suffix `/` means "use FTP directory list commands". RFC 1738 has the
//!   codes `a`, `i` and `d` (directory), which draft 04, RFC 1808 and the
//!   1996 draft use (docs/readings.md#a24).

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{
    decode, push_login, push_opt, strip_slash, Parts, SchemeViolation, Src,
    Strict,
};
use crate::chars::strip_prefix_ignore_case;
use crate::escape::{decode_for_wire_text, WireError};
use crate::reference::Reference;
use crate::reference::Secret;

/// The default port, from the one registry.
const DEFAULT_PORT: u16 = super::registered("ftp");

/// RFC 959's format codes for ASCII and EBCDIC types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormCode {
    /// `N`: non-print.
    NonPrint,
    /// `T`: Telnet format effectors.
    Telnet,
    /// `C`: carriage control (ASA).
    CarriageControl,
}

impl FormCode {
    fn letter(self) -> char {
        match self {
            FormCode::NonPrint => 'N',
            FormCode::Telnet => 'T',
            FormCode::CarriageControl => 'C',
        }
    }

    fn parse(s: &str) -> Option<Option<FormCode>> {
        match s.to_ascii_uppercase().as_str() {
            "" => Some(None),
            "N" => Some(Some(FormCode::NonPrint)),
            "T" => Some(Some(FormCode::Telnet)),
            "C" => Some(Some(FormCode::CarriageControl)),
            _ => None,
        }
    }
}

/// An FTP transfer type from `;type=`: every RFC 1630 `ftptype` and the
/// RFC 1738 codes `a`, `i` and `d`.
///
/// ```
/// use urlspec::scheme::{FormCode, FtpType};
/// assert_eq!(FtpType::parse("AN"), Some(FtpType::Ascii(Some(FormCode::NonPrint))));
/// assert_eq!(FtpType::parse("AN").unwrap().to_rfc959().unwrap(), "A N");
/// assert_eq!(FtpType::parse("L8").unwrap().to_rfc959().unwrap(), "L 8");
/// assert_eq!(FtpType::parse("d"), Some(FtpType::Directory));
/// assert!(!FtpType::parse("E").unwrap().is_rfc1630());
/// assert_eq!(FtpType::parse("X"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FtpType {
    /// `A`: ASCII, with an optional form code.
    Ascii(Option<FormCode>),
    /// `E`: EBCDIC, with an optional form code.
    Ebcdic(Option<FormCode>),
    /// `I`: image (binary).
    Image,
    /// `L`: local byte size, when given.
    Local(Option<u8>),
    /// RFC 1738 `d`: a directory listing (RFC 1630 writes a trailing `/`).
    Directory,
}

impl FtpType {
    /// Parses a type code, ASCII case ignored, as written after `;type=`.
    #[must_use]
    pub fn parse(code: &str) -> Option<FtpType> {
        let mut chars = code.chars();
        let first = chars.next()?.to_ascii_uppercase();
        let rest = chars.as_str();
        match first {
            'A' => FormCode::parse(rest).map(FtpType::Ascii),
            'E' => FormCode::parse(rest).map(FtpType::Ebcdic),
            'I' if rest.is_empty() => Some(FtpType::Image),
            'D' if rest.is_empty() => Some(FtpType::Directory),
            'L' if rest.is_empty() => Some(FtpType::Local(None)),
            'L' if rest.bytes().all(|b| b.is_ascii_digit()) => {
                rest.parse().ok().map(|n| FtpType::Local(Some(n)))
            }
            _ => None,
        }
    }

    /// The argument of RFC 959's TYPE command, with the space the URL
    /// omits restored (`A N`, `L 8`). `None` for a directory, which is
    /// listed rather than typed.
    #[must_use]
    pub fn to_rfc959(self) -> Option<String> {
        let mut s = String::new();
        match self {
            FtpType::Ascii(f) | FtpType::Ebcdic(f) => {
                s.push(if matches!(self, FtpType::Ascii(_)) {
                    'A'
                } else {
                    'E'
                });
                if let Some(f) = f {
                    s.push(' ');
                    s.push(f.letter());
                }
            }
            FtpType::Image => s.push('I'),
            FtpType::Local(n) => {
                s.push('L');
                if let Some(n) = n {
                    s.push(' ');
                    s.push_str(&n.to_string());
                }
            }
            FtpType::Directory => return None,
        }
        Some(s)
    }

    /// Whether the code is an RFC 1630 `ftptype` (`A` and `E` need a form
    /// code, `L` its digits; `d` is not one).
    #[must_use]
    pub fn is_rfc1630(self) -> bool {
        matches!(
            self,
            FtpType::Ascii(Some(_))
                | FtpType::Ebcdic(Some(_))
                | FtpType::Image
                | FtpType::Local(Some(_))
        )
    }

    /// Whether the code is one of RFC 1738's `a`, `i` and `d`.
    #[must_use]
    pub fn is_rfc1738(self) -> bool {
        matches!(
            self,
            FtpType::Ascii(None) | FtpType::Image | FtpType::Directory
        )
    }
}

impl fmt::Display for FtpType {
    /// RFC 959's form (`A N`), or `D` for a directory.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_rfc959() {
            Some(s) => f.write_str(&s),
            None => f.write_str("D"),
        }
    }
}

/// The password an FTP client sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FtpPassword<'a> {
    /// Written in the URL (escapes not decoded).
    Given(Secret<'a>),
    /// The anonymous convention: "the user's Internet-style mail address"
    /// (the caller supplies it; RFC 1630, ftp).
    MailAddress,
    /// A user name without a password: the client has to ask.
    None,
}

/// The login an FTP client uses, with RFC 1630's anonymous defaults made
/// explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FtpLogin<'a> {
    /// The user name, decoded; `anonymous` when the URL has none.
    pub user: Cow<'a, str>,
    /// The password.
    pub password: FtpPassword<'a>,
    /// Whether this is the anonymous convention (no user in the URL).
    pub anonymous: bool,
}

/// One FTP command a client sends to retrieve the URL, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FtpCommand<'a> {
    /// `CWD <segment>`: one per path segment before the last.
    Cwd(Cow<'a, str>),
    /// `TYPE <code>`, from `;type=`.
    Type(FtpType),
    /// `RETR <segment>`: the last segment, a file.
    Retr(Cow<'a, str>),
    /// `NLST [<segment>]`: a directory (a trailing `/` lists the current
    /// directory; `;type=d` lists the last segment). RFC 1630 spells it
    /// NLIST.
    Nlst(Option<Cow<'a, str>>),
}

impl fmt::Display for FtpCommand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FtpCommand::Cwd(s) => write!(f, "CWD {s}"),
            FtpCommand::Type(t) => write!(f, "TYPE {t}"),
            FtpCommand::Retr(s) => write!(f, "RETR {s}"),
            FtpCommand::Nlst(Some(s)) => write!(f, "NLST {s}"),
            FtpCommand::Nlst(None) => f.write_str("NLST"),
        }
    }
}

/// An `ftp` URL.
///
/// ```
/// use urlspec::scheme::{Ftp, FtpPassword, FtpType};
/// use urlspec::Reference;
///
/// let r = Reference::parse("ftp://info.cern.ch/pub/www/doc;type=d");
/// let ftp = Ftp::new(&r);
/// assert_eq!(ftp.cwd(), ["pub", "www"]);
/// assert_eq!(ftp.ftp_type(), Some(FtpType::Directory));
/// assert_eq!(ftp.ftp_login().password, FtpPassword::MailAddress);
/// let cmds: Vec<String> = ftp.commands().unwrap().iter().map(|c| c.to_string()).collect();
/// assert_eq!(cmds, ["CWD pub", "CWD www", "NLST doc"]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ftp<'a> {
    r: Src<'a>,
    parts: Parts<'a>,
    /// The url-path: after the `/` that follows the login, without
    /// `;type=…`.
    path: &'a str,
    /// The text after `;type=`.
    type_code: Option<&'a str>,
}

impl<'a> Ftp<'a> {
    /// Reads `r` as an ftp URL, whatever its scheme.
    #[must_use]
    pub fn new(r: &Reference<'a>) -> Ftp<'a> {
        let parts = Parts::of(r);
        let text = strip_slash(parts.path_text());
        let last_seg = text.rfind('/').map_or(0, |k| k + 1);
        let (path, type_code) = match text[last_seg..].rfind(';') {
            Some(k) => {
                let semi = last_seg + k;
                match strip_prefix_ignore_case(&text[semi + 1..], "type=") {
                    Some(code) => (&text[..semi], Some(code)),
                    None => (text, None),
                }
            }
            None => (text, None),
        };
        Ftp { r: Src(*r), parts, path, type_code }
    }

    super::view_accessors! {
        /// User, password, host and port, as written.
        login;
        /// The host.
        host;
        /// The port: the one written, else 21 (RFC 1738 §3.2, not a seed).
        port = DEFAULT_PORT;
    }

    /// The login the client uses: the URL's, else `anonymous` with the
    /// user's mail address as the password.
    ///
    /// ```
    /// use urlspec::scheme::{Ftp, FtpPassword};
    /// use urlspec::{Reference, Spec};
    /// let anon = Ftp::new(&Reference::parse("ftp://h/f")).ftp_login();
    /// assert_eq!((anon.user.as_ref(), anon.password, anon.anonymous),
    ///            ("anonymous", FtpPassword::MailAddress, true));
    /// let r = Reference::parse_with("ftp://j%40x@h/f", Spec::Draft96);
    /// let login = Ftp::new(&r).ftp_login();
    /// assert_eq!((login.user.as_ref(), login.password), ("j@x", FtpPassword::None));
    /// ```
    #[must_use]
    pub fn ftp_login(&self) -> FtpLogin<'a> {
        let login = self.login();
        match login.and_then(|l| l.user()) {
            Some(user) => FtpLogin {
                user: decode(user),
                password: match login.and_then(|l| l.password()) {
                    Some(p) => FtpPassword::Given(p),
                    None => FtpPassword::None,
                },
                anonymous: false,
            },
            None => FtpLogin {
                user: Cow::Borrowed("anonymous"),
                password: FtpPassword::MailAddress,
                anonymous: true,
            },
        }
    }

    /// The url-path as written, without its leading `/` and `;type=`.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.path
    }

    /// The path segments, as written (an empty path has one empty segment).
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        self.path.split('/')
    }

    /// The CWD arguments, decoded: every segment before the last.
    #[must_use]
    pub fn cwd(&self) -> Vec<Cow<'a, str>> {
        let segs: Vec<&'a str> = self.segments().collect();
        segs[..segs.len() - 1].iter().map(|s| decode(s)).collect()
    }

    /// The last segment, decoded: the RETR file name or the NLST directory
    /// (empty after a trailing `/`).
    #[must_use]
    pub fn target(&self) -> Cow<'a, str> {
        decode(self.segments().last().unwrap_or(""))
    }

    /// The text after `;type=`, as written.
    #[must_use]
    pub fn type_code(&self) -> Option<&'a str> {
        self.type_code
    }

    /// The transfer type, when `;type=` holds a known code. The code may
    /// be escaped; spaces (RFC 959's) are dropped.
    #[must_use]
    pub fn ftp_type(&self) -> Option<FtpType> {
        let code = decode(self.type_code?);
        let code: String = code.chars().filter(|c| *c != ' ').collect();
        FtpType::parse(&code)
    }

    /// Whether the URL names a directory: a trailing `/` (RFC 1630) or
    /// `;type=d` (RFC 1738).
    #[must_use]
    pub fn is_directory(&self) -> bool {
        self.path.is_empty()
            || self.path.ends_with('/')
            || self.ftp_type() == Some(FtpType::Directory)
    }

    /// The commands that retrieve the URL after login: CWDs, TYPE, then
    /// RETR or NLST. Arguments are decoded for the wire, so an escaped CR,
    /// LF or NUL is refused (the 1996 draft §8).
    ///
    /// ```
    /// use urlspec::scheme::{Ftp, FtpCommand, FtpType, FormCode};
    /// use urlspec::Reference;
    /// let r = Reference::parse("ftp://h/%2Fetc/motd;type=AN");
    /// assert_eq!(Ftp::new(&r).commands().unwrap(), [
    ///     FtpCommand::Cwd("/etc".into()),
    ///     FtpCommand::Type(FtpType::Ascii(Some(FormCode::NonPrint))),
    ///     FtpCommand::Retr("motd".into()),
    /// ]);
    /// let r = Reference::parse("ftp://h/a%0D%0ADELE%20b");
    /// assert!(Ftp::new(&r).commands().is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`WireError`] for the first CWD, NLST or RETR argument that cannot be
    /// decoded for the wire, at the byte offset in the URL:
    /// [`EscapedDelimiter`] for an escaped CR, LF or NUL, [`Unescaped`] for
    /// a raw one, [`InvalidEscape`] for a `%` not followed by two hex
    /// digits.
    ///
    /// [`EscapedDelimiter`]: crate::escape::WireErrorKind::EscapedDelimiter
    /// [`Unescaped`]: crate::escape::WireErrorKind::Unescaped
    /// [`InvalidEscape`]: crate::escape::WireErrorKind::InvalidEscape
    pub fn commands(&self) -> Result<Vec<FtpCommand<'a>>, WireError> {
        let input = self.parts.input;
        let arg = |s: &'a str| decode_for_wire_text(s, input, "ftp");
        let segs: Vec<&'a str> = self.segments().collect();
        let (last, dirs) = segs.split_last().unwrap_or((&"", &[]));
        let mut out = Vec::with_capacity(segs.len() + 1);
        for d in dirs {
            out.push(FtpCommand::Cwd(arg(d)?));
        }
        let ty = self.ftp_type();
        if let Some(t) = ty.filter(|t| *t != FtpType::Directory) {
            out.push(FtpCommand::Type(t));
        }
        if last.is_empty() {
            out.push(FtpCommand::Nlst(None));
        } else if ty == Some(FtpType::Directory) {
            out.push(FtpCommand::Nlst(Some(arg(last)?)));
        } else {
            out.push(FtpCommand::Retr(arg(last)?));
        }
        Ok(out)
    }

    /// Where the URL breaks `ftpaddress`.
    #[must_use]
    pub fn violations(&self) -> Vec<SchemeViolation> {
        Strict::run(&self.r, |s| {
            s.server(&self.r, "ftpaddress", true);
            let text = self.parts.path_text();
            if self.r.net_loc().is_some() && !text.starts_with('/') {
                s.report_at(
                    text,
                    "ftpaddress",
                    "`ftp://login/path`: a `/` follows the login",
                );
            }
            s.path(self.path, "path");
            if let Some(code) = self.type_code {
                match self.ftp_type() {
                    Some(t) if t.is_rfc1630() => {}
                    Some(FtpType::Directory) => s.report_at(
                        code,
                        "ftptype",
                        "`d` is RFC 1738's code, not an RFC 1630 ftptype; \
                         RFC 1630 writes a directory with a trailing `/`",
                    ),
                    Some(_) => s.report_at(
                        code,
                        "ftptype",
                        "`ftptype A formcode | E formcode | I | L digits`: \
                         `A` and `E` need a form code (N, T or C), `L` its \
                         byte size",
                    ),
                    None => s.report_at(
                        code,
                        "ftptype",
                        alloc::format!(
                            "`{code}` is no FTP type code (A, E, I, L; RFC \
                             1738 also a, i, d)"
                        ),
                    ),
                }
            }
            s.no_search(&self.parts, "ftpaddress");
        })
    }

    /// The lenient readings applied.
    #[must_use]
    pub fn lenient(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        match self.ftp_type() {
            Some(FtpType::Directory) => out.push(
                "A24: RFC 1738's `;type=d` read as a directory listing (NLST \
                 of the last segment)",
            ),
            Some(t) if t.is_rfc1738() && !t.is_rfc1630() => out.push(
                "A24: RFC 1738's type code `a` read as TYPE A (RFC 959's \
                 default form, non-print)",
            ),
            Some(FtpType::Ebcdic(None)) | Some(FtpType::Local(None)) => out
                .push(
                    "A24: a type code without its argument is sent as written",
                ),
            _ => {}
        }
        if self.parts.search().is_some() {
            out.push(
                "the `?query` has no FTP meaning and is ignored (RFC 1808 \
                 §2.3 calls `?` in ftp paths an error)",
            );
        }
        out
    }

    pub(crate) fn fields_into(&self, out: &mut Vec<(&'static str, String)>) {
        push_login(out, self.login(), Some(self.port()));
        let login = self.ftp_login();
        out.push(("login_user", login.user.into_owned()));
        out.push((
            "login_password",
            match login.password {
                FtpPassword::Given(p) => p.to_string(),
                FtpPassword::MailAddress => {
                    "<user's mail address>".to_string()
                }
                FtpPassword::None => "<asked for>".to_string(),
            },
        ));
        out.push(("path", self.path.to_string()));
        for c in self.cwd() {
            out.push(("cwd", c.into_owned()));
        }
        out.push(("target", self.target().into_owned()));
        push_opt(out, "type_code", self.type_code);
        push_opt(out, "type", self.ftp_type());
        match self.commands() {
            Ok(cmds) => {
                for c in cmds {
                    out.push(("command", c.to_string()));
                }
            }
            Err(e) => out.push(("command", alloc::format!("refused: {e}"))),
        }
    }
}
