"""Microsoft Recommenders' ranking metrics, ported line by line from
recommenders-team/recommenders 1.2.1, recommenders/evaluation/python_evaluation.py
(merge_ranking_true_pred, get_top_k_items, precision_at_k, recall_at_k,
r_precision_at_k, ndcg_at_k, _get_reciprocal_rank, map, map_at_k), with
relevancy_method='top_k'.

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


def r_precision_at_k(rating_true: pd.DataFrame, rating_pred: pd.DataFrame, k: int) -> float:
    """The hits within the top min(R, k), over R (its docstring caps R at k,
    its code does not), averaged by pandas over the users with such a hit:
    the division aligns two Series by user, and .mean() skips the NaN of a user
    whose hits within k all lie below rank R."""
    df_hit, df_hit_count, n_users = merge_ranking_true_pred(rating_true, rating_pred, k)
    if df_hit.shape[0] == 0:
        return 0.0
    df_merged = df_hit.merge(df_hit_count[[USER, "actual"]])
    df_merged = df_merged[df_merged["rank"] <= df_merged["actual"]]
    return (df_merged.groupby(USER).size() / df_hit_count.set_index(USER)["actual"]).mean()


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


# Diversity, from python_evaluation.py (_get_pairwise_items,
# _get_cooccurrence_similarity, _get_intralist_similarity, user_diversity,
# diversity) with the default item_cooccurrence_count similarity. It reads
# every row of `reco_df` (no k): pass the top k. `train_df`: user_id, item_id,
# without repeated rows.

def _get_pairwise_items(df: pd.DataFrame) -> pd.DataFrame:
    df_user_i1 = df[[USER, ITEM]].rename(columns={ITEM: "i1"})
    df_user_i2 = df[[USER, ITEM]].rename(columns={ITEM: "i2"})
    pairs = pd.merge(df_user_i1, df_user_i2, how="inner", on=[USER])
    return pairs[pairs["i1"] <= pairs["i2"]][[USER, "i1", "i2"]]


def _get_cooccurrence_similarity(train_df: pd.DataFrame) -> pd.DataFrame:
    pairs = _get_pairwise_items(train_df)
    pairs_count = pd.DataFrame({"count": pairs.groupby(["i1", "i2"]).size()}).reset_index()
    item_count = pd.DataFrame({"count": train_df.groupby([ITEM]).size()}).reset_index()
    item_count["item_sqrt_count"] = item_count["count"] ** 0.5
    item_co_occur = pairs_count.merge(item_count[[ITEM, "item_sqrt_count"]], left_on=["i1"], right_on=[ITEM])
    item_co_occur = item_co_occur.drop(columns=[ITEM]).rename(columns={"item_sqrt_count": "i1_sqrt_count"})
    item_co_occur = item_co_occur.merge(item_count[[ITEM, "item_sqrt_count"]], left_on=["i2"], right_on=[ITEM])
    item_co_occur = item_co_occur.drop(columns=[ITEM]).rename(columns={"item_sqrt_count": "i2_sqrt_count"})
    item_co_occur["sim"] = item_co_occur["count"] / (item_co_occur["i1_sqrt_count"] * item_co_occur["i2_sqrt_count"])
    return item_co_occur[["i1", "i2", "sim"]].sort_values(["i1", "i2"]).reset_index(drop=True)


def user_diversity(train_df: pd.DataFrame, reco_df: pd.DataFrame) -> dict:
    """1 - the mean co-occurrence similarity of the list's pairs (a missing
    similarity is 0); a list of one item has no pair and no value."""
    similarity = _get_cooccurrence_similarity(train_df)
    pairs = _get_pairwise_items(reco_df).merge(similarity, on=["i1", "i2"], how="left")
    pairs["sim"] = pairs["sim"].fillna(0)
    pairs = pairs.loc[pairs["i1"] != pairs["i2"]]
    return (1 - pairs.groupby(USER)["sim"].mean()).to_dict()


def diversity(train_df: pd.DataFrame, reco_df: pd.DataFrame) -> float:
    return float(np.mean(list(user_diversity(train_df, reco_df).values())))


def catalog_coverage(train_df: pd.DataFrame, reco_df: pd.DataFrame) -> float:
    """catalog_coverage: distinct recommended items over distinct train items."""
    return reco_df[ITEM].nunique() / train_df[ITEM].nunique()


def novelty(train_df: pd.DataFrame, reco_df: pd.DataFrame) -> float:
    """novelty with historical_item_novelty: -log2 of the item's share of the
    train rows, summed over the recommended rows (items not in train add
    nothing: the inner merge) and divided by the recommended rows."""
    n_records = train_df.shape[0]
    item_count = pd.DataFrame({"count": train_df.groupby([ITEM]).size()}).reset_index()
    item_count["item_novelty"] = -np.log2(item_count["count"] / n_records)
    reco_item_count = pd.DataFrame({"count": reco_df.groupby([ITEM]).size()}).reset_index()
    reco_item_novelty = reco_item_count.merge(item_count[[ITEM, "item_novelty"]], on=ITEM)
    reco_item_novelty["product"] = reco_item_novelty["count"] * reco_item_novelty["item_novelty"]
    return float(reco_item_novelty["product"].sum() / reco_df.shape[0])
