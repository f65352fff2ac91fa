//! The DOCTYPE states: a name, a public and a system identifier, and the
//! force-quirks flag of a DOCTYPE that says too little or too much.

use super::class::is_ws;

/// A DOCTYPE found: its offset and its parts, by their offsets.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Found {
    pub(super) start: usize,
    pub(super) name: Option<(usize, usize)>,
    pub(super) public: Option<(usize, usize)>,
    pub(super) system: Option<(usize, usize)>,
    pub(super) force_quirks: bool,
}

/// The input ended inside the DOCTYPE.
struct Eof;

/// The DOCTYPE at `lt`, its states from `s` (after `<!DOCTYPE`), and the
/// offset after it; `None` when the input ends inside it (the DOCTYPE is
/// then what was read, as the Standard emits it at the end of the file).
pub(super) fn read(b: &[u8], lt: usize, s: usize) -> (Found, Option<usize>) {
    let mut d = Found { start: lt, ..Found::default() };
    // Whether the end of the input sets force-quirks: in every state but
    // the bogus DOCTYPE state.
    let mut bogus = false;
    let end = states(b, s, &mut d, &mut bogus).ok();
    if end.is_none() && !bogus {
        d.force_quirks = true;
    }
    (d, end)
}

/// The byte at `i`.
fn at(b: &[u8], i: usize) -> Result<u8, Eof> {
    b.get(i).copied().ok_or(Eof)
}

/// `i` past whitespace.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

fn states(
    b: &[u8],
    s: usize,
    d: &mut Found,
    bogus: &mut bool,
) -> Result<usize, Eof> {
    // DOCTYPE and before DOCTYPE name.
    let mut i = skip_ws(b, s);
    if at(b, i)? == b'>' {
        d.force_quirks = true;
        return Ok(i + 1);
    }
    // DOCTYPE name.
    let name = i;
    while i < b.len() && !is_ws(b[i]) && b[i] != b'>' {
        i += 1;
    }
    d.name = Some((name, i));
    // After DOCTYPE name.
    i = skip_ws(b, i);
    if at(b, i)? == b'>' {
        return Ok(i + 1);
    }
    let keyword = &b[i..(i + 6).min(b.len())];
    let prefix = |k: &[u8]| k[..keyword.len()].eq_ignore_ascii_case(keyword);
    if keyword.len() < 6 && (prefix(b"PUBLIC") || prefix(b"SYSTEM")) {
        return Err(Eof);
    }
    let public = keyword.eq_ignore_ascii_case(b"PUBLIC");
    if !public && !keyword.eq_ignore_ascii_case(b"SYSTEM") {
        d.force_quirks = true;
        return bogus_doctype(b, i, bogus);
    }
    // After the keyword, and before the identifier.
    i = skip_ws(b, i + 6);
    match at(b, i)? {
        q @ (b'"' | b'\'') => {
            let (id, end) = identifier(b, i + 1, q);
            if public {
                d.public = Some(id);
            } else {
                d.system = Some(id);
            }
            i = end.ok_or(Eof)?;
            if b[i] == b'>' {
                d.force_quirks = true;
                return Ok(i + 1);
            }
            i += 1;
        }
        b'>' => {
            d.force_quirks = true;
            return Ok(i + 1);
        }
        _ => {
            d.force_quirks = true;
            return bogus_doctype(b, i, bogus);
        }
    }
    if public {
        // After the public identifier, and between the identifiers.
        i = skip_ws(b, i);
        match at(b, i)? {
            b'>' => return Ok(i + 1),
            q @ (b'"' | b'\'') => {
                let (id, end) = identifier(b, i + 1, q);
                d.system = Some(id);
                i = end.ok_or(Eof)?;
                if b[i] == b'>' {
                    d.force_quirks = true;
                    return Ok(i + 1);
                }
                i += 1;
            }
            _ => {
                d.force_quirks = true;
                return bogus_doctype(b, i, bogus);
            }
        }
    }
    // After the system identifier: anything else is bogus, without
    // quirks.
    i = skip_ws(b, i);
    if at(b, i)? == b'>' {
        return Ok(i + 1);
    }
    bogus_doctype(b, i, bogus)
}

/// A quoted identifier from `s` to its closing `q` (or a `>`, which ends
/// the DOCTYPE): its span, and the offset of that `q` or `>` (`None` at
/// the end of the input).
fn identifier(b: &[u8], s: usize, q: u8) -> ((usize, usize), Option<usize>) {
    match memchr::memchr2(q, b'>', &b[s..]) {
        Some(k) => ((s, s + k), Some(s + k)),
        None => ((s, b.len()), None),
    }
}

/// The bogus DOCTYPE state from `i`: up to the next `>`.
fn bogus_doctype(b: &[u8], i: usize, bogus: &mut bool) -> Result<usize, Eof> {
    *bogus = true;
    memchr::memchr(b'>', &b[i..]).map(|k| i + k + 1).ok_or(Eof)
}
