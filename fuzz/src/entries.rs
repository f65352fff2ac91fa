//! The public entry points that take text besides parsing, resolution and
//! the scheme views: `check`, `diff`, `base`, `server` and the WHATWG
//! mapping.

use urlspec::base::{
    base_header_value, Base, Establish, Headers, Options as BaseOptions,
    Source,
};
use urlspec::check::{check, check_reference};
use urlspec::diff::{compare, compare_resolution, Comparison};
use urlspec::escape::{decode_for_wire, WireErrorKind};
use urlspec::reference::Redacted;
use urlspec::resolve::Resolver;
use urlspec::server::{AuthorityKind, HostKind, Server};
use urlspec::{Reference, Spec};

use crate::scheme::assert_inside;

/// `check`: under every spec it gives what `check_reference` gives; each
/// finding's span lies inside the input on character boundaries, in input
/// order, and names a rule; redaction hides exactly the password;
/// `decode_for_wire` refuses at a byte of the text and, for a line-oriented
/// scheme, never lets a CR, LF or NUL through.
pub fn check_input(input: &str) {
    for spec in Spec::IETF {
        let findings = check(input, spec);
        let r = Reference::parse_with(input, spec);
        assert_eq!(findings, check_reference(&r), "{spec}");
        let mut last = 0;
        for f in &findings {
            assert!(
                f.span.start <= f.span.end && f.span.end <= input.len(),
                "{f}"
            );
            assert!(
                input.get(f.span.clone()).is_some(),
                "{f}: not on char boundaries"
            );
            assert!(
                f.span.start >= last,
                "{spec}: findings out of order: {findings:?}"
            );
            last = f.span.start;
            assert_eq!(f.rule().code, f.code);
            let _ = f.to_string();
        }
        let shown = Redacted::new(&r).to_string();
        assert_eq!(Redacted::new(&r).reveal_password(true).to_string(), input);
        // Hidden: the spec's password, else the one RFC 3986 reads in the
        // net_loc (an RFC 2396 reg_name, RFC 1808's opaque net_loc), so
        // that no reader finds a password in the text shown.
        let password = r
            .server()
            .and_then(|s| s.password())
            .or_else(|| Server::parse(r.net_loc()?, Spec::Rfc3986).password());
        match password.filter(|p| !p.is_empty()) {
            Some(p) => {
                let n = input.len() - p.len() + 4;
                assert_eq!(shown.len(), n, "{spec}: {shown}");
                let url003 = findings.iter().find(|f| f.code == "URL003");
                let span =
                    url003.expect("a password is reported").span.clone();
                assert_inside(input, p, "password");
                assert_eq!(&input[span], p, "{spec}");
            }
            None => assert_eq!(shown, input, "{spec}"),
        }
    }
    for scheme in ["http", "telnet", "gopher", "ftp"] {
        let line = urlspec::escape::is_line_oriented(scheme);
        match decode_for_wire(input, scheme) {
            Ok(bytes) => {
                assert!(bytes.len() <= input.len());
                if line {
                    assert!(
                        !bytes.iter().any(|b| matches!(b, b'\r' | b'\n' | 0)),
                        "{scheme}"
                    );
                }
            }
            Err(e) => {
                assert!(e.position < input.len(), "{e}");
                let at = input.as_bytes()[e.position];
                match e.kind {
                    WireErrorKind::EscapedDelimiter { .. }
                    | WireErrorKind::InvalidEscape => {
                        assert_eq!(at, b'%', "{e}")
                    }
                    WireErrorKind::Unescaped { octet } => {
                        assert_eq!(at, octet, "{e}")
                    }
                    _ => {}
                }
                let _ = e.to_string();
            }
        }
    }
}

/// `diff::compare` and `compare_resolution`: one spec (or one spec twice)
/// agrees with itself; a row gives what the spec's own parser or resolver
/// gives; every difference has at least two answers, and the specs of its
/// groups are the rows' specs, each once.
pub fn diff(base: &str, input: &str) {
    for spec in Spec::IETF_AND_WHATWG {
        assert!(compare(input, &[spec]).agrees(), "{spec}: parse");
        assert!(compare(input, &[spec, spec]).agrees(), "{spec}: parse twice");
        let c = compare_resolution(base, input, &[spec]);
        assert!(c.agrees(), "{spec}: resolution");
        if spec != Spec::Whatwg {
            let href =
                Resolver::new(base, spec).resolve(input).ok().map(|r| r.href);
            assert_eq!(c.rows[0].cells[0], href, "{spec}");
        }
    }
    let all = compare(input, &Spec::IETF_AND_WHATWG);
    for row in all.rows.iter().filter(|r| r.spec != Spec::Whatwg) {
        let r = Reference::parse_with(input, row.spec);
        let cells =
            [r.scheme(), r.net_loc(), Some(r.path()), r.query(), r.fragment()];
        let got = [0, 1, 6, 8, 9].map(|i| row.cells[i].as_deref());
        assert_eq!(got, cells, "{}", row.spec);
        assert_eq!(row.valid, r.is_valid());
    }
    partitions(&all);
    partitions(&compare_resolution(base, input, &Spec::IETF_AND_WHATWG));
}

fn partitions(c: &Comparison) {
    let _ = (c.is_security_relevant(), c.agrees());
    for d in &c.differences {
        assert!(
            d.groups.len() >= 2,
            "{:?}: one answer is no difference",
            d.column
        );
        let mut specs: Vec<Spec> =
            d.groups.iter().flat_map(|g| g.1.iter().copied()).collect();
        let n = specs.len();
        specs.sort_by_key(|s| s.name());
        specs.dedup();
        assert_eq!(specs.len(), n, "{:?}: a spec in two groups", d.column);
        assert!(specs.iter().all(|s| c.rows.iter().any(|r| r.spec == *s)));
    }
}

/// The base layers of `base`, on `RETRIEVAL NUL HREF NUL NAME NUL VALUE
/// NUL …`: a `Base:` value that is recognised is the text inside `<URL:…>`
/// without whitespace (a slice of the value when it has none); an
/// established base never has a fragment; a header or `BASE` layer that
/// wins is absolute, or resolved against the outer one; strict options
/// never take a relative `Base` or `Content-Base`; a layer that is not
/// taken leaves the outer base's URL.
pub fn base(input: &str) {
    let mut fields = input.split('\0');
    let retrieval = fields.next().unwrap_or("");
    let href = fields.next().unwrap_or("");
    let rest: Vec<&str> = fields.collect();
    let mut headers: Vec<(&str, &str)> =
        rest.chunks(2).map(|c| (c[0], *c.get(1).unwrap_or(&""))).collect();
    if let Some(&(_, value)) = headers.first() {
        for name in ["Base", "content-base", "CONTENT-LOCATION"] {
            headers.push((name, value));
        }
    }
    for (_, value) in &headers {
        if let Some(v) = base_header_value(value) {
            assert!(!v.bytes().any(|b| b.is_ascii_whitespace()), "{v:?}");
            if !value.trim().bytes().any(|b| b.is_ascii_whitespace()) {
                assert_inside(value, &v, "Base value");
            }
        }
    }
    for spec in Spec::IETF {
        for headers_option in [Headers::Spec, Headers::All] {
            for strict in [false, true] {
                let options = BaseOptions::default()
                    .strict(strict)
                    .headers(headers_option);
                let est = Establish::with_options(spec, options);
                let outer = est.retrieval(&[retrieval]);
                no_fragment(spec, outer.url());
                let part = est.headers(&outer, headers.iter().copied());
                layer(spec, strict, &outer, &part);
                let inner = part.enclosed("multipart/mixed");
                assert_eq!(inner.url(), part.url());
                let html = est.embedded(&inner, href);
                layer(spec, strict, &inner, &html);
                let _ = (
                    html.source().to_string(),
                    html.source().layer(),
                    html.resolver(spec),
                );
                assert!(Establish::new(spec)
                    .retrieval::<&str>(&[])
                    .url()
                    .is_none());
            }
        }
    }
}

fn no_fragment(spec: Spec, url: Option<&str>) {
    if let Some(url) = url {
        let r = Reference::parse_with(url, spec);
        assert!(
            r.fragment().is_none(),
            "{spec}: base {url:?} keeps a fragment"
        );
    }
}

fn layer(spec: Spec, strict: bool, outer: &Base, inner: &Base) {
    no_fragment(spec, inner.url());
    let absolute = inner
        .url()
        .is_some_and(|u| Reference::parse_with(u, spec).has_scheme());
    let must_be_absolute = match inner.source() {
        Source::Header { name } => name != "Content-Location",
        Source::Embedded => true,
        _ => {
            assert_eq!(inner.url(), outer.url(), "{spec}: a layer not taken");
            return;
        }
    };
    let url = inner.url().expect("a layer taken has a URL");
    // Not absolute: resolved against the outer base, which must exist.
    assert!(absolute || outer.url().is_some(), "{spec}: {url:?}");
    assert!(
        absolute || !(strict && must_be_absolute),
        "{spec}: strict took {url:?}"
    );
    let _ = inner.notes();
}

/// `Server::parse` on its own (and the host grammars behind it): every
/// part is a slice of the text, in order; a server with a host is its
/// userinfo, host and port put back together; an IPv4 host is digits and
/// dots, an IPv6 or IPvFuture host bracketed; the port number is the port
/// read as a number; validity never panics.
pub fn server(input: &str) {
    for spec in Spec::IETF {
        let s = Server::parse(input, spec);
        assert_eq!(s.as_str(), input);
        let parts = [s.userinfo(), s.user(), s.password(), s.host(), s.port()];
        let mut last = 0;
        for p in [s.userinfo(), s.host(), s.port()].into_iter().flatten() {
            assert_inside(input, p, "server part");
            let at = p.as_ptr() as usize - input.as_ptr() as usize;
            assert!(at >= last, "{spec}: parts out of order: {parts:?}");
            last = at + p.len();
        }
        for p in parts.into_iter().flatten() {
            assert_inside(input, p, "server part");
        }
        if s.kind() == AuthorityKind::Server {
            if let Some(host) = s.host() {
                let mut whole = String::new();
                if let Some(u) = s.userinfo() {
                    whole.push_str(u);
                    whole.push('@');
                }
                whole.push_str(host);
                if let Some(p) = s.port() {
                    whole.push(':');
                    whole.push_str(p);
                }
                assert_eq!(whole, input, "{spec}: {parts:?}");
            }
        }
        let host = s.host().unwrap_or("");
        match s.host_kind() {
            HostKind::Ipv4 => assert!(
                host.bytes().all(|b| b.is_ascii_digit() || b == b'.'),
                "{host}"
            ),
            HostKind::Ipv6 | HostKind::IpvFuture => {
                assert!(host.starts_with('[') && host.ends_with(']'), "{host}")
            }
            _ => {}
        }
        if let Some(n) = s.port_number() {
            assert_eq!(s.port().map(str::parse::<u16>), Some(Ok(n)));
        }
        let _ = (s.is_valid(), s.host_kind().name());
    }
}

/// The mapping of the URL Standard onto urlspec's components
/// (`whatwg::parse`, `resolve`, `check`): it gives what the `Url` accessors
/// give; the serialization is made of the components; `check` and
/// `resolve` agree with `parse`; a parsed URL's components come back the
/// same from its serialization.
pub fn whatwg_map(base: &str, input: &str) {
    use urlspec::whatwg::{self, Url};
    let parsed = whatwg::parse(input, None);
    assert_eq!(whatwg::check(input, false).is_ok(), parsed.is_ok());
    let relative = whatwg::parse(input, Some("http://placeholder.invalid/"));
    assert_eq!(whatwg::check(input, true).is_ok(), relative.is_ok());
    let joined = whatwg::parse(input, Some(base));
    assert_eq!(
        whatwg::resolve(base, input).ok(),
        joined.as_ref().ok().map(|c| c.href.clone())
    );
    if Url::parse(base).is_err() {
        assert!(
            joined.as_ref().is_err_and(|f| f.in_base),
            "a bad base is named"
        );
    }
    for c in [parsed, relative, joined].into_iter().flatten() {
        let url = Url::parse(&c.href).expect("a serialization parses");
        assert_eq!(url.as_str(), c.href);
        assert_eq!(whatwg::Components::from(&url), c);
        assert_eq!(c.scheme, url.scheme());
        assert!(c.href.starts_with(&format!("{}:", c.scheme)), "{c:?}");
        assert_eq!(
            c.user.as_deref(),
            Some(url.username()).filter(|u| !u.is_empty())
        );
        if let Some(q) = &c.query {
            assert!(c.href.contains(&format!("?{q}")), "{c:?}");
        }
        if let Some(f) = &c.fragment {
            assert!(c.href.ends_with(&format!("#{f}")), "{c:?}");
        }
        if let Some(h) = &c.host {
            assert!(c
                .href
                .contains(&format!("//{}", c.user.as_deref().unwrap_or(""))));
            assert!(c.href.contains(h.as_str()), "{c:?}");
        }
        assert!(c.href.contains(c.path.as_str()), "{c:?}");
    }
}

/// The text helpers: RFC 3986 `remove_dot_segments` leaves no `.` or `..`
/// segment, never lengthens the path and changes nothing the second time;
/// the resolver's scans `first_of` and `dot_start` agree with a plain
/// search (from any start, past the end included); `unescape_str` is
/// `unescape` read as UTF-8; `unescape_bytes_lenient` agrees with
/// `unescape_lenient`; `latin1_to_string` gives one character per octet.
pub fn helpers(input: &str) {
    use urlspec::escape::{
        latin1_to_string, unescape, unescape_bytes_lenient, unescape_lenient,
        unescape_str,
    };
    use urlspec::resolve::remove_dot_segments;
    use urlspec_bytes::scan::{dot_start, first_of};

    let once = remove_dot_segments(input);
    assert!(once.len() <= input.len(), "{once:?}");
    assert!(
        !once.split('/').any(|s| s == "." || s == ".."),
        "{input:?} gave {once:?}"
    );
    assert_eq!(remove_dot_segments(&once), once, "{input:?}");

    let b = input.as_bytes();
    let plain = |from: usize, set: &[u8]| {
        b.iter()
            .enumerate()
            .skip(from)
            .find(|(_, c)| set.contains(c))
            .map_or(b.len(), |(i, _)| i)
    };
    for from in [0, 1, b.len() / 2, b.len(), b.len() + 1] {
        let want = plain(from, b"/?#");
        assert_eq!(first_of(b, from, [b'/', b'?', b'#']), want, "{from}");
        assert_eq!(first_of(b, from, [b'%']), plain(from, b"%"), "{from}");
    }
    let starts = b.first() == Some(&b'.') || input.contains("/.");
    assert!(!starts || dot_start(b), "dot_start missed a dot segment");
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    assert_eq!(dot_start(b), starts, "dot_start");

    match (unescape_str(input), unescape(input)) {
        (Ok(text), Ok(bytes)) => assert_eq!(text.as_bytes(), &*bytes),
        (Err(e), Ok(bytes)) => {
            assert!(std::str::from_utf8(&bytes).is_err());
            assert!(e.position <= input.len(), "{e}");
        }
        (Err(e), Err(f)) => assert_eq!(e, f),
        (Ok(_), Err(e)) => panic!("unescape refused at {e}"),
    }
    assert_eq!(unescape_bytes_lenient(b), unescape_lenient(input).bytes);
    let octets = unescape_bytes_lenient(b);
    assert_eq!(latin1_to_string(&octets).chars().count(), octets.len());
}
