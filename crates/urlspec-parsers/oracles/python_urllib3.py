"""The real implementation of the python-urllib3 profile:
urllib3.util.parse_url, without the optional idna package (as
`pip install urllib3` leaves it).

The oracle protocol (README.md): a first line naming the runtime, then, for
each line of standard input (a URL as a JSON string), one line of JSON with
the components, or the error raised.
"""

import json
import platform
import sys

# urllib3 imports idna only for a non-ASCII host; the profile follows
# urllib3 without it, whatever else is installed.
sys.modules["idna"] = None

try:
    import urllib3
    from urllib3.util import parse_url
except ImportError:
    sys.stdout.write(json.dumps({"missing": "urllib3 (pip install urllib3)"}) + "\n")
    sys.exit(0)


def answer(url):
    try:
        u = parse_url(url)
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    return {
        "scheme": u.scheme,
        "userinfo": u.auth,
        "host": u.host,
        "port": None if u.port is None else str(u.port),
        "path": u.path,
        "query": u.query,
        "fragment": u.fragment,
    }


def main():
    out = sys.stdout.buffer
    hello = {"runtime": f"{platform.python_implementation()} {platform.python_version()}",
             "library": f"urllib3 {urllib3.__version__}"}
    out.write(json.dumps(hello).encode() + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        out.write(json.dumps(answer(json.loads(line))).encode() + b"\n")
    out.flush()


main()
