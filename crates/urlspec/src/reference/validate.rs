//! Strict validation of a parsed reference against its spec's grammar.
//!
//! Parsing never fails; this module answers whether the reference is in the
//! spec's language, and if not, where and why, one [`Violation`] per
//! offending place.

use super::table::{
    self, AUTH, AUTH_GO, FRAGMENT, NOT_SLASHES, NO_COLON, NO_PCT, QUERY,
    SEGMENT, TAIL_CLASSES,
};
use super::{Reference, NONE};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, ServerGrammar, Spec};
pub(crate) use crate::violation::{Checker, Sink};
pub use crate::violation::{Violation, ViolationKind};

/// `is_valid()` from what the splitter noted ([`Meta::fits`](super::Meta)),
/// when that settles it; `None` when only [`check`] can tell.
///
/// Each test below mirrors one part of [`check`]. The class flags of the
/// path, params, query and fragment are exactly the classes [`check`]
/// applies to them (the cases where they are not are left to [`check`]),
/// and a byte outside its class that is not `%` is always reported, so a
/// missing flag settles the answer either way.
#[inline]
pub(crate) fn quick(r: &Reference<'_>) -> Option<bool> {
    // The common case in one test: an absolute URL with a `//` net_loc
    // that is a plain registered name (or RFC 1808's opaque net_loc), every
    // component in its class and no `%`, under a spec whose other checks
    // (below) cannot apply to such a URL unless its path starts with `//`.
    const PLAIN: u16 = AUTH | TAIL_CLASSES | NO_PCT | NOT_SLASHES;
    let m = r.meta();
    if m.fits & PLAIN == PLAIN
        && m.scheme_end != NONE
        && m.net_loc_start != NONE
        && matches!(r.spec(), Spec::Rfc1808 | Spec::Draft04 | Spec::Rfc3986)
    {
        return Some(true);
    }
    quick_rest(r)
}

/// [`quick`] for every other reference.
#[inline(never)]
fn quick_rest(r: &Reference<'_>) -> Option<bool> {
    let spec = r.spec();
    let rules = spec.rules();
    let m = r.meta();
    let input = r.as_str().as_bytes();
    let path = &input[m.path_start..m.path_end];
    let rooted = path.first() == Some(&b'/');
    let opaque_2396 = rules.server == ServerGrammar::Server2396
        && m.scheme_end != NONE
        && m.net_loc_start == NONE
        && !rooted;
    let relative_first = m.scheme_end == NONE && m.net_loc_start == NONE;
    let g = &rules.grammar;
    if spec == Spec::Whatwg
        || opaque_2396
        || (relative_first && g.first_segment.with(b':') != g.segment)
    {
        // Classes of their own: RFC 2396's opaque part, and a first
        // segment of a relative path whose class differs from the path's
        // (no spec has one today).
        return None;
    }
    // The splitter ANDs the whole word in which the net_loc and the path
    // end (`table::scan`), and the path's flags may include the net_loc's
    // bytes, so these two class flags may have been cleared by bytes of
    // other components: look at such a component again on its own.
    let t = table::of(spec);
    let mut fits = m.fits;
    // (The net_loc's flag is looked at again where it is used, below.)
    if fits & SEGMENT == 0
        && !table::spill_exact(spec)
        && table::classes(path, t) & SEGMENT != 0
    {
        fits |= SEGMENT;
    }
    if fits & TAIL_CLASSES != TAIL_CLASSES {
        return Some(false);
    }
    // Every `%` starts an escape (components end at delimiters, which are
    // not hex digits, so no escape straddles two).
    if fits & NO_PCT == 0 && !escapes_valid(input) {
        return None;
    }
    // The first segment of a relative path: no `:` where it would read as
    // a scheme (AS12).
    if relative_first && rules.scheme == SchemeRule::LetterFirst {
        let first = &path[..memchr::memchr(b'/', path).unwrap_or(path.len())];
        if first.contains(&b':') {
            return Some(false);
        }
    }
    // `fsegment = 1*pchar`: no path starting with an empty segment.
    if matches!(
        rules.server,
        ServerGrammar::OpaqueNetLoc | ServerGrammar::Server96
    ) && path.starts_with(b"//")
    {
        return Some(false);
    }
    // RFC 1630 has no empty `search`.
    if !rules.empty_query && m.query_start != NONE && r.query() == Some("") {
        return Some(false);
    }
    if m.net_loc_start != NONE
        && fits & AUTH == 0
        && table::classes(&input[m.net_loc_start..m.path_start], t) & AUTH == 0
    {
        // RFC 1808's opaque net_loc has its class checked; another
        // authority that is not a plain registered name gets the server
        // check, which is exact.
        return Some(
            rules.server != ServerGrammar::OpaqueNetLoc
                && r.server().is_some_and(|s| s.is_valid()),
        );
    }
    Some(true)
}

/// Whether `input` is valid under `spec`, one of RFC 3986, RFC 1808 and
/// draft 04, told from its bytes alone without splitting it: `true` only
/// when it is; `false` when it is not, or when only a parse can tell (a
/// scheme, a `:` in the first segment, an authority other than a plain
/// registered name, an invalid byte, whose position the parse finds).
///
/// For resolution that refuses invalid references on its fast path, which
/// never splits the reference. Under these specs the query's class holds
/// the path's and the params' and the delimiters between them (the tests
/// check it on the tables), and neither the query's nor the fragment's
/// class holds `#`: so a reference without a scheme is valid when its bytes
/// before the first `#` are all in the query's class, those after it in
/// the fragment's, its net_loc (after a leading `//`) in the plain
/// authority class, and every `%` starts an escape.
#[inline]
pub(crate) fn plain(input: &str, spec: Spec) -> bool {
    let t = table::of(spec);
    let b = input.as_bytes();
    let (mut from, mut net_loc) = (0, u16::MAX);
    if b.starts_with(b"//") {
        let (end, acc) = table::run(b, 2, t, AUTH_GO);
        // Under RFC 1808 and draft 04 a path after the net_loc must not
        // start with an empty segment (`fsegment`).
        let slashes = b[end..].starts_with(b"//");
        if acc & AUTH == 0 || (slashes && spec != Spec::Rfc3986) {
            return false;
        }
        (from, net_loc) = (end, acc);
    }
    let rest = &b[from..];
    let all = table::classes(rest, t);
    let fine = if all & QUERY != 0 {
        // No `#` (which is outside the query's class).
        true
    } else {
        let hash = memchr::memchr(b'#', rest).unwrap_or(rest.len());
        table::classes(&rest[..hash], t) & QUERY != 0
            && table::classes(rest.get(hash + 1..).unwrap_or(&[]), t)
                & FRAGMENT
                != 0
    };
    if !fine {
        return false;
    }
    // A `:` before any `/`, `?` or `#` ends a scheme or stands in a first
    // segment: left to the parse.
    if from == 0 && all & NO_COLON == 0 {
        let stop =
            memchr::memchr3(b'/', b'?', b'#', rest).unwrap_or(rest.len());
        if rest[..stop].contains(&b':') {
            return false;
        }
    }
    all & net_loc & NO_PCT != 0 || escapes_valid(b)
}

/// Whether every `%` of `b` starts an escape.
fn escapes_valid(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'%', &b[i..]) {
        if !is_escape_at(b, i + k) {
            return false;
        }
        i += k + 3;
    }
    true
}

/// Runs every check of `r`'s spec, in input order.
pub(crate) fn check(r: &Reference<'_>, sink: &mut Sink<'_>) {
    let spec = r.spec();
    let rules = spec.rules();
    let g = &rules.grammar;
    let n = &rules.rule_names;
    let m = *r.meta();
    let input = r.as_str();
    let mut c = Checker::new(spec, sink);
    if spec == Spec::Whatwg {
        let relative = m.scheme_end == NONE;
        if let Err(f) = crate::whatwg::check(input, relative) {
            c.report(f.position, "URL", ViolationKind::NotAWhatwgUrl);
        }
        return;
    }

    // A prefix that the regular expression of RFC 2396/3986 Appendix B
    // would take for a scheme, but the scheme rule rejects (AS12).
    if m.scheme_end == NONE && rules.scheme == SchemeRule::LetterFirst {
        let end = m.path_end;
        let first = &input.as_bytes()[m.path_start..end];
        if m.net_loc_start == NONE && !first.starts_with(b"/") {
            let seg_end =
                first.iter().position(|&b| b == b'/').unwrap_or(first.len());
            if let Some(colon) =
                first[..seg_end].iter().position(|&b| b == b':')
            {
                c.report(
                    m.path_start + colon,
                    n.first_segment,
                    ViolationKind::ColonInFirstSegment,
                );
            }
        }
    }

    if m.net_loc_start != NONE {
        if rules.server == ServerGrammar::OpaqueNetLoc {
            // RFC 1808 and draft 04 keep the net_loc opaque.
            let range = m.net_loc_start..m.path_start;
            c.chars(input, range, g.net_loc, true, "net_loc", "net_loc");
        } else if let Some(server) = r.server() {
            server.check(&mut c);
        }
    }

    // The path.
    let opaque_2396 = rules.server == ServerGrammar::Server2396
        && m.scheme_end != NONE
        && m.net_loc_start == NONE
        && !r.path_is_absolute();
    if opaque_2396 {
        if r.path().is_empty() && m.query_start == NONE {
            c.report(
                m.scheme_end,
                "opaque_part",
                ViolationKind::EmptyAfterScheme,
            );
        }
        let end =
            if m.query_start == NONE { m.path_end } else { m.query_start };
        c.chars(
            input,
            m.path_start..end,
            g.opaque,
            true,
            "uric",
            "opaque part",
        );
    } else {
        let relative_first = m.scheme_end == NONE && m.net_loc_start == NONE;
        let path = r.path().as_bytes();
        let seeds_fsegment = matches!(
            rules.server,
            ServerGrammar::OpaqueNetLoc | ServerGrammar::Server96
        );
        if seeds_fsegment && path.starts_with(b"//") {
            c.report(
                m.path_start + 1,
                "fsegment",
                ViolationKind::EmptySegment,
            );
        }
        // The first segment of a relative path may be narrower (no `:` in
        // RFC 2396 `rel_segment` and RFC 3986 `segment-nz-nc`; that case
        // was reported above with its reason, so `:` passes here).
        let mut from = m.path_start;
        if relative_first && g.first_segment != g.segment {
            let seg_end = memchr::memchr(b'/', path)
                .map_or(m.path_end, |k| m.path_start + k);
            let class = g.first_segment.with(b':');
            c.chars(
                input,
                m.path_start..seg_end,
                class,
                true,
                n.first_segment,
                "path",
            );
            from = seg_end;
        }
        // The other segments, with the `/` between them.
        let class = g.segment.with(b'/');
        c.chars(input, from..m.path_end, class, true, n.segment, "path");
    }

    if let Some(params) = r.params() {
        // `params = param *( ";" param )`
        let start = m.params_start + 1;
        let class = g.param.with(b';');
        let range = start..start + params.len();
        c.chars(input, range, class, true, n.param, "params");
    }
    if let Some(q) = r.query() {
        if !opaque_2396 {
            let start = m.query_start + 1;
            if !rules.empty_query && q.is_empty() {
                c.report(
                    start,
                    n.query,
                    ViolationKind::Empty { component: "search" },
                );
            }
            c.chars(
                input,
                start..start + q.len(),
                g.query,
                true,
                n.query,
                "query",
            );
        } else {
            let start = m.query_start;
            c.chars(
                input,
                start..start + q.len() + 1,
                g.opaque,
                true,
                "uric",
                "opaque part",
            );
        }
    }
    if let Some(f) = r.fragment() {
        let start = m.fragment_start + 1;
        c.chars(
            input,
            start..start + f.len(),
            g.fragment,
            true,
            n.fragment,
            "fragment",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::tests::samples;
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    const SERVED: [Spec; 3] = [Spec::Rfc3986, Spec::Rfc1808, Spec::Draft04];

    /// `plain` says valid only of valid references.
    fn sound(input: &str, spec: Spec) -> bool {
        let said = plain(input, spec);
        if said {
            let r = Reference::parse_with(input, spec);
            assert!(r.violations().is_empty(), "{spec} {input:?}");
        }
        said
    }

    #[test]
    fn plain_relies_on_classes_that_hold() {
        // What `plain` assumes of the tables: outside the delimiters that
        // end them, the path's and the params' bytes are in the query's
        // class, and neither query nor fragment holds `#`.
        for spec in SERVED {
            let t = table::of(spec);
            let params = spec.rules().params;
            for c in 0..=255u8 {
                let e = t[usize::from(c)];
                if c == b'%' || c == b'?' || c == b'#' {
                    continue;
                }
                if e & SEGMENT != 0 || (params && e & table::PARAM != 0) {
                    assert!(e & QUERY != 0, "{spec} {c:#x}");
                }
                if e & QUERY != 0 {
                    assert!(e & FRAGMENT != 0, "{spec} {c:#x}");
                }
            }
            assert_eq!(t[usize::from(b'#')] & (QUERY | FRAGMENT), 0);
            assert_eq!(t[usize::from(b':')] & NO_COLON, 0);
        }
    }

    #[test]
    fn plain_is_sound_on_samples() {
        for spec in SERVED {
            let refs = samples();
            let valid = refs.iter().filter(|r| sound(r, spec)).count();
            assert!(valid > refs.len() / 10, "{spec}: {valid}");
        }
        for (input, spec, want) in [
            ("g/h?q#f", Spec::Rfc3986, true),
            ("../g;x=1/y", Spec::Rfc1808, true),
            ("//a.example/b?c", Spec::Rfc3986, true),
            ("//u@a/b", Spec::Rfc3986, false),
            ("a:b", Spec::Rfc3986, false),
            ("x/a:b", Spec::Rfc3986, true),
            ("%4", Spec::Rfc3986, false),
            ("%41", Spec::Rfc3986, true),
            ("#a#b", Spec::Rfc3986, false),
            ("a b", Spec::Rfc1808, false),
        ] {
            assert_eq!(plain(input, spec), want, "{spec} {input:?}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn plain_is_sound_on_the_corpora() {
        for (name, text) in crate::reference::tests::pair_corpora() {
            let refs: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_once('\t'))
                .map(|(_, r)| r)
                .collect();
            for spec in SERVED {
                let n = refs.iter().filter(|r| sound(r, spec)).count();
                // The fast path serves nearly every reference.
                assert!(n * 10 > refs.len() * 8, "{spec} {name}: {n}");
            }
        }
    }

    /// `first_violation` is `violations()[0]`: the same position, rule,
    /// kind and spec, or none for a valid reference.
    fn first_is_first(input: &str) {
        for spec in Spec::IETF {
            let r = Reference::parse_with(input, spec);
            let all = r.violations();
            assert_eq!(
                r.first_violation(),
                all.first().cloned(),
                "{spec} {input:?}"
            );
        }
    }

    #[test]
    fn first_violation_is_the_first_of_all_on_samples() {
        let refs = samples();
        for r in &refs {
            first_is_first(r);
        }
        // The samples do reach the check, under each spec.
        for spec in Spec::IETF {
            let invalid = refs
                .iter()
                .filter(|r| {
                    Reference::parse_with(r, spec).first_violation().is_some()
                })
                .count();
            assert!(invalid > refs.len() / 10, "{spec}: {invalid}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn first_violation_is_the_first_of_all_on_the_corpora() {
        for (_, text) in crate::reference::tests::pair_corpora() {
            for (base, r) in text.lines().filter_map(|l| l.split_once('\t')) {
                first_is_first(base);
                first_is_first(r);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn plain_is_sound(input in prop_oneof![
            "[a-z0-9:/?#;@.%=+\\[\\] -]{0,24}",
            "(//[a-z@:.%0-9]{0,6})?(/?[a-z.:;%0-9]{0,4}){0,4}(\\?[a-z:#/%]{0,4})?(#[a-z/#?%]{0,3})?",
            any::<String>(),
        ]) {
            for spec in SERVED {
                sound(&input, spec);
            }
        }

        #[test]
        fn first_violation_is_the_first_of_all(input in prop_oneof![
            "[a-z0-9:/?#;@.%=+~\\[\\] -]{0,24}",
            "([a-z]{1,4}:)?(//[a-z@:.%0-9~]{0,6})?(/?[a-z.:;%0-9~]{0,4}){0,4}(\\?[a-z:#/%]{0,4})?(#[a-z/#?%]{0,3})?",
            any::<String>(),
        ]) {
            first_is_first(&input);
        }
    }
}
