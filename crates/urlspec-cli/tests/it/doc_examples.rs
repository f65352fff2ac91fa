//! Every command the documents show runs as shown, so that a renamed flag
//! or a changed answer fails here rather than in a reader's terminal.
//!
//! In the fenced `sh` blocks of [`DOCUMENTS`], each `urlspec …` command
//! (also as `cargo run … -p urlspec-cli -- …`) runs against the debug
//! binary, in a directory that holds the files the examples name
//! ([`FIXTURES`]) beside links to the repository's own directories; its
//! exit status must not be 2 (a usage or I/O error), or must be the one a
//! trailing `# exit N` comment gives. `urlspec serve` is started on a free
//! port and the `curl` lines after it are sent to it. The other commands
//! are checked for what they name: a `cargo` command's packages, binaries
//! and paths exist, and so do the files `pip`, `python` and `bash` are
//! given. A `text` block that starts with `$ COMMAND` shows what the
//! command prints: each line shown is printed, in order (`...` stands for
//! lines left out, and a line ending in `...` for the rest of a line).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::common::{self, http};

/// The documents whose commands run.
const DOCUMENTS: [&str; 3] =
    ["README.md", "GUIDE.md", "crates/urlspec-cli/README.md"];

/// The files the examples name, made in the directory they run in: name
/// and content, or the repository file it is a copy of.
const FIXTURES: [(&str, Fixture); 12] = [
    ("urls.txt", Fixture::Copy("examples/urls.txt")),
    ("refs.txt", Fixture::Text("../../../g\n?y\n;x\ng#s\n")),
    ("pairs.tsv", Fixture::Text(PAIRS)),
    ("a.tsv", Fixture::Text(PAIRS)),
    ("b.tsv", Fixture::Text(PAIRS)),
    ("page.html", Fixture::Copy("testdata/links/appendix-d.html")),
    ("crawl.warc.gz", Fixture::Copy("testdata/links/crawl.warc.gz")),
    ("saved/page.html", Fixture::Copy("testdata/links/appendix-d.html")),
    ("saved/redirected.html", Fixture::Copy("testdata/links/redirected.html")),
    ("pages.tsv", Fixture::Text("saved/page.html\thttp://example.com/a/\n")),
    ("notes.txt", Fixture::Text(NOTES)),
    ("mail.eml", Fixture::Copy("crates/urlspec-cli/examples/sample.eml")),
];

/// The repository's directories an example may name.
const LINKED: [&str; 7] =
    ["testdata", "crates", "examples", "bench", "scripts", "docs", "fuzz"];

const PAIRS: &str = "http://a/b/c/d;p?q\t../../../g\n\
    http://a/b/c/d;p?q\t?y\nhttp://taccs.hu\tindex.html\n";
const NOTES: &str = "See <URL:http://a.example/foo-\n  bar> and <URL:../g>,\n\
    or (http://example.com/a) and \"http://b.example/q?x=1\".\n";

#[derive(Clone, Copy)]
enum Fixture {
    Text(&'static str),
    Copy(&'static str),
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A directory with the fixtures and the links, removed when dropped.
struct Place {
    dir: PathBuf,
}

impl Place {
    fn new(name: &str) -> Place {
        let dir = std::env::temp_dir().join(format!(
            "urlspec-doc-examples-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, fixture) in FIXTURES {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            match fixture {
                Fixture::Text(text) => std::fs::write(&path, text).unwrap(),
                Fixture::Copy(from) => {
                    std::fs::copy(root().join(from), &path).unwrap();
                }
            }
        }
        for name in LINKED {
            std::os::unix::fs::symlink(root().join(name), dir.join(name))
                .unwrap();
        }
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Place { dir }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One word of a command line, or a shell operator.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    /// `|`, `||`, `&&`, `;`, `<`, `>`, `>>`, `2>`, `2>&1`, `&`.
    Op(&'static str),
}

/// The tokens of a line as a POSIX shell splits them, for the subset the
/// documents use: single quotes, double quotes (with `\` before `"`, `\`
/// and `$`), `\` before a character, the operators above, and `#` starting
/// a comment at the start of a word. `~/` at the start of a word is
/// `home`'s. The comment is returned apart.
fn tokens(line: &str, home: &str) -> (Vec<Token>, Option<String>) {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => out.extend(word.take().map(Token::Word)),
            '#' if word.is_none() => {
                let comment: String = chars.collect();
                return (out, Some(comment.trim().to_string()));
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(
                            chars.peek(),
                            Some('"' | '\\' | '$')
                        ) =>
                        {
                            w.extend(chars.next());
                        }
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '~' if word.is_none() && chars.peek() == Some(&'/') => {
                word = Some(home.to_string());
            }
            '|' | '&' | ';' | '<' | '>' => {
                let digit = word.as_deref() == Some("2") && c == '>';
                if !digit {
                    out.extend(word.take().map(Token::Word));
                } else {
                    word = None;
                }
                let op = match (c, chars.peek()) {
                    ('|', Some('|')) => "||",
                    ('&', Some('&')) => "&&",
                    ('>', Some('>')) => ">>",
                    ('>', Some('&')) if digit => "2>&",
                    ('|', _) => "|",
                    ('&', _) => "&",
                    (';', _) => ";",
                    ('<', _) => "<",
                    _ if digit => "2>",
                    _ => ">",
                };
                if op.len() == 2 && op != "2>" {
                    chars.next();
                }
                if op == "2>&" {
                    // `2>&1`: standard error joins the output.
                    chars.next();
                    chars.next();
                    out.push(Token::Op("2>&1"));
                } else {
                    out.push(Token::Op(op));
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word.map(Token::Word));
    (out, None)
}

#[test]
fn tokens_split_as_a_shell_does() {
    let (t, comment) = tokens(
        r#"urlspec diff 'http://a\@b/' "x \"y\"" a\ b < in.txt 2>/dev/null | jq . # exit 1"#,
        "/h",
    );
    let w = |s: &str| Token::Word(s.to_string());
    assert_eq!(
        t,
        [
            w("urlspec"),
            w("diff"),
            w(r"http://a\@b/"),
            w("x \"y\""),
            w("a b"),
            Token::Op("<"),
            w("in.txt"),
            Token::Op("2>"),
            w("/dev/null"),
            Token::Op("|"),
            w("jq"),
            w("."),
        ]
    );
    assert_eq!(comment.as_deref(), Some("exit 1"));
    let (t, _) = tokens("a >> ~/x.fish && b 2>&1 || c", "/h");
    let env = pipelines(&tokens("X_1=y urlspec parse", "/h").0);
    assert_eq!(env[0][0].words, ["urlspec", "parse"]);
    assert_eq!(
        t,
        [
            w("a"),
            Token::Op(">>"),
            w("/h/x.fish"),
            Token::Op("&&"),
            w("b"),
            Token::Op("2>&1"),
            Token::Op("||"),
            w("c"),
        ]
    );
}

/// One command of a pipeline: its words, and the file its standard input
/// comes from.
#[derive(Debug, Default)]
struct Simple {
    words: Vec<String>,
    stdin: Option<String>,
}

/// The pipelines of a line (split at `&&`, `||`, `;` and `&`), each a list
/// of commands, redirections of output dropped.
fn pipelines(tokens: &[Token]) -> Vec<Vec<Simple>> {
    let mut lists = vec![vec![Simple::default()]];
    let mut tokens = tokens.iter();
    while let Some(token) = tokens.next() {
        let list = lists.last_mut().unwrap();
        match token {
            Token::Word(w) => {
                let simple = list.last_mut().unwrap();
                // `NAME=value` before a command sets its environment.
                let assignment = simple.words.is_empty()
                    && w.split_once('=').is_some_and(|(name, _)| {
                        !name.is_empty()
                            && name.chars().all(|c| {
                                c.is_ascii_uppercase()
                                    || c == '_'
                                    || c.is_ascii_digit()
                            })
                    });
                if !assignment {
                    simple.words.push(w.clone());
                }
            }
            Token::Op("|") => list.push(Simple::default()),
            Token::Op("<") => {
                if let Some(Token::Word(w)) = tokens.next() {
                    list.last_mut().unwrap().stdin = Some(w.clone());
                }
            }
            Token::Op(">" | ">>" | "2>") => {
                tokens.next();
            }
            Token::Op("2>&1") => {}
            Token::Op(_) => lists.push(vec![Simple::default()]),
        }
    }
    lists
        .into_iter()
        .filter(|p| p.iter().any(|c| !c.words.is_empty()))
        .collect()
}

/// The arguments of a `urlspec` command: after `urlspec`, or after the
/// `--` of `cargo run … -p urlspec-cli --` or `--bin urlspec --`.
fn urlspec_args(words: &[String]) -> Option<Vec<String>> {
    match words.first().map(String::as_str) {
        Some("urlspec") => Some(words[1..].to_vec()),
        Some("cargo") if words.get(1).is_some_and(|w| w == "run") => {
            let end = words.iter().position(|w| w == "--")?;
            let head = &words[..end];
            let ours = head.windows(2).any(|p| {
                matches!(
                    (p[0].as_str(), p[1].as_str()),
                    ("-p" | "--package", "urlspec-cli") | ("--bin", "urlspec")
                )
            });
            ours.then(|| words[end + 1..].to_vec())
        }
        _ => None,
    }
}

/// `printf 'FORMAT'`'s output, for the escapes the documents use.
fn printf(format: &str) -> Vec<u8> {
    format.replace("\\n", "\n").replace("\\t", "\t").into_bytes()
}

/// What a running example needs: where it runs, the packages and targets
/// of the workspace, and the server a `urlspec serve` line started.
struct Runner {
    place: Place,
    document: String,
    packages: BTreeSet<String>,
    targets: BTreeSet<String>,
    server: Option<(Child, SocketAddr)>,
    /// How many commands ran, and how many other commands were checked.
    ran: usize,
    checked: usize,
}

impl Runner {
    fn new(document: &str) -> Runner {
        let meta = Command::new(env!("CARGO"))
            .args(["metadata", "--no-deps", "--format-version", "1"])
            .current_dir(root())
            .output()
            .expect("cargo metadata runs");
        let meta: serde_json::Value =
            serde_json::from_slice(&meta.stdout).expect("cargo metadata");
        let mut packages = BTreeSet::new();
        let mut targets = BTreeSet::new();
        for package in meta["packages"].as_array().unwrap() {
            packages.insert(package["name"].as_str().unwrap().to_string());
            for target in package["targets"].as_array().unwrap() {
                targets.insert(target["name"].as_str().unwrap().to_string());
            }
        }
        Runner {
            place: Place::new(&document.replace('/', "_")),
            document: document.to_string(),
            packages,
            targets,
            server: None,
            ran: 0,
            checked: 0,
        }
    }

    fn home(&self) -> String {
        self.place.dir.join("home").display().to_string()
    }

    /// Stops the server a `urlspec serve` line started.
    fn stop_server(&mut self) {
        if let Some((mut child, _)) = self.server.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Runs or checks one line of a `sh` block; `shown` is the output a
    /// `text` block shows, checked when given.
    fn line(&mut self, line: &str, shown: Option<&[&str]>) {
        let (tokens, comment) = tokens(line, &self.home());
        let want = comment.as_deref().and_then(|c| {
            let at = c.find("exit ")?;
            let rest = c[at + 5..].trim_start_matches("status ");
            rest.chars().next()?.to_digit(10).map(|d| d as i32)
        });
        for pipeline in pipelines(&tokens) {
            let mut stdin: Vec<u8> = Vec::new();
            for (i, simple) in pipeline.iter().enumerate() {
                let words = &simple.words;
                if let Some(args) = urlspec_args(words) {
                    if i > 0 {
                        stdin = self.producer(&pipeline[i - 1]);
                    }
                    if let Some(file) = &simple.stdin {
                        stdin = std::fs::read(self.place.dir.join(file))
                            .unwrap_or_else(|e| {
                                panic!(
                                    "{}: `{line}`: {file}: {e}",
                                    self.document
                                )
                            });
                    }
                    self.urlspec(line, &args, &stdin, want, shown);
                    self.ran += 1;
                } else {
                    self.other(line, words);
                }
            }
        }
    }

    /// The standard input a command gets from the one before it in a
    /// pipeline: what `printf` or `cat` give; nothing for another command.
    fn producer(&self, before: &Simple) -> Vec<u8> {
        match before.words.first().map(String::as_str) {
            Some("printf") => printf(&before.words[1]),
            Some("cat") => {
                std::fs::read(self.place.dir.join(&before.words[1]))
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    fn urlspec(
        &mut self,
        line: &str,
        args: &[String],
        stdin: &[u8],
        want: Option<i32>,
        shown: Option<&[&str]>,
    ) {
        if args.first().is_some_and(|a| a == "serve") {
            self.serve(line, args);
            return;
        }
        let out = common::run_in(Some(&self.place.dir), args, stdin);
        let Some(code) = out.status.code() else {
            panic!("{}: `{line}` was killed: {:?}", self.document, out.status)
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        match want {
            Some(want) => assert_eq!(
                code, want,
                "{}: `{line}` exits {code}, not {want}:\n{stderr}",
                self.document
            ),
            None => assert_ne!(
                code, 2,
                "{}: `{line}` is a usage or I/O error:\n{stderr}",
                self.document
            ),
        }
        if let Some(shown) = shown {
            let printed = String::from_utf8_lossy(&out.stdout);
            let mut printed_lines = printed.lines();
            for want in shown.iter().filter(|l| l.trim() != "...") {
                let prefix = want.strip_suffix("...");
                let found = printed_lines.by_ref().any(|got| match prefix {
                    Some(prefix) => got.starts_with(prefix),
                    None => got == *want,
                });
                assert!(
                    found,
                    "{}: `{line}` prints no line\n{want}\nafter the lines before it:\n{printed}",
                    self.document
                );
            }
        }
    }

    /// Starts `urlspec serve` with the example's options but on a free
    /// loopback port, for the `curl` lines after it.
    fn serve(&mut self, line: &str, args: &[String]) {
        self.stop_server();
        let mut args = args.to_vec();
        match args.iter().position(|a| a == "--listen") {
            Some(at) if at + 1 < args.len() => {
                args[at + 1] = "127.0.0.1:0".into();
            }
            _ => args.extend(["--listen".into(), "127.0.0.1:0".into()]),
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
            .args(&args)
            .current_dir(&self.place.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("urlspec serve starts");
        let mut said = String::new();
        let _ =
            BufReader::new(child.stderr.take().unwrap()).read_line(&mut said);
        let address = said
            .trim()
            .strip_prefix("urlspec: serving http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|address| address.parse().ok());
        let Some(address) = address else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: `{line}` did not start: {said:?}", self.document);
        };
        self.server = Some((child, address));
    }

    /// Checks a command that is not `urlspec`'s for what it names.
    fn other(&mut self, line: &str, words: &[String]) {
        let Some(program) = words.first() else { return };
        let exists = |path: &str| {
            let path = path.trim_start_matches('@');
            assert!(
                self.place.dir.join(path).exists(),
                "{}: `{line}` names {path}, which is not there",
                self.document
            );
        };
        match program.as_str() {
            "curl" => {
                self.curl(line, words);
                self.checked += 1;
            }
            "cargo" => {
                if words.get(1).is_some_and(|w| w == "install") {
                    // The crate named, if any: the first word that is
                    // neither an option nor an option's value.
                    let valued = [
                        "--path",
                        "--root",
                        "--version",
                        "--git",
                        "--branch",
                        "--features",
                        "-F",
                        "--bin",
                        "--target-dir",
                        "--profile",
                        "--registry",
                        "--index",
                        "-j",
                        "--jobs",
                    ];
                    let name =
                        words[2..].iter().enumerate().find(|&(i, w)| {
                            let value = i > 0
                                && valued.contains(&words[i + 1].as_str());
                            !(w.starts_with('-') || value)
                        });
                    if let Some((_, name)) = name {
                        assert!(
                            self.packages.contains(name),
                            "{}: `{line}`: no package {name}",
                            self.document
                        );
                    }
                }
                let mut i = 1;
                while i < words.len() {
                    let value = words.get(i + 1).map(String::as_str);
                    match (words[i].as_str(), value) {
                        ("-p" | "--package", Some(p)) => assert!(
                            self.packages.contains(p),
                            "{}: `{line}`: no package {p}",
                            self.document
                        ),
                        (
                            "--bin" | "--example" | "--bench" | "--test",
                            Some(t),
                        ) if !t.starts_with('-') => {
                            assert!(
                                self.targets.contains(t),
                                "{}: `{line}`: no target {t}",
                                self.document
                            );
                        }
                        ("--path" | "--manifest-path", Some(p)) => exists(p),
                        ("--", _) => break,
                        _ => {}
                    }
                    i += 1;
                }
                self.checked += 1;
            }
            "pip" | "python" | "python3" | "bash" => {
                let args: Vec<&String> = words[1..]
                    .iter()
                    .filter(|w| !w.starts_with('-'))
                    .collect();
                let module = words.iter().any(|w| w == "-m" || w == "-c");
                match program.as_str() {
                    "pip" => {
                        for w in args.iter().skip(1) {
                            if w.starts_with("./") {
                                exists(w);
                            }
                        }
                    }
                    _ if !module => {
                        if let Some(script) = args.first() {
                            exists(script);
                        }
                    }
                    _ => {}
                }
                self.checked += 1;
            }
            _ => {}
        }
    }

    /// Sends a `curl` line's request to the server the block started:
    /// `--data-binary @FILE` makes it a POST of that file.
    fn curl(&mut self, line: &str, words: &[String]) {
        let Some((_, address)) = &self.server else {
            return;
        };
        let url = words
            .iter()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("`{line}` has no URL"));
        let target = &url[url[7..].find('/').map_or(url.len(), |i| i + 7)..];
        let body = words
            .iter()
            .position(|w| w == "--data-binary" || w == "-d")
            .and_then(|at| words.get(at + 1))
            .map(|file| {
                std::fs::read(
                    self.place.dir.join(file.trim_start_matches('@')),
                )
                .unwrap()
            });
        let r = match &body {
            Some(body) => http::request(*address, "POST", target, body),
            None => http::get(*address, target),
        };
        assert_eq!(
            r.status,
            200,
            "{}: `{line}` answered {}: {}",
            self.document,
            r.status,
            r.text()
        );
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.stop_server();
    }
}

/// The fenced blocks of a Markdown text: the info string and the lines.
fn blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        let fence = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = fence.strip_prefix("```") {
                    open = Some((info.trim().to_string(), Vec::new()));
                }
            }
            Some((_, lines)) => {
                if fence.starts_with("```") {
                    blocks.extend(open.take());
                } else {
                    lines.push(line.to_string());
                }
            }
        }
    }
    blocks
}

/// The commands of a `sh` block, continuation lines joined.
fn commands(lines: &[String]) -> Vec<String> {
    let mut commands = Vec::new();
    let mut pending = String::new();
    for line in lines {
        let line = line.trim();
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        if !pending.trim().is_empty() {
            commands.push(std::mem::take(&mut pending));
        }
        pending.clear();
    }
    commands
}

/// Runs the examples of one document; gives how many commands ran and
/// how many others were checked.
fn run_document(document: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(root().join(document)).unwrap();
    let mut runner = Runner::new(document);
    for (info, lines) in blocks(&text) {
        match info.as_str() {
            "sh" => {
                for command in commands(&lines) {
                    runner.line(&command, None);
                }
                runner.stop_server();
            }
            "text" => {
                let Some(command) =
                    lines.first().and_then(|l| l.strip_prefix("$ "))
                else {
                    continue;
                };
                let shown: Vec<&str> =
                    lines[1..].iter().map(String::as_str).collect();
                runner.line(command, Some(&shown));
            }
            _ => {}
        }
    }
    (runner.ran, runner.checked)
}

#[test]
fn the_readme_s_commands_run_as_shown() {
    let (ran, checked) = run_document(DOCUMENTS[0]);
    assert!(ran >= 6 && checked >= 8, "{ran} run, {checked} checked");
}

#[test]
fn the_guide_s_commands_run_as_shown() {
    let (ran, checked) = run_document(DOCUMENTS[1]);
    assert!(ran >= 45 && checked >= 5, "{ran} run, {checked} checked");
}

#[test]
fn the_cli_crate_s_readme_commands_run() {
    let (ran, _) = run_document(DOCUMENTS[2]);
    assert!(ran >= 5, "{ran} run");
}

/// A changed flag fails: the same machinery refuses a command the binary
/// does not take, and an output it does not print.
#[test]
#[should_panic(expected = "is a usage or I/O error")]
fn a_flag_the_command_does_not_take_fails() {
    let mut runner = Runner::new("flag");
    runner.line("urlspec links --no-such-flag page.html", None);
}

#[test]
#[should_panic(expected = "prints no line")]
fn an_output_the_command_does_not_print_fails() {
    let mut runner = Runner::new("output");
    runner.line(
        "urlspec resolve --spec rfc3986 --base http://a/b/c ../g",
        Some(&["http://a/x"]),
    );
}

#[test]
#[should_panic(expected = "no package")]
fn a_package_that_is_not_there_fails() {
    let mut runner = Runner::new("package");
    runner.line("cargo build -p urlspec-nothing", None);
}
