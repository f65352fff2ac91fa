//! The documentation says what the binary does: the README's figures are
//! what `scripts/readme-figures.sh` makes from the binary, its `$ urlspec`
//! examples are what the binary prints, and every `docs/readings.md#…`
//! that the code, the help and the documents cite is an anchor of that
//! file. No committed file names a path of the machine it was made on.

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

/// The words of a shell command line, as the README writes them: split at
/// blanks, with single quotes (no escapes inside) and `\` before a
/// character outside them.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn shell_words_split_as_a_shell_does() {
    assert_eq!(
        shell_words("urlspec diff 'http://a?@b/'"),
        ["urlspec", "diff", "http://a?@b/"]
    );
    assert_eq!(shell_words("a 'b c'd e\\ f"), ["a", "b cd", "e f"]);
}

#[test]
fn readme_examples_are_what_the_binary_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut checked = 0;
    for block in readme.split("```text\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let mut lines = block.lines();
        let Some(command) = lines.next().and_then(|l| l.strip_prefix("$ "))
        else {
            continue;
        };
        if command.contains('|') || !command.starts_with("urlspec ") {
            continue;
        }
        let words = shell_words(command);
        let out = Command::new(env!("CARGO_BIN_EXE_urlspec"))
            .args(&words[1..])
            .output()
            .unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        let mut printed_lines = printed.lines();
        // Each line shown is printed, in order; `...` stands for lines
        // left out, and a line ending in `...` for the rest of a line.
        for want in lines.filter(|l| l.trim() != "...") {
            let prefix = want.strip_suffix("...");
            let found = printed_lines.by_ref().any(|got| match prefix {
                Some(prefix) => got.starts_with(prefix),
                None => got == want,
            });
            assert!(found, "`{command}` prints no line\n{want}\nafter the lines before it:\n{printed}");
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} examples found");
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
