"""The Python package README's table of what urllib.parse, urlspec.compat
and urlspec.rfc3986 answer where they differ: made by this code, so that it
cannot drift. The answers are the running interpreter's; the table in the
README was made under the CPython its caption names, and the test checks
it under that version (under another one it says so and checks only that
compat answers as urllib). To rewrite the README's table:

    python crates/urlspec-py/tests/test_readme_table.py --write
"""

from __future__ import annotations

import platform
import re
import sys
import urllib.parse as up

import pytest

from conftest import ROOT

from urlspec import compat, rfc3986

README = ROOT / "crates" / "urlspec-py" / "README.md"
START = "<!-- compat-table: made by crates/urlspec-py/tests/test_readme_table.py -->"
END = "<!-- end of compat-table -->"

# (call, why they differ), each call a function name and its arguments.
CASES = [
    (("urlsplit", "http://a\u2100b/"), "CVE-2019-9636: `℀` NFKC-normalizes to `a/c`"),
    (("urlsplit", "ht\ttp://a/b\n"), "CVE-2022-0391: tab, CR, LF removed"),
    (("urlsplit", " \x00http://a/"), "CVE-2023-24329: leading C0 controls and spaces stripped"),
    (("urlsplit", "http://[::1x]/"), "a bracketed host must be IPv6 or IPvFuture"),
    (("urlsplit", "http://a]/"), "unbalanced brackets"),
    (("urlparse", "mailto:a;b"), "params only for the schemes of `uses_params`"),
    (("urljoin", "http://a/b/c/d;p?q#f", ""), "empty reference: RFC 3986 §5.2.2 drops the fragment"),
    (("urljoin", "http://a/b/c/d;p?q", "http:g"), "same scheme: urllib resolves it (RFC 3986 §5.2.2 strict: not)"),
    (("urljoin", "http://a/b/index.jsp?", "#s"), "empty query: defined for RFC 3986 (§3.4, §5.3)"),
    (("urljoin", "http://h//x.html", "y.html"), "empty segments: urllib drops them while merging"),
    (("urljoin", "http://a/b", "//"), "empty authority (RFC 3986 §4.2)"),
    (("urljoin", "node:url", "os"), "urllib resolves only for the schemes of `uses_relative`"),
    (("urlunsplit", ("file", "", "/tmp/junk.txt", "", "")), "`//` for the schemes of `uses_netloc`"),
]


def answer(module, call):
    name, *args = call
    try:
        value = getattr(module, name)(*args)
    except Exception as e:  # noqa: BLE001 - shown, not handled
        return f"{type(e).__name__}: {e}"
    if isinstance(value, tuple):
        return repr(tuple(value))
    return repr(value)


def code(text):
    """``text`` as Markdown code in a table cell."""
    text = text.replace("|", "\\|")
    ticks = "``" if "`" in text else "`"
    pad = " " if ticks == "``" else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def render():
    version = f"{platform.python_implementation()} {platform.python_version()}"
    lines = [
        f"Made under {version} by `crates/urlspec-py/tests/test_readme_table.py`:",
        "",
        "| call | `urllib.parse` | `urlspec.compat` | `urlspec.rfc3986` | why |",
        "|---|---|---|---|---|",
    ]
    for call, why in CASES:
        name, *args = call
        shown = f"{name}({', '.join(repr(a) for a in args)})"
        cells = [answer(m, call) for m in (up, compat, rfc3986)]
        lines.append("| " + " | ".join([code(shown)] + [code(c) for c in cells] + [why]) + " |")
    return "\n".join(lines)


def readme_table():
    text = README.read_text(encoding="utf-8")
    start, end = text.index(START) + len(START), text.index(END)
    return text, start, end


def test_compat_answers_as_urllib_in_every_row():
    for call, _ in CASES:
        assert answer(compat, call) == answer(up, call), call
    assert any(answer(rfc3986, call) != answer(up, call) for call, _ in CASES)


def test_readme_table_is_this_code_s():
    text, start, end = readme_table()
    shown = text[start:end].strip()
    made_under = re.search(r"Made under (\S+ \S+)", shown)
    here = f"{platform.python_implementation()} {platform.python_version()}"
    if not made_under or made_under.group(1) != here:
        pytest.skip(f"the README's table was made under {made_under and made_under.group(1)}, this is {here}")
    assert shown == render(), "README.md's compat table is stale: run this file with --write"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        text, start, end = readme_table()
        README.write_text(text[:start] + "\n" + render() + "\n" + text[end:], encoding="utf-8")
    else:
        print(render())
