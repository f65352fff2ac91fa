import pytest

import urlspec


def test_resolve_many_lists():
    r = urlspec.resolve_many("http://a/b/c/d;p?q", ["g", None, "../../../g", ""], spec="rfc3986")
    assert r.urls == ["http://a/b/c/g", None, "http://a/g", "http://a/b/c/d;p?q"]
    assert r.errors == [None, None, None, None]
    r = urlspec.resolve_many(["http://a/", "", "http://b/x/"], ["g", "h", "y"], spec="rfc3986")
    assert r.urls == ["http://a/g", None, "http://b/x/y"]
    assert r.errors[1] and r.errors[0] is None
    with pytest.raises(urlspec.Error, match="2 bases for 3"):
        urlspec.resolve_many(["http://a/", "http://b/"], ["x", "y", "z"])
    with pytest.raises(TypeError, match=r"refs\[1\]"):
        urlspec.resolve_many("http://a/", ["x", 3])
    # a tuple or generator works too
    assert urlspec.resolve_many("http://a/", ("x",)).urls == ["http://a/x"]


def test_parse_many_lists():
    out = urlspec.parse_many(["http://a/b;p?q#f", None])
    assert out[1] is None
    assert (out[0].params, out[0].fragment) == ("p", "f")


def _pa():
    try:
        import pyarrow as pa
    except ImportError:
        print("pyarrow is not installed: the Arrow batch tests are skipped")
        pytest.skip("pyarrow is not installed")
    return pa


def test_resolve_many_arrow():
    pa = _pa()
    refs = pa.array(["g", None, "../../../g", "é?ü"] * 3)
    for arr in [refs, refs.slice(1), refs.cast(pa.large_string()), pa.chunked_array([refs[:5], refs[5:]])]:
        r = urlspec.resolve_many("http://a/b/c/d;p?q", arr, spec="rfc3986")
        want = urlspec.resolve_many("http://a/b/c/d;p?q", arr.to_pylist(), spec="rfc3986")
        assert isinstance(r.urls, pa.Array)
        assert r.urls.to_pylist() == want.urls
        assert r.errors.to_pylist() == want.errors
    bases = pa.array(["http://a/", "", None])
    r = urlspec.resolve_many(bases, pa.array(["x", "y", "z"]), spec="rfc3986")
    assert r.urls.to_pylist() == ["http://a/x", None, None]
    assert r.errors.to_pylist()[0] is None and r.errors.to_pylist()[1]


def test_parse_many_arrow():
    pa = _pa()
    urls = ["http://u@h/p;x?q", None, "rel/p", "http://a/{x}"]
    s = urlspec.parse_many(pa.array(urls))
    assert isinstance(s, pa.StructArray)
    rows = s.to_pylist()
    assert rows[1] is None
    for u, row in zip(urls, rows):
        if u is None:
            continue
        p = urlspec.parse(u)
        for f in ("scheme", "net_loc", "path", "params", "query", "fragment"):
            assert row[f] == getattr(p, f), (u, f)
        assert row["valid"] == p.is_valid()
