"""The engine layer: where the rendered macros run.

An engine holds everything that depends on the engine the SQL runs in: opening
or borrowing a connection and its settings, turning the caller's inputs into
relations the SQL can read, the column types of an input, running the SQL and
converting the result. The API (rankwise._api, rankwise._compare) renders the
macros for the engine's dbt adapter type and hands the SQL to it; the input
checks (rankwise._checks) read the column types and run their queries through
the same :class:`Engine`, so every engine gets every check and every message.
One module per engine:

- :mod:`rankwise.engines.duckdb`: DuckDB, embedded (the default);
- :mod:`rankwise.engines.spark`: Apache Spark, in the caller's SparkSession.

:func:`engine_for` picks the engine from the inputs and ``con``.
:data:`DIALECT_ADAPTERS` lists the dialects :func:`rankwise.sql` renders for.
"""

from __future__ import annotations

import abc
import contextlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .._render import MacroRenderer, renderer
from ..errors import InvalidArgumentError

# Dialects rankwise.sql renders for: (dbt adapter type whose dispatch overrides
# the macros take, dialect that SQL is written in). Each engine's overrides now
# write its own SQL (tests/slow/test_warehouse_catalogue.py holds it to the
# engine's documented reference), so none is transpiled; an entry whose two
# dialects differ would have sqlglot transpile the rendered SQL into the target.
DIALECT_ADAPTERS: dict[str, tuple[str, str]] = {
    "duckdb": ("duckdb", "duckdb"),
    "postgres": ("postgres", "postgres"),
    "spark": ("spark", "spark"),
    "databricks": ("databricks", "databricks"),
    "redshift": ("redshift", "redshift"),
    "snowflake": ("snowflake", "snowflake"),
    "bigquery": ("bigquery", "bigquery"),
    "trino": ("trino", "trino"),
}

_SIMPLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*){0,2}")

Family = Literal["number", "string", "nested", "null", "other"]

Output = Literal["pandas", "arrow", "polars", "relation", "spark"]
"""Every form a result can take; each engine takes some (Engine.outputs)."""


@dataclass(frozen=True)
class ColumnType:
    """A column's type as the checks read it, the same on every engine.

    `family` is what the values compare as: "number", "string", "nested"
    (lists, arrays, structs, maps: never an id), "null" (a column of nulls
    only, whose type says nothing) or "other" (dates, booleans...: each only
    with itself). `name` is the type as the engine spells it, for messages
    (DuckDB's VARCHAR, Spark's STRING); `element` the type of the elements of
    a list or array."""

    family: Family
    name: str
    element: ColumnType | None = None

    @property
    def numeric(self) -> bool:
        return self.family == "number"

    @property
    def compares_as(self) -> str | None:
        """What the ids of the column compare with: numbers with numbers,
        strings with strings, any other type only with itself; None for a
        column of nulls only (its null ids are reported as such)."""
        if self.family == "null":
            return None
        return self.family if self.family in ("number", "string") else self.name


@dataclass(frozen=True)
class ResolvedInput:
    """A relation the SQL reads, as SQL text, and how to name it in messages.
    `registered` is true for a Python object registered on the connection for
    the time of the query."""

    sql: str
    label: str
    registered: bool = False


def quote_table_name(name: str, adapter_type: str = "duckdb") -> str:
    """Quotes a table name: `schema.table` is split on dots when every part is a
    plain identifier; any other string is one identifier, quoted whole (quotes
    inside it escaped), so no name reaches SQL raw. The quoting is the macro
    quote_identifier's for the adapter, the same as the SQL's column names."""
    parts = name.split(".") if _SIMPLE_NAME.fullmatch(name) else [name]
    macros = renderer(adapter_type)
    return ".".join(macros.call("quote_identifier", part) for part in parts)


TextKeys = Callable[["Engine", dict[str, ResolvedInput]], list[str]]


class Engine(abc.ABC):
    """What rankwise needs of an engine: the checks, evaluate, compare and check
    use nothing else. An instance is one evaluation's: the connection or
    session it runs on, opened by the engine's :meth:`opened`."""

    adapter_type: ClassVar[str]
    """The dbt adapter type whose dispatch the macros are rendered with."""
    outputs: ClassVar[tuple[str, ...]]
    """The forms a result can be returned in; the first is the default."""
    output_note: ClassVar[str] = ""
    """What the message of a refused output adds after the list of outputs."""

    @property
    def macros(self) -> MacroRenderer:
        """The macros rendered for this engine's adapter type."""
        return renderer(self.adapter_type)

    @classmethod
    def check_output(cls, caller: str, output: Any) -> str:
        """The output asked, or the engine's default for None; refuses any other."""
        if output is None:
            return cls.outputs[0]
        if output not in cls.outputs:
            raise InvalidArgumentError(
                f"rankwise.{caller}: argument `output` must be one of {', '.join(map(repr, cls.outputs))}"
                f"{cls.output_note}; got {output!r}.")
        return output

    @classmethod
    @abc.abstractmethod
    def opened(cls, caller: str, con: Any, inputs: Mapping[str, Any], *, output: str, settings: Mapping[str, Any],
               text_keys: TextKeys) -> contextlib.AbstractContextManager[tuple[Engine, dict[str, ResolvedInput]]]:
        """The engine for one evaluate, compare or check, and its inputs resolved
        into relations the SQL reads (each role's :class:`ResolvedInput`), for
        the time of a with block: whatever was registered for the inputs is
        dropped on leaving it. `settings` are the engine settings the caller
        passed (memory_limit, temp_directory), applied or refused; `text_keys`
        names the key columns that hold text, for the engine to refuse a text
        comparison that would merge ids."""

    @abc.abstractmethod
    def column_types(self, resolved: ResolvedInput) -> dict[str, ColumnType]:
        """The columns of an input and their types, in order; an InputError when
        the input cannot be read."""

    @abc.abstractmethod
    def rows(self, query: str) -> list[tuple[Any, ...]]:
        """Runs a query whose result is small (a check's) and fetches its rows."""

    def has_rows(self, resolved: ResolvedInput) -> bool:
        return bool(self.rows(f"select 1 from {resolved.sql} limit 1"))

    @abc.abstractmethod
    def run(self, query: str) -> Any:
        """The result query, as the engine's own lazy result (a DuckDB relation,
        a Spark DataFrame)."""

    @abc.abstractmethod
    def computed(self, result: Any) -> Any:
        """A result of few rows (the means, a comparison) computed now, to be
        read more than once, also after the inputs are dropped."""

    @abc.abstractmethod
    def rows_over(self, result: Any, query: Callable[[str], str]) -> list[tuple[Any, ...]]:
        """The rows of a query over a computed result: `query` is given the
        name the result is read under in the SQL."""

    @abc.abstractmethod
    def returned(self, result: Any, output: str) -> Any:
        """The result in the form asked (one of :attr:`outputs`)."""


def _is_spark(value: Any, *names: str) -> bool:
    """Whether `value` is a PySpark object of one of the class names, classic or
    Spark Connect, without importing pyspark."""
    kind = type(value)
    return kind.__module__.split(".")[0] == "pyspark" and kind.__name__ in names


def is_spark_dataframe(value: Any) -> bool:
    return _is_spark(value, "DataFrame")


def is_spark_session(value: Any) -> bool:
    return _is_spark(value, "SparkSession")


def _kind(value: Any) -> str:
    """An object's kind for a message: 'pandas DataFrame', 'duckdb DuckDBPyConnection'."""
    module = type(value).__module__.split(".")[0].lstrip("_")
    return type(value).__name__ if module == "builtins" else f"{module} {type(value).__name__}"


def engine_for(caller: str, con: Any, inputs: Mapping[str, Any]) -> type[Engine]:
    """The engine an evaluation runs on: Spark when `con` is a SparkSession or an
    input is a Spark DataFrame, DuckDB otherwise. The inputs of one evaluation
    live in one engine: a Spark DataFrame beside a pandas one, or beside a DuckDB
    connection, is refused, as rankwise moves no table between engines."""
    given = {role: value for role, value in inputs.items() if value is not None}
    spark_frames = [role for role, value in given.items() if is_spark_dataframe(value)]
    if not spark_frames and not is_spark_session(con):
        from .duckdb import DuckDBEngine

        return DuckDBEngine
    if con is not None and not is_spark_session(con):
        raise InvalidArgumentError(
            f"rankwise.{caller}: the {spark_frames[0]} is a Spark DataFrame but `con` is a {_kind(con)}: pass the "
            "SparkSession that holds the DataFrames as `con`, or no `con`.")
    # Table names are read in the session; anything else must be a DataFrame of it.
    local = [role for role, value in given.items() if not is_spark_dataframe(value) and not isinstance(value, str)]
    if local:
        role = local[0]
        on_spark = (f"the {spark_frames[0]} is a Spark DataFrame" if spark_frames
                    else "`con` is a SparkSession")
        raise InvalidArgumentError(
            f"rankwise.{caller}: {on_spark} but the {role} is a {_kind(given[role])}: the inputs of one "
            "evaluation must live in one engine, and rankwise moves no table from one to the other. Pass every "
            "input as a Spark DataFrame (spark.createDataFrame(...)) or a table name of the session, or every "
            "one as local data (pandas, polars, Arrow, files) to run on DuckDB.")
    from .spark import SparkEngine

    return SparkEngine

