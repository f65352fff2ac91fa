import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The shared corpora live beside the repository (never copied into it);
# URLSPEC_CORPORA points elsewhere.
CORPORA = pathlib.Path(
    os.environ.get("URLSPEC_CORPORA", ROOT.parent / "shared" / "data" / "urls")
)


def corpus_lines(name):
    """The non-empty lines of corpus file `name` (bytes that are not UTF-8
    kept as lone surrogates)."""
    with open(CORPORA / name, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                yield line
