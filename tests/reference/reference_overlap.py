"""The integration project's expected values of the reference-list metrics
(rbo, intersection) on the comparison seeds: each model's list against model_a's
list of the same user and fold, from the reference RBO_ext of
rank_biased_overlap.py and the share of the top k in the reference's top k,
sharing no code with the macros. integration_tests/models/
reference_overlap__actual.sql asks for the same; tests/unit/
test_reference_overlap_seed.py keeps the seed equal to what this module writes:

    python -m tests.reference.reference_overlap   # rewrites the seed
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.reference import rank_biased_overlap

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__comparison__recommendations.csv"
EXPECTED = SEEDS / "expected__reference_overlap.csv"

REFERENCE = "model_a"
K = [1, 3, 5]
# metric label: (metric, p)
METRICS = {"rbo": ("rbo", 0.9), "rbo(p=0.5)": ("rbo", 0.5), "intersection": ("intersection", None)}
# variant: the value of a list whose user has no reference list (None: no value)
VARIANTS = {"no_value": None, "zero": 0.0}


def _intersection_per_list(recommendations: pd.DataFrame, k: int, without_reference: float | None) -> dict:
    lists = rank_biased_overlap.top_k(recommendations, k)
    values = {}
    for (user, model), items in lists.items():
        reference_list = lists.get((user, REFERENCE))
        values[(user, model)] = (without_reference if reference_list is None
                                 else len(set(items) & set(reference_list)) / len(items))
    return values


def expected() -> pd.DataFrame:
    recommendations = pd.read_csv(RECOMMENDATIONS, dtype={"example_id": str, "model": str, "user_id": str,
                                                          "item_id": str})
    rows = []
    for variant, without_reference in VARIANTS.items():
        for fold, in_fold in recommendations.groupby("example_id", sort=True):
            for label, (metric, p) in METRICS.items():
                for k in K:
                    values = (rank_biased_overlap.rbo_per_list(in_fold, REFERENCE, k, p, without_reference)
                              if metric == "rbo" else _intersection_per_list(in_fold, k, without_reference))
                    means = rank_biased_overlap.mean_per_model(values)
                    for model in sorted(means):
                        n_lists = sum(1 for (_, of), value in values.items() if of == model and value is not None)
                        rows.append([variant, fold, model, metric, f"{label}@{k}", k, means[model], n_lists])
    return pd.DataFrame(rows, columns=["variant", "example_id", "model", "metric", "metric_label", "k", "value",
                                       "n_users"])


if __name__ == "__main__":
    expected().to_csv(EXPECTED, index=False)
