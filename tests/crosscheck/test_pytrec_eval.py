"""rankwise against trec_eval's own C code (pytrec_eval), per user to 1e-9, on
random cases with ties, graded relevance, one-sided users and k beyond the lists."""

from __future__ import annotations

import math

import pandas as pd
import pytrec_eval
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from .strategies import Case, cases

# rankwise metric -> trec_eval measure (with {k} for the cutoff, None for whole list)
MEASURES = {
    ("precision", True): "P_{k}",
    ("recall", True): "recall_{k}",
    ("map", True): "map_cut_{k}",
    ("map", False): "map",
    ("mrr", False): "recip_rank",
    ("ndcg", True): "ndcg_cut_{k}",
    ("ndcg", False): "ndcg",
    ("r_precision", False): "Rprec",
    ("hit_rate", True): "success_{k}",
    ("bpref", False): "bpref",
    ("num_ret", False): "num_ret",
    ("num_rel", False): "num_rel",
    ("num_rel_ret", False): "num_rel_ret",
    ("num_nonrel_judged_ret", False): "num_nonrel_judged_ret",
    ("relative_precision", True): "relative_P_{k}",
    ("relative_precision", False): "set_relative_P",
    ("set_map", False): "set_map",
    ("utility", False): "utility",
    ("bin_g", False): "binG",
    ("inf_ap", False): "infAP",
    ("ndcg_rel", False): "ndcg_rel",
}
CROSS_CHECK = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _rankwise_per_user(case: Case, k: int, threshold: int) -> dict[tuple[str, str], float]:
    # trec_eval's per-query results hold the queries of the run: users='both'
    table = rankwise.evaluate(
        case.recommendations,
        case.interactions,
        [f"{name}@{k}" if with_cutoff else name for name, with_cutoff in MEASURES],
        score_col="score",
        relevance_col="relevance",
        relevance_threshold=threshold,
        per_user=True,
        users="both",
    )
    return _by_user_and_measure(table, k)


def _by_user_and_measure(table: pd.DataFrame, k: int) -> dict[tuple[str, str], float]:
    values = {}
    for row in table.itertuples():
        with_cutoff = not pd.isna(row.k)
        measure = MEASURES[(row.metric, with_cutoff)].format(k=k)
        values[(row.user_id, measure)] = row.value
    return values


def _trec_eval(case: Case, k: int, threshold: int) -> dict[str, dict[str, float]]:
    measures = {measure.format(k=k) for measure in MEASURES.values()}
    evaluator = pytrec_eval.RelevanceEvaluator(case.qrels(), measures, relevance_level=threshold)
    return evaluator.evaluate(case.run())


@CROSS_CHECK
@given(case=cases(), k=st.integers(1, 50), threshold=st.sampled_from([1, 2]))
def test_every_user_matches_trec_eval(case: Case, k: int, threshold: int) -> None:
    assume(case.is_evaluable())
    expected = _trec_eval(case, k, threshold)
    actual = _rankwise_per_user(case, k, threshold)
    assert {user for user, _ in actual} == set(expected)
    for user, measures in expected.items():
        for measure, value in measures.items():
            assert math.isclose(actual[(user, measure)], value, rel_tol=0, abs_tol=1e-9), (user, measure)


@CROSS_CHECK
@given(case=cases(), k=st.integers(1, 50))
def test_means_match_trec_eval_with_and_without_c(case: Case, k: int) -> None:
    """users='both' is trec_eval's mean; users='interactions' is trec_eval -c
    (queries of the qrels without a run count as 0)."""
    assume(case.is_evaluable())
    per_query = _trec_eval(case, k, 1)
    n_qrel_queries = len(case.qrels())
    for users, divisor in (("both", len(per_query)), ("interactions", n_qrel_queries)):
        table = rankwise.evaluate(
            case.recommendations, case.interactions, [f"ndcg@{k}", "map", f"precision@{k}"],
            score_col="score", relevance_col="relevance", users=users,
        )
        assert sorted(table.metric) == ["map", "ndcg", "precision"]
        for row in table.itertuples():
            measure = {"ndcg": f"ndcg_cut_{k}", "map": "map", "precision": f"P_{k}"}[row.metric]
            total = sum(measures[measure] for measures in per_query.values())
            assert row.n_users == divisor
            assert math.isclose(row.value, total / divisor, rel_tol=0, abs_tol=1e-9), (users, measure)


@CROSS_CHECK
@given(first=cases(), second=cases(), k=st.integers(1, 20))
def test_each_partition_matches_trec_eval_on_its_own_truth(first: Case, second: Case, k: int) -> None:
    """Two cases as two folds of one pair of tables: each fold's users match
    trec_eval run on that fold alone, though users and items recur across folds."""
    assume(first.is_evaluable() and second.is_evaluable())
    assume(all(first.recommendations[column].dtype == second.recommendations[column].dtype
               and first.interactions[column].dtype == second.interactions[column].dtype
               for column in ("user_id", "item_id")))
    recommendations = pd.concat([first.recommendations.assign(fold=1), second.recommendations.assign(fold=2)])
    interactions = pd.concat([first.interactions.assign(fold=1), second.interactions.assign(fold=2)])
    table = rankwise.evaluate(
        recommendations, interactions, [f"{name}@{k}" if with_cutoff else name for name, with_cutoff in MEASURES],
        score_col="score", relevance_col="relevance", per_user=True, users="both", partition_by="fold",
    )
    for fold, case in ((1, first), (2, second)):
        expected = _trec_eval(case, k, 1)
        actual = _by_user_and_measure(table[table.fold == fold], k)
        assert {user for user, _ in actual} == set(expected)
        for user, measures in expected.items():
            for measure, value in measures.items():
                assert math.isclose(actual[(user, measure)], value, rel_tol=0, abs_tol=1e-9), (fold, user, measure)
