"""The Spark job as it runs at scale: on a standalone cluster, from S3, retried.

A local S3-compatible server (moto, in this process, on 127.0.0.1) holds
the archives and a gzip-compressed paths list, as Common Crawl publishes
them. A standalone cluster (standalone.py: a master and two workers of one
core each, from the pyspark package's launcher, on 127.0.0.1) runs the job
through spark-submit, its executors reading each archive from the bucket
with boto3. The outputs go to the local filesystem, written by Spark or by
the tasks (--writer), or back to the bucket, written by the tasks.

- The links equal `urlspec links --output json` over the same archives,
  row for row; each archive's statistics row equals the command's summary.
- A run whose first attempt of one task fails (the job's test variable)
  writes the same links, statistics and host graph as a clean run.
- Links and statistics written by the tasks into the bucket equal the
  command's too.
- Executors that get the package as a packed virtual environment
  (--archives, as examples/spark/README.md shows) write the same links (needs the wheel:
  URLSPEC_WHEEL, which .ci/run sets).

Without Spark or a cluster, the S3 reading is tested on its own: the paths
list, a prefix listing, and an archive streamed, not fetched whole.

Skipped, with the reason shown by `pytest -rs`, when a piece is missing
(Java, PySpark, pyarrow, urlspec, boto3, moto, the urlspec command, the
wheel); with CI=1 or URLSPEC_SPARK_REQUIRED=1 it fails instead.
"""

import gzip
import os
import shutil
import subprocess
import sys

import pytest

from checks import (
    HERE,
    JAVA_OPTS,
    assert_same_rows,
    cli_rows,
    cli_stats,
    host_graph_rows,
    link_rows,
    need,
    spark_missing,
    stats_rows,
)

import links_job
import standalone
import warcgen

JOB = os.path.join(HERE, "links_job.py")
BUCKET = "crawl"
SEGMENT = "crawl-data/CC-TEST-2024/segments/0001/warc/"
PATHS_KEY = "crawl-data/CC-TEST-2024/warc.paths.gz"
BIG_KEY = "crawl-data/CC-TEST-2024/segments/0002/warc/big.warc.gz"
# Credentials of the test server, as a cluster's nodes would have theirs;
# no instance metadata lookups and no profile files.
AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
    "AWS_CONFIG_FILE": os.devnull,
    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
}
# Every spark-submit, and the cluster's start, ends within these.
SUBMIT_TIMEOUT = 600
CLUSTER_TIMEOUT = 180


def s3_missing():
    try:
        import urlspec  # noqa: F401
    except ImportError:
        return "the urlspec Python package is not installed (pip install ./crates/urlspec-py)"
    for module, package in (("boto3", "boto3"), ("moto.server", "moto[server]")):
        try:
            __import__(module)
        except ImportError:
            return f"{package} is not installed (pip install boto3 'moto[server]')"
    return None


@pytest.fixture(scope="module")
def s3(tmp_path_factory, archives):
    """A moto S3 server on 127.0.0.1 holding the fixture archives and their
    paths list, and a larger synthetic archive in another segment; stopped
    when the module ends."""
    need(s3_missing())
    import boto3
    from moto.server import ThreadedMotoServer

    big = warcgen.synthetic_archives(str(tmp_path_factory.mktemp("big")), files=1, pages_per_file=1000, links_per_page=30)[0]
    local = {os.path.basename(p): p for p in archives["files"]}
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        with pytest.MonkeyPatch.context() as mp:
            for k, v in AWS_ENV.items():
                mp.setenv(k, v)
            for k in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"):
                mp.delenv(k, raising=False)
            endpoint = "http://127.0.0.1:%d" % server.get_host_and_port()[1]
            client = boto3.client("s3", endpoint_url=endpoint)
            client.create_bucket(Bucket=BUCKET)
            for name, path in local.items():
                client.upload_file(path, BUCKET, SEGMENT + name)
            client.upload_file(big, BUCKET, BIG_KEY)
            listing = "".join(SEGMENT + name + "\n" for name in local)
            client.put_object(Bucket=BUCKET, Key=PATHS_KEY, Body=gzip.compress(listing.encode()))
            client.put_object(Bucket=BUCKET, Key=PATHS_KEY[: -len(".gz")], Body=listing.encode())
            uris = {f"s3://{BUCKET}/{SEGMENT}{name}": path for name, path in local.items()}
            yield {"endpoint": endpoint, "client": client, "uris": uris, "big": (f"s3://{BUCKET}/{BIG_KEY}", big)}
    finally:
        server.stop()


# ---------------------------------------------------------------- S3 alone


def test_paths_list_and_prefix_on_s3(s3):
    """The paths list, gzip-compressed or not, read in the driver with
    boto3, relative keys joined to --input-base-url; a prefix lists the
    archives under it."""
    want = sorted(s3["uris"])
    for key in (PATHS_KEY, PATHS_KEY[: -len(".gz")]):
        got = links_job.read_path_lists(None, [f"s3://{BUCKET}/{key}"], f"s3://{BUCKET}/", s3["endpoint"])
        assert sorted(got) == want
    assert links_job.expand_input(f"s3://{BUCKET}/{SEGMENT}", s3["endpoint"]) == want
    assert links_job.expand_input(f"s3a://{BUCKET}/{SEGMENT.rstrip('/')}", s3["endpoint"]) == [
        "s3a" + u[len("s3") :] for u in want
    ]


def test_an_s3_archive_is_streamed(s3):
    """urlspec reads the object's body as it arrives: when the first link
    is out, only the start of the archive has been read."""
    import urlspec

    uri, path = s3["big"]
    size = os.path.getsize(path)
    assert size > 1 << 20
    body = links_job.open_archive(uri, s3["endpoint"])
    links = urlspec.links(body, format="warc")
    first = next(links)
    assert 0 < body.tell() < size // 4, (body.tell(), size)
    rest = [first.to_dict()] + [link.to_dict() for link in links]
    body.close()
    with open(path, "rb") as f:
        assert rest == [link.to_dict() for link in urlspec.links(f, format="warc")]


def test_a_missing_object_is_an_error_of_its_archive(s3):
    """With --on-error skip, an archive the bucket does not hold gets a
    statistics row with the error."""
    rows = list(links_job.make_extractor("rfc1808", "urlspec", "skip", s3["endpoint"])([f"s3://{BUCKET}/missing.warc.gz"]))
    (row,) = rows
    stats = dict(zip(links_job.STATS_COLUMNS, row[-1]))
    assert [stats[k] for k in ("pages", "links", "unresolved", "unreadable_pages", "skipped_records")] == [0] * 5
    assert "NoSuchKey" in stats["error"]
    with pytest.raises(Exception, match="NoSuchKey"):
        list(links_job.make_extractor("rfc1808", "urlspec", "fail", s3["endpoint"])([f"s3://{BUCKET}/missing.warc.gz"]))


# ---------------------------------------------------------------- the cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, s3):
    """A standalone master and two one-core workers on 127.0.0.1, with the
    store's credentials in their environment; stopped when the module ends,
    whatever happens."""
    need(spark_missing())
    env = dict(os.environ, SPARK_DAEMON_JAVA_OPTS=JAVA_OPTS, **AWS_ENV)
    with standalone.Cluster(
        str(tmp_path_factory.mktemp("cluster")), workers=2, cores=1, memory="1g", env=env, timeout=CLUSTER_TIMEOUT
    ) as c:
        yield c


CONF = [
    ("spark.executor.memory", "512m"),
    ("spark.driver.memory", "512m"),
    ("spark.driver.extraJavaOptions", JAVA_OPTS),
    ("spark.executor.extraJavaOptions", JAVA_OPTS),
    ("spark.sql.shuffle.partitions", "2"),
]


def submit(cluster, args, conf=(), env=None, submit_args=(), cwd=None):
    code, out, err = cluster.submit(
        [JOB, *args], conf=CONF + list(conf), env=env, timeout=SUBMIT_TIMEOUT, submit_args=submit_args, cwd=cwd
    )
    assert code == 0, f"spark-submit exited with {code}:\n{err[-6000:]}"
    return err


def outputs(out):
    return {"links": link_rows(out), "stats": stats_rows(out + "-stats"), "graph": host_graph_rows(out + "-hosts")}


def expected(cli, files, given, spec="rfc1808"):
    rows, stats = [], {}
    for f in files:
        r, summary = cli_rows(cli, f, given[f], spec)
        rows += r
        stats[given[f]] = cli_stats(summary)
    return rows, stats


def assert_matches_cli(run, want, want_stats):
    assert_same_rows(run["links"], want)
    assert set(run["stats"]) == set(want_stats)
    for f, s in run["stats"].items():
        assert {k: s[k] for k in want_stats[f]} == want_stats[f], f
        assert s["error"] is None


# The archives of the bucket's paths list, over two partitions.
FROM_THE_BUCKET = ["--paths-from", f"s3://{BUCKET}/{PATHS_KEY}", "--input-base-url", f"s3://{BUCKET}/", "--num-partitions", "2"]


def test_cluster_reads_s3_and_counts_once_across_a_retry(cluster, s3, cli, tmp_path):
    """Two runs over the bucket's paths list: a clean one (endpoint given
    by --s3-endpoint, rows pickled), and one whose first attempt of the
    task reading b.warc fails (endpoint from AWS_ENDPOINT_URL on the driver
    and the executors, rows as Arrow batches written to Parquet by the
    tasks, the default). Both equal the CLI, and each other."""
    common = [*FROM_THE_BUCKET, "--mode", "overwrite"]
    clean_out, faulty_out = str(tmp_path / "clean"), str(tmp_path / "faulty")
    submit(
        cluster,
        [*common, "--s3-endpoint", s3["endpoint"], "--transfer", "rows", "--output", clean_out, "--host-graph", clean_out + "-hosts"],
    )
    env = dict(cluster.env, AWS_ENDPOINT_URL=s3["endpoint"], **{links_job.FAULT_VARIABLE: "b.warc"})
    err = submit(
        cluster,
        [*common, "--output", faulty_out, "--host-graph", faulty_out + "-hosts"],
        conf=[("spark.executorEnv.AWS_ENDPOINT_URL", s3["endpoint"])],
        env=env,
    )
    assert "InjectedFault" in err  # Spark reported the failed attempt

    clean, faulty = outputs(clean_out), outputs(faulty_out)
    uris = s3["uris"]
    want, want_stats = expected(cli, list(uris.values()), {path: uri for uri, path in uris.items()})
    assert_matches_cli(clean, want, want_stats)
    assert_matches_cli(faulty, want, want_stats)

    assert {os.path.basename(f): s["task_attempt"] for f, s in clean["stats"].items()} == {
        os.path.basename(f): 0 for f in uris
    }
    attempts = {os.path.basename(f): s["task_attempt"] for f, s in faulty["stats"].items()}
    assert attempts["b.warc"] == 1
    for stats in (clean["stats"], faulty["stats"]):
        for s in stats.values():
            del s["task_attempt"]
    assert faulty["stats"] == clean["stats"]
    assert faulty["graph"] == clean["graph"] == sorted(clean["graph"])
    assert ("com.example.www", "net.example.cdn", 1, 1) in clean["graph"]


def test_the_tasks_write_their_parquet_to_s3(cluster, s3, cli):
    """--writer tasks with s3:// outputs: each executor writes its part file
    into the bucket (pyarrow's S3 filesystem at --s3-endpoint), the driver
    commits the parts there, removes _temporary and writes the statistics
    there too; read back, they equal the command's links and summaries."""
    out = f"s3://{BUCKET}/out/links"
    submit(
        cluster,
        [*FROM_THE_BUCKET, "--s3-endpoint", s3["endpoint"], "--writer", "tasks", "--output", out],
    )
    keys = [o["Key"] for o in s3["client"].list_objects_v2(Bucket=BUCKET, Prefix="out/")["Contents"]]
    assert not [k for k in keys if "_temporary" in k]
    assert {"out/links/_SUCCESS", "out/links-stats/_SUCCESS"} <= set(keys)
    assert len([k for k in keys if k.startswith("out/links/part-")]) == 2
    run = {
        "links": [tuple(r[c] for c in links_job.COLUMNS) for r in links_job.read_back(out, s3["endpoint"])],
        "stats": {r["warc_file"]: r for r in links_job.read_back(out + "-stats", s3["endpoint"])},
    }
    uris = s3["uris"]
    want, want_stats = expected(cli, list(uris.values()), {path: uri for uri, path in uris.items()})
    assert_matches_cli(run, want, want_stats)


def test_packed_environment_on_the_cluster(cluster, cli, archives, tmp_path):
    """Executors that run the Python of a virtual environment packed with
    venv-pack and shipped with --archives, as examples/spark/README.md shows (the
    environment holds only the wheel: --transfer rows needs no pyarrow on
    the executors). Local archives, the damaged one among them, named by a
    relative path."""
    wheel = os.environ.get("URLSPEC_WHEEL")
    need(None if wheel and os.path.exists(wheel) else "URLSPEC_WHEEL does not name the urlspec wheel (pip wheel ./crates/urlspec-py)")
    try:
        import venv_pack
    except ImportError:
        need("venv-pack is not installed (pip install venv-pack)")
    env_dir = tmp_path / "job-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install", "--quiet", "--no-deps", "--no-index", wheel],
        check=True,
    )
    packed = str(tmp_path / "job-env.tar.gz")
    venv_pack.pack(prefix=str(env_dir), output=packed, compress_level=1)
    shutil.rmtree(env_dir)  # only the packed copy is left to run

    out = str(tmp_path / "links")
    env = dict(cluster.env, PYSPARK_DRIVER_PYTHON=sys.executable, PYSPARK_PYTHON="./environment/bin/python")
    # The input as a path relative to where the job is submitted: the
    # executors, which run elsewhere, get it made absolute.
    parent, name = os.path.split(archives["dir"])
    submit(
        cluster,
        [name, "--transfer", "rows", "--on-error", "skip", "--output", out],
        env=env,
        submit_args=["--archives", packed + "#environment"],
        cwd=parent,
    )
    files = archives["files"] + [archives["damaged"]]
    want, want_stats = expected(cli, files, {f: f for f in files})
    assert_same_rows(link_rows(out), want)
    stats = stats_rows(out + "-stats")
    assert set(stats) == set(want_stats)
    for f, s in stats.items():
        assert {k: s[k] for k in want_stats[f]} == want_stats[f], f
        assert s["error"] is None, f
        assert dict(s["skipped_by_reason"])["damaged"] == (f == archives["damaged"]), f
