//! The documentation says what the binary does: the figures of README.md
//! and GUIDE.md are what `scripts/readme-figures.sh` makes from the binary
//! (their commands are run by `doc_examples.rs`), and every
//! `docs/readings.md#…` that the code, the help and the documents cite is
//! an anchor of that file. No committed file names a path of the machine
//! it was made on.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether a check that needs something from outside the repository (the
/// corpora) must fail rather than skip without it: in CI, or with
/// URLSPEC_DATA_REQUIRED=1.
fn required() -> bool {
    let ci = std::env::var("CI").unwrap_or_default().to_ascii_lowercase();
    let ci = !matches!(ci.as_str(), "" | "0" | "false");
    ci || std::env::var("URLSPEC_DATA_REQUIRED").is_ok_and(|v| v == "1")
}

#[test]
fn readme_figures_are_what_the_binary_prints() {
    let out = Command::new("bash")
        .arg(root().join("scripts/readme-figures.sh"))
        .arg("--check")
        .env("URLSPEC_CLI", env!("CARGO_BIN_EXE_urlspec"))
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(3) && !required() {
        eprintln!("skipped: {stderr}");
        return;
    }
    assert!(
        out.status.success(),
        "{}{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Every file of the repository that is text, less build output.
fn repository_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if entry.file_type().unwrap().is_dir() {
                let skipped = ["target", "corpus", "artifacts", "__pycache__"];
                let hidden = name.starts_with('.') && name != ".ci";
                if !skipped.contains(&name.as_ref()) && !hidden {
                    dirs.push(path);
                }
            } else if name == ".git" || path.ends_with("tests/it/docs.rs") {
                // A worktree's `.git` names where the repository is; this
                // file names what it looks for.
            } else if std::fs::read_to_string(&path).is_ok() {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn every_cited_reading_is_an_anchor_of_docs_readings() {
    let readings =
        std::fs::read_to_string(root().join("docs/readings.md")).unwrap();
    let anchors: Vec<&str> = readings
        .split("<a id=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert!(anchors.len() >= 40, "{anchors:?}");
    let mut cited = 0;
    for path in repository_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, _) in text.match_indices("readings.md#") {
            let rest = &text[at + "readings.md#".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            let anchor = &rest[..end];
            assert!(
                anchors.contains(&anchor),
                "{}: docs/readings.md#{anchor} is not an anchor of docs/readings.md",
                path.display()
            );
            cited += 1;
        }
    }
    assert!(cited >= 20, "only {cited} citations found");
}

#[test]
fn no_file_names_the_spec_checklists_or_a_path_of_this_machine() {
    for path in repository_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.strip_prefix(root()).unwrap_or(&path).display();
        for needle in ["SPEC.md", "SPEC-SUCCESSORS"] {
            assert!(!text.contains(needle), "{shown} names {needle}");
        }
        // A machine's path starts a word; inside a URL (`https://h/tmp/x`,
        // `file:/tmp/x`) the same letters are a path segment of that URL.
        // `/tmp/` is looked for in Rust and shell code only: the documents
        // and the Python tests quote CPython's example `'/tmp/junk.txt'`.
        let code = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("rs" | "sh")
        );
        for needle in ["/work/", "/tmp/"] {
            if needle == "/tmp/" && !code {
                continue;
            }
            let starts_a_path = text.match_indices(needle).any(|(at, _)| {
                !text[..at].ends_with(|c: char| {
                    c.is_alphanumeric()
                        || matches!(c, '.' | '-' | '_' | '/' | ':')
                })
            });
            assert!(!starts_a_path, "{shown} names {needle}");
        }
    }
}

/// The places in `text` where it tells history rather than what is: an
/// issue number, a withdrawn attempt, or a commit hash (a word of 7 to 40
/// lowercase hex digits, as `grep -E '\b[0-9a-f]{7,40}\b'` finds them),
/// but hex inside a URL or on the line after an `<!-- hex: WHY -->`
/// comment that says why it is there.
fn history(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut excused = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("<!-- hex:") {
            excused = true;
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let issue = lower.match_indices("issue ").any(|(at, _)| {
            lower[at + 6..].starts_with(|c: char| c.is_ascii_digit())
        });
        if issue || lower.contains("withdrawn") {
            found.push(format!("line {}: {line}", n + 1));
            continue;
        }
        let hex = !excused
            && line.split_whitespace().filter(|t| !t.contains("://")).any(
                |t| {
                    t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .any(|w| {
                            (7..=40).contains(&w.len())
                                && w.bytes().all(
                                    |b| matches!(b, b'0'..=b'9' | b'a'..=b'f'),
                                )
                        })
                },
            );
        if hex {
            found.push(format!("line {}: {line}", n + 1));
        }
        excused = false;
    }
    found
}

#[test]
fn the_documents_say_what_is_not_how_it_came_to_be() {
    assert_eq!(history("as of issue 17"), ["line 1: as of issue 17"]);
    assert_eq!(history("a5812c4 was faster").len(), 1);
    assert_eq!(history("2146414 bytes").len(), 1);
    assert!(history("2,146,414 bytes at http://h/a5812c4d").is_empty());
    assert!(history("<!-- hex: a checksum -->\n| e3b0c44 |").is_empty());
    for document in ["README.md", "GUIDE.md", "BENCHMARKS.md", "SECURITY.md"] {
        let text = std::fs::read_to_string(root().join(document)).unwrap();
        let found = history(&text);
        assert!(
            found.is_empty(),
            "{document} tells history:\n{}",
            found.join("\n")
        );
    }
}

/// Every published package carries the licence files, as the repository's.
#[test]
fn every_published_package_has_the_licence_files() {
    for dir in [
        "crates/urlspec",
        "crates/urlspec-links",
        "crates/urlspec-parsers",
        "crates/urlspec-cli",
        "crates/urlspec-py",
    ] {
        for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
            let own = std::fs::read(root().join(dir).join(licence))
                .unwrap_or_else(|e| panic!("{dir}/{licence}: {e}"));
            assert_eq!(
                own,
                std::fs::read(root().join(licence)).unwrap(),
                "{dir}/{licence}"
            );
        }
    }
}
