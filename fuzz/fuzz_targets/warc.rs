//! See `urlspec_fuzz::warc`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &[u8]| urlspec_fuzz::warc(input));
