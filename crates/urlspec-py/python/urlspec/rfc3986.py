"""``urllib.parse``'s functions over RFC 3986: switch with an import change.

``from urlspec.compat import urljoin, urlsplit, urlparse, urlunsplit,
quote, unquote`` takes the same arguments and returns the same types
(``urllib.parse.SplitResult``, ``ParseResult``, ``str``) as
``urllib.parse``. The answers follow RFC 3986 (STD 66), the current
standard, where urllib follows a mix of RFC 1808, RFC 2396 and RFC 3986
plus browser-inspired clean-ups. RFC 3986 backs this module because it is
the one spec that urllib's callers expect today (``urljoin`` has removed
dot segments per RFC 3986 §5.2.4 since Python 3.5), and it is the only one
of the RFCs whose resolution gives the same answer as browsers for the
common cases (``..`` never climbs above the root, ``?y`` keeps the path).

Where the answers differ from urllib, and why (the classes counted by
``tests/test_compat.py`` over the corpora; every difference found falls in
one of them):

``urljoin``
  * ``dot-segments-in-reference-kept-by-urllib`` / ``dot-segments``: RFC
    3986 §5.2.2 removes dot segments from every merged or absolute path
    (``remove_dot_segments`` on ``R.path`` too, even an absolute-path
    reference such as ``/./g`` or ``/a/../b``); urllib leaves some.
  * ``empty-query-or-fragment-kept``: an empty query or fragment (``?``,
    ``#`` with nothing after) is a defined component in RFC 3986 (§3.4,
    §3.5, §5.3 "if defined(T.query)") and stays; urllib cannot tell empty
    from absent and drops it.
  * ``empty-params-kept``: likewise a trailing ``;`` (urllib's params
    split, RFC 1808 §2.4.5, drops it; RFC 3986 has no params: §3.3).
  * ``empty-segments``: RFC 3986 §5.2.3 merges paths keeping empty
    segments (``//``), and ``..`` removes one of them (§5.2.4); urllib
    drops empty segments while merging.
  * ``empty-authority``: the reference ``//`` has an empty authority and
    path (§4.2, §5.2.2), giving ``http://``; urllib ignores an empty netloc
    and returns the base.
  * ``empty-reference``: an empty reference gives the base without its
    fragment (§5.2.2: ``T.fragment = R.fragment``); urllib returns the
    base unchanged.
  * ``non-hierarchical-base``: urllib returns the reference unchanged when
    the base's scheme is not in its ``uses_relative`` list (``mailto:``,
    ``data:``, ``javascript:``, unknown schemes); RFC 3986 §5.2 resolves
    against any base URI.
  * ``whitespace-and-controls``: urllib strips leading/trailing C0
    controls and spaces and deletes tab/CR/LF anywhere (WHATWG-style, bpo
    43882); RFC 3986 §2 has no such step, so they stay as written.
  * ``backslash``: ``\\`` is an ordinary data character to RFC 3986; urllib
    also treats it as data, but its netloc split differs from §3.2 when
    ``\\`` or ``[`` appear there.
  * ``authority-delimiters``: RFC 3986 §3.2 ends the authority at the first
    ``/``, ``?`` or ``#``; urllib agrees but then reparses some cases
    differently (``@`` and ``:`` in odd places, empty authority).
  * ``scheme-case``: urllib lower-cases the scheme of the result; RFC 3986
    §5.3 recomposes the components as written (§6.2.2.1 makes case
    normalization a separate step: ``urlspec.normalize``).
  * ``no-base``: a base without a scheme cannot serve (§5.1: a base URI is
    absolute); urllib merges paths anyway, this module returns the
    reference.
  * ``allow_fragments=False`` is passed to ``urllib.parse.urljoin`` (RFC
    3986 has no such mode).

``urlsplit`` / ``urlparse``
  * ``whitespace-and-controls``: as above; urllib strips and deletes
    them before splitting, RFC 3986 Appendix B splits the string as given.
  * ``invalid-ipv6-brackets``: urllib raises ``ValueError`` for an
    unbalanced ``[`` or ``]`` in the netloc; the RFC 3986 split (Appendix
    B) never fails, it only splits (validate with ``urlspec.parse(u,
    "rfc3986").validate()``).
  * ``scheme-rule``: urllib takes a scheme only when the text before ``:``
    is made of scheme characters and starts with a letter, as RFC 3986
    §3.1; both agree, but urllib (3.11) also refuses schemes when the rest
    looks like a port number (``path:80``) in older versions.
  * ``params``: ``urlparse`` splits params off the last path segment
    (RFC 2396 §3.3, as urllib) for every scheme; urllib only for the
    schemes of its ``uses_params`` list.

``urlunsplit``: recomposes per RFC 3986 §5.3: the authority's ``//`` only
when the netloc is non-empty, ``?`` only when the query is non-empty;
urllib adds ``//`` to some schemes even with an empty netloc.

``quote`` and ``unquote`` behave as urllib's (RFC 3986 §2.1 upper-case
escapes of everything but §2.3 ``unreserved`` and ``safe``; invalid ``%``
left as it is), done in Rust.
"""

from __future__ import annotations

import urllib.parse as _up
from typing import AnyStr

from . import _native

__all__ = ["urljoin", "urlsplit", "urlparse", "urlunsplit", "quote", "unquote"]

SplitResult = _up.SplitResult
ParseResult = _up.ParseResult

def _urlsplit_other(url, scheme, allow_fragments):
    """``urlsplit`` for arguments other than ``str`` (bytes, bytearray):
    split as ASCII text, answered as ``SplitResultBytes``."""
    if scheme is None:
        scheme = b"" if not isinstance(url, str) else ""
    r = _native.urlsplit(_decode(url), _decode(scheme), allow_fragments)
    return _up.SplitResultBytes(*(c.encode("ascii") for c in r))


def _urljoin_other(base, url, allow_fragments):
    """``urljoin`` for arguments other than ``str`` and for
    ``allow_fragments=False`` (passed to ``urllib.parse.urljoin``: RFC 3986
    has no such mode)."""
    if not allow_fragments:
        return _up.urljoin(base, url, allow_fragments)
    if isinstance(base, str) != isinstance(url, str) and base and url:
        raise TypeError("Cannot mix str and non-str arguments")
    is_bytes = not isinstance(url, str) or not isinstance(base, str)
    r = _native.urljoin(_decode(base), _decode(url))
    return r.encode("ascii") if is_bytes else r


_native.set_compat_types(SplitResult, _urlsplit_other, _urljoin_other)

#: ``urllib.parse.urlsplit(url, scheme="", allow_fragments=True)`` by RFC
#: 3986 Appendix B: never raises. Returns ``SplitResult(scheme, netloc,
#: path, query, fragment)``, absent components as ``""``, the scheme
#: lower-cased (§3.1). The function is Rust's (``_native.urlsplit``): for
#: ``str`` arguments no Python code runs; ``bytes`` go through
#: ``_urlsplit_other``.
urlsplit = _native.urlsplit

#: ``urllib.parse.urljoin(base, url, allow_fragments=True)`` by RFC 3986
#: §5.2 (strict parser, §5.2.2). An empty base gives the reference, as
#: urllib; a reference that cannot be resolved against ``base`` (a base
#: without a scheme) is returned as it is. Rust's (``_native.urljoin``)
#: for ``str`` arguments; others go through ``_urljoin_other``.
urljoin = _native.urljoin


def urlparse(url: AnyStr, scheme: AnyStr = "", allow_fragments: bool = True):
    """``urllib.parse.urlparse``: ``urlsplit`` plus the params of the last
    path segment (RFC 2396 §3.3), for every scheme."""
    is_bytes = not isinstance(url, str)
    s = urlsplit(_decode(url) if is_bytes else url,
                 _decode(scheme) if is_bytes else scheme, allow_fragments)
    path, params = s.path, ""
    i = path.find(";", path.rfind("/") + 1)
    if i >= 0:
        path, params = path[:i], path[i + 1:]
    r = ParseResult(s.scheme, s.netloc, path, params, s.query, s.fragment)
    if is_bytes:
        return _up.ParseResultBytes(*(c.encode("ascii") for c in r))
    return r


def urlunsplit(components) -> AnyStr:
    """Recomposes ``(scheme, netloc, path, query, fragment)`` per RFC 3986
    §5.3 (empty components are taken as absent)."""
    scheme, netloc, path, query, fragment = components
    is_bytes = isinstance(path, (bytes, bytearray)) or isinstance(scheme, (bytes, bytearray))
    if is_bytes:
        scheme, netloc, path, query, fragment = (
            _decode(c) for c in (scheme, netloc, path, query, fragment)
        )
    out = []
    if scheme:
        out.append(scheme + ":")
    if netloc:
        out.append("//" + netloc)
        if path and not path.startswith("/"):
            path = "/" + path
    out.append(path)
    if query:
        out.append("?" + query)
    if fragment:
        out.append("#" + fragment)
    s = "".join(out)
    return s.encode("ascii") if is_bytes else s


def quote(string, safe="/", encoding=None, errors=None) -> str:
    """``urllib.parse.quote``: escapes every octet but RFC 3986 §2.3
    ``unreserved`` and ``safe``, with upper-case hex (§2.1)."""
    if isinstance(string, str):
        if not string:
            return string
        data = string.encode(encoding or "utf-8", errors or "strict")
    else:
        if encoding is not None or errors is not None:
            raise TypeError("quote() doesn't support 'encoding' for bytes")
        data = bytes(string)
    if isinstance(safe, str):
        safe_b = safe.encode("ascii", "ignore")
    else:
        safe_b = bytes(c for c in safe if c < 128)
    return _native.quote_bytes(data, safe_b)


def unquote(string, encoding="utf-8", errors="replace"):
    """``urllib.parse.unquote``: ``%XX`` to its octet, an invalid ``%``
    left as it is, the octets decoded with ``encoding``."""
    if isinstance(string, bytes):
        return _native.unescape_bytes_lenient(string).decode(encoding, errors)
    if "%" not in string:
        return string
    return _native.unescape_bytes_lenient(string).decode(encoding, errors)


def _decode(x) -> str:
    if isinstance(x, str):
        return x
    return bytes(x).decode("ascii")
