//! `urlspec completions`.

use crate::common;

use common::cli::{run, SUBCOMMANDS};
use common::{code, stderr, stdout};

#[test]
fn completions_for_every_shell_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell], None);
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell}: {name}");
        }
    }
    let out = run(&["completions", "tcsh"], None);
    assert_eq!(code(&out), 2);
}
