#!/usr/bin/env python3
"""Python's urllib.parse as an oracle for the urlspec differential test.

Run by bench/tests/differential (one process for every input, never one per
input):

    python3 urllib_oracle.py INPUT_FILE

INPUT_FILE holds one request per line, fields separated by a tab, each field
escaped with backslash sequences (\\\\, \\t, \\n, \\r) so that a line holds no
raw tab or line break of its own:

    join<TAB>BASE<TAB>REFERENCE    ->  {"ok": urljoin(BASE, REFERENCE)}
    split<TAB>URL                  ->  {"ok": [scheme, netloc, path, query, fragment]}

For each request one JSON object is written to stdout, on its own line and in
request order; {"err": "ValueError: ..."} when urllib raises. The first line
of output is {"version": sys.version} so that the report can name the
interpreter.
"""

import json
import sys
from urllib.parse import urljoin, urlsplit

_ESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


def unescape(field):
    """Undoes the backslash escaping of one field."""
    if "\\" not in field:
        return field
    out = []
    chars = iter(field)
    for c in chars:
        if c == "\\":
            nxt = next(chars, "")
            out.append(_ESCAPES.get(nxt, nxt))
        else:
            out.append(c)
    return "".join(out)


def answer(op, fields):
    """The result of one request, as a JSON-ready dict."""
    try:
        if op == "join":
            return {"ok": urljoin(fields[0], fields[1])}
        if op == "split":
            s = urlsplit(fields[0])
            return {"ok": [s.scheme, s.netloc, s.path, s.query, s.fragment]}
        return {"err": "unknown op " + op}
    except Exception as e:  # noqa: BLE001 - every refusal is a result
        return {"err": type(e).__name__ + ": " + str(e)}


def main():
    """Answers every request of the input file, in order."""
    out = sys.stdout
    out.write(json.dumps({"version": sys.version.split()[0]}) + "\n")
    with open(sys.argv[1], encoding="utf-8", newline="\n") as f:
        for line in f:
            line = line[:-1] if line.endswith("\n") else line
            op, *fields = line.split("\t")
            out.write(json.dumps(answer(op, [unescape(x) for x in fields])))
            out.write("\n")


if __name__ == "__main__":
    main()
