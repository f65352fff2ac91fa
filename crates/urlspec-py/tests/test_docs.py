"""The Python examples of the documents run as shown: every ```pycon
block of each document is a doctest (the blocks of one document share
their names, in order), run from the repository's root so that the paths
they name (testdata/...) are found; and the commands the documents give
for the Python package and the Spark job take the options they are shown
with (each script's own argument parser reads them)."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import sys

import pytest

from conftest import ROOT

DOCUMENTS = ["README.md", "crates/urlspec-py/README.md", "GUIDE.md"]


def pycon_blocks(text):
    """The text of each ```pycon block."""
    return re.findall(r"^```pycon\n(.*?)^```", text, flags=re.S | re.M)


def test_blocks_are_found():
    assert len(pycon_blocks("a\n```pycon\n>>> 1\n1\n```\n```sh\nx\n```\n")) == 1
    counts = {d: len(pycon_blocks((ROOT / d).read_text(encoding="utf-8"))) for d in DOCUMENTS}
    assert counts["README.md"] >= 2 and counts["crates/urlspec-py/README.md"] >= 5, counts


@pytest.mark.parametrize("document", DOCUMENTS)
def test_pycon_examples_run_as_shown(document, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / document).read_text(encoding="utf-8")
    blocks = pycon_blocks(text)
    if not blocks:
        pytest.skip(f"{document} has no Python example")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{document}[{i}]", document, 0)
        runner.run(test, out=sys.stdout.write, clear_globs=False)
        globs = test.globs
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples of {document} fail (above)"


def test_a_wrong_output_fails():
    """The check above fails on an answer that is not the one shown."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    block = ">>> import urlspec\n>>> urlspec.resolve('http://a/b/c', '../g', spec='rfc3986')\n'http://a/x'\n"
    runner.run(parser.get_doctest(block, {}, "wrong", "wrong", 0), out=lambda s: None)
    assert runner.summarize(verbose=False).failed == 1


# The scripts whose command lines the documents show, and the function
# that builds each one's argument parser.
SCRIPTS = {
    "examples/spark/links_job.py": "build_parser",
    "examples/spark/warcgen.py": "build_parser",
}


def shown_commands(script):
    """The arguments of every command line of the documents that runs
    ``script``, continuation lines joined."""
    found = []
    for document in ["README.md", "GUIDE.md", "examples/spark/README.md"]:
        text = (ROOT / document).read_text(encoding="utf-8")
        for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                if script in words:
                    found.append((document, words[words.index(script) + 1 :]))
    return found


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_script_command_lines_parse(script, monkeypatch):
    monkeypatch.syspath_prepend(str((ROOT / script).parent))
    name = os.path.splitext(os.path.basename(script))[0]
    module = __import__(name)
    build = getattr(module, SCRIPTS[script])
    commands = shown_commands(script)
    assert commands, f"no document shows {script}"
    for document, args in commands:
        if args == ["--help"]:
            continue
        try:
            build().parse_args(args)
        except SystemExit as e:
            pytest.fail(f"{document}: `{script} {shlex.join(args)}` is refused ({e})")


def test_a_wrong_option_fails(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "spark"))
    import links_job

    with pytest.raises(SystemExit):
        links_job.build_parser().parse_args(["--output", "o", "--no-such-option"])
