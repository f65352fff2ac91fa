//! `ada::idna::to_ascii` of ada 2.9.2, the `toASCII` Node.js 20.20.2's
//! `url.parse` calls, written after ada's `src/ada_idna.cpp` of that
//! release (`to_ascii`, `from_ascii_to_ascii`, `punycode_to_utf32`,
//! `utf32_to_punycode`, `is_label_valid`).
//!
//! ada maps and normalizes with tables of its own (the IDNA mapping of
//! Unicode 15.0, and lists of marks, viramas, joining types and bidi
//! classes of earlier versions); here the UTS #46 mapping, NFC and the
//! character properties are ICU4X's, of Unicode 17. A host with a
//! character on which the two differ (one assigned after Unicode 15.0,
//! a Hangul filler or a musical format character, whose IDNA status
//! changed since) can be decided differently. ada's steps are kept as ada
//! has them, where they differ from UTS #46: a disallowed character
//! fails the whole domain, an ASCII label is never checked, and
//! `is_label_valid` returns at the first ZWNJ or ZWJ it can decide
//! without checking the bidi rules, applies them to a label only when
//! that label has a right-to-left character, and in a label that starts
//! left-to-right checks every character but the last non-mark.

use icu_normalizer::uts46::Uts46MapperBorrowed;
use icu_properties::props::{
    BidiClass, CanonicalCombiningClass, GeneralCategory, JoiningType,
};
use icu_properties::CodePointMapData;

/// `ada::idna::to_ascii(input)`: the domain in ASCII, or `""` where ada
/// fails it.
pub(crate) fn to_ascii(input: &str) -> String {
    if input.is_ascii() {
        return from_ascii_to_ascii(input).unwrap_or_default();
    }
    unicode_to_ascii(input).unwrap_or_default()
}

/// `from_ascii_to_ascii`: lower-cased; only the `xn--` labels checked.
fn from_ascii_to_ascii(input: &str) -> Option<String> {
    let mapped = input.to_ascii_lowercase();
    for label in mapped.split('.') {
        if let Some(puny) = label.strip_prefix("xn--") {
            check_punycode_label(puny)?;
        }
    }
    Some(mapped)
}

/// The non-ASCII path of `to_ascii`: map and normalize, then each label
/// as it is (ASCII), checked (`xn--`) or checked and encoded.
fn unicode_to_ascii(input: &str) -> Option<String> {
    let mapper = Uts46MapperBorrowed::new();
    // `map`: a disallowed character (ICU4X gives U+FFFD for one, and
    // U+FFFD is one) fails the domain; then `normalize`.
    let mapped: Vec<char> = mapper.map_normalize(input.chars()).collect();
    if mapped.contains(&'\u{fffd}') {
        return None;
    }
    let mut out = String::with_capacity(mapped.len() + 8);
    let labels = mapped.split(|&c| c == '.');
    for (i, label) in labels.enumerate() {
        if i > 0 {
            out.push('.');
        }
        if label.is_empty() {
            continue;
        }
        if label.starts_with(&['x', 'n', '-', '-']) {
            if !label.iter().all(char::is_ascii) {
                return None;
            }
            let text: String = label.iter().collect();
            check_punycode_label(&text[4..])?;
            out.push_str(&text);
        } else if label.iter().all(char::is_ascii) {
            out.extend(label);
        } else {
            if !is_label_valid(label) {
                return None;
            }
            out.push_str("xn--");
            utf32_to_punycode(label, &mut out)?;
        }
    }
    Some(out)
}

/// The checks of an `xn--` label: its Punycode decodes, to a label that
/// mapping and NFC leave as it is, that is not empty and is valid.
fn check_punycode_label(puny: &str) -> Option<()> {
    let decoded = punycode_to_utf32(puny)?;
    // A value that is no character (a surrogate, above U+10FFFF) is
    // disallowed.
    let chars: Vec<char> =
        decoded.iter().map(|&c| char::from_u32(c)).collect::<Option<_>>()?;
    if chars.is_empty() || chars.contains(&'\u{fffd}') {
        return None;
    }
    let mapper = Uts46MapperBorrowed::new();
    if !mapper
        .normalize_validate(chars.iter().copied())
        .eq(chars.iter().copied())
    {
        return None;
    }
    is_label_valid(&chars).then_some(())
}

// RFC 3492's parameters.
const BASE: i64 = 36;
const TMIN: i64 = 1;
const TMAX: i64 = 26;
const SKEW: i64 = 38;
const DAMP: i64 = 700;
const INITIAL_BIAS: i64 = 72;
const INITIAL_N: i64 = 128;
const MAX: i64 = 0x7fff_ffff;

fn adapt(mut d: i64, n: i64, first: bool) -> i64 {
    d /= if first { DAMP } else { 2 };
    d += d / n;
    let mut k = 0;
    while d > ((BASE - TMIN) * TMAX) / 2 {
        d /= BASE - TMIN;
        k += BASE;
    }
    k + ((BASE - TMIN + 1) * d) / (d + SKEW)
}

fn threshold(k: i64, bias: i64) -> i64 {
    if k <= bias {
        TMIN
    } else if k >= bias + TMAX {
        TMAX
    } else {
        k - bias
    }
}

/// `punycode_to_utf32`: the code points, or `None`. Only lower-case
/// letters and digits are digits; no value is checked but `n >= 0x80`.
fn punycode_to_utf32(input: &str) -> Option<Vec<u32>> {
    let mut out: Vec<u32> = Vec::with_capacity(input.len());
    let mut n = INITIAL_N;
    let mut i: i64 = 0;
    let mut bias = INITIAL_BIAS;
    let mut rest = input.as_bytes();
    if let Some(end) = rest.iter().rposition(|&c| c == b'-') {
        out.extend(rest[..end].iter().map(|&c| u32::from(c)));
        rest = &rest[end + 1..];
    }
    while !rest.is_empty() {
        let old_i = i;
        let mut w = 1;
        let mut k = BASE;
        loop {
            let (&c, tail) = rest.split_first()?;
            rest = tail;
            let digit = match c {
                b'a'..=b'z' => i64::from(c - b'a'),
                b'0'..=b'9' => i64::from(c - b'0') + 26,
                _ => return None,
            };
            if digit > (MAX - i) / w {
                return None;
            }
            i += digit * w;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            if w > MAX / (BASE - t) {
                return None;
            }
            w *= BASE - t;
            k += BASE;
        }
        let count = i64::try_from(out.len()).ok()? + 1;
        bias = adapt(i - old_i, count, old_i == 0);
        if i / count > MAX - n {
            return None;
        }
        n += i / count;
        i %= count;
        if n < 0x80 {
            return None;
        }
        out.insert(usize::try_from(i).ok()?, u32::try_from(n).ok()?);
        i += 1;
    }
    Some(out)
}

/// `utf32_to_punycode`: RFC 3492's encoding, appended to `out`.
fn utf32_to_punycode(input: &[char], out: &mut String) -> Option<()> {
    let digit = |d: i64| {
        char::from(if d < 26 { b'a' + d as u8 } else { b'0' + (d - 26) as u8 })
    };
    let mut n = INITIAL_N;
    let mut d: i64 = 0;
    let mut bias = INITIAL_BIAS;
    let mut h: i64 = 0;
    for &c in input {
        if c.is_ascii() {
            h += 1;
            out.push(c);
        }
    }
    let b = h;
    if b > 0 {
        out.push('-');
    }
    let len = i64::try_from(input.len()).ok()?;
    while h < len {
        let m = input
            .iter()
            .map(|&c| i64::from(u32::from(c)))
            .filter(|&c| c >= n)
            .min()?;
        if (m - n) > (MAX - d) / (h + 1) {
            return None;
        }
        d += (m - n) * (h + 1);
        n = m;
        for &c in input {
            let c = i64::from(u32::from(c));
            if c < n {
                if d == MAX {
                    return None;
                }
                d += 1;
            }
            if c == n {
                let mut q = d;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(d, h + 1, h == b);
                d = 0;
                h += 1;
            }
        }
        d += 1;
        n += 1;
    }
    Some(())
}

/// The bidi classes ada's `is_label_valid` reads.
fn direction(c: char) -> BidiClass {
    CodePointMapData::<BidiClass>::new().get(c)
}

/// `is_label_valid`, as ada 2.9.2 has it.
fn is_label_valid(label: &[char]) -> bool {
    let Some(&first) = label.first() else { return true };
    // The label must not begin with a combining mark.
    let category = CodePointMapData::<GeneralCategory>::new().get(first);
    if matches!(
        category,
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    ) {
        return false;
    }
    // ContextJ: ada decides the label at its first ZWNJ or ZWJ.
    let virama = |c: char| {
        CodePointMapData::<CanonicalCombiningClass>::new().get(c)
            == CanonicalCombiningClass::Virama
    };
    let joining = CodePointMapData::<JoiningType>::new();
    for (i, &c) in label.iter().enumerate() {
        if c != '\u{200c}' && c != '\u{200d}' {
            continue;
        }
        if i > 0 && virama(label[i - 1]) {
            return true;
        }
        if c == '\u{200d}' || i + 1 >= label.len() {
            return false;
        }
        let left_or_dual = |c: &char| {
            matches!(
                joining.get(*c),
                JoiningType::LeftJoining | JoiningType::DualJoining
            )
        };
        let right_or_dual = |c: &char| {
            matches!(
                joining.get(*c),
                JoiningType::RightJoining | JoiningType::DualJoining
            )
        };
        return label[..i].iter().any(left_or_dual)
            && label[i + 1..].iter().any(right_or_dual);
    }
    // The bidi rules (RFC 5893, section 2), for a label with a
    // right-to-left character.
    let Some(last) =
        label.iter().rposition(|&c| direction(c) != BidiClass::NonspacingMark)
    else {
        return false;
    };
    let rtl = label.iter().any(|&c| {
        matches!(
            direction(c),
            BidiClass::RightToLeft
                | BidiClass::ArabicLetter
                | BidiClass::ArabicNumber
        )
    });
    if !rtl {
        return true;
    }
    use BidiClass as B;
    if direction(first) == B::LeftToRight {
        // ada's loop stops before the last non-mark, which it never
        // checks.
        return label[..last].iter().all(|&c| {
            matches!(
                direction(c),
                B::LeftToRight
                    | B::EuropeanNumber
                    | B::EuropeanSeparator
                    | B::CommonSeparator
                    | B::EuropeanTerminator
                    | B::OtherNeutral
                    | B::BoundaryNeutral
                    | B::NonspacingMark
            )
        });
    }
    let (mut has_an, mut has_en) = (false, false);
    for (i, &c) in label[..=last].iter().enumerate() {
        let d = direction(c);
        if d == B::EuropeanNumber {
            has_en = true;
        }
        if d == B::ArabicNumber {
            has_an = true;
        }
        if (d == B::EuropeanNumber || d == B::ArabicNumber) && has_en && has_an
        {
            return false;
        }
        let allowed = matches!(
            d,
            B::RightToLeft
                | B::ArabicLetter
                | B::ArabicNumber
                | B::EuropeanNumber
                | B::EuropeanSeparator
                | B::CommonSeparator
                | B::EuropeanTerminator
                | B::OtherNeutral
                | B::BoundaryNeutral
                | B::NonspacingMark
        );
        if !allowed {
            return false;
        }
        if i == last
            && !matches!(
                d,
                B::RightToLeft
                    | B::ArabicLetter
                    | B::ArabicNumber
                    | B::EuropeanNumber
            )
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::to_ascii;

    #[test]
    fn to_ascii_as_ada() {
        assert_eq!(to_ascii("bücher.example"), "xn--bcher-kva.example");
        assert_eq!(to_ascii("EXAMPLE..com"), "example..com");
        assert_eq!(to_ascii("xn--bcher-kva"), "xn--bcher-kva");
        // A label of Punycode that decodes to nothing, or to upper case.
        assert_eq!(to_ascii("xn--"), "");
        assert_eq!(to_ascii("xn--Bcher-kva"), "xn--bcher-kva");
        // A disallowed character fails the domain; an ignored one goes.
        assert_eq!(to_ascii("a\u{ad}b"), "ab");
        assert_eq!(to_ascii("a\u{fffd}"), "");
        // ASCII labels are not checked, even beside Unicode ones.
        assert_eq!(to_ascii("-x.ü"), "-x.xn--tda");
    }
}
