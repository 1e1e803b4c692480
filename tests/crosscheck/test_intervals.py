"""evaluate's ci_low and ci_high: the Student t interval of each mean, equal to
scipy's over evaluate's own per-user values, under every user set; and entropy's
Poisson bootstrap interval, recomputed with numpy from the same draws. The
inputs are those of tests/unit/test_intervals.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats

import rankwise
from tests.unit.test_intervals import _inputs

METRICS = ["ndcg@5", "map@3", "idcg@5", "mrr", "recall@10", "precision@2"]
# the values each metric can take: idcg has no upper bound
RANGES = {"ndcg": (0, 1), "map": (0, 1), "idcg": (0, np.inf), "mrr": (0, 1), "recall": (0, 1), "precision": (0, 1)}


@pytest.mark.parametrize("users", ["interactions", "both", "relevant"])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_each_interval_is_scipys_over_the_per_user_values(users: str, confidence: float) -> None:
    recommendations, interactions = _inputs()
    options = {"group_by": "model", "relevance_col": "relevance", "users": users}
    with pytest.warns(rankwise.RankwiseWarning) if users != "interactions" else _no_warning():
        means = rankwise.evaluate(recommendations, interactions, METRICS, confidence=confidence, **options)
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, per_user=True, **options)
    checked = 0
    for (model, metric, k), values in per_user.groupby(["model", "metric", "k"], dropna=False):
        same_k = means.k.isna() if pd.isna(k) else means.k == k
        row = means[(means.model == model) & (means.metric == metric) & same_k].iloc[0]
        low, high = scipy.stats.t.interval(confidence, len(values) - 1, loc=values["value"].mean(),
                                           scale=scipy.stats.sem(values["value"]))
        lowest, highest = RANGES[metric]
        assert row["n_users"] == len(values)
        assert abs(row["ci_low"] - max(low, lowest)) <= 1e-12 and abs(row["ci_high"] - min(high, highest)) <= 1e-12, (model, metric, k)
        assert row["ci_clipped"] == (low < lowest or high > highest)
        checked += 1
    assert checked == 3 * len(METRICS)


def test_an_interval_past_the_metrics_range_is_clipped_and_says_so() -> None:
    """Three queries, reciprocal ranks 1, 1/2 and 1/3 (as few as issue 51's):
    scipy's t interval of the mean is [-0.25, 1.47]; the MRR of three queries
    is in [0, 1], and so are the bounds reported, flagged by ci_clipped. dcg
    has no upper bound (only its lower one could be clipped); precision's
    values are all 1/3, an interval of width 0, not clipped."""
    recommendations = pd.DataFrame({"user_id": ["q1", "q2", "q2", "q3", "q3", "q3"],
                                    "item_id": ["d1", "x", "d2", "x", "y", "d3"], "rank": [1, 1, 2, 1, 2, 3]})
    interactions = pd.DataFrame({"user_id": ["q1", "q2", "q3"], "item_id": ["d1", "d2", "d3"]})
    means = rankwise.evaluate(recommendations, interactions, ["mrr", "dcg", "precision@3"]).set_index("metric")
    for metric, values in {"mrr": [1, 1 / 2, 1 / 3], "dcg": [1, 1 / np.log2(3), 1 / 2],
                           "precision": [1 / 3, 1 / 3, 1 / 3]}.items():
        low, high = scipy.stats.t.interval(0.95, 2, loc=np.mean(values), scale=scipy.stats.sem(values)) \
            if np.std(values) > 0 else (np.mean(values), np.mean(values))
        lowest, highest = {"mrr": (0, 1), "dcg": (0, np.inf), "precision": (0, 1)}[metric]
        row = means.loc[metric]
        assert row["value"] == pytest.approx(np.mean(values), abs=1e-12)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((max(low, lowest), min(high, highest)), abs=1e-12)
        assert bool(row["ci_clipped"]) == (low < lowest or high > highest), metric
    assert means.loc["mrr", "ci_clipped"] and not means.loc["precision", "ci_clipped"]
    assert (means.loc["mrr", "ci_low"], means.loc["mrr", "ci_high"]) == (0, 1)


class _no_warning:
    def __enter__(self):
        import warnings

        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("error", rankwise.RankwiseWarning)

    def __exit__(self, *exc):
        return self._catcher.__exit__(*exc)


@pytest.mark.parametrize("partitioned", [False, True])
def test_entropys_bootstrap_interval_is_recomputed_from_the_same_draws(partitioned: bool) -> None:
    """Each resample weighs every user's top-k slots by the user's Poisson(1)
    count, drawn by the macros' SQL (evaluated here by DuckDB); the entropy of
    the weighted shares, then numpy's percentiles over the resamples."""
    import duckdb

    from rankwise._render import renderer

    recommendations, interactions = _inputs(seed=5)
    if partitioned:
        recommendations = pd.concat([recommendations.assign(fold="f1"), recommendations.assign(fold="f2").iloc[::2]])
        interactions = pd.concat([interactions.assign(fold="f1"), interactions.assign(fold="f2")])
    resamples, seed, k = 300, 17, 3
    result = rankwise.evaluate(recommendations, interactions, [f"entropy@{k}"], group_by="model",
                               partition_by="fold" if partitioned else None, bootstrap_resamples=resamples, seed=seed,
                               confidence=0.9)
    weight = renderer().call("poisson_one_weight", "(" + renderer().call("resample_draw", "key", "resample", seed) + ")")
    if not partitioned:
        recommendations = recommendations.assign(fold="all")
    # a row for each model of each partition
    assert (sorted(zip(result.fold if partitioned else ["all"] * len(result), result.model))
            == sorted(set(zip(recommendations.fold, recommendations.model))))
    for row in result.itertuples():
        fold = row.fold if partitioned else "all"
        slots = recommendations[(recommendations.fold == fold) & (recommendations.model == row.model)
                                & (recommendations["rank"] <= k)]
        # the key: the user's position in byte order among the partition's users with a list
        listed = sorted(recommendations[recommendations.fold == fold]["user_id"].unique(), key=str.encode)
        keys = {user: position + 1 for position, user in enumerate(listed)}
        with duckdb.connect() as con:
            weights = con.sql(f"select key, resample, {weight} as w from unnest({sorted(keys.values())}) as t(key), "
                              f"range(1, {resamples + 1}) as r(resample) order by key, resample").fetchall()
        by_key = np.array([w for _, _, w in weights], dtype=float).reshape(len(keys), resamples)
        counts = pd.crosstab(slots["item_id"], slots["user_id"]).reindex(columns=listed, fill_value=0)
        weighted = counts.to_numpy() @ by_key[[keys[user] - 1 for user in counts.columns]]
        with np.errstate(invalid="ignore", divide="ignore"):
            shares = weighted / weighted.sum(axis=0)
            entropies = -np.nansum(np.where(shares > 0, shares * np.log(shares), 0.0), axis=0)
        entropies = entropies[weighted.sum(axis=0) > 0]
        low, high = np.quantile(entropies, [0.05, 0.95])
        assert abs(row.ci_low - low) <= 1e-9 and abs(row.ci_high - high) <= 1e-9, (fold, row.model)
        # the unweighted entropy is evaluate's value: the same shares and log base
        plain = counts.to_numpy().sum(axis=1) / counts.to_numpy().sum()
        assert abs(row.value - -(plain * np.log(plain)).sum()) <= 1e-12
