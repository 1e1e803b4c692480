"""rbo@k and intersection@k on random lists of three models, one of them the
reference, user by user and as means, against the reference implementation of
RBO_ext (tests/reference/rank_biased_overlap.py, equation 32 of Webber, Moffat
& Zobel 2010, checked against the PyPI package rbo 0.1.3) and the port of
RecTools 0.19.0's Intersection (peers/rectools.py, checked against RecTools
itself), to 1e-9. The lists are 1 to 12 items long, drawn from a catalog of 25
with skewed popularity, some copied from the reference list with changes, so
that they overlap; some users have no reference list, some no list of another
model. The reference and the port are first held to direct forms of their
definitions."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import rankwise
from tests.reference import rank_biased_overlap as reference

from .peers import rectools as rectools_port

SEEDS = [11, 23, 37, 41, 59]
REFERENCE = "prod"
MODELS = [REFERENCE, "cand_a", "cand_b"]
CUTOFFS = [3, 10]
TOLERANCE = 1e-9


def _random_recommendations(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    catalog = np.array([f"i{number:02d}" for number in range(25)])
    popularity = rng.dirichlet(np.full(len(catalog), 0.6))

    def fresh(length: int) -> list[str]:
        return list(rng.choice(catalog, size=length, replace=False, p=popularity))

    def changed(items: list[str]) -> list[str]:
        """The reference list cut, with neighbours swapped and new items after."""
        items = list(items[:int(rng.integers(1, len(items) + 1))])
        for position in range(len(items) - 1):
            if rng.random() < 0.3:
                items[position], items[position + 1] = items[position + 1], items[position]
        others = [item for item in rng.permutation(catalog) if item not in items]
        return items + others[:int(rng.integers(0, 13 - len(items)))]

    rows = []
    for number in range(int(rng.integers(30, 61))):
        user = f"u{number:02d}"
        reference_list = fresh(int(rng.integers(1, 13))) if rng.random() < 0.8 else None
        lists = {REFERENCE: reference_list}
        for model in MODELS[1:]:
            if rng.random() < 0.15:
                continue  # no list of this model
            if reference_list is not None and rng.random() < 0.5:
                lists[model] = changed(reference_list)
            else:
                lists[model] = fresh(int(rng.integers(1, 13)))
        for model, items in lists.items():
            for rank, item in enumerate(items or [], start=1):
                rows.append((user, item, rank, model))
    return pd.DataFrame(rows, columns=["user_id", "item_id", "rank", "model"])


def _interactions(recommendations: pd.DataFrame) -> pd.DataFrame:
    # rbo and intersection do not read them; evaluate needs a table with the users
    return recommendations[["user_id", "item_id"]].drop_duplicates()


def _lists(recommendations: pd.DataFrame) -> set[tuple]:
    return set(zip(recommendations["user_id"], recommendations["model"]))


def _evaluate(recommendations: pd.DataFrame, metrics: list[str], per_user: bool, **options) -> pd.DataFrame:
    return rankwise.evaluate(recommendations, _interactions(recommendations), metrics, per_user=per_user,
                             model_col="model", reference=REFERENCE, **options)


def _check_per_list(table: pd.DataFrame, k: int, expected: dict[tuple, float | None], label: str) -> None:
    """rankwise's values at k, {(user, model): value}, against `expected`: the
    lists with a value to TOLERANCE; a list without one has no row or a null."""
    rows = table[table["k"] == k]
    assert not rows.duplicated(["user_id", "model"]).any(), label
    actual = {(row.user_id, row.model): None if pd.isna(row.value) else float(row.value) for row in rows.itertuples()}
    assert set(actual) <= set(expected), (label, set(actual) - set(expected))
    with_value = {key for key, value in expected.items() if value is not None}
    assert {key for key, value in actual.items() if value is not None} == with_value, (
        label, {key for key, value in actual.items() if value is not None} ^ with_value)
    for key in with_value:
        assert math.isclose(actual[key], expected[key], rel_tol=0, abs_tol=TOLERANCE), (label, key, actual[key], expected[key])


def _check_means(table: pd.DataFrame, k: int, expected: dict[str, float], label: str) -> None:
    rows = table[table["k"] == k]
    actual = dict(zip(rows["model"], rows["value"]))
    assert set(actual) == set(expected), (label, actual, expected)
    for model, value in expected.items():
        assert math.isclose(actual[model], value, rel_tol=0, abs_tol=TOLERANCE), (label, model, actual[model], value)


# The random data has what the tests need


@pytest.mark.parametrize("seed", SEEDS)
def test_the_random_lists_have_every_case(seed: int) -> None:
    recommendations = _random_recommendations(seed)
    lists = _lists(recommendations)
    users = set(recommendations["user_id"])
    with_reference = {user for user, model in lists if model == REFERENCE}
    assert 30 <= len(users) <= 60
    assert users - with_reference, "some users have no reference list"
    for model in MODELS[1:]:
        assert users - {user for user, other in lists if other == model}, f"some users have no {model} list"
    lengths = recommendations.groupby(["user_id", "model"]).size()
    assert lengths.min() == 1 and lengths.max() <= 12 and lengths.nunique() >= 8
    assert not recommendations.duplicated(["user_id", "model", "item_id"]).any()
    top = reference.top_k(recommendations, 10)
    overlaps = [len(set(items) & set(top[(user, REFERENCE)])) for (user, model), items in top.items()
                if model != REFERENCE and (user, REFERENCE) in top]
    assert sum(1 for overlap in overlaps if overlap == 0) >= 2 and sum(1 for overlap in overlaps if overlap >= 2) >= 10


# The reference and the port against direct forms of their definitions


def _rbo_by_agreements(first: list, second: list, p: float, depth: int = 4000) -> float:
    """RBO_ext as the series (1 - p) sum_d p^(d-1) A_d that equation (32)
    closes: A_d = X_d / d down to s; from s to l the short list's unseen items
    agree at its rate X_s / s, A_d = (X_d + X_s (d - s) / s) / d; past l the
    agreement stays at (X_l - X_s) / l + X_s / s. Summed to `depth`."""
    short, long = (first, second) if len(first) <= len(second) else (second, first)
    s, l = len(short), len(long)
    X = {d: len(set(short[:min(d, s)]) & set(long[:d])) for d in range(1, l + 1)}
    total = 0.0
    for d in range(1, depth + 1):
        if d <= s:
            agreement = X[d] / d
        elif d <= l:
            agreement = (X[d] + X[s] * (d - s) / s) / d
        else:
            agreement = (X[l] - X[s]) / l + X[s] / s
        total += (1 - p) * p ** (d - 1) * agreement
    return total


@pytest.mark.parametrize("seed", SEEDS)
def test_the_reference_rbo_is_the_series_it_closes(seed: int) -> None:
    recommendations = _random_recommendations(seed)
    lists = reference.top_k(recommendations, 12)
    beside_a_reference = {(user, model): items for (user, model), items in lists.items() if (user, REFERENCE) in lists}
    assert {model for _, model in beside_a_reference} == set(MODELS)
    for (user, model), items in beside_a_reference.items():
        other = lists[(user, REFERENCE)]
        for p in (0.5, 0.9, 0.98):
            value = reference.rbo_ext(items, other, p)
            assert 0 <= value <= 1 + 1e-15, (user, model, value)
            assert value == pytest.approx(reference.rbo_ext(other, items, p), abs=1e-15)
            assert value == pytest.approx(_rbo_by_agreements(items, other, p), abs=1e-12), (user, model, p)
            if model == REFERENCE:
                assert value == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_intersection_port_is_the_share_of_the_top_k(seed: int) -> None:
    recommendations = _random_recommendations(seed)
    reference_reco = recommendations[recommendations["model"] == REFERENCE]
    for k in CUTOFFS:
        top = reference.top_k(recommendations, k)
        for model in MODELS:
            values = rectools_port.intersection(recommendations[recommendations["model"] == model], reference_reco, k)
            listed = {user for user, other in top if other == model}
            assert listed and set(values) == listed
            for user, value in values.items():
                items, reference_items = top[(user, model)], top.get((user, REFERENCE), [])
                assert value == len(set(items) & set(reference_items)) / len(items), (model, user, k)


# rankwise against them


@pytest.mark.parametrize("p", [0.9, 0.5])
@pytest.mark.parametrize("seed", SEEDS)
def test_rbo_is_the_reference(seed: int, p: float) -> None:
    recommendations = _random_recommendations(seed)
    metrics = [f"rbo@{k}" if p == 0.9 else f"rbo(p={p})@{k}" for k in CUTOFFS]  # 0.9 is the default
    per_user = _evaluate(recommendations, metrics, per_user=True)
    means = _evaluate(recommendations, metrics, per_user=False)
    assert set(per_user["metric"]) == set(means["metric"]) == {"rbo"}
    assert set(per_user["k"]) == set(means["k"]) == set(CUTOFFS)
    for k in CUTOFFS:
        expected = reference.rbo_per_list(recommendations, REFERENCE, k, p)
        assert expected.keys() == _lists(recommendations)
        label = f"rbo(p={p})@{k} seed {seed}"
        _check_per_list(per_user, k, expected, label)
        _check_means(means, k, reference.mean_per_model(expected), label)


@pytest.mark.parametrize("convention", ["rankwise", "rectools"])
@pytest.mark.parametrize("seed", SEEDS)
def test_intersection_is_rectools(seed: int, convention: str) -> None:
    """RecTools scores a list whose user has no reference list 0 (its items
    merge to no reference rank); convention='rectools' does too, rankwise's
    default gives it no value and leaves it out of the mean."""
    recommendations = _random_recommendations(seed)
    metrics = [f"intersection@{k}" for k in CUTOFFS]
    per_user = _evaluate(recommendations, metrics, per_user=True, convention=convention)
    means = _evaluate(recommendations, metrics, per_user=False, convention=convention)
    assert set(per_user["metric"]) == set(means["metric"]) == {"intersection"}
    reference_reco = recommendations[recommendations["model"] == REFERENCE]
    with_reference = set(reference_reco["user_id"])
    for k in CUTOFFS:
        expected: dict[tuple, float | None] = {}
        for model in MODELS:
            reco = recommendations[recommendations["model"] == model]
            for user, value in rectools_port.intersection(reco, reference_reco, k).items():
                if user not in with_reference:
                    assert value == 0.0
                    value = value if convention == "rectools" else None
                expected[(user, model)] = value
        assert expected.keys() == _lists(recommendations)
        label = f"intersection@{k} seed {seed} convention {convention}"
        _check_per_list(per_user, k, expected, label)
        _check_means(means, k, reference.mean_per_model(expected), label)
        if convention == "rectools":  # RecTools' calc: the mean over the model's users
            for model in MODELS:
                reco = recommendations[recommendations["model"] == model]
                values = rectools_port.intersection(reco, reference_reco, k)
                row = means[(means["k"] == k) & (means["model"] == model)]
                assert math.isclose(row["value"].item(), sum(values.values()) / len(values), abs_tol=TOLERANCE)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_rbo_without_a_reference_list_is_zero_when_asked(seed: int) -> None:
    """without_reference='zero' is read by rbo too (its registry entry)."""
    recommendations = _random_recommendations(seed)
    table = _evaluate(recommendations, ["rbo@10"], per_user=True, without_reference="zero")
    _check_per_list(table, 10, reference.rbo_per_list(recommendations, REFERENCE, 10, 0.9, without_reference=0.0),
                    f"rbo@10 zero seed {seed}")
