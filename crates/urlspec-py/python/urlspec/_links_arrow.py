"""Links as pyarrow record batches, their columns built in Rust."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from . import _native

#: The link columns, in the order and with the names of ``urlspec links
#: --output json``; the ones marked True repeat and are dictionary-encoded
#: unless ``dictionary=False``.
LINK_COLUMNS = (
    ("document", True, False),
    ("element", True, False),
    ("attribute", True, False),
    ("reference", False, False),
    ("url", False, True),
    ("base", True, True),
    ("base_source", True, False),
    ("error", False, True),
    ("offset", None, False),
    ("base_chain", "list", True),
    ("containers", "list", False),
    ("encoding", True, True),
    ("context", True, True),
)

#: The columns of a documents batch: one row per document.
DOCUMENT_COLUMNS = ("document", "base", "base_source", "encoding", "links", "unresolved", "problems")

_SKIP_REASONS = ("not_response", "no_target_uri", "not_http", "redirect", "not_html", "malformed_header", "damaged")


def _pa():
    import pyarrow

    return pyarrow


def _link_schema(pa, dictionary: bool, parsers: bool = False):
    fields = []
    for name, kind, nullable in LINK_COLUMNS:
        if kind is None:
            t = pa.int64()
        elif kind == "list":
            t = pa.list_(pa.field("item", pa.string(), nullable=False))
        elif kind and dictionary:
            t = pa.dictionary(pa.int32(), pa.string())
        else:
            t = pa.string()
        fields.append(pa.field(name, t, nullable=nullable))
    if parsers:
        # Each parser's host (null where it reads none), when they differ.
        fields.append(pa.field("host_split", pa.map_(pa.string(), pa.string()), nullable=True))
    return pa.schema(fields, metadata={"urlspec": "links"})


def _document_schema(pa):
    s, i = pa.string(), pa.int64()
    return pa.schema(
        [
            pa.field("document", s, nullable=False),
            pa.field("base", s),
            pa.field("base_source", s, nullable=False),
            pa.field("encoding", s),
            pa.field("links", i, nullable=False),
            pa.field("unresolved", i, nullable=False),
            pa.field("problems", pa.list_(pa.field("item", s, nullable=False)), nullable=False),
        ],
        metadata={"urlspec": "documents"},
    )


def _summary_schema(pa):
    counts = pa.map_(pa.string(), pa.int64())
    i = pa.int64()
    return pa.schema(
        [
            pa.field("documents", i, nullable=False),
            pa.field("links", i, nullable=False),
            pa.field("unresolved", i, nullable=False),
            pa.field("unreadable", i, nullable=False),
            pa.field("skipped_records", i, nullable=False),
            pa.field("host_splits", i, nullable=False),
            pa.field("skipped_by_reason", counts, nullable=False),
            pa.field("by_base_source", counts, nullable=False),
            pa.field(
                "damaged",
                pa.list_(pa.struct([pa.field("offset", i, nullable=False), pa.field("reason", pa.string(), nullable=False)])),
                nullable=False,
            ),
        ],
        metadata={"urlspec": "summary"},
    )


def _buffer(pa, b):
    return None if b is None else pa.foreign_buffer(b.address, b.size, base=b)


def _array(pa, col, field_type):
    """A pyarrow array over the buffers of one column (src/links_arrow.rs,
    ``Array::into_py``); ``n`` is taken from the offsets or values."""
    kind, validity, buf, child, nulls = col
    if kind == "string":
        n = buf.size // 4 - 1
        return pa.Array.from_buffers(pa.string(), n, [_buffer(pa, validity), _buffer(pa, buf), _buffer(pa, child)], null_count=nulls)
    if kind == "int64":
        return pa.Array.from_buffers(pa.int64(), buf.size // 8, [None, _buffer(pa, buf)], null_count=0)
    if kind == "dictionary":
        indices = pa.Array.from_buffers(pa.int32(), buf.size // 4, [_buffer(pa, validity), _buffer(pa, buf)], null_count=nulls)
        return pa.DictionaryArray.from_arrays(indices, _array(pa, child, pa.string()), safe=False)
    if kind == "list":
        n = buf.size // 4 - 1
        values = _array(pa, child, field_type.value_type)
        return pa.Array.from_buffers(field_type, n, [_buffer(pa, validity), _buffer(pa, buf)], null_count=nulls, children=[values])
    if kind == "map":
        n = buf.size // 4 - 1
        keys = _array(pa, child[0], pa.string())
        items = _array(pa, child[1], pa.string())
        entries = pa.StructArray.from_arrays([keys, items], fields=[field_type.key_field, field_type.item_field])
        return pa.Array.from_buffers(field_type, n, [_buffer(pa, validity), _buffer(pa, buf)], null_count=nulls, children=[entries])
    raise ValueError(f"unknown column kind {kind!r}")


class LinkBatches:
    """The iterator ``link_batches`` returns: ``pyarrow.RecordBatch``es,
    their kind in ``batch.schema.metadata[b"urlspec"]`` (``links``,
    ``documents``, ``summary``); ``.summary`` once exhausted."""

    def __init__(self, reader, dictionary: bool, documents: bool, summary: bool, parsers: bool = False):
        pa = _pa()
        self._pa = pa
        self._reader = reader
        self._summary_batch = summary
        self._done = False
        #: The schema of the links batches.
        self.link_schema = _link_schema(pa, dictionary, parsers)
        #: The schema of the documents batches.
        self.document_schema = _document_schema(pa)
        #: The schema of the summary batch.
        self.summary_schema = _summary_schema(pa)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self):
        if self._done:
            raise StopIteration
        got = next(self._reader, None)
        if got is None:
            self._done = True
            if self._summary_batch:
                return self.summary_batch()
            raise StopIteration
        kind, columns = got
        pa = self._pa
        schema = self.link_schema if kind == "links" else self.document_schema
        arrays = [_array(pa, c, f.type) for c, f in zip(columns, schema)]
        return pa.RecordBatch.from_arrays(arrays, schema=schema)

    @property
    def summary(self) -> dict | None:
        """The counts (the keys of ``urlspec.Links.summary``) once every
        batch has been read; ``None`` before."""
        return self._reader.summary

    def summary_batch(self):
        """The summary as a one-row record batch (``summary_schema``)."""
        s = self.summary
        if s is None:
            raise ValueError("the summary is known once every batch has been read")
        row = {
            "documents": s["documents"],
            "links": s["links"],
            "unresolved": s["unresolved"],
            "unreadable": s["unreadable"],
            "skipped_records": s["skipped_records"],
            "host_splits": s["host_splits"],
            "skipped_by_reason": list(s["skipped_by_reason"].items()),
            "by_base_source": list(s["by_base_source"].items()),
            "damaged": [{"offset": o, "reason": r} for o, r in s["damaged"]],
        }
        return self._pa.RecordBatch.from_pylist([row], schema=self.summary_schema)


def link_batches(
    source: Any,
    batch_size: int = 65536,
    *,
    dictionary: bool = True,
    documents: bool = True,
    summary: bool = True,
    url: str | None = None,
    redirects: Iterable[str] = (),
    spec: str = "rfc1808",
    format: str = "auto",
    name: str | None = None,
    strict_base: bool = False,
    base_headers: str = "spec",
    parsers: str | Iterable[str] = (),
) -> LinkBatches:
    """Every link of ``source`` as ``pyarrow.RecordBatch``es built in Rust,
    with no Python object per link.

    ``source`` and the options after ``summary`` are those of
    ``urlspec.links``, and the input is read as it reads it. Batches of
    three kinds come out, told apart by ``batch.schema.metadata[b"urlspec"]``:

    - ``links``: up to ``batch_size`` rows, the columns of ``urlspec links
      --output json`` in its order (document, element, attribute,
      reference, url, base, base_source, error, offset, base_chain,
      containers, encoding, context). document, element, attribute, base,
      base_source, encoding and context are ``dictionary<int32, string>``
      (one dictionary per batch); ``dictionary=False`` makes them plain
      ``string``s. With ``parsers`` (two or more, as ``urlspec.links``
      takes them), a last column ``host_split``, ``map<string, string>``:
      each parser's host (null where it reads none) where they read
      different hosts, else null.
    - ``documents`` (unless ``documents=False``): one row per document read
      (document, base, base_source, encoding, links, unresolved, problems),
      up to ``batch_size`` rows a batch, after the links batches of those
      documents.
    - ``summary`` (unless ``summary=False``): last, one row of the counts
      of ``.summary``.

    Memory stays bounded by the batch size, not by the size of the input or
    of one of its records: a long page's links come in batches. The input
    is read on a thread of its own while the previous batch is used. An
    input that cannot be read on raises ``LinksError`` as ``urlspec.links``
    does, after the batches of the links found before it (no summary
    batch then: ``.summary`` holds the counts).
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    reader = _native.link_batches(
        source,
        batch_size=batch_size,
        dictionary=dictionary,
        documents=documents,
        url=url,
        redirects=list(redirects),
        spec=spec,
        format=format,
        name=name,
        strict_base=strict_base,
        base_headers=base_headers,
        parsers=parsers,
    )
    return LinkBatches(reader, dictionary, documents, summary, parsers=reader.host_split)
