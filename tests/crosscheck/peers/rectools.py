"""RecTools' ranking and classification metrics, ported from
MobileTeleSystems/RecTools 0.19.0: rectools/metrics/base.py (merge_reco),
classification.py (Precision, Recall, HitRate), ranking.py (MAP, MRR, NDCG),
intersection.py (Intersection, at the end of this file).

RecTools 0.19 pins numpy < 2 on Python 3.11, which the test environment's
pyarrow cannot share, so the tests run this port; README.md beside this file
records that it gave the library's numbers on the same random cases.

Inputs as RecTools takes them: `reco` (user_id, item_id, rank) and
`interactions` (user_id, item_id), every interaction relevant. The users are
those of the interactions (merge_reco left-joins them to the recommendations),
a user without a list scoring 0. Each function returns {user: value}.
"""

from __future__ import annotations

import math

import pandas as pd


def merge_reco(reco: pd.DataFrame, interactions: pd.DataFrame) -> pd.DataFrame:
    return pd.merge(interactions[["user_id", "item_id"]], reco[["user_id", "item_id", "rank"]],
                    on=["user_id", "item_id"], how="left")


def _per_user(merged: pd.DataFrame, function) -> dict[str, float]:
    return {user: function(rows) for user, rows in merged.groupby("user_id", sort=False)}


def precision(merged: pd.DataFrame, k: int) -> dict[str, float]:
    return _per_user(merged, lambda rows: float((rows["rank"] <= k).sum()) / k)


def recall(merged: pd.DataFrame, k: int) -> dict[str, float]:
    return _per_user(merged, lambda rows: float((rows["rank"] <= k).sum()) / len(rows))


def hit_rate(merged: pd.DataFrame, k: int) -> dict[str, float]:
    return _per_user(merged, lambda rows: float((rows["rank"] <= k).any()))


def mrr(merged: pd.DataFrame, k: int) -> dict[str, float]:
    def reciprocal_rank(rows: pd.DataFrame) -> float:
        ranks = rows["rank"][rows["rank"] <= k]
        return 1.0 / ranks.min() if len(ranks) else 0.0
    return _per_user(merged, reciprocal_rank)


def map_(merged: pd.DataFrame, k: int, divide_by_k: bool = False) -> dict[str, float]:
    """MAP.calc_per_user_from_fitted: the sum of precision@rank over the hits,
    divided by the user's interactions (or by k)."""
    def average_precision(rows: pd.DataFrame) -> float:
        ranks = sorted(rows["rank"][rows["rank"] <= k])
        total = sum((position + 1) / rank for position, rank in enumerate(ranks))
        return total / (k if divide_by_k else len(rows))
    return _per_user(merged, average_precision)


def ndcg(merged: pd.DataFrame, k: int, divide_by_achievable: bool = False, log_base: int = 2) -> dict[str, float]:
    """NDCG.calc_per_user_from_merged: binary gains; IDCG is k relevant slots, or
    min(n_items, k) with divide_by_achievable."""
    discounts = [1 / math.log(rank + 1, log_base) for rank in range(1, k + 1)]

    def value(rows: pd.DataFrame) -> float:
        dcg = sum(1 / math.log(rank + 1, log_base) for rank in rows["rank"] if rank <= k)
        idcg = sum(discounts[: min(len(rows), k)]) if divide_by_achievable else sum(discounts)
        return dcg / idcg
    return _per_user(merged, value)


# Beyond accuracy, from rectools/metrics/novelty.py (MeanInvUserFreq.fit and
# calc_per_user_from_fitted), popularity.py (AvgRecPopularity.calc_per_user) and
# catalog.py (CatalogCoverage.calc). `reco` has user_id, item_id, rank; `prev`
# (the train interactions) user_id, item_id.

def mean_inv_user_freq(reco: pd.DataFrame, prev: pd.DataFrame, k: int) -> dict:
    n_interacted_users = prev["user_id"].nunique()
    n_users_per_item = prev.groupby("item_id")["user_id"].nunique()
    top = reco.loc[reco["rank"] <= k].copy()
    top["n_users_per_item"] = top["item_id"].map(n_users_per_item).fillna(1)
    top["item_novelty"] = -(top["n_users_per_item"] / n_interacted_users).map(math.log2)
    return top.groupby("user_id")["item_novelty"].mean().to_dict()


def avg_rec_popularity(reco: pd.DataFrame, prev: pd.DataFrame, k: int, normalize: bool = False) -> dict:
    item_popularity = prev["item_id"].value_counts(normalize=normalize)
    item_popularity.name = "popularity"
    top = reco.loc[reco["rank"] <= k].join(item_popularity, on="item_id", how="left")
    top["popularity"] = top["popularity"].fillna(0)
    return top.groupby("user_id")["popularity"].mean().to_dict()


def catalog_coverage(reco: pd.DataFrame, catalog, k: int, normalize: bool = False) -> float:
    shown = reco.loc[reco["rank"] <= k, "item_id"].nunique()
    return shown / len(catalog) if normalize else shown


# Serendipity and intra-list diversity, from rectools/metrics/serendipity.py
# (Serendipity.fit and calc_per_user_from_fitted) and diversity.py
# (IntraListDiversity) with distances.py (PairwiseHammingDistanceCalculator).
# `interactions` are the test interactions, `catalog` the item ids.

def serendipity(reco: pd.DataFrame, interactions: pd.DataFrame, prev: pd.DataFrame, catalog, k: int) -> dict:
    recommendations = reco.loc[reco["rank"] <= k]
    merged = pd.merge(recommendations, interactions[["user_id", "item_id"]], how="left", indicator=True)
    merged["is_relevant"] = (merged["_merge"] == "both").astype(int)
    n_items = len(catalog)
    counts = prev["item_id"].value_counts()
    unique_counts = counts.unique()
    rank_of_count = pd.Series(index=unique_counts, data=range(1, len(unique_counts) + 1))
    popularity_rank = counts.map(rank_of_count)
    merged["rank_pop"] = merged["item_id"].map(popularity_rank)
    merged["proba_user"] = (n_items + 1 - merged["rank"]) / n_items
    merged["proba_any_user"] = ((n_items + 1 - merged["rank_pop"]) / n_items).where(merged["rank_pop"].notnull(), 0.0)
    merged["serendipity"] = (merged["proba_user"] - merged["proba_any_user"]).clip(lower=0.0) * merged["is_relevant"]
    return merged.groupby("user_id")["serendipity"].mean().to_dict()


def intra_list_diversity_hamming(reco: pd.DataFrame, features: pd.DataFrame, k: int) -> dict:
    """The mean number of features in which two items of the top k differ, over
    the unordered pairs; 0 for a list with no pair. `features` is indexed by item."""
    from itertools import combinations

    values = {}
    for user, rows in reco.loc[reco["rank"] <= k].groupby("user_id", sort=False):
        pairs = list(combinations(rows["item_id"], 2))
        distances = [float((features.loc[a].values != features.loc[b].values).sum()) for a, b in pairs]
        values[user] = sum(distances) / len(distances) if distances else 0.0
    return values


# Intersection, from rectools/metrics/intersection.py (Intersection.calc_per_user)
# with classification.py (Recall, calc_confusions): the top k of `reco` play the
# interactions, `ref_reco` the recommendations, and the value is Recall@ref_k:
# of a user's items ranked <= k, the share ranked <= ref_k in the reference.

def intersection(reco: pd.DataFrame, ref_reco: pd.DataFrame, k: int, ref_k: int | None = None) -> dict:
    """Intersection(k, ref_k).calc_per_user(reco, ref_reco). The users are
    those of reco's top k: one without a reference list scores 0 (its items
    merge to no rank), one without a list has no value."""
    if ref_reco.shape[0] == 0:
        return {}
    if ref_reco is reco:  # RecTools' shortcut for cross_validate: every user 1
        return {user: 1.0 for user in reco["user_id"].unique()}
    filtered_reco = reco[reco["rank"] <= k]
    ref_k = ref_k if ref_k is not None else k
    # Recall(k=ref_k).calc_per_user(ref_reco, filtered_reco[Columns.UserItem]):
    # make_confusions merges the "interactions" with the "recommendations", then
    # LIKED = a user's rows, TP = those ranked <= ref_k, and recall = TP / LIKED
    return recall(merge_reco(ref_reco, filtered_reco[["user_id", "item_id"]]), ref_k)
