//! `urlspec man`.

use crate::common;

use common::cli::{run, SUBCOMMANDS};
use common::{code, stderr, stdout};

#[test]
fn man_pages_name_every_subcommand() {
    let out = run(&["man"], None);
    assert_eq!(code(&out), 0);
    let page = stdout(&out);
    assert!(page.contains(".TH urlspec 1"), "{page}");
    for name in SUBCOMMANDS {
        assert!(page.contains(&format!("urlspec\\-{name}(1)")), "{name}");
    }
    let dir = std::env::temp_dir()
        .join(format!("urlspec-man-test-{}", std::process::id()));
    let out = run(&["man", "--dir", dir.to_str().unwrap()], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for name in SUBCOMMANDS {
        let page =
            std::fs::read_to_string(dir.join(format!("urlspec-{name}.1")))
                .unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(page.contains(&format!(".TH urlspec-{name} 1")), "{page}");
    }
    assert!(dir.join("urlspec.1").is_file());
    assert!(!dir.join("urlspec-help.1").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
