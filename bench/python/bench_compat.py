"""urlspec.compat against urllib.parse, function by function, in one run.

    python bench/python/bench_compat.py [--corpora DIR] [--rounds N] [--only NAME ...]

Two tables, each row timed for urllib's function and compat's in the same
process, their rounds taken in turn (so machine load hits both alike),
the best round of each kept; "compat / urllib" is urllib's time over
compat's (above 1: compat is faster):

* Forms: each replaced function called in its common forms, in a plain
  loop (``for a in items: f(a)``, the call written out as a caller writes
  it), 20,000 calls a round. "again" is one argument called over and
  over: urllib's ``urlsplit`` (an ``lru_cache``) and compat's (which
  remembers its last answers) answer all but the first from their cache.
  "kasztp" is the 48,010 URLs of kasztp.txt (beside the repository,
  ``--corpora``), nearly all distinct: each round starts with both caches
  cleared.
* Replay: the calls each suite of ``crates/urlspec-py/tests/urllib-calls``
  made (in the order it made them, the calls of one function a round,
  both caches cleared first: ``for args, kwargs in calls: f(*args,
  **kwargs)``, exceptions caught), each round repeated until about
  100,000 calls were timed per row.

Prints Markdown.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time
import urllib.parse as up

import corpora

from urlspec import compat

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "crates" / "urlspec-py" / "tests"))
import urllib_calls  # noqa: E402

URLLIB = compat._URLLIB


def clear():
    if hasattr(URLLIB["urlsplit"], "cache_clear"):
        URLLIB["urlsplit"].cache_clear()
    if hasattr(compat.urlsplit, "cache_clear"):
        compat.urlsplit.cache_clear()


def loop(call):
    """A function running ``call`` (Python source over ``f`` and ``a``)
    for each ``a`` of its argument."""
    ns = {}
    exec(f"def run(f, items):\n    for a in items:\n        {call}\n", ns)
    return ns["run"]


def race(run, theirs, ours, items, rounds):
    """(urllib's best round, compat's), seconds, rounds taken in turn."""
    best = [math.inf, math.inf]
    for _ in range(rounds):
        for i, f in enumerate((theirs, ours)):
            clear()
            t = time.perf_counter()
            run(f, items)
            best[i] = min(best[i], time.perf_counter() - t)
    return best


N = 20_000
URL = "http://example.com/a?b=c"
SPLIT = ("http", "example.com", "/a", "b=c", "")
PARSE = ("http", "example.com", "/a", "", "b=c", "")


def forms(kasztp):
    """(function, form, call, items): the forms timed."""
    again = lambda x: [x] * N  # noqa: E731
    rows = [
        ("urlsplit", "`urlsplit(u)`, again", "f(a)", again(URL)),
        ("urlsplit", "`urlsplit(u, 'https')`, again", "f(a, 'https')", again(URL)),
        ("urlsplit", "`urlsplit(u, allow_fragments=False)`, again", "f(a, allow_fragments=False)",
         again(URL)),
        ("urlsplit", "`urlsplit(b)` (bytes), again", "f(a)", again(URL.encode())),
        ("urlparse", "`urlparse(u)`, again", "f(a)", again(URL)),
        ("urlparse", "`urlparse(u, 'https')`, again", "f(a, 'https')", again(URL)),
        ("urljoin", "`urljoin(b, r)`, again", "f(*a)", again(("http://example.com/a/b", "../c?d"))),
        ("urljoin", "`urljoin(b, r, allow_fragments=False)`, again", "f(*a, allow_fragments=False)",
         again(("http://example.com/a/b", "../c?d"))),
        ("urlunsplit", "`urlunsplit(tuple)`", "f(a)", again(SPLIT)),
        ("urlunsplit", "`urlunsplit(SplitResult)`", "f(a)", again(up.SplitResult(*SPLIT))),
        ("urlunsplit", "`urlunsplit(list)`", "f(a)", again(list(SPLIT))),
        ("urlunsplit", "`urlunsplit(('mailto', '', 'a@b', '', ''))`", "f(a)", again(("mailto", "", "a@b", "", ""))),
        ("urlunparse", "`urlunparse(tuple)`", "f(a)", again(PARSE)),
        ("urlunparse", "`urlunparse(ParseResult)`", "f(a)", again(up.ParseResult(*PARSE))),
        ("urldefrag", "`urldefrag(u)` without `#`", "f(a)", again(URL)),
        ("urldefrag", "`urldefrag(u)` with `#`", "f(a)", again(URL + "#top")),
        ("quote", "`quote('abc')`", "f(a)", again("abc")),
        ("quote", "`quote('a b/ü')`", "f(a)", again("a b/ü")),
        ("quote", "`quote(s, safe='')`", "f(a, safe='')", again("a b/c")),
        ("quote", "`quote(s, '/:')`", "f(a, '/:')", again("http://a/b c")),
        ("quote", "`quote(b)` (bytes)", "f(a)", again(b"a b/c")),
        ("quote_plus", "`quote_plus('abc')`", "f(a)", again("abc")),
        ("quote_plus", "`quote_plus('a b&c')`", "f(a)", again("a b&c")),
        ("quote_plus", "`quote_plus(s, safe='/')`", "f(a, safe='/')", again("a b/c")),
        ("quote_from_bytes", "`quote_from_bytes(b'abc')`", "f(a)", again(b"abc")),
        ("quote_from_bytes", "`quote_from_bytes(b'a b')`", "f(a)", again(b"a b")),
        ("unquote", "`unquote('abc')`", "f(a)", again("abc")),
        ("unquote", "`unquote('a%20b%C3%BC')`", "f(a)", again("a%20b%C3%BC")),
        ("unquote", "`unquote(b'a%20b')` (bytes)", "f(a)", again(b"a%20b")),
        ("unquote_plus", "`unquote_plus('a+b')`", "f(a)", again("a+b")),
        ("unquote_plus", "`unquote_plus('a+b%26c')`", "f(a)", again("a+b%26c")),
        ("unquote_to_bytes", "`unquote_to_bytes('a%20b')`", "f(a)", again("a%20b")),
        ("unquote_to_bytes", "`unquote_to_bytes(b'a%20b')`", "f(a)", again(b"a%20b")),
    ]
    if kasztp:
        rows[1:1] = [("urlsplit", "`urlsplit(u)`, kasztp", "f(a)", kasztp)]
        rows.insert(7, ("urlparse", "`urlparse(u)`, kasztp", "f(a)", kasztp))
    return rows


def summary(forms_ratios, replay_ratios, suites):
    """Markdown: per function, the lowest and highest ratio over its forms,
    its ratio on each suite's recorded calls (``-``: the suite made none)
    and the lowest of all. ``forms_ratios``: {function: [ratio, ...]};
    ``replay_ratios``: {(suite, function): ratio}."""
    lines = ["| function | common forms | " + " | ".join(suites) + " | lowest |",
             "|---|---:|" + "---:|" * len(suites) + "---:|"]
    for name in compat.NATIVE:
        forms_of = forms_ratios.get(name, [])
        replays = [replay_ratios.get((s, name)) for s in suites]
        every = forms_of + [r for r in replays if r is not None]
        if not every:
            continue
        cells = [f"{min(forms_of):.2f}–{max(forms_of):.2f}×" if forms_of else "-"]
        cells += [f"{r:.2f}×" if r is not None else "-" for r in replays]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | **{min(every):.2f}×** |")
    return "\n".join(lines)


def replay_loop(f, calls):
    for args, kwargs in calls:
        try:
            f(*args, **kwargs)
        except Exception:  # noqa: BLE001, S112 - timed, not checked
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(corpora.DEFAULT))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=None, help="functions to time (default: all)")
    args = ap.parse_args()
    chosen = set(args.only or compat.NATIVE)
    try:
        _, kasztp = corpora.load(args.corpora)
    except OSError:
        kasztp = None
        print(f"no corpora at {args.corpora}: the kasztp rows are left out\n")
    forms_ratios, replay_ratios = {}, {}

    print(f"Forms: best of {args.rounds} rounds of {N:,} calls (kasztp: {len(kasztp or ()):,})\n")
    print("| function | form | urllib ns/call | compat ns/call | compat / urllib |")
    print("|---|---|---|---|---|")
    for name, form, call, items in forms(kasztp):
        if name not in chosen:
            continue
        tu, tc = race(loop(call), URLLIB[name], getattr(compat, name), items, args.rounds)
        n = len(items)
        forms_ratios.setdefault(name, []).append(tu / tc)
        print(f"| {name} | {form} | {tu / n * 1e9:,.0f} | {tc / n * 1e9:,.0f} | {tu / tc:.2f}× |", flush=True)

    print("\nReplay: each suite's recorded calls, best round of each row\n")
    print("| suite | function | calls | urllib ns/call | compat ns/call | compat / urllib |")
    print("|---|---|---|---|---|---|")
    for suite, path in urllib_calls.suites().items():
        calls, _ = urllib_calls.load(path)
        by_name = {}
        for name, a, k in calls:
            by_name.setdefault(name, []).append((a, k))
        for name in compat.NATIVE:
            if name not in by_name or name not in chosen:
                continue
            rows = by_name[name]
            rounds = max(args.rounds, min(2000, math.ceil(100_000 / len(rows))))
            tu, tc = race(replay_loop, URLLIB[name], getattr(compat, name), rows, rounds)
            replay_ratios[suite, name] = tu / tc
            n = len(rows)
            print(f"| {suite} | {name} | {n:,} | {tu / n * 1e9:,.0f} | {tc / n * 1e9:,.0f} | {tu / tc:.2f}× |",
                  flush=True)

    print("\nEach function, compat / urllib: its forms, each suite's calls, the lowest\n")
    print(summary(forms_ratios, replay_ratios, list(urllib_calls.suites())))

if __name__ == "__main__":
    main()
