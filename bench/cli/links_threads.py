#!/usr/bin/env python3
"""`urlspec links --threads N` benchmark: the same crawl read with
`--threads 1`, `--threads 2` and the usual Python stack
(links_python.py beside this script: warcio, selectolax, urljoin), one
run of each per round, alternating, so that each ratio compares runs
made under the same load on a shared machine.

    python3 bench/cli/links_threads.py crawl.warc.gz [URLSPEC_BINARY]

Each run writes JSON Lines to /dev/null. For each command: the median
wall time (spawn to exit) and the median CPU time (user + system, from
the child's resource usage), links/s and MB/s of the gzipped and of the
uncompressed archive from the median wall time, and the median of the
per-round ratios of `--threads 1`'s wall time to each command's. The
load average is printed before and after.

Environment: ROUNDS (default 7), PYTHON (the interpreter with warcio and
selectolax, default this one; "none" leaves the Python stack out),
THREADS (the counts to compare, default "1 2").
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
crawl = sys.argv[1]
binary = (sys.argv[2] if len(sys.argv) > 2
          else os.path.join(root, "target", "release", "urlspec"))
rounds = int(os.environ.get("ROUNDS", "7"))
python = os.environ.get("PYTHON", sys.executable)
threads = os.environ.get("THREADS", "1 2").split()


def run(argv):
    """(wall seconds, CPU seconds, standard error) of one run."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE)
        err = child.stderr.read()
        _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, err.decode()


commands = {f"urlspec -j{n}": [binary, "links", "--threads", n, "--output",
                               "json", crawl] for n in threads}
if python != "none":
    commands["python"] = [python, os.path.join(here, "links_python.py"),
                          crawl]

gz_mb = os.path.getsize(crawl) / 1e6
with gzip.open(crawl, "rb") as f:
    raw_mb = sum(len(b) for b in iter(lambda: f.read(1 << 20), b"")) / 1e6
print(f"{crawl}: {gz_mb:.1f} MB gzipped, {raw_mb:.1f} MB uncompressed; "
      f"{rounds} rounds; load {os.getloadavg()}")

links = {}
for name, argv in commands.items():  # warm-up, and the link counts
    _, _, err = run(argv)
    m = re.search(r"(\d+) links?", err)
    links[name] = int(m.group(1)) if m else 0

walls = {name: [] for name in commands}
cpus = {name: [] for name in commands}
for _ in range(rounds):
    for name, argv in commands.items():
        wall, cpu, _ = run(argv)
        walls[name].append(wall)
        cpus[name].append(cpu)

first = next(iter(commands))
print(f"load after: {os.getloadavg()}")
print("| command | links | median wall s | median CPU s | links/s | "
      "MB/s gzipped | MB/s uncompressed | wall vs first | CPU vs first |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in commands:
    wall = statistics.median(walls[name])
    cpu = statistics.median(cpus[name])
    ratio = statistics.median(
        a / b for a, b in zip(walls[first], walls[name]))
    cpu_ratio = statistics.median(
        b / a for a, b in zip(cpus[first], cpus[name]))
    print(f"| {name} | {links[name]:,} | {wall:.3f} | {cpu:.3f} | "
          f"{links[name] / wall:,.0f} | {gz_mb / wall:.1f} | "
          f"{raw_mb / wall:.1f} | {ratio:.2f}x | {cpu_ratio:.2f}x |")
