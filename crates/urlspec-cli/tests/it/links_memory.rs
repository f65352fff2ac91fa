//! `urlspec links` in bounded memory: a page whose `<base>` comes last,
//! read from a file (two passes in place), from standard input (spooled)
//! and from a WARC record (spilled, then streamed), gives every link
//! resolved against that base; a page of 1 GB, alone, as a record of a
//! `.warc` or a `.warc.gz`, or as the HTML part of a MIME message (base64
//! or quoted-printable), is read in less than 64 MB of resident memory.
//!
//! The 1 GB tests are `#[ignore]`d for their time and measure a release
//! build of the command alone, named by `URLSPEC_RELEASE_BIN` (`cargo
//! build --release -p urlspec-cli --bin urlspec`; `.ci/run` builds it and
//! runs them from the debug test binary). Without it they are skipped,
//! and fail in CI (`CI` set) or with `URLSPEC_RELEASE_BIN_REQUIRED=1`.
//!
//! The peak is the child's own maximum resident set size, as `wait4`
//! reports it.

// `wait4` is the one call that gives a child's peak resident memory.
#![allow(unsafe_code)]

use crate::common;

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::{code, run, stderr};
use urlspec_test_support::mime::{Base64, QuotedPrintable};

/// The target URI of the generated WARC records.
const TARGET: &str = "http://warc.example/page.html";

/// The base the generated pages declare, after all their links.
const BASE: &str = "http://late.example/d/";

/// One block of a generated page: text, and links `N` with a relative
/// reference each.
fn block(out: &mut impl Write, n: usize) -> io::Result<()> {
    writeln!(
        out,
        "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do \
         eiusmod tempor incididunt ut labore et dolore magna aliqua. \
         <a href=\"p{n}.html\">page {n}</a> and <img src=\"i{n}.png\" \
         alt=\"\"> then <a href=\"../up/{n}?q=1&amp;r=2\">up</a>.</p>"
    )
}

/// Writes a page of at least `bytes` bytes whose `<base>` stands at the
/// end; returns the number of blocks (three links each).
fn write_page(out: &mut impl Write, bytes: u64) -> io::Result<usize> {
    let mut counting = Counting { inner: out, written: 0 };
    writeln!(counting, "<!DOCTYPE html><html><head><title>t</title>")?;
    let mut n = 0;
    while counting.written < bytes {
        block(&mut counting, n)?;
        n += 1;
    }
    writeln!(counting, "<base href=\"{BASE}\"></body></html>")?;
    Ok(n)
}

struct Counting<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The URL the link `i` of a generated page resolves to.
fn expected(i: usize) -> String {
    let n = i / 3;
    match i % 3 {
        0 => format!("{BASE}p{n}.html"),
        1 => format!("{BASE}i{n}.png"),
        _ => format!("http://late.example/up/{n}?q=1&r=2"),
    }
}

/// Checks the TSV rows of a generated page of `blocks` blocks: each link
/// in order, resolved against the late base.
fn check_rows(rows: impl Iterator<Item = String>, blocks: usize) {
    let mut i = 0;
    for row in rows {
        let fields: Vec<&str> = row.split('\t').collect();
        if fields[0] == "document" {
            continue;
        }
        assert!(fields.len() > 7, "{row}");
        if fields[1] == "base" {
            assert_eq!(fields[5], BASE);
            continue;
        }
        assert_eq!(fields[5], expected(i), "link {i}: {row}");
        assert_eq!(fields[6], BASE);
        assert_eq!(fields[7], "embedded");
        i += 1;
    }
    assert_eq!(i, 3 * blocks);
}

#[test]
fn a_late_base_in_a_20_mb_page_from_a_file_and_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.html");
    let mut file = BufWriter::new(File::create(&path).unwrap());
    let blocks = write_page(&mut file, 20 << 20).unwrap();
    file.flush().unwrap();
    drop(file);
    let from_file = run(
        &[
            "links",
            "--output",
            "tsv",
            "--spec",
            "rfc3986",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code(&from_file), 0, "{}", stderr(&from_file));
    let page = std::fs::read(&path).unwrap();
    let from_stdin =
        run(&["links", "--output", "tsv", "--spec", "rfc3986"], &page);
    assert_eq!(code(&from_stdin), 0, "{}", stderr(&from_stdin));
    // The same links, but for the document's name.
    let name = path.to_str().unwrap();
    let file_rows = String::from_utf8(from_file.stdout.clone()).unwrap();
    let stdin_rows = String::from_utf8(from_stdin.stdout.clone()).unwrap();
    assert_eq!(file_rows.replace(name, "-"), stdin_rows);
    check_rows(stdin_rows.lines().map(str::to_owned), blocks);
    let summary = stderr(&from_stdin);
    let links = 3 * blocks + 1;
    assert!(
        summary.starts_with(&format!(
            "1 document, {links} links, 0 unresolved; bases: embedded 1"
        )),
        "{summary}"
    );
}

#[test]
fn text_output_of_a_long_page_keeps_every_link() {
    let mut page = Vec::new();
    let blocks = write_page(&mut page, 3 << 20).unwrap();
    let out = run(&["links", "--spec", "rfc3986"], &page);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("== -\n   base: {BASE}  [")),
        "{}",
        &text[..200]
    );
    let arrows = text.lines().filter(|l| l.contains("  ->  ")).count();
    assert_eq!(arrows, 3 * blocks + 1);
    assert!(text.contains(&format!("->  {}\n", expected(3 * blocks - 1))));
}

/// Waits for `child`; returns whether it succeeded and its peak resident
/// memory in bytes.
fn wait_with_peak(child: Child) -> (bool, u64) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data, valid when zeroed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (`Child` is
    // dropped without a wait); `status` and `usage` are valid for
    // writes.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", io::Error::last_os_error());
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    // Linux gives ru_maxrss in KiB.
    (ok, usage.ru_maxrss as u64 * 1024)
}

/// The release build of `urlspec` the 1 GB tests measure, or `None` (the
/// test is skipped) when `URLSPEC_RELEASE_BIN` is not set and nothing
/// requires it.
fn release_bin() -> Option<PathBuf> {
    let ci = std::env::var("CI").unwrap_or_default().to_ascii_lowercase();
    let required = !matches!(ci.as_str(), "" | "0" | "false")
        || std::env::var("URLSPEC_RELEASE_BIN_REQUIRED")
            .is_ok_and(|v| v == "1");
    match std::env::var_os("URLSPEC_RELEASE_BIN") {
        Some(path) => {
            let path = PathBuf::from(path);
            assert!(path.is_file(), "URLSPEC_RELEASE_BIN: no {path:?}");
            Some(path)
        }
        None => {
            assert!(
                !required,
                "URLSPEC_RELEASE_BIN: no release build of urlspec named \
                 (cargo build --release -p urlspec-cli --bin urlspec)"
            );
            eprintln!("URLSPEC_RELEASE_BIN not set: not measured");
            None
        }
    }
}

/// Runs `bin links --output tsv` on `path`, checking every row as it
/// comes (after a `first` row ending as given, when there is one), and
/// asserts a peak resident memory under 64 MB, printed with `what`.
fn assert_peak(
    bin: &Path,
    path: &Path,
    blocks: usize,
    what: &str,
    first: Option<&str>,
) {
    let mut child = Command::new(bin)
        .args(["links", "--output", "tsv", "--spec", "rfc3986"])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let rows = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut rows = rows.map(Result::unwrap);
    if let Some(first) = first {
        // After the header row.
        let row = rows.nth(1).unwrap();
        assert!(row.ends_with(first), "{row}");
    }
    check_rows(rows, blocks);
    let (ok, peak) = wait_with_peak(child);
    assert!(ok);
    eprintln!(
        "peak resident: {:.1} MB for {what}, {} links",
        peak as f64 / 1e6,
        3 * blocks
    );
    assert!(peak < 64 << 20, "{peak} bytes");
}

#[test]
#[ignore = "a 1 GB page: about a minute in a release build (.ci/run)"]
fn a_1_gb_page_in_less_than_64_mb() {
    let Some(bin) = release_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.html");
    let mut file = BufWriter::new(File::create(&path).unwrap());
    let blocks = write_page(&mut file, 1 << 30).unwrap();
    file.flush().unwrap();
    drop(file);
    assert_peak(&bin, &path, blocks, "1 GB", None);
}

/// The HTTP head of the generated responses.
const HTTP_HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";

/// The WARC header of a response record of `target` whose block is
/// `block` bytes long.
fn warc_header(target: &str, block: u64) -> String {
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {target}\r\n\
         WARC-Date: 2026-01-01T00:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\n\
         Content-Type: application/http; msgtype=response\r\n\
         Content-Length: {block}\r\n\r\n"
    )
}

/// Writes a response record of [`TARGET`] holding a generated page of at
/// least `bytes` bytes, as it is generated (the page is generated twice:
/// first only counted, for the record's length); returns the number of
/// blocks.
fn write_page_record(out: &mut impl Write, bytes: u64) -> io::Result<usize> {
    let mut counted = Counting { inner: io::sink(), written: 0 };
    let blocks = write_page(&mut counted, bytes)?;
    let length = HTTP_HEAD.len() as u64 + counted.written;
    out.write_all(warc_header(TARGET, length).as_bytes())?;
    out.write_all(HTTP_HEAD.as_bytes())?;
    assert_eq!(write_page(out, bytes)?, blocks);
    out.write_all(b"\r\n\r\n")?;
    Ok(blocks)
}

/// A small response record of `target`, its page linking `next`.
fn small_record(target: &str) -> Vec<u8> {
    let block = format!("{HTTP_HEAD}<a href=\"next\">next</a>");
    let mut r = warc_header(target, block.len() as u64).into_bytes();
    r.extend_from_slice(block.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
#[ignore = "a 1 GB WARC record: a few minutes in a release build (.ci/run)"]
fn a_1_gb_record_of_a_warc_in_less_than_64_mb() {
    let Some(bin) = release_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.warc");
    let mut file = BufWriter::new(File::create(&path).unwrap());
    let blocks = write_page_record(&mut file, 1 << 30).unwrap();
    file.flush().unwrap();
    drop(file);
    assert_peak(&bin, &path, blocks, "a 1 GB record of a .warc", None);
}

#[test]
#[ignore = "a 1 GB WARC record, gzip: a few minutes in a release build (.ci/run)"]
fn a_1_gb_record_of_a_warc_gz_in_less_than_64_mb() {
    let Some(bin) = release_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.warc.gz");
    // One gzip member per record, as crawlers write them: a small record,
    // then the long one, compressed by gzip(1) as it is generated (fast,
    // where flate2 in a debug build is not).
    let mut file = File::create(&path).unwrap();
    file.write_all(&common::gzip(&small_record("http://warc.example/first")))
        .unwrap();
    let mut gzip = Command::new("gzip")
        .args(["-1", "-c"])
        .stdin(Stdio::piped())
        .stdout(file)
        .spawn()
        .expect("gzip(1)");
    let mut input = BufWriter::new(gzip.stdin.take().unwrap());
    let blocks = write_page_record(&mut input, 1 << 30).unwrap();
    input.flush().unwrap();
    drop(input);
    assert!(gzip.wait().unwrap().success());
    // The first record's one link, then the long page's.
    let first = "http://warc.example/next\thttp://warc.example/first\t\
                 retrieval\t\twindows-1252\t";
    assert_peak(
        &bin,
        &path,
        blocks,
        "a 1 GB record of a .warc.gz",
        Some(first),
    );
}

/// The TSV of `urlspec links` with `args`, each row's document name
/// replaced by `-`.
fn tsv(args: &[&str], name: &str) -> String {
    let mut all = vec!["links", "--output", "tsv", "--spec", "rfc3986"];
    all.extend_from_slice(args);
    let out = run(&all, b"");
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|row| match row.strip_prefix(name) {
            Some(rest) => format!("-{rest}\n"),
            None => format!("{row}\n"),
        })
        .collect()
}

#[test]
fn a_long_warc_record_gives_the_links_of_the_same_page_given_with_its_url() {
    // Past the 2 MiB a block is held in memory: spilled, then streamed.
    let dir = tempfile::tempdir().unwrap();
    let mut page = Vec::new();
    let blocks = write_page(&mut page, 3 << 20).unwrap();
    let html = dir.path().join("page.html");
    std::fs::write(&html, &page).unwrap();
    let mut record = Vec::new();
    assert_eq!(write_page_record(&mut record, 3 << 20).unwrap(), blocks);
    let plain = dir.path().join("page.warc");
    std::fs::write(&plain, &record).unwrap();
    let gz = dir.path().join("page.warc.gz");
    std::fs::write(&gz, common::gzip(&record)).unwrap();
    let expected = tsv(
        &["--url", TARGET, html.to_str().unwrap()],
        html.to_str().unwrap(),
    );
    check_rows(expected.lines().map(str::to_owned), blocks);
    for archive in [&plain, &gz] {
        let archive = archive.to_str().unwrap();
        for threads in ["1", "2"] {
            let got = tsv(&["-j", threads, archive], TARGET);
            assert!(
                got == expected,
                "{archive} -j{threads}: not the page's links"
            );
        }
    }
    // Damaged records around the long one: reported with their offsets,
    // and the reading resumes after each.
    let first = small_record("http://warc.example/first");
    let mut damaged = small_record("http://warc.example/damaged");
    let text = String::from_utf8(damaged.clone()).unwrap();
    damaged =
        text.replace("Content-Length: ", "Content-Length: x").into_bytes();
    let last = small_record("http://warc.example/last");
    // The long record cut short at the end of a line (its length runs
    // past the end): its bytes are searched again for the next record,
    // from its spilled copy, and the next line is the last record's.
    let mut cut = record.clone();
    let end = record[..record.len() - 100].iter().rposition(|&b| b == b'\n');
    cut.truncate(end.unwrap() + 1);
    let archive =
        [&first[..], &damaged, &record, &damaged, &cut, &last].concat();
    let path = dir.path().join("damaged.warc");
    std::fs::write(&path, &archive).unwrap();
    let path = path.to_str().unwrap();
    for threads in ["1", "2"] {
        let out = run(
            &[
                "links", "--output", "tsv", "--spec", "rfc3986", "-j",
                threads, path,
            ],
            b"",
        );
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        let docs: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|r| r.split('\t').next().unwrap())
            .collect();
        let mut expected = vec!["http://warc.example/first"];
        expected.extend(std::iter::repeat_n(TARGET, 3 * blocks + 1));
        expected.push("http://warc.example/last");
        assert_eq!(docs.len(), expected.len(), "-j{threads}");
        assert!(docs == expected, "-j{threads}");
        let err = stderr(&out);
        let parts = [&first[..], &damaged[..], &record[..], &damaged[..]];
        let at = |k: usize| archive_offset(&parts, k);
        for offset in [at(1), at(3), at(4)] {
            assert!(
                err.contains(&format!("at byte {offset}: ")),
                "{offset}: {err}"
            );
        }
        eprintln!("{err}");
    }
}

/// The offset of the `k`th of `parts` laid end to end.
fn archive_offset(parts: &[&[u8]], k: usize) -> usize {
    parts[..k].iter().map(|p| p.len()).sum()
}

#[test]
fn a_reference_over_1_mib_is_reported_and_skipped() {
    let page = format!(
        "<a href=a></a><a href='{}'></a><a href=b></a>",
        "x".repeat((1 << 20) + 1)
    );
    let out = run(
        &["links", "--output", "tsv", "--url", "http://h/"],
        page.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rows = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(rows.lines().count(), 3, "the header and two links");
    let err = stderr(&out);
    assert!(
        err.contains(
            "-: reference at byte 23 longer than 1048576 bytes: skipped"
        ),
        "{err}"
    );
    assert!(err.contains("; references too long 1"), "{err}");
}

/// The retrieval URL the generated messages name.
const MESSAGE: &str = "http://mime.example/m.eml";

/// Writes a MIME message whose one HTML part is a generated page of at
/// least `bytes` bytes, in base64 or quoted-printable, as it is generated;
/// returns the number of blocks.
fn write_message(
    out: &mut impl Write,
    bytes: u64,
    base64: bool,
) -> io::Result<usize> {
    let transfer = if base64 { "base64" } else { "quoted-printable" };
    write!(
        out,
        "MIME-Version: 1.0\r\nContent-Location: {MESSAGE}\r\n\
         Content-Type: multipart/related; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/html\r\n\
         Content-Transfer-Encoding: {transfer}\r\n\r\n"
    )?;
    let blocks = if base64 {
        let mut b = Base64::new(&mut *out);
        let blocks = write_page(&mut b, bytes)?;
        b.finish()?;
        blocks
    } else {
        write_page(&mut QuotedPrintable::new(&mut *out, 72), bytes)?
    };
    out.write_all(b"\r\n--b--\r\n")?;
    Ok(blocks)
}

#[test]
fn a_long_mime_part_gives_the_links_of_the_same_page() {
    // Past the 2 MiB a message is read whole: streamed, from a file in
    // place or spooled from standard input, with one or two threads.
    let dir = tempfile::tempdir().unwrap();
    let mut page = Vec::new();
    let blocks = write_page(&mut page, 3 << 20).unwrap();
    let html = dir.path().join("page.html");
    std::fs::write(&html, &page).unwrap();
    let expected = tsv(
        &["--url", MESSAGE, html.to_str().unwrap()],
        html.to_str().unwrap(),
    );
    check_rows(expected.lines().map(str::to_owned), blocks);
    for base64 in [true, false] {
        let mut message = Vec::new();
        assert_eq!(
            write_message(&mut message, 3 << 20, base64).unwrap(),
            blocks
        );
        let path = dir.path().join("m.eml");
        std::fs::write(&path, &message).unwrap();
        let name = format!("{}#1", path.to_str().unwrap());
        for threads in ["1", "2"] {
            let got = tsv(&["-j", threads, path.to_str().unwrap()], &name);
            assert!(
                got == expected,
                "base64 {base64} -j{threads}: not the page's links"
            );
        }
        let out =
            run(&["links", "--output", "tsv", "--spec", "rfc3986"], &message);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let rows =
            String::from_utf8(out.stdout).unwrap().replace("-#1\t", "-\t");
        assert!(rows == expected, "base64 {base64}, standard input");
    }
}

/// [`a_1_gb_page_in_less_than_64_mb`] for a page that is the HTML part of
/// a message, in `transfer`.
fn a_1_gb_part(base64: bool) {
    let Some(bin) = release_bin() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.eml");
    let mut file = BufWriter::new(File::create(&path).unwrap());
    let blocks = write_message(&mut file, 1 << 30, base64).unwrap();
    file.flush().unwrap();
    drop(file);
    let what = if base64 {
        "a 1 GB HTML part of a message, base64"
    } else {
        "a 1 GB HTML part of a message, quoted-printable"
    };
    assert_peak(&bin, &path, blocks, what, None);
}

#[test]
#[ignore = "a 1 GB HTML part in base64: a few minutes in a release build (.ci/run)"]
fn a_1_gb_base64_part_of_a_message_in_less_than_64_mb() {
    a_1_gb_part(true);
}

#[test]
#[ignore = "a 1 GB HTML part in quoted-printable: a few minutes in a release build (.ci/run)"]
fn a_1_gb_quoted_printable_part_of_a_message_in_less_than_64_mb() {
    a_1_gb_part(false);
}
