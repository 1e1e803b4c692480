"""exposure_gini, exposure_disparity and exposure_by_item_group on
hypothesis-generated cases, against the reference implementations of
tests/reference/exposure.py (written from docs/metrics.md) and against
LensKit's ExposureGini (the port in peers/lenskit.py, checked against
LensKit 2026.4 itself by verify_lenskit.py), to 1e-9."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise
from tests.reference import exposure as reference

from .peers import lenskit as lenskit_port
from .strategies import BeyondCase, beyond_cases

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
MODELS = st.sampled_from([("dcg", 0.8), ("rbp", 0.5), ("rbp", 0.85), ("rbp", 0.95), ("rbp", 1.0)])


def _in_catalog(case: BeyondCase) -> pd.DataFrame:
    """The interactions whose item is in the catalog: exposure_disparity refuses a
    relevant item without a group."""
    return case.interactions[case.interactions["item_id"].isin(case.items["item_id"])]


def _close(actual: float, expected: float) -> bool:
    return (math.isnan(expected) and pd.isna(actual)) or math.isclose(actual, expected, rel_tol=0, abs_tol=1e-9)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), model=MODELS)
def test_exposure_gini_and_disparity_match_their_definitions(case: BeyondCase, k: int, model: tuple) -> None:
    exposure_model, persistence = model
    interactions = _in_catalog(case)
    assume(not interactions.empty)
    table = rankwise.evaluate(case.recommendations, interactions, ["exposure_gini", "exposure_disparity"], k=[k, None],
                              items=case.items, item_group_col="genre", exposure_model=exposure_model,
                              exposure_persistence=persistence)
    values = dict(zip(table["metric_label"], table["value"]))
    for cutoff, suffix in ((k, f"@{k}"), (None, "")):
        gini = reference.exposure_gini(case.recommendations, case.items, cutoff, exposure_model, persistence)
        assert _close(values["exposure_gini" + suffix], gini), (cutoff, values, gini)
        disparity = reference.exposure_disparity(case.recommendations, interactions, case.items, "genre", cutoff,
                                                 exposure_model, persistence)
        assert _close(values["exposure_disparity" + suffix], disparity), (cutoff, values, disparity)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), patience=st.sampled_from([0.5, 0.85, 0.95]))
def test_exposure_gini_is_lenskits(case: BeyondCase, k: int, patience: float) -> None:
    table = rankwise.evaluate(case.recommendations, case.recommendations[["user_id", "item_id"]], ["exposure_gini"],
                              k=k, items=case.items, exposure_model="rbp", exposure_persistence=patience)
    lists = [list(rows.sort_values("rank")["item_id"]) for _, rows in case.recommendations.groupby("user_id")]
    expected = lenskit_port.exposure_gini(lists, case.items["item_id"].nunique(), k, patience)
    assert table["value"].iloc[0] == pytest.approx(expected, abs=1e-9)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), model=MODELS)
def test_exposure_by_item_group_matches_its_definition(case: BeyondCase, k: int, model: tuple) -> None:
    exposure_model, persistence = model
    interactions = _in_catalog(case)
    assume(not interactions.empty)
    table = rankwise.exposure_by_item_group(case.recommendations, interactions, case.items, k, item_group_col="genre",
                                            exposure_model=exposure_model, exposure_persistence=persistence)
    expected = reference.by_item_group(case.recommendations, interactions, case.items, "genre", k, exposure_model,
                                       persistence)
    assert list(table["item_group"]) == [row["item_group"] for row in expected]
    for (_, actual), row in zip(table.iterrows(), expected):
        for column in ("n_items", "exposure", "exposure_share", "n_relevant_pairs", "relevance_share",
                       "exposure_ratio"):
            assert _close(actual[column], row[column]), (column, actual[column], row[column])
