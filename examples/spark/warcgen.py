"""Writes WARC archives for the Spark job's test and benchmark, and to try it.

Nothing here is committed as data: the test and the benchmark call these
functions to make their archives in a temporary directory, and

    python examples/spark/warcgen.py crawl --files 2 --pages 200

writes a synthetic crawl (crawl/crawl-000.warc.gz, ...) to run the job on
(`--fixture` writes the test's archives instead). Records follow
ISO 28500 (WARC/1.0): a header block, a blank line, `Content-Length` bytes of
content, then two CR LF. A compressed archive has one gzip member per record,
as crawlers write them.
"""

import argparse
import gzip
import hashlib
import os
import random


def record(warc_type, target, content, content_type="application/http; msgtype=response"):
    """One WARC record as bytes."""
    rid = hashlib.sha1((warc_type + target).encode() + content).hexdigest()
    head = (
        "WARC/1.0\r\n"
        f"WARC-Type: {warc_type}\r\n"
        f"WARC-Record-ID: <urn:uuid:{rid[:8]}-{rid[8:12]}-{rid[12:16]}-{rid[16:20]}-{rid[20:32]}>\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        + (f"WARC-Target-URI: {target}\r\n" if target else "")
        + f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(content)}\r\n\r\n"
    )
    return head.encode() + content + b"\r\n\r\n"


def http_response(status, headers, body):
    """An HTTP/1.1 response message (a `response` record's content)."""
    reason = {200: "OK", 301: "Moved Permanently", 302: "Found", 404: "Not Found"}.get(status, "X")
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{n}: {v}" for n, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def response(target, body, content_type="text/html; charset=utf-8", status=200, headers=()):
    hs = [("Content-Type", content_type), ("Content-Length", str(len(body)))] + list(headers)
    return record("response", target, http_response(status, hs, body))


def redirect(target, location, status=301):
    return record("response", target, http_response(status, [("Location", location), ("Content-Length", "0")], b""))


def request(target):
    host = target.split("/")[2]
    return record(
        "request",
        target,
        f"GET /{target.split('/', 3)[3] if target.count('/') > 2 else ''} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),
        "application/http; msgtype=request",
    )


def warcinfo():
    return record("warcinfo", "", b"software: urlspec examples/spark/warcgen.py\r\n", "application/warc-fields")


def write(path, records, compress):
    """Writes `records` to `path`, one gzip member per record if `compress`."""
    with open(path, "wb") as f:
        for r in records:
            f.write(gzip.compress(r, mtime=0) if compress else r)


def chunked(data, size=37):
    out = b""
    for i in range(0, len(data), size):
        piece = data[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def fixture_archives(directory):
    """The test's archives: every case the job must carry through.

    Returns the paths written: `a.warc.gz` (gzip members), `b.warc` (plain)
    and `c.warc.gz`.
    """
    a = [
        warcinfo(),
        request("http://example.com/old"),
        # A redirect chain: /old -> /new (relative Location) -> the final page.
        redirect("http://example.com/old", "/new", 301),
        redirect("http://example.com/new", "https://www.example.com/final/page.html", 302),
        response(
            "https://www.example.com/final/page.html",
            b'<html><head><title>final</title>'
            b'<link rel=stylesheet href="../css/site.css"></head><body>'
            b'<a href="next.html">next</a> <a href="../../../up">up</a> '
            b'<a href="  spaced.html  ">spaced</a> <a href="?q=1&amp;r=2">query</a> '
            b'<a href="#top">fragment</a> <a href="">empty</a> '
            b'<a href="//cdn.example.net/lib.js">network-path</a> '
            b'<a href="HTTP://Example.COM:80/Abs">absolute</a> '
            b'<a href="mailto:someone@example.com">mail</a> '
            b'<a href="http://[::1">broken ipv6</a> <a href="http://a b/c">space in host</a> '
            b'<a href="caf\xc3\xa9/men\xc3\xbc.html">unicode</a> '
            b'<img src="img/a.png" srcset="img/a-2x.png 2x, /img/a-3x.png 3x">'
            b'<form action="/search"><input type=image src="go.gif"></form>'
            b"<a href=next.html>next again</a>"
            b"</body></html>",
        ),
        # Not HTML: skipped.
        response("https://www.example.com/img/a.png", b"\x89PNG\r\n\x1a\n....", "image/png"),
        response("https://www.example.com/css/site.css", b"body{background:url(bg.png)}", "text/css"),
        # A page with <base href>: the embedded base wins over the retrieval URL.
        response(
            "http://example.org/docs/index.html",
            b'<!DOCTYPE html><html><head><base href="http://www.ics.uci.edu/Test/a/b/c">'
            b'<meta http-equiv="refresh" content="5; url=../refresh"></head>'
            b'<body><a href="g">g</a> <a href="./g/">g/</a> <a href="../g">../g</a> '
            b'<a href="../../../../g">above root</a> <a href="g;x?y#s">params</a> '
            b'<a href=";x">;x</a> <a href="/./g">/./g</a> <a href="g?">g?</a> <a href="///g">///g</a>'
            b"</body></html>",
        ),
    ]
    b = [
        warcinfo(),
        # A relative <base href>, resolved against the retrieval URL.
        response(
            "http://example.net/a/b/c.html",
            b'<html><head><base href="../base/"></head><body>'
            b'<a href="x">x</a><iframe src="/frame"></iframe><blockquote cite="q.html">q</blockquote>'
            b"</body></html>",
        ),
        # An HTTP Content-Location header sets the base (rfc2396/rfc3986),
        # Content-Base does under the 1996 drafts.
        response(
            "http://example.net/dir/page",
            b'<html><body><a href="sibling">s</a><video poster="p.jpg" src="v.mp4"></video></body></html>',
            headers=[("Content-Location", "page.en.html"), ("Content-Base", "http://base.example.net/x/")],
        ),
        # Chunked transfer coding and gzip content coding.
        record(
            "response",
            "http://example.net/chunked/",
            http_response(
                200,
                [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")],
                chunked(gzip.compress(b'<p><a href="inside.html">in</a><a href="../out">out</a></p>', mtime=0)),
            ),
        ),
        # A 404 page is still an HTML response with links.
        response("http://example.net/missing", b'<a href="/home">home</a>', status=404),
        # An HTML response with no links, and a record that is no response.
        response("http://example.net/empty.html", b"<html><body>nothing</body></html>"),
        record("metadata", "http://example.net/empty.html", b"outlink: http://example.net/x\r\n", "application/warc-fields"),
        # An opaque target URI: relative links against it.
        response("urn:example:doc", b'<a href="rel">rel</a><a href="http://ok.example/">ok</a>'),
        # A target URI with no scheme: no base, so relative links are errors.
        response("www.example.net/no-scheme", b'<a href="rel">rel</a><a href="https://ok.example/">ok</a>'),
    ]
    c = [
        response(
            "http://xn--caf-dma.example/",
            b'<a href="http://user:pw@Host.Example:8080/p">userinfo</a><a href="HTTPS://UPPER.example">upper</a>'
            b'<a href="../../a/./b/../c">dots</a><area href="map"><a href="javascript:void(0)">js</a>'
            b'<a href="http://192.0.2.7/ip">an IPv4 host</a><a href="http://[2001:db8::1]/">an IPv6 host</a>'
            # Links a browser running scripts does not see (the `context` column).
            b'<noscript><a href="noscript.html">no scripts</a></noscript>'
            b'<template><a href="template.html">template</a></template>',
        ),
        # A windows-1252 page (ISO-8859-1 is its label too): the `encoding`
        # column, and a query the URL Standard encodes in it.
        response(
            "http://xn--caf-dma.example/latin1.html",
            b'<a href="caf\xe9.html?q=\xe9">caf\xe9</a>',
            content_type="text/html; charset=iso-8859-1",
        ),
    ]
    paths = []
    for name, records, compress in (("a.warc.gz", a, True), ("b.warc", b, False), ("c.warc.gz", c, True)):
        p = f"{directory}/{name}"
        write(p, records, compress)
        paths.append(p)
    return paths


WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda".split()


def synthetic_page(rng, host, path, links):
    """An HTML page of about `links` links of the kinds crawls hold."""
    parts = [
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>",
        " ".join(rng.choices(WORDS, k=5)),
        '</title><link rel=stylesheet href="/static/site.css"><script src="/static/app.js"></script></head><body>',
    ]
    for i in range(links):
        kind = rng.random()
        w = rng.choice(WORDS)
        if kind < 0.35:
            href = f"{w}/{rng.randrange(1000)}.html"
        elif kind < 0.55:
            href = f"/{w}/{rng.choice(WORDS)}/{rng.randrange(100)}"
        elif kind < 0.65:
            href = f"../{w}.html?id={rng.randrange(10**6)}&amp;s={w}"
        elif kind < 0.85:
            href = f"https://{rng.choice(WORDS)}{rng.randrange(50)}.example.com/{w}/{rng.randrange(10**4)}"
        elif kind < 0.90:
            href = f"#{w}"
        elif kind < 0.95:
            href = f"//cdn{rng.randrange(5)}.example.net/{w}.js"
        else:
            href = f"?page={rng.randrange(100)}"
        if kind < 0.1:
            parts.append(f'<p><img src="/img/{w}{i}.png" alt="{w}">')
        parts.append(f'<a href="{href}">{w} {i}</a> lorem ipsum dolor sit amet\n')
    parts.append("</body></html>")
    return "".join(parts).encode()


def synthetic_archives(directory, files, pages_per_file, links_per_page, seed=10):
    """A crawl of `files` gzip archives of HTML pages, with a request record
    before each response, a redirect every 50 pages and an image every 20."""
    rng = random.Random(seed)
    paths = []
    for f in range(files):
        records = [warcinfo()]
        for p in range(pages_per_file):
            host = f"site{rng.randrange(200)}.example.com"
            url = f"http://{host}/{rng.choice(WORDS)}/{f}-{p}.html"
            records.append(request(url))
            if p % 50 == 0:
                records.append(redirect(url.replace(".html", ""), url))
            records.append(response(url, synthetic_page(rng, host, url, rng.randrange(links_per_page // 2, links_per_page * 3 // 2 + 1))))
            if p % 20 == 0:
                records.append(response(url.replace(".html", ".png"), b"\x89PNG" + bytes(200), "image/png"))
        path = f"{directory}/crawl-{f:03d}.warc.gz"
        write(path, records, compress=True)
        paths.append(path)
    return paths


def build_parser():
    """The command line's parser."""
    p = argparse.ArgumentParser(description="Write WARC archives to try the Spark job on.")
    p.add_argument("directory", help="where to write them (created if missing)")
    p.add_argument("--files", type=int, default=2, help="archives of the synthetic crawl (default 2)")
    p.add_argument("--pages", type=int, default=200, help="HTML pages per archive (default 200)")
    p.add_argument("--links", type=int, default=30, help="mean links per page (default 30)")
    p.add_argument("--seed", type=int, default=10, help="of the random crawl (default 10)")
    p.add_argument("--fixture", action="store_true", help="write the test's three archives instead")
    return p


def main(argv=None):
    a = build_parser().parse_args(argv)
    os.makedirs(a.directory, exist_ok=True)
    if a.fixture:
        paths = fixture_archives(a.directory)
    else:
        paths = synthetic_archives(a.directory, a.files, a.pages, a.links, a.seed)
    for path in paths:
        print(path)


if __name__ == "__main__":
    main()
