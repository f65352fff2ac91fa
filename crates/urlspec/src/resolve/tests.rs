//! Unit tests of the resolution API and its options.

use super::*;

#[test]
fn resolve_into_appends_what_resolve_gives() {
    let mut refs = crate::reference::tests::samples();
    refs.extend(
        ["", "#", "?", "//x", "/", "../../..", "a:b"].map(String::from),
    );
    for spec in Spec::ALL {
        for base in BASES.iter().copied().chain([""]) {
            for r in &refs {
                let mut out = String::from("kept|");
                let got = resolve_into(base, r, spec, &mut out);
                match resolve(base, r, spec) {
                    Ok(want) => {
                        assert_eq!(out, alloc::format!("kept|{}", want.href));
                        let got = got.unwrap();
                        assert_eq!(
                            (
                                got.same_document,
                                got.taken_as_absolute,
                                got.note
                            ),
                            (
                                want.same_document,
                                want.taken_as_absolute,
                                want.note
                            )
                        );
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
    assert_eq!("like1808".parse(), Ok(Rfc1630Dots::Like1808));
    assert!("nope"
        .parse::<DotDotAboveRoot>()
        .unwrap_err()
        .contains("keep, remove, error"));
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
                let got = resolver
                    .resolve(&r)
                    .map(|x| (x.href, x.same_document, x.taken_as_absolute));
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
    for spec in Spec::ALL {
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

/// Strict resolution as the API gives it (`resolve`, `resolve_into`,
/// `resolve_parsed`, whatever shortcut each takes) against the general
/// algorithm's steps on a full parse, the path that checks everything: the
/// same result, or the same error with the same position and reason.
pub(super) fn strict_agrees(resolver: &Resolver<'_>, r: &str) {
    let spec = resolver.spec;
    let parsed = Reference::parse_with(r, spec);
    let mut href = String::new();
    let want =
        resolver.resolve_general(&parsed, &mut href).map(|o| Resolved {
            href,
            same_document: o.same_document,
            taken_as_absolute: o.taken_as_absolute,
            note: o.note,
        });
    let base = resolver.base().map_or("", |b| b.as_str());
    assert_eq!(resolver.resolve(r), want, "{spec} {base:?} {r:?}");
    for via_parse in [false, true] {
        let mut out = String::from("kept|");
        let got = if via_parse {
            resolver.resolve_parsed(&parsed, &mut out)
        } else {
            resolver.resolve_into(r, &mut out)
        };
        let got = got.map(|o| Resolved {
            href: out.split_off(5),
            same_document: o.same_document,
            taken_as_absolute: o.taken_as_absolute,
            note: o.note,
        });
        assert_eq!(got, want, "{spec} {base:?} {r:?} (parsed: {via_parse})");
    }
}

#[test]
fn strict_resolution_agrees_with_the_steps_on_samples() {
    let strict = Options::default().strict(true);
    let refs = crate::reference::tests::samples();
    for spec in Spec::ALL {
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
