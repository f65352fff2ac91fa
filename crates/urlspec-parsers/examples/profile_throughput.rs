//! How many URLs a second a profile splits: every line of a file, a number
//! of rounds (after one round untimed), in one thread.
//!
//! ```text
//! cargo run --release -p urlspec-parsers --example profile_throughput -- PROFILE FILE [ROUNDS]
//! ```
//!
//! The oracles of `oracles/` measure their runtimes the same way with
//! `-bench FILE ROUNDS`.

use std::time::Instant;

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
    round();
    let start = Instant::now();
    for _ in 0..rounds {
        round();
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = lines.len() * rounds;
    println!(
        "{} ({}): {n} URLs in {seconds:.3} s: {:.0} URLs/s ({hosts} host bytes)",
        p.name,
        p.follows,
        n as f64 / seconds
    );
}
