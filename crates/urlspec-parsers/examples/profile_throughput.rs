//! How many URLs a second a profile parses: every line of a file, as
//! many rounds as asked, in one thread, timed from the first parse to
//! the last (the file read before).
//!
//! `cargo run --release -p urlspec-parsers --example profile_throughput
//! -- PROFILE FILE [ROUNDS]` prints one line of JSON: the profile, the
//! URLs parsed, the seconds and the URLs a second, as the oracles'
//! `--bench` mode prints theirs for the real implementation.

use std::hint::black_box;
use std::time::Instant;

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
    let start = Instant::now();
    let mut parsed = 0usize;
    for _ in 0..rounds {
        for url in &urls {
            parsed +=
                usize::from(black_box(profile.parse(black_box(url))).is_ok());
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = urls.len() * rounds;
    println!(
        "{{\"profile\": \"{}\", \"urls\": {n}, \"parsed\": {parsed}, \"seconds\": {seconds:.3}, \"urls_per_second\": {:.0}}}",
        profile.name,
        n as f64 / seconds
    );
}
