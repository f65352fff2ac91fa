#!/usr/bin/env bash
# Writes the figures of README.md and GUIDE.md that come from running
# urlspec: each table between `<!-- figures: NAME -->` and
# `<!-- end figures: NAME -->` is made again from the binary (and, for the
# corpus table, the corpora). With --check, nothing is written: the
# documents are compared with what the binary gives, and the script exits 1
# with the difference when they disagree. crates/urlspec-cli/tests/it/docs.rs
# runs the check.
#
#   scripts/readme-figures.sh            # rewrite the tables
#   scripts/readme-figures.sh --check    # exit 1 if a document is out of date
#
# Environment:
#   URLSPEC_CLI   the urlspec binary (default: the release build, else the
#                 debug build, in Cargo's target directory)
#   URLSPEC_DATA  the corpora (default: ../shared/data/urls beside the
#                 repository); exit 3 when they are not there
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

cli="${URLSPEC_CLI:-}"
if [ -z "$cli" ]; then
    target="$(cargo metadata --format-version 1 --no-deps |
        sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
    for build in release debug; do
        if [ -x "$target/$build/urlspec" ]; then
            cli="$target/$build/urlspec"
            break
        fi
    done
fi
if [ -z "$cli" ] || [ ! -x "$cli" ]; then
    echo "$0: no urlspec binary (cargo build -p urlspec-cli, or set URLSPEC_CLI)" >&2
    exit 2
fi
data="${URLSPEC_DATA:-../shared/data/urls}"
for corpus in kasztp.txt userbait.txt relative-pairs.tsv; do
    if [ ! -f "$data/$corpus" ]; then
        echo "$0: the corpus $data/$corpus is not there (set URLSPEC_DATA)" >&2
        exit 3
    fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# `1234567` as `1,234,567`.
thousands() {
    printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
}

# The "Why" table: how RFC 1808, RFC 2396 and RFC 3986 resolve the
# references that set them apart, against the base of their examples.
resolution() {
    local base='http://a/b/c/d;p?q'
    echo '| reference | RFC 1808 | RFC 2396 | RFC 3986 |'
    echo '|---|---|---|---|'
    for ref in ';x' '?y' '../../../g' '/./g' 'g?' '///g'; do
        printf '| `%s` |' "$ref"
        for spec in rfc1808 rfc2396 rfc3986; do
            printf ' `%s` |' "$("$cli" resolve --spec "$spec" --base "$base" -- "$ref")"
        done
        echo
    done
}

# The summary `urlspec diff --batch` writes for one corpus (on standard
# error with --json; the disagreements themselves are not needed).
summarize() {
    local corpus="$1"
    shift
    "$cli" diff --batch --json "$@" < "$data/$corpus" 2> "$work/$corpus.summary" > /dev/null || true
}

# One row of the corpus table from a summary: inputs, disagreements,
# security-relevant ones and the five most common sets of columns.
corpus_row() {
    local corpus="$1" label="$2" summary="$work/$1.summary"
    local counts inputs disagree security sets
    counts="$(head -n 1 "$summary")"
    inputs="$(echo "$counts" | sed -n 's/^\([0-9]*\) inputs\{0,1\} read.*/\1/p')"
    disagree="$(echo "$counts" | sed -n 's/.*read, \([0-9]*\) disagree.*/\1/p')"
    security="$(echo "$counts" | sed -n 's/.*disagree, \([0-9]*\) security-relevant.*/\1/p')"
    if [ -z "$inputs" ] || [ -z "$disagree" ] || [ -z "$security" ]; then
        echo "$0: unexpected summary for $corpus: $counts" >&2
        exit 1
    fi
    # `  147  path, params` as `path+params 147`.
    sets="$(tail -n +3 "$summary" | while read -r n columns; do
        printf '%s %s;' "${columns//, /+}" "$(thousands "$n")"
    done | sed -e 's/;$//' -e 's/;/, /g')"
    echo "| $label | $(thousands "$inputs") | $(thousands "$disagree") | $(thousands "$security") | $sets |"
}

# The table of `urlspec diff --batch` over the corpora, every spec.
diff_batch() {
    summarize kasztp.txt &
    summarize userbait.txt &
    summarize relative-pairs.tsv --pairs &
    wait
    echo '| corpus | inputs | disagree | security-relevant | most common column sets |'
    echo '|---|---|---|---|---|'
    corpus_row kasztp.txt '`kasztp.txt`'
    corpus_row userbait.txt '`userbait.txt`'
    corpus_row relative-pairs.tsv '`relative-pairs.tsv` (`--pairs`)'
}

resolution > "$work/resolution"
diff_batch > "$work/diff-batch"

# Each document with its marked tables replaced by their new text.
documents=(README.md GUIDE.md)
for doc in "${documents[@]}"; do
    awk -v dir="$work" '
        match($0, /^<!-- figures: [a-z-]+ -->$/) {
            print
            name = substr($0, 15, length($0) - 18)
            while ((getline line < (dir "/" name)) > 0) print line
            close(dir "/" name)
            skipping = name
            next
        }
        skipping != "" && $0 == "<!-- end figures: " skipping " -->" { skipping = "" }
        skipping == "" { print }
    ' "$doc" > "$work/$doc"
done

for name in resolution diff-batch; do
    if ! grep -qx "<!-- figures: $name -->" "${documents[@]}"; then
        echo "$0: no document has a <!-- figures: $name --> block" >&2
        exit 1
    fi
done
status=0
for doc in "${documents[@]}"; do
    if $check; then
        if ! diff -u "$doc" "$work/$doc"; then
            echo "$0: $doc's figures differ from what $cli gives; run $0 to update them" >&2
            status=1
        fi
    else
        cp "$work/$doc" "$doc"
    fi
done
exit $status
