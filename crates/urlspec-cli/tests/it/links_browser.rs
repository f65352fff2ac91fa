//! `urlspec links --spec whatwg` against headless Chromium: the pages of
//! `testdata/links/browser/` (one per case, listed in `pages.toml`) and,
//! when `URLSPEC_BROWSER_CRAWL` names one, pages of a crawl written by
//! `gen_warc` (`.ci/run` writes one); then, apart, the 80 pages of
//! `../shared/data/browser-pages/` that other projects wrote (real pages
//! saved by readability's and trafilatura's tests and pywb's sample
//! archive, jsoup and scrapy fixtures, WPT and html5lib files), served
//! with a policy that runs none of their own scripts, which would add
//! and move elements. Each page is served from a loopback server at its
//! real URL (Chromium sends every host to it; `https:` pages over TLS
//! with a certificate made for the run, which Chromium is told to
//! accept), and each link must be the URL the browser gives, and each
//! page's encoding its `document.characterSet`. A style sheet's URLs and
//! a script's of those other pages need only be asked for when the
//! browser uses them; every request must be a link.
//!
//! The browser's URL of a link comes from the DOM's IDL attribute where
//! HTML reflects the attribute as a URL (`a.href`, `img.src`, …: parsed
//! with the document's encoding), collected by a script appended to the
//! page and written into the DOM (`--dump-dom`); for the sources no IDL
//! attribute resolves (srcset candidates, `background`, meta refresh, CSS)
//! it comes from the requests the browser makes, as the server logs them.
//! `urlspec links` reads the same responses (headers and body) from a WARC
//! archive. Links inside `<noscript>` and `<template>` contents are left
//! out: a browser running scripts does not see them.
//!
//! Where Chromium departs from the URL Standard (WPT `urltestdata.json`)
//! or the HTML Standard, the Standards win: [`DIFFERENCES`] and
//! [`shared_differences`] list each such case with its reason (and the
//! few where the comparison itself cannot see a link), and each listed
//! case must still occur.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use common::browser::Chromium;
use common::pages::{Pages, Response};
use scraper::{Html, Selector};
use serde_json::Value;
use urlspec_test_support::paths;

/// How long each page may run in virtual time: its subresources are
/// requested and answered well within it.
const VIRTUAL_MS: u32 = 3_000;

/// The (element, attribute) pairs whose IDL attribute is a URL, as the
/// collector script reads them.
const REFLECTED: &[(&str, &str, &str)] = &[
    ("a", "href", "href"),
    ("area", "href", "href"),
    ("link", "href", "href"),
    ("base", "href", "href"),
    ("img", "src", "src"),
    ("script", "src", "src"),
    ("iframe", "src", "src"),
    ("frame", "src", "src"),
    ("embed", "src", "src"),
    ("source", "src", "src"),
    ("audio", "src", "src"),
    ("video", "src", "src"),
    ("video", "poster", "poster"),
    ("track", "src", "src"),
    ("input", "src", "src"),
    ("input", "formaction", "formAction"),
    ("button", "formaction", "formAction"),
    ("form", "action", "action"),
    ("blockquote", "cite", "cite"),
    ("q", "cite", "cite"),
    ("del", "cite", "cite"),
    ("ins", "cite", "cite"),
    ("object", "data", "data"),
];

/// Where Chromium and the URL Standard disagree, and `urlspec` follows
/// the Standard: (page URL, element@attribute, urlspec's URL, Chromium's,
/// why). Each must occur in the run.
const DIFFERENCES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "http://example.org/enc/css.html",
        "request",
        "-",
        "http://example.org/enc/imp%C3%A9.css?q=%E9",
        "Chromium's preload scanner requests an @import of a <style> with \
         the query in the page's encoding; its style sheet loader then \
         requests the URL urlspec gives, the query in UTF-8",
    ),
    (
        "http://example.org/enc/late-body.html",
        "encoding",
        "windows-1251",
        "windows-1252",
        LATE_META,
    ),
    (
        "http://example.org/enc/late-body.html",
        "a@href",
        "http://example.org/enc/%D0%B9%D1%82.html?q=%E9%F2",
        "http://example.org/enc/%C3%A9%C3%B2.html?q=%E9%F2",
        LATE_META,
    ),
    (
        "http://example.org/enc/late-body.html",
        "a@href",
        "http://example.org/enc/b%D0%B9.html?q=%E9",
        "http://example.org/enc/b%C3%A9.html?q=%E9",
        LATE_META,
    ),
    (
        "http://example.org/tree/unparsable.html",
        "a@href",
        "http://example.org/tree/page.html",
        "page.html",
        "a <base href> that does not parse: HTML's frozen base URL is then \
         the document's fallback base URL (the document's URL); Chromium \
         takes about:blank, against which page.html does not parse, so the \
         IDL attribute returns the value as written",
    ),
    (
        "http://example.org/dir/sub/whatwg-quirks.html",
        "a@href",
        "http://exa mple.org/",
        "http://exa%20mple.org/",
        "a space is a forbidden host code point: urltestdata.json has \
     `http://a b/` and `http://example example.com` as failures, so the \
     IDL attribute returns the value as written; Chromium percent-encodes \
     the space in the host",
    ),
];

/// Why a `<meta charset>` in the body, past the first 1024 bytes, is read
/// as the Standard says and not as Chromium does.
const LATE_META: &str = "a <meta charset> met by the tree builder while the \
    encoding is tentative changes it wherever it stands (HTML 13.2.6.4.4: \
    \"in body\" processes meta by the \"in head\" rules, which change the \
    encoding, 13.2.3.4), and the page is read again in it; past the \
    first 1024 bytes, Chromium's HTMLMetaCharsetParser stops looking at \
    the first tag not allowed in a head, so a meta in the body leaves it \
    windows-1252 (late-head.html, a meta past 1024 bytes in the head, \
    agrees)";

/// A difference that is explained: on the page named `page`, urlspec's
/// link of `place` is `ours` and Chromium's `theirs`, for the reason
/// `why`.
struct Difference {
    page: String,
    place: String,
    ours: String,
    theirs: String,
    why: &'static str,
}

impl Difference {
    fn new(
        page: &str,
        place: &str,
        ours: &str,
        theirs: &str,
        why: &'static str,
    ) -> Difference {
        Difference {
            page: page.into(),
            place: place.into(),
            ours: ours.into(),
            theirs: theirs.into(),
            why,
        }
    }

    /// Whether it is this difference.
    fn is(&self, page: &str, place: &str, ours: &str, theirs: &str) -> bool {
        (&*self.page, &*self.place, &*self.ours, &*self.theirs)
            == (page, place, ours, theirs)
    }
}

/// As [`DIFFERENCES`], for the pages of `../shared/data/browser-pages/`,
/// each named by its file.
fn shared_differences() -> Vec<Difference> {
    let mut list = Vec::new();
    let mut add = |page: &str, place: &str, ours: &str, theirs: &str, why| {
        list.push(Difference::new(page, place, ours, theirs, why));
    };
    add(
        "h5l-enc-script-plain",
        "encoding",
        "ISO-8859-2",
        "windows-1252",
        PRESCAN,
    );
    add(
        "traf-schleifen-briefe",
        "encoding",
        "UTF-8",
        "windows-1252",
        LATE_META,
    );
    add("rdb-breitbart", "encoding", "UTF-8", "windows-1252", LATE_META);
    // The tree builder's copies of a link written once.
    let tree = "http://html5lib.test/tree-construction/";
    for (page, copy) in [
        ("h5l-tests1-aaa-table", "foo"),
        ("h5l-tests1-aaa-table", "foo"),
        ("h5l-tests1-aaa-table-td", "blah"),
        ("h5l-tests1-aaa-table-td", "blah"),
        ("h5l-tests26-nobr", "tests26.dat?line=1#2"),
        ("h5l-tests26-nobr", "tests26.dat?line=1#3"),
    ] {
        add(page, "a@href", "-", &format!("{tree}{copy}"), COPIES);
    }
    add(
        "h5l-webkit02-unclosed-alt",
        "img@src",
        &format!("{tree}webkit02.dat?line=58"),
        "-",
        "the page ends inside a quoted attribute value, which takes in the \
         start of the collector script appended to it: Chromium runs no \
         collector and lists no link",
    );
    // The hosts of WPT's `url/a-element.html` (its base `http://other.com/`)
    // that the URL Standard fails, each a failure in `urltestdata.json`:
    // the IDL attribute then returns the value as written. Chromium parses
    // them.
    let space = "a space is a forbidden host code point; Chromium \
        percent-encodes it";
    for (ours, theirs, why) in [
        ("http://example example.com", "http://example%20example.com/", space),
        ("http://192.168.0.1 hello", "http://192.168.0.1%20hello/", space),
        (
            "http://GOO\u{a0}\u{3000}goo.com",
            "http://goo%20%20goo.com/",
            "IDNA maps U+00A0 and U+3000 to spaces, forbidden host code \
             points; Chromium percent-encodes them",
        ),
        (
            "http://\u{ff05}\u{ff14}\u{ff11}.com",
            "http://a.com/",
            "IDNA maps the fullwidth `%41` to `%41`, and `%` is a forbidden \
             domain code point; Chromium decodes it to `A`",
        ),
        (
            "http://%ef%bc%85%ef%bc%94%ef%bc%91.com",
            "http://a.com/",
            "the host decodes to the fullwidth `%41` of the case before",
        ),
        (
            "http://[::%31]",
            "http://[::1]/",
            "an IPv6 address is parsed as written, and `%` is not of it; \
             Chromium decodes it first",
        ),
        (
            "http://%5B::1]",
            "http://[::1]/",
            "the host decodes to `[::1]`, whose brackets are forbidden domain \
             code points; Chromium parses it as an IPv6 address",
        ),
    ] {
        add("url-a-element-other-com", "a@href", ours, theirs, why);
    }
    // Share links with an apostrophe in the query of a URL that is not
    // special.
    let guardian = "What%20is%20the%20sea%20telling%20us%3F'%3A%20M%C4%81ori\
        %20tribes%20fearful%20over%20whale%20strandings%20%7C%20Eleanor\
        %20Ainge%20Roy";
    let story = "https%3A%2F%2Fwww.theguardian.com%2Fenvironment%2F2019%2Fjan\
        %2F03%2Fwhat-is-the-sea-telling-us-maori-tribes-fearful-over-whale-\
        strandings%3FCMP%3Dshare_btn_";
    let kotaku = "mailto:?subject=The%20Spectacular%20Story%20Of%20Metroid%2C\
        %20One%20Of%20Gaming's%20Richest%20Universes&body=https%3A%2F%2F\
        kotaku.com%2Fthe-spectacular-story-of-metroid-one-of-gamings-riche-\
        1284029577%253Futm_medium%3Dsharefromsite%2526utm_source%3D";
    for (page, ours) in [
        (
            "rdb-guardian-1",
            format!("mailto:?subject='{guardian}&body={story}link"),
        ),
        (
            "rdb-guardian-1",
            format!("mailto:?subject='{guardian}&body={story}link"),
        ),
        (
            "rdb-guardian-1",
            format!("whatsapp://send?text=%22'{guardian}%22%20{story}wa"),
        ),
        (
            "rdb-lazy-image-2",
            format!("{kotaku}kotaku_email%26utm_campaign=top"),
        ),
        ("rdb-lazy-image-2", format!("{kotaku}_email%26utm_campaign=bottom")),
    ] {
        add(page, "a@href", &ours, &ours.replace('\'', "%27"), APOSTROPHE);
    }
    add(
        "rdb-pixnet",
        "use@xlink:href",
        "http://stevenhgm.pixnet.net/blog/post/39926056#sp_bell_icon",
        "(not requested)",
        "an SVG <use> that refers to a document of another origin than the \
         page's (fakehost): Chromium fetches none",
    );
    list
}

/// Why a meta inside a script's contents is read by the prescan.
const PRESCAN: &str = "HTML's prescan of the first 1024 bytes (13.2.3.2) \
    knows no element's contents: it finds the <meta charset> inside a \
    <script type=text/plain>, as html5lib-tests' encoding data expects \
    (iso-8859-2); Chromium's prescan reads the script's contents as text";

/// Why the tree builder's copies of a link are not links of their own
/// (docs/readings.md#html-copies).
const COPIES: &str = "the tree builder makes more elements of a formatting \
    element the page wrote once (HTML 13.2.4.3, reconstructing the active \
    formatting elements; 13.2.6.4.7, the adoption agency algorithm): \
    urlspec gives each link as the page wrote it, once; the DOM holds the \
    copies too";

/// Why an apostrophe stays in the query of a URL that is not special.
const APOSTROPHE: &str = "an apostrophe in the query of a URL that is not \
    special is not in the URL Standard's query percent-encode set (WPT \
    urltestdata.json: `notspecial://host/?'` keeps it); Chromium encodes it \
    as %27, as in a special URL's query";

/// The nonce of the collector script: the one script a page served with
/// [`SCRIPTS_BLOCKED`] runs.
const NONCE: &str = "urlspec-collector";

/// The policy that keeps a page's own scripts from running (inline and
/// external alike), all but the collector, as the parser left it. Nothing
/// else is restricted: every other request is made as before.
const SCRIPTS_BLOCKED: &str = "script-src 'nonce-urlspec-collector'";

/// The script appended to every page: each reflected attribute's IDL
/// value (from the getter of the element's prototype: a form control
/// named `action` hides its form's own `action`), in document order, and
/// the URLs no IDL attribute resolves but a script can (`ping`, SVG `a`,
/// Open Graph `meta`: `new URL` against the document's base URL, right
/// for UTF-8 pages, the only ones that use them here), written into a
/// `<pre>` as JSON.
fn collector() -> String {
    let mut table = String::from("{");
    for (element, attribute, idl) in REFLECTED {
        table.push_str(&format!("'{element}@{attribute}':'{idl}',"));
    }
    table.push('}');
    format!(
        "<script nonce=\"{NONCE}\">(function(){{var R={table};var out=[],more=[];\
         var B=document.baseURI,H='http://www.w3.org/1999/xhtml';\
         function u(v){{try{{return new URL(v,B).href}}catch(e){{return v}}}}\
         function g(e,k){{var P=Object.getPrototypeOf;\
         for(var o=P(e);o;o=P(o)){{var d=Object.getOwnPropertyDescriptor(o,k);\
         if(d&&d.get)return d.get.call(e)}}return e[k]}}\
         var all=document.getElementsByTagName('*');\
         for(var i=0;i<all.length;i++){{var e=all[i],n=e.localName;\
         for(var k=0;k<e.attributes.length;k++){{\
         var a=e.attributes[k].name,v=e.attributes[k].value;\
         if(e.namespaceURI!==H){{if(n==='a'&&/href$/.test(a))more.push([n,a,u(v)]);continue}}\
         var idl=R[n+'@'+a];if(idl)out.push([n,a,g(e,idl)]);\
         if(a==='ping')v.split(/[ \\t\\n\\f\\r]+/).forEach(function(t){{if(t)more.push([n,a,u(t)])}});\
         if(n==='meta'&&a==='content'&&/^og:(url|image|video|audio)$/.test(e.getAttribute('property')||''))more.push([n,a,u(v)]);\
         }}}}\
         var p=document.createElement('pre');p.id='urlspec-links';\
         p.textContent=JSON.stringify({{charset:document.characterSet,\
         links:out,more:more}});document.documentElement.appendChild(p);}})();\
         </script>\n"
    )
}

/// A page of the comparison.
#[derive(Clone)]
struct Page {
    /// A page of `testdata/links/browser/`, written here (not of a crawl
    /// or of another project).
    own: bool,
    /// Served with [`SCRIPTS_BLOCKED`]: a page of another project, whose
    /// own scripts would add, remove and move elements (analytics tags,
    /// lazy images) after the parser made them.
    scripts_blocked: bool,
    /// What the listed differences name it by: its URL, or for a page of
    /// another project its file's name (pages of one suite may share a
    /// URL).
    key: String,
    url: String,
    content_type: String,
    body: Vec<u8>,
}

fn testdata() -> PathBuf {
    paths::testdata().join("links/browser")
}

/// The pages of `pages.toml`, the collector appended to each.
fn corpus() -> Vec<Page> {
    let dir = testdata();
    let manifest = std::fs::read_to_string(dir.join("pages.toml")).unwrap();
    let manifest: toml::Value = toml::from_str(&manifest).unwrap();
    let collector = collector();
    manifest["page"]
        .as_array()
        .unwrap()
        .iter()
        .map(|page| {
            let file = page["file"].as_str().unwrap();
            let mut body = std::fs::read(dir.join(file)).unwrap();
            if body.starts_with(b"\xFF\xFE") {
                // A UTF-16LE page: the script in its encoding.
                body.extend(
                    collector.encode_utf16().flat_map(u16::to_le_bytes),
                );
            } else {
                body.extend_from_slice(collector.as_bytes());
            }
            Page {
                own: true,
                scripts_blocked: false,
                key: page["url"].as_str().unwrap().to_owned(),
                url: page["url"].as_str().unwrap().to_owned(),
                content_type: page["content_type"].as_str().unwrap().into(),
                body,
            }
        })
        .collect()
}

/// How many pages of a generated crawl are compared.
const CRAWL_PAGES: usize = 25;

/// The first [`CRAWL_PAGES`] HTML pages (`http:` and `https:`, the latter
/// served over TLS) of the crawl that `URLSPEC_BROWSER_CRAWL` names
/// (written by `urlspec-links`'s example `gen_warc`, which `.ci/run`
/// runs), the collector appended to each; none when it is not set.
fn crawl_pages() -> Vec<Page> {
    use std::io::Read;
    let Some(path) = std::env::var_os("URLSPEC_BROWSER_CRAWL") else {
        return Vec::new();
    };
    let mut warc = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_end(&mut warc)
        .unwrap();
    let collector = collector();
    let mut pages = Vec::new();
    let mut rest = &warc[..];
    while pages.len() < CRAWL_PAGES {
        let Some(end) = find(rest, b"\r\n\r\n") else { break };
        let head = String::from_utf8_lossy(&rest[..end]).into_owned();
        let field = |name: &str| {
            head.lines().find_map(|l| {
                let (n, v) = l.split_once(':')?;
                n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
            })
        };
        let length: usize = field("Content-Length").unwrap().parse().unwrap();
        let block = &rest[end + 4..end + 4 + length];
        rest = &rest[end + 4 + length..];
        rest = rest.strip_prefix(b"\r\n\r\n").unwrap_or(rest);
        let target = field("WARC-Target-URI").unwrap_or_default();
        if field("WARC-Type").as_deref() != Some("response")
            || !(target.starts_with("http://")
                || target.starts_with("https://"))
        {
            continue;
        }
        let Some(split) = find(block, b"\r\n\r\n") else { continue };
        let http = String::from_utf8_lossy(&block[..split]).into_owned();
        let header = |name: &str| {
            http.lines().skip(1).find_map(|l| {
                let (n, v) = l.split_once(':')?;
                n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
            })
        };
        let content_type = header("Content-Type").unwrap_or_default();
        if !http.starts_with("HTTP/1.1 200")
            || !content_type.starts_with("text/html")
        {
            continue;
        }
        let mut body = block[split + 4..].to_vec();
        if header("Content-Encoding").as_deref() == Some("gzip") {
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(&body[..])
                .read_to_end(&mut plain)
                .unwrap();
            body = plain;
        }
        body.extend_from_slice(collector.as_bytes());
        pages.push(Page {
            own: false,
            scripts_blocked: false,
            key: target.clone(),
            url: target,
            content_type,
            body,
        });
    }
    assert!(!pages.is_empty(), "no HTML page in {path:?}");
    pages
}

/// The pages of `../shared/data/browser-pages/` (real pages and test
/// files of other projects, none written here), each at its URL with its
/// `Content-Type` (`NAME.headers`, else `text/html`), the collector
/// appended.
fn shared_pages() -> Vec<Page> {
    let dir = paths::browser_pages().join("pages");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    files.sort();
    let collector = collector();
    files
        .iter()
        .map(|file| {
            let url = std::fs::read_to_string(file.with_extension("url"))
                .unwrap()
                .trim()
                .to_owned();
            let content_type =
                std::fs::read_to_string(file.with_extension("headers"))
                    .ok()
                    .and_then(|headers| {
                        headers.lines().find_map(|l| {
                            let (n, v) = l.split_once(':')?;
                            n.eq_ignore_ascii_case("content-type")
                                .then(|| v.trim().to_owned())
                        })
                    })
                    .unwrap_or_else(|| "text/html".into());
            let mut body = std::fs::read(file).unwrap();
            body.extend_from_slice(collector.as_bytes());
            let key = file.file_stem().unwrap().to_string_lossy().into_owned();
            Page {
                own: false,
                scripts_blocked: true,
                key,
                url,
                content_type,
                body,
            }
        })
        .collect()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The pages as an uncompressed WARC: one response record each, with the
/// headers and body the server sends.
fn warc(pages: &[Page]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        let mut http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\r\n",
            page.content_type,
            page.body.len()
        )
        .into_bytes();
        http.extend_from_slice(&page.body);
        out.extend_from_slice(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\n\
                 WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{i:012}>\r\n\
                 WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {}\r\n\
                 Content-Type: application/http; msgtype=response\r\n\
                 Content-Length: {}\r\n\r\n",
                page.url,
                http.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(&http);
        out.extend_from_slice(b"\r\n\r\n");
    }
    out
}

/// One link of `urlspec links --output json`.
#[derive(Debug)]
struct Link {
    element: String,
    attribute: String,
    /// The URL, or the reference as written when it does not parse (what
    /// an IDL attribute returns then).
    value: String,
    context: Option<String>,
    /// The page's encoding.
    encoding: Option<String>,
}

/// `urlspec links --spec whatwg --output json` of the archive, by
/// document.
fn urlspec_links(archive: &[u8]) -> BTreeMap<String, Vec<Link>> {
    let dir = std::env::temp_dir()
        .join(format!("urlspec-links-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pages.warc");
    std::fs::write(&path, archive).unwrap();
    let out = common::run(
        &[
            "links",
            "--spec",
            "whatwg",
            "--output",
            "json",
            path.to_str().unwrap(),
        ],
        b"",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let mut docs: BTreeMap<String, Vec<Link>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let s = |k: &str| v[k].as_str().map(str::to_owned);
        docs.entry(s("document").unwrap()).or_default().push(Link {
            element: s("element").unwrap(),
            attribute: s("attribute").unwrap(),
            value: s("url").or_else(|| s("reference")).unwrap(),
            context: s("context"),
            encoding: s("encoding"),
        });
    }
    docs
}

/// What Chromium made of a page: the reflected attributes' values and the
/// requests it sent.
struct Seen {
    /// The document's encoding (`document.characterSet`).
    charset: Option<String>,
    reflected: Vec<(String, String, String)>,
    /// URLs the script resolved itself (ping, SVG `a`, Open Graph).
    scripted: Vec<(String, String)>,
    requests: Vec<String>,
}

fn load(chromium: &Chromium, server: &Pages, url: &str) -> Seen {
    // The hosts Chromium's own services call (its account list, the new
    // tab page's, the component updater's, which some builds run despite
    // --disable-component-update) resolve to nothing: they would reach
    // the server and be logged as the page's requests. The page's own
    // host comes first, as the first rule that matches wins: a crawled
    // page may live on one of those domains.
    let host = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split(['/', '?', '#', ':'])
        .next()
        .unwrap_or_default();
    let rules = format!(
        "--host-resolver-rules=MAP {host} {0}, MAP *.google.com ~NOTFOUND, \
         MAP *.googleapis.com ~NOTFOUND, MAP * {0}",
        server.address
    );
    let switches = [
        rules,
        // Navigations stay on http: (no attempt at https first), and the
        // browser asks no time server.
        "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,\
         NetworkTimeServiceQuerying"
            .into(),
        // The server's certificate is made for the run.
        "--ignore-certificate-errors".into(),
    ];
    server.take_requests();
    let dom = chromium.dump_dom_with(url, VIRTUAL_MS, &switches);
    let requests = server.take_requests();
    let html = Html::parse_document(&dom);
    let pre = Selector::parse("pre#urlspec-links").unwrap();
    let (mut reflected, mut scripted) = (Vec::new(), Vec::new());
    let mut charset = None;
    // A page that navigates away (meta refresh) leaves no list.
    if let Some(pre) = html.select(&pre).next() {
        let text: String = pre.text().collect();
        let v: Value = serde_json::from_str(&text).unwrap();
        charset = v["charset"].as_str().map(str::to_owned);
        for link in v["links"].as_array().unwrap() {
            let s = |i: usize| link[i].as_str().unwrap_or("").to_owned();
            reflected.push((s(0), s(1), s(2)));
        }
        for link in v["more"].as_array().unwrap() {
            let s = |i: usize| link[i].as_str().unwrap_or("").to_owned();
            scripted.push((format!("{}@{}", s(0), s(1)), s(2)));
        }
    }
    Seen { charset, reflected, scripted, requests }
}

/// The differences of two lists of one place's URLs, each in document
/// order: the longest run of URLs both have in the same order set aside,
/// the rest between them paired in order, a side's extra ones each
/// against `-`.
fn align(ours: &[String], theirs: &[String]) -> Vec<(String, String)> {
    let (n, m) = (ours.len(), theirs.len());
    // common[i][j]: the longest common subsequence of ours[i..], theirs[j..].
    let mut common = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] = if ours[i] == theirs[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let mut diffs = Vec::new();
    let (mut left_ours, mut left_theirs) = (Vec::new(), Vec::new());
    let flush = |diffs: &mut Vec<(String, String)>,
                 a: &mut Vec<&String>,
                 b: &mut Vec<&String>| {
        for k in 0..a.len().max(b.len()) {
            let side = |v: &Vec<&String>| {
                v.get(k).map_or_else(|| "-".to_owned(), |s| (*s).clone())
            };
            diffs.push((side(a), side(b)));
        }
        a.clear();
        b.clear();
    };
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && ours[i] == theirs[j] {
            flush(&mut diffs, &mut left_ours, &mut left_theirs);
            i += 1;
            j += 1;
        } else if j == m || i < n && common[i + 1][j] >= common[i][j + 1] {
            left_ours.push(&ours[i]);
            i += 1;
        } else {
            left_theirs.push(&theirs[j]);
            j += 1;
        }
    }
    flush(&mut diffs, &mut left_ours, &mut left_theirs);
    diffs
}

/// Whether a link of `place` (`element@attribute`) of a page of another
/// project is fetched only when something uses it: a style sheet's
/// `url()` and `@import` (a rule no element matches, a font no text
/// uses, an `@import` after other rules), and a script, which such a
/// page is served not to run ([`SCRIPTS_BLOCKED`]). Those the browser
/// asks for are still each one of the page's links.
fn fetched_when_used(place: &str) -> bool {
    let (element, attribute) = place.split_once('@').unwrap_or((place, ""));
    element == "style" || attribute == "style" || element == "script"
}

/// `url` without its fragment: what a request carries.
fn without_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(u, _)| u)
}

/// The differences between `urlspec`'s links of one page and Chromium's,
/// as (element@attribute, urlspec's URL, Chromium's) with `-` for none.
fn compare(
    links: &[Link],
    seen: &Seen,
    page: &Page,
) -> Vec<(String, String, String)> {
    let reflected = |e: &str, a: &str| {
        REFLECTED.iter().any(|(re, ra, _)| *re == e && *ra == a)
    };
    let mut ours: Vec<(String, String)> = Vec::new();
    // Groups of links of which one is requested: the candidates of one
    // srcset (a run of them in document order; the browser picks one),
    // or one link of another source.
    let mut requested: Vec<Vec<(String, String)>> = Vec::new();
    let mut srcset_run = false;
    let mut scripted = seen.scripted.clone();
    for l in links.iter().filter(|l| l.context.is_none()) {
        let place = format!("{}@{}", l.element, l.attribute);
        let by_script =
            scripted.iter().position(|(p, u)| *p == place && *u == l.value);
        if let Some(k) = by_script {
            scripted.remove(k);
        } else if reflected(&l.element, &l.attribute) {
            ours.push((place, l.value.clone()));
        } else {
            let srcset = l.attribute == "srcset";
            match requested.last_mut() {
                Some(group) if srcset && srcset_run => {
                    group.push((place, l.value.clone()));
                }
                _ => requested.push(vec![(place, l.value.clone())]),
            }
            srcset_run = srcset;
            continue;
        }
        srcset_run = false;
    }
    let theirs: Vec<(String, String)> = seen
        .reflected
        .iter()
        .map(|(e, a, v)| (format!("{e}@{a}"), v.clone()))
        .collect();
    let mut diffs = Vec::new();
    // The page's encoding, when the browser's list was written.
    let ours_encoding = links.first().and_then(|l| l.encoding.clone());
    if let (Some(o), Some(t)) = (&ours_encoding, &seen.charset) {
        if !o.eq_ignore_ascii_case(t) {
            diffs.push(("encoding".into(), o.clone(), t.clone()));
        }
    }
    // Each place's links, in document order on both sides, aligned.
    let mut places: Vec<&String> =
        ours.iter().chain(&theirs).map(|l| &l.0).collect();
    places.sort();
    places.dedup();
    for place in places {
        let of = |side: &[(String, String)]| -> Vec<String> {
            side.iter()
                .filter(|l| &l.0 == place)
                .map(|l| l.1.clone())
                .collect()
        };
        for (o, t) in align(&of(&ours), &of(&theirs)) {
            diffs.push((place.clone(), o, t));
        }
    }
    // Every URL of the other sources is requested ...
    let fetched: Vec<&str> =
        seen.requests.iter().map(|r| without_fragment(r)).collect();
    for group in &requested {
        // The crawl's `<img src srcset="… 2x, … 3x">` (and the like on
        // other projects' pages): at a device pixel ratio of 1 the browser
        // takes `src`, its 1x candidate, and asks for no candidate of the
        // srcset.
        let optional = !page.own && group[0].0.ends_with("@srcset")
            || page.scripts_blocked && fetched_when_used(&group[0].0);
        if !optional
            && !group
                .iter()
                .any(|(_, url)| fetched.contains(&without_fragment(url)))
        {
            for (place, url) in group {
                diffs.push((
                    place.clone(),
                    url.clone(),
                    "(not requested)".into(),
                ));
            }
        }
    }
    // ... and every request but the page's own (and its icon) is a link,
    // or, from an https: page, an http: image link upgraded to https: (the
    // Mixed Content spec's upgradeable content, not URL parsing).
    let all: Vec<&str> =
        links.iter().map(|l| without_fragment(&l.value)).collect();
    let upgraded = |request: &str| {
        page.url.starts_with("https:")
            && request.strip_prefix("https:").is_some_and(|rest| {
                links.iter().any(|l| {
                    l.element == "img"
                        && without_fragment(&l.value).strip_prefix("http:")
                            == Some(rest)
                })
            })
    };
    for request in &seen.requests {
        let icon = request.ends_with("/favicon.ico");
        if request != without_fragment(&page.url)
            && !icon
            && !all.contains(&request.as_str())
            && !upgraded(request)
        {
            diffs.push(("request".into(), "-".into(), request.clone()));
        }
    }
    // ... and every URL the script resolved is a link.
    for (place, url) in scripted {
        diffs.push((place, "-".into(), url));
    }
    diffs
}

#[test]
fn links_are_the_urls_chromium_gives() {
    let Some(chromium) = Chromium::find() else { return };
    let mut pages = corpus();
    pages.extend(crawl_pages());
    let differences = DIFFERENCES
        .iter()
        .map(|&(page, place, ours, theirs, why)| {
            Difference::new(page, place, ours, theirs, why)
        })
        .collect();
    agree_with_chromium(&chromium, &pages, differences, true);
}

#[test]
fn links_of_pages_nobody_here_wrote_are_the_urls_chromium_gives() {
    let Some(chromium) = Chromium::find() else { return };
    let pages = shared_pages();
    assert!(pages.len() >= 80, "{} pages", pages.len());
    // Some of them are tree-construction tests with no link at all.
    agree_with_chromium(&chromium, &pages, shared_differences(), false);
}

/// `pages` in rounds in which no two share a URL (the test pages of one
/// suite may all live at one): the first page at each URL, then the
/// second, and so on.
fn rounds(pages: Vec<Page>) -> Vec<Vec<Page>> {
    let mut rounds: Vec<Vec<Page>> = Vec::new();
    for page in pages {
        match rounds.iter_mut().find(|r| r.iter().all(|p| p.url != page.url)) {
            Some(round) => round.push(page),
            None => rounds.push(vec![page]),
        }
    }
    rounds
}

/// Loads each of `pages` in Chromium and compares its links with
/// `urlspec links --spec whatwg`'s: every difference must be one of
/// `expected`, and each of those must occur; `each_has_links`: each
/// page must have links for both, else the pages must have some.
fn agree_with_chromium(
    chromium: &Chromium,
    pages: &[Page],
    mut expected: Vec<Difference>,
    each_has_links: bool,
) {
    let mut unexplained = Vec::new();
    // The links each side gave, so that a run that compared none fails.
    let (mut our_links, mut their_links) = (0, 0);
    for round in rounds(pages.to_vec()) {
        let docs = urlspec_links(&warc(&round));
        let server = Pages::start(
            round
                .iter()
                .map(|p| {
                    let response = Response {
                        content_type: p.content_type.clone(),
                        policy: p
                            .scripts_blocked
                            .then(|| SCRIPTS_BLOCKED.into()),
                        body: p.body.clone(),
                    };
                    (p.url.clone(), response)
                })
                .collect::<HashMap<_, _>>(),
        );
        for page in &round {
            let links = docs.get(&page.url).map_or(&[][..], Vec::as_slice);
            let seen = load(chromium, &server, &page.url);
            if each_has_links {
                assert!(
                    !links.is_empty(),
                    "{}: urlspec found no link",
                    page.url
                );
                assert!(
                    !seen.reflected.is_empty() || seen.requests.len() > 1,
                    "{}: Chromium showed no link",
                    page.url
                );
            }
            our_links += links.len();
            // The page's own request is not a link.
            their_links +=
                seen.reflected.len() + seen.requests.len().saturating_sub(1);
            if std::env::var_os("URLSPEC_BROWSER_LOG").is_some() {
                eprintln!("{}: requests {:#?}", page.url, seen.requests);
            }
            for (place, ours, theirs) in compare(links, &seen, page) {
                let known = expected
                    .iter()
                    .position(|d| d.is(&page.key, &place, &ours, &theirs));
                match known {
                    Some(k) => {
                        expected.remove(k);
                    }
                    None => unexplained.push(format!(
                        "{} {place}: urlspec {ours}, Chromium {theirs}",
                        page.key
                    )),
                }
            }
        }
    }
    assert!(
        our_links > pages.len() && their_links > pages.len(),
        "{our_links} links, Chromium {their_links}"
    );
    assert!(
        unexplained.is_empty(),
        "urlspec and Chromium differ:\n{}",
        unexplained.join("\n")
    );
    let missing: Vec<String> = expected
        .iter()
        .map(|d| {
            format!(
                "{} {}: urlspec {}, Chromium {} ({})",
                d.page, d.place, d.ours, d.theirs, d.why
            )
        })
        .collect();
    assert!(
        missing.is_empty(),
        "listed differences that did not occur:\n{}",
        missing.join("\n")
    );
}
