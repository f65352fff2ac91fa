//! A message read by both MIME readers: whole, in memory
//! (`mime::documents`), and streamed in bounded memory
//! (`mime::stream::documents`), which must give the same documents.

use urlspec_links::{base_source, mime, Context, Document, Error, Reason};

/// What a reader gives of a document: its name, base, where the base
/// came from and through which containers, links, problems, encoding and
/// unread base header.
pub fn seen(doc: &Document) -> String {
    format!(
        "{} base={:?} source={} containers={:?} encoding={:?} unread={:?}\n  links={:#?}\n  problems={:?}",
        doc.name,
        doc.base.url(),
        base_source(&doc.base),
        doc.base.containers(),
        doc.encoding.map(|e| e.name()),
        doc.unread_base_header,
        doc.links,
        doc.problems,
    )
}

/// The documents of `data` streamed, each with its batches of links
/// joined, and the reason of the error.
pub fn streamed(
    data: &[u8],
    name: &str,
    ctx: &Context,
) -> (Vec<Document>, Result<(), Reason>) {
    let mut docs = Vec::new();
    let mut links = Vec::new();
    let result = mime::stream::documents(data, name, ctx, &mut |doc, last| {
        links.append(&mut doc.links);
        if last {
            let mut doc = doc.clone();
            doc.links = std::mem::take(&mut links);
            docs.push(doc);
        }
    });
    (docs, result.map_err(|e| e.reason))
}

/// The documents of `data` read whole, and the result, after checking
/// that the streamed reader gives the same.
pub fn both(
    data: &[u8],
    name: &str,
    ctx: &Context,
) -> (Vec<Document>, Result<(), Error>) {
    let mut whole = Vec::new();
    let result = mime::documents(data, name, ctx, &mut |d| whole.push(d));
    let (streamed, streamed_result) = streamed(data, name, ctx);
    let text = |docs: &[Document]| docs.iter().map(seen).collect::<Vec<_>>();
    assert_eq!(
        text(&streamed),
        text(&whole),
        "streamed and whole readings differ on {}",
        String::from_utf8_lossy(&data[..data.len().min(2000)])
    );
    assert_eq!(streamed_result, result.clone().map_err(|e| e.reason));
    (whole, result)
}
