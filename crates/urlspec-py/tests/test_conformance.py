"""The repository's conformance vectors (testdata/) through the Python API:
the binding is checked against the same data as the Rust library."""

import pytest

from conftest import ROOT

import urlspec

tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11+")


def _load(kind):
    out = []
    for path in sorted((ROOT / "testdata" / kind).glob("*.toml")):
        data = tomllib.loads(path.read_text())
        for case in data.get("case", []):
            out.append((path.stem, data, case))
    return out


RESOLVE = [
    (spec_file, data, c)
    for spec_file, data, c in _load("resolve")
    if "expected" in c and "options" not in c
]


@pytest.mark.parametrize(
    "data,case", [(d, c) for _, d, c in RESOLVE], ids=[c["id"] for _, _, c in RESOLVE]
)
def test_resolve_vectors(data, case):
    spec = case.get("spec", data["spec"])
    base = case.get("base", data.get("base", ""))
    assert urlspec.resolve(base, case["input"], spec=spec) == case["expected"]


def test_resolve_vectors_many():
    # The same vectors through the batch call, one crossing per spec file.
    assert len(RESOLVE) > 400
    for _, data, c in RESOLVE:
        spec = c.get("spec", data["spec"])
        base = c.get("base", data.get("base", ""))
        r = urlspec.resolve_many([base], [c["input"]], spec=spec)
        assert r.urls == [c["expected"]], c["id"]


PARSE = _load("parse")
FIELDS = ("scheme", "net_loc", "path", "params", "query", "fragment", "user", "port")


@pytest.mark.parametrize("case", [c for _, _, c in PARSE], ids=[c["id"] for _, _, c in PARSE])
def test_parse_vectors(case):
    groups = {
        "seed1808": ["draft04", "rfc1808", "draft96", "draft96dec"],
        "all": list(urlspec.SPECS[:7]),
    }
    specs = [s for g in case["specs"] for s in groups.get(g, [g])]
    for spec in specs:
        u = urlspec.parse(case["input"], spec=spec)
        for f in FIELDS:
            if f in case:
                assert getattr(u, f) == case[f], (spec, f)
        if "valid" in case:
            assert u.is_valid() == case["valid"], spec
        assert str(u) == case["input"]
