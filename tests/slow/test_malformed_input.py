"""Randomly malformed frames (and, half the time, clean ones): only rankwise
errors come out, never a DuckDB or Jinja error, and checking never changes the
numbers of a valid frame."""

from __future__ import annotations

import math

import pandas as pd
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rankwise
from rankwise.errors import RankwiseError

IDS = st.one_of(st.none(), st.sampled_from(["u1", "u2", "u3"]))
ITEMS = st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d"]))
RANKS = st.one_of(st.none(), st.integers(-1, 4), st.sampled_from([1.5, 2.0]))
RELEVANCES = st.one_of(st.none(), st.sampled_from([0.0, 1.0, 2.0, -1.0, math.inf, math.nan]))


@st.composite
def clean_frames(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    recommendations, interactions = [], []
    for user in draw(st.lists(st.sampled_from(["u1", "u2", "u3"]), min_size=1, unique=True)):
        items = draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, unique=True))
        recommendations += [(user, item, rank) for rank, item in enumerate(items, start=1)]
        judged = draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, unique=True))
        interactions += [(user, item, draw(st.sampled_from([0.0, 1.0, 2.0]))) for item in judged]
    return (pd.DataFrame(recommendations, columns=["user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]))


@st.composite
def frames(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    metrics = draw(st.lists(st.sampled_from(["ndcg@3", "map", "precision@2", "mrr", "entropy@2"]), min_size=1, max_size=3))
    if draw(st.booleans()):
        return (*draw(clean_frames()), metrics)
    recommendations = pd.DataFrame(
        draw(st.lists(st.tuples(IDS, ITEMS, RANKS), max_size=8)), columns=["user_id", "item_id", "rank"]
    )
    interactions = pd.DataFrame(
        draw(st.lists(st.tuples(IDS, ITEMS, RELEVANCES), max_size=8)), columns=["user_id", "item_id", "relevance"]
    )
    if draw(st.integers(0, 9)) == 0:  # now and then, a column is missing
        recommendations = recommendations.drop(columns=draw(st.sampled_from(list(recommendations.columns))))
    if draw(st.integers(0, 9)) == 0:
        interactions = interactions.drop(columns=draw(st.sampled_from(list(interactions.columns))))
    return recommendations, interactions, metrics


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=frames())
def test_only_rankwise_errors_and_unchanged_numbers(case) -> None:
    recommendations, interactions, metrics = case
    try:
        checked = rankwise.evaluate(recommendations, interactions, metrics, relevance_col="relevance")
    except RankwiseError:
        event("refused")
        return
    event("evaluated")
    unchecked = rankwise.evaluate(recommendations, interactions, metrics, relevance_col="relevance", validate=False)
    pd.testing.assert_frame_equal(checked, unchecked)
