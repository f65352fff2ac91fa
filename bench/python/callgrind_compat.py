"""Instructions per call of each form of bench_compat.py, by callgrind:
urllib.parse's function against urlspec.compat's.

    python bench/python/callgrind_compat.py [--corpora DIR] [--calls N] [--only NAME ...]

Each form is run twice under ``valgrind --tool=callgrind`` per function
(urllib's, compat's): its loop (``bench_compat.loop``) over the first N
items of the form (default 5,000), after the same loop over 200 of them,
or the warm-up alone; the difference of the two totals over N is the count
per call, the loop's own bytecode and the freeing of each result
included. Both caches (urllib's ``lru_cache`` and compat's memo) are
cleared before the counted loop. ``PYTHONHASHSEED=0``. Instruction counts
do not move with the machine's load, as wall-clock times do; cache
misses are not counted.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve()


def work(corpora, index, who, n, counted):
    import bench_compat
    import corpora as c

    try:
        _, kasztp = c.load(corpora)
    except OSError:
        kasztp = None
    name, _, call, items = bench_compat.forms(kasztp)[index]
    f = bench_compat.URLLIB[name] if who == "urllib" else getattr(bench_compat.compat, name)
    run = bench_compat.loop(call)
    run(f, items[:200])
    bench_compat.clear()
    if counted:
        run(f, items[:n])


def count(corpora, index, who, n, counted):
    env = dict(os.environ, PYTHONHASHSEED="0")
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, str(HERE),
         "--corpora", str(corpora), "--work", str(index), who, str(n), str(int(counted))],
        capture_output=True, text=True, check=True, env=env,
    )
    return int(re.search(r"Collected : (\d+)", p.stderr).group(1))


def main():
    sys.path.insert(0, str(HERE.parent))
    import bench_compat
    import corpora as c

    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(c.DEFAULT))
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--work", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.work:
        index, who, n, counted = args.work
        work(args.corpora, int(index), who, int(n), counted == "1")
        return
    try:
        _, kasztp = c.load(args.corpora)
    except OSError:
        kasztp = None
    print("| function | form | urllib instructions/call | compat instructions/call | urllib / compat |")
    print("|---|---|---|---|---|")
    for index, (name, form, _, items) in enumerate(bench_compat.forms(kasztp)):
        if args.only and name not in args.only:
            continue
        n = min(args.calls, len(items))
        per = {}
        for who in ("urllib", "compat"):
            per[who] = (count(args.corpora, index, who, n, True) - count(args.corpora, index, who, n, False)) / n
        print(f"| {name} | {form} | {per['urllib']:,.0f} | {per['compat']:,.0f} | "
              f"{per['urllib'] / per['compat']:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
