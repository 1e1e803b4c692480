"""The ClickHouse engine: the caller's chDB session (``chdb.session.Session``;
rankwise opens none, and changes none of its settings), table names of that
session as the relations the rendered SQL reads, the column types of an input,
running that SQL in the session with the settings rankwise needs given to each
query, and the result returned as pandas, Arrow or polars.

chDB answers a query with its whole result, so a result is the query until its
rows are asked for, and then fetched in the form asked as chDB gives it: its
pandas DataFrame (integers with nulls as Int64, as DuckDB's), its Arrow table,
which polars takes as it is. The warnings read the computed means through
chDB's ``Python()`` table function: nothing is written to the session.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .._render import MacroRenderer
from ..errors import InputError
from . import ColumnType, Engine, ResolvedInput, TextKeys, frame_values, refuse_duckdb_settings, session_table, unreadable

__all__ = ["OUTPUTS", "QUERY_SETTINGS", "ClickHouseEngine", "column_type"]

OUTPUTS = ("pandas", "arrow", "polars")
# chDB's format of each output
_FORMATS = {"pandas": "DataFrame", "arrow": "ArrowTable", "polars": "ArrowTable"}

# The settings every query of rankwise needs (docs/warehouses.md says why), in
# the query's own SETTINGS clause, which covers its subqueries and leaves the
# session's settings as they are. compare's query of every metric and test is
# some 230 kB, near the default max_query_size of 256 KiB; ClickHouse reads a
# larger one from this clause too, before it parses the rest.
QUERY_SETTINGS = {"join_use_nulls": 1, "cast_keep_nullable": 1, "max_query_size": 10_000_000}

_WRAPPED = re.compile(r"(\w+)\((.*)\)", re.DOTALL)
_NUMBER = re.compile(r"U?Int\d+|Float\d+|BFloat16|Decimal\d*")
_MISSING = ("(UNKNOWN_TABLE)", "(UNKNOWN_DATABASE)")


def column_type(name: str) -> ColumnType:
    """A ClickHouse type, as DESCRIBE spells it, as the checks read it: the
    family of the type inside Nullable(...) and LowCardinality(...), the name
    whole (Nullable(String)) for messages."""
    kind, argument = _outer(name)
    while kind in ("Nullable", "LowCardinality"):
        kind, argument = _outer(argument)
    if kind == "Nothing":
        return ColumnType("null", name)
    if _NUMBER.fullmatch(kind):
        return ColumnType("number", name)
    if kind in ("String", "FixedString"):
        return ColumnType("string", name)
    if kind == "Array":
        return ColumnType("nested", name, column_type(argument))
    if kind in ("Map", "Tuple", "Nested"):
        return ColumnType("nested", name)
    return ColumnType("other", name)


def _outer(name: str) -> tuple[str, str]:
    """The outermost type of a name and its arguments: ("Array", "Float64") for
    Array(Float64), ("Int64", "") for Int64."""
    wrapped = _WRAPPED.fullmatch(name.strip())
    return (wrapped.group(1), wrapped.group(2)) if wrapped else (name.strip(), "")


class ClickHouseEngine(Engine):
    """ClickHouse: the chDB session given as `con`."""

    adapter_type = "clickhouse"
    outputs = OUTPUTS
    output_note = " on ClickHouse (the result is brought from the chDB session)"

    def __init__(self, session: Any, output: str) -> None:
        self.session = session
        self.output = output

    @classmethod
    @contextlib.contextmanager
    def opened(cls, caller: str, con: Any, inputs: Mapping[str, Any], *, output: str, settings: Mapping[str, Any],
               text_keys: TextKeys) -> Iterator[tuple[ClickHouseEngine, dict[str, ResolvedInput]]]:
        """The session `con`, left as it is: settings of rankwise's own DuckDB
        connection are refused. ClickHouse compares strings byte by byte
        (collations are for ORDER BY alone), so no text key needs refusing."""
        refuse_duckdb_settings(caller, settings, "on ClickHouse, the session's own settings apply "
                                                 "(max_memory_usage, max_bytes_before_external_group_by...): set "
                                                 "them on the chDB session")
        resolved = {role: session_table(role, value, cls.adapter_type, "on ClickHouse",
                                        "load it into a table of the session (CREATE TABLE ... AS SELECT * FROM "
                                        "file(...)) and pass its name")
                    for role, value in inputs.items()}
        yield cls(con, output), resolved

    def _fetched(self, query: str, output: str) -> Any:
        settings = ", ".join(f"{name} = {value}" for name, value in QUERY_SETTINGS.items())
        return self.session.query(f"{query}\nsettings {settings}", _FORMATS[output])

    def column_types(self, resolved: ResolvedInput) -> dict[str, ColumnType]:
        try:
            described = self.session.query(f"describe table {resolved.sql}", "ArrowTable")
        except RuntimeError as error:  # chDB's ChdbError
            if any(code in str(error) for code in _MISSING):
                raise InputError(
                    f"rankwise: the {resolved.label} does not exist in the chDB session given as `con`: create it "
                    "there, or pass the session that holds it.", table=resolved.label) from None
            raise unreadable(resolved, error) from error
        # An EPHEMERAL column exists for inserts only: no query reads it.
        return {row["name"]: column_type(row["type"]) for row in described.to_pylist()
                if row["default_type"] != "EPHEMERAL"}

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        table = self._fetched(query, "arrow")
        return list(zip(*(column.to_pylist() for column in table.columns)))

    def run(self, query: str) -> str:
        # chDB has no lazy result: the query stands for it until its rows are asked for.
        return query

    def computed(self, result: str) -> Any:
        return self._fetched(result, self.output)

    def rows_over(self, result: Any, query: Callable[[str, MacroRenderer], str]) -> list[tuple[Any, ...]]:
        # chDB's Python() table function reads a Python object by its name, found
        # in the frames of the caller of the query: this one.
        rankwise_computed_result = result  # noqa: F841
        return self.rows(query("Python(rankwise_computed_result)", self.macros))

    def read(self, result: Any, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        # computed: fetched into this process, as a DataFrame or an Arrow table
        return frame_values(result, columns)

    def returned(self, result: Any, output: str) -> Any:
        fetched = self._fetched(result, output) if isinstance(result, str) else result
        if output == "polars":
            import polars

            return polars.from_arrow(fetched)
        return fetched
