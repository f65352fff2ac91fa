//! See `urlspec_fuzz::html_tokenizer`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &[u8]| urlspec_fuzz::html_tokenizer(
    input
));
