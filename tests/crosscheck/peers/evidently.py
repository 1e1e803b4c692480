"""Evidently's recommender-system metrics, ported from evidentlyai/evidently
0.7.23: src/evidently/legacy/calculations/recommender_systems.py
(collect_dataset) and src/evidently/legacy/metrics/recsys/ (precision_recall_k.py
get_precision_and_recall_dict, ndcg_k.py calculate_ndcg, mrr.py and
hit_rate_k.py get_values), with the defaults: scores as predictions, no
min_rel_score, no_feedback_users=False.

Evidently reads one table of recommended rows, each with its target: items that
were not recommended do not exist for it, so R counts the relevant recommended
rows. Each function returns the mean at k.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def collect_dataset(recommendations: pd.DataFrame, bin_data: bool) -> pd.DataFrame:
    """`recommendations`: user_id, item_id, score, target (the relevance, 0 if none)."""
    df = pd.DataFrame({"users": recommendations["user_id"], "target": recommendations["target"],
                       "preds": recommendations["score"]})
    df["preds"] = df.groupby("users")["preds"].transform("rank", ascending=False).astype(int)
    if bin_data:
        df["target"] = (df["target"] > 0).astype(int)
    users_with_clicks = df[df.target > 0].users.unique()
    return df[df.users.isin(users_with_clicks)]


def precision_recall_map(recommendations: pd.DataFrame, k: int) -> dict[str, float]:
    df = collect_dataset(recommendations, bin_data=True)
    user_df = df.groupby("users").target.agg(["size", "sum"])
    user_df.columns = ["size", "all"]
    for cutoff in range(1, k + 1):
        tp = df[df.preds <= cutoff].groupby("users").target.agg(["sum", "last"])
        tp.columns = [f"tp_{cutoff}", f"rel_{cutoff}"]
        user_df = pd.concat([user_df, tp], axis=1).fillna(0)
        user_df[f"precision_{cutoff}"] = user_df[f"tp_{cutoff}"] / np.minimum(user_df["size"], cutoff)
        user_df[f"recall_{cutoff}"] = user_df[f"tp_{cutoff}"] / user_df["all"]
    user_df = user_df.replace([np.inf, -np.inf, np.nan], 0)
    with_feedback = user_df[user_df["all"] != 0]
    precisions = with_feedback[[f"precision_{c}" for c in range(1, k + 1)]]
    relevant_at = with_feedback[[f"rel_{c}" for c in range(1, k + 1)]].values
    average_precision = precisions.multiply(relevant_at).T.expanding().sum().T.divide(with_feedback["all"], axis=0).fillna(0)
    return {
        "precision": with_feedback[f"precision_{k}"].mean(),
        "recall": with_feedback[f"recall_{k}"].mean(),
        "map": average_precision[f"precision_{k}"].mean(),
    }


def ndcg(recommendations: pd.DataFrame, k: int) -> float:
    df = collect_dataset(recommendations, bin_data=False).copy()
    df["dcg"] = df["target"] / np.log2(df["preds"] + 1)
    df = df.sort_values(["users", "target"], ascending=False)
    discount = 1 / np.log2(np.arange(k) + 2)
    dcg = df[df.preds <= k].groupby("users").dcg.sum()
    idcg = df.groupby("users").target.apply(lambda x: x[:k].dot(discount[: len(x)])).rename("idcg")
    user_df = pd.concat([dcg, idcg], axis=1).fillna(0)
    return (user_df["dcg"] / user_df["idcg"]).replace([np.inf, -np.inf], np.nan).fillna(0).mean()


def mrr(recommendations: pd.DataFrame, k: int) -> float:
    df = collect_dataset(recommendations, bin_data=True)
    df_k = df[(df.target == 1) & (df.preds <= k)]
    return (1 / df_k.groupby("users").preds.min()).sum() / df.users.nunique()


def hit_rate(recommendations: pd.DataFrame, k: int) -> float:
    df = collect_dataset(recommendations, bin_data=True)
    df_k = df[(df.target == 1) & (df.preds <= k)]
    return df_k.users.nunique() / df.users.nunique()


def diversity(recommendations: pd.DataFrame, features: list[str], k: int) -> float:
    """DiversityMetric (legacy/metrics/recsys/diversity.py) with PairwiseDistance
    (pairwise_distance.py): per user, the cosine distances of the unordered
    pairs of the top k summed and divided by the items in the top k (not the
    pairs); the mean over the users. `recommendations`: user_id, item_id, rank
    and the feature columns."""
    from itertools import combinations

    catalog = recommendations.drop_duplicates("item_id").set_index("item_id")[features].astype(float)

    def distance(a: str, b: str) -> float:
        u, v = catalog.loc[a].to_numpy(), catalog.loc[b].to_numpy()
        return 1.0 - float(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))
    values = []
    for _, rows in recommendations.groupby("user_id", sort=False):
        listed = rows.loc[rows["rank"] <= k, "item_id"]
        values.append(sum(distance(a, b) for a, b in combinations(listed, 2)) / len(listed))
    return float(np.mean(values))


def _top_k(recommendations: pd.DataFrame, k: int) -> pd.DataFrame:
    return recommendations[recommendations["rank"] <= k]


def novelty(recommendations: pd.DataFrame, train: pd.DataFrame, k: int) -> float:
    """NoveltyMetric (legacy/metrics/recsys/novelty.py, with train_stats.py):
    -log2 of the item's share of the train users, items not in train dropped,
    a mean per user, then over the users."""
    interactions = train.groupby("item_id")["user_id"].nunique() / train["user_id"].nunique()
    data = _top_k(recommendations, k).copy()
    data["miuf"] = -np.log2(data["item_id"].map(interactions)).replace([np.inf, -np.inf], np.nan)
    data = data[~data.miuf.isna()]
    return float(data.groupby("user_id").miuf.mean().mean())


def popularity_bias(recommendations: pd.DataFrame, train: pd.DataFrame, k: int) -> dict[str, float]:
    """PopularityBias (legacy/metrics/recsys/popularity_bias.py): the coverage of
    the train items, and the Gini index of the top-k counts of the items shown."""
    train_items = train.groupby("item_id")["user_id"].nunique()
    data = _top_k(recommendations, k)
    coverage = len(np.intersect1d(data["item_id"].unique(), train_items.index)) / len(train_items)
    counts = data["item_id"].value_counts(ascending=True)
    n_items = len(counts)
    index = np.arange(1, n_items + 1)
    gini = float(np.sum((2 * index - n_items - 1) * counts)) / ((n_items - 1) * np.sum(counts))
    return {"coverage": float(coverage), "gini": gini}
