#!/usr/bin/env python3
"""Peak memory of `urlspec links` builds on the same inputs, in one run.

    python3 bench/cli/peak_memory.py [--rounds 2] [--threads 1,2] --bin A [--bin B] INPUT...

Each binary is first copied into one temporary directory: the pages of a
binary that the page cache holds count in its resident memory when they
are mapped, and a file just written has all of them there (1-1.5 MB more
for this command than one read long ago). The commands alternate; for each
one the peak resident memory (VmHWM) and the peak of its anonymous part
(RssAnon, sampled every 2 ms: the heap and stacks, not the code) are
given as the range over the rounds, in KB.
"""

import argparse
import os
import shutil
import subprocess
import tempfile
import time


def peak(command):
    """(VmHWM, the highest RssAnon seen) of `command`, in KB."""
    p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    anon = hwm = 0
    status = f"/proc/{p.pid}/status"
    while p.poll() is None:
        try:
            with open(status) as f:
                fields = dict(line.split(":", 1) for line in f)
            anon = max(anon, int(fields["RssAnon"].split()[0]))
            hwm = max(hwm, int(fields["VmHWM"].split()[0]))
        except (OSError, KeyError, ValueError):
            pass  # between exit and reaping
        time.sleep(0.002)
    return hwm, anon


def span(values):
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", default="1,2", help="comma-separated values of -j")
    ap.add_argument("--bin", dest="bins", action="append", required=True, help="a urlspec binary (repeat)")
    ap.add_argument("inputs", nargs="+", metavar="INPUT")
    args = ap.parse_args()
    bins, inputs = args.bins, args.inputs
    threads = [int(t) for t in args.threads.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for i, b in enumerate(bins):
            copy = os.path.join(tmp, f"{i}-{os.path.basename(b)}")
            shutil.copy2(b, copy)
            copies.append(copy)
        seen = {}
        for _ in range(args.rounds):
            for path in inputs:
                for j in threads:
                    for b, copy in zip(bins, copies):
                        hwm, anon = peak([copy, "links", "-j", str(j), "-o", "tsv", path])
                        key = (os.path.basename(path), j, b)
                        seen.setdefault(key, []).append((hwm, anon))
    print("| input | -j | binary | peak KB | peak anonymous KB |")
    print("|---|---:|---|---:|---:|")
    for (path, j, b), runs in seen.items():
        print(f"| {path} | {j} | {b} | {span([h for h, _ in runs])} | {span([a for _, a in runs])} |")


if __name__ == "__main__":
    main()
