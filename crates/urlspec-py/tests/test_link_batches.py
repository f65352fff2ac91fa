"""urlspec.link_batches: the links as pyarrow record batches built in Rust,
row for row those of `urlspec links --output json`, on generated archives
and on every real archive of ../shared/data/warc-real; memory bounded by
the batch size, not by a record's size."""

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

import urlspec

pa = pytest.importorskip("pyarrow")

sys.path.insert(0, str(ROOT / "examples" / "spark"))
import warcgen  # noqa: E402  (the Spark example's crawl generator)

WARC_REAL = pathlib.Path(os.environ.get("URLSPEC_WARC_REAL", ROOT.parent / "shared" / "data" / "warc-real"))


def cli_json(cli, path, *args):
    out = subprocess.run(
        [str(cli), "links", "--output", "json", *args, str(path)],
        capture_output=True, text=True, check=False,
    )
    # 0, or 1 when an input was read only in part (its links printed)
    assert out.returncode in (0, 1), out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def batches_of(source, **kw):
    """The batches of each kind, and the iterator."""
    it = urlspec.link_batches(source, **kw)
    kinds = {"links": [], "documents": [], "summary": []}
    for b in it:
        kinds[b.schema.metadata[b"urlspec"].decode()].append(b)
    return kinds, it


def rows(batches):
    out = []
    for b in batches:
        out += b.to_pylist()
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    d = tmp_path_factory.mktemp("crawl")
    return warcgen.synthetic_archives(str(d), 3, 60, 30, seed=3)


def real_archives():
    if not WARC_REAL.is_dir():
        return []
    return sorted(p for p in WARC_REAL.iterdir() if p.name not in ("MANIFEST.tsv", "README.md"))


@pytest.mark.parametrize("batch_size", [7, 65536])
@pytest.mark.parametrize("dictionary", [True, False])
def test_generated_archives_row_for_row(generated, batch_size, dictionary, urlspec_cli):
    for path in generated:
        want = cli_json(urlspec_cli, path)
        kinds, it = batches_of(open(path, "rb"), batch_size=batch_size, dictionary=dictionary)
        assert len(want) > 100
        assert rows(kinds["links"]) == want
        assert all(b.num_rows <= batch_size for b in kinds["links"])
        assert [b.num_rows for b in kinds["links"][:-1]] == [batch_size] * (len(kinds["links"]) - 1)
        t = kinds["links"][0].schema.field("element").type
        assert pa.types.is_dictionary(t) == dictionary
        # The summary equals urlspec.links's, as a dict and as the last batch.
        plain = urlspec.links(open(path, "rb"))
        for _ in plain:
            pass
        assert it.summary == plain.summary
        (summary,) = kinds["summary"]
        s = summary.to_pylist()[0]
        assert s["links"] == len(want) and s["documents"] == plain.summary["documents"]
        assert dict(s["skipped_by_reason"]) == plain.summary["skipped_by_reason"]


def test_documents_batches_count_each_documents_links(generated, urlspec_cli):
    path = generated[0]
    want = cli_json(urlspec_cli, path)
    kinds, it = batches_of(open(path, "rb"), batch_size=5)
    docs = rows(kinds["documents"])
    assert len(docs) == it.summary["documents"]
    assert all(b.num_rows <= 5 for b in kinds["documents"])
    with_links = [(d["document"], d["links"]) for d in docs if d["links"]]
    grouped = []
    for link in want:
        if grouped and grouped[-1][0] == link["document"]:
            grouped[-1] = (link["document"], grouped[-1][1] + 1)
        else:
            grouped.append((link["document"], 1))
    assert with_links == grouped
    assert sum(d["unresolved"] for d in docs) == it.summary["unresolved"]
    by_doc = {l["document"]: l for l in want}
    for d in docs:
        if d["document"] in by_doc:
            l = by_doc[d["document"]]
            assert (d["base"], d["base_source"], d["encoding"]) == (l["base"], l["base_source"], l["encoding"])


@pytest.mark.parametrize("path", real_archives(), ids=lambda p: p.name)
def test_real_archives_row_for_row(path, urlspec_cli):
    want = cli_json(urlspec_cli, path)
    # An input that is no archive is named as the CLI names it: its path.
    kinds, it = batches_of(open(path, "rb"), batch_size=50, name=str(path))
    assert rows(kinds["links"]) == want
    plain = urlspec.links(open(path, "rb"))
    try:
        for _ in plain:
            pass
    except urlspec.LinksError:
        pass
    assert it.summary == plain.summary


def test_real_archives_are_there():
    # The data set beside the repository: every archive of it is compared
    # above, none skipped silently.
    if not WARC_REAL.is_dir():
        pytest.skip(f"{WARC_REAL} is missing")
    assert len(real_archives()) >= 40


def test_html_and_options_as_links():
    page = b'<base href="sub/"><a href="g">g</a><noscript><img src="i.png"></noscript>'
    for kw in ({}, {"strict_base": True}):
        kinds, _ = batches_of(page, url="http://h/d/", redirects=["http://h/e/"], spec="rfc3986", format="html", name="p", **kw)
        want = [l.to_dict() for l in urlspec.links(page, url="http://h/d/", redirects=["http://h/e/"], spec="rfc3986", format="html", name="p", **kw)]
        assert rows(kinds["links"]) == want and len(want) == 3


def test_nulls_after_any_number_of_values():
    # A page without a base: its absolute links resolve, its relative
    # ones do not (url null, error set). The first null of a column comes
    # after 0 to 19 values, at every place of a validity byte and of a
    # batch; noscript links have a context, the others a null one.
    for first in range(20):
        refs = [f"http://h/{i}" for i in range(first)] + ["r0", "http://h/x", "r1", "r2"]
        page = "".join(
            f'<noscript><a href="{r}">x</a></noscript>' if i % 3 == 2 else f'<a href="{r}">x</a>'
            for i, r in enumerate(refs)
        ).encode()
        want = [link.to_dict() for link in urlspec.links(page, format="html", name="p")]
        assert [w["url"] is None for w in want] == [not r.startswith("http:") for r in refs]
        for batch_size in (3, 8, 9, 64):
            for dictionary in (True, False):
                kinds, _ = batches_of(page, format="html", name="p", batch_size=batch_size, dictionary=dictionary)
                assert rows(kinds["links"]) == want, (first, batch_size, dictionary)


def test_damaged_record_read_past_and_failure_raised():
    records = []
    page = b'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href="g">g</a>'
    for i in range(1, 6):
        records.append(
            (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/{i}/\r\n"
             f"Content-Length: {len(page)}\r\n\r\n").encode() + page + b"\r\n\r\n"
        )
    records[2] = records[2].replace(b"Content-Length: ", b"Content-Length: -")
    kinds, it = batches_of(b"".join(records), batch_size=2)
    assert [r["document"] for r in rows(kinds["links"])] == ["http://h/1/", "http://h/2/", "http://h/4/", "http://h/5/"]
    (offset, why), = it.summary["damaged"]
    assert offset == len(records[0]) + len(records[1]) and why.startswith("damaged WARC record")
    # Not an archive: the error of urlspec.links, after no batch.
    it = urlspec.link_batches(b"<html>", format="warc")
    with pytest.raises(urlspec.LinksError, match="not a WARC archive"):
        list(it)
    assert it.summary["unreadable"] == 1
    with pytest.raises(ValueError):
        urlspec.link_batches(b"", batch_size=0)


def test_read_exception_propagates_unchanged():
    class Boom(Exception):
        pass

    class F:
        def read(self, n):
            raise Boom("no")

    with pytest.raises(Boom):
        list(urlspec.link_batches(F()))


def test_dropping_the_iterator_early_stops_the_reading(generated):
    it = urlspec.link_batches(open(generated[0], "rb"), batch_size=3)
    first = next(it)
    assert first.num_rows == 3
    del it  # the reading thread ends at its next batch; nothing hangs


# A page of about `size` bytes whose links fill a WARC record, read in a
# child process whose peak resident memory its parent takes from wait4.
MEMORY_CHILD = textwrap.dedent(
    """
    import sys, urlspec
    n = 0
    for b in urlspec.link_batches(open(sys.argv[1], "rb"), batch_size=int(sys.argv[2]), documents=False):
        if b.schema.metadata[b"urlspec"] == b"links":
            n += b.num_rows
    print(n)
    """
)

BLOCK = (
    '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor '
    '<a href="p.html">page</a> and <img src="i.png" alt=""> then <a href="../up/?q=1&amp;r=2">up</a>.</p>\n'
).encode()


def write_long_record(path, size):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<!DOCTYPE html><html><body>\n"
    blocks = size // len(BLOCK)
    body_len = len(head) + blocks * len(BLOCK)
    with open(path, "wb") as f:
        f.write(
            (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://warc.example/page.html\r\n"
             f"Content-Length: {body_len}\r\n\r\n").encode()
        )
        f.write(head)
        chunk = BLOCK * 10_000
        for _ in range(blocks // 10_000):
            f.write(chunk)
        f.write(BLOCK * (blocks % 10_000))
        f.write(b"\r\n\r\n")
    return blocks * 3


@pytest.mark.skipif(
    os.environ.get("URLSPEC_PY_MEMORY_TEST") != "1",
    reason="writes and reads a 1 GB record (minutes): URLSPEC_PY_MEMORY_TEST=1 runs it",
)
def test_a_1_gb_record_in_memory_bounded_by_the_batch_size(tmp_path):
    path = tmp_path / "long.warc"
    try:
        links = write_long_record(path, 1 << 30)
        child = subprocess.Popen([sys.executable, "-c", MEMORY_CHILD, str(path), "65536"], stdout=subprocess.PIPE)
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        # pytest keeps the last runs' temporary directories: not a 1 GB file.
        path.unlink(missing_ok=True)
    assert os.waitstatus_to_exitcode(status) == 0
    assert int(out) == links  # about 17.6 million links
    peak = usage.ru_maxrss * 1024
    print(f"1 GB record, {links} links: peak resident memory {peak >> 20} MB")
    # The links alone, held, would take over 1 GB; the interpreter with
    # pyarrow takes about 100 MB.
    assert peak < 400 << 20, f"peak resident memory {peak >> 20} MB"


SPLIT_PAGE = (
    b"<a href='http://allowed.example\\@evil.example/'>a</a>"
    b"<a href='http://0177.0.0.1/x'>b</a><a href='http:/evil.example/p'>c</a>"
    b"<a href='/ok'>d</a>"
)


def test_host_split_column_row_for_row(tmp_path, urlspec_cli):
    path = tmp_path / "split.warc.gz"
    warcgen.write(
        path,
        [warcgen.response(f"http://h.example/{i}", SPLIT_PAGE) for i in range(5)],
        compress=True,
    )
    parsers = "python-urllib,python-urllib3,curl"
    want = cli_json(urlspec_cli, path, "--parsers", parsers)
    for batch_size in (3, 65536):
        kinds, it = batches_of(path.read_bytes(), batch_size=batch_size, parsers=parsers)
        links = kinds["links"]
        assert links[0].schema.field("host_split").type == pa.map_(pa.string(), pa.string())
        got = rows(links)
        for row in got:
            if row["host_split"] is not None:
                row["host_split"] = dict(row["host_split"])
        assert got == want
        assert sum(r["host_split"] is not None for r in got) == 15
        assert it.summary["host_splits"] == 15
        assert rows(kinds["summary"])[0]["host_splits"] == 15
    # Without parsers (or with one), no such column; nothing counted.
    for parsers in ((), ["curl"]):
        kinds, it = batches_of(path.read_bytes(), parsers=parsers)
        assert "host_split" not in kinds["links"][0].schema.names
        assert it.summary["host_splits"] == 0


def test_parsers_are_read_as_urlspec_links_reads_them():
    page = b"<a href='http://allowed.example\\@evil.example/'>x</a>"
    want = [("python-urllib3", "allowed.example"), ("python-urllib", "evil.example")]
    for parsers in (["none", "python-urllib3", "PYTHON-URLLIB"], "none,python-urllib3, PYTHON-URLLIB"):
        batches = list(urlspec.link_batches(page, url="http://h/", parsers=parsers))
        assert batches[0].column("host_split")[0].as_py() == want
        assert list(next(urlspec.links(page, url="http://h/", parsers=parsers)).host_split.items()) == want
    batches = list(urlspec.link_batches(page, url="http://h/", parsers="none"))
    assert "host_split" not in batches[0].schema.names
    with pytest.raises(urlspec.Error) as e:
        urlspec.link_batches(page, parsers="go,lynx")
    assert e.value.position == 3 and "`lynx`" in str(e.value)
