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


def test_resolve_many_reuses_equal_strings():
    base = "http://a/b/c"
    r = urlspec.resolve_many(base, ["", "http://x/y", "d"], spec="rfc3986")
    assert r.urls == ["http://a/b/c", "http://x/y", "http://a/b/d"]
    assert r.urls[0] is base  # the result is the base as given


def test_resolve_many_list_bad_unicode():
    r = urlspec.resolve_many("http://a/", ["x", "\udc80"], spec="rfc3986")
    assert r.urls == ["http://a/x", None]
    assert r.errors[0] is None and "not valid Unicode" in r.errors[1]
    r = urlspec.resolve_many("\udc80", ["x", "y"], spec="rfc3986")
    assert r.urls == [None, None] and all("bases" in e for e in r.errors)


def test_resolve_many_other_specs_reuse_base():
    refs = ["g", "../h", None, "#f"]
    for spec in urlspec.SPECS:
        r = urlspec.resolve_many(["http://a/b/c/d"] * 2 + ["http://b/x/", "http://b/x/"], refs, spec=spec)
        for base, ref, url in zip(["http://a/b/c/d"] * 2 + ["http://b/x/"] * 2, refs, r.urls):
            if ref is None:
                assert url is None
            else:
                assert url == urlspec.resolve(base, ref, spec=spec), (spec, ref)


def test_parse_many_keeps_input_string():
    u = "rel/path"
    (p,) = urlspec.parse_many([u])
    assert p.path is u and str(p) is u
    assert p == urlspec.parse(u) and hash(p) == hash(urlspec.parse(u))


def test_arrow_inputs_read_in_place():
    """Sliced arrays (a non-zero offset, also into the validity bitmap),
    nulls, chunked arrays of several, one and no chunks, large strings and
    empty arrays give the answers of the list form."""
    pa = _pa()
    values = ["http://a/b?c#d", None, "//h/p", "", "é/ü;x", None, "mailto:x@y", "g"] * 5
    base = pa.array(values)
    cases = [
        base,
        base.slice(3),
        base.slice(9, 13),
        base.slice(5, 0),
        base.cast(pa.large_string()).slice(7, 20),
        pa.chunked_array([base[:10], base[10:17], base[17:]]),
        pa.chunked_array([base.slice(2, 6)]),
        pa.chunked_array([], type=pa.string()),
        pa.array([], type=pa.string()),
        pa.array([], type=pa.large_string()),
        pa.array([None, None], type=pa.string()),
    ]
    for arr in cases:
        items = arr.to_pylist()
        s = urlspec.parse_many(arr, spec="rfc3986")
        assert len(s) == len(items)
        for u, row in zip(items, s.to_pylist()):
            if u is None:
                assert row is None
                continue
            p = urlspec.parse(u, spec="rfc3986")
            assert row == {**{f: getattr(p, f) for f in ("scheme", "net_loc", "path", "params", "query", "fragment")}, "valid": p.is_valid()}
        r = urlspec.resolve_many("http://a/b/c", arr, spec="rfc3986")
        want = urlspec.resolve_many("http://a/b/c", items, spec="rfc3986")
        assert r.urls.to_pylist() == want.urls and r.errors.to_pylist() == want.errors
        # an array of bases, one per reference
        r = urlspec.resolve_many(arr, arr, spec="rfc3986")
        want = urlspec.resolve_many(items, items, spec="rfc3986")
        assert r.urls.to_pylist() == want.urls and r.errors.to_pylist() == want.errors


def test_arrow_results_outlive_inputs():
    import gc

    pa = _pa()
    arr = pa.array(["g%d" % i for i in range(1000)])
    r = urlspec.resolve_many("http://a/b/", arr, spec="rfc3986")
    s = urlspec.parse_many(arr)
    del arr
    gc.collect()
    assert r.urls[999].as_py() == "http://a/b/g999"
    assert s[999].as_py()["path"] == "g999"
    r.urls.validate(full=True)
    s.validate(full=True)


def test_arrow_buffers_checked():
    pa = _pa()
    from urlspec import _native

    with pytest.raises(urlspec.Error, match="too short"):
        _native.parse_many_arrow((None, b"\0" * 4, b"", 0, 3, False))
    with pytest.raises(urlspec.Error, match="out of range"):
        offsets = (0).to_bytes(4, "little") + (9).to_bytes(4, "little")
        _native.parse_many_arrow((None, offsets, b"abc", 0, 1, False))
    with pytest.raises(TypeError):
        _native.parse_many_arrow((None, "not a buffer", b"", 0, 0, False))
    with pytest.raises(TypeError, match="string array"):
        urlspec.parse_many(pa.array([1, 2]))
