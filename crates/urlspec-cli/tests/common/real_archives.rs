//! The real archives of `../shared/data/warc-real/` and a scan of them
//! written apart from the reader (`links_real.rs`, `links_real_cases.rs`):
//! records are found by their `WARC/` lines (or ARC header lines) in the
//! inflated bytes, not by their lengths.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use urlspec_test_support::paths;

/// The archives, in name order.
pub fn archives() -> Vec<PathBuf> {
    let dir = paths::warc_real();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.ends_with(".tsv") && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 40, "{}", dir.display());
    files
}

pub fn real(name: &str) -> PathBuf {
    paths::warc_real().join(name)
}

/// A record as the scan finds it: where its unit starts (the record, or
/// its gzip member), its type and target, and what its block shows.
#[derive(Debug)]
pub struct Scanned {
    pub at: u64,
    pub kind: String,
    pub target: String,
    /// A `response` of 2xx with an HTML `Content-Type` (or none) and a
    /// body, or a `resource` of HTML: a page.
    pub page: bool,
}

/// The inflated bytes of `data` and, for each byte, where its unit
/// starts: the gzip member it came from (a member that does not inflate
/// gives what came before its damage), or the raw offset.
pub fn units(data: &[u8]) -> (Vec<u8>, Vec<u64>) {
    if !data.starts_with(b"\x1f\x8b") {
        return (data.to_vec(), (0..data.len() as u64).collect());
    }
    let (mut out, mut at) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < data.len() {
        if !data[i..].starts_with(b"\x1f\x8b\x08") {
            i += 1;
            continue;
        }
        let mut decoder = flate2::bufread::GzDecoder::new(&data[i..]);
        let mut member = Vec::new();
        let whole = decoder.read_to_end(&mut member).is_ok();
        let used = data.len() - i - decoder.into_inner().len();
        at.extend(std::iter::repeat_n(i as u64, member.len()));
        out.extend(member);
        i += if whole { used.max(1) } else { 1 };
    }
    (out, at)
}

/// Whether `line` is an ARC header line: a URL with a scheme, then the
/// address, a 12 or 14 digit date, a content type, the length (version
/// 2 has five fields more).
pub fn arc_header(line: &[u8]) -> Option<(String, String, u64)> {
    let line = std::str::from_utf8(line).ok()?.trim_end();
    let fields: Vec<&str> = line.split(' ').collect();
    if !matches!(fields.len(), 5 | 10) || !fields[0].contains(':') {
        return None;
    }
    let date = fields[2];
    let digits =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(date) || !matches!(date.len(), 12 | 14) {
        return None;
    }
    let length = fields.last()?.parse().ok()?;
    Some((fields[0].to_owned(), fields[3].to_owned(), length))
}

/// The records of an archive, each block taken up to the next record's
/// first line (never by its declared length).
pub fn scan(data: &[u8]) -> Vec<Scanned> {
    let (text, at) = units(data);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr_lines(&text))
        .filter(|&i| {
            text[i..].starts_with(b"WARC/")
                || arc_header(line_at(&text, i)).is_some()
        })
        .collect();
    let mut records = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let record = &text[start..end];
        let unit = at.get(start).copied().unwrap_or(0);
        if let Some((url, content_type, _)) = arc_header(line_at(&text, start))
        {
            let block = &record[line_at(&text, start).len()..];
            let http = block.starts_with(b"HTTP/");
            let kind = if url.starts_with("filedesc:") {
                "warcinfo"
            } else if http {
                "response"
            } else {
                "resource"
            };
            let page = if http {
                http_page(block)
            } else {
                kind == "resource" && content_type.contains("html")
            };
            records.push(Scanned {
                at: unit,
                kind: kind.into(),
                target: url,
                page,
            });
            continue;
        }
        let Some(split) =
            find(record, b"\r\n\r\n").or_else(|| find(record, b"\n\n"))
        else {
            continue;
        };
        let head = String::from_utf8_lossy(&record[..split]);
        let field = |name: &str| {
            head.lines().find_map(|l| {
                let (n, v) = l.split_once(':')?;
                n.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().to_owned())
            })
        };
        let kind = field("WARC-Type").unwrap_or_default();
        let target = field("WARC-Target-URI").unwrap_or_default();
        let target = target.trim_matches(['<', '>']).to_owned();
        let block = &record[split..];
        let block = &block
            [block.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        let page = match kind.as_str() {
            "response" => http_page(block),
            "resource" => {
                field("Content-Type").is_some_and(|t| t.contains("html"))
            }
            _ => false,
        };
        records.push(Scanned { at: unit, kind, target, page });
    }
    records
}

/// Whether an HTTP response block is a page: 2xx but 204, HTML (or no
/// type), with a body.
pub fn http_page(block: &[u8]) -> bool {
    let Some(split) =
        find(block, b"\r\n\r\n").or_else(|| find(block, b"\n\n"))
    else {
        return false;
    };
    let head = String::from_utf8_lossy(&block[..split]).to_ascii_lowercase();
    let status = head.split_whitespace().nth(1).unwrap_or("");
    let content_type = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type:"))
        .map(str::trim);
    status.starts_with('2')
        && status != "204"
        && content_type.is_none_or(|t| t.contains("html"))
        && block[split..].iter().any(|b| !b.is_ascii_whitespace())
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The starts of every line but the first.
pub fn memchr_lines(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1)
}

pub fn line_at(text: &[u8], i: usize) -> &[u8] {
    let end = text[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |k| i + k + 1);
    &text[i..end]
}

/// Whether the framing of the unit at `at` is broken, by the scan: a gzip
/// member there that does not inflate whole, bytes that start none, or a
/// record whose length does not end at line ends before the next record
/// or the end. In a compressed archive every record that starts in the
/// member is looked at, on the inflated stream from the member on (a
/// member boundary is no record boundary).
pub fn broken_at(data: &[u8], at: u64) -> bool {
    let at = at as usize;
    let gzip = data.starts_with(b"\x1f\x8b");
    let (stream, first) = if gzip {
        // The members from `at` on, as far as they inflate.
        let mut stream = Vec::new();
        let mut first = None;
        let mut rest = &data[at..];
        while rest.starts_with(b"\x1f\x8b\x08") {
            let mut decoder = flate2::bufread::GzDecoder::new(rest);
            let mut member = Vec::new();
            let whole = decoder.read_to_end(&mut member).is_ok();
            if !whole {
                if first.is_none() {
                    return true;
                }
                break;
            }
            rest = decoder.into_inner();
            stream.extend(member);
            first.get_or_insert(stream.len());
        }
        let Some(first) = first else { return true };
        (stream, first)
    } else {
        (data[at..].to_vec(), 1)
    };
    let mut i = 0;
    while i < first {
        i +=
            stream[i..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        if i >= first {
            return false;
        }
        let line = line_at(&stream, i);
        let (length, block) = if let Some((_, _, length)) = arc_header(line) {
            (length, i + line.len())
        } else if line.starts_with(b"WARC/") {
            let rest = &stream[i..];
            let split = find(rest, b"\r\n\r\n")
                .map(|k| k + 4)
                .or_else(|| find(rest, b"\n\n").map(|k| k + 2));
            let length = split.and_then(|split| {
                String::from_utf8_lossy(&rest[..split]).lines().find_map(|l| {
                    let (n, v) = l.split_once(':')?;
                    let name = n.trim().eq_ignore_ascii_case("content-length");
                    name.then(|| v.trim().parse::<u64>().ok())?
                })
            });
            match (split, length) {
                (Some(split), Some(length)) => (length, i + split),
                _ => return true,
            }
        } else {
            return true;
        };
        let end = block + length as usize;
        if end > stream.len() {
            return true;
        }
        let after = &stream[end..];
        let gap = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let next = &after[gap..];
        if !(next.is_empty()
            || next.starts_with(b"WARC/")
            || arc_header(line_at(next, 0)).is_some())
        {
            return true;
        }
        i = end;
    }
    false
}

/// The documents of text output.
pub fn documents(out: &str) -> BTreeSet<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("== "))
        .map(str::to_owned)
        .collect()
}

/// The byte offsets `urlspec links` reports damage at, from its standard
/// error: `NAME: at byte N: …` (notes of pages name their target, not the
/// file, and are no damage).
pub fn damage(err: &str, file: &Path) -> Vec<(u64, String)> {
    let prefix = format!("urlspec: {}: at byte ", file.display());
    err.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| {
            let (n, why) = rest.split_once(": ")?;
            Some((n.parse().ok()?, why.to_owned()))
        })
        .collect()
}

/// The byte offsets of the records `urlspec links -v` says it skipped,
/// with why: `NAME: record at byte N (TYPE TARGET): skipped: REASON`.
pub fn skipped(err: &str, file: &Path) -> BTreeSet<u64> {
    let prefix = format!("urlspec: {}: record at byte ", file.display());
    err.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter(|rest| rest.contains("): skipped: "))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}
