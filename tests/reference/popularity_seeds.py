"""The integration project's seeds of popularity_lift and miscalibration: a
train table of the beyond-accuracy lists' own users (drawn from a seed, per
fold, with users who have no list and lists whose user has no train item), and
the values tests/reference/popularity_bias.py computes on them.
integration_tests/models/popularity_bias__actual.sql asks for the same;
tests/unit/test_popularity_seeds.py keeps the seeds equal to what this module
writes:

    python -m tests.reference.popularity_seeds   # rewrites the four seeds
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
