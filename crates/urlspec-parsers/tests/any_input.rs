//! Every profile answers any input: no panic, an error's byte inside the
//! input, every borrowed component a slice of it.

use std::borrow::Cow;

use proptest::prelude::*;
use urlspec_parsers::PROFILES;

/// Texts made mostly of the bytes URL parsers look for, with some
/// letters, digits and non-ASCII characters between them.
fn urlish() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "http", "HTTPS", "ftp", "file", "x", ":", "//", "/", "\\", "@", "?",
        "#", "[", "]", "%", "%2", "%41", "%zz", ".", "..", ";", "=", "0",
        "80", "65536", "::1", "v1.x", " ", "\t", "\n", "\r", "\u{0}",
        "\u{7f}", "é", "\u{2100}", "\u{ff0f}", "\u{3000}", "Σ", "İ", "%25",
        "0x7f", "1.2.3.4",
    ]);
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_profile_answers(input in urlish()) {
        let range = input.as_ptr() as usize..=input.as_ptr() as usize + input.len();
        for p in PROFILES {
            match p.parse(&input) {
                Ok(c) => {
                    for v in [&c.scheme, &c.userinfo, &c.host, &c.port, &c.path, &c.query, &c.fragment] {
                        if let Some(Cow::Borrowed(s)) = v {
                            prop_assert!(s.is_empty() || range.contains(&(s.as_ptr() as usize)), "{}: {s:?}", p.name);
                        }
                    }
                }
                Err(e) => prop_assert!(e.position.is_none_or(|at| at <= input.len()), "{}: {e}", p.name),
            }
        }
    }
}
