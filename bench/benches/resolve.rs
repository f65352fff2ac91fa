//! Criterion benches of resolution: every resolver of
//! [`urlspec_bench::RESOLVERS`] over every pair corpus of
//! [`urlspec_bench::PAIR_CORPORA`] (groups `resolve-relative-pairs`,
//! `resolve-cc-relative-10k`; one iteration = one pass over the corpus,
//! each pair: parse base + parse reference + resolve + owned `String`),
//! the same with every base parsed before the timing (groups
//! `resolve-prepared-…`, [`urlspec_bench::PREPARED_RESOLVERS`]),
//! and every contender of [`urlspec_bench::HOSTILE`] on the one hostile
//! pair (group `hostile`; one iteration = one call).
//!
//! `cargo bench -p urlspec-bench --bench resolve` runs them all; pass a
//! filter such as `resolve-cc` or `hostile/` to run fewer. For the ratios
//! from one run, use `cargo run --release -p urlspec-bench --bin compare
//! -- --section resolve --section hostile`.

use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use urlspec_bench::{
    hostile_pair, hostile_reference, PairCorpus, HOSTILE, PAIR_CORPORA,
    PREPARED_RESOLVERS, RESOLVERS,
};

fn resolve(c: &mut Criterion) {
    for name in PAIR_CORPORA {
        let corpus = match PairCorpus::load(name) {
            Ok(corpus) => corpus,
            Err(e) => {
                eprintln!("skipping corpus: {e}");
                continue;
            }
        };
        let pairs = corpus.pairs();
        let mut group =
            c.benchmark_group(format!("resolve-{}", corpus.short_name()));
        // One pass takes milliseconds: flat sampling, few samples.
        group.sampling_mode(SamplingMode::Flat).sample_size(20);
        group.throughput(Throughput::Elements(pairs.len() as u64));
        for r in RESOLVERS {
            group.bench_with_input(
                BenchmarkId::from_parameter(r.name),
                pairs.as_slice(),
                |b, pairs| b.iter(|| (r.run)(pairs)),
            );
        }
        group.finish();
        // The same pairs with every base parsed before the timing.
        let mut group = c.benchmark_group(format!(
            "resolve-prepared-{}",
            corpus.short_name()
        ));
        group.sampling_mode(SamplingMode::Flat).sample_size(20);
        group.throughput(Throughput::Elements(pairs.len() as u64));
        for r in PREPARED_RESOLVERS {
            let pass = (r.prepare)(&pairs);
            group.bench_function(BenchmarkId::from_parameter(r.name), |b| {
                b.iter(&pass)
            });
        }
        group.finish();
    }
}

fn hostile(c: &mut Criterion) {
    let reference = hostile_reference();
    let pair = hostile_pair(&reference);
    let mut group = c.benchmark_group("hostile");
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    group.throughput(Throughput::Bytes(reference.len() as u64));
    for h in HOSTILE {
        group.bench_with_input(
            BenchmarkId::from_parameter(h.name),
            pair.as_slice(),
            |b, pair| b.iter(|| (h.run)(pair)),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = resolve, hostile
}
criterion_main!(benches);
