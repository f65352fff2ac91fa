//! Property tests: parsing is total and lossless, escaping round-trips,
//! resolution never panics, and `make_relative` inverts `resolve`.

use proptest::prelude::*;
use urlspec::escape::{self, Component};
use urlspec::reference::Part;
use urlspec::resolve::{
    make_relative, produced, resolve, DotDotAboveRoot, Note, Options,
    Resolver, Rfc1630Dots, RootlessDots,
};
use urlspec::{Reference, Spec};

fn any_spec() -> impl Strategy<Value = Spec> {
    prop::sample::select(Spec::IETF.to_vec())
}

/// Strings dense in URL delimiters, plus arbitrary Unicode.
fn url_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9:/?#;@.%=+\\[\\]~ -]{0,24}",
        "(http|ftp|g|1x|a@b)?:?(//[a-z@:.\\[\\]0-9]{0,8})?(/?[a-z.]{0,3}){0,4}(;[a-z=/]{0,3})?(\\?[a-z/.;]{0,4})?(#[a-z/.]{0,3})?",
        any::<String>(),
    ]
}

/// Every option set that changes a result.
fn options() -> impl Strategy<Value = Options> {
    prop::sample::select(vec![
        Options::default(),
        Options::default().strict(true),
        Options::default().same_scheme_is_relative(true),
        Options::default().same_scheme_is_relative(false),
        Options::default().dotdot_above_root(DotDotAboveRoot::Remove),
        Options::default().dotdot_above_root(DotDotAboveRoot::Error),
        Options::default().fix_pathless_base(true),
        Options::default().rfc1630_dots(Rfc1630Dots::Like1808),
        Options::default().rootless_dots(RootlessDots::KeepRootless),
        Options::default().path_guard(true),
        Options::default().path_guard(true).same_scheme_is_relative(true),
    ])
}

fn base_url() -> impl Strategy<Value = String> {
    let seg = prop::sample::select(vec![
        "a", "b", ".", "..", "", "g;x", "c:d", "%2E",
    ]);
    (
        prop::sample::select(vec!["http", "foo", "HTTP"]),
        prop::option::of(prop::sample::select(vec![
            "a", "", "u@h:1", "[::1]",
        ])),
        prop::collection::vec(seg, 0..5),
        any::<bool>(),
        prop::option::of("[a-z/;]{0,3}"),
        prop::option::of("[a-z]{0,2}"),
    )
        .prop_map(|(scheme, host, segs, rooted, query, frag)| {
            let mut s = format!("{scheme}:");
            if let Some(h) = host {
                s.push_str("//");
                s.push_str(h);
            }
            if rooted || host.is_some() {
                s.push('/');
            }
            s.push_str(&segs.join("/"));
            if let Some(q) = query {
                s.push('?');
                s.push_str(&q);
            }
            if let Some(f) = frag {
                s.push('#');
                s.push_str(&f);
            }
            s
        })
}

fn reference() -> impl Strategy<Value = String> {
    let seg =
        prop::sample::select(vec!["g", ".", "..", "", "h;x", "a:b", "%2E%2E"]);
    prop_oneof![
        (
            prop::sample::select(vec![
                "", "/", "//", "//x/", "http:", "foo:", "?", "#", ";"
            ]),
            prop::collection::vec(seg, 0..6),
            prop::option::of("[a-z/.]{0,3}"),
            prop::option::of("[a-z]{0,2}"),
        )
            .prop_map(|(lead, segs, q, f)| {
                let mut s = format!("{lead}{}", segs.join("/"));
                if let Some(q) = q {
                    s.push('?');
                    s.push_str(&q);
                }
                if let Some(f) = f {
                    s.push('#');
                    s.push_str(&f);
                }
                s
            }),
        url_like(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_is_total_and_lossless(input in url_like(), spec in any_spec()) {
        let r = Reference::parse_with(&input, spec);
        prop_assert_eq!(r.recompose(), input.as_str());
        prop_assert_eq!(r.to_string(), input.as_str());
        // Validation and the server split never panic either.
        let v = r.violations();
        prop_assert_eq!(v.is_empty(), r.is_valid());
        for v in &v {
            prop_assert!(v.position <= input.len());
            prop_assert!(!v.to_string().is_empty());
        }
        if let Some(s) = r.server() {
            let _ = (s.user(), s.password(), s.host(), s.port(), s.is_valid());
        }
        let owned = r.to_buf();
        prop_assert_eq!(owned.as_reference(), r);
    }

    #[test]
    fn escape_round_trips(data in any::<String>(), spec in any_spec()) {
        for c in Component::ALL {
            let text = escape::escape(&data, c, spec);
            // Only the component's data characters and escapes remain.
            let keep = c.data_chars(spec);
            let b = text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'%' { i += 3 } else { prop_assert!(keep.contains(b[i])); i += 1 }
            }
            prop_assert_eq!(escape::unescape(&text).unwrap(), data.as_bytes());
            prop_assert_eq!(escape::unescape_str(&text).unwrap(), data.as_str());
            // Escaping component text never escapes an escape twice.
            let once = escape::escape_unsafe(&text, c, spec);
            prop_assert_eq!(escape::escape_unsafe(&once, c, spec), once.clone());
        }
        let form = escape::escape_form(&data);
        prop_assert_eq!(escape::unescape_form(&form).unwrap(), data.as_bytes());
    }

    #[test]
    fn unescape_is_total(text in url_like()) {
        let lenient = escape::unescape_lenient(&text);
        match escape::unescape(&text) {
            Ok(bytes) => prop_assert!(lenient.invalid.is_empty() && lenient.bytes == bytes),
            Err(e) => prop_assert_eq!(lenient.invalid.first(), Some(&e.position)),
        }
    }

    #[test]
    fn resolve_is_total(base in base_url(), r in reference(), spec in any_spec()) {
        if let Ok(out) = resolve(&base, &r, spec) {
            // A result is absolute: it has the base's or its own scheme.
            let parsed = Reference::parse_with(&out.href, spec);
            prop_assert!(parsed.has_scheme() || out.outcome.taken_as_absolute, "{:?}", out);
        }
    }

    #[test]
    fn an_answer_that_reads_no_base_needs_none(
        base in base_url(),
        r in reference(),
        spec in any_spec(),
        opts in options(),
    ) {
        // A reference with a scheme is resolved without reading the base,
        // unless the same-scheme loophole applies, which reads its scheme.
        let parsed = Reference::parse_with(&r, spec);
        let Some(scheme) = parsed.scheme() else { return Ok(()) };
        let loophole = opts
            .same_scheme_loophole()
            .unwrap_or(spec.rules().same_scheme_is_relative);
        let base_scheme = Reference::parse_with(&base, spec).scheme();
        if loophole && base_scheme.is_some_and(|b| b.eq_ignore_ascii_case(scheme)) {
            return Ok(());
        }
        let href = |base: &str| {
            Resolver::with_options(base, spec, opts).resolve(&r).map(|x| x.href)
        };
        prop_assert_eq!(href(&base), href(""), "{} {:?}", spec, opts);
        if opts == Options::default() {
            let one_shot = resolve("", &r, spec).map(|x| x.href);
            prop_assert_eq!(one_shot, href(&base));
        }
    }

    #[test]
    fn a_result_reads_back_as_produced_or_says_not(
        base in base_url(),
        r in reference(),
        spec in any_spec(),
        opts in options(),
    ) {
        let Ok((href, note, shape)) = produced(&base, &r, spec, opts) else {
            return Ok(());
        };
        let (authority, path) = shape.expect("every spec but whatwg");
        let again = Reference::parse_with(&href, spec);
        let reads_back = again.has_scheme()
            && again.net_loc().is_some() == authority
            && again.span(Part::Path) == Some(path.clone());
        let changed = matches!(
            note,
            Some(
                Note::PathReadAsAuthority
                    | Note::PathJoinsAuthority
                    | Note::AuthorityEndsEarlier
                    | Note::AuthorityReadsLonger
            )
        );
        prop_assert_eq!(
            reads_back, !changed,
            "{} {:?} {:?}: {} (path {:?}, authority {}), note {:?}",
            spec, base, r, href, path, authority, note
        );
        // What the API gives, shortcuts and all.
        let api = Resolver::with_options(&base, spec, opts).resolve(&r).unwrap();
        prop_assert_eq!((&api.href, api.outcome.note), (&href, note));
        if opts == Options::default() {
            let one_shot = resolve(&base, &r, spec).unwrap();
            prop_assert_eq!((&one_shot.href, one_shot.outcome.note), (&href, note));
        }
    }

    #[test]
    fn make_relative_inverts_resolve(base in base_url(), r in reference(), spec in any_spec()) {
        let Ok(t) = resolve(&base, &r, spec) else { return Ok(()) };
        match make_relative(&base, &t.href, spec) {
            Some(rel) => {
                let back = Resolver::new(&base, spec).resolve(&rel).unwrap();
                prop_assert_eq!(&back.href, &t.href, "relative form {:?}", rel);
                // The target itself is a candidate whenever it reproduces
                // itself, so the answer is never longer than it then.
                let itself = resolve(&base, &t.href, spec).map(|x| x.href);
                prop_assert!(rel.len() <= t.href.len() || itself != Ok(t.href.clone()));
            }
            // Only a target that no reference reproduces, not even itself.
            None => prop_assert!(resolve(&base, &t.href, spec).map(|x| x.href) != Ok(t.href.clone())),
        }
    }
}

#[test]
fn resolution_is_linear_on_hostile_input() {
    // A million `../` resolves in one pass (the time is measured by the
    // benchmark; here the result must be right and the call must return).
    let reference = "../".repeat(1_000_000) + "g";
    for spec in Spec::IETF {
        let out = resolve("http://a/b/c/d", &reference, spec).unwrap();
        let expected_tail = match spec {
            Spec::Rfc3986 => "http://a/g".to_string(),
            Spec::Draft04 | Spec::Rfc1630 => "http://a/g".to_string(),
            _ => format!("http://a/{}g", "../".repeat(1_000_000 - 2)),
        };
        assert_eq!(out.href.len(), expected_tail.len(), "{spec}");
        assert_eq!(out.href, expected_tail, "{spec}");
    }
}
