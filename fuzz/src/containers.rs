//! The readers of `urlspec links` that take whole inputs: the WARC reader
//! (its framing, gzip members and record recovery) and format sniffing.

use std::io::{Cursor, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use urlspec::Spec;
use urlspec_links::{
    is_binary, sniff_html, warc, Context, Format, Reason, Summary,
};

/// `Format::detect`, `is_binary` and `sniff_html` never panic and read only
/// what they say they read: one UTF-8 byte order mark does not change the
/// format (a second is text, as the Encoding Standard's BOM sniff reads
/// one); `is_binary` looks at the first 1024 bytes; a page sniffed as
/// HTML begins, after whitespace, with `<`. The WARC reader, on the input
/// as it is, as one gzip member and as two: it ends, every error and
/// skipped record lies inside the input it read, and the skipped records
/// are counted once by reason. A byte order mark before an archive's
/// first line changes nothing but the offsets, three bytes on.
pub fn warc(data: &[u8]) {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bare = data.strip_prefix(BOM).unwrap_or(data);
    let mut marked = BOM.to_vec();
    marked.extend_from_slice(bare);
    assert_eq!(Format::detect(&marked), Format::detect(bare));
    assert_eq!(is_binary(data), is_binary(&data[..data.len().min(1024)]));
    if sniff_html(data) {
        let first = data.iter().find(|b| !b" \t\n\r\x0c".contains(b));
        assert_eq!(first, Some(&b'<'));
    }

    let (documents, errors) = read(bare);
    if bare.starts_with(b"WARC/") || bare.starts_with(b"filedesc://") {
        // Every offset three bytes on, but that of an input that is no
        // archive (at byte 0).
        let no_archive = Reason::NotWarc.to_string();
        let on = |(at, why): &(u64, String)| {
            (if *why == no_archive { *at } else { at + 3 }, why.clone())
        };
        let on: Vec<_> = errors.iter().map(on).collect();
        assert_eq!(read(&marked), (documents, on));
    } else if data.len() > bare.len() {
        read(data);
    }
    let gzip = |parts: &[&[u8]]| {
        let mut out = Vec::new();
        for part in parts {
            let mut e = GzEncoder::new(Vec::new(), Compression::fast());
            e.write_all(part).expect("writes to a Vec");
            out.extend(e.finish().expect("writes to a Vec"));
        }
        out
    };
    read(&gzip(&[data]));
    let (a, b) = data.split_at(data.len() / 2);
    read(&gzip(&[a, b]));
}

/// Reads `input` as `urlspec links` does, from its raw bytes: an offset is
/// a record's, or in a compressed archive its gzip member's, in `input`.
/// The documents' summary, and each error's offset and reason.
fn read(input: &[u8]) -> (Summary, Vec<(u64, String)>) {
    let ctx = Context::new(Spec::Rfc3986);
    let mut summary = Summary::default();
    let mut errors = Vec::new();
    let mut documents = Summary::default();
    warc::documents(Cursor::new(input), &ctx, &mut summary, &mut |doc| {
        match doc {
            Ok(doc) => documents.add(&doc),
            Err(e) => errors.push(e),
        }
    });
    for e in &errors {
        assert!(e.offset <= input.len() as u64, "{e}: past the input");
    }
    let by_reason: usize = summary.skipped_by_reason.values().sum();
    assert_eq!(by_reason, summary.skipped_records, "{summary:?}");
    assert!(documents.unresolved <= documents.links, "{documents:?}");
    let errors = errors.iter().map(|e| (e.offset, e.reason.to_string()));
    (documents, errors.collect())
}
