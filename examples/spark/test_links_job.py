"""The Spark job in local mode against `urlspec links --output json`, row for row.

The test writes its own WARC archives (warcgen.fixture_archives: gzip and
plain, a 301 -> 302 redirect chain, <base href> absolute and relative,
Content-Location and Content-Base headers, chunked and gzip-coded bodies,
images, CSS, warcinfo, request and metadata records, an opaque and a
scheme-less target URI, links that resolve, that no spec can resolve and
that only some can, links inside <noscript> and <template>, pages in UTF-8
and windows-1252), runs links_job.py with Spark `local[2,2]` (two cores;
a failed task is tried twice) on them, and compares every Parquet row with
the CLI's JSON line for the same link, and each archive's statistics row
with the CLI's summary of it. test_cluster.py runs the job on a standalone
cluster, from S3.

Skipped, with the reason shown by `pytest -rs`, when Java, PySpark,
pyarrow, the `urlspec` package or the urlspec command is missing; with
CI=1 or URLSPEC_SPARK_REQUIRED=1 (as in .ci/run) a missing piece fails the
test instead.
"""

import json
import os
import subprocess
import sys
import urllib.parse

import pytest

from checks import (
    JAVA_OPTS,
    JSON_KEYS,
    assert_same_rows,
    cli_rows,
    cli_stats,
    host_graph_rows,
    link_rows,
    need,
    ordered,
    spark_missing,
    stats_rows,
)

import links_job
import warcgen


@pytest.fixture(scope="module")
def spark():
    """One local SparkSession for the module: its startup is most of the
    test's time."""
    need(spark_missing())
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers import urlspec from this Python
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2,2]")
        .appName("urlspec links test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "512m")
        .config("spark.driver.extraJavaOptions", JAVA_OPTS)
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def job_args(archives, out, *extra):
    return [
        archives["given"][archives["files"][0]],
        archives["given"][archives["files"][1]],
        "--paths-from",
        archives["list"],
        "--input-base-url",
        archives["dir"],
        "--output",
        out,
        "--mode",
        "overwrite",
        *extra,
    ]


def expected(cli, archives, spec, files=None):
    """The link rows and the statistics the job must write, from the CLI."""
    rows, stats = [], {}
    for f in files or archives["files"]:
        given = archives["given"].get(f, f)
        r, summary = cli_rows(cli, f, given, spec)
        rows += r
        stats[given] = cli_stats(summary)
    return rows, stats


def run_job(spark, archives, out, *extra):
    """Runs the job; its totals and outputs read back."""
    graph = out + "-hosts"
    counts = links_job.main(job_args(archives, out, "--host-graph", graph, *extra), spark=spark)
    return {
        "dir": out,
        "counts": counts,
        "links": link_rows(out),
        "stats": stats_rows(out + "-stats"),
        "graph": host_graph_rows(graph),
    }


@pytest.fixture(scope="module")
def clean(spark, archives, tmp_path_factory):
    return run_job(spark, archives, str(tmp_path_factory.mktemp("clean") / "links"))


def without_attempt(stats):
    return {f: {k: v for k, v in s.items() if k != "task_attempt"} for f, s in stats.items()}


def test_links_and_statistics_match_the_cli(clean, cli, archives, spark):
    want, want_stats = expected(cli, archives, "rfc1808")
    got = clean["links"]
    assert_same_rows(got, want)

    # The explicit schema, as Spark reads it back.
    schema = spark.read.parquet(clean["dir"]).schema
    assert [(f.name, f.dataType.simpleString()) for f in schema.fields] == [
        ("warc_file", "string"),
        ("target_uri", "string"),
        ("redirect_chain", "array<string>"),
        ("link_element", "string"),
        ("link_attribute", "string"),
        ("reference", "string"),
        ("url", "string"),
        ("base", "string"),
        ("base_source", "string"),
        ("error", "string"),
        ("offset", "bigint"),
        ("containers", "array<string>"),
        ("encoding", "string"),
        ("context", "string"),
    ]

    # The cases the archives were made for are in the rows.
    by_page = {}
    for r in got:
        by_page.setdefault(r[1], []).append(r)
    final = by_page["https://www.example.com/final/page.html"]
    assert final[0][2] == ["http://example.com/old", "http://example.com/new", "https://www.example.com/final/page.html"]
    assert {r[8] for r in by_page["http://example.org/docs/index.html"]} == {"embedded"}
    assert any(r[9] for r in got), "some link has an error"
    assert not any(t.endswith((".png", ".css")) or t == "http://example.net/empty.html" for t in by_page)
    assert {r[0] for r in got} == set(archives["given"].values())
    # The page's encoding, by its Content-Type charset or, without one,
    # windows-1252 as browsers default; the links outside the document tree.
    encodings = {r[1]: r[12] for r in got}
    assert encodings["http://example.org/docs/index.html"] == "UTF-8"
    assert encodings["http://example.net/chunked/"] == "windows-1252"
    assert encodings["http://xn--caf-dma.example/latin1.html"] == "windows-1252"
    contexts = {r[5]: r[13] for r in got if r[1] == "http://xn--caf-dma.example/"}
    assert (contexts["noscript.html"], contexts["template.html"], contexts["map"]) == ("noscript", "template", None)

    # One statistics row per archive, as the CLI counts it; the page
    # without links and the skipped records are only there.
    stats = clean["stats"]
    assert set(stats) == set(want_stats)
    for f, s in stats.items():
        assert {k: s[k] for k in want_stats[f]} == want_stats[f], f
        assert s["error"] is None and s["task_attempt"] == 0 and s["unreadable_pages"] == 0
    a, b, c = (archives["given"][f] for f in archives["files"])
    reasons = {f: {k: v for k, v in stats[f]["skipped_by_reason"].items() if v} for f in (a, b, c)}
    assert reasons == {
        a: {"not_response": 2, "redirect": 2, "not_html": 2},  # warcinfo, request; 301, 302; png, css
        b: {"not_response": 2},  # warcinfo, metadata
        c: {},
    }
    # b.warc: seven pages, one with <base href>, empty.html without links.
    assert stats[b]["pages"] == 7 and stats[b]["pages_by_base_source"] == {
        "embedded": 1,
        "header": 0,
        "retrieval": 6,
        "none": 0,
    }
    assert len({r[1] for r in got if r[0] == b}) == 6

    # The totals are the sums of the table.
    counts = clean["counts"]
    assert counts["archives"] == 3 and counts["failed_archives"] == 0
    assert counts["links"] == len(want) == sum(s["links"] for s in stats.values())
    assert counts["pages"] == sum(s["pages"] for s in want_stats.values())
    assert counts["skipped_by_reason"]["not_response"] == 4

    # The host graph: the links aggregated by (source host, target host),
    # hosts in reversed domain name notation, sorted.
    graph = clean["graph"]
    assert graph == sorted(graph)
    edges = {(s, t): (n, p) for s, t, n, p in graph}
    assert len(edges) == len(graph)
    assert edges[("com.example.www", "net.example.cdn")] == (1, 1)
    assert edges[("com.example.www", "com.example.www")] == (14, 1)  # next.html twice: two links
    assert edges[("org.example", "edu.uci.ics.www")] == (11, 1)  # <base href> and the links it sets the base of
    assert edges[("example.xn--caf-dma", "example.host")] == (1, 1)  # user, password and port dropped
    assert edges[("example.xn--caf-dma", "example.upper")] == (1, 1)  # lower-cased
    assert edges[("example.xn--caf-dma", "192.0.2.7")] == (1, 1)  # an IP address as it is
    assert edges[("example.xn--caf-dma", "[2001:db8::1]")] == (1, 1)
    assert not any(t in ("", None) for _, t in edges)  # mailto:, javascript: have no host
    assert sum(n for n, _ in edges.values()) < len(got)


def _dictionary_encoded(out):
    """Whether any column chunk of the Parquet files under `out` is
    dictionary-encoded."""
    import glob

    import pyarrow.parquet as pq

    found = False
    for path in glob.glob(os.path.join(out, "*.parquet")):
        meta = pq.ParquetFile(path).metadata
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                found |= any("DICTIONARY" in e for e in meta.row_group(g).column(c).encodings)
    return found


def test_dictionary_encoding_follows_the_writer_and_compression(clean, spark, archives, tmp_path):
    """--dictionary auto: the tasks' writer (the clean run) writes the
    batches' dictionaries; Spark's writer under snappy (the default), or
    asked for, writes them, under zstd it does not. The rows, and the
    column types a reader sees, are the same either way."""
    import pyarrow.parquet as pq

    assert _dictionary_encoded(clean["dir"])
    types = pq.read_table(clean["dir"]).schema
    assert all(not str(f.type).startswith("dictionary") for f in types)
    for extra in (["--writer", "spark", "--compression", "zstd"], ["--writer", "tasks", "--dictionary", "off"]):
        out = str(tmp_path / "-".join(extra).strip("-"))
        links_job.main(job_args(archives, out, *extra), spark=spark)
        assert not _dictionary_encoded(out), extra
        assert sorted(link_rows(out)) == sorted(clean["links"]), extra
        assert pq.read_table(out).schema.types == types.types, extra
    for extra in (["--writer", "spark"], ["--writer", "spark", "--compression", "zstd", "--dictionary", "on"]):
        out = str(tmp_path / "-".join(extra).strip("-"))
        links_job.main(job_args(archives, out, *extra), spark=spark)
        assert _dictionary_encoded(out), extra
        assert sorted(link_rows(out)) == sorted(clean["links"]), extra


def _files(out):
    """The names in an output directory, part files by their kind."""
    return sorted("part-*" + f.split("-c000", 1)[1] if f.startswith("part-") else f for f in os.listdir(out))


def test_tasks_write_what_spark_writes(clean, spark, archives, tmp_path):
    """--writer tasks (the default under --transfer arrow: the clean run)
    writes, from the tasks' own Arrow batches, the rows Spark's writer
    writes from the same batches, with the same schema as Spark reads it
    back, the same statistics and host graph; the part files of the tasks
    that read links (one per partition: the three small archives packed
    into two on the session's two cores), _SUCCESS, no _temporary."""
    out = str(tmp_path / "links")
    by_spark = run_job(spark, archives, out, "--writer", "spark")
    assert_same_rows(clean["links"], by_spark["links"])
    assert clean["stats"] == by_spark["stats"]
    assert clean["graph"] == by_spark["graph"]
    assert clean["counts"] == by_spark["counts"]
    for path in (clean["dir"], clean["dir"] + "-stats"):
        assert spark.read.parquet(path).schema == spark.read.parquet(path.replace(clean["dir"], out)).schema
    assert links_job.archive_partitions(spark.sparkContext, archives["files"]).getNumPartitions() == 2
    assert _files(clean["dir"]) == ["_SUCCESS"] + ["part-*.snappy.parquet"] * 2
    assert [f for f in _files(out) if not f.startswith(".")] == _files(clean["dir"])  # Spark's writer adds .crc files
    assert _files(clean["dir"] + "-stats") == ["_SUCCESS", "part-*.snappy.parquet"]


@pytest.mark.parametrize("writer", ["spark", "tasks"])
def test_a_retried_task_counts_once(clean, spark, archives, tmp_path, monkeypatch, writer):
    """The first attempt of the task reading b.warc fails after handing on
    all its rows (the job's test variable); Spark runs the task again. The
    links, the statistics and the host graph are those of the clean run,
    whatever the partitioning, and with either writer (the tasks' writer:
    only the file of the attempt that succeeded is committed); only the
    statistics row of b.warc tells that its task was retried."""
    monkeypatch.setenv(links_job.FAULT_VARIABLE, "b.warc")
    faulty = run_job(spark, archives, str(tmp_path / "links"), "--num-partitions", "2", "--writer", writer)
    assert "_temporary" not in os.listdir(faulty["dir"])
    assert_same_rows(faulty["links"], clean["links"])
    assert without_attempt(faulty["stats"]) == without_attempt(clean["stats"])
    attempts = {os.path.basename(f): s["task_attempt"] for f, s in faulty["stats"].items()}
    assert attempts["b.warc"] == 1
    assert faulty["graph"] == clean["graph"]
    assert faulty["counts"] == clean["counts"]


@pytest.mark.parametrize("writer", ["spark", "tasks"])
def test_save_modes(spark, archives, tmp_path, writer):
    """--mode, as Spark's writer honours it, with either writer: an
    existing output is refused (errorifexists), left alone (ignore: the
    totals are those of the statistics there), added to (append: more
    part files, the links twice) or replaced (overwrite)."""
    a, _, c = archives["files"]
    out = str(tmp_path / "links")

    def job(path, mode):
        return links_job.main([path, "--output", out, "--mode", mode, "--writer", writer], spark=spark)

    def parts():
        return {f for f in os.listdir(out) if f.startswith("part-")}

    first = job(a, "errorifexists")
    links_a = link_rows(out)
    files = sorted(os.listdir(out))
    with pytest.raises(Exception, match="already exists"):
        job(c, "errorifexists")
    assert sorted(os.listdir(out)) == files
    assert job(c, "ignore") == first
    assert sorted(os.listdir(out)) == files and link_rows(out) == links_a
    before = parts()
    job(c, "append")
    links_c = [r for r in link_rows(out) if r[0] == c]
    assert links_c and before < parts()
    assert_same_rows(link_rows(out), links_a + links_c)
    before = parts()
    counts = job(c, "overwrite")
    assert_same_rows(link_rows(out), links_c)
    assert parts() and not before & parts()
    assert counts["archives"] == 1 and counts["links"] == len(links_c)
    assert list(stats_rows(out + "-stats")) == [c]


@pytest.mark.parametrize("writer", ["spark", "tasks"])
def test_an_archive_without_links(spark, tmp_path, writer):
    """A task that read no link writes no file; when none did, the output
    still has the schema (one empty file, as Spark's writer leaves it), so
    that the host graph and other readers read it back."""
    path = str(tmp_path / "quiet.warc.gz")
    warcgen.write(path, [warcgen.response("http://h.example/", b"<p>no links</p>")], compress=True)
    out = str(tmp_path / "links")
    counts = links_job.main([path, "--output", out, "--writer", writer, "--host-graph", out + "-hosts"], spark=spark)
    assert counts["pages"] == 1 and counts["links"] == 0
    assert link_rows(out) == [] and host_graph_rows(out + "-hosts") == []
    assert [f.name for f in spark.read.parquet(out).schema.fields] == list(links_job.COLUMNS)


def test_the_tasks_writer_needs_arrow(spark, archives, tmp_path):
    with pytest.raises(SystemExit, match="--transfer arrow"):
        links_job.main(job_args(archives, str(tmp_path / "links"), "--writer", "tasks", "--transfer", "rows"), spark=spark)


def test_other_spec_and_damaged_archive(spark, cli, archives, tmp_path):
    """--spec reaches urlspec (whatwg refuses what rfc1808 accepts); a
    damaged archive is read past its damaged record, as the CLI reads it,
    and its statistics row counts the record (skipped_by_reason's
    damaged), with no error: the archive was read to its end."""
    out = str(tmp_path / "links")
    args = job_args(archives, out, "--spec", "whatwg", "--on-error", "skip")
    args.insert(0, archives["damaged"])
    counts = links_job.main(args, spark=spark)
    got = link_rows(out)
    want, want_stats = expected(cli, archives, "whatwg", archives["files"] + [archives["damaged"]])
    assert_same_rows(got, want)
    assert any(r[0] == archives["damaged"] for r in got)
    stats = stats_rows(out + "-stats")
    for f, s in stats.items():
        assert {k: s[k] for k in want_stats[f]} == want_stats[f], f
    assert dict(stats[archives["damaged"]]["skipped_by_reason"])["damaged"] == 1
    assert [f for f, s in stats.items() if s["error"]] == []
    assert counts["failed_archives"] == 0 and counts["archives"] == 4
    assert counts["links"] == len(want)
    errors = {(r[1], r[5]): r[9] for r in got if r[9]}
    # The URL Standard's validation errors, by name.
    assert "IPv6-unclosed" in errors[("https://www.example.com/final/page.html", "http://[::1")]
    assert "missing-scheme-non-relative-URL" in errors[("urn:example:doc", "rel")]
    # The query in the page's encoding, the path in UTF-8.
    latin1 = [r for r in got if r[1] == "http://xn--caf-dma.example/latin1.html"]
    assert [(r[5], r[6], r[12]) for r in latin1] == [
        ("caf\xe9.html?q=\xe9", "http://xn--caf-dma.example/caf%C3%A9.html?q=%E9", "windows-1252")
    ]


def test_rows_transfer_and_urllib_resolver(spark, cli, archives, clean, tmp_path):
    """--transfer rows (pickled rows, no Arrow) writes the same rows and
    statistics; and --resolver urllib the same links and bases, each url
    from urllib.parse.urljoin."""
    a = str(tmp_path / "urlspec")
    b = str(tmp_path / "urllib")
    links_job.main(job_args(archives, a, "--transfer", "rows"), spark=spark)
    links_job.main(job_args(archives, b, "--resolver", "urllib"), spark=spark)
    by_urlspec, by_urllib = link_rows(a), link_rows(b)
    assert_same_rows(by_urlspec, clean["links"])
    assert stats_rows(a + "-stats") == clean["stats"]

    def key(r):  # every column but url and error
        return r[:6] + r[7:9] + r[10:]

    assert ordered(map(key, by_urlspec)) == ordered(map(key, by_urllib))
    for r in by_urllib:
        if r[7] is not None:
            try:
                want = urllib.parse.urljoin(r[7], r[5].strip(" \t\n\r\f"))
            except ValueError as e:
                want = None
                assert r[9] == f"urljoin: {e}", r
            assert r[6] == want, r
    # The statistics count urljoin's failures as unresolved.
    for f, s in stats_rows(b + "-stats").items():
        assert s["unresolved"] == sum(1 for r in by_urllib if r[0] == f and r[9] is not None)
    # Where urljoin and RFC 1808 part: urljoin drops the `..` above the root.
    pick = {(r[1], r[5]): r[6] for r in by_urlspec}, {(r[1], r[5]): r[6] for r in by_urllib}
    k = ("https://www.example.com/final/page.html", "../../../up")
    assert (pick[0][k], pick[1][k]) == ("https://www.example.com/../../up", "https://www.example.com/up")


def test_archives_are_packed_as_spark_packs_files():
    """pack_archives groups archives as Spark's FilePartition groups a file
    source's files, each archive whole (no Spark needed)."""
    mb = 1 << 20
    pack = links_job.pack_archives
    # Small archives on one core: one partition (49.6 MB in all, counting
    # 4 MB for opening each, within the 49.6 MB a core takes).
    paths = [f"a{i}" for i in range(8)]
    assert pack(paths, [2.2 * mb] * 8, 1) == [paths]
    # On two cores, two partitions of four; the order of the paths kept.
    assert pack(paths, [2.2 * mb] * 8, 2) == [paths[:4], paths[4:]]
    # Largest first, each partition up to 128 MB: 100 MB alone, then 60 and
    # 50 together (114 MB with their opening), then 30.
    sizes = {"w": 30 * mb, "x": 100 * mb, "y": 60 * mb, "z": 50 * mb}
    assert pack(list(sizes), list(sizes.values()), 1) == [["x"], ["y", "z"], ["w"]]
    # An archive larger than a partition, or of unknown size, is alone.
    assert pack(["big", "s1", "s2"], [1 << 30, mb, mb], 1) == [["big"], ["s1", "s2"]]
    assert pack(["s3://b/1", "s3://b/2"], [None, None], 8) == [["s3://b/1"], ["s3://b/2"]]
    assert pack([], [], 4) == []
    # Every archive in exactly one partition.
    many = [f"p{i}" for i in range(1000)]
    groups = pack(many, [(i * 7919) % (300 * mb) for i in range(1000)], 16)
    assert sorted(p for g in groups for p in g) == sorted(many)
    assert links_job.archive_size("s3://bucket/key.warc.gz") is None


def test_local_inputs_are_made_absolute(archives, tmp_path, monkeypatch):
    """Executors do not run in the driver's directory: relative INPUTs and
    paths-list entries reach them as absolute paths (no Spark needed)."""
    parent, name = os.path.split(archives["dir"])
    monkeypatch.chdir(parent)
    files = sorted(archives["files"] + [archives["damaged"]])
    assert links_job.expand_input(name) == files
    assert links_job.expand_input(os.path.join(name, "b.warc")) == [archives["files"][1]]
    assert links_job.expand_input(os.path.join(name, "*.warc.gz")) == [f for f in files if f.endswith(".gz")]
    listing = tmp_path / "warc.paths"
    listing.write_text(os.path.join(name, "c.warc.gz") + "\n")
    assert links_job.read_path_lists(None, [str(listing)], "") == [archives["files"][2]]


def test_warc_file_column_and_statistics_split(tmp_path):
    """The warc_file column made from its buffers holds the path on every
    row (UTF-8, sliced); split_arrow hands on the link rows of a batch
    without the stats column and adds its statistics rows, as _stats
    makes them, to the accumulator (no Spark needed)."""
    pa = pytest.importorskip("pyarrow")
    path = str(tmp_path / "caf\u00e9" / "crawl-000.warc.gz")
    column = links_job._repeated(pa, path, 5)
    column.validate(full=True)
    assert column.to_pylist() == [path] * 5
    assert column.slice(0, 2).to_pylist() == [path] * 2
    assert links_job._repeated(pa, "", 3).to_pylist() == [""] * 3
    column = links_job._repeated(pa, path, 5, dictionary=True)
    column.validate(full=True)
    assert column.type == pa.dictionary(pa.int32(), pa.string())
    assert column.slice(1, 3).to_pylist() == [path] * 3

    counts = pa.map_(pa.string(), pa.int64())
    stats_type = pa.struct(
        [
            pa.field(k, counts if k in ("skipped_by_reason", "pages_by_base_source") else pa.string() if k == "error" else pa.int64())
            for k in links_job.STATS_COLUMNS
        ]
    )
    stats = links_job._stats({"documents": 2, "skipped_records": 1, "skipped_by_reason": {"redirect": 1}}, 3, 1, None, 0)
    row = dict(zip(links_job.STATS_COLUMNS, stats))
    row = {k: list(v.items()) if isinstance(v, dict) else v for k, v in row.items()}
    schema = pa.schema([("warc_file", pa.string()), ("url", pa.string()), ("stats", stats_type)])
    links = pa.RecordBatch.from_arrays([pa.array(["a", "a"]), pa.array(["u1", None]), pa.nulls(2, stats_type)], schema=schema)
    mixed = pa.RecordBatch.from_arrays(
        [pa.array(["a", "a"]), pa.array(["u2", None]), pa.array([None, row], stats_type)], schema=schema
    )

    class Gathered:
        rows = []

        def add(self, rows):
            self.rows.extend(rows)

    gathered = Gathered()
    out = list(links_job.split_arrow(lambda batches: iter(batches), gathered)([links, mixed]))
    assert [b.schema.names for b in out] == [["warc_file", "url"]] * 2
    assert [r for b in out for r in zip(b.column(0).to_pylist(), b.column(1).to_pylist())] == [("a", "u1"), ("a", None), ("a", "u2")]
    assert gathered.rows == [("a", stats)]


WARC_REAL = os.environ.get(
    "URLSPEC_WARC_REAL", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "..", "shared", "data", "warc-real")
)


def test_real_archives_match_the_cli(spark, cli, tmp_path):
    """Every archive of ../shared/data/warc-real (13 crawlers' real WARC and
    ARC files, damaged ones among them): the Parquet holds the CLI's JSON
    lines, row for row, and each archive's statistics row its summary."""
    need(None if os.path.isdir(WARC_REAL) else f"{WARC_REAL} is missing")
    files = sorted(
        os.path.abspath(os.path.join(WARC_REAL, f)) for f in os.listdir(WARC_REAL) if f not in ("MANIFEST.tsv", "README.md")
    )
    assert len(files) >= 40
    out = str(tmp_path / "links")
    counts = links_job.main([*files, "--output", out, "--on-error", "skip", "--batch-size", "100"], spark=spark)
    assert counts["archives"] == len(files)
    want, want_stats = [], {}
    for f in files:
        # The job reads every input as an archive (urlspec's format="warc"):
        # the command too, so that an ARC file is refused by both.
        p = subprocess.run([cli, "links", "--output", "json", "--format", "warc", f], capture_output=True, text=True)
        assert p.returncode in (0, 1), p.stderr
        want += [(f, *(j[k] for k in JSON_KEYS)) for j in map(json.loads, p.stdout.splitlines())]
        want_stats[f] = cli_stats(p.stderr)
    assert_same_rows(link_rows(out), want)
    assert len(want) > 1000
    got_stats = stats_rows(out + "-stats")
    assert set(got_stats) == set(want_stats)
    for f, s in got_stats.items():
        assert {k: s[k] for k in want_stats[f]} == want_stats[f], f


SPLIT_PAGE = (
    b"<a href='http://allowed.example\\@evil.example/'>a</a>"
    b"<a href='http://0177.0.0.1/x'>b</a><a href='http:/evil.example/p'>c</a>"
    b"<a href='/ok'>d</a>"
)


@pytest.mark.parametrize("transfer", ["arrow", "rows"])
def test_parsers_add_the_host_split_column_and_count(spark, cli, tmp_path, transfer):
    path = str(tmp_path / "split.warc.gz")
    warcgen.write(path, [warcgen.response(f"http://h.example/{i}", SPLIT_PAGE) for i in range(4)], compress=True)
    parsers = "python-urllib,Python-urllib3,curl,curl"
    out = str(tmp_path / "links")
    counts = links_job.main([path, "--output", out, "--mode", "overwrite", "--transfer", transfer, "--parsers", parsers], spark=spark)
    p = subprocess.run(
        [cli, "links", "--output", "json", "--parsers", "python-urllib,python-urllib3,curl", path],
        capture_output=True, text=True, check=True,
    )
    want = {(j["document"], j["offset"]): j["host_split"] for j in map(json.loads, p.stdout.splitlines())}
    rows = link_rows(out)
    assert len(rows) == len(want) == 16
    got = {(r[1], r[10]): r[-1] for r in rows}
    assert got == want
    assert sum(v is not None for v in got.values()) == 12
    assert counts["host_splits"] == 12
    assert stats_rows(out + "-stats")[path]["host_splits"] == 12
    # Without --parsers: no such column, nothing counted.
    counts = links_job.main([path, "--output", out, "--mode", "overwrite", "--transfer", transfer], spark=spark)
    assert len(link_rows(out)[0]) == len(links_job.COLUMNS)
    assert counts["host_splits"] == 0


def test_an_unknown_parser_stops_the_job_before_it_starts(tmp_path):
    import urlspec

    with pytest.raises(SystemExit, match="lynx"):
        links_job.parser_names("curl,lynx")
    assert links_job.parser_names("ALL") == list(urlspec.PARSERS)
    assert links_job.parser_names(None) == []


def test_parser_names_read_the_list_as_the_cli_does():
    import urlspec

    assert links_job.parser_names("Curl, go,curl,none") == ["curl", "go"]
    assert links_job.parser_names("none") == []
    assert links_job.parser_names("ruby,all") == ["ruby"] + [p for p in urlspec.PARSERS if p != "ruby"]
    # The message is the library's: the name, its byte position, every
    # name the list takes.
    with pytest.raises(SystemExit) as e:
        links_job.parser_names("curl,lynx")
    message = str(e.value)
    assert message.startswith("links_job.py: --parsers: unknown parser `lynx` at byte 5 of the list"), message
    for name in (*urlspec.PARSERS, "all", "none"):
        assert name in message
    # An empty name is unknown, as --parsers reads it.
    for given in ("", "go,", "go,,curl"):
        with pytest.raises(SystemExit, match="unknown parser ``"):
            links_job.parser_names(given)
