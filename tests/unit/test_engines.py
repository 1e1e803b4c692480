"""The engine layer as a seam (rankwise.engines): the engine is picked from the
inputs and `con`, inputs of two engines are refused, each engine implements the
whole interface, and the checks read nothing but that interface: the column
types as engine-neutral families, with the engine's names in the messages.
Spark itself runs in tests/engines/test_spark_wrapper.py; here it is only named
(by classes whose module says pyspark), so no Spark is started."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

import rankwise
from rankwise import _api, _checks
from rankwise.engines import ColumnType, Engine, engine_for
from rankwise.engines.duckdb import DuckDBEngine
from rankwise.engines.spark import SparkEngine
from rankwise.errors import ColumnTypeError, InvalidArgumentError

FakeSparkFrame = type("DataFrame", (), {"__module__": "pyspark.sql.classic.dataframe"})
FakeSparkSession = type("SparkSession", (), {"__module__": "pyspark.sql.session"})


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


@pytest.mark.parametrize(("con", "inputs", "message"), [
    (None, {"recommendations": FakeSparkFrame(), "interactions": _frames()[1]},
     "rankwise.evaluate: the recommendations is a Spark DataFrame but the interactions is a pandas DataFrame: the "
     "inputs of one evaluation must live in one engine, and rankwise moves no table from one to the other."),
    (FakeSparkSession(), {"recommendations": "recs", "interactions": "truth", "train": _frames()[1]},
     "rankwise.evaluate: `con` is a SparkSession but the train is a pandas DataFrame"),
    (duckdb.connect(), {"recommendations": "recs", "interactions": FakeSparkFrame()},
     "rankwise.evaluate: the interactions is a Spark DataFrame but `con` is a duckdb DuckDBPyConnection: pass the "
     "SparkSession"),
])
def test_inputs_of_two_engines_are_refused_before_anything_runs(con, inputs, message) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        engine_for("evaluate", con, inputs)
    assert message in str(raised.value)


def test_each_engine_implements_the_whole_interface() -> None:
    for engine in (DuckDBEngine, SparkEngine):
        assert issubclass(engine, Engine) and not engine.__abstractmethods__
        assert engine.check_output("evaluate", None) == engine.outputs[0]
    assert (DuckDBEngine.adapter_type, SparkEngine.adapter_type) == ("duckdb", "spark")
    assert (DuckDBEngine.outputs[0], SparkEngine.outputs[0]) == ("pandas", "spark")
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
