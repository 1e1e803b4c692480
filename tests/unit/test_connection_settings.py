"""No setting of a caller's connection changes a number: rankwise's SQL spells out
every order direction and null order it depends on. The same evaluation runs on
a fresh connection and on one with each setting changed."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError

RECOMMENDATIONS = pd.DataFrame({
    "model": ["a"] * 7 + ["b"] * 3,
    "user_id": ["u1", "u1", "u1", "u1", "u2", "u2", "u2", "u1", "u1", "u2"],
    "item_id": ["i1", "i2", "i3", "i4", "i1", "i5", "i6", "i4", "i2", "i6"],
    "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.9, 0.1, 0.3, 0.3, 0.2],
})
INTERACTIONS = pd.DataFrame({
    "user_id": ["u1", "u1", "u2", "u2", "u3"],
    "item_id": ["i2", "i4", "i6", "i7", "i1"],
    "relevance": [1.0, 3.0, 2.0, 1.0, 1.0],
})
METRICS = ["map", "map@2", "mrr", "ndcg@3", "precision@2", "recall", "r_precision", "map_to_full_recall", "entropy@2"]

SETTINGS = [
    "SET default_order = 'DESC'",
    "SET default_null_order = 'NULLS_FIRST'",
    "SET default_null_order = 'NULLS_LAST_ON_ASC_FIRST_ON_DESC'",
]


def _evaluate(con=None, metrics=METRICS, **options):
    return rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, score_col="score", relevance_col="relevance",
                             group_by="model", con=con, **options)


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("per_user", [False, True])
def test_a_connection_setting_changes_no_number_and_no_order(setting, per_user):
    options = {"per_user": True, "metrics": [m for m in METRICS if not m.startswith("entropy")]} if per_user else {}
    expected = _evaluate(**options)
    connection = duckdb.connect()
    connection.execute(setting)
    actual = _evaluate(con=connection, **options)
    # the same rows in the same order, to the last digit; the intervals' variance
    # adds the users' values in the order the join delivers them, which may
    # change the last bit
    intervals = [column for column in ("ci_low", "ci_high") if column in expected]
    pd.testing.assert_frame_equal(actual.drop(columns=intervals).reset_index(drop=True),
                                  expected.drop(columns=intervals).reset_index(drop=True), check_exact=True)
    pd.testing.assert_frame_equal(actual[intervals].reset_index(drop=True), expected[intervals].reset_index(drop=True),
                                  check_exact=False, rtol=0, atol=1e-15)


def test_the_fresh_connection_values_are_the_hand_worked_ones():
    """The reference the settings are compared with is itself right: model a, u1's
    list by score is i1, i2, i3, i4 with i2 (rel 1) and i4 (rel 3) relevant:
    AP = (1/2 + 2/4) / 2 = 0.5; u2's list is i5, i1, i6 with i6 relevant at rank 3
    of its 2 relevant items: AP = (1/3) / 2; u3 has truth but no list and
    scores 0 (the default population, every user with ground truth)."""
    result = _evaluate().set_index(["model", "metric", "k"])["value"]
    assert result[("a", "map", None)] == pytest.approx(((1 / 2 + 2 / 4) / 2 + (1 / 3) / 2 + 0) / 3, abs=1e-15)
    assert result[("a", "mrr", None)] == pytest.approx((1 / 2 + 1 / 3 + 0) / 3, abs=1e-15)


@pytest.mark.parametrize("entry_point", ["evaluate", "check"])
def test_a_text_collation_on_the_callers_connection_is_refused_not_applied(entry_point):
    """Under default_collation='nocase' the id 'B' would match 'b' (precision@4
    0.5 where the answer is 0.25); rankwise changes no setting of a connection it
    is given, so it refuses with the way out."""
    connection = duckdb.connect()
    connection.execute("SET default_collation = 'nocase'")
    recommendations = pd.DataFrame({"user_id": ["u"] * 4, "item_id": ["A", "B", "C", "D"], "rank": [1, 2, 3, 4]})
    interactions = pd.DataFrame({"user_id": ["u", "u"], "item_id": ["a", "B"]})
    call = {"evaluate": lambda: rankwise.evaluate(recommendations, interactions, ["precision@4"], con=connection),
            "check": lambda: rankwise.check(recommendations, interactions, con=connection)}[entry_point]
    with pytest.raises(InvalidArgumentError, match="default_collation is 'nocase'.*RESET default_collation"):
        call()
    connection.execute("RESET default_collation")
    if entry_point == "evaluate":
        # only B matches: 1 hit in 4
        assert call()["value"].tolist() == [0.25]


def test_integer_ids_are_not_concerned_by_a_text_collation():
    connection = duckdb.connect()
    connection.execute("SET default_collation = 'nocase'")
    recommendations = pd.DataFrame({"user_id": [1, 1], "item_id": [10, 20], "rank": [1, 2]})
    interactions = pd.DataFrame({"user_id": [1], "item_id": [20]})
    assert rankwise.evaluate(recommendations, interactions, ["mrr"], con=connection)["value"].tolist() == [0.5]
