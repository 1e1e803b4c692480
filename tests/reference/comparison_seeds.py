"""The seeds of the integration project's comparison: three models on two folds
(seeded, so the files are reproducible), and the comparison the Python wrapper
computes from them on DuckDB (itself checked against scipy and statsmodels in
tests/crosscheck/test_compare_scipy.py), and evaluate's bootstrap interval of
entropy on them (checked in tests/crosscheck/test_intervals.py). The package model
rankwise_comparison and the model entropy_bootstrap__actual must give the same
tables on every engine. tests/slow/test_comparison_seeds.py
keeps the files equal to what this module writes:

    python -m tests.reference.comparison_seeds   # rewrites the four seeds
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__comparison__recommendations.csv"
INTERACTIONS = SEEDS / "input__comparison__interactions.csv"
EXPECTED = SEEDS / "expected__comparison.csv"
ENTROPY_EXPECTED = SEEDS / "expected__entropy_bootstrap.csv"
# evaluate's bootstrap interval of entropy on the same inputs, as
# integration_tests/models/entropy_bootstrap__actual.sql asks for it
ENTROPY_ARGUMENTS = {"group_by": ["model"], "partition_by": ["example_id"], "bootstrap_resamples": 100, "seed": 5,
                     "confidence": 0.9, "relevance_col": "relevance"}

# As var('rankwise_comparison') and the package vars of integration_tests/dbt_project.yml set them.
METRICS = ["precision", "recall", "f1", "hit_rate", "map", "mrr", "dcg", "ndcg", "r_precision", "map_to_full_recall"]
K = [1, 2, 3, 5, 10, None]
ARGUMENTS = {"model_col": "model", "tests": ["t", "randomization", "bootstrap"], "n_resamples": 200, "seed": 7,
             "correction": "bh", "margin": 0.05, "equivalence": True, "partition_by": ["example_id"],
             "relevance_col": "relevance"}
EXPECTED_COLUMNS = ["example_id", "metric", "k", "model", "baseline", "n_users", "mean", "baseline_mean", "diff",
                    "ci_low", "ci_high", "effect_size", "t_statistic", "p_value", "p_randomization",
                    "bootstrap_ci_low", "bootstrap_ci_high", "p_adjusted", "p_non_inferiority",
                    "p_non_inferiority_adjusted", "p_equivalence", "p_equivalence_adjusted",
                    "minimum_detectable_difference", "wins", "ties", "losses"]


def inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per fold, 60 users with graded truth over 12 items; three models whose
    lists of 3 to 6 items favour the truth to different degrees (the third
    recommends the popular items), some users without a list."""
    rng = np.random.default_rng(20261124)
    recommendations, interactions = [], []
    popularity = 1.0 / np.arange(1, 13)
    popularity /= popularity.sum()
    for fold in ("fold_1", "fold_2"):
        for user in range(60):
            name = f"u{user:02d}"
            truth = rng.choice(12, size=rng.integers(1, 5), replace=False, p=popularity)
            for item in truth:
                interactions.append((fold, name, f"i{item:02d}", int(rng.integers(0, 4))))
            for model, skill in (("model_a", 0.9), ("model_b", 0.4), ("popular", 0.0)):
                if rng.random() < 0.1:
                    continue
                length = int(rng.integers(3, 7))
                known = [item for item in truth if rng.random() < skill]
                rest = [item for item in np.argsort(-popularity if model == "popular" else rng.random(12)) if item not in known]
                for rank, item in enumerate([*known, *rest][:length], start=1):
                    recommendations.append((fold, model, name, f"i{item:02d}", rank))
    return (pd.DataFrame(recommendations, columns=["example_id", "model", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["example_id", "user_id", "item_id", "relevance"]))


def expected(recommendations: pd.DataFrame, interactions: pd.DataFrame) -> pd.DataFrame:
    import rankwise

    result = rankwise.compare(recommendations, interactions, METRICS, K, **ARGUMENTS)
    return result[EXPECTED_COLUMNS]


def entropy_expected(recommendations: pd.DataFrame, interactions: pd.DataFrame) -> pd.DataFrame:
    import rankwise

    result = rankwise.evaluate(recommendations, interactions, ["entropy@3", "entropy@10"], **ENTROPY_ARGUMENTS)
    return result[["example_id", "model", "metric", "k", "value", "ci_low", "ci_high"]]


def main() -> None:
    recommendations, interactions = inputs()
    recommendations.to_csv(RECOMMENDATIONS, index=False)
    interactions.to_csv(INTERACTIONS, index=False)
    # 13 decimals: more than the tests' tolerances need, and fewer than
    # the last bits that DuckDB's parallel sums may change from run to run
    expected(recommendations, interactions).to_csv(EXPECTED, index=False, float_format="%.13f")
    entropy_expected(recommendations, interactions).to_csv(ENTROPY_EXPECTED, index=False, float_format="%.13f")


if __name__ == "__main__":
    main()
