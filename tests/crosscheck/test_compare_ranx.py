"""rankwise.compare against ranx.compare: the paired t test's p-value and the
wins, ties and losses of every pair of runs, under convention='ranx', on random
cases where every user of the qrels has a list from every model (ranx scores
the users of the qrels; distinct scores, as ranx orders ties by insertion)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankwise

from ._ranx import ranx

METRICS = ["ndcg@5", "map@3", "mrr", "precision@2", "recall@5"]


def _case(n_models: int, n_users: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for user in range(n_users):
        for item in rng.choice(12, size=rng.integers(1, 5), replace=False):
            interactions.append((f"q{user}", f"d{item}", int(rng.integers(1, 4))))
        for model in range(n_models):
            items = rng.choice(12, size=rng.integers(1, 7), replace=False)
            for score, item in zip(rng.permutation(len(items)), items):
                recommendations.append((f"run_{model}", f"q{user}", f"d{item}", float(score + 1)))
    return (pd.DataFrame(recommendations, columns=["model", "user_id", "item_id", "score"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_models=st.integers(2, 4), n_users=st.integers(5, 40), seed=st.integers(0, 2**32 - 1))
def test_p_values_and_win_tie_loss_are_ranxs(n_models: int, n_users: int, seed: int) -> None:
    recommendations, interactions = _case(n_models, n_users, seed)
    qrels = ranx().Qrels({user: dict(zip(rows.item_id, rows.relevance.astype(int)))
                          for user, rows in interactions.groupby("user_id")})
    runs = [ranx().Run({user: dict(zip(lists.item_id, lists.score)) for user, lists in rows.groupby("user_id")}, name=model)
            for model, rows in recommendations.groupby("model")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = ranx().compare(qrels, runs, METRICS, stat_test="student")
    result = rankwise.compare(recommendations, interactions, METRICS, score_col="score", relevance_col="relevance",
                              convention="ranx")
    rows = {(row.metric_label, row.model, row.baseline): row for row in result.itertuples()}
    models = sorted(recommendations["model"].unique())
    assert len(rows) == len(METRICS) * len(list(itertools.combinations(models, 2)))
    for metric in METRICS:
        for model, baseline in itertools.combinations(models, 2):
            row = rows[(metric, model, baseline)]
            p_value = report.comparisons[model, baseline][metric]["p_value"]
            if np.isnan(p_value):
                assert pd.isna(row.p_value) or row.p_value == 0.0
            else:
                assert abs(row.p_value - p_value) <= 1e-6, (metric, model, baseline, row.p_value, p_value)
            counts = report.win_tie_loss[(model, baseline)][metric]
            assert (row.wins, row.ties, row.losses) == (counts["W"], counts["T"], counts["L"]), (metric, model, baseline)
            assert abs(row.mean - report.results[model][metric]) <= 1e-9
