"""``urllib.parse``, answer for answer, faster: switch with an import change.

``import urlspec.compat as parse`` (or ``from urlspec.compat import
urljoin, urlsplit, ...``) gives, for every input, the answer of the
running interpreter's ``urllib.parse`` and the exception it raises (same
type; the same message where CPython's tests check one), including that
version's security hardening:

* leading C0 controls and spaces stripped from the URL, and from both ends
  of the ``scheme`` argument (CVE-2023-24329);
* tab, CR and LF removed anywhere (CVE-2022-0391);
* ``ValueError`` for a netloc with unbalanced brackets, a bracketed host
  that is not an IPv6 or IPvFuture address (3.11.4 and later; later
  releases also refuse text before ``[`` or between ``]`` and the port),
  and a netloc whose characters NFKC-normalize to ``/ ? # @ :``
  (CVE-2019-9636: ``http://a℀b/``);
* the scheme read only from a run of scheme characters starting with a
  letter (3.11 and later).

Which of these the interpreter does is found at import by asking its own
``urllib.parse`` (``PROBED``), never from its version number: Debian's
3.11.2, for one, carries fixes that CPython released in later 3.11s.
Where urllib's answer departs from an RFC, this module still gives
urllib's; ``urlspec.rfc3986`` has urllib's signatures with RFC 3986's
answers, and ``urlspec.resolve``/``urlspec.parse`` each spec's.

The functions of ``NATIVE`` are each a ``def`` of this module made into
a function object that CPython calls straight into Rust: Rust answers the
common calls (``str`` arguments, the defaults or ``str`` ones for the
others) with no Python frame, and hands any other call to the ``def``.
They answer introspection as that ``def`` (``inspect.signature``,
``__defaults__``, ``__code__``, ``__dict__``, weak references, binding as
methods on a class; ``isinstance(f, types.FunctionType)``), and
``urlsplit`` also as urllib's ``lru_cache`` wrapper: it remembers its
last answers (256, each in the slot of its arguments' hash) and has
``cache_info()``, ``cache_clear()``, ``cache_parameters()`` and
``__wrapped__``. Every other name of ``urllib.parse.__all__`` (``urlencode``, ``parse_qs``,
``parse_qsl``, the result classes) is urllib's own, re-exported, and so is
any other attribute (``uses_netloc``, ``clear_cache``, ...): adding a
scheme to ``urllib.parse.uses_netloc`` changes both modules' answers, as
urllib reads its scheme lists at each call and so does this module.

Arguments are read as urllib reads them: ``str``; ``bytes`` and
``bytearray`` decoded as ASCII and answered as ``bytes``; any other type
is handed to urllib itself, whose answer or exception it is.
"""

from __future__ import annotations

import codecs
import functools
import ipaddress
import re
import unicodedata
import urllib.parse as _up

from . import _native

__all__ = list(_up.__all__)

#: The names of ``__all__`` this module implements itself; ``urllib.parse``
#: answers for the others.
NATIVE = (
    "urlsplit",
    "urlparse",
    "urljoin",
    "urlunsplit",
    "urlunparse",
    "urldefrag",
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
)

# urllib's own functions, taken before anyone swaps them for these: the
# answer for argument types this module does not read itself.
_URLLIB = {name: getattr(_up, name) for name in NATIVE}

_BYTES = (bytes, bytearray)


def _raises(exc, f, *args) -> bool:
    try:
        f(*args)
    except exc:
        return True
    return False


def _bracket_rule() -> str | None:
    """Which check of bracketed hosts the interpreter makes: ``None``
    (3.10: only unbalanced brackets are refused), ``"host"`` (the text
    between the first ``[`` and ``]`` must be an IPv6 or IPvFuture
    address: 3.11.4 and later), ``"netloc"`` (also nothing before ``[``
    and nothing but a port after ``]``: 3.13.2, 3.12.9 and backports)."""
    if not _raises(ValueError, _up.urlsplit, "http://[x]/"):
        return None
    if _raises(ValueError, _up.urlsplit, "http://a[::1]/"):
        return "netloc"
    return "host"


#: What the running interpreter's ``urllib.parse`` does, each found by a
#: feature test against it at import.
PROBED = {
    # CVE-2023-24329: leading C0 controls and spaces stripped.
    "strip_url": _up.urlsplit("\x00 http://h/").scheme == "http",
    "strip_scheme": _up.urlsplit("//h", " x\x00").scheme == "x",
    # CVE-2022-0391: tab, CR, LF removed.
    "remove_tab_cr_lf": _up.urlsplit("ht\ttp://h/").scheme == "http",
    # 3.11: a scheme starts with an ASCII letter.
    "scheme_starts_with_letter": _up.urlsplit("1a:b").scheme == "",
    # gh-67693: urlunsplit keeps a path's leading "//".
    "unsplit_keeps_slashes": _up.urlunsplit(("", "", "//x", "", "")) == "////x",
    # urlsplit's lru_cache (3.11): unhashable arguments raise TypeError.
    "hashes_arguments": _raises(TypeError, _up.urlsplit, "x", "", []),
    "bracketed_hosts": _bracket_rule(),
    # CVE-2019-9636: U+2100 normalizes to "a/c".
    "nfkc_netloc": _raises(ValueError, _up.urlsplit, "http://a\u2100b/"),
}

_IPVFUTURE = re.compile(r"v[0-9A-Fa-f]+\..+")


def _check_bracketed_host(host: str) -> None:
    """The host between brackets is an IPv6 address or an IPvFuture
    (RFC 3986 §3.2.2), as urllib checks it."""
    if host.startswith("v"):
        if not _IPVFUTURE.fullmatch(host):
            raise ValueError("IPvFuture address is invalid")
    elif ipaddress.ip_address(host).version == 4:
        raise ValueError("An IPv4 address cannot be in brackets")


def _check_bracketed_netloc(netloc: str) -> None:
    """The ``"netloc"`` rule: the host part (after the last ``@``) is
    either ``[address]`` with at most ``:port`` after it, or has no
    bracket, and then its host before ``:`` is checked all the same."""
    hostport = netloc.rpartition("@")[2]
    before, bracket, inside = hostport.partition("[")
    if bracket:
        if before:
            raise ValueError("Invalid IPv6 URL")
        host, _, after = inside.partition("]")
        if after and not after.startswith(":"):
            raise ValueError("Invalid IPv6 URL")
    else:
        host = hostport.partition(":")[0]
    _check_bracketed_host(host)


def _check_nfkc(netloc: str) -> None:
    """CVE-2019-9636: characters that NFKC-normalize (as IDNA encoding
    does) to ``/ ? # @ :`` would move the netloc's end once encoded."""
    text = netloc
    for c in "@:#?":
        text = text.replace(c, "")
    normalized = unicodedata.normalize("NFKC", text)
    if normalized != text and any(c in normalized for c in "/?#@:"):
        raise ValueError(f"netloc '{netloc}' contains invalid characters under NFKC normalization")


def _check_netloc(netloc: str) -> None:
    """urllib's netloc checks, in its order; called from Rust for a netloc
    holding a bracket or a non-ASCII character."""
    if ("[" in netloc) != ("]" in netloc):
        raise ValueError("Invalid IPv6 URL")
    rule = PROBED["bracketed_hosts"]
    if rule == "host" and "[" in netloc:
        _check_bracketed_host(netloc.partition("[")[2].partition("]")[0])
    elif rule == "netloc" and "[" in netloc:
        _check_bracketed_netloc(netloc)
    if PROBED["nfkc_netloc"] and not netloc.isascii():
        _check_nfkc(netloc)


def _split_other(url, scheme, allow_fragments, parse=False):
    """``urlsplit``/``urlparse`` for arguments other than ``str``."""
    if PROBED["hashes_arguments"] and not parse:
        hash((url, scheme, allow_fragments))
    if type(url) in _BYTES and (type(scheme) in _BYTES or scheme == ""):
        split = _native.urllib_urlparse if parse else _native.urllib_urlsplit
        text = url.decode("ascii") if url else ""
        return split(text, scheme.decode("ascii") if scheme else "", allow_fragments).encode()
    name = "urlparse" if parse else "urlsplit"
    return _URLLIB[name](url, scheme, allow_fragments)


def _join_other(base, url, allow_fragments):
    """``urljoin`` for arguments other than two ``str``."""
    if not base:
        return url
    if not url:
        return base
    if type(base) in _BYTES and type(url) in _BYTES:
        joined = _native.urllib_urljoin(base.decode("ascii"), url.decode("ascii"), allow_fragments)
        return joined.encode("ascii")
    return _URLLIB["urljoin"](base, url, allow_fragments)


_native.set_urllib(
    **{k: v for k, v in PROBED.items() if k not in ("bracketed_hosts", "nfkc_netloc")},
    globals=_up.__dict__,
    split_result=_up.SplitResult,
    parse_result=_up.ParseResult,
    defrag_result=_up.DefragResult,
    check_netloc=_check_netloc,
    split_other=_split_other,
    parse_other=functools.partial(_split_other, parse=True),
    join_other=_join_other,
)

def urlsplit(url, scheme="", allow_fragments=True):
    return _native.urllib_urlsplit(url, scheme, allow_fragments)


def urlparse(url, scheme="", allow_fragments=True):
    return _native.urllib_urlparse(url, scheme, allow_fragments)


def urljoin(base, url, allow_fragments=True):
    return _native.urllib_urljoin(base, url, allow_fragments)


# urllib's own words for what these do.
urlsplit.__doc__ = _up.urlsplit.__doc__
urlparse.__doc__ = _up.urlparse.__doc__
urljoin.__doc__ = _up.urljoin.__doc__


# Inputs on which an interpreter's urllib may answer otherwise than the
# rules probed above (a later release changing urlunsplit again, say). At
# import each is asked of compat and of urllib; a function that answers
# one of them otherwise is urllib's own (FALLBACK says which and why), and
# so is every function built on it.
_SELF_CHECK = {
    "urlsplit": [
        "http://a/b/c;p?q#f", "HTTP://A/%7e?#", " \x00http://a/", "a\tb:c\r\n/d", "1a:b", "a1:b",
        "//h:80/p", "http://[::1]:80/", "http://a[::1]/", "http://[::1]x/", "http://[v1.x]/",
        "http://a\u2100b/", "http://\u00e9/", "path:80", "mailto:a@b", "x:", ":", "", "#f", "?q",
        "http://a/b#c?d", "//", "///a", "http:", "http:/a", "svn+ssh://h/p",
    ],
    "urlunsplit": [
        ("", "", "//x", "", ""), ("http", "", "g", "", ""), ("http", "", "", "", ""),
        ("http", "", "/g", "", ""), ("", "", "a:b", "", ""), ("x", "", "//y", "q", "f"),
        ("file", "", "/tmp/a", "", ""), ("http", "h", "p", "", ""), ("mailto", "", "a@b", "", ""),
        ("", "h", "", "q", ""), ("ws", "", "", "", "f"),
    ],
    "urljoin": [
        ("http://a/b/c/d;p?q#f", rel) for rel in [
            "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "", ".", "./",
            "..", "../", "../g", "../..", "../../", "../../g", "../../../g", "/./g", "/../g", "g.", ".g",
            "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "http:g",
            "http:", "//", "///g", "a:b", "g:h", ":g",
        ]
    ] + [("http://a/b//c", "../d"), ("http://a", "b"), ("mailto:a@b", "c"), ("s://a/b", "c"),
         ("http:///a/b", "c"), ("//a/b", "c"), ("a/b", "c"), ("http://a/b", "ht\ttp://x")],
}
_BUILT_ON = {
    "urlsplit": ("urlsplit", "urlparse", "urljoin", "urldefrag"),
    "urlunsplit": ("urlunsplit", "urlunparse", "urljoin", "urldefrag"),
    "urljoin": ("urljoin",),
}


def _answer(f, args):
    try:
        value = f(*args)
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return (type(e), str(e))
    return (type(value), value)


def _self_check():
    found = {}
    for name, cases in _SELF_CHECK.items():
        for args in cases:
            args = args if isinstance(args, tuple) and name != "urlunsplit" else (args,)
            if _answer(globals()[name], args) != _answer(_URLLIB[name], args):
                for built in _BUILT_ON[name]:
                    found.setdefault(built, f"{name}{args!r}")
                break
    return found


def _texts(parts):
    """``parts`` as ``str`` and whether the answer goes back to bytes, when
    urllib would read them so (all ``str``, or all ``bytes``/``bytearray``);
    ``None`` when urllib must decide."""
    if all(type(p) is str for p in parts):
        return parts, False
    if all(type(p) in _BYTES for p in parts):
        return tuple(p.decode("ascii") for p in parts), True
    return None


def _unpacked(components, name):
    """``components`` as a tuple; for one that is not iterable, urllib's
    own ``TypeError``."""
    try:
        items = iter(components)
    except TypeError:
        _URLLIB[name](components)
        raise
    return tuple(items)


def urlunsplit(components):
    """``urllib.parse.urlunsplit``: a URL from ``(scheme, netloc, path,
    query, fragment)``."""
    parts = _unpacked(components, "urlunsplit")
    read = _texts(parts) if len(parts) == 5 else None
    if read is None:
        return _URLLIB["urlunsplit"](parts)
    (scheme, netloc, path, query, fragment), is_bytes = read
    url = _native.urllib_unparse(scheme, netloc, path, "", query, fragment)
    return url.encode("ascii") if is_bytes else url


def urlunparse(components):
    """``urllib.parse.urlunparse``: a URL from ``(scheme, netloc, path,
    params, query, fragment)``."""
    parts = _unpacked(components, "urlunparse")
    read = _texts(parts) if len(parts) == 6 else None
    if read is None:
        return _URLLIB["urlunparse"](parts)
    parts, is_bytes = read
    url = _native.urllib_unparse(*parts)
    return url.encode("ascii") if is_bytes else url


def urldefrag(url):
    """``urllib.parse.urldefrag``: ``DefragResult(url without fragment,
    fragment)``."""
    read = _texts((url,))
    if read is None:
        return _URLLIB["urldefrag"](url)
    (text,), is_bytes = read
    if "#" in text:
        s, n, p, a, q, fragment = urlparse(text)
        defragged = urlunparse((s, n, p, a, q, ""))
    else:
        defragged, fragment = text, ""
    result = _up.DefragResult(defragged, fragment)
    return result.encode() if is_bytes else result


def quote_from_bytes(bs, safe="/"):
    """``urllib.parse.quote_from_bytes``: every byte but letters, digits,
    ``_.-~`` and the ASCII characters of ``safe`` written ``%XX``."""
    if not isinstance(bs, _BYTES):
        raise TypeError("quote_from_bytes() expected bytes")
    if not bs:
        return ""
    if isinstance(safe, str):
        safe = safe.encode("ascii", "ignore")
    else:
        safe = bytes([c for c in safe if c < 128])
    return _native.quote_bytes(bytes(bs), safe)


def quote(string, safe="/", encoding=None, errors=None):
    """``urllib.parse.quote``: ``str`` encoded (UTF-8 and ``strict`` by
    default), then as ``quote_from_bytes``."""
    if isinstance(string, str):
        if not string:
            return string
        string = string.encode("utf-8" if encoding is None else encoding,
                               "strict" if errors is None else errors)
    else:
        if encoding is not None:
            raise TypeError("quote() doesn't support 'encoding' for bytes")
        if errors is not None:
            raise TypeError("quote() doesn't support 'errors' for bytes")
    return quote_from_bytes(string, safe)


def quote_plus(string, safe="", encoding=None, errors=None):
    """``urllib.parse.quote_plus``: ``quote`` with a space written ``+``
    (and ``+`` escaped unless safe)."""
    if (isinstance(string, str) and " " not in string) or (
        isinstance(string, bytes) and b" " not in string
    ):
        return quote(string, safe, encoding, errors)
    space = " " if isinstance(safe, str) else b" "
    return quote(string, safe + space, encoding, errors).replace(" ", "+")


def unquote_to_bytes(string):
    """``urllib.parse.unquote_to_bytes``: ``%XX`` to its byte, any other
    ``%`` kept; ``str`` is encoded as UTF-8 first."""
    if type(string) is str:
        return _native.unquote_to_bytes(string.encode("utf-8"))
    if type(string) is bytes:
        return _native.unquote_to_bytes(string)
    # bytearray (whose answer is a bytearray or bytes depending on the
    # version), other types: urllib's answer.
    return _URLLIB["unquote_to_bytes"](string)


@functools.lru_cache(maxsize=32)
def _is_utf8(encoding) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except (LookupError, TypeError):
        return False


def unquote(string, encoding="utf-8", errors="replace"):
    """``urllib.parse.unquote``: each run of ASCII characters unquoted to
    bytes and decoded with ``encoding``; other characters kept as they
    are."""
    if isinstance(string, bytes):
        return unquote_to_bytes(string).decode(encoding, errors)
    if "%" not in string:
        string.split  # urllib's check that this is a string
        return string
    if type(string) is not str:
        return _URLLIB["unquote"](string, encoding, errors)
    if encoding is None:
        encoding = "utf-8"
    if errors is None:
        errors = "replace"
    if type(encoding) is not str or type(errors) is not str:
        # ``bytes.decode`` refuses them (urllib decodes each ASCII run).
        return _URLLIB["unquote"](string, encoding, errors)
    return _native.urllib_unquote(string, encoding, errors, _is_utf8(encoding))


def unquote_plus(string, encoding="utf-8", errors="replace"):
    """``urllib.parse.unquote_plus``: ``unquote`` with ``+`` read as a
    space."""
    return unquote(string.replace("+", " "), encoding, errors)


# Each ``def`` of NATIVE with its Rust entry (module docstring);
# ``urlsplit`` remembers its answers where urllib's does.
for _name in NATIVE:
    globals()[_name] = _native.urllib_function(
        _name, globals()[_name], memo=_name == "urlsplit" and PROBED["hashes_arguments"]
    )

#: The functions of ``NATIVE`` that are urllib's own here, each with the
#: call on which compat's rules answered otherwise than this interpreter
#: (empty on CPython 3.10 to 3.13).
FALLBACK = _self_check()
for _name in FALLBACK:
    globals()[_name] = _URLLIB[_name]
if hasattr(urlsplit, "cache_clear"):
    urlsplit.cache_clear()  # the self-check's answers

for _name in _up.__all__:
    if _name not in globals():
        globals()[_name] = getattr(_up, _name)
del _name


def __getattr__(name):
    # Every other attribute of urllib.parse (uses_netloc, clear_cache,
    # unwrap, ...) is urllib's own.
    try:
        return getattr(_up, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
