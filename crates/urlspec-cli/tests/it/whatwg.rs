//! `--spec whatwg` across the commands (feature `whatwg`).

use crate::common;

use common::cli::{field_values, run, WHATWG};
use common::{code, json_lines, stderr, stdout};

#[test]
fn other_commands_take_whatwg() {
    if !WHATWG {
        let out = run(&["equiv", "-s", "whatwg", "a:", "a:"], None);
        assert_eq!(code(&out), 2);
        return;
    }
    // equiv and normalize: the standard's serialization is the normal form.
    let out =
        run(&["equiv", "-s", "whatwg", "HTTP://A:80/./b", "http://a/b"], None);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = run(&["equiv", "-s", "whatwg", "g", "g"], None);
    assert_eq!(code(&out), 2);
    let out =
        run(&["normalize", "-s", "whatwg", "HTTP://A:80/x/../y#f", "g"], None);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("http://a/y\nerror: NotComparable: "), "{text}");

    // check: the browsers' reading of a backslash is a high finding.
    let out = run(&["check", "--json", "-s", "whatwg", "http://a\\@b/"], None);
    assert_eq!(code(&out), 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "whatwg");
    assert_eq!(v["max_severity"], "high");

    // scheme: the view reads the serialization a browser requests.
    let out =
        run(&["scheme", "--json", "-s", "whatwg", "HTTP://a\\b/c"], None);
    let v = &json_lines(&out)[0];
    assert_eq!(v["input"], "HTTP://a\\b/c");
    assert_eq!(v["spec"], "whatwg");
    assert!(field_values(v, "host") == ["a"], "{v}");
    let out = run(&["scheme", "-s", "whatwg", "HTTP://a\\b/c"], None);
    assert!(stdout(&out).contains("\n  href  "), "{}", stdout(&out));

    // extract and links resolve through the library's resolver.
    let text = b"see <http://a\\b/x> and \"../y\"\n";
    let args = ["extract", "-s", "whatwg", "--relative", "-b", "http://h/d/"];
    let out = run(&args, Some(text));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got = stdout(&out);
    assert!(got.contains("http://a\\b/x -> http://a/b/x"), "{got}");
    assert!(got.contains("../y -> http://h/y"), "{got}");
    let out =
        run(&["links", "--sample", "-s", "whatwg", "--output", "json"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let links = json_lines(&out);
    assert!(!links.is_empty());
    assert!(links.iter().all(|l| l["error"].is_null()), "{links:?}");
    assert!(links.iter().any(|l| l["url"] == "http://archive.example.org/g"));
}
