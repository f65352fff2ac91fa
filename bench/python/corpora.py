"""The corpora the Python benchmarks read: where they are, and loading them."""

from __future__ import annotations

import pathlib

#: ``shared/data/urls`` beside the repository, the default ``--corpora``.
DEFAULT = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "urls"


def load(directory):
    """(pairs of relative-pairs.tsv as (base, reference), URLs of kasztp.txt)."""
    d = pathlib.Path(directory)
    pairs = []
    for line in open(d / "relative-pairs.tsv", encoding="utf-8"):
        base, sep, ref = line.rstrip("\n").partition("\t")
        if sep:
            pairs.append((base, ref))
    urls = [l.rstrip("\n") for l in open(d / "kasztp.txt", encoding="utf-8") if l.strip()]
    return pairs, urls
