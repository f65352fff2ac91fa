"""Instructions per call of urlsplit/urlparse, by callgrind: urllib against
urlspec.compat, and the floor any urllib-exact function has in that loop.

    python bench/python/callgrind_split.py [--corpora DIR] [--urls N] [WHAT ...]

WHAT (default all): urllib-urlsplit, urllib-urlparse (``urllib.parse``'s,
its cache cleared before the loop), compat-urlsplit, compat-urlparse
(``urlspec.compat``'s), and two floors: ``loop`` (the same loop calling
``id``, a builtin that makes nothing: the loop, the call and nothing else)
and ``free`` (dropping one by one N ``SplitResult`` objects of kasztp as
urllib makes them, new strings each, minus dropping N references to one
object: what freeing a urllib-exact result costs by itself). Each is run
twice under ``valgrind --tool=callgrind`` over the first N URLs of
kasztp.txt (default 20,000): 200 warm-up calls, then the plain loop of
bench_urllib.py (``for u in urls: f(u)``, in a function, the results
dropped) or not; the difference of the two totals over N is the count per
call, the loop's own bytecode and the freeing of each result included.
Instruction counts do not move with the machine's load, as wall-clock
times do; cache misses are not counted.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve()
WHATS = ("urllib-urlsplit", "urllib-urlparse", "compat-urlsplit", "compat-urlparse", "loop", "free")


def work(corpora: pathlib.Path, what: str, n: int, loop: bool) -> None:
    import urllib.parse

    from urlspec import compat

    urls = [line.rstrip("\n") for line in open(corpora / "kasztp.txt", encoding="utf-8") if line.strip()][:n]
    if what == "free":
        # Fresh strings for each result, as urllib makes them, built before
        # the count in both runs; with `loop` each result is dropped in
        # turn, else as many references to None are (the same bytecode,
        # nothing freed). The process then ends without freeing the rest.
        held = [urllib.parse.urlsplit(u + "#")._replace(fragment="") for u in urls]
        urllib.parse.clear_cache()
        nones = [None] * len(held)
        target = held if loop else nones
        for i in range(len(target)):
            target[i] = None
        print(len(urls), flush=True)
        os._exit(0)
    f = {
        "urllib-urlsplit": urllib.parse.urlsplit,
        "urllib-urlparse": urllib.parse.urlparse,
        "compat-urlsplit": compat.urlsplit,
        "compat-urlparse": compat.urlparse,
        "loop": id,
    }[what]
    for u in urls[:200]:
        f(u)
    if what.startswith("urllib"):
        urllib.parse.clear_cache()
    if loop:
        for u in urls:
            f(u)
    print(len(urls))


def count(corpora: pathlib.Path, what: str, n: int, loop: bool) -> tuple[int, int]:
    """(instructions, URLs) of one run of `work` under callgrind."""
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, str(HERE),
         "--corpora", str(corpora), "--work", what, str(n), str(int(loop))],
        capture_output=True, text=True, check=True,
    )
    return int(re.search(r"Collected : (\d+)", p.stderr).group(1)), int(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(HERE.parents[3] / "shared" / "data" / "urls"))
    ap.add_argument("--urls", type=int, default=20000)
    ap.add_argument("--work", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("whats", nargs="*", help=" ".join(WHATS))
    args = ap.parse_args()
    whats = args.whats or WHATS
    if set(whats) - set(WHATS):
        ap.error(f"choose among {' '.join(WHATS)}")
    corpora = pathlib.Path(args.corpora)
    if args.work:
        work(corpora, args.work[0], int(args.work[1]), args.work[2] == "1")
        return
    counts = {}
    for what in whats:
        without, n = count(corpora, what, args.urls, False)
        with_loop, _ = count(corpora, what, args.urls, True)
        counts[what] = (with_loop - without) / n
        print(f"{what}: {counts[what]:,.0f} instructions per call ({n} URLs)", flush=True)
    for name in ("urlsplit", "urlparse"):
        u, c = counts.get(f"urllib-{name}"), counts.get(f"compat-{name}")
        if u and c:
            print(f"urllib / compat {name}: {u / c:.1f}x")


if __name__ == "__main__":
    main()
