"""The exceptions rankwise raises: one base class, a subclass per kind of problem.

Every message names what is wrong (the argument, or the table and column), the
value received, and how to fix it.
"""

from __future__ import annotations


class RankwiseError(Exception):
    """Base class of every error rankwise raises on purpose."""


class RankwiseWarning(UserWarning):
    """A result that is computed but could mislead if read without it: groups
    scored on different users, a group with lists for few of the truth users, a
    relevance-like column left unread."""


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


class MissingColumnError(InputError):
    """A column the evaluation needs is not in the table."""


class ColumnTypeError(InputError):
    """A column has a type rankwise cannot evaluate (a non-numeric rank, score or
    relevance; nested ids; ids whose types differ between the two tables)."""


class EmptyInputError(InputError):
    """A table has no rows."""


class InvalidValueError(InputError):
    """Values rankwise cannot evaluate: null ids, null or invalid ranks, scores
    or relevances."""

    def __init__(self, message: str, *, table: str | None = None, column: str | None = None,
                 problem: str | None = None, n_rows: int = 0, example: str | None = None) -> None:
        super().__init__(message, table=table, column=column)
        self.problem = problem
        self.n_rows = n_rows
        self.example = example


class DuplicateRowsError(InvalidValueError):
    """The same item twice in one list, the same rank twice in one list, or the
    same (user, item) twice in the interactions."""


class MalformedLineError(InputError):
    """A line of a TREC qrels or run file that does not have the format's shape:
    the wrong number of fields, a relevance or rank that is not an integer, a
    score that is not a finite number. The message names the file, the line
    number, the line and what was expected."""

    def __init__(self, message: str, *, path: str, line_number: int, line: str, expected: str,
                 table: str | None = None) -> None:
        super().__init__(message, table=table)
        self.path = path
        self.line_number = line_number
        self.line = line
        self.expected = expected


class NoOverlapError(InputError):
    """No user id (or no item id) of the recommendations occurs in the
    interactions: no list can be judged, so every number would be 0 or missing."""

    def __init__(self, message: str, *, table: str | None = None, column: str | None = None,
                 problem: str | None = None) -> None:
        super().__init__(message, table=table, column=column)
        self.problem = problem
