"""Hand-worked examples of rbo@k and intersection@k, the metrics that compare
each model's list of a user with the reference model's list of the same user,
through rankwise.evaluate; each value's arithmetic is written out from the
definitions (Webber, Moffat & Zobel 2010, equation 32, for RBO_ext; RecTools'
Intersection with ref_k = k), and the reference implementation of
tests/reference/rank_biased_overlap.py is held to the same numbers. Then the
arguments these metrics need, refused by name when missing or wrong."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise
from rankwise.errors import MissingColumnError, RankwiseError
from tests.reference import rank_biased_overlap as reference

TOLERANCE = 1e-12

# The reference model is "prod". Per user:
#   u1: prod [a, b, c]      new [b, a, d, e]   uneven, two items shared
#   u2: prod [x, y]         new [x, y]         identical
#   u3: prod [p, q]         new [r, s, t]      disjoint
#   u4: no prod list        new [a, b]         no reference: no value
#   u5: prod [a]            no new list        the reference alone
#   u6: prod [c, d, a]      new [a, b]         the reference is the longer list
LISTS = {
    ("u1", "prod"): "abc", ("u1", "new"): "bade",
    ("u2", "prod"): "xy", ("u2", "new"): "xy",
    ("u3", "prod"): "pq", ("u3", "new"): "rst",
    ("u4", "new"): "ab",
    ("u5", "prod"): "a",
    ("u6", "prod"): "cda", ("u6", "new"): "ab",
}
RECOMMENDATIONS = pd.DataFrame(
    [(user, item, rank, model) for (user, model), items in LISTS.items() for rank, item in enumerate(items, start=1)],
    columns=["user_id", "item_id", "rank", "model"])
# these metrics do not read the interactions; evaluate needs a table with the users
INTERACTIONS = RECOMMENDATIONS[["user_id", "item_id"]].drop_duplicates()

# RBO_ext = (1-p)/p * ( sum_{d=1}^{l} X_d/d p^d + sum_{d=s+1}^{l} X_s (d-s)/(s d) p^d ) + ((X_l - X_s)/l + X_s/s) p^l
#
# u1 at k=4, p=0.9: S = [a,b,c] (s=3), L = [b,a,d,e] (l=4);
#   X_1 = |{a} & {b}| = 0, X_2 = |{a,b} & {b,a}| = 2, X_3 = |{a,b,c} & {b,a,d}| = 2, X_4 = |{a,b,c} & {b,a,d,e}| = 2
#   first sum   0/1*0.9 + 2/2*0.81 + 2/3*0.729 + 2/4*0.6561 = 0.81 + 0.486 + 0.32805 = 1.62405
#   second sum  d=4: X_3*(4-3)/(3*4)*0.9^4 = 2/12*0.6561 = 0.10935
#   (1-p)/p = 1/9: (1.62405 + 0.10935)/9 = 1.7334/9 = 0.1926
#   extrapolation ((X_4 - X_3)/4 + X_3/3)*0.9^4 = (0 + 2/3)*0.6561 = 0.4374
#   RBO_ext = 0.1926 + 0.4374 = 0.63
# u1 at k=4, p=0.5: first sum 0 + 2/2*0.25 + 2/3*0.125 + 2/4*0.0625 = 24/96 + 8/96 + 3/96 = 35/96,
#   second sum 2/12*0.0625 = 1/96, (1-p)/p = 1: 36/96 = 3/8; extrapolation 2/3*0.0625 = 1/24;
#   RBO_ext = 3/8 + 1/24 = 5/12
# u1 at k=2, p=0.9: both cut to two items, S = [a,b], L = [b,a] (s = l = 2): X_1 = 0, X_2 = 2;
#   1/9 * (0 + 2/2*0.81) + (0 + 2/2)*0.81 = 0.09 + 0.81 = 0.9
# u6 at k=4 (or 3), p=0.9: S = [a,b] (s=2), L = [c,d,a] (l=3): X_1 = |{a} & {c}| = 0, X_2 = |{a,b} & {c,d}| = 0,
#   X_3 = |{a,b} & {c,d,a}| = 1; first sum 1/3*0.729 = 0.243, second sum X_2 = 0: 0;
#   1/9*0.243 = 0.027; extrapolation ((1 - 0)/3 + 0/2)*0.729 = 0.243; RBO_ext = 0.27
# u6 at k=2: S = [a,b], L = [c,d]: disjoint, 0.
# u2 identical lists of n items: X_d = d, 1/9 * sum_{d=1}^{n} p^d + p^n = (1 - p^n) + p^n = 1; u3 disjoint: every X_d = 0: 0.
# Every prod list against itself: 1. u4: no prod list, no value. u5: no new list, no row.
RBO = {
    (4, 0.9): {("u1", "new"): 0.63, ("u2", "new"): 1.0, ("u3", "new"): 0.0, ("u4", "new"): None, ("u6", "new"): 0.27},
    (4, 0.5): {("u1", "new"): 5 / 12, ("u2", "new"): 1.0, ("u3", "new"): 0.0, ("u4", "new"): None,
               # u6 at p=0.5: (1/3*0.125)*1 + 1/3*0.125 = 1/24 + 1/24 = 1/12
               ("u6", "new"): 1 / 12},
    (2, 0.9): {("u1", "new"): 0.9, ("u2", "new"): 1.0, ("u3", "new"): 0.0, ("u4", "new"): None, ("u6", "new"): 0.0},
}
for _values in RBO.values():
    _values.update({("u1", "prod"): 1.0, ("u2", "prod"): 1.0, ("u3", "prod"): 1.0, ("u5", "prod"): 1.0,
                    ("u6", "prod"): 1.0})

# intersection@k: of a list's items ranked <= k, the share in the reference's top k.
#   k=4: u1 {b,a,d,e} vs {a,b,c}: 2/4; u2 2/2; u3 0/3; u6 {a,b} vs {c,d,a}: 1/2
#   k=2: u1 {b,a} vs {a,b}: 2/2; u2 2/2; u3 {r,s} vs {p,q}: 0/2; u6 {a,b} vs {c,d}: 0/2
#   u4 has no reference list: no value (RecTools, and without_reference='zero': 0); every prod list 1
INTERSECTION = {
    4: {("u1", "new"): 0.5, ("u2", "new"): 1.0, ("u3", "new"): 0.0, ("u4", "new"): None, ("u6", "new"): 0.5},
    2: {("u1", "new"): 1.0, ("u2", "new"): 1.0, ("u3", "new"): 0.0, ("u4", "new"): None, ("u6", "new"): 0.0},
}
for _values in INTERSECTION.values():
    _values.update({("u1", "prod"): 1.0, ("u2", "prod"): 1.0, ("u3", "prod"): 1.0, ("u5", "prod"): 1.0,
                    ("u6", "prod"): 1.0})


def _evaluate(metrics: list[str], per_user: bool, **options) -> pd.DataFrame:
    options = {"model_col": "model", "reference": "prod", **options}
    return rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, per_user=per_user, **options)


def _per_list(table: pd.DataFrame) -> dict[tuple, float | None]:
    """{(user, model): value}, None for a row without a value."""
    assert not table.duplicated(["user_id", "model"]).any(), table
    return {(row.user_id, row.model): None if pd.isna(row.value) else float(row.value) for row in table.itertuples()}


def _assert_per_list(actual: dict[tuple, float | None], expected: dict[tuple, float | None]) -> None:
    """The lists with a value match to TOLERANCE; a list without one has no
    value, as a row with a null value or no row at all."""
    with_value = {key: value for key, value in expected.items() if value is not None}
    assert {key for key, value in actual.items() if value is not None} == set(with_value), (actual, expected)
    assert set(actual) <= set(expected), (actual, expected)
    for key, value in with_value.items():
        assert actual[key] == pytest.approx(value, abs=TOLERANCE), (key, actual[key], value)


def _means(expected: dict[tuple, float | None], zero_without_reference: bool = False) -> dict[str, float]:
    by_model: dict[str, list[float]] = {}
    for (_, model), value in expected.items():
        if value is None and zero_without_reference:
            value = 0.0
        if value is not None:
            by_model.setdefault(model, []).append(value)
    return {model: sum(values) / len(values) for model, values in by_model.items()}


# The reference implementation on the examples


@pytest.mark.parametrize(("k", "p"), list(RBO))
def test_the_reference_rbo_gives_the_hand_worked_values(k: int, p: float) -> None:
    values = reference.rbo_per_list(RECOMMENDATIONS, "prod", k, p)
    assert values.keys() == RBO[(k, p)].keys()
    for key, value in RBO[(k, p)].items():
        assert (values[key] is None) if value is None else values[key] == pytest.approx(value, abs=TOLERANCE), key


def test_the_reference_rbo_of_identical_and_disjoint_lists() -> None:
    for n in range(1, 13):
        items = [f"i{position}" for position in range(n)]
        for p in (0.1, 0.5, 0.9, 0.99):
            assert reference.rbo_ext(items, items, p) == pytest.approx(1.0, abs=TOLERANCE)
            assert reference.rbo_ext(items, [f"j{position}" for position in range(n + 3)], p) == 0.0
    # symmetric, whichever list comes first
    assert reference.rbo_ext(list("bade"), list("abc"), 0.9) == reference.rbo_ext(list("abc"), list("bade"), 0.9)


# rankwise, user by user and as means


@pytest.mark.parametrize(("k", "p"), list(RBO))
def test_rbo_by_hand(k: int, p: float) -> None:
    metric = f"rbo@{k}" if p == 0.9 else f"rbo(p={p})@{k}"  # p = 0.9 is the default
    table = _evaluate([metric], per_user=True)
    assert set(table["metric"]) == {"rbo"} and set(table["k"]) == {k}
    _assert_per_list(_per_list(table), RBO[(k, p)])


def test_rbo_means_leave_out_the_user_without_a_reference() -> None:
    # new at k=4, p=0.9: (0.63 + 1 + 0 + 0.27) / 4 = 0.475 (u4 left out); prod: 1
    table = _evaluate(["rbo@4", "rbo@2"], per_user=False)
    means = {(row.model, row.k): row.value for row in table.itertuples()}
    assert means.keys() == {("new", 4), ("prod", 4), ("new", 2), ("prod", 2)}
    # n_users counts the lists with a value: new u1, u2, u3, u6; prod u1, u2, u3, u5, u6
    assert {(row.model, row.k): row.n_users for row in table.itertuples()} == {
        ("new", 4): 4, ("prod", 4): 5, ("new", 2): 4, ("prod", 2): 5}
    assert _means(RBO[(4, 0.9)])["new"] == pytest.approx(0.475, abs=TOLERANCE)
    for k in (4, 2):
        for model, mean in _means(RBO[(k, 0.9)]).items():
            assert means[(model, k)] == pytest.approx(mean, abs=TOLERANCE), (model, k)


def test_rbo_of_the_reference_model_is_one_and_model_col_is_a_group() -> None:
    table = _evaluate(["rbo@3"], per_user=False)
    assert "model" in table.columns and set(table["model"]) == {"new", "prod"}
    assert table.loc[table["model"] == "prod", "value"].tolist() == pytest.approx([1.0], abs=TOLERANCE)
    # naming the model column in group_by too changes nothing
    grouped = _evaluate(["rbo@3"], per_user=False, group_by="model")
    assert dict(zip(grouped["model"], grouped["value"])) == pytest.approx(dict(zip(table["model"], table["value"])),
                                                                          abs=TOLERANCE)


@pytest.mark.parametrize("k", list(INTERSECTION))
def test_intersection_by_hand(k: int) -> None:
    table = _evaluate([f"intersection@{k}"], per_user=True)
    assert set(table["metric"]) == {"intersection"} and set(table["k"]) == {k}
    _assert_per_list(_per_list(table), INTERSECTION[k])


@pytest.mark.parametrize("options", [{"without_reference": "zero"}, {"convention": "rectools"}])
def test_intersection_scores_a_user_without_a_reference_zero_when_asked(options: dict) -> None:
    # as RecTools: u4's two items merge to no reference rank, 0 of 2
    for k, expected in INTERSECTION.items():
        table = _evaluate([f"intersection@{k}"], per_user=True, **options)
        _assert_per_list(_per_list(table), {**expected, ("u4", "new"): 0.0})


def test_intersection_means() -> None:
    # k=4, new: (0.5 + 1 + 0 + 0.5) / 4 = 0.5 without u4; with u4 scored 0: 2 / 5 = 0.4
    assert _means(INTERSECTION[4])["new"] == pytest.approx(0.5, abs=TOLERANCE)
    assert _means(INTERSECTION[4], zero_without_reference=True)["new"] == pytest.approx(0.4, abs=TOLERANCE)
    for options, zero in (({}, False), ({"convention": "rectools"}, True), ({"without_reference": "zero"}, True)):
        table = _evaluate(["intersection@4", "intersection@2"], per_user=False, **options)
        means = {(row.model, row.k): row.value for row in table.itertuples()}
        assert means.keys() == {(model, k) for model in ("new", "prod") for k in (4, 2)}, options
        # the lists with a value: new's u4 too when it scores 0
        assert {(row.model, row.k): row.n_users for row in table.itertuples()} == {
            (model, k): {"new": 5 if zero else 4, "prod": 5}[model] for model in ("new", "prod") for k in (4, 2)}, options
        for k in (4, 2):
            for model, mean in _means(INTERSECTION[k], zero_without_reference=zero).items():
                assert means[(model, k)] == pytest.approx(mean, abs=TOLERANCE), (options, model, k)


def test_rbo_scores_a_user_without_a_reference_zero_when_asked() -> None:
    # the option's registry entry (macros/conventions/convention_options.sql) says
    # rbo reads without_reference too: u4 then scores 0
    table = _evaluate(["rbo@4"], per_user=True, without_reference="zero")
    _assert_per_list(_per_list(table), {**RBO[(4, 0.9)], ("u4", "new"): 0.0})


def test_a_reference_that_is_a_number() -> None:
    # the model column may hold numbers: model 1 is the reference, model 2's u1 list is L of the first example
    recommendations = RECOMMENDATIONS.assign(model=RECOMMENDATIONS["model"].map({"prod": 1, "new": 2}))
    table = rankwise.evaluate(recommendations, INTERACTIONS, ["rbo@4"], per_user=True, model_col="model", reference=1)
    values = {(row.user_id, int(row.model)): row.value for row in table.itertuples()}
    assert values[("u1", 2)] == pytest.approx(0.63, abs=TOLERANCE)
    assert values[("u1", 1)] == pytest.approx(1.0, abs=TOLERANCE)


# Bad arguments, refused by name


@pytest.mark.parametrize("metric", ["rbo@5", "intersection@5"])
def test_without_model_col_is_refused(metric: str) -> None:
    with pytest.raises(RankwiseError, match=r"model_col"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, [metric], reference="prod")


@pytest.mark.parametrize("metric", ["rbo@5", "intersection@5"])
def test_without_reference_is_refused(metric: str) -> None:
    with pytest.raises(RankwiseError, match=r"reference"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, [metric], model_col="model")


@pytest.mark.parametrize("metric", ["rbo@5", "intersection@5"])
def test_a_reference_that_is_not_a_model_is_refused_naming_the_column_and_the_value(metric: str) -> None:
    recommendations = RECOMMENDATIONS.rename(columns={"model": "variant"})
    with pytest.raises(RankwiseError) as raised:
        rankwise.evaluate(recommendations, INTERACTIONS, [metric], model_col="variant", reference="champion_x")
    assert "variant" in str(raised.value) and "champion_x" in str(raised.value), str(raised.value)


@pytest.mark.parametrize("metric", ["rbo@5", "intersection@5"])
def test_a_model_col_that_is_not_a_column_is_refused_by_name(metric: str) -> None:
    # as every missing column's message (test_missing_column_names_the_argument.py):
    # the column, and the argument that named it
    with pytest.raises(MissingColumnError, match=r"column 'variant' .*Name the right one with `model_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, [metric], model_col="variant", reference="prod")


@pytest.mark.parametrize("metric", ["rbo", "rbo(p=0.8)", "intersection"])
def test_without_a_cutoff_is_refused(metric: str) -> None:
    name = metric.split("(")[0]
    with pytest.raises(RankwiseError, match=rf"{name}.*cutoff|cutoff.*{name}"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, [metric], model_col="model", reference="prod")


def test_the_examples_are_what_the_comments_say() -> None:
    # the data above: six users, u4 without a reference list, u5 without a new one
    assert math.isclose(reference.rbo_ext(list("ab"), list("cda"), 0.5), 1 / 12, abs_tol=TOLERANCE)
    assert set(RECOMMENDATIONS["user_id"]) == {"u1", "u2", "u3", "u4", "u5", "u6"}
    assert ("u4", "prod") not in LISTS and ("u5", "new") not in LISTS


def test_compare_takes_the_reference_from_its_model_column() -> None:
    """intersection@4 of new against prod, prod's own lists the reference: the
    users with a value under both (a list under both and a reference list:
    u1, u2, u3, u6), prod scoring 1 on each."""
    result = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["intersection@4"], baseline="prod", reference="prod")
    per_user = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intersection@4"], per_user=True, model_col="model",
                                 reference="prod").pivot(index="user_id", columns="model", values="value").dropna()
    assert sorted(per_user.index) == ["u1", "u2", "u3", "u6"] and (per_user["prod"] == 1).all()
    row = result.iloc[0]
    assert (row["model"], row["baseline"], row["n_users"]) == ("new", "prod", 4)
    assert row["diff"] == pytest.approx((per_user["new"] - per_user["prod"]).mean(), abs=TOLERANCE)
    assert row["baseline_mean"] == pytest.approx(1.0, abs=TOLERANCE)
