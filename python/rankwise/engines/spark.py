"""The Spark engine: the caller's SparkSession (rankwise starts none, and changes
none of its settings), Spark DataFrames and table names of the session as the
relations the rendered SQL reads, the column types of an input, running that SQL
in the session and the result returned as a Spark DataFrame (or brought to the
driver as pandas, Arrow or polars on request).

Nothing but the result and the checks' few rows reaches the driver: the inputs
are never converted to pandas or Arrow. A result of few rows (the means, a
comparison) is brought to the driver once, and what rankwise reads of it again
(the coverage warnings) it reads there with DuckDB, in process, rather than
start a Spark job for each read of a handful of rows. A DataFrame reaches the SQL as a
temporary view for the time the query is analysed, dropped at once without
uncaching the caller's cache of it (on Spark Connect, as ``spark.sql(query,
name=frame)`` passes it: part of the plan), so nothing is left behind in the
session's catalog and a cached input is read from the cache.
"""

from __future__ import annotations

import contextlib
import functools
import re
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._render import MacroRenderer, renderer
from ..errors import InputError, InvalidArgumentError
from . import (ColumnType, Engine, ResolvedInput, TextKeys, _SIMPLE_NAME, is_spark_dataframe, refuse_duckdb_settings,
               session_table, unreadable)

__all__ = ["OUTPUTS", "SparkEngine", "column_type"]

OUTPUTS = ("spark", "pandas", "arrow", "polars")

# Stands for a DataFrame in the rendered SQL until the query is run: a plain
# identifier, which the macros write as it is.
_PLACEHOLDER = re.compile(r"rw_frame_[0-9a-f]{32}")


def column_type(kind: Any) -> ColumnType:
    """A Spark type (pyspark.sql.types.DataType) as the checks read it, named
    as Spark SQL spells it (BIGINT, STRING, ARRAY<DOUBLE>...)."""
    from pyspark.sql import types

    name = _type_name(kind)
    if isinstance(kind, types.NullType):
        return ColumnType("null", name)
    if isinstance(kind, types.NumericType):
        return ColumnType("number", name)
    if isinstance(kind, _types_named(types, "StringType", "CharType", "VarcharType")):
        return ColumnType("string", name)
    if isinstance(kind, types.ArrayType):
        return ColumnType("nested", name, column_type(kind.elementType))
    # a VARIANT holds any value, and Spark neither groups nor joins on one
    if isinstance(kind, _types_named(types, "MapType", "StructType", "VariantType")):
        return ColumnType("nested", name)
    return ColumnType("other", name)


def _types_named(types: Any, *names: str) -> tuple[type, ...]:
    """The classes of pyspark.sql.types of those names that this PySpark has."""
    return tuple(getattr(types, name) for name in names if hasattr(types, name))


def _type_name(kind: Any) -> str:
    from pyspark.sql import types

    if isinstance(kind, types.ArrayType):
        return f"ARRAY<{_type_name(kind.elementType)}>"
    if isinstance(kind, types.MapType):
        return f"MAP<{_type_name(kind.keyType)}, {_type_name(kind.valueType)}>"
    if isinstance(kind, types.StructType):
        return "STRUCT<" + ", ".join(f"{field.name}: {_type_name(field.dataType)}" for field in kind.fields) + ">"
    if isinstance(kind, types.StringType) and _collation(kind) != "UTF8_BINARY":
        return f"STRING COLLATE {_collation(kind)}"
    return kind.simpleString().upper()


def _collation(kind: Any) -> str:
    return getattr(kind, "collation", None) or "UTF8_BINARY"


def _same_session(one: Any, other: Any) -> bool:
    if one is other:
        return True
    jvm_one, jvm_other = getattr(one, "_jsparkSession", None), getattr(other, "_jsparkSession", None)
    if jvm_one is not None and jvm_other is not None:
        return bool(jvm_one.equals(jvm_other))
    return getattr(one, "session_id", None) is not None and getattr(one, "session_id", None) == getattr(
        other, "session_id", None)


def _session_catalog(session: Any) -> Any:
    """The session's catalog of temporary views, on a classic session (None on
    Spark Connect). Its dropTempView drops the view alone, where the public
    spark.catalog.dropTempView, which spark.sql(query, name=frame) calls, also
    uncaches every cached DataFrame of the view's plan: the caller's cache of
    an input (as Spark's own SQLTransformer found, SPARK-22538)."""
    jvm_session = getattr(session, "_jsparkSession", None)
    return None if jvm_session is None else jvm_session.sessionState().catalog()


def _condition(error: Exception) -> str | None:
    for method in ("getCondition", "getErrorClass"):
        if hasattr(error, method):
            with contextlib.suppress(Exception):
                return getattr(error, method)()
    return None


@dataclass(frozen=True)
class _Collected:
    """A result brought to the driver: its rows, and its schema."""

    rows: list[Any]
    schema: Any

    @functools.cached_property
    def arrow(self) -> Any:
        """The rows as an Arrow table, built once however often they are read."""
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        return pa.Table.from_pylist([row.asDict(recursive=True) for row in self.rows],
                                    schema=to_arrow_schema(self.schema))

    @property
    def pandas_on_the_driver(self) -> bool:
        """Whether Arrow makes of the rows what Spark's toPandas would, without
        the Spark job toPandas runs: for these types, not for dates, timestamps,
        decimals or nested types, which Spark converts its own way; and only
        where pyarrow is installed, which toPandas does not need."""
        if not self.rows or any(field.dataType.typeName() not in _DRIVER_SIDE_PANDAS_TYPES
                                for field in self.schema.fields):
            return False
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            return False
        return True


_DRIVER_SIDE_PANDAS_TYPES = frozenset({"string", "boolean", "byte", "short", "integer", "long", "float", "double"})


class SparkEngine(Engine):
    """Spark: the session of the DataFrames given, or `con`."""

    adapter_type = "spark"
    outputs = OUTPUTS
    output_note = " on Spark (a Spark DataFrame, or the result alone brought to the driver)"

    def __init__(self, session: Any) -> None:
        self.session = session
        self._frames: dict[str, Any] = {}
        self._tables: dict[str, str] = {}
        self._types: dict[str, dict[str, ColumnType]] = {}

    @classmethod
    @contextlib.contextmanager
    def opened(cls, caller: str, con: Any, inputs: Mapping[str, Any], *, output: str, settings: Mapping[str, Any],
               text_keys: TextKeys) -> Iterator[tuple[SparkEngine, dict[str, ResolvedInput]]]:
        """The session of the inputs (or `con`), left as it is: settings of
        rankwise's own DuckDB connection are refused, and text key columns
        under a collation that compares 'B' and 'b' equal."""
        refuse_duckdb_settings(caller, settings, "on Spark, the session's own settings apply (spark.driver.memory, "
                               "spark.local.dir...): set them when you build the SparkSession")
        frames = {role: value for role, value in inputs.items() if is_spark_dataframe(value)}
        session = con if con is not None else next(iter(frames.values())).sparkSession
        for role, frame in frames.items():
            if not _same_session(frame.sparkSession, session):
                raise InvalidArgumentError(
                    f"rankwise.{caller}: the {role} is a DataFrame of another Spark session than "
                    + ("`con`" if con is not None else f"the {next(iter(frames))}")
                    + ": pass DataFrames of one session (and that session as `con`).")
        engine = cls(session)
        resolved = {role: engine._resolve(role, value) for role, value in inputs.items()}
        engine._refuse_a_text_collation(caller, resolved, text_keys(engine, resolved))
        yield engine, resolved

    def _resolve(self, role: str, value: Any) -> ResolvedInput:
        if is_spark_dataframe(value):
            return ResolvedInput(self._placeholder(value), f"{role} ({type(value).__name__})", registered=True)
        resolved = session_table(role, value, self.adapter_type, "on Spark",
                                 "read the file in Spark (spark.read.parquet(...)) and pass the DataFrame")
        self._tables[resolved.sql] = value
        return resolved

    def _placeholder(self, frame: Any) -> str:
        for placeholder, known in self._frames.items():
            if known is frame:
                return placeholder
        placeholder = f"rw_frame_{uuid.uuid4().hex}"
        self._frames[placeholder] = frame
        return placeholder

    def _sql(self, query: str) -> Any:
        """The session's DataFrame of a rendered query, each DataFrame it reads
        a temporary view under its placeholder while the query is analysed."""
        used = sorted(set(_PLACEHOLDER.findall(query)))
        if not used:
            return self.session.sql(query)
        session_catalog = _session_catalog(self.session)
        if session_catalog is None:
            # Spark Connect: a DataFrame passed to spark.sql becomes part of the plan
            formatted = _PLACEHOLDER.sub(lambda match: "{" + match.group(0) + "}",
                                         query.replace("{", "{{").replace("}", "}}"))
            return self.session.sql(formatted, **{placeholder: self._frames[placeholder] for placeholder in used})
        for placeholder in used:
            self._frames[placeholder].createOrReplaceTempView(placeholder)
        try:
            return self.session.sql(query)
        finally:
            for placeholder in used:
                session_catalog.dropTempView(placeholder)

    def _refuse_a_text_collation(self, caller: str, inputs: dict[str, ResolvedInput], text_columns: list[str]) -> None:
        """A text column under a collation other than Spark's binary one
        (UTF8_LCASE...) compares 'B' and 'b' equal, which would quietly merge
        users or items. rankwise changes no data, so it refuses instead."""
        for resolved in inputs.values():
            for column, kind in self.column_types(resolved).items():
                if column in text_columns and kind.name.startswith("STRING COLLATE"):
                    raise InvalidArgumentError(
                        f"rankwise.{caller}: the column '{column}' of the {resolved.label} is of type {kind.name}, "
                        "under which text ids such as 'B' and 'b' compare equal. rankwise leaves your data as it "
                        f"is: cast it to STRING COLLATE UTF8_BINARY first.")

    def column_types(self, resolved: ResolvedInput) -> dict[str, ColumnType]:
        if resolved.sql not in self._types:
            self._types[resolved.sql] = {field.name: column_type(field.dataType)
                                         for field in self._schema(resolved).fields}
        return self._types[resolved.sql]

    def _schema(self, resolved: ResolvedInput) -> Any:
        from pyspark.errors import PySparkException

        table = self._tables.get(resolved.sql)
        missing = InputError(
            f"rankwise: the {resolved.label} does not exist in the Spark session. Pass `con`, the SparkSession that "
            "holds it, or a DataFrame instead.", table=resolved.label)
        if table is not None and _SIMPLE_NAME.fullmatch(table):
            # Asked first: a query of a missing table would have Spark log the error.
            try:
                exists = self.session.catalog.tableExists(table)
            except PySparkException:
                exists = True  # let the query say what is wrong
            if not exists:
                raise missing
        try:
            return self._sql(f"select * from {resolved.sql}").schema
        except PySparkException as error:
            if _condition(error) == "TABLE_OR_VIEW_NOT_FOUND":
                raise missing from None
            raise unreadable(resolved, error) from error

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._sql(query).collect()]

    def run(self, query: str) -> Any:
        return self._sql(query)

    def computed(self, result: Any) -> _Collected:
        # A few rows (the means, a comparison): brought to the driver once, they
        # are read again without running the metrics' query again, and leave
        # no cached table behind in the session.
        return _Collected(result.collect(), result.schema)

    def rows_over(self, result: _Collected, query: Callable[[str, MacroRenderer], str]) -> list[tuple[Any, ...]]:
        import duckdb

        with duckdb.connect() as connection:
            connection.register("rw_result", result.arrow)
            return connection.sql(query("rw_result", renderer("duckdb"))).fetchall()

    def read(self, result: _Collected, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        # collected: the rows are on the driver
        return [tuple(row[column] for column in columns) for row in result.rows]

    def returned(self, result: Any, output: str) -> Any:
        if isinstance(result, _Collected):
            if output == "pandas" and result.pandas_on_the_driver:
                return result.arrow.to_pandas()
            result = self.session.createDataFrame(result.rows, schema=result.schema)
        if output == "spark":
            return result
        if output == "pandas":
            return result.toPandas()
        table = result.toArrow()
        if output == "arrow":
            return table
        import polars

        return polars.from_arrow(table)

