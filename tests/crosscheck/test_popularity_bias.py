"""popularity_lift and miscalibration against the reference implementations
written from the papers (tests/reference/popularity_bias.py), on random data,
list by list, to 1e-9: with repeats in train, train items missing from the
catalog, users without train items, short lists, partitions and groups."""

from __future__ import annotations

import math
import random

import pandas as pd
import pytest

import rankwise
from tests.reference import popularity_bias as reference


def _random_case(seed: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    rng = random.Random(seed)
    n_items, n_users = rng.randint(3, 25), rng.randint(2, 15)
    items = [f"i{j}" for j in range(n_items)]
    groups = [f"g{g}" for g in range(rng.randint(1, 5))]
    catalog = pd.DataFrame({"item_id": items, "genre": [rng.choice(groups) for _ in items]})
    train_rows = []
    for fold in ("a", "b"):
        for user in range(n_users):
            # some users have no train item in a fold; some train items are not in the catalog
            for _ in range(rng.choice([0, 1, 3, 8])):
                train_rows.append((fold, user, rng.choice(items + ["gone1", "gone2"])))
    train = pd.DataFrame(train_rows, columns=["fold", "user_id", "item_id"])
    recommendation_rows = []
    for fold in ("a", "b"):
        for model in ("m1", "m2"):
            for user in range(n_users):
                for rank, item in enumerate(rng.sample(items, rng.randint(1, min(12, n_items))), start=1):
                    recommendation_rows.append((fold, model, user, item, rank))
    recommendations = pd.DataFrame(recommendation_rows, columns=["fold", "model", "user_id", "item_id", "rank"])
    truth = recommendations.groupby(["fold", "user_id"]).head(1)[["fold", "user_id", "item_id"]]
    return recommendations, truth, train, catalog


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("measure", ["users", "interactions"])
def test_against_the_papers(seed: int, measure: str) -> None:
    recommendations, truth, train, catalog = _random_case(seed)
    got = rankwise.evaluate(recommendations, truth, ["popularity_lift@5", "popularity_lift", "miscalibration@3",
                                                     "miscalibration(alpha=0.2)@10"],
                            group_by="model", partition_by="fold", per_user=True, items=catalog, train=train,
                            item_group_col="genre", arp_popularity=measure)
    group_of = dict(zip(catalog.item_id, catalog.genre))
    expected = {}
    for fold, fold_train in train.groupby("fold"):
        pairs = list(zip(fold_train.user_id, fold_train.item_id))
        phi, items_of = reference.popularity(pairs, measure), reference.profiles(pairs)
        for (model, user), rows in recommendations[recommendations.fold == fold].groupby(["model", "user_id"]):
            ranked = list(rows.sort_values("rank").item_id)
            profile = items_of.get(user, set())
            for label, value in [(("popularity_lift", 5), reference.popularity_lift(ranked[:5], profile, phi)),
                                 (("popularity_lift", None), reference.popularity_lift(ranked, profile, phi)),
                                 (("miscalibration", 3), reference.miscalibration(ranked[:3], profile, group_of)),
                                 (("miscalibration", 10), reference.miscalibration(ranked[:10], profile, group_of, 0.2))]:
                expected[(fold, model, user, *label)] = value
    # per_user leaves out the lists without a value
    assert len(got) == sum(value is not None for value in expected.values())
    for row in got.itertuples():
        key = (row.fold, row.model, row.user_id, row.metric, None if pd.isna(row.k) else int(row.k))
        want = expected[key]
        if want is None:
            assert pd.isna(row.value), key
        else:
            assert math.isclose(row.value, want, rel_tol=1e-9, abs_tol=1e-9), (key, row.value, want)
