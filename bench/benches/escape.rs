//! Criterion benches of escaping: every case of [`urlspec_bench::ESCAPES`]
//! over every corpus of [`urlspec_bench::CORPORA`] (groups
//! `escape-query-kasztp`, `unescape-escaped-node_files`, …; one iteration
//! = one pass over the inputs), urlspec against the `percent-encoding`
//! crate.
//!
//! `cargo bench -p urlspec-bench --bench escape` runs them all; pass a
//! filter such as `unescape` to run fewer. For the ratios from one run,
//! use `cargo run --release -p urlspec-bench --bin compare -- --section
//! escape`.

use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, Throughput,
};
use urlspec_bench::{Corpus, CORPORA, ESCAPES};

fn escape(c: &mut Criterion) {
    for name in CORPORA {
        let corpus = match Corpus::load(name) {
            Ok(corpus) => corpus,
            Err(e) => {
                eprintln!("skipping corpus: {e}");
                continue;
            }
        };
        let urls = corpus.urls();
        for case in ESCAPES {
            let inputs = case.inputs(&urls);
            let inputs: Vec<&str> =
                inputs.iter().map(String::as_str).collect();
            let mut group = c.benchmark_group(format!(
                "{}-{}",
                case.name,
                corpus.short_name()
            ));
            group.throughput(Throughput::Elements(inputs.len() as u64));
            for e in case.contenders {
                group.bench_with_input(
                    BenchmarkId::from_parameter(e.name),
                    inputs.as_slice(),
                    |b, inputs| b.iter(|| (e.run)(inputs)),
                );
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    targets = escape
}
criterion_main!(benches);
