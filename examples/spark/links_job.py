#!/usr/bin/env python3
"""Every link of every HTML page in WARC archives, resolved by urlspec, as Parquet.

A PySpark job in the manner of Common Crawl's cc-pyspark jobs: the archive
paths are spread over partitions; each Python worker opens its archives as
streams (local files, or any filesystem pyarrow or fsspec can open: HDFS,
S3, GCS, ...) and hands them to `urlspec.links`, which reads one WARC record
at a time, follows 3xx redirects, establishes each page's base (<BASE href>,
HTTP headers, the retrieval URL after redirects) and resolves every link.
Memory stays bounded by the largest record, whatever the size of an archive.

Run `links_job.py --help` for the options; README.md ("At scale") tells how
to submit it to a cluster.
"""

import argparse
import os
import sys
import time
import urllib.parse

# The columns written, in order. `offset` (the byte offset of the reference
# in its page) follows the others: it tells apart two links that are the
# same in every other column.
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
)

SPECS = ("rfc1630", "draft04", "rfc1808", "draft96", "draft96dec", "rfc2396", "rfc3986", "whatwg")

DESCRIPTION = """\
Extract every link of every HTML response in WARC archives and write one
Parquet row per link; optionally aggregate them into a host-level link graph.

Each INPUT is a WARC archive (gzip-compressed or not), a directory of them
(every *.warc and *.warc.gz below it) or, for local files, a glob pattern.
Paths may be local or URIs of any filesystem pyarrow opens (hdfs://, s3://,
gs://, file://) or, when fsspec is installed, fsspec does (https://, ...).
With --paths-from, a text file lists the archives one per line, as
cc-pyspark's jobs take them (Common Crawl's warc.paths.gz lists, after
gunzip); relative entries are joined to --input-base-url.

For each archive, every `response` record whose payload is HTML is a page;
3xx responses are followed to report the redirect chain that led to a page;
other records are skipped and counted. A page's base is established as the
chosen --spec establishes it (RFC 1808 section 3): <BASE href>, then the
HTTP headers (Content-Base, Content-Location, per spec), then the URL the
page was retrieved from, after the redirects.
"""

EPILOG = """\
output columns (Parquet, one row per link, explicit schema):
  warc_file       string     the archive, as given or listed
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
These are the keys of `urlspec links --output json` (document, element,
attribute, reference, url, base, base_source, error, offset, base_chain).

host graph (--host-graph PATH, Parquet):
  source_host  string  the host of target_uri
  target_host  string  the host of url
  links        long    links from pages of source_host to target_host
  pages        long    distinct pages of source_host linking there
Hosts are parsed by urlspec under --spec (the server part: user, password
and port dropped), lower-cased, a trailing dot removed. Links whose url or
page has no host (mailto:, javascript:, unresolved) are left out.

resolvers:
  urlspec   the links as urlspec.links resolves them under --spec
  urllib    for comparison: the same pages, links and bases (urlspec reads
            the archives, parses the HTML and establishes each base), but
            each url is urllib.parse.urljoin(base, reference) computed in
            Python, as most Python crawl jobs do. Not a spec: compare the
            two outputs to see where urljoin differs.

examples:
  # local mode, two archives, the links and the host graph
  spark-submit --master 'local[2]' links_job.py --output out/links \\
      --host-graph out/hosts crawl-1.warc.gz crawl-2.warc.gz

  # Common Crawl style: a paths list on S3, 400 partitions, RFC 3986
  spark-submit links_job.py --spec rfc3986 --num-partitions 400 \\
      --paths-from s3://bucket/warc.paths --input-base-url s3://commoncrawl/ \\
      --output s3://bucket/links/

  # the same job with urljoin, to compare
  spark-submit links_job.py --resolver urllib --output out/links-urljoin a.warc.gz
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
        help="a text file listing archives, one per line (# comments and blank lines ignored); "
        "read by Spark, so it may be on HDFS or S3 too; repeatable",
    )
    p.add_argument(
        "--input-base-url",
        default="",
        metavar="URL",
        help="prefix for the relative entries of --paths-from lists (e.g. s3://commoncrawl/)",
    )
    p.add_argument("--output", "-o", required=True, metavar="PATH", help="where to write the links (a Parquet directory)")
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
        help="partitions to spread the archives over (default: one per archive, at most 10,000)",
    )
    p.add_argument(
        "--mode",
        default="errorifexists",
        choices=("errorifexists", "overwrite", "append", "ignore"),
        help="what to do when an output exists (Spark's save modes; default: errorifexists)",
    )
    p.add_argument("--compression", default="zstd", choices=("zstd", "snappy", "gzip", "none"), help="Parquet compression (default: zstd)")
    p.add_argument(
        "--on-error",
        default="fail",
        choices=("fail", "skip"),
        help="an archive that cannot be opened or read on: fail the task (Spark retries it, then fails the job), "
        "or log it, keep the links read before the damage, count it and go on (default: fail)",
    )
    p.add_argument(
        "--transfer",
        default="auto",
        choices=("auto", "arrow", "rows"),
        help="how rows reach Spark: Arrow record batches through mapInArrow (needs pyarrow and pandas, "
        "as PySpark's Arrow functions do), or pickled rows through RDD.mapPartitions; "
        "auto: arrow when both are installed (default)",
    )
    p.add_argument("--master", metavar="URL", help="Spark master when run with plain python (spark-submit sets it)")
    p.add_argument("--log-level", default="WARN", help="Spark log level (default: WARN)")
    return p


# ---------------------------------------------------------------- inputs


def _is_local(path):
    scheme = urllib.parse.urlsplit(path).scheme
    # A one-letter "scheme" is a Windows drive.
    return scheme == "" or len(scheme) == 1


def _for_pyarrow(uri):
    """Hadoop's s3a:// and s3n:// are s3:// to pyarrow."""
    scheme, sep, rest = uri.partition("://")
    return ("s3" + sep + rest) if scheme in ("s3a", "s3n") else uri


def _is_warc_name(name):
    return name.endswith((".warc", ".warc.gz"))


def expand_input(path):
    """The archives an INPUT names: itself, the archives under a directory,
    or the matches of a local glob pattern."""
    if _is_local(path):
        import glob

        if os.path.isdir(path):
            found = []
            for root, _, files in os.walk(path):
                found += [os.path.join(root, f) for f in files if _is_warc_name(f)]
            return sorted(found)
        if any(c in path for c in "*?[") and not os.path.exists(path):
            return sorted(glob.glob(path))
        return [path]
    try:
        from pyarrow import fs
    except ImportError:
        return [path]
    try:
        filesystem, fspath = fs.FileSystem.from_uri(_for_pyarrow(path))
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


def read_path_lists(spark, lists, base_url):
    """The entries of --paths-from files, read through Spark (any Hadoop
    filesystem), joined to --input-base-url when relative."""
    paths = []
    for lst in lists:
        for row in spark.read.text(lst).collect():
            line = row[0].strip()
            if not line or line.startswith("#"):
                continue
            if base_url and _is_local(line) and not os.path.isabs(line):
                line = base_url.rstrip("/") + "/" + line.lstrip("/")
            paths.append(line)
    return paths


def open_archive(path):
    """A readable binary stream over an archive; it is never read whole.

    Local paths are opened directly; URIs through pyarrow's filesystems
    (hdfs, s3, gs, file; no transparent decompression: urlspec reads gzip
    members itself), else through fsspec when installed."""
    if _is_local(path):
        return open(path, "rb", buffering=1 << 20)
    try:
        from pyarrow import fs

        filesystem, fspath = fs.FileSystem.from_uri(_for_pyarrow(path))
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


def _schema():
    from pyspark.sql.types import ArrayType, LongType, StringType, StructField, StructType

    s = StringType()
    return StructType(
        [
            StructField("warc_file", s, False),
            StructField("target_uri", s, False),
            StructField("redirect_chain", ArrayType(s, False), True),
            StructField("link_element", s, False),
            StructField("link_attribute", s, False),
            StructField("reference", s, False),
            StructField("url", s, True),
            StructField("base", s, True),
            StructField("base_source", s, False),
            StructField("error", s, True),
            StructField("offset", LongType(), False),
        ]
    )


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


def _summary_counts(summary):
    """documents, links, unresolved and skipped records from the iterator's
    summary, whatever its shape (an object or a dict)."""
    out = {}
    for key in ("documents", "links", "unresolved", "skipped_records"):
        v = summary.get(key) if isinstance(summary, dict) else getattr(summary, key, None)
        if isinstance(v, int):
            out[key] = v
    return out


def make_extractor(spec, resolver, on_error, counters=None):
    """The function run on each partition: for each archive path, the rows
    of its links, streamed as they are read."""

    def extract(paths):
        import urlspec  # on the executor, once per partition

        urljoin_resolve = _urljoin_resolver() if resolver == "urllib" else None
        for path in paths:
            n = unresolved = 0
            stream = links = None
            try:
                stream = open_archive(path)
                links = urlspec.links(stream, spec=spec, format="warc")
                for link in links:
                    if urljoin_resolve is None:
                        url, error = link.url, link.error
                    else:
                        url, error = urljoin_resolve(link.base, link.reference)
                        if error is not None:
                            unresolved += 1
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
                        error,
                        link.offset,
                    )
                if counters is not None:
                    counters["files"].add(1)
            except Exception as e:
                if on_error == "fail":
                    raise
                print(f"links_job: {path}: {e} (after {n} links; going on)", file=sys.stderr)
                if counters is not None:
                    counters["failed_files"].add(1)
            finally:
                if counters is not None:
                    # What was read, the part of a failed archive too.
                    got = _summary_counts(getattr(links, "summary", None))
                    if urljoin_resolve is not None:
                        got["unresolved"] = unresolved
                    for key, v in got.items():
                        counters[key].add(v)
                    if "links" not in got:
                        counters["links"].add(n)
                if stream is not None:
                    stream.close()

    return extract


def _arrow_schema():
    import pyarrow as pa

    s = pa.string()
    return pa.schema(
        [
            pa.field("warc_file", s, False),
            pa.field("target_uri", s, False),
            pa.field("redirect_chain", pa.list_(pa.field("element", s, False)), True),
            pa.field("link_element", s, False),
            pa.field("link_attribute", s, False),
            pa.field("reference", s, False),
            pa.field("url", s, True),
            pa.field("base", s, True),
            pa.field("base_source", s, False),
            pa.field("error", s, True),
            pa.field("offset", pa.int64(), False),
        ]
    )


def make_arrow_extractor(spec, resolver, on_error, counters=None, batch_rows=8192):
    """The same rows as make_extractor, handed to Spark as Arrow record
    batches (mapInArrow): columns cross into the JVM in bulk instead of
    one pickled row at a time."""
    rows_of = make_extractor(spec, resolver, on_error, counters)

    def extract(batches):
        import pyarrow as pa

        schema = _arrow_schema()

        def paths():
            for b in batches:
                yield from b.column(0).to_pylist()

        def batch(rows):
            cols = zip(*rows)
            return pa.RecordBatch.from_arrays([pa.array(c, f.type) for c, f in zip(cols, schema)], schema=schema)

        rows = []
        for row in rows_of(paths()):
            rows.append(row)
            if len(rows) >= batch_rows:
                yield batch(rows)
                rows = []
        if rows:
            yield batch(rows)

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


def extract_links(spark, paths, spec="rfc1808", resolver="urlspec", num_partitions=None, on_error="fail", transfer="auto"):
    """The links DataFrame (not yet computed) and the counters its
    computation fills (Spark accumulators)."""
    if transfer == "auto":
        try:  # what mapInArrow needs on the driver (and the executors)
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401

            transfer = "arrow"
        except ImportError:
            transfer = "rows"
    sc = spark.sparkContext
    _ship_this_file(sc)
    counters = {
        k: sc.accumulator(0)
        for k in ("files", "failed_files", "documents", "links", "unresolved", "skipped_records")
    }
    n = num_partitions or min(max(len(paths), 1), 10_000)
    if transfer == "arrow":
        archives = spark.createDataFrame(sc.parallelize([(p,) for p in paths], n), "path string")
        return archives.mapInArrow(make_arrow_extractor(spec, resolver, on_error, counters), _schema()), counters
    rdd = sc.parallelize(paths, n).mapPartitions(make_extractor(spec, resolver, on_error, counters))
    return spark.createDataFrame(rdd, _schema()), counters


# ---------------------------------------------------------------- host graph


def make_host_of(spec):
    """host(url): the host of an absolute URL as urlspec parses it under
    `spec`, lower-cased, a trailing dot removed; None when it has none."""
    import urlspec

    parse = urlspec.parse

    def server_host(u):
        r = parse(u, spec=spec)
        host = getattr(r, "host", None)
        if callable(host):
            host = host()
        if host is None:
            server = getattr(r, "server", None)
            if callable(server):
                server = server()
            host = getattr(server, "host", None) if server is not None else None
        return host

    def host_of(u):
        if not u:
            return None
        try:
            h = server_host(u)
        except Exception:
            return None
        if not h:
            return None
        h = h.lower()
        return h[:-1] if h.endswith(".") else h

    return host_of


def host_graph(links_df, spec):
    """Aggregate links (target_uri, url) to (source_host, target_host,
    links, pages)."""
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
    return edges.groupBy("source_host", "target_host").agg(
        F.sum("n").alias("links"), F.countDistinct("target_uri").alias("pages")
    )


# ---------------------------------------------------------------- main


def run(spark, args):
    """Runs the job described by parsed `args`; returns the counters and
    the seconds taken."""
    paths = []
    for i in args.inputs:
        paths += expand_input(i)
    paths += read_path_lists(spark, args.paths_from, args.input_base_url)
    if not paths:
        raise SystemExit("links_job.py: no input archives (give INPUT paths or --paths-from)")
    compression = "uncompressed" if args.compression == "none" else args.compression
    start = time.perf_counter()
    df, counters = extract_links(
        spark, paths, args.spec, args.resolver, args.num_partitions, args.on_error, args.transfer
    )
    df.write.mode(args.mode).option("compression", compression).parquet(args.output)
    seconds = time.perf_counter() - start
    counts = {k: a.value for k, a in counters.items()}
    if args.host_graph:
        graph = host_graph(spark.read.parquet(args.output), args.spec)
        graph.write.mode(args.mode).option("compression", compression).parquet(args.host_graph)
    return counts, seconds


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
        f"links_job: {counts['files']} archives ({counts['failed_files']} failed), "
        f"{counts['documents']} pages, {counts['links']} links, {counts['unresolved']} unresolved, "
        f"{counts['skipped_records']} records skipped; {seconds:.1f} s; resolver {args.resolver}, spec {args.spec}",
        file=sys.stderr,
    )
    return counts


if __name__ == "__main__":
    main()
