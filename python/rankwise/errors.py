"""The exceptions rankwise raises: one base class, a subclass per kind of problem.

Every message names what is wrong (the argument, or the table and column), the
value received, and how to fix it.
"""

from __future__ import annotations


class RankwiseError(Exception):
    """Base class of every error rankwise raises on purpose."""


class InvalidArgumentError(RankwiseError, ValueError):
    """An argument of rankwise.evaluate / rankwise.sql (or of a macro) is invalid:
    an unknown metric or option value, a k that is not a positive integer..."""


class InputError(RankwiseError, ValueError):
    """An input table cannot be evaluated as given: it cannot be read, or a column
    is missing."""

    def __init__(self, message: str, *, table: str | None = None, column: str | None = None) -> None:
        super().__init__(message)
        self.table = table
        self.column = column
