//! The profiles, one module each: a real parser's rules written after its
//! source, or a call of the Rust crate itself. Each module has a `PROFILE`,
//! listed in [`crate::PROFILES`].

use std::borrow::Cow;
use std::fmt::Write;

mod ada_idna;
pub mod curl;
pub mod go;
pub mod java;
mod lossy;

pub mod node_legacy;
pub mod php;
pub mod python_ipaddress;
pub mod python_urllib;
pub mod python_urllib3;
pub mod ruby;
pub mod rust_http;
pub mod rust_url;

/// A slice of UTF-8 text cut at ASCII delimiters, as text: borrowed, and
/// never a panic (a cut inside a character would be shown replaced).
pub(crate) fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// Python's `repr` of a string, for the messages of Python's errors:
/// single quotes (double when the text holds only single ones), control
/// characters and spaces other than ` ` escaped.
pub(crate) fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                let n = u32::from(c);
                let _ = match n {
                    0..=0xff => write!(out, "\\x{n:02x}"),
                    0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    _ => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::py_repr;

    #[test]
    fn repr_as_python_writes_it() {
        assert_eq!(py_repr("a b"), "'a b'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("'\""), "'\\'\"'");
        assert_eq!(
            py_repr("a\u{0}\u{a0}\u{2028}\\"),
            "'a\\x00\\xa0\\u2028\\\\'"
        );
    }
}
