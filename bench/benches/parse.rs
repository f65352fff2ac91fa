//! Criterion benches: every parser of [`urlspec_bench::PARSERS`] over every
//! corpus of [`urlspec_bench::CORPORA`], one group per corpus, one
//! iteration = one pass over the whole corpus.
//!
//! `cargo bench -p urlspec-bench` runs them all; pass a filter such as
//! `kasztp/` or `/fluent-uri` to run fewer. For the ratios of all parsers
//! from one run, use `cargo run --release -p urlspec-bench --bin compare`.

use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, Throughput,
};
use urlspec_bench::{Corpus, CORPORA, PARSERS};

fn parse(c: &mut Criterion) {
    for name in CORPORA {
        let corpus = match Corpus::load(name) {
            Ok(corpus) => corpus,
            Err(e) => {
                eprintln!("skipping corpus: {e}");
                continue;
            }
        };
        let urls = corpus.urls();
        let mut group = c.benchmark_group(corpus.short_name());
        group.throughput(Throughput::Elements(urls.len() as u64));
        for parser in PARSERS {
            group.bench_with_input(
                BenchmarkId::from_parameter(parser.name),
                urls.as_slice(),
                |b, urls| b.iter(|| (parser.run)(urls)),
            );
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = parse
}
criterion_main!(benches);
