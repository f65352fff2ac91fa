"""Calls that real test suites make to ``urllib.parse``, recorded and
replayed (``urllib-calls/README.md`` names the suites).

A recording is a gzipped JSON-lines file, one call a line, in the order the
suite made them: ``[name, [args...], {kwargs...}]``. JSON keeps ``str``
(lone surrogates escaped), ``int``, ``float``, ``bool``, ``None`` and
lists; the other values are tagged one-key objects: ``{"bytes": latin1}``,
``{"bytearray": latin1}``, ``{"tuple": [...]}``, and urllib's result types by
name (``{"SplitResult": [...]}``, ``{"ParseResultBytes": [...]}``, ...). A
call with an argument of any other type is written ``[name, null, type]``:
counted, not replayed.

Recording (from a checkout of the suite, in an environment with it and its
test dependencies installed)::

    python urllib_calls.py record OUT.jsonl.gz --roots DIR [DIR ...] -- pytest ARGS

runs the command with every function of ``urlspec.compat.NATIVE`` in
``urllib.parse`` wrapped (before anything imports them, from a
``sitecustomize`` module put first on ``PYTHONPATH``): a call is written
when the code that makes it is in one of the ``--roots`` (the project's
package and its tests), so urllib's calls to itself and those of other
libraries (pytest, a test server) are not. Each process the command starts
writes a file of its own; they are joined, the first process first.
"""

from __future__ import annotations

import gzip
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import urllib.parse as up

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE / "urllib-calls"

#: The functions recorded: those urlspec.compat implements.
NAMES = (
    "urlsplit", "urlparse", "urljoin", "urlunsplit", "urlunparse", "urldefrag", "quote",
    "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes",
)

_RESULTS = {
    t.__name__: t
    for t in (up.SplitResult, up.ParseResult, up.DefragResult, up.SplitResultBytes,
              up.ParseResultBytes, up.DefragResultBytes)
}


class Unrecordable(Exception):
    pass


def encode(v):
    """``v`` as JSON data (module docstring)."""
    t = type(v)
    if v is None or t in (bool, int, float, str):
        return v
    if t is bytes:
        return {"bytes": v.decode("latin-1")}
    if t is bytearray:
        return {"bytearray": v.decode("latin-1")}
    if t is list:
        return [encode(x) for x in v]
    if t is tuple:
        return {"tuple": [encode(x) for x in v]}
    if t.__name__ in _RESULTS and t is _RESULTS[t.__name__]:
        return {t.__name__: [encode(x) for x in v]}
    raise Unrecordable(f"{t.__module__}.{t.__qualname__}")


def decode(v):
    """The value that ``encode`` wrote as ``v``."""
    if type(v) is list:
        return [decode(x) for x in v]
    if type(v) is not dict:
        return v
    ((tag, inner),) = v.items()
    if tag == "bytes":
        return inner.encode("latin-1")
    if tag == "bytearray":
        return bytearray(inner.encode("latin-1"))
    if tag == "tuple":
        return tuple(decode(x) for x in inner)
    return _RESULTS[tag](*(decode(x) for x in inner))


def suites():
    """The recorded suites: name (``project-version``) to file."""
    return {p.name.removesuffix(".jsonl.gz"): p for p in sorted(DATA.glob("*.jsonl.gz"))}


def load(path):
    """``(calls, skipped)``: the calls of a recording as ``(name, args,
    kwargs)`` and how many it holds that cannot be replayed."""
    calls, skipped = [], 0
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            name, args, kwargs = json.loads(line)
            if args is None:
                skipped += 1
                continue
            calls.append((name, tuple(decode(a) for a in args), {k: decode(x) for k, x in kwargs.items()}))
    return calls, skipped


# The recorder, run inside the suite's processes.

_SITECUSTOMIZE = """\
import sys
sys.path.insert(0, {here!r})
import urllib_calls
urllib_calls.install_recorder()
del sys.path[0]
"""


def install_recorder():
    """Wraps urllib.parse's functions (``NAMES``) with ones that write each
    call made from code under ``$URLLIB_CALLS_ROOTS`` to
    ``$URLLIB_CALLS_OUT.<pid>``. Lines are kept in memory and written in
    blocks by the process that made them (a forked child starts its own
    file), and at exit."""
    import atexit
    import functools

    out = os.environ["URLLIB_CALLS_OUT"]
    roots = tuple(os.path.realpath(r) + os.sep for r in os.environ["URLLIB_CALLS_ROOTS"].split(os.pathsep))
    state = {"pid": None, "fd": None, "lines": [], "depth": 0}
    inside = {}

    def from_roots(filename):
        found = inside.get(filename)
        if found is None:
            found = inside[filename] = os.path.realpath(filename).startswith(roots)
        return found

    def flush():
        if state["pid"] == os.getpid() and state["lines"]:
            os.write(state["fd"], "".join(state["lines"]).encode("ascii"))
            state["lines"].clear()

    def write(line):
        if state["pid"] != os.getpid():
            # A new process (or a forked child): a file of its own, and
            # none of the parent's unwritten lines.
            state["pid"] = os.getpid()
            state["lines"] = []
            state["fd"] = os.open(f"{out}.{os.getpid()}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        state["lines"].append(line)
        if len(state["lines"]) >= 4096:
            flush()

    def wrap(name, f):
        @functools.wraps(f)
        def recorded(*args, **kwargs):
            if state["depth"] == 0 and from_roots(sys._getframe(1).f_code.co_filename):
                try:
                    data = [name, [encode(a) for a in args], {k: encode(v) for k, v in kwargs.items()}]
                except Unrecordable as e:
                    data = [name, None, str(e)]
                write(json.dumps(data, ensure_ascii=True, separators=(",", ":")) + "\n")
            state["depth"] += 1
            try:
                return f(*args, **kwargs)
            finally:
                state["depth"] -= 1

        for attr in ("cache_info", "cache_clear", "cache_parameters"):
            if hasattr(f, attr):
                setattr(recorded, attr, getattr(f, attr))
        return recorded

    for name in NAMES:
        setattr(up, name, wrap(name, getattr(up, name)))
    atexit.register(flush)


def record(out, roots, command):
    """Runs ``command`` with the recorder installed; joins the files of
    its processes into ``out``. Returns the command's exit status."""
    out = pathlib.Path(out).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        hook = pathlib.Path(tmp, "hook")
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(_SITECUSTOMIZE.format(here=str(HERE)))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(hook), env.get("PYTHONPATH")]))
        env["URLLIB_CALLS_OUT"] = str(pathlib.Path(tmp, "calls"))
        env["URLLIB_CALLS_ROOTS"] = os.pathsep.join(str(pathlib.Path(r).resolve()) for r in roots)
        status = subprocess.run(command, env=env, check=False).returncode
        parts = sorted(pathlib.Path(tmp).glob("calls.*"), key=lambda p: p.stat().st_ctime_ns)
        with gzip.GzipFile(out, "wb", mtime=0) as g:
            for p in parts:
                g.write(p.read_bytes())
    return status


def main(argv):
    if len(argv) < 4 or argv[0] != "record" or "--" not in argv or argv[2] != "--roots":
        sys.exit(__doc__)
    split = argv.index("--")
    status = record(argv[1], argv[3:split], argv[split + 1:])
    calls, skipped = load(argv[1])
    counts = {}
    for name, _, _ in calls:
        counts[name] = counts.get(name, 0) + 1
    print(f"{argv[1]}: {len(calls)} calls ({skipped} not replayable), exit status {status}")
    for name in NAMES:
        if name in counts:
            print(f"  {name}: {counts[name]}")


if __name__ == "__main__":
    main(sys.argv[1:])
