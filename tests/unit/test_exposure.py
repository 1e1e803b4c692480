"""exposure_gini, exposure_disparity and exposure_by_item_group on examples
worked by hand (docs/metrics.md, "Exposure"), and their refusals."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError, InvalidValueError, MissingColumnError
from tests.reference import exposure as reference

L = 1 / math.log2(3)  # the DCG weight of rank 2
RECOMMENDATIONS = pd.DataFrame({"user_id": ["u1", "u1", "u2", "u2", "u3"], "item_id": ["a", "x", "a", "y", "b"],
                                "rank": [1, 2, 1, 2, 1]})
INTERACTIONS = pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "b", "c"]})
ITEMS = pd.DataFrame({"item_id": list("abcdxy"), "group": list("ppqqrr")})


def _values(**options) -> dict[str, float]:
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["exposure_gini", "exposure_disparity"], k=[1, 2],
                              items=ITEMS, item_group_col="group", **options)
    return dict(zip(table["metric_label"], table["value"]))


def test_the_worked_examples() -> None:
    values = _values()
    # exposures a 2, b 1, x = y = L, c = d = 0, ascending 0 0 L L 1 2
    assert values["exposure_gini@2"] == pytest.approx((-L + L + 3 + 10) / (6 * (3 + 2 * L)), abs=1e-12)
    assert values["exposure_gini@2"] == pytest.approx(0.508385, abs=1e-6)
    # @1: a 2, b 1: ascending 0 0 0 0 1 2
    assert values["exposure_gini@1"] == pytest.approx((3 + 10) / (6 * 3), abs=1e-12)
    assert values["exposure_disparity@1"] == pytest.approx(1 / 3, abs=1e-12)
    assert values["exposure_disparity@2"] == pytest.approx(1 / 3, abs=1e-12)


def test_rbp_weights_and_a_persistence_of_one_is_gini() -> None:
    half = _values(exposure_model="rbp", exposure_persistence=0.5)
    # a 2, b 1, x = y = 0.5: ascending 0 0 .5 .5 1 2
    assert half["exposure_gini@2"] == pytest.approx((-0.5 + 0.5 + 3 + 10) / (6 * 4), abs=1e-12)
    gini = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["gini@2"], items=ITEMS)["value"].iloc[0]
    assert _values(exposure_model="rbp", exposure_persistence=1)["exposure_gini@2"] == pytest.approx(gini, abs=1e-12)


def test_the_table_by_item_group() -> None:
    table = rankwise.exposure_by_item_group(RECOMMENDATIONS, INTERACTIONS, ITEMS, 2, item_group_col="group")
    assert list(table.columns) == ["k", "item_group", "n_items", "exposure", "exposure_share", "n_relevant_pairs",
                                   "relevance_share", "exposure_ratio"]
    rows = table.set_index("item_group")
    assert rows.loc["p", "exposure"] == pytest.approx(3)
    assert rows.loc["p", "exposure_share"] == pytest.approx(3 / (3 + 2 * L), abs=1e-12)
    assert rows.loc["q", "exposure_share"] == 0 and rows.loc["q", "relevance_share"] == pytest.approx(1 / 3)
    assert rows.loc["q", "exposure_ratio"] == 0
    assert pd.isna(rows.loc["r", "exposure_ratio"])  # no relevant pair in r
    assert list(rows["n_items"]) == [2, 2, 2] and list(rows["n_relevant_pairs"]) == [2, 1, 0]
    assert 0.5 * (rows["exposure_share"] - rows["relevance_share"]).abs().sum() == pytest.approx(1 / 3, abs=1e-12)
    expected = reference.by_item_group(RECOMMENDATIONS, INTERACTIONS, ITEMS, "group", 2)
    assert [row["exposure_share"] for row in expected] == pytest.approx(list(rows["exposure_share"]), abs=1e-12)


def test_without_relevant_pairs_there_is_no_disparity() -> None:
    interactions = INTERACTIONS.assign(relevance=0.0)
    table = rankwise.evaluate(RECOMMENDATIONS, interactions, ["exposure_disparity@2"], items=ITEMS,
                              item_group_col="group", relevance_col="relevance")
    assert pd.isna(table["value"].iloc[0])


@pytest.mark.parametrize(("items", "interactions", "problem"), [
    (pd.concat([ITEMS, pd.DataFrame({"item_id": ["a"], "group": ["q"]})]), INTERACTIONS, "item_in_two_groups"),
    (ITEMS.assign(group=["p", "p", None, "q", "r", "r"]), INTERACTIONS, "null_item_group"),
    (ITEMS[ITEMS.item_id != "c"], INTERACTIONS, "relevant_item_not_in_catalog"),
])
def test_bad_item_groups_are_refused(items: pd.DataFrame, interactions: pd.DataFrame, problem: str) -> None:
    with pytest.raises(InvalidValueError) as raised:
        rankwise.evaluate(RECOMMENDATIONS, interactions, ["exposure_disparity@2"], items=items, item_group_col="group")
    assert raised.value.problem == problem
    assert ("interactions" if problem == "relevant_item_not_in_catalog" else "items") in str(raised.value)


def test_the_item_group_column_is_asked_for_and_read() -> None:
    with pytest.raises(InvalidArgumentError, match="give `item_group_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["exposure_disparity@2"], items=ITEMS)
    with pytest.raises(InvalidArgumentError, match="`item_group_col` is given"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["exposure_gini@2"], items=ITEMS, item_group_col="group")
    with pytest.raises(MissingColumnError, match="'grp'"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["exposure_disparity@2"], items=ITEMS, item_group_col="grp")
    with pytest.raises(InvalidArgumentError, match="exposure_persistence"):
        _values(exposure_model="rbp", exposure_persistence=1.5)


def test_the_table_by_item_group_names_itself_in_the_planners_errors() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^rankwise\.exposure_by_item_group: argument `k` must be a positive"):
        rankwise.exposure_by_item_group(RECOMMENDATIONS, INTERACTIONS, ITEMS, 0, item_group_col="group")
    with pytest.raises(InvalidArgumentError, match=r"^rankwise\.exposure_by_item_group: `item_group_col` is the item column"):
        rankwise.exposure_by_item_group(RECOMMENDATIONS, INTERACTIONS, ITEMS, 2, item_group_col="item_id")
