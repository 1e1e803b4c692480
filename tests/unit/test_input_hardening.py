"""Inputs a careless or hostile caller passes get a rankwise error naming the
table and column or the argument, never a DuckDB error or a wrong number: NaN
and infinite ranks, scores and relevances on every input path; numpy numbers
wherever Python numbers go; categorical ids of any category text; id types that
differ between the tables."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rankwise
from rankwise.errors import ColumnTypeError, InvalidArgumentError, InvalidValueError

USERS = ["u1", "u1", "u1", "u2", "u2"]
ITEMS = ["a", "b", "c", "a", "d"]
RANKS = [1.0, 2.0, 3.0, 1.0, 2.0]
TRUTH = {"user_id": ["u1", "u1", "u2"], "item_id": ["b", "c", "d"], "relevance": [1.0, 2.0, 3.0]}

# How each input form labels its table in a message, and the forms themselves,
# built from an Arrow table so that NaN stays NaN (pandas' own constructor keeps
# it too; DuckDB then reads a pandas NaN as NULL).
INPUT_KINDS = ["pandas", "polars", "arrow", "relation", "table", "parquet", "csv"]


def _as_input(kind: str, table: pa.Table, role: str, tmp_path: Path, con: duckdb.DuckDBPyConnection) -> Any:
    if kind == "pandas":
        return table.to_pandas()
    if kind == "polars":
        return pl.from_arrow(table)
    if kind == "arrow":
        return table
    if kind == "relation":
        return con.from_arrow(table)
    if kind == "table":
        con.from_arrow(table).create(f"{role}_table")
        return f"{role}_table"
    path = tmp_path / f"{role}.{kind}"
    if kind == "parquet":
        pq.write_table(table, path)
    else:
        con.from_arrow(table).write_csv(str(path))
    return str(path)


def _label(kind: str, role: str, tmp_path: Path) -> str:
    return {
        "pandas": f"{role} (DataFrame)",
        "polars": f"{role} (DataFrame)",
        "arrow": f"{role} (Table)",
        "relation": f"{role} (DuckDBPyRelation)",
        "table": f"{role} table '{role}_table'",
        "parquet": f"{role} file '{tmp_path / (role + '.parquet')}'",
        "csv": f"{role} file '{tmp_path / (role + '.csv')}'",
    }[kind]


def _floats(values: list[float]) -> pa.Array:
    return pa.array(values, type=pa.float64(), from_pandas=False)


# (case, table holding the bad value, column, the value, the problem, the words of the message)
NON_FINITE = [
    ("nan rank", "recommendations", "rank", math.nan, "non_finite_rank", "NaN or infinite ranks"),
    ("inf rank", "recommendations", "rank", math.inf, "non_finite_rank", "NaN or infinite ranks"),
    ("-inf rank", "recommendations", "rank", -math.inf, "non_finite_rank", "NaN or infinite ranks"),
    ("nan score", "recommendations", "score", math.nan, "non_finite_score", "NaN or infinite scores"),
    ("inf score", "recommendations", "score", math.inf, "non_finite_score", "NaN or infinite scores"),
    ("-inf score", "recommendations", "score", -math.inf, "non_finite_score", "NaN or infinite scores"),
    ("nan relevance", "interactions", "relevance", math.nan, "non_finite_relevance", "NaN or infinite relevances"),
    ("inf relevance", "interactions", "relevance", math.inf, "non_finite_relevance", "NaN or infinite relevances"),
    ("-inf relevance", "interactions", "relevance", -math.inf, "non_finite_relevance", "NaN or infinite relevances"),
]


FIXES = {
    "non_finite_rank": "give every row a finite rank (1 = best), or drop those rows",
    "non_finite_score": "give every row a finite score, or drop those rows",
    "non_finite_relevance": "use finite numbers (0 = judged not relevant)",
    "null_rank": "give every row a rank (1 = best), or pass score_col",
    "null_score": "give every row a score, or drop those rows",
    "null_relevance": "fill them (0 = judged not relevant) or drop those rows",
}


@pytest.mark.parametrize("kind", INPUT_KINDS)
@pytest.mark.parametrize(("role", "column", "value", "problem", "words"),
                         [case[1:] for case in NON_FINITE], ids=[case[0] for case in NON_FINITE])
def test_non_finite_values_are_refused_on_every_input_path(tmp_path, kind, role, column, value, problem, words) -> None:
    # the third row of u1 (item c) or u1's second interaction (item c) holds the bad value
    position_values = [0.9, 0.8, 0.7, 0.9, 0.8] if column == "score" else list(RANKS)
    if role == "recommendations":
        position_values[2] = value
    relevances = list(TRUTH["relevance"])
    if role == "interactions":
        relevances[1] = value
    recommendations = pa.table({"user_id": USERS, "item_id": ITEMS, ("score" if column == "score" else "rank"): _floats(position_values)})
    interactions = pa.table({"user_id": TRUTH["user_id"], "item_id": TRUTH["item_id"], "relevance": _floats(relevances)})
    options = {"relevance_col": "relevance", **({"score_col": "score"} if column == "score" else {})}
    if kind == "pandas" and math.isnan(value):
        # DuckDB reads a NaN of a pandas float column as NULL
        problem, words = problem.replace("non_finite", "null"), words.replace("NaN or infinite", "null")
    example = "u1" if problem in ("null_rank", "null_score") else f"u1 / {'c' if role == 'interactions' else value}"

    con = duckdb.connect()
    inputs = {name: _as_input(kind, table, name, tmp_path, con)
              for name, table in (("recommendations", recommendations), ("interactions", interactions))}
    with pytest.raises(InvalidValueError) as raised:
        rankwise.evaluate(inputs["recommendations"], inputs["interactions"], ["ndcg@3", "map"], con=con, **options)
    table = _label(kind, role, tmp_path)
    assert str(raised.value) == (f"rankwise: 1 rows of the {table} have {words} in column '{column}' (for example "
                                 f"{example}): {FIXES[problem]}.")
    assert (raised.value.problem, raised.value.table, raised.value.column) == (problem, table, column)

    report = rankwise.check(inputs["recommendations"], inputs["interactions"], con=con, **options)
    errors = report[report["severity"] == "error"]
    # -inf is not also a rank below 1 or a negative relevance
    assert errors[["table", "problem", "column", "n_rows", "example"]].values.tolist() == [[table, problem, column, 1, example]]


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    recommendations = pd.DataFrame({"user_id": USERS, "item_id": ITEMS, "rank": [1, 2, 3, 1, 2],
                                    "model": ["m", "m", "m", "m", "m"]})
    return recommendations, pd.DataFrame(TRUTH)


# numpy value -> the Python value it stands for
NUMPY_ARGUMENTS = [
    ("k", np.int64(2), 2),
    ("k", np.int32(3), 3),
    ("k", [np.int64(1), np.uint8(3)], [1, 3]),
    ("k", np.array([1, 3]), [1, 3]),
    ("relevance_threshold", np.float32(2.0), 2.0),
    ("relevance_threshold", np.int64(2), 2),
    ("relevance_threshold", np.float64(1.5), 1.5),
    ("log_base", np.float64(2.0), 2.0),
    ("log_base", np.int16(10), 10),
    ("log_base", np.float64(math.e), math.e),
    ("per_user", np.bool_(True), True),
    ("group_by", np.str_("model"), "model"),
    ("metrics", np.array(["ndcg@3", "entropy@2"]), ["ndcg@3", "entropy@2"]),
]


@pytest.mark.parametrize(("name", "numpy_value", "python_value"), NUMPY_ARGUMENTS,
                         ids=[f"{case[0]}={case[1]!r}" for case in NUMPY_ARGUMENTS])
def test_numpy_numbers_are_python_numbers(name: str, numpy_value: Any, python_value: Any) -> None:
    recommendations, interactions = _frames()

    def evaluate(value: Any) -> pd.DataFrame:
        arguments: dict[str, Any] = {"metrics": ["ndcg@3", "map", "precision"], "relevance_col": "relevance", name: value}
        if name in ("per_user",):
            arguments["metrics"] = ["ndcg@3", "map"]
        return rankwise.evaluate(recommendations, interactions, **arguments)

    expected = evaluate(python_value)
    pd.testing.assert_frame_equal(evaluate(numpy_value), expected)
    if name == "relevance_threshold":  # the threshold changes the numbers: 2 leaves u1 one relevant item
        assert not expected.equals(evaluate(1))
    if name != "metrics" and name != "per_user":
        assert rankwise.sql("recs", "truth", ["ndcg@3", "entropy@2"], relevance_col="relevance", **{name: numpy_value}) == \
            rankwise.sql("recs", "truth", ["ndcg@3", "entropy@2"], relevance_col="relevance", **{name: python_value})


@pytest.mark.parametrize("k", [np.int64(5), [np.int64(2), np.int64(5)]], ids=repr)
def test_check_takes_a_numpy_k(k: Any) -> None:
    recommendations, interactions = _frames()
    report = rankwise.check(recommendations, interactions, k=k)
    short = report[report["problem"] == "lists_shorter_than_k"]
    # u1 has 3 items, u2 2, both below 5
    assert short[["n_rows", "example"]].values.tolist() == [[2, "u1"]]
    pd.testing.assert_frame_equal(report, rankwise.check(recommendations, interactions, k=5))


def _entry_points() -> list[tuple[str, Any]]:
    recommendations, interactions = _frames()
    return [
        ("evaluate", lambda **options: rankwise.evaluate(recommendations, interactions, ["ndcg@3", "entropy@2"], **options)),
        ("sql", lambda **options: rankwise.sql("recs", "truth", ["ndcg@3", "entropy@2"], **options)),
        ("check", lambda **options: rankwise.check(recommendations, interactions, **options)),
    ]


BAD_ARGUMENTS = [
    ("group_by", 1, "argument `group_by` must be a column name or a list of them; got 1"),
    ("group_by", {"model": 1}, "argument `group_by` must be a column name or a list of them"),
    ("group_by", [1], "every entry of `group_by` must be a non-empty column name; got 1"),
    ("relevance_threshold", math.nan, "argument `relevance_threshold` must be a finite number; got nan"),
    ("relevance_threshold", math.inf, "argument `relevance_threshold` must be a finite number; got inf"),
    ("relevance_threshold", -math.inf, "argument `relevance_threshold` must be a finite number; got -inf"),
    ("relevance_threshold", np.float64("nan"), "argument `relevance_threshold` must be a finite number; got nan"),
    ("relevance_threshold", np.float32("inf"), "argument `relevance_threshold` must be a finite number; got inf"),
    ("log_base", math.inf, "argument `log_base` must be a finite positive number other than 1"),
    ("log_base", -math.inf, "argument `log_base` must be a"),
    ("log_base", math.nan, "argument `log_base` must be a"),
    ("log_base", np.float64("inf"), "argument `log_base` must be a finite positive number other than 1"),
    ("k", np.int64(0), "argument `k` must be a positive integer"),
    ("k", np.float64(2.5), "argument `k` must be a positive integer"),
]


@pytest.mark.parametrize(("entry_point", "call"), _entry_points(), ids=[name for name, _ in _entry_points()])
@pytest.mark.parametrize(("name", "value", "message"), BAD_ARGUMENTS,
                         ids=[f"{case[0]}={case[1]!r}" for case in BAD_ARGUMENTS])
def test_bad_numbers_and_groups_name_the_argument(entry_point: str, call, name: str, value: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        call(**{name: value})
    assert message in str(raised.value)


CATEGORIES = ["Song [Live]", "roadmap", "STRUCT", "Union Jack", "MAP(x)", "list[]", "a", "b", "c", "d"]


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_categorical_ids_of_any_text(library: str) -> None:
    users = ["Song [Live]", "Song [Live]", "Song [Live]", "roadmap", "roadmap"]
    items = ["STRUCT", "Union Jack", "MAP(x)", "STRUCT", "list[]"]
    recommendations = pd.DataFrame({"user_id": users, "item_id": items, "rank": [1, 2, 3, 1, 2]})
    interactions = pd.DataFrame({"user_id": ["Song [Live]", "Song [Live]", "roadmap"], "item_id": ["Union Jack", "MAP(x)", "list[]"]})
    expected = rankwise.evaluate(recommendations, interactions, ["ndcg@3", "map", "precision@2"])

    def categorical(frame: pd.DataFrame) -> Any:
        if library == "pandas":
            return frame.astype({"user_id": pd.CategoricalDtype(CATEGORIES), "item_id": pd.CategoricalDtype(CATEGORIES)})
        return pl.from_pandas(frame).with_columns(pl.col("user_id", "item_id").cast(pl.Enum(CATEGORIES)))

    result = rankwise.evaluate(categorical(recommendations), categorical(interactions), ["ndcg@3", "map", "precision@2"])
    pd.testing.assert_frame_equal(result, expected)
    # u1: hits at 2 and 3, AP (1/2 + 2/3) / 2; u2: a hit at 2, AP 1/2
    assert result.set_index("metric").loc["map", "value"] == pytest.approx(((1 / 2 + 2 / 3) / 2 + 1 / 2) / 2, abs=1e-12)
    # and against plain strings on the other side
    mixed = rankwise.evaluate(categorical(recommendations), interactions, ["ndcg@3", "map", "precision@2"])
    pd.testing.assert_frame_equal(mixed, expected)


# A DuckDB type, an id of it, and the VARCHAR id the other table has
OTHER_ID_TYPES = [
    ("BOOLEAN", "true"),
    ("TIMESTAMP", "timestamp '2024-01-01 00:00:00'"),
    ("UUID", "uuid '6f1c2a8e-0000-4000-8000-000000000001'"),
    ("BLOB", "'\\x01'::blob"),
    ("DATE", "date '2024-01-01'"),
]


@pytest.fixture
def connection():
    con = duckdb.connect()
    yield con
    con.close()


@pytest.mark.parametrize("column", ["user_id", "item_id"])
@pytest.mark.parametrize("side", ["recommendations", "interactions"])
@pytest.mark.parametrize(("type_name", "literal"), OTHER_ID_TYPES, ids=[case[0] for case in OTHER_ID_TYPES])
def test_id_types_that_differ_are_a_type_mismatch(connection, column: str, side: str, type_name: str, literal: str) -> None:
    ids = {"user_id": "'u1'", "item_id": "'a'"}
    typed = {**ids, column: literal}
    recommendations = typed if side == "recommendations" else ids
    interactions = typed if side == "interactions" else ids
    connection.execute(f"create table recs as select {recommendations['user_id']} as user_id, {recommendations['item_id']} as item_id, 1 as rank")
    connection.execute(f"create table truth as select {interactions['user_id']} as user_id, {interactions['item_id']} as item_id")
    kinds = (type_name, "VARCHAR") if side == "recommendations" else ("VARCHAR", type_name)
    purpose = "user id" if column == "user_id" else "item id"
    message = (f"rankwise: the {purpose} column '{column}' is {kinds[0]} in the recommendations table 'recs' but "
               f"{kinds[1]} in the interactions table 'truth'; cast one so that both are strings or both numbers.")
    with pytest.raises(ColumnTypeError) as raised:
        rankwise.evaluate("recs", "truth", ["ndcg@3", "map"], con=connection)
    assert str(raised.value) == message
    report = rankwise.check("recs", "truth", con=connection)
    assert report[["severity", "problem", "column", "message"]].values.tolist() == [["error", "wrong_type", column, message]]


@pytest.mark.parametrize(("type_name", "literal"), OTHER_ID_TYPES, ids=[case[0] for case in OTHER_ID_TYPES])
def test_the_same_id_type_on_both_sides_is_evaluated(connection, type_name: str, literal: str) -> None:
    connection.execute(f"create table recs as select {literal} as user_id, item_id, rank from (values ('a', 1), ('b', 2)) as t(item_id, rank)")
    connection.execute(f"create table truth as select {literal} as user_id, 'b' as item_id")
    result = rankwise.evaluate("recs", "truth", ["map", "precision@2"], con=connection)
    assert result.set_index("metric")["value"].to_dict() == {"map": 0.5, "precision": 0.5}


@pytest.mark.parametrize(("type_name", "literal"), [("INTEGER[]", "[1]"), ("STRUCT(x INTEGER)", "{'x': 1}"),
                                                    ("MAP(INTEGER, INTEGER)", "map([1], [2])"),
                                                    ("INTEGER[2]", "array_value(1, 2)")])
def test_nested_ids_are_still_refused(connection, type_name: str, literal: str) -> None:
    connection.execute(f"create table recs as select {literal} as user_id, 'a' as item_id, 1 as rank")
    connection.execute(f"create table truth as select {literal} as user_id, 'a' as item_id")
    with pytest.raises(ColumnTypeError, match=rf"the user id column 'user_id' of the recommendations table 'recs' is of type "
                                              rf"{type_name.replace('[', '.').replace(']', '.').replace('(', '.').replace(')', '.')}; ids must be strings or numbers"):
        rankwise.evaluate("recs", "truth", ["map"], con=connection)


def test_a_relevance_too_large_for_the_exponential_gain_is_refused_not_nan():
    """2^1024 - 1 is past the largest double: DCG and IDCG would both be infinite
    and NDCG infinity over infinity, NaN. Linear gain takes the same relevance."""
    recommendations = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "b"], "rank": [1, 2]})
    interactions = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "b"], "relevance": [1024.0, 1.0]})
    with pytest.raises(InvalidValueError, match="relevances of 1024 or more.*gain='linear'"):
        rankwise.evaluate(recommendations, interactions, ["ndcg"], relevance_col="relevance", gain="exponential")
    report = rankwise.check(recommendations, interactions, relevance_col="relevance", gain="exponential")
    assert report["problem"].tolist() == ["relevance_too_large_for_exponential_gain"]
    # the largest relevance whose gain is finite still gives a number
    finite = rankwise.evaluate(recommendations, interactions.assign(relevance=[1023.0, 1.0]), ["ndcg"],
                               relevance_col="relevance", gain="exponential")
    assert finite["value"].tolist() == [1.0]
    linear = rankwise.evaluate(recommendations, interactions, ["ndcg"], relevance_col="relevance", gain="linear")
    assert linear["value"].tolist() == [1.0]
