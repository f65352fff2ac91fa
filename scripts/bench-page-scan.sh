#!/usr/bin/env bash
# The page scan's candidates (bench/src/bin/html_parsers.rs) on the
# generated crawls (gen_warc, 200 and 3,000 pages), the real archives and
# the browser pages beside the repository: MB/s of HTML by wall clock
# (median of ROUNDS rounds, candidates interleaved), then instructions per
# byte by callgrind (one pass of each candidate, collecting only inside
# its `cand_` function; for `document`, also inside `html::tokenize`, the
# scan of the page and of its `<noscript>` contents). Callgrind
# reads the 200-page crawl, not the 3,000-page one (the same kind of
# pages, fifteen times the time under valgrind).
#
#   scripts/bench-page-scan.sh            # everything
#   ROUNDS=3 scripts/bench-page-scan.sh   # fewer timing rounds
#   NO_CALLGRIND=1 scripts/bench-page-scan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/page-scan
mkdir -p "$out"
shared=../shared/data

cargo build --release -q -p urlspec-bench --bin html_parsers
cargo build --release -q -p urlspec-links --example gen_warc
for n in 200 3000; do
    [ -s "$out/gen-$n.warc.gz" ] ||
        ./target/release/examples/gen_warc "$out/gen-$n.warc.gz" "$n" >/dev/null
done

corpora=(
    "gen-200=$out/gen-200.warc.gz"
    "gen-3000=$out/gen-3000.warc.gz"
    "warc-real=$shared/warc-real"
    "browser-pages=$shared/browser-pages/pages"
)

echo "load: $(uptime)"
./target/release/html_parsers --rounds "${ROUNDS:-7}" "${corpora[@]}"

[ -n "${NO_CALLGRIND:-}" ] && exit 0
# Instructions of one function, inclusive, over one pass of a candidate:
# callgrind collecting only inside it.
count() { # CORPUS CANDIDATE FUNCTION
    local cg="$out/callgrind.$1.$2"
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$3" \
        --callgrind-out-file="$cg" \
        ./target/release/html_parsers --once --only "$2" "$corpus" >"$out/once.$1" 2>/dev/null
    awk '/^(summary|totals):/ {print $2; exit}' "$cg"
}
echo
echo "| corpus | candidate | instructions | per byte of HTML | per byte of the files |"
echo "|---|---|---:|---:|---:|"
for corpus in "${corpora[@]}"; do
    name=${corpus%%=*}
    [ "$name" = gen-3000 ] && continue
    for cand in document document-lol lol-scan lol-one html5ever html5gum html5gum-cb ours ours-tokens; do
        n=$(count "$name" "$cand" "html_parsers::cand_${cand//-/_}")
        read -r html files < <(awk '/^corpus /{print $5, $9}' "$out/once.$name")
        awk -v c="$name" -v f="$cand" -v n="$n" -v h="$html" -v b="$files" \
            'BEGIN {printf "| %s | %s | %d | %.1f | %.1f |\n", c, f, n, n / h, n / b}'
        if [ "$cand" = document ]; then
            # The scan inside it (and its reading of <noscript>).
            n=$(count "$name" "$cand" "urlspec_links::html::tokenize")
            awk -v c="$name" -v n="$n" -v h="$html" -v b="$files" \
                'BEGIN {printf "| %s | document: its scan | %d | %.1f | %.1f |\n", c, n, n / h, n / b}'
        fi
    done
done
