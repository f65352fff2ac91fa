"""The fixtures the Spark job's tests share (checks.py holds the rest)."""

import pytest

from checks import CLI_REQUIRED, find_cli, need, warcgen


@pytest.fixture(scope="session")
def cli():
    """The urlspec command to compare with."""
    exe, why = find_cli()
    need(why, CLI_REQUIRED)
    return exe


@pytest.fixture(scope="session")
def archives(tmp_path_factory):
    """The fixture archives (warcgen.fixture_archives), and how the local
    test gives the job each: a plain path, a file:// URI (opened through
    pyarrow's filesystem) and an entry of a paths list joined to
    --input-base-url. Also a damaged copy of a.warc.gz, cut in the middle
    of its last page."""
    d = tmp_path_factory.mktemp("warcs")
    a, b, c = warcgen.fixture_archives(str(d))
    data = open(a, "rb").read()
    damaged = str(d / "damaged.warc.gz")
    with open(damaged, "wb") as f:
        f.write(data[: len(data) - 300])
    listing = d / "warc.paths"
    listing.write_text("# the archives, relative to --input-base-url\n\nc.warc.gz\n")
    given = {a: a, b: "file://" + b, c: str(d / "c.warc.gz")}
    return {"dir": str(d), "files": [a, b, c], "given": given, "list": str(listing), "damaged": damaged}
