"""Instructions per call of every row of bench_compat.py, by callgrind:
urllib.parse's functions against urlspec.compat's.

    python bench/python/callgrind_compat.py [--corpora DIR] [--calls N] [--only NAME ...]

One ``valgrind --tool=callgrind`` process per contender (urllib's
functions, compat's) goes through every row of bench_compat.py's two
tables: the common forms (the first N items of each, default 5,000, after
the same loop over 200 of them) and each suite's recorded calls of one
function (one pass over them in their order, after one pass not counted).
Both caches (urllib's ``lru_cache`` and compat's memo) are cleared before
each counted loop. Each row is counted on its own through callgrind's
client requests (zero the counts, run the loop, dump them; a small C
helper built at start with ``cc`` and valgrind's ``callgrind.h``), minus
what the same requests cost around an empty loop; over the number of
calls this is the count per call, the loop's own bytecode and the
freeing of each result included. ``PYTHONHASHSEED=0``. Instruction counts
do not move with the machine's load, as wall-clock times do; cache misses
are not counted.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve()

HELPER = r"""
#include <valgrind/callgrind.h>
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""


def rows(corpora, calls, only):
    """(table, function, label, run, items, n): every counted row."""
    import bench_compat
    import corpora as c

    try:
        _, kasztp = c.load(corpora)
    except OSError:
        kasztp = None
    out = []
    for name, form, call, items in bench_compat.forms(kasztp):
        if not only or name in only:
            out.append(("forms", name, form, bench_compat.loop(call), items, min(calls, len(items))))
    for suite, path in bench_compat.urllib_calls.suites().items():
        recorded, _ = bench_compat.urllib_calls.load(path)
        by_name = {}
        for name, a, k in recorded:
            by_name.setdefault(name, []).append((a, k))
        for name in bench_compat.compat.NATIVE:
            if name in by_name and (not only or name in only):
                items = by_name[name]
                out.append(("replay", name, suite, bench_compat.replay_loop, items, len(items)))
    return out


def work(helper, corpora, who, calls, only):
    """Runs under callgrind: every row for one contender, each dumped
    as ``row I`` (``row -1``: the empty loop)."""
    import bench_compat

    cg = ctypes.CDLL(helper)
    cg.cg_dump.argtypes = [ctypes.c_char_p]
    table = bench_compat.URLLIB if who == "urllib" else {n: getattr(bench_compat.compat, n)
                                                         for n in bench_compat.compat.NATIVE}
    empty = bench_compat.loop("f(a)")
    for _ in range(3):
        empty(len, [])
    bench_compat.clear()
    cg.cg_zero()
    empty(len, [])
    cg.cg_dump(b"row -1")
    for i, (kind, name, _, run, items, n) in enumerate(rows(corpora, calls, only)):
        f = table[name]
        run(f, items[:200] if kind == "forms" else items)
        bench_compat.clear()
        cg.cg_zero()
        run(f, items[:n])
        cg.cg_dump(b"row %d" % i)


def count(helper, corpora, who, calls, only, outdir):
    """{row index: instructions} of one contender's process."""
    out = pathlib.Path(outdir) / f"{who}.out"
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, str(HERE),
           "--corpora", str(corpora), "--calls", str(calls), "--work", helper, who]
    if only:
        cmd += ["--only", *only]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if p.returncode != 0:
        sys.exit(f"{who}: valgrind failed:\n{p.stderr[-3000:]}")
    found = {}
    for dump in pathlib.Path(outdir).glob(f"{who}.out.*"):
        text = dump.read_text(errors="replace")
        label = re.search(r"^desc: Trigger: Client Request: row (-?\d+)$", text, re.M)
        total = re.search(r"^summary: (\d+)$", text, re.M)
        if label and total:
            found[int(label.group(1))] = int(total.group(1))
    return found


def main():
    sys.path.insert(0, str(HERE.parent))
    import bench_compat
    import corpora as c

    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=str(c.DEFAULT))
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--work", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.work:
        work(args.work[0], args.corpora, args.work[1], args.calls, args.only)
        return
    with tempfile.TemporaryDirectory() as tmp:
        helper = str(pathlib.Path(tmp) / "cg.so")
        (pathlib.Path(tmp) / "cg.c").write_text(HELPER)
        subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", helper, str(pathlib.Path(tmp) / "cg.c")],
                       check=True)
        counts = {who: count(helper, args.corpora, who, args.calls, args.only, tmp) for who in ("urllib", "compat")}
    listed = rows(args.corpora, args.calls, args.only)
    forms_ratios, replay_ratios = {}, {}

    def per_call(who, i, n):
        return (counts[who][i] - counts[who][-1]) / n

    print(f"Forms: instructions per call over the first {args.calls:,} items\n")
    print("| function | form | urllib | compat | urllib / compat |")
    print("|---|---|---:|---:|---:|")
    for i, (kind, name, label, _, _, n) in enumerate(listed):
        if kind != "forms":
            continue
        u, o = per_call("urllib", i, n), per_call("compat", i, n)
        forms_ratios.setdefault(name, []).append(u / o)
        print(f"| {name} | {label} | {u:,.0f} | {o:,.0f} | {u / o:.2f}× |")
    print("\nReplay: instructions per call over each suite's recorded calls\n")
    print("| suite | function | calls | urllib | compat | urllib / compat |")
    print("|---|---|---:|---:|---:|---:|")
    for i, (kind, name, label, _, _, n) in enumerate(listed):
        if kind != "replay":
            continue
        u, o = per_call("urllib", i, n), per_call("compat", i, n)
        replay_ratios[label, name] = u / o
        print(f"| {label} | {name} | {n:,} | {u:,.0f} | {o:,.0f} | {u / o:.2f}× |")
    print("\nEach function, urllib / compat: its forms, each suite's calls, the lowest\n")
    print(bench_compat.summary(forms_ratios, replay_ratios, list(bench_compat.urllib_calls.suites())))

if __name__ == "__main__":
    main()
