"""urlspec against urllib.parse, in one run on the same inputs.

    python bench/python/bench_urllib.py [--corpora DIR] [--repeat N]

What is measured (wall time per item, the best of N rounds per row; every
row runs in the same process, one after the other, so machine load hits
urllib and urlspec alike):

* Single calls, each in the same plain loop (``for ...: f(...)``, results
  dropped, as a caller that uses each answer at once): urllib.parse.urljoin
  against urlspec.compat.urljoin (urllib's answers), urlspec.rfc3986.urljoin
  (RFC 3986's, what compat was before it answered as urllib) and
  urlspec.resolve over the 65,243 pairs of relative-pairs.tsv (every pair
  distinct); urllib.parse.urlsplit against urlspec.compat.urlsplit and
  urlparse, urlspec.rfc3986.urlsplit and urlspec.parse over the 48,010
  URLs of kasztp.txt. urllib's urlsplit keeps an lru_cache of its answers
  (Python 3.11+): it is cleared before each round, and 47,940 of the
  48,010 URLs are distinct, so the cache serves at most 70 calls a round
  (it favours urllib, if anything).
* Batch calls, one call per round over the whole corpus: resolve_many and
  parse_many over Python lists (the results as lists of str and of URL)
  and over pyarrow arrays (results as Arrow arrays; the arrays are built
  from the lists once, outside the timing), each against the same urllib
  loop. Each round's result is dropped (freed) inside its timing, before
  the next round. parse_many over a list makes one URL object per URL
  with every component's span computed; the URL objects a round frees are
  kept (up to 65,536) and reused by the next round, so the first round in
  the process, which has none to reuse, is slower: the "first round"
  column shows it for every row. parse_many over Arrow gives string
  component columns, the components copied out; the "string_view=True"
  row gives string_view columns pointing into the input array's data
  buffer instead (no copy of the values; many pyarrow compute functions
  need them cast to string first, a copy this row does not include).

Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
import urllib.parse as up

import corpora
import urlspec
from urlspec import compat, rfc3986



def best(fn, repeat):
    """(the best round, the first round), in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), times[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(corpora.DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    pairs, urls = corpora.load(args.corpora)
    bases = [b for b, _ in pairs]
    refs = [r for _, r in pairs]
    n_join, n_split = len(pairs), len(urls)
    urljoin, urlsplit, urlparse = up.urljoin, up.urlsplit, up.urlparse
    c_join, c_split, c_parse = compat.urljoin, compat.urlsplit, compat.urlparse
    r_join, r_split = rfc3986.urljoin, rfc3986.urlsplit
    resolve, parse = urlspec.resolve, urlspec.parse
    r = args.repeat

    # urlsplit caches its last results (functools.lru_cache, Python 3.11+):
    # clear it so that each round parses the whole corpus.
    def clear():
        if hasattr(urlsplit, "cache_clear"):
            urlsplit.cache_clear()

    def ujoin():
        for b, x in pairs:
            urljoin(b, x)

    def usplit():
        clear()
        for u in urls:
            urlsplit(u)

    def cjoin():
        for b, x in pairs:
            c_join(b, x)

    def rfc_join():
        for b, x in pairs:
            r_join(b, x)

    def rjoin():
        for b, x in pairs:
            resolve(b, x, "rfc3986")

    def csplit():
        for u in urls:
            c_split(u)

    def cparse():
        for u in urls:
            c_parse(u)

    def rfc_split():
        for u in urls:
            r_split(u)

    def psplit():
        for u in urls:
            parse(u, "rfc3986")

    def uparse():
        clear()
        for u in urls:
            urlparse(u)

    rows = []
    t_join, f_join = best(ujoin, r)
    t_split, f_split = best(usplit, r)
    t_parse, f_parse = best(uparse, r)
    rows.append(("urllib.parse.urljoin (loop)", "relative-pairs", n_join, (t_join, f_join), t_join))
    rows.append(("urlspec.compat.urljoin", "relative-pairs", n_join, best(cjoin, r), t_join))
    rows.append(("urlspec.rfc3986.urljoin", "relative-pairs", n_join, best(rfc_join, r), t_join))
    rows.append(("urlspec.resolve(spec='rfc3986')", "relative-pairs", n_join, best(rjoin, r), t_join))
    rows.append(("urlspec.resolve_many (list)", "relative-pairs", n_join,
                 best(lambda: urlspec.resolve_many(bases, refs, spec="rfc3986"), r), t_join))
    rows.append(("urllib.parse.urlsplit (loop)", "kasztp", n_split, (t_split, f_split), t_split))
    rows.append(("urllib.parse.urlparse (loop)", "kasztp", n_split, (t_parse, f_parse), t_parse))
    rows.append(("urlspec.compat.urlsplit", "kasztp", n_split, best(csplit, r), t_split))
    rows.append(("urlspec.compat.urlparse", "kasztp", n_split, best(cparse, r), t_parse))
    rows.append(("urlspec.rfc3986.urlsplit", "kasztp", n_split, best(rfc_split, r), t_split))
    rows.append(("urlspec.parse(spec='rfc3986')", "kasztp", n_split, best(psplit, r), t_split))
    rows.append(("urlspec.parse_many (list of URL)", "kasztp", n_split,
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
        rows.append(("urlspec.parse_many (Arrow, string_view=True)", "kasztp", n_split,
                     best(lambda: urlspec.parse_many(a_urls, spec="rfc3986", string_view=True), r), t_split))
    print(f"best of {r} rounds; vs urllib: urllib's best round over this row's best round")
    print()
    print("| call | corpus | items | ns/item | vs urllib | first round ns/item |")
    print("|---|---|---|---|---|---|")
    for name, corpus, n, (t, first), ref in rows:
        print(f"| {name} | {corpus} | {n} | {t / n * 1e9:,.0f} | {ref / t:.1f}× | {first / n * 1e9:,.0f} |")


if __name__ == "__main__":
    main()
