"""The inverse-propensity estimates (propensity_col) against the reference
implementation written from their definitions (tests/reference/propensity.py),
per user and as means, on random lists, grades and propensities, to 1e-9."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rankwise
from tests.reference import propensity as reference


def _random_case(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    items = [f"i{j:02d}" for j in range(30)]
    popularity = rng.dirichlet(np.full(len(items), 0.5))
    recommendations, interactions = [], []
    for user in range(40):
        if rng.random() < 0.85:
            for rank, item in enumerate(rng.choice(items, size=rng.integers(1, 12), replace=False, p=popularity), 1):
                recommendations.append((f"u{user}", item, rank))
        if rng.random() < 0.9:
            for item in rng.choice(items, size=rng.integers(1, 8), replace=False, p=popularity):
                interactions.append((f"u{user}", item, float(rng.integers(0, 4)), float(rng.uniform(0.01, 1.0))))
    return (pd.DataFrame(recommendations, columns=["user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance", "propensity"]))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("clip", "gain", "threshold"), [(None, "linear", 1.0), (0.1, "exponential", 2.0)])
def test_per_user_values_and_means_match_the_reference(seed: int, clip, gain: str, threshold: float) -> None:
    recommendations, interactions = _random_case(seed)
    options = dict(relevance_col="relevance", propensity_col="propensity", propensity_clip=clip, gain=gain,
                   relevance_threshold=threshold)
    per_user = rankwise.evaluate(recommendations, interactions, reference.METRICS, k=[1, 5, 10], per_user=True,
                                 **options)
    truths = {user: {row.item_id: (row.relevance, row.propensity) for row in rows.itertuples()}
              for user, rows in interactions.groupby("user_id")}
    lists = {user: list(zip(rows["rank"], rows["item_id"])) for user, rows in recommendations.groupby("user_id")}
    checked = 0
    for row in per_user.itertuples():
        expected = reference.user_values(lists.get(row.user_id, []), truths[row.user_id], row.k, clip, gain, threshold)
        assert row.value == pytest.approx(expected[row.metric], rel=1e-9, abs=1e-12), row
        checked += 1
    assert checked == len(truths) * 3 * len(reference.METRICS)
    # the means over every user of the interactions (users='interactions')
    means = rankwise.evaluate(recommendations, interactions, reference.METRICS, k=[1, 5, 10], **options)
    for row in means.itertuples():
        expected = reference.means(recommendations.assign(example_id="all"), interactions, row.k, clip, gain,
                                   threshold)[("all", row.metric)]
        assert row.value == pytest.approx(expected[0], rel=1e-9, abs=1e-12)
        assert row.n_users == expected[1]
