//! The arguments of `urlspec links` as the library's context, the links
//! kept, and the printers on the built-in sample.

use clap::Parser;
use urlspec::base;
use urlspec::Spec;
use urlspec_links::{html, mime, Context, Summary, Tally};

use super::args::{InputFormat, Unique};
use super::printer::TSV_HEADER;
use super::*;
use crate::cli::{Cli, Command};

pub fn links_args(args: &[&str]) -> LinksArgs {
    let argv = ["urlspec", "links"].iter().chain(args);
    let cli = Cli::try_parse_from(argv).unwrap();
    let Command::Links(args) = cli.command else {
        panic!("not links: {:?}", cli.command)
    };
    args
}

#[test]
fn links_options_map_onto_the_library() {
    let args = links_args(&[
        "--url",
        "http://h/a",
        "--redirect",
        "http://h/b",
        "--redirect",
        "c/",
        "--base-headers",
        "all",
        "--strict-base",
        "--dotdot-above-root",
        "remove",
        "-",
    ]);
    // A relative redirect is resolved against the URL before it.
    assert_eq!(
        args.retrieval().unwrap(),
        ["http://h/a", "http://h/b", "http://h/c/"]
    );
    let options = args.base_options();
    assert!(options.is_strict());
    assert_eq!(options.base_headers(), base::Headers::All);
    assert_eq!(args.files, ["-"]);
    let ctx = args.context().unwrap();
    assert_eq!(
        ctx.options,
        urlspec::resolve::Options::default()
            .dotdot_above_root(urlspec::resolve::DotDotAboveRoot::Remove)
    );
    let args = links_args(&[]);
    assert_eq!(args.base_options(), base::Options::default());
    assert!(args.retrieval().unwrap().is_empty() && args.files.is_empty());
    assert_eq!(
        (args.format, args.output, args.unique),
        (InputFormat::Auto, LinksOutput::Text, None)
    );
    assert!(args.select().keeps_all());
    assert_eq!(links_args(&["--unique"]).unique, Some(Unique::Document));
    assert_eq!(links_args(&["--unique=all"]).unique, Some(Unique::All));
}

#[test]
fn url_and_base_must_be_absolute() {
    for args in [&["--url", "a/b"][..], &["--base", "/x"]] {
        let Err(Error::Usage(message)) = links_args(args).context() else {
            panic!("{args:?} accepted")
        };
        assert!(message.contains("not an absolute URL"), "{message}");
    }
}

#[test]
fn filters_keep_what_they_name_and_each_url_once() {
    let page = br#"<a href="x">x</a><a href="X.html">X</a><img src="x"><a href="mailto:m@h">m</a><a href="x">x</a>"#;
    let ctx = Context {
        retrieval: vec!["http://h/".into()],
        ..Context::new(Spec::Rfc3986)
    };
    let doc = || html::document(page, "p", &ctx.retrieval_base(), &ctx);
    let kept = |args: &[&str]| {
        let mut tally = Tally::new(&links_args(args).select());
        let mut d = doc();
        tally.document(&mut d);
        assert_eq!(tally.summary().links, d.links.len());
        d.links
            .iter()
            .map(|l| {
                format!(
                    "{}@{} {}",
                    l.element,
                    l.attribute,
                    l.url.as_deref().unwrap()
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(kept(&["--element", "IMG"]), ["img@src http://h/x"]);
    assert_eq!(kept(&["--scheme", "mailto"]), ["a@href mailto:m@h"]);
    assert_eq!(
        kept(&["--unique", "--attribute", " href"]),
        ["a@href http://h/x", "a@href http://h/X.html", "a@href mailto:m@h"]
    );
    // Once per document, or once in all.
    for (args, want) in [(&["--unique"], (3, 3)), (&["--unique=all"], (3, 0))]
    {
        let mut tally = Tally::new(&links_args(args).select());
        let (mut a, mut b) = (doc(), doc());
        tally.document(&mut a);
        tally.document(&mut b);
        assert_eq!((a.links.len(), b.links.len()), want, "{args:?}");
        assert_eq!(tally.summary().links, want.0 + want.1);
    }
}

fn sample(spec: Spec, how: LinksOutput) -> String {
    let ctx = Context::new(spec);
    let mut printer = Printer::new(how, false);
    let mut out = Vec::new();
    printer.start(&mut out).unwrap();
    let mut summary = Summary::default();
    mime::documents(SAMPLE, SAMPLE_NAME, &ctx, &mut |mut d| {
        summary.add(&d);
        printer.document(&mut out, &mut d).unwrap();
    })
    .unwrap();
    printer.finish(&mut out, &summary).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn sample_text_shows_each_spec_its_own_base() {
    let text = sample(Spec::Rfc1808, LinksOutput::Text);
    assert!(text.starts_with("== examples/sample.eml (headers)\n"));
    assert!(text.contains(
        "   base: http://www.ics.uci.edu/Test/a/b/c  [Base header]\n"
    ));
    let text = sample(Spec::Draft96, LinksOutput::Text);
    assert!(text.contains(
        "   base: http://www.w3.org/Addressing/  [Content-Base header]\n"
    ));
    let text = sample(Spec::Rfc3986, LinksOutput::Text);
    assert!(text.contains(
        "   base: http://archive.example.org/1996/06/  [Content-Location header]\n"
    ));
    // The App. D example is the same under every spec.
    for spec in [Spec::Rfc1630, Spec::Rfc1808, Spec::Draft96, Spec::Rfc3986] {
        let text = sample(spec, LinksOutput::Text);
        assert!(
            text.contains("   a@href     ../x                               ->  http://www.ics.uci.edu/Test/a/x\n"),
            "{spec}"
        );
    }
}

#[test]
fn tsv_rows_have_eleven_fields() {
    let text = sample(Spec::Rfc3986, LinksOutput::Tsv);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(TSV_HEADER.trim_end()));
    for line in lines {
        assert_eq!(line.split('\t').count(), 11, "{line}");
    }
}

#[test]
fn json_base_source_names_the_header() {
    let text = sample(Spec::Draft96, LinksOutput::Json);
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["base_source"], "header:Content-Base");
    assert!(first["base_chain"].is_null());
    assert_eq!(first["containers"], serde_json::json!([]));
    // A part's base came through its container.
    let part = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["containers"] != serde_json::json!([]))
        .unwrap();
    assert!(part["containers"][0].as_str().unwrap().starts_with("multipart/"));
}

#[test]
fn summary_counts_layers() {
    let mut s = Summary {
        documents: 1,
        links: 2,
        unresolved: 1,
        skipped_records: 3,
        ..Summary::default()
    };
    s.by_base_source.insert("none", 1);
    assert_eq!(
        summary_line(&s),
        "1 document, 2 links, 1 unresolved; bases: embedded 0, header 0, \
         retrieval 0, none 1; skipped records 3"
    );
    s.unreadable = 2;
    assert!(summary_line(&s).ends_with("; unreadable 2"));
}

/// `--base` and `--strict`: each link printed was resolved once, by the
/// library as it read it, against the given base and with the strict
/// options, on one thread and on two; every kind of input (a page, a
/// message, an archive, a page too long to hold in memory).
#[test]
fn each_link_is_resolved_once_with_the_base_and_options_given() {
    use std::sync::{Arc, Mutex};

    use urlspec::resolve::Options;
    use urlspec_links::Trace;

    use super::panics::Capture;
    use super::read::{read_all, Serial};

    let dir = tempfile::tempdir().unwrap();
    let page = "<base href='http://h/b/'><a href=x><a href='g h'>";
    let response =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{page}");
    let mut archive = Vec::new();
    for target in ["http://w/1", "http://w/2"] {
        let record = urlspec_test_support::warc::record(
            "response",
            target,
            response.as_bytes(),
        );
        archive.extend_from_slice(&record);
    }
    let long = format!(
        "{page}{}",
        "<a href=y></a>"
            .repeat(urlspec_links::html::stream::IN_MEMORY / 14 + 1)
    );
    let message = format!(
        "From: a@h\r\nList-Help: <help>\r\nContent-Type: text/html\r\n\r\n{page}"
    );
    let mut files = Vec::new();
    for (name, data) in [
        ("page.html", page.as_bytes()),
        ("message.eml", message.as_bytes()),
        ("archive.warc", &archive),
        ("long.html", long.as_bytes()),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        files.push(path.to_str().unwrap().to_owned());
    }
    for threads in [1, 2] {
        let mut argv = vec!["--base", "http://given/d/", "--strict"];
        argv.extend(["-o", "json"]);
        argv.extend(files.iter().map(String::as_str));
        let args = links_args(&argv);
        let mut ctx = args.context().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        ctx.trace = Some(Trace::new(move |r| {
            let base = r.base.map(str::to_owned);
            log.lock().unwrap().push((r.options, base));
        }));
        let mut printer = Printer::new(args.output, false);
        let mut tally = Tally::new(&ctx.select);
        let mut out = Capture::default();
        let failed = if threads == 1 {
            let mut stage = Serial {
                printer: &mut printer,
                tally: &mut tally,
                out: &mut out,
                verbose: false,
                failed: false,
            };
            read_all(&args, &ctx, &mut stage).unwrap();
            stage.failed
        } else {
            parallel::run(&args, &ctx, 2, &mut printer, &mut tally, &mut out)
                .unwrap()
        };
        assert!(!failed);
        let text = String::from_utf8(out.out).unwrap();
        let (warnings, lines): (Vec<&str>, Vec<&str>) =
            text.lines().partition(|l| l.starts_with("stderr: "));
        assert!(warnings.is_empty(), "{warnings:?}");
        let printed: Vec<serde_json::Value> =
            lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let seen = seen.lock().unwrap();
        // One resolution per link printed, no more.
        assert!(printed.len() > IN_MEMORY_LINKS, "{}", printed.len());
        assert_eq!(seen.len(), printed.len(), "-j{threads}");
        assert_eq!(tally.summary().links, printed.len());
        let strict = Options::default().strict(true);
        for (options, base) in seen.iter() {
            assert_eq!(*options, strict);
            assert_eq!(base.as_deref(), Some("http://given/d/"));
        }
        for line in &printed {
            assert_eq!(line["base"], "http://given/d/", "{line}");
            assert_eq!(line["base_source"], "given", "{line}");
        }
        // Strict: the reference with a space is refused, in every input.
        let refused = printed
            .iter()
            .filter(|l| l["reference"] == "g h")
            .map(|l| l["error"].as_str().unwrap_or(""))
            .collect::<Vec<_>>();
        assert_eq!(refused.len(), 5, "-j{threads}");
        assert!(refused.iter().all(|e| e.starts_with("invalid reference")));
    }
}

/// More links than a page held in memory can have: the long page was read
/// in batches.
const IN_MEMORY_LINKS: usize = urlspec_links::html::stream::IN_MEMORY / 14;
