//! Character classes of every grammar, one constant per rule.
//!
//! Each document names its classes differently (RFC 1630's `safe` holds `@`
//! and `&`; RFC 1808's `safe` holds `+`; RFC 2396 calls the same marks
//! `mark`; RFC 3986 splits `reserved` into `gen-delims` and `sub-delims`),
//! so each document gets a module of its own, and every constant is named
//! after the rule it implements and quotes it. No grammar admits a byte
//! outside US-ASCII unescaped, so a class is a 128-bit set.
//!
//! The `%` of an escape is never in a class: escapes are checked on their
//! own (see [`crate::escape`]).
//!
//! ```
//! use urlspec::chars::{rfc1808, rfc3986};
//!
//! assert!(rfc1808::NATIONAL.contains(b'~'));
//! assert!(!rfc1808::UNRESERVED.contains(b'~'));
//! assert!(rfc3986::UNRESERVED.contains(b'~'));
//! ```

use core::fmt;

/// `s` without `prefix` (ASCII), when it starts with it ignoring ASCII
/// case. The comparison is on bytes, so that a multi-byte character where
/// the prefix would end is a mismatch, not a slice through a character.
pub(crate) fn strip_prefix_ignore_case<'s>(
    s: &'s str,
    prefix: &str,
) -> Option<&'s str> {
    debug_assert!(prefix.is_ascii());
    let n = prefix.len();
    let head = s.as_bytes().get(..n)?;
    // Equal to ASCII bytes, `head` ends on a character boundary.
    head.eq_ignore_ascii_case(prefix.as_bytes()).then(|| &s[n..])
}

/// A set of US-ASCII bytes, usable in `const` context.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CharClass {
    bits: u128,
}

impl CharClass {
    /// The empty class.
    pub const EMPTY: CharClass = CharClass { bits: 0 };

    /// The class of the bytes of `chars`, which must be ASCII.
    ///
    /// ```
    /// use urlspec::chars::CharClass;
    /// const MARK: CharClass = CharClass::of("-_.!~*'()");
    /// assert!(MARK.contains(b'~') && !MARK.contains(b'a'));
    /// ```
    #[must_use]
    pub const fn of(chars: &str) -> CharClass {
        let bytes = chars.as_bytes();
        let mut class = CharClass::EMPTY;
        let mut i = 0;
        while i < bytes.len() {
            class = class.with(bytes[i]);
            i += 1;
        }
        class
    }

    /// The class of the bytes `first..=last`.
    #[must_use]
    pub const fn range(first: u8, last: u8) -> CharClass {
        let mut class = CharClass::EMPTY;
        let mut b = first;
        while b <= last {
            class = class.with(b);
            if b == u8::MAX {
                break;
            }
            b += 1;
        }
        class
    }

    /// This class with `byte` added (ignored when not ASCII).
    #[must_use]
    pub const fn with(self, byte: u8) -> CharClass {
        if byte < 128 {
            CharClass { bits: self.bits | 1 << byte }
        } else {
            self
        }
    }

    /// This class with `byte` removed.
    #[must_use]
    pub const fn without(self, byte: u8) -> CharClass {
        if byte < 128 {
            CharClass { bits: self.bits & !(1 << byte) }
        } else {
            self
        }
    }

    /// The union of two classes.
    #[must_use]
    pub const fn or(self, other: CharClass) -> CharClass {
        CharClass { bits: self.bits | other.bits }
    }

    /// The bytes of `self` that are not in `other`.
    #[must_use]
    pub const fn minus(self, other: CharClass) -> CharClass {
        CharClass { bits: self.bits & !other.bits }
    }

    /// Whether `byte` is in the class.
    #[inline(always)]
    #[must_use]
    pub const fn contains(self, byte: u8) -> bool {
        // Two 64-bit halves chosen without a branch: a 128-bit shift by a
        // variable amount costs twice as many instructions.
        let word = if byte < 64 {
            self.bits as u64
        } else {
            (self.bits >> 64) as u64
        };
        byte < 128 && word >> (byte & 63) & 1 == 1
    }

    /// The class as a bitmap: bit `b` is set when byte `b` is in it.
    pub(crate) const fn bits(self) -> u128 {
        self.bits
    }

    /// Whether every byte of `bytes` is in the class.
    #[must_use]
    pub fn contains_all(self, bytes: &[u8]) -> bool {
        bytes.iter().all(|&b| self.contains(b))
    }

    /// The bytes of the class, in ascending order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0u8..128).filter(move |&b| self.contains(b))
    }
}

impl fmt::Debug for CharClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CharClass(\"")?;
        for b in self.iter() {
            write!(f, "{}", (b as char).escape_debug())?;
        }
        f.write_str("\")")
    }
}

/// `lowalpha | hialpha` (RFC 1808), `ALPHA` (RFC 3986).
pub const ALPHA: CharClass =
    CharClass::range(b'a', b'z').or(CharClass::range(b'A', b'Z'));
/// `digit = "0" | … | "9"`.
pub const DIGIT: CharClass = CharClass::range(b'0', b'9');
/// `alphanum = alpha | digit` (1996 draft, RFC 2396).
pub const ALPHANUM: CharClass = ALPHA.or(DIGIT);
/// `hex = digit | "A" … "F" | "a" … "f"`.
pub const HEX: CharClass = DIGIT.or(CharClass::of("ABCDEFabcdef"));
/// `control = <US-ASCII coded characters 00-1F and 7F hexadecimal>`.
pub const CONTROL: CharClass = CharClass::range(0, 0x1f).with(0x7f);
/// `space = <US-ASCII coded character 20 hexadecimal>`.
pub const SPACE: CharClass = CharClass::of(" ");
/// `scheme = 1*( alpha | digit | "+" | "-" | "." )` (RFC 1808, 1996
/// draft), and every character after the first in RFC 2396 and RFC 3986.
pub const SCHEME: CharClass = ALPHANUM.or(CharClass::of("+-."));

/// The byte range of `s`, a slice of `input`.
pub(crate) fn span_of(input: &str, s: &str) -> core::ops::Range<usize> {
    let start = crate::bytes::offset_in(input, s);
    start..start + s.len()
}

/// RFC 1630 (June 1994), "BNF of Generic URI Syntax" and "BNF for specific
/// URL schemes".
pub mod rfc1630 {
    use super::{CharClass, ALPHA, DIGIT};

    /// `safe $ | - | _ | @ | . | &` (generic BNF).
    pub const SAFE: CharClass = CharClass::of("$-_@.&");
    /// `safe $ | - | _ | @ | . | & | + | -` (URL BNF, with `+`).
    pub const SAFE_URL: CharClass = SAFE.with(b'+');
    /// `extra ! | * | " | ' | ( | ) | ,`.
    pub const EXTRA: CharClass = CharClass::of("!*\"'(),");
    /// `reserved = | ; | / | # | ? | : | space`.
    pub const RESERVED: CharClass = CharClass::of("=;/#?: ");
    /// `national { | } | vline | [ | ] | \ | ^ | ~`.
    pub const NATIONAL: CharClass = CharClass::of("{}|[]\\^~");
    /// `punctuation < | >`.
    pub const PUNCTUATION: CharClass = CharClass::of("<>");
    /// `xalpha alpha | digit | safe | extra | escape` (escape aside).
    pub const XALPHA: CharClass = ALPHA.or(DIGIT).or(SAFE).or(EXTRA);
    /// `xpalpha xalpha | +`.
    pub const XPALPHA: CharClass = XALPHA.with(b'+');
    /// `alphanum2 alpha | digit | - | _ | . | +` (user and password).
    pub const ALPHANUM2: CharClass = ALPHA.or(DIGIT).or(CharClass::of("-_.+"));
}

/// RFC 1808 (June 1995), section 2.2.
pub mod rfc1808 {
    use super::{CharClass, ALPHA, DIGIT};

    /// `safe = "$" | "-" | "_" | "." | "+"`.
    pub const SAFE: CharClass = CharClass::of("$-_.+");
    /// `extra = "!" | "*" | "'" | "(" | ")" | ","`.
    pub const EXTRA: CharClass = CharClass::of("!*'(),");
    /// `national = "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`"`.
    pub const NATIONAL: CharClass = CharClass::of("{}|\\^~[]`");
    /// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`.
    pub const RESERVED: CharClass = CharClass::of(";/?:@&=");
    /// `punctuation = "<" | ">" | "#" | "%" | <">`.
    pub const PUNCTUATION: CharClass = CharClass::of("<>#%\"");
    /// `unreserved = alpha | digit | safe | extra`.
    pub const UNRESERVED: CharClass = ALPHA.or(DIGIT).or(SAFE).or(EXTRA);
    /// `uchar = unreserved | escape` (escape aside).
    pub const UCHAR: CharClass = UNRESERVED;
    /// `pchar = uchar | ":" | "@" | "&" | "="`.
    pub const PCHAR: CharClass = UCHAR.or(CharClass::of(":@&="));
    /// `param = *( pchar | "/" )`.
    pub const PARAM: CharClass = PCHAR.with(b'/');
    /// `net_loc = *( pchar | ";" | "?" )`.
    pub const NET_LOC: CharClass = PCHAR.or(CharClass::of(";?"));
    /// `query = *( uchar | reserved )`, also `fragment`.
    pub const QUERY: CharClass = UCHAR.or(RESERVED);
}

/// draft-ietf-uri-relative-url-04 (January 1995), section 2.2: RFC 1808's
/// grammar except that `unreserved` includes `national`.
pub mod draft04 {
    use super::{rfc1808, CharClass};

    /// `unreserved = alpha | digit | safe | extra | national`.
    pub const UNRESERVED: CharClass =
        rfc1808::UNRESERVED.or(rfc1808::NATIONAL);
    /// `uchar = unreserved | escape` (escape aside).
    pub const UCHAR: CharClass = UNRESERVED;
    /// `pchar = uchar | ":" | "@" | "&" | "="`.
    pub const PCHAR: CharClass = UCHAR.or(CharClass::of(":@&="));
    /// `param = *( pchar | "/" )`.
    pub const PARAM: CharClass = PCHAR.with(b'/');
    /// `net_loc = *( pchar | ";" | "?" )`.
    pub const NET_LOC: CharClass = PCHAR.or(CharClass::of(";?"));
    /// `query = *( uchar | reserved )`, also `fragment`.
    pub const QUERY: CharClass = UCHAR.or(rfc1808::RESERVED);
}

/// The URL draft of 10 November 1996 (draft-fielding-uri-url-00e).
pub mod draft96 {
    use super::{CharClass, ALPHANUM};

    /// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+"`.
    pub const RESERVED: CharClass = CharClass::of(";/?:@&=+");
    /// `mark = "$" | "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")" |
    /// ","`.
    pub const MARK: CharClass = CharClass::of("$-_.!~*'(),");
    /// `unreserved = alpha | digit | mark`.
    pub const UNRESERVED: CharClass = ALPHANUM.or(MARK);
    /// `delims = "<" | ">" | "#" | "%" | <">`.
    pub const DELIMS: CharClass = CharClass::of("<>#%\"");
    /// `unwise = "{" | "}" | "|" | "\" | "^" | "[" | "]" | "`"`.
    pub const UNWISE: CharClass = CharClass::of("{}|\\^[]`");
    /// `uchar = unreserved | escaped` (escape aside).
    pub const UCHAR: CharClass = UNRESERVED;
    /// `pchar = uchar | ":" | "@" | "&" | "=" | "+"`.
    pub const PCHAR: CharClass = UCHAR.or(CharClass::of(":@&=+"));
    /// `param = *( pchar | "/" )`.
    pub const PARAM: CharClass = PCHAR.with(b'/');
    /// `urlchar = reserved | unreserved | escaped` (query, fragment).
    pub const URLCHAR: CharClass = RESERVED.or(UNRESERVED);
    /// `user = *[ uchar | ";" | "?" | "&" | "=" | "+" ]`, also `password`.
    pub const USER: CharClass = UCHAR.or(CharClass::of(";?&=+"));
}

/// The 26 December 1996 changes to the URL draft: `param = *pchar`, and
/// "Within a query component, the characters "/", "&", "=", and "+" are
/// reserved."
pub mod draft96dec {
    use super::{draft96, CharClass};

    /// `param = *pchar` (the collected BNF; no `/`).
    pub const PARAM: CharClass = draft96::PCHAR;
    /// The characters reserved within a query: `/`, `&`, `=` and `+`.
    pub const QUERY_RESERVED: CharClass = CharClass::of("/&=+");
}

/// RFC 2396 (August 1998), Appendix A and section 2.4.3; the RFC 2732
/// amendments are in [`rfc2732`].
pub mod rfc2396 {
    use super::{CharClass, ALPHANUM};

    /// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" |
    /// ","`.
    pub const RESERVED: CharClass = CharClass::of(";/?:@&=+$,");
    /// `mark = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"`.
    pub const MARK: CharClass = CharClass::of("-_.!~*'()");
    /// `unreserved = alphanum | mark`.
    pub const UNRESERVED: CharClass = ALPHANUM.or(MARK);
    /// `uric = reserved | unreserved | escaped` (query, fragment).
    pub const URIC: CharClass = RESERVED.or(UNRESERVED);
    /// `uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" | "&" |
    /// "=" | "+" | "$" | ","`.
    pub const URIC_NO_SLASH: CharClass = URIC.without(b'/');
    /// `pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" |
    /// ","`.
    pub const PCHAR: CharClass = UNRESERVED.or(CharClass::of(":@&=+$,"));
    /// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+"
    /// | "$" | "," )`.
    pub const REL_SEGMENT: CharClass = UNRESERVED.or(CharClass::of(";@&=+$,"));
    /// `userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" |
    /// "$" | "," )`.
    pub const USERINFO: CharClass = UNRESERVED.or(CharClass::of(";:&=+$,"));
    /// `reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" |
    /// "&" | "=" | "+" )`.
    pub const REG_NAME: CharClass = UNRESERVED.or(CharClass::of("$,;:@&=+"));
    /// `delims = "<" | ">" | "#" | "%" | <">`.
    pub const DELIMS: CharClass = CharClass::of("<>#%\"");
    /// `unwise = "{" | "}" | "|" | "\" | "^" | "[" | "]" | "`"`.
    pub const UNWISE: CharClass = CharClass::of("{}|\\^[]`");
}

/// RFC 2732 (December 1999), section 3: brackets move from `unwise` to
/// `reserved`.
pub mod rfc2732 {
    use super::{rfc2396, CharClass};

    /// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","
    /// | "[" | "]"`.
    pub const RESERVED: CharClass = rfc2396::RESERVED.or(CharClass::of("[]"));
    /// `unwise = "{" | "}" | "|" | "\" | "^" | "`"`.
    pub const UNWISE: CharClass = CharClass::of("{}|\\^`");
    /// `uric = reserved | unreserved | escaped`, with the new `reserved`.
    pub const URIC: CharClass = RESERVED.or(rfc2396::UNRESERVED);
    /// `uric_no_slash`, with the new `reserved`.
    pub const URIC_NO_SLASH: CharClass = URIC.without(b'/');
}

/// RFC 3986 (January 2005), Appendix A.
pub mod rfc3986 {
    use super::{CharClass, ALPHA, DIGIT};

    /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    pub const UNRESERVED: CharClass =
        ALPHA.or(DIGIT).or(CharClass::of("-._~"));
    /// `gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"`.
    pub const GEN_DELIMS: CharClass = CharClass::of(":/?#[]@");
    /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," /
    /// ";" / "="`.
    pub const SUB_DELIMS: CharClass = CharClass::of("!$&'()*+,;=");
    /// `reserved = gen-delims / sub-delims`.
    pub const RESERVED: CharClass = GEN_DELIMS.or(SUB_DELIMS);
    /// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`.
    pub const PCHAR: CharClass =
        UNRESERVED.or(SUB_DELIMS).or(CharClass::of(":@"));
    /// `segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )`.
    pub const SEGMENT_NZ_NC: CharClass = PCHAR.without(b':');
    /// `query = *( pchar / "/" / "?" )`, also `fragment`.
    pub const QUERY: CharClass = PCHAR.or(CharClass::of("/?"));
    /// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`.
    pub const USERINFO: CharClass = UNRESERVED.or(SUB_DELIMS).with(b':');
    /// `reg-name = *( unreserved / pct-encoded / sub-delims )`.
    pub const REG_NAME: CharClass = UNRESERVED.or(SUB_DELIMS);
    /// The characters after `"v" 1*HEXDIG "."` in `IPvFuture`:
    /// `unreserved / sub-delims / ":"`.
    pub const IPVFUTURE: CharClass = UNRESERVED.or(SUB_DELIMS).with(b':');
}

/// The WHATWG URL Standard (living standard), §1.3 "Percent-encoded
/// bytes" and §3.2 "Host miscellaneous": the percent-encode sets its parser
/// encodes each component with, and the code points a host may not hold.
///
/// Every percent-encode set also holds every code point above U+007E, so
/// each byte of a non-ASCII character is encoded wherever the set applies;
/// a [`CharClass`] holds the ASCII part only (see [`whatwg::encodes`]).
///
/// ```
/// use urlspec::chars::whatwg;
/// assert!(whatwg::encodes(whatwg::PATH, b'{') && !whatwg::encodes(whatwg::QUERY, b'{'));
/// assert!(whatwg::encodes(whatwg::SPECIAL_QUERY, b'\'') && !whatwg::encodes(whatwg::QUERY, b'\''));
/// assert!(whatwg::encodes(whatwg::FRAGMENT, 0xC3));
/// ```
pub mod whatwg {
    use super::{CharClass, ALPHANUM};

    /// The C0 control percent-encode set: "the C0 controls and all code
    /// points greater than U+007E (~)" (U+007F DELETE among them). Opaque
    /// paths and opaque hosts are encoded with it.
    pub const C0_CONTROL: CharClass = CharClass::range(0, 0x1f).with(0x7f);
    /// The fragment percent-encode set: "the C0 control percent-encode set
    /// and U+0020 SPACE, U+0022 ("), U+003C (<), U+003E (>), and U+0060
    /// (`)".
    pub const FRAGMENT: CharClass = C0_CONTROL.or(CharClass::of(" \"<>`"));
    /// The query percent-encode set: "the C0 control percent-encode set and
    /// U+0020 SPACE, U+0022 ("), U+0023 (#), U+003C (<), and U+003E (>)".
    pub const QUERY: CharClass = C0_CONTROL.or(CharClass::of(" \"#<>"));
    /// The special-query percent-encode set: "the query percent-encode set
    /// and U+0027 (')", for the queries of special URLs.
    pub const SPECIAL_QUERY: CharClass = QUERY.with(b'\'');
    /// The path percent-encode set: "the query percent-encode set and
    /// U+003F (?), U+005E (^), U+0060 (`), U+007B ({), and U+007D (})".
    pub const PATH: CharClass = QUERY.or(CharClass::of("?^`{}"));
    /// The userinfo percent-encode set: "the path percent-encode set and
    /// U+002F (/), U+003A (:), U+003B (;), U+003D (=), U+0040 (@), U+005B
    /// ([) to U+005E (^), inclusive, and U+007C (|)".
    pub const USERINFO: CharClass = PATH.or(CharClass::of("/:;=@[\\]^|"));
    /// The component percent-encode set: "the userinfo percent-encode set
    /// and U+0024 ($) to U+0026 (&), inclusive, U+002B (+), and U+002C
    /// (,)".
    pub const COMPONENT: CharClass = USERINFO.or(CharClass::of("$%&+,"));
    /// The application/x-www-form-urlencoded percent-encode set: "the
    /// component percent-encode set and U+0021 (!), U+0027 (') to U+0029
    /// RIGHT PARENTHESIS, inclusive, and U+007E (~)".
    pub const FORM_URLENCODED: CharClass =
        COMPONENT.or(CharClass::of("!'()~"));
    /// A forbidden host code point: "U+0000 NULL, U+0009 TAB, U+000A LF,
    /// U+000D CR, U+0020 SPACE, U+0023 (#), U+002F (/), U+003A (:), U+003C
    /// (<), U+003E (>), U+003F (?), U+0040 (@), U+005B ([), U+005C (\),
    /// U+005D (]), U+005E (^), or U+007C (|)".
    pub const FORBIDDEN_HOST: CharClass =
        CharClass::of("\0\t\n\r #/:<>?@[\\]^|");
    /// A forbidden domain code point: "a forbidden host code point, a C0
    /// control, U+0025 (%), or U+007F DELETE".
    pub const FORBIDDEN_DOMAIN: CharClass =
        FORBIDDEN_HOST.or(C0_CONTROL).with(b'%');
    /// The ASCII URL code points: "ASCII alphanumeric, U+0021 (!), U+0024
    /// ($), U+0026 (&), U+0027 ('), U+0028 LEFT PARENTHESIS, U+0029 RIGHT
    /// PARENTHESIS, U+002A (*), U+002B (+), U+002C (,), U+002D (-), U+002E
    /// (.), U+002F (/), U+003A (:), U+003B (;), U+003D (=), U+003F (?),
    /// U+0040 (@), U+005F (_), U+007E (~)"; the others are U+00A0 and
    /// above, surrogates and noncharacters excluded.
    pub const URL_CODE_POINTS: CharClass =
        ALPHANUM.or(CharClass::of("!$&'()*+,-./:;=?@_~"));

    /// Whether a percent-encode set encodes `byte`: every byte of a
    /// non-ASCII character, and the ASCII bytes of `set`.
    #[inline(always)]
    #[must_use]
    pub const fn encodes(set: CharClass, byte: u8) -> bool {
        byte > 0x7e || set.contains(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_what_the_grammars_list() {
        // The documents' classes side by side, row by row where they differ.
        assert!(rfc1630::SAFE.contains(b'@') && !rfc1808::SAFE.contains(b'@'));
        assert!(rfc1630::EXTRA.contains(b'"'));
        assert!(
            rfc1808::SAFE.contains(b'+') && draft96::RESERVED.contains(b'+')
        );
        assert!(draft04::UNRESERVED.contains(b'`'));
        assert!(
            draft96::UNWISE.contains(b'`')
                && !draft96::UNRESERVED.contains(b'`')
        );
        assert!(
            rfc2396::RESERVED.contains(b'$')
                && rfc2396::RESERVED.contains(b',')
        );
        assert!(
            !rfc2396::RESERVED.contains(b'[')
                && rfc2732::RESERVED.contains(b'[')
        );
        assert!(
            rfc3986::SUB_DELIMS.contains(b'!')
                && !rfc3986::UNRESERVED.contains(b'!')
        );
        assert_eq!(rfc3986::RESERVED.iter().count(), 18);
        assert_eq!(rfc1808::NATIONAL.iter().count(), 9);
        assert!(!ALPHA.contains(0xC3));
        // The WHATWG sets nest, each the one before plus a few.
        let nested = [
            whatwg::C0_CONTROL,
            whatwg::QUERY,
            whatwg::PATH,
            whatwg::USERINFO,
            whatwg::COMPONENT,
            whatwg::FORM_URLENCODED,
        ];
        for w in nested.windows(2) {
            assert_eq!(w[0].minus(w[1]), CharClass::EMPTY);
        }
        assert_eq!(whatwg::FORBIDDEN_DOMAIN.iter().count(), 17 + 32 - 4 + 2);
        assert!(whatwg::encodes(whatwg::C0_CONTROL, 0x7f));
        assert!(!whatwg::encodes(whatwg::C0_CONTROL, b' '));
    }

    #[test]
    fn debug_lists_members() {
        assert_eq!(
            format!("{:?}", CharClass::of("b/a")),
            "CharClass(\"/ab\")"
        );
    }
}
