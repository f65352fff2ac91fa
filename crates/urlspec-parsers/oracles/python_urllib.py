"""The real implementation of the python-urllib profile: CPython's
urllib.parse.urlsplit and its SplitResult's properties.

The oracle protocol (README.md): a first line naming the runtime, then, for
each line of standard input (a URL as a JSON string), one line of JSON with
the components, or the error raised.
"""

import json
import platform
import sys
from urllib.parse import urlsplit


def answer(url):
    try:
        s = urlsplit(url)
        user, password, host, port = s.username, s.password, s.hostname, s.port
    except Exception as e:  # what a caller reading these would see raised
        return {"error": type(e).__name__, "message": str(e)}
    userinfo = None if user is None else user + ("" if password is None else ":" + password)
    return {
        "scheme": s.scheme,
        "userinfo": userinfo,
        "host": host,
        "port": None if port is None else str(port),
        "path": s.path,
        "query": s.query,
        "fragment": s.fragment,
    }


def main():
    out = sys.stdout.buffer
    hello = {"runtime": f"{platform.python_implementation()} {platform.python_version()}",
             "library": "urllib.parse"}
    out.write(json.dumps(hello).encode() + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        out.write(json.dumps(answer(json.loads(line))).encode() + b"\n")
    out.flush()


main()
