//! Unit tests of the resolution API and its options.

use super::*;

#[test]
fn resolve_into_appends_what_resolve_gives() {
    let mut refs = crate::reference::tests::samples();
    refs.extend(
        ["", "#", "?", "//x", "/", "../../..", "a:b"].map(String::from),
    );
    for spec in Spec::IETF {
        for base in BASES.iter().copied().chain([""]) {
            for r in &refs {
                let mut out = String::from("kept|");
                let got = resolve_into(base, r, spec, &mut out);
                match resolve(base, r, spec) {
                    Ok(want) => {
                        assert_eq!(out, alloc::format!("kept|{}", want.href));
                        assert_eq!(got.unwrap(), want.outcome);
                    }
                    Err(e) => {
                        assert_eq!(out, "kept|", "{spec} {base:?} {r:?}");
                        assert_eq!(got, Err(e));
                    }
                }
            }
        }
    }
}

#[test]
fn option_names_round_trip() {
    for v in [
        DotDotAboveRoot::Keep,
        DotDotAboveRoot::Remove,
        DotDotAboveRoot::Error,
    ] {
        assert_eq!(v.name().parse(), Ok(v));
    }
    assert_eq!("keep-rootless".parse(), Ok(RootlessDots::KeepRootless));
    // The data files' spelling, read too.
    assert_eq!("keep_rootless".parse(), Ok(RootlessDots::KeepRootless));
    assert_eq!(RootlessDots::KeepRootless.to_string(), "keep-rootless");
    assert_eq!("like1808".parse(), Ok(Rfc1630Dots::Like1808));
    let e = "nope".parse::<DotDotAboveRoot>().unwrap_err();
    assert_eq!(
        (e.given(), e.expected()),
        ("nope", &["keep", "remove", "error"][..])
    );
    assert_eq!(
        e.to_string(),
        "unknown value `nope`; expected one of: keep, remove, error"
    );
}

/// Bases of every shape, for the tests that compare a shortcut with
/// the algorithm's steps (here and in `fast`).
pub(super) const BASES: &[&str] = &[
    "http://a/b/c/d;p?q",
    "http://a/b/c/d;p?q#f",
    "http://a",
    "http://a/",
    "http://a?q",
    "http://a#f",
    "http://a?x/y/z",
    "http://a/b/./c/",
    "http://a/b/../c",
    "http://a/.b/c",
    "http://a/b/.",
    "http://a//b//c",
    "ftp://u:p@h:21/x/y?z#w",
    "file:///a/b",
    "mailto:a@b",
    "a:b",
    "foo:a/b/c",
    "foo:",
    "g:h/../i",
    "//a/b",
    "/a/b",
    "1x:/a/b",
    "http://[::1]:8/x/y?z",
    "HTTP://A/B",
    "http://a/b;p",
    "http://a/b;?#",
    "http://a/b;p?",
    "http://a/b?",
    "http://a/b#",
    "http://a/b/c;p?q#",
    "http://a/b;x/c;y/d?q",
    "http://a/ü/b?é#ö",
    "",
];

#[test]
fn plans_agree_with_the_steps() {
    // The shortcut of `resolve` (a `Plan`) against the algorithm's
    // steps, on every sample reference and bases of every shape.
    let options = [
        Options::default(),
        Options::default().same_scheme_is_relative(true),
        Options::default().rootless_dots(RootlessDots::KeepRootless),
    ];
    let specs = [Spec::Rfc3986, Spec::Rfc1808, Spec::Draft04];
    for (base, opts, spec) in BASES.iter().flat_map(|&b| {
        options.into_iter().flat_map(move |o| specs.map(|s| (b, o, s)))
    }) {
        {
            let resolver = Resolver::with_options(base, spec, opts);
            for r in crate::reference::tests::samples() {
                let parsed = Reference::parse_with(&r, spec);
                let mut href = String::new();
                let want = resolver
                    .resolve_general(&parsed, &mut href)
                    .map(|o| (href, o.same_document, o.taken_as_absolute));
                let got = resolver.resolve(&r).map(|x| {
                    let o = x.outcome;
                    (x.href, o.same_document, o.taken_as_absolute)
                });
                assert_eq!(got, want, "{spec} {base:?} {r:?} {opts:?}");
            }
        }
    }
}

#[test]
fn rfc1630_slash_fallback_keeps_the_contexts_scheme() {
    // No run of one slash in the context: RFC 1808's steps, but on the
    // RFC 1630 reading of the context, whose scheme `JJ'` RFC 1808
    // would not recognise (found by fuzzing).
    let out = resolve("JJ':.", "/.", Spec::Rfc1630).unwrap();
    assert_eq!(out.href, "JJ':/.");
}

#[test]
fn loophole_is_an_option_under_every_spec() {
    // RFC 1808 §5.2: "some older parsers" take `http:g` as relative.
    let on = Options::default().same_scheme_is_relative(true);
    for spec in Spec::IETF {
        let r = Resolver::with_options("http://a/b/c/d;p?q", spec, on);
        assert_eq!(
            r.resolve("http:g").unwrap().href,
            "http://a/b/c/g",
            "{spec}"
        );
        let off = Resolver::new("http://a/b/c/d;p?q", spec);
        let want =
            if spec == Spec::Rfc1630 { "http://a/b/c/g" } else { "http:g" };
        assert_eq!(off.resolve("http:g").unwrap().href, want, "{spec}");
    }
    // A long run of `http:` is stripped in a loop, not by recursion.
    let many = "http:".repeat(100_000) + "g";
    let r = Resolver::with_options("http://a/b", Spec::Rfc1808, on);
    assert_eq!(r.resolve(&many).unwrap().href, "http://a/g");
}

#[test]
fn pair_resolver_answers_as_a_resolver_per_pair() {
    // Each base comes for one, two and three references in a row, and
    // again after another base: the one-shot, the preparing and the
    // prepared answers, each against what a `Resolver` of the pair gives.
    let refs = ["g", "../g#s", "", "#f", "?y", "//x/y", "a:b", "/./g", ".//g"];
    let options = [
        Options::default(),
        Options::default().strict(true),
        Options::default().rootless_dots(RootlessDots::KeepRootless),
    ];
    for (spec, opts) in
        Spec::available().iter().flat_map(|&s| options.map(move |o| (s, o)))
    {
        let mut pairs = PairResolver::new(spec, opts);
        let mut out = String::from("kept|");
        let bases = BASES.iter().copied().chain(["", BASES[0]]);
        for (base, n) in bases.flat_map(|b| (1..=3).map(move |n| (b, n))) {
            let resolver = Resolver::with_options(base, spec, opts);
            for r in refs.iter().cycle().skip(n).take(n) {
                let want = resolver.resolve(r);
                assert_eq!(
                    pairs.resolve(base, r),
                    want,
                    "{spec} {base:?} {r:?}"
                );
                let mark = out.len();
                let got = pairs.resolve_into(base, r, &mut out);
                match want {
                    Ok(want) => {
                        assert_eq!(got, Ok(want.outcome));
                        assert_eq!(out[mark..], want.href);
                    }
                    Err(e) => assert_eq!((got, out.len()), (Err(e), mark)),
                }
            }
        }
        assert!(out.starts_with("kept|"));
    }
}

#[test]
fn a_result_s_fragment_is_its_parse_s() {
    // `Resolved::fragment_start` finds the first `#`; the result read
    // again under its spec must say the same.
    let mut refs = crate::reference::tests::samples();
    refs.extend(["#", "?#", "a#b#c", "//x#y", "%23#%23"].map(String::from));
    for &spec in Spec::available() {
        for base in BASES.iter().copied().chain(["http://a/b#c#d", ""]) {
            for r in &refs {
                let Ok(got) = resolve(base, r, spec) else { continue };
                let parsed = Reference::parse_with(&got.href, spec);
                assert_eq!(
                    got.fragment(),
                    parsed.fragment(),
                    "{spec} {base:?} {r:?}"
                );
                assert_eq!(got.without_fragment(), without_fragment(&parsed));
            }
        }
    }
}

#[test]
fn strict_mode_refuses_the_bases_the_rules_name() {
    // RFC 1808 §2.3's three schemes, draft 04's two, the generic form the
    // 1996 drafts and RFC 2396 ask of a base, and nothing under RFC 3986.
    let refused = |base: &str, spec: Spec| {
        let strict = Options::default().strict(true);
        matches!(
            Resolver::with_options(base, spec, strict).resolve("g"),
            Err(ResolveError::BaseNotHierarchical { .. })
        )
    };
    for (base, spec, want) in [
        ("mailto:a@b", Spec::Rfc1808, true),
        ("NEWS:x", Spec::Rfc1630, true),
        ("news:x", Spec::Draft04, false),
        ("telnet://h/", Spec::Draft04, true),
        ("news:x", Spec::Draft96, true),
        ("foo:bar", Spec::Draft96Dec, false),
        ("foo://h:x/", Spec::Draft96Dec, true),
        ("foo:bar", Spec::Rfc1808, false),
        ("foo:bar", Spec::Rfc2396, true),
        ("mailto:a@b", Spec::Rfc2396, true),
        ("foo:/bar", Spec::Rfc2396, false),
        ("mailto:a@b", Spec::Rfc3986, false),
    ] {
        assert_eq!(refused(base, spec), want, "{spec} {base}");
    }
}

/// Strict resolution as the API gives it (`resolve`, `resolve_into`,
/// `resolve_parsed`, whatever shortcut each takes) against the general
/// algorithm's steps on a full parse, the path that checks everything: the
/// same result, or the same error with the same position and reason.
pub(super) fn strict_agrees(resolver: &Resolver<'_>, r: &str) {
    let spec = resolver.spec;
    let parsed = Reference::parse_with(r, spec);
    let mut href = String::new();
    let want = resolver
        .resolve_general(&parsed, &mut href)
        .map(|o| Resolved { href, outcome: o });
    let base = resolver.base().map_or("", |b| b.as_str());
    assert_eq!(resolver.resolve(r), want, "{spec} {base:?} {r:?}");
    for via_parse in [false, true] {
        let mut out = String::from("kept|");
        let got = if via_parse {
            resolver.resolve_parsed(&parsed, &mut out)
        } else {
            resolver.resolve_into(r, &mut out)
        };
        let got = got.map(|o| Resolved { href: out.split_off(5), outcome: o });
        assert_eq!(got, want, "{spec} {base:?} {r:?} (parsed: {via_parse})");
    }
}

#[test]
fn strict_resolution_agrees_with_the_steps_on_samples() {
    let strict = Options::default().strict(true);
    let refs = crate::reference::tests::samples();
    for spec in Spec::IETF {
        for base in BASES {
            let resolver = Resolver::with_options(base, spec, strict);
            // Every sample under the specs with a fast path, a share of
            // them under the others (their strict path did not change).
            let step = if fast::SERVED.contains(&spec) { 1 } else { 5 };
            for r in refs.iter().step_by(step) {
                strict_agrees(&resolver, r);
            }
        }
    }
}
