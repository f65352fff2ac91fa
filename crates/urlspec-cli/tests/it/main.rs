//! The integration tests of the `urlspec` command, one test binary: each
//! file is a module (cargo builds and links one binary instead of one per
//! file). Run one file's tests with `cargo test -p urlspec-cli --test it
//! golden::`.
//!
//! The helpers every file shares are `tests/common`, compiled once here;
//! each file takes them with `use crate::common;`.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod doc_examples;
mod docs;
mod golden;
mod hostile;
mod links_browser;
mod links_inputs;
mod links_memory;
mod links_threads;
mod serve;
mod streams;
mod wpt;
