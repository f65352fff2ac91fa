#!/usr/bin/env python3
"""`urlspec links --threads N` benchmark: the same crawl read with
`--threads 1`, `--threads 2` and the usual Python stack
(links_python.py beside this script: warcio, selectolax, urljoin), one
run of each per round, alternating, so that each ratio compares runs
made under the same load on a shared machine.

    python3 bench/cli/links_threads.py crawl.warc.gz [URLSPEC_BINARY]
    python3 bench/cli/links_threads.py crawl-1.warc.gz crawl-2.warc.gz ... [URLSPEC_BINARY]

Several archives are read by each command in one run, in the order
given (a crawl split into files); a last argument that is an executable
file is the binary.

Each run writes JSON Lines to /dev/null. The order of the commands is
reversed every other round (ABBA), so that a load that rises or falls
during the run does not favour the command that runs first.

For each command: the median and the best (lowest) wall time (spawn to
exit) and CPU time (user + system, from the child's resource usage),
the median of its context switches (voluntary and not), links/s from
the best and from the median wall time, MB/s of the gzipped and of the
uncompressed archive from the median wall time.
The ratios to the first command (`--threads 1`) are computed per
round (the first command's wall time over this one's; this one's CPU
time over the first's) and reported as their median with the lowest and
highest round: that median is not the ratio of the two median wall
times (printed beside it), and when the two differ much the rounds were
too noisy to trust either. Each round's ratios and load average are
listed after the table.

Environment: ROUNDS (default 7), PYTHON (the interpreter with warcio and
selectolax, default this one; "none" leaves the Python stack out),
PYTHON_ROUNDS (the rounds the Python stack runs in, the first ones;
default all), THREADS (the counts to compare, default "1 2"), BEFORE
(another urlspec binary, for example a build of an older commit, run
with its default thread count, or BEFORE_THREADS, and put first, so that
the ratios compare this binary with it: `BEFORE=old/urlspec THREADS=1
PYTHON=none`), BEFORE_ENV (NAME=VALUE pairs set for that command only,
for example `BEFORE=target/release/urlspec
BEFORE_ENV=MIMALLOC_PURGE_DELAY=0`: the same binary with another
allocator setting).

Uncompressed archives are read as they are (their "MB gzipped" is their
size); a damaged gzipped one counts what inflates of it.
"""

import gzip
import os
import re
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
args = sys.argv[1:]
binary = os.path.join(root, "target", "release", "urlspec")
if len(args) > 1 and os.path.isfile(args[-1]) and os.access(args[-1], os.X_OK):
    binary = args.pop()
crawls = args
crawl = crawls[0] if len(crawls) == 1 else f"{len(crawls)} files"
rounds = int(os.environ.get("ROUNDS", "7"))
python = os.environ.get("PYTHON", sys.executable)
python_rounds = int(os.environ.get("PYTHON_ROUNDS", str(rounds)))
threads = os.environ.get("THREADS", "1 2").split()


def run(argv, env=None):
    """(wall seconds, CPU seconds, context switches, standard error) of
    one run, with `env` added to the environment."""
    start = time.perf_counter()
    env = dict(os.environ, **(env or {}))
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE,
                                 env=env)
        err = child.stderr.read()
        _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    switches = usage.ru_nvcsw + usage.ru_nivcsw
    return wall, usage.ru_utime + usage.ru_stime, switches, err.decode()


def load():
    return os.getloadavg()[0]


before_binary = os.environ.get("BEFORE")
before_threads = os.environ.get("BEFORE_THREADS")
# The environment of the before command: NAME=VALUE pairs.
before_env = dict(kv.split("=", 1)
                  for kv in os.environ.get("BEFORE_ENV", "").split())
commands = {}
envs = {}
if before_binary:
    name = f"before -j{before_threads}" if before_threads else "before"
    commands[name] = [before_binary, "links", "--output", "json"]
    if before_threads:
        commands[name] += ["--threads", before_threads]
    commands[name] += crawls
    envs[name] = before_env
commands |= {f"urlspec -j{n}": [binary, "links", "--threads", n, "--output",
                               "json", *crawls] for n in threads}
if python != "none":
    commands["python"] = [python, os.path.join(here, "links_python.py"),
                          *crawls]
first = next(iter(commands))

gz_mb = sum(os.path.getsize(c) for c in crawls) / 1e6
raw_mb = 0
for c in crawls:
    with open(c, "rb") as f:
        gzipped = f.read(2) == b"\x1f\x8b"
    with (gzip.open if gzipped else open)(c, "rb") as f:
        try:
            raw_mb += sum(len(b)
                          for b in iter(lambda: f.read(1 << 20), b"")) / 1e6
        except (OSError, EOFError):  # a damaged archive: what inflates
            pass
print(f"{crawl}: {gz_mb:.1f} MB gzipped, {raw_mb:.1f} MB uncompressed; "
      f"{rounds} rounds; load {os.getloadavg()}")

links = {}
for name, argv in commands.items():  # warm-up, and the link counts
    _, _, _, err = run(argv, envs.get(name))
    m = re.search(r"(\d+) links?", err)
    links[name] = int(m.group(1)) if m else 0

# Per round: {name: (wall, cpu, switches)}, and the load average before
# and after.
results = []
for r in range(rounds):
    names = [n for n in commands if n != "python" or r < python_rounds]
    urlspec = [n for n in names if n != "python"]
    if r % 2:
        urlspec.reverse()
    order = urlspec + [n for n in names if n == "python"]
    before = load()
    measured = {}
    for name in order:
        wall, cpu, switches, _ = run(commands[name], envs.get(name))
        measured[name] = (wall, cpu, switches)
    results.append((measured, before, load()))


def column(name, i):
    return [m[name][i] for m, _, _ in results if name in m]


def ratios(name):
    """Per round: (first's wall / this wall, this CPU / first's CPU)."""
    return [(m[first][0] / m[name][0], m[name][1] / m[first][1])
            for m, _, _ in results if name in m]


def spread(values):
    return (f"{statistics.median(values):.2f}x "
            f"({min(values):.2f}-{max(values):.2f})")


print(f"load after: {os.getloadavg()}")
print("| command | links | median wall s | median CPU s | best wall s | "
      "best CPU s | links/s (best) | links/s (median) | "
      "MB/s gzipped | MB/s uncompressed | wall ratio, median of rounds "
      "(min-max) | ratio of median walls | CPU ratio, median of rounds "
      "(min-max) | median context switches |")
print("|---|" + "---:|" * 13)
for name in commands:
    wall = statistics.median(column(name, 0))
    cpu = statistics.median(column(name, 1))
    switches = statistics.median(column(name, 2))
    per_round = ratios(name)
    of_medians = statistics.median(column(first, 0)) / wall
    best_wall, best_cpu = min(column(name, 0)), min(column(name, 1))
    print(f"| {name} | {links[name]:,} | {wall:.3f} | {cpu:.3f} | "
          f"{best_wall:.3f} | {best_cpu:.3f} | "
          f"{links[name] / best_wall:,.0f} | "
          f"{links[name] / wall:,.0f} | {gz_mb / wall:.1f} | "
          f"{raw_mb / wall:.1f} | {spread([w for w, _ in per_round])} | "
          f"{of_medians:.2f}x | {spread([c for _, c in per_round])} | "
          f"{switches:,.0f} |")

print()
print("| round | load before / after | " + " | ".join(
    f"{n} wall / CPU s" for n in commands) + " | " + " | ".join(
    f"{n} wall ratio" for n in commands if n != first) + " |")
print("|---:|---|" + "---:|" * (2 * len(commands) - 1))
for r, (m, before, after) in enumerate(results, 1):
    cells = [f"{m[n][0]:.3f} / {m[n][1]:.3f}" if n in m else ""
             for n in commands]
    cells += [f"{m[first][0] / m[n][0]:.2f}x" if n in m else ""
              for n in commands if n != first]
    print(f"| {r} | {before:.2f} / {after:.2f} | " + " | ".join(cells)
          + " |")
