"""urlspec.compat's function objects against urllib.parse's: each answers
the introspection urllib's does (its signature, binding on a class, weak
references, attributes, urlsplit's cache API), and the common calls run
no Python code (the Rust entry answers them)."""

from __future__ import annotations

import functools
import inspect
import pickle
import sys
import types
import urllib.parse as up
import weakref
from unittest import mock

import pytest

from urlspec import compat

NAMES = compat.NATIVE
URLLIB = compat._URLLIB


def _answer(f, *args, **kwargs):
    try:
        value = f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return ("raises", type(e), str(e))
    return ("returns", type(value), value)


@pytest.mark.parametrize("name", NAMES)
def test_signature_as_urllib(name):
    """1. ``inspect.signature`` gives urllib's signature (names, kinds,
    defaults), as do ``__defaults__`` and ``__kwdefaults__``, and
    ``mock.create_autospec`` checks calls against it."""
    ours, theirs = getattr(compat, name), URLLIB[name]
    assert inspect.signature(ours) == inspect.signature(theirs)
    # urllib's urlsplit is an lru_cache wrapper: its function's defaults.
    plain = getattr(theirs, "__wrapped__", theirs)
    assert ours.__defaults__ == plain.__defaults__
    assert ours.__kwdefaults__ == plain.__kwdefaults__
    assert ours.__code__.co_varnames[: ours.__code__.co_argcount] == plain.__code__.co_varnames[
        : plain.__code__.co_argcount
    ]
    spec = mock.create_autospec(ours, return_value=None)
    spec(*[None] * len(inspect.signature(ours).parameters))
    with pytest.raises(TypeError):
        spec(*[None] * (len(inspect.signature(ours).parameters) + 1))


def test_urljoin_binds_on_a_class_as_urllibs():
    """2. Stored on a class, it binds as a method: ``self`` is its first
    argument, as it is to urllib's."""
    for X in (up, compat):
        C = type("C", (), {"j": X.urljoin})
        with pytest.raises(TypeError, match="Cannot mix str and non-str arguments"):
            C().j("http://a/b", "c")


@pytest.mark.parametrize("name", NAMES)
def test_binds_on_a_class_as_urllibs(name):
    """2. Every function, stored on a class: bound to an instance, looked
    up on the class, as a static method; the answer (or exception) is
    urllib's, and so is the object ``__get__`` gives."""

    class S(str):
        pass

    ours, theirs = getattr(compat, name), URLLIB[name]
    Ours = type("Ours", (S,), {"f": ours, "g": staticmethod(ours)})
    Theirs = type("Theirs", (S,), {"f": theirs, "g": staticmethod(theirs)})
    assert Ours.f is ours and ours.__get__(None, Ours) is ours
    inst = S("http://a/b?c#d")
    for cls, f in [(Ours, ours), (Theirs, theirs)]:
        bound = cls.__dict__["f"].__get__(inst, cls)
        assert isinstance(bound, types.MethodType)
        assert bound.__func__ is f and bound.__self__ is inst
        assert isinstance(cls("x").f, types.MethodType)
    for args in [(), ("x",), ("",), ("x", True)]:
        assert _answer(ours.__get__(inst, S), *args) == _answer(theirs.__get__(inst, S), *args)
    assert _answer(Ours("x").g, "http://a/b") == _answer(Theirs("x").g, "http://a/b")


@pytest.mark.parametrize("name", NAMES)
def test_weak_references_attributes_and_routine(name):
    """3. Weak references, attributes set and read back, ``__defaults__``,
    ``inspect.isroutine``, the names and ``__doc__``, pickling by name."""
    ours, theirs = getattr(compat, name), URLLIB[name]
    ref = weakref.ref(ours)
    assert ref() is ours
    assert inspect.isroutine(ours) and inspect.isroutine(theirs)
    assert inspect.isfunction(ours)
    assert isinstance(ours.__dict__, dict)
    ours.tag = 1
    try:
        assert ours.tag == 1 and ours.__dict__["tag"] == 1
    finally:
        del ours.tag
    assert not hasattr(ours, "tag")
    assert ours.__name__ == ours.__qualname__ == theirs.__name__ == name
    assert ours.__module__ == "urlspec.compat"
    assert isinstance(ours.__doc__, str) and ours.__doc__
    if name in ("urlsplit", "urlparse", "urljoin"):
        assert ours.__doc__ == theirs.__doc__
    assert repr(ours).startswith(f"<function {name} at 0x")
    assert pickle.loads(pickle.dumps(ours)) is ours
    assert functools.wraps(ours)(lambda *a: None).__wrapped__ is ours


def test_defaults_and_code_replaced_are_honoured():
    """3. ``__defaults__`` and ``__code__`` set on compat's function change
    its answers as they change urllib's (the Rust entry steps aside), and
    restored, restore them."""
    for name, args, defaults in [
        ("quote", ("a b/c",), ("", None, None)),
        ("urljoin", ("http://a/b?q", "#f"), (False,)),
        ("unquote", ("%E9",), ("latin-1", "strict")),
        ("urlsplit", ("//h/p#f",), ("ftp", False)),
    ]:
        ours, theirs = getattr(compat, name), URLLIB[name]
        theirs = getattr(theirs, "__wrapped__", theirs)
        saved = (ours.__defaults__, theirs.__defaults__)
        before = _answer(ours, *args)
        try:
            ours.__defaults__ = theirs.__defaults__ = defaults
            changed = _answer(ours, *args)
            assert changed == _answer(theirs, *args) != before, name
        finally:
            ours.__defaults__, theirs.__defaults__ = saved
        assert _answer(ours, *args) == before
    code = compat.quote.__code__
    try:
        compat.quote.__code__ = (lambda string, safe="/", encoding=None, errors=None: "replaced").__code__
        assert compat.quote("a b") == "replaced"
    finally:
        compat.quote.__code__ = code
    assert compat.quote("a b") == "a%20b"


def test_cache_api_as_urllibs():
    """4. Where urllib's function has an lru_cache API (``urlsplit``), so
    has compat's: ``cache_info()`` (counting), ``cache_clear()``,
    ``cache_parameters()``, ``__wrapped__`` (the function without the
    cache, of the same signature); where it has none, neither has
    compat's."""
    for name in NAMES:
        for attr in ("cache_info", "cache_clear", "cache_parameters", "__wrapped__"):
            assert hasattr(getattr(compat, name), attr) == hasattr(URLLIB[name], attr), (name, attr)
    if not hasattr(up.urlsplit, "cache_info"):
        # 3.10: urllib's urlsplit has no cache API, and (above) neither has compat's.
        return
    ours, theirs = compat.urlsplit, URLLIB["urlsplit"]
    ours.cache_clear()
    assert type(ours.cache_info()) is type(theirs.cache_info())
    assert ours.cache_info()[:2] == (0, 0) and ours.cache_info().currsize == 0
    for url in ["http://a/b", "http://a/b", b"http://a/c", b"http://a/c", "http://a/b"]:
        assert ours(url) == theirs(url)
    info = ours.cache_info()
    assert (info.hits, info.misses, info.currsize) == (3, 2, 2)
    assert ours("http://a/b") is ours("http://a/b")
    assert ours.cache_parameters().keys() == theirs.cache_parameters().keys()
    assert ours.cache_parameters()["typed"] is True
    assert inspect.isfunction(ours.__wrapped__)
    assert inspect.signature(ours.__wrapped__) == inspect.signature(theirs.__wrapped__)
    assert ours.__wrapped__("http://a/b") == theirs.__wrapped__("http://a/b")
    assert inspect.unwrap(ours) is ours.__wrapped__
    ours.cache_clear()
    assert ours.cache_info()[:] == (0, 0, info.maxsize, 0)


def test_urllib_clear_cache_clears_compats(monkeypatch):
    """``urllib.parse.clear_cache()`` with compat's urlsplit swapped in."""
    compat.urlsplit("http://a/clear")
    monkeypatch.setattr(up, "urlsplit", compat.urlsplit)
    up.clear_cache()
    if hasattr(URLLIB["urlsplit"], "cache_clear"):
        assert compat.urlsplit.cache_info().currsize == 0
    else:
        # 3.10: clear_cache() empties urllib's own dict, and compat's urlsplit keeps nothing.
        assert not hasattr(compat.urlsplit, "cache_info")


# The common calls of each function: answered by the Rust entry, with no
# Python frame (a profiler sees none).
COMMON = {
    "urlsplit": [("http://a/b?c#d",), ("//a/b", "https"), ("http://a/b#c",), ("x", "", False),
                 (b"http://a/b",), (b"http://a/b",)],
    "urlparse": [("http://a/b;p?c#d",), ("//a/b", "https", False)],
    "urljoin": [("http://a/b/c", "../d"), ("http://a/b", "c#d", False)],
    "urlunsplit": [(("http", "a", "/b", "c", "d"),), (["", "", "b", "", ""],),
                   (up.SplitResult("http", "a", "/b", "", ""),), (("http", None, "/b", None, None),)],
    "urlunparse": [(("http", "a", "/b", "p", "c", "d"),), (up.ParseResult("http", "a", "/b", "", "", ""),),
                   (["http", "a", "/b", None, None, None],)],
    "urldefrag": [("http://a/b#c",), ("http://a/b",)],
    "quote": [("a b/é",), ("abc",), ("a b", ""), ("a:b", "/:"), ("",), (b"a b/c",), (b"a b/c", b":"),
              ("a b:c", b":"), (b"",)],
    "quote_plus": [("a b&c",), ("a b/c", "/"), ("",), (b"a b+c",), ("a b/c", b"/")],
    "quote_from_bytes": [(b"a b",), (b"abc", ""), (b"",), (b"a:b", b":")],
    "unquote": [("a%20b%C3%A9",), ("abc",), ("%E9",), ("a%20b", "utf-8", "strict"), ("a%20b", "UTF8"),
                ("%E9", None, "replace"), (None,)],
    "unquote_plus": [("a+b%26c",), ("abc",), ("a+b", "utf-8", "strict")],
    "unquote_to_bytes": [("a%20b",), (b"a%20b",), ("",), (b"",)],
}
KEYWORDS = {
    "urlsplit": [(("http://a/b#c",), {"allow_fragments": False}), ((), {"url": "x", "scheme": "s"})],
    "urlparse": [(("http://a/b#c",), {"scheme": "s", "allow_fragments": True})],
    "urljoin": [(("http://a/b",), {"url": "c"}), ((), {"base": "http://a/b", "url": "c"})],
    "urlunsplit": [((), {"components": ("a", "b", "c", "d", "e")})],
    "urlunparse": [((), {"components": ("a", "b", "c", "d", "e", "f")})],
    "urldefrag": [((), {"url": "http://a#b"})],
    "quote": [(("a b",), {"safe": ""}), (("a b",), {"encoding": None, "errors": None})],
    "quote_plus": [(("a b",), {"safe": "/"})],
    "quote_from_bytes": [((), {"bs": b"a b", "safe": ""})],
    "unquote": [((), {"string": "a%20b"})],
    "unquote_plus": [((), {"string": "a+b"})],
    "unquote_to_bytes": [((), {"string": "a%20b"})],
}


def _python_calls(f, args, kwargs):
    """The functions of compat.py that ran a frame during the call."""
    seen = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == compat.__file__:
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        _answer(f, *args, **kwargs)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_common_calls_run_no_python_code(name):
    """The common calls, positional and by keyword, are answered in Rust:
    compat.py's own code runs for none of them (and each answer is
    urllib's); any other call runs it."""
    ours = getattr(compat, name)
    for args, kwargs in [(a, {}) for a in COMMON[name]] + KEYWORDS[name]:
        assert _answer(ours, *args, **kwargs) == _answer(URLLIB[name], *args, **kwargs), (args, kwargs)
        assert _python_calls(ours, args, kwargs) == [], (name, args, kwargs)
    required = ours.__code__.co_argcount - len(ours.__defaults__ or ())
    assert _python_calls(ours, (object(),) * required, {}) != []
