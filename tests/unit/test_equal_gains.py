"""Without a relevance column every interaction has relevance 1, and IDCG comes
from sums over positions that every user shares (the equal_gains strategy,
macros/evaluate/strategies/equal_gains.sql) instead of each user's sorted truth.
The same data with a relevance column of ones takes the sorted truth's path
(top_k_gains on DuckDB): both must give the same numbers, means and per user,
under every option that changes IDCG or its user set (a relevance threshold
cannot here: at most 1 it keeps every interaction relevant, and above 1 it is
refused without a relevance column)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rankwise

CUTOFFS = [1, 3, 10, 25]
METRICS = ["precision", "recall", "map", "dcg", "idcg", "ndcg", "hit_rate"]


def _data(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Truths of 1 to 40 items (longer and shorter than the cutoffs), lists of 0 to
    30 items, users without a list and lists without truth, two folds."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for fold in ("f1", "f2"):
        for user in range(50):
            truth = rng.choice(100, size=rng.integers(1, 41), replace=False)
            if user % 7 != 3:
                interactions.extend((fold, f"u{user}", int(item), 1.0) for item in truth)
            if user % 11 != 5:
                weights = np.where(np.isin(np.arange(100), truth), 5.0, 1.0)
                items = rng.choice(100, size=rng.integers(0, 31), replace=False, p=weights / weights.sum())
                recommendations.extend((fold, f"u{user}", int(item), rank) for rank, item in enumerate(items, 1))
    return (pd.DataFrame(recommendations, columns=["fold", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["fold", "user_id", "item_id", "relevance"]))


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("per_user", [False, True], ids=["means", "per_user"])
@pytest.mark.parametrize("options", [
    {},
    {"gain": "exponential"},
    {"users": "both"},
    {"convention": "ranx"},
], ids=["trec_eval", "exponential", "both", "ranx"])
def test_shared_position_sums_give_the_sorted_truths_idcg(seed, per_user, options):
    recommendations, interactions = _data(seed)
    arguments = dict(k=CUTOFFS, partition_by="fold", per_user=per_user, **options)
    without_column = interactions.drop(columns="relevance")
    assert "rw_equal_gain_idcg" in rankwise.sql("recommendations", "interactions", METRICS, **arguments)
    assert "rw_equal_gain_idcg" not in rankwise.sql("recommendations", "interactions", METRICS,
                                                    relevance_col="relevance", **arguments)
    keys = ["fold", "metric", "k"] + (["user_id"] if per_user else [])
    shared = rankwise.evaluate(recommendations, without_column, METRICS, **arguments).sort_values(keys)
    sorted_truth = rankwise.evaluate(recommendations, interactions, METRICS, relevance_col="relevance",
                                     **arguments).sort_values(keys)
    assert len(shared) == len(sorted_truth) > 0
    pd.testing.assert_frame_equal(shared.reset_index(drop=True), sorted_truth.reset_index(drop=True),
                                  check_exact=False, rtol=0, atol=1e-12)
    assert (shared.loc[shared["metric"] == "idcg", "value"] > 0).any()
