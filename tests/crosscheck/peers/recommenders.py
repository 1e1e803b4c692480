"""Microsoft Recommenders' ranking metrics, ported line by line from
recommenders-team/recommenders 1.2.1, recommenders/evaluation/python_evaluation.py
(merge_ranking_true_pred, get_top_k_items, precision_at_k, recall_at_k,
ndcg_at_k, _get_reciprocal_rank, map, map_at_k), with relevancy_method='top_k'.

The library itself needs transformers, notebook and more (1.4 GB, 3 minutes to
install here), so the tests run this port; tests/crosscheck/peers/README.md
records that it gave the library's numbers on the same random cases.

Inputs: `rating_true` (user_id, item_id, rating) and `rating_pred` (user_id,
item_id, prediction), as the library takes them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

USER, ITEM, RATING, PREDICTION = "user_id", "item_id", "rating", "prediction"


def get_top_k_items(dataframe: pd.DataFrame, k: int) -> pd.DataFrame:
    top_k_items = (
        dataframe.sort_values([USER, PREDICTION], ascending=[True, False])
        .groupby(USER, as_index=False)
        .head(k)
        .reset_index(drop=True)
    )
    top_k_items["rank"] = top_k_items.groupby(USER, sort=False).cumcount() + 1
    return top_k_items


def merge_ranking_true_pred(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int):
    common_users = set(rating_true[USER]).intersection(set(rating_pred[USER]))
    rating_true_common = rating_true[rating_true[USER].isin(common_users)]
    rating_pred_common = rating_pred[rating_pred[USER].isin(common_users)]
    n_users = len(common_users)
    df_hit = get_top_k_items(rating_pred_common, k)
    df_hit = pd.merge(df_hit, rating_true_common, on=[USER, ITEM])[[USER, ITEM, "rank"]]
    df_hit_count = pd.merge(
        df_hit.groupby(USER, as_index=False)[USER].agg(hit="count"),
        rating_true_common.groupby(USER, as_index=False)[USER].agg(actual="count"),
        on=USER,
    )
    return df_hit, df_hit_count, n_users


def precision_at_k(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int) -> float:
    df_hit, df_hit_count, n_users = merge_ranking_true_pred(rating_true, rating_pred, k)
    if df_hit.shape[0] == 0:
        return 0.0
    return (df_hit_count["hit"] / k).sum() / n_users


def recall_at_k(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int) -> float:
    df_hit, df_hit_count, n_users = merge_ranking_true_pred(rating_true, rating_pred, k)
    if df_hit.shape[0] == 0:
        return 0.0
    return (df_hit_count["hit"] / df_hit_count["actual"]).sum() / n_users


def ndcg_at_k(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int, score_type: str = "binary") -> float:
    df_hit, _, _ = merge_ranking_true_pred(rating_true, rating_pred, k)
    if df_hit.shape[0] == 0:
        return 0.0
    df_dcg = df_hit.merge(rating_pred, on=[USER, ITEM]).merge(
        rating_true, on=[USER, ITEM], how="outer", suffixes=("_left", None)
    )
    if score_type == "binary":
        df_dcg["rel"] = 1
    elif score_type == "raw":
        df_dcg["rel"] = df_dcg[RATING]
    else:
        df_dcg["rel"] = 2 ** df_dcg[RATING] - 1
    df_dcg["dcg"] = df_dcg["rel"] / np.log(1 + df_dcg["rank"])
    df_idcg = df_dcg.sort_values([USER, RATING], ascending=False)
    df_idcg["irank"] = df_idcg.groupby(USER, as_index=False, sort=False)[RATING].rank("first", ascending=False)
    df_idcg["idcg"] = df_idcg["rel"] / np.log(1 + df_idcg["irank"])
    df_user = df_dcg.groupby(USER, as_index=False, sort=False).agg({"dcg": "sum"})
    df_user = df_user.merge(
        df_idcg.groupby(USER, as_index=False, sort=False).head(k).groupby(USER, as_index=False, sort=False).agg({"idcg": "sum"}),
        on=USER,
    )
    df_user["ndcg"] = df_user["dcg"] / df_user["idcg"]
    return df_user["ndcg"].mean()


def _get_reciprocal_rank(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int):
    df_hit, df_hit_count, n_users = merge_ranking_true_pred(rating_true, rating_pred, k)
    if df_hit.shape[0] == 0:
        return None, n_users
    df_hit_sorted = df_hit.copy()
    df_hit_sorted["rr"] = (df_hit_sorted.groupby(USER).cumcount() + 1) / df_hit_sorted["rank"]
    df_hit_sorted = df_hit_sorted.groupby(USER).agg({"rr": "sum"}).reset_index()
    return pd.merge(df_hit_sorted, df_hit_count, on=USER), n_users


def map(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int) -> float:  # noqa: A001 (the library's name)
    df_merge, n_users = _get_reciprocal_rank(rating_true, rating_pred, k)
    if df_merge is None:
        return 0.0
    return (df_merge["rr"] / df_merge["actual"]).sum() / n_users


def map_at_k(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int) -> float:
    df_merge, n_users = _get_reciprocal_rank(rating_true, rating_pred, k)
    if df_merge is None:
        return 0.0
    return (df_merge["rr"] / df_merge["actual"].apply(lambda x: min(x, k))).sum() / n_users
