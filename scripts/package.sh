#!/usr/bin/env bash
# Packages what the project publishes, as the registries would receive it,
# and checks each package:
#
# * the crates: every member of the workspace whose manifest does not say
#   `publish = false` must have a description, a README.md (its `readme`),
#   LICENSE-MIT and LICENSE-APACHE equal to the repository's, and no
#   placeholder URL; then `cargo package` packages them all in one run
#   (cargo packages a workspace's unpublished path dependencies together)
#   and builds each .crate from its own files alone;
# * the Python package: its sdist (maturin), a wheel built from that sdist
#   alone, and `twine check --strict` of both.
#
# A new crate is packaged as soon as it is a workspace member that may be
# published: give it a description, a README.md, copies of the two licence
# files, and a version beside the path of each workspace dependency (or
# `publish = false` if it is not for crates.io).
#
#   scripts/package.sh            # the crates, then the Python package
#   scripts/package.sh crates     # the crates only
#   scripts/package.sh python     # the Python package only
#
# Environment: PYTHON, an interpreter with maturin and twine (default: a
# venv made under the target directory, with both installed from PyPI).
# Output: the .crate files in TARGET/package/ (cargo's place), the sdist and
# the wheel in TARGET/python-dist/, TARGET being Cargo's target directory
# (CARGO_TARGET_DIR is followed).
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-all}"
case "$what" in
    all | crates | python) ;;
    *) echo "usage: $0 [crates|python]" >&2; exit 2 ;;
esac

metadata="$(cargo metadata --format-version 1 --no-deps)"
target="$(printf '%s' "$metadata" | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"

crates() {
    # The publishable members, each checked for what crates.io shows.
    local names
    names="$(printf '%s' "$metadata" | python3 -c '
import filecmp, json, os, sys
meta = json.load(sys.stdin)
root = meta["workspace_root"]
bad = []
for p in meta["packages"]:
    if p["id"] not in meta["workspace_members"] or p.get("publish") == []:
        continue
    here = os.path.dirname(p["manifest_path"])
    name = p["name"]
    if not p.get("description"):
        bad.append(f"{name}: no description")
    if p.get("readme") is None or not os.path.isfile(os.path.join(here, p["readme"])):
        bad.append(f"{name}: no readme (a README.md beside its Cargo.toml, named by `readme`)")
    for licence in ("LICENSE-MIT", "LICENSE-APACHE"):
        own = os.path.join(here, licence)
        if not os.path.isfile(own) or not filecmp.cmp(own, os.path.join(root, licence), shallow=False):
            bad.append(f"{name}: {licence} is not a copy of the repository'"'"'s")
    for key in ("repository", "homepage", "documentation"):
        if any(x in (p.get(key) or "") for x in ("example.", ".invalid")):
            bad.append(f"{name}: {key} is a placeholder: {p[key]}")
    print(name)
if bad:
    sys.exit("\n".join(bad))
')"
    if [ -z "$names" ]; then
        echo "$0: no publishable crate in the workspace" >&2
        exit 1
    fi
    local args=()
    for name in $names; do args+=(-p "$name"); done
    echo "packaging the crates:" $names
    # Cargo extracts the crates of its local registry of the packages once
    # per checkout path, builds them in TARGET/debug, and takes both as
    # they are while name and version stay (a registry's crates do not
    # change): packaging again from the same checkout would verify each
    # crate against the files of the earlier packaging. Those copies and
    # builds go (registries other than crates.io have a directory starting
    # with `-`), and the verification builds them again.
    for name in $names; do
        rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$name"-[0-9]*
        rm -rf "$target"/debug/.fingerprint/"$name"-[0-9a-f]* \
            "$target"/debug/deps/lib"${name//-/_}"-[0-9a-f]*
    done
    # --allow-dirty: the check is of what the files build, also before
    # they are committed; publishing itself refuses a dirty tree.
    cargo package --allow-dirty "${args[@]}"
}

python_package() {
    local py="${PYTHON:-}"
    if [ -z "$py" ]; then
        local venv="$target/package-venv"
        if [ ! -x "$venv/bin/python" ]; then
            python3 -m venv "$venv"
        fi
        "$venv/bin/python" -m pip install --quiet --upgrade pip maturin twine
        py="$venv/bin/python"
    fi
    local dist="$target/python-dist"
    rm -rf "$dist"
    mkdir -p "$dist"
    "$py" -m maturin sdist --manifest-path crates/urlspec-py/Cargo.toml --out "$dist"
    local sdist
    sdist="$(ls "$dist"/urlspec-*.tar.gz)"
    # The wheel is built from the sdist alone (in a directory of its own,
    # by pip's isolated build), so that the sdist is shown complete; the
    # compiled dependencies are shared with the package's other builds.
    CARGO_TARGET_DIR="$target/urlspec-py" \
        "$py" -m pip wheel --quiet --no-deps --wheel-dir "$dist" "$sdist"
    ls -l "$dist"
    "$py" -m twine check --strict "$dist"/*
}

case "$what" in
    all) crates; python_package ;;
    crates) crates ;;
    python) python_package ;;
esac
