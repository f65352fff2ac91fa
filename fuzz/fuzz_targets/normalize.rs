//! See `urlspec_fuzz::normalize`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::normalize(input));
