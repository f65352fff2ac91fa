//! Hostile input: the library stays correct and bounded on inputs built to
//! hurt a URL parser — a 10 MB URL, a million `../`, `%`, `@` or `:`, NUL
//! bytes, non-ASCII and right-to-left characters, megabytes of text for the
//! URL finder.
//!
//! Every check is about results, never about time: each test asserts the
//! exact answer where it is known, and where memory is the question it
//! counts the bytes the library allocates (a counting allocator, on this
//! thread only), which is deterministic and independent of the machine.
//! The timings, and the slope of time over input size, are the business of
//! `bench/src/bin/scaling.rs`.
//!
//! Sizes are chosen so that each test runs in well under two seconds in a
//! debug build; where a case is smaller than the figure, a comment
//! says why. A test marked `#[ignore = "bug: …"]` documents a defect that is
//! reported and not yet fixed: it fails today and passes once fixed.

use std::borrow::Cow;

use urlspec::check;
use urlspec::equiv::{self, NormalizedUrl};
use urlspec::escape::{self, Component, EscapeErrorKind};
use urlspec::extract::{Finder, Form, LineIndex};
use urlspec::reference::{Redacted, ViolationKind};
use urlspec::resolve::{
    make_relative, remove_dot_segments, resolve, DotDotAboveRoot, Options,
    ResolveError, Resolver,
};
use urlspec::server::{AuthorityKind, HostKind};
use urlspec::{Reference, ReferenceBuf, Spec};
use urlspec_test_support::alloc::measure;

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// The specs of the issue, named one by one so that a spec added to
/// `Spec::IETF` later does not change what these tests assert.
const SPECS: [Spec; 7] = [
    Spec::Rfc1630,
    Spec::Draft04,
    Spec::Rfc1808,
    Spec::Draft96,
    Spec::Draft96Dec,
    Spec::Rfc2396,
    Spec::Rfc3986,
];

/// The specs whose grammar has a params component (`;` after the path).
fn has_params(spec: Spec) -> bool {
    matches!(
        spec,
        Spec::Draft04 | Spec::Rfc1808 | Spec::Draft96 | Spec::Draft96Dec
    )
}

const MB: usize = 1 << 20;

/// `unit` repeated to at least `bytes` bytes.
fn fill(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes.div_ceil(unit.len()))
}

/// Asserts that `got` is `want`. On failure it says where the two first
/// differ, rather than printing megabytes as `assert_eq!` would.
#[track_caller]
fn same(got: impl AsRef<[u8]>, want: impl AsRef<[u8]>, what: &str) {
    let (got, want) = (got.as_ref(), want.as_ref());
    if got != want {
        let at = got.iter().zip(want).take_while(|(a, b)| a == b).count();
        let around = |b: &[u8]| {
            String::from_utf8_lossy(&b[at..b.len().min(at + 40)]).into_owned()
        };
        panic!(
            "{what}: {} bytes, expected {}; they differ from byte {at}: \
             {:?} instead of {:?}",
            got.len(),
            want.len(),
            around(got),
            around(want)
        );
    }
}

// ---------------------------------------------------------------------------
// A 10 MB URL
// ---------------------------------------------------------------------------

/// A valid URL of about 10 MB under every spec: every component present,
/// the path long.
fn ten_megabyte_url() -> (String, String) {
    let path = format!("/{}", fill("abcdefgh/", 10 * MB));
    let url = format!("http://host.example:8080{path};p=1?q=2#frag");
    (url, path)
}

#[test]
fn a_10_mb_url_parses_losslessly_and_allocation_free() {
    let (url, path) = ten_megabyte_url();
    for spec in SPECS {
        let (r, parse) = measure(|| {
            let r = Reference::parse_with(&url, spec);
            // The getters borrow from the input: nothing is allocated.
            let _ = (r.scheme(), r.net_loc(), r.path(), r.params());
            let _ = (r.query(), r.fragment(), r.server().map(|s| s.host()));
            r
        });
        assert_eq!(parse.total, 0, "{spec}: parsing allocated");
        assert_eq!(r.scheme(), Some("http"), "{spec}");
        assert_eq!(r.net_loc(), Some("host.example:8080"), "{spec}");
        let s = r.server().unwrap();
        assert_eq!(
            (s.host(), s.port_number()),
            (Some("host.example"), Some(8080))
        );
        if has_params(spec) {
            same(r.path(), &path, "path");
            assert_eq!(r.params(), Some("p=1"), "{spec}");
        } else {
            same(r.path(), format!("{path};p=1"), "path");
            assert_eq!(r.params(), None, "{spec}");
        }
        assert_eq!((r.query(), r.fragment()), (Some("q=2"), Some("frag")));

        // Recomposing allocates the one output string, no more.
        let (back, recompose) = measure(|| r.recompose());
        same(&back, &url, "recomposed");
        assert_eq!(recompose.total, url.len(), "{spec}");
        same(r.to_string(), &url, "displayed");
        let owned = ReferenceBuf::parse_with(url.clone(), spec);
        assert!(owned.as_reference() == r, "{spec}: ReferenceBuf differs");

        // Validation reads every byte and allocates nothing. RFC 1630 has
        // no params, and `;` and `=` are reserved in its path and search.
        let (valid, validate) = measure(|| r.is_valid());
        assert_eq!(validate.total, 0, "{spec}: is_valid allocated");
        let violations = r.violations();
        if spec == Spec::Rfc1630 {
            let at: Vec<_> = violations.iter().map(|v| v.position).collect();
            let semicolon = url.find(';').unwrap();
            assert_eq!(at, [semicolon, semicolon + 2, semicolon + 6]);
        } else {
            assert!(valid, "{spec}: {:?}", violations.first());
        }
    }
}

#[test]
fn a_10_mb_url_resolves_in_bounded_memory() {
    let (url, path) = ten_megabyte_url();
    let n = url.len();
    for spec in [Spec::Rfc1808, Spec::Rfc3986] {
        // As a reference with a scheme it is its own result (RFC 3986 also
        // removes dot segments, and there are none).
        let (out, cost) = measure(|| resolve("http://b/", &url, spec));
        same(out.unwrap().href, &url, spec.name());
        assert!(cost.peak <= 2 * n, "{spec}: {cost:?} for {n} bytes");
    }
    // As a relative path: the base's directory, then the path.
    let relative = &path[1..];
    let (out, cost) =
        measure(|| resolve("http://b/c/d", relative, Spec::Rfc3986));
    same(out.unwrap().href, format!("http://b/c/{relative}"), "resolved");
    assert!(cost.peak <= 2 * n, "{cost:?}");
}

#[test]
fn a_10_mb_url_normalizes_in_bounded_memory() {
    let (url, path) = ten_megabyte_url();
    let o = equiv::Options::default();
    let (norm, cost) = measure(|| equiv::normalize(&url, Spec::Rfc3986, &o));
    // The default port of http is 80: 8080 stays; the fragment goes.
    same(
        norm.unwrap(),
        format!("http://host.example:8080{path};p=1?q=2"),
        "normalized",
    );
    assert!(cost.peak <= 4 * url.len(), "{cost:?}");
}

#[test]
fn a_10_mb_url_is_checked_in_bounded_memory() {
    let (url, _) = ten_megabyte_url();
    let (findings, cost) = measure(|| check::check(&url, Spec::Rfc3986));
    // 8080 is not http's port, 80.
    let codes: Vec<_> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["URL001"]);
    // `check` compares the components under every spec (one owned copy of
    // each per spec): about ten times the input, linear.
    assert!(cost.peak <= 32 * url.len(), "{cost:?}");
}

// ---------------------------------------------------------------------------
// A million `../`
// ---------------------------------------------------------------------------

const MILLION: usize = 1_000_000;
const BASE: &str = "http://a/b/c/d;p?q";

/// A million `../` and a `g`.
fn dotdots(n: usize) -> String {
    "../".repeat(n) + "g"
}

#[test]
fn a_million_dotdots_climb_to_the_root_under_rfc3986() {
    let reference = dotdots(MILLION);
    let (out, cost) =
        measure(|| resolve(BASE, &reference, Spec::Rfc3986).unwrap());
    assert_eq!(out.href, "http://a/g");
    // One output buffer sized for base and reference, reduced in place.
    assert!(cost.peak <= reference.len() + BASE.len() + 64, "{cost:?}");

    // A base a million segments deep, climbed all the way.
    let deep = format!("http://a/{}", "x/".repeat(MILLION));
    let out = resolve(&deep, &reference, Spec::Rfc3986).unwrap();
    assert_eq!(out.href, "http://a/g");
    // A million segments pushed and popped one after the other.
    let zigzag = "x/../".repeat(MILLION) + "g";
    let out = resolve(BASE, &zigzag, Spec::Rfc3986).unwrap();
    assert_eq!(out.href, "http://a/b/c/g");
    // `remove_dot_segments` on its own (RFC 3986 §5.2.4).
    let path = format!("/{}{}g", "a/".repeat(MILLION), "../".repeat(MILLION));
    assert_eq!(remove_dot_segments(&path), "/g");
}

#[test]
fn a_million_dotdots_are_kept_above_the_root_under_rfc1808() {
    let reference = dotdots(MILLION);
    let (out, cost) =
        measure(|| resolve(BASE, &reference, Spec::Rfc1808).unwrap());
    // `b` and `c` are cancelled; RFC 1808 keeps the `..` that cannot be.
    let want = format!("http://a/{}g", "../".repeat(MILLION - 2));
    same(&out.href, want, "rfc1808");
    assert!(cost.peak <= 2 * (reference.len() + BASE.len()), "{cost:?}");
}

#[test]
fn many_dotdots_under_every_other_spec() {
    // 200,000 rather than a million: RFC 1630's literal rule and the 1996
    // drafts take about a second per million in a debug build.
    let n = 200_000;
    let reference = dotdots(n);
    let kept = format!("http://a/{}g", "../".repeat(n - 2));
    for (spec, want) in [
        (Spec::Rfc1630, "http://a/g"),
        (Spec::Draft04, "http://a/g"), // `..` cancels `..`
        (Spec::Draft96, kept.as_str()),
        (Spec::Draft96Dec, kept.as_str()),
        (Spec::Rfc2396, kept.as_str()),
    ] {
        let out = resolve(BASE, &reference, spec).unwrap();
        same(&out.href, want, spec.name());
    }
    // RFC 2396 step 6g's other two readings.
    let remove = Options::default().dotdot_above_root(DotDotAboveRoot::Remove);
    let r = Resolver::with_options(BASE, Spec::Rfc2396, remove);
    assert_eq!(r.resolve(&reference).unwrap().href, "http://a/g");
    let error = Options::default().dotdot_above_root(DotDotAboveRoot::Error);
    let r = Resolver::with_options(BASE, Spec::Rfc2396, error);
    assert_eq!(r.resolve(&reference), Err(ResolveError::DotDotAboveRoot));
}

#[test]
fn make_relative_is_linear_in_the_depth_of_the_path() {
    // 2,000 segments: today 64 MB are allocated for 8 KB of input (and
    // 20,000 segments take minutes). The bound is generous: a linear
    // search allocates a small multiple of its input.
    let base = format!("http://a/{}", "x/".repeat(2_000));
    let target = format!("{base}y");
    let (rel, cost) = measure(|| make_relative(&base, &target, Spec::Rfc3986));
    assert_eq!(rel.as_deref(), Some("y"));
    let input = base.len() + target.len();
    assert!(cost.total <= 64 * input, "{cost:?} for {input} bytes of input");
}

#[test]
fn make_relative_of_a_long_but_shallow_path() {
    // One long segment: a handful of candidates, each read once.
    let base = "http://a/b/c";
    let target = format!("http://a/b/{}", "x".repeat(MB));
    let (rel, cost) = measure(|| make_relative(base, &target, Spec::Rfc3986));
    same(rel.unwrap(), &target["http://a/b/".len()..], "relative");
    assert!(cost.total <= 64 * target.len(), "{cost:?}");
}

// ---------------------------------------------------------------------------
// A million `%`
// ---------------------------------------------------------------------------

#[test]
fn a_million_percent_signs() {
    let text = "%".repeat(MILLION);

    // Strict unescaping stops at the first `%`, with its position.
    for err in [
        escape::unescape(&text).unwrap_err(),
        escape::unescape_str(&text).unwrap_err(),
        escape::unescape_form(&text).unwrap_err(),
    ] {
        assert_eq!(
            (err.position, err.kind),
            (0, EscapeErrorKind::InvalidEscape)
        );
        assert_eq!(err.found, "%%%");
    }
    // Lenient decoding keeps every one and says where each was.
    let lenient = escape::unescape_lenient(&text);
    same(&lenient.bytes, &text, "lenient");
    assert!(lenient.invalid.iter().copied().eq(0..MILLION));
    // A valid escape at the very end is still decoded.
    let tail = format!("{}41", "%".repeat(MILLION - 1));
    let lenient = escape::unescape_lenient(&tail);
    assert_eq!(lenient.bytes.len(), MILLION - 1);
    assert_eq!(lenient.bytes.last(), Some(&b'A'));
    assert_eq!(lenient.invalid.len(), MILLION - 2);

    // Escaping: each `%` becomes `%25`, and that round-trips.
    let escaped = escape::escape(&text, Component::Query, Spec::Rfc3986);
    same(escaped.as_bytes(), "%25".repeat(MILLION), "escaped");
    same(escape::unescape(&escaped).unwrap(), &text, "unescaped");
    let once =
        escape::escape_unsafe(&text, Component::PathSegment, Spec::Rfc1808);
    same(once.as_bytes(), escaped.as_bytes(), "escape_unsafe");
    assert!(matches!(
        escape::escape_unsafe(&once, Component::PathSegment, Spec::Rfc1808),
        Cow::Borrowed(_)
    ));
}

#[test]
fn a_million_percent_signs_in_a_url() {
    let url = format!("http://a/{}", "%".repeat(MILLION));
    let r = Reference::parse_with(&url, Spec::Rfc3986);
    same(r.recompose(), &url, "recomposed");
    assert!(!r.is_valid());
    // One violation per `%`, at its position; one `Violation` each is the
    // only memory used.
    let (violations, cost) = measure(|| r.violations());
    assert_eq!(violations.len(), MILLION);
    for (i, v) in violations.iter().enumerate() {
        assert_eq!(
            (v.position, v.kind),
            (9 + i, ViolationKind::InvalidEscape)
        );
    }
    let per = std::mem::size_of::<urlspec::Violation>();
    assert!(cost.peak <= 2 * MILLION * per, "{cost:?}");
    // Not comparable (RFC 1630, Example 3), at the first `%`.
    let err = equiv::normalize(&url, Spec::Rfc3986, &Default::default())
        .unwrap_err();
    assert_eq!((err.position, err.found.as_str()), (9, "%%%"));
    // Only line-oriented schemes care about escapes in `check`.
    assert!(check::check(&url, Spec::Rfc3986).is_empty());
}

// ---------------------------------------------------------------------------
// A million `@` or `:` in the net_loc
// ---------------------------------------------------------------------------

#[test]
fn a_million_at_signs_split_at_the_last_one() {
    let url = format!("http://{}host/", "@".repeat(MILLION));
    for spec in SPECS {
        let r = Reference::parse_with(&url, spec);
        let s = r.server().unwrap();
        if spec == Spec::Rfc2396 {
            // Not a `server` (`userinfo` has no `@`): a `reg_name` (AS7).
            assert_eq!(s.kind(), AuthorityKind::RegName);
            assert_eq!((s.user(), s.host()), (None, None));
            continue;
        }
        // The user information ends at the last `@`.
        assert_eq!(s.user().map(str::len), Some(MILLION - 1), "{spec}");
        assert!(s.user().unwrap().bytes().all(|b| b == b'@'));
        assert_eq!(
            (s.password(), s.host(), s.port()),
            (None, Some("host"), None)
        );
    }
    // RFC 3986: every `@` of the user is a violation (`userinfo` has none).
    let r = Reference::parse_with(&url, Spec::Rfc3986);
    let v = r.violations();
    assert!(v.iter().map(|v| v.position).eq(7..7 + MILLION - 1));

    let findings = check::check(&url, Spec::Rfc3986);
    let several = findings.iter().find(|f| f.code == "URL006").unwrap();
    assert!(several.message.starts_with("1000000 `@` in the authority"));
    assert!(several.message.contains("(host `host`)"));
    assert_eq!(several.span, 7..7 + MILLION + 4);
}

#[test]
fn a_million_colons_in_the_net_loc() {
    // No `@`: the port starts after the last `:`.
    let url = format!("http://{}/", ":".repeat(MILLION));
    let r = Reference::parse_with(&url, Spec::Rfc3986);
    let s = r.server().unwrap();
    assert_eq!(s.host().map(str::len), Some(MILLION - 1));
    assert_eq!((s.port(), s.port_number()), (Some(""), None));
    assert_eq!(s.host_kind(), HostKind::Invalid);
    assert_eq!(r.violations()[0].position, 7);
    same(r.recompose(), &url, "recomposed");

    // Before an `@`: the user ends at the first `:`, the rest is the
    // password, which `Redacted` hides whatever its length.
    let url = format!("ftp://u{}@h/f", ":".repeat(MILLION));
    for spec in SPECS {
        let r = Reference::parse_with(&url, spec);
        let s = r.server().unwrap();
        if spec == Spec::Rfc2396 {
            // A password cannot hold `:` there: a `reg_name` (AS7).
            assert_eq!(s.kind(), AuthorityKind::RegName);
            continue;
        }
        assert_eq!(s.user(), Some("u"), "{spec}");
        assert_eq!(s.password().map(str::len), Some(MILLION - 1), "{spec}");
        assert_eq!(s.host(), Some("h"), "{spec}");
        assert_eq!(
            Redacted::new(&r).to_string(),
            "ftp://u:****@h/f",
            "{spec}"
        );
        assert!(!format!("{:?}", Redacted::new(&r)).contains("::"));
    }

    // Alternating `:` and `@`: the user information ends at the last `@`,
    // the user at the first `:`, and the port starts after the last `:`.
    let url = format!("http://{}h:80/", "a:b@".repeat(MILLION / 4));
    let r = Reference::parse_with(&url, Spec::Rfc1808);
    let s = r.server().unwrap();
    assert_eq!(
        (s.user(), s.host(), s.port()),
        (Some("a"), Some("h"), Some("80"))
    );
    assert_eq!(s.userinfo().map(str::len), Some(MILLION - 1));
    assert_eq!(s.password().map(str::len), Some(MILLION - 3));
}

// ---------------------------------------------------------------------------
// NUL bytes
// ---------------------------------------------------------------------------

#[test]
fn nul_bytes_are_violations_at_their_positions() {
    let url = "http://a/b\0c?d\0#\0";
    for spec in SPECS {
        let r = Reference::parse_with(url, spec);
        assert_eq!(r.recompose(), url, "{spec}");
        let v = r.violations();
        let at: Vec<_> = v.iter().map(|v| v.position).collect();
        assert_eq!(at, [10, 14, 16], "{spec}");
        for v in &v {
            assert!(
                matches!(v.kind, ViolationKind::Disallowed { ch: '\0', .. }),
                "{spec}: {v:?}"
            );
            assert!(v.to_string().contains("%00"), "{spec}: {v}");
        }
    }
    // In the host.
    let r = Reference::parse_with("http://a\0b/", Spec::Rfc3986);
    assert_eq!(r.server().unwrap().host(), Some("a\0b"));
    assert_eq!(r.violations()[0].position, 7);

    // A million of them: one violation each.
    let url = format!("http://a/{}", "\0".repeat(MILLION));
    let r = Reference::parse_with(&url, Spec::Rfc1808);
    let v = r.violations();
    assert_eq!(v.len(), MILLION);
    assert!(v.iter().map(|v| v.position).eq(9..9 + MILLION));

    // `check`: one raw-control finding for the run of 10,000 NULs.
    let url = format!("http://a/{}", "\0".repeat(10_000));
    let findings = check::check(&url, Spec::Rfc3986);
    let nul: Vec<_> = findings.iter().filter(|f| f.code == "URL007").collect();
    assert_eq!(nul.len(), 1);
    assert_eq!(nul[0].span, 9..10_009);

    // On the wire: refused raw or escaped for line-oriented schemes.
    let e = escape::decode_for_wire("a\0b", "ftp").unwrap_err();
    assert_eq!(e.position, 1);
    let e = escape::decode_for_wire("a%00b", "gopher").unwrap_err();
    assert_eq!(e.position, 1);
    assert_eq!(
        escape::decode_for_wire("a%00b", "http").unwrap(),
        &b"a\0b"[..]
    );
    let findings = check::check("gopher://h/0a%00b", Spec::Rfc1808);
    assert_eq!(findings[0].code, "URL002");
    assert_eq!(findings[0].span, 13..16);
}

#[test]
fn check_memory_is_linear_in_the_findings() {
    // `check` reports each run of one raw control character, space or
    // backslash once, its span the whole run: findings grow with the runs,
    // not the bytes.
    let n = 10_000;
    for unit in ["\0", " ", "\t", "\\"] {
        let url = format!("http://a/{}", unit.repeat(n));
        let (findings, cost) = measure(|| check::check(&url, Spec::Rfc3986));
        let runs: Vec<_> =
            findings.iter().filter(|f| f.span.start >= 9).collect();
        assert_eq!(runs.len(), 1, "{unit:?}: {findings:?}");
        assert_eq!(runs[0].span, 9..9 + n, "{unit:?}");
        assert!(runs[0].message.contains(&format!("({n} in a row)")));
        assert!(cost.peak <= 1024 * n, "{unit:?}: {cost:?}");
    }
    // Alternating characters are separate runs.
    let url = format!("http://a/{}", " \t".repeat(n / 2));
    let findings = check::check(&url, Spec::Rfc3986);
    assert_eq!(findings.iter().filter(|f| f.code == "URL007").count(), n);
}

#[test]
fn check_memory_stays_near_the_input_size() {
    let n = 10_000;
    let url = format!("http://a/{}", " ".repeat(n));
    let (findings, cost) = measure(|| check::check(&url, Spec::Rfc3986));
    assert!(!findings.is_empty());
    assert!(cost.peak <= 64 * url.len(), "{cost:?} for {} bytes", url.len());
}

#[test]
fn check_messages_never_quote_a_password() {
    for url in ["http://user:hunter2@a?@b/", "http://user:hunter2@h_x/"] {
        for f in check::check(url, Spec::Rfc3986) {
            assert!(
                !f.message.contains("hunter2"),
                "{}: {}",
                f.code,
                f.message
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Non-ASCII and right-to-left characters
// ---------------------------------------------------------------------------

#[test]
fn non_ascii_and_rtl_characters_are_violations_and_round_trip() {
    // Hebrew alef, RIGHT-TO-LEFT OVERRIDE, Arabic alef, an emoji, and a
    // POP DIRECTIONAL FORMATTING in the fragment.
    let url = "http://a/\u{5D0}\u{202E}b?\u{627}#\u{1F600}\u{202C}";
    let expected: Vec<(usize, char)> =
        url.char_indices().filter(|(_, c)| !c.is_ascii()).collect();
    assert_eq!(expected.len(), 5);
    for spec in SPECS {
        let r = Reference::parse_with(url, spec);
        assert_eq!(r.recompose(), url, "{spec}");
        assert_eq!(r.path(), "/\u{5D0}\u{202E}b", "{spec}");
        assert_eq!(r.query(), Some("\u{627}"), "{spec}");
        assert_eq!(r.fragment(), Some("\u{1F600}\u{202C}"), "{spec}");
        let got: Vec<(usize, char, Option<&str>)> = r
            .violations()
            .iter()
            .map(|v| match v.kind {
                ViolationKind::Disallowed { ch, class, .. } => {
                    (v.position, ch, class)
                }
                other => panic!("{spec}: {other:?}"),
            })
            .collect();
        let class = match spec {
            Spec::Draft96 | Spec::Draft96Dec => "national",
            _ => "non-ASCII",
        };
        let want: Vec<_> =
            expected.iter().map(|&(i, c)| (i, c, Some(class))).collect();
        assert_eq!(got, want, "{spec}");
    }
    // Escaped, they are valid, and they come back exactly.
    for spec in SPECS {
        let escaped = escape::escape(url, Component::Fragment, spec);
        assert!(escaped.is_ascii());
        assert_eq!(escape::unescape_str(&escaped).unwrap(), url);
    }
    // A non-ASCII host is no host under any spec.
    for spec in SPECS {
        let r = Reference::parse_with("http://b\u{FC}cher.example/", spec);
        assert_eq!(r.server().unwrap().host(), Some("b\u{FC}cher.example"));
        assert!(!r.is_valid(), "{spec}");
        assert!(r.violations().iter().all(|v| v.position >= 7), "{spec}");
    }
}

#[test]
fn a_megabyte_of_two_byte_characters() {
    let url = format!("http://a/{}", "\u{E9}".repeat(MB / 2));
    let r = Reference::parse_with(&url, Spec::Rfc3986);
    let v = r.violations();
    assert_eq!(v.len(), MB / 2);
    // Positions are byte offsets, on character boundaries.
    assert!(v.iter().map(|v| v.position).eq((9..9 + MB).step_by(2)));
    // Normalization escapes each, once, in upper case.
    let norm =
        equiv::normalize(&url, Spec::Rfc3986, &Default::default()).unwrap();
    same(&norm, format!("http://a/{}", "%C3%A9".repeat(MB / 2)), "normalized");
    let again =
        equiv::normalize(&norm, Spec::Rfc3986, &Default::default()).unwrap();
    same(again, &norm, "normalized twice");
}

// ---------------------------------------------------------------------------
// Password redaction
// ---------------------------------------------------------------------------

#[test]
fn passwords_stay_hidden_in_redacted_and_normalized_urls() {
    let url = "ftp://user:hunter2@h/f";
    let r = Reference::parse_with(url, Spec::Rfc3986);
    assert_eq!(Redacted::new(&r).to_string(), "ftp://user:****@h/f");
    assert!(!format!("{:?}", Redacted::new(&r)).contains("hunter2"));
    let key =
        NormalizedUrl::new(url, Spec::Rfc3986, &Default::default()).unwrap();
    assert!(!format!("{key:?}").contains("hunter2"));
    // A 10 MB password.
    let url = format!("ftp://user:{}@h/f", "p".repeat(10 * MB));
    let r = Reference::parse_with(&url, Spec::Rfc3986);
    assert_eq!(Redacted::new(&r).to_string(), "ftp://user:****@h/f");
}

#[test]
fn rfc2396_reg_name_authorities_keep_their_password_hidden() {
    // `h_x` is no hostname, and RFC 2396's password takes no `:`: both
    // authorities fall back to `reg_name` (AS7).
    for (url, shown) in [
        ("ftp://user:secret@h_x/f", "ftp://user:****@h_x/f"),
        ("ftp://user:sec:ret@h/f", "ftp://user:****@h/f"),
    ] {
        let r = Reference::parse_with(url, Spec::Rfc2396);
        assert_eq!(Redacted::new(&r).to_string(), shown);
        let findings = check::check(url, Spec::Rfc2396);
        assert!(findings.iter().any(|f| f.code == "URL003"), "{url}");
    }
}

#[test]
fn a_url_that_cannot_be_compared_keeps_its_password_hidden() {
    let err = equiv::normalize(
        "ftp://user:hunter2@h/%zz",
        Spec::Rfc3986,
        &Default::default(),
    )
    .unwrap_err();
    assert!(!err.to_string().contains("hunter2"), "{err}");
    assert!(!format!("{err:?}").contains("hunter2"), "{err:?}");
}

// ---------------------------------------------------------------------------
// The URL finder on megabytes of text
// ---------------------------------------------------------------------------

/// 10 MB of `unit`, as bytes.
fn ten_mb_of(unit: &str) -> Vec<u8> {
    fill(unit, 10 * MB).into_bytes()
}

#[test]
fn finder_on_10_mb_of_delimiters() {
    let finder = Finder::new();
    for unit in ["<", "\"", ":"] {
        let text = ten_mb_of(unit);
        assert_eq!(finder.find_iter(&text).count(), 0, "{unit:?}");
    }
    // `http:http:…`: one bare URL, the whole text but its last `:`.
    let text = ten_mb_of("http:");
    let all: Vec<_> = finder.find_iter(&text).collect();
    assert_eq!(all.len(), 1);
    assert_eq!(
        (all[0].span(), all[0].form()),
        (0..text.len() - 1, Form::Bare)
    );
}

#[test]
fn finder_on_megabytes_of_candidates_that_fail() {
    // 1 MB each rather than 10: every anchor here is a candidate that is
    // read and dropped, 0.1 to 0.5 µs a byte in a debug build, and 2 µs
    // for `"x"x…`, whose every quote is tried as a relative reference
    // (release: 5 to 35 ns a byte, linear; see the scaling benchmark).
    let finder = Finder::new().relative(true);
    for (unit, bytes) in [
        ("<URL:", MB),
        ("<\"", MB),
        ("http: ", MB),
        ("a:", MB),
        ("<a", MB),
        ("\"x", MB / 4),
    ] {
        let text = fill(unit, bytes);
        assert_eq!(finder.find_iter(&text).count(), 0, "{unit:?}");
    }
}

#[test]
fn finder_on_10_mb_of_text_with_urls() {
    // A URL in about every 90 bytes of prose, the four forms in turn.
    let forms = [
        ("<URL:http://a.example/", ">", Form::UrlPrefixed),
        ("<http://b.example/", ">", Form::Angle),
        ("\"http://c.example/", "\"", Form::Quoted),
        ("see http://d.example/", ".", Form::Bare),
    ];
    let mut text = String::with_capacity(10 * MB + 100);
    let mut want = Vec::new();
    let mut k = 0;
    while text.len() < 10 * MB {
        let (open, close, form) = forms[k % forms.len()];
        let start = text.len() + usize::from(form == Form::Bare) * 4;
        text.push_str(open);
        let url_start = text.len() - open.len() + open.find("http").unwrap();
        text.push_str(&format!("{k:08}"));
        let url = text[url_start..].to_owned();
        text.push_str(close);
        let end = if form == Form::Bare { text.len() - 1 } else { text.len() };
        want.push((start..end, url, form));
        text.push_str(&" lorem ipsum dolor sit amet ".repeat(2));
        text.push('\n');
        k += 1;
    }
    let found: Vec<_> = Finder::new().find_iter(&text).collect();
    assert_eq!(found.len(), want.len());
    for (f, (span, url, form)) in found.iter().zip(&want) {
        assert_eq!(
            (&f.span(), f.as_str(), f.form()),
            (span, url.as_str(), *form)
        );
        // Nothing to remove: the URL is borrowed from the text.
        assert!(matches!(f.clone().into_url(), Cow::Borrowed(_)));
    }
    // Line numbers, looked up in order, for every result.
    let index = LineIndex::new(&text);
    assert_eq!(index.lines(), want.len() + 1);
    for (n, f) in found.iter().enumerate() {
        assert_eq!(index.line_col(f.span().start).0, n + 1);
    }
}

#[test]
fn finder_on_a_10_mb_url_and_the_bracket_cap() {
    // Between brackets, at most 8 KiB: exactly 8192 bytes is a URL.
    let fits = format!("<http://a/{}>", "x".repeat(8192 - "http://a/".len()));
    let f = Finder::new().bare(false).find(&fits).unwrap();
    assert_eq!((f.form(), f.as_str().len()), (Form::Angle, 8192));
    let over = format!("<http://a/{}>", "x".repeat(8193 - "http://a/".len()));
    let f = Finder::new().bare(false).find(&over).unwrap();
    assert!(f.too_long() && f.as_str().is_empty());

    // A 10 MB URL in brackets: too long for them, reported as such, and
    // not cut into a bare URL at its first line break.
    let url =
        format!("http://a/{}\n{}", "x".repeat(5 * MB), "y".repeat(5 * MB));
    let text = format!("<URL:{url}> http://b/");
    let found: Vec<_> = Finder::new().find_iter(&text).collect();
    assert_eq!(found.len(), 2);
    assert!(found[0].too_long());
    assert_eq!(
        (found[0].form(), found[0].span()),
        (Form::UrlPrefixed, 0..url.len() + 6)
    );
    assert_eq!(found[0].url_span(), 5..5 + url.len());
    assert_eq!(found[1].as_str(), "http://b/");
    // A 10 MB URL in quotes is taken as prose: the bare URL is found.
    let url = format!("http://a/{}", "x".repeat(10 * MB));
    let text = format!("\"{url}\"");
    assert_eq!(Finder::new().find(&text).unwrap().form(), Form::Bare);
}

#[test]
fn finder_on_invalid_utf8_and_nul_bytes() {
    // Bytes that are not UTF-8 around URLs: only the URLs are reported.
    let mut text = Vec::new();
    for i in 0..100_000 {
        text.extend_from_slice(b"\xff\xfe\0 <URL:http://a/");
        text.extend_from_slice(i.to_string().as_bytes());
        text.extend_from_slice(b"> \xc3");
    }
    let found: Vec<_> = Finder::new().find_iter(&text).collect();
    assert_eq!(found.len(), 100_000);
    assert_eq!(found[99_999].as_str(), "http://a/99999");
    // A NUL or an invalid byte inside brackets: not a URL, and the bare
    // URL before it is cut there.
    let text = b"<http://a/b\0c> <http://a/\xffd>";
    let urls: Vec<_> = Finder::new()
        .find_iter(&text[..])
        .map(|f| f.as_str().to_owned())
        .collect();
    assert_eq!(urls, ["http://a/b", "http://a/"]);
}
