"""The Spark job in local mode against `urlspec links --output json`, row for row.

The test writes its own WARC archives (warcgen.fixture_archives: gzip and
plain, a 301 -> 302 redirect chain, <base href> absolute and relative,
Content-Location and Content-Base headers, chunked and gzip-coded bodies,
images, CSS, warcinfo, request and metadata records, an opaque and a
scheme-less target URI, links that resolve, that no spec can resolve and
that only some can), runs links_job.py with Spark `local[2]` on them, and
compares every Parquet row with the CLI's JSON line for the same link.

Skipped, with the reason shown by `pytest -rs`, when Java, PySpark, the
`urlspec` package or cargo is missing; with URLSPEC_SPARK_REQUIRED=1 (as in
.ci/run) a missing piece fails the test instead.
"""

import json
import os
import shutil
import subprocess
import sys
import urllib.parse

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import links_job  # noqa: E402
import warcgen  # noqa: E402

REQUIRED = os.environ.get("URLSPEC_SPARK_REQUIRED") == "1"


def _missing():
    """Why the test cannot run here, or None."""
    java = shutil.which("java") or (
        os.environ.get("JAVA_HOME") and os.path.exists(os.path.join(os.environ["JAVA_HOME"], "bin", "java"))
    )
    if not java:
        return "Java is not installed (no java on PATH and no JAVA_HOME): Spark needs a JVM"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "PySpark is not installed (pip install pyspark)"
    try:
        import urlspec

        urlspec.links  # noqa: B018
    except (ImportError, AttributeError) as e:
        return f"the urlspec Python package is not installed ({e}; pip install ./crates/urlspec-py)"
    if not os.environ.get("URLSPEC_CLI") and not shutil.which("cargo"):
        return "neither URLSPEC_CLI nor cargo is there to build the urlspec command to compare with"
    return None


MISSING = _missing()
if MISSING:
    if REQUIRED:
        raise RuntimeError(f"URLSPEC_SPARK_REQUIRED=1 but {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture(scope="module")
def cli():
    """The urlspec command: $URLSPEC_CLI, or built from this workspace."""
    if os.environ.get("URLSPEC_CLI"):
        return os.environ["URLSPEC_CLI"]
    subprocess.run(["cargo", "build", "-q", "-p", "urlspec-cli"], cwd=ROOT, check=True)
    meta = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps"],
                          cwd=ROOT, check=True, capture_output=True, text=True)
    return os.path.join(json.loads(meta.stdout)["target_directory"], "debug", "urlspec")


@pytest.fixture(scope="module")
def spark():
    """One local SparkSession for the module: its startup is most of the
    test's time."""
    os.environ["PYSPARK_PYTHON"] = sys.executable  # workers import urlspec from this Python
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("urlspec links test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "512m")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def archives(tmp_path_factory):
    """The archives, and how the job is given each: a plain path, a file://
    URI (opened through pyarrow's filesystem) and an entry of a paths list
    joined to --input-base-url. Also a damaged copy of a.warc.gz, cut in
    the middle of its last page."""
    d = tmp_path_factory.mktemp("warcs")
    a, b, c = warcgen.fixture_archives(str(d))
    data = open(a, "rb").read()
    damaged = str(d / "damaged.warc.gz")
    with open(damaged, "wb") as f:
        f.write(data[: len(data) - 300])
    listing = d / "warc.paths"
    listing.write_text("# the archives, relative to --input-base-url\n\nc.warc.gz\n")
    given = {a: a, b: "file://" + b, c: str(d / "c.warc.gz")}
    return {"dir": str(d), "files": [a, b, c], "given": given, "list": str(listing), "damaged": damaged}


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


def cli_rows(cli, path, given, spec):
    """The rows the job must write for one archive, from the CLI's JSON
    Lines, and the CLI's summary line."""
    p = subprocess.run([cli, "links", "--output", "json", "--spec", spec, path], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    rows = []
    for line in p.stdout.splitlines():
        j = json.loads(line)
        rows.append(
            (
                given,
                j["document"],
                j["base_chain"],
                j["element"],
                j["attribute"],
                j["reference"],
                j["url"],
                j["base"],
                j["base_source"],
                j["error"],
                j["offset"],
            )
        )
    return rows, p.stderr


def parquet_rows(spark, out):
    df = spark.read.parquet(out)
    assert tuple(df.columns) == links_job.COLUMNS
    return df.schema, [tuple(r) for r in df.collect()]


def ordered(rows):
    return sorted(rows, key=lambda r: json.dumps(r))


def assert_same_rows(got, want):
    got, want = ordered(got), ordered(want)
    only_got = [r for r in got if r not in want]
    only_want = [r for r in want if r not in got]
    assert not only_got and not only_want, (
        f"{len(got)} Parquet rows, {len(want)} CLI rows\n"
        f"only in Parquet: {only_got[:5]}\nonly in the CLI output: {only_want[:5]}"
    )
    assert got == want  # and the same number of each


def test_links_match_cli_row_for_row(spark, cli, archives, tmp_path):
    out = str(tmp_path / "links")
    graph = str(tmp_path / "hosts")
    counts = links_job.main(job_args(archives, out, "--host-graph", graph), spark=spark)
    schema, got = parquet_rows(spark, out)

    want, summaries = [], []
    for f in archives["files"]:
        rows, summary = cli_rows(cli, f, archives["given"][f], "rfc1808")
        want += rows
        summaries.append(summary)
    assert_same_rows(got, want)

    # The explicit schema, as written.
    assert [(f.name, f.dataType.simpleString(), f.nullable) for f in schema.fields] == [
        ("warc_file", "string", True),
        ("target_uri", "string", True),
        ("redirect_chain", "array<string>", True),
        ("link_element", "string", True),
        ("link_attribute", "string", True),
        ("reference", "string", True),
        ("url", "string", True),
        ("base", "string", True),
        ("base_source", "string", True),
        ("error", "string", True),
        ("offset", "bigint", True),
    ]  # (Parquet files read back are nullable throughout)

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

    # The counters agree with the CLI's summaries.
    assert counts["files"] == 3 and counts["failed_files"] == 0
    assert counts["links"] == len(want)
    cli_docs = sum(int(s.split(" document")[0].strip().split()[-1]) for s in summaries)
    if counts["documents"]:
        assert counts["documents"] == cli_docs

    # The host graph: the links aggregated by (source host, target host).
    edges = {(r.source_host, r.target_host): (r.links, r.pages) for r in spark.read.parquet(graph).collect()}
    assert edges[("www.example.com", "cdn.example.net")] == (1, 1)
    assert edges[("www.example.com", "www.example.com")] == (14, 1)  # next.html twice: two links
    assert edges[("example.org", "www.ics.uci.edu")] == (11, 1)  # <base href> and the links it sets the base of
    assert edges[("xn--caf-dma.example", "host.example")] == (1, 1)  # user, password and port dropped
    assert edges[("xn--caf-dma.example", "upper.example")] == (1, 1)  # lower-cased
    assert not any(t in ("", None) for _, t in edges)  # mailto:, javascript: have no host
    assert sum(n for n, _ in edges.values()) < len(got)


def test_other_spec_and_damaged_archive(spark, cli, archives, tmp_path):
    """--spec reaches urlspec (whatwg refuses what rfc1808 accepts); with
    --on-error skip a damaged archive keeps the links read before the
    damage, as the CLI prints them."""
    out = str(tmp_path / "links")
    args = job_args(archives, out, "--spec", "whatwg", "--on-error", "skip")
    args.insert(0, archives["damaged"])
    counts = links_job.main(args, spark=spark)
    _, got = parquet_rows(spark, out)

    want = []
    for f in archives["files"] + [archives["damaged"]]:
        want += cli_rows(cli, f, archives["given"].get(f, f), "whatwg")[0]
    assert_same_rows(got, want)
    assert any(r[0] == archives["damaged"] for r in got)
    assert counts["failed_files"] == 1
    assert counts["links"] == len(want)
    errors = {(r[1], r[5]): r[9] for r in got if r[9]}
    assert "invalid IPv6" in errors[("https://www.example.com/final/page.html", "http://[::1")]
    assert "cannot-be-a-base" in errors[("urn:example:doc", "rel")]


def test_rows_transfer_and_urllib_resolver(spark, cli, archives, tmp_path):
    """--transfer rows (pickled rows, no Arrow) writes the same rows; and
    --resolver urllib the same links and bases, each url from
    urllib.parse.urljoin."""
    a = str(tmp_path / "urlspec")
    b = str(tmp_path / "urllib")
    links_job.main(job_args(archives, a, "--transfer", "rows"), spark=spark)
    links_job.main(job_args(archives, b, "--resolver", "urllib"), spark=spark)
    _, by_urlspec = parquet_rows(spark, a)
    _, by_urllib = parquet_rows(spark, b)
    want = []
    for f in archives["files"]:
        want += cli_rows(cli, f, archives["given"][f], "rfc1808")[0]
    assert_same_rows(by_urlspec, want)

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
    # Where urljoin and RFC 1808 part: urljoin drops the `..` above the root.
    pick = {(r[1], r[5]): r[6] for r in by_urlspec}, {(r[1], r[5]): r[6] for r in by_urllib}
    k = ("https://www.example.com/final/page.html", "../../../up")
    assert (pick[0][k], pick[1][k]) == ("https://www.example.com/../../up", "https://www.example.com/up")
