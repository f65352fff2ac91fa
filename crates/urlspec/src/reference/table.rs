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
//! it is in its grammar class (see [`run`] and [`scan`]; [`scan`], used
//! for the net_loc and the path, ANDs the whole word in which the run
//! ends and places the stop by word arithmetic, so the bytes that end a
//! net_loc or a path carry its class flag). The splitter keeps the class
//! flags of every component in [`Meta::fits`](super::Meta), and
//! [`validate::quick`](super::validate::quick) answers most `is_valid()`
//! calls from them without looking at the input again.
//!
//! The tables are built at compile time from each spec's
//! [`Rules`](crate::spec::Rules) (its `params`, `server` and
//! [`Grammar`](crate::spec::Grammar)), so the grammar stays data in
//! `spec.rs` and `chars.rs`. What each step of this design saved is
//! measured in BENCHMARKS.md ("The scalar splitter").

use crate::chars::{self, CharClass};
use crate::spec::{Rules, ServerGrammar, Spec};
use urlspec_bytes::words::{eq_low, splat};

/// Does not end the path (`?`, `#`, and `;` where params are a component).
pub(crate) const PATH_GO: u16 = 1 << 0;
/// Does not end the params (`?`, `#`).
pub(crate) const PARAMS_GO: u16 = 1 << 1;
/// Does not end the query (`#`).
pub(crate) const QUERY_GO: u16 = 1 << 2;
/// Not `%`.
pub(crate) const NO_PCT: u16 = 1 << 3;
/// `scheme` characters after the first: `alpha | digit | "+" | "-" | "."`.
pub(crate) const SCHEME: u16 = 1 << 4;
/// `alpha`: the first character of an RFC 2396 / RFC 3986 scheme.
pub(crate) const ALPHA: u16 = 1 << 5;
/// A net_loc / authority made only of these bytes is valid as a whole
/// under the spec's server grammar: RFC 1808's opaque `net_loc`, RFC
/// 3986's `reg-name` (no `@`, `:` or `[`, so the whole authority is the
/// host). Empty for the grammars whose servers always need the full check.
pub(crate) const AUTH: u16 = 1 << 6;
/// The path's class: `segment` and `/`.
pub(crate) const SEGMENT: u16 = 1 << 7;
/// The params' class: `param` and `;`.
pub(crate) const PARAM: u16 = 1 << 8;
/// The query's class.
pub(crate) const QUERY: u16 = 1 << 9;
/// The fragment's class.
pub(crate) const FRAGMENT: u16 = 1 << 10;

/// Does not end the net_loc (`#` and the spec's `authority_ends`).
pub(crate) const AUTH_GO: u16 = 1 << 11;

/// Not a byte's flag but [`Meta::fits`](super::Meta)'s own: set when the
/// path does not start with `//`, so that `validate::quick` tests it with
/// the class flags instead of reading the input (a branch on the path's
/// length).
pub(crate) const NOT_SLASHES: u16 = 1 << 12;

/// Not `:`: a reference without it has no scheme and no `:` in its first
/// segment, which [`validate::plain`](super::validate::plain) needs to know
/// of the reference's text alone.
pub(crate) const NO_COLON: u16 = 1 << 13;

/// The class flags of the components after the net_loc.
pub(crate) const TAIL_CLASSES: u16 = SEGMENT | PARAM | QUERY | FRAGMENT;

/// A byte whose entry has every go, class and `NO_PCT` flag under every
/// spec (`tables_follow_the_rules` checks it): [`scan`] puts it in place of
/// the bytes before a short run, so that they neither stop nor classify it.
const NEUTRAL: u8 = b'a';

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

/// Whether, under `spec`, a clear [`SEGMENT`] flag in the splitter's
/// summary means an invalid reference: true where every byte that a valid
/// reference may hold outside its path (scheme, delimiters, an opaque
/// net_loc, params, query, fragment) has the flag, so that the bytes
/// [`scan`] and [`scan_tail`] count beyond the path cannot clear it unless
/// they are themselves invalid.
#[inline(always)]
pub(crate) fn spill_exact(spec: Spec) -> bool {
    SPILL_EXACT[spec as usize]
}

/// Indexed by `Spec as usize`, as [`TABLES`].
static SPILL_EXACT: [bool; 8] = {
    let mut out = [false; 8];
    let mut k = 0;
    while k < 8 {
        out[k] = spills_exactly(Spec::IETF_AND_WHATWG[k].rules(), &TABLES[k]);
        k += 1;
    }
    out
};

const fn spills_exactly(rules: &Rules, table: &[u16; 256]) -> bool {
    if !matches!(rules.server, ServerGrammar::OpaqueNetLoc) {
        // An authority may hold bytes outside the path's class (`[`).
        return false;
    }
    let g = &rules.grammar;
    let outside = g
        .net_loc
        .or(g.param)
        .or(g.query)
        .or(g.fragment)
        .or(chars::SCHEME)
        .or(CharClass::of(":/?#;%"));
    let mut c = 0;
    while c < 256 {
        if outside.contains(c as u8) && table[c] & SEGMENT == 0 {
            return false;
        }
        c += 1;
    }
    true
}

pub(crate) const fn build(rules: &Rules) -> [u16; 256] {
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
        let mut e = 0;
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
        if b != b':' {
            e |= NO_COLON;
        }
        if chars::ALPHA.contains(b) {
            e |= ALPHA;
        }
        let auth_stop = b == b'#' || rules.authority_ends.contains(b);
        if !auth_stop {
            e |= AUTH_GO;
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
            // A byte that ends the net_loc (the path) carries that
            // component's class flag: [`scan`] ANDs the whole word in
            // which a component ends, its stop byte included.
            if auth_stop {
                e |= AUTH;
            }
            if e & PATH_GO == 0 {
                e |= SEGMENT;
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
    start: usize,
    table: &[u16; 256],
    go: u16,
) -> (usize, u16) {
    let fold = |bytes: &[u8]| {
        bytes.iter().fold(u16::MAX, |a, &c| a & table[usize::from(c)])
    };
    let mut i = start;
    let mut acc = u16::MAX;
    // Eight bytes at a time while none of them stops the run: one load and
    // one AND per byte, one test per eight.
    let mut stopped = false;
    while i + 8 <= b.len() {
        let a = fold(&b[i..i + 8]);
        if a & go == 0 {
            stopped = true;
            break;
        }
        acc &= a;
        i += 8;
    }
    // Fewer than eight bytes left after at least eight of the run: the
    // last eight bytes of the input decide in one go whether the run
    // reaches the end (those before `i` are bytes of the run already in
    // `acc`, so counting them again changes nothing), with no loop whose
    // length depends on the input and so no mispredicted exit.
    if !stopped && i < b.len() && i > start {
        let a = fold(&b[b.len() - 8..]);
        if a & go != 0 {
            return (b.len(), acc & a);
        }
    }
    // The eight bytes that hold the stop, or a short run, one at a time.
    for &c in &b[i..] {
        let e = table[usize::from(c)];
        if e & go == 0 {
            break;
        }
        acc &= e;
        i += 1;
    }
    (i, acc)
}

/// Where a [`scan`] ended.
#[derive(Clone, Copy)]
pub(crate) struct Scan {
    /// The first byte whose entry lacks the go flag, or the end of the
    /// input.
    pub(crate) end: usize,
    /// The AND of `acc` (as passed in) and of the entries of every byte
    /// from `start` to `covered`.
    pub(crate) acc: u16,
    /// The end of the word in which the run ended: at most eight bytes
    /// after `end`, or the end of the input.
    pub(crate) covered: usize,
}

/// Runs from `start` to the first byte whose entry lacks `go` (or the end
/// of `b`), where `stops` are exactly the bytes whose entries lack `go`,
/// ANDing into `acc` the entries of the bytes of the run *and of the other
/// bytes of the word in which it ends* (at most seven after the stop: all
/// of them up to [`Scan::covered`]).
///
/// So a class flag that is set in the result holds for every byte of the
/// run (the stop bytes carry the class flag of the component they end, see
/// [`build`]); one that is clear may have been cleared by a byte after the
/// stop, which the caller must allow for (`validate::quick_rest` checks the
/// component again). In return the loop is eight lookups and one test per
/// word, the stop is placed by word arithmetic, and the last bytes of the
/// input are one overlapping word: the branches taken depend on the number
/// of words, not on where in its word the run ends.
#[inline(always)]
pub(crate) fn scan<const N: usize>(
    b: &[u8],
    start: usize,
    table: &[u16; 256],
    go: u16,
    stops: [u8; N],
    mut acc: u16,
) -> Scan {
    let fold = |w: &[u8; 8]| {
        w.iter().fold(u16::MAX, |a, &c| a & table[usize::from(c)])
    };
    let len = b.len();
    let mut i = start;
    while let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let a = fold(w);
        acc &= a;
        if a & go == 0 {
            let m = hits(u64::from_le_bytes(*w), stops);
            let end = i + (m.trailing_zeros() / 8) as usize;
            return Scan { end, acc, covered: i + 8 };
        }
        i += 8;
    }
    if i >= len {
        return Scan { end: len, acc, covered: len };
    }
    let Some(w) = b.last_chunk::<8>() else {
        // An input of fewer than eight bytes, one at a time.
        let rest = &b[i..];
        let end = rest
            .iter()
            .position(|&c| table[usize::from(c)] & go == 0)
            .map_or(len, |k| i + k);
        let acc = rest.iter().fold(acc, |a, &c| a & table[usize::from(c)]);
        return Scan { end, acc, covered: len };
    };
    // Fewer than eight bytes left: the last word of the input, with the
    // bytes before `i` (of this run, already counted, or before it) made
    // neutral, so that they neither stop the run nor change its classes.
    let before = (1u64 << (8 * (i + 8 - len))) - 1;
    let x = (u64::from_le_bytes(*w) & !before) | (splat(NEUTRAL) & before);
    let a = fold(&x.to_le_bytes());
    acc &= a;
    let end = if a & go != 0 {
        len
    } else {
        len - 8 + (hits(x, stops).trailing_zeros() / 8) as usize
    };
    Scan { end, acc, covered: len }
}

/// [`scan`] from `start` with nothing seen before, for a run that usually
/// ends within 24 bytes (a net_loc): the first three words are classified
/// as one block and the stop is placed in the first of them that holds
/// one, chosen by arithmetic, so that where the run ends costs no branch.
#[inline(always)]
pub(crate) fn scan_head<const N: usize>(
    b: &[u8],
    start: usize,
    table: &[u16; 256],
    go: u16,
    stops: [u8; N],
) -> Scan {
    let Some(w) = b.get(start..).and_then(<[u8]>::first_chunk::<24>) else {
        return scan(b, start, table, go, stops, u16::MAX);
    };
    let fold =
        |w: &[u8]| w.iter().fold(u16::MAX, |a, &c| a & table[usize::from(c)]);
    let (f0, f1, f2) = (fold(&w[..8]), fold(&w[8..16]), fold(&w[16..]));
    if f0 & f1 & f2 & go != 0 {
        return scan(b, start + 24, table, go, stops, f0 & f1 & f2);
    }
    // Whether words 0 and 1 hold no stop; `k`, the first word that does.
    let (g0, g1) = (f0 & go != 0, f1 & go != 0);
    let k = usize::from(g0) + usize::from(g0 & g1);
    let x = w.get(8 * k..).and_then(<[u8]>::first_chunk::<8>);
    let m = hits(u64::from_le_bytes(*x.unwrap_or(&[0; 8])), stops);
    let end = start + 8 * k + (m.trailing_zeros() / 8) as usize;
    let all = |c: bool| u16::from(c).wrapping_neg();
    let acc = f0 & (all(!g0) | (f1 & (all(!g1) | f2)));
    Scan { end, acc, covered: start + 8 * k + 8 }
}

/// [`scan`] to the end of the input, for a run that usually reaches it (a
/// path) and before which no byte lacks `go`: the last 24 bytes of the
/// input are classified as one block, whatever their number before
/// `start`, so that a run of up to 24 bytes takes no loop and no branch
/// that depends on its length. The block's bytes before `start` count in
/// the result like those after a stop do in [`scan`].
#[inline(always)]
pub(crate) fn scan_tail<const N: usize>(
    b: &[u8],
    start: usize,
    table: &[u16; 256],
    go: u16,
    stops: [u8; N],
    mut acc: u16,
) -> Scan {
    const BLOCK: usize = 24;
    let fold =
        |w: &[u8]| w.iter().fold(u16::MAX, |a, &c| a & table[usize::from(c)]);
    let len = b.len();
    let Some(block) = b.last_chunk::<BLOCK>() else {
        return scan(b, start, table, go, stops, acc);
    };
    // The words before the block.
    let mut i = start;
    while i + BLOCK < len {
        let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let a = fold(w);
        acc &= a;
        if a & go == 0 {
            let m = hits(u64::from_le_bytes(*w), stops);
            let end = i + (m.trailing_zeros() / 8) as usize;
            return Scan { end, acc, covered: i + 8 };
        }
        i += 8;
    }
    let a = fold(&block[..8]) & fold(&block[8..16]) & fold(&block[16..]);
    if a & go != 0 {
        return Scan { end: len, acc: acc & a, covered: len };
    }
    scan(b, i, table, go, stops, acc)
}

/// The high bit set in each byte of `x` equal to one of `stops`: exact
/// for the lowest such byte, which is all that is used.
#[inline(always)]
fn hits<const N: usize>(x: u64, stops: [u8; N]) -> u64 {
    stops.iter().fold(0, |m, &s| m | eq_low(x, s))
}

/// The AND of the entries of every byte of `s`: eight at a time, the last
/// eight (or four) overlapping, so that the length decides few branches.
#[inline(always)]
pub(crate) fn classes(s: &[u8], table: &[u16; 256]) -> u16 {
    let fold =
        |w: &[u8]| w.iter().fold(u16::MAX, |a, &c| a & table[usize::from(c)]);
    let n = s.len();
    if n >= 8 {
        let mut acc = u16::MAX;
        let mut i = 0;
        while n - i > 8 {
            acc &= fold(&s[i..i + 8]);
            i += 8;
        }
        acc & fold(&s[n - 8..])
    } else if n >= 4 {
        fold(&s[..4]) & fold(&s[n - 4..])
    } else {
        fold(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chars::rfc3986;

    #[test]
    fn tables_follow_the_rules() {
        for spec in Spec::IETF_AND_WHATWG {
            let t = of(spec);
            assert_eq!(t, &build(spec.rules()), "{spec}: indexed in order");
            let rules = spec.rules();
            for b in 0..=255u8 {
                let e = t[usize::from(b)];
                assert_eq!(e & SCHEME != 0, chars::SCHEME.contains(b));
                assert_eq!(e & ALPHA != 0, chars::ALPHA.contains(b));
                assert_eq!(e & NO_PCT == 0, b == b'%');
                assert_eq!(
                    e & PATH_GO == 0,
                    b"?#".contains(&b) || (rules.params && b == b';'),
                    "{spec} {b}"
                );
                let auth_stop = b == b'#' || rules.authority_ends.contains(b);
                assert_eq!(e & AUTH_GO == 0, auth_stop, "{spec} {b}");
                if auth_stop {
                    assert_eq!(e & AUTH, AUTH, "{spec} {b}");
                }
                if e & PATH_GO == 0 {
                    assert_eq!(e & SEGMENT, SEGMENT, "{spec} {b}");
                }
                if b != b'%' {
                    assert_eq!(
                        e & QUERY != 0,
                        rules.grammar.query.contains(b)
                    );
                }
            }
            let all = PATH_GO
                | PARAMS_GO
                | QUERY_GO
                | AUTH_GO
                | NO_PCT
                | TAIL_CLASSES;
            assert_eq!(t[usize::from(NEUTRAL)] & all, all, "{spec}");
            if t[usize::from(b'b')] & AUTH != 0 {
                assert_eq!(t[usize::from(NEUTRAL)] & AUTH, AUTH, "{spec}");
            }
        }
        assert!(spill_exact(Spec::Rfc1808) && spill_exact(Spec::Draft04));
        assert!(!spill_exact(Spec::Rfc3986));
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
    fn scan_and_classes_agree_with_byte_loops() {
        let t = of(Spec::Rfc3986);
        let inputs = [
            "",
            "a",
            "/",
            "ab/",
            "abcdefg",
            "abcdefgh",
            "abcdefgh/",
            "abcdefghi/j",
            "abc?defghijklmnop",
            "http://a/b",
            "é/#x",
            "abcdefghijklmnopqrstuvwxyz0123456789#",
            "file://.flake8",
            "//////////",
            "/a/b/c/d/e",
        ];
        for s in inputs {
            let b = s.as_bytes();
            for i in 0..=b.len() {
                let want = b[i..]
                    .iter()
                    .position(|c| b"/?#".contains(c))
                    .map_or(b.len(), |k| i + k);
                let Scan { end, acc, covered } =
                    scan(b, i, t, AUTH_GO, *b"/?#", u16::MAX);
                assert!(end <= covered && covered <= b.len().min(end + 8));
                assert_eq!(end, want, "{s} {i}");
                let run = b[i..end]
                    .iter()
                    .fold(u16::MAX, |a, &c| a & t[usize::from(c)]);
                // Every flag set in `acc` is set for each byte of the run,
                // and the bytes after it are at most those of its word.
                assert_eq!(acc & run, acc, "{s} {i}");
                let after = b[end..covered]
                    .iter()
                    .fold(u16::MAX, |a, &c| a & t[usize::from(c)]);
                assert_eq!(acc, run & after, "{s} {i}");
                let slice = &b[i..];
                let want =
                    slice.iter().fold(u16::MAX, |a, &c| a & t[usize::from(c)]);
                assert_eq!(classes(slice, t), want, "{s} {i}");
            }
        }
    }

    #[test]
    fn runs_stop_at_the_first_stop_byte() {
        let t = of(Spec::Rfc3986);
        for s in [
            "",
            "a",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh?",
            "a?",
            "?",
            "abcdefghijk?l",
            "abcdefghijklmnop",
            "abcdefghijklmno?",
            "abcdefghijklm?op",
        ] {
            let want = s.find(['?', '#']).unwrap_or(s.len());
            let (end, acc) = run(s.as_bytes(), 0, t, PATH_GO);
            assert_eq!(end, want, "{s}");
            assert_eq!(acc & SEGMENT, SEGMENT, "{s}");
        }
        let (end, acc) = run(b"abc de fghijk#", 1, t, PATH_GO);
        assert_eq!((end, acc & SEGMENT), (13, 0));
    }
}
