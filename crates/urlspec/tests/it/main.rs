//! The integration tests of the `urlspec` library, one test binary: each
//! file is a module (cargo builds and links one binary instead of one per
//! file). Run one file's tests with `cargo test -p urlspec --test it
//! hostile::`.
//!
//! The helpers the data-driven files share are `tests/common`, compiled
//! once here; each file takes them with `use crate::common;`. Proptest
//! keeps the seeds of past failures of `tests/it/NAME.rs` in
//! `tests/proptest-regressions/NAME.txt` (its default place beside a
//! `main.rs`).

use urlspec_test_support::alloc::Counting;

/// Counts what one thread allocates while it asks to be counted (the
/// other threads of the harness are not counted), for `hostile.rs` and
/// `no_alloc.rs`.
#[global_allocator]
static GLOBAL: Counting = Counting;

#[path = "../common/mod.rs"]
mod common;

mod check;
mod conformance;
mod diff;
mod equiv;
mod extract;
mod hostile;
mod layers;
mod make_relative;
mod no_alloc;
mod no_panic;
mod peers;
mod properties;
mod scheme;
mod whatwg;
