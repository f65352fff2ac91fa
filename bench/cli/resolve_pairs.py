#!/usr/bin/env python3
"""CLI batch benchmark: `urlspec resolve --pairs` over
relative-pairs.tsv against a Python `urljoin` loop over the same file
(urljoin_pairs.py beside this script), both reading the file on standard
input and writing to /dev/null.

    python3 bench/cli/resolve_pairs.py [URLSPEC_BINARY ...]

The commands are run alternately, one run each per round (every binary,
then the Python loop), so that each ratio compares runs made under the
same load on a shared machine. The wall time of each run is measured
around the process (spawn to exit); the spawn of a trivial process
(`true`), measured the same way, is subtracted, as hyperfine subtracts
its shell. Prints the median time of each command and the median of the
per-round ratios. Without arguments, times target/release/urlspec.

Environment: ROUNDS (default 30), URLSPEC_DATA (the corpus directory,
default ../shared/data/urls beside the workspace).
"""

import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
data = os.environ.get(
    "URLSPEC_DATA", os.path.join(root, "..", "shared", "data", "urls")
)
pairs = os.path.join(data, "relative-pairs.tsv")
rounds = int(os.environ.get("ROUNDS", "30"))
bins = sys.argv[1:] or [os.path.join(root, "target", "release", "urlspec")]
python_cmd = [sys.executable, os.path.join(here, "urljoin_pairs.py")]


def run(argv):
    """Seconds from spawning `argv` to its exit, `pairs` on its stdin."""
    with open(pairs, "rb") as stdin:
        start = time.perf_counter()
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - start


with open(pairs, "rb") as f:
    count = sum(1 for _ in f)
print(f"{count} pairs from {pairs}; {rounds} rounds")

# Warm up the page cache and the binaries.
for argv in [[b, "resolve", "--pairs"] for b in bins] + [python_cmd]:
    run(argv)
spawn = statistics.median(run(["true"]) for _ in range(30))

times = {b: [] for b in bins}
times["python"] = []
for _ in range(rounds):
    for b in bins:
        times[b].append(run([b, "resolve", "--pairs"]) - spawn)
    times["python"].append(run(python_cmd) - spawn)

py = times["python"]
print(f"spawn (subtracted): {spawn * 1e3:.2f} ms")
print(f"python urljoin loop: median {statistics.median(py) * 1e3:.1f} ms")
for b in bins:
    ratios = [p / t for p, t in zip(py, times[b])]
    print(f"{b}: median {statistics.median(times[b]) * 1e3:.2f} ms, "
          f"min {min(times[b]) * 1e3:.2f} ms; "
          f"median ratio {statistics.median(ratios):.1f}x python "
          f"(quartiles {statistics.quantiles(ratios, n=4)[0]:.1f}"
          f"-{statistics.quantiles(ratios, n=4)[2]:.1f})")
