"""evaluate's ci_low and ci_high: the Student t interval of each mean, equal to
scipy's over evaluate's own per-user values, under every user set; NULL for
entropy; left out with confidence=None."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats

import rankwise
from rankwise.errors import InvalidArgumentError

METRICS = ["ndcg@5", "map@3", "idcg@5", "mrr", "recall@10", "precision@2"]


def _inputs(seed: int = 3) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three models, 40 truth users with graded relevance, lists of 1 to 6 of 15
    items, a third of the lists missing, so that many users score 0."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for user in range(43):
        if user < 40:
            for item in rng.choice(15, size=rng.integers(1, 5), replace=False):
                interactions.append((f"u{user}", f"i{item}", int(rng.integers(0, 4))))
        for model in ("a", "b", "c"):
            if rng.random() < 0.67:
                for rank, item in enumerate(rng.choice(15, size=rng.integers(1, 7), replace=False), start=1):
                    recommendations.append((model, f"u{user}", f"i{item}", rank))
    return (pd.DataFrame(recommendations, columns=["model", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]))


@pytest.mark.slow
@pytest.mark.parametrize("users", ["interactions", "both", "relevant"])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_each_interval_is_scipys_over_the_per_user_values(users: str, confidence: float) -> None:
    recommendations, interactions = _inputs()
    options = {"group_by": "model", "relevance_col": "relevance", "users": users}
    with pytest.warns(rankwise.RankwiseWarning) if users != "interactions" else _no_warning():
        means = rankwise.evaluate(recommendations, interactions, METRICS, confidence=confidence, **options)
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, per_user=True, **options)
    checked = 0
    for (model, metric, k), values in per_user.groupby(["model", "metric", "k"], dropna=False):
        same_k = means.k.isna() if pd.isna(k) else means.k == k
        row = means[(means.model == model) & (means.metric == metric) & same_k].iloc[0]
        low, high = scipy.stats.t.interval(confidence, len(values) - 1, loc=values["value"].mean(),
                                           scale=scipy.stats.sem(values["value"]))
        assert row["n_users"] == len(values)
        assert abs(row["ci_low"] - low) <= 1e-12 and abs(row["ci_high"] - high) <= 1e-12, (model, metric, k)
        checked += 1
    assert checked == 3 * len(METRICS)


class _no_warning:
    def __enter__(self):
        import warnings

        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("error", rankwise.RankwiseWarning)

    def __exit__(self, *exc):
        return self._catcher.__exit__(*exc)


def test_entropy_has_no_interval_and_confidence_none_no_columns() -> None:
    recommendations, interactions = _inputs()
    means = rankwise.evaluate(recommendations, interactions, ["ndcg@5", "entropy@5"], group_by="model")
    assert means[means.metric == "entropy"][["ci_low", "ci_high"]].isna().all().all()
    assert means[means.metric == "ndcg"][["ci_low", "ci_high"]].notna().all().all()
    without = rankwise.evaluate(recommendations, interactions, ["ndcg@5"], group_by="model", confidence=None)
    assert "ci_low" not in without.columns and "ci_high" not in without.columns
    pd.testing.assert_series_equal(without["value"], means[means.metric == "ndcg"]["value"].reset_index(drop=True))


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, "0.95", True])
def test_a_confidence_outside_zero_one_is_refused(confidence) -> None:
    recommendations, interactions = _inputs()
    with pytest.raises(InvalidArgumentError, match="`confidence` must be a number strictly between 0 and 1"):
        rankwise.evaluate(recommendations, interactions, ["ndcg@5"], confidence=confidence)
