//! Golden outputs: every subcommand of `urlspec`, in its text and its JSON
//! form, on samples of the URL corpora (`../shared/data/urls/` beside the
//! repository), on the seed documents (`../shared/seeds/`) and on the
//! fixtures of `testdata/`. Each run's exit status, output size and the
//! SHA-256 of its standard output and standard error are compared with
//! `tests/golden/outputs.tsv`, so that a change meant to keep the output
//! (a refactoring) is checked byte for byte.
//!
//! `URLSPEC_GOLDEN=bless` rewrites the table from this build; a mismatch
//! leaves the run's output under Cargo's test temporary directory, named in
//! the failure, to diff by hand. Without the corpora the test fails, unless
//! `URLSPEC_GOLDEN=skip`. Paths are given relative to the repository,
//! where each run starts, so that the outputs naming them do not depend on
//! where the repository lies.
#![cfg(feature = "whatwg")]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common;
use common::{run_in, SPECS};

use sha2::{Digest, Sha256};
use urlspec_test_support::paths;

/// How many lines each corpus sample holds at most: spread over the whole
/// file (every k-th line), so that the sample sees all of it while a debug
/// build still runs every case in about a minute.
const SAMPLE: usize = 1500;

/// One run of the binary: its name in the table, its arguments and what it
/// reads on standard input.
struct Case {
    name: String,
    args: Vec<String>,
    stdin: Vec<u8>,
}

impl Case {
    fn new(name: impl Into<String>, args: &[&str], stdin: &[u8]) -> Case {
        Case {
            name: name.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: stdin.to_vec(),
        }
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
        plain.push(Case::new(
            format!("diff userbait#{i}"),
            &["diff", &url],
            b"",
        ));
        plain.push(Case::new(
            format!("diff --base userbait#{i}"),
            &["diff", "--base", &url, "../g;x?y#s"],
            b"",
        ));
    }
    for (i, (a, b, flags)) in equiv_pairs().into_iter().enumerate() {
        for spec in ["rfc1808", "rfc2396", "rfc3986", "whatwg"] {
            let mut args = vec!["equiv", "--spec", spec];
            args.extend(flags.iter().map(String::as_str));
            args.extend(["--", &a, &b]);
            plain.push(Case::new(
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
                    all.push(Case::new(
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
                all.push(Case::new(
                    format!("extract{label} {file} [{output}]"),
                    &a,
                    b"",
                ));
            }
        }
    }
    all
}

/// Runs one case: a line of the table (without its name) and the outputs.
fn run(case: &Case) -> (String, Vec<u8>, Vec<u8>) {
    let out = run_in(Some(&paths::repository()), &case.args, &case.stdin);
    let hex = |bytes: &[u8]| {
        Sha256::digest(bytes).iter().take(16).fold(
            String::new(),
            |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            },
        )
    };
    let line = format!(
        "{}\t{}\t{}\t{}\t{}",
        out.status.code().map_or("signal".into(), |c| c.to_string()),
        out.stdout.len(),
        out.stdout.iter().filter(|&&b| b == b'\n').count(),
        hex(&out.stdout),
        hex(&out.stderr),
    );
    (line, out.stdout, out.stderr)
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
    let golden =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/outputs.tsv");
    let header =
        "# case\texit\tbytes\tlines\tstdout sha256/128\tstderr sha256/128\n";
    let cases = cases(&data);
    let mut table = String::from(header);
    let mut rows = Vec::new();
    for case in &cases {
        let (line, stdout, stderr) = run(case);
        assert!(!case.name.contains('\t'), "{}", case.name);
        let _ = writeln!(table, "{}\t{line}", case.name);
        rows.push((case, line, stdout, stderr));
    }
    if mode == "bless" {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &table).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden)
        .expect("tests/golden/outputs.tsv (URLSPEC_GOLDEN=bless writes it)");
    let expected: std::collections::HashMap<&str, &str> = expected
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    assert_eq!(
        expected.len(),
        cases.len(),
        "the table and the cases differ in number (URLSPEC_GOLDEN=bless)"
    );
    let dump = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
    let mut failures = Vec::new();
    for (i, (case, line, stdout, stderr)) in rows.iter().enumerate() {
        if expected.get(case.name.as_str()) == Some(&line.as_str()) {
            continue;
        }
        std::fs::create_dir_all(&dump).unwrap();
        std::fs::write(dump.join(format!("{i}.stdout")), stdout).unwrap();
        std::fs::write(dump.join(format!("{i}.stderr")), stderr).unwrap();
        failures.push(format!(
            "{}: {:?} expected, {line:?} now; args {:?}; output in {}/{i}.stdout",
            case.name,
            expected.get(case.name.as_str()),
            case.args,
            dump.display()
        ));
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases changed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
