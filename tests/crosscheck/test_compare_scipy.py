"""rankwise.compare against scipy and statsmodels: every row of the comparison
recomputed from evaluate's per-user values (themselves checked against
pytrec_eval) with scipy.stats.ttest_rel, scipy.stats.t.interval and
statsmodels' multipletests, on random cases of 2 to 5 models and 5 to 500
users, with ties and users missing from a model."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

import rankwise
from rankwise.errors import InvalidArgumentError

METRICS = ["ndcg@5", "map@3", "recall@5", "mrr", "precision@2"]
CORRECTIONS = {"holm": "holm", "bh": "fdr_bh"}


def _case(n_models: int, n_users: int, seed: int, coverage: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Lists of up to 6 of 15 items per (model, user), each model's list present
    with probability `coverage`; the models share the popular items, so that
    many users tie; graded truth of 1 to 4 items per user; a few users with
    lists but no truth."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    popularity = 1.0 / np.arange(1, 16)
    popularity /= popularity.sum()
    for user in range(n_users + 3):
        if user < n_users:
            for item in rng.choice(15, size=rng.integers(1, 5), replace=False, p=popularity):
                interactions.append((f"u{user}", f"i{item}", int(rng.integers(0, 4))))
        for model in range(n_models):
            if rng.random() < coverage:
                for rank, item in enumerate(rng.choice(15, size=rng.integers(1, 7), replace=False, p=popularity), start=1):
                    recommendations.append((f"m{model}", f"u{user}", f"i{item}", rank))
    return (pd.DataFrame(recommendations, columns=["model", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]))


def _expected(recommendations: pd.DataFrame, interactions: pd.DataFrame, baseline: str | None, users: str,
              correction: str, confidence: float, metrics: list[str] = METRICS, **inputs) -> pd.DataFrame:
    """The comparison recomputed from evaluate's per-user values: each pair's
    users are those with a value under both models (evaluate lists every truth
    user under users='interactions', and only the set's users otherwise; a
    list-level metric's values are the lists'). `inputs`: the catalog, the
    train interactions and their options."""
    per_user = rankwise.evaluate(recommendations, interactions, metrics, group_by="model", per_user=True,
                                 relevance_col="relevance", users=users, **inputs)
    models = sorted(recommendations["model"].unique())
    pairs = ([(model, baseline) for model in models if model != baseline] if baseline is not None
             else list(itertools.combinations(models, 2)))
    rows = []
    for (metric, k), values in per_user.groupby(["metric", "k"], dropna=False, sort=False):
        wide = values.pivot(index="user_id", columns="model", values="value")
        for model, base in pairs:
            both = wide[[model, base]].dropna() if {model, base} <= set(wide.columns) else pd.DataFrame()
            if len(both) == 0:
                continue
            # equal to within 1e-12 of the larger is a tie (docs/statistics.md, "Ties")
            raw = both[model] - both[base]
            difference = raw.where(raw.abs() > 1e-12 * np.maximum(both[model].abs(), both[base].abs()), 0.0)
            n = len(difference)
            row = {"metric": metric, "k": None if pd.isna(k) else int(k), "model": model, "baseline": base, "n_users": n,
                   "mean": both[model].mean(), "baseline_mean": both[base].mean(), "diff": difference.mean(),
                   "wins": int((difference > 0).sum()), "losses": int((difference < 0).sum()),
                   "ties": int((difference == 0).sum())}
            # a spread within 1e-12 of the mean difference is rounding noise: none
            # (docs/statistics.md), also for differences all equal, whose floating
            # mean may miss them by an ulp and leave pandas a deviation of 1e-17
            sd = difference.std(ddof=1) if n >= 2 else math.nan
            if n >= 2 and sd <= 1e-12 * abs(difference.mean()):
                sd = 0.0
            if n >= 2 and sd > 0:
                test = scipy.stats.ttest_1samp(difference, 0.0)
                low, high = scipy.stats.t.interval(confidence, n - 1, loc=difference.mean(), scale=sd / math.sqrt(n))
                row.update(t_statistic=test.statistic, p_value=test.pvalue, ci_low=low, ci_high=high,
                           effect_size=difference.mean() / sd)
            else:
                row.update(t_statistic=math.nan, effect_size=math.nan,
                           p_value=0.0 if n >= 2 and difference.mean() != 0 else math.nan,
                           ci_low=difference.mean() if n >= 2 else math.nan,
                           ci_high=difference.mean() if n >= 2 else math.nan)
            rows.append(row)
    expected = pd.DataFrame(rows)
    if expected.empty:
        return expected
    tested = expected["p_value"].notna()
    expected["p_adjusted"] = math.nan
    if correction == "none":
        expected["p_adjusted"] = expected["p_value"]
    elif tested.any():
        expected.loc[tested, "p_adjusted"] = multipletests(expected.loc[tested, "p_value"], method=CORRECTIONS[correction])[1]
    return expected


def _refusal(recommendations: pd.DataFrame, baseline: str | None) -> str:
    """Why compare finds no pair to compare, as its message says: the baseline
    drew no list at all, one model did, or no pair has a user in its population."""
    models = set(recommendations["model"])
    if baseline is not None and baseline not in models:
        return f"the baseline '{baseline}' is not a value of the model column"
    if len(models) < 2:
        return f"holds {len(models)} model"
    return "no pair of models .* has a user both are scored on"


def _assert_close(actual: float, expected: float, tolerance: float, what: str) -> None:
    if expected is None or (isinstance(expected, float) and math.isnan(expected)):
        assert actual is None or pd.isna(actual), f"{what}: expected no value, got {actual}"
    else:
        assert not pd.isna(actual) and abs(actual - expected) <= tolerance, f"{what}: expected {expected}, got {actual}"


def _check(recommendations: pd.DataFrame, interactions: pd.DataFrame, baseline: str | None, users: str,
           correction: str, confidence: float, metrics: list[str] = METRICS, **inputs) -> None:
    expected = _expected(recommendations, interactions, baseline, users, correction, confidence, metrics, **inputs)
    if expected.empty:
        # no pair to compare: refused, not an empty table
        with pytest.raises(InvalidArgumentError, match=_refusal(recommendations, baseline)):
            rankwise.compare(recommendations, interactions, metrics, baseline=baseline, users=users,
                             relevance_col="relevance", correction=correction, confidence=confidence, **inputs)
        return
    actual = rankwise.compare(recommendations, interactions, metrics, baseline=baseline, users=users,
                              relevance_col="relevance", correction=correction, confidence=confidence, **inputs)
    key = ["metric", "k", "model", "baseline"]
    actual_rows = {tuple(None if pd.isna(value) else value for value in row[key]): row for _, row in actual.iterrows()}
    expected_rows = {tuple(None if pd.isna(value) else value for value in row[key]): row for _, row in expected.iterrows()}
    assert actual_rows.keys() == expected_rows.keys()
    for pair, want in expected_rows.items():
        got = actual_rows[pair]
        for column in ("n_users", "wins", "ties", "losses"):
            assert got[column] == want[column], (pair, column)
        for column in ("mean", "baseline_mean", "diff", "ci_low", "ci_high", "effect_size"):
            _assert_close(got[column], want[column], 1e-9, f"{pair} {column}")
        _assert_close(got["t_statistic"], want["t_statistic"], 1e-9 * max(1.0, abs(want["t_statistic"])), f"{pair} t")
        # The bound for the p-value computed in SQL; the macro is tested to 1e-9 elsewhere.
        _assert_close(got["p_value"], want["p_value"], 1e-6, f"{pair} p_value")
        _assert_close(got["p_adjusted"], want["p_adjusted"], 1e-6, f"{pair} p_adjusted")
        if not pd.isna(want["p_adjusted"]):
            assert got["significant"] == (got["p_adjusted"] < 0.05)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_models=st.integers(2, 5), n_users=st.integers(5, 60), seed=st.integers(0, 2**32 - 1),
       coverage=st.sampled_from([0.5, 0.8, 1.0]), with_baseline=st.booleans(),
       users=st.sampled_from(["interactions", "both", "relevant"]), correction=st.sampled_from(["holm", "bh", "none"]),
       confidence=st.sampled_from([0.9, 0.95, 0.99]))
def test_every_row_matches_scipy_and_statsmodels(n_models, n_users, seed, coverage, with_baseline, users, correction,
                                                 confidence) -> None:
    recommendations, interactions = _case(n_models, n_users, seed, coverage)
    _check(recommendations, interactions, "m0" if with_baseline else None, users, correction, confidence)


# The list-level metrics, each user's value that of a list (and of the user's
# train items for popularity_lift and miscalibration), beside a per-user one.
LIST_METRICS = ["popularity_lift@3", "miscalibration@5", "arp@2", "novelty@5", "serendipity@3", "ndcg@5"]


def _list_inputs(n_users: int, seed: int) -> dict:
    """The catalog of the 15 items of _case with a genre each (one of 3), and
    train interactions of 0 to 4 items for most users of _case and for users
    with no list."""
    rng = np.random.default_rng(seed + 1)
    items = pd.DataFrame({"item_id": [f"i{item}" for item in range(15)], "genre": [f"g{item % 3}" for item in range(15)]})
    train = [(f"u{user}", f"i{item}") for user in range(n_users + 6) if rng.random() < 0.85
             for item in rng.choice(15, size=rng.integers(0, 5), replace=False)]
    return {"items": items, "train": pd.DataFrame(train, columns=["user_id", "item_id"]), "item_group_col": "genre"}


# arp@2 of m0 and m2 differs by the same amount for every user they share
@example(n_models=4, n_users=5, seed=914, coverage=0.8, with_baseline=False, correction="holm")
# arp of m1 and m0 differs by amounts equal in exact arithmetic, their spread rounding noise
@example(n_models=2, n_users=7, seed=149, coverage=0.5, with_baseline=False, correction="holm")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_models=st.integers(2, 4), n_users=st.integers(5, 60), seed=st.integers(0, 2**32 - 1),
       coverage=st.sampled_from([0.5, 0.8, 1.0]), with_baseline=st.booleans(), correction=st.sampled_from(["holm", "bh"]))
def test_list_level_metrics_pair_the_users_with_a_value_under_both_models(n_models, n_users, seed, coverage,
                                                                          with_baseline, correction) -> None:
    recommendations, interactions = _case(n_models, n_users, seed, coverage)
    _check(recommendations, interactions, "m0" if with_baseline else None, "interactions", correction, 0.95,
           LIST_METRICS, **_list_inputs(n_users, seed))


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_five_hundred_users_and_four_models(correction: str) -> None:
    recommendations, interactions = _case(4, 500, 20261124, 0.9)
    _check(recommendations, interactions, None, "interactions", correction, 0.95)


def test_a_comparison_without_any_user_in_common_is_refused() -> None:
    """The case hypothesis found: under users='relevant', no user with a
    relevant item has a list from both models."""
    recommendations, interactions = _case(2, 5, 2, 0.5)
    _check(recommendations, interactions, None, "relevant", "holm", 0.9)


def test_identical_models_have_no_t_and_differences_of_one_sign_everywhere_have_p_zero() -> None:
    """Every difference 0: no t, no p (scipy: nan). Every difference the same
    non-zero value: sd = 0, p = 0 (scipy: t = inf, p = 0)."""
    recommendations = pd.DataFrame(
        [(model, f"u{user}", "hit" if model != "worse" else "miss", 1) for model in ("a", "copy", "worse") for user in range(6)],
        columns=["model", "user_id", "item_id", "rank"])
    interactions = pd.DataFrame([(f"u{user}", "hit") for user in range(6)], columns=["user_id", "item_id"])
    result = rankwise.compare(recommendations, interactions, ["precision@1"], baseline="a").set_index("model")
    assert pd.isna(result.loc["copy", "t_statistic"]) and pd.isna(result.loc["copy", "p_value"])
    assert (result.loc["copy", "ties"], result.loc["copy", "diff"]) == (6, 0.0)
    assert result.loc["worse", "p_value"] == 0.0 and result.loc["worse", "diff"] == -1.0
    assert result.loc["worse", "ci_low"] == result.loc["worse", "ci_high"] == -1.0
    assert result.loc["worse", "losses"] == 6
    with_scipy = scipy.stats.ttest_rel([0.0] * 6, [1.0] * 6)
    assert with_scipy.pvalue == 0.0
