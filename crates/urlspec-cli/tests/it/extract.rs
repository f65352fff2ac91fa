//! `urlspec extract`.

use crate::common;

use common::cli::{run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

/// The keys of an `extract --output json` line, in order.
const EXTRACT_KEYS: [&str; 11] = [
    "file",
    "line",
    "column",
    "offset",
    "form",
    "url",
    "resolved",
    "ambiguous_hyphen",
    "alternative",
    "relative",
    "too_long",
];

/// TV-TXT-1 … 3: the 1996 draft's own example.
const DRAFT_EXAMPLE: &str = "Yes, Jim, I found it under <ftp://info.cern.ch/pub/www/doc;\n      type=d> but you can probably pick it up from <ftp://ds.in\n      ternic.net/rfc>.  Note the warning in <http://ds.internic.\n      net/instructions/overview.html#WARNING>.\n";

#[test]
fn extract_tv_txt_from_standard_input() {
    let out = run(&["extract"], Some(DRAFT_EXAMPLE.as_bytes()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "-:1:28  angle  ftp://info.cern.ch/pub/www/doc;type=d\n\
         -:2:52  angle  ftp://ds.internic.net/rfc\n\
         -:3:45  angle  http://ds.internic.net/instructions/overview.html#WARNING\n"
    );
    // `-` is standard input too.
    let dash = run(&["extract", "-"], Some(DRAFT_EXAMPLE.as_bytes()));
    assert_eq!(stdout(&dash), stdout(&out));
}

#[test]
fn extract_json_keys_flags_and_base() {
    let text = "See <URL:http://a.example/foo-\n  bar> and <URL:../g>, \"../q\" or http://b.example/x.\n";
    let out = run(&["extract", "-o", "json"], Some(text.as_bytes()));
    assert_eq!(code(&out), 0);
    for line in stdout(&out).lines() {
        assert_eq!(top_level_keys(line), EXTRACT_KEYS);
    }
    let v = json_lines(&out);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["file"], "-");
    assert_eq!(
        (v[0]["line"].clone(), v[0]["column"].clone()),
        (1.into(), 5.into())
    );
    assert_eq!(v[0]["offset"], 4);
    assert_eq!(v[0]["form"], "url-prefixed");
    assert_eq!(v[0]["url"], "http://a.example/foo-bar");
    assert!(v[0]["resolved"].is_null());
    assert_eq!(v[0]["ambiguous_hyphen"], true);
    assert_eq!(v[0]["alternative"], "http://a.example/foobar");
    assert_eq!(v[0]["relative"], false);
    assert_eq!(v[1]["form"], "bare");
    assert!(v[1]["alternative"].is_null());

    // --relative adds the relative references; --base resolves them all.
    let args =
        ["extract", "-o", "json", "--relative", "--base", "http://h/d/e"];
    let out = run(&args, Some(text.as_bytes()));
    let v = json_lines(&out);
    let found: Vec<(&str, &str, bool)> = v
        .iter()
        .map(|v| {
            (
                v["url"].as_str().unwrap(),
                v["resolved"].as_str().unwrap(),
                v["relative"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("http://a.example/foo-bar", "http://a.example/foo-bar", false),
            ("../g", "http://h/g", true),
            ("../q", "http://h/q", true),
            ("http://b.example/x", "http://b.example/x", false),
        ]
    );
    // The same as text, with flags.
    let args = ["extract", "--relative", "--base", "http://h/d/e"];
    let out = run(&args, Some(text.as_bytes()));
    assert_eq!(
        stdout(&out),
        "-:1:5  url-prefixed  http://a.example/foo-bar -> http://a.example/foo-bar  [ambiguous-hyphen (or http://a.example/foobar)]\n\
         -:2:12  url-prefixed  ../g -> http://h/g  [relative]\n\
         -:2:24  quoted  ../q -> http://h/q  [relative]\n\
         -:2:34  bare  http://b.example/x -> http://b.example/x\n"
    );
    // --no-bare drops the bare URL.
    let out = run(&["extract", "--no-bare"], Some(text.as_bytes()));
    assert_eq!(stdout(&out).lines().count(), 1);
}

#[test]
fn extract_tsv_has_a_header_row_and_eleven_columns() {
    let out =
        run(&["extract", "--output", "tsv"], Some(DRAFT_EXAMPLE.as_bytes()));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "file\tline\tcolumn\toffset\tform\turl\tresolved\tambiguous_hyphen\talternative\trelative\ttoo_long"
        )
    );
    let rows: Vec<Vec<&str>> =
        lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.len() == 11));
    assert_eq!(
        rows[0],
        [
            "-",
            "1",
            "28",
            "27",
            "angle",
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "",
            "false",
            "",
            "false",
            "false"
        ]
    );
}

#[test]
fn extract_a_form_too_long_is_a_finding_and_fails() {
    // Over 8 KiB between the brackets: reported, not cut into a bare URL
    // at its first line break, and the exit status is 1.
    let text = format!("<URL:http://a/{}\nb> http://c/\n", "x".repeat(9000));
    let out = run(&["extract"], Some(text.as_bytes()));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("-:1:1  url-prefixed  -  [too-long (9015 bytes")
    );
    assert_eq!(lines[1], "-:2:4  bare  http://c/");
    assert!(stderr(&out).contains("not read as a URL"));
}

#[test]
fn extract_files_bytes_and_exit_statuses() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    let latin1 = format!("{dir}/extract-latin1.txt");
    std::fs::write(&latin1, b"caf\xe9 <URL:http://x/>\n\xff\n  <http://y/>\n")
        .unwrap();
    let out = run(&["extract", &latin1], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{latin1}:1:6  url-prefixed  http://x/\n{latin1}:3:3  angle  http://y/\n")
    );
    // A missing file: exit status 2, after the other files were read.
    let out = run(&["extract", "no-such-file.txt", &latin1], None);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("no-such-file.txt"));
    assert_eq!(stdout(&out).lines().count(), 2);
    // A base that is not absolute is a usage error.
    for base in ["", "../x"] {
        let out = run(&["extract", "--base", base, &latin1], None);
        assert_eq!(code(&out), 2, "{base:?}");
        assert!(out.stdout.is_empty());
        assert!(stderr(&out).contains("not an absolute URL"));
    }
    for args in [
        &["extract", "--output", "xml"][..],
        &["extract", "--spec", "rfc9999"],
    ] {
        assert_eq!(code(&run(args, None)), 2, "{args:?}");
    }
    // No URL at all is no failure.
    assert_eq!(code(&run(&["extract"], Some(b"nothing here\n"))), 0);
}

/// The seed texts, when this checkout sits next to them.
fn seeds_dir() -> Option<std::path::PathBuf> {
    let dir = urlspec_test_support::paths::seeds();
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "notice: {} not found; skipping the extract test over the seeds",
            dir.display()
        );
        None
    }
}

#[test]
fn extract_finds_exactly_the_delimited_urls_of_the_seeds() {
    let Some(dir) = seeds_dir() else { return };
    let tsv = format!(
        "{}/../../testdata/extract/seeds-expected.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let expected: Vec<String> = std::fs::read_to_string(tsv)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect();
    assert!(!expected.is_empty());

    let mut seeds: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seed texts in {}", dir.display());

    let mut got = Vec::new();
    for seed in &seeds {
        let path = seed.to_str().unwrap();
        let out =
            run(&["extract", "--no-bare", "--output", "tsv", path], None);
        assert_eq!(code(&out), 0, "{path}: {}", stderr(&out));
        let text = stdout(&out);
        let mut rows = text.lines();
        assert!(rows.next().unwrap().starts_with("file\tline\t"));
        for row in rows {
            let f: Vec<&str> = row.split('\t').collect();
            assert_eq!(f[0], path);
            let name = seed.file_name().unwrap().to_str().unwrap();
            // file, line, form, url: the columns of the expected list.
            got.push(format!("{name}\t{}\t{}\t{}", f[1], f[4], f[5]));
        }
    }
    if got != expected {
        let missing: Vec<_> =
            expected.iter().filter(|e| !got.contains(e)).collect();
        let extra: Vec<_> =
            got.iter().filter(|g| !expected.contains(g)).collect();
        panic!(
            "urlspec extract differs from seeds-expected.tsv\nmissing: \
             {missing:#?}\nunexpected: {extra:#?}"
        );
    }
}

#[test]
fn extract_help_teaches_with_examples() {
    let help = stdout(&run(&["extract", "--help"], None));
    for needle in [
        "Appendix B",
        "url-prefixed",
        "angle",
        "quoted",
        "bare",
        "--no-bare",
        "--relative",
        "--base",
        "--output",
        "ambiguous_hyphen",
        "alternative",
        "Examples:",
        "| jq",
        "Exit status",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
}
