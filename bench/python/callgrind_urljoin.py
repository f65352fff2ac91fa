"""Instructions per call of urljoin, by callgrind: urllib against urlspec.

    python bench/python/callgrind_urljoin.py [--corpora DIR] [--pairs N] [FUNC ...]

FUNC (default all): urllib (``urllib.parse.urljoin``), compat
(``urlspec.compat.urljoin``), rfc3986 (``urlspec.rfc3986.urljoin``). Each
is run twice under ``valgrind --tool=callgrind`` over the first N pairs of
relative-pairs.tsv (default: all 65,243): 200 warm-up calls, then the plain
loop of bench_urllib.py (``for b, r in pairs: f(b, r)``, in a function, the
results dropped) or not; the difference of the two totals over N is the
count per call, the loop's own bytecode and the freeing of each result
included (as in bench_urllib.py's timing). Instruction counts do not move
with the machine's load, as wall-clock times do; cache misses are not
counted.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve()
FUNCS = ("urllib", "compat", "rfc3986")


def work(corpora: pathlib.Path, func: str, n: int, loop: bool) -> None:
    import urllib.parse

    from urlspec import compat, rfc3986

    f = {"urllib": urllib.parse.urljoin, "compat": compat.urljoin, "rfc3986": rfc3986.urljoin}[func]
    pairs = []
    for line in open(corpora / "relative-pairs.tsv", encoding="utf-8"):
        base, sep, ref = line.rstrip("\n").partition("\t")
        if sep:
            pairs.append((base, ref))
    pairs = pairs[:n]
    for b, r in pairs[:200]:
        f(b, r)
    if loop:
        for b, r in pairs:
            f(b, r)
    print(len(pairs))


def count(corpora: pathlib.Path, func: str, n: int, loop: bool) -> tuple[int, int]:
    """(instructions, pairs) of one run of `work` under callgrind."""
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, str(HERE),
         "--corpora", str(corpora), "--work", func, str(n), str(int(loop))],
        capture_output=True, text=True, check=True,
    )
    return int(re.search(r"Collected : (\d+)", p.stderr).group(1)), int(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(HERE.parents[3] / "shared" / "data" / "urls"))
    ap.add_argument("--pairs", type=int, default=1 << 30)
    ap.add_argument("--work", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("funcs", nargs="*", help=" ".join(FUNCS))
    args = ap.parse_args()
    funcs = args.funcs or FUNCS
    if set(funcs) - set(FUNCS):
        ap.error(f"functions are among {' '.join(FUNCS)}")
    corpora = pathlib.Path(args.corpora)
    if args.work:
        work(corpora, args.work[0], int(args.work[1]), args.work[2] == "1")
        return
    counts = {}
    for func in funcs:
        without, n = count(corpora, func, args.pairs, False)
        with_loop, _ = count(corpora, func, args.pairs, True)
        counts[func] = (with_loop - without) / n
        print(f"{func}: {counts[func]:,.0f} instructions per call ({n} pairs)", flush=True)
    if "urllib" in counts:
        for func in funcs:
            if func != "urllib":
                print(f"urllib / {func}: {counts['urllib'] / counts[func]:.1f}x")


if __name__ == "__main__":
    main()
