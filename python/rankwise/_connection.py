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
