"""On Spark, the means of per-user metrics without groups take the user_arrays
strategy (macros/evaluate/strategies/user_arrays.sql): one row per user with
its list's and its truth's entries as arrays, every judged component read off
them, the means, the users of each set and the input checks in one aggregate.
It must give the numbers of the strategies every engine runs, which the same
evaluation takes when it is grouped (by a column of one value), and read each
input once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise._plan import render_evaluate

from .test_spark_wrapper import spark, to_spark  # noqa: F401  (the session fixture)

CUTOFFS = [1, 3, 10, None]
METRICS = ["precision", "recall", "f1", "hit_rate", "map", "mrr", "dcg", "ndcg", "r_precision"]
VALUES = ["value", "n_users", "n_users_without_list", "ci_low", "ci_high"]


def _data(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Lists of 0 to 25 items over 40 items, graded truth with zeros, users with a
    list and no truth and with truth and no list, scores with ties, and
    propensities."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for user in range(60):
        truth = rng.choice(40, size=rng.integers(0, 12), replace=False) if user % 7 else []
        for item in truth:
            interactions.append((f"u{user}", int(item), float(rng.integers(0, 4)), float(rng.uniform(0.05, 1))))
        length = int(rng.integers(0, 26)) if user % 11 else 0
        weights = np.where(np.isin(np.arange(40), truth), 5.0, 1.0)
        items = rng.choice(40, size=length, replace=False, p=weights / weights.sum())
        for rank, item in enumerate(items, start=1):
            recommendations.append((f"u{user}", int(item), rank, round(1.0 / rank, 1), "all"))
    return (pd.DataFrame(recommendations, columns=["user_id", "item_id", "rank", "score", "one_group"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance", "propensity"]))


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


@pytest.mark.filterwarnings("ignore:.*looks like a relevance")
@pytest.mark.parametrize("name", list(OPTIONS))
def test_the_one_pass_over_user_arrays_gives_the_grouped_strategies_numbers(spark, name: str) -> None:  # noqa: F811
    recommendations, interactions = _data(list(OPTIONS).index(name))
    options = dict(OPTIONS[name])
    metrics = options.pop("metrics", METRICS)
    if "rank_col" in options and options["rank_col"] is None:
        options.pop("rank_col")
        recommendations = recommendations.drop(columns="rank")
    arguments = {"metrics": metrics, "k": CUTOFFS, **options}
    assert "rw_user_rows" in rankwise.sql("recs", "inter", dialect="spark", **arguments)
    assert "rw_user_rows" not in rankwise.sql("recs", "inter", dialect="spark", group_by="one_group", **arguments)
    lists, truth = to_spark(spark, recommendations), to_spark(spark, interactions)
    one_pass = rankwise.evaluate(lists, truth, output="pandas", **arguments)
    grouped = rankwise.evaluate(lists, truth, output="pandas", group_by="one_group", **arguments)
    assert (grouped["one_group"] == "all").all()
    keys = ["metric", "k"]
    one_pass = one_pass.sort_values(keys, na_position="last").reset_index(drop=True)
    grouped = grouped.drop(columns="one_group").sort_values(keys, na_position="last").reset_index(drop=True)
    assert len(one_pass) == len(metrics) * len(CUTOFFS) - (len(CUTOFFS) - 1) * ("r_precision" in metrics)
    assert one_pass[VALUES[0]].gt(0).any()
    pd.testing.assert_frame_equal(one_pass[keys + VALUES], grouped[keys + VALUES], check_exact=False, rtol=1e-9,
                                  atol=1e-12)


def test_the_one_pass_reads_each_input_once(spark, tmp_path: Path) -> None:  # noqa: F811
    """With and without the input checks fused into it (what evaluate runs with
    validate=True and validate=False), Spark's plan scans each input once."""
    recommendations, interactions = _data(2)
    views = {"recs": "rw_test_one_pass_recs", "inter": "rw_test_one_pass_inter"}
    for name, frame in (("recs", recommendations), ("inter", interactions)):
        frame.to_parquet(tmp_path / f"{name}.parquet")
        spark.read.parquet(str(tmp_path / f"{name}.parquet")).createOrReplaceTempView(views[name])
    try:
        for guarded in (True, False):
            query = render_evaluate("spark", {"metrics": ["precision", "recall", "map", "ndcg"], "k": [5, 10]},
                                    views["recs"], views["inter"], guarded=guarded)
            assert "rw_user_rows" in query
            # the plan cuts a file's path short: the scans are told apart by their columns
            scans = re.findall(r"FileScan parquet \[([^\]]*)\]", _plan(spark, query))
            assert sorted("rank#" in columns for columns in scans) == [False, True], scans
    finally:
        for view in views.values():
            spark.catalog.dropTempView(view)


def _plan(spark: Any, query: str) -> str:  # noqa: F811
    return spark.sql(query)._jdf.queryExecution().executedPlan().toString()
