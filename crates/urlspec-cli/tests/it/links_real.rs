//! `urlspec links` on archives and pages nobody on this project wrote:
//! the 40 archives of `../shared/data/warc-real/` (written by Heritrix,
//! wget, wpull, warcprox, Webrecorder, WAIL, WARCreate, node-warc, Nutch,
//! gowarc and others, many of them damaged or odd on purpose) and pages of
//! `../shared/data/browser-pages/`.
//!
//! Over every archive: no record that holds an HTML page is lost without
//! a reported reason, damage is reported only where the framing is
//! broken, and `-j 1/2/4` print the same bytes. Both are judged by a scan
//! of the archive written apart from the reader (`tests/common/real_archives.rs`):
//! records are found by their `WARC/` lines (or ARC header lines) in the
//! inflated bytes, not by their lengths.
//!
//! Each case the archives and pages showed, on a minimal reproducer and on
//! the real file it came from, is in `links_real_cases.rs`.

use crate::common;

use common::real_archives::{
    archives, broken_at, damage, documents, scan, skipped,
};
use common::{code, run, stderr, stdout};

#[test]
fn every_real_archive_loses_no_page_without_a_reason() {
    let mut total_links = 0usize;
    let mut failures = Vec::new();
    for file in archives() {
        let data = std::fs::read(&file).unwrap();
        let path = file.to_str().unwrap();
        let out = run(&["links", "-v", "-j", "1", path], b"");
        assert!(matches!(code(&out), 0 | 1), "{path}: {out:?}");
        let (text, err) = (stdout(&out), stderr(&out));
        assert!(!err.contains("panicked"), "{path}: {err}");
        let docs = documents(&text);
        let damaged = damage(&err, &file);
        let skipped = skipped(&err, &file);
        // Every page is a document, or its record (its gzip member) is
        // reported damaged or skipped, with why.
        for record in scan(&data).iter().filter(|r| r.page) {
            let reported = damaged.iter().any(|(at, _)| *at == record.at)
                || skipped.contains(&record.at);
            if !docs.contains(&record.target) && !reported {
                failures.push(format!(
                    "{path}: the {} record of {} at {} is lost, with no reason",
                    record.kind, record.target, record.at
                ));
            }
        }
        // Damage only where the framing is broken.
        for (at, why) in &damaged {
            if !why.starts_with("not a WARC archive") && !broken_at(&data, *at)
            {
                failures.push(format!(
                    "{path}: damage reported at {at} ({why}), framing whole"
                ));
            }
        }
        let summary = text.lines().last().unwrap_or("");
        let links: usize = summary
            .split(", ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{path}: {summary}"));
        total_links += links;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{total_links} links in the 40 archives");
}

#[test]
fn every_real_archive_reads_the_same_on_1_2_and_4_threads() {
    for file in archives() {
        let path = file.to_str().unwrap();
        let runs: Vec<_> = ["1", "2", "4"]
            .iter()
            .map(|j| run(&["links", "-v", "-o", "json", "-j", j, path], b""))
            .collect();
        for other in &runs[1..] {
            assert_eq!(other.stdout, runs[0].stdout, "{path}");
            assert_eq!(other.stderr, runs[0].stderr, "{path}");
            assert_eq!(other.status, runs[0].status, "{path}");
        }
    }
}
