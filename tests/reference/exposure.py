"""Reference implementations of the exposure metrics, written from their
definitions in docs/metrics.md ("exposure_gini", "exposure_disparity",
"exposure_by_item_group") the obvious way: a loop over every slot of every list
for the exposure, a dictionary per item group, sorting for Gini. They share no
code with the macros. tests/crosscheck/test_exposure.py runs them against
rankwise on random cases; the integration project's expected seeds are what
this module writes on the beyond-accuracy seeds:

    python -m tests.reference.exposure   # rewrites the two seeds
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__beyond__recommendations.csv"
INTERACTIONS = SEEDS / "input__beyond__interactions.csv"
ITEMS = SEEDS / "input__beyond__items.csv"
EXPECTED = SEEDS / "expected__exposure.csv"
EXPECTED_BY_GROUP = SEEDS / "expected__exposure_by_item_group.csv"

# As integration_tests/models/exposure__actual.sql and
# exposure_by_item_group__actual.sql ask for them.
K = [1, 3, 5]
ITEM_GROUP_COL = "genre"
# variant: (exposure_model, exposure_persistence)
VARIANTS = {"dcg": ("dcg", 0.8), "rbp_half": ("rbp", 0.5)}


def weight(rank: int, model: str = "dcg", persistence: float = 0.8) -> float:
    """The attention a slot at `rank` gets: 1/log2(rank + 1), or p^(rank - 1)."""
    if model == "dcg":
        return 1 / math.log2(rank + 1)
    return persistence ** (rank - 1)


def exposure(recommendations: pd.DataFrame, k: int | None, model: str = "dcg",
             persistence: float = 0.8) -> dict:
    """Each item's exposure: the sum of the weights of its slots within k."""
    totals: dict = {}
    for item, rank in zip(recommendations["item_id"], recommendations["rank"]):
        if k is None or rank <= k:
            totals[item] = totals.get(item, 0.0) + weight(int(rank), model, persistence)
    return totals


def exposure_gini(recommendations: pd.DataFrame, items: pd.DataFrame, k: int | None, model: str = "dcg",
                  persistence: float = 0.8) -> float:
    """Σ(2i − n − 1) e_i / (n Σ e) over the n catalog items, exposures
    ascending (items never shown 0); NaN without exposure."""
    exposures = exposure(recommendations, k, model, persistence)
    values = sorted(exposures.get(item, 0.0) for item in items["item_id"].unique())
    n, total = len(values), sum(values)
    if total == 0:
        return math.nan
    return sum((2 * i - n - 1) * value for i, value in enumerate(values, start=1)) / (n * total)


def by_item_group(recommendations: pd.DataFrame, interactions: pd.DataFrame, items: pd.DataFrame,
                  item_group_col: str, k: int | None, model: str = "dcg", persistence: float = 0.8,
                  relevance_col: str | None = None, threshold: float = 1) -> list[dict]:
    """One dict per item group of the catalog: n_items, exposure, exposure_share,
    n_relevant_pairs, relevance_share, exposure_ratio (NaN for no value)."""
    group_of = dict(zip(items["item_id"], items[item_group_col]))
    groups = sorted(set(group_of.values()))
    exposures = exposure(recommendations, k, model, persistence)
    exposure_of = {group: 0.0 for group in groups}
    for item, value in exposures.items():
        exposure_of[group_of[item]] += value
    relevant = (interactions if relevance_col is None
                else interactions[interactions[relevance_col] >= threshold])
    pairs_of = {group: 0 for group in groups}
    for item in relevant["item_id"]:
        pairs_of[group_of[item]] += 1
    total_exposure, total_pairs = sum(exposure_of.values()), sum(pairs_of.values())
    rows = []
    for group in groups:
        e = exposure_of[group] / total_exposure if total_exposure > 0 else math.nan
        r = pairs_of[group] / total_pairs if total_pairs > 0 else math.nan
        rows.append({"item_group": group, "n_items": sum(1 for g in group_of.values() if g == group),
                     "exposure": exposure_of[group], "exposure_share": e, "n_relevant_pairs": pairs_of[group],
                     "relevance_share": r, "exposure_ratio": e / r if r and r > 0 else math.nan})
    return rows


def exposure_disparity(recommendations: pd.DataFrame, interactions: pd.DataFrame, items: pd.DataFrame,
                       item_group_col: str, k: int | None, model: str = "dcg", persistence: float = 0.8,
                       relevance_col: str | None = None, threshold: float = 1) -> float:
    """1/2 Σ_g |E_g − R_g| over the catalog's item groups; NaN when either side
    has nothing to share."""
    rows = by_item_group(recommendations, interactions, items, item_group_col, k, model, persistence,
                         relevance_col, threshold)
    return 0.5 * sum(abs(row["exposure_share"] - row["relevance_share"]) for row in rows)


def inputs() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    text = {"example_id": str, "model": str, "user_id": str, "item_id": str, "genre": str}
    return (pd.read_csv(RECOMMENDATIONS, dtype=text), pd.read_csv(INTERACTIONS, dtype=text),
            pd.read_csv(ITEMS, dtype=text))


def expected() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two seeds: per variant, fold, model and cutoff, exposure_gini and
    exposure_disparity (n_users: the lists); and the rows of
    exposure_by_item_group."""
    recommendations, interactions, items = inputs()
    metrics, groups = [], []
    for variant, (model, persistence) in VARIANTS.items():
        for fold, in_fold in recommendations.groupby("example_id", sort=True):
            truth = interactions[interactions["example_id"] == fold]
            for name, lists in in_fold.groupby("model", sort=True):
                n_lists = lists["user_id"].nunique()
                for k in K:
                    metrics.append([variant, fold, name, "exposure_gini", f"exposure_gini@{k}", k,
                                    exposure_gini(lists, items, k, model, persistence), n_lists])
                    metrics.append([variant, fold, name, "exposure_disparity", f"exposure_disparity@{k}", k,
                                    exposure_disparity(lists, truth, items, ITEM_GROUP_COL, k, model, persistence),
                                    n_lists])
                    for row in by_item_group(lists, truth, items, ITEM_GROUP_COL, k, model, persistence):
                        groups.append({"variant": variant, "example_id": fold, "model": name, "k": k, **row})
    return (pd.DataFrame(metrics, columns=["variant", "example_id", "model", "metric", "metric_label", "k", "value",
                                           "n_users"]),
            pd.DataFrame(groups))


if __name__ == "__main__":
    metric_rows, group_rows = expected()
    metric_rows.to_csv(EXPECTED, index=False)
    group_rows.to_csv(EXPECTED_BY_GROUP, index=False)
