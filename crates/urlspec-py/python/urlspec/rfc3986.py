"""``urllib.parse``'s signatures with RFC 3986's answers.

``from urlspec.rfc3986 import urljoin, urlsplit, urlparse, urlunsplit,
quote, unquote`` takes the same arguments and returns the same types
(``urllib.parse.SplitResult``, ``ParseResult``, ``str``) as
``urllib.parse``, but splits and resolves by RFC 3986 (STD 66), where
urllib follows a mix of RFC 1808, RFC 2396 and RFC 3986 plus
browser-inspired clean-ups and hardening (for urllib's own answers, faster,
use ``urlspec.compat``). This was ``urlspec.compat`` before that module
became a drop-in for ``urllib.parse``.

Arguments other than ``str`` are read as urllib reads them: ``bytes`` and
``bytearray`` as ASCII, the answer given back as ``bytes``; other types go
to ``urllib.parse`` itself, which raises its own exception (or answers, for
the empty ones). ``allow_fragments`` is read for its truth
(``allow_fragments=None`` is false), ``urljoin(base, None)`` is the base.
``quote`` and ``unquote`` are compat's (urllib's answers).

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

``quote`` and ``unquote`` are urllib's (RFC 3986 §2.1 upper-case escapes
of everything but §2.3 ``unreserved`` and ``safe``; invalid ``%`` left as
it is): ``urlspec.compat``'s.
"""

from __future__ import annotations

import urllib.parse as _up
from typing import AnyStr

from . import _native
from .compat import _BYTES, quote, unquote

__all__ = ["urljoin", "urlsplit", "urlparse", "urlunsplit", "quote", "unquote"]

SplitResult = _up.SplitResult
ParseResult = _up.ParseResult


def _urlsplit_other(url, scheme, allow_fragments):
    """``urlsplit`` for arguments other than ``str``: ``bytes`` and
    ``bytearray`` split as ASCII text, answered as ``SplitResultBytes``;
    other types as urllib answers them."""
    if type(url) in _BYTES and (type(scheme) in _BYTES or scheme == ""):
        r = _native.rfc3986_urlsplit(url.decode("ascii"), scheme.decode("ascii") if scheme else "",
                                     allow_fragments)
        return r.encode()
    return _up.urlsplit(url, scheme, allow_fragments)


def _urljoin_other(base, url, allow_fragments):
    """``urljoin`` for arguments other than ``str`` and for
    ``allow_fragments=False`` (passed to ``urllib.parse.urljoin``: RFC 3986
    has no such mode)."""
    if not base:
        return url
    if not url:
        return base
    if allow_fragments and type(base) in _BYTES and type(url) in _BYTES:
        return _native.rfc3986_urljoin(base.decode("ascii"), url.decode("ascii")).encode("ascii")
    return _up.urljoin(base, url, allow_fragments)


_native.set_compat_types(SplitResult, _urlsplit_other, _urljoin_other)

#: ``urllib.parse.urlsplit(url, scheme="", allow_fragments=True)`` by RFC
#: 3986 Appendix B: never raises. Returns ``SplitResult(scheme, netloc,
#: path, query, fragment)``, absent components as ``""``, the scheme
#: lower-cased (§3.1). The function is Rust's (``_native.rfc3986_urlsplit``):
#: for ``str`` arguments no Python code runs; others go through
#: ``_urlsplit_other``.
urlsplit = _native.rfc3986_urlsplit

#: ``urllib.parse.urljoin(base, url, allow_fragments=True)`` by RFC 3986
#: §5.2 (strict parser, §5.2.2). An empty base gives the reference, as
#: urllib; a reference that cannot be resolved against ``base`` (a base
#: without a scheme) is returned as it is. Rust's
#: (``_native.rfc3986_urljoin``) for ``str`` arguments; others go through
#: ``_urljoin_other``.
urljoin = _native.rfc3986_urljoin


def urlparse(url: AnyStr, scheme: AnyStr = "", allow_fragments: bool = True):
    """``urllib.parse.urlparse``: ``urlsplit`` plus the params of the last
    path segment (RFC 2396 §3.3), for every scheme."""
    s = urlsplit(url, scheme, allow_fragments)
    is_bytes = isinstance(s, _up.SplitResultBytes)
    if is_bytes:
        s = s.decode()
    path, params = s.path, ""
    i = path.find(";", path.rfind("/") + 1)
    if i >= 0:
        path, params = path[:i], path[i + 1:]
    r = ParseResult(s.scheme, s.netloc, path, params, s.query, s.fragment)
    return r.encode() if is_bytes else r


def urlunsplit(components) -> AnyStr:
    """Recomposes ``(scheme, netloc, path, query, fragment)`` per RFC 3986
    §5.3 (empty components are taken as absent)."""
    parts = tuple(components)
    is_bytes = len(parts) == 5 and all(type(c) in _BYTES for c in parts)
    if is_bytes:
        parts = tuple(c.decode("ascii") for c in parts)
    elif len(parts) != 5 or not all(type(c) is str for c in parts):
        return _up.urlunsplit(parts)
    scheme, netloc, path, query, fragment = parts
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
