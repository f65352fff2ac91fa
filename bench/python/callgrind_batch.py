"""Instructions per item of the Python package's batch calls, by callgrind.

    python bench/python/callgrind_batch.py [--corpora DIR] [ROW ...]

Wall-clock times on a shared machine move with its load; instruction
counts do not. Each ROW (default: all) is run twice under
``valgrind --tool=callgrind``, one warm-up call then 1 and then 3 more
calls; the difference of the two totals over 2 calls and the corpus size
is the count per item of one call in a warm process (free lists and
pools filled; the inputs, imports and warm-up cancel out). Page faults
and cache misses are not counted: a change in memory use still needs
``bench_urllib.py``.

Rows: pl (parse_many over a list), pa (parse_many over Arrow), pv (the
same with string_view=True), rl (resolve_many over lists), ra
(resolve_many over Arrow), p1 (a parse loop). kasztp.txt for parse,
relative-pairs.tsv for resolve, as in bench_urllib.py.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve()
ROWS = ("pl", "pa", "pv", "rl", "ra", "p1")


def work(corpora: pathlib.Path, row: str, rounds: int) -> None:
    import pyarrow as pa

    import urlspec

    urls = [l.rstrip("\n") for l in open(corpora / "kasztp.txt", encoding="utf-8") if l.strip()]
    pairs = [l.rstrip("\n").split("\t") for l in open(corpora / "relative-pairs.tsv", encoding="utf-8")]
    pairs = [p for p in pairs if len(p) == 2]
    bases = [b for b, _ in pairs]
    refs = [r for _, r in pairs]
    a_urls, a_bases, a_refs = pa.array(urls), pa.array(bases), pa.array(refs)
    f = {
        "pl": lambda: urlspec.parse_many(urls, spec="rfc3986"),
        "pa": lambda: urlspec.parse_many(a_urls, spec="rfc3986"),
        "pv": lambda: urlspec.parse_many(a_urls, spec="rfc3986", string_view=True),
        "rl": lambda: urlspec.resolve_many(bases, refs, spec="rfc3986"),
        "ra": lambda: urlspec.resolve_many(a_bases, a_refs, spec="rfc3986"),
        "p1": lambda: [urlspec.parse(u, "rfc3986") for u in urls],
    }[row]
    f()
    for _ in range(rounds):
        f()
    print(len(refs) if row.startswith("r") else len(urls))


def count(corpora: pathlib.Path, row: str, rounds: int) -> tuple[int, int]:
    """(instructions, items) of one run of `work` under callgrind."""
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, str(HERE), "--corpora", str(corpora), "--work", row, str(rounds)],
        capture_output=True, text=True, check=True,
    )
    return int(re.search(r"Collected : (\d+)", p.stderr).group(1)), int(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(HERE.parents[3] / "shared" / "data" / "urls"))
    ap.add_argument("--work", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("rows", nargs="*", help=" ".join(ROWS))
    args = ap.parse_args()
    rows = args.rows or ROWS
    if set(rows) - set(ROWS):
        ap.error(f"rows are among {' '.join(ROWS)}")
    corpora = pathlib.Path(args.corpora)
    if args.work:
        work(corpora, args.work[0], int(args.work[1]))
        return
    for row in rows:
        one, n = count(corpora, row, 1)
        three, _ = count(corpora, row, 3)
        print(f"{row}: {(three - one) / 2 / n:.0f} instructions per item")


if __name__ == "__main__":
    main()
