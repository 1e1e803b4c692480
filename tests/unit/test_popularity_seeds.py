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


def test_the_comparison_is_scipys_on_the_references_values_and_the_wrappers() -> None:
    """compare pairs each user's list-level values under the two models where
    both have one, and every truth user's hit_rate: the stored seed is scipy's
    paired t test on the reference implementations' values, and the wrapper
    gives the same rows."""
    recommendations, items = reference._read(reference.RECOMMENDATIONS), reference._read(reference.ITEMS)
    train = reference.inputs()
    stored = pd.read_csv(reference.EXPECTED_COMPARISON, dtype={"example_id": str, "model": str, "baseline": str})
    interactions = reference._read(reference.INTERACTIONS)
    computed = reference.expected_comparison(recommendations, train, items, interactions)
    # 2 folds x 3 metrics x 3 cutoffs; u07, without train items, has no list-level value under either model
    assert len(stored) == len(computed) == 2 * 3 * 3
    listed = ~stored["metric_label"].str.startswith("hit_rate")
    assert (stored.loc[listed, "n_users"] == recommendations["user_id"].nunique() - 1).all()
    assert (stored.loc[~listed, "n_users"] == recommendations["user_id"].nunique()).all()
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    wrapper = rankwise.compare(recommendations, interactions, ["popularity_lift", "miscalibration", "hit_rate"], k=reference.K,
                               baseline="model_a", partition_by="example_id", train=train, items=items,
                               item_group_col=reference.GROUP_COL, **reference.RESAMPLING)
    merged = stored.merge(wrapper, on=["example_id", "metric_label", "model", "baseline"], suffixes=("", "_wrapper"),
                          validate="1:1")
    assert len(merged) == len(wrapper) == len(stored)
    for column in ("n_users", "wins", "ties", "losses"):
        assert (merged[f"{column}_wrapper"] == merged[column]).all(), column
    for column in ("mean", "baseline_mean", "diff", "ci_low", "ci_high", "effect_size", "t_statistic", "p_value",
                   "p_randomization", "bootstrap_ci_low", "bootstrap_ci_high"):
        assert (merged[f"{column}_wrapper"].isna() == merged[column].isna()).all(), column
        assert (merged[f"{column}_wrapper"] - merged[column]).abs().max() < 1e-9, column

