"""The integration project's exposure seeds are what tests/reference/exposure.py
writes, and the Python wrapper gives the same (dbt's models exposure__actual and
exposure_by_item_group__actual are held to them on every engine)."""

from __future__ import annotations

import pandas as pd

import rankwise
from tests.reference import exposure as reference

TEXT = {"variant": str, "example_id": str, "model": str, "item_group": str}


def test_the_expected_values_are_the_references_and_the_wrappers() -> None:
    metrics, groups = reference.expected()
    stored = pd.read_csv(reference.EXPECTED, dtype=TEXT)
    stored_groups = pd.read_csv(reference.EXPECTED_BY_GROUP, dtype=TEXT)
    pd.testing.assert_frame_equal(stored, metrics, check_exact=False, rtol=1e-15, atol=1e-15)
    pd.testing.assert_frame_equal(stored_groups, groups, check_exact=False, rtol=1e-15, atol=1e-15, check_dtype=False)
    recommendations, interactions, items = reference.inputs()
    common = {"group_by": "model", "partition_by": "example_id", "item_group_col": reference.ITEM_GROUP_COL}
    for variant, (model, persistence) in reference.VARIANTS.items():
        table = rankwise.evaluate(recommendations, interactions, ["exposure_gini", "exposure_disparity"], k=reference.K,
                                  items=items, exposure_model=model, exposure_persistence=persistence, **common)
        expected = stored[stored.variant == variant]
        merged = table.merge(expected, on=["example_id", "model", "metric_label"], suffixes=("", "_expected"))
        assert len(merged) == len(expected) == len(table) > 0
        assert (merged["value"] - merged["value_expected"]).abs().max() < 1e-12
        by_group = rankwise.exposure_by_item_group(recommendations, interactions, items, reference.K,
                                                   exposure_model=model, exposure_persistence=persistence, **common)
        expected_groups = stored_groups[stored_groups.variant == variant]
        merged = by_group.merge(expected_groups, on=["example_id", "model", "k", "item_group"], suffixes=("", "_e"))
        assert len(merged) == len(expected_groups) == len(by_group) > 0
        for column in ("exposure", "exposure_share", "relevance_share", "exposure_ratio"):
            difference = (merged[column] - merged[column + "_e"]).abs()
            assert (difference.fillna(0) < 1e-12).all() and (merged[column].isna() == merged[column + "_e"].isna()).all()
