//! What each test module's `mod common;` finds: the shared helpers of
//! `tests/common`, compiled once in `main.rs`.

pub use crate::common::*;
