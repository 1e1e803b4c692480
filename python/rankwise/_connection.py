"""Settings of the DuckDB connections rankwise opens for itself (never of one a
caller passes: rankwise leaves those as it finds them)."""

from __future__ import annotations

from typing import Any

import duckdb

from .errors import InvalidArgumentError


def apply_settings(connection: duckdb.DuckDBPyConnection, **settings: Any) -> None:
    """Sets each DuckDB setting given (None leaves DuckDB's default), as a bound
    parameter; a value DuckDB refuses is an InvalidArgumentError naming it."""
    for name, value in settings.items():
        if value is None:
            continue
        try:
            connection.execute(f"set {name} = ?", [str(value)])
        except duckdb.Error as error:
            first_line = str(error).strip().splitlines()[0]
            raise InvalidArgumentError(
                f"rankwise.evaluate: argument `{name}` {str(value)!r} is not accepted by DuckDB: {first_line}") from None


def refuse_a_text_collation(connection: duckdb.DuckDBPyConnection, caller: str, text_columns: list[str]) -> None:
    """A caller's connection whose default_collation is set compares text ids under
    it ('B' = 'b' under nocase), which would quietly merge users or items. rankwise
    changes no setting of a connection it is given, so it refuses instead."""
    if not text_columns:
        return
    [(collation,)] = connection.execute("select current_setting('default_collation')").fetchall()
    if collation:
        raise InvalidArgumentError(
            f"rankwise.{caller}: the connection's default_collation is {collation!r}, under which text ids such "
            f"as 'B' and 'b' compare equal (columns: {', '.join(text_columns)}). rankwise leaves your settings as "
            "they are: run RESET default_collation on this connection, or pass no `con`.")
