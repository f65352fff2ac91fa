//! The Rust entries of compat's `quote`, `quote_plus`,
//! `quote_from_bytes`, `unquote`, `unquote_plus` and `unquote_to_bytes`
//! (see `fast.rs`): `str` (for `quote_from_bytes`, `bytes`) with a `str`
//! `safe`, encoding and errors left to their defaults.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use pyo3::Borrowed;

use urlspec::escape as esc;

use super::fast::answer;
use super::{empty_str, str_from, Kind, Text};
use crate::bytes::UPPER_HEX;
use crate::function::{absent_or_none, exact_str, Answer, Call, Function};

/// urllib's `_ALWAYS_SAFE`: letters, digits and `_.-~`, never quoted.
const ALWAYS_SAFE: u128 = {
    let mut m = 0u128;
    let mut c = 0u8;
    while c < 128 {
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'~')
        {
            m |= 1 << c;
        }
        c += 1;
    }
    m
};

/// The bytes kept as they are: the always safe ones and the ASCII
/// characters of `safe`, a `str` (urllib drops the others:
/// `safe.encode('ascii', 'ignore')`) or `bytes` (`c < 128`), or of
/// `default` when it is not given; `None` for any other `safe`, or a `str`
/// that is not valid Unicode (lone surrogates: left to the Python code).
fn kept(
    safe: Option<Borrowed<'_, '_, PyAny>>,
    default: &[u8],
) -> Option<u128> {
    let with = |bytes: &[u8]| {
        let mut mask = ALWAYS_SAFE;
        for &b in bytes {
            if b < 128 {
                mask |= 1 << b;
            }
        }
        mask
    };
    let Some(safe) = safe else {
        return Some(with(default));
    };
    if let Some(s) = exact_str(Some(safe)) {
        return Some(match crate::fastpy::compact_ascii(&s) {
            Some(bytes) => with(bytes),
            None => with(s.to_str().ok()?.as_bytes()),
        });
    }
    let b = safe.cast_exact::<PyBytes>().ok()?;
    Some(with(b.as_bytes()))
}

fn is_kept(mask: u128, b: u8) -> bool {
    b < 128 && mask >> b & 1 == 1
}

/// `data` quoted: each byte not `mask`ed written `%XX`, and (`plus`) a
/// space written `+`; `None` when nothing changes.
fn quoted(data: &[u8], mask: u128, plus: bool) -> Option<Vec<u8>> {
    let changes = |b: u8| !is_kept(mask, b) || plus && b == b' ';
    let first = data.iter().position(|&b| changes(b))?;
    let mut out = Vec::with_capacity(data.len() + 16);
    out.extend_from_slice(&data[..first]);
    for &b in &data[first..] {
        if plus && b == b' ' {
            out.push(b'+');
        } else if is_kept(mask, b) {
            out.push(b);
        } else {
            out.extend_from_slice(&[
                b'%',
                UPPER_HEX[(b >> 4) as usize],
                UPPER_HEX[(b & 15) as usize],
            ]);
        }
    }
    Some(out)
}

/// `quote(string, safe)` (`plus`: `quote_plus`) of a `str` (UTF-8
/// encoded; `None` for one with lone surrogates, which UTF-8 refuses:
/// the Python code raises urllib's error) or of `bytes`.
fn quote_any<'py>(
    py: Python<'py>,
    string: Borrowed<'_, 'py, PyAny>,
    mask: u128,
    plus: bool,
) -> Option<Answer> {
    if let Some(s) = exact_str(Some(string)) {
        let data = match crate::fastpy::compact_ascii(&s) {
            Some(bytes) => bytes,
            None => s.to_str().ok()?.as_bytes(),
        };
        return match quoted(data, mask, plus) {
            // Nothing quoted: urllib gives an equal string (the empty
            // string itself, else `bs.decode()`).
            None => answer(py, Ok(s.to_owned().into_any())),
            Some(out) => answer(py, str_from(py, &out, Kind::Ascii)),
        };
    }
    let b = string.cast_exact::<PyBytes>().ok()?;
    let data = b.as_bytes();
    if data.is_empty() {
        return answer(py, Ok(empty_str(py)));
    }
    // Nothing quoted: every byte is ASCII, decoded as urllib decodes it.
    let out = quoted(data, mask, plus).map_or(Cow::Borrowed(data), Cow::Owned);
    answer(py, str_from(py, &out, Kind::Ascii))
}

/// `quote(string, safe=default, encoding=None, errors=None)` (`plus`:
/// `quote_plus`) of a `str` or `bytes`, `safe` a `str` or `bytes`.
fn quote_call<'py>(
    py: Python<'py>,
    call: &Call<'_, 'py>,
    default: &[u8],
    plus: bool,
) -> Option<Answer> {
    let [string, safe, encoding, errors] =
        call.bind([b"string", b"safe", b"encoding", b"errors"])?;
    // Given for `bytes`, urllib raises.
    if !absent_or_none(encoding) || !absent_or_none(errors) {
        return None;
    }
    quote_any(py, string?, kept(safe, default)?, plus)
}

/// `quote(string, safe='/', encoding=None, errors=None)`.
pub(super) fn quote<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    quote_call(py, call, b"/", false)
}

/// `quote_plus(string, safe='', encoding=None, errors=None)`: as `quote`,
/// a space written `+` (urllib quotes with `safe + ' '`, then replaces
/// every space).
pub(super) fn quote_plus<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    quote_call(py, call, b"", true)
}

/// `quote_from_bytes(bs, safe='/')` of `bytes`.
pub(super) fn quote_from_bytes<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [bs, safe] = call.bind([b"bs", b"safe"])?;
    let bs = bs?;
    bs.cast_exact::<PyBytes>().ok()?;
    quote_any(py, bs, kept(safe, b"/")?, false)
}

/// The `(string, encoding='utf-8', errors='replace')` of `unquote` and
/// `unquote_plus` when the Rust code decodes as Python would: `encoding`
/// not given, `None` (UTF-8, as urllib reads it) or a name of UTF-8;
/// `errors` not given, `None` or `'replace'` (then `lossy`), or any other
/// `str`, which makes no difference while every sequence is valid (the
/// Rust code gives up on the first that is not: `Unquote::Invalid`).
fn unquote_args<'a, 'py>(
    call: &Call<'a, 'py>,
) -> Option<(Borrowed<'a, 'py, PyAny>, bool)> {
    let [string, encoding, errors] =
        call.bind([b"string", b"encoding", b"errors"])?;
    if let Some(e) = encoding.filter(|e| !e.is_none()) {
        let name = exact_str(Some(e))?;
        let name = crate::fastpy::compact_ascii(&name)?;
        let utf8 = [&b"utf-8"[..], b"utf8", b"utf_8"];
        if !utf8.iter().any(|u| name.eq_ignore_ascii_case(u)) {
            return None;
        }
    }
    let lossy = match errors.filter(|e| !e.is_none()) {
        None => true,
        Some(e) => {
            let e = exact_str(Some(e))?;
            crate::fastpy::compact_ascii(&e)? == b"replace"
        }
    };
    Some((string?, lossy))
}

/// `unquote(string)`: each run of ASCII characters unquoted to bytes
/// (`plus`: a `+` read as a space first) and decoded as UTF-8, an invalid
/// sequence as U+FFFD (Python's `replace`, one for each maximal invalid
/// subsequence) when `lossy`, else `None`; every other character kept as
/// it is.
fn unquote_str<'py>(
    py: Python<'py>,
    string: &Bound<'py, PyString>,
    plus: bool,
    lossy: bool,
) -> Option<PyResult<Bound<'py, PyAny>>> {
    let text = match Text::of(string) {
        Ok(t) => t,
        Err(e) => return Some(Err(e)),
    };
    let bytes = &text.bytes[..];
    let percent = memchr::memchr(b'%', bytes).is_some();
    let space = plus && memchr::memchr(b'+', bytes).is_some();
    if !percent && !space {
        return Some(Ok(string.clone().into_any()));
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut run = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii() {
            i += 1;
        }
        out.extend_from_slice(&bytes[start..i]);
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii() {
            i += 1;
        }
        let mut ascii = &bytes[start..i];
        if space {
            run.clear();
            run.extend(
                ascii.iter().map(|&b| if b == b'+' { b' ' } else { b }),
            );
            ascii = &run;
        }
        let octets = esc::unescape_bytes_lenient(ascii);
        match std::str::from_utf8(&octets) {
            Ok(t) => out.extend_from_slice(t.as_bytes()),
            Err(_) if lossy => out.extend_from_slice(
                String::from_utf8_lossy(&octets).as_bytes(),
            ),
            Err(_) => return None,
        }
    }
    Some(str_from(py, &out, text.kind.max(Kind::Utf8)))
}

/// `unquote(string, encoding='utf-8', errors='replace')`; of `None`,
/// urllib's `TypeError` (its first step is `'%' in string`).
pub(super) fn unquote<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let (string, lossy) = unquote_args(call)?;
    if string.is_none() {
        let raised = string.contains("%").map(|_| string.to_owned());
        return answer(py, raised);
    }
    let string = exact_str(Some(string))?;
    Some(Answer::of(py, unquote_str(py, &string, false, lossy)?))
}

/// `unquote_plus(string, encoding='utf-8', errors='replace')`.
pub(super) fn unquote_plus<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let (string, lossy) = unquote_args(call)?;
    let string = exact_str(Some(string))?;
    Some(Answer::of(py, unquote_str(py, &string, true, lossy)?))
}

/// `unquote_to_bytes(string)` of `bytes`, or of a `str` (UTF-8 encoded;
/// one with lone surrogates is left to the Python code, which raises).
pub(super) fn unquote_to_bytes<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [string] = call.bind([b"string"])?;
    let string = string?;
    if let Ok(data) = string.cast_exact::<PyBytes>() {
        return answer(py, Ok(super::unquote_to_bytes(py, &data).into_any()));
    }
    let s = exact_str(Some(string))?;
    let data = match crate::fastpy::compact_ascii(&s) {
        Some(bytes) => bytes,
        None => s.to_str().ok()?.as_bytes(),
    };
    let octets = esc::unescape_bytes_lenient(data);
    answer(py, Ok(PyBytes::new(py, &octets).into_any()))
}
