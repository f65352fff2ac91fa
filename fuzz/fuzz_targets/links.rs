//! See `urlspec_fuzz::links`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &[u8]| urlspec_fuzz::links(input));
