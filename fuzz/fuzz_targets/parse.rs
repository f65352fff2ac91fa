//! See `urlspec_fuzz::parse`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::parse(input));
