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
    with pytest.raises(urlspec.Error, match="too short"):
        _native.parse_many_arrow_views((None, b"\0" * 4, b"", 0, 3, False))
    with pytest.raises(urlspec.Error, match="out of range"):
        offsets = (0).to_bytes(4, "little") + (9).to_bytes(4, "little")
        _native.parse_many_arrow_views((None, offsets, b"abc", 0, 1, False))
    with pytest.raises(urlspec.Error, match="not UTF-8"):
        offsets = (0).to_bytes(4, "little") + (2).to_bytes(4, "little")
        _native.parse_many_arrow_views((None, offsets, b"\xff\xfe", 0, 1, False))
    with pytest.raises(TypeError, match="string array"):
        urlspec.parse_many(pa.array([1, 2]))


class _Str(str):
    """A str subclass: read through the C API's general path."""


def test_resolve_many_list_fast_paths():
    # non-ASCII in and out (decoded, not copied as ASCII), str subclasses
    # as bases and references, one base or one per reference
    refs = ["é/ü?ä#ö", _Str("g"), "../x", _Str("h/é"), None, ""]
    for bases in ("http://a/b/c", _Str("http://a/b/c"), ["http://a/b/c"] * 6, [_Str("http://a/b/c")] * 6):
        r = urlspec.resolve_many(bases, refs, spec="rfc3986")
        want = [None if x is None else urlspec.resolve("http://a/b/c", x, spec="rfc3986") for x in refs]
        assert r.urls == want
        assert r.errors == [None] * 6
        assert all(isinstance(u, str) for u in r.urls if u is not None)
    r = urlspec.resolve_many("http://ä/b/", ["c", "d"], spec="rfc3986")
    assert r.urls == ["http://ä/b/c", "http://ä/b/d"]
    # a non-ASCII base under WHATWG gives an ASCII result
    r = urlspec.resolve_many("http://ä.example/", ["c"], spec="whatwg")
    assert r.urls == [urlspec.resolve("http://ä.example/", "c", spec="whatwg")]


def test_resolve_many_list_edges():
    assert urlspec.resolve_many("http://a/", []) == ([], [])
    assert urlspec.resolve_many([], []) == ([], [])
    with pytest.raises(urlspec.Error, match="0 bases for 1"):
        urlspec.resolve_many([], ["x"])
    with pytest.raises(urlspec.Error, match="3 bases for 2"):
        urlspec.resolve_many(["a:", "b:", "c:"], ["x", "y"])
    with pytest.raises(TypeError, match=r"bases\[1\] is int"):
        urlspec.resolve_many(["http://a/", 5], ["x", "y"])
    with pytest.raises(TypeError, match=r"refs\[0\] is bytes"):
        urlspec.resolve_many("http://a/", [b"x"])
    # lone surrogates, in a list of bases: an error entry for that row only
    r = urlspec.resolve_many(["http://a/", "http://\udc80/", "http://b/"], ["x", "y", "\ud800"], spec="rfc3986")
    assert r.urls == ["http://a/x", None, None]
    assert r.errors[0] is None
    assert "bases[1]" in r.errors[1] and "not valid Unicode" in r.errors[1]
    assert "refs[2]" in r.errors[2] and "not valid Unicode" in r.errors[2]
    # an error from resolution itself (no base scheme) with non-ASCII text
    r = urlspec.resolve_many("é/rel", ["x"], spec="rfc3986")
    assert r.urls == [None] and r.errors[0]
    # results that are the given strings are those objects (also subclasses)
    ref = _Str("http://x/é")
    r = urlspec.resolve_many("http://a/", [ref], spec="rfc3986")
    assert r.urls[0] is ref


def test_parse_many_list_fast_paths():
    urls = ["http://é/ü;p?q#f", _Str("rel/é"), None, "", "http://a/b"]
    out = urlspec.parse_many(urls, spec="rfc3986")
    assert out[2] is None
    for u, p in zip(urls, out):
        if u is None:
            continue
        q = urlspec.parse(u, spec="rfc3986")
        assert p == q and str(p) is u
        for f in ("scheme", "net_loc", "path", "params", "query", "fragment"):
            assert getattr(p, f) == getattr(q, f)
    assert urlspec.parse_many([]) == []
    with pytest.raises(urlspec.Error, match=r"urls\[1\] is not valid Unicode"):
        urlspec.parse_many(["http://a/", "\udc80"])
    with pytest.raises(TypeError, match=r"urls\[0\] is int"):
        urlspec.parse_many([1])


def test_arrow_many_values_and_offsets():
    """Columns over many values: i32 offsets, nulls in the middle, the
    validity bitmap set only where needed."""
    pa = _pa()
    vals = [None if i % 7 == 3 else f"http://h{i}/p/{i}?q={i}#é{i}" for i in range(5000)]
    s = urlspec.parse_many(pa.array(vals), spec="rfc3986")
    s.validate(full=True)
    rows = s.to_pylist()
    for v, row in zip(vals, rows):
        if v is None:
            assert row is None
        else:
            p = urlspec.parse(v, spec="rfc3986")
            assert (row["net_loc"], row["path"], row["query"], row["fragment"]) == (p.net_loc, p.path, p.query, p.fragment)
            assert row["params"] is None
    r = urlspec.resolve_many("http://a/b/", pa.array(vals), spec="rfc3986")
    r.urls.validate(full=True)
    assert r.urls.to_pylist() == urlspec.resolve_many("http://a/b/", vals, spec="rfc3986").urls


def test_resolve_many_one_base_every_spec():
    refs = ["g", "../h", None, "#f", "", "//x/y", "?q", "é"]
    for base in ("http://a/b/c/d;p?q", _Str("http://a/b/c/d;p?q"), ""):
        for spec in urlspec.SPECS:
            r = urlspec.resolve_many(base, refs, spec=spec)
            for ref, url, err in zip(refs, r.urls, r.errors):
                if ref is None:
                    assert url is None and err is None
                    continue
                try:
                    want = urlspec.resolve(base, ref, spec=spec)
                except urlspec.ResolveError:
                    assert url is None and err, (spec, ref)
                else:
                    assert url == want and err is None, (spec, base, ref)


def _parse_rounds():
    for round in range(3):
        urls = [f"http://h{round}/{i}?q={i}#f" if i % 3 else f"rel/{i};p" for i in range(70_000)]
        out = urlspec.parse_many(urls, spec="rfc1808")
        singles = [urlspec.parse(u) for u in urls[:100]]
        for u, p, s in zip(urls, out, singles):
            assert p == s and str(p) is u
            assert (p.scheme, p.net_loc, p.path, p.params, p.query, p.fragment) == (
                s.scheme, s.net_loc, s.path, s.params, s.query, s.fragment)
        assert (out[-1].path, out[-1].params) == ("rel/69999", "p")
        assert (out[-2].net_loc, out[-2].path, out[-2].query) == (f"h{round}", "/69998", "q=69998")


def test_parse_many_reuses_objects_correctly():
    """URL objects are kept when freed and reused (src/urlobj.rs): reused
    ones hold their new URL, the type's reference count stays balanced,
    and more objects than the free list keeps are freed."""
    import sys

    before = sys.getrefcount(urlspec.URL)
    _parse_rounds()
    after = sys.getrefcount(urlspec.URL)
    assert after == before


_PARTS = ("scheme", "net_loc", "path", "params", "query", "fragment")


def _want_rows(items, spec):
    rows = []
    for u in items:
        if u is None:
            rows.append(None)
            continue
        p = urlspec.parse(u, spec=spec)
        rows.append({**{f: getattr(p, f) for f in _PARTS}, "valid": p.is_valid()})
    return rows


def test_parse_many_arrow_string_view_columns():
    """The component fields are string arrays; string_view=True gives
    string_view arrays over the input's data buffer (no copy). Both hold
    the list form's answers for sliced, chunked, null, large and non-ASCII
    input, values of up to 12 bytes (inline) and longer, values ending at
    the end of the data buffer, under every spec."""
    pa = _pa()
    values = [
        "http://a/b?c#d",
        None,
        "//h/p",
        "",
        "é/ü;x",
        "http://host.example/twelve-chars?q=123456789012#1234567890123",
        "a:b;123456789012?1234567890123#x",
        "mailto:x@y",
        "g;é?ü#ä",
        "http://ab/",
    ] * 7 + ["http://h/ends-here-with-a-long-path", "x?q"]
    base = pa.array(values)
    cases = [
        base,
        base.slice(3),
        base.slice(9, 13),
        base.slice(5, 0),
        base.slice(len(values) - 1),
        base.cast(pa.large_string()).slice(7, 20),
        base.cast(pa.string_view()),
        pa.chunked_array([base[:10], base[10:17], base[17:]]),
        pa.chunked_array([base.slice(2, 6)]),
        pa.chunked_array([], type=pa.string()),
        pa.array([], type=pa.string()),
        pa.array([None, None], type=pa.string()),
    ]
    for arr in cases:
        items = arr.to_pylist()
        for spec in urlspec.SPECS:
            want = _want_rows(items, spec)
            s = urlspec.parse_many(arr, spec=spec, string_view=True)
            s.validate(full=True)
            assert [s.type.field(f).type for f in _PARTS] == [pa.string_view()] * 6
            assert s.to_pylist() == want, (spec, items)
            c = urlspec.parse_many(arr, spec=spec)
            c.validate(full=True)
            assert [c.type.field(f).type for f in _PARTS] == [pa.string()] * 6
            assert c.to_pylist() == want, (spec, items)
            # each field column on its own: null where the URL is null
            for f in _PARTS:
                col = s.field(f).to_pylist()
                assert col == [None if r is None else r[f] for r in want]


def test_parse_many_arrow_views_point_into_input():
    pa = _pa()
    arr = pa.array(["http://example.com/a-long-path/" + str(i) for i in range(100)])
    s = urlspec.parse_many(arr, spec="rfc3986", string_view=True)
    path = s.field("path")
    # the long values are read from the input's own data buffer
    assert path.buffers()[2].address == arr.buffers()[2].address
    assert path.to_pylist() == ["/a-long-path/" + str(i) for i in range(100)]
    # no params component under RFC 3986: an all-null column
    assert s.field("params").null_count == 100
    # and they outlive the input array object
    del arr
    import gc

    gc.collect()
    assert s.field("path")[99].as_py() == "/a-long-path/99"
    s.validate(full=True)


def test_parse_many_string_view_needs_support(monkeypatch):
    pa = _pa()
    from urlspec import _batch

    monkeypatch.setattr(_batch, "_has_string_view", lambda pa: False)
    with pytest.raises(ValueError, match="pyarrow 16"):
        urlspec.parse_many(pa.array(["x"]), string_view=True)
    assert urlspec.parse_many(pa.array(["x"])).type.field("path").type == pa.string()


def test_parse_many_arrow_string_columns_copies():
    """The string columns are filled a block of URLs at a time, each value
    copied 32 bytes at once into room with slack (src/arrow.rs, Strings):
    components of every length around the copy width, empty and absent
    ones, null URLs (also at block ends), values ending at the end of the
    input's data (a short copy there), sliced arrays and more than one
    block give the list form's answers."""
    pa = _pa()
    values = []
    for k in range(0, 70):
        seg = "p" * k
        values += [
            f"http://{'h' * k}.x/{seg}?{seg}#{seg}",
            f"{seg};{seg}?{seg}",
            "",
            None,
            f"s{k}:{seg}",
            f"//é{seg}/ü{seg}",
        ]
    values += [None] * 9 + ["http://a/" + "z" * 33]
    for tail in ("", "x", "y" * 31, "y" * 32, "y" * 33, "é" * 20):
        vals = values + [tail]
        arr = pa.array(vals)
        for a in (arr, arr.slice(1), arr.slice(127, 130), arr.slice(len(vals) - 3), arr.cast(pa.large_string()).slice(5)):
            items = a.to_pylist()
            for spec in ("rfc3986", "rfc1808"):
                s = urlspec.parse_many(a, spec=spec)
                s.validate(full=True)
                assert s.to_pylist() == _want_rows(items, spec), (spec, tail)
                for f in _PARTS:
                    col = s.field(f)
                    assert col.type == pa.string()
                    assert col.to_pylist() == [None if u is None else getattr(urlspec.parse(u, spec=spec), f) for u in items]


def test_url_objects_refuse_inputs_their_offsets_cannot_hold():
    # A URL object keeps 32-bit offsets: an input of 4 GiB or more is
    # refused, not split wrong. The limit, lowered for the test, is the
    # one checked for the real size.
    from urlspec import _native

    old = _native._limit_input_for_tests(10)
    try:
        assert urlspec.parse("http://a/").path == "/"  # 9 bytes
        assert urlspec.parse("http://a/b").path == "/b"  # 10 bytes
        with pytest.raises(urlspec.Error, match="url is 11 bytes long: a URL object holds at most 10"):
            urlspec.parse("http://a/bc")
        urls = urlspec.parse_many(["http://a/b", None, "http://a/b"])
        assert [u and u.path for u in urls] == ["/b", None, "/b"]
        with pytest.raises(urlspec.Error, match=r"urls\[1\] is 12 bytes long"):
            urlspec.parse_many(["http://a/b", "http://a/bcd", "x"])
        # The Arrow form keeps 64-bit offsets: no limit.
        pa = pytest.importorskip("pyarrow")
        t = urlspec.parse_many(pa.array(["http://a/bcdef"]))
        assert t.field("path").to_pylist() == ["/bcdef"]
    finally:
        # Never raised past the 32-bit bound, whatever is asked.
        assert _native._limit_input_for_tests(1 << 40) == 10
        _native._limit_input_for_tests(old)
    assert _native._limit_input_for_tests(old) == old == 2**32 - 2


def test_resolve_many_without_a_base():
    """``bases=None`` is no base, as an empty base string: an absolute
    reference is itself, a relative one an error under RFC 3986 and taken
    as absolute under RFC 1808 (step 1)."""
    refs = ["http://x/y", "g", "//h/p", None]
    r = urlspec.resolve_many(None, refs, spec="rfc3986")
    assert r.urls == ["http://x/y", None, None, None]
    assert r.errors[0] is None and r.errors[1] and r.errors[2] and r.errors[3] is None
    assert r == urlspec.resolve_many("", refs, spec="rfc3986")
    r = urlspec.resolve_many(None, refs, spec="rfc1808")
    assert r.urls == ["http://x/y", "g", "//h/p", None]
    assert r.errors == [None] * 4


def test_resolve_many_without_a_base_over_arrow():
    pa = pytest.importorskip("pyarrow")
    r = urlspec.resolve_many(None, pa.array(["http://x/y", "g", None]), spec="rfc3986")
    assert r.urls.to_pylist() == ["http://x/y", None, None]
    assert r.errors.to_pylist()[1]


@pytest.mark.parametrize("text", ["http://a/b", b"http://a/b"])
def test_one_string_is_not_a_sequence(text):
    with pytest.raises(TypeError, match="sequence"):
        urlspec.parse_many(text)
    with pytest.raises(TypeError, match="sequence"):
        urlspec.resolve_many("http://a/", text)
    # One base for all is a str, as before.
    assert urlspec.resolve_many("http://a/", ["b"]).urls == ["http://a/b"]
