//! One table per spec that classifies every byte for the splitter and for
//! the fast validity check at once.
//!
//! Each of the 256 entries is a set of flags, all of the kind "set means
//! fine":
//!
//! * a *go* flag says that the byte does not end a component (the
//!   splitter runs to the first byte without the component's go flag);
//! * a *class* flag says that the byte may stand in a component under the
//!   spec's grammar. `%` is given every class flag and no [`NO_PCT`]: an
//!   escape is checked on its own, as [`crate::chars`] says.
//!
//! So a run of bytes is classified by AND-ing their entries: one load and
//! one AND per byte give both where the component ends and whether all of
//! it is in its grammar class (see [`run`]). The splitter keeps the class
//! flags of every component in [`Meta::fits`](super::Meta), and
//! [`validate::quick`](super::validate::quick) answers most `is_valid()`
//! calls from them without looking at the input again.
//!
//! The tables are built at compile time from each spec's
//! [`Rules`](crate::spec::Rules) (its `authority_ends`, `params` and
//! [`Grammar`](crate::spec::Grammar)), so the grammar stays data in
//! `spec.rs` and `chars.rs`.

use crate::chars::{self, CharClass};
use crate::spec::{Rules, ServerGrammar, Spec};

/// Every byte.
pub(crate) const ANY: u16 = 1 << 0;
/// Does not end the net_loc / authority (`#` and the spec's
/// `authority_ends`).
pub(crate) const AUTH_GO: u16 = 1 << 1;
/// Does not end the path (`?`, `#`, and `;` where params are a component).
pub(crate) const PATH_GO: u16 = 1 << 2;
/// Does not end the params (`?`, `#`).
pub(crate) const PARAMS_GO: u16 = 1 << 3;
/// Does not end the query (`#`).
pub(crate) const QUERY_GO: u16 = 1 << 4;
/// Not `%`.
pub(crate) const NO_PCT: u16 = 1 << 5;
/// `scheme` characters after the first: `alpha | digit | "+" | "-" | "."`.
pub(crate) const SCHEME: u16 = 1 << 6;
/// A net_loc / authority made only of these bytes is valid as a whole
/// under the spec's server grammar: RFC 1808's opaque `net_loc`, RFC
/// 3986's `reg-name` (no `@`, `:` or `[`, so the whole authority is the
/// host). Empty for the grammars whose servers always need the full check.
pub(crate) const AUTH: u16 = 1 << 7;
/// The path's class: `segment` and `/`.
pub(crate) const SEGMENT: u16 = 1 << 8;
/// The params' class: `param` and `;`.
pub(crate) const PARAM: u16 = 1 << 9;
/// The query's class.
pub(crate) const QUERY: u16 = 1 << 10;
/// The fragment's class.
pub(crate) const FRAGMENT: u16 = 1 << 11;

/// The class flags of the components after the net_loc.
pub(crate) const TAIL_CLASSES: u16 = SEGMENT | PARAM | QUERY | FRAGMENT;

/// The byte table of `spec`.
#[inline(always)]
pub(crate) fn of(spec: Spec) -> &'static [u16; 256] {
    &TABLES[spec as usize]
}

/// Indexed by `Spec as usize`, in declaration order.
static TABLES: [[u16; 256]; 8] = [
    build(Spec::Rfc1630.rules()),
    build(Spec::Draft04.rules()),
    build(Spec::Rfc1808.rules()),
    build(Spec::Draft96.rules()),
    build(Spec::Draft96Dec.rules()),
    build(Spec::Rfc2396.rules()),
    build(Spec::Rfc3986.rules()),
    build(Spec::Whatwg.rules()),
];

const fn build(rules: &Rules) -> [u16; 256] {
    let g = &rules.grammar;
    let auth = match rules.server {
        ServerGrammar::OpaqueNetLoc => g.net_loc,
        ServerGrammar::Authority3986 => g.reg_name,
        _ => CharClass::EMPTY,
    };
    let classes: [(CharClass, u16); 5] = [
        (auth, AUTH),
        (g.segment.with(b'/'), SEGMENT),
        (g.param.with(b';'), PARAM),
        (g.query, QUERY),
        (g.fragment, FRAGMENT),
    ];
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut e = ANY;
        if b != b'#' && !rules.authority_ends.contains(b) {
            e |= AUTH_GO;
        }
        if !(b == b'?' || b == b'#' || (rules.params && b == b';')) {
            e |= PATH_GO;
        }
        if b != b'?' && b != b'#' {
            e |= PARAMS_GO;
        }
        if b != b'#' {
            e |= QUERY_GO;
        }
        if chars::SCHEME.contains(b) {
            e |= SCHEME;
        }
        if b == b'%' {
            // Escapes are allowed in every component these flags cover;
            // whether each `%` starts one is checked apart.
            e |= AUTH | TAIL_CLASSES;
        } else {
            e |= NO_PCT;
            let mut k = 0;
            while k < classes.len() {
                if classes[k].0.contains(b) {
                    e |= classes[k].1;
                }
                k += 1;
            }
        }
        table[i] = e;
        i += 1;
    }
    table
}

/// Runs from `i` to the first byte whose entry lacks `go` (or the end of
/// `b`); gives that index and the AND of the entries of the bytes before
/// it.
#[inline(always)]
pub(crate) fn run(
    b: &[u8],
    mut i: usize,
    table: &[u16; 256],
    go: u16,
) -> (usize, u16) {
    let entry = |c: &u8| u32::from(table[usize::from(*c)]);
    let go = u32::from(go);
    let mut acc = u32::MAX;
    // Eight bytes at a time while none of them stops the run: one load and
    // one AND per byte, one test per eight.
    while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let a = chunk.iter().fold(u32::MAX, |a, c| a & entry(c));
        if a & go == 0 {
            // The stop is in this chunk: find it without bounds checks.
            for c in chunk {
                let e = entry(c);
                if e & go == 0 {
                    break;
                }
                acc &= e;
                i += 1;
            }
            return (i, acc as u16);
        }
        acc &= a;
        i += 8;
    }
    // Fewer than eight bytes left.
    while i < b.len() {
        let e = entry(&b[i]);
        if e & go == 0 {
            break;
        }
        acc &= e;
        i += 1;
    }
    (i, acc as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chars::rfc3986;

    #[test]
    fn tables_follow_the_rules() {
        for spec in Spec::EVERY {
            let t = of(spec);
            assert_eq!(t, &build(spec.rules()), "{spec}: indexed in order");
            let rules = spec.rules();
            for b in 0..=255u8 {
                let e = t[usize::from(b)];
                assert_eq!(e & SCHEME != 0, chars::SCHEME.contains(b));
                assert_eq!(e & NO_PCT == 0, b == b'%');
                assert_eq!(
                    e & AUTH_GO == 0,
                    b == b'#' || rules.authority_ends.contains(b),
                    "{spec} {b}"
                );
                if b != b'%' {
                    assert_eq!(
                        e & QUERY != 0,
                        rules.grammar.query.contains(b)
                    );
                }
            }
        }
        let t = of(Spec::Rfc3986);
        assert_eq!(t[usize::from(b';')] & PATH_GO, PATH_GO);
        assert_eq!(of(Spec::Rfc1808)[usize::from(b';')] & PATH_GO, 0);
        assert!(rfc3986::REG_NAME
            .iter()
            .all(|b| t[usize::from(b)] & AUTH != 0));
        assert_eq!(t[usize::from(b':')] & AUTH, 0);
        assert_eq!(of(Spec::Rfc2396)[usize::from(b'a')] & AUTH, 0);
    }

    #[test]
    fn runs_stop_at_the_first_stop_byte() {
        let t = of(Spec::Rfc3986);
        for s in ["", "a", "abcdefgh", "abcdefghi", "abcdefgh?", "a?", "?"] {
            let want = s.find(['?', '#']).unwrap_or(s.len());
            let (end, acc) = run(s.as_bytes(), 0, t, PATH_GO);
            assert_eq!(end, want, "{s}");
            assert_eq!(acc & SEGMENT, SEGMENT, "{s}");
        }
        let (end, acc) = run(b"abc de fghijk#", 1, t, PATH_GO);
        assert_eq!((end, acc & SEGMENT), (13, 0));
    }
}
