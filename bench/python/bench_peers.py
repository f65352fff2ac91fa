"""urlspec against the fastest Python URL packages, in one run.

    python bench/python/bench_peers.py [--corpora DIR] [--repeat N]

The peers (from PyPI; a missing one leaves its rows out, and the run says
so): ``can_ada`` and ``ada_url``, two bindings of Ada, the WHATWG parser
Node.js uses, and ``yarl`` (aiohttp's URL type). Every row runs in the
same process, one after the other, so machine load hits all alike; each
row is the best of N rounds, in ns per item.

* parse, single calls over the 48,010 URLs of kasztp.txt, each in the
  same plain loop (results dropped): ``urlspec.parse(u, "rfc3986")``,
  ``can_ada.parse(u)``, ``ada_url.URL(u)``, ``yarl.URL(u)``; beside them
  ``urlspec.compat.urlsplit`` and ``urlparse`` against ``urllib.parse``'s
  (their lru_cache cleared before each round, as yarl's caches are).
* parse, batches: ``urlspec.parse_many(urls)`` (a list of URL objects)
  against each peer's list comprehension (none has a batch call).
* join, single calls over the 65,243 pairs of relative-pairs.tsv:
  ``urlspec.resolve(b, r, "rfc3986")`` and ``urlspec.compat.urljoin``
  against ``ada_url.join_url(b, r)`` and ``str(yarl.URL(b).join(yarl.URL(r)))``
  (``can_ada.parse`` takes no base: can_ada has no join row).
* join, batches: ``urlspec.resolve_many(bases, refs)`` against the peers'
  list comprehensions.

The WHATWG parsers (Ada) and yarl do different work from urlspec's RFC
3986 split (they normalise hosts, paths and escapes); the rows compare
what a Python program pays to get a parsed URL or a joined string.

Prints a Markdown table: ns per item, and each peer's time over urlspec's
for the same row group ("peer / urlspec": above 1 means urlspec is
faster).
"""

from __future__ import annotations

import argparse
import importlib
import time
import urllib.parse as up

import corpora
import urlspec
from urlspec import compat



def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"{name} is not installed: its rows are left out")
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(corpora.DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    pairs, urls = corpora.load(args.corpora)
    bases = [b for b, _ in pairs]
    refs = [r for _, r in pairs]
    can_ada, ada_url, yarl = optional("can_ada"), optional("ada_url"), optional("yarl")
    r = args.repeat

    def quiet(f):
        """f, with a refusal counted as an answer (peers raise on URLs
        they refuse; urlspec's RFC 3986 split never fails)."""

        def g(*a):
            try:
                return f(*a)
            except ValueError:
                return None

        return g

    def clear_yarl():
        if yarl is not None and hasattr(yarl, "cache_clear"):
            yarl.cache_clear()

    def clear_urllib():
        if hasattr(up.urlsplit, "cache_clear"):
            up.urlsplit.cache_clear()

    # (group, name, items, seconds)
    rows = []

    def row(group, name, n, fn, before=None):
        def run():
            if before:
                before()
            fn()

        rows.append((group, name, n, best(run, r)))

    parse = urlspec.parse
    row("parse, single calls", "urlspec.parse", len(urls), lambda: [parse(u, "rfc3986") for u in urls])
    if can_ada:
        p = quiet(can_ada.parse)
        row("parse, single calls", "can_ada.parse", len(urls), lambda: [p(u) for u in urls])
    if ada_url:
        p = quiet(ada_url.URL)
        row("parse, single calls", "ada_url.URL", len(urls), lambda: [p(u) for u in urls])
    if yarl:
        p = quiet(yarl.URL)
        row("parse, single calls", "yarl.URL", len(urls), lambda: [p(u) for u in urls], clear_yarl)

    row("parse, batch", "urlspec.parse_many", len(urls), lambda: urlspec.parse_many(urls, spec="rfc3986"))
    if can_ada:
        p = quiet(can_ada.parse)
        row("parse, batch", "can_ada.parse (list)", len(urls), lambda: list(map(p, urls)))
    if ada_url:
        p = quiet(ada_url.URL)
        row("parse, batch", "ada_url.URL (list)", len(urls), lambda: list(map(p, urls)))
    if yarl:
        p = quiet(yarl.URL)
        row("parse, batch", "yarl.URL (list)", len(urls), lambda: list(map(p, urls)), clear_yarl)

    c_split, c_parse = compat.urlsplit, compat.urlparse
    row("urlsplit", "urlspec.compat.urlsplit", len(urls), lambda: [c_split(u) for u in urls])
    row("urlsplit", "urllib.parse.urlsplit", len(urls), lambda: [up.urlsplit(u) for u in urls], clear_urllib)
    row("urlparse", "urlspec.compat.urlparse", len(urls), lambda: [c_parse(u) for u in urls])
    row("urlparse", "urllib.parse.urlparse", len(urls), lambda: [up.urlparse(u) for u in urls], clear_urllib)

    resolve, c_join = urlspec.resolve, compat.urljoin
    row("join, single calls", "urlspec.resolve", len(pairs), lambda: [resolve(b, x, "rfc3986") for b, x in pairs])
    row("join, single calls", "urlspec.compat.urljoin", len(pairs), lambda: [c_join(b, x) for b, x in pairs])
    if ada_url:
        j = quiet(ada_url.join_url)
        row("join, single calls", "ada_url.join_url", len(pairs), lambda: [j(b, x) for b, x in pairs])
    if yarl:
        URL = yarl.URL

        def yjoin(b, x):
            try:
                return str(URL(b).join(URL(x)))
            except ValueError:
                return None

        row("join, single calls", "yarl.URL.join", len(pairs), lambda: [yjoin(b, x) for b, x in pairs], clear_yarl)

    row("join, batch", "urlspec.resolve_many", len(pairs), lambda: urlspec.resolve_many(bases, refs, spec="rfc3986"))
    if ada_url:
        j = quiet(ada_url.join_url)
        row("join, batch", "ada_url.join_url (list)", len(pairs), lambda: list(map(j, bases, refs)))
    if yarl:
        row("join, batch", "yarl.URL.join (list)", len(pairs), lambda: list(map(yjoin, bases, refs)), clear_yarl)

    print(f"best of {r} rounds; peer / urlspec: the row's time over the group's first (urlspec) row")
    print()
    print("| group | call | items | ns/item | peer / urlspec |")
    print("|---|---|---:|---:|---:|")
    first = {}
    for group, name, n, t in rows:
        ns = t / n * 1e9
        first.setdefault(group, ns)
        print(f"| {group} | {name} | {n:,} | {ns:,.0f} | {ns / first[group]:.2f} |")


if __name__ == "__main__":
    main()
