//! The integration tests of the `urlspec` command, one test binary: each
//! file is a module (cargo builds and links one binary instead of one per
//! file). Run one file's tests with `cargo test -p urlspec-cli --test it
//! golden::`.
//!
//! The helpers every file shares are `tests/common`, compiled once here;
//! each file takes them with `use crate::common;`.

#[path = "../common/mod.rs"]
mod common;

mod check;
mod check_pairs;
mod completions;
mod diff;
mod diff_parsers;
mod doc_examples;
mod docs;
mod equiv;
mod extract;
mod golden;
mod hostile;
mod links;
mod links_browser;
mod links_inputs;
mod links_memory;
mod links_parsers;
mod links_real;
mod links_real_cases;
mod links_resolution;
mod links_threads;
mod man;
mod normalize;
mod parse;
mod resolve;
mod scheme;
mod serve;
mod serve_parsers;
mod streams;
mod whatwg;
mod wpt;
