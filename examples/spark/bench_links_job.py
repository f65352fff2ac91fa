#!/usr/bin/env python3
"""Throughput of links_job.py: on a standalone cluster and in local mode, with
urlspec and with urllib.parse.urljoin.

Generates a crawl (warcgen.synthetic_archives: gzip WARC archives of HTML
pages with request records, redirects and images, nothing committed), then
runs the job (links and statistics to Parquet) with --resolver urlspec and
--resolver urllib, and with --writer spark and tasks (the Parquet written by
Spark's writer, or by the tasks from their Arrow batches), alternately in
one Spark application per setting:

- Spark local[N] for each N of --cores;
- a standalone cluster of --workers workers with one core each, started on
  127.0.0.1 from the pyspark package's launcher (standalone.py) and
  stopped afterwards; the driver runs in this process.

It reports pages and links per second per executor core (the median of the
rounds; cores: N in local mode, the workers on the cluster), and each as a
share of `urlspec links -j 1` on the same archives (the command's release
build, --cli; its JSON written to /dev/null). In the same run it times,
without Spark, in this process: `urlspec.link_batches` alone (the Arrow
batches built in Rust, taken one by one; with dictionaries, as the job
reads them, and without), the job's partition functions
(what each task does apart from Spark's row transfer and the Parquet
writing) and the partition function of --writer tasks (the batches
written to Parquet: all a task of that writer does); and in each Spark
setting, a job of the links job's partitions, each doing nothing (Spark's
own cost of scheduling and running its tasks, which the links job pays
too), and each
links job less that cost, round by round; and each links job less the same
job over one archive per core, round by round (what the further archives
cost: the job's start-up and fixed costs left out, as a run over many
archives spreads them). Seconds are wall-clock, from the start of the job to
its outputs written (Spark's start-up excluded: --warmups runs come
first, so that the JVM's JIT has compiled the job's code). CPU seconds are shown too, with links per CPU second, which a
loaded machine disturbs less: the command's; this process's for the runs
without Spark (the batches are read on a thread of their own); for a
Spark run, those of this process and every process under it (the JVM, its
Python workers, the cluster's daemons and executors: Linux /proc).

    python examples/spark/bench_links_job.py --cores 1,2 --workers 2 --rounds 3 \
        --transfers arrow --writers spark,tasks --resolvers urlspec

Needs pyspark, Java 17 or later and the urlspec package, as the job does.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import links_job  # noqa: E402
import standalone  # noqa: E402
import warcgen  # noqa: E402

def release_cli():
    """The release build of the urlspec command in Cargo's target directory."""
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=os.path.dirname(os.path.dirname(HERE)),
        capture_output=True,
        text=True,
        check=False,
    )
    if meta.returncode != 0:
        return None
    path = os.path.join(json.loads(meta.stdout)["target_directory"], "release", "urlspec")
    return path if os.path.isfile(path) else None


def cpu_seconds():
    t = os.times()
    return t.user + t.system


def children_cpu_seconds():
    """CPU seconds of the ended child processes that were waited for."""
    t = os.times()
    return t.children_user + t.children_system


def tree_cpu_seconds():
    """CPU seconds of this process and every process under it, running or
    ended (Linux /proc): the driver, the JVM, the Python workers, the
    standalone cluster's daemons and executors."""
    tick = os.sysconf("SC_CLK_TCK")
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # ppid, then utime, stime, cutime, cstime (ended children waited for)
        children.setdefault(int(fields[1]), []).append((int(d), sum(int(x) for x in fields[11:15])))
    total, todo = 0, [os.getpid()]
    with open(f"/proc/{os.getpid()}/stat") as f:
        total += sum(int(x) for x in f.read().rsplit(")", 1)[1].split()[11:15])
    while todo:
        for pid, ticks in children.get(todo.pop(), ()):
            total += ticks
            todo.append(pid)
    return total / tick


def time_setting(spark, what, cores, paths, work, a, rows):
    """The rounds of one Spark setting; appends a result row per transfer,
    writer and resolver (the tasks' writer under --transfer arrow only)."""
    writers = a.writers.split(",")
    runs = [(t, w, r) for t in a.transfers.split(",") for w in writers for r in a.resolvers.split(",") if t == "arrow" or w != "tasks"]
    times = {k: [] for k in runs}
    cpu = {k: [] for k in runs}
    counts = {}
    # The same job over one archive per core, in the same rounds: its
    # seconds are the job's start-up and fixed costs, one archive's work
    # on each core, and nothing that grows with the archives.
    first = paths[:cores]
    first_times = {k: [] for k in runs}
    first_cpu = {k: [] for k in runs}
    first_counts = {}
    # Warm-up runs over every archive start the Python workers of every
    # executor, and let the JVM's JIT compile what the job runs: after one
    # run its compiler threads still take as much CPU as the job itself.
    for _ in range(a.warmups):
        for t, w in sorted({(t, w) for t, w, _ in runs}):
            links_job.main(
                paths + ["-o", f"{work}/warmup", "--mode", "overwrite", "--transfer", t, "--writer", w, "--compression", a.compression],
                spark=spark,
            )
    def job(k, archives):
        t, w, r = k
        args = links_job.build_parser().parse_args(
            archives
            + ["-o", f"{work}/out-{t}-{w}-{r}", "--mode", "overwrite", "--resolver", r, "--spec", a.spec]
            + ["--transfer", t, "--writer", w, "--compression", a.compression]
        )
        c = tree_cpu_seconds()
        count, seconds = links_job.run(spark, args)
        return count, seconds, tree_cpu_seconds() - c

    for _ in range(a.rounds):
        for k in runs:
            counts[k], seconds, c = job(k, paths)
            times[k].append(seconds)
            cpu[k].append(c)
            if len(first) < len(paths):
                first_counts[k], seconds, c = job(k, first)
                first_times[k].append(seconds)
                first_cpu[k].append(c)
    for k in runs:
        t, w, r = k
        rows.append((f"{what}, --transfer {t} --writer {w}", cores, r, counts[k]["pages"], counts[k]["links"], times[k], cpu[k]))
    # What the archives past the first on each core cost, round by round:
    # the links job with its start-up and fixed costs left out.
    for k in first_counts:
        t, w, r = k
        rows.append(
            (
                f"{what}, --transfer {t} --writer {w}, less a run over {len(first)} archive{'s' if len(first) > 1 else ''}",
                cores,
                r,
                counts[k]["pages"] - first_counts[k]["pages"],
                counts[k]["links"] - first_counts[k]["links"],
                [x - f for x, f in zip(times[k], first_times[k])],
                [x - f for x, f in zip(cpu[k], first_cpu[k])],
            )
        )
    # Spark's own cost: a job of the links job's tasks (its partitions of
    # the archives), each handing its archives' names back and nothing more.
    archives = links_job.archive_partitions(spark.sparkContext, paths)
    n = archives.getNumPartitions()
    empty_times, empty_cpu = [], []
    for _ in range(a.rounds):
        t, c = time.perf_counter(), tree_cpu_seconds()
        archives.mapPartitions(lambda names: [len(list(names))]).collect()
        empty_times.append(time.perf_counter() - t)
        empty_cpu.append(tree_cpu_seconds() - c)
    rows.append((f"{what}, the job's {n} partitions, each doing nothing (Spark's own cost)", cores, "", None, None, empty_times, empty_cpu))
    # What the links job costs beyond that, round by round.
    for k in runs:
        t, w, r = k
        rows.append(
            (
                f"{what}, --transfer {t} --writer {w}, less Spark's own cost",
                cores,
                r,
                counts[k]["pages"],
                counts[k]["links"],
                [x - e for x, e in zip(times[k], empty_times)],
                [x - e for x, e in zip(cpu[k], empty_cpu)],
            )
        )


def time_without_spark(a, paths, work, resolvers):
    """The runs without Spark, taking turns round by round (so that a
    change in the machine's speed during the run touches each alike): the
    command (--cli), and in this process `urlspec.link_batches` alone and
    the job's partition functions. Returns their result rows."""
    import urlspec

    runs = []  # (what, resolver, run() -> (pages, links) or None, CPU seconds of)
    cli = a.cli or release_cli()
    if cli:

        def command():
            subprocess.run(
                [cli, "links", "-j", "1", "--output", "json", "--spec", a.spec, *paths],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
            )

        runs.append(("`urlspec links -j 1 --output json`", "urlspec", command, children_cpu_seconds))

    # With dictionaries (the default, as the job reads) and without (every
    # value written out in each row).
    def batches(dictionary):
        def run():
            n = 0
            for path in paths:
                with open(path, "rb", buffering=1 << 20) as f:
                    for b in urlspec.link_batches(f, a.batch_size, dictionary=dictionary, documents=False, summary=False, spec=a.spec, format="warc"):
                        n += b.num_rows
            return None, n

        return run

    for dictionary in (True, False):
        runs.append((f"`urlspec.link_batches`, dictionary={dictionary} (no Spark)", "urlspec", batches(dictionary), cpu_seconds))

    def partition_function(r):
        def run():
            if r == "urlspec":
                # The batches taken one by one, as mapInArrow takes them.
                read = links_job.make_batch_reader(a.spec, "fail", batch_size=a.batch_size)
                stats = [item[1][:2] for item in read(paths) if isinstance(item, tuple)]
            else:
                stats = [row[-1] for row in links_job.make_extractor(a.spec, r, "fail")(paths) if row[-1]]
            return sum(s[0] for s in stats), sum(s[1] for s in stats)

        return run

    for r in resolvers:
        runs.append(("the job's partition function (no Spark)", r, partition_function(r), cpu_seconds))

    if "tasks" in a.writers.split(",") and "urlspec" in resolvers:
        # What a task of --writer tasks does: the batches, their
        # dictionaries as link_batches builds them, written to Parquet
        # (--compression) by pyarrow.
        def task_writer():
            out = os.path.join(work, "task-writer")
            shutil.rmtree(out, ignore_errors=True)
            read = links_job.make_batch_reader(a.spec, "fail", batch_size=a.batch_size, dictionary=True)
            compression = links_job.codec_name(a.compression)
            task = links_job.make_part_writer(read, out, None, "bench", compression, True, links_job._links_schema().json())
            stats = [item[2][:2] for item in task(paths) if item[0] == "stats"]
            return sum(s[0] for s in stats), sum(s[1] for s in stats)

        runs.append(("the partition function of --writer tasks (no Spark)", "urlspec", task_writer, cpu_seconds))

    # One untimed pass of each, as a Spark run's start-up is left out (the
    # first batches import pandas through pyarrow, about a third of a
    # second; the tasks' writer imports pyarrow.parquet).
    links_job._arrow_links_schema()  # pyspark's Arrow types, imported once as in a Python worker
    counts = [run() for _, _, run, _ in runs]
    times = [[] for _ in runs]
    cpu = [[] for _ in runs]
    for _ in range(a.rounds):
        for i, (_, _, run, cpu_of) in enumerate(runs):
            t, c = time.perf_counter(), cpu_of()
            run()
            times[i].append(time.perf_counter() - t)
            cpu[i].append(cpu_of() - c)
    rows = []
    for (what, r, _, _), count, ts, cp in zip(runs, counts, times, cpu):
        pages, links = count if count else (None, None)
        rows.append((what, 1, r, pages, links, ts, cp))
    return rows


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
    p.add_argument("--warmups", type=int, default=5, help="untimed runs of each transfer and writer first, in each Spark setting (default 5)")
    p.add_argument("--cores", default="1,2", help="Spark local[N] for each N in this list; empty: none (default 1,2)")
    p.add_argument("--workers", type=int, default=2, help="one-core workers of the standalone cluster; 0: no cluster (default 2)")
    p.add_argument("--transfers", default="arrow,rows", help="--transfer modes of the job to time (default arrow,rows)")
    p.add_argument("--writers", default="spark,tasks", help="--writer values of the job to time (default spark,tasks)")
    p.add_argument("--resolvers", default="urlspec,urllib", help="--resolver values of the job to time (default urlspec,urllib)")
    p.add_argument("--batch-size", type=int, default=65536, help="links per Arrow batch (default 65536)")
    default = links_job.build_parser().get_default("compression")
    p.add_argument(
        "--compression",
        default=default,
        choices=links_job.COMPRESSIONS,
        help=f"the jobs' Parquet compression, and the tasks' writer's without Spark (default: the job's, {default})",
    )
    p.add_argument("--cli", help="the urlspec command to compare with (default: the release build in Cargo's target directory)")
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

        resolvers = a.resolvers.split(",")
        rows.extend(time_without_spark(a, paths, work, resolvers))
        # The CLI and link_batches rows count what the partition function counts.
        pages = next(r[3] for r in rows if r[3])
        links = next(r[4] for r in rows if r[4])
        rows = [(w, c, r, p if p is not None else pages, l if l is not None else links, ts, cp) for w, c, r, p, l, ts, cp in rows]

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

        load = os.getloadavg()
        print(
            f"\n{len(paths)} archives, {size / 1e6:.1f} MB gzipped; median of {a.rounds} rounds; spec {a.spec}; "
            f"batch size {a.batch_size}; load average at the end {load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}\n"
        )
        print("| run | resolver | links | seconds | links/s per core | of CLI -j 1 | CPU seconds | links per CPU second | of CLI -j 1 |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        base = base_cpu = None
        for what, cores, r, pages, links, ts, cpu in rows:
            if links is None:
                print(f"| {what} | | | {statistics.median(ts):.2f} | | | {statistics.median(cpu):.2f} | | |")
                continue
            s = statistics.median(ts)
            rate = links / s / cores
            base = base or (rate if what.startswith("`urlspec links") else None)
            share = f"{rate / base:.0%}" if base else ""
            c = statistics.median(cpu)
            cpu_rate = links / c if c else 0.0
            base_cpu = base_cpu or (cpu_rate if what.startswith("`urlspec links") else None)
            cpu_share = f"{cpu_rate / base_cpu:.0%}" if base_cpu else ""
            print(f"| {what} | {r} | {links:,} | {s:.2f} | {rate:,.0f} | {share} | {c:.2f} | {cpu_rate:,.0f} | {cpu_share} |")
    finally:
        if not a.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
