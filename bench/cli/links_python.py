#!/usr/bin/env python3
"""The Python side of the `urlspec links` benchmark: the links of every
HTML response of a WARC archive, resolved, with the usual Python stack:
warcio reads the records (gzip members, chunked transfer coding and gzip
content coding undone), selectolax (lexbor) parses the HTML, and
`urllib.parse.urljoin` resolves each reference against the page's
`<base href>` or its target URI. One JSON line per link on standard
output (document, element, attribute, reference, url), as `urlspec links
--output json` writes, and the counts on standard error.

    python3 bench/cli/links_python.py crawl.warc.gz [MORE.warc.gz ...] > /dev/null

It does less than `urlspec links`: no redirect chains, no base headers
(Content-Location), no Link or Refresh headers, no encoding sniffing
(selectolax decodes), no srcset, CSS or SVG links, no validation; its
throughput is an upper bound for that stack on this job.
"""

import json
import sys
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser
from warcio.archiveiterator import ArchiveIterator

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


def main() -> None:
    out = sys.stdout
    documents = links = 0
    for path in sys.argv[1:]:
        with open(path, "rb") as archive:
            for record in ArchiveIterator(archive):
                if record.rec_type != "response" or record.http_headers is None:
                    continue
                status = record.http_headers.get_statuscode() or ""
                if status.startswith("3"):
                    continue
                ctype = record.http_headers.get_header("Content-Type") or ""
                if "html" not in ctype.lower():
                    continue
                target = record.rec_headers.get_header("WARC-Target-URI")
                tree = LexborHTMLParser(record.content_stream().read())
                base = target
                node = tree.css_first("base[href]")
                if node is not None:
                    base = urljoin(target, node.attributes.get("href") or "")
                documents += 1
                for node in tree.css(SELECTOR):
                    attribute = ATTRIBUTES[node.tag]
                    reference = (node.attributes.get(attribute) or "").strip()
                    try:
                        url = urljoin(base, reference)
                    except ValueError:
                        url = None
                    links += 1
                    out.write(json.dumps({
                        "document": target, "element": node.tag,
                        "attribute": attribute, "reference": reference,
                        "url": url,
                    }))
                    out.write("\n")
    print(f"{documents} documents, {links} links", file=sys.stderr)


main()
