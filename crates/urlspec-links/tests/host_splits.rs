//! The links whose host real parsers read differently
//! ([`Context::parsers`]): marked on each link as it is resolved, counted
//! in the summary, over a page, a message's header links and an
//! archive's records alike.

use urlspec::Spec;
use urlspec_links::{html, open, Context, Summary};
use urlspec_parsers::profile;
use urlspec_test_support::warc::record;

/// A page whose first link urllib and urllib3 read with other hosts
/// (urllib takes `\` as data, urllib3 ends the authority there), whose
/// second they read alike, and a third that has no URL.
const PAGE: &str = "<a href='http://allowed.example\\@evil.example/'>\
                    <a href='/same'><a href='http://[::1/'>";

fn with_parsers(names: &[&str]) -> Context {
    let mut ctx = Context::new(Spec::Rfc3986);
    ctx.given = Some("http://h/d/".into());
    ctx.parsers = names.iter().map(|n| profile(n).unwrap()).collect();
    ctx
}

#[test]
fn each_link_carries_the_hosts_it_is_read_with() {
    let ctx = with_parsers(&["python-urllib", "python-urllib3"]);
    let doc =
        html::document(PAGE.as_bytes(), "p", &ctx.retrieval_base(), &ctx);
    let split = doc.links[0].host_split.as_deref().unwrap();
    let hosts: Vec<_> =
        split.iter().map(|(p, h)| (p.name, h.as_deref())).collect();
    assert_eq!(
        hosts,
        [
            ("python-urllib", Some("evil.example")),
            ("python-urllib3", Some("allowed.example"))
        ]
    );
    assert_eq!(doc.links[1].host_split, None);
    assert_eq!(doc.links[2].host_split, None);
}

#[test]
fn no_parsers_or_one_compare_nothing() {
    for names in [&[][..], &["python-urllib"][..]] {
        let ctx = with_parsers(names);
        let doc =
            html::document(PAGE.as_bytes(), "p", &ctx.retrieval_base(), &ctx);
        assert!(doc.links.iter().all(|l| l.host_split.is_none()));
    }
}

#[test]
fn the_summary_counts_them_over_every_kind_of_input() {
    let ctx = with_parsers(&["python-urllib", "python-urllib3"]);
    let count = |bytes: Vec<u8>| -> Summary {
        let mut input = open(&bytes[..], "in", &ctx);
        input.by_ref().for_each(|d| drop(d.unwrap()));
        input.summary()
    };
    assert_eq!(count(PAGE.as_bytes().to_vec()).host_splits, 1);
    // A message's header links are read with the parsers too.
    let message = "From: a@b\r\nList-Help: <http://a\\@b/>\r\n\
                   Content-Type: text/html\r\n\r\n"
        .to_owned()
        + PAGE;
    let summary = count(message.into_bytes());
    assert_eq!((summary.links, summary.host_splits), (4, 2));
    // Two records of an archive: each page counts.
    let mut warc = Vec::new();
    let response =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{PAGE}");
    for target in ["http://h/1", "http://h/2"] {
        warc.extend(record("response", target, response.as_bytes()));
    }
    let summary = count(warc);
    assert_eq!((summary.documents, summary.host_splits), (2, 2));
}
