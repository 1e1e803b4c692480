"""The integration project's seed of the reference-list metrics is what
tests/reference/reference_overlap.py writes, and the Python wrapper gives the
same (dbt's model reference_overlap__actual is held to it on every engine)."""

from __future__ import annotations

import pandas as pd

import rankwise
from tests.reference import reference_overlap as reference


def test_the_expected_values_are_the_references_and_the_wrappers() -> None:
    stored = pd.read_csv(reference.EXPECTED, dtype={"example_id": str, "model": str})
    computed = reference.expected()
    # 2 folds x 3 models x 3 metrics x 3 cutoffs, per variant
    assert len(stored) == len(computed) == 2 * 2 * 3 * 3 * 3
    pd.testing.assert_frame_equal(stored, computed, check_exact=False, rtol=1e-15, atol=1e-15)
    recommendations = pd.read_csv(reference.RECOMMENDATIONS, dtype={"example_id": str, "model": str, "user_id": str,
                                                                     "item_id": str})
    interactions = pd.read_csv(reference.SEEDS / "input__comparison__interactions.csv",
                               dtype={"example_id": str, "user_id": str, "item_id": str})
    keys = ["variant", "example_id", "model", "metric_label"]
    frames = []
    for variant in reference.VARIANTS:
        result = rankwise.evaluate(recommendations, interactions, metrics=list(reference.METRICS), k=reference.K,
                                   partition_by="example_id", model_col="model", reference=reference.REFERENCE,
                                   relevance_col="relevance", without_reference=variant)
        frames.append(result.assign(variant=variant))
    wrapper = pd.concat(frames).sort_values(keys).reset_index(drop=True)
    stored = stored.sort_values(keys).reset_index(drop=True)
    assert wrapper[keys].astype(str).equals(stored[keys].astype(str))
    assert (wrapper["n_users"].astype(int).to_numpy() == stored["n_users"].to_numpy()).all()
    assert (wrapper["value"] - stored["value"]).abs().max() < 1e-12
