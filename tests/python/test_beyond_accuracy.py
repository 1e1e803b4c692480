"""The beyond-accuracy metrics on one example worked by hand, and how evaluate
refuses what they cannot compute. tests/crosscheck/test_beyond_accuracy.py
checks them on random cases against RecTools' code and reference
implementations.

The example, k = 3 (catalog a..f):

    lists   u1: a b c    u2: a b d    u3: a e f
    train   a by t1 t2 t3 t4, b by t1 t2, c by t1, d by t5, e by t5 twice
            (5 users, 10 rows); nobody interacted with f

    top-3 slots per item: a 3, b 2, c 1, d 1, e 1, f 1 (9 in all)
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise
from rankwise.errors import (
    ColumnTypeError,
    EmptyInputError,
    InvalidArgumentError,
    InvalidValueError,
    MissingColumnError,
    RankwiseWarning,
)

TOLERANCE = 1e-12

RECOMMENDATIONS = pd.DataFrame(
    [(user, item, rank) for user, items in {"u1": "abc", "u2": "abd", "u3": "aef"}.items()
     for rank, item in enumerate(items, start=1)],
    columns=["user_id", "item_id", "rank"])
INTERACTIONS = pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "d", "c"]})
TRAIN = pd.DataFrame(
    [("t1", "a"), ("t2", "a"), ("t3", "a"), ("t4", "a"), ("t1", "b"), ("t2", "b"), ("t1", "c"), ("t5", "d"),
     ("t5", "e"), ("t5", "e")], columns=["user_id", "item_id"])
ITEMS = pd.DataFrame({"item_id": list("abcdef")})


def _values(metrics: list[str], **options) -> dict[str, float]:
    names = {metric.split("@")[0] for metric in metrics}
    inputs = {**({"train": TRAIN} if names & {"novelty", "arp", "long_tail_share"} else {}),
              **({"items": ITEMS} if names & {"coverage", "gini"} else {})}
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, **inputs, **options)
    return dict(zip(table["metric_label"], table["value"]))


def test_coverage_counts_the_catalog_items_shown_in_the_top_k() -> None:
    values = _values(["coverage@1", "coverage@3"])
    assert values["coverage@1"] == pytest.approx(1 / 6, abs=TOLERANCE)  # only a
    assert values["coverage@3"] == pytest.approx(6 / 6, abs=TOLERANCE)


def test_gini_pads_the_counts_with_the_catalog_items_never_shown() -> None:
    values = _values(["gini@1", "gini@3"])
    # @1: counts ascending 0 0 0 0 0 3, n = 6: (2*6 - 6 - 1) * 3 / (6 * 3) = 5/6, one item takes every slot
    assert values["gini@1"] == pytest.approx(5 / 6, abs=TOLERANCE)
    # @3: counts 1 1 1 1 2 3: (-5 - 3 - 1 + 1 + 3*2 + 5*3) / (6 * 9) = 13/54
    assert values["gini@3"] == pytest.approx(13 / 54, abs=TOLERANCE)


def test_personalization_is_one_minus_the_mean_overlap_of_the_pairs_of_lists() -> None:
    # pairs share u1-u2 {a, b}, u1-u3 {a}, u2-u3 {a}: mean overlap (2/3 + 1/3 + 1/3) / 3 = 4/9
    assert _values(["personalization@3"])["personalization@3"] == pytest.approx(5 / 9, abs=TOLERANCE)
    # top 1: every pair shares a
    assert _values(["personalization@1"])["personalization@1"] == pytest.approx(0.0, abs=TOLERANCE)


def test_novelty_is_the_mean_self_information_of_the_items_and_an_unseen_item_counts_as_one_user() -> None:
    per_user = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["novelty@3"], train=TRAIN, per_user=True)
    # users of a, b, c, d, e: 4, 2, 1, 1, 1 of 5; f none, counted as 1
    u1 = (math.log2(5 / 4) + math.log2(5 / 2) + math.log2(5 / 1)) / 3
    u3 = (math.log2(5 / 4) + math.log2(5 / 1) + math.log2(5 / 1)) / 3
    assert dict(zip(per_user["user_id"], per_user["value"])) == pytest.approx({"u1": u1, "u2": u1, "u3": u3}, abs=TOLERANCE)
    assert list(per_user["n_recommended"]) == [3, 3, 3]
    # the mean: (2 log2(125/8) + log2(125/4)) / 9 = log2(5) - 8/9
    assert _values(["novelty@3"])["novelty@3"] == pytest.approx(math.log2(5) - 8 / 9, abs=TOLERANCE)


def test_arp_is_the_mean_popularity_of_the_list_by_users_or_by_interactions() -> None:
    # by users: u1 (4 + 2 + 1) / 5 / 3 = 7/15, u2 the same, u3 (4 + 1 + 0) / 5 / 3 = 5/15
    assert _values(["arp@3"])["arp@3"] == pytest.approx((7 + 7 + 5) / 45, abs=TOLERANCE)
    # by rows (RecTools): a 4, b 2, c 1, d 1, e 2 of 10: u1 0.7/3, u2 0.7/3, u3 0.6/3
    assert _values(["arp@3"], convention="rectools")["arp@3"] == pytest.approx(2.0 / 9, abs=TOLERANCE)
    assert _values(["arp@3"], arp_popularity="interactions")["arp@3"] == pytest.approx(2.0 / 9, abs=TOLERANCE)


def test_long_tail_share_is_the_share_of_the_list_outside_the_head() -> None:
    # rows: a 4, then b and e 2 each, then c and d 1 each, of 10.
    # head_share 0.8 (8 rows): a (0 before it), b and e (4 before them) are the head; c, d (8 before) and f are not
    assert _values(["long_tail_share@3"])["long_tail_share@3"] == pytest.approx(1 / 3, abs=TOLERANCE)
    # head_share 0.4 (4 rows): only a; b, e tied at 4 before them are both out
    assert _values(["long_tail_share@3"], head_share=0.4)["long_tail_share@3"] == pytest.approx(2 / 3, abs=TOLERANCE)


def test_the_list_level_means_have_a_t_interval_and_no_count_of_missing_lists() -> None:
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["arp@3"], train=TRAIN)
    (row,) = table.itertuples()
    values = [7 / 15, 7 / 15, 5 / 15]
    mean = sum(values) / 3
    half_width = 4.302652729911275 * math.sqrt(sum((v - mean) ** 2 for v in values) / 2) / math.sqrt(3)
    assert (row.n_users, row.ci_low, row.ci_high) == pytest.approx((3, mean - half_width, mean + half_width), abs=1e-9)
    assert pd.isna(row.n_users_without_list)


def test_the_metrics_group_by_model() -> None:
    recommendations = pd.concat([RECOMMENDATIONS.assign(model="m1"),
                                 RECOMMENDATIONS[RECOMMENDATIONS["rank"] == 1].assign(model="m2")])
    table = rankwise.evaluate(recommendations, INTERACTIONS, ["coverage@3", "arp@3"], group_by="model",
                              items=ITEMS, train=TRAIN)
    values = {(row.model, row.metric): row.value for row in table.itertuples()}
    assert values == pytest.approx({("m1", "coverage"): 1.0, ("m1", "arp"): 19 / 45,
                                    ("m2", "coverage"): 1 / 6, ("m2", "arp"): 4 / 5}, abs=TOLERANCE)


@pytest.mark.parametrize(("metrics", "given", "message"), [
    (["coverage@3"], {}, r"coverage needs the `items` input \(the catalog"),
    (["gini@3", "coverage@3"], {"train": TRAIN}, r"gini, coverage need the `items` input"),
    (["novelty@3", "arp"], {"items": ITEMS}, r"novelty, arp need the `train` input \(the interactions the model was trained on"),
])
def test_a_metric_without_its_input_is_refused_by_name(metrics: list[str], given: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, **given)


@pytest.mark.parametrize(("arguments", "message"), [
    (dict(metrics=["personalization"]), r"personalization needs a cutoff"),
    (dict(metrics=["gini@3"], items=ITEMS, bootstrap_resamples=10), r"gini has none yet"),
    (dict(metrics=["coverage@3"], items=ITEMS, per_user=True), r"coverage has one value per group, not per user"),
    (dict(metrics=["long_tail_share@3"], train=TRAIN, head_share=0), r"`head_share` must be a number above 0 and at most 1"),
    (dict(metrics=["novelty@3"], train=TRAIN, novelty_popularity="items"), r"`novelty_popularity` must be one of 'users', 'interactions'"),
])
def test_invalid_beyond_accuracy_arguments_are_refused(arguments: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, **arguments)


def test_compare_refuses_the_list_level_metrics() -> None:
    recommendations = pd.concat([RECOMMENDATIONS.assign(model="m1"), RECOMMENDATIONS.assign(model="m2")])
    with pytest.raises(InvalidArgumentError, match=r"novelty is averaged over each model's lists"):
        rankwise.compare(recommendations, INTERACTIONS, ["novelty@3"], model_col="model")


def test_recommended_items_missing_from_the_catalog_are_refused() -> None:
    with pytest.raises(InvalidValueError, match=r"rankwise: 2 rows of the recommendations \(DataFrame\) have recommended "
                                                r"items that are not in the catalog \(`items`\) in column 'item_id' \(for example e\)"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["coverage@3"], items=ITEMS[ITEMS["item_id"] < "e"])


@pytest.mark.parametrize(("given", "error", "message"), [
    (dict(items=ITEMS.iloc[:0]), EmptyInputError, r"the items \(DataFrame\) is empty"),
    (dict(items=ITEMS.rename(columns={"item_id": "item"})), MissingColumnError, r"column 'item_id' \(the item id\) is not in the items \(DataFrame\)\. Did you mean 'item'\?"),
    (dict(items=pd.DataFrame({"item_id": list("abcdef") + [None]})), InvalidValueError, r"null item ids"),
    (dict(train=TRAIN.assign(user_id=None)), InvalidValueError, r"rows of the train \(DataFrame\) have null user ids"),
    (dict(train=TRAIN.assign(item_id=range(len(TRAIN)))), ColumnTypeError, r"item id column 'item_id' is VARCHAR in the recommendations"),
])
def test_a_bad_catalog_or_train_table_gets_a_clear_error(given: dict, error: type, message: str) -> None:
    metrics = ["coverage@3"] if "items" in given else ["novelty@3"]
    with pytest.raises(error, match=message):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, **given)


def test_an_input_no_metric_reads_is_a_warning() -> None:
    with pytest.warns(RankwiseWarning, match=r"`train` is given but none of the metrics asked reads it"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["coverage@3"], items=ITEMS, train=TRAIN)


def test_each_partition_reads_its_own_train_interactions() -> None:
    """Fold 2 trains on other interactions: its popularity, and so its values,
    are those of evaluating fold 2 alone."""
    other_train = pd.DataFrame({"user_id": ["t8", "t9", "t9"], "item_id": ["f", "f", "b"]})
    recommendations = pd.concat([RECOMMENDATIONS.assign(fold=1), RECOMMENDATIONS.assign(fold=2)])
    interactions = pd.concat([INTERACTIONS.assign(fold=1), INTERACTIONS.assign(fold=2)])
    train = pd.concat([TRAIN.assign(fold=1), other_train.assign(fold=2)])
    metrics = ["novelty@3", "arp@3", "long_tail_share@2"]
    table = rankwise.evaluate(recommendations, interactions, metrics, partition_by="fold", train=train)
    for fold, fold_train in ((1, TRAIN), (2, other_train)):
        alone = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, train=fold_train)
        rows = table[table["fold"] == fold]
        assert list(rows["metric_label"]) == list(alone["metric_label"])
        assert list(rows["value"]) == pytest.approx(list(alone["value"]), abs=TOLERANCE)
    # fold 2: users of a, b, c, d, e, f are 0, 1, 0, 0, 0, 2 of 2; arp of u1 = (0 + 1/2 + 0) / 3
    assert table[(table["fold"] == 2) & (table["metric"] == "arp")]["value"].item() == pytest.approx(
        (0.5 / 3 + 0.5 / 3 + 1 / 3) / 3, abs=TOLERANCE)


def test_a_train_table_without_the_partition_columns_is_refused() -> None:
    recommendations = RECOMMENDATIONS.assign(fold=1)
    with pytest.raises(MissingColumnError, match=r"column 'fold' \(the partition_by column\) is not in the train"):
        rankwise.evaluate(recommendations, INTERACTIONS.assign(fold=1), ["arp@3"], partition_by="fold", train=TRAIN)
