//! Writes a WARC archive of a few thousand HTML pages, to measure `urlspec
//! links` on an input of real-world size when no real crawl is at hand.
//!
//! ```sh
//! cargo run --release -p urlspec-links --example gen_warc -- crawl.warc.gz [PAGES] [DATA_DIR]
//! ./target/release/urlspec links --output json crawl.warc.gz > /dev/null
//! ```
//!
//! Each page is the response to a real URL (the bases of
//! `relative-pairs.tsv`, in `../shared/data/urls/` beside the repository,
//! or DATA_DIR) and links to real references: the relative references of
//! `relative-pairs.tsv` and the absolute URLs of `kasztp.txt`, about 80 per
//! page in `a`, `img`, `link`, `script` and `srcset`, between paragraphs of
//! text. As a crawler writes it: a `warcinfo` record, then for each page a
//! `request` and a `response` record, each record its own gzip member; one
//! page in 10 is reached through a 301 redirect, one in 7 has a
//! `Content-Location` header, one in 13 a `<base href>`, one in 3 a gzip
//! content coding, one in 20 is followed by an image. The output is the
//! same for the same arguments.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use flate2::write::GzEncoder;
use flate2::Compression;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &'a [String]) -> &'a str {
        &items[self.below(items.len())]
    }
}

/// `text` escaped for an HTML attribute value in double quotes.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// One WARC record, gzip-compressed on its own.
fn record(
    out: &mut impl Write,
    id: &mut u64,
    kind: &str,
    target: Option<&str>,
    block: &[u8],
) -> io::Result<()> {
    *id += 1;
    let mut r = Vec::with_capacity(block.len() + 512);
    write!(
        r,
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{id:012}>\r\n"
    )?;
    if let Some(target) = target {
        write!(r, "WARC-Target-URI: {target}\r\n")?;
    }
    let content_type = match kind {
        "warcinfo" => "application/warc-fields",
        "request" => "application/http; msgtype=request",
        _ => "application/http; msgtype=response",
    };
    write!(
        r,
        "Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )?;
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(&r)?;
    out.write_all(&gz.finish()?)
}

/// An HTTP response.
fn http(status: &str, headers: &[(&str, String)], body: &[u8]) -> Vec<u8> {
    let mut r = format!("HTTP/1.1 {status}\r\n").into_bytes();
    for (name, value) in headers {
        r.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    r.extend_from_slice(b"\r\n");
    r.extend_from_slice(body);
    r
}

/// Words for the text between links.
const WORDS: &[&str] = &[
    "the",
    "uniform",
    "resource",
    "locator",
    "relative",
    "base",
    "document",
    "retrieval",
    "context",
    "message",
    "header",
    "part",
    "scheme",
    "path",
    "query",
    "fragment",
    "network",
    "location",
    "archive",
    "crawler",
    "page",
    "link",
    "anchor",
    "reference",
    "resolution",
    "syntax",
    "component",
];

/// One page: about 80 links among text.
fn page(rng: &mut Rng, relative: &[String], absolute: &[String]) -> String {
    let mut html = String::with_capacity(32 * 1024);
    html.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <title>A page of the generated crawl</title>\n",
    );
    html.push_str(&format!(
        "<link rel=\"stylesheet\" href=\"{}\">\n<script src=\"{}\"></script>\n</head><body>\n",
        attr(rng.pick(relative)),
        attr(rng.pick(relative))
    ));
    let links = 60 + rng.below(40);
    for i in 0..links {
        html.push_str("<p>");
        for _ in 0..(15 + rng.below(30)) {
            html.push_str(WORDS[rng.below(WORDS.len())]);
            html.push(' ');
        }
        let reference =
            if i % 4 == 3 { rng.pick(absolute) } else { rng.pick(relative) };
        match i % 10 {
            7 => html.push_str(&format!(
                "<img src=\"{}\" alt=\"\">",
                attr(reference)
            )),
            9 => html.push_str(&format!(
                "<img src=\"a.png\" srcset=\"{} 2x, {} 3x\" alt=\"\">",
                attr(reference),
                attr(rng.pick(relative))
            )),
            _ => html.push_str(&format!(
                "<a href=\"{}\">{}</a>",
                attr(reference),
                WORDS[rng.below(WORDS.len())]
            )),
        }
        html.push_str("</p>\n");
    }
    html.push_str("</body></html>\n");
    html
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_warc: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `e`, which `path` met, said with the path.
fn at(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The text of the corpus `name` in `data`; an error names the file and
/// the argument that chooses its directory.
fn corpus(data: &Path, name: &str) -> io::Result<String> {
    let path = data.join(name);
    std::fs::read_to_string(&path).map_err(|e| {
        let why =
            format!("{e} (the URL corpora's directory is the third argument)");
        at(&path, io::Error::new(e.kind(), why))
    })
}

fn run() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(out_path) = args.next() else {
        eprintln!("usage: gen_warc OUT.warc.gz [PAGES] [DATA_DIR]");
        std::process::exit(2);
    };
    let pages: usize = args.next().map_or(3000, |n| n.parse().expect("PAGES"));
    let data = args.next().map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/data/urls")
        },
        PathBuf::from,
    );
    let pairs = corpus(&data, "relative-pairs.tsv")?;
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
        corpus(&data, "kasztp.txt")?.lines().map(str::to_owned).collect();

    let out_file = Path::new(&out_path);
    let file = File::create(out_file).map_err(|e| at(out_file, e))?;
    let mut out = BufWriter::new(file);
    let (links, id) =
        write_crawl(&mut out, pages, &bases, &relative, &absolute)
            .and_then(|written| out.flush().map(|()| written))
            .map_err(|e| at(out_file, e))?;
    eprintln!("{out_path}: {pages} pages, about {links} links, {id} records");
    Ok(())
}

/// Writes the crawl of `pages` pages to `out`, their targets from
/// `bases`, their links from `relative` and `absolute`: about how many
/// links it has, and how many records.
///
/// # Errors
///
/// An error writing `out`.
pub fn write_crawl(
    mut out: impl Write,
    pages: usize,
    bases: &[String],
    relative: &[String],
    absolute: &[String],
) -> io::Result<(usize, u64)> {
    let mut rng = Rng(0x3986_1808_1630);
    let mut id = 0;
    record(
        &mut out,
        &mut id,
        "warcinfo",
        None,
        b"software: urlspec-links gen_warc\r\nformat: WARC File Format 1.0\r\n",
    )?;
    let mut links = 0;
    for n in 0..pages {
        let target = &bases[(n * 7919) % bases.len()];
        let host = target.split('/').nth(2).unwrap_or("example.com");
        if n % 10 == 0 {
            let from = format!("http://{host}/moved/{n}");
            let request =
                format!("GET /moved/{n} HTTP/1.1\r\nHost: {host}\r\n\r\n");
            record(
                &mut out,
                &mut id,
                "request",
                Some(&from),
                request.as_bytes(),
            )?;
            let moved = http(
                "301 Moved Permanently",
                &[
                    ("Location", target.clone()),
                    ("Content-Length", "0".into()),
                ],
                b"",
            );
            record(&mut out, &mut id, "response", Some(&from), &moved)?;
        }
        let mut html = page(&mut rng, relative, absolute);
        if n % 13 == 0 {
            html = html.replacen(
                "</title>",
                "</title>\n<base href=\"http://www.ics.uci.edu/Test/a/b/c\">",
                1,
            );
        }
        links += html.matches("href=").count() + html.matches("src=").count();
        let mut headers = vec![
            ("Content-Type", "text/html; charset=utf-8".to_owned()),
            ("Server", "gen_warc".to_owned()),
        ];
        if n % 7 == 0 {
            headers.push(("Content-Location", "index.en.html".to_owned()));
        }
        let body = if n % 3 == 0 {
            headers.push(("Content-Encoding", "gzip".to_owned()));
            let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
            gz.write_all(html.as_bytes())?;
            gz.finish()?
        } else {
            html.into_bytes()
        };
        headers.push(("Content-Length", body.len().to_string()));
        let path = target.splitn(4, '/').nth(3).unwrap_or("");
        let request = format!("GET /{path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
        record(
            &mut out,
            &mut id,
            "request",
            Some(target),
            request.as_bytes(),
        )?;
        record(
            &mut out,
            &mut id,
            "response",
            Some(target),
            &http("200 OK", &headers, &body),
        )?;
        if n % 20 == 0 {
            let png = http(
                "200 OK",
                &[("Content-Type", "image/png".to_owned())],
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01",
            );
            let img = format!("http://{host}/img/{n}.png");
            record(&mut out, &mut id, "response", Some(&img), &png)?;
        }
    }
    Ok((links, id))
}
