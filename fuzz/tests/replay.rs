//! Replays every input under `regressions/<target>/` through the checks of
//! its target, so a fixed crash stays fixed. Runs on stable Rust, without
//! libFuzzer's instrumentation.

use std::path::Path;

#[test]
fn replay_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut replayed = 0;
    let targets = [
        "parse",
        "resolve",
        "escape",
        "links",
        "normalize",
        "extract",
        "whatwg",
        "scheme",
        "check",
        "diff",
        "base",
        "server",
        "whatwg_map",
        "helpers",
        "warc",
        "html_tokenizer",
    ];
    for target in targets {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else { continue };
        for entry in dir.flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".gitkeep") {
                continue;
            }
            let data = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&data);
            eprintln!("replaying {}", path.display());
            // The targets that read `BASE NUL INPUT`.
            let (base, input) = urlspec_fuzz::split_pair(&text);
            match target {
                "parse" => urlspec_fuzz::parse(&text),
                "resolve" => urlspec_fuzz::resolve(base, input),
                "escape" => urlspec_fuzz::escape(&text),
                "normalize" => urlspec_fuzz::normalize(&text),
                "extract" => urlspec_fuzz::extract(&text),
                "whatwg" => urlspec_fuzz::whatwg(base, input),
                "scheme" => urlspec_fuzz::scheme(&text),
                "check" => urlspec_fuzz::check_input(&text),
                "diff" => urlspec_fuzz::diff(base, input),
                "base" => urlspec_fuzz::base(&text),
                "server" => urlspec_fuzz::server(&text),
                "whatwg_map" => urlspec_fuzz::whatwg_map(base, input),
                "helpers" => urlspec_fuzz::helpers(&text),
                "links" => urlspec_fuzz::links(&data),
                "warc" => urlspec_fuzz::warc(&data),
                "html_tokenizer" => urlspec_fuzz::html_tokenizer(&data),
                _ => unreachable!("{target}"),
            }
            replayed += 1;
        }
    }
    eprintln!("{replayed} regression inputs replayed");
}

#[test]
fn seeds_pass() {
    // A few inputs of each kind, so the checks themselves are exercised.
    urlspec_fuzz::parse("http://a/b/c/d;p?q#f");
    urlspec_fuzz::resolve("http://a/b/c/d;p?q", "../../../g");
    urlspec_fuzz::escape("a b%c/d");
    urlspec_fuzz::links(b"<base href=http://x/><a href=g>");
    urlspec_fuzz::warc(
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/b\r\n\
          Content-Type: application/http;msgtype=response\r\nContent-Length: 62\r\n\r\n\
          HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=c>x</a>\r\n\r\n\r\nWARC/1.0",
    );
    urlspec_fuzz::normalize("HTTP://a/%7e/./b/../c?%41#f");
    urlspec_fuzz::extract("see <URL:http://a/b-\n c> and http://x/y.");
    urlspec_fuzz::whatwg("file:///C:/a", "..\\..\\b?\u{e9}#\t");
    urlspec_fuzz::whatwg("sc:/x", "/..//p");
}

#[test]
fn entry_points_seeds_pass() {
    for url in [
        "//joe:pw@h:21/pub/a%2Fb/c;type=d",
        "//h/7srch%09term",
        "joe@example.org?subject=x",
        "comp.infosystems.www",
        "//h:119/group/123",
        "//h/db/TEXT/1=a;2=b%3B;",
        "///home/a%2Fb",
        "//localhost/etc/%00x",
        "//h/name%3Dx;ver=1?attr",
        "http://info.cern.ch/",
        "",
    ] {
        urlspec_fuzz::scheme(url);
        for i in 0..urlspec_fuzz::SCHEMES.len() {
            urlspec_fuzz::scheme(&format!("{}{url}", char::from(i as u8)));
        }
    }
    urlspec_fuzz::check_input("ftp://u:secret@10.0.0.1:99999/a%0D%0Ab\\c");
    urlspec_fuzz::diff("http://a/b/c/d;p?q", "../../../g;x?y#z");
    urlspec_fuzz::diff("", "//a@b@c:1/");
    urlspec_fuzz::base("http://h/a/b#f\0../x#y\0bAsE\0 <URL:http://b/\r\n c>\0Content-Location\0d/e");
    urlspec_fuzz::base("\0x\0Content-Base\0y");
    urlspec_fuzz::server("user:pw@[::1]:80");
    urlspec_fuzz::server("a@b@c:x:y");
    urlspec_fuzz::whatwg_map("http://a/b", "..\\c?d#e");
    urlspec_fuzz::whatwg_map("x", "http://u:p@[::1]:8/");
    for path in
        ["/a/b/c/./../../g", "mid/content=5/../6", "a//..", "%zz%41%e9/.."]
    {
        urlspec_fuzz::helpers(path);
    }
}
