"""urlspec.compat against the running interpreter's urllib.parse: every
compat function, over the shared corpora and over generated inputs (str,
bytes and other types), must give urllib's answer, or raise the exception
urllib raises, with the same type and message.

The generated inputs are drawn from a fixed seed (``URLSPEC_COMPAT_SEED``
picks another, ``URLSPEC_COMPAT_CASES`` how many per function) out of the
characters urllib treats specially: delimiters, brackets, C0 controls and
spaces, tab/CR/LF, ``%`` escapes, characters that NFKC-normalize to
delimiters, non-ASCII letters and lone surrogates.
"""

from __future__ import annotations

import os
import pickle
import random
import sys
import urllib.parse as up

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from conftest import CORPORA, corpus_lines  # noqa: E402

from urlspec import compat  # noqa: E402

URLLIB = compat._URLLIB
SEED = int(os.environ.get("URLSPEC_COMPAT_SEED", "18"))
CASES = int(os.environ.get("URLSPEC_COMPAT_CASES", "6000"))

SPLIT_FILES = ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"]
JOIN_FILES = ["relative-pairs.tsv", "cc-relative-10k.tsv"]

# Pieces of URLs, weighted toward what urllib's rules look at.
PIECES = (
    ["http:", "https:", "HTTP:", "ftp:", "file:", "mailto:", "svn+ssh:", "1a:", "a1:", "x-y.z:",
     "itms-services:", "rtsps:", "tel:", "sip:", "data:", "javascript:", ":", "::"]
    + ["//", "/", "/", "/", "?", "#", ";", "@", ":", "[", "]", "[::1]", "[v1.x]", "[1.2.3.4]",
       "[::1%25eth0]", "[fe80::1%eth0]", "[v.]", "[vG.x]", "[x]"]
    + [".", "..", "./", "../", "../../", "/./", "/../", "%", "%2F", "%zz", "%C3%BC", "%E2%82",
       "%ff", "+", "=", "&", "a=1", "\\"]
    + ["a", "b", "g", "h", "host", "example.com", "80", ":80", "user:pw@", "x.html", "index"]
    + ["\t", "\r", "\n", " ", "\x00", "\x1f", "\x7f", "\x0b"]
    + ["\u2100", "\uff0f", "\uff03", "\u2474", "\u00e9", "\u00fc", "\u0130", "\u212a", "ß", "\U0001f600",
       "\ud800", "\udc80", "\udfff"]
)


def gen_text(rnd: random.Random, max_pieces: int = 8) -> str:
    return "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, max_pieces)))


def as_kind(text: str, kind: str):
    """``text`` as ``kind``: ``str``, or ``bytes``/``bytearray`` (UTF-8,
    lone surrogates passed through: non-ASCII bytes make urllib raise)."""
    if kind == "str":
        return text
    data = text.encode("utf-8", "surrogatepass")
    return data if kind == "bytes" else bytearray(data)


ODD = [None, 0, 1, 5, 2.5, [], (), ["x"], ("a", "b"), b"", bytearray(), memoryview(b"ab"), object()]


def gen_arg(rnd: random.Random, max_pieces: int = 8):
    r = rnd.random()
    text = gen_text(rnd, max_pieces)
    if r < 0.70:
        return text
    if r < 0.85:
        return as_kind(text, "bytes")
    if r < 0.92:
        return as_kind(text, "bytearray")
    return rnd.choice(ODD)


FLAGS = [True, False, None, 0, 1, "", "x", [], b""]


def outcome(f, *args, **kwargs):
    """What a call gives: its value and the value's type, or its
    exception's type and message."""
    try:
        value = f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - every exception is compared
        return ("raises", type(e), str(e))
    return ("returns", type(value), value)


def same(f_name, *args, **kwargs):
    theirs = outcome(URLLIB[f_name], *args, **kwargs)
    ours = outcome(getattr(compat, f_name), *args, **kwargs)
    return ours == theirs, ours, theirs


def check(f_name, calls):
    """Runs every call; fails with the first few that differ."""
    bad = []
    n = 0
    for args, kwargs in calls:
        n += 1
        ok, ours, theirs = same(f_name, *args, **kwargs)
        if not ok:
            bad.append(f"{f_name}(*{args!r}, **{kwargs!r}):\n  compat {ours!r}\n  urllib {theirs!r}")
            if len(bad) >= 5:
                break
    assert not bad, f"{len(bad)} of {n} calls differ (first ones):\n" + "\n".join(bad)
    return n


corpora = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"corpora not found at {CORPORA}")


@corpora
@pytest.mark.parametrize("kind", ["str", "bytes"])
def test_corpora_split(kind):
    urls = [as_kind(u, kind) for name in SPLIT_FILES for u in corpus_lines(name)]
    for f in ("urlsplit", "urlparse", "urldefrag"):
        assert check(f, (((u,), {}) for u in urls)) > 100_000
    assert check("urlsplit", (((u,), {"allow_fragments": False}) for u in urls))
    # Recomposition of every split, as the split gave it.
    parts = [URLLIB["urlsplit"](u) for u in urls if _splits(u)]
    check("urlunsplit", (((p,), {}) for p in parts))
    parsed = [URLLIB["urlparse"](u) for u in urls if _splits(u)]
    check("urlunparse", (((p,), {}) for p in parsed))


def _splits(u):
    try:
        URLLIB["urlsplit"](u)
    except (ValueError, UnicodeError):
        return False
    return True


@corpora
@pytest.mark.parametrize("kind", ["str", "bytes"])
def test_corpora_join(kind):
    pairs = []
    for name in JOIN_FILES:
        for line in corpus_lines(name):
            base, _, ref = line.partition("\t")
            pairs.append((as_kind(base, kind), as_kind(ref, kind)))
    assert check("urljoin", ((p, {}) for p in pairs)) > 70_000
    check("urljoin", ((p, {"allow_fragments": False}) for p in pairs[::7]))


@corpora
def test_corpora_quoting():
    texts = [u for name in SPLIT_FILES for u in corpus_lines(name)][::5]
    check("quote", (((t,), {"errors": "surrogateescape"}) for t in texts))
    check("quote_plus", (((t,), {"safe": ":/", "errors": "surrogateescape"}) for t in texts))
    check("unquote", (((t,), {}) for t in texts))
    check("unquote_plus", (((t,), {}) for t in texts))
    check("unquote_to_bytes", (((t.encode("utf-8", "surrogateescape"),), {}) for t in texts))


def _generated(make):
    rnd = random.Random(SEED)
    return (make(rnd) for _ in range(CASES))


def test_generated_urlsplit_urlparse():
    def call(rnd):
        args = [gen_arg(rnd)]
        kwargs = {}
        if rnd.random() < 0.3:
            args.append(rnd.choice(["", "http", " x\t", "HTTPS", b"", b"ftp", None, "\x00s "]))
        if rnd.random() < 0.3:
            kwargs["allow_fragments"] = rnd.choice(FLAGS)
        return tuple(args), kwargs

    calls = list(_generated(call))
    for f in ("urlsplit", "urlparse"):
        check(f, calls)


def test_generated_urljoin():
    def call(rnd):
        base = gen_arg(rnd, 10) if rnd.random() < 0.5 else "http://a/b/c/d;p?q#f"
        kwargs = {}
        if rnd.random() < 0.2:
            kwargs["allow_fragments"] = rnd.choice(FLAGS)
        return (base, gen_arg(rnd, 6)), kwargs

    check("urljoin", _generated(call))


def test_generated_path_merges():
    # Paths of segments that urljoin's merge treats apart (empty, `.`,
    # `..`, names starting or ending with `.`), of lengths that put `/.`
    # and `//` on every side of an eight-byte word: the merge copies the
    # base's directory and the reference as they are when a scan finds
    # neither, and merges segment by segment when it does.
    segments = ["", ".", "..", "a", ".x", "b.", "abcdefg", "abcdefgh", "..y"]
    rnd = random.Random(SEED)

    def path(n):
        return "/".join(rnd.choice(segments) for _ in range(n))

    calls = []
    for _ in range(CASES):
        base = "http://h" + rnd.choice(["", "/"]) + path(rnd.randint(0, 7))
        ref = path(rnd.randint(0, 6))
        calls.append(((base, ref), {}))
        calls.append(((base, "/" + ref), {}))
        calls.append(((path(rnd.randint(0, 5)), ref), {}))
    check("urljoin", calls)


def test_generated_unsplit_unparse_defrag():
    def component(rnd):
        return gen_text(rnd, 3) if rnd.random() < 0.9 else rnd.choice(["", None, b"", b"x"])

    def parts(rnd, n):
        kind = rnd.choice(["str", "str", "bytes", "mixed"])
        comps = [component(rnd) for _ in range(n)]
        if kind == "bytes":
            comps = [as_kind(c, "bytes") if isinstance(c, str) else c for c in comps]
        if rnd.random() < 0.05:
            comps = comps[: rnd.randint(0, n + 1)] + ["x"] * rnd.randint(0, 1)
        return comps

    check("urlunsplit", _generated(lambda rnd: ((parts(rnd, 5),), {})))
    check("urlunparse", _generated(lambda rnd: ((tuple(parts(rnd, 6)),), {})))
    check("urldefrag", _generated(lambda rnd: ((gen_arg(rnd),), {})))


ENCODINGS = [None, "utf-8", "UTF8", "latin-1", "ascii", "utf-16", "cp037", "nope", ""]
ERRORS = [None, "strict", "replace", "ignore", "surrogateescape", "backslashreplace", "nope"]


def test_generated_quoting():
    def text_call(rnd):
        args = [gen_arg(rnd)]
        kwargs = {}
        if rnd.random() < 0.4:
            kwargs["safe"] = rnd.choice(["", "/", ":/?#", "é/", b"/", b"\xff:", [47], ["x"], 5])
        if rnd.random() < 0.3:
            kwargs["encoding"] = rnd.choice(ENCODINGS)
        if rnd.random() < 0.3:
            kwargs["errors"] = rnd.choice(ERRORS)
        return tuple(args), kwargs

    calls = list(_generated(text_call))
    for f in ("quote", "quote_plus", "unquote", "unquote_plus"):
        check(f, calls)
    check("quote_from_bytes", ((a, {"safe": k["safe"]} if "safe" in k else {}) for a, k in calls))
    check("unquote_to_bytes", ((a, {}) for a, _ in calls))


def test_generated_percent_escapes():
    """``%XX`` runs that are and are not valid UTF-8, around non-ASCII
    text: unquote decodes each ASCII run on its own."""
    alphabet = ["%C3", "%BC", "%A9", "%E2", "%82", "%AC", "%F0", "%9F", "%98", "%80", "%ED", "%A0",
                "%FF", "%C0", "%AF", "%41", "%", "%4", "a", "é", "\udc80", "+"]
    rnd = random.Random(SEED)
    calls = []
    for _ in range(CASES):
        s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 10)))
        calls.append(((s,), {"errors": rnd.choice(["replace", "strict", "ignore", "surrogateescape"])}))
        calls.append(((s,), {"encoding": rnd.choice(["utf-8", "latin-1", "utf-16-le", "cp1252"])}))
    check("unquote", calls)
    check("unquote_plus", calls)


# The defects of the RFC 3986 module that compat replaced, each against
# urllib itself (the answer, or the exception with its message).


@pytest.mark.parametrize(
    "f, args, kwargs",
    [
        # CVE-2019-9636: characters that NFKC-normalize to delimiters.
        ("urlsplit", ("http://a\u2100b/",), {}),
        ("urlsplit", ("http://a\uff03b/",), {}),
        ("urlsplit", ("http://\u2474.example/",), {}),
        # CVE-2022-0391: tab, CR, LF removed.
        ("urlsplit", ("ht\ttp://a\r/b\n?q#f",), {}),
        ("urlsplit", ("//h", "ht\ntp"), {}),
        # CVE-2023-24329: leading C0 controls and spaces stripped.
        ("urlsplit", ("\x00\x1f https://a/",), {}),
        ("urlsplit", ("//h", " \x00https "), {}),
        ("urlparse", (" \tjavascript:alert(1)",), {}),
        # Bracketed hosts.
        ("urlsplit", ("http://[::1]:80/",), {}),
        ("urlsplit", ("http://[::1x]/",), {}),
        ("urlsplit", ("http://[192.0.2.1]/",), {}),
        ("urlsplit", ("http://[v1.fe80::a+en1]/",), {}),
        ("urlsplit", ("http://[v1fe80]/",), {}),
        ("urlsplit", ("http://a[::1]/",), {}),
        ("urlsplit", ("http://[::1]x/",), {}),
        ("urlsplit", ("http://[::1/",), {}),
        ("urlsplit", ("http://::1]/",), {}),
        # Joins urllib answers in its own way.
        ("urljoin", ("http://a/b/c/d;p?q#f", ""), {}),
        ("urljoin", ("http://a/b/c/d;p?q", "http:g"), {}),
        ("urljoin", ("http://a/b/c/d;p?q", "../../../g"), {}),
        ("urljoin", ("http://a/b/c/d;p?q", "//"), {}),
        ("urljoin", ("node:url", "os"), {}),
        ("urlunsplit", (("file", "", "/tmp/junk.txt", "", ""),), {}),
        # Mixed str and bytes.
        ("urljoin", ("http://a/", b"x"), {}),
        ("urlsplit", (b"http://a/", "x"), {}),
        ("urlunsplit", (("http", b"a", "/", "", ""),), {}),
        # Lone surrogates, as os.fsdecode makes them.
        ("urlsplit", ("http://a/\udcff?\udc80#\ud800",), {}),
        ("urljoin", ("http://a/\udcff/b", "c\udc80"), {}),
        ("urlsplit", ("http://h\udcff/",), {}),
        ("quote", ("\udc80",), {}),
        ("quote", ("\udc80",), {"errors": "surrogateescape"}),
        ("unquote", ("%41\udc80%42",), {}),
        # A missing reference (element.get("href")).
        ("urljoin", ("http://a/b", None), {}),
        ("urljoin", (None, "g"), {}),
        ("urljoin", (b"http://a/b", None), {}),
        # Other types: urllib's exception.
        ("quote", (5,), {}),
        ("quote", (["a"],), {}),
        ("urlsplit", (5,), {}),
        ("urlsplit", (None,), {}),
        ("urljoin", ("http://a/", 5), {}),
        ("urlparse", (bytearray(b"http://a/b;p"),), {}),
        ("urlsplit", (bytearray(b"http://a/b"),), {}),
        ("unquote", ((),), {}),
        ("unquote", (5,), {}),
        ("unquote_to_bytes", (bytearray(b"abc"),), {}),
        ("urldefrag", (5,), {}),
        # allow_fragments is read for its truth.
        ("urlsplit", ("http://a/b#f",), {"allow_fragments": None}),
        ("urlsplit", ("http://a/b?q#f",), {"allow_fragments": 0}),
        ("urljoin", ("http://a/b", "c#f"), {"allow_fragments": None}),
        ("urlsplit", ("http://a/b#f",), {"allow_fragments": []}),
        # unquote's encoding and errors.
        ("unquote", ("%E9\u00e9",), {"encoding": "latin-1"}),
        ("unquote", ("%C3%A9",), {"encoding": None, "errors": None}),
        ("unquote", ("%C3",), {"errors": "strict"}),
        ("unquote_plus", ("a+%E9",), {"encoding": "latin-1"}),
        ("quote", ("é",), {"encoding": ""}),
    ],
)
def test_urllib_answer(f, args, kwargs):
    ok, ours, theirs = same(f, *args, **kwargs)
    assert ok, f"compat {ours!r}\nurllib {theirs!r}"


def test_parse_qs_decodes_through_compat_unquote(monkeypatch):
    """With compat swapped into urllib.parse, parse_qs's own unquote calls
    reach compat's, which must decode as urllib does."""
    want = up.parse_qs("a=%E9\u00e9&b=x+y", encoding="latin-1")
    monkeypatch.setattr(up, "unquote", compat.unquote)
    monkeypatch.setattr(up, "unquote_plus", compat.unquote_plus)
    assert up.parse_qs("a=%E9\u00e9&b=x+y", encoding="latin-1") == want == {"a": ["éé"], "b": ["x y"]}


def test_scheme_lists_are_read_at_each_call(monkeypatch):
    """Callers add schemes to urllib's lists (``uses_netloc.append("s3")``);
    urllib reads them at each call, and so does compat, including a list
    rebound or changed in place."""
    base, ref = "s3://bucket/a/b", "c"
    for _ in range(2):
        assert compat.urljoin(base, ref) == up.urljoin(base, ref) == "c"
    monkeypatch.setattr(up, "uses_relative", up.uses_relative + ["s3"])
    monkeypatch.setattr(up, "uses_netloc", up.uses_netloc + ["s3"])
    assert compat.urljoin(base, ref) == up.urljoin(base, ref) == "s3://bucket/a/c"
    up.uses_netloc[up.uses_netloc.index("s3")] = "s4"
    assert compat.urljoin(base, ref) == up.urljoin(base, ref) == "s3:/a/c"
    up.uses_relative.remove("http")
    assert compat.urljoin("http://a/b", "c") == up.urljoin("http://a/b", "c") == "c"

    class Everything(list):
        def __contains__(self, item):
            return True

    monkeypatch.setattr(up, "uses_params", Everything())
    assert compat.urlparse("x:a;b") == up.urlparse("x:a;b") == ("x", "", "a", "b", "", "")
    monkeypatch.delattr(up, "uses_relative")
    with pytest.raises(NameError):
        compat.urljoin("http://a/b", "c")


def test_scheme_lists_changed_in_place_are_seen(monkeypatch):
    """compat answers ``scheme in uses_relative`` from a table of the
    list's items it keeps while the module binds the same list, of the
    same length, with the same item objects: each change of the list in
    place (an item appended, removed, replaced by another or by an equal
    string, the whole list assigned through a slice) is seen at the next
    call, as urllib sees it."""
    monkeypatch.setattr(up, "uses_relative", list(up.uses_relative))
    monkeypatch.setattr(up, "uses_netloc", list(up.uses_netloc))
    rel, net = up.uses_relative, up.uses_netloc
    pairs = [("s3://b/a/b", "c"), ("http://a/b/c", "../d"), ("git://h/x/y", "z"), ("HTTP://a/b", "c")]

    def same():
        for _ in range(2):  # the second call answers from the table
            for base, ref in pairs:
                assert compat.urljoin(base, ref) == up.urljoin(base, ref), (base, ref, rel, net)

    same()
    rel.append("s3")
    same()
    net.append("s3")
    same()
    net[net.index("s3")] = "".join(["s", "3"])  # an equal string, another object
    same()
    rel[rel.index("http")] = "s4"  # the same length, the found item replaced
    same()
    rel[0] = "git"  # another place than the one found before
    same()
    rel[:] = ["http", "https"]  # the same list object, every item new
    same()
    del rel[:]
    same()
    rel.extend(["http", "s3"])
    net.remove("s3")
    same()


def test_threads_share_the_join_state():
    """urljoin's buffers and scheme tables are shared by every thread (the
    GIL orders the calls); a call made while they are in use, here by a
    thread that runs while another one's ``in`` has released the GIL,
    works on its own: every answer is urllib's."""
    import threading
    import time

    class Slow(list):
        def __contains__(self, item):
            time.sleep(0.001)  # releases the GIL mid-call
            return list.__contains__(self, item)

    pairs = [(b, r) for b, r in _pairs()][:300]
    want = [up.urljoin(b, r) for b, r in pairs]
    slow = Slow(up.uses_relative)
    errors = []

    def work(k):
        try:
            for _ in range(3):
                got = [compat.urljoin(b, r) for b, r in pairs]
                if got != want:
                    errors.append((k, next(i for i, (g, w) in enumerate(zip(got, want)) if g != w)))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append((k, e))

    original = up.uses_relative
    up.uses_relative = slow
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in threads)
    finally:
        up.uses_relative = original
    assert errors == []


def _pairs():
    for line in corpus_lines("relative-pairs.tsv"):
        base, sep, ref = line.partition("\t")
        if sep:
            yield base, ref


def test_probes_match_the_interpreter():
    """Each probed behaviour is the interpreter's, whatever its version."""
    p = compat.PROBED
    assert p["strip_url"] == (up.urlsplit(" http://a/").scheme == "http")
    assert p["remove_tab_cr_lf"] == (up.urlsplit("a\tb").path == "ab")
    try:
        up.urlsplit("http://[v1x]/")
        rule = None
    except ValueError:
        rule = "netloc" if _raises(up.urlsplit, "http://x[::1]/") else "host"
    assert p["bracketed_hosts"] == rule
    assert p["hashes_arguments"] == hasattr(up.urlsplit, "cache_clear")


def _raises(f, *args):
    try:
        f(*args)
    except ValueError:
        return True
    return False


def test_cache_clear_and_urllib_clear_cache(monkeypatch):
    compat.urlsplit.cache_clear()
    monkeypatch.setattr(up, "urlsplit", compat.urlsplit)
    up.clear_cache()
    assert compat.urlsplit("http://a/b") == ("http", "a", "/b", "", "")


def test_every_way_of_calling_answers_as_urllib():
    """A lone ``str`` takes the direct path; every other call (a ``str``
    subclass, bytes, a scheme, ``allow_fragments``, keywords, a wrong
    count) is handed to the function that reads arguments: the same
    answers and exceptions as urllib either way."""

    class Sub(str):
        pass

    url = "HTTP://a/b;p?q#f"
    calls = [
        ((url,), {}),
        ((Sub(url),), {}),
        ((url.encode(),), {}),
        ((url, "x"), {}),
        (("//a/b#f", "x", False), {}),
        ((url,), {"allow_fragments": False}),
        ((), {"url": url, "scheme": "s"}),
        ((), {}),
        ((url, "", True, 1), {}),
        ((None,), {}),
        ((1,), {}),
    ]
    for name in ("urlsplit", "urlparse"):
        ours, theirs = getattr(compat, name), getattr(up, name)
        for args, kwargs in calls:
            assert _answer(ours, args, kwargs) == _answer(theirs, args, kwargs), (name, args, kwargs)
    base = "http://a/b/c;p?q#f"
    join_calls = [
        ((base, "../g?x#y"), {}),
        ((Sub(base), "g"), {}),
        ((base, Sub("g")), {}),
        ((base.encode(), b"g"), {}),
        ((base, "g#h", False), {}),
        ((base, "g#h"), {"allow_fragments": False}),
        ((), {"base": base, "url": "g"}),
        ((base,), {}),
        ((base, "g", True, 1), {}),
        ((base, None), {}),
        ((None, "g"), {}),
        ((base, 1), {}),
        (("", "g"), {}),
        ((base, ""), {}),
    ]
    for args, kwargs in join_calls:
        assert _answer(compat.urljoin, args, kwargs) == _answer(up.urljoin, args, kwargs), (args, kwargs)
    for name in ("urlsplit", "urlparse", "urljoin"):
        ours, theirs = getattr(compat, name), getattr(up, name)
        assert ours.__doc__ == theirs.__doc__
        assert ours.__name__ == ours.__qualname__ == name
        assert ours.__module__ == "urlspec.compat"
        assert pickle.loads(pickle.dumps(ours)) is ours
        assert hasattr(ours, "cache_clear") == hasattr(theirs, "cache_clear")
        with pytest.raises(TypeError):
            type(ours)()


def test_every_way_of_calling_urljoin_answers_as_urllib():
    """``urljoin`` has its own direct path for two exact ``str``: every
    other call (subclasses, bytes, mixed types, keywords, ``None``, a wrong
    count) answers, or raises, as urllib's."""

    class Sub(str):
        pass

    base, url = "http://a/b/c;p?q#f", "../g?y#s"
    calls = [
        ((base, url), {}),
        ((Sub(base), url), {}),
        ((base, Sub(url)), {}),
        ((base.encode(), url.encode()), {}),
        ((bytearray(base.encode()), url.encode()), {}),
        ((base, url.encode()), {}),
        ((base, url, False), {}),
        ((base, "#z", False), {}),
        ((base, ""), {}),
        ((base, None), {}),
        ((None, url), {}),
        ((b"", None), {}),
        ((base,), {}),
        ((), {}),
        ((base, url, True, 1), {}),
        ((), {"base": base, "url": url}),
        ((base,), {"url": url, "allow_fragments": False}),
        ((base, url), {"allow_fragments": None}),
        ((base, url), {"scheme": "x"}),
        ((1, 2), {}),
    ]
    for args, kwargs in calls:
        ours = _answer(compat.urljoin, args, kwargs)
        theirs = _answer(up.urljoin, args, kwargs)
        assert ours == theirs, (args, kwargs, ours, theirs)


def _answer(f, args, kwargs):
    try:
        return f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - compared, not handled
        return type(e)


def test_reentrant_calls_from_a_scheme_list(monkeypatch):
    """A scheme list whose ``in`` calls compat itself (the per-thread
    state is in use): the inner call answers all the same."""

    inner = []

    class Calling(list):
        def __contains__(self, item):
            if not inner:
                inner.append(None)
                inner[0] = compat.urljoin("http://a/b/c", "../d")
            return list.__contains__(self, item)

    monkeypatch.setattr(up, "uses_relative", Calling(up.uses_relative))
    assert compat.urljoin("http://x/y/z", "w") == "http://x/y/w"
    assert inner == ["http://a/d"]


def test_an_unknown_urllib_change_falls_back_to_urllib():
    """Should an interpreter's urllib answer otherwise than the rules compat
    knows (here a urlunsplit that writes ``./`` before a first segment
    with a colon, as CPython's gh-85110 does), the import-time check finds
    it and compat hands that function, and those built on it, to urllib."""
    import subprocess
    import textwrap

    code = textwrap.dedent(
        """
        import urllib.parse as up
        original = up.urlunsplit
        def urlunsplit(components):
            scheme, netloc, path, query, fragment = components
            if not scheme and not netloc and ":" in path.partition("/")[0]:
                path = "./" + path
            return original((scheme, netloc, path, query, fragment))
        up.urlunsplit = urlunsplit
        from urlspec import compat
        print(sorted(compat.FALLBACK))
        assert compat.urlunsplit is urlunsplit
        assert compat.urlunsplit(("", "", "a:b", "", "")) == "./a:b"
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[0] == "['urldefrag', 'urljoin', 'urlunparse', 'urlunsplit']"


def test_no_fallback_on_this_interpreter():
    assert compat.FALLBACK == {}


def _rebind(how, name, value):
    """Binds ``urllib.parse.<name>`` to ``value`` the way ``how`` says."""
    if how == "setattr":
        setattr(up, name, value)
    elif how == "dict":
        up.__dict__[name] = value
    elif how == "global":  # STORE_GLOBAL in a function of the module's globals
        exec(f"def _bind(v):\n    global {name}\n    {name} = v\n_bind(_v)", up.__dict__, {"_v": value})
    elif how == "update":
        vars(up).update({name: value})
    elif how == "del-and-set":
        delattr(up, name)
        setattr(up, name, value)
    else:
        raise AssertionError(how)


# For each scheme list: a call that reads it, and its answer when the
# scheme ``s3`` is in the list and when it is not.
_LIST_CALLS = {
    "uses_relative": (lambda m: m.urljoin("s3://b/a/b", "c"), "s3://b/a/c", "c"),
    "uses_netloc": (lambda m: m.urljoin("s3://b/a/b", "c"), "s3://b/a/c", "s3:/a/c"),
    "uses_params": (lambda m: tuple(m.urlparse("s3:a;b")), ("s3", "", "a", "b", "", ""),
                    ("s3", "", "a;b", "", "", "")),
}


@pytest.mark.parametrize("how", ["setattr", "dict", "global", "update", "del-and-set"])
@pytest.mark.parametrize("name", sorted(_LIST_CALLS))
def test_scheme_lists_rebound_are_seen(monkeypatch, name, how):
    """A scheme list rebound (by any of the ways a module's global is
    assigned) is seen at the next call, though the list compat last read
    is still alive and unchanged: compat's table of a list is used only
    while the module binds that very list, which it learns from the
    version of the module's dict where the interpreter keeps one (PEP 509,
    CPython 3.10-3.13), by looking the name up again where it does not.
    Each answer is urllib's, and the expected one."""
    for other in ("uses_relative", "uses_netloc"):  # s3 an authority scheme
        monkeypatch.setattr(up, other, list(getattr(up, other)) + ["s3"])
    monkeypatch.setattr(up, name, [s for s in getattr(up, name) if s != "s3"])
    call, listed, unlisted = _LIST_CALLS[name]

    def check(want_listed):
        want = listed if want_listed else unlisted
        for _ in range(3):  # the later calls may answer from the table
            assert call(compat) == call(up) == want, (name, how, getattr(up, name))

    a = getattr(up, name)
    check(False)
    b = a + ["s3"]
    _rebind(how, name, b)  # `a` kept alive, unchanged
    check(True)
    _rebind(how, name, a)  # back to the list read first
    check(False)
    a.append("s3")  # in place, while bound
    check(True)
    c = list(a)  # the same item objects, another list
    _rebind(how, name, c)
    a.remove("s3")  # the list no longer bound changes
    check(True)
    c.remove("s3")
    check(False)
    _rebind(how, name, c)  # bound again to the object it holds
    c.append("s3")
    check(True)
