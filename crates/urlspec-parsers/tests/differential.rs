//! Each profile against the real implementation it follows: the runtime
//! runs the profile's oracle (`oracles/`) as one process reading URLs on
//! standard input, and every component of its answer is compared with the
//! profile's, on the URL corpora beside the repository
//! (`shared/data/urls/`), the WPT inputs, the peer suites' inputs
//! (`testdata/peers/`) and generated hostile URLs.
//!
//! A difference fails the test unless `oracles/differences.toml` lists
//! its input for the runtime that gave it, with why; a listed input that
//! agrees fails it too. A missing runtime skips the profile's test, or
//! fails it when `CI` or `URLSPEC_PARSERS_REQUIRED=1` is set. The Python
//! oracles run with `URLSPEC_ORACLE_PYTHON`, else the Python of the
//! oracle virtual environment `.ci/run` makes (`target/oracle-venv`) when
//! there is one, else `python3`; urllib3 at another release than its
//! profile follows fails the test, saying how to set that environment up.
//! The runtimes' versions and the counts are written to standard error as
//! the test runs (not captured). With `URLSPEC_DIFFERENTIAL_DUMP=DIR`,
//! every unexplained difference is written to `DIR/PROFILE.jsonl`.

#[path = "common/hostile.rs"]
mod hostile;

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};
use urlspec_parsers::{profile, Part, Profile, PROFILES};
use urlspec_test_support::paths;

/// How many hostile URLs are generated.
const HOSTILE: usize = 20_000;

/// A real implementation: the profile it checks, the program that runs
/// its oracle (named by an environment variable, else a default) and the
/// oracle's file under `oracles/`.
struct Oracle {
    profile: &'static str,
    program_env: &'static str,
    program: &'static str,
    script: &'static str,
    /// The Python package the oracle loads, pinned in the oracle virtual
    /// environment at the release the profile follows (the first two
    /// words of its `follows`): another release fails the test, with how
    /// to set the environment up.
    pinned: Option<&'static str>,
}

/// The oracle virtual environment `.ci/run` makes, under the repository:
/// its Python runs the Python oracles when `URLSPEC_ORACLE_PYTHON` is not
/// set.
const ORACLE_VENV: &str = "target/oracle-venv";

const PYTHON_URLLIB: Oracle = Oracle {
    profile: "python-urllib",
    program_env: "URLSPEC_ORACLE_PYTHON",
    program: "python3",
    script: "python_urllib.py",
    pinned: None,
};

const PYTHON_URLLIB3: Oracle = Oracle {
    profile: "python-urllib3",
    program_env: "URLSPEC_ORACLE_PYTHON",
    program: "python3",
    script: "python_urllib3.py",
    pinned: Some("urllib3"),
};

const PHP: Oracle = Oracle {
    profile: "php",
    program_env: "URLSPEC_ORACLE_PHP",
    program: "php",
    script: "php.php",
    pinned: None,
};

const NODE_LEGACY: Oracle = Oracle {
    profile: "node-legacy",
    program_env: "URLSPEC_ORACLE_NODE",
    program: "node",
    script: "node_legacy.js",
    pinned: None,
};

const RUBY: Oracle = Oracle {
    profile: "ruby",
    program_env: "URLSPEC_ORACLE_RUBY",
    program: "ruby",
    script: "ruby.rb",
    pinned: None,
};

#[test]
fn python_urllib_agrees_with_cpython() {
    check(&PYTHON_URLLIB);
}

#[test]
fn python_urllib3_agrees_with_urllib3() {
    check(&PYTHON_URLLIB3);
}

/// Go's `net/url`: `oracles/go.go`, built by the `go` command
/// (`URLSPEC_ORACLE_GO`) with its caches under the target directory and no
/// module proxy (the standard library only).
const GO: Oracle = Oracle {
    profile: "go",
    program_env: "URLSPEC_ORACLE_GO",
    program: "go",
    script: "go.go",
    pinned: None,
};

#[test]
fn go_agrees_with_net_url() {
    check_built(&GO, |go, source, program| {
        let cache = program.with_extension("cache");
        let mut build = Command::new(go);
        build
            .arg("build")
            .arg("-o")
            .arg(program)
            .arg(source)
            .env("GOCACHE", cache.join("build"))
            .env("GOPATH", cache.join("path"))
            .env("GOPROXY", "off")
            .env("GOTOOLCHAIN", "local")
            .env("GOFLAGS", "")
            .env("CGO_ENABLED", "0");
        build
    });
}

/// Java's `java.net.URI`: `oracles/java.java`, run from its source by the
/// `java` launcher (`URLSPEC_ORACLE_JAVA`), which compiles it in memory.
const JAVA: Oracle = Oracle {
    profile: "java",
    program_env: "URLSPEC_ORACLE_JAVA",
    program: "java",
    script: "java.java",
    pinned: None,
};

#[test]
fn java_agrees_with_java_net_uri() {
    check(&JAVA);
}

/// libcurl's URL API: `oracles/curl.c`, compiled by the C compiler
/// (`URLSPEC_ORACLE_CC`) against libcurl's headers (Debian's
/// `libcurl4-openssl-dev`).
const CURL: Oracle = Oracle {
    profile: "curl",
    program_env: "URLSPEC_ORACLE_CC",
    program: "cc",
    script: "curl.c",
    pinned: None,
};

#[test]
fn curl_agrees_with_libcurl() {
    check_built(&CURL, |cc, source, program| {
        let mut build = Command::new(cc);
        build.arg("-O2").arg("-o").arg(program).arg(source).arg("-lcurl");
        build
    });
}

/// An oracle written in a compiled language: built from `oracles/` into
/// the target directory by the command `build` makes (from the compiler
/// named by the oracle's variable or its default, the source and the
/// program to write), then run as [`check`] runs the others. A missing
/// compiler, or a build that fails (a library's headers missing), skips
/// the test, or fails it when `CI` or `URLSPEC_PARSERS_REQUIRED=1` is set.
fn check_built(o: &Oracle, build: fn(&str, &Path, &Path) -> Command) {
    let compiler =
        std::env::var(o.program_env).unwrap_or_else(|_| o.program.to_owned());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("oracles");
    std::fs::create_dir_all(&dir).expect("the oracles' directory");
    let program = dir.join(o.profile);
    let built = build(&compiler, &oracles_dir().join(o.script), &program)
        .output()
        .map_err(|e| format!("{compiler} ({}): {e}", o.program_env))
        .and_then(|out| {
            let log = String::from_utf8_lossy(&out.stderr).into_owned();
            out.status
                .success()
                .then_some(())
                .ok_or(format!("{compiler} ended with {}: {log}", out.status))
        });
    if let Err(why) = built {
        assert!(
            !required(),
            "{}: the oracle cannot be built: {why}",
            o.profile
        );
        log(&format!(
            "differential: {} skipped, the oracle cannot be built: {why}",
            o.profile
        ));
        return;
    }
    // The oracle is the program just built: it takes no runtime (the
    // variable named is never set) and ignores the source's path it is
    // given.
    let program = program.to_string_lossy().into_owned();
    check(&Oracle {
        profile: o.profile,
        program_env: "URLSPEC_ORACLE_BUILT_PROGRAM",
        program: Box::leak(program.into_boxed_str()),
        script: o.script,
        pinned: None,
    });
}

#[test]
fn php_agrees_with_parse_url() {
    check(&PHP);
}

#[test]
fn node_legacy_agrees_with_url_parse() {
    check(&NODE_LEGACY);
}

#[test]
fn ruby_agrees_with_uri_parse() {
    check(&RUBY);
}

/// Whether a missing runtime or corpus fails instead of skipping.
fn required() -> bool {
    std::env::var_os("CI").is_some()
        || std::env::var("URLSPEC_PARSERS_REQUIRED").is_ok_and(|v| v == "1")
}

/// A line of the test log, written past the test harness's capture.
fn log(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A named list of inputs.
struct Corpus {
    name: String,
    urls: Vec<String>,
}

fn oracles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("oracles")
}

/// Every corpus: those beside the repository (when there), the peer
/// suites' inputs and the hostile URLs.
fn corpora() -> &'static [Corpus] {
    static CORPORA: OnceLock<Vec<Corpus>> = OnceLock::new();
    CORPORA.get_or_init(|| {
        let mut all = Vec::new();
        let dir = paths::urls();
        if dir.is_dir() {
            for name in ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"] {
                let text = std::fs::read_to_string(dir.join(name)).expect(name);
                let urls = text.lines().map(str::to_owned).collect();
                all.push(Corpus { name: name.into(), urls });
            }
            for name in ["cc-relative-10k.tsv", "relative-pairs.tsv"] {
                let text = std::fs::read_to_string(dir.join(name)).expect(name);
                let urls = text.lines().flat_map(|l| l.split('\t')).map(str::to_owned).collect();
                all.push(Corpus { name: name.into(), urls });
            }
            for (name, keys, wrap) in [
                ("wpt-urltestdata.json", &["input", "base"][..], false),
                ("wpt-toascii.json", &["input"][..], true),
            ] {
                let text = std::fs::read_to_string(dir.join(name)).expect(name);
                let cases: Vec<Value> = serde_json::from_str(&text).expect(name);
                let mut urls = Vec::new();
                for case in &cases {
                    for key in keys {
                        if let Some(s) = case.get(key).and_then(Value::as_str) {
                            urls.push(if wrap { format!("https://{s}/") } else { s.to_owned() });
                        }
                    }
                }
                all.push(Corpus { name: name.into(), urls });
            }
        } else {
            assert!(!required(), "the URL corpora are missing: {}", dir.display());
            log(&format!("differential: no corpora at {} (the peer suites and hostile URLs only)", dir.display()));
        }
        let mut peers = Vec::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(paths::testdata().join("peers"))
            .expect("testdata/peers")
            .map(|e| e.expect("testdata/peers").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a peer suite");
            let suite: toml::Value = toml::from_str(&text).expect("a peer suite");
            for case in suite.get("case").and_then(toml::Value::as_array).into_iter().flatten() {
                for key in ["input", "base", "reference", "expected"] {
                    if let Some(s) = case.get(key).and_then(toml::Value::as_str) {
                        peers.push(s.to_owned());
                    }
                }
            }
        }
        all.push(Corpus { name: "testdata/peers".into(), urls: peers });
        all.push(Corpus { name: format!("hostile ({HOSTILE})"), urls: hostile::urls(HOSTILE) });
        all
    })
}

/// A listed difference: the inputs on which a profile and the runtimes
/// named differ, and why.
#[derive(Debug, Deserialize)]
struct Explained {
    profile: String,
    /// The runtimes (`CPython 3.11.2 urllib.parse`) that give it.
    runtimes: Vec<String>,
    class: String,
    why: String,
    inputs: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Differences {
    #[serde(default)]
    difference: Vec<Explained>,
}

fn explained() -> Vec<Explained> {
    let text = std::fs::read_to_string(oracles_dir().join("differences.toml"))
        .expect("oracles/differences.toml");
    toml::from_str::<Differences>(&text)
        .expect("oracles/differences.toml")
        .difference
}

/// The profile's answer as the oracles write theirs.
fn answer(p: &Profile, input: &str) -> Value {
    match p.parse(input) {
        Ok(c) => {
            let mut o = serde_json::Map::new();
            for part in Part::ALL {
                o.insert(
                    part.name().into(),
                    c.get(part).map_or(Value::Null, |v| json!(v)),
                );
            }
            Value::Object(o)
        }
        Err(e) => json!({ "error": e.kind }),
    }
}

/// The oracle's answer reduced to what is compared: the components, or
/// the error's type (the messages are the implementation's own).
fn compared(theirs: &Value) -> Value {
    match theirs.get("error") {
        Some(kind) => json!({ "error": kind }),
        None => theirs.clone(),
    }
}

/// The program that runs the oracle: the one its variable names, else
/// for the Python oracles the oracle virtual environment's Python when
/// there is one, else its default.
fn program(o: &Oracle) -> String {
    if let Ok(program) = std::env::var(o.program_env) {
        return program;
    }
    let venv = paths::repository().join(ORACLE_VENV).join("bin/python");
    if o.program_env == "URLSPEC_ORACLE_PYTHON" && venv.is_file() {
        return venv.to_string_lossy().into_owned();
    }
    o.program.to_owned()
}

/// How to set up the oracle virtual environment with `package` at
/// `release`, as `.ci/run` does.
fn venv_setup(package: &str, release: &str) -> String {
    format!(
        "set up the oracle virtual environment as .ci/run does, from the \
         repository's root:\n    python3 -m venv {ORACLE_VENV}\n    \
         {ORACLE_VENV}/bin/python -m pip install '{package}=={release}'\n\
         (the test runs {ORACLE_VENV}/bin/python unless \
         URLSPEC_ORACLE_PYTHON names another Python with {package} \
         {release})"
    )
}

/// Runs the oracle over `inputs`: its runtime's name, and one answer per
/// input; `Err` when the runtime is missing. Panics when the oracle loads
/// another release of a pinned package than the profile follows.
fn run_oracle(
    o: &Oracle,
    inputs: Vec<String>,
) -> Result<(String, Vec<Value>), String> {
    let program = program(o);
    let script = oracles_dir().join(o.script);
    let mut child = Command::new(&program)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program} ({}): {e}", o.program_env))?;
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the oracle's first line");
    let hello: Value = serde_json::from_str(&first).map_err(|e| {
        format!("{program} {}: {e}: {first:?}", script.display())
    })?;
    let follows = profile(o.profile).expect("a profile").follows;
    // `urllib3 2.8.0 urllib3.util.parse_url ...`: the package's release.
    let pin = o.pinned.map(|package| {
        let release = follows
            .strip_prefix(package)
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| {
                panic!("{follows:?} names no {package} release")
            });
        (package, release)
    });
    if let Some(missing) = hello.get("missing") {
        let _ = child.wait();
        let setup = pin.map_or_else(String::new, |(package, release)| {
            format!("; {}", venv_setup(package, release))
        });
        return Err(format!("{program}: {missing}{setup}"));
    }
    let library = hello["library"].as_str().unwrap_or("?");
    if let Some((package, release)) = pin {
        if library != format!("{package} {release}") {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{}: the profile follows {package} {release}, but {program} \
                 loads {library}; {}",
                o.profile,
                venv_setup(package, release)
            );
        }
    }
    let runtime =
        format!("{} {library}", hello["runtime"].as_str().unwrap_or("?"));
    let n = inputs.len();
    let mut stdin = BufWriter::new(child.stdin.take().expect("piped"));
    // One thread writes every input while this one reads the answers: the
    // pipes never fill both ways.
    let writer = std::thread::spawn(move || {
        for input in inputs {
            serde_json::to_writer(&mut stdin, &input)
                .expect("an input to the oracle");
            stdin.write_all(b"\n").expect("an input to the oracle");
        }
        stdin.flush().expect("the oracle's input");
    });
    let mut answers = Vec::with_capacity(n);
    let mut line = String::new();
    while answers.len() < n {
        line.clear();
        let read = out.read_line(&mut line).expect("an answer of the oracle");
        assert!(
            read > 0,
            "{runtime}: the oracle ended after {} answers of {n}",
            answers.len()
        );
        answers.push(
            serde_json::from_str(&line).expect("an answer of the oracle"),
        );
    }
    writer.join().expect("the writer");
    let status = child.wait().expect("the oracle");
    assert!(status.success(), "{runtime}: the oracle ended with {status}");
    Ok((runtime, answers))
}

/// Compares the profile of `o` with its real implementation on every
/// corpus.
fn check(o: &Oracle) {
    let p = profile(o.profile).expect("a profile");
    let corpora = corpora();
    let inputs: Vec<String> =
        corpora.iter().flat_map(|c| c.urls.iter().cloned()).collect();
    let (runtime, answers) = match run_oracle(o, inputs) {
        Ok(found) => found,
        Err(missing) => {
            assert!(
                !required(),
                "{}: the real implementation is missing: {missing}",
                p.name
            );
            log(&format!("differential: {} skipped, the real implementation is missing: {missing}", p.name));
            return;
        }
    };
    let mut summary = format!(
        "differential: {} (follows {}) against {runtime}",
        p.name, p.follows
    );
    let listed: Vec<Explained> = explained()
        .into_iter()
        .filter(|e| e.profile == p.name && e.runtimes.contains(&runtime))
        .collect();
    let listed_inputs: HashSet<&str> = listed
        .iter()
        .flat_map(|e| e.inputs.iter().map(String::as_str))
        .collect();
    let mut answers = answers.into_iter();
    let mut unexplained = Vec::new();
    let mut differing: HashSet<&str> = HashSet::new();
    let mut counts: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for corpus in corpora {
        let (mut agree, mut errors, mut listed_here) = (0, 0, 0);
        for input in &corpus.urls {
            let theirs =
                compared(&answers.next().expect("one answer per input"));
            let ours = answer(p, input);
            if ours == theirs {
                agree += 1;
                errors += usize::from(theirs.get("error").is_some());
                continue;
            }
            differing.insert(input);
            if listed_inputs.contains(input.as_str()) {
                listed_here += 1;
            } else {
                unexplained.push((corpus.name.as_str(), input, ours, theirs));
            }
        }
        counts.insert(
            &corpus.name,
            [agree, errors, listed_here, corpus.urls.len()],
        );
    }
    for (name, [agree, errors, listed_here, total]) in &counts {
        summary.push_str(&format!(
            "\n  {name}: {agree} of {total} agree ({errors} of them errors), {listed_here} listed in oracles/differences.toml"
        ));
    }
    log(&summary);
    // The whole list, for oracles/differences.toml: one JSON object per
    // line in DIR/PROFILE.jsonl.
    if let Some(dir) = std::env::var_os("URLSPEC_DIFFERENTIAL_DUMP") {
        let mut lines = String::new();
        for (corpus, input, ours, theirs) in &unexplained {
            let line = json!({"corpus": corpus, "input": input, "profile": ours, "runtime": theirs});
            lines.push_str(&format!("{line}\n"));
        }
        let file = Path::new(&dir).join(format!("{}.jsonl", p.name));
        std::fs::write(&file, lines).expect("the dump of the differences");
    }
    let stale: Vec<&str> = listed_inputs
        .iter()
        .copied()
        .filter(|i| !differing.contains(i))
        .collect();
    let mut report = String::new();
    for (corpus, input, ours, theirs) in unexplained.iter().take(30) {
        report.push_str(&format!(
            "\n{corpus}: {input:?}\n  profile: {ours}\n  {runtime}: {theirs}"
        ));
    }
    assert!(
        unexplained.is_empty(),
        "{}: {} inputs differ from {runtime} and are not in oracles/differences.toml (the first 30):{report}",
        p.name,
        unexplained.len()
    );
    assert!(stale.is_empty(), "{}: listed as differing from {runtime} but agreeing (or not in any corpus): {stale:?}", p.name);
}

#[test]
fn explained_differences_name_a_profile_a_runtime_and_why() {
    for e in explained() {
        assert!(PROFILES.iter().any(|p| p.name == e.profile), "{e:?}");
        assert!(
            !e.runtimes.is_empty()
                && !e.class.is_empty()
                && !e.why.is_empty()
                && !e.inputs.is_empty(),
            "{e:?}"
        );
    }
}

/// Every profile, the real crates' included, answers every input of every
/// corpus: no panic, an error's byte inside the input, and every borrowed
/// component a slice of the input.
#[test]
fn every_profile_answers_every_input() {
    for p in PROFILES {
        for corpus in corpora() {
            for input in &corpus.urls {
                let range = input.as_ptr() as usize
                    ..input.as_ptr() as usize + input.len() + 1;
                match p.parse(input) {
                    Ok(c) => {
                        for v in [
                            &c.scheme,
                            &c.userinfo,
                            &c.host,
                            &c.port,
                            &c.path,
                            &c.query,
                            &c.fragment,
                        ] {
                            if let Some(std::borrow::Cow::Borrowed(s)) = v {
                                let inside = s.is_empty()
                                    || range.contains(&(s.as_ptr() as usize));
                                assert!(inside, "{}: {input:?}: {s:?} is not a slice of the input", p.name);
                            }
                        }
                    }
                    Err(e) => {
                        assert!(
                            e.position.is_none_or(|at| at <= input.len()),
                            "{}: {input:?}: {e}",
                            p.name
                        );
                    }
                }
            }
        }
    }
}
