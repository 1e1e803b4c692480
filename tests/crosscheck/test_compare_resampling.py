"""compare's randomization test and bootstrap: the statistics (the randomization
p against the exact permutation p over all 2^n sign flips, within the Monte
Carlo error of the resamples) and the pipeline (both recomputed from the same
draws in numpy, to the last digits), on random cases."""

from __future__ import annotations

import itertools
import math

import duckdb
import numpy as np
import pandas as pd
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import rankwise
from rankwise._render import renderer

N_RESAMPLES = 2000
METRICS = ["ndcg@3", "precision@2", "mrr"]


def _case(n_users: int, seed: int, folds: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two models over 8 items, lists of 1 to 4, a fifth of the lists missing;
    truth of 1 to 3 items per user (ties between the models are common)."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for fold in range(folds):
        for user in range(n_users):
            for item in rng.choice(8, size=rng.integers(1, 4), replace=False):
                interactions.append((f"f{fold}", f"user{user}", f"i{item}"))
            for model in ("a", "b"):
                if rng.random() < 0.8:
                    for rank, item in enumerate(rng.choice(8, size=rng.integers(1, 5), replace=False), start=1):
                        recommendations.append((f"f{fold}", model, f"user{user}", f"i{item}", rank))
    recommendations = pd.DataFrame(recommendations, columns=["fold", "model", "user_id", "item_id", "rank"])
    # A fold where one model has no list at all is refused by compare (nothing
    # to compare, tested in tests/unit/test_compare.py); with 3 users that is
    # 1 draw in 125.
    assume((recommendations.groupby("fold")["model"].nunique() == 2).all()
           and recommendations["fold"].nunique() == folds)
    return recommendations, pd.DataFrame(interactions, columns=["fold", "user_id", "item_id"])


def _differences(recommendations: pd.DataFrame, interactions: pd.DataFrame, partition_by=None,
                 users: str = "interactions") -> pd.DataFrame:
    """Per (partition, metric, k, user): model a minus model b, from evaluate's
    per-user values: under users='interactions' every truth user (a missing
    list scoring 0), under users='both' the users with a list under both."""
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, group_by="model", per_user=True,
                                 partition_by=partition_by, users=users)
    keys = [*(partition_by or []), "metric", "k", "user_id"]
    wide = per_user.assign(k=per_user["k"].fillna(0)).pivot_table(index=keys, columns="model", values="value")
    wide = wide.fillna(0) if users == "interactions" else wide.dropna()
    return (wide["a"] - wide["b"]).rename("d").reset_index()


def _draws(keys: np.ndarray, seed: int, expression: str) -> np.ndarray:
    """`expression` of rankwise.resample_draw(key, resample, seed) for every key
    and resample 1..N_RESAMPLES, evaluated by DuckDB from the macros' SQL: an
    array [key position, resample - 1]."""
    draw = renderer().call("resample_draw", "key", "resample", seed)
    value = expression.format(draw=f"({draw})")
    with duckdb.connect() as con:
        rows = con.sql(f"""
            select key, resample, {value} as value
            from unnest({list(map(int, keys))}) as k(key), range(1, {N_RESAMPLES + 1}) as r(resample)
            order by key, resample""").fetchall()
    return np.array([row[2] for row in rows], dtype=float).reshape(len(keys), N_RESAMPLES)


def _user_keys(users: pd.Series) -> np.ndarray:
    """compare's key: the 1-based position of the id in byte order of its text."""
    order = sorted(users.astype(str), key=lambda user: user.encode())
    return np.array([order.index(str(user)) + 1 for user in users])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_users=st.integers(3, 12), seed=st.integers(0, 2**32 - 1), draw_seed=st.integers(-1000, 1000))
def test_randomization_p_is_the_exact_permutation_p_within_monte_carlo_error(n_users, seed, draw_seed) -> None:
    recommendations, interactions = _case(n_users, seed)
    result = rankwise.compare(recommendations.drop(columns="fold"), interactions.drop(columns="fold"), METRICS,
                              baseline="b", tests=["t", "randomization"], n_resamples=N_RESAMPLES, seed=draw_seed)
    differences = _differences(recommendations.drop(columns="fold"), interactions.drop(columns="fold"))
    users = pd.Series(sorted(differences["user_id"].unique()))
    keys = _user_keys(users)
    signs = 2 * _draws(keys, draw_seed, renderer().call("sign_flip", "{draw}")) - 1
    assert sorted(zip(result.metric, result.k.fillna(0))) == [("mrr", 0), ("ndcg", 3), ("precision", 2)]
    for row in result.itertuples():
        d = (differences[(differences.metric == row.metric) & (differences.k == (0 if pd.isna(row.k) else row.k))]
             .set_index("user_id")["d"].reindex(users).to_numpy())
        tolerance = 1e-9 * np.abs(d).sum()
        # the exact test: every one of the 2^n sign vectors
        flips = np.array(list(itertools.product((1, -1), repeat=len(d))))
        exact = np.mean(np.abs(flips @ d) >= abs(d.sum()) - tolerance)
        # The estimate (1 + b) / (1 + B) is within 4.5 standard errors of a
        # binomial proportion of the exact p, plus the 1/(B+1) its +1 adds,
        # except with probability below 1e-5 per row.
        bound = 4.5 * math.sqrt(exact * (1 - exact) / N_RESAMPLES) + 1 / (N_RESAMPLES + 1)
        assert abs(row.p_randomization - exact) <= bound, (row.metric, row.k, row.p_randomization, exact)
        # the same draws in numpy give the same p to the last digits
        flipped = (signs * d[:, None]).sum(axis=0)
        again = (1 + np.sum(np.abs(flipped) >= abs(d.sum()) - tolerance)) / (1 + N_RESAMPLES)
        assert abs(row.p_randomization - again) <= 1e-12, (row.metric, row.k)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_users=st.integers(5, 40), seed=st.integers(0, 2**32 - 1), folds=st.sampled_from([1, 2]),
       confidence=st.sampled_from([0.9, 0.95]), users=st.sampled_from(["interactions", "both"]))
# a fold where every listed user has the same value under both models at a cutoff
# (the interval is [0, 0]; it came out NULL)
@example(n_users=5, seed=4666841, folds=2, confidence=0.9, users="both")
def test_bootstrap_interval_is_recomputed_from_the_same_draws(n_users, seed, folds, confidence, users) -> None:
    recommendations, interactions = _case(n_users, seed, folds)
    differences = _differences(recommendations, interactions, partition_by=["fold"], users=users)
    # under users='both', a case where no user has both lists is refused (tests/crosscheck/test_compare_scipy.py)
    assume(not differences.empty)
    result = rankwise.compare(recommendations, interactions, METRICS, baseline="b", tests=["bootstrap"],
                              n_resamples=N_RESAMPLES, seed=11, partition_by="fold", confidence=confidence, users=users)
    # the keys number every truth user of the partition, whatever the user set
    _assert_bootstrap_recomputed(result, differences, interactions, confidence)


def _assert_bootstrap_recomputed(result: pd.DataFrame, differences: pd.DataFrame, keyed: pd.DataFrame,
                                 confidence: float) -> None:
    """Each row's interval from the draws (seed 11) of the users of
    `differences` at its (fold, metric, k), keyed by their position among the
    users of `keyed` in the fold."""
    keyed_users = {fold: pd.Series(sorted(rows["user_id"].unique())) for fold, rows in keyed.groupby("fold")}
    tail = (1 - confidence) / 2
    # a row for each (fold, metric, k) with a user to resample
    assert (sorted(zip(result.fold, result.metric, result.k.fillna(0)))
            == sorted(set(zip(differences.fold, differences.metric, differences.k))))
    for row in result.itertuples():
        part = differences[(differences.fold == row.fold) & (differences.metric == row.metric)
                           & (differences.k == (0 if pd.isna(row.k) else row.k))]
        members = pd.Series(sorted(part["user_id"].unique()))
        all_keys = dict(zip(keyed_users[row.fold], _user_keys(keyed_users[row.fold])))
        weights = _draws(np.array([all_keys[user] for user in members]), 11,
                         renderer().call("poisson_one_weight", "{draw}"))
        d = part.set_index("user_id")["d"].reindex(members).to_numpy()
        with np.errstate(invalid="ignore"):
            means = (weights * d[:, None]).sum(axis=0) / weights.sum(axis=0)
        # a resample that draws no user (every weight 0: e^-n of them) has no mean and is left out
        low, high = np.nanquantile(means, [tail, 1 - tail])
        assert abs(row.bootstrap_ci_low - low) <= 1e-9 and abs(row.bootstrap_ci_high - high) <= 1e-9, (row.fold, row.metric)


# The list-level metrics: each user's value that of a list (popularity_lift's
# none for a user without train items), paired where both models' lists have one.
LIST_METRICS = ["arp@2", "novelty@3", "popularity_lift@2"]


def _train(n_users: int, seed: int, folds: int = 1) -> pd.DataFrame:
    """0 to 3 of the 8 items per user and fold (a quarter of the users none),
    and a few users with no list."""
    rng = np.random.default_rng(seed + 7)
    rows = [(f"f{fold}", f"user{user}", f"i{item}") for fold in range(folds) for user in range(n_users + 3)
            for item in rng.choice(8, size=rng.integers(0, 4), replace=False)]
    return pd.DataFrame(rows, columns=["fold", "user_id", "item_id"])


def _list_differences(recommendations: pd.DataFrame, interactions: pd.DataFrame, train: pd.DataFrame,
                      partition_by=None) -> pd.DataFrame:
    """Per (partition, metric, k, user with a value under both): a minus b."""
    per_user = rankwise.evaluate(recommendations, interactions, LIST_METRICS, group_by="model", per_user=True,
                                 partition_by=partition_by, train=train)
    keys = [*(partition_by or []), "metric", "k", "user_id"]
    wide = per_user.pivot_table(index=keys, columns="model", values="value").dropna()
    return (wide["a"] - wide["b"]).rename("d").reset_index()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_users=st.integers(3, 12), seed=st.integers(0, 2**32 - 1), draw_seed=st.integers(-1000, 1000))
def test_randomization_p_of_list_level_metrics_is_the_exact_permutation_p(n_users, seed, draw_seed) -> None:
    """The list users' keys number every user with a list (under either model),
    apart from the truth users'."""
    recommendations, interactions = _case(n_users, seed)
    recommendations, interactions = recommendations.drop(columns="fold"), interactions.drop(columns="fold")
    train = _train(n_users, seed).drop(columns="fold")
    differences = _list_differences(recommendations, interactions, train)
    assume(not differences.empty)
    result = rankwise.compare(recommendations, interactions, LIST_METRICS, baseline="b", tests=["t", "randomization"],
                              n_resamples=N_RESAMPLES, seed=draw_seed, train=train)
    list_users = pd.Series(sorted(recommendations["user_id"].unique()))
    all_keys = dict(zip(list_users, _user_keys(list_users)))
    assert len(result) == differences.groupby(["metric", "k"]).ngroups
    for row in result.itertuples():
        part = differences[(differences.metric == row.metric) & (differences.k == row.k)]
        members = sorted(part["user_id"])
        d = part.set_index("user_id")["d"].reindex(members).to_numpy()
        tolerance = 1e-9 * np.abs(d).sum()
        flips = np.array(list(itertools.product((1, -1), repeat=len(d))))
        exact = np.mean(np.abs(flips @ d) >= abs(d.sum()) - tolerance)
        bound = 4.5 * math.sqrt(exact * (1 - exact) / N_RESAMPLES) + 1 / (N_RESAMPLES + 1)
        assert abs(row.p_randomization - exact) <= bound, (row.metric, row.k, row.p_randomization, exact)
        signs = 2 * _draws(np.array([all_keys[user] for user in members]), draw_seed,
                           renderer().call("sign_flip", "{draw}")) - 1
        flipped = (signs * d[:, None]).sum(axis=0)
        again = (1 + np.sum(np.abs(flipped) >= abs(d.sum()) - tolerance)) / (1 + N_RESAMPLES)
        assert abs(row.p_randomization - again) <= 1e-12, (row.metric, row.k)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_users=st.integers(5, 40), seed=st.integers(0, 2**32 - 1), folds=st.sampled_from([1, 2]),
       confidence=st.sampled_from([0.9, 0.95]))
def test_bootstrap_interval_of_list_level_metrics_is_recomputed_from_the_same_draws(n_users, seed, folds,
                                                                                     confidence) -> None:
    """Each metric's resampled mean is over its own listed users' weights."""
    recommendations, interactions = _case(n_users, seed, folds)
    train = _train(n_users, seed, folds)
    differences = _list_differences(recommendations, interactions, train, partition_by=["fold"])
    assume(not differences.empty)
    result = rankwise.compare(recommendations, interactions, LIST_METRICS, baseline="b", tests=["bootstrap"],
                              n_resamples=N_RESAMPLES, seed=11, partition_by="fold", confidence=confidence, train=train)
    assert len(result) == differences.groupby(["fold", "metric", "k"]).ngroups
    # the keys number the users with a list in the partition
    _assert_bootstrap_recomputed(result, differences, recommendations, confidence)
