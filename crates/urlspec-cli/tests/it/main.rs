//! The integration tests of the `urlspec` command, one test binary: each
//! file is a module (cargo builds and links one binary instead of one per
//! file). Run one file's tests with `cargo test -p urlspec-cli --test it
//! golden::`.
//!
//! The helpers every file shares are `tests/common`, compiled once here.
//! Each file says `mod common;`, as it did when it was a binary of its
//! own: the `#[path]` below makes its directory `tests/it/`, where
//! `common.rs` hands it this shared module (a file of one re-export, so
//! that its loading once per module is nothing to warn about).
#![allow(clippy::duplicate_mod)]

#[path = "../common/mod.rs"]
mod common;

#[path = "cli.rs"]
mod cli;
#[path = "docs.rs"]
mod docs;
#[path = "golden.rs"]
mod golden;
#[path = "hostile.rs"]
mod hostile;
#[path = "links_browser.rs"]
mod links_browser;
#[path = "links_inputs.rs"]
mod links_inputs;
#[path = "links_memory.rs"]
mod links_memory;
#[path = "links_threads.rs"]
mod links_threads;
#[path = "serve.rs"]
mod serve;
#[path = "streams.rs"]
mod streams;
#[path = "wpt.rs"]
mod wpt;
