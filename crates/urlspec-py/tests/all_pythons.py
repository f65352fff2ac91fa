"""Runs compat's tests under every CPython 3.10-3.13 on this machine.

    python crates/urlspec-py/tests/all_pythons.py [--only 3.12] [--venvs DIR]

For each interpreter pyenv provides (``pyenv root``/versions/3.10* to
3.13*) and the system's ``/usr/bin/python3``: a venv under ``--venvs``
(default ``target/pythons``), the package built and installed into it
(``pip install ./crates/urlspec-py``: a build per Python version, three
minutes or more each on two cores), then ``tests/test_cpython_suites.py``
(CPython's own tests of urllib.parse, imported from that interpreter) and
``tests/test_compat.py``, ``test_compat_functions.py`` and
``test_compat_replay.py`` (compat against that interpreter's urllib). An
interpreter without the ``test`` package (Debian's ``/usr/bin/python3``
splits it out) is said to lack it: its CPython suites are not run, its
differential tests are. Prints one line per interpreter and exits non-zero
if any run failed. The summary gives, for each interpreter, CPython's
tests passed by module, pytest's counts and ``compat.FALLBACK`` (the
per-interpreter table of crates/urlspec-py/README.md), read from a JUnit XML report written
into the venv.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "crates" / "urlspec-py"
MINORS = ("3.10", "3.11", "3.12", "3.13")


def interpreters():
    """(name, path) of each candidate interpreter."""
    found = []
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        versions = pathlib.Path(root) / "versions"
        if versions.is_dir():
            for v in sorted(versions.iterdir(), key=lambda p: [int(x) for x in p.name.split(".") if x.isdigit()]):
                if v.name.rsplit(".", 1)[0] in MINORS and (v / "bin" / "python").exists():
                    found.append((f"pyenv {v.name}", v / "bin" / "python"))
    else:
        print("pyenv is not installed: only the system's Python is tried")
    system = pathlib.Path("/usr/bin/python3")
    if system.exists():
        found.append(("system /usr/bin/python3", system))
    return found


def run(cmd, **kw):
    print("  $", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, **kw)


def counts(report):
    """Pytest's counts from a JUnit XML report, and CPython's tests passed
    by module (``test_cpython[test.test_urlparse:...]``)."""
    tally = {"passed": 0, "failed": 0, "skipped": 0}
    cpython = {}
    for case in ET.parse(report).iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
            elif child.tag == "skipped":
                outcome = "skipped"
        tally[outcome] += 1
        name = case.get("name", "")
        if name.startswith("test_cpython[") and outcome == "passed":
            module = name[len("test_cpython["):].split(":", 1)[0]
            cpython[module] = cpython.get(module, 0) + 1
    return tally, cpython


def summary(tally, cpython, fallback):
    if cpython:
        run = f"{sum(cpython.values())} passed (" + ", ".join(f"{n} of {m}" for m, n in sorted(cpython.items())) + ")"
    else:
        run = "none run"
    t = tally
    return f"CPython tests: {run}; pytest: {t['passed']} passed, {t['failed']} failed, {t['skipped']} skipped; FALLBACK {fallback}"


def has(python, module):
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="only interpreters whose name contains this")
    ap.add_argument("--venvs", default=str(ROOT / "target" / "pythons"))
    args = ap.parse_args()
    results = []
    for name, python in interpreters():
        if args.only and args.only not in name:
            continue
        version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True).stdout.strip()
        print(f"== {name} (Python {version})", flush=True)
        if not has(python, "venv") or not has(python, "ensurepip"):
            results.append((name, version, "skipped: no venv/ensurepip module"))
            continue
        venv = pathlib.Path(args.venvs) / name.replace(" ", "-").replace("/", "_")
        if not (venv / "bin" / "python").exists():
            if run([python, "-m", "venv", venv]).returncode:
                results.append((name, version, "failed: venv"))
                continue
        py = venv / "bin" / "python"
        env = dict(os.environ)
        # One Cargo target per interpreter: PyO3 rebuilds for each.
        env.setdefault("CARGO_TARGET_DIR", str(venv / "cargo-target"))
        install = run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip", "pytest", str(PACKAGE)], env=env)
        if install.returncode:
            results.append((name, version, "failed: build"))
            continue
        tests = ["tests/test_compat.py", "tests/test_compat_functions.py", "tests/test_compat_replay.py"]
        if has(py, "test.test_urlparse"):
            tests.insert(0, "tests/test_cpython_suites.py")
            env["URLSPEC_CPYTHON_TESTS_REQUIRED"] = "1"
            note = ""
        else:
            print(f"  {name} has no `test` package (test.test_urlparse): CPython's suites cannot be run "
                  "under it (Debian and Ubuntu ship them as libpython3.X-testsuite); compat's "
                  "differential tests are", flush=True)
            note = " (no `test` package: CPython suites not run)"
        probed = subprocess.run([py, "-c", "from urlspec import compat; print(compat.PROBED, compat.FALLBACK)"],
                                capture_output=True, text=True).stdout.strip()
        print(f"  probed: {probed}", flush=True)
        fallback = subprocess.run([py, "-c", "from urlspec import compat; print(compat.FALLBACK)"],
                                  capture_output=True, text=True).stdout.strip() or "?"
        report = venv / "pytest-report.xml"
        report.unlink(missing_ok=True)
        test = run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", *tests],
                   cwd=PACKAGE, env=env)
        outcome = ("passed" if test.returncode == 0 else "FAILED") + note
        if report.exists():
            outcome += "\n    " + summary(*counts(report), fallback)
        results.append((name, version, outcome))
    print()
    for name, version, outcome in results:
        print(f"{name:32} {version:10} {outcome}")
    return 1 if any(o.split("\n")[0].lower().startswith(("fail", "failed")) for _, _, o in results) else 0


if __name__ == "__main__":
    sys.exit(main())
