"""urlspec.links over bytes and file objects, checked against the CLI's
`urlspec links --output json` when the binary is built."""

import gzip
import io
import json
import subprocess

import pytest

from conftest import ROOT, cli_required, find_cli

import urlspec


def warc_record(rtype, uri, payload, n):
    head = (
        f"WARC/1.0\r\nWARC-Type: {rtype}\r\nWARC-Target-URI: {uri}\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
        f"WARC-Date: 2024-01-01T00:00:00Z\r\n"
        f"Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + payload + b"\r\n\r\n")


def make_warc():
    redirect = b"HTTP/1.1 301 Moved\r\nLocation: /new/\r\nContent-Length: 0\r\n\r\n"
    page = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
        b'<html><a href="x">x</a><img src="../i.png"><a href="g h:">bad</a></html>'
    )
    other = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG"
    based = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        b"Content-Location: http://cdn.example/p/\r\n\r\n"
        b'<base href="http://b.example/a/b"><a href="?q">q</a>'
    )
    return b"".join(
        [
            warc_record("response", "http://h/old", redirect, 1),
            warc_record("response", "http://h/new/", page, 2),
            warc_record("response", "http://h/i.png", other, 3),
            warc_record("response", "http://h/b", based, 4),
        ]
    )


def test_warc_with_redirect_bytes_and_files(tmp_path):
    data = make_warc()
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(data)
    sources = {
        "bytes": lambda: data,
        "file": lambda: open(path, "rb"),
        "gzip-file": lambda: gzip.open(path, "rb"),  # already decompressed
        "bytesio": lambda: io.BytesIO(data),
    }
    results = {}
    for kind, make in sources.items():
        it = urlspec.links(make(), spec="rfc3986")
        results[kind] = [l.to_dict() for l in it]
        s = it.summary
        assert it.exhausted
        assert (s["documents"], s["links"], s["skipped_records"]) == (2, 5, 2), kind
        assert s["by_base_source"]["retrieval"] == 1 and s["by_base_source"]["embedded"] == 1
        assert s["skipped_by_reason"] == {
            "damaged": 0,
            "malformed_header": 0,
            "no_target_uri": 0,
            "not_html": 1,
            "not_http": 0,
            "not_response": 0,
            "redirect": 1,
        }, kind
    first = results["bytes"]
    assert all(r == first for r in results.values())
    x = first[0]
    assert x == {
        "document": "http://h/new/",
        "element": "a",
        "attribute": "href",
        "reference": "x",
        "url": "http://h/new/x",
        "base": "http://h/new/",
        "base_source": "retrieval",
        "error": None,
        "offset": x["offset"],
        "base_chain": ["http://h/old", "http://h/new/"],
        "containers": [],
        "encoding": "windows-1252",
        "context": None,
    }
    assert first[1]["url"] == "http://h/i.png"
    assert first[2]["url"] == "http://h/new/g h:"  # not strict: kept as written
    assert first[3]["element"] == "base"
    assert first[4]["url"] == "http://b.example/a/b?q"
    assert first[4]["base_source"] == "embedded" and first[4]["base_chain"] is None


def test_link_attributes_match_dict():
    it = urlspec.links(b'<a href="../x">', url="http://a/b/c", name="page.html")
    (link,) = list(it)
    d = link.to_dict()
    for k, v in d.items():
        assert getattr(link, k) == v
    assert d["document"] == "page.html" and d["url"] == "http://a/x"


def test_no_base_is_an_error_per_link_not_an_exception():
    (link,) = urlspec.links(b'<a href="x">')
    assert link.url is None and link.error and link.base is None
    assert link.base_source == "none" and link.document == "-"


def test_not_an_archive_raises_after_nothing():
    with pytest.raises(urlspec.LinksError, match="not a WARC archive"):
        list(urlspec.links(b"<html>", format="warc"))
    with pytest.raises(urlspec.Error, match="not str"):
        urlspec.links("<html>")
    with pytest.raises(urlspec.LinksError):
        list(urlspec.links(io.StringIO("<a href=x>")))


def test_truncated_archive_yields_and_lists_the_damage():
    data = make_warc()
    whole = gzip.decompress(data)
    at = whole.rfind(b"WARC/1.0")
    it = urlspec.links(whole[: at + 20])
    assert len(list(it)) == 3
    s = it.summary
    assert s["damaged"] == [(at, "WARC record cut inside its header")]
    assert s["unreadable"] == 1 and s["skipped_by_reason"]["damaged"] == 1


PAGE = b'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href="g">g</a>'


def twenty_records_sixth_damaged():
    """The archive of the CLI's test (crates/urlspec-cli/tests/it/links_inputs.rs): 20 responses,
    the sixth with a negative Content-Length. Plain and gzip-compressed per
    record, each with the byte offset of the damaged record (of its gzip
    member)."""
    records = [
        (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h/{i}/\r\n"
         f"Content-Length: {len(PAGE)}\r\n\r\n").encode() + PAGE + b"\r\n\r\n"
        for i in range(1, 21)
    ]
    records[5] = records[5].replace(b"Content-Length: ", b"Content-Length: -")
    members = [gzip.compress(r) for r in records]
    return [
        (b"".join(records), sum(map(len, records[:5]))),
        (b"".join(members), sum(map(len, members[:5]))),
    ]


@pytest.mark.parametrize("kind", ["plain", "gzip"])
def test_a_damaged_record_is_listed_and_the_archive_read_on(kind, tmp_path, urlspec_cli):
    archive, at = twenty_records_sixth_damaged()[kind == "gzip"]
    for source in (archive, io.BytesIO(archive)):
        it = urlspec.links(source)
        got = [l.to_dict() for l in it]
        assert [d["document"] for d in got] == [f"http://h/{i}/" for i in range(1, 21) if i != 6]
        s = it.summary
        assert (s["documents"], s["links"], s["unreadable"]) == (19, 19, 1)
        (offset, why), = s["damaged"]
        assert offset == at and why.startswith("damaged WARC record: ")
        assert s["skipped_by_reason"]["damaged"] == 1
    # The CLI reads the same links and reports the record at the same byte.
    path = tmp_path / "archive.warc"
    path.write_bytes(archive)
    p = subprocess.run([str(urlspec_cli), "links", "--output", "json", str(path)],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 1
    assert [json.loads(line) for line in p.stdout.splitlines()] == got
    assert f"{path}: at byte {at}: {why}\n" in p.stderr


def test_hostile_inputs_do_not_crash():
    for data in [b"", b"\xff\xfe\x00" * 1000, b"WARC/1.0\r\n" + b"\xff" * 5000,
                 b"<a href='" + b"\x80" * 100_000 + b"'>", b"From: a\r\n\r\n" + b"\x00" * 1000]:
        try:
            list(urlspec.links(data))
        except urlspec.Error:
            pass


CASES = [
    ("testdata/links/crawl.warc.gz", []),
    ("testdata/links/appendix-d.html", []),
    ("crates/urlspec-cli/examples/sample.eml", []),
    ("testdata/links/redirected.html", ["--url", "http://a/b/", "--redirect", "http://c/d/"]),
]


@pytest.mark.parametrize("path,extra", CASES)
@pytest.mark.parametrize("spec", ["rfc1808", "draft96", "rfc3986"])
def test_same_as_cli(path, extra, spec, tmp_path, urlspec_cli):
    cli = urlspec_cli
    files = [ROOT / path]
    if path.endswith(".gz"):
        generated = tmp_path / "generated.warc.gz"
        generated.write_bytes(make_warc())
        files.append(generated)
    for f in files:
        out = subprocess.run(
            [str(cli), "links", "--output", "json", "--spec", spec, str(f), *extra],
            capture_output=True, text=True, check=False,
        ).stdout
        want = [json.loads(line) for line in out.splitlines()]
        kw = {}
        if extra:
            kw = {"url": extra[1], "redirects": [extra[3]]}
        with open(f, "rb") as fh:
            got = [l.to_dict() for l in urlspec.links(fh, spec=spec, name=str(f), **kw)]
        assert got == want
        assert len(got) > 0


BASE_CASES = [
    # A relative <BASE href>: resolved against the retrieval URL, or with
    # strict_base ignored (the retrieval URL is the base).
    (b'<html><base href="sub/"><a href="g">g</a></html>', "html", "rfc3986",
     {"strict_base": False}, "http://h/d/sub/g"),
    (b'<html><base href="sub/"><a href="g">g</a></html>', "html", "rfc3986",
     {"strict_base": True}, "http://h/d/g"),
    # Content-Base is not one of RFC 3986's base headers; base_headers="all"
    # takes it under every spec.
    (b"Content-Type: text/html\r\nContent-Base: http://cb/x/\r\n\r\n"
     b'<a href="g">g</a>', "mime", "rfc3986", {}, "http://h/d/g"),
    (b"Content-Type: text/html\r\nContent-Base: http://cb/x/\r\n\r\n"
     b'<a href="g">g</a>', "mime", "rfc3986", {"base_headers": "all"}, "http://cb/x/g"),
]


@pytest.mark.parametrize("data,fmt,spec,kw,want", BASE_CASES)
def test_strict_base_and_base_headers(data, fmt, spec, kw, want, tmp_path):
    links = urlspec.links(data, url="http://h/d/", spec=spec, format=fmt, **kw)
    got = [l.url for l in links if l.reference == "g"]
    assert got == [want]
    cli, why = find_cli()
    if cli is None:
        if cli_required():
            pytest.fail(f"the urlspec command is required here (CI or URLSPEC_CLI_REQUIRED=1): {why}")
        pytest.skip(f"the library's answer is checked; the comparison with the CLI is not: {why}")
    path = tmp_path / f"doc.{'eml' if fmt == 'mime' else 'html'}"
    path.write_bytes(data)
    flags = []
    if kw.get("strict_base"):
        flags.append("--strict-base")
    if kw.get("base_headers"):
        flags += ["--base-headers", kw["base_headers"]]
    out = subprocess.run(
        [str(cli), "links", "--output", "json", "--spec", spec, "--format", fmt,
         "--url", "http://h/d/", *flags, str(path)],
        capture_output=True, text=True, check=False,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert [l["url"] for l in lines if l["reference"] == "g"] == [want]


def test_base_headers_must_be_spec_or_all():
    with pytest.raises(urlspec.Error, match="base_headers"):
        urlspec.links(b"<a href=g>", base_headers="some")


class _Raising(io.RawIOBase):
    """A binary file whose ``read()`` gives ``data`` and then raises
    ``exc`` (once ``after`` bytes are read)."""

    def __init__(self, data, exc, after):
        self.data, self.exc, self.after, self.pos, self.calls = data, exc, after, 0, 0

    def readable(self):
        return True

    def read(self, n=-1):
        self.calls += 1
        if self.pos >= self.after:
            raise self.exc
        n = len(self.data) if n is None or n < 0 else n
        chunk = self.data[self.pos : min(self.pos + n, self.after)]
        self.pos += len(chunk)
        return chunk


class _Interrupt(Exception):
    pass


def _big_warc(records=200):
    """An archive of many pages (each record compressed on its own, so
    that it is read as it is iterated, not at once)."""
    page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + b"".join(
        b'<a href="p%d">x</a>' % i for i in range(40)
    )
    return b"".join(warc_record("response", f"http://h/{n}", page + bytes(n % 7), n) for n in range(records))


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), _Interrupt("stop"), MemoryError()])
@pytest.mark.parametrize("where", ["head", "html", "warc-middle"])
def test_read_exceptions_propagate_unchanged(exc, where):
    """An exception of the file's ``read()`` that is not an ``OSError``
    reaches the caller as it was raised: never a ``LinksError`` (a
    ``ValueError``), so ``except ValueError`` cannot swallow Ctrl-C."""
    if where == "warc-middle":
        data = _big_warc()
        # Inside the last record: the links before it are handed out first.
        f = _Raising(data, exc, len(data) - 200)
        links = urlspec.links(f)
        seen = []
        with pytest.raises(type(exc)) as info:
            for link in links:
                seen.append(link.url)
        assert info.value is exc and seen
        # The file is not read on after its exception.
        calls = f.calls
        assert list(links) == [] and f.calls == calls
        return
    data = b"<html><a href='x'>x</a></html>" * 100
    after = 0 if where == "head" else 2000
    with pytest.raises(type(exc)) as info:
        list(urlspec.links(_Raising(data, exc, after), url="http://h/", format="html"))
    assert info.value is exc
    assert not isinstance(info.value, urlspec.LinksError)


def test_read_oserror_is_a_links_error_caused_by_it():
    err = OSError(5, "Input/output error")
    with pytest.raises(urlspec.LinksError) as info:
        list(urlspec.links(_Raising(b"<a href=x>" * 500, err, 1500), format="html"))
    assert info.value.__cause__ is err
    # A WARC archive cut by a failing read: the records before it first.
    data = _big_warc()
    links = urlspec.links(_Raising(data, OSError("disk"), len(data) - 200))
    got = []
    with pytest.raises(urlspec.LinksError) as info:
        for link in links:
            got.append(link.url)
    assert got and isinstance(info.value.__cause__, OSError)


class _Generous(io.RawIOBase):
    """A binary file whose ``read(n)`` gives up to ``3 * n + 7`` bytes:
    more than asked for."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def readable(self):
        return True

    def read(self, n=-1):
        n = len(self.data) if n is None or n < 0 else 3 * n + 7
        chunk = self.data[self.pos : self.pos + n]
        self.pos += len(chunk)
        return bytes(chunk)


@pytest.mark.parametrize("kind", ["warc", "html"])
def test_read_giving_more_than_asked_loses_nothing(kind):
    if kind == "warc":
        data = make_warc()
    else:
        data = b"".join(b'<a href="p%d">x</a>' % i for i in range(3000))
    want = [l.to_dict() for l in urlspec.links(data, url="http://h/")]
    got = [l.to_dict() for l in urlspec.links(_Generous(data), url="http://h/")]
    assert got == want and len(want) > 2


HOST_SPLIT_PAGE = (
    b"<a href='http://allowed.example\\@evil.example/'>x</a>"
    b"<a href='http:/evil.example/p'>y</a><a href=/ok>z</a>"
)


def test_parsers_mark_and_count_the_links_whose_host_they_split(tmp_path, urlspec_cli):
    links = list(urlspec.links(HOST_SPLIT_PAGE, url="http://h/", parsers="python-urllib,python-urllib3"))
    assert links[0].host_split == {"python-urllib": "evil.example", "python-urllib3": "allowed.example"}
    assert [l.host_split for l in links[1:]] == [None, None]
    assert links[2].to_dict()["host_split"] is None
    # A list of names, and a parser that reads no host.
    it = urlspec.links(HOST_SPLIT_PAGE, url="http://h/", parsers=["go", "curl"])
    got = [l.host_split for l in it]
    assert got[1] == {"go": None, "curl": "evil.example"}
    assert it.summary["host_splits"] == sum(g is not None for g in got)
    # Without parsers: no key in the dict, and nothing counted.
    it = urlspec.links(HOST_SPLIT_PAGE, url="http://h/")
    dicts = [l.to_dict() for l in it]
    assert all("host_split" not in d for d in dicts)
    assert it.summary["host_splits"] == 0
    # The same lines as urlspec links --parsers, every profile at once.
    path = tmp_path / "page.html"
    path.write_bytes(HOST_SPLIT_PAGE)
    out = subprocess.run(
        [str(urlspec_cli), "links", "--output", "json", "--url", "http://h/",
         "--parsers", "all", str(path)],
        capture_output=True, text=True, check=False,
    ).stdout
    want = [json.loads(line) for line in out.splitlines()]
    with open(path, "rb") as fh:
        got = [l.to_dict() for l in urlspec.links(fh, url="http://h/", name=str(path), parsers="all")]
    assert got == want
    assert any(d["host_split"] for d in got)


def test_an_unknown_parser_is_an_error():
    with pytest.raises(urlspec.Error, match="lynx"):
        urlspec.links(b"<a href=x>", parsers="python-urllib,lynx")


def test_parser_lists_are_read_as_the_cli_reads_them():
    assert urlspec.parser_list("Curl, go,curl") == ["curl", "go"]
    assert urlspec.parser_list(["GO", " curl ", "go"]) == ["go", "curl"]
    assert urlspec.parser_list("ruby,all") == ["ruby"] + [p for p in urlspec.PARSERS if p != "ruby"]
    assert urlspec.parser_list(("all",)) == list(urlspec.PARSERS)
    # `none` names no parser, as --parsers none; so does no name at all.
    for none in ("none", "NONE,none", ["none"], (), []):
        assert urlspec.parser_list(none) == []
    assert urlspec.parser_list("none,go") == ["go"]
    for parsers in ("none", ["none", "curl"]):
        it = urlspec.links(HOST_SPLIT_PAGE, url="http://h/", parsers=parsers)
        assert all("host_split" not in l.to_dict() for l in it)


def test_an_unknown_parser_has_its_position_and_the_names_a_list_takes():
    with pytest.raises(urlspec.Error) as e:
        urlspec.parser_list("curl, Lynx,go")
    assert e.value.position == 6
    assert str(e.value).startswith("unknown parser `Lynx` at byte 6 of the list; expected one of ")
    for name in (*urlspec.PARSERS, "all", "none"):
        assert name in str(e.value)
    # A list of names: the position in the names joined by commas.
    with pytest.raises(urlspec.Error) as e:
        urlspec.links(b"<a href=x>", parsers=["go", "lynx"])
    assert e.value.position == 3 and "`lynx`" in str(e.value)
    # An empty name is unknown, as --parsers reads it.
    for parsers, at in (("", 0), ("go,", 3), ("go,,curl", 3)):
        with pytest.raises(urlspec.Error) as e:
            urlspec.parser_list(parsers)
        assert e.value.position == at, parsers
    with pytest.raises(TypeError):
        urlspec.parser_list(["go", 3])
