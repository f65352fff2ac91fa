"""urlspec: URLs exactly as each generation of the specs defines them."""
from ._native import Link, Links, URL, links, parse, resolve
from ._errors import Error, LinksError, ParseError, ResolveError, SpecError
