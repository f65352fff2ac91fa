//! See `urlspec_fuzz::check_input`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::check_input(input));
