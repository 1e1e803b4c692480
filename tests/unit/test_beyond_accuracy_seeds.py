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
    # intra_list_diversity@1 has no pair to divide by, except over the list's length
    n_rows = 2 * 2 * (len(reference.METRICS) * len(reference.K) + len(reference.DIVERSITY_VARIANTS) * len(reference.K) - 2
                      + (3 + 2) * len(reference.K))
    assert len(stored) == len(computed) == n_rows
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    recommendations, interactions, train, items = inputs
    # the cosine distance of the default variant from the vector column, as dbt's
    # integration model reads it, and from the feature columns that form it
    with_vectors = items.assign(vector=items[reference.VECTOR].values.tolist())
    calls = {
        "default": dict(metrics=reference.METRICS, item_vector_col="vector", **reference.OPTIONS),
        "default_features": dict(metrics=["intra_list_diversity"], item_feature_cols=reference.VECTOR),
        **{variant: dict(metrics=["intra_list_diversity"], item_distance=distance, diversity_denominator=denominator,
                         single_item_diversity=single,
                         **({"item_feature_cols": reference.FEATURES} if distance == "hamming" else {}))
           for variant, (distance, denominator, single) in reference.DIVERSITY_VARIANTS.items()},
        **{variant: dict(metrics=["coverage", "gini", "novelty"] if "gini_items" in options else ["coverage", "novelty"],
                         **options)
           for variant, options in reference.POPULARITY_VARIANTS.items()},
    }
    for variant, arguments in calls.items():
        wrapper = rankwise.evaluate(recommendations, interactions, k=reference.K, partition_by="example_id",
                                    group_by="model", items=with_vectors, train=train, **arguments)
        expected = stored[(stored["variant"] == variant.removesuffix("_features"))
                          & stored["metric"].isin(arguments["metrics"])]
        merged = expected.merge(wrapper, on=["example_id", "model", "metric", "k"], suffixes=("", "_wrapper"),
                                validate="1:1")
        assert len(merged) == len(expected) == len(wrapper), variant
        np.testing.assert_allclose(merged["value_wrapper"], merged["value"], rtol=0, atol=1e-12)
        assert (merged["n_users_wrapper"] == merged["n_users"]).all()
    # the two models differ: the popular one is the more concentrated
    default = stored[stored["variant"] == "default"]
    gini = default[(default["metric"] == "gini") & (default["k"] == 5)].set_index(["example_id", "model"])["value"]
    assert (gini.xs("popular", level="model") > gini.xs("model_a", level="model")).all()
    # the random model's hits are serendipitous, the popular model's much less; every list is diverse
    at_5 = stored[(stored["k"] == 5) & (stored["variant"] == "default")].set_index(["metric", "example_id", "model"])["value"]
    assert (at_5.loc["serendipity"].xs("model_a", level="model") > at_5.loc["serendipity"].xs("popular", level="model")).all()
    assert (at_5.loc["intra_list_diversity"] > 0).all()
