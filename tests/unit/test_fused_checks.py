"""The input checks fused into the metric query (macro _guarded_evaluate): on
clean input evaluate runs no query of the checks' own, on bad input it raises
the error the checks' own queries raise, and a result empty on its own account
is still returned."""

from __future__ import annotations

import random
from typing import Any

import pandas as pd
import pytest

import rankwise
from rankwise import _checks
from rankwise.engines.duckdb import DuckDBEngine
from rankwise.errors import InputError

RECOMMENDATIONS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": [10, 11, 12, 10, 13, 14],
                                "rank": [1, 2, 3, 1, 2, 1], "score": [0.9, 0.8, 0.7, 0.9, 0.5, 0.3]})
INTERACTIONS = pd.DataFrame({"user_id": [1, 2, 2, 3], "item_id": [11, 13, 99, 14], "relevance": [1.0, 2.0, 0.0, 3.0]})
METRICS = ["precision@2", "ndcg@3", "map", "mrr@2"]


@pytest.fixture(autouse=True)
def fused_on_duckdb(monkeypatch):
    """DuckDB runs its checks on their own (DuckDBEngine.fuses_checks); the
    fused SQL is the same macros on every engine, tested here on DuckDB."""
    monkeypatch.setattr(DuckDBEngine, "fuses_checks", True)


@pytest.fixture
def no_separate_checks(monkeypatch):
    """The checks' own value queries fail the test when run."""
    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the checks' own queries ran")
    monkeypatch.setattr(_checks, "problems", refused)
    monkeypatch.setattr(_checks, "refuse_bad_input", refused)


@pytest.mark.parametrize("options", [{}, {"score_col": "score"}, {"relevance_col": "relevance", "gain": "exponential"},
                                     {"group_by": "model"}])
def test_clean_input_runs_no_check_query_of_its_own_and_gives_the_unchecked_numbers(no_separate_checks, options):
    recommendations = RECOMMENDATIONS.assign(model="a")
    checked = rankwise.evaluate(recommendations, INTERACTIONS, METRICS, **options)
    unchecked = rankwise.evaluate(recommendations, INTERACTIONS, METRICS, validate=False, **options)
    pd.testing.assert_frame_equal(checked, unchecked)
    assert len(checked) == len(METRICS)


def _first_error(recommendations: pd.DataFrame, interactions: pd.DataFrame, **options: Any) -> str:
    """The message of the first error of rankwise.check's report: the checks'
    own queries, which the fused path must agree with."""
    report = rankwise.check(recommendations, interactions, **options)
    errors = report[report["severity"] == "error"]
    assert len(errors) > 0
    return errors["message"].iloc[0]


BAD_RECOMMENDATIONS = {
    "null_user_id": dict(user_id=[1, None, 1, 2, 2, 3]),
    "null_item_id": dict(item_id=[10, None, 12, 10, 13, 14]),
    "null_rank": dict(rank=[1, None, 3, 1, 2, 1]),
    "non_finite_rank": dict(rank=[1, float("inf"), 3, 1, 2, 1]),
    "rank_not_integer": dict(rank=[1, 2.5, 3, 1, 2, 1]),
    "rank_below_one": dict(rank=[1, 2, 0, 1, 2, 1]),
    "duplicate_item": dict(item_id=[10, 10, 12, 10, 13, 14]),
    "duplicate_rank": dict(rank=[1, 1, 3, 1, 2, 1]),
}


@pytest.mark.parametrize("problem", BAD_RECOMMENDATIONS)
def test_bad_recommendations_get_the_error_of_the_checks_own_queries(problem):
    recommendations = RECOMMENDATIONS.assign(**BAD_RECOMMENDATIONS[problem])
    with pytest.raises(InputError) as raised:
        rankwise.evaluate(recommendations, INTERACTIONS, METRICS)
    assert raised.value.problem == problem
    assert str(raised.value) == _first_error(recommendations, INTERACTIONS)


@pytest.mark.parametrize("problem, column, values, options", [
    ("null_user_id", "user_id", [1, None, 2, 3], {}),
    ("null_item_id", "item_id", [11, 13, None, 14], {}),
    ("duplicate_interaction", "item_id", [11, 13, 13, 14], {}),
    ("null_relevance", "relevance", [1.0, None, 0.0, 3.0], {"relevance_col": "relevance"}),
    ("non_finite_relevance", "relevance", [1.0, float("inf"), 0.0, 3.0], {"relevance_col": "relevance"}),
    ("negative_relevance", "relevance", [1.0, -2.0, 0.0, 3.0], {"relevance_col": "relevance"}),
    ("relevance_too_large_for_exponential_gain", "relevance", [1.0, 2000.0, 0.0, 3.0],
     {"relevance_col": "relevance", "gain": "exponential"}),
])
def test_bad_interactions_get_the_error_of_the_checks_own_queries(problem, column, values, options):
    interactions = INTERACTIONS.assign(**{column: values})
    with pytest.raises(InputError) as raised:
        rankwise.evaluate(RECOMMENDATIONS, interactions, METRICS, **options)
    assert raised.value.problem == problem
    assert str(raised.value) == _first_error(RECOMMENDATIONS, interactions, **options)


@pytest.mark.parametrize("empty", ["recommendations", "interactions"])
def test_an_empty_table_is_named(empty):
    inputs = {"recommendations": RECOMMENDATIONS, "interactions": INTERACTIONS}
    inputs[empty] = inputs[empty].head(0)
    with pytest.raises(rankwise.errors.EmptyInputError, match=f"the {empty} .* is empty"):
        rankwise.evaluate(inputs["recommendations"], inputs["interactions"], METRICS)


def test_means_empty_on_their_own_account_are_returned():
    """users='relevant' with no relevant interaction: no mean has a user."""
    interactions = INTERACTIONS.assign(relevance=0.0)
    options = dict(relevance_col="relevance", users="relevant")
    checked = rankwise.evaluate(RECOMMENDATIONS, interactions, METRICS, **options)
    assert checked.empty
    pd.testing.assert_frame_equal(checked, rankwise.evaluate(RECOMMENDATIONS, interactions, METRICS, validate=False,
                                                             **options))


def _long_lists(n_users: int, length: int, seed: int) -> pd.DataFrame:
    generator = random.Random(seed)
    rows = [(user, item, rank + 1) for user in range(n_users)
            for rank, item in enumerate(generator.sample(range(10 * length), length))]
    return pd.DataFrame(rows, columns=["user_id", "item_id", "rank"])


def test_lists_past_63_ranks_and_many_bucket_collisions_are_checked_exactly(no_separate_checks):
    """Lists of 100 ranks are past the bits of one integer, and 300 lists of
    100 items fill fewer hash buckets than they have items more often than
    not: the exact grouping decides, and finds nothing."""
    recommendations = _long_lists(300, 100, seed=1)
    interactions = recommendations.sample(frac=0.2, random_state=1)[["user_id", "item_id"]]
    checked = rankwise.evaluate(recommendations, interactions, ["precision@80", "ndcg@100"])
    pd.testing.assert_frame_equal(checked, rankwise.evaluate(recommendations, interactions,
                                                             ["precision@80", "ndcg@100"], validate=False))


@pytest.mark.parametrize("column", ["item_id", "rank"])
def test_a_value_twice_in_a_long_list_is_found(column):
    recommendations = _long_lists(50, 100, seed=2)
    row = recommendations.index[(recommendations["user_id"] == 7) & (recommendations["rank"] == 80)][0]
    recommendations.loc[row, column] = recommendations.loc[row - 10, column]
    interactions = recommendations.sample(frac=0.2, random_state=2)[["user_id", "item_id"]].drop_duplicates()
    with pytest.raises(rankwise.errors.DuplicateRowsError) as raised:
        rankwise.evaluate(recommendations, interactions, ["precision@80"])
    assert raised.value.problem == ("duplicate_item" if column == "item_id" else "duplicate_rank")
