import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
# The shared corpora live beside the repository (never copied into it);
# URLSPEC_CORPORA points elsewhere.
CORPORA = pathlib.Path(
    os.environ.get("URLSPEC_CORPORA", ROOT.parent / "shared" / "data" / "urls")
)
