//! `urlspec links --base` and the resolution options: every link, of
//! every kind of input, is resolved against the given base with the
//! options given, in every output format and on any number of threads.
//! (That each is resolved once, as the library reads it, is counted by the
//! command's own tests, `cmd::links::tests`.)

use crate::common;

use std::path::PathBuf;

use common::{code, gzip, json_lines, run, stderr, stdout};
use urlspec_test_support::warc::record;

/// The base given.
const GIVEN: &str = "http://given/d/";

/// A page with a `<base href>`, a relative link, a `..` above the root,
/// and a reference that strict resolution refuses (the space).
const PAGE: &str =
    "<base href='http://h/b/'><a href=x><a href='../../../up'><a href='g h'>";

/// The inputs: a page, a message with a header link, an archive with a
/// `Link` header and a gzip-compressed page; their paths.
fn inputs() -> Vec<String> {
    let dir = common::scratch("links_resolution", "inputs");
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: <l>\r\n\r\n{PAGE}"
    );
    let archive = [
        gzip(&record("response", "http://w/1", response.as_bytes())),
        gzip(&record("response", "http://w/2", response.as_bytes())),
    ]
    .concat();
    let message =
        format!("From: a@h\r\nList-Help: <help>\r\nContent-Type: text/html\r\n\r\n{PAGE}");
    let files: [(&str, Vec<u8>); 4] = [
        ("page.html", PAGE.into()),
        ("message.eml", message.into_bytes()),
        ("archive.warc.gz", archive),
        ("page.html.gz", gzip(PAGE.as_bytes())),
    ];
    files
        .into_iter()
        .map(|(name, data)| {
            let path: PathBuf = dir.join(name);
            std::fs::write(&path, data).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .collect()
}

/// `urlspec links` with `flags` on the inputs, JSON lines, `-j threads`.
fn links(flags: &[&str], threads: &str) -> std::process::Output {
    let files = inputs();
    let mut args = vec!["links", "-o", "json", "-j", threads, "--spec"];
    args.extend(["rfc3986"]);
    args.extend(flags);
    args.extend(files.iter().map(String::as_str));
    run(&args, b"")
}

#[test]
fn every_link_is_resolved_against_the_given_base_with_the_options_given() {
    let flags = ["--base", GIVEN, "--strict", "--dotdot-above-root", "error"];
    let one = links(&flags, "1");
    // Strict resolution refused some references: exit status 1.
    assert_eq!(code(&one), 1, "{}", stderr(&one));
    let lines = json_lines(&one);
    // 4 links a page (base, x, up, g h), 3 header links.
    assert_eq!(lines.len(), 4 * 5 + 3, "{}", stdout(&one));
    for line in &lines {
        assert_eq!(line["base"], GIVEN, "{line}");
        assert_eq!(line["base_source"], "given", "{line}");
        let (reference, url) = (&line["reference"], &line["url"]);
        match reference.as_str().unwrap() {
            "x" => assert_eq!(url, "http://given/d/x"),
            "help" => assert_eq!(url, "http://given/d/help"),
            "l" => assert_eq!(url, "http://given/d/l"),
            "http://h/b/" => assert_eq!(url, "http://h/b/"),
            // RFC 3986 removes `..` above the root whatever the option.
            "../../../up" => assert_eq!(url, "http://given/up"),
            "g h" => {
                assert!(url.is_null(), "{line}");
                let error = line["error"].as_str().unwrap();
                assert!(error.starts_with("invalid reference"), "{line}");
            }
            other => panic!("{other}: {line}"),
        }
    }
    assert!(stderr(&one).contains("; given base 6"), "{}", stderr(&one));
    // The same on two threads, byte for byte.
    let two = links(&flags, "2");
    assert_eq!((code(&two), &two.stdout), (1, &one.stdout));
    assert_eq!(stderr(&two), stderr(&one));
}

#[test]
fn the_options_apply_without_a_given_base() {
    for threads in ["1", "2"] {
        let out = links(&["--strict"], threads);
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 4 * 5 + 3);
        for line in &lines {
            assert_ne!(line["base_source"], "given", "{line}");
            if line["reference"] == "g h" {
                assert!(line["url"].is_null(), "{line}");
            }
            if line["reference"] == "x" {
                assert_eq!(line["url"], "http://h/b/x", "{line}");
            }
        }
        // Without the option the reference is resolved as written.
        let lax = json_lines(&links(&[], threads));
        let spaced = lax.iter().find(|l| l["reference"] == "g h").unwrap();
        assert_eq!(spaced["url"], "http://h/b/g h");
    }
}
