#!/usr/bin/env python3
"""The `urlspec links` benchmark end to end, in one run: `urlspec links
--threads 1` and `--threads 2` against the two fastest Python stacks
(links_python.py beside this script: `--stack fastwarc`, FastWARC +
selectolax's Lexbor parser + `ada_url.join_url`, and `--stack warcio`,
warcio + Lexbor + `urljoin`), each writing one JSON line per link to
/dev/null, on a generated crawl and on the real archives.

    python3 bench/cli/links_end_to_end.py crawl.warc.gz \\
        [--real ../shared/data/warc-real] [--callgrind gen-200.warc.gz] \\
        [--urlspec target/release/urlspec]

Inputs: the archives given (a `gen_warc` crawl: all of them read by
each command in one run), then the WARC and ARC files of --real (default
../shared/data/warc-real beside the repository; "none" leaves them out).
Each command is first run on each real archive alone: a file it does not
read to its end with exit status 0 (an ARC file, a damaged one) is
listed as refused by that command, and the timed runs read the files
that every command reads, so that the commands read the same bytes.

Each round runs every command once, in an order reversed every other
round, so that a load that rises or falls does not favour the first.
For each command: the links it writes, the median wall time (spawn to
exit), CPU time (user + system, from `os.wait4`) and peak resident
memory (the command's maximum RSS, from GNU time, `apt-get install
time`; without it, from `os.wait4`, which counts this script's own
peak too), links/s and MB/s of the gzipped and of the uncompressed WARC
(from the median wall time), and its ratio to the fastest Python stack
(the one with the lowest median wall time): that stack's wall time over
this one's, per round, as the median of the rounds with the lowest and
highest; the same for links/s and for CPU time (that stack's over this
one's). On a loaded machine the CPU ratio is the steadier one.

With --callgrind, each command is also run once under
`valgrind --tool=callgrind` on that (small) archive: instructions per
byte of `.warc.gz` and of WARC, and per link, without the start-up
(the instructions of the same command on an empty file: for Python, the
interpreter and the imports).

Environment: ROUNDS (default 7), PYTHON (the interpreter with fastwarc,
warcio, brotlipy, selectolax and ada-url; default this one).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("crawl", nargs="+", help="the generated crawl")
parser.add_argument("--real", default=os.path.join(root, "..", "shared",
                                                   "data", "warc-real"))
parser.add_argument("--callgrind", help="a small archive to count "
                    "instructions on")
parser.add_argument("--urlspec", default=os.path.join(root, "target",
                                                      "release", "urlspec"))
args = parser.parse_args()
rounds = int(os.environ.get("ROUNDS", "7"))
python = os.environ.get("PYTHON", sys.executable)
script = os.path.join(here, "links_python.py")

COMMANDS = {
    "urlspec -j 1": [args.urlspec, "links", "--threads", "1",
                     "--output", "json"],
    "urlspec -j 2": [args.urlspec, "links", "--threads", "2",
                     "--output", "json"],
    "fastwarc + Lexbor + ada_url": [python, script, "--stack", "fastwarc"],
    "warcio + Lexbor + urljoin": [python, script, "--stack", "warcio"],
}
PYTHON_STACKS = [n for n in COMMANDS if not n.startswith("urlspec")]


# The peak memory of a child: ru_maxrss from os.wait4 counts the peak of
# the process it was forked from (this one) too, so GNU time, a small
# process, forks the command and reports its peak.
TIME = "/usr/bin/time"


def run(argv):
    """(wall s, CPU s, peak RSS in MB, exit status, standard error)."""
    timed = os.path.exists(TIME)
    with tempfile.NamedTemporaryFile("r") as peak, \
            open(os.devnull, "wb") as null:
        if timed:
            argv = [TIME, "-f", "%M", "-o", peak.name] + argv
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE)
        err = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        # GNU time's last line is the peak in KiB.
        rss = int(peak.read().split()[-1]) if timed else usage.ru_maxrss
    return (wall, usage.ru_utime + usage.ru_stime, rss / 1024, code,
            err.decode(errors="replace"))


def link_count(err):
    # The last count: valgrind's header before it names the command, whose
    # path may end in a digit.
    found = re.findall(r"(\d+) links?\b", err)
    return int(found[-1]) if found else 0


def sizes(paths):
    """MB as stored and MB of WARC (gzip members undone)."""
    stored = raw = 0
    for path in paths:
        stored += os.path.getsize(path)
        with open(path, "rb") as f:
            data = f.read()
        if data[:2] != b"\x1f\x8b":
            raw += len(data)
            continue
        while data[:2] == b"\x1f\x8b":  # member by member, junk left out
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            try:
                raw += len(d.decompress(data))
            except zlib.error:
                break
            data = d.unused_data
    return stored / 1e6, raw / 1e6


def real_archives(directory):
    """The files every command reads, and what each command refuses."""
    files = sorted(os.path.join(directory, f) for f in os.listdir(directory)
                   if ".warc" in f or ".arc" in f)
    refused = {name: [] for name in COMMANDS}
    for path in files:
        for name, argv in COMMANDS.items():
            code, err = run(argv + [path])[3:]
            if code != 0:
                last = [line for line in err.splitlines() if line.strip()]
                reason = next((line for line in last if path in line),
                              last[-1] if last else f"exit {code}")
                refused[name].append((os.path.basename(path),
                                      reason.replace(path + ": ", "")))
    bad = {f for r in refused.values() for f, _ in r}
    return [p for p in files if os.path.basename(p) not in bad], refused


def measure(title, paths):
    gz_mb, raw_mb = sizes(paths)
    print(f"\n### {title}: {len(paths)} files, {gz_mb:,.1f} MB as stored, "
          f"{raw_mb:,.1f} MB of WARC; {rounds} rounds; "
          f"load {os.getloadavg()[0]:.2f}")
    links = {}
    for name, argv in COMMANDS.items():  # warm-up, and the link counts
        links[name] = link_count(run(argv + paths)[4])
    results = []  # per round: {name: (wall, cpu, rss)}
    for r in range(rounds):
        order = list(COMMANDS)
        if r % 2:
            order.reverse()
        results.append({n: run(COMMANDS[n] + paths)[:3] for n in order})

    def med(name, i):
        return statistics.median(m[name][i] for m in results)

    fastest = min(PYTHON_STACKS, key=lambda n: med(n, 0))

    def spread(values):
        return (f"{statistics.median(values):,.1f}x "
                f"({min(values):,.1f}-{max(values):,.1f})")

    print(f"load after: {os.getloadavg()[0]:.2f}; ratios to {fastest}")
    print("| command | links | wall s | CPU s | peak RSS MB | links/s | "
          "MB/s as stored | MB/s WARC | wall ratio | links/s ratio | "
          "CPU ratio |")
    print("|---|" + "---:|" * 10)
    for name in COMMANDS:
        wall = med(name, 0)
        walls = [m[fastest][0] / m[name][0] for m in results]
        per_link = [w * links[name] / max(links[fastest], 1) for w in walls]
        cpus = [m[fastest][1] / m[name][1] for m in results]
        print(f"| {name} | {links[name]:,} | {wall:,.3f} | "
              f"{med(name, 1):,.3f} | {med(name, 2):,.1f} | "
              f"{links[name] / wall:,.0f} | {gz_mb / wall:,.1f} | "
              f"{raw_mb / wall:,.1f} | {spread(walls)} | "
              f"{spread(per_link)} | {spread(cpus)} |")


def instructions(argv):
    """(instructions, links) of one run under callgrind."""
    err = run(["valgrind", "--tool=callgrind",
               "--callgrind-out-file=/dev/null"] + argv)[4]
    m = re.search(r"Collected : (\d+)", err)
    return (int(m.group(1)) if m else 0), link_count(err)


def callgrind(path):
    gz, raw = sizes([path])
    print(f"\n### callgrind, {os.path.basename(path)}: {gz * 1e6:,.0f} "
          f"bytes as stored, {raw * 1e6:,.0f} of WARC; start-up: the same "
          "command on an empty file, left out of the figures a byte and "
          "a link")
    print("| command | links | instructions | start-up | a byte as stored | "
          "a byte of WARC | a link |")
    print("|---|" + "---:|" * 6)
    for name, argv in COMMANDS.items():
        count, n = instructions(argv + [path])
        start = instructions(argv + [os.devnull])[0]
        work = count - start
        print(f"| {name} | {n:,} | {count:,} | {start:,} | "
              f"{work / (gz * 1e6):,.1f} | {work / (raw * 1e6):,.1f} | "
              f"{work / max(n, 1):,.0f} |")


def uptime():
    return subprocess.run(["uptime"], capture_output=True,
                          text=True).stdout.strip()


print(f"urlspec: {args.urlspec}; Python: {python}")
print(f"uptime: {uptime()}")
measure("generated crawl", args.crawl)
if args.real != "none":
    common, refused = real_archives(args.real)
    print(f"\n### {args.real}: each command alone on each file; refused "
          "(exit status not 0):")
    for name, files in refused.items():
        print(f"- {name}: {len(files)}" + "".join(
            f"\n  - {f}: {reason[:100]}" for f, reason in files))
    measure("real archives read by every command", common)
if args.callgrind:
    callgrind(args.callgrind)
print(f"\nuptime: {uptime()}")
