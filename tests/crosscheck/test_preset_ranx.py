"""convention='ranx' reproduces ranx (run for real) at relevance levels 1 and 2:
its rel_lvl decides what counts as relevant for every metric, NDCG gains
included, and with make_comparable=True every user of the qrels is scored (0
without a list). Scores are distinct: ranx keeps tied scores in input order."""

from __future__ import annotations

import math
import warnings

import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from ._ranx import ranx
from .strategies import Case, cases


# rankwise metric -> ranx metric, at k
AT_K = {"precision": "precision", "recall": "recall", "f1": "f1", "hit_rate": "hit_rate", "map": "map",
        "mrr": "mrr", "ndcg": "ndcg", "dcg": "dcg"}


def _ranx_means(case: Case, measures: list[str]) -> dict[str, float]:
    qrels = ranx().Qrels(case.qrels())
    run = ranx().Run(case.run())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        means = ranx().evaluate(qrels, run, measures, make_comparable=True)
    return {measures[0]: means} if len(measures) == 1 else means


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(distinct_scores=True), k=st.integers(1, 35), level=st.sampled_from([1, 2]))
def test_the_ranx_convention_matches_ranx(case: Case, k: int, level: int) -> None:
    # rankwise refuses empty inputs; ranx cannot evaluate disjoint tables
    assume(case.is_evaluable() and set(case.run()) & set(case.qrels()))
    for gain, ranx_ndcg in (("linear", "ndcg"), ("exponential", "ndcg_burges")):
        table = rankwise.evaluate(
            case.recommendations, case.interactions, [f"{name}@{k}" for name in AT_K] + ["r_precision"],
            score_col="score", relevance_col="relevance", convention="ranx", relevance_threshold=level, gain=gain,
        )
        names = {**AT_K, "ndcg": ranx_ndcg, "dcg": ranx_ndcg.replace("ndcg", "dcg")}
        measures = {f"{name}@{k}": f"{names[name]}@{k}-l{level}" for name in AT_K} | {"r_precision@None": f"r-precision-l{level}"}
        expected = _ranx_means(case, list(measures.values()))
        for row in table.itertuples():
            key = f"{row.metric}@{None if pd.isna(row.k) else int(row.k)}"
            assert math.isclose(row.value, expected[measures[key]], rel_tol=0, abs_tol=1e-9), (key, gain, level)
        assert set(table.n_users) == {len(case.qrels())}


def test_one_list_with_no_judged_item_is_refused_and_scores_ranx_0_without_the_checks() -> None:
    """ranx's test_reciprocal_rank_single_no_match: one query, qrels {3}, run
    2 1 4 5. Tables sharing no item id are refused under every convention (ids
    written differently look the same; docs/metrics.md, Presets); with the
    checks off, rankwise gives ranx's own numbers."""
    from rankwise.errors import NoOverlapError

    qrels, run = {"q1": {"d3": 1}}, {"q1": {"d2": 0.9, "d1": 0.8, "d4": 0.7, "d5": 0.6}}
    recommendations = pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                                   columns=["user_id", "item_id", "score"])
    interactions = pd.DataFrame([(q, d, r) for q, docs in qrels.items() for d, r in docs.items()],
                                columns=["user_id", "item_id", "relevance"])
    metrics = ["mrr@5", "precision@5", "recall@5", "map@5", "ndcg@5", "r_precision"]
    for convention in ("ranx", "rankwise"):
        try:
            rankwise.evaluate(recommendations, interactions, metrics, score_col="score", relevance_col="relevance",
                              convention=convention)
        except NoOverlapError as error:
            assert "no item id" in str(error)
        else:
            raise AssertionError(f"no NoOverlapError under convention={convention!r}")
    table = rankwise.evaluate(recommendations, interactions, metrics, score_col="score", relevance_col="relevance",
                              convention="ranx", validate=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ranx().evaluate(ranx().Qrels(qrels), ranx().Run(run),
                                   ["mrr@5", "precision@5", "recall@5", "map@5", "ndcg@5", "r-precision"])
    for row, measure in zip(table.itertuples(), expected):
        assert math.isclose(row.value, expected[measure], rel_tol=0, abs_tol=1e-9), (row.metric_label, measure)
    assert list(table.value) == [0.0] * len(metrics)
