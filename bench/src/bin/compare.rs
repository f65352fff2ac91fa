//! Prints, for each corpus, the time per URL of every parser and its ratio
//! to urlspec's RFC 1808 parse and to the byte-loop floor, all from one run.
//!
//! ```text
//! cargo run --release -p urlspec-bench --bin compare \
//!     [-- --rounds N --round-ms MS --only PARSER...]
//! ```
//!
//! Each round times every parser for about `--round-ms` (default 200 ms)
//! of whole-corpus passes. The parsers take turns round-robin, starting
//! one further along each round, so that machine noise hits them all alike;
//! the table gives the median over `--rounds` (default 7) rounds and the
//! spread (max − min) / median. `--only NAME` (repeatable) keeps the
//! parsers whose name contains NAME, plus the two baselines.

use std::env;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use urlspec_bench::{Corpus, Parser, Work, BASELINE, CORPORA, FLOOR, PARSERS};

struct Options {
    rounds: usize,
    round: Duration,
    /// Only the parsers whose name contains one of these (plus the
    /// baseline and the floor, which every ratio needs); all when empty.
    only: Vec<String>,
}

impl Options {
    fn selected(&self, p: &Parser) -> bool {
        self.only.is_empty()
            || p.name == BASELINE
            || p.name == FLOOR
            || self.only.iter().any(|o| p.name.contains(o.as_str()))
    }
}

fn options() -> Result<Options, String> {
    let mut opts = Options {
        rounds: 7,
        round: Duration::from_millis(200),
        only: Vec::new(),
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
            "--only" => opts
                .only
                .push(args.next().ok_or("--only needs a parser name")?),
            "-h" | "--help" => {
                return Err("usage: compare [--rounds N] [--round-ms MS] \
                            [--only PARSER]..."
                    .to_owned());
            }
            _ => return Err(format!("unknown argument: {arg}")),
        }
    }
    Ok(opts)
}

/// How many whole-corpus passes of `run` take about `target`.
fn calibrate(
    run: fn(&[&str]) -> usize,
    urls: &[&str],
    target: Duration,
) -> u64 {
    // Warm up the caches and branch predictors, then time at least 20 ms.
    black_box(run(urls));
    let mut passes = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(20) {
        black_box(run(urls));
        passes += 1;
    }
    let per_pass = start.elapsed().as_secs_f64() / passes as f64;
    ((target.as_secs_f64() / per_pass).ceil() as u64).max(1)
}

/// Nanoseconds per URL of `passes` passes of `run`.
fn time(run: fn(&[&str]) -> usize, urls: &[&str], passes: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..passes {
        black_box(run(black_box(urls)));
    }
    start.elapsed().as_nanos() as f64 / (passes as f64 * urls.len() as f64)
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

fn compare(corpus: &Corpus, opts: &Options) {
    let urls = corpus.urls();
    let bytes = corpus.bytes();
    println!(
        "## {}: {} URLs, {} bytes, avg {:.1} B/URL",
        corpus.short_name(),
        urls.len(),
        bytes,
        bytes as f64 / urls.len() as f64,
    );
    let parsers: Vec<&Parser> =
        PARSERS.iter().filter(|p| opts.selected(p)).collect();
    let passes: Vec<u64> =
        parsers.iter().map(|p| calibrate(p.run, &urls, opts.round)).collect();
    let mut samples = vec![Vec::with_capacity(opts.rounds); parsers.len()];
    for round in 0..opts.rounds {
        for k in 0..parsers.len() {
            let i = (round + k) % parsers.len();
            samples[i].push(time(parsers[i].run, &urls, passes[i]));
        }
    }
    let stats: Vec<(f64, f64)> = samples
        .iter_mut()
        .map(|s| {
            let med = median(s);
            let spread = (s[s.len() - 1] - s[0]) / med;
            (med, spread)
        })
        .collect();
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

fn main() -> ExitCode {
    let opts = match options() {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("compare: {e}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("compare: warning: debug build; use --release");
    }
    println!(
        "median of {} rounds, each ~{} ms per parser; ratios are ns/URL \
         over urlspec-rfc1808 parse and over the floor byte loop\n",
        opts.rounds,
        opts.round.as_millis(),
    );
    let mut found = 0;
    for name in CORPORA {
        match Corpus::load(name) {
            Ok(corpus) => {
                compare(&corpus, &opts);
                found += 1;
            }
            Err(e) => eprintln!("compare: skipping corpus: {e}"),
        }
    }
    if found == 0 {
        eprintln!("compare: no corpus found");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
