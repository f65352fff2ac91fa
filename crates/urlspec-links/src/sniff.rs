//! What an input is, from its first bytes: a WARC or ARC archive, a
//! message (or an mbox of them), HTML, or binary data that is none of
//! these. The byte classes and HTML patterns are the WHATWG MIME Sniffing
//! Standard's.

use std::io::Read;

use flate2::read::MultiGzDecoder;

/// The most bytes of a gzip input's head inflated to look inside.
const INFLATED: usize = 4096;

/// The kind of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An HTML document.
    Html,
    /// A MIME message (RFC 822 headers, `.eml`, `.mht`), or an mbox file
    /// of them.
    Mime,
    /// A WARC archive, or an ARC archive (the Internet Archive's format
    /// before WARC), gzip-compressed or not.
    Warc,
}

/// What the first bytes of an input and its name say it is: see
/// [`Format::of_input`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sniffed {
    /// The format; `None` for binary data, which is no format read.
    pub format: Option<Format>,
    /// The bytes start a gzip member.
    pub gzip: bool,
}

/// The header fields that make a first line a message's (compared without
/// regard to case; any `Content-` field too). Any `Name:` line would take
/// prose such as `Note: …` for a message.
const MESSAGE_FIELDS: &[&str] = &[
    "received",
    "dkim-signature",
    "arc-seal",
    "arc-message-signature",
    "arc-authentication-results",
    "authentication-results",
    "return-path",
    "delivered-to",
    "x-original-to",
    "message-id",
    "mime-version",
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "reply-to",
    "sender",
    "in-reply-to",
    "references",
    "newsgroups",
    "path",
    "list-id",
    "x-mailer",
    "organization",
    "base",
];

impl Format {
    /// Guesses the format from the first bytes of the input (decompressed:
    /// a gzip input is looked at inside). A message is recognised by an
    /// mbox `From ` line followed by a header field, or by a known message
    /// header field (`MESSAGE_FIELDS`, `Content-*`, `X-*`) on its first
    /// line; anything else is HTML.
    ///
    /// ```
    /// use urlspec_links::Format;
    /// assert_eq!(Format::detect(b"WARC/1.0\r\n"), Format::Warc);
    /// assert_eq!(Format::detect(b"\x1f\x8b\x08"), Format::Warc);
    /// assert_eq!(Format::detect(b"From: a@b\r\nSubject: x\r\n"), Format::Mime);
    /// assert_eq!(Format::detect(b"DKIM-Signature: v=1\r\n"), Format::Mime);
    /// assert_eq!(Format::detect(b"From a@b Thu Nov 26 04:00:00 2026\nTo: c@d\n"), Format::Mime);
    /// assert_eq!(Format::detect(b"From here on, words\n"), Format::Html);
    /// assert_eq!(Format::detect(b"<!DOCTYPE html><p>"), Format::Html);
    /// assert_eq!(Format::detect(b"Note: plain words"), Format::Html);
    /// ```
    ///
    /// An archive is recognised by its first line (`WARC/`, or an ARC
    /// file's `filedesc://`), or, when that line is damaged, by a later
    /// line of a WARC header (`WARC/1.`, `WARC/0.`, `WARC-Type:`), so that
    /// damage at its very start is read past as elsewhere:
    ///
    /// ```
    /// use urlspec_links::Format;
    /// assert_eq!(Format::detect(b"filedesc://x.arc 0.0.0.0 20080430204825 text/plain 75\n"), Format::Warc);
    /// assert_eq!(Format::detect(b"WARX/1.0\r\nWARC-Type: warcinfo\r\n"), Format::Warc);
    /// assert_eq!(Format::detect(b"<p>\nWARC records start with a version line"), Format::Html);
    /// ```
    #[must_use]
    pub fn detect(head: &[u8]) -> Format {
        let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        // gzip: taken for a WARC archive unless the caller looks inside
        // first ([`Format::of_input`]).
        if head.starts_with(b"WARC/")
            || head.starts_with(b"\x1f\x8b")
            || head.starts_with(b"filedesc://")
            || has_warc_line(head)
        {
            return Format::Warc;
        }
        let first = head
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(&b""[..], |i| &head[i..]);
        if first.starts_with(b"<") {
            return Format::Html;
        }
        let (line, rest) = split_line(first);
        if line.starts_with(b"From ") {
            let (next, _) = split_line(rest);
            return if field_name(next).is_some() {
                Format::Mime
            } else {
                Format::Html
            };
        }
        match field_name(line) {
            Some(name) if is_message_field(name) => Format::Mime,
            _ => Format::Html,
        }
    }

    /// What an input is, from its first bytes `head` (a gzip input's
    /// looked at inside: its first member, or when that one yields nothing
    /// an archive, a later member that starts in `head`) and its `name`: a
    /// `.warc`, `.warc.gz`, `.arc` or `.arc.gz` file (an open one's
    /// `.open` after it) is an archive whatever its first bytes, so that
    /// damage at its start is reported and read past. Binary data is no
    /// format ([`is_binary`]); an archive may hold it.
    ///
    /// ```
    /// use std::io::Write;
    /// use urlspec_links::{Format, Sniffed};
    /// let gzip = |data: &[u8]| {
    ///     let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    ///     e.write_all(data).unwrap();
    ///     e.finish().unwrap()
    /// };
    /// let page = gzip(b"<!doctype html><a href=x>");
    /// assert_eq!(Format::of_input(&page, "p.html.gz"), Sniffed { format: Some(Format::Html), gzip: true });
    /// // A first member that does not inflate, then a record.
    /// let mut archive = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x06junk".to_vec();
    /// archive.extend(gzip(b"WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
    /// assert_eq!(Format::of_input(&archive, "-").format, Some(Format::Warc));
    /// // A damaged start, and the name says what it is.
    /// assert_eq!(Format::of_input(b"garbage", "crawl.warc").format, Some(Format::Warc));
    /// assert_eq!(Format::of_input(b"\x00\x01", "x.bin").format, None);
    /// ```
    #[must_use]
    pub fn of_input(head: &[u8], name: &str) -> Sniffed {
        let gzip = head.starts_with(b"\x1f\x8b");
        let inner = if gzip { gunzip(head) } else { head.to_vec() };
        let mut format = Format::detect(&inner);
        if gzip && format != Format::Warc {
            // A first member that does not inflate may be followed by an
            // archive's records.
            let later = (1..head.len())
                .filter(|&i| head[i..].starts_with(b"\x1f\x8b\x08"))
                .any(|i| Format::detect(&gunzip(&head[i..])) == Format::Warc);
            if later {
                format = Format::Warc;
            }
        }
        if is_archive_name(name) {
            format = Format::Warc;
        }
        let read = format == Format::Warc || !is_binary(&inner);
        Sniffed { format: read.then_some(format), gzip }
    }

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Mime => "mime",
            Format::Warc => "warc",
        }
    }
}

/// Whether a line of `head` (past the first) starts a WARC record or its
/// header: `WARC/1.`, `WARC/0.` or `WARC-Type:`.
fn has_warc_line(head: &[u8]) -> bool {
    memchr::memchr_iter(b'\n', head).any(|i| {
        let line = &head[i + 1..];
        line.starts_with(b"WARC/1.")
            || line.starts_with(b"WARC/0.")
            || line.starts_with(b"WARC-Type:")
    })
}

/// Whether a file name says an archive: `.warc`, `.warc.gz`, `.arc`,
/// `.arc.gz`, each perhaps with `.open` after it (a file a crawler is
/// still writing).
fn is_archive_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".open").unwrap_or(&name);
    let name = name.strip_suffix(".gz").unwrap_or(name);
    name.ends_with(".warc") || name.ends_with(".arc")
}

/// The first bytes `head` inflates to (as far as it goes: a cut or
/// damaged stream gives what came before).
fn gunzip(head: &[u8]) -> Vec<u8> {
    let mut inner = Vec::new();
    let mut decoder = MultiGzDecoder::new(head).take(INFLATED as u64);
    let mut buf = [0u8; 512];
    while let Ok(n) = decoder.read(&mut buf) {
        if n == 0 {
            break;
        }
        inner.extend_from_slice(&buf[..n]);
    }
    inner
}

fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The name of a header field line (RFC 5322 §3.6.8: printable ASCII but
/// the colon, then a colon).
fn field_name(line: &[u8]) -> Option<&[u8]> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = &line[..colon];
    let ok = !name.is_empty() && name.iter().all(|&b| (33..=126).contains(&b));
    ok.then_some(name)
}

fn is_message_field(name: &[u8]) -> bool {
    let starts = |prefix: &[u8]| {
        name.len() >= prefix.len()
            && name[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    MESSAGE_FIELDS.iter().any(|f| name.eq_ignore_ascii_case(f.as_bytes()))
        || starts(b"content-")
        || starts(b"x-")
}

/// Whether `head` (the first 1024 bytes are looked at) holds a binary
/// data byte, as the MIME Sniffing Standard defines them (§3): 0x00–0x08,
/// 0x0B, 0x0E–0x1A and 0x1C–0x1F. Text in UTF-16 has such bytes too; a
/// UTF-16 byte order mark is text.
///
/// ```
/// use urlspec_links::is_binary;
/// assert!(is_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
/// assert!(!is_binary(b"<p>caf\xc3\xa9\x0c\r\n\t</p>\x1b[0m"));
/// assert!(!is_binary(b"\xff\xfe<\0p\0>\0"));
/// ```
#[must_use]
pub fn is_binary(head: &[u8]) -> bool {
    if head.starts_with(b"\xFE\xFF") || head.starts_with(b"\xFF\xFE") {
        return false;
    }
    head.iter()
        .take(1024)
        .any(|&b| matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F))
}

/// The patterns of the MIME Sniffing Standard's rules for identifying an
/// unknown MIME type (§7.1) that make a resource `text/html`: each is
/// matched without regard to ASCII case after leading whitespace, and must
/// be followed by a space or `>` (a tag-terminating byte).
const HTML_PATTERNS: &[&[u8]] = &[
    b"<!DOCTYPE HTML",
    b"<HTML",
    b"<HEAD",
    b"<SCRIPT",
    b"<IFRAME",
    b"<H1",
    b"<DIV",
    b"<FONT",
    b"<TABLE",
    b"<A",
    b"<STYLE",
    b"<TITLE",
    b"<B",
    b"<BODY",
    b"<BR",
    b"<P",
    b"<!--",
];

/// Whether a resource without a `Content-Type` is HTML, as the MIME
/// Sniffing Standard's rules for an unknown type find it (§7.1).
///
/// ```
/// use urlspec_links::sniff_html;
/// assert!(sniff_html(b"\n  <!doctype html><title>x</title>"));
/// assert!(sniff_html(b"<a href=x>"));
/// assert!(!sniff_html(b"<abbr>x</abbr>"));
/// assert!(!sniff_html(b"{\"json\": true}"));
/// ```
#[must_use]
pub fn sniff_html(data: &[u8]) -> bool {
    let start = data
        .iter()
        .take(1445)
        .position(|b| !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
        .unwrap_or(data.len());
    let data = &data[start..];
    HTML_PATTERNS.iter().any(|p| {
        data.len() > p.len()
            && data[..p.len()].eq_ignore_ascii_case(p)
            && matches!(data[p.len()], b' ' | b'>')
    })
}
