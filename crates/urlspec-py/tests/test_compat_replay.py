"""Every call that real test suites made to urllib.parse (recorded in
``urllib-calls/``: w3lib, yarl, werkzeug, requests), made again of
urlspec.compat and of urllib: the same answer and answer type, or the
same exception with the same message."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import urllib_calls  # noqa: E402

from urlspec import compat  # noqa: E402

SUITES = urllib_calls.suites()


def outcome(f, args, kwargs):
    try:
        value = f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - every exception is compared
        return ("raises", type(e), str(e))
    return ("returns", type(value), value)


def test_the_recordings_are_there():
    assert {name.split("-")[0] for name in SUITES} >= {"w3lib", "yarl", "werkzeug", "requests"}


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_replay(suite):
    calls, _ = urllib_calls.load(SUITES[suite])
    assert calls
    bad = []
    for name, args, kwargs in calls:
        theirs = outcome(compat._URLLIB[name], args, kwargs)
        ours = outcome(getattr(compat, name), args, kwargs)
        if ours != theirs:
            bad.append(f"{name}(*{args!r}, **{kwargs!r}):\n  compat {ours!r}\n  urllib {theirs!r}")
            if len(bad) >= 5:
                break
    assert not bad, f"calls of {suite} that differ (the first ones):\n" + "\n".join(bad)
