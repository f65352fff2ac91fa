//! See `urlspec_fuzz::escape`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::escape(input));
