//! See `urlspec_fuzz::diff`: the input is `BASE NUL INPUT`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| {
    let (base, input) = urlspec_fuzz::split_pair(input);
    urlspec_fuzz::diff(base, input);
});
