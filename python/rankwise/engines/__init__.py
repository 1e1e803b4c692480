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
- :mod:`rankwise.engines.spark`: Apache Spark, in the caller's SparkSession;
- :mod:`rankwise.engines.clickhouse`: ClickHouse, in the caller's chDB session.

:func:`engine_for` picks the engine from the inputs and ``con``.
:data:`DIALECT_ADAPTERS` lists the dialects :func:`rankwise.sql` renders for.
"""

from __future__ import annotations

import abc
import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .._render import MacroRenderer, renderer
from ..errors import InputError, InvalidArgumentError

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
    "clickhouse": ("clickhouse", "clickhouse"),
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
    n_rows: int | None = None
    """The number of rows, when known without a query (a DataFrame or an
    Arrow table given); None otherwise."""


def unreadable(resolved: ResolvedInput, error: Exception) -> InputError:
    """The error of an input the engine cannot read, with the first line of
    the engine's message."""
    text = str(error).strip()
    return InputError(f"rankwise: the {resolved.label} cannot be read: "
                      f"{text.splitlines()[0] if text else type(error).__name__}", table=resolved.label)


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
    fuses_checks: ClassVar[bool] = True
    """Whether evaluate runs the value checks inside the metric query (macro
    _guarded_evaluate) where the plan allows, rather than as queries of their
    own before it: where each query costs a job and each read a scan."""

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

    def empty_inputs(self, inputs: Sequence[ResolvedInput]) -> list[ResolvedInput]:
        """The inputs that have no row: those whose rows are known (n_rows)
        without a query, the others asked of all in one query."""
        asked = [(index, resolved) for index, resolved in enumerate(inputs) if resolved.n_rows is None]
        query = "\nunion all\n".join(
            f"select {index} as rw_input from (select 1 as rw_row from {resolved.sql} limit 1) as rw_input_{index}"
            for index, resolved in asked)
        present = {index for index, in self.rows(query)} if asked else set()
        present |= {index for index, resolved in enumerate(inputs) if resolved.n_rows}
        return [resolved for index, resolved in enumerate(inputs) if index not in present]

    @abc.abstractmethod
    def run(self, query: str) -> Any:
        """The result query, as the engine's own lazy result (a DuckDB relation,
        a Spark DataFrame)."""

    @abc.abstractmethod
    def computed(self, result: Any) -> Any:
        """A result of few rows (the means, a comparison) computed now, to be
        read more than once, also after the inputs are dropped."""

    @abc.abstractmethod
    def rows_over(self, result: Any, query: Callable[[str, MacroRenderer], str]) -> list[tuple[Any, ...]]:
        """The rows of a query over a computed result: `query` is given the
        name the result is read under in the SQL and the macros to render it
        with, those of the engine that reads the computed result."""

    def read(self, result: Any, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """The values of `columns` of a computed result, one tuple per row (an
        empty tuple per row for no column): what the wrapper reads of the means
        itself. Here a query over the result; an engine that holds the result's
        rows in this process reads them there."""
        def query(relation: str, macros: MacroRenderer) -> str:
            return f"select {', '.join(macros.call('quote_identifier', column) for column in columns) or '1'} from {relation}"
        rows = self.rows_over(result, query)
        return [tuple(row) for row in rows] if columns else [() for _ in rows]

    @abc.abstractmethod
    def returned(self, result: Any, output: str) -> Any:
        """The result in the form asked (one of :attr:`outputs`)."""


def frame_values(frame: Any, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    """The values of `columns` of a pandas DataFrame or an Arrow table, one
    tuple per row (Engine.read of a result held in this process)."""
    if not columns:
        return [()] * len(frame)
    if hasattr(frame, "column_names"):  # Arrow
        return list(zip(*(frame.column(column).to_pylist() for column in columns)))
    return list(zip(*(frame[column].tolist() for column in columns)))


def _is_of(value: Any, package: str, *names: str) -> bool:
    """Whether `value` is an object of one of the class names of a package,
    without importing it."""
    kind = type(value)
    return kind.__module__.split(".")[0] == package and kind.__name__ in names


def is_spark_dataframe(value: Any) -> bool:
    """A PySpark DataFrame, classic or Spark Connect."""
    return _is_of(value, "pyspark", "DataFrame")


def is_spark_session(value: Any) -> bool:
    return _is_of(value, "pyspark", "SparkSession")


def is_chdb_session(value: Any) -> bool:
    """A chDB session (chdb.session.Session)."""
    return _is_of(value, "chdb", "Session")


def _kind(value: Any) -> str:
    """An object's kind for a message: 'pandas DataFrame', 'duckdb DuckDBPyConnection'."""
    module = type(value).__module__.split(".")[0].lstrip("_")
    return type(value).__name__ if module == "builtins" else f"{module} {type(value).__name__}"


def engine_for(caller: str, con: Any, inputs: Mapping[str, Any]) -> type[Engine]:
    """The engine an evaluation runs on: Spark when `con` is a SparkSession or an
    input is a Spark DataFrame, ClickHouse when `con` is a chDB session, DuckDB
    otherwise. The inputs of one evaluation live in one engine: a Spark
    DataFrame beside a pandas one, or beside another engine's `con`, and a
    pandas DataFrame beside a SparkSession or a chDB session, are refused, as
    rankwise moves no table between engines."""
    given = {role: value for role, value in inputs.items() if value is not None}
    spark_frames = [role for role, value in given.items() if is_spark_dataframe(value)]
    if spark_frames and con is not None and not is_spark_session(con):
        raise InvalidArgumentError(
            f"rankwise.{caller}: the {spark_frames[0]} is a Spark DataFrame but `con` is a {_kind(con)}: pass the "
            "SparkSession that holds the DataFrames as `con`, or no `con`.")
    if spark_frames or is_spark_session(con):
        on_spark = (f"the {spark_frames[0]} is a Spark DataFrame" if spark_frames
                    else "`con` is a SparkSession")
        # Table names are read in the session; anything else must be a DataFrame of it.
        _refuse_local_inputs(caller, given, on_spark, lambda value: isinstance(value, str) or is_spark_dataframe(value),
                             "a Spark DataFrame (spark.createDataFrame(...)) or a table name of the session")
        from .spark import SparkEngine

        return SparkEngine
    if is_chdb_session(con):
        _refuse_local_inputs(caller, given, "`con` is a chDB session", lambda value: isinstance(value, str),
                             "a table name of the session")
        from .clickhouse import ClickHouseEngine

        return ClickHouseEngine
    from .duckdb import DuckDBEngine

    return DuckDBEngine


def engine_fuses_checks(adapter_type: str) -> bool:
    """Whether the wrapper's engine of `adapter_type` runs evaluate's value
    checks inside the metric query (Engine.fuses_checks); for a dialect the
    wrapper only writes SQL for, what the plan allows."""
    if adapter_type == "duckdb":
        from .duckdb import DuckDBEngine

        return DuckDBEngine.fuses_checks
    return Engine.fuses_checks


def _refuse_local_inputs(caller: str, given: Mapping[str, Any], on_engine: str, reads: Callable[[Any], bool],
                         what_it_reads: str) -> None:
    """Refuses the first input the engine does not read (`reads`): the local
    data DuckDB would read."""
    local = [role for role, value in given.items() if not reads(value)]
    if local:
        role = local[0]
        raise InvalidArgumentError(
            f"rankwise.{caller}: {on_engine} but the {role} is a {_kind(given[role])}: the inputs of one "
            "evaluation must live in one engine, and rankwise moves no table from one to the other. Pass every "
            f"input as {what_it_reads}, or every one as local data (pandas, polars, Arrow, files) to run on "
            "DuckDB.")


def refuse_duckdb_settings(caller: str, settings: Mapping[str, Any], settings_there: str) -> None:
    """Refuses the settings of rankwise's own DuckDB connection (memory_limit,
    temp_directory) on an engine whose session is the caller's:
    `settings_there` says which settings apply there, and where they are set."""
    given = [name for name, value in settings.items() if value is not None]
    if given:
        named = " and ".join(f"`{name}`" for name in given)
        raise InvalidArgumentError(
            f"rankwise.{caller}: {named} {'is a setting' if len(given) == 1 else 'are settings'} of rankwise's "
            f"own DuckDB connection; {settings_there}, as rankwise leaves its settings as they are.")


def session_table(role: str, value: Any, adapter_type: str, on_engine: str, read_a_file: str) -> ResolvedInput:
    """A table name of the caller's session, as an engine that reads strings
    as table names only (not files) resolves it: quoted for the adapter; a
    string that looks like a file path is refused, saying how to read the
    file in the engine (`read_a_file`)."""
    from .duckdb import _looks_like_path

    if not isinstance(value, str):
        # engine_for lets through nothing else
        raise InputError(f"rankwise: cannot read the {role} ({type(value).__name__}) {on_engine}.", table=role)
    if not value:
        raise InputError(f"rankwise: the {role} argument is an empty string.", table=role)
    if _looks_like_path(value):
        raise InputError(
            f"rankwise: the {role} '{value}' looks like a file path, and {on_engine} a string names a table of the "
            f"session: {read_a_file}.", table=role)
    return ResolvedInput(quote_table_name(value, adapter_type), f"{role} table '{value}'")
