//! `urlspec serve` with the real parsers: their rows in the diff view and
//! API, the pairs of `/api/check`, and the allowlist field: which parsers
//! an allowlist of one host would be fooled with.

use crate::common;

use std::process::{Command, Stdio};

use common::browser::Chromium;
use common::http::{get, query};
use common::server::Server;
use scraper::{Html, Selector};

/// urllib reads the host after the `@`; urllib3, the url crate and
/// browsers end the authority at the `\`.
const BACKSLASH: &str = "http://allowed.example\\@evil.example/";

/// The CLI's standard output for `args`.
fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("urlspec runs");
    String::from_utf8(out.stdout).unwrap()
}

fn select<'a>(page: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    let s = Selector::parse(css).unwrap();
    page.select(&s).collect()
}

fn text(e: &scraper::ElementRef<'_>) -> String {
    e.text().collect()
}

#[test]
fn api_diff_and_check_take_the_parsers_as_the_cli() {
    let server = Server::start();
    let parsers = "python-urllib,python-urllib3,curl";
    let args = [
        ("input", BACKSLASH),
        ("specs", "rfc3986,whatwg"),
        ("parsers", parsers),
    ];
    let r = get(server.address, &query("/api/diff", &args));
    assert_eq!(r.status, 200, "{}", r.text());
    let want = cli(&[
        "diff",
        "--json",
        "--specs",
        "rfc3986,whatwg",
        "--parsers",
        parsers,
        BACKSLASH,
    ]);
    assert_eq!(r.text(), want);
    let v = r.json();
    let rows: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["spec"].as_str().or(r["parser"].as_str()).unwrap())
        .collect();
    assert_eq!(
        rows,
        ["rfc3986", "whatwg", "python-urllib", "python-urllib3", "curl"]
    );

    let args = [
        ("input", BACKSLASH),
        ("validator", "python-urllib"),
        ("fetcher", "python-urllib3"),
    ];
    let r = get(server.address, &query("/api/check", &args));
    assert_eq!(r.status, 200, "{}", r.text());
    let want = cli(&[
        "check",
        "--json",
        "--validator",
        "python-urllib",
        "--fetcher",
        "python-urllib3",
        "--",
        BACKSLASH,
    ]);
    assert_eq!(r.text(), want);
    assert!(r.text().contains("\"code\":\"URL012\""));
    let r = get(
        server.address,
        &query("/api/check", &[("input", "x"), ("parser-pairs", "go:go")]),
    );
    assert_eq!(r.status, 400);
}

#[test]
fn api_allowlist_names_the_parsers_that_would_be_fooled() {
    let server = Server::start();
    let args = [("input", BACKSLASH), ("allowed", "allowed.example")];
    let r = get(server.address, &query("/api/allowlist", &args));
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["allowed"], "allowed.example");
    // Every parser's host.
    let hosts = v["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), urlspec_parsers::PROFILES.len());
    let host = |name: &str| {
        hosts.iter().find(|h| h["parser"] == name).unwrap()["host"].clone()
    };
    assert_eq!(host("python-urllib"), "evil.example");
    assert_eq!(host("python-urllib3"), "allowed.example");
    // urllib3 reads the allowed host; urllib connects to evil.example.
    let fooled = v["fooled"].as_array().unwrap();
    let by = |name: &str| fooled.iter().find(|f| f["parser"] == name);
    let urllib3 = by("python-urllib3").expect("urllib3 fooled");
    assert!(urllib3["elsewhere"].as_array().unwrap().iter().any(|e| {
        e["parser"] == "python-urllib" && e["host"] == "evil.example"
    }));
    assert!(by("python-urllib").is_none(), "{v}");
    // The parsers asked for only; an allowed host in another case and
    // with brackets around an address reads the same.
    let args = [
        ("input", BACKSLASH),
        ("allowed", "ALLOWED.example"),
        ("parsers", "python-urllib3,rust-url"),
    ];
    let v = get(server.address, &query("/api/allowlist", &args)).json();
    assert_eq!(v["hosts"].as_array().unwrap().len(), 2);
    assert_eq!(v["fooled"], serde_json::json!([]));
    // A URL every parser reads alike fools none.
    let args =
        [("input", "http://allowed.example/"), ("allowed", "allowed.example")];
    let v = get(server.address, &query("/api/allowlist", &args)).json();
    assert_eq!(v["fooled"], serde_json::json!([]));
    // Refusals.
    for target in [
        query("/api/allowlist", &[("input", BACKSLASH)]),
        query(
            "/api/allowlist",
            &[("input", BACKSLASH), ("allowed", "a"), ("x", "1")],
        ),
        query(
            "/api/allowlist",
            &[("input", BACKSLASH), ("allowed", "a"), ("parsers", "lynx")],
        ),
        query(
            "/api/allowlist",
            &[("input", BACKSLASH), ("allowed", "a"), ("parsers", "none")],
        ),
    ] {
        let r = get(server.address, &target);
        assert_eq!(r.status, 400, "{target}: {}", r.text());
        assert_eq!(r.json()["error"]["kind"], "BadParameter");
    }
}

/// The parsers' rows of the matrix and the allowlist section of `page`.
fn parsers_view(page: &Html) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let rows = select(page, "#matrix tbody tr")
        .iter()
        .map(|r| r.value().attr("data-spec").unwrap().to_owned())
        .collect();
    let fooled = select(page, "#allowlist article")
        .iter()
        .map(|a| {
            let items = a
                .select(&Selector::parse("li").unwrap())
                .map(|li| text(&li))
                .collect();
            (a.value().attr("data-parser").unwrap().to_owned(), items)
        })
        .collect();
    (rows, fooled)
}

const PAGE_ARGS: [(&str, &str); 4] = [
    ("input", BACKSLASH),
    ("specs", "rfc3986,whatwg"),
    ("parsers", "python-urllib,python-urllib3"),
    ("allowed", "allowed.example"),
];

#[test]
fn the_page_shows_the_parsers_and_who_an_allowlist_fools() {
    let server = Server::start();
    let r = get(server.address, &query("/", &PAGE_ARGS));
    assert_eq!(r.status, 200);
    let page = Html::parse_document(&r.text());
    let (rows, fooled) = parsers_view(&page);
    assert_eq!(rows, ["rfc3986", "whatwg", "python-urllib", "python-urllib3"]);
    assert_eq!(
        fooled,
        [(
            "python-urllib3".to_owned(),
            vec!["python-urllib connects to evil.example".to_owned()]
        )]
    );
    // The check boxes and the field keep the query; the link reproduces it.
    let checked: Vec<&str> = select(&page, "#parsers input[checked]")
        .iter()
        .map(|i| i.value().attr("value").unwrap())
        .collect();
    assert_eq!(checked, ["python-urllib", "python-urllib3"]);
    let allowed = select(&page, "input#allowed");
    assert_eq!(allowed[0].value().attr("value"), Some("allowed.example"));
    let link = select(&page, "#permalink a")[0]
        .value()
        .attr("href")
        .unwrap()
        .to_owned();
    assert_eq!(get(server.address, &link).text(), r.text());
    // An unknown parser: a 400 page that says why.
    let r = get(server.address, "/?input=a&parsers=lynx");
    assert_eq!(r.status, 400);
    assert!(r.text().contains("lynx"));
}

#[test]
fn chromium_draws_the_parsers_and_the_allowlist_through_the_api() {
    let Some(chromium) = Chromium::find() else { return };
    let server = Server::start();
    let target = query("/", &PAGE_ARGS);
    let plain = Html::parse_document(&get(server.address, &target).text());
    let scripted =
        Html::parse_document(&chromium.dump_dom(&server.url(&target), 10_000));
    let view = select(&scripted, "main#view");
    assert_eq!(view[0].value().attr("data-rendered"), Some("script"));
    assert_eq!(parsers_view(&plain), parsers_view(&scripted));
    let cells = |page: &Html| -> Vec<String> {
        select(page, "#matrix td")
            .iter()
            .map(|c| {
                let mut classes: Vec<&str> = c.value().classes().collect();
                classes.sort_unstable();
                format!("{}|{}", text(c), classes.join(" "))
            })
            .collect()
    };
    assert_eq!(cells(&plain), cells(&scripted));
    let groups = |page: &Html| -> Vec<String> {
        select(page, "#differences li").iter().map(text).collect()
    };
    assert_eq!(groups(&plain), groups(&scripted));
}
