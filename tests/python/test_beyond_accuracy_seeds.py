"""The integration project's beyond-accuracy seeds are what
tests/reference/beyond_accuracy.py writes: the inputs reproducible from their
seed, the expected values what the reference implementations compute, and the
Python wrapper gives the same (dbt's model beyond_accuracy__actual is held to
them on every engine)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import rankwise
from tests.reference import beyond_accuracy as reference


def test_the_inputs_are_reproducible() -> None:
    recommendations, interactions, train, items = reference.inputs()
    pd.testing.assert_frame_equal(pd.read_csv(reference.RECOMMENDATIONS), recommendations)
    pd.testing.assert_frame_equal(pd.read_csv(reference.INTERACTIONS), interactions)
    pd.testing.assert_frame_equal(pd.read_csv(reference.TRAIN), train)
    pd.testing.assert_frame_equal(pd.read_csv(reference.ITEMS), items)


def test_the_expected_values_are_the_references_and_the_wrappers() -> None:
    stored = pd.read_csv(reference.EXPECTED)
    inputs = reference.inputs()
    computed = reference.expected(*inputs)
    assert len(stored) == len(computed) == 2 * 2 * len(reference.METRICS) * len(reference.K)
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    recommendations, interactions, train, items = inputs
    wrapper = rankwise.evaluate(recommendations, interactions, reference.METRICS, k=reference.K,
                                partition_by="example_id", group_by="model", items=items, train=train,
                                **reference.OPTIONS)
    merged = stored.merge(wrapper, on=["example_id", "model", "metric", "k"], suffixes=("", "_wrapper"), validate="1:1")
    assert len(merged) == len(stored)
    np.testing.assert_allclose(merged["value_wrapper"], merged["value"], rtol=0, atol=1e-12)
    assert (merged["n_users_wrapper"] == merged["n_users"]).all()
    # the two models differ: the popular one is the more concentrated
    gini = stored[(stored["metric"] == "gini") & (stored["k"] == 5)].set_index(["example_id", "model"])["value"]
    assert (gini.xs("popular", level="model") > gini.xs("model_a", level="model")).all()
