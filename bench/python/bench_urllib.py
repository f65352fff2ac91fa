"""urlspec against urllib.parse, in one run on the same inputs.

    python bench/python/bench_urllib.py [--corpora DIR] [--repeat N]

Single calls: urlspec.compat.urljoin and urlspec.resolve against
urllib.parse.urljoin over relative-pairs.tsv; urlspec.compat.urlsplit and
urlspec.parse against urllib.parse.urlsplit over kasztp.txt. Batch calls:
resolve_many and parse_many over a list and over a pyarrow array, against
the urllib loop. Prints a Markdown table; the best of N runs per row.
"""

from __future__ import annotations

import argparse
import pathlib
import time
import urllib.parse as up

import urlspec
from urlspec import compat

HERE = pathlib.Path(__file__).resolve()


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(HERE.parents[3] / "shared" / "data" / "urls"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    d = pathlib.Path(args.corpora)
    pairs = []
    for line in open(d / "relative-pairs.tsv", encoding="utf-8"):
        base, sep, ref = line.rstrip("\n").partition("\t")
        if sep:
            pairs.append((base, ref))
    bases = [b for b, _ in pairs]
    refs = [r for _, r in pairs]
    urls = [l.rstrip("\n") for l in open(d / "kasztp.txt", encoding="utf-8") if l.strip()]
    n_join, n_split = len(pairs), len(urls)
    urljoin, urlsplit = up.urljoin, up.urlsplit
    c_join, c_split, resolve, parse = compat.urljoin, compat.urlsplit, urlspec.resolve, urlspec.parse
    r = args.repeat

    # urlsplit caches its last results (functools.lru_cache): clear it so
    # that each run measures the parsing of the whole corpus.
    def clear():
        getattr(up, "_urlsplit", urlsplit).__wrapped__ if False else None
        if hasattr(urlsplit, "cache_clear"):
            urlsplit.cache_clear()

    def ujoin():
        for b, x in pairs:
            urljoin(b, x)

    def usplit():
        clear()
        for u in urls:
            urlsplit(u)

    rows = []
    t_join = best(ujoin, r)
    t_split = best(usplit, r)
    rows.append(("urllib.parse.urljoin (loop)", "relative-pairs", n_join, t_join, t_join))
    rows.append(("urlspec.compat.urljoin", "relative-pairs", n_join,
                 best(lambda: [c_join(b, x) for b, x in pairs], r), t_join))
    rows.append(("urlspec.resolve(spec='rfc3986')", "relative-pairs", n_join,
                 best(lambda: [resolve(b, x, "rfc3986") for b, x in pairs], r), t_join))
    rows.append(("urlspec.resolve_many (list)", "relative-pairs", n_join,
                 best(lambda: urlspec.resolve_many(bases, refs, spec="rfc3986"), r), t_join))
    rows.append(("urllib.parse.urlsplit (loop)", "kasztp", n_split, t_split, t_split))
    rows.append(("urlspec.compat.urlsplit", "kasztp", n_split,
                 best(lambda: [c_split(u) for u in urls], r), t_split))
    rows.append(("urlspec.parse(spec='rfc3986')", "kasztp", n_split,
                 best(lambda: [parse(u, "rfc3986") for u in urls], r), t_split))
    rows.append(("urlspec.parse_many (list)", "kasztp", n_split,
                 best(lambda: urlspec.parse_many(urls, spec="rfc3986"), r), t_split))
    try:
        import pyarrow as pa
    except ImportError:
        pa = None
        print("pyarrow is not installed: the Arrow rows are left out")
    if pa is not None:
        a_bases, a_refs, a_urls = pa.array(bases), pa.array(refs), pa.array(urls)
        rows.append(("urlspec.resolve_many (Arrow)", "relative-pairs", n_join,
                     best(lambda: urlspec.resolve_many(a_bases, a_refs, spec="rfc3986"), r), t_join))
        rows.append(("urlspec.parse_many (Arrow)", "kasztp", n_split,
                     best(lambda: urlspec.parse_many(a_urls, spec="rfc3986"), r), t_split))
    print("| call | corpus | items | ns/item | vs urllib |")
    print("|---|---|---|---|---|")
    for name, corpus, n, t, ref in rows:
        print(f"| {name} | {corpus} | {n} | {t / n * 1e9:,.0f} | {ref / t:.1f}× |")


if __name__ == "__main__":
    main()
