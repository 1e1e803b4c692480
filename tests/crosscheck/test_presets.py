"""convention='recommenders' | 'rectools' | 'evidently' against ports of each
library's metric code (tests/crosscheck/peers/, each citing its source; the
README there records the check of each port against the library itself).
convention='ranx' runs ranx itself: test_preset_ranx.py."""

from __future__ import annotations

import math

import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from .peers import evidently, recommenders, rectools
from .strategies import Case, cases

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _means(table: pd.DataFrame) -> dict[str, float]:
    return {row.metric: row.value for row in table.itertuples()}


def _close(actual: float, expected: float, label: str) -> None:
    assert math.isclose(actual, expected, rel_tol=0, abs_tol=1e-9), (label, actual, expected)


@SETTINGS
@given(case=cases(distinct_scores=True), k=st.integers(1, 35))
def test_the_recommenders_convention_matches_microsoft_recommenders(case: Case, k: int) -> None:
    assume(case.is_evaluable() and set(case.run()) & set(case.qrels()))
    rating_true = case.interactions.rename(columns={"relevance": "rating"})
    rating_pred = case.recommendations.rename(columns={"score": "prediction"})
    # every row of rating_true is relevant: no relevance column for rankwise
    truth = case.interactions[["user_id", "item_id"]]
    table = _means(rankwise.evaluate(case.recommendations, truth, [f"{m}@{k}" for m in ("precision", "recall", "map", "ndcg")],
                                     score_col="score", convention="recommenders"))
    _close(table["precision"], recommenders.precision_at_k(rating_true, rating_pred, k), "precision_at_k")
    _close(table["recall"], recommenders.recall_at_k(rating_true, rating_pred, k), "recall_at_k")
    _close(table["map"], recommenders.map_at_k(rating_true, rating_pred, k), "map_at_k")
    _close(table["ndcg"], recommenders.ndcg_at_k(rating_true, rating_pred, k), "ndcg_at_k")
    # its `map` (also cut at k) divides by R
    whole = rankwise.evaluate(case.recommendations, truth, [f"map@{k}"], score_col="score", convention="recommenders",
                              ap_denominator="relevant")
    _close(whole.value[0], recommenders.map(rating_true, rating_pred, k), "map")
    # score_type='raw' and 'exp' are the linear and exponential gains over every truth row
    for gain, score_type in (("linear", "raw"), ("exponential", "exp")):
        graded = rankwise.evaluate(case.recommendations, case.interactions, [f"ndcg@{k}"], score_col="score",
                                   relevance_col="relevance", convention="recommenders", gain=gain,
                                   gain_items="positive", relevance_threshold=0)
        expected = recommenders.ndcg_at_k(rating_true, rating_pred, k, score_type=score_type)
        if not math.isnan(expected):  # a user whose truth is all 0 has IDCG 0 there: NaN
            _close(graded.value[0], expected, f"ndcg_at_k {score_type}")


@SETTINGS
@given(case=cases(distinct_scores=True), k=st.integers(1, 35))
def test_r_precision_at_k_gives_recommenders_per_user_counts(case: Case, k: int) -> None:
    """r_precision@k is precision at rank min(R, k), as Recommenders'
    r_precision_at_k docstring defines it. Its code divides the same hits by R
    and averages over the users with such a hit (docs/metrics.md, Presets):
    both differences are applied here to rankwise's per-user values, and the
    result must be the port's number."""
    assume(case.is_evaluable() and set(case.run()) & set(case.qrels()))
    rating_true = case.interactions.rename(columns={"relevance": "rating"})
    rating_pred = case.recommendations.rename(columns={"score": "prediction"})
    truth = case.interactions[["user_id", "item_id"]]
    table = rankwise.evaluate(case.recommendations, truth, [f"r_precision@{k}"], score_col="score",
                              convention="recommenders", per_user=True)
    assert set(table.user_id) == set(case.run()) & set(case.qrels())
    # the hits within the top min(R, k), over R, for the users with such a hit
    theirs = [row.value * min(row.n_relevant, k) / row.n_relevant for row in table.itertuples() if row.value > 0]
    expected = recommenders.r_precision_at_k(rating_true, rating_pred, k)
    if math.isnan(expected):  # hits within k, none within the top min(R, k): pandas' mean of no value
        assert not theirs
    else:
        _close(sum(theirs) / len(theirs) if theirs else 0.0, expected, "r_precision_at_k")


def test_r_precision_at_k_on_recommenders_own_fixture() -> None:
    """Recommenders' test_python_r_precision (tests/unit/recommenders/evaluation/):
    its fixture, its expected values from the port, and rankwise's R capped at k."""
    users = [1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1]
    rating_true = pd.DataFrame({"user_id": users, "item_id": [3, 1, 4, 5, 6, 7, 2, 5, 6, 8, 9, 10, 11, 12, 13, 14, 1, 2],
                                "rating": [3, 5, 5, 3, 3, 1, 5, 5, 5, 4, 4, 3, 3, 3, 2, 1, 5, 4]})
    rating_pred = pd.DataFrame({"user_id": users, "item_id": [12, 10, 3, 5, 11, 13, 4, 10, 7, 13, 1, 3, 5, 2, 11, 14, 3, 10],
                                "prediction": [12, 14, 13, 12, 11, 10, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 14, 13]})
    # R = 3, 5, 10; hits at ranks 1 | 3 | 2, 4, 7, 8, 9, 10
    theirs = {3: (1 / 3 + 1 / 5 + 1 / 10) / 3, 5: (1 / 3 + 1 / 5 + 2 / 10) / 3, 10: (1 / 3 + 1 / 5 + 6 / 10) / 3}
    ours = {3: (1 / 3 + 1 / 3 + 1 / 3) / 3, 5: (1 / 3 + 1 / 5 + 2 / 5) / 3, 10: (1 / 3 + 1 / 5 + 6 / 10) / 3}
    for k, value in theirs.items():
        _close(recommenders.r_precision_at_k(rating_true, rating_pred, k), value, f"port @{k}")
    assert [round(theirs[k], 5) for k in (3, 5, 10)] == [0.21111, 0.24444, 0.37778]  # the library's test
    table = rankwise.evaluate(rating_pred, rating_true[["user_id", "item_id"]], [f"r_precision@{k}" for k in ours],
                              score_col="prediction", convention="recommenders")
    for row in table.itertuples():
        _close(row.value, ours[row.k], row.metric_label)
    assert list(table.k) == [3, 5, 10]


@SETTINGS
@given(case=cases(), k=st.integers(1, 35))
def test_the_rectools_convention_matches_rectools(case: Case, k: int) -> None:
    assume(case.is_evaluable())
    ranked = case.recommendations.sort_values(["user_id", "score", "item_id"], ascending=[True, False, False])
    ranked = ranked.assign(rank=ranked.groupby("user_id").cumcount() + 1)[["user_id", "item_id", "rank"]]
    interactions = case.interactions[["user_id", "item_id"]]
    merged = rectools.merge_reco(ranked, interactions)
    expected = {
        "precision": rectools.precision(merged, k), "recall": rectools.recall(merged, k),
        "hit_rate": rectools.hit_rate(merged, k), "mrr": rectools.mrr(merged, k),
        "map": rectools.map_(merged, k), "ndcg": rectools.ndcg(merged, k),
    }
    table = rankwise.evaluate(ranked, interactions, [f"{name}@{k}" for name in expected], convention="rectools",
                              per_user=True)
    assert set(table.user_id) == set(interactions.user_id)
    for row in table.itertuples():
        _close(row.value, expected[row.metric][row.user_id], f"{row.metric} {row.user_id}")
    variants = {
        "map": ({"ap_denominator": "k"}, rectools.map_(merged, k, divide_by_k=True)),
        "ndcg": ({"idcg": "truth"}, rectools.ndcg(merged, k, divide_by_achievable=True)),
    }
    for name, (option, values) in variants.items():
        table = rankwise.evaluate(ranked, interactions, [f"{name}@{k}"], convention="rectools", per_user=True, **option)
        for row in table.itertuples():
            _close(row.value, values[row.user_id], f"{name} {option} {row.user_id}")


def _evidently_inputs(case: Case) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Evidently's one table of recommended rows with targets, and the same rows
    as rankwise's interactions: R counts relevant recommended rows only."""
    shown = case.recommendations.merge(case.interactions, on=["user_id", "item_id"], how="left")
    shown["target"] = shown["relevance"].fillna(0)
    shown = shown.sort_values(["user_id", "score"], ascending=[True, False], kind="stable")
    return shown[["user_id", "item_id", "score", "target"]], shown[["user_id", "item_id", "target"]]


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), distinct=st.booleans(), data=st.data())
def test_the_evidently_convention_matches_evidently(case: Case, distinct: bool, data: st.DataObject) -> None:
    if distinct:
        case = data.draw(cases(distinct_scores=True))
    shown, truth = _evidently_inputs(case)
    assume(not shown.empty and (shown.target > 0).any())
    # Evidently computes cutoffs up to the longest list
    k = data.draw(st.integers(1, int(shown.groupby("user_id").size().max())))
    # With tied scores straddling k, Evidently divides precision by min(list length, k)
    # where rankwise counts the rows ranked within k; its AP reads the target of the
    # last row within k in input order, so past the end of a list it counts that row
    # again (AP can pass 1). docs/metrics.md, Presets.
    shortest = int(shown[shown.user_id.isin(shown[shown.target > 0].user_id)].groupby("user_id").size().min())
    metrics = ["recall", "ndcg", "mrr", "hit_rate"] + (["precision"] if distinct else [])
    metrics += ["map"] if distinct and k <= shortest else []
    table = _means(rankwise.evaluate(shown, truth, [f"{m}@{k}" for m in metrics], score_col="score",
                                     relevance_col="target", convention="evidently"))
    expected = {**evidently.precision_recall_map(shown, k), "ndcg": evidently.ndcg(shown, k),
                "mrr": evidently.mrr(shown, k), "hit_rate": evidently.hit_rate(shown, k)}
    for metric in metrics:
        _close(table[metric], expected[metric], metric)
