"""user_group_col: every mean per user group (a column of the interactions),
a group of the output after group_by; the per-user metrics over the users
with a list (users='both' or 'relevant'); a user in two groups, a missing
column and a name the recommendations have too are refused."""

from __future__ import annotations

import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError, InvalidValueError, MissingColumnError

RECOMMENDATIONS = pd.DataFrame({"user_id": [1, 1, 2, 2, 3, 3], "item_id": ["a", "b", "a", "c", "b", "c"],
                                "rank": [1, 2, 1, 2, 1, 2]})
INTERACTIONS = pd.DataFrame({"user_id": [1, 2, 3, 4], "item_id": ["a", "c", "x", "a"],
                             "segment": ["niche", "niche", "blockbuster", "niche"]})
TRAIN = pd.DataFrame({"user_id": [1, 1, 2, 3, 3, 4], "item_id": ["a", "x", "a", "b", "c", "a"]})


def test_each_mean_is_over_the_users_of_one_group() -> None:
    # train popularity (share of the 4 train users): a 3/4, x 1/4, b 1/4, c 1/4.
    # user 1: list a, b (1/2), profile a, x (1/2): lift 0; user 2: a, c (1/2) vs a (3/4): -1/3;
    # user 3: b, c (1/4) vs b, c (1/4): 0
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["popularity_lift@2", "ndcg@2"], train=TRAIN,
                               user_group_col="segment", users="both")
    value = result.set_index(["segment", "metric"])["value"]
    assert value[("niche", "popularity_lift")] == pytest.approx((0 - 1 / 3) / 2, abs=1e-12)
    assert value[("blockbuster", "popularity_lift")] == pytest.approx(0.0, abs=1e-12)
    # each group's ndcg is that of its users alone
    for segment, users in (("niche", [1, 2]), ("blockbuster", [3])):
        alone = rankwise.evaluate(RECOMMENDATIONS[RECOMMENDATIONS["user_id"].isin(users)],
                                  INTERACTIONS[INTERACTIONS["user_id"].isin(users)], ["ndcg@2"], users="both",
                                  validate=False)
        assert value[(segment, "ndcg")] == pytest.approx(alone["value"].iloc[0], abs=1e-12)
    assert list(result.columns[:2]) == ["segment", "metric"]


def test_every_truth_user_is_refused_as_a_population() -> None:
    with pytest.raises(InvalidArgumentError, match="with `user_group_col`, .* give users='both' or users='relevant'"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2"], user_group_col="segment")


def test_a_user_in_two_groups_a_missing_column_and_a_shared_name_are_refused() -> None:
    twice = pd.concat([INTERACTIONS, pd.DataFrame({"user_id": [1], "item_id": ["b"], "segment": ["other"]})])
    with pytest.raises(InvalidValueError, match=r"users in two or more groups \(user_group_col\) in column 'segment'"):
        rankwise.evaluate(RECOMMENDATIONS, twice, ["ndcg@2"], user_group_col="segment", users="both")
    with pytest.raises(MissingColumnError, match="Name the right one with `user_group_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2"], user_group_col="segmnt", users="both")
    with pytest.raises(InvalidArgumentError, match="have a column 'segment' too"):
        rankwise.evaluate(RECOMMENDATIONS.assign(segment="x"), INTERACTIONS, ["ndcg@2"], user_group_col="segment",
                          users="both")
    with pytest.raises(InvalidArgumentError, match="is already the user, item, a group_by or a partition_by column"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2"], user_group_col="user_id", users="both")
    assert list(rankwise.check(RECOMMENDATIONS, twice, user_group_col="segment")["problem"])[0] == "user_in_two_groups"


def test_compare_does_not_take_user_groups_yet() -> None:
    with pytest.raises(InvalidArgumentError, match="`user_group_col` is not taken by compare yet"):
        rankwise.compare(RECOMMENDATIONS.assign(model="m"), INTERACTIONS, ["ndcg@2"], user_group_col="segment",
                         users="both")
