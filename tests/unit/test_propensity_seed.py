"""The integration project's propensity seeds are what tests/reference/propensity.py
writes, and the Python wrapper gives the same (dbt's model propensity__actual is
held to them on every engine)."""

from __future__ import annotations

import pandas as pd

import rankwise
from tests.reference import propensity as reference


def test_the_inputs_are_reproducible() -> None:
    stored = pd.read_csv(reference.INTERACTIONS, dtype={"user_id": str, "item_id": str})
    pd.testing.assert_frame_equal(stored, reference.inputs())


def test_the_expected_values_are_the_references_and_the_wrappers() -> None:
    recommendations, interactions = reference.read_recommendations(), reference.inputs()
    stored = pd.read_csv(reference.EXPECTED, dtype={"example_id": str})
    computed = reference.expected(recommendations, interactions)
    n_groups = recommendations["example_id"].nunique()
    assert len(stored) == len(computed) == len(reference.VARIANTS) * len(reference.K) * len(reference.METRICS) * n_groups
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    for variant, (clip, gain, threshold) in reference.VARIANTS.items():
        wrapper = rankwise.evaluate(recommendations, interactions, metrics=reference.METRICS, k=reference.K,
                                    group_by="example_id", relevance_col="relevance", propensity_col="propensity",
                                    propensity_clip=clip, gain=gain, relevance_threshold=threshold)
        merged = stored[stored["variant"] == variant].merge(wrapper, on=["example_id", "metric", "k"],
                                                           suffixes=("", "_wrapper"), validate="1:1")
        assert len(merged) == len(wrapper) == len(stored[stored["variant"] == variant])
        assert (merged["value_wrapper"] - merged["value"]).abs().max() < 1e-12
        assert (merged["n_users_wrapper"] == merged["n_users"]).all()
