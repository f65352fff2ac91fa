//! See `urlspec_fuzz::extract`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::extract(input));
