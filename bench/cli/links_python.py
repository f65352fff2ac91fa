#!/usr/bin/env python3
"""The Python side of the `urlspec links` benchmark: the links of every
HTML response of a WARC archive, resolved, with the fastest Python
stacks a user would pick for the job. One JSON line per link on
standard output (document, element, attribute, reference, url), as
`urlspec links --output json` writes, and the counts on standard error.

    python3 bench/cli/links_python.py [--stack warcio|fastwarc] \\
        crawl.warc.gz [MORE.warc.gz ...] > /dev/null

--stack warcio (the default): warcio reads the records (gzip members;
ARC records as WARC ones) and undoes the chunked transfer coding and
the gzip, deflate and br content codings (br with brotlipy, the brotli
module warcio works with); `urllib.parse.urljoin` (RFC 3986) resolves.

--stack fastwarc: FastWARC's ArchiveIterator reads the records (gzip
members; `quirks_mode`, for the headers of real archives), and this
script undoes the same codings as warcio does, falling back to the bytes
as they are where they do not decode (FastWARC 2.0.1's own `auto_decode`
loses its place in the stream when a decoded record is skipped unread,
and refuses a body labelled chunked that is not); `ada_url.join_url`
(the WHATWG URL Standard) resolves, and a reference it cannot resolve
gets the URL null.

Both parse the HTML with selectolax's LexborHTMLParser and read the
same elements and attributes, resolved against the page's first
`<base href>` or its WARC-Target-URI, so that on the same archive both
write the same links (the URLs differ where the two URL specifications
do). An archive a stack cannot read to its end is named on standard
error with the error, after the links read from it, and the exit status
is then 1.

Both do less than `urlspec links`: no redirect chains, no base headers
(Content-Location), no Link or Refresh headers, no encoding sniffing
(lexbor decodes), no srcset, CSS or SVG links, no validation, no
resource or metadata records; FastWARC reads no ARC files. Their
throughput is an upper bound for those stacks on this job.
"""

import argparse
import json
import os
import sys
import zlib

from selectolax.lexbor import LexborHTMLParser

# The elements and attributes `urlspec links` reads most often.
SELECTOR = (
    "a[href], area[href], link[href], img[src], script[src], iframe[src], "
    "embed[src], source[src], video[src], audio[src], form[action], "
    "blockquote[cite], q[cite], object[data]"
)
ATTRIBUTES = {
    "a": "href", "area": "href", "link": "href", "img": "src",
    "script": "src", "iframe": "src", "embed": "src", "source": "src",
    "video": "src", "audio": "src", "form": "action",
    "blockquote": "cite", "q": "cite", "object": "data",
}


def warcio_pages(path):
    """(target URI, HTML bytes) of each HTML response, read by warcio."""
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as archive:
        for record in ArchiveIterator(archive, arc2warc=True):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            status = record.http_headers.get_statuscode() or ""
            if status.startswith("3"):
                continue
            ctype = record.http_headers.get_header("Content-Type") or ""
            if "html" not in ctype.lower():
                continue
            target = record.rec_headers.get_header("WARC-Target-URI")
            yield target, record.content_stream().read()


def fastwarc_pages(path):
    """(target URI, HTML bytes) of each HTML response, read by FastWARC."""
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    records = 0
    for record in ArchiveIterator(path, quirks_mode=True):
        records += 1
        if record.record_type != WarcRecordType.response or not record.is_http:
            continue
        headers = record.http_headers
        if 300 <= (headers.status_code or 0) < 400:
            continue
        ctype = headers.get("Content-Type") or ""
        if "html" not in ctype.lower():
            continue
        target = record.headers.get("WARC-Target-URI")
        body = record.reader.read()
        if headers.get("Transfer-Encoding") == "chunked":
            body = dechunk(body)
        coding = (headers.get("Content-Encoding") or "").lower()
        if coding in DECOMPRESSORS:
            body = decompress(DECOMPRESSORS[coding], body)
        yield target, body
    if records == 0 and os.path.getsize(path) > 0:
        raise ValueError("no WARC record (an ARC file?)")


def dechunk(body):
    """The chunked transfer coding undone as warcio does: from the first
    chunk that does not parse on, the bytes are taken as they are."""
    out = []
    at = 0
    while True:
        end = body.find(b"\r\n", at)
        try:
            size = int(body[at:end].split(b";")[0], 16) if end > at else -1
        except ValueError:
            size = -1
        if size == 0:  # the last chunk; trailers are left out
            return b"".join(out)
        start = end + 2
        if size < 0 or body[start + size:start + size + 2] != b"\r\n":
            out.append(body[at:])
            return b"".join(out)
        out.append(body[start:start + size])
        at = start + size + 2


def brotli_decompressor():
    import brotli

    return brotli.Decompressor()


# warcio's content codings; a body that does not decode is taken as it is.
DECOMPRESSORS = {
    "gzip": lambda: zlib.decompressobj(16 + zlib.MAX_WBITS),
    "deflate": lambda: zlib.decompressobj(),
    "br": brotli_decompressor,
}


def decompress(decompressor, body):
    try:
        return decompressor().decompress(body)
    except Exception:  # zlib.error, brotli.Error
        if decompressor is DECOMPRESSORS["deflate"]:
            try:
                return zlib.decompressobj(-zlib.MAX_WBITS).decompress(body)
            except zlib.error:
                pass
        return body


def urljoin_resolver():
    from urllib.parse import urljoin

    def resolve(base, reference):
        try:
            return urljoin(base, reference)
        except ValueError:
            return None
    return resolve


def ada_resolver():
    from ada_url import join_url

    def resolve(base, reference):
        try:
            return join_url(base, reference)
        except ValueError:
            return None
    return resolve


STACKS = {
    "warcio": (warcio_pages, urljoin_resolver),
    "fastwarc": (fastwarc_pages, ada_resolver),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=STACKS, default="warcio")
    parser.add_argument("archives", nargs="+")
    args = parser.parse_args()
    pages, resolver = STACKS[args.stack]
    resolve = resolver()
    out = sys.stdout
    documents = links = failed = 0
    for path in args.archives:
        try:
            for target, html in pages(path):
                tree = LexborHTMLParser(html)
                base = target or ""
                node = tree.css_first("base[href]")
                if node is not None:
                    base = resolve(base, node.attributes.get("href") or "") \
                        or base
                documents += 1
                for node in tree.css(SELECTOR):
                    attribute = ATTRIBUTES[node.tag]
                    reference = (node.attributes.get(attribute) or "").strip()
                    links += 1
                    out.write(json.dumps({
                        "document": target, "element": node.tag,
                        "attribute": attribute, "reference": reference,
                        "url": resolve(base, reference),
                    }))
                    out.write("\n")
        except Exception as error:  # the stack's own errors, of any type
            failed += 1
            print(f"{path}: {type(error).__name__}: {error}", file=sys.stderr)
    print(f"{documents} documents, {links} links", file=sys.stderr)
    sys.exit(1 if failed else 0)


main()
