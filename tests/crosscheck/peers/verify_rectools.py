"""Run by hand, not in CI (RecTools pins numpy < 2 on Python 3.11): in a venv with
rankwise[test] and rectools, `python -m pytest tests/crosscheck/peers/verify_rectools.py`.

convention='rectools' reproduces RecTools (run for real): binary relevance
(every interaction counts), ranks as given, every user of the interactions
scored (0 without a list), NDCG normalised by k relevant slots; and the
variants RecTools offers as parameters map to rankwise options:
MAP(divide_by_k=True) is ap_denominator='k', NDCG(divide_by_achievable=True)
is idcg='truth'."""

from __future__ import annotations

import math
import warnings

import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from ..strategies import Case, cases

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from rectools import Columns
    from rectools.metrics import MAP, MRR, NDCG, HitRate, Precision, Recall, calc_metrics


def _ranked(case: Case) -> pd.DataFrame:
    """Ranks from the scores by trec_eval's rule, the ranks RecTools is given."""
    frame = case.recommendations.sort_values(["user_id", "score", "item_id"], ascending=[True, False, False])
    frame["rank"] = frame.groupby("user_id").cumcount() + 1
    return frame[["user_id", "item_id", "rank"]]


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), k=st.integers(1, 35))
def test_the_rectools_convention_matches_rectools(case: Case, k: int) -> None:
    assume(case.is_evaluable())  # rankwise refuses an empty table
    recommendations = _ranked(case)
    interactions = case.interactions[["user_id", "item_id"]]
    rectools_metrics = {
        "precision": Precision(k=k), "recall": Recall(k=k), "map": MAP(k=k), "mrr": MRR(k=k),
        "ndcg": NDCG(k=k), "hit_rate": HitRate(k=k),
    }
    variants = {
        ("map", "k"): (MAP(k=k, divide_by_k=True), {"ap_denominator": "k"}),
        ("ndcg", "truth"): (NDCG(k=k, divide_by_achievable=True), {"idcg": "truth"}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = calc_metrics(
            {**rectools_metrics, **{f"{name}/{variant}": metric for (name, variant), (metric, _) in variants.items()}},
            reco=recommendations.rename(columns={"user_id": Columns.User, "item_id": Columns.Item, "rank": Columns.Rank}),
            interactions=interactions.rename(columns={"user_id": Columns.User, "item_id": Columns.Item}),
        )
    table = rankwise.evaluate(recommendations, interactions, [f"{name}@{k}" for name in rectools_metrics],
                              convention="rectools")
    assert sorted(table.metric) == sorted(rectools_metrics)
    for row in table.itertuples():
        assert math.isclose(row.value, expected[row.metric], rel_tol=0, abs_tol=1e-9), row.metric
    assert set(table.n_users) == {interactions.user_id.nunique()}
    for (name, variant), (_, option) in variants.items():
        value = rankwise.evaluate(recommendations, interactions, [f"{name}@{k}"], convention="rectools", **option).value[0]
        assert math.isclose(value, expected[f"{name}/{variant}"], rel_tol=0, abs_tol=1e-9), (name, variant)
