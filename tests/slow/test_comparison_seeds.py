"""The integration project's comparison seeds are what
tests/reference/comparison_seeds.py writes: the inputs reproducible from their
seed, and the expected table what rankwise.compare computes from them now."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tests.reference import comparison_seeds


def test_the_inputs_are_reproducible() -> None:
    recommendations, interactions = comparison_seeds.inputs()
    pd.testing.assert_frame_equal(pd.read_csv(comparison_seeds.RECOMMENDATIONS), recommendations)
    pd.testing.assert_frame_equal(pd.read_csv(comparison_seeds.INTERACTIONS), interactions)


def test_the_expected_table_is_the_wrappers() -> None:
    stored = pd.read_csv(comparison_seeds.EXPECTED)
    computed = comparison_seeds.expected(*comparison_seeds.inputs()).reset_index(drop=True)
    assert list(stored.columns) == list(computed.columns)
    assert len(stored) == len(computed) > 100
    for column in stored.columns:
        if not pd.api.types.is_numeric_dtype(stored[column]):
            assert stored[column].tolist() == computed[column].tolist(), column
        else:
            np.testing.assert_allclose(stored[column].astype(float), computed[column].astype(float),
                                       rtol=1e-13, atol=1e-13, equal_nan=True, err_msg=column)
    # every test has something to say: not all equal, some significant
    assert stored["p_randomization"].nunique() > 10 and (stored["p_adjusted"] < 0.05).any()


def test_the_entropy_intervals_are_the_wrappers() -> None:
    stored = pd.read_csv(comparison_seeds.ENTROPY_EXPECTED)
    computed = comparison_seeds.entropy_expected(*comparison_seeds.inputs()).reset_index(drop=True)
    assert list(stored.columns) == list(computed.columns) and len(stored) == len(computed) == 2 * 3 * 2
    for column in ("value", "ci_low", "ci_high"):
        np.testing.assert_allclose(stored[column], computed[column], rtol=1e-13, atol=1e-13, err_msg=column)
    # an interval wherever the lists differ between users (the popular model's do not)
    assert (stored["ci_low"] <= stored["ci_high"]).all() and (stored["ci_low"] < stored["ci_high"]).sum() >= 8
