"""Batch calls over lists and pyarrow arrays, crossing into Rust once."""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from . import _native


class ResolveMany(NamedTuple):
    """The result of ``resolve_many``: ``urls[i]`` is the resolved URL or
    ``None``; ``errors[i]`` is ``None`` or why ``refs[i]`` could not be
    resolved. Lists for list input, pyarrow arrays for Arrow input."""

    urls: Any
    errors: Any


def _pyarrow():
    # Only when the caller already imported pyarrow: an Arrow array cannot
    # exist otherwise, and importing it here would cost every list call.
    return sys.modules.get("pyarrow")


def _is_arrow(x: Any) -> bool:
    pa = _pyarrow()
    return pa is not None and isinstance(x, (pa.Array, pa.ChunkedArray))


def _arrow_in(arr: Any):
    """The buffers of a string array, handed to Rust as they are (read in
    place, no copy)."""
    pa = _pyarrow()
    if arr.type == pa.string():
        large = False
    elif arr.type == pa.large_string():
        large = True
    elif hasattr(pa, "string_view") and arr.type == pa.string_view():
        arr = arr.cast(pa.string())
        large = False
    else:
        raise TypeError(f"expected a string array, not {arr.type}")
    validity, offsets, data = arr.buffers()[:3]
    if offsets is None:  # an empty array may come without buffers
        return (None, b"\0" * 8, None, 0, 0, large)
    return (validity, offsets, data, arr.offset, len(arr), large)


def _buffer(b):
    """A buffer owned by Rust (``_native.Buffer``) as a pyarrow buffer over
    the same memory, which keeps ``b`` alive."""
    return _pyarrow().foreign_buffer(b.address, b.size, base=b)


def _arrow_out(n: int, out):
    pa = _pyarrow()
    validity, offsets, data, nulls, large = out
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        n,
        [None if validity is None else _buffer(validity), _buffer(offsets), _buffer(data)],
        null_count=nulls,
    )


def _chunks(x: Any):
    pa = _pyarrow()
    if isinstance(x, pa.ChunkedArray):
        if x.num_chunks == 1:
            return x.chunk(0)
        if x.num_chunks == 0:
            return pa.array([], type=x.type)
        return x.combine_chunks()
    return x


def resolve_many(bases: Any, refs: Any, spec: str = "rfc1808") -> ResolveMany:
    """Resolves ``refs[i]`` against ``bases[i]`` (or against ``bases`` for
    all, when it is one ``str``) under ``spec``, in one call.

    ``refs`` is a list (``None`` items give ``None``) or a pyarrow
    ``StringArray``/``LargeStringArray``/``ChunkedArray``; ``bases`` a str
    or the same kind of sequence (a ``None`` item or null gives ``None``),
    or ``None``: no base, as an empty base string (an absolute reference
    is itself; a relative one is taken as absolute by the 1994-1996 specs
    and an error under RFC 2396 and RFC 3986). Returns
    ``ResolveMany(urls, errors)``, aligned with ``refs``: a reference that
    cannot be resolved gives ``None`` and its reason, never an exception
    mid-batch. A ``str`` for ``refs`` is a ``TypeError`` (it is one
    reference, not a sequence of them).
    """
    if isinstance(refs, (str, bytes)):
        raise TypeError(f"resolve_many: refs must be a sequence of references, not {type(refs).__name__}")
    if bases is None:
        bases = ""
    if _is_arrow(refs):
        refs = _chunks(refs)
        b = bases if isinstance(bases, str) else _arrow_in(_chunks(bases))
        urls, errors = _native.resolve_many_arrow(b, _arrow_in(refs), spec)
        return ResolveMany(_arrow_out(len(refs), urls), _arrow_out(len(refs), errors))
    if not isinstance(refs, list):
        refs = list(refs)
    if _is_arrow(bases):
        bases = _chunks(bases).to_pylist()
    elif not isinstance(bases, (str, list)) and bases is not None:
        bases = list(bases)
    urls, errors = _native.resolve_many_list(bases, refs, spec)
    return ResolveMany(urls, errors)


_FIELDS = ("scheme", "net_loc", "path", "params", "query", "fragment")


_VIEW_STEP = 1 << 30  # src/arrow.rs, VIEW_STEP


def _has_string_view(pa) -> bool:
    # pyarrow 16+; views are written little-endian (src/arrow.rs, view).
    return hasattr(pa, "string_view") and _native.STRING_VIEW


def _views_out(n: int, col, data_slices):
    pa = _pyarrow()
    if col is None:  # no params under this spec
        return pa.nulls(n, pa.string_view())
    validity, views, nulls = col
    return pa.Array.from_buffers(
        pa.string_view(),
        n,
        [None if validity is None else _buffer(validity), _buffer(views), *data_slices],
        null_count=nulls,
    )


def parse_many(urls: Any, spec: str = "rfc1808", *, string_view: bool = False) -> Any:
    """Splits every URL of ``urls`` under ``spec``, in one call.

    A list gives a list of ``URL`` (``None`` for ``None``). A pyarrow
    string array gives a ``StructArray`` with the string fields scheme,
    net_loc, path, params, query, fragment (null when absent, ``""`` when
    empty) and the bool ``valid`` (whether the URL follows the grammar);
    a null URL gives a null row.

    Over Arrow, the component fields are ``string`` arrays, the components
    copied out. ``string_view=True`` (pyarrow 16 or later) gives
    ``string_view`` arrays instead, whose values point into the input's
    data buffer, which they keep alive: no copy (a value of up to 12 bytes
    is held in its view), though no faster to make on URLs of typical
    lengths (the string columns are filled a block of URLs at a time, a
    value copied 32 bytes at once), and less memory. Many of
    pyarrow's compute functions (``equal``, ``starts_with``, ``is_in``,
    ``utf8_lower``... in pyarrow 26) have no ``string_view`` kernel yet:
    cast such a field to ``pa.string()`` first. A chunked array of
    several chunks, or a ``string_view`` input, is first combined into one
    ``string`` array (a copy), which the views then point into.

    A ``str`` for ``urls`` is a ``TypeError`` (it is one URL: ``parse``
    splits it), not a sequence of one-character URLs.
    """
    if isinstance(urls, (str, bytes)):
        raise TypeError(f"parse_many: urls must be a sequence of URLs, not {type(urls).__name__}")
    if _is_arrow(urls):
        pa = _pyarrow()
        arr = _chunks(urls)
        n = len(arr)
        given = _arrow_in(arr)
        if string_view:
            if not _has_string_view(pa):
                raise ValueError("string_view=True needs pyarrow 16 or later (and a little-endian machine)")
            cols, valid, present, nbuf = _native.parse_many_arrow_views(given, spec)
            data = given[2]
            if nbuf and not isinstance(data, pa.Buffer):
                data = pa.py_buffer(data)
            slices = [data.slice(k * _VIEW_STEP) for k in range(nbuf)]
            arrays = [_views_out(n, c, slices) for c in cols]
        else:
            cols, valid, present = _native.parse_many_arrow(given, spec)
            # None: no params under this spec, an all-null column
            arrays = [pa.nulls(n, pa.string()) if c is None else _arrow_out(n, c) for c in cols]
        arrays.append(pa.Array.from_buffers(pa.bool_(), n, [None, _buffer(valid)]))
        mask = None
        if present is not None:
            mask = pa.Array.from_buffers(pa.bool_(), n, [None, _buffer(present)])
            import pyarrow.compute as pc

            mask = pc.invert(mask)
        return pa.StructArray.from_arrays(arrays, names=list(_FIELDS) + ["valid"], mask=mask)
    if not isinstance(urls, list):
        urls = list(urls)
    return _native.parse_many_list(urls, spec)
