"""Reference implementations of the inverse-propensity estimates (propensity_col),
written from docs/metrics.md ("Debiased estimates") the obvious way, sharing no
code with the macros: each interaction weighs w = 1 / max(propensity, clip);
recall is the hits' weights over the relevant items' weights (self-normalised,
Swaminathan & Joachims 2015), DCG sums each gain times its weight over the
discount, IDCG is the DCG of the weighted gains sorted best first (Yang et al.
2018), NDCG their ratio. And the integration project's propensity seeds:

    python -m tests.reference.propensity   # rewrites the two seeds
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__random__recommendations.csv"
RANDOM_INTERACTIONS = SEEDS / "input__random__interactions.csv"
INTERACTIONS = SEEDS / "input__propensity__interactions.csv"
EXPECTED = SEEDS / "expected__propensity.csv"

METRICS = ["recall", "dcg", "idcg", "ndcg"]
K = [1, 3, 5]
# variant: (propensity_clip, gain, relevance_threshold)
VARIANTS = {"default": (None, "linear", 1.0), "clipped_exponential": (0.2, "exponential", 2.0)}


def weight(propensity: float, clip: float | None) -> float:
    return 1.0 / (propensity if clip is None else max(propensity, clip))


def gain(relevance: float, kind: str) -> float:
    if relevance <= 0:
        return 0.0
    return relevance if kind == "linear" else 2.0**relevance - 1.0


def user_values(ranking: list[tuple[int, str]], truth: dict[str, tuple[float, float]], k: int, clip: float | None,
                kind: str, threshold: float) -> dict[str, float]:
    """recall, dcg, idcg and ndcg at k of one list ((rank, item) pairs: ranks may
    have gaps, and an item counts within k when its rank is) against one user's
    truth {item: (relevance, propensity)}. An item earns a DCG gain when its
    relevance is positive (gain_items='positive', the default)."""
    within = [(rank, item) for rank, item in ranking if rank <= k]
    relevant_weight = sum(weight(p, clip) for relevance, p in truth.values() if relevance >= threshold)
    hit_weight = sum(weight(truth[item][1], clip) for _, item in within
                     if item in truth and truth[item][0] >= threshold)
    dcg = sum(gain(truth[item][0], kind) * weight(truth[item][1], clip) / math.log2(rank + 1)
              for rank, item in within if item in truth)
    ideal = sorted((gain(relevance, kind) * weight(p, clip) for relevance, p in truth.values()), reverse=True)
    idcg = sum(value / math.log2(rank + 1) for rank, value in enumerate(ideal[:k], start=1))
    return {"recall": hit_weight / relevant_weight if relevant_weight else 0.0, "dcg": dcg, "idcg": idcg,
            "ndcg": dcg / idcg if idcg else 0.0}


def means(recommendations: pd.DataFrame, interactions: pd.DataFrame, k: int, clip: float | None, kind: str,
          threshold: float) -> dict[tuple[str, str], tuple[float, int]]:
    """Per (list group, metric): the mean over every user of the interactions
    (users='interactions', the default: a user without a list scores 0, but keeps
    the IDCG of the truth) and their number. Columns: example_id (the group),
    user_id, item_id, rank; user_id, item_id, relevance, propensity."""
    truths = {user: {row.item_id: (row.relevance, row.propensity) for row in rows.itertuples()}
              for user, rows in interactions.groupby("user_id")}
    result = {}
    for group, lists in recommendations.groupby("example_id"):
        rankings = {user: list(zip(rows["rank"], rows["item_id"])) for user, rows in lists.groupby("user_id")}
        values = [user_values(rankings.get(user, []), truth, k, clip, kind, threshold) for user, truth in truths.items()]
        for metric in METRICS:
            result[(group, metric)] = (sum(value[metric] for value in values) / len(values), len(values))
    return result


def inputs() -> pd.DataFrame:
    """The random interactions with a propensity per row, drawn from a seed:
    uniform on (0.05, 1], a few at 1 exactly."""
    interactions = pd.read_csv(RANDOM_INTERACTIONS, dtype={"user_id": str, "item_id": str})
    rng = np.random.default_rng(33)
    propensity = np.round(rng.uniform(0.05, 1.0, len(interactions)), 6)
    propensity[rng.random(len(interactions)) < 0.1] = 1.0
    return interactions.assign(propensity=propensity)


def expected(recommendations: pd.DataFrame, interactions: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for variant, (clip, kind, threshold) in VARIANTS.items():
        for k in K:
            for (group, metric), (value, n_users) in sorted(means(recommendations, interactions, k, clip, kind,
                                                                  threshold).items()):
                rows.append((variant, group, metric, k, value, n_users))
    return pd.DataFrame(rows, columns=["variant", "example_id", "metric", "k", "value", "n_users"])


def read_recommendations() -> pd.DataFrame:
    return pd.read_csv(RECOMMENDATIONS, dtype={"example_id": str, "user_id": str, "item_id": str})


if __name__ == "__main__":
    interactions = inputs()
    interactions.to_csv(INTERACTIONS, index=False)
    expected(read_recommendations(), interactions).to_csv(EXPECTED, index=False, float_format="%.17g")
