//! See `urlspec_fuzz::scheme`: the input follows each scheme name.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::scheme(input));
