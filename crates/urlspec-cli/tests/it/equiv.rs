//! `urlspec equiv`.

use crate::common;

use common::cli::{char_above_caret, run, top_level_keys};
use common::{code, json_lines, stderr, stdout};

const MARIE: &str = "http://info.cern.ch/albert/bertram/marie-claude";

const SPECS: [&str; 7] = [
    "rfc1630",
    "draft04",
    "rfc1808",
    "draft96",
    "draft96dec",
    "rfc2396",
    "rfc3986",
];

#[test]
fn equiv_exit_0_equivalent_1_not_2_not_comparable() {
    for spec in SPECS {
        // TV-EQ-1: an escaped `-` is `-`.
        let b = "http://info.cern.ch/albert/bertram/marie%2Dclaude";
        let out = run(&["equiv", "--spec", spec, MARIE, b], None);
        assert_eq!(code(&out), 0, "{spec}: {}", stdout(&out));
        assert!(stdout(&out)
            .ends_with(&format!("equivalent under {spec} (level scheme)\n")));
        // TV-EQ-2: an escaped `/` is not `/`.
        let b = "http://info.cern.ch/albert/bertram%2Fmarie-claude";
        let out = run(&["equiv", "--spec", spec, MARIE, b], None);
        assert_eq!(code(&out), 1, "{spec}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.contains("not equivalent under"), "{text}");
        // Both normalized forms, and a caret at the first difference.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], format!("   -> {MARIE}"));
        assert_eq!(char_above_caret(lines[3], lines[4]), '%');
        // TV-EQ-3: an illegal `%`: an error with its position.
        let a = "fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred";
        let b = "fxqn:/us/va/reston/cnri/ietf/24/asdf.fred";
        let out = run(&["equiv", "--spec", spec, a, b], None);
        assert_eq!(code(&out), 2, "{spec}");
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(char_above_caret(lines[0], lines[1]), '%');
        assert!(lines[1].contains("not comparable: `%*`"), "{text}");
        assert!(text.ends_with("A is not a legal URL\n"));
        assert!(stderr(&out).starts_with("urlspec: A: "));
        assert!(stderr(&out).contains("at byte 36"));
    }
}

#[test]
fn equiv_json_has_both_forms_and_the_verdict() {
    let out = run(&["equiv", "--json", "http://a/~u", "HTTP://a/%7eu"], None);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert_eq!(
        top_level_keys(text.trim_end()),
        ["spec", "level", "a", "b", "equivalent", "error"]
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["spec"], "rfc1808");
    assert_eq!(v["level"], "scheme");
    assert_eq!(v["a"]["input"], "http://a/~u");
    assert_eq!(v["a"]["normalized"], "http://a/%7Eu");
    assert_eq!(v["b"]["normalized"], "http://a/%7Eu");
    assert!(v["a"]["error"].is_null());
    assert_eq!(v["equivalent"], true);

    let out = run(&["equiv", "--json", "http://a/", "a%g"], None);
    assert_eq!(code(&out), 2);
    // JSON keeps standard error quiet.
    assert!(out.stderr.is_empty());
    let v = &json_lines(&out)[0];
    assert!(v["equivalent"].is_null());
    assert!(v["b"]["normalized"].is_null());
    assert_eq!(v["b"]["error"]["position"], 1);
    assert_eq!(v["b"]["error"]["found"], "%g");
    assert!(v["b"]["error"]["message"].as_str().unwrap().contains("byte 1"));
}

#[test]
fn equiv_options_change_the_verdict() {
    let verdict = |args: &[&str]| code(&run(args, None));
    // `+` is safe in RFC 1808, reserved in the 1996 draft.
    assert_eq!(verdict(&["equiv", "http://a/x+y", "http://a/x%2By"]), 0);
    assert_eq!(
        verdict(&["equiv", "-s", "draft96", "http://a/x+y", "http://a/x%2By"]),
        1
    );
    // The fragment.
    assert_eq!(verdict(&["equiv", "http://a/b#x", "http://a/b#y"]), 0);
    assert_eq!(
        verdict(&[
            "equiv",
            "--include-fragment",
            "http://a/b#x",
            "http://a/b#y"
        ]),
        1
    );
    // The host's case, under a seed spec.
    assert_eq!(verdict(&["equiv", "http://A.com/", "http://a.com/"]), 1);
    assert_eq!(
        verdict(&["equiv", "--host-case", "http://A.com/", "http://a.com/"]),
        0
    );
    // The default port.
    assert_eq!(verdict(&["equiv", "http://a:80/", "http://a/"]), 0);
    assert_eq!(
        verdict(&["equiv", "--no-default-port", "http://a:80/", "http://a/"]),
        1
    );
    // The level (named loosely).
    let (a, b) = ("http://a/%7e", "http://a/~");
    assert_eq!(verdict(&["equiv", "-s", "draft96", a, b]), 0);
    assert_eq!(verdict(&["equiv", "-s", "draft96", "-l", "case", a, b]), 1);
    assert_eq!(
        verdict(&[
            "equiv",
            "-s",
            "draft96",
            "--level",
            "PercentEncoding",
            a,
            b
        ]),
        0
    );
    let out = run(&["equiv", "-l", "case", "--include-fragment", a, b], None);
    assert!(
        stdout(&out).ends_with("(level case, fragments compared)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn equiv_usage_errors_exit_2() {
    for args in [
        &["equiv", "http://a/"][..],
        &["equiv"],
        &["equiv", "a", "b", "c"],
        &["equiv", "--level", "bytes", "a", "b"],
        &["equiv", "--spec", "rfc9999", "a", "b"],
    ] {
        let out = run(args, None);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let err = stderr(&run(&["equiv", "--level", "bytes", "a", "b"], None));
    for level in
        ["string", "case", "percent-encoding", "path-segment", "scheme"]
    {
        assert!(err.contains(level), "{level} missing from {err}");
    }
}

#[test]
fn equiv_help_lists_levels_and_options() {
    let help = stdout(&run(&["equiv", "--help"], None));
    for needle in [
        "- string:",
        "- percent-encoding:",
        "- path-segment:",
        "- scheme:",
        "[default: scheme]",
        "--include-fragment",
        "--no-default-port",
        "--host-case",
        "Comparison options",
        "marie%2Dclaude",
        "Examples:",
        "Exit status: 0 when A and B are equivalent, 1 when they are not, 2",
    ] {
        assert!(help.contains(needle), "{needle} missing from\n{help}");
    }
}
