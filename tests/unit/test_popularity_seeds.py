"""The integration project's popularity_lift and miscalibration seeds are what
tests/reference/popularity_seeds.py writes, and the Python wrapper gives the
same (dbt's model popularity_bias__actual is held to them on every engine)."""

from __future__ import annotations

import pandas as pd

import rankwise
from tests.reference import popularity_seeds as reference


def test_the_train_seed_is_reproducible() -> None:
    pd.testing.assert_frame_equal(reference._read(reference.TRAIN), reference.inputs())


def test_the_expected_values_are_the_references_and_the_wrappers() -> None:
    recommendations, items = reference._read(reference.RECOMMENDATIONS), reference._read(reference.ITEMS)
    train = reference.inputs()
    stored = pd.read_csv(reference.EXPECTED, dtype={"example_id": str, "model": str})
    computed = reference.expected(recommendations, train, items)
    # 2 folds x 2 models x 2 metrics x 3 cutoffs, per variant; u07 has no train item
    assert len(stored) == len(computed) == 2 * 2 * 2 * 2 * 3
    assert (stored["n_users"] == recommendations["user_id"].nunique() - 1).all()
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    interactions = reference._read(reference.SEEDS / "input__beyond__interactions.csv")
    for variant, (measure, metrics) in reference.VARIANTS.items():
        wrapper = rankwise.evaluate(recommendations, interactions, list(metrics), k=reference.K, group_by="model",
                                    partition_by="example_id", train=train, items=items,
                                    item_group_col=reference.GROUP_COL, arp_popularity=measure)
        merged = stored[stored["variant"] == variant].merge(wrapper, on=["example_id", "model", "metric_label"],
                                                           suffixes=("", "_wrapper"), validate="1:1")
        assert len(merged) == len(wrapper) == len(stored[stored["variant"] == variant])
        assert (merged["value_wrapper"] - merged["value"]).abs().max() < 1e-12
        assert (merged["n_users_wrapper"] == merged["n_users"]).all()


def test_the_means_per_user_group_are_the_references_and_the_wrappers() -> None:
    recommendations, train = reference._read(reference.RECOMMENDATIONS), reference.inputs()
    interactions = reference.grouped_interactions()
    pd.testing.assert_frame_equal(reference._read(reference.GROUPED_INTERACTIONS), interactions)
    stored = pd.read_csv(reference.EXPECTED_BY_USER_GROUP, dtype={"example_id": str, "model": str})
    computed = reference.expected_by_user_group(recommendations, train, interactions)
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    assert set(stored["segment"]) == {"niche", "blockbuster"}
    wrapper = rankwise.evaluate(recommendations, interactions, ["popularity_lift"], k=reference.K, group_by="model",
                                partition_by="example_id", train=train, user_group_col="segment", users="both")
    merged = stored.merge(wrapper, on=["example_id", "model", "segment", "metric_label"], suffixes=("", "_wrapper"),
                          validate="1:1")
    assert len(merged) == len(wrapper) == len(stored)
    assert (merged["value_wrapper"] - merged["value"]).abs().max() < 1e-12
    assert (merged["n_users_wrapper"] == merged["n_users"]).all()
