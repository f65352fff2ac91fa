#!/usr/bin/env python3
"""Throughput of links_job.py with urlspec and with urllib.parse.urljoin.

Generates a crawl (warcgen.synthetic_archives: gzip WARC archives of HTML
pages with request records, redirects and images, nothing committed), then
runs the job in Spark local mode, with --resolver urlspec and --resolver
urllib alternately in the same session, and reports pages and links per
second per core (the median of the rounds). Also times the job's partition
function alone in this process, without Spark, to show what the resolution
costs apart from Spark's row transfer and the Parquet writing.

    python examples/spark/bench_links_job.py --cores 1,2 --rounds 3

Needs pyspark, Java and the urlspec package, as the job does.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import links_job  # noqa: E402
import warcgen  # noqa: E402

RESOLVERS = ("urlspec", "urllib")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--files", type=int, default=8, help="archives to generate (default 8)")
    p.add_argument("--pages", type=int, default=500, help="HTML pages per archive (default 500)")
    p.add_argument("--links", type=int, default=30, help="mean links per page (default 30)")
    p.add_argument("--rounds", type=int, default=3, help="runs of each resolver, alternating (default 3)")
    p.add_argument("--cores", default="1,2", help="Spark local[N] for each N in this list (default 1,2)")
    p.add_argument("--transfers", default="arrow,rows", help="--transfer modes of the job to time (default arrow,rows)")
    p.add_argument("--spec", default="rfc1808")
    p.add_argument("--dir", help="where to write the corpus and outputs (default: a temporary directory, removed)")
    a = p.parse_args()

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    work = a.dir or tempfile.mkdtemp(prefix="urlspec-bench-")
    os.makedirs(work, exist_ok=True)
    try:
        paths = warcgen.synthetic_archives(work, a.files, a.pages, a.links)
        size = sum(os.path.getsize(x) for x in paths)
        print(f"corpus: {len(paths)} archives, {size / 1e6:.1f} MB gzipped, in {work}", file=sys.stderr)
        rows = []

        # The partition function alone, in this process: one core, no Spark.
        times = {r: [] for r in RESOLVERS}
        for _ in range(a.rounds):
            for r in RESOLVERS:
                counters = {k: _Counter() for k in ("files", "failed_files", "documents", "links", "unresolved", "skipped_records")}
                t = time.perf_counter()
                for _row in links_job.make_extractor(a.spec, r, "fail", counters)(paths):
                    pass
                times[r].append(time.perf_counter() - t)
        for r in RESOLVERS:
            rows.append(("no Spark (the partition function in one process)", 1, r, counters["documents"].value, counters["links"].value, times[r]))

        from pyspark.sql import SparkSession

        for cores in [int(c) for c in a.cores.split(",")]:
            spark = (
                SparkSession.builder.master(f"local[{cores}]")
                .appName("urlspec links bench")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .getOrCreate()
            )
            spark.sparkContext.setLogLevel("ERROR")
            runs = [(t, r) for t in a.transfers.split(",") for r in RESOLVERS]
            times = {k: [] for k in runs}
            counts = {}
            # A warm-up run starts the Python workers and the JIT.
            for t in a.transfers.split(","):
                links_job.main([paths[0], "-o", f"{work}/warmup", "--mode", "overwrite", "--transfer", t], spark=spark)
            for _ in range(a.rounds):
                for k in runs:
                    t, r = k
                    args = links_job.build_parser().parse_args(
                        paths
                        + ["-o", f"{work}/out-{t}-{r}", "--mode", "overwrite", "--resolver", r, "--spec", a.spec]
                        + ["--transfer", t]
                    )
                    counts[k], seconds = links_job.run(spark, args)
                    times[k].append(seconds)
            spark.stop()
            for k in runs:
                t, r = k
                what = f"Spark local[{cores}], --transfer {t}, to Parquet"
                rows.append((what, cores, r, counts[k]["documents"], counts[k]["links"], times[k]))

        print(f"\n{len(paths)} archives, {size / 1e6:.1f} MB gzipped; median of {a.rounds} rounds; spec {a.spec}\n")
        print("| run | resolver | pages | links | seconds | pages/s per core | links/s per core |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for what, cores, r, pages, links, ts in rows:
            s = statistics.median(ts)
            print(
                f"| {what} | {r} | {pages:,} | {links:,} | {s:.2f} | {pages / s / cores:,.0f} | {links / s / cores:,.0f} |"
            )
    finally:
        if not a.dir:
            shutil.rmtree(work, ignore_errors=True)


class _Counter:
    def __init__(self):
        self.value = 0

    def add(self, n):
        self.value += n


if __name__ == "__main__":
    main()
