//! Shows that the time of parse, resolve and extract grows linearly with
//! the size of their input: each is timed on inputs of 1 KB, 1 MB and
//! 10 MB, and the table gives the time per byte at each size and the slope
//! ratio, the time per byte at 10 MB (and at 1 MB) over that at 1 KB.
//!
//! ```text
//! cargo run --release -p urlspec-bench --bin scaling [-- --samples N --sample-ms MS]
//! ```
//!
//! Time per byte is the slope of time over input size. Linear work keeps
//! it flat, so the ratios stay near 1 (cache effects alone can move them
//! by a factor of two or so, either way: 1 KB lives in L1, 10 MB does
//! not); work quadratic in the input would multiply the 10 MB figure by
//! about 10,000. The operations:
//!
//! * `parse+valid`: [`Reference::parse_with`] and [`Reference::is_valid`]
//!   of one URL of the given size (a long path of short segments, with a
//!   user, port, query and fragment), under RFC 1808 and RFC 3986;
//! * `resolve`: one reference of the given size, half `../` segments and
//!   half a long path, resolved against `http://a/b/c/d;p?q` (RFC 3986
//!   removes every `..`; RFC 1808 keeps those above the root);
//! * `extract`: every URL of a text of the given size, prose with a URL in
//!   each line, in the four forms the finder knows (`<URL:…>`, `<…>`,
//!   quotes, bare).
//!
//! Each figure is the median of `--samples` samples (default 11); a sample
//! repeats the operation for at least `--sample-ms` milliseconds (default
//! 20), and at least once.

use std::env;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use urlspec::extract::Finder;
use urlspec::resolve::Resolver;
use urlspec::{Reference, Spec};

/// The input sizes, in bytes, with their names in the table.
const SIZES: [(usize, &str); 3] =
    [(1 << 10, "1 KB"), (1 << 20, "1 MB"), (10 << 20, "10 MB")];

/// The base of the `resolve` rows.
const BASE: &str = "http://a/b/c/d;p?q";

/// The command line.
struct Options {
    /// How many samples each figure is the median of.
    samples: usize,
    /// The least time a sample takes.
    sample: Duration,
}

/// What `--help` and a wrong argument print.
const USAGE: &str = "usage: scaling [--samples N] [--sample-ms MS]";

/// Reads the command line.
fn options() -> Result<Options, String> {
    let mut opts = Options { samples: 11, sample: Duration::from_millis(20) };
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
            "--samples" => opts.samples = value("--samples")? as usize,
            "--sample-ms" => {
                opts.sample = Duration::from_millis(value("--sample-ms")?);
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            _ => return Err(format!("unknown argument: {arg}\n{USAGE}")),
        }
    }
    Ok(opts)
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

/// A URL of exactly `size` bytes: every component, and a path of short
/// segments filling the rest.
fn url_of(size: usize) -> String {
    let head = "http://user@host.example:8080/";
    let tail = ";p=1?q=2#frag";
    let mut url = String::with_capacity(size);
    url.push_str(head);
    let segments = "segment/".repeat(size / 8 + 1);
    url.push_str(&segments[..size - head.len() - tail.len()]);
    url.push_str(tail);
    url
}

/// A reference of exactly `size` bytes: `../` segments for the first half,
/// then a path of short segments.
fn reference_of(size: usize) -> String {
    let mut r = "../".repeat(size / 2 / 3);
    let path = "seg/".repeat(size / 4 + 1);
    let rest = size - r.len();
    r.push_str(&path[..rest]);
    r
}

/// Prose of exactly `size` bytes with a URL on each line, the four forms
/// in turn.
fn text_of(size: usize) -> String {
    let forms = [
        ("<URL:http://a.example/doc/", ">"),
        ("<http://b.example/doc/", ">"),
        ("\"http://c.example/doc/", "\""),
        ("see http://d.example/doc/", "."),
    ];
    let prose = " and some words of prose around it, as mail has.\n";
    let mut text = String::with_capacity(size + 128);
    let mut k = 0;
    while text.len() < size {
        let (open, close) = forms[k % forms.len()];
        text.push_str(&format!("{open}{k}{close}{prose}"));
        k += 1;
    }
    // Cut at a character boundary (all ASCII) to the exact size.
    text.truncate(size);
    text
}

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

/// One row of the table: an operation over an input of a given size.
struct Operation {
    /// The name in the table.
    name: &'static str,
    /// Makes the input of a size.
    input: fn(usize) -> String,
    /// Runs once over the input; returns a value for `black_box`.
    run: fn(&str) -> usize,
}

/// Parses `url` under `spec` and validates it.
fn parse_valid(spec: Spec, url: &str) -> usize {
    let r = Reference::parse_with(url, spec);
    usize::from(r.is_valid()) + r.path().len()
}

/// Resolves `reference` against [`BASE`] under `spec`.
fn resolve(spec: Spec, reference: &str) -> usize {
    Resolver::new(BASE, spec).resolve(reference).map_or(0, |r| r.href.len())
}

/// Finds every URL of `text` with the default finder.
fn extract(text: &str) -> usize {
    Finder::new().find_iter(text).map(|f| f.span().end).sum()
}

/// The rows of the table, in order.
const OPERATIONS: [Operation; 5] = [
    Operation {
        name: "parse+valid rfc1808",
        input: url_of,
        run: |u| parse_valid(Spec::Rfc1808, u),
    },
    Operation {
        name: "parse+valid rfc3986",
        input: url_of,
        run: |u| parse_valid(Spec::Rfc3986, u),
    },
    Operation {
        name: "resolve rfc1808",
        input: reference_of,
        run: |r| resolve(Spec::Rfc1808, r),
    },
    Operation {
        name: "resolve rfc3986",
        input: reference_of,
        run: |r| resolve(Spec::Rfc3986, r),
    },
    Operation { name: "extract", input: text_of, run: extract },
];

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------

/// The median of `xs` (which it sorts).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The median nanoseconds per byte of `run` over `input`, and the spread
/// of the samples, (max − min) / median.
fn ns_per_byte(
    run: fn(&str) -> usize,
    input: &str,
    opts: &Options,
) -> (f64, f64) {
    // Warm up, and find how many calls fill a sample.
    let start = Instant::now();
    black_box(run(black_box(input)));
    let once = start.elapsed().max(Duration::from_nanos(1));
    let calls =
        (opts.sample.as_secs_f64() / once.as_secs_f64()).ceil().max(1.0);
    let calls = calls as u64;
    let mut samples: Vec<f64> = (0..opts.samples)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..calls {
                black_box(run(black_box(input)));
            }
            let ns = start.elapsed().as_nanos() as f64;
            ns / (calls as f64 * input.len() as f64)
        })
        .collect();
    let med = median(&mut samples);
    let spread = (samples[samples.len() - 1] - samples[0]) / med;
    (med, spread)
}

fn main() -> ExitCode {
    let opts = match options() {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("scaling: {e}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("scaling: warning: debug build; use --release");
    }
    println!(
        "# Time per byte at 1 KB, 1 MB and 10 MB (median of {} samples of \
         at least {} ms)\n",
        opts.samples,
        opts.sample.as_millis()
    );
    println!(
        "| {:<20} | {:>10} | {:>10} | {:>10} | {:>11} | {:>12} |",
        "operation",
        "1 KB ns/B",
        "1 MB ns/B",
        "10 MB ns/B",
        "1 MB ÷ 1 KB",
        "10 MB ÷ 1 KB"
    );
    println!(
        "|{:-<22}|{:->12}|{:->12}|{:->12}|{:->13}|{:->14}|",
        "", ":", ":", ":", ":", ":"
    );
    let mut worst: (f64, &str) = (0.0, "");
    let mut noisy = Vec::new();
    for op in &OPERATIONS {
        let mut per_byte = [0.0; SIZES.len()];
        for (i, &(size, name)) in SIZES.iter().enumerate() {
            let input = (op.input)(size);
            assert_eq!(input.len(), size, "{}: input size", op.name);
            let (ns, spread) = ns_per_byte(op.run, &input, &opts);
            per_byte[i] = ns;
            if spread > 0.25 {
                noisy.push(format!(
                    "{} at {name}: {:.0}%",
                    op.name,
                    spread * 100.0
                ));
            }
        }
        let (mid, large) =
            (per_byte[1] / per_byte[0], per_byte[2] / per_byte[0]);
        if large > worst.0 {
            worst = (large, op.name);
        }
        println!(
            "| {:<20} | {:>10.3} | {:>10.3} | {:>10.3} | {:>11.2} | {:>12.2} |",
            op.name, per_byte[0], per_byte[1], per_byte[2], mid, large
        );
    }
    println!(
        "\nLargest slope ratio (10 MB ÷ 1 KB): {:.2}, {}. Linear work keeps \
         it near 1; quadratic work would make it about 10,000.",
        worst.0, worst.1
    );
    if !noisy.is_empty() {
        println!("Noisy samples (spread over 25%): {}.", noisy.join("; "));
    }
    ExitCode::SUCCESS
}
