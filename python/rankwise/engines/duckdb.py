"""The DuckDB engine: the connection rankwise opens for itself (with its
settings) or the caller's (left as it is), the inputs a user passes (DataFrames,
Arrow tables, DuckDB relations, table names, Parquet/CSV paths) turned into
relations the rendered SQL can read without leaving anything behind on the
connection, the column types of an input, running that SQL, and the result
converted to the output asked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import importlib.util
import os
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import duckdb

from .._render import MacroRenderer, renderer
from ..errors import InputError, InvalidArgumentError
from . import ColumnType, Engine, ResolvedInput, TextKeys, frame_values, quote_table_name, unreadable

__all__ = ["OUTPUTS", "DuckDBEngine", "Output", "ResolvedInput", "apply_settings", "column_type", "quote_table_name"]

Output = Literal["pandas", "arrow", "polars", "relation"]
OUTPUTS = get_args(Output)

_FILE_READERS = {
    ".parquet": "read_parquet",
    ".pq": "read_parquet",
    ".csv": "read_csv",
    ".tsv": "read_csv",
    ".txt": "read_csv",
}
_COMPRESSION_SUFFIXES = {".gz", ".zst"}

# DuckDB's type ids (DuckDBPyType.id): numbers, the strings ids may be, and the
# nested types no id may be. The id, not the type's text: an ENUM's text lists its
# categories, and 'Song [Live]' or 'roadmap' are not nested types.
_NUMERIC = frozenset({"tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint", "uinteger",
                      "ubigint", "uhugeint", "float", "double", "decimal", "bignum"})
_STRING = frozenset({"varchar", "enum"})
_NESTED = frozenset({"list", "array", "struct", "map", "union"})


def _file_reader(path: str) -> str | None:
    suffixes = [suffix.lower() for suffix in Path(path).suffixes]
    while suffixes and suffixes[-1] in _COMPRESSION_SUFFIXES:
        suffixes.pop()
    return _FILE_READERS.get(suffixes[-1]) if suffixes else None


def _is_glob(path: str) -> bool:
    return any(character in path for character in "*?[")


def _string_literal(text: str) -> str:
    return renderer().call("_python_literal", text)


def _resolve_path(path: str, role: str) -> ResolvedInput:
    reader = _file_reader(path)
    if reader is None:
        raise InputError(
            f"rankwise: cannot tell the format of the {role} file '{path}': "
            "name it *.parquet or *.csv (optionally .gz), or load it into a DataFrame first.",
            table=role,
        )
    if _is_glob(path):
        if not glob.glob(path, recursive=True):
            raise InputError(f"rankwise: no file matches the {role} pattern '{path}'.", table=role)
    elif not os.path.isfile(path):
        raise InputError(f"rankwise: the {role} file '{path}' does not exist.", table=role)
    elif not os.access(path, os.R_OK):
        raise InputError(f"rankwise: the {role} file '{path}' cannot be read (permission denied).", table=role)
    return ResolvedInput(f"{reader}({_string_literal(path)})", f"{role} file '{path}'")


def _looks_like_path(text: str) -> bool:
    return _file_reader(text) is not None or os.sep in text or (os.altsep is not None and os.altsep in text)


@contextlib.contextmanager
def resolved_inputs(
    con: duckdb.DuckDBPyConnection, *, private: bool = False, **inputs: Any
) -> Iterator[dict[str, ResolvedInput]]:
    """Resolves each named input; Python objects are registered on `con` for
    the duration of the block and unregistered afterwards, also when the block
    fails: under a unique name on a caller's connection, and on rankwise's own
    (`private`) under its role's, so that a call repeated with the same
    arguments reads its inputs under the same names and its SQL is written
    once (rankwise._plan)."""
    registered: list[str] = []
    try:
        resolved = {}
        for role, value in inputs.items():
            resolved[role] = _resolve(con, role, value, registered, private)
        yield resolved
    finally:
        for name in registered:
            with contextlib.suppress(duckdb.Error):
                con.unregister(name)


def _resolve(con: duckdb.DuckDBPyConnection, role: str, value: Any, registered: list[str], private: bool = False) -> ResolvedInput:
    if isinstance(value, os.PathLike):
        return _resolve_path(os.fspath(value), role)
    if isinstance(value, str):
        if not value:
            raise InputError(f"rankwise: the {role} argument is an empty string.", table=role)
        if _looks_like_path(value):
            return _resolve_path(value, role)
        return ResolvedInput(quote_table_name(value), f"{role} table '{value}'")
    if type(value).__name__ == "RecordBatchReader" and hasattr(value, "read_all"):
        # A stream can be read once; the checks and the metrics read it twice.
        value = value.read_all()
    name = f"rankwise_{role}" if private else f"rankwise_{role}_{uuid.uuid4().hex}"
    try:
        con.register(name, value)
    except (duckdb.Error, TypeError, ValueError) as error:
        kind = type(value).__name__
        if isinstance(value, duckdb.DuckDBPyRelation):
            hint = " A DuckDB relation can only be read on its own connection: pass it as `con`."
        elif type(value).__module__.split(".")[0] == "polars" and importlib.util.find_spec("pyarrow") is None:
            # DuckDB reads polars through Arrow: without pyarrow, say so, not "pass a DataFrame"
            hint = " DuckDB reads a polars DataFrame through Arrow, and pyarrow is not installed: pip install \"rankwise[polars]\"."
        else:
            hint = " Pass a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a table name or a Parquet/CSV path."
        raise InputError(f"rankwise: cannot read the {role} ({kind}).{hint}", table=role) from error
    registered.append(name)
    return ResolvedInput(quote_table_name(name), f"{role} ({type(value).__name__})", registered=True,
                         n_rows=_known_length(value))


# The objects whose len() is their number of rows, as DuckDB reads them: an
# empty one is told without a query.
_LENGTH_IS_ROWS = frozenset({("pandas", "DataFrame"), ("polars", "DataFrame"), ("pyarrow", "Table")})


def _known_length(value: Any) -> int | None:
    kind = type(value)
    if (kind.__module__.split(".")[0], kind.__name__) in _LENGTH_IS_ROWS:
        return len(value)
    return None


def apply_settings(connection: duckdb.DuckDBPyConnection, caller: str, **settings: Any) -> None:
    """Sets each DuckDB setting given (None leaves DuckDB's default), as a bound
    parameter; a value DuckDB refuses is an InvalidArgumentError naming it and
    the function called (`caller`)."""
    for name, value in settings.items():
        if value is None:
            continue
        try:
            connection.execute(f"set {name} = ?", [str(value)])
        except duckdb.Error as error:
            first_line = str(error).strip().splitlines()[0]
            raise InvalidArgumentError(
                f"rankwise.{caller}: argument `{name}` {str(value)!r} is not accepted by DuckDB: {first_line}") from None


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


def column_type(kind: Any) -> ColumnType:
    """A DuckDB type (DuckDBPyType) as the checks read it; an ENUM is named
    without its list of categories."""
    if kind.id == "null":
        return ColumnType("null", str(kind))
    if kind.id in _NUMERIC:
        return ColumnType("number", str(kind))
    if kind.id in _STRING:
        return ColumnType("string", "ENUM" if kind.id == "enum" else str(kind))
    if kind.id in _NESTED:
        # a list's and an array's element type: their child (an array's children
        # also hold its size)
        element = dict(kind.children).get("child") if kind.id in ("list", "array") else None
        return ColumnType("nested", str(kind), None if element is None else column_type(element))
    return ColumnType("other", str(kind))


class DuckDBEngine(Engine):
    """DuckDB: rankwise's own in-memory connection, or the caller's `con`."""

    adapter_type = "duckdb"
    outputs = OUTPUTS
    # Measured at 1M users, the fused checks cost DuckDB what its check
    # queries cost (their price is the exact search for items listed twice,
    # not the scans), with twice the peak memory: they run on their own.
    fuses_checks = False

    def __init__(self, connection: duckdb.DuckDBPyConnection, output: str = "pandas") -> None:
        self.connection = connection
        self.registered = False
        # A relation is returned lazy, as the caller asked; any other output is
        # run by `execute`, without the relation layer, which binds every
        # query and every query over a result once more before running it.
        self.lazy = output == "relation"
        self._computed: list[tuple[duckdb.DuckDBPyRelation, Any]] = []
        self._stored_names: list[str] = []
        self._column_types: dict[str, dict[str, ColumnType]] = {}

    @classmethod
    @contextlib.contextmanager
    def opened(cls, caller: str, con: duckdb.DuckDBPyConnection | None, inputs: Mapping[str, Any], *, output: str,
               settings: Mapping[str, Any], text_keys: TextKeys) -> Iterator[tuple[DuckDBEngine, dict[str, ResolvedInput]]]:
        """rankwise's own connection with the memory settings (closed on leaving,
        unless the result is a relation on it), or the caller's, left as it is
        but refused under a text collation that would change which ids match
        (`text_keys` names the key columns holding text)."""
        memory_limit, temp_directory = settings.get("memory_limit"), settings.get("temp_directory")
        if con is not None and (memory_limit is not None or temp_directory is not None):
            raise InvalidArgumentError(
                f"rankwise.{caller}: `memory_limit` and `temp_directory` apply to rankwise's own connection; "
                "on a connection you pass as `con`, set them yourself (SET memory_limit = '8GB'), as rankwise "
                "leaves your connection's settings as they are.")
        private = con is None
        # rankwise's own: a cursor of one in-memory database of the process (a
        # database costs tens of milliseconds to open, a cursor nothing; what
        # a cursor registers only it sees), or, with settings, which are a
        # database's, a database of its own
        own_settings = memory_limit is not None or temp_directory is not None
        connection = (duckdb.connect() if own_settings else _process_database().cursor()) if private else con
        try:
            if private:
                apply_settings(connection, caller, memory_limit=memory_limit, temp_directory=temp_directory)
            engine = cls(connection, output)
            with resolved_inputs(connection, private=private, **inputs) as resolved:
                engine.registered = any(value.registered for value in resolved.values())
                if not private:
                    refuse_a_text_collation(connection, caller, text_keys(engine, resolved))
                try:
                    yield engine, resolved
                finally:
                    # nothing left behind on a caller's connection
                    for name in engine._stored_names:
                        connection.unregister(name)
        finally:
            if private and output != "relation":
                connection.close()

    def column_types(self, resolved: ResolvedInput) -> dict[str, ColumnType]:
        # the checks and the warnings ask for an input's columns several times
        if resolved.sql not in self._column_types:
            self._column_types[resolved.sql] = self._read_column_types(resolved)
        return self._column_types[resolved.sql]

    def _read_column_types(self, resolved: ResolvedInput) -> dict[str, ColumnType]:
        try:
            relation = self.connection.sql(f"select * from {resolved.sql}")
        except duckdb.CatalogException:
            raise InputError(
                f"rankwise: the {resolved.label} does not exist on the connection. Pass `con`, the connection that "
                "holds it, or a DataFrame or file path instead.", table=resolved.label) from None
        except duckdb.Error as error:
            raise unreadable(resolved, error) from error
        return {column: column_type(kind) for column, kind in zip(relation.columns, relation.types)}

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        return self.connection.execute(query).fetchall()

    def run(self, query: str) -> duckdb.DuckDBPyRelation | _Query:
        if self.lazy:
            return self.connection.sql(query)
        return _Query(query)

    def computed(self, result: duckdb.DuckDBPyRelation | _Query) -> duckdb.DuckDBPyRelation | _Computed:
        if isinstance(result, _Query):
            return self._stored(self.connection.execute(result.sql))
        rows = detached_rows(result)
        computed = _over(self.connection, rows)
        # the rows behind the relation, read in Python (read) without a query
        self._computed.append((computed, rows))
        return computed

    def _stored(self, executed: duckdb.DuckDBPyConnection) -> _Computed:
        """An executed query's few rows as a DataFrame, under a name of their
        own by which SQL reads them again (registered when first read so)."""
        return _Computed(f"rw_result_{uuid.uuid4().hex}", executed.df())

    def _registered(self, result: _Computed) -> str:
        """The name a computed result is read under by SQL, registered on the
        connection the first time: a result only read in Python (the means
        without a warning query, a comparison) is never registered."""
        if result.name not in self._stored_names:
            self.connection.register(result.name, result.rows)
            self._stored_names.append(result.name)
        return result.name

    def rows_over(self, result: duckdb.DuckDBPyRelation | _Computed,
                  query: Callable[[str, MacroRenderer], str]) -> list[tuple[Any, ...]]:
        if isinstance(result, _Computed):
            return self.connection.execute(query(self._registered(result), self.macros)).fetchall()
        return result.query("rw_result", query("rw_result", self.macros)).fetchall()

    def read(self, result: duckdb.DuckDBPyRelation | _Computed, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        # The DataFrame the means are returned as, or the Arrow table a lazy
        # result was computed into: its values, without a query.
        if isinstance(result, _Computed):
            return frame_values(result.rows, columns)
        for computed, rows in self._computed:
            if result is computed:
                return frame_values(rows, columns)
        return super().read(result, columns)

    def returned(self, result: duckdb.DuckDBPyRelation | _Query | _Computed, output: str) -> Any:
        if isinstance(result, _Query):
            # DuckDB's Arrow and Polars results are its relation's: a DB-API
            # result copies the rows once more to make them
            return self.connection.execute(result.sql).df() if output == "pandas" else converted(
                self.connection.sql(result.sql), output)
        if isinstance(result, _Computed):
            return result.rows if output == "pandas" else converted(
                self.connection.sql(f"select * from {self._registered(result)}"), output)
        if output != "relation":
            return converted(result, output)
        if not self.registered or any(result is computed for computed, _ in self._computed):
            return result
        # Registered inputs are dropped on leaving the block of opened(): compute
        # the result now and hand it back as a relation over the computed data.
        return detached(self.connection, result)


@dataclasses.dataclass(frozen=True)
class _Query:
    """A result query not yet run: rankwise runs it once, when it is read."""

    sql: str


@dataclasses.dataclass(frozen=True)
class _Computed:
    """A result computed once (the means, a comparison) as a DataFrame, read
    under `name` by the queries over it."""

    name: str
    rows: Any


_PROCESS_DATABASE: list[duckdb.DuckDBPyConnection] = []
_PROCESS_DATABASE_LOCK = threading.Lock()


def _process_database() -> duckdb.DuckDBPyConnection:
    """The in-memory database rankwise's own connections are cursors of,
    opened once per process."""
    with _PROCESS_DATABASE_LOCK:
        if not _PROCESS_DATABASE:
            _PROCESS_DATABASE.append(duckdb.connect())
        return _PROCESS_DATABASE[0]


def detached(connection: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """The relation's rows computed now, as a relation over the computed data:
    it outlives the inputs registered for the query."""
    return _over(connection, detached_rows(relation))


def _over(connection: duckdb.DuckDBPyConnection, rows: Any) -> duckdb.DuckDBPyRelation:
    return connection.from_arrow(rows) if hasattr(rows, "column_names") else connection.from_df(rows)


def detached_rows(relation: duckdb.DuckDBPyRelation) -> Any:
    """The relation's rows computed now: an Arrow table, or without pyarrow a
    pandas DataFrame."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return relation.df()
    return relation.to_arrow_table()


def converted(relation: duckdb.DuckDBPyRelation, output: Output) -> Any:
    """The relation as the output asked (not "relation")."""
    if output == "arrow":
        return relation.to_arrow_table()
    if output == "polars":
        return relation.pl()
    return relation.df()
