//! See `urlspec_fuzz::resolve`: the input is `BASE NUL REFERENCE`.
#![no_main]
libfuzzer_sys::fuzz_target!(|input: &str| {
    let (base, reference) = urlspec_fuzz::split_pair(input);
    urlspec_fuzz::resolve(base, reference);
});
