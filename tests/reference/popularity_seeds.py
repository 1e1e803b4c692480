"""The integration project's seeds of popularity_lift and miscalibration: a
train table of the beyond-accuracy lists' own users (drawn from a seed, per
fold, with users who have no list and lists whose user has no train item), and
the values tests/reference/popularity_bias.py computes on them, and the
comparison of the two models on them (scipy's paired t test).
integration_tests/models/popularity_bias__actual.sql and
popularity_comparison__actual.sql ask for the same;
tests/unit/test_popularity_seeds.py keeps the seeds equal to what this module
writes:

    python -m tests.reference.popularity_seeds   # rewrites the five seeds
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tests.reference import popularity_bias

SEEDS = Path(__file__).resolve().parents[2] / "integration_tests" / "seeds"
RECOMMENDATIONS = SEEDS / "input__beyond__recommendations.csv"
ITEMS = SEEDS / "input__beyond__items.csv"
TRAIN = SEEDS / "input__popularity__train.csv"
EXPECTED = SEEDS / "expected__popularity_bias.csv"
INTERACTIONS = SEEDS / "input__beyond__interactions.csv"
# the interactions with each user's group (user_group_col), and the means per group
GROUPED_INTERACTIONS = SEEDS / "input__popularity__interactions.csv"
EXPECTED_BY_USER_GROUP = SEEDS / "expected__popularity_by_user_group.csv"
# rankwise.compare of the two models on the same metrics, with its resampling
# tests (as integration_tests/models/popularity_comparison__actual.sql asks)
EXPECTED_COMPARISON = SEEDS / "expected__popularity_comparison.csv"
RESAMPLING = {"tests": ["t", "randomization", "bootstrap"], "n_resamples": 200, "seed": 7}

K = [1, 3, 5]
# variant: (arp_popularity, {metric label: alpha or None for popularity_lift})
VARIANTS = {
    "default": ("users", {"popularity_lift": None, "miscalibration": 0.01}),
    "interactions_alpha": ("interactions", {"popularity_lift": None, "miscalibration(alpha=0.1)": 0.1}),
}
GROUP_COL = "genre"


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype={"example_id": str, "model": str, "user_id": str, "item_id": str})


def inputs() -> pd.DataFrame:
    """Per fold, the lists' users but one (u07 has no train) and four users
    without a list, each with 1 to 6 catalog items drawn by popularity, some
    twice (a repeat is one more interaction, not one more item)."""
    rng = np.random.default_rng(3333)
    items = list(_read(ITEMS)["item_id"])
    weights = rng.dirichlet(np.full(len(items), 0.4))
    users = [user for user in sorted(_read(RECOMMENDATIONS)["user_id"].unique()) if user != "u07"]
    rows = []
    for fold in ("fold_1", "fold_2"):
        for user in users + [f"t{number}" for number in range(4)]:
            chosen = list(rng.choice(items, size=rng.integers(1, 7), replace=False, p=weights))
            if rng.random() < 0.3:
                chosen.append(chosen[0])
            rows.extend((fold, user, item) for item in chosen)
    return pd.DataFrame(rows, columns=["example_id", "user_id", "item_id"])


def expected(recommendations: pd.DataFrame, train: pd.DataFrame, items: pd.DataFrame) -> pd.DataFrame:
    group_of = dict(zip(items["item_id"], items[GROUP_COL]))
    rows = []
    for variant, (measure, metrics) in VARIANTS.items():
        for (fold, model), lists in recommendations.groupby(["example_id", "model"], sort=True):
            fold_train = list(train.loc[train["example_id"] == fold, ["user_id", "item_id"]].itertuples(index=False, name=None))
            phi = popularity_bias.popularity(fold_train, measure)
            profiles = popularity_bias.profiles(fold_train)
            for label, alpha in metrics.items():
                for k in K:
                    values = []
                    for user, rows_of in lists.groupby("user_id"):
                        top_k = list(rows_of.loc[rows_of["rank"] <= k].sort_values("rank")["item_id"])
                        profile = profiles.get(user, set())
                        value = (popularity_bias.popularity_lift(top_k, profile, phi) if alpha is None
                                 else popularity_bias.miscalibration(top_k, profile, group_of, alpha))
                        if value is not None:
                            values.append(value)
                    if values:
                        rows.append((variant, fold, model, f"{label}@{k}", sum(values) / len(values), len(values)))
    return pd.DataFrame(rows, columns=["variant", "example_id", "model", "metric_label", "value", "n_users"])


def expected_comparison(recommendations: pd.DataFrame, train: pd.DataFrame, items: pd.DataFrame,
                        interactions: pd.DataFrame) -> pd.DataFrame:
    """rankwise.compare of 'popular' against the baseline model_a, per fold, on
    popularity_lift and miscalibration (the default variant) and on hit_rate (a
    per-user metric, every user of the fold's truth paired, in the same query):
    each user's values from the reference implementations (hit_rate: 1 when an
    item of the top k is in the user's interactions), the users with a value
    under both models paired, the paired t test, its 95% interval and Cohen's
    d_z from scipy (a difference within 1e-12 of the larger value is a tie, as
    docs/statistics.md says). The resampling tests' columns are the Python
    wrapper's on DuckDB (their draws checked in numpy by
    tests/crosscheck/test_compare_resampling.py)."""
    import scipy.stats

    import rankwise

    group_of = dict(zip(items["item_id"], items[GROUP_COL]))
    measure, metrics = VARIANTS["default"]
    rows = []
    for fold, lists in recommendations.groupby("example_id", sort=True):
        fold_train = list(train.loc[train["example_id"] == fold, ["user_id", "item_id"]].itertuples(index=False, name=None))
        phi, profiles = popularity_bias.popularity(fold_train, measure), popularity_bias.profiles(fold_train)
        truth = interactions.loc[interactions["example_id"] == fold].groupby("user_id")["item_id"].apply(set).to_dict()
        for label, alpha in [*metrics.items(), ("hit_rate", None)]:
            for k in K:
                values: dict[str, dict[str, float]] = {model: {} for model in ("popular", "model_a")}
                for (model, user), rows_of in lists.groupby(["model", "user_id"]):
                    top_k = list(rows_of.loc[rows_of["rank"] <= k].sort_values("rank")["item_id"])
                    profile = profiles.get(user, set())
                    if label == "hit_rate":
                        value = None if user not in truth else float(bool(set(top_k) & truth[user]))
                    else:
                        value = (popularity_bias.popularity_lift(top_k, profile, phi) if alpha is None
                                 else popularity_bias.miscalibration(top_k, profile, group_of, alpha))
                    if value is not None:
                        values[model][user] = value
                if label == "hit_rate":
                    # every truth user counts; a missing list scores 0
                    for model in values:
                        values[model] = {user: values[model].get(user, 0.0) for user in truth}
                paired = sorted(set(values["popular"]) & set(values["model_a"]))
                model = np.array([values["popular"][user] for user in paired])
                baseline = np.array([values["model_a"][user] for user in paired])
                raw = model - baseline
                difference = np.where(np.abs(raw) <= 1e-12 * np.maximum(np.abs(model), np.abs(baseline)), 0.0, raw)
                n, mean, sd = len(paired), difference.mean(), difference.std(ddof=1)
                if sd > 0:
                    test = scipy.stats.ttest_1samp(difference, 0.0)
                    low, high = scipy.stats.t.interval(0.95, n - 1, loc=mean, scale=sd / np.sqrt(n))
                    tested = (low, high, mean / sd, test.statistic, test.pvalue)
                else:
                    # every difference the same: no t; p 0 unless they are all 0 (docs/statistics.md)
                    tested = (mean, mean, np.nan, np.nan, 0.0 if mean != 0 else np.nan)
                rows.append((fold, f"{label}@{k}", "popular", "model_a", n, model.mean(), baseline.mean(), mean, *tested,
                             int((difference > 0).sum()), int((difference == 0).sum()), int((difference < 0).sum())))
    expected = pd.DataFrame(rows, columns=["example_id", "metric_label", "model", "baseline", "n_users", "mean",
                                           "baseline_mean", "diff", "ci_low", "ci_high", "effect_size", "t_statistic",
                                           "p_value", "wins", "ties", "losses"])
    resampled = rankwise.compare(recommendations, interactions, [*metrics, "hit_rate"], K, baseline="model_a",
                                 partition_by="example_id", train=train, items=items, item_group_col=GROUP_COL,
                                 **RESAMPLING)
    columns = ["p_randomization", "bootstrap_ci_low", "bootstrap_ci_high"]
    return expected.merge(resampled[["example_id", "metric_label", "model", *columns]],
                          on=["example_id", "metric_label", "model"], how="left", validate="1:1")


def grouped_interactions() -> pd.DataFrame:
    """The beyond-accuracy interactions with a `segment` per (fold, user),
    drawn from a seed: 'niche' or 'blockbuster'."""
    interactions = _read(INTERACTIONS)
    rng = np.random.default_rng(3334)
    keys = interactions[["example_id", "user_id"]].drop_duplicates().sort_values(["example_id", "user_id"])
    keys = keys.assign(segment=rng.choice(["niche", "blockbuster"], size=len(keys)))
    return interactions.merge(keys, on=["example_id", "user_id"], how="left")


def expected_by_user_group(recommendations: pd.DataFrame, train: pd.DataFrame,
                           interactions: pd.DataFrame) -> pd.DataFrame:
    """popularity_lift per (fold, model, user group): the mean over the lists of
    the group's users that have a value (a list of a user without a group in
    the interactions is in the NULL group, which this data has none of)."""
    segment_of = {(row.example_id, row.user_id): row.segment for row in interactions.itertuples()}
    rows = []
    for (fold, model), lists in recommendations.groupby(["example_id", "model"], sort=True):
        fold_train = list(train.loc[train["example_id"] == fold, ["user_id", "item_id"]].itertuples(index=False, name=None))
        phi, profiles = popularity_bias.popularity(fold_train, "users"), popularity_bias.profiles(fold_train)
        for k in K:
            values: dict[str, list[float]] = {}
            for user, rows_of in lists.groupby("user_id"):
                top_k = list(rows_of.loc[rows_of["rank"] <= k].sort_values("rank")["item_id"])
                value = popularity_bias.popularity_lift(top_k, profiles.get(user, set()), phi)
                if value is not None:
                    values.setdefault(segment_of[(fold, user)], []).append(value)
            for segment in sorted(values):
                rows.append((fold, model, segment, f"popularity_lift@{k}", sum(values[segment]) / len(values[segment]),
                             len(values[segment])))
    return pd.DataFrame(rows, columns=["example_id", "model", "segment", "metric_label", "value", "n_users"])


if __name__ == "__main__":
    train = inputs()
    train.to_csv(TRAIN, index=False)
    expected(_read(RECOMMENDATIONS), train, _read(ITEMS)).to_csv(EXPECTED, index=False, float_format="%.17g")
    grouped = grouped_interactions()
    grouped.to_csv(GROUPED_INTERACTIONS, index=False)
    expected_by_user_group(_read(RECOMMENDATIONS), train, grouped).to_csv(EXPECTED_BY_USER_GROUP, index=False,
                                                                         float_format="%.17g")
    expected_comparison(_read(RECOMMENDATIONS), train, _read(ITEMS), _read(INTERACTIONS)).to_csv(EXPECTED_COMPARISON, index=False,
                                                                           float_format="%.17g")
