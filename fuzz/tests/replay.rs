//! Replays every input under `regressions/<target>/` through the checks of
//! its target, so a fixed crash stays fixed. Runs on stable Rust, without
//! libFuzzer's instrumentation.

use std::path::Path;

#[test]
fn replay_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut replayed = 0;
    for target in ["parse", "resolve", "escape", "links", "normalize", "extract", "whatwg"] {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else { continue };
        for entry in dir.flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".gitkeep") {
                continue;
            }
            let data = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&data);
            eprintln!("replaying {}", path.display());
            match target {
                "parse" => urlspec_fuzz::parse(&text),
                "resolve" => {
                    let (b, r) = urlspec_fuzz::split_pair(&text);
                    urlspec_fuzz::resolve(b, r)
                }
                "escape" => urlspec_fuzz::escape(&text),
                "normalize" => urlspec_fuzz::normalize(&text),
                "extract" => urlspec_fuzz::extract(&text),
                "whatwg" => {
                    let (b, r) = urlspec_fuzz::split_pair(&text);
                    urlspec_fuzz::whatwg(b, r)
                }
                _ => urlspec_fuzz::links(&data),
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
    urlspec_fuzz::normalize("HTTP://a/%7e/./b/../c?%41#f");
    urlspec_fuzz::extract("see <URL:http://a/b-\n c> and http://x/y.");
    urlspec_fuzz::whatwg("file:///C:/a", "..\\..\\b?\u{e9}#\t");
    urlspec_fuzz::whatwg("sc:/x", "/..//p");
}
