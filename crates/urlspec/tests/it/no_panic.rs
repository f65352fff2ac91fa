//! No public function panics on any text: every function of the library
//! that takes a `&str` or bytes is called on arbitrary input (dense in the
//! delimiters of every grammar, multi-byte characters and `%` sequences at
//! every position), and the slices it returns must lie inside its input.

use proptest::prelude::*;
use urlspec::base::{
    base_header_value, Base, Establish, Headers, Options as BaseOptions,
};
use urlspec::check;
use urlspec::diff;
use urlspec::equiv::{self, Level, NormalizedUrl};
use urlspec::escape::{self, decode_for_wire, Component};
use urlspec::extract::{self, Finder, LineIndex};
use urlspec::reference::Redacted;
use urlspec::resolve::{
    make_relative, remove_dot_segments, resolve, DotDotAboveRoot, Options,
    Resolver, Rfc1630Dots, RootlessDots,
};
use urlspec::scheme::{self, FtpType, Login, MailIdKind, SchemeView};
use urlspec::server::Server;
use urlspec::{Reference, Spec};

/// Pieces that text is made of: scheme starts of every view, delimiters,
/// escapes whole and cut short, and characters of two, three and four
/// bytes, so that every byte offset a function might slice at falls now
/// on a character boundary and now inside one.
const PIECES: &[&str] = &[
    "http:",
    "https:",
    "ftp:",
    "gopher:",
    "mailto:",
    "news:",
    "nntp:",
    "telnet:",
    "rlogin:",
    "wais:",
    "file:",
    "prospero:",
    "mid:",
    "cid:",
    "urn:",
    "url:",
    "URL:",
    "x-",
    "x-ü:",
    "ü:",
    "a",
    "Z",
    "0",
    "9",
    "//",
    "/",
    "?",
    "#",
    ";",
    ":",
    "@",
    "=",
    "&",
    "+",
    ",",
    ".",
    "..",
    "-",
    "_",
    "~",
    "*",
    "!",
    "$",
    "'",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "\"",
    "\\",
    "|",
    "^",
    "`",
    " ",
    "\t",
    "\r",
    "\n",
    "\0",
    "%",
    "%2",
    "%2E",
    "%2F",
    "%25",
    "%0D",
    "%0A",
    "%00",
    "%09",
    "%FF",
    "%C3%BC",
    "%u",
    "::",
    "[::1]",
    "localhost",
    "type=",
    ";type=",
    "type=d",
    "A",
    "I",
    "L8",
    "E N",
    "%00v",
    "%3F",
    "1",
    "80",
    "080",
    "65536",
    "*",
    "ü",
    "é",
    "日",
    "本",
    "€",
    "𝔘",
    "\u{10FFFF}",
    "\u{200B}",
    "\u{202E}",
    "ﬃ",
    "İ",
    "Σ",
];

/// Openings and closings of the forms that functions recognise whole
/// (header values, bracketed URLs, quoted text).
const WRAPPERS: &[(&str, &str)] = &[
    ("", ""),
    ("<", ">"),
    ("<URL:", ">"),
    (" <url:", "> "),
    ("\"", "\""),
    ("(", ")"),
    ("[", "]"),
    ("{", "}"),
];

/// Text built from [`PIECES`], perhaps wrapped, or anything at all.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop::collection::vec(prop::sample::select(PIECES), 0..14)
        .prop_map(|p| p.concat());
    prop_oneof![
        3 => (prop::sample::select(WRAPPERS), pieces).prop_map(
            |((open, close), inner)| format!("{open}{inner}{close}")
        ),
        1 => any::<String>(),
        1 => "[a-z:/?#;@.%0-9A-F\\[\\]=ü日-]{0,16}",
    ]
}

/// Bytes: text, or arbitrary bytes (not UTF-8 as a whole).
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        text().prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..48),
        (text(), prop::collection::vec(any::<u8>(), 0..4), text()).prop_map(
            |(a, mid, b)| [a.into_bytes(), mid, b.into_bytes()].concat()
        ),
    ]
}

fn any_spec() -> impl Strategy<Value = Spec> {
    prop::sample::select(Spec::IETF_AND_WHATWG.to_vec())
}

/// Whether `part` is a slice of `whole` (the empty slice anywhere in it).
fn inside(whole: &str, part: &str) -> bool {
    let (w, p) = (whole.as_ptr() as usize, part.as_ptr() as usize);
    part.is_empty() || (p >= w && p + part.len() <= w + whole.len())
}

/// Asserts that every given slice lies inside `whole`.
macro_rules! within {
    ($whole:expr; $($part:expr),* $(,)?) => {{
        $(
            for p in $part.into_iter() {
                let p: &str = p;
                prop_assert!(inside($whole, p), "{:?} not inside {:?}", p, $whole);
            }
        )*
    }};
}

/// Every method of every view, on one reference.
fn every_view_method(r: &Reference<'_>) -> Result<(), TestCaseError> {
    let input = r.as_str();
    let v = scheme::view(r);
    let _ = (v.name(), v.default_port(), v.port(), v.lenient(), v.fields());
    let _ = (v.is_strictly_valid(), v.to_string(), format!("{v:?}"));
    for sv in v.violations() {
        prop_assert!(sv.position <= input.len(), "{sv:?}");
        let _ = sv.to_string();
    }
    if let Some(l) = v.login() {
        within!(input; [l.host()], l.user(), l.port(), l.password().map(|p| p.expose()));
        let _ = l.port_number();
    }
    // Each view on its own, whatever the scheme is.
    let ftp = scheme::Ftp::new(r);
    within!(input; [ftp.path()], ftp.host(), ftp.type_code(), ftp.segments());
    let _ = (ftp.ftp_login(), ftp.port(), ftp.cwd(), ftp.target());
    let _ = (ftp.ftp_type().map(|t| t.to_rfc959()), ftp.is_directory());
    let _ = (ftp.commands(), ftp.violations(), ftp.lenient());
    if let Some(code) = ftp.type_code() {
        let _ = FtpType::parse(code);
    }
    let g = scheme::Gopher::new(r);
    within!(input; [g.command_raw()], g.host());
    let _ = (g.login(), g.port(), g.gtype(), g.type_assumed(), g.command());
    let _ = (g.selector(), g.search(), g.gopher_plus(), g.wire_command());
    let _ = (g.violations(), g.lenient());
    let h = scheme::Http::new(r);
    within!(input; [h.path()], h.host(), h.search(), h.fragment(), h.segments());
    within!(input; h.proxy_target().ok());
    let _ = (h.is_https(), h.login(), h.port(), h.request_target());
    let _ = (h.violations(), h.lenient());
    let m = scheme::Mailto::new(r);
    within!(input; [m.addr_spec(), m.local_part()], m.domain(), m.headers());
    let _ = (m.address(), m.violations(), m.lenient());
    let id = scheme::MessageId::new(r);
    within!(input; [id.id()]);
    let _ = (id.kind(), id.header(), id.violations(), id.lenient());
    let n = scheme::News::new(r);
    within!(input; [n.groupart()]);
    let _ = (n.target(), n.message_id(), n.violations(), n.lenient());
    let nn = scheme::Nntp::new(r);
    within!(input; [nn.group()], nn.host(), nn.article());
    let _ = (nn.form(), nn.login(), nn.port(), nn.article_number());
    let _ = (nn.violations(), nn.lenient());
    let t = scheme::Telnet::new(r);
    within!(input; t.user(), t.host());
    let _ = (t.kind(), t.login(), t.port(), t.violations(), t.lenient());
    let w = scheme::Wais::new(r);
    within!(input; [w.database()], w.host());
    for f in w.fields() {
        within!(input; [f.number, f.content]);
        let _ = (f.number_value(), f.decoded());
    }
    let _ = (w.login(), w.port(), w.target(), w.violations(), w.lenient());
    let file = scheme::File::new(r);
    within!(input; [file.path()], file.host());
    let _ = (file.locality(), file.to_local_path());
    let _ = (file.violations(), file.lenient());
    let p = scheme::Prospero::new(r);
    within!(input; [p.hsoname()], p.host(), p.version(), p.attributes());
    let _ = (
        p.login(),
        p.port(),
        p.hsoname_decoded(),
        p.violations(),
        p.lenient(),
    );
    let u = scheme::Urn::new(r);
    within!(input; [u.name()], u.segments());
    let _ = (u.is_hierarchical(), u.violations(), u.lenient());
    let x = scheme::Experimental::new(r);
    within!(input; [x.name()]);
    let _ = (x.violations(), x.lenient());
    let up = scheme::UrlPrefix::new(r);
    within!(input; [up.inner()]);
    let _ = (up.inner_reference().violations(), up.violations(), up.lenient());
    let gen = scheme::Generic::new(r);
    let _ = (gen.violations(), gen.lenient());
    if let SchemeView::File(f) = v {
        let _ = f.to_local_path();
    }
    Ok(())
}

/// Every reading of one reference: components, spans, violations, server.
fn every_reference_method(r: &Reference<'_>) -> Result<(), TestCaseError> {
    let input = r.as_str();
    within!(input; [r.path()], r.prefix(), r.scheme(), r.net_loc(), r.authority());
    within!(input; r.params(), r.query(), r.fragment());
    for part in [
        urlspec::reference::Part::Scheme,
        urlspec::reference::Part::NetLoc,
        urlspec::reference::Part::Path,
        urlspec::reference::Part::Params,
        urlspec::reference::Part::Query,
        urlspec::reference::Part::Fragment,
    ] {
        if let Some(s) = r.span(part) {
            prop_assert!(input.get(s.clone()).is_some(), "{part:?} {s:?}");
        }
    }
    let _ =
        (r.kind(), r.has_hierarchical_path(), r.is_generic(), r.is_empty());
    for v in r.violations() {
        prop_assert!(v.position <= input.len(), "{v:?}");
        let _ = v.to_string();
    }
    if let Some(s) = r.server() {
        within!(input; [s.as_str()], s.user(), s.password(), s.userinfo(), s.host(), s.port());
        let _ = (
            s.kind(),
            s.host_kind(),
            s.port_number(),
            s.is_valid(),
            format!("{s:?}"),
        );
    }
    if let Some(l) = Login::of(r) {
        within!(input; [l.host()], l.user(), l.port());
    }
    let _ = (r.recompose(), r.to_buf(), Redacted::new(r).to_string());
    let _ = Redacted::new(r).reveal_password(true).to_string();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn parsing_and_scheme_views(input in text(), spec in any_spec()) {
        let r = Reference::parse_with(&input, spec);
        every_reference_method(&r)?;
        every_view_method(&r)?;
        let _ = r.reparse(Spec::Rfc1630);
        let s = Server::parse(&input, spec);
        within!(input.as_str(); [s.as_str()], s.user(), s.password(), s.host(), s.port());
        let _ = (s.port_number(), s.is_valid());
        let _ = scheme::default_port(&input);
        let _ = FtpType::parse(&input);
        for kind in [MailIdKind::Mid, MailIdKind::Cid] {
            let _ = kind.url(&input);
        }
    }

    #[test]
    fn check_and_diff(input in text(), other in text(), spec in any_spec()) {
        for f in check::check(&input, spec) {
            prop_assert!(input.get(f.span.clone()).is_some(), "{f:?}");
            let _ = (f.rule(), f.to_string());
        }
        let _ = escape::is_line_oriented(&input);
        for scheme in ["gopher", "http", &other] {
            if let Err(e) = decode_for_wire(&input, scheme) {
                prop_assert!(e.position < input.len(), "{e:?}");
            }
        }
        let specs = Spec::IETF_AND_WHATWG;
        let c = diff::compare(&input, &specs);
        let _ = (c.agrees(), c.is_security_relevant());
        let c = diff::compare_resolution(&other, &input, &specs);
        let _ = (c.agrees(), c.is_security_relevant());
    }

    #[test]
    fn resolution(base in text(), reference in text(), spec in any_spec()) {
        let _ = resolve(&base, &reference, spec);
        let _ = make_relative(&base, &reference, spec);
        let _ = remove_dot_segments(&reference);
        for opts in [
            Options::default().strict(true),
            Options::default().same_scheme_is_relative(true),
            Options::default().dotdot_above_root(DotDotAboveRoot::Error),
            Options::default().fix_pathless_base(true),
            Options::default().rfc1630_dots(Rfc1630Dots::Like1808),
            Options::default().rootless_dots(RootlessDots::KeepRootless),
        ] {
            let _ = Resolver::with_options(&base, spec, opts).resolve(&reference);
        }
    }

    #[test]
    fn normalization(a in text(), b in text(), spec in any_spec()) {
        for level in [Level::String, Level::Case, Level::PercentEncoding, Level::PathSegment, Level::Scheme] {
            let o = equiv::Options::default().level(level);
            for o in [o, o.include_fragment(true).default_port(false).host_case(true)] {
                if let Err(e) = equiv::normalize(&a, spec, &o) {
                    prop_assert!(e.position <= a.len(), "{e:?}");
                }
                let _ = equiv::equivalent(&a, &b, spec, &o);
                let _ = NormalizedUrl::new(&a, spec, &o);
            }
        }
    }

    #[test]
    fn escaping(data in text(), raw in bytes(), spec in any_spec()) {
        for c in Component::ALL {
            let _ = escape::escape(&data, c, spec);
            let _ = escape::escape_unsafe(&data, c, spec);
            let _ = escape::escape_bytes(&raw, c, spec);
        }
        for e in [escape::unescape(&data).err(), escape::unescape_str(&data).err()] {
            prop_assert!(e.is_none_or(|e| data.get(e.position..).is_some()));
        }
        for &i in &escape::unescape_lenient(&data).invalid {
            prop_assert_eq!(data.as_bytes().get(i), Some(&b'%'));
        }
        let _ = (escape::escape_form(&data), escape::unescape_form(&data));
        let _ = escape::latin1_to_string(&raw);
        let _ = data.parse::<Component>();
    }

    #[test]
    fn base_layers(value in text(), name in text(), outer in text(), spec in any_spec()) {
        if let Some(std::borrow::Cow::Borrowed(url)) = base_header_value(&value) {
            within!(value.as_str(); [url]);
        }
        for headers in [Headers::Spec, Headers::All] {
            for strict in [false, true] {
                let o = BaseOptions::default().strict(strict).headers(headers);
                let e = Establish::with_options(spec, o);
                let outer = e.retrieval(&[outer.as_str()]);
                let pairs = [
                    (name.as_str(), value.as_str()),
                    ("Base", value.as_str()),
                    ("Content-Base", value.as_str()),
                    ("Content-Location", value.as_str()),
                ];
                let b = e.headers(&outer, pairs);
                let _ = (b.url(), b.source().to_string(), b.notes());
                let b = e.embedded(&outer, &value);
                let _ = b.enclosed(&name).resolver(spec).resolve(&name);
                let _ = e.embedded(&Base::none(), &value);
            }
        }
    }

    #[test]
    fn finding_urls(text in bytes(), spec in any_spec(), relative in any::<bool>(), bare in any::<bool>()) {
        let finder = Finder::new().spec(spec).relative(relative).bare(bare);
        let index = LineIndex::new(&text);
        let mut last_end = 0;
        for f in finder.find_iter(&text) {
            let (span, url_span) = (f.span(), f.url_span());
            prop_assert!(span.start >= last_end && span.end <= text.len(), "{f:?}");
            prop_assert!(span.start <= url_span.start && url_span.end <= span.end, "{f:?}");
            last_end = span.end;
            for &h in f.hyphen_positions() {
                prop_assert!(f.as_str().as_bytes().get(h) == Some(&b'-'), "{f:?}");
            }
            let _ = (f.alternative(), f.reference().violations(), f.to_string());
            let _ = index.line_col(span.start);
            let _ = index.line_col(span.end);
        }
        if let Ok(s) = std::str::from_utf8(&text) {
            for f in extract::extract(s) {
                within!(s; [&s[f.span()]]);
            }
        }
    }
}

#[test]
fn a_prefixed_url_named_url_is_read_once() {
    // RFC 1630 strips `url:` and finds the scheme `url`, whose view read
    // the wrapped URL again, and again (a stack overflow, found here).
    let r = Reference::parse_with("url:url:x", Spec::Rfc1630);
    assert_eq!((r.prefix(), r.scheme()), (Some("url:"), Some("url")));
    for spec in Spec::IETF_AND_WHATWG {
        let r = Reference::parse_with("url:url:url:x", spec);
        let _ = scheme::view(&r).violations();
    }
}

#[test]
fn inputs_that_sliced_through_a_character() {
    // `;type=` looked for by a slice of five bytes.
    let r = Reference::parse("ftp://h/x;a日本");
    let ftp = scheme::Ftp::new(&r);
    assert_eq!((ftp.path(), ftp.type_code()), ("x;a日本", None));
    let r = Reference::parse("ftp://h/x;TYPE=日");
    assert_eq!(scheme::Ftp::new(&r).type_code(), Some("日"));
    // An escape's two hex digits taken as a slice of two bytes.
    let r = Reference::parse("file:///%2ü");
    assert_eq!(scheme::File::new(&r).to_local_path().as_deref(), Ok("/%2ü"));
    let r = Reference::parse("file:///a%2fb");
    assert!(scheme::File::new(&r).to_local_path().is_err());
    // `URL:` looked for by a slice of four bytes.
    assert_eq!(base_header_value("<abcü>"), None);
    assert_eq!(base_header_value("<url:ü>").as_deref(), Some("ü"));
    // The text of a bad escape, cut at three bytes.
    let e =
        equiv::normalize("http://a/%日", Spec::Rfc3986, &Default::default())
            .unwrap_err();
    assert_eq!((e.position, e.found.as_str()), (9, "%日"));
    let e = escape::unescape("a%2日").unwrap_err();
    assert_eq!((e.position, e.found.as_str()), (1, "%2日"));
}
