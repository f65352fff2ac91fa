#!/usr/bin/env python3
"""Throughput of links_job.py: on a standalone cluster and in local mode, with
urlspec and with urllib.parse.urljoin.

Generates a crawl (warcgen.synthetic_archives: gzip WARC archives of HTML
pages with request records, redirects and images, nothing committed), then
runs the job (links and statistics to Parquet) with --resolver urlspec and
--resolver urllib alternately in one Spark application per setting:

- Spark local[N] for each N of --cores;
- a standalone cluster of --workers workers with one core each, started on
  127.0.0.1 from the pyspark package's launcher (standalone.py) and
  stopped afterwards; the driver runs in this process.

It reports pages and links per second per executor core (the median of the
rounds; cores: N in local mode, the workers on the cluster). It also times
the job's partition function alone in this process, without Spark, to show
what the extraction costs apart from Spark's row transfer and the Parquet
writing.

    python examples/spark/bench_links_job.py --cores 1,2 --workers 2 --rounds 3

Needs pyspark, Java 17 or later and the urlspec package, as the job does.
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
import standalone  # noqa: E402
import warcgen  # noqa: E402

RESOLVERS = ("urlspec", "urllib")


def time_setting(spark, what, cores, paths, work, a, rows):
    """The rounds of one Spark setting; appends a result row per transfer
    and resolver."""
    runs = [(t, r) for t in a.transfers.split(",") for r in RESOLVERS]
    times = {k: [] for k in runs}
    counts = {}
    # A warm-up run over every archive starts the Python workers of every
    # executor, and the JIT.
    for t in a.transfers.split(","):
        links_job.main(paths + ["-o", f"{work}/warmup", "--mode", "overwrite", "--transfer", t], spark=spark)
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
    for k in runs:
        t, r = k
        rows.append((f"{what}, --transfer {t}", cores, r, counts[k]["pages"], counts[k]["links"], times[k]))


def session(master, name):
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(master)
        .appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if master.startswith("spark://"):
        builder = (
            builder.config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.executor.memory", "1g")
        )
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--files", type=int, default=8, help="archives to generate (default 8)")
    p.add_argument("--pages", type=int, default=500, help="HTML pages per archive (default 500)")
    p.add_argument("--links", type=int, default=30, help="mean links per page (default 30)")
    p.add_argument("--rounds", type=int, default=3, help="runs of each resolver, alternating (default 3)")
    p.add_argument("--cores", default="1,2", help="Spark local[N] for each N in this list; empty: none (default 1,2)")
    p.add_argument("--workers", type=int, default=2, help="one-core workers of the standalone cluster; 0: no cluster (default 2)")
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
                t = time.perf_counter()
                stats = [row[-1] for row in links_job.make_extractor(a.spec, r, "fail")(paths) if row[-1]]
                times[r].append(time.perf_counter() - t)
        pages, links = sum(s[0] for s in stats), sum(s[1] for s in stats)
        for r in RESOLVERS:
            rows.append(("no Spark (the partition function in one process)", 1, r, pages, links, times[r]))

        for cores in [int(c) for c in a.cores.split(",") if c]:
            spark = session(f"local[{cores}]", "urlspec links bench")
            try:
                time_setting(spark, f"Spark local[{cores}]", cores, paths, work, a, rows)
            finally:
                spark.stop()

        if a.workers:
            with standalone.Cluster(os.path.join(work, "cluster"), workers=a.workers, cores=1, memory="2g") as cluster:
                spark = session(cluster.master_url, "urlspec links bench (cluster)")
                try:
                    what = f"standalone cluster, {a.workers} workers of 1 core"
                    time_setting(spark, what, a.workers, paths, work, a, rows)
                finally:
                    spark.stop()

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


if __name__ == "__main__":
    main()
