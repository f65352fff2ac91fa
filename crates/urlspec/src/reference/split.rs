//! The component splitter: one pass over the input, driven by the spec's
//! [`Rules`](crate::spec::Rules).
//!
//! RFC 1808 §2.4 orders the steps: P1 fragment (first `#`), P2 scheme, P3
//! net_loc (after `//`, up to the next `/`), P4 query (first `?`), P5 params
//! (first `;` before the query), P6 path. RFC 1630, RFC 2396 and RFC 3986
//! follow the same order with other scheme rules, other net_loc terminators
//! (`?` too) and no params; RFC 2396/3986's Appendix B regular expression
//! is exactly this order.

use memchr::memchr;

use super::table::{
    self, AUTH, AUTH_GO, FRAGMENT, NO_PCT, PARAM, PARAMS_GO, PATH_GO, QUERY,
    QUERY_GO, SCHEME,
};
use super::{Meta, NONE};
use crate::chars::{rfc1630, CharClass, ALPHA};
use crate::escape::is_escape_at;
use crate::spec::{SchemeRule, Spec};
use urlspec_bytes::words::{eq_low, splat, HIGH};

/// Splits `b` into components under `spec`.
///
/// One copy of the splitter per spec, in which the spec's rules and byte
/// table are constants: the rule tests fold away and the table is
/// addressed directly. A caller with a constant spec calls its copy.
#[inline]
pub(super) fn split(b: &[u8], spec: Spec) -> Meta {
    match spec {
        Spec::Rfc1630 => split_as::<0>(b),
        Spec::Draft04 => split_as::<1>(b),
        Spec::Rfc1808 => split_as::<2>(b),
        Spec::Draft96 => split_as::<3>(b),
        Spec::Draft96Dec => split_as::<4>(b),
        Spec::Rfc2396 => split_as::<5>(b),
        Spec::Rfc3986 => split_as::<6>(b),
        Spec::Whatwg => split_as::<7>(b),
    }
}

/// The rules `split_with` reads, as constants of `Spec::IETF_AND_WHATWG[S]` (read
/// at compile time: the rule statics may live in another codegen unit,
/// where the optimizer cannot see their values).
pub(super) struct Shape<const S: usize>;

impl<const S: usize> Shape<S> {
    pub(super) const SPEC: Spec = Spec::IETF_AND_WHATWG[S];
    pub(super) const SCHEME: SchemeRule = Self::SPEC.rules().scheme;
    const AUTH_STOPS: [u8; 3] = auth_stops(Self::SPEC.rules().authority_ends);
    const PATH_STOPS: [u8; 3] =
        if Self::SPEC.rules().params { *b"?#;" } else { *b"?##" };
}

/// The bytes that end a net_loc: `#` and the spec's `authority_ends` (at
/// most two), padded by repeating `#`.
const fn auth_stops(ends: CharClass) -> [u8; 3] {
    let mut stops = [b'#'; 3];
    let mut n = 0;
    let mut c = 0u8;
    while c < 128 {
        if ends.contains(c) {
            assert!(n < 2, "authority_ends has more than two bytes");
            stops[n] = c;
            n += 1;
        }
        c += 1;
    }
    stops
}

/// The split of `b` under `spec` by the AVX2 splitter and by the scalar
/// one, where the CPU has AVX2: for the fuzz target that checks they
/// agree ([`super::both_splitters`]).
pub(super) fn both(b: &[u8], spec: Spec) -> Option<[Meta; 2]> {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        let avx2 = crate::bytes::x86::Avx2::get()?;
        fn pair<const S: usize>(
            b: &[u8],
            a: crate::bytes::x86::Avx2,
        ) -> [Meta; 2] {
            [super::simd::split::<S>(b, a), split_scalar::<S>(b)]
        }
        Some(match spec {
            Spec::Rfc1630 => pair::<0>(b, avx2),
            Spec::Draft04 => pair::<1>(b, avx2),
            Spec::Rfc1808 => pair::<2>(b, avx2),
            Spec::Draft96 => pair::<3>(b, avx2),
            Spec::Draft96Dec => pair::<4>(b, avx2),
            Spec::Rfc2396 => pair::<5>(b, avx2),
            Spec::Rfc3986 => pair::<6>(b, avx2),
            Spec::Whatwg => pair::<7>(b, avx2),
        })
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
    {
        let _ = (b, spec);
        None
    }
}

/// [`split_with`] for `Spec::IETF_AND_WHATWG[S]`, or its AVX2 form where the CPU
/// has it (`simd.rs`).
#[inline(always)]
fn split_as<const S: usize>(b: &[u8]) -> Meta {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(avx2) = crate::bytes::x86::Avx2::get() {
        return super::simd::split::<S>(b, avx2);
    }
    split_scalar::<S>(b)
}

/// [`split_with`] for `Spec::IETF_AND_WHATWG[S]`.
pub(super) fn split_scalar<const S: usize>(b: &[u8]) -> Meta {
    split_with(
        b,
        Shape::<S>::SPEC,
        Shape::<S>::SCHEME,
        Shape::<S>::AUTH_STOPS,
        Shape::<S>::PATH_STOPS,
    )
}

/// Splits `b` under `spec`, whose scheme rule is `rule`, whose net_loc
/// ends at `auth_stops` and whose path ends at `path_stops`. The net_loc
/// and the path are each one [`table::scan`] over the spec's byte table,
/// the params and the query one [`table::run`], the fragment one
/// [`table::classes`]. Either way the splitter notes whether the
/// component holds only bytes of its grammar class ([`Meta::fits`]; for the
/// net_loc and the path, a clear flag may come from the bytes after them
/// in the same word).
#[inline(always)]
fn split_with(
    b: &[u8],
    spec: Spec,
    rule: SchemeRule,
    auth_stops: [u8; 3],
    path_stops: [u8; 3],
) -> Meta {
    let t = table::of(spec);
    let len = b.len();
    let start = if rule == SchemeRule::Ialpha { url_prefix(b) } else { 0 };
    // A component's class flag and `NO_PCT` stay in `fits` while every
    // byte of it has them.
    let mut fits = u16::MAX;

    // P2: the scheme. Scheme characters exclude `#`, so a scheme found here
    // lies before the fragment (P1).
    let scheme_end = scheme_end(b, start, len, rule, t);
    let mut pos = if scheme_end == NONE { start } else { scheme_end + 1 };

    // P3: the net_loc, up to `/` (and `?` where the spec says so) or `#`.
    let mut net_loc_start = NONE;
    // Where the path's scan starts, and what it has seen before.
    let mut from = pos;
    let mut seen = u16::MAX;
    // Whether no byte before `from` ends a path: the scheme and `//` never
    // do, the net_loc's bytes when the scan says so.
    let mut clear = true;
    if b.get(pos..pos + 2) == Some(b"//") {
        net_loc_start = pos + 2;
        let s = table::scan_head(b, net_loc_start, t, AUTH_GO, auth_stops);
        fits &= s.acc | !(AUTH | NO_PCT);
        pos = s.end;
        from = s.end;
        // The scan has classified the bytes up to the end of the word in
        // which the net_loc ends; when none of them ends a path, the
        // path's scan goes on after them. The net_loc's bytes it counts
        // may clear the path's class flag (never set it), which
        // `validate::quick_rest` allows for.
        if s.acc & PATH_GO != 0 {
            from = s.covered;
            seen = s.acc;
        } else {
            clear = false;
        }
    }
    let path_start = pos;

    // P5, P4 and P1 in input order: the path ends at the first `;` (where
    // params are a component), `?` or `#`; the params at the first `?` or
    // `#`; the query at the first `#`.
    let s = if clear {
        table::scan_tail(b, from, t, PATH_GO, path_stops, seen)
    } else {
        table::scan(b, from, t, PATH_GO, path_stops, seen)
    };
    fits &= s.acc | !(table::SEGMENT | NO_PCT);
    if b[path_start..].starts_with(b"//") {
        fits &= !table::NOT_SLASHES;
    }
    let mut i = s.end;
    let path_end = i;
    let mut params_start = NONE;
    if i < len && b[i] == b';' {
        params_start = i;
        let (end, acc) = table::run(b, i + 1, t, PARAMS_GO);
        fits &= acc | !(PARAM | NO_PCT);
        i = end;
    }
    let mut query_start = NONE;
    if i < len && b[i] == b'?' {
        query_start = i;
        let (end, acc) = table::run(b, i + 1, t, QUERY_GO);
        fits &= acc | !(QUERY | NO_PCT);
        i = end;
    }
    let mut fragment_start = NONE;
    if i < len {
        fragment_start = i;
        let acc = table::classes(&b[i + 1..], t);
        fits &= acc | !(FRAGMENT | NO_PCT);
    }
    Meta {
        start,
        scheme_end,
        net_loc_start,
        path_start,
        path_end,
        params_start,
        query_start,
        fragment_start,
        fits,
    }
}

/// The index of the `:` that ends a scheme at `b[start..end]`, or `NONE`.
#[inline(always)]
pub(super) fn scheme_end(
    b: &[u8],
    start: usize,
    end: usize,
    rule: SchemeRule,
    t: &[u16; 256],
) -> usize {
    if rule != SchemeRule::Ialpha {
        let b = &b[..end];
        // The common case first: a lowercase scheme in the first word.
        if let Some(p) = lowercase_scheme(&b[start..]) {
            return start + p;
        }
        let scheme = |i: usize| t[usize::from(b[i])] & SCHEME != 0;
        let mut i = start;
        if rule == SchemeRule::AnyFirst
            || (i < end && t[usize::from(b[i])] & table::ALPHA != 0)
        {
            while i < end && scheme(i) {
                i += 1;
            }
        }
        return if i > start && i < end && b[i] == b':' { i } else { NONE };
    }
    // RFC 1630: `ialpha alpha [ xalphas ]`, `xalpha` including escapes.
    let mut i = start;
    if i < end && ALPHA.contains(b[i]) {
        i += 1;
        while i < end {
            if rfc1630::XALPHA.contains(b[i]) {
                i += 1;
            } else if is_escape_at(&b[..end], i) {
                i += 3;
            } else {
                break;
            }
        }
    }
    if i > start && i < end && b[i] == b':' {
        i
    } else {
        NONE
    }
}

/// The common case of [`scheme_end`] without a loop: a scheme of
/// lowercase letters followed by `:` within the first eight bytes of `b`
/// (at least eight long), found a word at a time, so that its length does
/// not cost a mispredicted loop exit. Gives the index of the `:`; `None`
/// leaves the answer to the general search. Lowercase letters are scheme
/// characters under every rule this serves, the first one included.
#[inline(always)]
pub(crate) fn lowercase_scheme(b: &[u8]) -> Option<usize> {
    let word = b.first_chunk::<8>()?;
    let x = u64::from_le_bytes(*word);
    // The first `:`: the lowest byte of `x ^ ":::::::"` that is zero (the
    // classic test is exact for the lowest one).
    let p = (eq_low(x, b':').trailing_zeros() / 8) as usize;
    // Lowercase letters: with the high bit forced on, subtracting `a`
    // (`{`) from a byte borrows from no other byte and leaves the high bit
    // set exactly when the byte is at least `a` (`{`); `!x` drops the
    // bytes that are not ASCII.
    let y = x | HIGH;
    let lower = (y - splat(b'a')) & !(y - splat(b'{')) & !x & HIGH;
    let below = HIGH & ((1u64 << (8 * p.min(7))) - 1);
    (1..8).contains(&p).then_some(p).filter(|_| lower & below == below)
}

/// The length of an RFC 1630 `url:` prefix (`prefixedurl u r l : url`),
/// kept only when an absolute URL follows it.
pub(super) fn url_prefix(b: &[u8]) -> usize {
    if b.len() > 4 && b[..4].eq_ignore_ascii_case(b"url:") {
        let end = memchr(b'#', b).unwrap_or(b.len());
        if scheme_end(b, 4, end, SchemeRule::Ialpha, table::of(Spec::Rfc1630))
            != NONE
        {
            return 4;
        }
    }
    0
}
