//! `urlspec serve`: every endpoint over HTTP (its answers against the
//! CLI's own output, its errors and limits), the page as the server
//! renders it, and the page in headless Chromium, with and without script.

use crate::common;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use common::browser::Chromium;
use common::http::{self, get, query, request};
use common::server::Server;
use scraper::{ElementRef, Html, Selector};

/// The input whose host the specs split differently: RFC 1808 ends the
/// net_loc only at `/`, so `a?` is a user and `b` the host; the others end
/// the authority (or RFC 1630 the host) at `?`.
const SPLIT_HOST: &str = "http://a?@b/";

/// An input built to inject markup, script and a live link.
const HOSTILE: &str =
    "javascript:alert(1)//<img src=x onerror=alert(2)>\"><script>alert(3)</script>'";

/// The CLI's standard output for `args`.
fn cli(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("urlspec runs");
    let mut input = child.stdin.take().expect("piped standard input");
    std::io::Write::write_all(&mut input, stdin).expect("standard input");
    drop(input);
    child.wait_with_output().expect("urlspec ends").stdout
}

fn selector(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("{css}: {e}"))
}

/// The text of `element`.
fn text(element: ElementRef<'_>) -> String {
    element.text().collect()
}

/// The cells of the matrix: (spec, column) -> (text, classes).
fn matrix(page: &Html) -> BTreeMap<(String, String), (String, Vec<String>)> {
    let mut cells = BTreeMap::new();
    for row in page.select(&selector("#matrix tbody tr")) {
        let spec =
            row.value().attr("data-spec").expect("data-spec").to_owned();
        for cell in row.select(&selector("td[data-column]")) {
            let column = cell.value().attr("data-column").unwrap().to_owned();
            let mut classes: Vec<String> =
                cell.value().classes().map(str::to_owned).collect();
            classes.sort();
            cells.insert((spec.clone(), column), (text(cell), classes));
        }
    }
    cells
}

/// What the view shows of `input` as a matrix; the checks both the server's
/// page and Chromium's DOM must pass for [`SPLIT_HOST`].
fn assert_split_host_view(page: &Html) {
    let cells = matrix(page);
    let cell = |spec: &str, column: &str| {
        cells
            .get(&(spec.to_owned(), column.to_owned()))
            .unwrap_or_else(|| panic!("no cell {spec} {column}"))
    };
    assert_eq!(cell("rfc1808", "host").0, "b");
    assert_eq!(cell("rfc3986", "host").0, "a");
    assert_eq!(cell("rfc1808", "user").0, "a?");
    // RFC 1808's host is the minority answer, in a security column.
    assert_eq!(cell("rfc1808", "host").1, ["differs", "security"]);
    assert!(!cell("rfc3986", "host").1.contains(&"differs".to_owned()));
    let host = page
        .select(&selector("#matrix thead th[data-column=host]"))
        .next()
        .expect("host column");
    assert!(host.value().classes().any(|c| c == "security"));
    assert_eq!(host.select(&selector(".security-marker")).count(), 1);
    // The scheme column agrees: no marker, no marked cell.
    let scheme =
        page.select(&selector("thead th[data-column=scheme]")).next().unwrap();
    assert_eq!(scheme.select(&selector(".security-marker")).count(), 0);
    assert!(cells
        .iter()
        .filter(|((_, c), _)| c == "scheme")
        .all(|(_, (_, classes))| classes.is_empty()));
    // The explanations of the host column cite their specs.
    let why: Vec<String> = page
        .select(&selector("#differences article[data-column=host] .why"))
        .map(text)
        .collect();
    assert!(!why.is_empty());
    // Validity per spec, and a finding with carets.
    assert_eq!(page.select(&selector("#validity article")).count(), 8);
    let caret = page.select(&selector("#findings pre.caret")).next();
    let caret = text(caret.expect("a finding with carets"));
    assert!(caret.starts_with(SPLIT_HOST) && caret.contains('^'), "{caret}");
}

/// What a page showing [`HOSTILE`] may contain: the input as text only.
fn assert_shown_as_text(page: &Html, source: &str) {
    // No element of the input's making: the only script is the page's
    // own, no image, no link but the view's own path.
    let scripts: Vec<_> = page.select(&selector("script")).collect();
    assert_eq!(scripts.len(), 1, "{source}");
    assert_eq!(scripts[0].value().attr("src"), Some("/assets/page.js"));
    assert_eq!(text(scripts[0]), "");
    assert_eq!(page.select(&selector("img")).count(), 0, "{source}");
    for a in page.select(&selector("a")) {
        let href = a.value().attr("href").unwrap_or_default();
        assert!(href.starts_with("/?"), "live link {href}");
    }
    // No attribute of the input's making either.
    for element in
        page.root_element().descendants().filter_map(ElementRef::wrap)
    {
        for (name, _) in element.value().attrs() {
            assert!(!name.starts_with("on"), "event handler {name}");
        }
    }
    // The input field holds what was typed, and the view shows it as text.
    let field = page.select(&selector("input#input")).next().unwrap();
    assert_eq!(field.value().attr("value"), Some(HOSTILE));
    let shown: Vec<String> =
        page.select(&selector("#validity pre.caret")).map(text).collect();
    assert!(!shown.is_empty());
    assert!(shown.iter().all(|s| s.lines().next() == Some(HOSTILE)));
    let title = page.select(&selector("title")).next().map(text);
    assert!(title.is_some_and(|t| t.starts_with(HOSTILE)));
}

#[test]
fn parse_check_diff_answer_as_the_cli() {
    let server = Server::start();
    for spec in ["rfc1808", "rfc3986", "whatwg"] {
        for input in [SPLIT_HOST, "g;x?y#s", "http://é/{x}", HOSTILE] {
            let args = [("input", input), ("spec", spec)];
            let r = get(server.address, &query("/api/parse", &args));
            assert_eq!(r.status, 200);
            assert_eq!(r.header("content-type"), Some("application/json"));
            let want =
                cli(&["parse", "--json", "--spec", spec, "--", input], b"");
            assert_eq!(r.text(), String::from_utf8(want).unwrap());

            let r = get(server.address, &query("/api/check", &args));
            assert_eq!(r.status, 200);
            let want =
                cli(&["check", "--json", "--spec", spec, "--", input], b"");
            assert_eq!(r.text(), String::from_utf8(want).unwrap());
        }
    }
    let args = [("input", SPLIT_HOST), ("specs", "rfc1630,rfc1808,rfc3986")];
    let r = get(server.address, &query("/api/diff", &args));
    let want = cli(
        &["diff", "--json", "--specs", "rfc1630,rfc1808,rfc3986", SPLIT_HOST],
        b"",
    );
    assert_eq!(r.text(), String::from_utf8(want).unwrap());
    let v = r.json();
    assert_eq!(v["agree"], false);
    let host = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["column"] == "host");
    assert_eq!(host.expect("host differs")["security"], true);
    // With a base: the resolution matrix, every spec of the build.
    let args = [("input", "../../../g"), ("base", "http://a/b/c/d;p?q")];
    let r = get(server.address, &query("/api/diff", &args));
    let want = cli(
        &["diff", "--json", "--base", "http://a/b/c/d;p?q", "../../../g"],
        b"",
    );
    assert_eq!(r.text(), String::from_utf8(want).unwrap());
}

#[test]
fn resolve_takes_the_resolution_options_by_their_flag_names() {
    let server = Server::start();
    let base = "http://a/b/c/d;p?q";
    // The query's options, and the same as the command's flags.
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: [Case<'_>; 4] = [
        (&[], &[]),
        (&[("dotdot-above-root", "remove")], &["--dotdot-above-root=remove"]),
        (
            &[("strict", "true"), ("same-scheme", "")],
            &["--strict", "--same-scheme"],
        ),
        (&[("path-guard", "false")], &[]),
    ];
    for reference in ["../../../g", "http:g", "g?y/./x"] {
        for (params, flags) in cases {
            let mut args = vec![
                ("base", base),
                ("reference", reference),
                ("spec", "rfc2396"),
            ];
            args.extend_from_slice(params);
            let r = get(server.address, &query("/api/resolve", &args));
            assert_eq!(r.status, 200, "{}", r.text());
            let mut argv =
                vec!["resolve", "--json", "--spec", "rfc2396", "--base", base];
            argv.extend_from_slice(flags);
            argv.extend(["--", reference]);
            assert_eq!(r.text(), String::from_utf8(cli(&argv, b"")).unwrap());
        }
    }
    let args =
        [("base", base), ("reference", "../../../g"), ("spec", "rfc2396")];
    let kept = get(server.address, &query("/api/resolve", &args)).json();
    assert_eq!(kept["result"], "http://a/../g");
    let mut args = args.to_vec();
    args.push(("dotdot-above-root", "remove"));
    let removed = get(server.address, &query("/api/resolve", &args)).json();
    assert_eq!(removed["result"], "http://a/g");
}

#[test]
fn links_reads_the_posted_document_as_the_cli() {
    let server = Server::start();
    let html = b"<html><head><base href=\"/dir/\"></head><body>\
        <a href=\"x?y\">x</a><img src=\"//cdn.example/i.png\"></body></html>";
    let target = query(
        "/api/links",
        &[
            ("url", "http://example.org/a/b"),
            ("format", "html"),
            ("spec", "rfc3986"),
        ],
    );
    let r = request(server.address, "POST", &target, html);
    assert_eq!(r.status, 200, "{}", r.text());
    let want = cli(
        &[
            "links",
            "--output",
            "json",
            "--format",
            "html",
            "--spec",
            "rfc3986",
            "--url",
            "http://example.org/a/b",
            "-",
        ],
        html,
    );
    let want = String::from_utf8(want)
        .unwrap()
        .replace("\"document\":\"-\"", "\"document\":\"body\"");
    assert_eq!(r.text(), want);
    let urls: Vec<String> = r
        .text()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["url"]
                .to_string()
        })
        .collect();
    // The <base href> is a link too.
    assert_eq!(
        urls,
        [
            "\"http://example.org/dir/\"",
            "\"http://example.org/dir/x?y\"",
            "\"http://cdn.example/i.png\""
        ]
    );
    let summary = r.header("x-urlspec-summary").expect("summary");
    assert!(
        summary.starts_with("1 document, 3 links, 0 unresolved"),
        "{summary}"
    );
    // The built-in sample, a MIME message, detected from its first bytes.
    let sample = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/sample.eml"
    ))
    .expect("the sample");
    let r = request(server.address, "POST", "/api/links", &sample);
    assert_eq!(r.status, 200);
    let want = cli(&["links", "--sample", "--output", "json"], b"");
    assert_eq!(
        r.text(),
        String::from_utf8(want)
            .unwrap()
            .replace("examples/sample.eml", "body")
    );
}

#[test]
fn bad_requests_get_json_errors() {
    let server = Server::start();
    let cases = [
        ("/api/parse?spec=rfc3986", "`input` is missing"),
        ("/api/parse?input=a&input=b", "`input` given twice"),
        ("/api/parse?input=a&spec=rfc9999", "invalid value 'rfc9999'"),
        ("/api/parse?input=a&json=false", "unknown parameter `json`"),
        ("/api/check?input=a&fail-on=never", "invalid value 'never'"),
        ("/api/diff?input=a&specs=rfc3986", "two specs or more"),
        ("/api/resolve?reference=g", "--base"),
        (
            "/api/resolve?base=http://a/&reference=g&strict=maybe",
            "a flag: true or false",
        ),
        (
            "/api/resolve?base=http://a/&reference=g&relative=true",
            "unknown parameter `relative`",
        ),
    ];
    for (target, message) in cases {
        let r = get(server.address, target);
        assert_eq!(r.status, 400, "{target}: {}", r.text());
        assert_eq!(r.header("content-type"), Some("application/json"));
        let v = r.json();
        assert_eq!(v["error"]["kind"], "BadParameter", "{target}");
        let got = v["error"]["message"].as_str().unwrap();
        assert!(got.contains(message), "{target}: {got}");
    }
    let r =
        request(server.address, "POST", "/api/links?spec=nope", b"<a href=x>");
    assert_eq!(
        (r.status, r.json()["error"]["kind"].as_str()),
        (400, Some("BadParameter"))
    );
    let r = get(server.address, "/no/such/page");
    assert_eq!(
        (r.status, r.json()["error"]["kind"].as_str()),
        (404, Some("NotFound"))
    );
    assert_eq!(
        request(server.address, "POST", "/api/parse?input=a", b"").status,
        405
    );
    assert_eq!(get(server.address, "/api/links").status, 405);
}

#[test]
fn limits_refuse_long_urls_and_large_bodies() {
    let server = Server::start();
    // A body of 16 MiB passes; one byte more is refused.
    let body = vec![b' '; 16 * 1024 * 1024];
    let r = request(server.address, "POST", "/api/links?format=html", &body);
    assert_eq!(r.status, 200, "{}", r.text());
    let mut body = body;
    body.push(b' ');
    let r = request(server.address, "POST", "/api/links?format=html", &body);
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["error"]["kind"], "PayloadTooLarge");
    // A request target of 65,534 bytes (64 KiB less 2, the most hyper
    // reads) passes; one byte more is refused.
    let prefix = "/api/check?input=";
    let fill = "a".repeat(65_534 - prefix.len());
    let r = get(server.address, &format!("{prefix}{fill}"));
    assert_eq!(r.status, 200);
    let r = get(server.address, &format!("{prefix}{fill}a"));
    assert_eq!(r.status, 414);
}

#[test]
fn every_response_forbids_inline_script() {
    let server = Server::start();
    for target in [
        "/",
        "/?input=a",
        "/assets/page.js",
        "/assets/page.css",
        "/api/parse?input=a",
        "/nope",
    ] {
        let r = get(server.address, target);
        let csp = r.header("content-security-policy").expect("a policy");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe"),
            "{csp}"
        );
        assert!(csp.contains("default-src 'none'"));
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    }
    let r = get(server.address, "/assets/page.js");
    assert_eq!(r.header("content-type"), Some("text/javascript"));
    let r = get(server.address, "/?input=a");
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    // The page has no inline script or style to allow.
    let page = Html::parse_document(&r.text());
    for script in page.select(&selector("script")) {
        assert!(script.value().attr("src").is_some());
    }
    assert_eq!(page.select(&selector("style, [style]")).count(), 0);
}

#[test]
fn the_server_renders_the_view() {
    let server = Server::start();
    let r = get(server.address, &query("/", &[("input", SPLIT_HOST)]));
    assert_eq!(r.status, 200);
    let page = Html::parse_document(&r.text());
    assert_split_host_view(&page);
    let view = page.select(&selector("main#view")).next().unwrap();
    assert_eq!(view.value().attr("data-rendered"), Some("server"));
    // The link to the view reproduces it.
    let link = page.select(&selector("#permalink a")).next().unwrap();
    let again = get(server.address, link.value().attr("href").unwrap());
    assert_eq!(again.text(), r.text());
    // A base: one row per spec, the result column.
    let args = [
        ("input", "../../../g"),
        ("base", "http://a/b/c/d;p?q"),
        ("specs", "rfc2396"),
        ("specs", "rfc3986"),
    ];
    let page =
        Html::parse_document(&get(server.address, &query("/", &args)).text());
    let cells = matrix(&page);
    assert_eq!(cells.len(), 2, "{cells:?}");
    assert_eq!(cells[&("rfc2396".into(), "result".into())].0, "http://a/../g");
    assert_eq!(cells[&("rfc3986".into(), "result".into())].0, "http://a/g");
    // Refused specs: a 400 page that says why.
    let r = get(server.address, "/?input=a&specs=rfc3986");
    assert_eq!(r.status, 400);
    let page = Html::parse_document(&r.text());
    let problem = page.select(&selector("#view .problem")).next().map(text);
    assert!(problem.is_some_and(|p| p.contains("two specs or more")));
}

#[test]
fn the_server_shows_hostile_input_as_text() {
    let server = Server::start();
    let r = get(
        server.address,
        &query("/", &[("input", HOSTILE), ("base", HOSTILE)]),
    );
    let page = Html::parse_document(&r.text());
    assert_eq!(
        page.select(&selector("input#base"))
            .next()
            .unwrap()
            .value()
            .attr("value"),
        Some(HOSTILE)
    );
    let r = get(server.address, &query("/", &[("input", HOSTILE)]));
    assert_eq!(r.status, 200);
    let body = r.text();
    assert!(!body.contains("<img") && !body.contains("<script>alert"));
    assert_shown_as_text(&Html::parse_document(&body), "server");
}

/// The page of `target` as the server sends it, parsed by html5ever (the
/// HTML standard's parser, as a browser without script sees it), and
/// Chromium's DOM of it once its script has redrawn the view through the
/// API. (Chromium's `--dump-dom` prints nothing when script is disabled
/// with `--blink-settings=scriptEnabled=false`, so the view without script
/// is checked on the server's HTML.)
fn both_doms(
    chromium: &Chromium,
    server: &Server,
    target: &str,
) -> (Html, Html) {
    let plain = Html::parse_document(&get(server.address, target).text());
    let scripted =
        Html::parse_document(&chromium.dump_dom(&server.url(target), 10_000));
    let rendered = |page: &Html| {
        let view =
            page.select(&selector("main#view")).next().expect("the view");
        view.value().attr("data-rendered").map(str::to_owned)
    };
    assert_eq!(rendered(&plain).as_deref(), Some("server"));
    assert_eq!(
        rendered(&scripted).as_deref(),
        Some("script"),
        "the script did not redraw"
    );
    (plain, scripted)
}

#[test]
fn chromium_draws_the_servers_matrix_through_the_api() {
    let Some(chromium) = Chromium::find() else { return };
    let server = Server::start();
    let (plain, scripted) =
        both_doms(&chromium, &server, &query("/", &[("input", SPLIT_HOST)]));
    assert_split_host_view(&plain);
    assert_split_host_view(&scripted);
    // Script draws the same matrix, explanations and findings as the server.
    assert_eq!(matrix(&plain), matrix(&scripted));
    for section in ["#verdict", "#differences", "#findings", "#validity"] {
        let of = |page: &Html| {
            page.select(&selector(section)).map(text).collect::<Vec<_>>()
        };
        assert_eq!(of(&plain), of(&scripted), "{section}");
    }

    let args = [("input", "../../../g"), ("base", "http://a/b/c/d;p?q")];
    let (plain, scripted) = both_doms(&chromium, &server, &query("/", &args));
    let cells = matrix(&plain);
    assert_eq!(cells, matrix(&scripted));
    let result =
        |spec: &str| cells[&(spec.to_owned(), "result".to_owned())].clone();
    assert_eq!(result("rfc2396").0, "http://a/../g");
    assert_eq!(result("rfc3986").0, "http://a/g");
    assert_eq!(result("whatwg").0, "http://a/g");
    // The two answers split the specs; the fewer are marked.
    let marked = cells
        .values()
        .filter(|(_, c)| c.contains(&"differs".to_owned()))
        .count();
    assert!(marked > 0 && marked < cells.len(), "{cells:?}");
}

#[test]
fn chromium_shows_hostile_input_as_text() {
    let Some(chromium) = Chromium::find() else { return };
    let server = Server::start();
    let (plain, scripted) =
        both_doms(&chromium, &server, &query("/", &[("input", HOSTILE)]));
    assert_shown_as_text(&plain, "no script");
    assert_shown_as_text(&scripted, "script");
    assert_eq!(matrix(&plain), matrix(&scripted));
}

#[test]
fn a_stalled_request_is_ended() {
    use std::io::{Read, Write};
    let server = Server::start();
    // A body announced and never sent: 408 once the time limit is over.
    let mut stalled = http::Connection::open(server.address).unwrap();
    let r = stalled.send_head("POST", "/api/links", 100).unwrap();
    assert_eq!(r.status, 408);
    // Headers never finished: the connection is closed.
    let mut stream = std::net::TcpStream::connect(server.address).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    stream
        .write_all(b"GET /api/parse?input=a HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    let rest = String::from_utf8_lossy(&rest);
    assert!(rest.is_empty() || rest.starts_with("HTTP/1.1 408"), "{rest}");
    // The server still answers.
    assert_eq!(get(server.address, "/api/parse?input=a").status, 200);
}

#[test]
fn help_lists_the_endpoints() {
    let help = String::from_utf8(cli(&["serve", "--help"], b"")).unwrap();
    for endpoint in [
        "GET /?input=URL&base=BASE&specs=LIST&parsers=LIST&allowed=HOST",
        "GET  /api/allowlist?input=URL&allowed=HOST&parsers=LIST",
        "GET  /api/parse?input=URL&spec=SPEC",
        "GET  /api/resolve?base=BASE&reference=REF&spec=SPEC",
        "GET  /api/diff?input=URL&base=BASE&specs=LIST",
        "GET  /api/check?input=URL&spec=SPEC",
        "POST /api/links?url=URL&spec=SPEC&format=FORMAT",
        "--listen <ADDR:PORT>",
    ] {
        assert!(help.contains(endpoint), "{endpoint} not in:\n{help}");
    }
}
