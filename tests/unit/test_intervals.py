"""evaluate's ci_low and ci_high: NULL for entropy; left out with
confidence=None; the arguments that ask for them refused out of range. Their
values, against scipy's t interval and a recomputation of entropy's bootstrap,
are checked in tests/crosscheck/test_intervals.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError


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


def test_bootstrap_resamples_needs_a_confidence_and_a_count() -> None:
    recommendations, interactions = _inputs()
    with pytest.raises(InvalidArgumentError, match="`bootstrap_resamples` gives group-level metrics an interval"):
        rankwise.evaluate(recommendations, interactions, ["entropy@3"], bootstrap_resamples=10, confidence=None)
    with pytest.raises(InvalidArgumentError, match="`bootstrap_resamples` must be an integer from 1 to 1000000"):
        rankwise.evaluate(recommendations, interactions, ["entropy@3"], bootstrap_resamples=0)
