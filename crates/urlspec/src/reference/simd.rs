//! The splitter of [`split`](super::split) with AVX2: the bytes after the
//! scheme are classified 64 at a time by nibble tables (`pshufb`), and
//! every component end and class test is bit arithmetic on the resulting
//! masks, so that a URL of up to 64 bytes takes no branch that depends on
//! where its components end.
//!
//! Why: what the table-driven scalar splitter (`table.rs`) leaves is
//! mispredicted loop exits, from net_locs, paths and queries of varied
//! lengths. Baseline x86_64 (SSE2) has no byte shuffle, and a splitter
//! built on it lost to the scalar one; this one needs AVX2 (and BMI1/BMI2
//! for `tzcnt` and `shlx`), detected once at run time. Inputs under 16
//! bytes, other CPUs and other targets take the scalar splitter, which the
//! tests compare with this one on the same inputs. The measurements are in
//! BENCHMARKS.md ("The scalar splitter", "Where the time goes").
//!
//! The only `unsafe` here is the call into the `#[target_feature]`
//! function, behind a token that exists only when the features were
//! detected; the token and the loads are `crate::bytes::x86`'s.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::bytes::x86::Avx2;
use crate::bytes::x86::{load16, load32};

use super::split::{scheme_end, split_scalar, url_prefix, Shape};
use super::table::{
    self, AUTH, FRAGMENT, NOT_SLASHES, NO_PCT, PARAM, PARAMS_GO, PATH_GO,
    QUERY, SEGMENT,
};
use super::{Meta, NONE};
use crate::spec::SchemeRule;

/// Splits `b` under `Spec::IETF_AND_WHATWG[S]`, exactly as the scalar splitter
/// does (which it leaves inputs under 16 bytes to), except that
/// [`Meta::fits`] is exact for every component (the scalar one may clear
/// the net_loc's and the path's flags for bytes after them, which
/// `validate::quick_rest` allows for).
#[inline]
pub(super) fn split<const S: usize>(b: &[u8], _: Avx2) -> Meta {
    if b.len() < 16 {
        return split_scalar::<S>(b);
    }
    // SAFETY: an `Avx2` exists only when `Avx2::get` detected AVX2, BMI1
    // and BMI2, the features `split_avx2` is compiled for.
    unsafe { split_avx2::<S>(b) }
}

/// A position past every input: "not found yet". Half of `usize::MAX`, so
/// that adding one to it cannot wrap.
const FAR: usize = usize::MAX >> 1;

/// The components, in [`Classes::of`] order.
const N_COMPONENTS: usize = 5;

/// Which class masks a spec needs, and which one each component uses.
struct Classes<const S: usize>;

impl<const S: usize> Classes<S> {
    const TABLE: [u16; 256] = table::build(Shape::<S>::SPEC.rules());
    /// The class flag of each component and the flag its bytes never lack
    /// (the go flag of its own end): net_loc, path, params, query,
    /// fragment.
    const OF: [(u16, u16); N_COMPONENTS] = [
        (AUTH, table::AUTH_GO),
        (SEGMENT, PATH_GO),
        (PARAM, PARAMS_GO),
        (QUERY, table::QUERY_GO),
        (FRAGMENT, 0),
    ];
    /// The distinct masks computed, as class flags: a component shares a
    /// mask with another whose class agrees with its own on every byte
    /// the component can hold (RFC 1808 needs one mask, RFC 3986 two).
    const PICK: ([u16; N_COMPONENTS], [usize; N_COMPONENTS], usize) =
        pick(&Self::TABLE, Self::OF);
    const FLAGS: [u16; N_COMPONENTS] = Self::PICK.0;
    const INDEX: [usize; N_COMPONENTS] = Self::PICK.1;
    const COUNT: usize = Self::PICK.2;
    /// `lo[k][n]`: bit `h` set when byte `16 h + n` is in class `FLAGS[k]`.
    const LO: [[u8; 16]; N_COMPONENTS] = {
        let mut lo = [[0u8; 16]; N_COMPONENTS];
        let mut k = 0;
        while k < N_COMPONENTS {
            let mut c = 0;
            while c < 256 {
                if Self::TABLE[c] & Self::FLAGS[k] != 0 {
                    assert!(c < 128, "a class flag on a non-ASCII byte");
                    lo[k][c & 15] |= 1 << (c >> 4);
                }
                c += 1;
            }
            k += 1;
        }
        lo
    };
    const QUERY_ENDS_NET_LOC: bool = {
        let ends = Shape::<S>::SPEC.rules().authority_ends;
        assert!(
            ends.minus(crate::chars::CharClass::of("/?")).bits() == 0,
            "authority_ends beyond `/` and `?`"
        );
        ends.contains(b'?')
    };
    const PARAMS: bool = Shape::<S>::SPEC.rules().params;
}

/// For [`Classes::PICK`]: for each component, the first earlier-picked or
/// own class that agrees with its class on the bytes it can hold.
const fn pick(
    t: &[u16; 256],
    of: [(u16, u16); N_COMPONENTS],
) -> ([u16; N_COMPONENTS], [usize; N_COMPONENTS], usize) {
    let mut flags = [0u16; N_COMPONENTS];
    let mut index = [0usize; N_COMPONENTS];
    let mut count = 0;
    // The query's class first: it is the widest, and serves most.
    let order = [3, 0, 1, 2, 4];
    let mut i = 0;
    while i < N_COMPONENTS {
        let c = order[i];
        let (flag, go) = of[c];
        let mut k = 0;
        while k < count {
            let mut same = true;
            let mut b = 0;
            while b < 256 {
                let held = go == 0 || t[b] & go != 0;
                if held && (t[b] & flags[k] != 0) != (t[b] & flag != 0) {
                    same = false;
                }
                b += 1;
            }
            if same {
                break;
            }
            k += 1;
        }
        if k == count {
            flags[count] = flag;
            count += 1;
        }
        index[c] = k;
        i += 1;
    }
    (flags, index, count)
}

/// `pshufb` controls: 16 bytes from offset `k` move each byte of a lane
/// `k` places down and clear the `k` top ones.
static SHIFT: [u8; 80] = {
    let mut s = [0x80u8; 80];
    let mut i = 0;
    while i < 16 {
        s[i] = i as u8;
        i += 1;
    }
    s
};

/// A 16-byte vector of `t`'s bytes, the same in both lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn splat16(t: [u8; 16]) -> __m256i {
    let x = t.map(|c| c as i8);
    _mm256_broadcastsi128_si256(_mm_setr_epi8(
        x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10],
        x[11], x[12], x[13], x[14], x[15],
    ))
}

/// Bit `i` set for the bytes at `base + i` with the property.
#[derive(Clone, Copy)]
struct Masks<B = u64> {
    slash: B,
    question: B,
    hash: B,
    semicolon: B,
    percent: B,
    /// Outside class `Classes::FLAGS[k]` (a `%` is inside).
    bad: [B; N_COMPONENTS],
}

impl Masks {
    /// The masks of 64..128 bytes from those of the first 64 and of the
    /// 64 at `at`.
    #[inline(always)]
    fn join(self, other: Masks, at: usize) -> Masks<u128> {
        let j = |a: u64, b: u64| u128::from(a) | u128::from(b) << at;
        Masks {
            slash: j(self.slash, other.slash),
            question: j(self.question, other.question),
            hash: j(self.hash, other.hash),
            semicolon: j(self.semicolon, other.semicolon),
            percent: j(self.percent, other.percent),
            bad: core::array::from_fn(|k| j(self.bad[k], other.bad[k])),
        }
    }
}

/// A mask word for [`short`].
trait Bits:
    Copy + core::ops::BitAnd<Output = Self> + core::ops::BitOr<Output = Self>
{
    /// The index of the first set bit at or after `p` (wrapping past the
    /// width), or the width when none.
    fn first(self, p: usize) -> usize;
    fn any(self) -> bool;
    /// Whether bits `p` and `p + 1` are set (`p` under the width).
    fn pair(self, p: usize) -> bool;
}

impl Bits for u64 {
    #[inline(always)]
    fn first(self, p: usize) -> usize {
        (self & (!0u64).wrapping_shl(p as u32)).trailing_zeros() as usize
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != 0
    }
    #[inline(always)]
    fn pair(self, p: usize) -> bool {
        self.wrapping_shr(p as u32) & 3 == 3
    }
}

impl Bits for u128 {
    #[inline(always)]
    fn first(self, p: usize) -> usize {
        (self & (!0u128).wrapping_shl(p as u32)).trailing_zeros() as usize
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != 0
    }
    #[inline(always)]
    fn pair(self, p: usize) -> bool {
        self.wrapping_shr(p as u32) & 3 == 3
    }
}

/// Lane `j` of the input (of 16 to 63 bytes) as if followed by zeros:
/// its bytes `16 j` onwards, loaded where they fit and shifted into place.
#[target_feature(enable = "avx2")]
#[inline]
fn lane(b: &[u8], j: usize) -> __m128i {
    let at = (16 * j).min(b.len() - 16);
    _mm_shuffle_epi8(load16(b, at), load16(&SHIFT, (16 * j - at) & 63))
}

/// The masks of the input's first 64 bytes (`short`: all of an input of
/// 16 to 63 bytes, zeros after it) or of the 64 bytes at `base`; the
/// bits after the end of the input are clear, except in `bad`.
#[target_feature(enable = "avx2")]
#[inline]
fn masks<const S: usize, const SHORT: bool>(b: &[u8], base: usize) -> Masks {
    let halves = if SHORT {
        [
            _mm256_set_m128i(lane(b, 1), lane(b, 0)),
            _mm256_set_m128i(lane(b, 3), lane(b, 2)),
        ]
    } else {
        [load32(b, base), load32(b, base + 32)]
    };
    let nibble = _mm256_set1_epi8(0x0f);
    // Bit `h` for a high nibble `h` under 8; none for non-ASCII.
    let onehot =
        splat16([1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut m = Masks {
        slash: 0,
        question: 0,
        hash: 0,
        semicolon: 0,
        percent: 0,
        bad: [0; N_COMPONENTS],
    };
    let mut shift = 0;
    for v in halves {
        let eq = |c: u8| {
            let e = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8));
            u64::from(_mm256_movemask_epi8(e) as u32) << shift
        };
        m.slash |= eq(b'/');
        m.question |= eq(b'?');
        m.hash |= eq(b'#');
        if Classes::<S>::PARAMS {
            m.semicolon |= eq(b';');
        }
        m.percent |= eq(b'%');
        let lo = _mm256_and_si256(v, nibble);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
        let high = _mm256_shuffle_epi8(onehot, hi);
        let zero = _mm256_setzero_si256();
        for k in 0..N_COMPONENTS {
            if k < Classes::<S>::COUNT {
                let table = splat16(Classes::<S>::LO[k]);
                let inside =
                    _mm256_and_si256(_mm256_shuffle_epi8(table, lo), high);
                let out = _mm256_cmpeq_epi8(inside, zero);
                m.bad[k] |=
                    u64::from(_mm256_movemask_epi8(out) as u32) << shift;
            }
        }
        shift += 32;
    }
    m
}

/// What the windows have found so far: each a position, or [`FAR`].
struct Found {
    /// Where the net_loc starts (the path, when there is none).
    from: usize,
    /// The net_loc's end: the path's start.
    net_loc_end: usize,
    question: usize,
    hash: usize,
    semicolon: usize,
    /// The first byte outside its class in each component (net_loc, path,
    /// params, query, fragment), from its start on.
    bad: [usize; N_COMPONENTS],
    percent: bool,
}

impl Found {
    /// Takes in the masks of the 64 bytes from `base`. Windows come in
    /// input order and may overlap: every search keeps its first hit.
    #[inline(always)]
    fn window<const S: usize>(&mut self, m: &Masks, base: usize) {
        let after = |p: usize| {
            let d = p.saturating_sub(base);
            if d < 64 {
                !0u64 << d
            } else {
                0
            }
        };
        let first = |mask: u64, p: usize| {
            let x = mask & after(p);
            if x != 0 {
                base + x.trailing_zeros() as usize
            } else {
                FAR
            }
        };
        let mut stops = m.slash | m.hash;
        if Classes::<S>::QUERY_ENDS_NET_LOC {
            stops |= m.question;
        }
        self.net_loc_end = self.net_loc_end.min(first(stops, self.from));
        let path = self.net_loc_end;
        self.question = self.question.min(first(m.question, path));
        self.hash = self.hash.min(first(m.hash, path));
        if Classes::<S>::PARAMS {
            self.semicolon = self.semicolon.min(first(m.semicolon, path));
        }
        let starts = [
            self.from,
            path,
            self.semicolon + 1,
            self.question + 1,
            self.hash + 1,
        ];
        for (c, start) in starts.into_iter().enumerate() {
            if c != 2 || Classes::<S>::PARAMS {
                let bad = m.bad[Classes::<S>::INDEX[c]];
                self.bad[c] = self.bad[c].min(first(bad, start));
            }
        }
        self.percent |= m.percent != 0;
    }
}

/// [`Meta::fits`] from whether each component (net_loc, path, params,
/// query, fragment) holds only bytes of its class, and whether the input
/// holds a `%`, and whether the path starts with `//`.
#[inline(always)]
fn fits(fine: [bool; N_COMPONENTS], percent: bool, slashes: bool) -> u16 {
    let flags = [AUTH, SEGMENT, PARAM, QUERY, FRAGMENT];
    let mut fits = u16::MAX;
    for (fine, flag) in fine.into_iter().zip(flags) {
        if !fine {
            fits &= !flag;
        }
    }
    if percent {
        fits &= !NO_PCT;
    }
    if slashes {
        fits &= !NOT_SLASHES;
    }
    fits
}

/// [`split`] for an input of at least 16 bytes.
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn split_avx2<const S: usize>(b: &[u8]) -> Meta {
    let spec = Shape::<S>::SPEC;
    let rule = Shape::<S>::SCHEME;
    let t = table::of(spec);
    let len = b.len();
    let start = if rule == SchemeRule::Ialpha { url_prefix(b) } else { 0 };
    let scheme_end = scheme_end(b, start, len, rule, t);
    let pos = if scheme_end == NONE { start } else { scheme_end + 1 };
    let net_loc = b.get(pos..pos + 2) == Some(b"//");
    let from = if net_loc { pos + 2 } else { pos };
    if len < 64 {
        let m = masks::<S, true>(b, 0);
        return short::<S, u64>(b, start, scheme_end, net_loc, from, m);
    }
    if len < 128 {
        let m = masks::<S, false>(b, 0)
            .join(masks::<S, false>(b, len - 64), len - 64);
        return short::<S, u128>(b, start, scheme_end, net_loc, from, m);
    }
    let mut f = Found {
        from,
        net_loc_end: if net_loc { FAR } else { pos },
        question: FAR,
        hash: FAR,
        semicolon: FAR,
        bad: [FAR; N_COMPONENTS],
        percent: false,
    };
    // Windows of 64 bytes, the last one ending at the end of the input.
    let mut base = 0;
    loop {
        let last = base + 64 >= len;
        let at = if last { len - 64 } else { base };
        f.window::<S>(&masks::<S, false>(b, at), at);
        if last {
            break;
        }
        base += 64;
    }
    let path_start = f.net_loc_end.min(len);
    let hash = f.hash.min(len);
    let question = f.question.min(hash);
    let semicolon = f.semicolon.min(question);
    let path_end = semicolon;
    let params = semicolon < question;
    let query = question < hash;
    let fragment = hash < len;
    // Whether each component holds only bytes of its class; positions
    // after the end of the input (from the zeros of a short window) count
    // as none.
    let fine = [
        f.bad[0] >= path_start,
        f.bad[1] >= path_end,
        !params || f.bad[2] >= question,
        !query || f.bad[3] >= hash,
        !fragment || f.bad[4] >= len,
    ];
    let slashes = b[path_start..].starts_with(b"//");
    let fits = fits(fine, f.percent, slashes);
    Meta {
        start,
        scheme_end,
        net_loc_start: if net_loc { from } else { NONE },
        path_start,
        path_end,
        params_start: if params { semicolon } else { NONE },
        query_start: if query { question } else { NONE },
        fragment_start: if fragment { hash } else { NONE },
        fits,
    }
}

/// [`split_avx2`] after the scheme for an input of 16 to 63 bytes: one
/// window, every search a shift and a `tzcnt` (64 for none; shift counts
/// past 63 wrap, but only for absent components, whose results are not
/// used).
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline]
fn short<const S: usize, B: Bits>(
    b: &[u8],
    start: usize,
    scheme_end: usize,
    net_loc: bool,
    from: usize,
    m: Masks<B>,
) -> Meta {
    let len = b.len();
    let first = |mask: B, p: usize| mask.first(p);
    let mut stops = m.slash | m.hash;
    if Classes::<S>::QUERY_ENDS_NET_LOC {
        stops = stops | m.question;
    }
    let path_start = if net_loc { first(stops, from).min(len) } else { from };
    let hash = first(m.hash, path_start).min(len);
    let question = first(m.question, path_start).min(hash);
    let semicolon = if Classes::<S>::PARAMS {
        first(m.semicolon, path_start).min(question)
    } else {
        question
    };
    let path_end = semicolon;
    let params = semicolon < question;
    let query = question < hash;
    let fragment = hash < len;
    let bad = |c: usize, p: usize| first(m.bad[Classes::<S>::INDEX[c]], p);
    let fine = [
        bad(0, from) >= path_start,
        bad(1, path_start) >= path_end,
        !params || bad(2, semicolon + 1) >= question,
        !query || bad(3, question + 1) >= hash,
        !fragment || bad(4, hash + 1) >= len,
    ];
    let fits = fits(fine, m.percent.any(), m.slash.pair(path_start));
    Meta {
        start,
        scheme_end,
        net_loc_start: if net_loc { from } else { NONE },
        path_start,
        path_end,
        params_start: if params { semicolon } else { NONE },
        query_start: if query { question } else { NONE },
        fragment_start: if fragment { hash } else { NONE },
        fits,
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::super::{validate, Reference};
    use super::*;
    use crate::spec::Spec;

    /// Both splitters on `b` under `Spec::IETF_AND_WHATWG[S]`: the same offsets, and
    /// class flags that are exact in the AVX2 one (from 16 bytes on); for
    /// UTF-8 input, the same `is_valid()`.
    fn agree<const S: usize>(b: &[u8], avx2: Avx2, check: bool) {
        let spec = Spec::IETF_AND_WHATWG[S];
        let want = split_scalar::<S>(b);
        let got = split::<S>(b, avx2);
        let strip = |m: Meta| Meta { fits: 0, ..m };
        assert_eq!(strip(got), strip(want), "{spec} {b:?}");
        let t = table::of(spec);
        let and = |r: core::ops::Range<usize>| {
            b[r].iter().fold(u16::MAX, |a, &c| a & t[usize::from(c)])
        };
        let m = got;
        let mut exact = u16::MAX;
        if m.net_loc_start != NONE {
            exact &= and(m.net_loc_start..m.path_start) | !AUTH;
        }
        exact &= and(m.path_start..m.path_end) | !SEGMENT;
        let ends = [m.params_start, m.query_start, m.fragment_start, b.len()];
        for (k, flag) in [PARAM, QUERY, FRAGMENT].into_iter().enumerate() {
            if ends[k] != NONE {
                let end = ends[k + 1..].iter().find(|&&e| e != NONE);
                exact &= and(ends[k] + 1..*end.unwrap()) | !flag;
            }
        }
        if b.contains(&b'%') {
            exact &= !NO_PCT;
        }
        if b[m.path_start..].starts_with(b"//") {
            exact &= !NOT_SLASHES;
        }
        if b.len() >= 16 {
            assert_eq!(got.fits, exact, "{spec} {b:?}");
        }
        // The scalar flags may only be clear where the exact ones are.
        assert_eq!(want.fits & exact, want.fits, "{spec} {b:?}");
        if let Ok(input) = core::str::from_utf8(b)
            .map_err(|_| ())
            .and_then(|s| if check { Ok(s) } else { Err(()) })
        {
            let valid = |meta| {
                let r = Reference { input, spec, meta };
                let mut valid = true;
                validate::check(&r, &mut |_| {
                    valid = false;
                    false
                });
                assert_eq!(r.is_valid(), valid, "{spec} {input:?}");
                valid
            };
            assert_eq!(valid(got), valid(want), "{spec} {input:?}");
        }
    }

    fn agree_all(b: &[u8], avx2: Avx2) {
        agree::<0>(b, avx2, true);
        agree::<1>(b, avx2, true);
        agree::<2>(b, avx2, true);
        agree::<3>(b, avx2, true);
        agree::<4>(b, avx2, true);
        agree::<5>(b, avx2, true);
        agree::<6>(b, avx2, true);
        agree::<7>(b, avx2, true);
    }

    /// Inputs whose components end at and around the 16-, 32- and 64-byte
    /// edges of the lanes and windows.
    fn shapes() -> Vec<String> {
        let mut out = Vec::new();
        for len in [
            16, 17, 31, 32, 33, 47, 48, 62, 63, 64, 65, 95, 127, 128, 129, 200,
        ] {
            for (head, tail) in [
                ("http://", "/p;q?r#s"),
                ("//", "/a/b?c"),
                ("https://", "?q#f"),
                ("a:", ";p/q"),
                ("URL:x-y://", "#"),
                ("", "/x;y?z#w"),
            ] {
                let mut s = String::from(head);
                let mut k = 0;
                while s.len() + tail.len() < len {
                    s.push(b"abc.de-f/gh:@%41~z"[k % 18] as char);
                    k += 1;
                }
                s.push_str(tail);
                s.truncate(len.max(16));
                out.push(s);
            }
        }
        out
    }

    #[test]
    fn avx2_and_scalar_splitters_agree() {
        let Some(avx2) = Avx2::get() else {
            // Nothing to compare on this CPU.
            return;
        };
        for s in shapes() {
            agree_all(s.as_bytes(), avx2);
        }
        // Every byte value at every offset at and next to the edges of
        // the lanes and of the input, under RFC 3986 and RFC 1808 (two and
        // one class masks) and RFC 1630 (a scheme rule and net_loc ends of
        // its own): offsets and exact flags (validity above).
        for s in shapes().into_iter().filter(|s| s.len() <= 129) {
            let mut b = s.into_bytes();
            let len = b.len();
            for i in 0..len {
                if !matches!(i % 16, 0 | 1 | 15) && i + 2 < len {
                    continue;
                }
                let keep = b[i];
                for c in 0..=255u8 {
                    b[i] = c;
                    agree::<6>(&b, avx2, false);
                    agree::<2>(&b, avx2, false);
                    agree::<0>(&b, avx2, false);
                }
                b[i] = keep;
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// Random inputs of up to 200 bytes from the bytes that end or
        /// classify components, under every spec.
        #[test]
        fn avx2_and_scalar_agree_on_random_inputs(
            s in "(URL:|url:)?([a-z][a-z+.-]{0,7}:)?(//)?[a-zA-Z0-9:/?#;%@.~\\[\\] |{}\u{e9}\u{7f}-]{0,190}"
        ) {
            if let Some(avx2) = Avx2::get() {
                agree_all(s.as_bytes(), avx2);
            }
        }
    }
}
