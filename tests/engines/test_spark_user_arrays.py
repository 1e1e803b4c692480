"""On Spark, the means of per-user metrics take the user_arrays strategy
(macros/evaluate/strategies/user_arrays.sql): one row per list with its entries
and its user's truth as arrays, every judged component read off them, the
means, the users of each set and the input checks in one aggregate. It must
give the numbers the other strategies give on DuckDB, in groups and
partitions or not, and read each input once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise._plan import macro_arguments, plan_of, render

from . import wrapper_parity
from .test_spark_wrapper import spark, to_spark  # noqa: F401  (the session fixture)

CUTOFFS = [1, 3, 10, None]
METRICS = ["precision", "recall", "f1", "hit_rate", "map", "mrr", "dcg", "ndcg", "r_precision"]


def _data(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two folds and two models: lists of 0 to 25 items over 40 items, graded
    truth with zeros, users with a list and no truth and with truth and no list
    (in one model or both), scores with ties, and propensities."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for fold in ("f1", "f2"):
        for user in range(40):
            truth = rng.choice(40, size=rng.integers(0, 12), replace=False) if user % 7 else []
            for item in truth:
                interactions.append((fold, f"u{user}", int(item), float(rng.integers(0, 4)), float(rng.uniform(0.05, 1))))
            for model in ("a", "b"):
                length = int(rng.integers(0, 26)) if (user + len(model)) % 11 else 0
                weights = np.where(np.isin(np.arange(40), truth), 5.0, 1.0)
                items = rng.choice(40, size=length, replace=False, p=weights / weights.sum())
                for rank, item in enumerate(items, start=1):
                    recommendations.append((fold, model, f"u{user}", int(item), rank, round(1.0 / rank, 1)))
    return (pd.DataFrame(recommendations, columns=["fold", "model", "user_id", "item_id", "rank", "score"]),
            pd.DataFrame(interactions, columns=["fold", "user_id", "item_id", "relevance", "propensity"]))


OPTIONS = {
    "trec_eval": {},
    "graded_threshold_2_exponential": {"relevance_col": "relevance", "relevance_threshold": 2, "gain": "exponential"},
    "ranx": {"convention": "ranx"},
    "both_min_relevant_k": {"users": "both", "ap_denominator": "min_relevant_k"},
    "relevant_users": {"users": "relevant", "relevance_col": "relevance"},
    "shared_ties_of_scores": {"score_col": "score", "rank_col": None, "ties": "shared"},
    "propensities": {"relevance_col": "relevance", "propensity_col": "propensity", "propensity_clip": 0.1,
                     "metrics": ["recall", "dcg", "ndcg"]},
}


# "models": each user of the truth counted once over the models, on the row of
# its first list or its own; "models_in_folds": by rw_truth_totals, per fold
GROUPINGS = {"whole": {}, "models": {"group_by": "model"}, "models_in_folds": {"group_by": "model", "partition_by": "fold"}}


@pytest.mark.filterwarnings("ignore:.*looks like a relevance", "ignore:.*scored on different users")
@pytest.mark.parametrize("grouping", list(GROUPINGS))
@pytest.mark.parametrize("name", list(OPTIONS))
def test_the_one_pass_over_user_arrays_gives_duckdbs_numbers(spark, name: str, grouping: str) -> None:  # noqa: F811
    recommendations, interactions = _data(list(OPTIONS).index(name))
    if "partition_by" not in GROUPINGS[grouping]:
        # the folds' users apart; without groups, one list per user: the first model's
        if not GROUPINGS[grouping]:
            recommendations = recommendations[recommendations["model"] == "a"]
        recommendations = recommendations.assign(user_id=lambda f: f["fold"] + f["user_id"])
        interactions = interactions.assign(user_id=lambda f: f["fold"] + f["user_id"])
    options = {**OPTIONS[name], **GROUPINGS[grouping]}
    metrics = options.pop("metrics", METRICS)
    if "rank_col" in options and options["rank_col"] is None:
        options.pop("rank_col")
        recommendations = recommendations.drop(columns="rank")
    arguments = {"metrics": metrics, "k": CUTOFFS, **options}
    assert "rw_user_rows" in rankwise.sql("recs", "inter", dialect="spark", **arguments)
    assert "rw_user_rows" not in rankwise.sql("recs", "inter", **arguments)
    on_spark = rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions), output="pandas",
                                 **arguments)
    on_duckdb = rankwise.evaluate(recommendations, interactions, **arguments)
    keys = [column for column in ("fold", "model") if column in on_duckdb.columns] + ["metric", "k"]
    assert on_duckdb["value"].gt(0).any()
    wrapper_parity.assert_same_table(on_spark, on_duckdb, keys, "Spark")


@pytest.mark.filterwarnings("ignore:.*scored on different users")
def test_a_list_is_collected_within_its_largest_cutoff_and_checked_whole(spark) -> None:  # noqa: F811
    """With finite cutoffs only, each list's entries are collected up to the
    largest: the numbers stay DuckDB's, with the checks and without; the
    checks still read every row (the ranks in 1..63 as bits, the others as
    values), so an item or a rank listed twice past the cutoff, or past rank
    63, is refused with DuckDB's message."""
    recommendations, interactions = _data(7)
    long_list = pd.DataFrame({"fold": "f1", "model": "a", "user_id": "u1", "item_id": range(100, 170),
                              "rank": range(1, 71), "score": 0.5})
    recommendations = pd.concat([recommendations[(recommendations["user_id"] != "u1") | (recommendations["fold"] != "f1")
                                                 | (recommendations["model"] != "a")], long_list], ignore_index=True)
    arguments = {"metrics": ["precision", "map", "ndcg"], "k": [1, 3, 10], "relevance_col": "relevance",
                 "group_by": "model", "partition_by": "fold"}
    assert "collect_list(struct(rw_rank, rw_item)) filter (where rw_rank <= 10)" in rankwise.sql(
        "recs", "inter", dialect="spark", **arguments)
    for validate in (True, False):
        on_spark = rankwise.evaluate(to_spark(spark, recommendations), to_spark(spark, interactions), output="pandas",
                                     validate=validate, **arguments)
        on_duckdb = rankwise.evaluate(recommendations, interactions, validate=validate, **arguments)
        wrapper_parity.assert_same_table(on_spark, on_duckdb, ["fold", "model", "metric", "k"], "Spark")
    # the checks fused into the means pass these lists, longer than the cutoff,
    # on the first query (a failed check gives no row, and evaluate then asks again)
    views = {"recommendations": "rw_test_cutoff_recs", "interactions": "rw_test_cutoff_inter", "items": None, "train": None}
    to_spark(spark, recommendations).createOrReplaceTempView(views["recommendations"])
    to_spark(spark, interactions).createOrReplaceTempView(views["interactions"])
    try:
        options = {"relevance_col": "relevance"}
        plan = plan_of("evaluate", macro_arguments("evaluate", arguments["metrics"], arguments["k"], "model", False, options,
                                                   "fold"), adapter_type="spark")
        assert spark.sql(render(plan, views, guarded=True)).count() == len(on_duckdb)
    finally:
        for view in ("recommendations", "interactions"):
            spark.catalog.dropTempView(views[view])
    truth = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"]})
    for problem, changes in (("item", {"item_id": ["a", "b", "c", "c"]}), ("rank", {"rank": [1, 2, 3, 3]}),
                             ("rank past 63", {"rank": [1, 2, 70, 70]})):
        listed_twice = pd.DataFrame({"user_id": ["u1"] * 4, "item_id": ["a", "b", "c", "d"], "rank": [1, 2, 3, 4]})
        listed_twice = listed_twice.assign(**changes)
        with pytest.raises(rankwise.RankwiseError) as on_duckdb:
            rankwise.evaluate(listed_twice, truth, ["ndcg"], k=2)
        with pytest.raises(rankwise.RankwiseError) as on_spark:
            rankwise.evaluate(to_spark(spark, listed_twice), to_spark(spark, truth), ["ndcg"], k=2)
        assert type(on_spark.value) is type(on_duckdb.value), problem
        assert str(on_spark.value) == str(on_duckdb.value), problem


def test_the_plans_it_does_not_cover_keep_the_other_strategies() -> None:
    def spark_sql(metrics, **options):
        return rankwise.sql("recs", "inter", metrics, k=[5, 10], dialect="spark", **options)

    assert "rw_user_rows" in spark_sql(["precision", "ndcg"], group_by="model")
    assert "rw_user_rows" not in spark_sql(["precision", "ndcg"], per_user=True)
    assert "rw_user_rows" not in spark_sql(["precision", "idcg"])
    assert "rw_user_rows" not in spark_sql(["precision", "map_to_full_recall"])
    assert "rw_user_rows" not in spark_sql(["precision"], precision_denominator="list_length")
    assert "rw_user_rows" not in spark_sql(["precision", "rbp"])
    assert "rw_user_rows" not in spark_sql(["precision"], user_group_col="segment", users="both")


def test_the_one_pass_reads_each_input_once(spark, tmp_path: Path) -> None:  # noqa: F811
    """With and without the input checks fused into it (what evaluate runs with
    validate=True and validate=False), Spark's plan scans each input once;
    under partition_by, the interactions once more for the number of each
    partition's users. With score_col, each input is shuffled once, by its
    user (the recommendations before the rank's window, which serves the
    lists' aggregate and their join to the truth). With graded relevance too: IDCG is read off each
    user's truth entries, not from a window over the interactions."""
    recommendations, interactions = _data(2)
    views = {"recs": "rw_test_one_pass_recs", "inter": "rw_test_one_pass_inter"}
    for name, frame in (("recs", recommendations), ("inter", interactions)):
        frame.to_parquet(tmp_path / f"{name}.parquet")
        spark.read.parquet(str(tmp_path / f"{name}.parquet")).createOrReplaceTempView(views[name])
    # more than one shuffle partition, as a user's session has: with one, every input is in one already
    partitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "4")
    try:
        for guarded, grouping in ((True, {}), (False, {}), (True, GROUPINGS["models"]), (True, GROUPINGS["models_in_folds"]),
                                  (True, {"score_col": "score"}), (True, {"score_col": "score", **GROUPINGS["models"]}),
                                  (True, {"relevance_col": "relevance"}),
                                  (True, {"relevance_col": "relevance", **GROUPINGS["models"]}),
                                  (True, {"relevance_col": "relevance", **GROUPINGS["models_in_folds"]})):
            options = {name: value for name, value in grouping.items() if name not in ("group_by", "partition_by")}
            arguments = macro_arguments("evaluate", ["precision", "recall", "map", "ndcg"], [5, 10], grouping.get("group_by"),
                                        False, options, grouping.get("partition_by"))
            query = render(plan_of("evaluate", arguments, adapter_type="spark"),
                           {"recommendations": views["recs"], "interactions": views["inter"], "items": None, "train": None},
                           guarded=guarded)
            assert "rw_user_rows" in query
            plan = _plan(spark, query)
            # the plan cuts a file's path short: the scans are told apart by their columns
            scans = re.findall(r"FileScan parquet \[([^\]]*)\]", plan)
            partitioned = "partition_by" in grouping
            of_recommendations = sorted("rank#" in columns or "score#" in columns for columns in scans)
            assert of_recommendations == [False] * (1 + partitioned) + [True], scans
            if "score_col" in grouping:
                by_user = [keys for keys in re.findall(r"Exchange hashpartitioning\(([^)]*)\)", plan) if "user" in keys]
                assert len(by_user) == 2 and all(keys.count("#") == 1 for keys in by_user), by_user
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", partitions)
        for view in views.values():
            spark.catalog.dropTempView(view)


def _plan(spark: Any, query: str) -> str:  # noqa: F811
    return spark.sql(query)._jdf.queryExecution().executedPlan().toString()
