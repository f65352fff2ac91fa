"""CPython's own tests of urllib.parse, run against urlspec.compat.

The running interpreter's ``test.test_urlparse`` (every test but
``test_all``, which checks each function's ``__module__``) and the
``QuotingTests``, ``UnquotingTests`` and ``urlencode_Tests`` of
``test.test_urllib`` are imported from the interpreter (never copied) and
run with every function ``compat`` implements swapped into
``urllib.parse`` at module level, so that urllib's own internal calls
(``urlparse`` calling ``urlsplit``, ``parse_qsl`` calling ``unquote``,
``SplitResult.geturl`` calling ``urlunsplit``) reach compat too.

Debian's and other distributions' Pythons may lack the ``test`` package:
then these tests fail when ``CI`` or ``URLSPEC_CPYTHON_TESTS_REQUIRED`` is
set, and are skipped otherwise. ``tests/all_pythons.py`` runs this file
under every CPython 3.10–3.13 that pyenv provides.
"""

from __future__ import annotations

import importlib
import os
import unittest
import urllib.parse

import pytest

from urlspec import compat

REQUIRED = bool(os.environ.get("CI") or os.environ.get("URLSPEC_CPYTHON_TESTS_REQUIRED"))
EXCLUDED = {"test_all"}
SUITES = {
    "test.test_urlparse": None,
    "test.test_urllib": ("QuotingTests", "UnquotingTests", "urlencode_Tests"),
}


def _load(module_name, classes):
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        if REQUIRED:
            raise
        pytest.skip(f"{module_name} is not installed with this Python ({e})", allow_module_level=True)
    loader = unittest.defaultTestLoader
    if classes is None:
        suite = loader.loadTestsFromModule(module)
    else:
        suite = unittest.TestSuite(loader.loadTestsFromTestCase(getattr(module, c)) for c in classes)
    return list(_flatten(suite))


def _flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from _flatten(t)
        else:
            yield t


def _cases():
    for name, classes in SUITES.items():
        for case in _load(name, classes):
            if case._testMethodName not in EXCLUDED:
                yield pytest.param(case, id=f"{name}:{type(case).__name__}.{case._testMethodName}")


@pytest.fixture
def swapped(monkeypatch):
    """urllib.parse with compat's functions in place of its own."""
    for name in compat.NATIVE:
        monkeypatch.setattr(urllib.parse, name, getattr(compat, name))
    yield


@pytest.mark.parametrize("case", list(_cases()))
def test_cpython(case, swapped):
    result = unittest.TestResult()
    case.run(result)
    problems = result.errors + result.failures + result.unexpectedSuccesses
    assert not problems, "\n".join(p if isinstance(p, str) else p[1] for p in problems)
    assert result.testsRun == 1
    assert not result.skipped, result.skipped


def test_every_name_of_urllib_parse():
    """``import urlspec.compat as parse`` serves every name of
    ``urllib.parse.__all__``: compat's own or urllib's."""
    assert sorted(compat.__all__) == sorted(urllib.parse.__all__)
    for name in urllib.parse.__all__:
        ours = getattr(compat, name)
        if name in compat.NATIVE:
            assert ours is not getattr(urllib.parse, name)
        else:
            assert ours is getattr(urllib.parse, name)
    assert compat.uses_netloc is urllib.parse.uses_netloc
