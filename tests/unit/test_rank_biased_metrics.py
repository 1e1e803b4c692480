"""Hand-worked examples of rank-biased precision and expected reciprocal rank,
through rankwise.evaluate, each value's arithmetic written out from the
definitions in docs/metrics.md; and ERR's running product, computed in SQL as
the exponent of a sum of logarithms, against a direct loop of products to
1e-12, at relevance grades where 1 - R rounds to 0 in a double."""

from __future__ import annotations

import math
import random

import pandas as pd
import pytest

import rankwise

TOLERANCE = 1e-12


def _per_user(recommendations: list[tuple], interactions: list[tuple], metric: str, **options) -> dict[str, float]:
    table = rankwise.evaluate(
        pd.DataFrame(recommendations, columns=["user_id", "item_id", "rank"]),
        pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]),
        [metric], per_user=True, relevance_col="relevance", **options)
    return dict(zip(table.user_id, table.value))


# u1: a (relevance 3) at rank 1, b not judged, c (1) at rank 3, d (0) at rank 4;
# z (2) is not recommended. u2: x (1) at rank 2. The largest relevance is 3.
RECOMMENDATIONS = [("u1", "a", 1), ("u1", "b", 2), ("u1", "c", 3), ("u1", "d", 4), ("u2", "w", 1), ("u2", "x", 2)]
INTERACTIONS = [("u1", "a", 3), ("u1", "c", 1), ("u1", "d", 0), ("u1", "z", 2), ("u2", "x", 1)]


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        # (1 - p) times p^(rank - 1) summed over the relevant ranks: u1 ranks 1 and 3, u2 rank 2
        ("rbp", {"u1": 0.2 * (1 + 0.8**2), "u2": 0.2 * 0.8}),
        ("rbp@2", {"u1": 0.2 * 1, "u2": 0.2 * 0.8}),
        ("rbp@1", {"u1": 0.2, "u2": 0.0}),
    ],
)
def test_rbp_by_hand(metric: str, expected: dict[str, float]) -> None:
    values = _per_user(RECOMMENDATIONS, INTERACTIONS, metric)
    assert values.keys() == expected.keys()
    for user, value in expected.items():
        assert math.isclose(values[user], value, rel_tol=0, abs_tol=TOLERANCE), (metric, user, values[user], value)


def test_err_by_hand() -> None:
    # R = (2^g - 1) / 2^3: a 7/8, c 1/8, d 0; x 1/8.
    # u1: 7/8 at rank 1, then c at rank 3 reached past a with 1 - 7/8 (b stops no one): 7/8 + (1/3)(1/8)(1/8)
    # u2: x at rank 2, w not judged: (1/2)(1/8)
    expected = {"err": {"u1": 7 / 8 + 1 / 192, "u2": 1 / 16}, "err@2": {"u1": 7 / 8, "u2": 1 / 16}}
    for metric, by_user in expected.items():
        values = _per_user(RECOMMENDATIONS, INTERACTIONS, metric)
        assert values.keys() == by_user.keys()
        for user, value in by_user.items():
            assert math.isclose(values[user], value, rel_tol=0, abs_tol=TOLERANCE), (metric, user, values[user], value)


def test_err_items_sharing_a_rank_see_the_same_items_before_them() -> None:
    # scores tie b and c at positions 2 and 3: both at rank 2 (ties='shared'),
    # each reached past a only; relevance 1 of largest 1: R = 1/2 for each
    recommendations = pd.DataFrame({"user_id": ["u"] * 3, "item_id": ["a", "b", "c"], "score": [3.0, 2.0, 2.0]})
    interactions = pd.DataFrame({"user_id": ["u"] * 3, "item_id": ["a", "b", "c"]})
    table = rankwise.evaluate(recommendations, interactions, ["err"], score_col="score", ties="shared", per_user=True)
    assert math.isclose(table.value[0], 1 / 2 + 2 * (1 / 2) * (1 / 2) / 2, rel_tol=0, abs_tol=TOLERANCE)


def _err_by_products(grades: list[float], max_grade: float) -> float:
    """ERR of one list of grades by rank, multiplying the chances of reading on."""
    value, reaching = 0.0, 1.0
    for rank, grade in enumerate(grades, start=1):
        stop = (2.0**grade - 1.0) / 2.0**max_grade if grade > 0 else 0.0
        value += reaching * stop / rank
        reaching *= 1.0 - stop
    return value


@pytest.mark.parametrize("max_grade", [1, 4, 10, 60])
def test_err_sums_of_logarithms_are_the_products_of_a_direct_loop(max_grade: int) -> None:
    draw = random.Random(max_grade)
    recommendations, interactions, grades_of = [], [], {}
    for user in range(40):
        grades = [draw.choice([0, 1, max_grade - 1, max_grade, None]) for _ in range(draw.randint(1, 15))]
        grades_of[str(user)] = [grade or 0 for grade in grades]
        for rank, grade in enumerate(grades, start=1):
            recommendations.append((str(user), f"i{rank}", rank))
            if grade is not None:
                interactions.append((str(user), f"i{rank}", grade))
    interactions.append(("truth", "top", max_grade))  # the largest relevance is max_grade for every list
    values = _per_user(recommendations, interactions, "err", users="both")
    # users='both': the users with a list and a judged item, not "truth"
    assert values.keys() == {user for user, _, _ in interactions} - {"truth"}
    for user, value in values.items():
        expected = _err_by_products(grades_of[user], max_grade)
        assert math.isclose(value, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE), (user, value, expected)
