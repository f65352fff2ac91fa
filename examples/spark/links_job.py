#!/usr/bin/env python3
"""Every link of every HTML page in WARC archives, resolved by urlspec, as Parquet.

A PySpark job in the manner of Common Crawl's cc-pyspark jobs: the archive
paths are spread over partitions; each Python worker opens its archives as
streams (local files, S3 objects through boto3, or any filesystem pyarrow or
fsspec can open) and hands them to `urlspec.links`, which reads one WARC
record at a time, follows 3xx redirects, establishes each page's base
(<BASE href>, HTTP headers, the retrieval URL after redirects) and resolves
every link. Memory stays bounded by the largest record, whatever the size
of an archive.

Under --transfer arrow the links are Arrow record batches built in Rust
(urlspec.link_batches); by default (--writer tasks) each task writes its
batches to a Parquet file of its own with pyarrow and hands back only the
file's name and its archives' statistics rows, and the driver commits the
files of the attempts Spark returned; with --writer spark the batches go
to Spark (mapInArrow), whose writer writes them, and the statistics come
back through an accumulator, which Spark merges only for the attempt that
succeeded and committed. Either way the task that writes an archive's
links counts its statistics row (pages, links, skipped records by reason,
...); the driver writes them as one table, and the job's totals are the
sum of that table as committed: a retried task counts once.

Run `links_job.py --help` for the options; examples/spark/README.md tells how
to submit it to a cluster.
"""

import argparse
import gzip
import ipaddress
import os
import sys
import time
import urllib.parse

# The link columns written, in order: the keys of `urlspec links --output
# json` (renamed, after warc_file), the JSON's own order from `offset` on.
# `offset` (the byte offset of the reference in its page) tells apart two
# links that are the same in every other column.
COLUMNS = (
    "warc_file",
    "target_uri",
    "redirect_chain",
    "link_element",
    "link_attribute",
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

# The columns of the statistics table, one row per archive, after warc_file.
STATS_COLUMNS = (
    "pages",
    "links",
    "unresolved",
    "unreadable_pages",
    "skipped_records",
    "skipped_by_reason",
    "pages_by_base_source",
    "host_splits",
    "error",
    "task_attempt",
)

SPECS = ("rfc1630", "draft04", "rfc1808", "draft96", "draft96dec", "rfc2396", "rfc3986", "whatwg")

# Names an archive (its file name) whose first task attempt fails after
# handing on all its rows. Read only from the driver's environment; for
# the tests of the retry path.
FAULT_VARIABLE = "URLSPEC_LINKS_JOB_FAULT"

S3_SCHEMES = ("s3", "s3a", "s3n")

DESCRIPTION = """\
Extract every link of every HTML response in WARC archives and write one
Parquet row per link, one statistics row per archive, and optionally a
host-level link graph.

Each INPUT is a WARC archive (gzip-compressed or not), a directory of them
(every *.warc and *.warc.gz below it; on S3, every such key under the
prefix) or, for local files, a glob pattern. Paths may be local, s3://
(also s3a://, s3n://: read with boto3), or URIs of any filesystem pyarrow
opens (hdfs://, gs://, file://) or, when fsspec is installed, fsspec does
(https://, ...). With --paths-from, a text file lists the archives one per
line, as Common Crawl publishes them (warc.paths, gzip-compressed or not);
relative entries are joined to --input-base-url.

For each archive, every `response` record whose payload is HTML is a page;
3xx responses are followed to report the redirect chain that led to a page;
other records are skipped and counted by reason. A page's base is
established as the chosen --spec establishes it (RFC 1808 section 3):
<BASE href>, then the HTTP headers (Content-Base, Content-Location, per
spec), then the URL the page was retrieved from, after the redirects.
"""

EPILOG = """\
output columns (Parquet, one row per link, explicit schema):
  warc_file       string     the archive, as given or listed (local paths
                             made absolute)
  target_uri      string     the page: its record's WARC-Target-URI
  redirect_chain  list<str>  the URLs requested, in order, ending with the
                             page, when its base is that retrieval URL
                             reached through redirects; else null
  link_element    string     a, img, link, script, base, meta, form, ...
  link_attribute  string     href, src, srcset, action, content, ...
  reference       string     the reference as written (entities decoded)
  url             string     the absolute URL; null when it has none
  base            string     the base it was resolved against; null: none
  base_source     string     embedded, header:NAME, retrieval or none
  error           string     why there is no url; else null
  offset          long       byte offset of the reference in the page
  containers      list<str>  the MIME parts the base came through,
                             outermost first (empty for a WARC page)
  encoding        string     the encoding the page was decoded from
                             (UTF-8, windows-1252, ...); null: none
  context         string     noscript or template for a link a browser
                             running scripts does not see; null for the
                             document tree
These are the keys of `urlspec links --output json` (document, element,
attribute, reference, url, base, base_source, error, offset, base_chain,
containers, encoding, context).

statistics (--stats PATH, default OUTPUT-stats; Parquet, one row per
archive, counted by the task that wrote the archive's links):
  warc_file             string           the archive
  pages                 long             HTML responses read (with or
                                         without links)
  links                 long             links written
  unresolved            long             of which without a url
  unreadable_pages      long             pages read only in part
  skipped_records       long             records that are no page
  skipped_by_reason     map<str,long>    not_response, no_target_uri,
                                         not_http, redirect, not_html,
                                         malformed_header, damaged (a
                                         damaged record, read past)
  pages_by_base_source  map<str,long>    embedded, header, retrieval, none
  error                 string           why the archive could not be read
                                         on (--on-error skip); else null
  task_attempt          int              the attempt that wrote the row (0
                                         unless Spark retried the task)
The totals the job prints are this table's sums, as committed: a task that
failed and was retried counts once.

host graph (--host-graph PATH, Parquet, sorted by source_host, target_host):
  source_host  string  the host of target_uri
  target_host  string  the host of url
  links        long    links from pages of source_host to target_host
  pages        long    distinct pages of source_host linking there
Hosts are parsed by urlspec under --spec (the server part: user, password
and port dropped), lower-cased, a trailing dot removed, and named in
reversed domain name notation (www.example.com is com.example.www), as
Common Crawl's host-level web graphs name them; IP addresses stay as they
are. Links whose url or page has no host (mailto:, javascript:,
unresolved) are left out.

resolvers:
  urlspec   the links as urlspec.links resolves them under --spec
  urllib    for comparison: the same pages, links and bases (urlspec reads
            the archives, parses the HTML and establishes each base), but
            each url is urllib.parse.urljoin(base, reference) computed in
            Python, as most Python crawl jobs do. Not a spec: compare the
            two outputs to see where urljoin differs.

object storage:
  s3:// paths (the --paths-from list and the archives) are read with boto3,
  which takes credentials and the endpoint from the standard variables
  (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL, ...) or
  profiles on the driver and on each executor; --s3-endpoint sets the
  endpoint of an S3-compatible store for both. Each archive is streamed
  into urlspec, never copied whole. With --writer tasks the links and
  statistics are written with pyarrow's filesystems: local (a shared mount
  on a cluster), file://, s3:// (pyarrow's S3 filesystem, its endpoint
  from --s3-endpoint or AWS_ENDPOINT_URL), hdfs:// and gs:// where pyarrow
  has them; with --writer spark by Spark, to any path its Hadoop
  filesystems write (local, hdfs://, a shared mount; s3a:// where the
  cluster has the hadoop-aws connector). The host graph is written by
  Spark, from the links read back by Spark.

writers (--transfer arrow):
  tasks     each task writes its Arrow batches to one Parquet file
            (OUTPUT/_temporary/JOB/PARTITION-ATTEMPT/part-...); the driver
            collects the tasks' results (one successful attempt per
            partition: the file, its rows, its archives' statistics), moves
            those files into OUTPUT, removes _temporary and writes
            _SUCCESS, honouring --mode as Spark does. A failed attempt's
            file is never committed; a task that read no link writes none.
  spark     the batches go to Spark (mapInArrow) and Spark's Parquet writer
            writes them, through rows in the JVM: several times the CPU.

examples:
  # local mode: a generated crawl, the links, statistics and host graph
  python warcgen.py crawl --files 2
  spark-submit --master 'local[2]' links_job.py --output out/links \\
      --host-graph out/hosts crawl/

  # Common Crawl style: a paths list and the archives in a bucket
  spark-submit links_job.py --spec rfc3986 --num-partitions 400 \\
      --paths-from s3://bucket/warc.paths.gz --input-base-url s3://bucket/ \\
      --output hdfs:///links/ --host-graph hdfs:///hosts/

  # the same job with urljoin, to compare
  spark-submit links_job.py --resolver urllib --output out/links-urljoin crawl/
"""


def build_parser():
    p = argparse.ArgumentParser(
        prog="links_job.py",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="WARC archives, directories of them, or local glob patterns")
    p.add_argument(
        "--paths-from",
        action="append",
        default=[],
        metavar="FILE",
        help="a text file listing archives, one per line, gzip-compressed or not (# comments and blank "
        "lines ignored): local, s3:// (read with boto3) or any path Spark reads (hdfs://); repeatable",
    )
    p.add_argument(
        "--input-base-url",
        default="",
        metavar="URL",
        help="prefix for the relative entries of --paths-from lists (e.g. s3://commoncrawl/)",
    )
    p.add_argument("--output", "-o", required=True, metavar="PATH", help="where to write the links (a Parquet directory)")
    p.add_argument(
        "--stats",
        metavar="PATH",
        help="where to write the statistics, one row per archive (default: OUTPUT-stats)",
    )
    p.add_argument("--spec", "-s", default="rfc1808", choices=SPECS, help="the spec that establishes bases and resolves links (default: rfc1808)")
    p.add_argument(
        "--resolver",
        default="urlspec",
        choices=("urlspec", "urllib"),
        help="who resolves each link: urlspec under --spec, or urllib.parse.urljoin (see below)",
    )
    p.add_argument("--host-graph", metavar="PATH", help="also write the host-level link graph here (Parquet), from the links written")
    p.add_argument(
        "--num-partitions",
        type=int,
        metavar="N",
        help="partitions to spread the archives over, in order (default: packed as Spark packs a file source's "
        "files: local archives together up to min(128 MB, their total over the cores), counting 4 MB for "
        "opening each; one partition per archive whose size is not known, such as S3 objects)",
    )
    p.add_argument(
        "--mode",
        default="errorifexists",
        choices=("errorifexists", "overwrite", "append", "ignore"),
        help="what to do when an output exists (Spark's save modes; default: errorifexists)",
    )
    p.add_argument(
        "--compression",
        default="snappy",
        choices=COMPRESSIONS,
        help="Parquet compression: snappy, Spark's own default, or zstd, whose files are about two fifths smaller "
        "for half as much CPU time again in the Parquet writing (default: snappy)",
    )
    p.add_argument(
        "--dictionary",
        default="auto",
        choices=("auto", "on", "off"),
        help="Parquet dictionary encoding of the links: auto is on with --writer tasks, which writes the "
        "dictionaries the Arrow batches carry as they are; with --writer spark, off under zstd and gzip, whose "
        "compression takes the repeated values (document, base, ...) as well for a fraction of the executors' "
        "time, and on under snappy and none (default: auto)",
    )
    p.add_argument(
        "--on-error",
        default="fail",
        choices=("fail", "skip"),
        help="an archive that cannot be opened or read on (a damaged record is read past): fail the task "
        "(Spark retries it, then fails the job), or log it, keep the links read before the failure, record "
        "the error in its statistics row and go on (default: fail)",
    )
    p.add_argument(
        "--s3-endpoint",
        metavar="URL",
        help="the endpoint of an S3-compatible store for s3:// paths, on the driver and the executors "
        "(default: boto3's own, which honours AWS_ENDPOINT_URL)",
    )
    p.add_argument(
        "--transfer",
        default="auto",
        choices=("auto", "arrow", "rows"),
        help="how rows reach Spark: Arrow record batches through mapInArrow (needs pyarrow and pandas, "
        "as PySpark's Arrow functions do; with --resolver urlspec their columns are built by urlspec in Rust, "
        "urlspec.link_batches), or pickled rows through RDD.mapPartitions; "
        "auto: arrow when both are installed (default)",
    )
    p.add_argument(
        "--writer",
        default="auto",
        choices=("auto", "spark", "tasks"),
        help="who writes the links' Parquet: spark (Spark's writer, through the JVM's rows and its commit "
        "protocol, to any path Spark writes) or tasks (each task writes its Arrow batches itself with "
        "pyarrow, to a local, s3:// or other pyarrow path; the driver commits the files of the successful "
        "attempts and writes the statistics; needs --transfer arrow and pyarrow on the executors); auto: "
        "tasks under --transfer arrow when the outputs are local, file:// or s3://, else spark (default)",
    )
    p.add_argument(
        "--batch-size",
        type=int,
        default=65536,
        metavar="N",
        help="links per Arrow record batch handed to Spark (--transfer arrow; default: 65536)",
    )
    p.add_argument(
        "--parsers",
        metavar="LIST",
        help="read each resolved URL with these real parsers too (comma-separated profile names, as "
        "`urlspec diff --parsers` takes them, or all) and add a host_split column: each parser's host where "
        "they read different hosts, else null; the statistics count those links (host_splits)",
    )
    p.add_argument("--master", metavar="URL", help="Spark master when run with plain python (spark-submit sets it)")
    p.add_argument("--log-level", default="WARN", help="Spark log level (default: WARN)")
    return p


# ---------------------------------------------------------------- inputs


def _scheme(path):
    return urllib.parse.urlsplit(path).scheme.lower()


def _is_local(path):
    # A one-letter "scheme" is a Windows drive.
    return len(_scheme(path)) <= 1


def _is_s3(path):
    return _scheme(path) in S3_SCHEMES


def _s3_location(uri):
    """(bucket, key) of s3://BUCKET/KEY. The key is taken as written: S3
    keys are not percent-encoded in paths lists."""
    rest = uri.partition("://")[2]
    bucket, _, key = rest.partition("/")
    return bucket, key


def s3_client(endpoint=None):
    """A boto3 S3 client; credentials, region and (unless `endpoint` is
    given) the endpoint come from boto3's usual sources."""
    try:
        import boto3
    except ImportError:
        raise RuntimeError("s3:// paths are read with boto3: pip install boto3 (on the driver and executors)") from None
    return boto3.client("s3", endpoint_url=endpoint or None)


def _is_warc_name(name):
    return name.endswith((".warc", ".warc.gz"))


def expand_input(path, endpoint=None):
    """The archives an INPUT names: itself, the archives under a directory
    (or an S3 prefix), or the matches of a local glob pattern. Local paths
    are made absolute: executors do not run in the driver's directory."""
    if _is_local(path):
        import glob

        path = os.path.abspath(path)
        if os.path.isdir(path):
            found = []
            for root, _, files in os.walk(path):
                found += [os.path.join(root, f) for f in files if _is_warc_name(f)]
            return sorted(found)
        if any(c in path for c in "*?[") and not os.path.exists(path):
            return sorted(glob.glob(path))
        return [path]
    if _is_s3(path):
        if _is_warc_name(path):
            return [path]
        bucket, key = _s3_location(path)
        prefix = key.rstrip("/") + "/" if key.strip("/") else ""
        pages = s3_client(endpoint).get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        head = path[: len(path) - len(key)]
        found = sorted(head + o["Key"] for page in pages for o in page.get("Contents", ()) if _is_warc_name(o["Key"]))
        return found or [path]
    try:
        from pyarrow import fs
    except ImportError:
        return [path]
    try:
        filesystem, fspath = fs.FileSystem.from_uri(path)
    except Exception:  # a scheme pyarrow has no filesystem for: pass it on
        return [path]
    info = filesystem.get_file_info(fspath)
    if info.type != fs.FileType.Directory:
        return [path]
    infos = filesystem.get_file_info(fs.FileSelector(fspath, recursive=True))
    prefix = fspath.rstrip("/") + "/"
    return sorted(
        path.rstrip("/") + "/" + i.path[len(prefix) :]
        for i in infos
        if i.type == fs.FileType.File and _is_warc_name(i.path)
    )


def _text_lines(data):
    """The lines of a paths list, gunzipped when it is gzip-compressed."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8").splitlines()


def read_path_lists(spark, lists, base_url, endpoint=None):
    """The entries of --paths-from files, joined to --input-base-url when
    relative (else made absolute, as local INPUTs are). Local and s3:// lists are read here, in the driver (Spark
    cannot read s3:// without the hadoop-aws connector); other URIs by
    Spark, so any Hadoop filesystem works (gzip by the .gz suffix)."""
    paths = []
    for lst in lists:
        if _is_s3(lst):
            bucket, key = _s3_location(lst)
            lines = _text_lines(s3_client(endpoint).get_object(Bucket=bucket, Key=key)["Body"].read())
        elif _is_local(lst):
            with open(lst, "rb") as f:
                lines = _text_lines(f.read())
        else:
            lines = [row[0] for row in spark.read.text(lst).collect()]
        for line in lines:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if _is_local(line) and not os.path.isabs(line):
                line = base_url.rstrip("/") + "/" + line.lstrip("/") if base_url else os.path.abspath(line)
            paths.append(line)
    return paths


def open_archive(path, endpoint=None):
    """A readable binary stream over an archive; it is never read whole.

    Local paths are opened directly; s3:// objects are streamed with boto3
    (the body of one GET); other URIs go through pyarrow's filesystems
    (hdfs, gs, file; no transparent decompression: urlspec reads gzip
    members itself), else through fsspec when installed."""
    if _is_local(path):
        return open(path, "rb", buffering=1 << 20)
    if _is_s3(path):
        bucket, key = _s3_location(path)
        return s3_client(endpoint).get_object(Bucket=bucket, Key=key)["Body"]
    try:
        from pyarrow import fs

        filesystem, fspath = fs.FileSystem.from_uri(path)
    except ImportError:
        filesystem = None
    except Exception:  # pyarrow has no filesystem for this scheme
        filesystem = None
    if filesystem is not None:
        return filesystem.open_input_stream(fspath, compression=None, buffer_size=1 << 20)
    try:
        import fsspec
    except ImportError:
        raise RuntimeError(f"cannot open {path}: pyarrow has no filesystem for it and fsspec is not installed") from None
    return fsspec.open(path, "rb").open()


# ---------------------------------------------------------------- extraction


def _spark_types(parsers=False):
    """The link columns (with `parsers`, host_split last) and the
    statistics struct."""
    from pyspark.sql import types as T

    s = T.StringType()
    counts = T.MapType(s, T.LongType(), False)
    links = [
        T.StructField("warc_file", s, False),
        T.StructField("target_uri", s, False),
        T.StructField("redirect_chain", T.ArrayType(s, False), True),
        T.StructField("link_element", s, False),
        T.StructField("link_attribute", s, False),
        T.StructField("reference", s, False),
        T.StructField("url", s, True),
        T.StructField("base", s, True),
        T.StructField("base_source", s, False),
        T.StructField("error", s, True),
        T.StructField("offset", T.LongType(), False),
        T.StructField("containers", T.ArrayType(s, False), False),
        T.StructField("encoding", s, True),
        T.StructField("context", s, True),
    ]
    if parsers:
        # Each parser's host (null where it reads none), where they differ.
        links.append(T.StructField("host_split", T.MapType(s, s, True), True))
    stats = T.StructType(
        [
            T.StructField("pages", T.LongType(), False),
            T.StructField("links", T.LongType(), False),
            T.StructField("unresolved", T.LongType(), False),
            T.StructField("unreadable_pages", T.LongType(), False),
            T.StructField("skipped_records", T.LongType(), False),
            T.StructField("skipped_by_reason", counts, False),
            T.StructField("pages_by_base_source", counts, False),
            T.StructField("host_splits", T.LongType(), False),
            T.StructField("error", s, True),
            T.StructField("task_attempt", T.IntegerType(), False),
        ]
    )
    return links, stats


def _schema(parsers=False):
    """The rows the extraction hands to Spark: a link (stats null) or, after
    an archive's links, its statistics (the link columns null)."""
    from pyspark.sql import types as T

    links, stats = _spark_types(parsers)
    return T.StructType(
        [links[0]] + [T.StructField(f.name, f.dataType, True) for f in links[1:]] + [T.StructField("stats", stats, True)]
    )


def _links_schema(parsers=False):
    """_schema() without its `stats`: the rows of the links alone, the
    columns of the Parquet output."""
    from pyspark.sql import types as T

    return T.StructType(_schema(parsers).fields[:-1])


def _stats_schema():
    """The statistics table: warc_file, then STATS_COLUMNS."""
    from pyspark.sql import types as T

    links, stats = _spark_types()
    return T.StructType([links[0]] + [T.StructField(f.name, f.dataType, True) for f in stats.fields])


def _arrow_schema(parsers=False):
    """_schema() as Arrow types: what mapInArrow's batches must be."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(_schema(parsers))


def _arrow_stats_schema():
    """_stats_schema() as Arrow types."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(_stats_schema())


def _arrow_links_schema(parsers=False):
    """_links_schema() as Arrow types: the link batches."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(_links_schema(parsers))


def _urljoin_resolver():
    """url and error as urllib.parse.urljoin gives them, with the same
    trimming and no-base rule as urlspec's links (so only the resolution
    differs)."""
    urljoin, urlsplit = urllib.parse.urljoin, urllib.parse.urlsplit
    ws = " \t\n\r\f"

    def resolve(base, reference):
        ref = reference.strip(ws)
        try:
            if base is None:
                if urlsplit(ref).scheme:
                    return ref, None
                return None, "relative reference and no base URL"
            return urljoin(base, ref), None
        except ValueError as e:  # e.g. an unbalanced IPv6 bracket
            return None, f"urljoin: {e}"

    return resolve


def _stats(summary, links, unresolved, error, attempt):
    """An archive's statistics row (the `stats` struct) from the summary of
    its urlspec.links iterator (None when it could not be opened)."""
    s = summary or {}
    return (
        s.get("documents", 0),
        links,
        unresolved,
        len({doc for doc, _ in s.get("problems", ())}),
        s.get("skipped_records", 0),
        dict(s.get("skipped_by_reason", {})),
        dict(s.get("by_base_source", {})),
        s.get("host_splits", 0),
        error,
        attempt,
    )


class InjectedFault(RuntimeError):
    """The failure FAULT_VARIABLE asks for."""


def _task_attempt():
    try:
        from pyspark import TaskContext
    except ImportError:
        return None
    ctx = TaskContext.get()
    return ctx.attemptNumber() if ctx is not None else None


class _Reading:
    """An archive as a task reads it: its links iterator, the links and
    unresolved links read so far, and the error that ended it."""

    def __init__(self, path):
        self.path, self.links, self.n, self.unresolved, self.error = path, None, 0, 0, None

    def stats(self, attempt):
        summary = self.links.summary if self.links is not None else None
        return _stats(summary, self.n, self.unresolved, self.error, attempt)


def _read_archive(reading, endpoint, on_error, links_of):
    """What links_of(stream, reading) yields from the archive at
    reading.path, opened with open_archive and closed after. Under
    --on-error skip, an error that ends it is logged and kept in
    reading.error; the links read before it stay."""
    stream = None
    try:
        stream = open_archive(reading.path, endpoint)
        yield from links_of(stream, reading)
    except Exception as e:
        if on_error == "fail":
            raise
        reading.error = f"{type(e).__name__}: {e}"
        print(f"links_job: {reading.path}: {reading.error} (after {reading.n} links; going on)", file=sys.stderr)
    finally:
        if stream is not None:
            stream.close()


def _fail_if_asked(fault, attempt, path):
    """Fails the first attempt of the task that read the archive `fault`
    names (FAULT_VARIABLE), once its links are handed on."""
    if fault and attempt == 0 and os.path.basename(path) == fault:
        raise InjectedFault(f"{FAULT_VARIABLE}: the first attempt of the task reading {path} fails")


def make_extractor(spec, resolver, on_error, endpoint=None, fault=None, parsers=()):
    """The function run on each partition: for each archive path, the rows
    of its links, streamed as they are read, then its statistics row.

    `fault` (the file name of an archive, from FAULT_VARIABLE) makes the
    first attempt of the task that reads that archive fail once its rows
    are handed on. With `parsers`, each link row ends with its
    host_split (a dict, or None)."""
    parsers = list(parsers)
    blank = (None,) * (len(COLUMNS) - 1 + bool(parsers))

    def extract(paths):
        import urlspec  # on the executor, once per partition

        urljoin_resolve = _urljoin_resolver() if resolver == "urllib" else None
        split = (lambda link: (link.host_split,)) if len(parsers) > 1 else (lambda link: ())
        attempt = _task_attempt()

        def rows(stream, reading):
            reading.links = urlspec.links(stream, spec=spec, format="warc", parsers=parsers)
            path = reading.path
            n = unresolved = 0
            try:
                for link in reading.links:
                    if urljoin_resolve is None:
                        url, link_error = link.url, link.error
                    else:
                        url, link_error = urljoin_resolve(link.base, link.reference)
                    unresolved += link_error is not None
                    n += 1
                    yield (
                        path,
                        link.document,
                        link.base_chain,
                        link.element,
                        link.attribute,
                        link.reference,
                        url,
                        link.base,
                        link.base_source,
                        link_error,
                        link.offset,
                        link.containers,
                        link.encoding,
                        link.context,
                        *split(link),
                        None,
                    )
            finally:
                reading.n, reading.unresolved = n, unresolved

        for path in paths:
            reading = _Reading(path)
            yield from _read_archive(reading, endpoint, on_error, rows)
            yield (path, *blank, reading.stats(attempt or 0))
            _fail_if_asked(fault, attempt, path)

    return extract


def parser_names(given):
    """The profile names of --parsers, read by urlspec.parser_list as
    `urlspec links --parsers` reads its list (comma-separated, any case,
    `all`, `none`), each once: the links have a host_split column when
    there are two or more. None (no --parsers) is none. SystemExit for an
    unknown or empty name."""
    import urlspec

    if given is None:
        return []
    try:
        return urlspec.parser_list(given)
    except urlspec.Error as e:
        raise SystemExit(f"links_job.py: --parsers: {e}") from None


def make_arrow_extractor(spec, resolver, on_error, endpoint=None, fault=None, batch_rows=8192, parsers=()):
    """The same rows as make_extractor, handed to Spark as Arrow record
    batches (mapInArrow): columns cross into the JVM in bulk instead of
    one pickled row at a time. A batch ends at each archive's statistics
    row too, so an archive's rows reach Spark before the next is opened."""
    rows_of = make_extractor(spec, resolver, on_error, endpoint, fault, parsers)
    split = len(parsers) > 1

    def extract(batches):
        import pyarrow as pa

        schema = _arrow_schema(split)
        stats_type = schema.field("stats").type

        def paths():
            for b in batches:
                yield from b.column(0).to_pylist()

        def batch(rows):
            cols = list(zip(*rows))
            stats = [None if s is None else dict(zip(stats_type.names, s)) for s in cols[-1]]
            for s in stats:
                if s is not None:
                    s["skipped_by_reason"] = list(s["skipped_by_reason"].items())
                    s["pages_by_base_source"] = list(s["pages_by_base_source"].items())
            if split:  # a map column from pairs
                cols[-2] = [None if d is None else list(d.items()) for d in cols[-2]]
            arrays = [pa.array(c, f.type) for c, f in zip(cols[:-1], schema)]
            return pa.RecordBatch.from_arrays(arrays + [pa.array(stats, stats_type)], schema=schema)

        rows = []
        for row in rows_of(paths()):
            rows.append(row)
            if len(rows) >= batch_rows or row[-1] is not None:
                yield batch(rows)
                rows = []
        if rows:
            yield batch(rows)

    return extract


# The job's link columns from the columns of urlspec.link_batches (those
# of `urlspec links --output json`), by name.
BATCH_COLUMNS = {
    "target_uri": "document",
    "redirect_chain": "base_chain",
    "link_element": "element",
    "link_attribute": "attribute",
    "reference": "reference",
    "url": "url",
    "base": "base",
    "base_source": "base_source",
    "error": "error",
    "offset": "offset",
    "containers": "containers",
    "encoding": "encoding",
    "context": "context",
}


def _repeated(pa, value, n, dictionary=False):
    """A `string` array of `n` times `value`, made from its buffers:
    pa.repeat copies the value one row at a time (15 ms for 65,536 rows,
    a fifth of the time link_batches takes to read them). With
    `dictionary`, a dictionary array of the one value."""
    if dictionary:
        import numpy as np

        indices = pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(np.zeros(n, dtype=np.int32))])
        return pa.DictionaryArray.from_arrays(indices, pa.array([value], pa.string()))
    data = value.encode()
    if not data or (n + 1) * len(data) >= 1 << 31:
        return pa.repeat(pa.scalar(value, pa.string()), n)
    import numpy as np

    offsets = np.arange(0, (n + 1) * len(data), len(data), dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)])


def _dictionary_schema(pa, schema, batch, names):
    """`schema` (warc_file, then the columns `names` of link_batches) with
    warc_file, and each column `batch` carries as a dictionary, of the
    batch's dictionary type."""
    dictionary = pa.dictionary(pa.int32(), pa.string())
    fields = [schema.field(0).with_type(dictionary)]
    for field, name in zip(list(schema)[1:], names):
        t = batch.schema.field(name).type
        fields.append(field.with_type(t) if pa.types.is_dictionary(t) else field)
    return pa.schema(fields, metadata=schema.metadata)


def make_batch_reader(spec, on_error, endpoint=None, fault=None, batch_size=65536, parsers=(), dictionary=False):
    """read(paths): each archive's links as Arrow record batches whose
    columns urlspec builds in Rust (urlspec.link_batches), with no Python
    object per link, then its statistics row as a (path, stats) tuple
    (_stats). The batches have the link columns only (_links_schema), so
    that nothing but the links crosses into Spark or into a Parquet file;
    memory stays bounded by the batch size whatever the size of an archive
    or of one of its records. With `dictionary`, warc_file and the columns
    link_batches dictionary-encodes (those whose values repeat across a
    page's links) are dictionaries: for a Parquet writer that writes them
    as they are (--writer tasks), not for Spark's rows."""

    def read(paths):
        import pyarrow as pa
        import urlspec

        schema = _arrow_links_schema(len(parsers) > 1)
        names = [BATCH_COLUMNS.get(f.name, f.name) for f in list(schema)[1:]]
        typed = not dictionary  # the dictionaries' types: the first batch's
        attempt = _task_attempt() or 0

        def batches(stream, reading):
            nonlocal schema, typed
            reading.links = urlspec.link_batches(
                stream,
                batch_size,
                dictionary=dictionary,
                documents=False,
                summary=False,
                spec=spec,
                format="warc",
                parsers=list(parsers),
            )
            warc_file = None
            for b in reading.links:
                if not typed:
                    schema, typed = _dictionary_schema(pa, schema, b, names), True
                rows = b.num_rows
                if warc_file is None or len(warc_file) < rows:
                    warc_file = _repeated(pa, reading.path, rows, dictionary)
                reading.n += rows
                reading.unresolved += rows - b.column("error").null_count
                # The columns are of the job's types already (a list's
                # item name aside, which Arrow does not compare).
                arrays = [warc_file.slice(0, rows)] + [b.column(name) for name in names]
                yield pa.RecordBatch.from_arrays(arrays, schema=schema)

        for path in paths:
            reading = _Reading(path)
            yield from _read_archive(reading, endpoint, on_error, batches)
            yield path, reading.stats(attempt)
            _fail_if_asked(fault, attempt, path)

    return read


def _paths_of(batches):
    for b in batches:
        yield from b.column(0).to_pylist()


def make_batch_extractor(spec, on_error, endpoint=None, fault=None, batch_size=65536, parsers=()):
    """The rows of make_extractor (resolver urlspec) as the Arrow record
    batches of make_batch_reader, each archive's batches then its
    statistics row in one stream (_arrow_schema: `stats` null on a link)."""
    read = make_batch_reader(spec, on_error, endpoint, fault, batch_size, parsers)

    def extract(batches):
        import pyarrow as pa

        schema = _arrow_schema(len(parsers) > 1)
        stats_type = schema.field("stats").type
        for item in read(_paths_of(batches)):
            if isinstance(item, tuple):
                path, stats = item
                row = dict(zip(stats_type.names, stats))
                for key in ("skipped_by_reason", "pages_by_base_source"):
                    row[key] = list(row[key].items())
                arrays = [pa.array([path], pa.string())]
                arrays += [pa.nulls(1, f.type) for f in list(schema)[1:-1]]
                arrays.append(pa.array([row], stats_type))
            else:
                arrays = item.columns + [pa.nulls(item.num_rows, stats_type)]
            yield pa.RecordBatch.from_arrays(arrays, schema=schema)

    return extract


def _ship_this_file(sc):
    """Make this module importable on the executors when it was imported
    (by a test or a notebook) rather than run as the main script, whose
    functions travel by value."""
    if __name__ == "__main__":
        return
    shipped = getattr(sc, "_urlspec_links_job_shipped", False)
    if not shipped:
        sc.addPyFile(os.path.abspath(__file__))
        sc._urlspec_links_job_shipped = True


# Archives are packed into partitions as Spark packs the files of a file
# source (FilePartition.getFilePartitions, spark.sql.files.maxPartitionBytes
# and openCostInBytes at their defaults), each archive whole: a task costs
# Spark tens of milliseconds whatever it reads, which a partition of small
# archives pays once rather than once per archive.
MAX_PARTITION_BYTES = 128 << 20
OPEN_COST_BYTES = 4 << 20
MAX_PARTITIONS = 10_000


def archive_size(path):
    """The size in bytes of a local archive; None where it is not known
    without asking a remote store (s3://, hdfs://, ...) or not there."""
    if not _is_local(path):
        return None
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def pack_archives(paths, sizes, parallelism):
    """`paths` grouped into partitions, as Spark groups a file source's
    files: largest first, a partition closed when the next archive would
    take it past min(MAX_PARTITION_BYTES, max(OPEN_COST_BYTES, total /
    parallelism)), each archive counted with OPEN_COST_BYTES more than its
    size (`sizes`, None: unknown, counted as MAX_PARTITION_BYTES: a
    partition of its own). Each archive is in one partition, in the order
    of `paths` within it."""
    known = [MAX_PARTITION_BYTES if n is None else n for n in sizes]
    total = sum(n + OPEN_COST_BYTES for n in known)
    limit = min(MAX_PARTITION_BYTES, max(OPEN_COST_BYTES, total // max(parallelism, 1)))
    order = sorted(range(len(paths)), key=lambda i: -known[i])
    groups, group, size = [], [], 0
    for i in order:
        if group and size + known[i] > limit:
            groups.append(group)
            group, size = [], 0
        group.append(i)
        size += known[i] + OPEN_COST_BYTES
    if group:
        groups.append(group)
    return [[paths[i] for i in sorted(g)] for g in groups]


def archive_partitions(sc, paths, num_partitions=None):
    """An RDD of `paths`, spread over `num_partitions` partitions
    (--num-partitions, in order), else packed by pack_archives over the
    context's default parallelism (more than MAX_PARTITIONS partitions:
    spread evenly over MAX_PARTITIONS)."""
    if num_partitions:
        return sc.parallelize(paths, num_partitions)
    groups = pack_archives(paths, [archive_size(p) for p in paths], sc.defaultParallelism)
    if not groups:
        return sc.parallelize(paths, 1)
    if len(groups) > MAX_PARTITIONS:
        return sc.parallelize(paths, MAX_PARTITIONS)
    return sc.parallelize(groups, len(groups)).flatMap(lambda group: group)


def extract(
    spark,
    paths,
    spec="rfc1808",
    resolver="urlspec",
    num_partitions=None,
    on_error="fail",
    transfer="auto",
    endpoint=None,
    batch_size=65536,
    stats=None,
    parsers=(),
):
    """The rows of the links and of the statistics, not yet computed (see
    _schema); split them with links_of and stats_of. With `stats` (an
    accumulator of _stats_rows_param), the rows of the links only
    (_links_schema), each archive's statistics row added to `stats` by
    the task that read it. With `parsers` (profile names, two or more:
    parser_names), the link rows end with host_split."""
    parsers = list(parsers)
    split = len(parsers) > 1
    transfer = resolve_transfer(transfer)
    sc = spark.sparkContext
    _ship_this_file(sc)
    fault = os.environ.get(FAULT_VARIABLE) or None
    archives = archive_partitions(sc, paths, num_partitions)
    if transfer == "arrow":
        archives = spark.createDataFrame(archives.map(lambda p: (p,)), "path string")
        if stats is None:
            if resolver == "urlspec":
                extractor = make_batch_extractor(spec, on_error, endpoint, fault, batch_size, parsers)
            else:
                extractor = make_arrow_extractor(spec, resolver, on_error, endpoint, fault, parsers=parsers)
            return archives.mapInArrow(extractor, _schema(split))
        read = arrow_reader(spec, resolver, on_error, endpoint, fault, batch_size, parsers)
        return archives.mapInArrow(split_items(lambda batches: read(_paths_of(batches)), stats), _links_schema(split))
    extractor = make_extractor(spec, resolver, on_error, endpoint, fault, parsers)
    if stats is None:
        return spark.createDataFrame(archives.mapPartitions(extractor), _schema(split))
    return spark.createDataFrame(archives.mapPartitions(split_rows(extractor, stats)), _links_schema(split))


def links_of(rows):
    from pyspark.sql import functions as F

    return rows.where(F.col("stats").isNull()).drop("stats")


def stats_of(rows):
    from pyspark.sql import functions as F

    return rows.where(F.col("stats").isNotNull()).select("warc_file", "stats.*")


def _stats_rows_param():
    """An AccumulatorParam that gathers lists of statistics rows."""
    from pyspark.accumulators import AccumulatorParam

    class StatsRows(AccumulatorParam):
        def zero(self, value):
            return []

        def addInPlace(self, a, b):
            a.extend(b)
            return a

    return StatsRows()


def _stats_tuple(stats):
    """A statistics row as _stats gives it, from the dict of an Arrow
    `stats` struct (its maps as lists of pairs)."""
    return tuple(dict(stats[k]) if k in ("skipped_by_reason", "pages_by_base_source") else stats[k] for k in STATS_COLUMNS)


def separated(batches):
    """Batches of _schema (links and statistics rows in one stream) as
    make_batch_reader hands them on: batches of the link columns only, and
    a (path, stats) tuple for each statistics row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for b in batches:
        column = b.column(b.num_columns - 1)
        links_schema = b.schema.remove(b.num_columns - 1)
        if column.null_count == b.num_rows:
            yield pa.RecordBatch.from_arrays(b.columns[:-1], schema=links_schema)
            continue
        is_link = pc.is_null(column)
        rows = b.filter(pc.invert(is_link))
        links = b.filter(is_link)
        if links.num_rows:
            yield pa.RecordBatch.from_arrays(links.columns[:-1], schema=links_schema)
        yield from ((p, _stats_tuple(r)) for p, r in zip(rows.column(0).to_pylist(), rows.column(b.num_columns - 1).to_pylist()))


def split_items(read, stats):
    """The link batches of a make_batch_reader stream, its statistics rows
    added to the accumulator `stats` instead."""

    def run(batches):
        for item in read(batches):
            if isinstance(item, tuple):
                stats.add([item])
            else:
                yield item

    return run


def split_arrow(extractor, stats):
    """The extractor of mapInArrow with its statistics rows taken out of
    the stream into the accumulator `stats`: the batches it yields have
    the link columns only."""
    return split_items(lambda batches: separated(extractor(batches)), stats)


def arrow_reader(spec, resolver, on_error, endpoint=None, fault=None, batch_size=65536, parsers=(), dictionary=False):
    """read(paths), as make_batch_reader's: each archive's link batches,
    then its (path, stats) tuple; for --resolver urllib, from the batches
    of make_arrow_extractor (never dictionary-encoded)."""
    if resolver == "urlspec":
        return make_batch_reader(spec, on_error, endpoint, fault, batch_size, parsers, dictionary)
    extractor = make_arrow_extractor(spec, resolver, on_error, endpoint, fault, parsers=parsers)

    def read(paths):
        import pyarrow as pa

        return separated(extractor([pa.record_batch([pa.array(list(paths), pa.string())], names=["path"])]))

    return read


def split_rows(extractor, stats):
    """The row extractor with its statistics rows taken out into `stats`."""

    def run(paths):
        for row in extractor(paths):
            if row[-1] is None:
                yield row[:-1]
            else:
                stats.add([(row[0], row[-1])])

    return run


def totals(stats_rows):
    """The job's counts: the sums of the statistics rows."""
    t = {"archives": 0, "failed_archives": 0, "skipped_by_reason": {}, "pages_by_base_source": {}}
    summed = ("pages", "links", "unresolved", "unreadable_pages", "skipped_records", "host_splits")
    for key in summed:
        t[key] = 0
    for r in stats_rows:
        t["archives"] += 1
        t["failed_archives"] += r["error"] is not None
        for key in summed:
            t[key] += r[key]
        for key in ("skipped_by_reason", "pages_by_base_source"):
            for k, v in (r[key] or {}).items():
                t[key][k] = t[key].get(k, 0) + v
    return t


# ---------------------------------------------------------------- the tasks' own Parquet

# The Spark schema of a Parquet file, as Spark's writer records it: Spark
# reads the columns back with the job's exact types (nullability too).
SPARK_ROW_METADATA = "org.apache.spark.sql.parquet.row.metadata"

# The values of --compression.
COMPRESSIONS = ("snappy", "zstd", "gzip", "none")


def codec_name(compression):
    """The codec --compression names, as Spark and PART_SUFFIX name it."""
    return "uncompressed" if compression == "none" else compression


# The part files' suffix per --compression, as Spark names them.
PART_SUFFIX = {"zstd": ".zstd.parquet", "snappy": ".snappy.parquet", "gzip": ".gz.parquet", "uncompressed": ".parquet"}


def output_filesystem(path, endpoint=None):
    """(pyarrow filesystem, path in it) of an output directory: local paths
    (made absolute), s3:// (also s3a://, s3n://: pyarrow's S3 filesystem,
    the endpoint from `endpoint`, else AWS_ENDPOINT_URL_S3 or
    AWS_ENDPOINT_URL, which pyarrow itself ignores), or any URI pyarrow
    opens (hdfs://, gs://, file://)."""
    from pyarrow import fs

    if _is_local(path):
        return fs.LocalFileSystem(), os.path.abspath(path).rstrip("/")
    if _is_s3(path):
        bucket, key = _s3_location(path)
        endpoint = endpoint or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        options = {}
        if endpoint:
            u = urllib.parse.urlsplit(endpoint)
            options = {"endpoint_override": u.netloc + u.path.rstrip("/"), "scheme": u.scheme or "https"}
        region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        if region:
            options["region"] = region
        return fs.S3FileSystem(**options), (bucket + "/" + key).rstrip("/")
    filesystem, inner = fs.FileSystem.from_uri(path)
    return filesystem, inner.rstrip("/")


def _exists(filesystem, path):
    from pyarrow import fs

    return filesystem.get_file_info(path).type != fs.FileType.NotFound


def make_part_writer(read, output, endpoint, job, compression, use_dictionary, spark_schema):
    """The function run on each partition (RDD.mapPartitions) with
    --writer tasks: it writes the links `read` (arrow_reader) yields for
    its archives into one Parquet file of its own,
    OUTPUT/_temporary/JOB/PARTITION-ATTEMPT/part-PARTITION-JOB-c000...,
    as the batches come, and returns only small rows: ("part", the file,
    its rows), when it wrote links, and ("stats", path, stats) per
    archive. Spark returns the result of one successful attempt per
    partition; a failed attempt's file is never named to the driver."""

    def write(paths):
        import pyarrow as pa
        import pyarrow.parquet as pq
        from pyspark import TaskContext

        ctx = TaskContext.get()
        partition, attempt = (ctx.partitionId(), ctx.attemptNumber()) if ctx is not None else (0, 0)
        filesystem, root = output_filesystem(output, endpoint)
        directory = f"{root}/_temporary/{job}/{partition:05d}-{attempt}"
        part = f"{directory}/part-{partition:05d}-{job}-c000{PART_SUFFIX[compression]}"
        writer = None
        rows = 0
        results = []
        try:
            for item in read(paths):
                if isinstance(item, tuple):
                    results.append(("stats", *item))
                    continue
                if not item.num_rows:
                    continue
                if writer is None:
                    schema = item.schema.with_metadata({SPARK_ROW_METADATA: spark_schema})
                    filesystem.create_dir(directory, recursive=True)
                    # The dictionaries the batches carry are written as they
                    # are, the other columns (reference, url, offset) plain:
                    # looking their values up costs more than it saves.
                    # Batches without dictionaries (--resolver urllib) are
                    # encoded as pyarrow decides.
                    dictionaries = [f.name for f in schema if pa.types.is_dictionary(f.type)]
                    dictionaries = (dictionaries or True) if use_dictionary else False
                    writer = pq.ParquetWriter(
                        part, schema, filesystem=filesystem, use_dictionary=dictionaries, store_schema=False, **_codec(compression)
                    )
                writer.write_batch(item)
                rows += item.num_rows
            if writer is not None:
                writer.close()
                writer = None
                results.append(("part", part, rows))
        except BaseException:
            if writer is not None:
                try:  # the attempt's own directory: nobody else writes there
                    writer.close()
                    filesystem.delete_dir(directory)
                except Exception:
                    pass
            raise
        return results

    return write


def _check_mode(filesystem, root, output, mode):
    """Whether to write `root` under the save mode `mode`, as Spark's
    writer decides: errorifexists refuses an existing output, ignore leaves
    it as it is (False)."""
    if not _exists(filesystem, root):
        return True
    if mode == "errorifexists":
        raise FileExistsError(f"links_job.py: {output} already exists (--mode overwrite, append or ignore)")
    return mode != "ignore"


def commit(filesystem, root, job, parts, mode):
    """Moves the committed part files into `root` (names unique to the
    job), after clearing what `root` held under --mode overwrite; removes
    the job's temporary directory and writes _SUCCESS."""
    from pyarrow import fs

    temporary = f"{root}/_temporary"
    filesystem.create_dir(root, recursive=True)
    if mode == "overwrite":
        for info in filesystem.get_file_info(fs.FileSelector(root)):
            if info.path.rstrip("/") == temporary:
                continue
            if info.type == fs.FileType.Directory:
                filesystem.delete_dir(info.path)
            else:
                filesystem.delete_file(info.path)
    for part in parts:
        filesystem.move(part, f"{root}/{part.rsplit('/', 1)[1]}")
    abort(filesystem, root, job)
    with filesystem.open_output_stream(f"{root}/_SUCCESS"):
        pass


def abort(filesystem, root, job):
    """Removes the job's temporary directory, and _temporary when no
    other job's is left in it."""
    from pyarrow import fs

    temporary = f"{root}/_temporary"
    if _exists(filesystem, f"{temporary}/{job}"):
        filesystem.delete_dir(f"{temporary}/{job}")
    if _exists(filesystem, temporary) and not filesystem.get_file_info(fs.FileSelector(temporary)):
        filesystem.delete_dir(temporary)


def write_by_tasks(spark, paths, args, parsers):
    """--writer tasks: the links written by the tasks (make_part_writer),
    committed by the driver; the statistics table written by the driver.
    Returns the statistics rows (dicts), or None when --mode ignore left
    an existing output alone."""
    import uuid

    import pyarrow as pa

    compression = codec_name(args.compression)
    split = len(parsers) > 1
    filesystem, root = output_filesystem(args.output, args.s3_endpoint)
    stats_fs, stats_root = output_filesystem(stats_path(args), args.s3_endpoint)
    if not _check_mode(filesystem, root, args.output, args.mode):
        return None
    write_stats = _check_mode(stats_fs, stats_root, stats_path(args), args.mode)
    output = args.output if not _is_local(args.output) else root
    job = str(uuid.uuid4())
    sc = spark.sparkContext
    _ship_this_file(sc)
    fault = os.environ.get(FAULT_VARIABLE) or None
    use_dictionary = dictionary(args, "tasks")
    read = arrow_reader(args.spec, args.resolver, args.on_error, args.s3_endpoint, fault, args.batch_size, parsers, use_dictionary)
    task = make_part_writer(read, output, args.s3_endpoint, job, compression, use_dictionary, _links_schema(split).json())
    try:
        results = archive_partitions(sc, paths, args.num_partitions).mapPartitions(task).collect()
        parts = [r[1] for r in results if r[0] == "part"]
        if not parts:  # as Spark's writer does: one file with the schema, for readers
            parts = [f"{root}/_temporary/{job}/part-00000-{job}-c000{PART_SUFFIX[compression]}"]
            schema = _arrow_links_schema(split).with_metadata({SPARK_ROW_METADATA: _links_schema(split).json()})
            _write_table(filesystem, parts[0], schema.empty_table(), compression)
        commit(filesystem, root, job, parts, args.mode)
    except BaseException:
        try:
            abort(filesystem, root, job)
        except Exception:
            pass
        raise
    stats = sorted((r[1], r[2]) for r in results if r[0] == "stats")
    rows = [dict(zip(("warc_file",) + STATS_COLUMNS, (path,) + tuple(s))) for path, s in stats]
    if write_stats:
        table = pa.Table.from_pylist(
            [{k: list(v.items()) if isinstance(v, dict) else v for k, v in r.items()} for r in rows],
            schema=_arrow_stats_schema().with_metadata({SPARK_ROW_METADATA: _stats_schema().json()}),
        )
        job = str(uuid.uuid4())
        part = f"{stats_root}/_temporary/{job}/part-00000-{job}-c000{PART_SUFFIX[compression]}"
        _write_table(stats_fs, part, table, compression)
        commit(stats_fs, stats_root, job, [part], args.mode)
    return rows


def _write_table(filesystem, path, table, compression):
    import pyarrow.parquet as pq

    filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)
    pq.write_table(table, path, filesystem=filesystem, **_codec(compression))


def _codec(compression):
    """pyarrow's Parquet options for --compression, at the level Spark's
    writer uses (zstd: 3, where pyarrow's own is 1: files 9 % larger)."""
    if compression == "uncompressed":
        return {"compression": "none"}
    return {"compression": compression, "compression_level": 3 if compression == "zstd" else None}


def read_back(path, endpoint=None):
    """The rows (dicts, maps as dicts) of a Parquet directory, read with
    pyarrow from any filesystem output_filesystem opens."""
    import pyarrow.dataset as ds

    filesystem, root = output_filesystem(path, endpoint)
    table = ds.dataset(root, filesystem=filesystem, format="parquet", exclude_invalid_files=True).to_table()
    rows = table.to_pylist()
    for r in rows:
        for k, v in r.items():
            if isinstance(v, list) and v and isinstance(v[0], tuple):
                r[k] = dict(v)
    return rows


# ---------------------------------------------------------------- host graph


def reverse_host(host):
    """A host name in reversed domain name notation (www.example.com is
    com.example.www); IP addresses as they are."""
    if host.startswith("["):
        return host
    try:
        ipaddress.IPv4Address(host)
        return host
    except ValueError:
        return ".".join(reversed(host.split(".")))


def make_host_of(spec):
    """host(url): the host of an absolute URL as urlspec parses it under
    `spec`, lower-cased, a trailing dot removed, reversed (reverse_host);
    None when it has none."""
    import urlspec

    parse = urlspec.parse

    def host_of(u):
        if not u:
            return None
        try:
            h = parse(u, spec=spec).host
        except Exception:
            return None
        if not h:
            return None
        h = h.lower()
        h = h[:-1] if h.endswith(".") else h
        return reverse_host(h) if h else None

    return host_of


def host_graph(links_df, spec):
    """Aggregate links (target_uri, url) to (source_host, target_host,
    links, pages), sorted by source_host then target_host."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    _ship_this_file(links_df.sparkSession.sparkContext)

    # Count each (page, url) pair once before parsing hosts: pages repeat
    # links (menus, footers).
    pairs = links_df.where(F.col("url").isNotNull()).groupBy("target_uri", "url").agg(F.count("*").alias("n"))

    def hosts(rows):
        host_of = make_host_of(spec)
        cache = {}

        def cached(u):
            h = cache.get(u, cache)
            if h is cache:
                if len(cache) > 100_000:
                    cache.clear()
                h = cache[u] = host_of(u)
            return h

        for target_uri, url, n in rows:
            s, t = cached(target_uri), cached(url)
            if s and t:
                yield (s, t, target_uri, n)

    schema = StructType(
        [
            StructField("source_host", StringType(), False),
            StructField("target_host", StringType(), False),
            StructField("target_uri", StringType(), False),
            StructField("n", LongType(), False),
        ]
    )
    edges = links_df.sparkSession.createDataFrame(pairs.rdd.mapPartitions(hosts), schema)
    return (
        edges.groupBy("source_host", "target_host")
        .agg(F.sum("n").alias("links"), F.countDistinct("target_uri").alias("pages"))
        .orderBy("source_host", "target_host")
    )


# ---------------------------------------------------------------- main


def stats_path(args):
    return args.stats or args.output.rstrip("/") + "-stats"


def run(spark, args):
    """Runs the job described by parsed `args`; returns the totals of its
    statistics and the seconds taken by the links and statistics."""
    paths = []
    for i in args.inputs:
        paths += expand_input(i, args.s3_endpoint)
    paths += read_path_lists(spark, args.paths_from, args.input_base_url, args.s3_endpoint)
    if not paths:
        raise SystemExit("links_job.py: no input archives (give INPUT paths or --paths-from)")
    compression = codec_name(args.compression)
    parsers = parser_names(args.parsers)
    transfer = resolve_transfer(args.transfer)
    writer = resolve_writer(args.writer, transfer, args.output, stats_path(args))
    start = time.perf_counter()
    if writer == "tasks":
        rows = write_by_tasks(spark, paths, args, parsers)
        seconds = time.perf_counter() - start
        if rows is None:  # --mode ignore, and the links were there
            filesystem, root = output_filesystem(stats_path(args), args.s3_endpoint)
            rows = read_back(stats_path(args), args.s3_endpoint) if _exists(filesystem, root) else []
        counts = totals(rows)
    else:
        # The links are computed and written once, by one job of one
        # stage; each task hands its archives' statistics rows back with
        # its result (an accumulator). Spark merges the accumulator updates
        # of a task of the job's last stage only when it succeeds, and once
        # per partition: the rows of the attempt whose links were
        # committed, whatever the retries, failed or speculative attempts.
        stats = spark.sparkContext.accumulator([], _stats_rows_param())
        rows = extract(
            spark,
            paths,
            args.spec,
            args.resolver,
            args.num_partitions,
            args.on_error,
            transfer,
            args.s3_endpoint,
            args.batch_size,
            stats=stats,
            parsers=parsers,
        )
        rows.write.mode(args.mode).option("compression", compression).option(
            "parquet.enable.dictionary", str(dictionary(args, writer)).lower()
        ).parquet(args.output)
        table = spark.createDataFrame([(path,) + tuple(s) for path, s in sorted(stats.value)], _stats_schema())
        table.coalesce(1).write.mode(args.mode).option("compression", compression).parquet(stats_path(args))
        seconds = time.perf_counter() - start
        counts = totals(spark.read.parquet(stats_path(args)).collect())
    if args.host_graph:
        graph = host_graph(spark.read.parquet(args.output), args.spec)
        graph.write.mode(args.mode).option("compression", compression).parquet(args.host_graph)
    return counts, seconds


def resolve_transfer(transfer):
    """--transfer auto: arrow when pyarrow and pandas are installed (what
    mapInArrow needs on the driver and the executors), else rows."""
    if transfer != "auto":
        return transfer
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        return "rows"
    return "arrow"


def resolve_writer(writer, transfer, *outputs):
    """--writer auto: tasks under --transfer arrow when every output is on
    a filesystem pyarrow writes without more libraries (local, file://,
    s3://), else spark. SystemExit for tasks under --transfer rows."""
    if writer == "tasks" and transfer != "arrow":
        raise SystemExit("links_job.py: --writer tasks writes Arrow batches: it needs --transfer arrow (or auto)")
    if writer != "auto":
        return writer
    if transfer == "arrow" and all(_is_local(o) or _is_s3(o) or _scheme(o) == "file" for o in outputs):
        return "tasks"
    return "spark"


def dictionary(args, writer):
    """Whether the links' Parquet is dictionary-encoded (--dictionary).
    The tasks' writer (`writer` "tasks") writes the dictionaries that
    link_batches builds as they are, in less time than the plain columns
    and into smaller files; Spark's writer hashes every value of every
    column to look it up in the column's dictionary, while a zstd or gzip
    page compresses the repeats nearly as small without it
    (examples/spark/README.md)."""
    if args.dictionary == "auto":
        return writer == "tasks" or args.compression in ("snappy", "none")
    return args.dictionary == "on"


def summary_line(counts):
    skipped = ", ".join(f"{k} {v}" for k, v in sorted(counts["skipped_by_reason"].items()) if v)
    return (
        f"{counts['archives']} archives ({counts['failed_archives']} failed), {counts['pages']} pages, "
        f"{counts['links']} links, {counts['unresolved']} unresolved, "
        f"{counts['skipped_records']} records skipped"
        + (f" ({skipped})" if skipped else "")
        + (f", {counts['host_splits']} hosts split by parsers" if counts.get("host_splits") else "")
    )


def main(argv=None, spark=None):
    args = build_parser().parse_args(argv)
    own = spark is None
    if own:
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName("urlspec links")
        if args.master:
            builder = builder.master(args.master)
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel(args.log_level)
    try:
        counts, seconds = run(spark, args)
    finally:
        if own:
            spark.stop()
    print(
        f"links_job: {summary_line(counts)}; {seconds:.1f} s; resolver {args.resolver}, spec {args.spec}",
        file=sys.stderr,
    )
    return counts


if __name__ == "__main__":
    main()
