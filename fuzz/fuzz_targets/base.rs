//! See `urlspec_fuzz::base`: the input is `RETRIEVAL NUL HREF NUL NAME NUL
//! VALUE ...`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| urlspec_fuzz::base(input));
