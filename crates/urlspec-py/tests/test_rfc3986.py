"""urlspec.rfc3986 (urllib's signatures, RFC 3986's answers) against
urllib.parse over the shared corpora: every difference is put in a named
class, and a difference in no known class fails the test. Run as a script
to print the table:

    python crates/urlspec-py/tests/test_rfc3986.py
"""

from __future__ import annotations

import collections
import os
import sys
import urllib.parse as up

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from conftest import CORPORA, corpus_lines  # noqa: E402

import urlspec  # noqa: E402
from urlspec import rfc3986  # noqa: E402

SPLIT_FILES = ["kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"]
JOIN_FILES = ["relative-pairs.tsv", "cc-relative-10k.tsv"]
CONTROLS = "".join(map(chr, range(0x21)))  # C0 controls and space
UNSAFE = "\t\r\n"


def _has_controls(*texts):
    return any(
        any(c in t for c in UNSAFE) or t != t.strip(CONTROLS) for t in texts
    )


def classify_split(u, ours, theirs):
    """The class of a urlsplit difference (theirs may be the exception)."""
    if isinstance(theirs, Exception):
        return "invalid-ipv6-brackets" if "IPv6" in str(theirs) else "urllib-raises"
    if _has_controls(u):
        return "whitespace-and-controls"
    return "unexplained"


def _dots(path):
    segs = path.split("?")[0].split("#")[0].split("/")
    return any(s in (".", "..") for s in segs[3:] if True)


def _drop_empty(url):
    """``url`` without an empty query or fragment (urllib's recomposition
    drops them: it cannot tell empty from absent)."""
    if url.endswith("#"):
        url = url[:-1]
    head, sep, frag = url.partition("#")
    if head.endswith("?"):
        head = head[:-1]
    return head + sep + frag


def _collapse(url):
    """``url`` with runs of ``/`` in its path made one, as urllib's merge
    does (it drops empty segments)."""
    import re

    u = urlspec.parse(url, spec="rfc3986")
    rest = url[len(url) - len(u.path) - len("?" + u.query if u.query is not None else "")
               - len("#" + u.fragment if u.fragment is not None else ""):]
    head = url[: len(url) - len(rest)]
    return head + _drop_empty(re.sub("/{2,}", "/", rest))


def classify_join(base, ref, ours, theirs):
    if _has_controls(base, ref):
        return "whitespace-and-controls"
    if not urlspec.parse(base, spec="rfc3986").scheme:
        return "no-base"
    if ref == "":
        return "empty-reference"
    scheme = (urlspec.parse(base, spec="rfc3986").scheme or "").lower()
    ref_scheme = (urlspec.parse(ref, spec="rfc3986").scheme or "").lower()
    if scheme not in up.uses_relative and ref_scheme in ("", scheme):
        return "non-hierarchical-base"
    if ours.lower() == theirs.lower():
        return "scheme-case"
    if _drop_empty(ours) == theirs:
        return "empty-query-or-fragment-kept"
    if _drop_empty(ours.replace(";?", "?").replace(";#", "#").rstrip(";")) == theirs:
        return "empty-params-kept"
    if _collapse(ours) == _collapse(theirs) and _collapse(ours) != ours:
        return "empty-segments"
    if "//" in urlspec.parse(base, spec="rfc3986").path and ".." in ref:
        return "empty-segments"
    if ref.startswith("//") and urlspec.parse(ref, spec="rfc3986").authority == "":
        return "empty-authority"
    if _dots(theirs) and not _dots(ours):
        return "dot-segments"
    if ref_scheme == scheme and ref_scheme and not ref[len(ref_scheme) + 1:].startswith("/"):
        return "same-scheme-relative"
    return "unexplained"


def differential():
    """{(function, class): [count, examples]} over every corpus line."""
    table = collections.OrderedDict()
    totals = collections.Counter()

    def note(fn, cls, example):
        entry = table.setdefault((fn, cls), [0, []])
        entry[0] += 1
        if len(entry[1]) < 3:
            entry[1].append(example)

    for name in SPLIT_FILES:
        for u in corpus_lines(name):
            totals["urlsplit"] += 1
            try:
                theirs = up.urlsplit(u)
            except ValueError as e:
                theirs = e
            ours = rfc3986.urlsplit(u)
            if ours != theirs:
                note("urlsplit", classify_split(u, ours, theirs), (u, ours, theirs))
    for name in JOIN_FILES:
        for line in corpus_lines(name):
            base, _, ref = line.partition("\t")
            totals["urljoin"] += 1
            try:
                theirs = up.urljoin(base, ref)
            except ValueError as e:
                theirs = e
            ours = rfc3986.urljoin(base, ref)
            if ours != theirs:
                cls = ("invalid-ipv6-brackets" if isinstance(theirs, Exception)
                       else classify_join(base, ref, ours, theirs))
                note("urljoin", cls, (base, ref, ours, theirs))
    return table, totals


def render(table, totals):
    lines = [
        f"| function | class | differences | example |",
        "|---|---|---|---|",
    ]
    for (fn, cls), (count, examples) in sorted(table.items()):
        ex = examples[0]
        shown = " → ".join(repr(x)[:70] for x in ex)
        lines.append(f"| `{fn}` | {cls} | {count} | `{shown}` |".replace("|`'", "| `'"))
    lines.append("")
    lines.append(
        "Compared: "
        + ", ".join(f"{totals[f]} `{f}` calls" for f in ("urlsplit", "urljoin"))
        + "; every other call gives urllib's answer."
    )
    return "\n".join(lines)


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"corpora not found at {CORPORA}")
def test_every_difference_is_known(capsys):
    table, totals = differential()
    text = render(table, totals)
    with capsys.disabled():
        print("\n" + text)
    out = os.environ.get("URLSPEC_COMPAT_TABLE")
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")
    unexplained = {k: v for k, v in table.items() if k[1] == "unexplained"}
    assert not unexplained, "\n".join(
        f"{fn}: {v[0]} unexplained, e.g. {v[1]}" for (fn, _), v in unexplained.items()
    )
    assert totals["urlsplit"] > 100_000 and totals["urljoin"] > 50_000


def test_types_and_signatures():
    s = rfc3986.urlsplit("HTTP://a/b?q#f")
    assert type(s) is up.SplitResult and s == ("http", "a", "/b", "q", "f")
    assert s.geturl() == "http://a/b?q#f"
    p = rfc3986.urlparse("http://a/b/c;p?q#f")
    assert type(p) is up.ParseResult and p == up.urlparse("http://a/b/c;p?q#f")
    assert rfc3986.urlsplit(b"http://a/b") == up.urlsplit(b"http://a/b")
    assert rfc3986.urlsplit("x#f", allow_fragments=False) == up.urlsplit("x#f", allow_fragments=False)
    assert rfc3986.urlsplit("//h/p", scheme="https") == up.urlsplit("//h/p", scheme="https")
    assert rfc3986.urlunsplit(("http", "a", "/b", "q", "f")) == "http://a/b?q#f"
    assert rfc3986.urljoin("http://a/b/c/d;p?q", "../../../g") == "http://a/g"
    assert rfc3986.urljoin(b"http://a/b", b"c") == b"http://a/c"
    assert rfc3986.urljoin("", "x") == "x"
    for s in ["a b/ü~", "", "%", "/x?y=z&"]:
        for safe in ["/", "", "?=&"]:
            assert rfc3986.quote(s, safe=safe) == up.quote(s, safe=safe)
    assert rfc3986.quote(b"\x00\xff") == up.quote(b"\x00\xff")
    for s in ["%C3%BC", "%zz%4", "a%2Fb", "%E2%82", "plain"]:
        assert rfc3986.unquote(s) == up.unquote(s)


if __name__ == "__main__":
    print(render(*differential()))


def test_native_entry_points():
    """rfc3986.urlsplit and urljoin are the Rust functions; their argument
    handling matches urllib's signatures."""
    assert rfc3986.urlsplit("HTTP://a/b?q#f") == up.urlsplit("HTTP://a/b?q#f")
    assert type(rfc3986.urlsplit("http://a/")) is up.SplitResult
    assert rfc3986.urlsplit("/p#f", "x", False) == ("x", "", "/p#f", "", "")
    assert rfc3986.urlsplit("/p?q#f", allow_fragments=0) == ("", "", "/p", "q#f", "")
    assert rfc3986.urlsplit(url="//h/p", scheme="s") == ("s", "h", "/p", "", "")
    assert rfc3986.urlsplit(b"http://a/b#f") == up.urlsplit(b"http://a/b#f")
    assert type(rfc3986.urlsplit(b"http://a/")) is up.SplitResultBytes

    class S(str):
        pass

    assert rfc3986.urlsplit(S("http://a/b")).netloc == "a"
    rel = "just/a/path"
    assert rfc3986.urlsplit(rel).path is rel
    base = "http://a/b/c"
    assert rfc3986.urljoin(base, "") == base
    assert rfc3986.urljoin("", "g") == "g"
    assert rfc3986.urljoin(base, "d") == "http://a/b/d"
    assert rfc3986.urljoin(base, "g#f", allow_fragments=False) == up.urljoin(base, "g#f", False)
    assert rfc3986.urljoin(b"http://a/b/c", b"d") == b"http://a/b/d"
    assert rfc3986.urljoin("x", "y") == "y"  # no scheme in the base
    with pytest.raises(TypeError):
        rfc3986.urljoin("http://a/", b"x")
    with pytest.raises(TypeError):
        rfc3986.urlsplit()
