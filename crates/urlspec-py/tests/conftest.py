import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The shared corpora live beside the repository (never copied into it);
# URLSPEC_CORPORA points elsewhere.
CORPORA = pathlib.Path(
    os.environ.get("URLSPEC_CORPORA", ROOT.parent / "shared" / "data" / "urls")
)


def cli_required():
    """Whether a test that needs the urlspec command must fail, not skip,
    when it is missing: in CI (CI set to anything but 0 or false) or with
    URLSPEC_CLI_REQUIRED=1."""
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false")
    return ci or os.environ.get("URLSPEC_CLI_REQUIRED") == "1"


def find_cli():
    """The urlspec command the tests compare with, and why there is none.

    $URLSPEC_CLI when set; otherwise the debug build in Cargo's target
    directory, as `cargo metadata` gives it (so CARGO_TARGET_DIR and the
    workspace's own settings are honoured). Returns (path, None) or
    (None, reason)."""
    given = os.environ.get("URLSPEC_CLI")
    if given:
        path = pathlib.Path(given)
        return (path, None) if path.is_file() else (None, f"URLSPEC_CLI={given} is not a file")
    cargo = shutil.which("cargo")
    if cargo is None:
        return None, "URLSPEC_CLI is not set and cargo is not on PATH to find the target directory"
    meta = subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if meta.returncode != 0:
        return None, f"cargo metadata failed: {meta.stderr.strip()}"
    target = pathlib.Path(json.loads(meta.stdout)["target_directory"])
    path = target / "debug" / ("urlspec.exe" if os.name == "nt" else "urlspec")
    if not path.is_file():
        return None, f"the urlspec CLI is not built ({path} is missing: cargo build -p urlspec-cli)"
    return path, None


@pytest.fixture(scope="session")
def urlspec_cli():
    """The urlspec command (see find_cli): the test is skipped without it,
    or fails when cli_required()."""
    path, why = find_cli()
    if path is None:
        if cli_required():
            pytest.fail(f"the urlspec command is required here (CI or URLSPEC_CLI_REQUIRED=1): {why}")
        pytest.skip(why)
    return path


def corpus_lines(name):
    """The non-empty lines of corpus file `name` (bytes that are not UTF-8
    kept as lone surrogates)."""
    with open(CORPORA / name, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                yield line
