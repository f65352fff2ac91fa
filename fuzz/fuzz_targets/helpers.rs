//! See `urlspec_fuzz::helpers`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::helpers(input));
