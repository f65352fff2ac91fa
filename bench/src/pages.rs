//! HTML pages to measure page scanners on: the payloads of the HTML
//! responses (and resources) of WARC archives, and `.html` files.
//!
//! The records are found the simple way (a `WARC/1.` header, its
//! `Content-Length`), the HTTP message split at its blank line, a chunked
//! transfer coding and a gzip or deflate content coding undone. What that
//! cannot read (ARC files, brotli bodies, records past a damaged gzip
//! member) is left out and counted: the pages are a sample of real markup
//! for timing, not a reading of the archive.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// The pages of one corpus.
pub struct Pages {
    /// Its name in the tables.
    pub name: String,
    /// Each page's bytes.
    pub pages: Vec<Vec<u8>>,
    /// The bytes of the files the pages came from, as stored
    /// (compressed or not).
    pub file_bytes: u64,
    /// The responses or files with HTML that could not be read.
    pub left_out: usize,
}

impl Pages {
    /// The bytes of all pages.
    pub fn bytes(&self) -> usize {
        self.pages.iter().map(Vec::len).sum()
    }
}

/// The pages of `path`: a WARC file (`.warc`, `.warc.gz`), an `.html`
/// file, or a directory of them (not recursive).
pub fn load(name: &str, path: &Path) -> io::Result<Pages> {
    let mut pages = Pages {
        name: name.into(),
        pages: Vec::new(),
        file_bytes: 0,
        left_out: 0,
    };
    if path.is_dir() {
        let mut entries: Vec<_> = fs::read_dir(path)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for p in entries {
            file(&p, &mut pages)?;
        }
    } else {
        file(path, &mut pages)?;
    }
    Ok(pages)
}

fn file(path: &Path, pages: &mut Pages) -> io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let html = name.ends_with(".html") || name.ends_with(".htm");
    if !html && !name.contains(".warc") {
        return Ok(());
    }
    let bytes = fs::read(path)?;
    pages.file_bytes += bytes.len() as u64;
    if html {
        pages.pages.push(bytes);
        return Ok(());
    }
    let data = if bytes.starts_with(b"\x1f\x8b") {
        // A damaged member ends the inflating: what came before is kept.
        let mut out = Vec::new();
        let _ = MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out);
        out
    } else {
        bytes
    };
    records(&data, pages);
    Ok(())
}

/// The position after the blank line that ends the head starting at
/// `from`, and the head.
fn head(data: &[u8], from: usize) -> Option<(usize, &[u8])> {
    let rest = &data[from..];
    let crlf = memchr::memmem::find(rest, b"\r\n\r\n").map(|k| (k, 4));
    let lf = memchr::memmem::find(rest, b"\n\n").map(|k| (k, 2));
    let (k, n) = match (crlf, lf) {
        (Some(a), Some(b)) => {
            if a.0 <= b.0 {
                a
            } else {
                b
            }
        }
        (a, b) => a.or(b)?,
    };
    Some((from + k + n, &rest[..k]))
}

/// The value of header `name` in `head` (any case), trimmed.
fn field<'h>(head: &'h [u8], name: &str) -> Option<&'h str> {
    head.split(|&c| c == b'\n').find_map(|line| {
        let line = std::str::from_utf8(line).ok()?;
        let (n, v) = line.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn records(data: &[u8], pages: &mut Pages) {
    let mut i = 0;
    while let Some(k) = memchr::memmem::find(&data[i..], b"WARC/1.") {
        let start = i + k;
        let Some((body, fields)) = head(data, start) else { return };
        let len: usize = field(fields, "Content-Length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let end = (body + len).min(data.len());
        let block = &data[body..end];
        i = end.max(start + 1);
        let kind = field(fields, "WARC-Type").unwrap_or("");
        let content_type =
            field(fields, "Content-Type").unwrap_or("").to_ascii_lowercase();
        if kind == "response" && content_type.starts_with("application/http") {
            match http_payload(block) {
                Some(Some(page)) => pages.pages.push(page),
                Some(None) => {}
                None => pages.left_out += 1,
            }
        } else if kind == "resource" && content_type.contains("html") {
            pages.pages.push(block.to_vec());
        }
    }
}

/// The HTML payload of an HTTP response: `Some(None)` when it is not
/// HTML, `None` when it is and cannot be read here.
fn http_payload(block: &[u8]) -> Option<Option<Vec<u8>>> {
    let Some((body, head)) = head(block, 0) else { return Some(None) };
    let content_type =
        field(head, "Content-Type").unwrap_or("").to_ascii_lowercase();
    if !content_type.contains("html") {
        return Some(None);
    }
    let mut payload = block[body..].to_vec();
    let chunked = field(head, "Transfer-Encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    if chunked {
        payload = dechunk(&payload)?;
    }
    let coding =
        field(head, "Content-Encoding").unwrap_or("").to_ascii_lowercase();
    let mut out = Vec::new();
    let read = match coding.as_str() {
        "" | "identity" => return Some(Some(payload)),
        "gzip" | "x-gzip" => {
            MultiGzDecoder::new(&payload[..]).read_to_end(&mut out)
        }
        "deflate" => ZlibDecoder::new(&payload[..])
            .read_to_end(&mut out)
            .or_else(|_| {
                out.clear();
                DeflateDecoder::new(&payload[..]).read_to_end(&mut out)
            }),
        _ => return None,
    };
    // A body stored decoded under a coding header is taken as it is.
    match read {
        Ok(_) => Some(Some(out)),
        Err(_) if payload.first() == Some(&b'<') => Some(Some(payload)),
        Err(_) => None,
    }
}

/// A chunked body decoded.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    loop {
        let line_end = memchr::memchr(b'\n', data)?;
        let line = std::str::from_utf8(&data[..line_end]).ok()?.trim();
        let size = line.split(';').next()?.trim();
        let n = usize::from_str_radix(size, 16).ok()?;
        data = &data[line_end + 1..];
        if n == 0 {
            return Some(out);
        }
        out.extend_from_slice(data.get(..n)?);
        data = &data[n..];
        data = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
            .unwrap_or(data);
    }
}
