//! Decoding for the wire: a component's octets as a protocol will send
//! them, refusing what would change the request's meaning there (the 1996
//! draft §8, R96-8.3; RFC 3986 §7.2).

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use super::{escaped_octet, is_escape_at, latin1_to_string, unescape};
use crate::chars::span_of;

/// Schemes whose requests are CR LF-terminated lines (the 1996 draft §8).
pub const LINE_ORIENTED: [&str; 6] =
    ["telnet", "rlogin", "tn3270", "gopher", "ftp", "nntp"];

/// Whether `scheme` (ASCII case ignored) sends its requests as lines.
///
/// ```
/// assert!(urlspec::escape::is_line_oriented("Gopher"));
/// assert!(!urlspec::escape::is_line_oriented("http"));
/// ```
#[must_use]
pub fn is_line_oriented(scheme: &str) -> bool {
    LINE_ORIENTED.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// The name of a delimiter or control byte, for messages.
pub(crate) fn delimiter_name(octet: u8) -> &'static str {
    match octet {
        b'\r' => "CR",
        b'\n' => "LF",
        0 => "NUL",
        b' ' => "space",
        b'\t' => "tab",
        _ => "control character",
    }
}

/// Why [`decode_for_wire`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WireErrorKind {
    /// An escaped CR, LF or NUL for a line-oriented protocol.
    EscapedDelimiter {
        /// The octet the escape stands for.
        octet: u8,
    },
    /// A raw space, control character or non-ASCII byte where the protocol
    /// needs it escaped (or, for a line-oriented protocol, a raw CR, LF or
    /// NUL).
    Unescaped {
        /// The byte.
        octet: u8,
    },
    /// A `%` not followed by two hex digits.
    InvalidEscape,
}

/// Text that must not go on the wire as it is, with the byte offset of the
/// offending character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WireError {
    /// Byte offset (in the text given, or in the URL for the scheme views).
    pub position: usize,
    /// What is wrong there.
    pub kind: WireErrorKind,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            WireErrorKind::EscapedDelimiter { octet } => write!(
                f,
                "the escaped {} (%{octet:02X}) at byte {} must not be decoded \
                 before transmission: it is a delimiter of the protocol \
                 (draft 1996 §8, R96-8.3)",
                delimiter_name(octet),
                self.position
            ),
            WireErrorKind::Unescaped { octet } => write!(
                f,
                "the raw {} (0x{octet:02X}) at byte {} must be escaped for \
                 transmission",
                if octet >= 0x80 {
                    "non-ASCII byte"
                } else {
                    delimiter_name(octet)
                },
                self.position
            ),
            WireErrorKind::InvalidEscape => write!(
                f,
                "`%` at byte {} does not start an escape",
                self.position
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for WireError {}

/// Decodes the text of one component for transmission over `scheme`'s
/// protocol. For a line-oriented scheme ([`LINE_ORIENTED`]) an escaped CR,
/// LF or NUL is refused instead of decoded, and so is a raw one (the 1996
/// draft §8; RFC 3986 §7.2 makes it a must not). Other schemes only refuse
/// invalid escapes.
///
/// ```
/// use urlspec::escape::{decode_for_wire, WireErrorKind};
/// assert_eq!(decode_for_wire("srch%09term", "gopher").unwrap(), &b"srch\tterm"[..]);
/// let e = decode_for_wire("melvyl%0D%0Aquit", "telnet").unwrap_err();
/// assert_eq!((e.position, e.kind), (6, WireErrorKind::EscapedDelimiter { octet: b'\r' }));
/// assert_eq!(decode_for_wire("a%0Ab", "http").unwrap(), &b"a\nb"[..]);
/// ```
///
/// # Errors
///
/// [`WireError`] at the byte offset in `text` of the first byte refused:
/// [`WireErrorKind::InvalidEscape`] for a `%` not followed by two hex
/// digits; for a line-oriented scheme also
/// [`WireErrorKind::EscapedDelimiter`] for an escaped CR, LF or NUL (at its
/// `%`) and [`WireErrorKind::Unescaped`] for a raw one.
pub fn decode_for_wire<'t>(
    text: &'t str,
    scheme: &str,
) -> Result<Cow<'t, [u8]>, WireError> {
    decode_wire(text, 0, scheme)
}

fn decode_wire<'t>(
    text: &'t str,
    offset: usize,
    scheme: &str,
) -> Result<Cow<'t, [u8]>, WireError> {
    let line = is_line_oriented(scheme);
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let err = |kind| Err(WireError { position: offset + i, kind });
        if line && matches!(c, b'\r' | b'\n' | 0) {
            return err(WireErrorKind::Unescaped { octet: c });
        }
        if c == b'%' {
            match escaped_octet(b, i) {
                None => return err(WireErrorKind::InvalidEscape),
                Some(o @ (b'\r' | b'\n' | 0)) if line => {
                    return err(WireErrorKind::EscapedDelimiter { octet: o })
                }
                Some(_) => {}
            }
        }
    }
    unescape(text).map_err(|e| WireError {
        position: offset + e.position,
        kind: WireErrorKind::InvalidEscape,
    })
}

/// [`decode_for_wire`] on `text`, a slice of `input`, with positions in
/// `input`.
pub(crate) fn decode_for_wire_in<'t>(
    text: &'t str,
    input: &str,
    scheme: &str,
) -> Result<Cow<'t, [u8]>, WireError> {
    decode_wire(text, span_of(input, text).start, scheme)
}

/// [`decode_for_wire_in`], as text: UTF-8, else ISO Latin-1.
pub(crate) fn decode_for_wire_text<'t>(
    text: &'t str,
    input: &str,
    scheme: &str,
) -> Result<Cow<'t, str>, WireError> {
    Ok(match decode_for_wire_in(text, input, scheme)? {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        Cow::Owned(v) => Cow::Owned(match String::from_utf8(v) {
            Ok(s) => s,
            Err(e) => latin1_to_string(e.as_bytes()),
        }),
    })
}

/// Checks that `text`, a slice of `input`, holds no raw space, control
/// character or non-ASCII byte (R1630-HTTP-SEC) and no invalid escape.
pub(crate) fn wire_text(text: &str, input: &str) -> Result<(), WireError> {
    let offset = span_of(input, text).start;
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let kind = if c <= b' ' || c >= 0x7f {
            WireErrorKind::Unescaped { octet: c }
        } else if c == b'%' && !is_escape_at(b, i) {
            WireErrorKind::InvalidEscape
        } else {
            continue;
        };
        return Err(WireError { position: offset + i, kind });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_text_positions() {
        let input = "http://a/b c";
        let e = wire_text(&input[8..], input).unwrap_err();
        assert_eq!(e.position, 10);
    }
}
