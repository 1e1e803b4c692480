"""rankwise against ranx for what trec_eval lacks: NDCG with exponential gain
(ranx's ndcg_burges), F1 and hit rate. Scores are distinct, since ranx orders
tied scores by insertion order rather than by a documented rule."""

from __future__ import annotations

import math
import warnings

import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from ._ranx import ranx
from .strategies import Case, cases


# rankwise metric and options -> ranx metric
METRICS = {
    ("ndcg", "exponential"): "ndcg_burges",
    ("f1", "linear"): "f1",
    ("hit_rate", "linear"): "hit_rate",
    ("ndcg", "linear"): "ndcg",
}


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(distinct_scores=True), k=st.integers(1, 40))
def test_every_user_matches_ranx(case: Case, k: int) -> None:
    both = set(case.run()) & set(case.qrels())
    assume(both and case.is_evaluable())
    run = ranx().Run({user: items for user, items in case.run().items() if user in both})
    qrels = ranx().Qrels({user: items for user, items in case.qrels().items() if user in both})
    for gain in ("linear", "exponential"):
        names = [name for (name, name_gain) in METRICS if name_gain == gain]
        table = rankwise.evaluate(
            case.recommendations, case.interactions, [f"{name}@{k}" for name in names],
            score_col="score", relevance_col="relevance", gain=gain, per_user=True, users="both",
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = ranx().evaluate(qrels, run, [f"{METRICS[(name, gain)]}@{k}" for name in names], return_mean=False)
        if len(names) == 1:
            expected = {f"{METRICS[(names[0], gain)]}@{k}": expected}
        users = list(run.keys())
        for row in table.itertuples():
            value = expected[f"{METRICS[(row.metric, gain)]}@{k}"][users.index(row.user_id)]
            assert math.isclose(row.value, value, rel_tol=0, abs_tol=1e-9), (row.user_id, row.metric, gain)
        assert set(table.user_id) == both
        assert not pd.isna(table.value).any()
