"""urlspec: URLs exactly as each generation of the specs defines them.

RFC 1630 (1994), draft-ietf-uri-relative-url-04 and RFC 1808 (1995), the
November and December 1996 URL drafts, RFC 2396 (1998) and RFC 3986 (2005),
each as written, chosen by name::

    >>> import urlspec
    >>> urlspec.resolve("http://a/b/c/d;p?q", "../../../g", spec="rfc3986")
    'http://a/g'
    >>> urlspec.resolve("http://a/b/c/d;p?q", "../../../g")  # RFC 1808
    'http://a/../g'
    >>> u = urlspec.parse("http://a/b/c/d;p?q")
    >>> (u.path, u.params, u.query, u.fragment)
    ('/b/c/d', 'p', 'q', None)

Spec names: ``rfc1630``, ``draft04``, ``rfc1808`` (the default), ``draft96``,
``draft96dec``, ``rfc2396``, ``rfc3986`` and ``whatwg`` (urlspec's own
implementation of the WHATWG URL Standard). ``urlspec.compat`` is
``urllib.parse``, answer for answer (the running interpreter's), faster;
``urlspec.rfc3986`` has urllib's signatures with RFC 3986's answers.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import _native
from ._errors import (
    Error,
    EscapeError,
    LinksError,
    NotComparableError,
    ParseError,
    ResolveError,
    SpecError,
)
from ._native import URL, Link, Links

__all__ = [
    "URL",
    "Link",
    "Links",
    "Error",
    "SpecError",
    "ParseError",
    "ResolveError",
    "EscapeError",
    "NotComparableError",
    "LinksError",
    "SPECS",
    "PARSERS",
    "parser_list",
    "parse",
    "resolve",
    "make_relative",
    "escape",
    "unescape",
    "normalize",
    "equivalent",
    "extract",
    "links",
    "link_batches",
    "LinkBatches",
    "resolve_many",
    "parse_many",
    "ResolveMany",
]

#: The spec names this build knows, oldest first.
SPECS: tuple[str, ...] = tuple(_native.specs())

#: The real parsers' profiles ``links(parsers=...)`` takes (``urlspec diff
#: --parsers``), in the order ``"all"`` names them.
PARSERS: tuple[str, ...] = tuple(_native.parsers())

#: The profiles' names of a list of parsers, in order, each once: a
#: comma-separated ``str`` (``"python-urllib,curl"``) or an iterable of
#: names, read as ``urlspec diff --parsers`` reads its list (ASCII case
#: ignored, ``"all"``, ``"none"``). An unknown or empty name raises
#: ``urlspec.Error`` with its byte ``position`` in the list.
parser_list = _native.parser_list

parse = _native.parse
resolve = _native.resolve
make_relative = _native.make_relative
escape = _native.escape
unescape = _native.unescape
normalize = _native.normalize
equivalent = _native.equivalent
extract = _native.extract


def links(
    source: Any,
    url: str | None = None,
    redirects: Iterable[str] = (),
    spec: str = "rfc1808",
    format: str = "auto",
    name: str | None = None,
    strict_base: bool = False,
    base_headers: str = "spec",
    parsers: str | Iterable[str] = (),
) -> Links:
    """Every link of an HTML page, a MIME message or a WARC archive.

    ``source`` is ``bytes`` or a readable binary file object (``open(p,
    "rb")``, ``gzip.open``, a pyarrow input stream), gzip-compressed or
    not; its format is found from its first bytes, as ``urlspec links``
    finds it, and binary data is refused unless ``format`` says how to
    read it. ``url`` is the URL the input was retrieved from and
    ``redirects`` the URLs it was then redirected to, in order (the base of
    RFC 1808 §3.3); ``format`` is ``auto``, ``html``, ``mime`` or ``warc``;
    ``name`` names an HTML or MIME input in ``Link.document`` (default
    ``"-"``, as the CLI names standard input). For WARC input each
    document is a ``response`` record of HTML and is named by its
    ``WARC-Target-URI``.

    As the CLI's ``--strict-base`` and ``--base-headers``:
    ``strict_base=True`` ignores a ``<BASE href>``, ``Base`` or
    ``Content-Base`` that is not absolute instead of resolving it against
    the next outer layer; ``base_headers="all"`` takes ``Base``,
    ``Content-Base`` and ``Content-Location`` (in that order) under every
    spec instead of the spec's own.

    As the CLI's ``--parsers``: ``parsers`` names real parsers' profiles
    (``"python-urllib,curl"``, a list of names, ``"all"`` or ``"none"``,
    read as ``urlspec.parser_list`` reads them) each resolved URL is read
    with too; a link
    whose host they read differently has ``Link.host_split``, each
    parser's host (``None`` where it reads none), its dict a
    ``host_split`` key, and ``.summary["host_splits"]`` counts them.

    Returns a lazy iterator of ``Link``, each with the fields of one line of
    ``urlspec links --output json``. A WARC archive is read one record at a
    time, so memory stays bounded by the largest record; a damaged record
    is read past, as ``urlspec links`` reads past it, and listed in
    ``.summary["damaged"]`` as ``(byte offset, why)``. Once exhausted,
    ``.summary`` holds the counts. An input that cannot be read on (not an
    archive, a failing ``read()``) raises ``LinksError`` after the links
    found before it (binary data and a message without a header too). An
    exception
    of the file's ``read()`` is raised unchanged (``KeyboardInterrupt``
    included), but for an ``OSError``, which is a ``LinksError`` caused by
    it.
    """
    return _native.links(
        source,
        url=url,
        redirects=list(redirects),
        spec=spec,
        format=format,
        name=name,
        strict_base=strict_base,
        base_headers=base_headers,
        parsers=parsers,
    )


from ._batch import ResolveMany, parse_many, resolve_many  # noqa: E402
from ._links_arrow import LinkBatches, link_batches  # noqa: E402
