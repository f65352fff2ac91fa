//! The scheme views (`urlspec::scheme`): every view reads one URL without
//! copying, so each text it hands out is a slice of that URL.

use urlspec::escape::WireError;
use urlspec::scheme::{
    self, FtpCommand, FtpPassword, LocalPathError, Login, NewsTarget,
    SchemeView, WaisTarget,
};
use urlspec::{Reference, Spec};

/// Every scheme with a view of its own, and one without.
pub const SCHEMES: [&str; 19] = [
    "http", "https", "ftp", "gopher", "mailto", "news", "nntp", "telnet",
    "rlogin", "tn3270", "wais", "file", "prospero", "mid", "cid", "urn",
    "x-exp", "url", "other",
];

/// Panics unless `part` is a slice of `whole` (by address, not by value).
pub fn assert_inside(whole: &str, part: &str, what: &str) {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    assert!(
        p >= w && p + part.len() <= w + whole.len(),
        "{what} {part:?} is not a slice of {whole:?}"
    );
}

/// A URL of the input: a first byte below 19 picks the scheme of
/// [`SCHEMES`] put before the rest (so each view is reached as often as
/// the others); any other input is the URL itself. Under every spec, the
/// view never panics; every text it returns is a slice of the URL; its
/// violations and wire errors point inside the URL; the ftp commands
/// follow the path (one `CWD` per directory segment, then one `RETR` or
/// `NLST`); a local file name never gets a `/` or a NUL from an escape.
pub fn scheme(input: &str) {
    let url = match input.as_bytes().first() {
        Some(&b) if usize::from(b) < SCHEMES.len() => {
            format!("{}:{}", SCHEMES[usize::from(b)], &input[1..])
        }
        _ => input.to_owned(),
    };
    for spec in Spec::IETF {
        view(&Reference::parse_with(&url, spec));
    }
}

fn view(r: &Reference<'_>) {
    let input = r.as_str();
    let inside = |part: &str, what: &str| assert_inside(input, part, what);
    let wire = |e: WireError| assert!(e.position < input.len(), "{e}");
    let v = scheme::view(r);
    assert_eq!(v.reference().as_str(), input);
    for violation in v.violations() {
        assert!(violation.position <= input.len(), "{violation}");
    }
    assert_eq!(v.is_strictly_valid(), v.violations().is_empty());
    let _ = (
        v.name(),
        v.lenient(),
        v.fields(),
        v.port(),
        v.default_port(),
        v.to_string(),
    );
    if let Some(login) = v.login() {
        check_login(input, &login);
    }
    match v {
        SchemeView::Http(h) => {
            for p in [h.host(), Some(h.path()), h.search(), h.fragment()]
                .into_iter()
                .flatten()
            {
                inside(p, "http part");
            }
            h.segments().for_each(|s| inside(s, "http segment"));
            match h.request_target() {
                Ok(t) => {
                    assert!(!t.contains(['#', ' ']), "request target {t:?}")
                }
                Err(e) => wire(e),
            }
            match h.proxy_target() {
                Ok(t) => inside(t, "proxy target"),
                Err(e) => wire(e),
            }
        }
        SchemeView::Ftp(f) => {
            inside(f.path(), "ftp path");
            f.host().into_iter().for_each(|h| inside(h, "ftp host"));
            f.type_code().into_iter().for_each(|t| inside(t, "ftp type"));
            f.segments().for_each(|s| inside(s, "ftp segment"));
            let login = f.ftp_login();
            assert_eq!(
                login.anonymous,
                f.login().and_then(|l| l.user()).is_none()
            );
            if let FtpPassword::Given(p) = login.password {
                inside(p.expose(), "ftp password");
            }
            let _ = (
                f.port(),
                f.ftp_type().map(|t| t.to_rfc959()),
                f.is_directory(),
                f.target(),
            );
            match f.commands() {
                Ok(commands) => {
                    let cwd = commands
                        .iter()
                        .filter(|c| matches!(c, FtpCommand::Cwd(_)))
                        .count();
                    assert_eq!(cwd, f.cwd().len(), "{commands:?}");
                    let last = commands.last().expect("a retrieval command");
                    assert!(matches!(
                        last,
                        FtpCommand::Retr(_) | FtpCommand::Nlst(_)
                    ));
                    commands.iter().for_each(|c| drop(c.to_string()));
                }
                Err(e) => wire(e),
            }
        }
        SchemeView::Gopher(g) => {
            inside(g.command_raw(), "gopher command");
            g.host().into_iter().for_each(|h| inside(h, "gopher host"));
            let _ = (
                g.port(),
                g.gtype(),
                g.type_assumed(),
                g.command(),
                g.selector(),
            );
            let _ = (g.search(), g.gopher_plus());
            if let Err(e) = g.wire_command() {
                wire(e);
            }
        }
        SchemeView::Mailto(m) => {
            inside(m.addr_spec(), "addr-spec");
            inside(m.local_part(), "local part");
            m.domain().into_iter().for_each(|d| inside(d, "domain"));
            m.headers().into_iter().for_each(|h| inside(h, "headers"));
            let _ = m.address();
        }
        SchemeView::News(n) => {
            inside(n.groupart(), "groupart");
            match n.target() {
                NewsTarget::Group(g) | NewsTarget::Article(g) => {
                    inside(g, "news target")
                }
                NewsTarget::AllGroups => {}
            }
            if let Some(id) = n.message_id() {
                assert!(id.starts_with('<') && id.ends_with('>'), "{id}");
            }
        }
        SchemeView::Nntp(n) => {
            inside(n.group(), "group");
            n.host().into_iter().for_each(|h| inside(h, "nntp host"));
            n.article().into_iter().for_each(|a| inside(a, "article"));
            if n.article_number().is_some() {
                assert!(n
                    .article()
                    .is_some_and(|a| a.bytes().all(|b| b.is_ascii_digit())));
            }
            let _ = (n.form(), n.port());
        }
        SchemeView::Telnet(t) => {
            t.user().into_iter().for_each(|u| inside(u, "telnet user"));
            t.host().into_iter().for_each(|h| inside(h, "telnet host"));
            let _ = (t.kind().name(), t.port());
        }
        SchemeView::Wais(w) => {
            inside(w.database(), "database");
            w.host().into_iter().for_each(|h| inside(h, "wais host"));
            match w.target() {
                WaisTarget::Index { search } => {
                    search.into_iter().for_each(|s| inside(s, "search"))
                }
                WaisTarget::Document { wtype, wpath } => {
                    inside(wtype, "wtype");
                    inside(wpath, "wpath");
                }
            }
            for field in w.fields() {
                inside(field.number, "field number");
                inside(field.content, "field content");
                let _ = (field.number_value(), field.decoded());
            }
            let _ = w.port();
        }
        SchemeView::File(f) => {
            inside(f.path(), "file path");
            f.host().into_iter().for_each(|h| inside(h, "file host"));
            match f.to_local_path() {
                Ok(p) => {
                    assert!(f.locality().is_local());
                    let slashes =
                        |s: &str| s.bytes().filter(|&b| b == b'/').count();
                    assert_eq!(
                        slashes(&p),
                        slashes(f.path()),
                        "{p:?}: an escape made a `/`"
                    );
                    assert!(
                        !p.contains('\0') || f.path().contains('\0'),
                        "{p:?}"
                    );
                }
                Err(
                    LocalPathError::EncodedSeparator { position }
                    | LocalPathError::Nul { position },
                ) => {
                    assert!(f.locality().is_local());
                    assert_eq!(input.as_bytes()[position], b'%');
                }
                Err(e) => assert!(!f.locality().is_local(), "{e}"),
            }
        }
        SchemeView::Prospero(p) => {
            inside(p.hsoname(), "hsoname");
            p.host().into_iter().for_each(|h| inside(h, "prospero host"));
            p.version().into_iter().for_each(|s| inside(s, "version"));
            p.attributes().into_iter().for_each(|s| inside(s, "attributes"));
            let _ = (p.hsoname_decoded(), p.port());
        }
        SchemeView::MessageId(m) => {
            inside(m.id(), "message id");
            let _ = (m.kind().url(&m.header()), m.header());
        }
        SchemeView::Urn(u) => {
            inside(u.name(), "urn name");
            u.segments().for_each(|s| inside(s, "urn segment"));
            let _ = u.is_hierarchical();
        }
        SchemeView::Experimental(x) => inside(x.name(), "experimental name"),
        SchemeView::UrlPrefix(u) => {
            inside(u.inner(), "wrapped URL");
            assert_eq!(u.inner_reference().as_str(), u.inner());
        }
        _ => {}
    }
}

fn check_login(input: &str, login: &Login<'_>) {
    assert_inside(input, login.host(), "login host");
    login
        .user()
        .into_iter()
        .for_each(|u| assert_inside(input, u, "login user"));
    login
        .port()
        .into_iter()
        .for_each(|p| assert_inside(input, p, "login port"));
    if let Some(p) = login.password() {
        assert_inside(input, p.expose(), "login password");
    }
    if let Some(n) = login.port_number() {
        assert_eq!(login.port().map(str::parse::<u16>), Some(Ok(n)));
    }
}
