#!/usr/bin/env python3
"""The Python side of the CLI batch benchmark: `urlspec resolve --pairs`
done with `urllib.parse.urljoin`, one BASE<TAB>REFERENCE line of standard
input at a time, the result of each on standard output."""

import sys
from urllib.parse import urljoin


def main() -> None:
    out = []
    for line in sys.stdin.buffer:
        line = line.rstrip(b"\r\n").decode("utf-8", "surrogateescape")
        base, tab, reference = line.partition("\t")
        out.append(urljoin(base, reference) if tab else "error")
    sys.stdout.write("\n".join(out))
    sys.stdout.write("\n")


main()
