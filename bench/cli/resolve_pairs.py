#!/usr/bin/env python3
"""CLI batch benchmark (issue 8): `urlspec resolve --pairs` over
relative-pairs.tsv against a Python `urljoin` loop over the same file
(urljoin_pairs.py beside this script), both reading the file on standard
input and writing to /dev/null.

    python3 bench/cli/resolve_pairs.py [URLSPEC_BINARY ...]

Runs several hyperfine rounds; each round times every binary and the
Python loop one after the other, so each ratio comes from commands timed
under the same load. Prints each round's medians and the median of the
per-round ratios. Without arguments, times target/release/urlspec.

Environment: ROUNDS (default 5), RUNS per command per round (default 15),
URLSPEC_DATA (the corpus directory, default ../shared/data/urls beside
the workspace).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
data = os.environ.get(
    "URLSPEC_DATA", os.path.join(root, "..", "shared", "data", "urls")
)
pairs = os.path.join(data, "relative-pairs.tsv")
rounds = int(os.environ.get("ROUNDS", "5"))
runs = os.environ.get("RUNS", "15")
bins = sys.argv[1:] or [os.path.join(root, "target", "release", "urlspec")]
python_cmd = f"{sys.executable} {os.path.join(here, 'urljoin_pairs.py')} < {pairs}"

with open(pairs, "rb") as f:
    count = sum(1 for _ in f)
print(f"{count} pairs from {pairs}; {rounds} rounds of {runs} runs each")

ratios = {b: [] for b in bins}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(1, rounds + 1):
        out = os.path.join(tmp, f"r{r}.json")
        argv = ["hyperfine", "--style", "none", "--warmup", "2",
                "--runs", runs, "--export-json", out]
        for b in bins:
            argv += [f"{b} resolve --pairs < {pairs}"]
        argv += [python_cmd]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        results = json.load(open(out))["results"]
        py = results[-1]["median"]
        row = [f"round {r}: python {py * 1e3:6.1f} ms"]
        for b, res in zip(bins, results):
            ratio = py / res["median"]
            ratios[b].append(ratio)
            row.append(f"{b}: {res['median'] * 1e3:6.2f} ms ({ratio:4.1f}x)")
        print("  ".join(row), flush=True)

for b in bins:
    rs = ", ".join(f"{x:.1f}" for x in ratios[b])
    print(f"{b}: median {statistics.median(ratios[b]):.1f}x python ({rs})")
