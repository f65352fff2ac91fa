//! Golden outputs: every subcommand of `urlspec`, in its text and its JSON
//! form, on samples of the URL corpora (`../shared/data/urls/` beside the
//! repository), on the seed documents (`../shared/seeds/`) and on the
//! fixtures of `testdata/`, checked byte for byte, so that a change meant
//! to keep the output (a refactoring) keeps it.
//!
//! A small run (one URL or pair, a fixture, a seed document) keeps its
//! whole output, readable, in `tests/golden/COMMAND/CASE.txt`: a changed
//! output fails with the diff of the lines that changed. A run over a
//! corpus sample keeps only its exit status, output size and the SHA-256
//! of its standard output and standard error, in `tests/golden/outputs.tsv`.
//!
//! `URLSPEC_GOLDEN=bless` rewrites both from this build (removing the files
//! of cases that are gone), so that `git diff tests/golden` shows how the
//! outputs changed; a mismatch also leaves the run's output under Cargo's
//! test temporary directory, named in the failure. Without the corpora the
//! test fails, unless `URLSPEC_GOLDEN=skip`. Paths are given relative to the
//! repository, where each run starts, so that the outputs naming them do
//! not depend on where the repository lies.
#![cfg(feature = "whatwg")]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{run_in, SPECS};

use sha2::{Digest, Sha256};
use urlspec_test_support::paths;

/// How many lines each corpus sample holds at most: spread over the whole
/// file (every k-th line), so that the sample sees all of it while a debug
/// build still runs every case in about a minute.
const SAMPLE: usize = 1500;

/// One run of the binary: its name, its arguments, what it reads on
/// standard input, and whether its whole output is kept (a small run) or
/// only its digests (a corpus run).
struct Case {
    name: String,
    args: Vec<String>,
    stdin: Vec<u8>,
    readable: bool,
}

impl Case {
    /// A run over a corpus sample, kept as digests.
    fn new(name: impl Into<String>, args: &[&str], stdin: &[u8]) -> Case {
        Case {
            name: name.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: stdin.to_vec(),
            readable: false,
        }
    }

    /// A small run, kept whole.
    fn small(name: impl Into<String>, args: &[&str], stdin: &[u8]) -> Case {
        Case { readable: true, ..Case::new(name, args, stdin) }
    }

    /// The file that keeps a small run's output, relative to
    /// `tests/golden`: the command names the directory, the rest of the
    /// name the file (`links rfc1808 spec sample [json]` is
    /// `links/rfc1808_spec_sample_json.txt`).
    fn file(&self) -> PathBuf {
        let (command, rest) = self.name.split_once(' ').unwrap();
        let mut slug = String::new();
        for c in rest.chars() {
            if c.is_ascii_alphanumeric() || c == '.' {
                slug.push(c);
            } else if !slug.is_empty() && !slug.ends_with('_') {
                slug.push('_');
            }
        }
        let slug = slug.trim_end_matches('_');
        Path::new(command).join(format!("{slug}.txt"))
    }
}

/// Every k-th line of a corpus file, at most `SAMPLE` of them, each ending
/// in `\n`.
fn sample(text: &[u8]) -> Vec<u8> {
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let step = lines.len().div_ceil(SAMPLE).max(1);
    let mut out = Vec::new();
    for line in lines.into_iter().step_by(step) {
        out.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    out
}

/// The column `n` (0-based) of each TAB-separated line.
fn column(text: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        if let Some(field) = line.split(|&b| b == b'\t').nth(n) {
            out.extend_from_slice(field);
            out.push(b'\n');
        }
    }
    out
}

/// The (a, b) pairs of the equivalence vectors, with their options as
/// command-line flags.
fn equiv_pairs() -> Vec<(String, String, Vec<String>)> {
    let text =
        std::fs::read_to_string(paths::testdata().join("equiv/vectors.toml"))
            .unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let mut pairs = Vec::new();
    for case in doc["case"].as_array().unwrap() {
        let (Some(a), Some(b)) = (case.get("a"), case.get("b")) else {
            continue;
        };
        let mut flags = Vec::new();
        if let Some(options) = case.get("options").and_then(|o| o.as_table()) {
            for (key, value) in options {
                match (key.as_str(), value) {
                    ("include_fragment", toml::Value::Boolean(true)) => {
                        flags.push("--include-fragment".into())
                    }
                    ("default_port", toml::Value::Boolean(false)) => {
                        flags.push("--no-default-port".into())
                    }
                    ("host_case", toml::Value::Boolean(true)) => {
                        flags.push("--host-case".into())
                    }
                    ("level", toml::Value::String(level)) => {
                        flags.push("--level".into());
                        flags.push(level.clone());
                    }
                    _ => {}
                }
            }
        }
        pairs.push((
            a.as_str().unwrap().into(),
            b.as_str().unwrap().into(),
            flags,
        ));
    }
    pairs
}

/// The cases, each in its text and its JSON form (the JSON flag last).
fn cases(data: &Path) -> Vec<Case> {
    let read = |name: &str| sample(&std::fs::read(data.join(name)).unwrap());
    let kasztp = read("kasztp.txt");
    let userbait = read("userbait.txt");
    let node = read("node_files.txt");
    let isaacs = read("isaacs_files.txt");
    let cc = read("cc-relative-10k.tsv");
    let pairs = read("relative-pairs.tsv");
    let urls: [(&str, &[u8]); 4] = [
        ("kasztp", &kasztp),
        ("userbait", &userbait),
        ("node_files", &node),
        ("isaacs_files", &isaacs),
    ];
    let few_userbait = &userbait[..userbait
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(299)
        .unwrap()
        .0
        + 1];
    let cc_refs = column(&cc, 1);
    let cc_targets = column(&pairs, 0);

    // (name, arguments, input): each is run twice, as text and as JSON.
    let mut plain: Vec<Case> = Vec::new();
    for (corpus, text) in urls {
        plain.push(Case::new(format!("parse {corpus}"), &["parse"], text));
        plain.push(Case::new(format!("scheme {corpus}"), &["scheme"], text));
        plain.push(Case::new(
            format!("normalize {corpus}"),
            &["normalize"],
            text,
        ));
        plain.push(Case::new(format!("check {corpus}"), &["check"], text));
        plain.push(Case::new(
            format!("diff --batch {corpus}"),
            &["diff", "--batch"],
            text,
        ));
    }
    for spec in SPECS {
        for (command, extra) in [
            ("parse", &[][..]),
            ("scheme", &[][..]),
            ("normalize", &[][..]),
            ("normalize", &["--level", "percent-encoding"][..]),
            ("check", &["--only-findings", "--fail-on", "info"][..]),
        ] {
            let mut args = vec![command, "--spec", spec];
            args.extend_from_slice(extra);
            plain.push(Case::new(
                format!("{} userbait", args.join(" ")),
                &args,
                few_userbait,
            ));
        }
        let args = ["resolve", "--pairs", "--spec", spec];
        plain.push(Case::new(
            format!("{} cc-relative", args.join(" ")),
            &args,
            &cc,
        ));
        plain.push(Case::new(
            format!("{} relative-pairs", args.join(" ")),
            &args,
            &pairs,
        ));
        let args = ["resolve", "--spec", spec, "--base", "http://a/b/c/d;p?q"];
        plain.push(Case::new(
            format!("{} cc-relative refs", args.join(" ")),
            &args,
            &cc_refs,
        ));
        let args = [
            "resolve",
            "--relative",
            "--spec",
            spec,
            "--base",
            "https://www.example.com/a/b/c?q",
        ];
        plain.push(Case::new(
            format!("{} relative-pairs bases", args.join(" ")),
            &args,
            &cc_targets,
        ));
    }
    for args in [
        &["resolve", "--pairs", "--all-specs"][..],
        &[
            "resolve",
            "--pairs",
            "--spec",
            "rfc3986",
            "--strict",
            "--dotdot-above-root",
            "remove",
        ],
        &[
            "resolve",
            "--pairs",
            "--spec",
            "rfc1630",
            "--rfc1630-dots",
            "like1808",
        ],
        &[
            "resolve",
            "--pairs",
            "--spec",
            "rfc3986",
            "--rootless-dots",
            "keep-rootless",
            "--path-guard",
        ],
        &["diff", "--batch", "--pairs"],
        &["diff", "--batch", "--pairs", "--security-only"],
    ] {
        plain.push(Case::new(
            format!("{} cc-relative", args.join(" ")),
            args,
            &cc,
        ));
    }
    for (i, line) in few_userbait.split(|&b| b == b'\n').take(40).enumerate() {
        let url = String::from_utf8_lossy(line).into_owned();
        plain.push(Case::small(
            format!("diff userbait#{i}"),
            &["diff", &url],
            b"",
        ));
        plain.push(Case::small(
            format!("diff --base userbait#{i}"),
            &["diff", "--base", &url, "../g;x?y#s"],
            b"",
        ));
    }
    // A validator and a fetcher that read another host, port, scheme or
    // user information (URL012).
    for (i, url) in [
        "http://allowed.example\\@evil.example/",
        "http://u:secret@allowed.example\\@evil.example:8080/",
        "http:/evil.example/",
        "http://0x7f.1/",
        "http://a@b@evil.example/",
    ]
    .into_iter()
    .enumerate()
    {
        plain.push(Case::small(
            format!("check pairs#{i}"),
            &["check", "--parser-pairs", "common", "--", url],
            b"",
        ));
    }
    plain.push(Case::new(
        "check --validator python-urllib --fetcher curl userbait",
        &["check", "--validator", "python-urllib", "--fetcher", "curl"],
        few_userbait,
    ));
    for (i, (a, b, flags)) in equiv_pairs().into_iter().enumerate() {
        for spec in ["rfc1808", "rfc2396", "rfc3986", "whatwg"] {
            let mut args = vec!["equiv", "--spec", spec];
            args.extend(flags.iter().map(String::as_str));
            args.extend(["--", &a, &b]);
            plain.push(Case::small(
                format!("equiv --spec {spec} vector#{i}"),
                &args,
                b"",
            ));
        }
    }

    let mut all = Vec::new();
    for case in plain {
        let mut json = Case {
            name: format!("{} [json]", case.name),
            args: case.args.clone(),
            stdin: case.stdin.clone(),
            readable: case.readable,
        };
        // `--json` before a `--` that ends the options.
        let at = json
            .args
            .iter()
            .position(|a| a == "--")
            .unwrap_or(json.args.len());
        json.args.insert(at, "--json".into());
        all.push(case);
        all.push(json);
    }

    // links and extract read files and take --output text|tsv|json.
    let links = Path::new("testdata/links");
    let mut files: Vec<(String, Vec<String>)> =
        vec![("sample".into(), vec!["--sample".into()])];
    for name in ["appendix-d.html", "redirected.html", "crawl.warc.gz"] {
        files.push((
            name.into(),
            vec![links.join(name).to_string_lossy().into_owned()],
        ));
    }
    let redirected =
        links.join("redirected.html").to_string_lossy().into_owned();
    files.push((
        "redirected.html --url --redirect".into(),
        vec![
            "--url".into(),
            "http://example.org/start".into(),
            "--redirect".into(),
            "http://example.org/moved/here.html".into(),
            redirected,
        ],
    ));
    let seeds: Vec<String> = {
        let mut names: Vec<String> = std::fs::read_dir(paths::seeds())
            .unwrap()
            .map(|e| {
                format!(
                    "../shared/seeds/{}",
                    e.unwrap().file_name().to_string_lossy()
                )
            })
            .collect();
        names.sort();
        names
    };
    for output in ["text", "tsv", "json"] {
        for spec in SPECS {
            for (name, args) in &files {
                for headers in ["spec", "all"] {
                    let mut a: Vec<&str> = vec![
                        "links",
                        "--spec",
                        spec,
                        "--output",
                        output,
                        "--base-headers",
                        headers,
                    ];
                    a.extend(args.iter().map(String::as_str));
                    all.push(Case::small(
                        format!("links {spec} {headers} {name} [{output}]"),
                        &a,
                        b"",
                    ));
                }
            }
        }
        for (label, extra) in [
            ("", &[][..]),
            (" --no-bare", &["--no-bare"][..]),
            (
                " --base --relative",
                &[
                    "--base",
                    "http://www.ics.uci.edu/pub/ietf/uri/draft.txt",
                    "--relative",
                ][..],
            ),
        ] {
            for seed in &seeds {
                let file =
                    Path::new(seed).file_name().unwrap().to_string_lossy();
                let mut a: Vec<&str> = vec!["extract", "--output", output];
                a.extend_from_slice(extra);
                a.push(seed);
                all.push(Case::small(
                    format!("extract{label} {file} [{output}]"),
                    &a,
                    b"",
                ));
            }
        }
    }
    all
}

/// The first 128 bits of the SHA-256 of `bytes`, in hex.
fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().take(16).fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The exit status of a run, as the table and the files give it.
fn status(out: &Output) -> String {
    out.status.code().map_or("signal".into(), |c| c.to_string())
}

/// A corpus run's line of the table (without its name).
fn table_line(out: &Output) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}",
        status(out),
        out.stdout.len(),
        out.stdout.iter().filter(|&&b| b == b'\n').count(),
        digest(&out.stdout),
        digest(&out.stderr),
    )
}

/// A small run's file: the command line, the exit status and the sizes,
/// then standard output and standard error as they are (each section left
/// out when empty). A stream that does not end in a newline gets one, and
/// a line saying so, as `diff` does; the sizes keep it exact.
fn readable(case: &Case, out: &Output) -> Vec<u8> {
    let mut text = String::from("$ urlspec");
    for arg in &case.args {
        let plain = !arg.is_empty()
            && arg.bytes().all(|b| {
                b.is_ascii_alphanumeric() || b"-_./:=,@%+#".contains(&b)
            });
        if plain {
            let _ = write!(text, " {arg}");
        } else {
            let _ = write!(text, " {arg:?}");
        }
    }
    if !case.stdin.is_empty() {
        let _ = write!(text, " < ({} bytes)", case.stdin.len());
    }
    let _ = writeln!(
        text,
        "\nexit {}, stdout {} bytes, stderr {} bytes",
        status(out),
        out.stdout.len(),
        out.stderr.len()
    );
    let mut file = text.into_bytes();
    for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        if bytes.is_empty() {
            continue;
        }
        file.extend_from_slice(format!("--- {name}\n").as_bytes());
        file.extend_from_slice(bytes);
        if !bytes.ends_with(b"\n") {
            file.extend_from_slice(b"\n\\ no newline at the end\n");
        }
    }
    file
}

/// The changed lines between an expected file and this run's, with three
/// lines of context, at most `LIMIT` lines of them.
fn line_diff(expected: &[u8], now: &[u8]) -> String {
    const LIMIT: usize = 40;
    let (expected, now) =
        (String::from_utf8_lossy(expected), String::from_utf8_lossy(now));
    let diff = similar::TextDiff::from_lines(&*expected, &*now);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header("expected", "now")
        .to_string();
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.len() > LIMIT {
        let more = lines.len() - LIMIT;
        lines.truncate(LIMIT);
        return format!("{}\n… {more} more lines", lines.join("\n"));
    }
    lines.join("\n")
}

/// The files of the subdirectories of `dir` (the small runs' files),
/// relative to it.
fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut files = BTreeSet::new();
    for sub in std::fs::read_dir(dir).unwrap() {
        let sub = sub.unwrap();
        if !sub.file_type().unwrap().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(sub.path()).unwrap() {
            files.insert(
                Path::new(&sub.file_name()).join(entry.unwrap().file_name()),
            );
        }
    }
    files
}

#[test]
fn outputs_match_the_golden_table() {
    let data = paths::urls();
    let mode = std::env::var("URLSPEC_GOLDEN").unwrap_or_default();
    if !data.join("kasztp.txt").exists() {
        assert_eq!(
            mode,
            "skip",
            "{}: missing (URLSPEC_GOLDEN=skip to skip)",
            data.display()
        );
        eprintln!("notice: {}: missing; skipped", data.display());
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let golden = dir.join("outputs.tsv");
    let header =
        "# case\texit\tbytes\tlines\tstdout sha256/128\tstderr sha256/128\n";
    let cases = cases(&data);
    let mut table = String::from(header);
    // Each small case's file and its contents now, by file.
    let mut files: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
    let mut rows = Vec::new();
    for case in &cases {
        let out = run_in(Some(&paths::repository()), &case.args, &case.stdin);
        assert!(!case.name.contains('\t'), "{}", case.name);
        if case.readable {
            let text = readable(case, &out);
            let file = case.file();
            assert!(
                files.insert(file.clone(), text).is_none(),
                "{}: two cases keep their output in {}",
                case.name,
                file.display()
            );
        } else {
            let _ = writeln!(table, "{}\t{}", case.name, table_line(&out));
        }
        rows.push((case, out));
    }
    if mode == "bless" {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&golden, &table).unwrap();
        for stale in files_under(&dir) {
            if !files.contains_key(&stale) {
                std::fs::remove_file(dir.join(stale)).unwrap();
            }
        }
        for (file, text) in &files {
            std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
            std::fs::write(dir.join(file), text).unwrap();
        }
        return;
    }
    let expected = std::fs::read_to_string(&golden)
        .expect("tests/golden/outputs.tsv (URLSPEC_GOLDEN=bless writes it)");
    let expected: HashMap<&str, &str> = expected
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let hashed = cases.iter().filter(|c| !c.readable).count();
    assert_eq!(
        expected.len(),
        hashed,
        "the table and the corpus runs differ in number (URLSPEC_GOLDEN=bless)"
    );
    let dump = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
    let mut failures = Vec::new();
    for (i, (case, out)) in rows.iter().enumerate() {
        let changed = if case.readable {
            let file = case.file();
            let now = &files[&file];
            match std::fs::read(dir.join(&file)) {
                Ok(kept) if kept == *now => continue,
                Ok(kept) => format!(
                    "tests/golden/{} changed:\n{}",
                    file.display(),
                    line_diff(&kept, now)
                ),
                Err(e) => format!("tests/golden/{}: {e}", file.display()),
            }
        } else {
            let line = table_line(out);
            if expected.get(case.name.as_str()) == Some(&line.as_str()) {
                continue;
            }
            format!(
                "{:?} expected, {line:?} now",
                expected.get(case.name.as_str())
            )
        };
        std::fs::create_dir_all(&dump).unwrap();
        std::fs::write(dump.join(format!("{i}.stdout")), &out.stdout).unwrap();
        std::fs::write(dump.join(format!("{i}.stderr")), &out.stderr).unwrap();
        failures.push(format!(
            "{}: args {:?}; output in {}/{i}.stdout; {changed}",
            case.name,
            case.args,
            dump.display()
        ));
    }
    // A file no case writes is a case that is gone.
    for file in files_under(&dir) {
        if !files.contains_key(&file) {
            failures.push(format!(
                "tests/golden/{}: no case writes it",
                file.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences over {} cases (URLSPEC_GOLDEN=bless rewrites \
         tests/golden; git diff shows how):\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
