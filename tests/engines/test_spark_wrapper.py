"""The Python wrapper on Spark: rankwise.evaluate, compare and check given Spark
DataFrames run the macros rendered with Spark's dispatch in the DataFrames'
session (rankwise.engines.spark), with every input check, and give what they
give on DuckDB for the same data as pandas:

- the integration cases (every case of var('rankwise_test_cases'): golden,
  ties, users, random, with and without partitions) as means and per user, the
  comparison of the integration project and evaluate's bootstrap interval of
  entropy, every value within 1e-9 of the DuckDB path;
- bad input: the rankwise error and message DuckDB gives (in Spark's names of
  the types), raised before Spark runs the metrics; check's report, row for row;
  the coverage warnings;
- the result is a Spark DataFrame (pandas, Arrow or polars on request), the
  inputs never leave Spark, and nothing is left in the session's catalog.

One local SparkSession for the module (its start is the slow part)."""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import rankwise
from rankwise.errors import InputError, InvalidArgumentError, InvalidValueError, NoOverlapError
from tests.engines import wrapper_parity
from tests.engines.engines import spark_test_settings
from tests.reference import comparison_seeds, make_expected, popularity_seeds
from tests.unit import test_validation

pyspark = pytest.importorskip("pyspark")
# PySpark 4 warns of the pandas 3 it meets, in its own conversions.
pytestmark = [pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
              pytest.mark.filterwarnings("ignore:The copy keyword is deprecated:Warning:pyspark")]

SEEDS = make_expected.SEEDS
CASES = make_expected.cases()


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory, selected_engines: list[str]) -> Iterator[Any]:
    """A local Spark with the integration project's settings (the data are
    small), its warehouse in a scratch folder, stopped at the end; only when
    --engines selects Spark."""
    if "spark" not in selected_engines:
        pytest.skip("starts Spark: spark must be among --engines")
    from pyspark.sql import SparkSession

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder.appName("rankwise-wrapper").config("spark.ui.showConsoleProgress", "false")
    for name, value in spark_test_settings().items():
        builder = builder.config(name, value)
    session = builder.config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("spark-warehouse"))).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _spark_type(values: Any) -> Any:
    from pyspark.sql import types

    if isinstance(values, pa.ChunkedArray):
        kind = values.type
        if pa.types.is_integer(kind):
            return types.LongType()
        if pa.types.is_floating(kind):
            return types.DoubleType()
        return types.StringType()
    if pd.api.types.is_bool_dtype(values):
        return types.BooleanType()
    if pd.api.types.is_integer_dtype(values):
        return types.LongType()
    if pd.api.types.is_float_dtype(values):
        return types.DoubleType()
    if pd.api.types.is_string_dtype(values) or pd.api.types.is_object_dtype(values):
        return types.StringType()
    raise TypeError(f"no Spark type for {values.dtype}")


def _plain(value: Any, from_pandas: bool) -> Any:
    """A cell as Spark takes it: numpy scalars as Python's; a pandas NaN is a
    null (as DuckDB reads it), an Arrow NaN a NaN."""
    if value is None or (from_pandas and value is pd.NA):
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if from_pandas and isinstance(value, float) and math.isnan(value):
        return None
    return value


def to_spark(spark: Any, frame: pd.DataFrame | pa.Table) -> Any:
    """The same table as a Spark DataFrame, of an explicit schema (an empty
    frame has nothing to infer one from)."""
    from pyspark.sql import types

    from_pandas = isinstance(frame, pd.DataFrame)
    columns = list(frame.columns) if from_pandas else frame.column_names
    cells = [frame[column].tolist() if from_pandas else frame.column(column).to_pylist() for column in columns]
    schema = types.StructType([types.StructField(column, _spark_type(frame[column] if from_pandas else frame.column(column)))
                               for column in columns])
    rows = [tuple(_plain(value, from_pandas) for value in row) for row in zip(*cells)]
    return spark.createDataFrame(rows, schema)


def _seed(name: str) -> pd.DataFrame:
    frame = pd.read_csv(SEEDS / f"{name}.csv", dtype={"example_id": str, "model": str, "user_id": str,
                                                      "item_id": str})
    return frame


@pytest.fixture(scope="module")
def seeds(spark) -> dict[str, tuple[pd.DataFrame, Any]]:
    """Each input seed of the cases as pandas and as a Spark DataFrame."""
    names = {case[role] for case in CASES for role in ("recommendations", "interactions")}
    frames = {name: _seed(name) for name in sorted(names)}
    return {name: (frame, to_spark(spark, frame)) for name, frame in frames.items()}


def _assert_same_table(on_spark: pd.DataFrame, on_duckdb: pd.DataFrame, keys: list[str]) -> None:
    wrapper_parity.assert_same_table(on_spark, on_duckdb, keys, "Spark")


def _k(value: Any) -> str:
    return "" if pd.isna(value) else str(int(value))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_integration_case_gives_on_spark_what_it_gives_on_duckdb(case, seeds) -> None:
    """The means of every case, ties of every kind and partitions included; for
    the default case of each seed, with the input checks on Spark and the
    per-user values of every metric but entropy too. The dbt build of the
    integration project runs the same SQL on Spark for every case, per user and
    means (tests/engines/test_dbt_integration.py), and the bad-input tests below
    check each input check on Spark: what this test adds is the wrapper's way
    in and out of Spark, which is the same for every case, and each case's
    checks and per-user run would be most of this file's time."""
    arguments = make_expected.evaluate_arguments(case)
    (recommendations, spark_recommendations), (interactions, spark_interactions) = (
        seeds[case["recommendations"]], seeds[case["interactions"]])
    split = arguments.get("partition_by") or arguments.get("group_by")
    user_metrics = [metric for metric in case["metrics"] if metric != "entropy"]
    per_user = {**arguments, "metrics": user_metrics, "per_user": True}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rankwise.RankwiseWarning)
        means = rankwise.evaluate(spark_recommendations, spark_interactions, output="pandas",
                                  validate=case["name"].endswith("__default"), **arguments)
        _assert_same_table(means, rankwise.evaluate(recommendations, interactions, **arguments),
                           [*split, "metric", "k"])
        if user_metrics and case["name"].endswith("__default"):
            on_spark = rankwise.evaluate(spark_recommendations, spark_interactions, output="pandas",
                                         validate=False, **per_user)
            _assert_same_table(on_spark, rankwise.evaluate(recommendations, interactions, **per_user),
                               ["user_id", *split, "metric", "k"])


def test_the_comparison_of_the_integration_project_is_the_same_on_spark(spark) -> None:
    """compare with the randomization test and the bootstrap: the seeded draws
    are the same on both engines, so every column is. Two metrics, at a cutoff
    and the whole list: the dbt build runs the integration project's whole
    comparison on Spark (every metric and cutoff, the same SQL), so what this
    adds is the wrapper's way in and out of Spark, the same for any metric."""
    recommendations = pd.read_csv(comparison_seeds.RECOMMENDATIONS)
    interactions = pd.read_csv(comparison_seeds.INTERACTIONS)
    arguments = {"metrics": ["precision", "ndcg"], "k": [3, None], **comparison_seeds.ARGUMENTS}
    on_spark = rankwise.compare(to_spark(spark, recommendations), to_spark(spark, interactions), **arguments)
    assert type(on_spark).__name__ == "DataFrame" and type(on_spark).__module__.startswith("pyspark.")
    expected = rankwise.compare(recommendations, interactions, **arguments)
    _assert_same_table(on_spark.toPandas(), expected, ["example_id", "metric", "k", "model", "baseline"])
    table = rankwise.comparison_table(on_spark)
    assert table.equals(rankwise.comparison_table(expected))


def test_list_level_metrics_compare_the_same_on_spark(spark) -> None:
    """compare of popularity_lift and miscalibration beside hit_rate (the two
    kinds of pairs in one query), the catalog and the train interactions given
    as Spark DataFrames too (their checks are evaluate's, tested on Spark
    above; the dbt build runs the same comparison with the resampling tests
    on Spark: popularity_comparison__actual)."""
    recommendations = popularity_seeds._read(popularity_seeds.RECOMMENDATIONS)
    items = popularity_seeds._read(popularity_seeds.ITEMS)
    interactions, train = popularity_seeds._read(popularity_seeds.INTERACTIONS), popularity_seeds.inputs()
    arguments = {"metrics": ["popularity_lift@3", "miscalibration@3", "hit_rate@3"], "baseline": "model_a",
                 "partition_by": "example_id", "item_group_col": popularity_seeds.GROUP_COL}
    on_spark = rankwise.compare(to_spark(spark, recommendations), to_spark(spark, interactions), items=to_spark(spark, items),
                                train=to_spark(spark, train), output="pandas", validate=False, **arguments)
    expected = rankwise.compare(recommendations, interactions, items=items, train=train, **arguments)
    assert set(expected["metric"]) == {"popularity_lift", "miscalibration", "hit_rate"}
    _assert_same_table(on_spark, expected, ["example_id", "metric", "k", "model", "baseline"])


def test_the_bootstrap_interval_of_entropy_is_the_same_on_spark(spark) -> None:
    recommendations = pd.read_csv(comparison_seeds.RECOMMENDATIONS)
    interactions = pd.read_csv(comparison_seeds.INTERACTIONS)
    metrics = ["entropy@3", "entropy@10"]
    on_spark = rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions), metrics,
                                 output="pandas", **comparison_seeds.ENTROPY_ARGUMENTS)
    expected = rankwise.evaluate(recommendations, interactions, metrics, **comparison_seeds.ENTROPY_ARGUMENTS)
    _assert_same_table(on_spark, expected, ["example_id", "model", "metric", "k"])


def test_the_beyond_accuracy_metrics_read_the_catalog_and_train_on_spark(spark) -> None:
    """The default call of integration_tests/models/beyond_accuracy__actual.sql:
    the catalog (with a vector per item) and the train interactions as Spark
    DataFrames too, checked and read in Spark."""
    frames = {role: _seed(f"input__beyond__{role}") for role in ("recommendations", "interactions", "train", "items")}
    vectors = frames["items"].assign(vector=frames["items"][["f1", "f2", "f3"]].values.tolist())[["item_id", "vector"]]
    on_spark = {role: to_spark(spark, frame) for role, frame in frames.items() if role != "items"}
    spark_vectors = to_spark(spark, frames["items"]).selectExpr("item_id", "array(f1, f2, f3) as vector")
    arguments = {"metrics": ["coverage", "gini", "personalization", "novelty", "arp", "long_tail_share", "serendipity",
                             "intra_list_diversity"],
                 "k": [1, 3, 5], "group_by": ["model"], "partition_by": ["example_id"], "item_vector_col": "vector",
                 "head_share": 0.6}
    result = rankwise.evaluate(on_spark["recommendations"], on_spark["interactions"], items=spark_vectors,
                               train=on_spark["train"], output="pandas", **arguments)
    expected = rankwise.evaluate(frames["recommendations"], frames["interactions"], items=vectors,
                                 train=frames["train"], **arguments)
    _assert_same_table(result, expected, ["example_id", "model", "metric", "k"])


def test_serendipity_beside_the_accuracy_metrics_is_the_same_on_spark(spark) -> None:
    """Beside ndcg at a cutoff that holds serendipity's, Spark reads each shown
    item's relevance off its list's relevant ranks (rw_list_bits), by model and
    fold: the values DuckDB gives each metric asked alone."""
    frames = {role: _seed(f"input__beyond__{role}") for role in ("recommendations", "interactions", "train", "items")}
    arguments = {"metrics": ["serendipity@3", "ndcg@5"], "group_by": ["model"], "partition_by": ["example_id"],
                 "per_user": True}
    assert "rw_list_bits as shown" in rankwise.sql("recommendations", "interactions", dialect="spark", items="items",
                                                   train="train", **arguments)
    on_spark = {role: to_spark(spark, frame) for role, frame in frames.items()}
    result = rankwise.evaluate(on_spark["recommendations"], on_spark["interactions"], items=on_spark["items"],
                               train=on_spark["train"], output="pandas", **arguments)
    # each metric alone on DuckDB: serendipity there joins the interactions
    alone = {key: value for key, value in arguments.items() if key != "metrics"}
    expected = pd.concat([rankwise.evaluate(frames["recommendations"], frames["interactions"], ["serendipity@3"],
                                            items=frames["items"], train=frames["train"], **alone),
                          rankwise.evaluate(frames["recommendations"], frames["interactions"], ["ndcg@5"], **alone)],
                         ignore_index=True)
    _assert_same_table(result, expected, ["example_id", "model", "user_id", "metric", "k"])


def test_the_reference_list_and_inverse_propensity_metrics_are_the_same_on_spark(spark) -> None:
    """integration_tests/models/reference_overlap__actual.sql's and
    propensity__actual.sql's calls, the inputs Spark DataFrames, checked (a
    reference that is no model, a propensity above 1) and computed in Spark."""
    recommendations = _seed("input__comparison__recommendations")
    interactions = _seed("input__comparison__interactions")
    overlap = {"metrics": ["rbo", "rbo(p=0.5)", "intersection"], "k": [1, 3, 5], "partition_by": ["example_id"],
               "model_col": "model", "reference": "model_a", "relevance_col": "relevance"}
    for without_reference in ("no_value", "zero"):
        result = rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions), output="pandas",
                                   without_reference=without_reference, **overlap)
        expected = rankwise.evaluate(recommendations, interactions, without_reference=without_reference, **overlap)
        _assert_same_table(result, expected, ["example_id", "model", "metric_label"])
    with pytest.raises(InvalidArgumentError, match="the reference 'model_z' is not a value of the model column 'model'"):
        rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions),
                          **{**overlap, "reference": "model_z"})
    lists = _seed("input__random__recommendations")
    weighted = _seed("input__propensity__interactions")
    propensity = {"metrics": ["recall", "dcg", "idcg", "ndcg"], "k": [1, 3, 5], "group_by": ["example_id"],
                  "relevance_col": "relevance", "propensity_col": "propensity", "propensity_clip": 0.2}
    result = rankwise.evaluate(to_spark(spark, lists), to_spark(spark, weighted), output="pandas", **propensity)
    _assert_same_table(result, rankwise.evaluate(lists, weighted, **propensity), ["example_id", "metric", "k"])
    with pytest.raises(InvalidValueError, match="propensities that are not numbers above 0 and at most 1"):
        rankwise.evaluate(to_spark(spark, lists), to_spark(spark, weighted.assign(propensity=1.5)), **propensity)


# The result, the inputs and the session.

def _small(spark: Any) -> tuple[Any, Any]:
    return (to_spark(spark, test_validation._recommendations()), to_spark(spark, test_validation._interactions()))


def _guarded(frame: Any) -> Any:
    """The DataFrame, with every way of bringing its rows to the driver made
    to fail: rankwise must read it in Spark only."""
    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("rankwise brought an input's rows to the driver")

    for method in ("toPandas", "toArrow", "collect", "toLocalIterator", "take", "head", "first", "tail", "count"):
        setattr(frame, method, refused)
    return frame


def test_spark_input_gives_a_spark_dataframe_and_leaves_the_session_as_it_was(spark) -> None:
    """Means and per-user values come back as Spark DataFrames (the per-user one
    lazy, and readable after the call); the inputs' rows never reach the driver,
    and no view is left in the catalog."""
    recommendations, interactions = (_guarded(frame) for frame in _small(spark))
    views_before = [table.name for table in spark.catalog.listTables()]
    means = rankwise.evaluate(recommendations, interactions, ["ndcg@3", "map"], relevance_col="relevance")
    per_user = rankwise.evaluate(recommendations, interactions, ["ndcg@3"], relevance_col="relevance",
                                 per_user=True)
    assert [table.name for table in spark.catalog.listTables()] == views_before
    for result in (means, per_user):
        assert type(result).__name__ == "DataFrame" and type(result).__module__.startswith("pyspark.")
    expected = test_validation._evaluate(test_validation._recommendations(), test_validation._interactions())
    _assert_same_table(means.toPandas(), expected, ["metric", "k"])
    assert sorted(row.user_id for row in per_user.collect()) == ["u1", "u2"]
    assert set(per_user.columns) >= {"user_id", "metric", "k", "value", "dcg", "idcg"}


def test_a_cached_input_stays_cached_and_the_metrics_read_the_cache(spark) -> None:
    """Spark's spark.catalog.dropTempView, which spark.sql(query, name=frame)
    calls on the view it makes of the frame, also uncaches the frame: the
    caller's cache of an input must be as it was after a call, and the query
    must read the inputs from it."""
    from pyspark import StorageLevel

    recommendations, interactions = (frame.persist(StorageLevel.MEMORY_ONLY) for frame in _small(spark))
    try:
        rankwise.evaluate(recommendations, interactions, ["ndcg@3", "map"], relevance_col="relevance")
        # the per-user values are a lazy query of the inputs (the means are collected)
        per_user = rankwise.evaluate(recommendations, interactions, ["ndcg@3"], relevance_col="relevance",
                                     per_user=True)
        plan = per_user._jdf.queryExecution().executedPlan().toString()
        # every scan of an input's rows is the one its cache was made of
        assert 0 < plan.count("InMemoryRelation") == plan.count("Scan ExistingRDD"), plan
        for frame in (recommendations, interactions):
            assert frame.storageLevel == StorageLevel.MEMORY_ONLY
    finally:
        for frame in (recommendations, interactions):
            frame.unpersist()


def test_output_asks_for_pandas_arrow_or_polars_and_refuses_duckdbs_relation(spark) -> None:
    recommendations, interactions = _small(spark)
    expected = test_validation._evaluate(test_validation._recommendations(), test_validation._interactions())
    for output, convert in (("pandas", lambda table: table), ("arrow", lambda table: table.to_pandas()),
                            ("polars", lambda table: table.to_pandas())):
        # the checks ran on these inputs in the other tests
        result = test_validation._evaluate(recommendations, interactions, output=output, validate=False)
        _assert_same_table(convert(result), expected, ["metric", "k"])
    with pytest.raises(InvalidArgumentError, match=r"`output` must be one of 'spark', 'pandas', 'arrow', 'polars' "
                                                   r"on Spark .*; got 'relation'"):
        test_validation._evaluate(recommendations, interactions, output="relation")


@pytest.mark.parametrize(("with_a_date", "with_pyarrow"), [(False, True), (True, True), (False, False)],
                         ids=["strings, numbers and booleans", "with a date", "without pyarrow"])
def test_collected_means_become_the_dataframe_spark_would_make(spark, monkeypatch, with_a_date: bool,
                                                               with_pyarrow: bool) -> None:
    """The means, on the driver, become pandas as Spark's toPandas makes them
    (each type with and without nulls); of strings, numbers and booleans
    without a Spark job, as they are already collected, where pyarrow is
    installed."""
    import datetime

    from pyspark.sql import types

    from rankwise.engines.spark import SparkEngine, _Collected

    values = {types.StringType(): "ndcg", types.BooleanType(): True, types.ByteType(): 1, types.ShortType(): 2,
              types.IntegerType(): 10, types.LongType(): 2499, types.FloatType(): 0.5, types.DoubleType(): 0.213375}
    if with_a_date:
        values[types.DateType()] = datetime.date(2026, 11, 30)
    schema = types.StructType([types.StructField(f"{kind.typeName()}_{nulls}", kind)
                               for kind in values for nulls in ("full", "with_null")])
    rows = [tuple(value for value in values.values() for _ in range(2)),
            tuple(cell for value in values.values() for cell in (value, None))]
    frame = spark.createDataFrame(rows, schema)
    collected = _Collected(frame.collect(), frame.schema)
    expected = frame.toPandas()
    if not with_pyarrow:
        monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    tracker = spark.sparkContext.statusTracker()
    jobs_before = set(tracker.getJobIdsForGroup())
    converted = SparkEngine(spark).returned(collected, "pandas")
    assert (set(tracker.getJobIdsForGroup()) == jobs_before) is (with_pyarrow and not with_a_date)
    pd.testing.assert_frame_equal(converted, expected)


def test_table_names_are_read_in_the_session_given_as_con(spark) -> None:
    recommendations, interactions = _small(spark)
    recommendations.createOrReplaceTempView("rw_test_recs")
    interactions.createOrReplaceTempView("rw_test_truth")
    try:
        result = test_validation._evaluate("rw_test_recs", "rw_test_truth", con=spark, output="pandas")
        expected = test_validation._evaluate(test_validation._recommendations(), test_validation._interactions())
        _assert_same_table(result, expected, ["metric", "k"])
        # a table name beside a DataFrame of the session
        _assert_same_table(test_validation._evaluate(recommendations, "rw_test_truth", output="pandas"), expected,
                           ["metric", "k"])
        with pytest.raises(InputError, match="the interactions table 'rw_test_nowhere' does not exist in the Spark "
                                             "session"):
            test_validation._evaluate("rw_test_recs", "rw_test_nowhere", con=spark)
        hostile = "truth`; drop view rw_test_truth; --"
        with pytest.raises(InputError, match=r"the interactions table 'truth`; drop view .*' does not exist"):
            test_validation._evaluate("rw_test_recs", hostile, con=spark)
        assert spark.table("rw_test_truth").count() == 3
    finally:
        spark.catalog.dropTempView("rw_test_recs")
        spark.catalog.dropTempView("rw_test_truth")


def test_inputs_of_two_engines_or_duckdbs_settings_are_refused(spark) -> None:
    recommendations, interactions = _small(spark)
    with pytest.raises(InvalidArgumentError, match=r"rankwise.evaluate: the recommendations is a Spark DataFrame but "
                                                   r"the interactions is a pandas DataFrame: the inputs of one "
                                                   r"evaluation must live in one engine"):
        test_validation._evaluate(recommendations, test_validation._interactions())
    with pytest.raises(InvalidArgumentError, match=r"`con` is a SparkSession but the recommendations is a pandas "
                                                   r"DataFrame"):
        rankwise.check(test_validation._recommendations(), "truth", con=spark)
    with pytest.raises(InvalidArgumentError, match=r"the recommendations is a Spark DataFrame but `con` is a duckdb "
                                                   r"DuckDBPyConnection"):
        rankwise.compare(recommendations, interactions, ["ndcg"], con=duckdb.connect())
    with pytest.raises(InvalidArgumentError, match=r"`memory_limit` is a setting of rankwise's own DuckDB connection; "
                                                   r"on Spark, the session's own settings apply"):
        test_validation._evaluate(recommendations, interactions, memory_limit="1GB")
    with pytest.raises(InputError, match=r"looks like a file path, and on Spark a string names a table"):
        test_validation._evaluate(recommendations, "truth.parquet")


def test_text_ids_under_a_case_blind_collation_are_refused(spark) -> None:
    recommendations, interactions = _small(spark)
    folded = interactions.selectExpr("user_id collate UTF8_LCASE as user_id", "item_id", "relevance")
    with pytest.raises(InvalidArgumentError, match=r"the column 'user_id' of the interactions \(DataFrame\) is of type "
                                                   r"STRING COLLATE UTF8_LCASE, under which text ids such as 'B' and "
                                                   r"'b' compare equal"):
        test_validation._evaluate(recommendations, folded)


# Bad input: the message DuckDB gives.

def _in_spark_names(message: str) -> str:
    """DuckDB's message as Spark words it: its type names, and every input a
    DataFrame (an Arrow table's label says Table on DuckDB)."""
    return message.replace("VARCHAR", "STRING").replace("(Table)", "(DataFrame)")


def _error(call: Any) -> Exception:
    with pytest.raises(rankwise.RankwiseError) as raised:
        call()
    return raised.value


REPRESENTATIVE = ["missing item column", "missing group column", "text rank", "ids of different types",
                  "empty recommendations", "null user id", "null item id", "null score", "rank below one",
                  "fractional rank", "item twice in a list", "rank twice in a list", "interaction twice",
                  "NaN relevance", "negative relevance"]
BAD_INPUTS = {case[0]: case[1:] for case in test_validation.CASES}


@pytest.mark.parametrize("name", REPRESENTATIVE)
def test_bad_input_gets_the_message_it_gets_on_duckdb(name: str, spark) -> None:
    """The cases of tests/unit/test_validation.py, the same data as Spark
    DataFrames: the same error class, table, column and message."""
    recommendations, interactions, options, kind, message, _ = BAD_INPUTS[name]
    expected = _error(lambda: test_validation._evaluate(recommendations, interactions, **options))
    assert type(expected) is kind and message in str(expected)
    got = _error(lambda: test_validation._evaluate(to_spark(spark, recommendations), to_spark(spark, interactions),
                                                   **options))
    assert type(got) is kind
    assert str(got) == _in_spark_names(str(expected))
    assert (got.table, got.column) == (_in_spark_names(expected.table), expected.column)


def test_ids_that_never_meet_get_the_message_they_get_on_duckdb(spark) -> None:
    """No common item, found after the means (which show no hit); no common
    user within a partition, found before the per-user values."""
    recommendations = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 20], "rank": [1, 1]})
    interactions = pd.DataFrame({"user_id": [1, 2], "item_id": [1010, 1020]})
    for arguments in ({}, {"per_user": True, "partition_by": "week"}):
        week = {"week": [1, 2]} if "partition_by" in arguments else {}
        recs, truth = recommendations.assign(**week), interactions.assign(**{k: v[::-1] for k, v in week.items()})
        expected = _error(lambda: rankwise.evaluate(recs, truth, ["ndcg"], **arguments))
        got = _error(lambda: rankwise.evaluate(to_spark(spark, recs), to_spark(spark, truth), ["ndcg"], **arguments))
        assert type(got) is type(expected) is NoOverlapError
        assert str(got) == _in_spark_names(str(expected))


def test_a_missing_model_column_and_an_empty_comparison_are_named_as_on_duckdb(spark) -> None:
    recommendations, interactions = test_validation._recommendations(), test_validation._interactions()
    for frame, arguments in ((recommendations, {}), (recommendations.assign(model="a"), {}),
                             (recommendations.assign(model="a"), {"baseline": "b"})):
        expected = _error(lambda: rankwise.compare(frame, interactions, ["ndcg"], **arguments))
        got = _error(lambda: rankwise.compare(to_spark(spark, frame), to_spark(spark, interactions), ["ndcg"],
                                              **arguments))
        assert type(got) is type(expected)
        assert str(got) == _in_spark_names(str(expected))
    assert isinstance(got, InvalidArgumentError)


def test_a_catalog_without_a_recommended_item_gets_the_message_it_gets_on_duckdb(spark) -> None:
    recommendations, interactions = test_validation._recommendations(), test_validation._interactions()
    catalog = pd.DataFrame({"item_id": ["a", "b", "c"]})
    expected = _error(lambda: rankwise.evaluate(recommendations, interactions, ["coverage@2"], items=catalog))
    got = _error(lambda: rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions),
                                           ["coverage@2"], items=to_spark(spark, catalog)))
    assert type(got) is type(expected) and got.problem == "item_not_in_catalog"
    assert str(got) == _in_spark_names(str(expected))


def _same_report(on_spark: pd.DataFrame, on_duckdb: pd.DataFrame) -> None:
    expected = on_duckdb.assign(table=on_duckdb["table"].map(_in_spark_names),
                                message=on_duckdb["message"].map(_in_spark_names))
    assert on_spark.astype(object).where(on_spark.notna(), None).values.tolist() == \
        expected.astype(object).where(expected.notna(), None).values.tolist()
    assert list(on_spark.columns) == list(on_duckdb.columns)


def test_check_reports_on_spark_what_it_reports_on_duckdb(spark) -> None:
    """Errors, notes with their counts and examples, users in one table only,
    short lists, tied scores, an unread relevance-like column."""
    messy = test_validation._recommendations(item_id=["a", "a", "c", "a", "d"], rank=[1, 2, 2, 0, 1])
    truth = test_validation._interactions(user_id=["u1", "u1", "u9"])
    tied = test_validation._recommendations(score=[0.9, 0.5, 0.5, 0.3, 0.3])
    for recommendations, interactions, options in (
            (messy, truth, {"relevance_col": "relevance", "k": 5}),
            (tied, truth.rename(columns={"relevance": "rating"}), {"score_col": "score", "k": 2}),
            (test_validation._recommendations(), test_validation._interactions().rename(columns={"user_id": "user"}),
             {})):
        expected = rankwise.check(recommendations, interactions, **options)
        assert not expected.empty
        _same_report(rankwise.check(to_spark(spark, recommendations), to_spark(spark, interactions), **options),
                     expected)
    notes = set(rankwise.check(to_spark(spark, tied), to_spark(spark, truth), score_col="score", k=2)["problem"])
    assert "tied_scores" in notes


def test_the_coverage_warnings_are_the_ones_duckdb_gives(spark) -> None:
    recommendations, interactions = wrapper_parity.recommendations(), wrapper_parity.interactions()
    spark_inputs = (to_spark(spark, recommendations), to_spark(spark, interactions))
    for arguments in wrapper_parity.ARGUMENTS:
        expected = wrapper_parity.caught(recommendations, interactions, **arguments)
        assert len(expected) >= 2
        assert wrapper_parity.caught(*spark_inputs, **arguments) == expected


def test_the_benchmark_spark_tools_agree_with_rankwise_on_duckdb(spark, tmp_path: Path) -> None:
    """benchmarks/spark.py's tools on the benchmark's generated data, in this
    session: Spark MLlib's RankingEvaluator and rankwise on Spark, binary and
    graded, give the means rankwise gives on DuckDB (MLlib under the option its
    average precision takes), so the benchmark compares tools that compute the
    same numbers."""
    from benchmarks import spark as spark_tools
    from benchmarks.generate import generate

    folder, _ = generate(tmp_path, 500, 0.3)
    for tool, options in spark_tools.OPTIONS.items():
        values = spark_tools.WORKERS[tool](*spark_tools.read_inputs(spark, folder, spark_tools.GRADED in tool))
        expected = spark_tools.reference_values(folder, options)
        assert values.keys() == expected.keys() == {f"{metric}@10" for metric in spark_tools.METRICS}
        for key, value in values.items():
            assert value == pytest.approx(expected[key], abs=1e-9), (tool, key)
