//! See `urlspec_fuzz::server`: the input is the text after `//`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::server(input));
