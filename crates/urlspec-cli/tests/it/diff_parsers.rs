//! `urlspec diff --parsers`: real parsers' rows beside the specs, the
//! cells that differ marked, the differences explained by the kind of
//! confusion, in text and JSON, one input or a batch.

use serde_json::{json, Value};

use crate::common::{code, json_lines, run, stderr, stdout, SPECS};

/// The profiles `--parsers all` gives, in order.
const PARSERS: [&str; 10] = [
    "python-urllib",
    "python-urllib3",
    "rust-url",
    "rust-http",
    "go",
    "java",
    "curl",
    "php",
    "node-legacy",
    "ruby",
];

/// The one JSON object of `urlspec diff --json ARGS`, which must exit
/// with `status`.
fn diff_json(args: &[&str], status: i32) -> Value {
    let out = run(&[&["diff", "--json"], args].concat(), b"");
    assert_eq!(
        code(&out),
        status,
        "{args:?}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    json_lines(&out).remove(0)
}

/// The difference of `v` in `column`.
fn difference<'v>(v: &'v Value, column: &str) -> &'v Value {
    let all = v["differences"].as_array().unwrap();
    all.iter()
        .find(|d| d["column"] == column)
        .unwrap_or_else(|| panic!("no {column} in {v}"))
}

#[test]
fn parser_rows_beside_the_specs_with_the_cells_that_differ_marked() {
    let url = "http://allowed.example\\@evil.example/";
    let args = [
        "diff",
        "--specs",
        "rfc3986,whatwg",
        "--parsers",
        "python-urllib,python-urllib3,rust-url",
        url,
    ];
    let out = run(&args, b"");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    let row = |name: &str| {
        text.lines().find(|l| l.starts_with(&format!("  {name} "))).unwrap()
    };
    // urllib takes `\` as data: the host is after the `@`; urllib3 ends
    // the authority at the `\`, as browsers do.
    assert!(row("python-urllib").contains("*evil.example "), "{text}");
    assert!(row("python-urllib3").contains(" allowed.example "), "{text}");
    assert!(row("rust-url").contains(" allowed.example "), "{text}");
    assert!(row("python-urllib3").contains("*/%5C@evil.example/"), "{text}");
    // No validity of its own: `-`.
    assert!(row("python-urllib3").trim_end().ends_with(" -"), "{text}");
    assert!(text.contains("\nparsers\n  python-urllib   CPython 3.11.7 urllib.parse.urlsplit"), "{text}");
    assert!(
        text.contains(
            "\n  python-urllib3  urllib3 2.8.0 urllib3.util.parse_url"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n  rust-url        url 2.5.8 url::Url::parse"),
        "{text}"
    );
    let host = text.split("\nhost  [security]\n").nth(1).unwrap();
    assert!(
        host.starts_with("  evil.example     <- rfc3986, python-urllib\n"),
        "{text}"
    );
    assert!(
        host.contains(
            "  allowed.example  <- whatwg, python-urllib3, rust-url\n"
        ),
        "{text}"
    );
    // urllib, apart from the most common answer, is explained.
    assert!(host.contains("why: python-urllib: urllib's hostname is the netloc after its last `@`"), "{text}");
    assert!(
        host.contains(
            "why: confusion: backslash at byte 22: a `\\` before the query"
        ),
        "{text}"
    );
    assert!(text.ends_with("the specs and parsers disagree on 3 of 10 columns: user [security], host [security], path\n"));
}

#[test]
fn json_names_the_parsers_their_releases_and_the_confusions() {
    let v = diff_json(
        &[
            "--specs",
            "rfc3986,whatwg",
            "--parsers",
            "python-urllib3",
            "http://a\\@b/",
        ],
        1,
    );
    assert_eq!(v["specs"], json!(["rfc3986", "whatwg"]));
    assert_eq!(v["parsers"], json!(["python-urllib3"]));
    let row = &v["rows"][2];
    assert_eq!(row["parser"], "python-urllib3");
    assert!(row.get("spec").is_none());
    assert!(row["follows"].as_str().unwrap().starts_with("urllib3 2.8.0 "));
    assert!(row["valid"].is_null());
    assert_eq!(row["cells"]["host"], "a");
    assert!(row["cells"]["net_loc"].is_null());
    let host = difference(&v, "host");
    assert_eq!(host["security"], true);
    assert_eq!(
        host["groups"][1],
        json!({"value": "a", "specs": ["whatwg"], "parsers": ["python-urllib3"]})
    );
    assert_eq!(
        host["confusions"],
        json!([{"kind": "backslash", "position": 8, "what": "a `\\` before the query"}])
    );
}

#[test]
fn without_parsers_the_output_is_the_specs_alone() {
    for args in [
        &["diff", "--json", "http://a\\@b/"][..],
        &["diff", "http://a?@b/"][..],
    ] {
        let plain = run(args, b"");
        let none = run(
            &[&args[..1], &["--parsers", "none"], &args[1..]].concat(),
            b"",
        );
        assert_eq!(plain.stdout, none.stdout);
        assert_eq!(code(&plain), code(&none));
    }
    let v = diff_json(&["http://a\\@b/"], 1);
    assert!(v.get("parsers").is_none());
    assert!(difference(&v, "host").get("confusions").is_none());
}

#[test]
fn all_is_every_profile_after_the_specs() {
    let v = diff_json(&["--parsers", "all", "http://a/"], 0);
    let names: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["spec"].as_str().or(r["parser"].as_str()).unwrap())
        .collect();
    assert_eq!(names, [&SPECS[..], &PARSERS[..]].concat());
    // urllib's empty query and fragment stand for absent ones; the
    // parsers have no net_loc to compare.
    let columns: Vec<&str> = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["column"].as_str().unwrap())
        .collect();
    assert!(columns.is_empty(), "{v}");
}

#[test]
fn each_kind_of_confusion_is_named() {
    for (input, column, kind) in [
        ("example.com:80/a", "host", "scheme"),
        ("http:/evil.com/", "host", "slashes"),
        ("http://a\\@b/", "host", "backslash"),
        ("http://%65vil.com/", "host", "percent-encoded data"),
        ("ftp://a@b@c/", "user", "scheme mix-up"),
    ] {
        let v = diff_json(&["--parsers", "all", "--", input], 1);
        let d = difference(&v, column);
        let kinds: Vec<&str> = d["confusions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap())
            .collect();
        assert!(kinds.contains(&kind), "{input}: {kinds:?}");
        let why = d["explanations"].as_array().unwrap();
        assert!(
            why.iter().any(|e| e
                .as_str()
                .unwrap()
                .starts_with(&format!("confusion: {kind} at byte "))),
            "{input}: {why:?}"
        );
    }
}

#[test]
fn batch_prints_the_urls_a_parser_reads_elsewhere() {
    // urllib3 takes `example.com:80` for a host and port (no scheme), and
    // upper-cases the escape of `%7e`: a difference, not in where the
    // request goes.
    let input = b"http://a/b\nhttp://a\\@b/\nexample.com:80/a\nhttp://a/%7e\n";
    let args = [
        "diff",
        "--batch",
        "--security-only",
        "--specs",
        "rfc3986,whatwg",
        "--parsers",
        "python-urllib3",
    ];
    let out = run(&args, input);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("http://a\\@b/\n  user  [security]\n"), "{text}");
    assert!(
        text.contains("\n\nexample.com:80/a\n  scheme  [security]\n"),
        "{text}"
    );
    assert!(text.contains("    example.com  <- python-urllib3\n"), "{text}");
    assert!(
        !text.contains("http://a/b\n") && !text.contains("%7e\n"),
        "{text}"
    );
    assert!(
        text.contains("4 inputs read, 3 disagree, 2 security-relevant\n"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = run(&["diff", "--parsers", "netscape", "http://a/"], b"");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("invalid value 'netscape' for '--parsers <LIST>'"),
        "{err}"
    );
    assert!(err.contains("python-urllib3"), "{err}");
    for args in
        [&["--base", "http://a/", "b"][..], &["--batch", "--pairs"][..]]
    {
        let out = run(&[&["diff", "--parsers", "all"], args].concat(), b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            stderr(&out).contains("--parsers compares how URLs are split"),
            "{}",
            stderr(&out)
        );
    }
}
