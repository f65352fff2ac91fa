//! How many URLs a second a profile splits: every line of a file, a number
//! of rounds (after as many rounds untimed), in one thread.
//!
//! ```text
//! cargo run --release -p urlspec-parsers --example profile_throughput -- PROFILE FILE [ROUNDS]
//! ```
//!
//! The oracles of `oracles/` measure their runtimes the same way with
//! `-bench FILE ROUNDS`.

use std::time::Instant;

/// The CPU time of this (single-threaded) process, from Linux's
/// `/proc/self/schedstat` (nanoseconds on the CPU, first field).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, file, rest @ ..] = &args[..] else {
        eprintln!("usage: profile_throughput PROFILE FILE [ROUNDS]");
        std::process::exit(2);
    };
    let Some(p) = urlspec_parsers::profile(name) else {
        eprintln!("no profile {name}");
        std::process::exit(2);
    };
    let rounds: usize =
        rest.first().and_then(|r| r.parse().ok()).unwrap_or(20);
    let text = std::fs::read_to_string(file).expect("the file");
    let lines: Vec<&str> = text.lines().collect();
    let mut hosts = 0;
    let mut round = || {
        for line in &lines {
            if let Ok(c) = p.parse(line) {
                hosts += c.host.map_or(0, |h| h.len());
            }
        }
    };
    for _ in 0..rounds {
        round();
    }
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    for _ in 0..rounds {
        round();
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().map(|c| c - cpu0.unwrap_or(0.0));
    let n = (lines.len() * rounds) as f64;
    let per_cpu = cpu.map_or("?".into(), |c| format!("{:.0}", n / c));
    println!(
        "{} profile: {n} URLs in {seconds:.3} s ({:.3} s of CPU): {:.0} URLs/s, {per_cpu} per CPU second ({hosts} host bytes)",
        p.name,
        cpu.unwrap_or(f64::NAN),
        n / seconds,
    );
}
