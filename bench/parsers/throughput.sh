#!/usr/bin/env bash
# Each parser profile of urlspec-parsers against the real implementation it
# follows, on one file of URLs: URLs a second, one process each, one after
# the other in one run (so that the machine's load is alike for all).
#
#   bash bench/parsers/throughput.sh [FILE] [ROUNDS]
#
# FILE defaults to ../shared/data/urls/kasztp.txt beside the repository,
# ROUNDS to 20 (each program runs as many untimed rounds first where its
# bench mode does). Prints one TSV line per profile: the profile, its URLs
# a second, the runtime's, and the runtime's name and release. The runtimes
# are those the differential test runs (go, java, cc with libcurl, php,
# node, ruby, python3; urllib3 from target/oracle-venv, which .ci/run
# makes). rust-url and rust-http call the crates themselves: no runtime.
set -euo pipefail
cd "$(dirname "$0")/../.."
file="${1:-../shared/data/urls/kasztp.txt}"
rounds="${2:-20}"
oracles=crates/urlspec-parsers/oracles
build=target/parsers-bench
mkdir -p "$build"

cargo build --quiet --release -p urlspec-parsers --example profile_throughput
profile=target/release/examples/profile_throughput
GOCACHE="$(pwd)/$build/gocache" GOPATH="$(pwd)/$build/gopath" GOPROXY=off \
    GOTOOLCHAIN=local GOFLAGS= CGO_ENABLED=0 \
    go build -o "$build/go-oracle" "$oracles/go.go"
cc -O2 -o "$build/curl-oracle" "$oracles/curl.c" -lcurl
python="${URLSPEC_ORACLE_PYTHON:-target/oracle-venv/bin/python}"

# The URLs a second in a line of JSON (`urls_per_second`) or of text
# (`N URLs/s`).
rate() {
    sed -n -e 's/.*"urls_per_second": *\([0-9.]*\).*/\1/p' \
        -e 's/.*: [0-9]* URLs in .*: \([0-9]*\) URLs\/s.*/\1/p' | head -n1
}

# urllib.parse.urlsplit and urllib3's parse_url, timed as the other
# oracles time their calls: the components read, the file read before.
python_bench() {
    "$1" - "$file" "$rounds" "$2" <<'PY'
import sys, time, platform
file, rounds, which = sys.argv[1], int(sys.argv[2]), sys.argv[3]
urls = open(file, encoding="utf-8", errors="surrogateescape").read().splitlines()
if which == "urllib3":
    from urllib3.util import parse_url
    def one(u):
        p = parse_url(u)
        return p.host, p.port, p.auth
else:
    from urllib.parse import urlsplit
    def one(u):
        s = urlsplit(u)
        return s.hostname, s.port, s.username
def run():
    ok = 0
    for u in urls:
        try:
            one(u)
            ok += 1
        except Exception:
            pass
    return ok
for _ in range(rounds):
    run()
start = time.perf_counter()
for _ in range(rounds):
    run()
seconds = time.perf_counter() - start
print(f'{{"runtime": "Python {platform.python_version()}", "urls_per_second": {len(urls) * rounds / seconds:.0f}}}')
PY
}

runtime_of() {
    case "$1" in
        python-urllib) python_bench python3 urllib ;;
        python-urllib3) python_bench "$python" urllib3 ;;
        go) "$build/go-oracle" -bench "$file" "$rounds" ;;
        java) java "$oracles/java.java" -bench "$file" "$rounds" ;;
        curl) "$build/curl-oracle" -bench "$file" "$rounds" ;;
        php) php "$oracles/php.php" --bench "$file" "$rounds" ;;
        node-legacy) node "$oracles/node_legacy.js" --bench "$file" "$rounds" ;;
        ruby) ruby "$oracles/ruby.rb" --bench "$file" "$rounds" ;;
        *) echo "" ;;
    esac
}

runtime_name() {
    case "$1" in
        python-urllib) python3 --version ;;
        python-urllib3) "$python" -c 'import platform, urllib3; print("urllib3", urllib3.__version__, "on Python", platform.python_version())' ;;
        go) go version | cut -d' ' -f3 ;;
        java) java -version 2>&1 | head -n1 | cut -d'"' -f2 | sed 's/^/OpenJDK /' ;;
        curl) curl-config --version ;;
        php) php -r 'echo "PHP ", PHP_VERSION;' ;;
        node-legacy) echo "Node $(node --version)" ;;
        ruby) ruby -e 'print "Ruby ", RUBY_VERSION' ;;
        *) echo "(the crate itself)" ;;
    esac
}

echo "# $(wc -l < "$file") URLs of $file, $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'profile\tprofile URLs/s\truntime URLs/s\truntime\n'
for p in python-urllib python-urllib3 rust-url rust-http go java curl php node-legacy ruby; do
    ours=$("$profile" "$p" "$file" "$rounds" | rate)
    theirs=$(runtime_of "$p" | rate)
    printf '%s\t%s\t%s\t%s\n' "$p" "$ours" "${theirs:--}" "$(runtime_name "$p")"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
