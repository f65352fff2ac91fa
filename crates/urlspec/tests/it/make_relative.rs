//! `make_relative` gives the shortest reference: on generated pairs under
//! every spec (WHATWG through the public `resolve`, when the build has
//! it), its answer is the first, by the documented order, of the shortest
//! candidates an exhaustive search finds among the candidate forms: the
//! empty reference, the target's `#f`, `?q`, `;p` tails, every number of
//! `../` (plain or behind `./`) before every suffix of the target's path
//! segments, `.`/`..` for a directory, what follows the base in the
//! target, the target's `/path`, its `//authority…`, and the target itself.

use proptest::prelude::*;
use urlspec::reference::Part;
use urlspec::resolve::{make_relative, resolve};
use urlspec::{Reference, Spec};

/// Every spec this build resolves under.
fn specs() -> Vec<Spec> {
    Spec::IETF_AND_WHATWG.into_iter().filter(|s| s.is_available()).collect()
}

/// Every candidate of the forms the docs of `make_relative` list, with
/// every count of `../` up to beyond the base's depth.
fn exhaustive(base: &str, target: &str, spec: Spec) -> Vec<String> {
    let t = Reference::parse_with(target, spec);
    let mut out = vec![String::new()];
    let start = |part| t.span(part).map(|s| s.start);
    for part in [Part::Fragment, Part::Query, Part::Params] {
        if let Some(s) = start(part) {
            out.push(target[s - 1..].to_owned());
        }
    }
    let path_start = start(Part::Path).unwrap_or(0);
    let path_end = t.span(Part::Path).map_or(path_start, |s| s.end);
    let after = &target[path_end..];
    out.push(target[path_start..].to_owned());
    if let Some(s) = start(Part::NetLoc) {
        out.push(target[s - 2..].to_owned());
    }
    out.push(target.to_owned());
    // What follows the base (without its query and fragment) in the target.
    let b = Reference::parse_with(base, spec);
    let base_end = match (b.span(Part::Query), b.span(Part::Fragment)) {
        (Some(q), _) => q.start - 1,
        (None, Some(f)) => f.start - 1,
        (None, None) => base.len(),
    };
    if let Some(rest) = target.strip_prefix(&base[..base_end]) {
        out.push(rest.to_owned());
    }
    // Climbs to the path as written, and to the path without the `/.` a
    // serializer puts before one that starts with `//` (make_relative's
    // own rule, which `resolve` must then confirm).
    let unguarded =
        t.path().strip_prefix("/.").filter(|p| p.starts_with("//"));
    let depth = base.matches('/').count() + 2;
    for path in [Some(t.path()), unguarded].into_iter().flatten() {
        climbs(path, after, depth, &mut out);
    }
    out
}

/// Every climb of `ups` directories followed by a tail of `path`'s
/// segments and `after`, with and without `./`, and the dot forms.
fn climbs(path: &str, after: &str, depth: usize, out: &mut Vec<String>) {
    let segs: Vec<&str> = path.split('/').collect();
    for ups in 0..=depth {
        for j in 0..=segs.len() {
            let rest = segs[j..].join("/");
            let cand = format!("{}{rest}{after}", "../".repeat(ups));
            out.push(format!("./{cand}"));
            out.push(cand);
            if rest.is_empty() {
                let dots = match ups {
                    0 => ".".to_owned(),
                    n => "../".repeat(n - 1) + "..",
                };
                out.push(format!("{dots}{after}"));
            }
        }
    }
}

/// The documented order among candidates of one length: empty, `#`, `?`,
/// `;`, relative path (fewer `..` segments, then without `./`), `/`,
/// `//`, absolute; then byte order.
fn rank(cand: &str, spec: Spec) -> (usize, u8, usize, bool, String) {
    let form = if cand.is_empty() {
        0
    } else if cand.starts_with('#') {
        1
    } else if cand.starts_with('?') {
        2
    } else if cand.starts_with(';') {
        3
    } else if cand.starts_with("//") {
        6
    } else if cand.starts_with('/') {
        5
    } else if Reference::parse_with(cand, spec).has_scheme() {
        7
    } else {
        4
    };
    let path = cand.split(['?', ';', '#']).next().unwrap_or("");
    let dotdots = path.split('/').filter(|s| *s == "..").count();
    (cand.len(), form, dotdots, path.starts_with("./"), cand.to_owned())
}

/// What the exhaustive search picks.
fn shortest(base: &str, target: &str, spec: Spec) -> Option<String> {
    exhaustive(base, target, spec)
        .into_iter()
        .filter(|c| resolve(base, c, spec).is_ok_and(|r| r.href == target))
        .min_by_key(|c| rank(c, spec))
}

fn base_url() -> impl Strategy<Value = String> {
    let seg =
        prop::sample::select(vec!["a", "b", "B", ".", "..", "", "g;x", "ü"]);
    (
        prop::sample::select(vec!["http", "HTTP", "foo"]),
        prop::option::of(prop::sample::select(vec![
            "a", "A", "a:80", "u@a", "",
        ])),
        prop::collection::vec(seg, 0..4),
        any::<bool>(),
        prop::option::of("[a-z]{0,2}"),
        prop::option::of("[a-z]{0,1}"),
    )
        .prop_map(|(scheme, host, segs, rooted, query, frag)| {
            let mut s = format!("{scheme}:");
            if let Some(h) = host {
                s.push_str("//");
                s.push_str(h);
            }
            if rooted || (host.is_some() && !segs.is_empty()) {
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
    let seg = prop::sample::select(vec!["g", "a", "b", ".", "..", "", "ý"]);
    (
        prop::sample::select(vec!["", "/", "//a/", "//x/", "./", "../"]),
        prop::collection::vec(seg, 0..4),
        prop::option::of("[a-z]{0,2}"),
        prop::option::of("[a-z]{0,1}"),
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
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn make_relative_is_the_shortest_candidate(
        base in base_url(),
        r in reference(),
        other in base_url(),
        spec in prop::sample::select(specs()),
    ) {
        // A target some reference reaches, and one that may be anywhere.
        let reached = resolve(&base, &r, spec).map(|x| x.href);
        for target in reached.into_iter().chain([other]) {
            let got = make_relative(&base, &target, spec);
            let want = shortest(&base, &target, spec);
            prop_assert_eq!(
                &got, &want,
                "{} base {:?} target {:?}", spec, base, target
            );
        }
    }
}

#[test]
fn the_issue_cases() {
    let base = "http://a/b/c/d;p?q";
    for spec in specs() {
        let want = if spec == Spec::Rfc1630 { "../" } else { ".." };
        let got = make_relative(base, "http://a/b/", spec);
        assert_eq!(got.as_deref(), Some(want), "{spec}");
    }
    // RFC 1630's rule .4 turns `/.` into nothing.
    let got = make_relative("http://a/b", "http://a", Spec::Rfc1630);
    assert_eq!(got.as_deref(), Some("."));
    // RFC 1630's slash-run rule: `//a/` keeps what precedes the base's
    // last run of two slashes, the empty authority and `/.` included.
    let got = make_relative("http:///.//a", "http:///.//a/", Spec::Rfc1630);
    assert_eq!(got.as_deref(), Some("//a/"));
    if Spec::Whatwg.is_available() {
        let w = |b, t| make_relative(b, t, Spec::Whatwg);
        // The base as the standard parses it: host lower-cased, the
        // default port dropped (its path keeps its case).
        let got = w(
            "HTTP://WWW.EXAMPLE.COM/FOO/BAR/",
            "http://www.example.com/foo/bar/",
        );
        assert_eq!(got.as_deref(), Some("/foo/bar/"));
        let got = w(
            "HTTP://WWW.EXAMPLE.COM/FOO/BAR/",
            "http://www.example.com/FOO/x",
        );
        assert_eq!(got.as_deref(), Some("../x"));
        assert_eq!(w("http://a:80/b/c", "http://a/b/d").as_deref(), Some("d"));
        // The serializer writes `/.` before a path starting with `//`; the
        // climb to that path without it is as short as `/.//g` and ranks
        // first.
        assert_eq!(w("foo:/g;x/a", "foo:/.//g").as_deref(), Some("..//g"));
    }
}
