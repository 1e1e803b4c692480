"""Reference implementations of the beyond-accuracy metrics, written from their
definitions in docs/metrics.md the obvious way (sorting for Gini, every pair of
lists for personalization, loops over the lists), sharing no code with the
macros; and the integration project's beyond-accuracy seeds, with the values
these references compute on them. tests/crosscheck/test_beyond_accuracy.py runs
the references against rankwise on random cases; tests/unit/
test_beyond_accuracy_seeds.py keeps the seeds equal to what this module writes:

    python -m tests.reference.beyond_accuracy   # rewrites the five seeds
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__beyond__recommendations.csv"
INTERACTIONS = SEEDS / "input__beyond__interactions.csv"
TRAIN = SEEDS / "input__beyond__train.csv"
ITEMS = SEEDS / "input__beyond__items.csv"
EXPECTED = SEEDS / "expected__beyond_accuracy.csv"

# As integration_tests/models/beyond_accuracy__actual.sql asks for them: the
# metrics with rankwise's defaults (intra_list_diversity by the cosine of the
# items' vectors f1, f2, f3), then intra_list_diversity in each variant.
METRICS = ["coverage", "gini", "personalization", "novelty", "arp", "long_tail_share", "serendipity",
           "intra_list_diversity"]
K = [1, 3, 5]
OPTIONS = {"head_share": 0.6}
FEATURES = ["genre", "era"]
VECTOR = ["f1", "f2", "f3"]
# variant: (item_distance, diversity_denominator, single_item_diversity)
DIVERSITY_VARIANTS = {"hamming_list_length": ("hamming", "list_length", "no_value"),
                      "cooccurrence": ("cooccurrence", "pairs", "no_value"),
                      "hamming_single_zero": ("hamming", "pairs", "zero")}
# the variants of coverage, gini and novelty: their options
POPULARITY_VARIANTS = {
    "evidently": dict(coverage_of="train_items", gini_items="shown", novelty_unseen="dropped"),
    "recommenders": dict(coverage_of="train_item_count", novelty_popularity="interactions", novelty_unseen="zero"),
}


def _top(recommendations: pd.DataFrame, k: int | None) -> pd.DataFrame:
    return recommendations if k is None else recommendations[recommendations["rank"] <= k]


def coverage(recommendations: pd.DataFrame, items: pd.DataFrame, k: int | None, of: str = "catalog",
             train: pd.DataFrame | None = None) -> float:
    """Distinct items in the top k of the lists over the catalog's size; or the
    train items among them over the train items; or all of them over the train
    items."""
    shown = set(_top(recommendations, k)["item_id"])
    if of == "catalog":
        return len(shown) / items["item_id"].nunique()
    train_items = set(train["item_id"])
    return len(shown & train_items if of == "train_items" else shown) / len(train_items)


def gini(recommendations: pd.DataFrame, items: pd.DataFrame, k: int | None, of: str = "catalog") -> float:
    """Σ(2i − n − 1) c_i / (n Σ c) over the n catalog items, counts ascending;
    or over the n items shown, divided by (n − 1) Σ c."""
    counts = _top(recommendations, k)["item_id"].value_counts()
    if of == "shown":
        values = sorted(counts.tolist())
        n = len(values)
        if n == 1:  # n - 1 = 0: no value
            return math.nan
        return sum((2 * i - n - 1) * value for i, value in enumerate(values, start=1)) / ((n - 1) * sum(values))
    values = sorted(int(counts.get(item, 0)) for item in items["item_id"].unique())
    n = len(values)
    return sum((2 * i - n - 1) * value for i, value in enumerate(values, start=1)) / (n * sum(values))


def personalization(recommendations: pd.DataFrame, k: int) -> float:
    """1 − the mean over pairs of lists of their common top-k items / k (NaN
    for fewer than two lists)."""
    lists = [set(rows["item_id"]) for _, rows in _top(recommendations, k).groupby("user_id")]
    pairs = list(itertools.combinations(lists, 2))
    if not pairs:
        return math.nan
    return 1 - sum(len(a & b) / k for a, b in pairs) / len(pairs)


def _per_list_means(recommendations: pd.DataFrame, k: int | None, value_of) -> dict:
    """Per list, the mean of the values of its top k items; an item whose value
    is None is left out, and a list with none has no value."""
    means = {}
    for user, rows in _top(recommendations, k).groupby("user_id"):
        values = [value for value in map(value_of, rows["item_id"]) if value is not None]
        if values:
            means[user] = sum(values) / len(values)
    return means


def _popularity(train: pd.DataFrame, by: str) -> tuple[pd.Series, int]:
    if by == "users":
        return train.groupby("item_id")["user_id"].nunique(), train["user_id"].nunique()
    return train["item_id"].value_counts(), len(train)


def novelty(recommendations: pd.DataFrame, train: pd.DataFrame, k: int | None, by: str = "users",
            unseen: str = "one") -> dict:
    """Per list: the mean over its top k of −log2(popularity), an item nobody
    interacted with counted as one user (or interaction), or as 0, or left out."""
    counts, total = _popularity(train, by)

    def value(item: str) -> float | None:
        count = int(counts.get(item, 0))
        if count == 0 and unseen != "one":
            return 0.0 if unseen == "zero" else None
        return -math.log2(max(count, 1) / total)
    return _per_list_means(recommendations, k, value)


def arp(recommendations: pd.DataFrame, train: pd.DataFrame, k: int | None, by: str = "users") -> dict:
    """Per list: the mean over its top k of the items' popularity (0 unseen)."""
    counts, total = _popularity(train, by)
    return _per_list_means(recommendations, k, lambda item: int(counts.get(item, 0)) / total)


def long_tail_share(recommendations: pd.DataFrame, train: pd.DataFrame, k: int | None, head_share: float = 0.8) -> dict:
    """Per list: the share of its top k outside the head, the items whose more
    popular items (by train rows) hold less than head_share of the rows."""
    counts = train["item_id"].value_counts()
    head = {item for item, count in counts.items() if counts[counts > count].sum() < head_share * len(train)}
    return _per_list_means(recommendations, k, lambda item: float(item not in head))


def serendipity(recommendations: pd.DataFrame, interactions: pd.DataFrame, train: pd.DataFrame,
                items: pd.DataFrame, k: int | None) -> dict:
    """Per list: the mean over its top k of relevant × max(0, p − pu), with
    p = (N + 1 − rank) / N, pu = (N + 1 − popularity rank) / N over a catalog of
    N items, the popularity rank the place of the item's train rows among the
    distinct counts, most first (0 for an item not in train): RecTools'."""
    n = items["item_id"].nunique()
    counts = train["item_id"].value_counts()
    distinct = sorted(set(counts.tolist()), reverse=True)
    popularity_rank = {item: distinct.index(count) + 1 for item, count in counts.items()}
    relevant = set(zip(interactions["user_id"], interactions["item_id"]))

    def value(user: str, item: str, rank: int) -> float:
        if (user, item) not in relevant:
            return 0.0
        unexpected = (n + 1 - popularity_rank[item]) / n if item in popularity_rank else 0.0
        return max(0.0, (n + 1 - rank) / n - unexpected)
    return {user: sum(value(user, item, rank) for item, rank in zip(rows["item_id"], rows["rank"])) / len(rows)
            for user, rows in _top(recommendations, k).groupby("user_id")}


def item_distance(distance: str, items: pd.DataFrame, train: pd.DataFrame):
    """The distance of two items: 1 − cosine of their vectors, the number of
    features they differ in, or 1 − c(i,j) / sqrt(c(i) c(j)) over train users."""
    if distance == "cosine":
        vectors = {item: np.array(vector, dtype=float) for item, vector in zip(items["item_id"], items[VECTOR].values)}
        return lambda a, b: 1 - float(vectors[a] @ vectors[b]) / (np.linalg.norm(vectors[a]) * np.linalg.norm(vectors[b]))
    if distance == "hamming":
        features = {item: tuple(row) for item, row in zip(items["item_id"], items[FEATURES].values)}
        return lambda a, b: float(sum(x != y for x, y in zip(features[a], features[b])))
    users = train.groupby("item_id")["user_id"].apply(set).to_dict()

    def cooccurrence(a: str, b: str) -> float:
        if a not in users or b not in users:
            return 1.0
        return 1 - len(users[a] & users[b]) / math.sqrt(len(users[a]) * len(users[b]))
    return cooccurrence


def intra_list_diversity(recommendations: pd.DataFrame, items: pd.DataFrame, train: pd.DataFrame, k: int | None,
                         distance: str = "cosine", denominator: str = "pairs", single: str = "no_value") -> dict:
    """Per list: the distances of every unordered pair of its top k, summed and
    divided by the pairs (a list of one item has no value, or 0 with `single`
    'zero') or by its items."""
    measure = item_distance(distance, items, train)
    values = {}
    for user, rows in _top(recommendations, k).groupby("user_id"):
        pairs = list(itertools.combinations(rows["item_id"], 2))
        total = sum(measure(a, b) for a, b in pairs)
        if denominator == "list_length":
            values[user] = total / len(rows)
        elif pairs:
            values[user] = total / len(pairs)
        elif single == "zero":
            values[user] = 0.0
    return values


def inputs() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Two folds, each with its own train interactions (popularity skewed
    towards the first items) over 14 items; two models' lists of 2 to 5 items
    for 8 users (the second model recommends by popularity); the users' test
    interactions (4 items each, read by serendipity); a catalog of 16 items, two
    of them never recommended nor interacted with, with features."""
    rng = np.random.default_rng(20261124)
    popularity = 1.0 / np.arange(1, 15)
    popularity /= popularity.sum()
    recommendations, train, interactions = [], [], []
    for fold in ("fold_1", "fold_2"):
        for row in range(int(rng.integers(25, 40))):
            train.append((fold, f"t{int(rng.integers(0, 10)):02d}", f"i{int(rng.choice(14, p=popularity)):02d}"))
        for user in range(8):
            for item in rng.choice(14, size=4, replace=False):
                interactions.append((fold, f"u{user:02d}", f"i{int(item):02d}"))
            for model in ("model_a", "popular"):
                length = int(rng.integers(2, 6))
                order = np.argsort(-popularity) if model == "popular" else rng.permutation(14)
                for rank, item in enumerate(order[:length], start=1):
                    recommendations.append((fold, model, f"u{user:02d}", f"i{int(item):02d}", rank))
    return (pd.DataFrame(recommendations, columns=["example_id", "model", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["example_id", "user_id", "item_id"]),
            pd.DataFrame(train, columns=["example_id", "user_id", "item_id"]),
            _catalog(rng))


def _catalog(rng: np.random.Generator) -> pd.DataFrame:
    """16 items with a genre and an era (features for the Hamming distance) and
    three numbers (the vector of the cosine distance), none of them zero
    vectors."""
    return pd.DataFrame({
        "item_id": [f"i{item:02d}" for item in range(16)],
        "genre": [str(genre) for genre in rng.choice(["drama", "comedy", "news"], size=16)],
        "era": rng.integers(1990, 1993, size=16),
        **{name: rng.choice([-0.75, -0.5, -0.25, 0.25, 0.5, 0.75, 1.0], size=16) for name in VECTOR},
    })


def expected(recommendations: pd.DataFrame, interactions: pd.DataFrame, train: pd.DataFrame,
             items: pd.DataFrame) -> pd.DataFrame:
    """Per (variant, fold, model, metric, k): the reference value and the lists
    it covers (for a list-level metric, the lists with a value)."""
    rows = []
    for (fold, model), lists in recommendations.groupby(["example_id", "model"], sort=True):
        fold_train = train[train["example_id"] == fold]
        fold_interactions = interactions[interactions["example_id"] == fold]
        n_lists = lists["user_id"].nunique()
        for variant, (distance, denominator, single) in DIVERSITY_VARIANTS.items():
            for k in K:
                per_list = intra_list_diversity(lists, items, fold_train, k, distance, denominator, single)
                if per_list:  # @1 no list has a pair
                        rows.append((variant, fold, model, "intra_list_diversity", k,
                                 sum(per_list.values()) / len(per_list), len(per_list)))
        for variant, options in POPULARITY_VARIANTS.items():
            for k in K:
                rows.append((variant, fold, model, "coverage", k,
                             coverage(lists, items, k, options["coverage_of"], fold_train), n_lists))
                if "gini_items" in options:
                    rows.append((variant, fold, model, "gini", k, gini(lists, items, k, options["gini_items"]), n_lists))
                per_list = novelty(lists, fold_train, k, options.get("novelty_popularity", "users"),
                                   options["novelty_unseen"])
                rows.append((variant, fold, model, "novelty", k, sum(per_list.values()) / len(per_list), len(per_list)))
        for metric in METRICS:
            for k in K:
                if metric == "coverage":
                    value = coverage(lists, items, k)
                elif metric == "gini":
                    value = gini(lists, items, k)
                elif metric == "personalization":
                    value = personalization(lists, k)
                else:
                    if metric == "serendipity":
                        per_list = serendipity(lists, fold_interactions, fold_train, items, k)
                    elif metric == "intra_list_diversity":
                        per_list = intra_list_diversity(lists, items, fold_train, k)
                    elif metric == "long_tail_share":
                        per_list = long_tail_share(lists, fold_train, k, OPTIONS["head_share"])
                    else:
                        per_list = {"novelty": novelty, "arp": arp}[metric](lists, fold_train, k)
                    if not per_list:
                        continue
                    value = sum(per_list.values()) / len(per_list)
                    n_lists = len(per_list)
                rows.append(("default", fold, model, metric, k, value, n_lists))
    return pd.DataFrame(rows, columns=["variant", "example_id", "model", "metric", "k", "value", "n_users"])


if __name__ == "__main__":
    recommendations, interactions, train, items = inputs()
    recommendations.to_csv(RECOMMENDATIONS, index=False)
    interactions.to_csv(INTERACTIONS, index=False)
    train.to_csv(TRAIN, index=False)
    items.to_csv(ITEMS, index=False)
    expected(recommendations, interactions, train, items).to_csv(EXPECTED, index=False, float_format="%.17g")
