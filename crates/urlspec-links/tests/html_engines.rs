//! The differential of the two readings of a page's markup: the
//! project's tokenizer (the default) and `lol_html` (the reference), on
//! every corpus at hand. Every field of every document must agree: the
//! links (element, attribute, reference, offset, URL, context, query
//! encoding), the base, the encoding, the problems and the references
//! left out as too long.
//!
//! The corpora: the generated crawl of `examples/gen_warc.rs`, every
//! document of the real archives (`shared/data/warc-real`), the real
//! pages of `shared/data/browser-pages` (whole, and joined into a page
//! past the in-memory size, streamed from a file), and pages that reach
//! the readers' limits.

use std::fmt::Write as _;

use urlspec::Spec;
use urlspec_links::html::{self, stream, with_engine, Charset, Engine};
use urlspec_links::{warc, Context, Document};
use urlspec_test_support::paths;

#[allow(dead_code)]
#[path = "../examples/gen_warc.rs"]
mod gen_warc;

/// Every field of `doc` that reading it yields, one line each.
fn show(doc: &Document) -> String {
    let mut s = format!(
        "name {:?}\nbase {:?}\nencoding {:?}\nunread {:?}\ntoo_long {:?}\n",
        doc.name,
        doc.base,
        doc.encoding.map(|e| e.name()),
        doc.unread_base_header,
        doc.too_long
    );
    for l in &doc.links {
        writeln!(s, "link {l:?}").unwrap();
    }
    for p in &doc.problems {
        writeln!(s, "problem {:?}", p.to_string()).unwrap();
    }
    s
}

/// What `read` gives under each reading.
fn both(read: impl Fn() -> String) -> (String, String) {
    (
        with_engine(Engine::Tokenizer, &read),
        with_engine(Engine::Reference, &read),
    )
}

/// `doc` as [`show`] gives it, the words of a stop at a tag whose text
/// state a streaming reader cannot tell left out (each reading says it
/// its own way; where it stops, and the links before, agree).
fn unworded(shown: &str) -> String {
    shown
        .lines()
        .map(|line| {
            let ambiguous = line
                .starts_with("problem \"HTML reading stopped: ")
                && (line.contains("text content tag")
                    || line.contains("cannot tell whether its contents"));
            match (ambiguous, line.find(" (in bytes ")) {
                (true, Some(i)) => {
                    let end =
                        line[i..].find(')').map_or(line.len(), |j| i + j + 1);
                    format!("problem ambiguous start tag{}", &line[i..end])
                }
                _ => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first line where `ours` and `reference` part, with `what`.
fn differ(what: &str, ours: &str, reference: &str) -> Option<String> {
    let (ours, reference) = (&*unworded(ours), &*unworded(reference));
    if ours == reference {
        return None;
    }
    let (a, b): (Vec<_>, Vec<_>) =
        (ours.lines().collect(), reference.lines().collect());
    let i = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Some(format!(
        "{what}: line {i}\n  tokenizer: {}\n  reference: {}",
        a.get(i).unwrap_or(&"(end)"),
        b.get(i).unwrap_or(&"(end)")
    ))
}

/// The contexts the corpora are read under: a spec that resolves every
/// link against the document's base, and the URL Standard.
fn contexts() -> Vec<Context> {
    let mut out = vec![Context::new(Spec::Rfc3986)];
    if cfg!(feature = "whatwg") {
        out.push(Context::new(Spec::Whatwg));
    }
    out
}

/// Every document of the WARC (or ARC) archive `data`.
fn archive(data: &[u8], ctx: &Context) -> String {
    let mut out = String::new();
    let input = warc::reader(std::io::Cursor::new(data.to_vec())).unwrap();
    for doc in warc::Documents::new(input, ctx.clone()) {
        match doc {
            Ok(doc) => out += &show(&doc),
            Err(e) => writeln!(out, "error {e}").unwrap(),
        }
    }
    out
}

#[test]
fn the_generated_crawl_reads_the_same() {
    let data = paths::urls();
    let pairs =
        std::fs::read_to_string(data.join("relative-pairs.tsv")).unwrap();
    let (mut bases, mut relative) = (Vec::new(), Vec::new());
    for line in pairs.lines() {
        if let Some((base, reference)) = line.split_once('\t') {
            if base.starts_with("http") {
                bases.push(base.to_owned());
            }
            relative.push(reference.to_owned());
        }
    }
    bases.dedup();
    let absolute: Vec<String> =
        std::fs::read_to_string(data.join("kasztp.txt"))
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
    let mut crawl = Vec::new();
    gen_warc::write_crawl(&mut crawl, 200, &bases, &relative, &absolute)
        .unwrap();
    for ctx in contexts() {
        let (ours, reference) = both(|| archive(&crawl, &ctx));
        assert!(ours.matches("\nlink ").count() > 10_000);
        if let Some(d) = differ("gen_warc", &ours, &reference) {
            panic!("{d}");
        }
    }
}

#[test]
fn the_real_archives_read_the_same() {
    let dir = paths::warc_real();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.extension().is_some_and(|e| e == "tsv" || e == "md"))
        .collect();
    names.sort();
    assert!(names.len() >= 40, "{}", names.len());
    let mut differences = Vec::new();
    for path in &names {
        let data = std::fs::read(path).unwrap();
        for ctx in contexts() {
            let (ours, reference) = both(|| archive(&data, &ctx));
            if let Some(d) =
                differ(&path.display().to_string(), &ours, &reference)
            {
                differences.push(d);
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// The browser pages: each page's bytes and URL.
fn browser_pages() -> Vec<(String, Vec<u8>, String)> {
    let dir = paths::browser_pages().join("pages");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages
        .iter()
        .map(|p| {
            let url = std::fs::read_to_string(p.with_extension("url"))
                .unwrap_or_default();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap(), url.trim().to_owned())
        })
        .collect()
}

#[test]
fn the_browser_pages_read_the_same() {
    let pages = browser_pages();
    assert!(pages.len() >= 80, "{}", pages.len());
    let mut differences = Vec::new();
    for (name, page, url) in &pages {
        for ctx in contexts() {
            let base = ctx.establish().retrieval(&[url.as_str()]);
            for charset in
                [Charset::Unknown, Charset::Transport("windows-1252")]
            {
                let read = || {
                    show(&html::document_in(page, charset, name, &base, &ctx))
                };
                let (ours, reference) = both(read);
                if let Some(d) = differ(name, &ours, &reference) {
                    differences.push(d);
                }
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// `page` read as a stream (spooled to a file past the in-memory size):
/// the links of every batch, then the last document.
fn streamed(page: &[u8], ctx: &Context) -> String {
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    let mut out = String::new();
    let last = stream::document(
        &mut &page[..],
        Charset::Unknown,
        "p",
        &base,
        ctx,
        &mut |doc| {
            for l in &doc.links {
                writeln!(out, "link {l:?}").unwrap();
            }
        },
    )
    .unwrap();
    out + &show(&last)
}

#[test]
fn the_browser_pages_joined_past_the_in_memory_size_read_the_same() {
    let pages = browser_pages();
    let mut joined = Vec::new();
    while joined.len() <= stream::IN_MEMORY + (1 << 20) {
        for (_, page, _) in &pages {
            joined.extend_from_slice(page);
        }
    }
    for ctx in contexts() {
        let (ours, reference) = both(|| streamed(&joined, &ctx));
        assert!(ours.matches("link ").count() > 1000);
        if let Some(d) = differ("joined", &ours, &reference) {
            panic!("{d}");
        }
    }
}

/// Pages at the readers' limits, and the tree facts they follow.
fn limits() -> Vec<(String, Vec<u8>)> {
    const MB: usize = 1 << 20;
    let open = |unit: &str, bytes: usize| {
        let mut page = "<a href=first></a>".to_string();
        page.push_str(&unit.repeat((bytes - 36) / unit.len()));
        page.push_str("<a href=last></a>");
        page.into_bytes()
    };
    let mut out = vec![];
    for unit in
        ["<p><b><i>", "<div>", "<template>", "<svg>", "<div><a href=\"x\">"]
    {
        out.push((format!("{unit} 2 MiB"), open(unit, stream::IN_MEMORY)));
    }
    for (name, page) in [
        ("value", format!("<a href=\"{}", "x".repeat(8 * MB))),
        ("tag", "<a href=x ".repeat(MB / 10)),
        ("comment", format!("<!--{}", "<a href=x>".repeat(MB / 10))),
        ("script", format!("<script>{}", "<a href=x>".repeat(MB / 10))),
        ("cdata", format!("<svg><![CDATA[{}", "<a href=x>".repeat(MB / 10))),
        ("select", "<a href=1><select><style>x</style></select><a href=2>".into()),
        ("frameset", "<frameset><noframes><a href=1></noframes><title>t</title><a href=2>".into()),
        ("long value", format!("<a href=\"{}\"><a href=y>", "x".repeat(MB + 1))),
        ("frameset replacing a body", "<a href=a><link href=b><base href=http://o/><frameset><frame src=f>".into()),
        ("form ends that are no end tag", concat!(
            "<form action=a><!-- </form> --><form action=b><script>\"</form>\"</script>",
            "<form action=c><p title=\"</form>\"><form action=d><textarea></form></textarea>",
            "<form action=e><svg><![CDATA[</form>]]></svg><!</form><?</form><form action=f>",
            "<div></form></div><form action=g>",
        ).into()),
    ] {
        out.push((name.to_string(), page.into_bytes()));
    }
    out
}

#[test]
fn pages_at_the_limits_read_the_same() {
    let ctx = Context::new(Spec::Rfc3986);
    let base = ctx.establish().retrieval(&["http://h/d/p.html"]);
    let mut differences = Vec::new();
    for (name, page) in limits() {
        let read = || show(&html::document(&page, "p", &base, &ctx));
        let (ours, reference) = both(read);
        if let Some(d) =
            differ(&format!("{name} in memory"), &ours, &reference)
        {
            differences.push(d);
        }
        if page.len() > stream::IN_MEMORY {
            let (ours, reference) = both(|| streamed(&page, &ctx));
            if let Some(d) =
                differ(&format!("{name} streamed"), &ours, &reference)
            {
                differences.push(d);
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn a_streamed_body_a_frameset_replaces_gives_no_links() {
    // A page past the in-memory size whose body (links and whitespace
    // only) a <frameset> takes the place of: its links are held until
    // then, and taken back, under both readings.
    let ctx = Context::new(Spec::Rfc3986);
    let mut page = b"<head><link rel=icon href=i.png></head>".to_vec();
    let unit = format!("<a href=a.html></a>{}", "\n".repeat(80));
    while page.len() <= stream::IN_MEMORY + (1 << 20) {
        page.extend_from_slice(unit.as_bytes());
    }
    page.extend_from_slice(b"<frameset><frame src=f.html></frameset>");
    let (ours, reference) = both(|| streamed(&page, &ctx));
    let links: Vec<&str> =
        ours.lines().filter(|l| l.starts_with("link ")).collect();
    assert_eq!(links.len(), 2, "{}", links.join("\n"));
    assert!(links[0].contains("i.png") && links[1].contains("f.html"));
    if let Some(d) = differ("frameset streamed", &ours, &reference) {
        panic!("{d}");
    }
}
