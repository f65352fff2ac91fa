//! Prints ratio tables, all from one run, in six sections:
//!
//! * `parse`: for each URL corpus, the time per URL of every parser of
//!   [`PARSERS`] and its ratio to urlspec's RFC 1808 parse and to the
//!   byte-loop floor;
//! * `resolve`: for each pair corpus, the time per pair of every resolver
//!   of [`RESOLVERS`] (parse the base, parse the reference, resolve, own
//!   the result) and its ratio to urlspec under RFC 3986, then (not timed)
//!   how many results of fluent-uri and oxiri differ from urlspec's, with
//!   examples;
//! * `resolve-prepared`: the same pairs with every base parsed before the
//!   timing (urlspec's `Resolver::new`, `url::Url::parse`, …), so that
//!   the time per pair is parse the reference, resolve, own the result
//!   (see [`PREPARED_RESOLVERS`]);
//! * `hostile`: the time per call of resolving one reference of 1,000,000
//!   `../` against `http://a/b/c/d` (see [`HOSTILE`]) and its ratio to
//!   merely copying the reference;
//! * `escape`: for each case of [`ESCAPES`] and each URL corpus, the time
//!   per input of urlspec's escaping or unescaping and its ratio to the
//!   `percent-encoding` crate's (after checking that both give the same
//!   output for every input);
//! * `whatwg`: the implementations of the WHATWG URL Standard of
//!   [`whatwg::ENGINES`] (urlspec's, the `url` crate, Ada): how many cases
//!   of the Standard's test suite each passes (not timed), then the time
//!   per URL of parsing each URL corpus and per pair of resolving each pair
//!   corpus (parse the base, parse the reference against it, own the
//!   serialization), with the ratio to urlspec's.
//!
//! ```text
//! cargo run --release -p urlspec-bench --bin compare \
//!     [-- --rounds N --round-ms MS --only NAME... --section SECTION...]
//! ```
//!
//! Each round times every contender for about `--round-ms` (default
//! 200 ms) of whole-corpus passes. The contenders take turns round-robin,
//! starting one further along each round, so that machine noise hits them
//! all alike; the tables give the median over `--rounds` (default 7)
//! rounds and the spread (max − min) / median. `--only NAME` (repeatable)
//! keeps the contenders whose name contains NAME, plus the baselines.
//! `--section parse|resolve|resolve-prepared|hostile|escape|whatwg`
//! (repeatable) runs only those sections; all six by default (about 4
//! minutes).
//!
//! `--pass SECTION:CORPUS:NAME` instead runs one pass of one contender
//! over one corpus and exits, for counting instructions under callgrind
//! (BENCHMARKS.md): SECTION is `parse`, `resolve`, `whatwg-parse`,
//! `whatwg-resolve` or an escape case (`escape-query`, `unescape`, …), CORPUS a corpus name without its
//! extension, NAME a contender, or `-` for none (the cost of loading the
//! corpus, to subtract). Under `resolve-prepared`, `NAME/prepare` parses
//! the bases only: the cost to subtract from NAME's. It prints the number
//! of items on standard error.

use std::env;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use urlspec_bench::whatwg::{self, ENGINES};
use urlspec_bench::{
    differences, hostile_pair, hostile_reference, prepared_resolver, resolver,
    Corpus, Difference, EscapeCase, Pair, PairCorpus, Parser,
    PreparedResolution, PreparedRun, Resolution, Work, BASELINE, COPY,
    CORPORA, DIFFERENTIAL, ESCAPES, FLOOR, HOSTILE, HOSTILE_BASE,
    HOSTILE_DOTDOTS, PAIR_CORPORA, PARSERS, PERCENT_ENCODING,
    PREPARED_RESOLVERS, RESOLVERS, RESOLVE_BASELINE,
};

/// A part of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Parse,
    Resolve,
    Prepared,
    Hostile,
    Escape,
    Whatwg,
}

struct Options {
    /// `--pass`: one pass of one contender, then exit.
    pass: Option<String>,
    rounds: usize,
    round: Duration,
    /// Only the contenders whose name contains one of these (plus the
    /// baselines, which the ratios need); all when empty.
    only: Vec<String>,
    /// The sections to run; all when empty.
    sections: Vec<Section>,
}

impl Options {
    fn selected(&self, name: &str, baselines: &[&str]) -> bool {
        self.only.is_empty()
            || baselines.contains(&name)
            || self.only.iter().any(|o| name.contains(o.as_str()))
    }

    fn runs(&self, section: Section) -> bool {
        self.sections.is_empty() || self.sections.contains(&section)
    }
}

const USAGE: &str = "usage: compare [--rounds N] [--round-ms MS] \
                     [--only NAME]... \
                     [--section parse|resolve|resolve-prepared|hostile|escape|whatwg]... \
                     | --pass SECTION:CORPUS:NAME";

fn options() -> Result<Options, String> {
    let mut opts = Options {
        pass: None,
        rounds: 7,
        round: Duration::from_millis(200),
        only: Vec::new(),
        sections: Vec::new(),
    };
    let mut args = env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| -> Result<u64, String> {
            let v = args.next().ok_or(format!("{flag} needs a value"))?;
            match v.parse() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("{flag}: not a positive integer: {v}")),
            }
        };
        match arg.as_str() {
            "--rounds" => opts.rounds = value("--rounds")? as usize,
            "--round-ms" => {
                opts.round = Duration::from_millis(value("--round-ms")?);
            }
            "--only" => {
                opts.only.push(args.next().ok_or("--only needs a name")?)
            }
            "--section" => {
                let s = args.next().ok_or("--section needs a name")?;
                opts.sections.push(match s.as_str() {
                    "parse" => Section::Parse,
                    "resolve" => Section::Resolve,
                    "resolve-prepared" => Section::Prepared,
                    "hostile" => Section::Hostile,
                    "escape" => Section::Escape,
                    "whatwg" => Section::Whatwg,
                    _ => return Err(format!("unknown section: {s}\n{USAGE}")),
                });
            }
            "--pass" => {
                opts.pass = Some(args.next().ok_or("--pass needs a value")?)
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            _ => return Err(format!("unknown argument: {arg}\n{USAGE}")),
        }
    }
    Ok(opts)
}

/// One contender's pass over its whole input, returning a count to keep.
type Run<'a> = &'a dyn Fn() -> usize;

/// How many passes of `run` take about `target`.
fn calibrate(run: Run<'_>, target: Duration) -> u64 {
    // Warm up the caches and branch predictors, then time at least 20 ms.
    black_box(run());
    let mut passes = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(20) {
        black_box(run());
        passes += 1;
    }
    let per_pass = start.elapsed().as_secs_f64() / passes as f64;
    ((target.as_secs_f64() / per_pass).ceil() as u64).max(1)
}

/// Nanoseconds per item of `passes` passes of `run` over `items` items.
fn time(run: Run<'_>, passes: u64, items: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..passes {
        black_box(run());
    }
    start.elapsed().as_nanos() as f64 / (passes as f64 * items as f64)
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Times every run (each a pass over `items` items) in round-robin
/// rounds; gives, for each, the median nanoseconds per item and the
/// spread (max − min) / median.
fn measure_runs(
    runs: &[Run<'_>],
    items: usize,
    opts: &Options,
) -> Vec<(f64, f64)> {
    let passes: Vec<u64> =
        runs.iter().map(|&run| calibrate(run, opts.round)).collect();
    let mut samples = vec![Vec::with_capacity(opts.rounds); runs.len()];
    for round in 0..opts.rounds {
        for k in 0..runs.len() {
            let i = (round + k) % runs.len();
            samples[i].push(time(runs[i], passes[i], items));
        }
    }
    samples
        .iter_mut()
        .map(|s| {
            let med = median(s);
            let spread = (s[s.len() - 1] - s[0]) / med;
            (med, spread)
        })
        .collect()
}

/// [`measure_runs`] for runs over the elements of `input`.
fn measure<T>(
    runs: &[fn(&[T]) -> usize],
    input: &[T],
    opts: &Options,
) -> Vec<(f64, f64)> {
    let closures: Vec<Box<dyn Fn() -> usize + '_>> = runs
        .iter()
        .map(|&run| Box::new(move || run(black_box(input))) as Box<_>)
        .collect();
    let runs: Vec<Run<'_>> =
        closures.iter().map(|c| &**c as Run<'_>).collect();
    measure_runs(&runs, input.len(), opts)
}

fn compare_parse(corpus: &Corpus, opts: &Options) {
    let urls = corpus.urls();
    let bytes = corpus.bytes();
    println!(
        "### {}: {} URLs, {} bytes, avg {:.1} B/URL",
        corpus.short_name(),
        urls.len(),
        bytes,
        bytes as f64 / urls.len() as f64,
    );
    let parsers: Vec<&Parser> = PARSERS
        .iter()
        .filter(|p| opts.selected(p.name, &[BASELINE, FLOOR]))
        .collect();
    let runs: Vec<fn(&[&str]) -> usize> =
        parsers.iter().map(|p| p.run).collect();
    let stats = measure(&runs, &urls, opts);
    let ns_of = |name: &str| {
        parsers.iter().position(|p| p.name == name).map(|i| stats[i].0)
    };
    let baseline = ns_of(BASELINE).expect("baseline parser listed");
    let floor = ns_of(FLOOR).expect("floor parser listed");

    println!(
        "| {:<22} | {:>8} | {:>7} | {:>9} | {:>9} | {:>9} | {:>13} |",
        "parser", "ns/URL", "spread", "MB/s", "×rfc1808", "×floor", "accepted"
    );
    println!(
        "|{:-<24}|{:->10}|{:->9}|{:->11}|{:->11}|{:->11}|{:->15}|",
        "", ":", ":", ":", ":", ":", ":"
    );
    for (p, &(ns, spread)) in parsers.iter().zip(&stats) {
        let accepted = match p.work {
            Work::Validate => format!("{}/{}", (p.run)(&urls), urls.len()),
            Work::Split => "(splits)".to_owned(),
            Work::Floor => "-".to_owned(),
        };
        let mb_per_s = bytes as f64 / (ns * urls.len() as f64) * 1e3;
        println!(
            "| {:<22} | {:>8.2} | {:>6.1}% | {:>9.0} | {:>9.2} | {:>9.2} | \
             {:>13} |",
            p.name,
            ns,
            spread * 100.0,
            mb_per_s,
            ns / baseline,
            ns / floor,
            accepted,
        );
    }
    println!();
}

fn compare_resolve(corpus: &PairCorpus, opts: &Options) {
    let pairs = corpus.pairs();
    let bytes = corpus.bytes();
    println!(
        "### {}: {} pairs, {} bytes, avg {:.1} B/pair",
        corpus.short_name(),
        pairs.len(),
        bytes,
        bytes as f64 / pairs.len() as f64,
    );
    let resolvers: Vec<&Resolution> = RESOLVERS
        .iter()
        .filter(|r| opts.selected(r.name, &[RESOLVE_BASELINE]))
        .collect();
    let runs: Vec<fn(&[Pair<'_>]) -> usize> =
        resolvers.iter().map(|r| r.run).collect();
    let stats = measure(&runs, &pairs, opts);
    let baseline = resolvers
        .iter()
        .position(|r| r.name == RESOLVE_BASELINE)
        .map(|i| stats[i].0)
        .expect("baseline resolver listed");

    println!(
        "| {:<26} | {:>8} | {:>7} | {:>9} | {:>9} | {:>13} |",
        "resolver", "ns/pair", "spread", "MB/s", "×rfc3986", "resolved"
    );
    println!(
        "|{:-<28}|{:->10}|{:->9}|{:->11}|{:->11}|{:->15}|",
        "", ":", ":", ":", ":", ":"
    );
    for (r, &(ns, spread)) in resolvers.iter().zip(&stats) {
        let resolved = format!("{}/{}", (r.run)(&pairs), pairs.len());
        let mb_per_s = bytes as f64 / (ns * pairs.len() as f64) * 1e3;
        println!(
            "| {:<26} | {:>8.2} | {:>6.1}% | {:>9.0} | {:>9.2} | {:>13} |",
            r.name,
            ns,
            spread * 100.0,
            mb_per_s,
            ns / baseline,
            resolved,
        );
    }
    println!();
    print_differences(&pairs);
}

/// The resolvers of [`PREPARED_RESOLVERS`] over `corpus`: bases parsed
/// before the timing.
fn compare_prepared(corpus: &PairCorpus, opts: &Options) {
    let pairs = corpus.pairs();
    let baseline = PREPARED_RESOLVERS[0].name;
    println!(
        "### {} (bases prepared): {} pairs",
        corpus.short_name(),
        pairs.len()
    );
    let resolvers: Vec<&PreparedResolution> = PREPARED_RESOLVERS
        .iter()
        .filter(|r| opts.selected(r.name, &[baseline]))
        .collect();
    let passes: Vec<PreparedRun<'_>> =
        resolvers.iter().map(|r| (r.prepare)(&pairs)).collect();
    let runs: Vec<Run<'_>> = passes.iter().map(|p| &**p as Run<'_>).collect();
    let stats = measure_runs(&runs, pairs.len(), opts);
    let base_ns = stats[0].0;
    println!(
        "| {:<26} | {:>8} | {:>7} | {:>9} | {:>13} |",
        "resolver", "ns/pair", "spread", "×rfc3986", "resolved"
    );
    println!(
        "|{:-<28}|{:->10}|{:->9}|{:->11}|{:->15}|",
        "", ":", ":", ":", ":"
    );
    for ((r, &(ns, spread)), pass) in resolvers.iter().zip(&stats).zip(&passes)
    {
        println!(
            "| {:<26} | {:>8.2} | {:>6.1}% | {:>9.2} | {:>13} |",
            r.name,
            ns,
            spread * 100.0,
            ns / base_ns,
            format!("{}/{}", pass(), pairs.len()),
        );
    }
    println!();
}

/// How many results of each [`DIFFERENTIAL`] resolver differ from the
/// baseline's, and up to five examples, taken in turn from the three kinds
/// (both resolved, only the baseline resolved, only the other resolved).
fn print_differences(pairs: &[Pair<'_>]) {
    let base = resolver(RESOLVE_BASELINE).expect("baseline resolver listed");
    for name in DIFFERENTIAL {
        let other = resolver(name).expect("differential resolver listed");
        let diffs = differences(pairs, base, other);
        let mut kinds: [Vec<&Difference<'_>>; 3] = Default::default();
        for d in &diffs {
            let kind = match (&d.left, &d.right) {
                (Some(_), Some(_)) => 0,
                (Some(_), None) => 1,
                _ => 2,
            };
            kinds[kind].push(d);
        }
        println!(
            "{name} vs {RESOLVE_BASELINE}: {} of {} pairs differ (both \
             resolved, different result: {}; only {RESOLVE_BASELINE} \
             resolved: {}; only {name} resolved: {})",
            diffs.len(),
            pairs.len(),
            kinds[0].len(),
            kinds[1].len(),
            kinds[2].len(),
        );
        let mut examples: Vec<&Difference<'_>> = Vec::new();
        for i in 0.. {
            if examples.len() == 5 || kinds.iter().all(|k| i >= k.len()) {
                break;
            }
            examples.extend(
                kinds.iter().filter_map(|k| k.get(i)).take(5 - examples.len()),
            );
        }
        examples.sort_by_key(|d| d.number);
        for d in examples {
            let show = |r: &Option<String>| match r {
                Some(s) => format!("{s:?}"),
                None => "(refused)".to_owned(),
            };
            println!(
                "  #{}: base {:?} ref {:?}\n      {RESOLVE_BASELINE}: {}\n      \
                 {name}: {}",
                d.number,
                d.pair.0,
                d.pair.1,
                show(&d.left),
                show(&d.right),
            );
        }
    }
    println!();
}

fn compare_hostile(opts: &Options) {
    let reference = hostile_reference();
    let pair = hostile_pair(&reference);
    println!(
        "### {HOSTILE_BASE:?} + {HOSTILE_DOTDOTS} × \"../\" + \"g\" \
         ({} bytes), one call per pass",
        reference.len(),
    );
    let contenders: Vec<&Resolution> =
        HOSTILE.iter().filter(|c| opts.selected(c.name, &[COPY])).collect();
    let runs: Vec<fn(&[Pair<'_>]) -> usize> =
        contenders.iter().map(|c| c.run).collect();
    let stats = measure(&runs, &pair, opts);
    let copy = contenders
        .iter()
        .position(|c| c.name == COPY)
        .map(|i| stats[i].0)
        .expect("copy listed");

    println!(
        "| {:<16} | {:>12} | {:>7} | {:>7} | {:>13} |",
        "contender", "ns/call", "spread", "×copy", "result bytes"
    );
    println!(
        "|{:-<18}|{:->14}|{:->9}|{:->9}|{:->15}|",
        "", ":", ":", ":", ":"
    );
    for (c, &(ns, spread)) in contenders.iter().zip(&stats) {
        let result = match (c.one)(HOSTILE_BASE, &reference) {
            Some(s) => s.len().to_string(),
            None => "(refused)".to_owned(),
        };
        println!(
            "| {:<16} | {:>12.0} | {:>6.1}% | {:>7.2} | {:>13} |",
            c.name,
            ns,
            spread * 100.0,
            ns / copy,
            result,
        );
    }
    println!();
}

fn compare_escape(corpus: &Corpus, case: &EscapeCase, opts: &Options) {
    let urls = corpus.urls();
    let inputs = case.inputs(&urls);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let bytes: usize = inputs.iter().map(|x| x.len()).sum();
    let contenders: Vec<_> = case
        .contenders
        .iter()
        .filter(|e| opts.selected(e.name, &[PERCENT_ENCODING]))
        .collect();
    // Not timed: the contenders must agree on every input.
    let base = &case.contenders[0];
    let changed =
        inputs.iter().filter(|x| (base.one)(x) != x.as_bytes()).count();
    for e in &contenders[1..] {
        let differ =
            inputs.iter().filter(|x| (e.one)(x) != (base.one)(x)).count();
        if differ > 0 {
            println!(
                "**{} differs from {} on {differ} inputs**",
                e.name, base.name
            );
        }
    }
    println!(
        "### {} {}: {} inputs, {} bytes, {} changed",
        case.name,
        corpus.short_name(),
        inputs.len(),
        bytes,
        changed,
    );
    let runs: Vec<fn(&[&str]) -> usize> =
        contenders.iter().map(|e| e.run).collect();
    let stats = measure(&runs, &inputs, opts);
    let baseline = stats[0].0;
    println!(
        "| {:<18} | {:>8} | {:>7} | {:>9} | {:>9} |",
        "contender", "ns/item", "spread", "MB/s", "×p-e"
    );
    println!(
        "|{:-<20}|{:->10}|{:->9}|{:->11}|{:->11}|",
        "", ":", ":", ":", ":"
    );
    for (e, &(ns, spread)) in contenders.iter().zip(&stats) {
        let mb_per_s = bytes as f64 / (ns * inputs.len() as f64) * 1e3;
        println!(
            "| {:<18} | {:>8.2} | {:>6.1}% | {:>9.0} | {:>9.2} |",
            e.name,
            ns,
            spread * 100.0,
            mb_per_s,
            ns / baseline,
        );
    }
    println!();
}

/// The `whatwg` section: pass rates on the Standard's test suite, then
/// parse and resolve times of every engine of [`ENGINES`].
fn compare_whatwg(opts: &Options) -> usize {
    let engines: Vec<_> = ENGINES
        .iter()
        .filter(|e| opts.selected(e.name, &[whatwg::OURS]))
        .collect();
    let mut found = 0;
    match whatwg::suite() {
        Ok(cases) => {
            found += 1;
            let with_base = cases.iter().filter(|c| c.base.is_some()).count();
            println!(
                "### WPT urltestdata.json: {} cases ({with_base} with a base); \
                 a case passes when the parse fails as expected or gives \
                 every attribute (href, protocol, username, password, host, \
                 hostname, port, pathname, search, hash)\n",
                cases.len()
            );
            println!(
                "| {:<16} | {:>13} | {:>9} | first failures |",
                "engine", "passed", "rate"
            );
            println!("|{:-<18}|{:->15}|{:->11}|---|", "", ":", ":");
            for e in &engines {
                let failures = whatwg::failures(e, &cases);
                let passed = cases.len() - failures.len();
                let examples: Vec<String> = failures
                    .iter()
                    .take(3)
                    .map(|(c, _)| match &c.base {
                        Some(b) => format!(
                            "`{}` against `{b}`",
                            c.input.escape_debug()
                        ),
                        None => format!("`{}`", c.input.escape_debug()),
                    })
                    .collect();
                println!(
                    "| {:<16} | {:>13} | {:>8.1}% | {} |",
                    e.name,
                    format!("{passed}/{}", cases.len()),
                    passed as f64 * 100.0 / cases.len() as f64,
                    examples.join(", ")
                );
            }
            println!();
        }
        Err(e) => eprintln!("compare: skipping the WHATWG suite: {e}"),
    }
    let table =
        |title: String, stats: &[(f64, f64)], counts: &[usize], n: usize| {
            println!("### {title}");
            println!(
                "| {:<16} | {:>8} | {:>7} | {:>9} | {:>13} |",
                "engine", "ns/item", "spread", "×urlspec", "accepted"
            );
            println!(
                "|{:-<18}|{:->10}|{:->9}|{:->11}|{:->15}|",
                "", ":", ":", ":", ":"
            );
            let base = stats[0].0;
            for ((e, &(ns, spread)), count) in
                engines.iter().zip(stats).zip(counts)
            {
                println!(
                    "| {:<16} | {:>8.1} | {:>6.1}% | {:>9.2} | {:>13} |",
                    e.name,
                    ns,
                    spread * 100.0,
                    ns / base,
                    format!("{count}/{n}"),
                );
            }
            println!();
        };
    for name in CORPORA {
        let Ok(corpus) = Corpus::load(name) else { continue };
        found += 1;
        let urls = corpus.urls();
        let runs: Vec<fn(&[&str]) -> usize> =
            engines.iter().map(|e| e.parse).collect();
        let stats = measure(&runs, &urls, opts);
        let counts: Vec<usize> =
            engines.iter().map(|e| (e.parse)(&urls)).collect();
        let title = format!(
            "parse {}: {} URLs, null base, owned URL",
            corpus.short_name(),
            urls.len()
        );
        table(title, &stats, &counts, urls.len());
    }
    for name in PAIR_CORPORA {
        let Ok(corpus) = PairCorpus::load(name) else { continue };
        found += 1;
        let pairs = corpus.pairs();
        let runs: Vec<fn(&[Pair<'_>]) -> usize> =
            engines.iter().map(|e| e.resolve).collect();
        let stats = measure(&runs, &pairs, opts);
        let counts: Vec<usize> =
            engines.iter().map(|e| (e.resolve)(&pairs)).collect();
        let title = format!(
            "resolve {}: {} pairs, parse base + parse reference against it + owned href",
            corpus.short_name(),
            pairs.len()
        );
        table(title, &stats, &counts, pairs.len());
    }
    found
}

/// `--pass SECTION:CORPUS:NAME`: loads the corpus, runs contender NAME
/// once over it (none for `-`) and says how many items there were.
fn one_pass(what: &str) -> Result<(), String> {
    let usage = || format!("--pass: expected SECTION:CORPUS:NAME, got {what}");
    let mut parts = what.splitn(3, ':');
    let (Some(section), Some(corpus), Some(name)) =
        (parts.next(), parts.next(), parts.next())
    else {
        return Err(usage());
    };
    let unknown = |kind: &str, x: &str| format!("--pass: unknown {kind} {x}");
    let items = match section {
        "resolve-prepared" => {
            let file = PAIR_CORPORA
                .into_iter()
                .find(|f| f.strip_suffix(".tsv") == Some(corpus))
                .ok_or_else(|| unknown("pair corpus", corpus))?;
            let corpus = PairCorpus::load(file).map_err(|e| e.to_string())?;
            let pairs = corpus.pairs();
            // NAME/prepare: the bases only, the cost to subtract.
            let (name, timed) = match name.strip_suffix("/prepare") {
                Some(name) => (name, false),
                None => (name, true),
            };
            if name != "-" {
                let r = prepared_resolver(name)
                    .ok_or_else(|| unknown("resolver", name))?;
                let pass = (r.prepare)(&pairs);
                if timed {
                    black_box(pass());
                }
            }
            pairs.len()
        }
        "whatwg-resolve" => {
            let file = PAIR_CORPORA
                .into_iter()
                .find(|f| f.strip_suffix(".tsv") == Some(corpus))
                .ok_or_else(|| unknown("pair corpus", corpus))?;
            let corpus = PairCorpus::load(file).map_err(|e| e.to_string())?;
            let pairs = corpus.pairs();
            if name != "-" {
                let e = whatwg::engine(name)
                    .ok_or_else(|| unknown("engine", name))?;
                black_box((e.resolve)(&pairs));
            }
            pairs.len()
        }
        "resolve" => {
            let file = PAIR_CORPORA
                .into_iter()
                .find(|f| f.strip_suffix(".tsv") == Some(corpus))
                .ok_or_else(|| unknown("pair corpus", corpus))?;
            let corpus = PairCorpus::load(file).map_err(|e| e.to_string())?;
            let pairs = corpus.pairs();
            if name != "-" {
                let r = RESOLVERS
                    .iter()
                    .find(|r| r.name == name)
                    .ok_or_else(|| unknown("resolver", name))?;
                black_box((r.run)(&pairs));
            }
            pairs.len()
        }
        _ => {
            let file = CORPORA
                .into_iter()
                .find(|f| f.strip_suffix(".txt") == Some(corpus))
                .ok_or_else(|| unknown("corpus", corpus))?;
            let corpus = Corpus::load(file).map_err(|e| e.to_string())?;
            let urls = corpus.urls();
            if section == "whatwg-parse" {
                if name != "-" {
                    let e = whatwg::engine(name)
                        .ok_or_else(|| unknown("engine", name))?;
                    black_box((e.parse)(&urls));
                }
                urls.len()
            } else if section == "parse" {
                if name != "-" {
                    let p = PARSERS
                        .iter()
                        .find(|p| p.name == name)
                        .ok_or_else(|| unknown("parser", name))?;
                    black_box((p.run)(&urls));
                }
                urls.len()
            } else if section == "equiv" {
                // `urlspec-SPEC`: `equiv::normalize` of each URL under SPEC
                // at the default level (no peer normalizes per spec).
                if name != "-" {
                    let spec: urlspec::Spec = name
                        .strip_prefix("urlspec-")
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| unknown("normalizer", name))?;
                    let o = urlspec::equiv::Options::default();
                    let n = urls
                        .iter()
                        .filter(|u| {
                            urlspec::equiv::normalize(u, spec, &o).is_ok()
                        })
                        .count();
                    black_box(n);
                }
                urls.len()
            } else {
                let case = ESCAPES
                    .iter()
                    .find(|c| c.name == section)
                    .ok_or_else(|| unknown("section", section))?;
                let inputs = case.inputs(&urls);
                let inputs: Vec<&str> =
                    inputs.iter().map(String::as_str).collect();
                if name != "-" {
                    let e = case
                        .contenders
                        .iter()
                        .find(|e| e.name == name)
                        .ok_or_else(|| unknown("contender", name))?;
                    black_box((e.run)(&inputs));
                }
                inputs.len()
            }
        }
    };
    eprintln!("items {items}");
    Ok(())
}

fn main() -> ExitCode {
    let opts = match options() {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("compare: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(what) = &opts.pass {
        return match one_pass(what) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("compare: {e}");
                ExitCode::from(2)
            }
        };
    }
    if cfg!(debug_assertions) {
        eprintln!("compare: warning: debug build; use --release");
    }
    println!(
        "median of {} rounds, each ~{} ms per contender\n",
        opts.rounds,
        opts.round.as_millis(),
    );
    let mut found = 0;
    if opts.runs(Section::Parse) {
        println!(
            "## parse: ns/URL, ratios over urlspec-rfc1808 parse and over \
             the floor byte loop\n"
        );
        for name in CORPORA {
            match Corpus::load(name) {
                Ok(corpus) => {
                    compare_parse(&corpus, &opts);
                    found += 1;
                }
                Err(e) => eprintln!("compare: skipping corpus: {e}"),
            }
        }
    }
    if opts.runs(Section::Resolve) {
        println!(
            "## resolve: ns/pair for parse base + parse reference + \
             resolve + owned String, ratio over urlspec-rfc3986\n"
        );
        for name in PAIR_CORPORA {
            match PairCorpus::load(name) {
                Ok(corpus) => {
                    compare_resolve(&corpus, &opts);
                    found += 1;
                }
                Err(e) => eprintln!("compare: skipping corpus: {e}"),
            }
        }
    }
    if opts.runs(Section::Prepared) {
        println!(
            "## resolve-prepared: ns/pair for parse reference + resolve + \
             owned String, every base parsed before the timing, ratio over \
             urlspec-rfc3986\n"
        );
        for name in PAIR_CORPORA {
            match PairCorpus::load(name) {
                Ok(corpus) => {
                    compare_prepared(&corpus, &opts);
                    found += 1;
                }
                Err(e) => eprintln!("compare: skipping corpus: {e}"),
            }
        }
    }
    if opts.runs(Section::Hostile) {
        println!("## hostile: ns/call, ratio over copying the reference\n");
        compare_hostile(&opts);
        found += 1;
    }
    if opts.runs(Section::Escape) {
        println!(
            "## escape: ns/input, ratio over the percent-encoding crate \
             (RFC 3986 data characters; unescaping to bytes)\n"
        );
        for name in CORPORA {
            match Corpus::load(name) {
                Ok(corpus) => {
                    for case in ESCAPES {
                        compare_escape(&corpus, case, &opts);
                    }
                    found += 1;
                }
                Err(e) => eprintln!("compare: skipping corpus: {e}"),
            }
        }
    }
    if opts.runs(Section::Whatwg) {
        println!(
            "## whatwg: the WHATWG URL Standard's implementations: test-suite \
             pass rate, ns/URL parsing, ns/pair resolving, ratio over \
             urlspec-whatwg\n"
        );
        found += compare_whatwg(&opts);
    }
    if found == 0 {
        eprintln!("compare: no corpus found");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
