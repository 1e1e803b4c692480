"""The engine layer as a seam (rankwise.engines): the engine is picked from the
inputs and `con`, inputs of two engines are refused, each engine implements the
whole interface, and the checks read nothing but that interface: the column
types as engine-neutral families, with the engine's names in the messages.
Spark itself runs in tests/engines/test_spark_wrapper.py and ClickHouse in
tests/engines/test_clickhouse_wrapper.py; here they are only named (by classes
whose module says pyspark or chdb), so neither is started nor imported."""

from __future__ import annotations

import duckdb
import pandas as pd
import pyarrow as pa
import pytest

import rankwise
from rankwise import _api, _checks
from rankwise.engines import ColumnType, Engine, engine_for
from rankwise.engines import clickhouse
from rankwise.engines.clickhouse import ClickHouseEngine
from rankwise.engines.duckdb import DuckDBEngine
from rankwise.engines.spark import SparkEngine
from rankwise.errors import ColumnTypeError, InputError, InvalidArgumentError

FakeSparkFrame = type("DataFrame", (), {"__module__": "pyspark.sql.classic.dataframe"})
FakeSparkSession = type("SparkSession", (), {"__module__": "pyspark.sql.session"})
FakeChdbSession = type("Session", (), {"__module__": "chdb.session.state"})


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    return (pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "rank": [1, 2]}),
            pd.DataFrame({"user_id": ["u1"], "item_id": ["b"]}))


def test_the_engine_is_picked_from_the_inputs_and_con() -> None:
    recommendations = _frames()[0]
    assert engine_for("evaluate", None, {"recommendations": recommendations, "interactions": "truth.csv"}) is DuckDBEngine
    assert engine_for("evaluate", duckdb.connect(), {"recommendations": "recs", "interactions": "truth"}) is DuckDBEngine
    assert engine_for("evaluate", None, {"recommendations": FakeSparkFrame(), "interactions": FakeSparkFrame(),
                                         "items": None}) is SparkEngine
    assert engine_for("check", FakeSparkSession(), {"recommendations": "recs", "interactions": FakeSparkFrame()}) \
        is SparkEngine
    assert engine_for("compare", FakeChdbSession(), {"recommendations": "recs", "interactions": "analytics.truth",
                                                     "train": None}) is ClickHouseEngine
    # a class of that name from another package is not a chDB session
    assert engine_for("evaluate", type("Session", (), {})(), {"recommendations": "recs",
                                                             "interactions": "truth"}) is DuckDBEngine


@pytest.mark.parametrize(("con", "inputs", "message"), [
    (None, {"recommendations": FakeSparkFrame(), "interactions": _frames()[1]},
     "rankwise.evaluate: the recommendations is a Spark DataFrame but the interactions is a pandas DataFrame: the "
     "inputs of one evaluation must live in one engine, and rankwise moves no table from one to the other."),
    (FakeSparkSession(), {"recommendations": "recs", "interactions": "truth", "train": _frames()[1]},
     "rankwise.evaluate: `con` is a SparkSession but the train is a pandas DataFrame"),
    (duckdb.connect(), {"recommendations": "recs", "interactions": FakeSparkFrame()},
     "rankwise.evaluate: the interactions is a Spark DataFrame but `con` is a duckdb DuckDBPyConnection: pass the "
     "SparkSession"),
    (FakeChdbSession(), {"recommendations": "recs", "interactions": _frames()[1]},
     "rankwise.evaluate: `con` is a chDB session but the interactions is a pandas DataFrame: the inputs of one "
     "evaluation must live in one engine, and rankwise moves no table from one to the other. Pass every input as a "
     "table name of the session, or every one as local data (pandas, polars, Arrow, files) to run on DuckDB."),
    (FakeChdbSession(), {"recommendations": FakeSparkFrame(), "interactions": "truth"},
     "rankwise.evaluate: the recommendations is a Spark DataFrame but `con` is a chdb Session: pass the SparkSession"),
])
def test_inputs_of_two_engines_are_refused_before_anything_runs(con, inputs, message) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        engine_for("evaluate", con, inputs)
    assert message in str(raised.value)


def test_each_engine_implements_the_whole_interface() -> None:
    for engine in (DuckDBEngine, SparkEngine, ClickHouseEngine):
        assert issubclass(engine, Engine) and not engine.__abstractmethods__
        assert engine.check_output("evaluate", None) == engine.outputs[0]
    assert (DuckDBEngine.adapter_type, SparkEngine.adapter_type, ClickHouseEngine.adapter_type) == \
        ("duckdb", "spark", "clickhouse")
    assert (DuckDBEngine.outputs[0], SparkEngine.outputs[0], ClickHouseEngine.outputs[0]) == \
        ("pandas", "spark", "pandas")
    with pytest.raises(InvalidArgumentError, match=r"`output` must be one of 'pandas', 'arrow', 'polars', "
                                                   r"'relation'; got 'spark'"):
        rankwise.evaluate(*_frames(), ["ndcg"], output="spark")


def test_the_checks_read_the_engine_not_duckdb() -> None:
    assert not hasattr(_checks, "duckdb")


def test_duckdbs_types_in_families() -> None:
    connection = duckdb.connect()
    connection.execute("create type mood as enum ('happy', 'sad')")
    relation = connection.sql(
        "select 1::bigint as n, 1.5::decimal(4, 1) as d, 'x' as s, 'happy'::mood as e, null as z, [1.0] as l, "
        "array_value(1, 2) as a, {'x': 1} as st, map([1], [2]) as m, date '2024-01-01' as dt, true as b")
    engine = DuckDBEngine(connection)
    from rankwise.engines import ResolvedInput

    types = engine.column_types(ResolvedInput(f"({relation.sql_query()})", "table"))
    assert {column: (kind.family, kind.name) for column, kind in types.items()} == {
        "n": ("number", "BIGINT"), "d": ("number", "DECIMAL(4,1)"), "s": ("string", "VARCHAR"),
        "e": ("string", "ENUM"), "z": ("null", '"NULL"'), "l": ("nested", "DECIMAL(2,1)[]"),
        "a": ("nested", "INTEGER[2]"), "st": ("nested", "STRUCT(x INTEGER)"),
        "m": ("nested", "MAP(INTEGER, INTEGER)"), "dt": ("other", "DATE"), "b": ("other", "BOOLEAN")}
    assert types["l"].element == ColumnType("number", "DECIMAL(2,1)")
    assert types["a"].element == ColumnType("number", "INTEGER")
    assert [kind.compares_as for kind in (types["n"], types["s"], types["z"], types["dt"])] == \
        ["number", "string", None, "DATE"]


def test_the_messages_name_the_types_as_the_engine_names_them(monkeypatch) -> None:
    """An engine of other type names (as Spark's STRING for DuckDB's VARCHAR)
    gets them in the checks' messages, from the checks shared by every engine."""
    class Renamed(DuckDBEngine):
        def column_types(self, resolved):
            return {column: ColumnType(kind.family, kind.name.replace("VARCHAR", "TEXT"), kind.element)
                    for column, kind in super().column_types(resolved).items()}

    monkeypatch.setattr(_api, "engine_for", lambda caller, con, inputs: Renamed)
    recommendations, interactions = _frames()
    with pytest.raises(ColumnTypeError, match=r"the rank column 'rank' of the recommendations \(DataFrame\) is of type "
                                              r"TEXT; it must be numeric"):
        rankwise.evaluate(recommendations.assign(rank=["1", "2"]), interactions, ["ndcg"])


def test_item_vectors_of_a_fixed_size_array_read_as_a_list() -> None:
    """DuckDB's ARRAY (DOUBLE[2]) names its element type among its children:
    the item vector check reads it (it once failed with an AttributeError) and
    the distance is that of the same vectors as a list."""
    connection = duckdb.connect()
    connection.execute("create table items as select * from (values ('a', [1.0, 0.0]::double[2]), "
                       "('b', [0.0, 1.0]::double[2]), ('c', [1.0, 1.0]::double[2])) as t(item_id, vec)")
    connection.execute("create table recs as select * from (values ('u1', 'a', 1), ('u1', 'b', 2), ('u1', 'c', 3)) "
                       "as t(user_id, item_id, rank)")
    connection.execute("create table truth as select 'u1' as user_id, 'a' as item_id")
    values = [rankwise.evaluate("recs", "truth", ["intra_list_diversity@3"], items=items, item_vector_col="vec",
                                con=connection)["value"].item()
              for items in ("items", connection.sql("select item_id, vec::double[] as vec from items"))]
    assert values[0] == pytest.approx(values[1], abs=1e-15) and values[0] > 0


def test_clickhouses_types_in_families() -> None:
    """ClickHouse's types as DESCRIBE spells them, each named whole in messages,
    in the family of the type inside Nullable and LowCardinality."""
    families = {
        "Int64": "number", "UInt8": "number", "Nullable(Int256)": "number", "Float32": "number",
        "Nullable(Float64)": "number", "BFloat16": "number", "Decimal(9, 2)": "number", "Decimal128(4)": "number",
        "String": "string", "Nullable(String)": "string", "LowCardinality(String)": "string",
        "LowCardinality(Nullable(String))": "string", "FixedString(16)": "string",
        "Nothing": "null", "Nullable(Nothing)": "null",
        "Array(Float64)": "nested", "Map(String, Int64)": "nested", "Tuple(a Int64, b String)": "nested",
        "Nested(a Int64)": "nested",
        "Date": "other", "DateTime64(3, 'UTC')": "other", "Bool": "other", "UUID": "other",
        "Enum8('a' = 1, 'b(' = 2)": "other", "Nullable(IPv4)": "other",
    }
    types = {name: clickhouse.column_type(name) for name in families}
    assert {name: kind.family for name, kind in types.items()} == families
    assert all(kind.name == name for name, kind in types.items())
    assert clickhouse.column_type("Array(Nullable(Float64))").element == ColumnType("number", "Nullable(Float64)")
    assert clickhouse.column_type("Array(Array(Int32))").element == \
        ColumnType("nested", "Array(Int32)", ColumnType("number", "Int32"))
    assert clickhouse.column_type("Map(String, Int64)").element is None
    assert [types[name].compares_as for name in ("UInt8", "LowCardinality(String)", "Nullable(Nothing)", "Date")] == \
        ["number", "string", None, "Date"]


def test_clickhouse_refuses_duckdbs_settings_and_file_paths_before_reading_the_session() -> None:
    """The chDB session is not touched: a stand-in without a query method."""
    inputs = {"recommendations": "recs", "interactions": "truth.parquet"}
    opened = ClickHouseEngine.opened("evaluate", FakeChdbSession(), inputs, output="pandas",
                                     settings={"memory_limit": "1GB", "temp_directory": None},
                                     text_keys=lambda engine, resolved: [])
    with pytest.raises(InvalidArgumentError, match=r"^rankwise.evaluate: `memory_limit` is a setting of rankwise's "
                                                   r"own DuckDB connection; on ClickHouse, the session's own settings "
                                                   r"apply .*, as rankwise leaves its settings as they are.$"):
        opened.__enter__()
    opened = ClickHouseEngine.opened("evaluate", FakeChdbSession(), inputs, output="pandas", settings={},
                                     text_keys=lambda engine, resolved: [])
    with pytest.raises(InputError, match=r"^rankwise: the interactions 'truth.parquet' looks like a file path, and on "
                                         r"ClickHouse a string names a table of the session: load it into a table"):
        opened.__enter__()
    with ClickHouseEngine.opened("evaluate", FakeChdbSession(), {"recommendations": "analytics.recs",
                                                                  "interactions": "Truth Table"},
                                 output="arrow", settings={}, text_keys=lambda engine, resolved: []) as (engine, resolved):
        assert (resolved["recommendations"].sql, resolved["interactions"].sql) == ("analytics.recs", '"Truth Table"')
        assert resolved["interactions"].label == "interactions table 'Truth Table'"
        assert engine.output == "arrow"


def test_clickhouse_sets_what_it_needs_on_each_query_only() -> None:
    """Every query ends in the settings rankwise needs; nothing is SET on the
    session."""
    asked = []
    session = FakeChdbSession()
    session.query = lambda query, fmt: asked.append((query, fmt)) or pa.table({"n": [1]})
    engine = ClickHouseEngine(session, "pandas")
    assert engine.rows("select 1 as n") == [(1,)]
    assert engine.computed(engine.run("select 1 as n")).equals(pa.table({"n": [1]}))
    assert asked == [
        ("select 1 as n\nsettings join_use_nulls = 1, cast_keep_nullable = 1, max_query_size = 10000000", fmt)
        for fmt in ("ArrowTable", "DataFrame")]
