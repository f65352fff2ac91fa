//! Security checks: every rule with a positive and a negative case, the
//! wire decoder, and password redaction.

use urlspec::check::{check, Finding, Severity, RULES};
use urlspec::escape::{decode_for_wire, WireErrorKind};
use urlspec::reference::{Redacted, Secret};
use urlspec::{Reference, Spec};

fn codes(input: &str, spec: Spec) -> Vec<&'static str> {
    check(input, spec).iter().map(|f| f.code).collect()
}

fn find(input: &str, spec: Spec, code: &str) -> Vec<Finding> {
    check(input, spec).into_iter().filter(|f| f.code == code).collect()
}

/// Asserts `code` is reported for every input under every spec, and never
/// for the negatives.
fn rule(code: &str, positives: &[&str], negatives: &[&str]) {
    for spec in Spec::IETF {
        for p in positives {
            assert!(
                !find(p, spec, code).is_empty(),
                "{code} missing for {p:?} under {spec}: {:?}",
                check(p, spec)
            );
        }
        for n in negatives {
            assert!(
                find(n, spec, code).is_empty(),
                "{code} wrongly reported for {n:?} under {spec}: {:?}",
                check(n, spec)
            );
        }
    }
}

#[test]
fn url001_non_default_port() {
    rule(
        "URL001",
        &[
            "gopher://h:25/0x",
            "http://a:8080/",
            "ftp://h:80/f",
            "nntp://h:1/g/1",
        ],
        &[
            "http://a:80/",
            "http://a/",
            "http://a:/",
            "foo://a:25/",
            "file://h/x",
        ],
    );
    // R96-8.2: worse within the reserved range (the gopher-to-SMTP case).
    let f = &find("gopher://h:25/0x", Spec::Rfc1808, "URL001")[0];
    assert_eq!((f.severity, f.span.clone()), (Severity::High, 11..13));
    assert!(f.message.contains("reserved range"));
    assert!(f.source.contains("R96-8.2"));
    let f = &find("http://a:8080/", Spec::Rfc3986, "URL001")[0];
    assert_eq!(f.severity, Severity::Low);
}

#[test]
fn url002_escaped_line_delimiters() {
    rule(
        "URL002",
        &[
            "telnet://h%0D%0Aquit",
            "gopher://h/0x%0d%0aQUIT",
            "ftp://h/a%00b",
            "nntp://h/g%0A/1",
            "rlogin://u%0a@h",
            "tn3270://h/%0D",
        ],
        &[
            "http://h/a%0D%0A",
            "gopher://h/7a%09b",
            "gopher://h/1#%0D%0A",
            "ftp://h/a%20b",
            "mailto:a%0D%0A@b",
        ],
    );
    let f = find("gopher://h/0x%0d%0aQUIT", Spec::Rfc1808, "URL002");
    assert_eq!(f.len(), 2);
    assert_eq!((f[0].span.clone(), f[0].severity), (13..16, Severity::High));
    assert!(f[0].message.contains("CR") && f[1].message.contains("LF"));
}

#[test]
fn url003_password() {
    rule(
        "URL003",
        &["ftp://u:pw@h/", "http://joe:secret@h/"],
        &["ftp://u:@h/", "ftp://u@h/", "ftp://h/", "mailto:a:b@c"],
    );
    let f = &find("ftp://u:pw@h/", Spec::Draft96, "URL003")[0];
    assert_eq!((f.span.clone(), f.severity), (8..10, Severity::Medium));
    assert!(!f.message.contains("pw"));
}

#[test]
fn url004_remote_file() {
    rule(
        "URL004",
        &["file://other.host/x", "FILE://vms.host.edu/disk$user/x"],
        &[
            "file://localhost/x",
            "file://LocalHost/x",
            "file:///x",
            "file:/x",
            "ftp://other.host/x",
        ],
    );
    let f = &find("file://other.host/x", Spec::Rfc1808, "URL004")[0];
    assert_eq!(f.span, 7..17);
}

#[test]
fn url005_backslash() {
    rule(
        "URL005",
        &[
            "http://evil.com\\@good.com/",
            "http://a/b\\c",
            "http:\\\\evil.com/",
        ],
        &["http://a/b/c", "http://a/b%5Cc"],
    );
    let sev = |u: &str| find(u, Spec::Rfc1808, "URL005")[0].severity;
    assert_eq!(sev("http://evil.com\\@good.com/"), Severity::High);
    assert_eq!(sev("http:\\\\evil.com/"), Severity::High);
    assert_eq!(sev("http://a/b\\c"), Severity::Medium);
}

#[test]
fn url006_several_at() {
    rule(
        "URL006",
        &["http://a@b@c/", "ftp://u:p@x@h/"],
        &["http://a@c/", "http://c/a@b", "mailto:a@b"],
    );
    let f = &find("http://a@b@c/", Spec::Rfc3986, "URL006")[0];
    assert_eq!(f.span, 7..12);
    assert!(f.message.contains("host `c`"));
}

#[test]
fn url007_whitespace_and_controls() {
    rule(
        "URL007",
        &[
            "http://a/b c",
            "http://a/\tb",
            " http://a/",
            "http://a/\u{7f}",
            "http://a/\u{a0}",
        ],
        &["http://a/b%20c", "http://a/b"],
    );
    let f = find("http://a/\tb\nc d", Spec::Rfc1808, "URL007");
    let sev: Vec<Severity> = f.iter().map(|f| f.severity).collect();
    assert_eq!(sev, [Severity::High, Severity::High, Severity::Medium]);
}

#[test]
fn url008_userinfo_looks_like_host() {
    rule(
        "URL008",
        &[
            // TV-3986-PARSE-14, RFC 3986 §7.6
            "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
            "http://www.google.com@evil.example/",
            "http://10.0.0.1@evil.example/",
        ],
        &["ftp://joe@h/", "http://a.b1@h/", "http://h/www.google.com@x"],
    );
    let f = &find(
        "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
        Spec::Rfc3986,
        "URL008",
    )[0];
    assert_eq!(f.span, 6..41);
    assert!(f.message.contains("10.0.0.1"));
}

#[test]
fn url009_host_differs_between_specs() {
    rule(
        "URL009",
        &["http://a?q", "http://a?@b/", "1x://a/"],
        &["http://a/b?q", "//g", "mailto:a@b", "http://A/", "http://u@h:80/"],
    );
    let f = &find("http://a?q", Spec::Rfc1808, "URL009")[0];
    assert_eq!(f.span, 7..10);
    assert!(
        f.message.contains("`a?q` under draft04, rfc1808"),
        "{}",
        f.message
    );
    assert!(f.message.contains("`a` under rfc1630"), "{}", f.message);
}

#[test]
fn clean_urls_have_no_findings() {
    for u in [
        "http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html",
        "ftp://ds.internic.net/rfc/rfc1808.txt",
        "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
        "mailto:masinter@parc.xerox.com",
        "news:comp.infosystems.www.servers.unix",
        "telnet://melvyl.ucop.edu/",
        "file:///etc/passwd",
        "g;x?y#s",
    ] {
        for spec in Spec::IETF {
            assert_eq!(codes(u, spec), Vec::<&str>::new(), "{u} {spec}");
        }
    }
}

#[test]
fn findings_are_ordered_and_documented() {
    let input = "gopher://a@b@www.x.com:25/0%0D \\";
    let f = check(input, Spec::Rfc1808);
    assert!(f.windows(2).all(|w| w[0].span.start <= w[1].span.start));
    for finding in &f {
        assert!(finding.span.end <= input.len());
        let rule = finding.rule();
        assert_eq!(rule.code, finding.code);
        assert!(finding.severity <= rule.severity, "{finding}");
        assert_eq!(finding.source, rule.source);
        let shown = finding.to_string();
        assert!(shown.starts_with(finding.code), "{shown}");
    }
    let mut seen: Vec<&str> = f.iter().map(|f| f.code).collect();
    seen.dedup();
    assert!(seen.len() >= 5, "{f:?}");
    assert_eq!(RULES.len(), 12);
}

#[test]
fn url009_compares_hosts_after_domain_to_ascii() {
    let url009 = |input: &str, spec| -> Vec<Finding> {
        check(input, spec).into_iter().filter(|f| f.code == "URL009").collect()
    };
    // The WHATWG standard gives `xn--bcher-kva.de`, every RFC `bücher.de`:
    // one host once mapped by UTS #46, as the standard's host parser does
    // (in any case).
    for input in ["http://bücher.de/", "http://BÜCHER.de:81/x"] {
        for spec in Spec::IETF {
            assert!(url009(input, spec).is_empty(), "{input} {spec}");
        }
    }
    // A host the mapping refuses (a space, escaped) still differs from one
    // it accepts: RFC 3986 reads the host `a%20b`, RFC 1808 `c`.
    let f = url009("http://a%20b?@c/", Spec::Rfc3986);
    assert_eq!(f.len(), 1, "{f:?}");
    // The span is the host alone, without user or port.
    let input = "http://u?@evil.example:8080/";
    let f = &url009(input, Spec::Rfc1808)[0];
    assert_eq!(&input[f.span.clone()], "evil.example");
    let f = &url009(input, Spec::Rfc3986)[0];
    assert_eq!(&input[f.span.clone()], "u");
}

#[test]
fn url011_resolution_reads_back_another_authority() {
    let codes = |input: &str, spec| -> Vec<(&'static str, Severity)> {
        check(input, spec)
            .into_iter()
            .filter(|f| f.code == "URL011")
            .map(|f| (f.code, f.severity))
            .collect()
    };
    // The URL itself: RFC 3986 removes its dot segments (5.2.2), leaving
    // `f://g`. The other specs keep an absolute URL's path as it is.
    assert_eq!(codes("f:/.//g", Spec::Rfc3986), [("URL011", Severity::High)]);
    assert!(codes("f:/.//g", Spec::Rfc1808).is_empty());
    let f = &check("f:/.//g", Spec::Rfc3986)[0];
    assert_eq!(f.span, 2..7);
    assert!(f.message.contains("authority `g`"), "{}", f.message);
    // A relative reference, against a base without an authority: under
    // every spec, which all remove dot segments from a merged path.
    for spec in Spec::IETF {
        assert_eq!(
            codes(".//g", spec),
            [("URL011", Severity::Medium)],
            "{spec}"
        );
        assert_eq!(codes("a/../..//g", spec).len(), 1, "{spec}");
        assert!(codes("./g", spec).is_empty(), "{spec}");
    }
    // With an authority, a path may start with `//`.
    assert!(codes("http://h/.//g", Spec::Rfc3986).is_empty());
    // A base with an authority and no path: RFC 2396 glues a relative path
    // to it; RFC 1808 and the 1996 drafts write `?y` after it.
    assert_eq!(
        codes("http://taccs.hu", Spec::Rfc2396),
        [("URL011", Severity::Medium)]
    );
    assert_eq!(codes("http://a", Spec::Rfc1808), [("URL011", Severity::Low)]);
    assert_eq!(
        codes("http://a", Spec::Draft96Dec),
        [("URL011", Severity::Low)]
    );
    assert!(codes("http://a", Spec::Rfc3986).is_empty());
    assert!(codes("http://a/", Spec::Rfc2396).is_empty());
}

#[test]
fn url010_scheme_or_userinfo_differs() {
    // RFC 1808 reads `1x` as a scheme; RFC 2396 and RFC 3986 need a letter
    // first (docs/readings.md#a14).
    let f = check("1x://h/", Spec::Rfc1808);
    assert!(
        f.iter().any(|f| f.code == "URL010" && f.message.contains("scheme")),
        "{f:?}"
    );
    // RFC 1808 keeps `?` in the net_loc, so the user is `u` there and the
    // host is `u` under RFC 3986.
    let f = check("http://u?@h/", Spec::Rfc3986);
    assert!(
        f.iter().any(|f| f.code == "URL010" && f.message.contains("user")),
        "{f:?}"
    );
    assert!(f.iter().any(|f| f.code == "URL009"), "{f:?}");
    // Negative: every spec agrees.
    let f = check("http://u@h:81/p", Spec::Rfc3986);
    assert!(f.iter().all(|f| f.code != "URL010"), "{f:?}");
    // A port is compared by its value: the URL Standard drops leading zeros
    // (`8080`), the RFCs keep them as written (`08080`), the request goes
    // to the same port; the same for a written default port.
    for input in ["http://h:08080/", "https://h:00443/", "http://h:080/"] {
        let f = check(input, Spec::Rfc3986);
        assert!(f.iter().all(|f| f.code != "URL010"), "{input}: {f:?}");
    }
}

#[test]
fn decode_for_wire_refuses_line_delimiters() {
    for scheme in
        ["telnet", "rlogin", "tn3270", "gopher", "ftp", "nntp", "FTP"]
    {
        for (text, octet, at) in
            [("a%0Db", b'\r', 1), ("a%0ab", b'\n', 1), ("%00", 0, 0)]
        {
            let e = decode_for_wire(text, scheme).unwrap_err();
            assert_eq!(e.kind, WireErrorKind::EscapedDelimiter { octet });
            assert_eq!(e.position, at);
            assert!(e.to_string().contains("R96-8.3"));
        }
        let e = decode_for_wire("a\r\nb", scheme).unwrap_err();
        assert_eq!(e.kind, WireErrorKind::Unescaped { octet: b'\r' });
        assert_eq!(
            decode_for_wire("a%20b%09c", scheme).unwrap(),
            &b"a b\tc"[..]
        );
    }
    assert_eq!(decode_for_wire("a%0D%0Ab", "http").unwrap(), &b"a\r\nb"[..]);
    let e = decode_for_wire("a%zz", "http").unwrap_err();
    assert_eq!((e.position, e.kind), (1, WireErrorKind::InvalidEscape));
    assert!(matches!(
        decode_for_wire("plain", "ftp").unwrap(),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn passwords_are_redacted_unless_asked() {
    let r = Reference::parse_with("ftp://joe:s3cret@h/f#x", Spec::Rfc3986);
    let red = Redacted::new(&r);
    assert_eq!(red.to_string(), "ftp://joe:****@h/f#x");
    let dbg = format!("{red:?}");
    assert!(dbg.contains("joe:****@h") && !dbg.contains("s3cret"), "{dbg}");
    assert_eq!(red.reveal_password(true).to_string(), r.as_str());
    for plain in ["ftp://joe:@h/f", "ftp://joe@h/f", "http://h/a:b@c"] {
        let r = Reference::parse_with(plain, Spec::Rfc3986);
        assert_eq!(Redacted::new(&r).to_string(), plain);
    }
    // RFC 1808's opaque net_loc is split by the 1996 grammar, leniently.
    let r = Reference::parse("http://u:pw@h/");
    assert_eq!(Redacted::new(&r).to_string(), "http://u:****@h/");
    assert_eq!(format!("{:?}", Secret::new("x")), "****");
    assert_eq!(Secret::new("").to_string(), "");
}
