//! How many URLs a second a profile parses: every line of a file, as
//! many rounds as asked after as many untimed, in one thread (the file
//! read before).
//!
//! ```text
//! cargo run --release -p urlspec-parsers --example profile_throughput -- PROFILE FILE [ROUNDS]
//! ```
//!
//! It prints one line of JSON: the profile, the URLs parsed and how many
//! without an error, the wall-clock and CPU seconds and the URLs a
//! second, as the oracles' bench modes print theirs for the real
//! implementation.

use std::hint::black_box;
use std::time::Instant;

/// The CPU time of this (single-threaded) process, from Linux's
/// `/proc/self/schedstat` (nanoseconds on the CPU, first field).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(name), Some(file)) = (args.next(), args.next()) else {
        eprintln!("usage: profile_throughput PROFILE FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize =
        args.next().map_or(1, |r| r.parse().expect("ROUNDS: a number"));
    let Some(profile) = urlspec_parsers::profile(&name) else {
        eprintln!("no profile {name:?}");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&file).expect("FILE");
    let urls: Vec<&str> = text.lines().collect();
    let round = || {
        let mut parsed = 0usize;
        for url in &urls {
            parsed +=
                usize::from(black_box(profile.parse(black_box(url))).is_ok());
        }
        parsed
    };
    for _ in 0..rounds {
        round();
    }
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let parsed: usize = (0..rounds).map(|_| round()).sum();
    let seconds = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.3}", b - a),
        _ => "null".into(),
    };
    let n = urls.len() * rounds;
    println!(
        "{{\"profile\": \"{}\", \"urls\": {n}, \"parsed\": {parsed}, \"seconds\": {seconds:.3}, \"cpu_seconds\": {cpu}, \"urls_per_second\": {:.0}}}",
        profile.name,
        n as f64 / seconds
    );
}
