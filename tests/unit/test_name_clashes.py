"""Engines match column names case-insensitively, so rankwise checks clashes with
its output columns the same way: 'K' is k, 'Value' is value."""

from __future__ import annotations

import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError

RECOMMENDATIONS = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "rank": [1, 2]})
INTERACTIONS = pd.DataFrame({"user_id": ["u1"], "item_id": ["b"]})


@pytest.mark.parametrize("column", ["K", "Value", "METRIC", "Metric_Label", "N_Users", "Item_ID", "RW_model"])
def test_a_group_column_named_like_an_output_column_in_any_case_is_refused(column):
    recommendations = RECOMMENDATIONS.assign(**{column: "x"})
    with pytest.raises(InvalidArgumentError, match=f"group_by column '{column}' clashes"):
        rankwise.evaluate(recommendations, INTERACTIONS, ["map"], group_by=column)


@pytest.mark.parametrize("column", ["Metric", "VALUE", "k", "metric_label"])
def test_a_user_column_named_like_an_output_column_in_any_case_is_refused(column):
    with pytest.raises(InvalidArgumentError, match=f"`user_col` may not be named '{column}'"):
        rankwise.evaluate(RECOMMENDATIONS.rename(columns={"user_id": column}),
                          INTERACTIONS.rename(columns={"user_id": column}), ["map"], user_col=column, per_user=True)


def test_the_same_group_column_in_two_cases_is_listed_twice():
    with pytest.raises(InvalidArgumentError, match="group_by lists column 'MODEL' twice"):
        rankwise.evaluate(RECOMMENDATIONS.assign(model="m"), INTERACTIONS, ["map"], group_by=["model", "MODEL"])


def test_a_group_column_that_only_contains_an_output_name_is_fine():
    result = rankwise.evaluate(RECOMMENDATIONS.assign(k_fold=1), INTERACTIONS, ["map"], group_by="k_fold")
    # u1's only relevant item b is at rank 2: AP = (1/2) / 1
    assert result["value"].tolist() == [0.5]
