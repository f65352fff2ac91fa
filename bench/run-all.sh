#!/usr/bin/env bash
# Measures every table of BENCHMARKS.md again, one after the other, on this
# machine: run it on a quiet machine, then copy the figures from the files
# it writes. Each step's output goes to its own file under OUT (default
# target/bench-results/DATE), with the load average before and after it;
# machine.txt says what the machine is.
#
#   bash bench/run-all.sh                     # everything (an hour or more)
#   ONLY="parse python" bash bench/run-all.sh # some steps
#   QUICK=1 bash bench/run-all.sh             # every step once, small: checks the script, not the figures
#
# Steps, in order (ONLY and SKIP take their names): compare (the parse,
# resolve, resolve-prepared, escape, hostile and whatwg sections of
# `compare`), counts (callgrind instruction counts of those tables),
# scaling, pairs (`resolve --pairs` against a urljoin loop), links (a
# 3,000-page crawl and the real archives against the Python stacks), peak (the crawl's peak
# memory: bench/cli/peak_memory.py), files (the same pages split
# into 30, 100 and 300 archives), memory (the 1 GB tests; MEMORY=1 only,
# they take minutes and 4 GB of disk), python (the package against urllib
# and its peers), spark (the Spark job; needs Java 17+), serve, parsers
# (each parser profile against its real runtime: bench/parsers/throughput.sh).
#
# Environment: URLSPEC_DATA (the corpora; default ../shared/data/urls
# beside the repository), OUT, ONLY, SKIP, QUICK, MEMORY. Python packages
# (the urlspec package, pyarrow, fastwarc, warcio, brotlipy, selectolax,
# can-ada, ada-url, yarl, pyspark) are installed from PyPI into a venv
# under target/.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

QUICK="${QUICK:-0}"
ONLY="${ONLY:-}"
SKIP="${SKIP:-}"
MEMORY="${MEMORY:-0}"
data="${URLSPEC_DATA:-$root/../shared/data/urls}"
export URLSPEC_DATA="$data"
target="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
OUT="${OUT:-$target/bench-results/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
work="$target/bench-work"
mkdir -p "$work"
urlspec="$target/release/urlspec"
compare="$target/release/compare"
quick() { [ "$QUICK" = 1 ]; }

for corpus in kasztp.txt userbait.txt relative-pairs.tsv cc-relative-10k.tsv; do
    if [ ! -f "$data/$corpus" ]; then
        echo "$0: the corpus $data/$corpus is not there (set URLSPEC_DATA)" >&2
        exit 2
    fi
done

# Whether to run a step: named in ONLY (when set) and not in SKIP.
wanted() {
    local name="$1"
    if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]]; then return 1; fi
    [[ " $SKIP " != *" $name "* ]]
}

# Runs a step's commands with their output in OUT/NAME.txt, the load before
# and after; a step that fails is reported and the others still run.
failed=()
step() {
    local name="$1"
    shift
    wanted "$name" || return 0
    echo "== $name"
    {
        echo "# $name, $(date -u +%FT%TZ), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        if "$@"; then status=0; else status=$?; fi
        echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg), exit status $status"
    } > "$OUT/$name.txt" 2>&1
    if grep -q '^# load after: .*, exit status 0$' "$OUT/$name.txt"; then
        tail -n 3 "$OUT/$name.txt"
    else
        failed+=("$name")
        tail -n 20 "$OUT/$name.txt"
    fi
}

{
    echo "nproc: $(nproc)"
    grep -m1 'model name' /proc/cpuinfo || true
    grep -m1 -o -w 'avx2\|avx512f\|bmi2' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
    rustc --version
    python3 --version
    echo "load: $(cat /proc/loadavg)"
    git log -1 --format='tree at %H' 2>/dev/null || true
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

echo "== building (release)"
cargo build --quiet --release -p urlspec-cli --bin urlspec
cargo build --quiet --release -p urlspec-links --example gen_warc
gen_warc="$target/release/examples/gen_warc"
# The benchmark crate builds Ada (C++) and every peer: only when a step
# needs it.
if wanted compare || wanted counts || wanted scaling; then
    cargo build --quiet --release -p urlspec-bench --bin compare --bin scaling
fi

# A venv for the Python steps, made once.
venv="$target/bench-venv"
python_env() {
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
    fi
    # The urlspec package's build shares its compiled dependencies with
    # the package's other builds.
    CARGO_TARGET_DIR="$target/urlspec-py" "$venv/bin/python" -m pip install --quiet "$@"
}

rounds() { if quick; then echo 1; else echo "$1"; fi; }

compare_all() {
    if quick; then
        "$compare" --rounds 1 --round-ms 20
    else
        "$compare"
    fi
}
step compare compare_all

# callgrind's instructions per item of one pass of one contender, less the
# pass that runs none (or only prepares the bases).
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$compare" --pass "$1" 2>&1 |
        awk '/Collected/ {c=$4} /^items/ {n=$2} END {print c, n}'
}
count() { # SECTION CORPUS NAME [BASELINE]
    local base n x
    read -r base n <<< "$(ir "$1:$2:${4:--}")"
    read -r x _ <<< "$(ir "$1:$2:$3")"
    if [ -z "${n:-}" ] || [ -z "${x:-}" ] || [ "$n" -eq 0 ]; then
        echo "$1 $2 $3: not counted (compare --pass failed)"
        return 1
    fi
    echo "$1 $2 $3: $(( (x - base) / n )) instructions per item"
}
counts() {
    local corpora=(kasztp userbait) pairs=(relative-pairs cc-relative-10k)
    if quick; then
        count parse kasztp urlspec-rfc3986+valid
        count resolve-prepared cc-relative-10k urlspec-rfc3986 urlspec-rfc3986/prepare
        return
    fi
    for c in "${corpora[@]}"; do
        for n in urlspec-rfc3986+valid urlspec-rfc1808+valid urlspec-rfc3986 urlspec-rfc1808 \
            oxiri-unchecked fluent-uri oxiri iri-string url floor; do
            count parse "$c" "$n"
        done
    done
    for c in "${pairs[@]}"; do
        for n in urlspec-rfc3986 urlspec-rfc1808 urlspec-rfc3986-base-once oxiri fluent-uri url-join; do
            count resolve "$c" "$n"
        done
        for n in urlspec-rfc3986 urlspec-rfc1808 urlspec-rfc3986-strict urlspec-rfc1808-strict \
            oxiri fluent-uri url-join; do
            count resolve-prepared "$c" "$n" "$n/prepare"
        done
        for n in urlspec-whatwg ada-url url; do
            count whatwg-resolve "$c" "$n"
        done
    done
    for c in "${corpora[@]}"; do
        for n in urlspec-whatwg ada-url url; do
            count whatwg-parse "$c" "$n"
        done
        for case in escape-query escape-segment unescape unescape-escaped; do
            count "$case" "$c" urlspec
            count "$case" "$c" percent-encoding
        done
    done
}
step counts counts

scaling() {
    if quick; then
        "$target/release/scaling" --samples 1 --sample-ms 1
    else
        "$target/release/scaling"
    fi
}
step scaling scaling

pairs() {
    ROUNDS="$(rounds 30)" python3 bench/cli/resolve_pairs.py "$urlspec"
}
step pairs pairs

pages=3000
if quick; then pages=60; fi
links() {
    python_env fastwarc warcio brotlipy selectolax ada-url
    "$gen_warc" "$work/crawl.warc.gz" "$pages" "$data"
    "$gen_warc" "$work/gen-200.warc.gz" 200 "$data"
    PYTHON="$venv/bin/python" ROUNDS="$(rounds 7)" \
        python3 bench/cli/links_end_to_end.py "$work/crawl.warc.gz" \
        --callgrind "$work/gen-200.warc.gz" --urlspec "$urlspec"
}
step links links

peak() {
    [ -f "$work/crawl.warc.gz" ] || "$gen_warc" "$work/crawl.warc.gz" "$pages" "$data"
    python3 bench/cli/peak_memory.py --bin "$urlspec" "$work/crawl.warc.gz"
}
step peak peak

files() {
    local n each i
    for n in 30 100 300; do
        rm -rf "$work/f$n"
        mkdir -p "$work/f$n"
        each=$(( pages / n ))
        [ "$each" -gt 0 ] || each=1
        for i in $(seq -w 0 $(( n - 1 ))); do
            "$gen_warc" "$work/f$n/crawl-$i.warc.gz" "$each" "$data"
        done
        echo "-- $n files of $each pages"
        THREADS="1 2" PYTHON=none ROUNDS="$(rounds 21)" \
            python3 bench/cli/links_threads.py "$work/f$n"/*.warc.gz "$urlspec"
    done
}
step files files

memory() {
    URLSPEC_RELEASE_BIN="$urlspec" cargo test --release -p urlspec-cli --test it \
        links_memory:: -- --ignored --nocapture --test-threads 1
}
if [ "$MEMORY" = 1 ]; then step memory memory; fi

python_all() {
    python_env ./crates/urlspec-py pyarrow can-ada ada-url yarl
    local py="$venv/bin/python"
    "$py" bench/python/bench_urllib.py --repeat "$(rounds 5)"
    "$py" bench/python/bench_peers.py --repeat "$(rounds 3)"
    "$py" bench/python/bench_compat.py --rounds "$(rounds 7)"
    if quick; then
        "$py" bench/python/callgrind_urljoin.py --pairs 200 urllib compat
        "$py" bench/python/callgrind_split.py --urls 200 urllib-urlsplit compat-urlsplit
        "$py" bench/python/callgrind_compat.py --calls 200 --only urlsplit quote
    else
        "$py" bench/python/callgrind_compat.py
        "$py" bench/python/callgrind_urljoin.py --pairs 10000 urllib compat
        "$py" bench/python/callgrind_split.py urllib-urlsplit urllib-urlparse compat-urlsplit compat-urlparse
        "$py" bench/python/callgrind_batch.py rl ra pl pa
    fi
}
step python python_all

spark() {
    python_env ./crates/urlspec-py pyarrow "pyspark>=4,<5" "pandas<3"
    if quick; then
        "$venv/bin/python" examples/spark/bench_links_job.py --files 2 --pages 20 --rounds 1 \
            --cores 1 --workers 0 --transfers arrow
    else
        "$venv/bin/python" examples/spark/bench_links_job.py --files 8 --pages 1500 --rounds 3 \
            --cores 1,2 --workers 2 --transfers arrow
    fi
}
step spark spark

step serve cargo bench --quiet -p urlspec-cli --bench serve_load

parsers() {
    bash bench/parsers/throughput.sh "$data/kasztp.txt" "$(rounds 5)"
}
step parsers parsers

echo "== results in $OUT"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "failed: ${failed[*]}" >&2
    exit 1
fi
