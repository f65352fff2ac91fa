//! `urlspec serve` under a bounded load: 20,000 `GET /api/diff` requests
//! from four client threads, each on one kept-alive loopback connection,
//! then the server stopped. Prints requests per second, the latency
//! percentiles and the server's resident memory before and after (and its
//! peak): the figures of BENCHMARKS.md. Run with `cargo bench -p
//! urlspec-cli --bench serve_load`; not a test, it asserts no time.

#[path = "../tests/common/mod.rs"]
mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::http;
use common::server::Server;

/// The requests in all.
const REQUESTS: usize = 20_000;
/// The client threads, one connection each.
const CLIENTS: usize = 4;

/// Inputs and bases the requests go through in turn: parse comparisons
/// and resolutions, agreeing and not.
const INPUTS: [(&str, Option<&str>); 8] = [
    ("http://a?@b/", None),
    ("http://user:pass@www.example.com:8080/a/b;p?q=1#f", None),
    ("HTTP://EXAMPLE.org/%7Efoo/./bar/../baz", None),
    ("gopher://h:25/0HELO%0D%0AMAIL", None),
    ("../../../g", Some("http://a/b/c/d;p?q")),
    ("g;x?y#s", Some("http://a/b/c/d;p?q")),
    ("//example.com/path?query", Some("https://www.example.org/")),
    ("http:g", Some("http://a/b/c/d;p?q")),
];

fn main() {
    let server = Server::start();
    let address = server.address;
    let targets: Vec<String> = INPUTS
        .iter()
        .map(|(input, base)| {
            let mut params = vec![("input", *input)];
            params.extend(base.map(|b| ("base", b)));
            http::query("/api/diff", &params)
        })
        .collect();
    // One round first, so that "before" is a server that has answered.
    let mut warm = http::Connection::open(address).expect("connect");
    for target in &targets {
        assert_eq!(warm.send("GET", target, b"").expect("answer").status, 200);
    }
    drop(warm);
    let before = server.resident_kib();
    let start = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let targets = targets.clone();
            thread::spawn(move || {
                let mut connection =
                    http::Connection::open(address).expect("connect");
                let mut latencies = Vec::with_capacity(REQUESTS / CLIENTS);
                for i in 0..REQUESTS / CLIENTS {
                    let target = &targets[(i + client) % targets.len()];
                    let sent = Instant::now();
                    let response =
                        connection.send("GET", target, b"").expect("answer");
                    latencies.push(sent.elapsed());
                    assert_eq!(response.status, 200, "{}", response.text());
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> =
        clients.into_iter().flat_map(|c| c.join().expect("client")).collect();
    let elapsed = start.elapsed();
    let after = server.resident_kib();
    let peak = server.peak_kib();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let kib = |k: Option<u64>| {
        k.map_or("?".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
    };
    println!(
        "serve_load: {} GET /api/diff from {CLIENTS} clients in {:.2} s: {:.0} requests/s; \
         latency p50 {:?}, p99 {:?}, max {:?}; server memory (RSS) before {}, after {}, peak {}",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        at(0.50),
        at(0.99),
        at(1.0),
        kib(before),
        kib(after),
        kib(peak),
    );
}
