"""The exceptions of urlspec."""

from __future__ import annotations


class Error(ValueError):
    """Base class of every urlspec error.

    A ``ValueError``, as urllib.parse raises for bad input. Carries the
    byte ``position`` in the input (UTF-8) where the problem is, the
    grammar ``rule`` broken (``pchar``, ``hostname``, ``escape``, ...) and
    a short ``reason``; each ``None`` when it does not apply.
    """

    def __init__(
        self,
        message: str,
        position: int | None = None,
        rule: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.rule = rule
        self.reason = reason

    def __reduce__(self):  # picklable, for Spark and multiprocessing
        return (type(self), (self.message, self.position, self.rule, self.reason))


class SpecError(Error):
    """An unknown spec name, or one not compiled into this build."""


class ParseError(Error):
    """A URL that breaks its spec's grammar (from ``URL.validate()``)."""


class ResolveError(Error):
    """A reference that cannot be resolved (no base, strict refusals)."""


class EscapeError(Error):
    """A ``%`` not followed by two hex digits."""


class NotComparableError(Error):
    """A URL that cannot be normalized (a bad escape)."""


class LinksError(Error):
    """An input ``links()`` cannot read (or read on): not an archive, a
    record cut short, a message nested too deep. Raised after the links
    read before the problem were handed out."""
