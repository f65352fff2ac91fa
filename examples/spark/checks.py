"""What the Spark job's tests check with: the requirements, the urlspec
command and the rows it gives, and the job's outputs read back.

A missing piece (Java, PySpark, the urlspec package, the command, boto3,
moto) skips a test with the reason `pytest -rs` shows; when CI asks
(CI=1 or URLSPEC_SPARK_REQUIRED=1; for the command also
URLSPEC_CLI_REQUIRED=1) it fails the test instead.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import links_job  # noqa: E402
import warcgen  # noqa: E402


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


# C1 compilation only and the serial collector: JVMs that start fast and
# stay small for the tests' short jobs on two shared cores (a spark-submit
# to the test cluster took about 40 % less time).
JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

SPARK_REQUIRED = _flag("CI") or _flag("URLSPEC_SPARK_REQUIRED")
CLI_REQUIRED = SPARK_REQUIRED or _flag("URLSPEC_CLI_REQUIRED")


def need(why, required=SPARK_REQUIRED):
    """Skips the test when `why` (a reason something is missing) is set;
    fails it instead when CI asks for every piece."""
    if why:
        if required:
            pytest.fail(f"required by CI, but {why}", pytrace=False)
        pytest.skip(why)


def spark_missing():
    """Why the job cannot run here, or None."""
    java_home = os.environ.get("JAVA_HOME")
    java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    if not java or not os.path.exists(java):
        return "Java is not installed (no java on PATH and no JAVA_HOME): Spark 4 needs Java 17 or later"
    version = re.search(r'version "(\d+)(?:\.(\d+))?', subprocess.run([java, "-version"], capture_output=True, text=True).stderr)
    major = version and int(version.group(1) if version.group(1) != "1" else version.group(2) or 0)
    if not major or major < 17:
        return f"{java} is Java {major or '(version unknown)'}: Spark 4 needs Java 17 or later"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "PySpark is not installed (pip install 'pyspark>=4,<5')"
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return "pyarrow is not installed (pip install pyarrow): the tests read the Parquet outputs with it"
    try:
        import urlspec

        urlspec.links  # noqa: B018
    except (ImportError, AttributeError) as e:
        return f"the urlspec Python package is not installed ({e}; pip install ./crates/urlspec-py)"
    return None


def find_cli():
    """(path, None) for the urlspec command, or (None, why not): $URLSPEC_CLI
    when set, else debug/urlspec in Cargo's target directory (as `cargo
    metadata` names it, so CARGO_TARGET_DIR is followed)."""
    given = os.environ.get("URLSPEC_CLI")
    if given:
        if os.access(given, os.X_OK):
            return given, None
        return None, f"URLSPEC_CLI={given} is not an executable file"
    cargo = shutil.which("cargo")
    if cargo is None:
        return None, "URLSPEC_CLI is not set and cargo is not installed to find the urlspec command"
    p = subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--no-deps"], cwd=ROOT, capture_output=True, text=True
    )
    if p.returncode != 0:
        return None, f"cargo metadata failed: {p.stderr.strip()}"
    exe = os.path.join(json.loads(p.stdout)["target_directory"], "debug", "urlspec")
    if not os.access(exe, os.X_OK):
        return None, f"{exe} is not built (cargo build -p urlspec-cli, or set URLSPEC_CLI)"
    return exe, None


def run_cli(cli, path, spec):
    """The command's JSON lines for one archive, and its summary line."""
    p = subprocess.run([cli, "links", "--output", "json", "--spec", spec, path], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()], p.stderr


# The keys of `urlspec links --output json` in the order of the job's
# columns after warc_file (links_job.COLUMNS).
JSON_KEYS = (
    "document",
    "base_chain",
    "element",
    "attribute",
    "reference",
    "url",
    "base",
    "base_source",
    "error",
    "offset",
    "containers",
    "encoding",
    "context",
)


def cli_rows(cli, path, given, spec):
    """The link rows the job must write for one archive (`given`: the name
    the job knows it by), and the command's summary line. Every key of
    every JSON line must be a column: a key the job does not write fails
    here rather than going unchecked."""
    lines, summary = run_cli(cli, path, spec)
    for j in lines:
        assert sorted(j) == sorted(JSON_KEYS), f"JSON keys {sorted(j)}, job columns from {sorted(JSON_KEYS)}"
    return [(given, *(j[k] for k in JSON_KEYS)) for j in lines], summary


SUMMARY = re.compile(
    r"(\d+) documents?, (\d+) links?, (\d+) unresolved; bases: embedded (\d+), header (\d+), "
    r"retrieval (\d+), none (\d+); skipped records (\d+)"
)


def cli_stats(summary):
    """The statistics the command's summary line gives, named as the job's
    statistics columns."""
    m = SUMMARY.search(summary)
    assert m, summary
    pages, links, unresolved, embedded, header, retrieval, none, skipped = map(int, m.groups())
    return {
        "pages": pages,
        "links": links,
        "unresolved": unresolved,
        "skipped_records": skipped,
        "pages_by_base_source": {"embedded": embedded, "header": header, "retrieval": retrieval, "none": none},
    }


def _key(row):
    return json.dumps(row, default=str)


def ordered(rows):
    return sorted(rows, key=_key)


def assert_same_rows(got, want):
    """The same rows, each as many times, in any order."""
    got_n, want_n = Counter(map(_key, got)), Counter(map(_key, want))
    if got_n != want_n:
        only_got = list((got_n - want_n).elements())
        only_want = list((want_n - got_n).elements())
        raise AssertionError(
            f"{len(got)} Parquet rows, {len(want)} CLI rows\n"
            f"only in Parquet: {only_got[:5]}\nonly in the CLI output: {only_want[:5]}"
        )


def read_parquet(path):
    """The rows (dicts) of a Parquet directory Spark wrote, its part files
    in name order (so in the order of a sorted output), and the schema.
    Map columns become dicts."""
    import pyarrow.parquet as pq

    files = sorted(f for f in os.listdir(path) if f.startswith("part-"))
    tables = [pq.read_table(os.path.join(path, f)) for f in files]
    rows = [r for t in tables for r in t.to_pylist()]
    for r in rows:
        for k, v in r.items():
            if isinstance(v, list) and v and isinstance(v[0], tuple):
                r[k] = dict(v)
    return rows, (tables[0].schema if tables else None)


def link_rows(path):
    """The link rows of the job's output, as tuples in COLUMNS order (and
    host_split last, when the job read the links with --parsers)."""
    rows, schema = read_parquet(path)
    names = links_job.COLUMNS + (("host_split",) if "host_split" in schema.names else ())
    assert tuple(schema.names) == names
    return [tuple(r[c] for c in names) for r in rows]


def stats_rows(path):
    """The statistics rows of the job's output, by archive."""
    rows, schema = read_parquet(path)
    assert tuple(schema.names) == ("warc_file",) + links_job.STATS_COLUMNS
    by_file = {r["warc_file"]: r for r in rows}
    assert len(by_file) == len(rows), "one row per archive"
    return by_file


def host_graph_rows(path):
    rows, _ = read_parquet(path)
    return [(r["source_host"], r["target_host"], r["links"], r["pages"]) for r in rows]
