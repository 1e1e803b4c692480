"""The beyond-accuracy metrics on one example worked by hand, and how evaluate
refuses what they cannot compute. tests/crosscheck/test_beyond_accuracy.py
checks them on random cases against RecTools' code and reference
implementations.

The example, k = 3 (catalog a..f):

    lists   u1: a b c    u2: a b d    u3: a e f
    train   a by t1 t2 t3 t4, b by t1 t2, c by t1, d by t5, e by t5 twice
            (5 users, 10 rows); nobody interacted with f

    top-3 slots per item: a 3, b 2, c 1, d 1, e 1, f 1 (9 in all)

The catalog's features, for intra_list_diversity:

    item     a      b      c      d      e       f
    genre    x      x      y      y      z       z
    era      1      2      1      2      1       2
    vector   (1,0)  (0,1)  (1,1)  (2,0)  (-1,0)  (0,2)
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise
from rankwise._plan import macro_arguments, plan_of
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
FEATURES = ITEMS.assign(genre=list("xxyyzz"), era=[1, 2, 1, 2, 1, 2],
                        vector=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [-1.0, 0.0], [0.0, 2.0]])


def _values(metrics: list[str], **options) -> dict[str, float]:
    """The means of `metrics`, given the inputs they read under `options` (as
    the plan says, which the wrapper warns by)."""
    arguments = macro_arguments("evaluate", metrics, None, None, False, options)
    read = set(plan_of("evaluate", arguments, items=True, train=True).inputs_read)
    inputs = {role: table for role, table in (("train", TRAIN), ("items", ITEMS)) if role in read}
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


def test_serendipity_scores_the_relevant_items_the_list_ranks_above_their_popularity() -> None:
    """RecTools' serendipity over the catalog of N = 6 items: a relevant item
    scores max(0, (N + 1 - rank) / N - (N + 1 - popularity rank) / N), its
    popularity rank the place of its train rows among the distinct counts
    (a 4 rows: 1; b and e 2: 2; c and d 1: 3), 0 for an item not in train (f)."""
    recommendations = pd.DataFrame({"user_id": ["u1"] * 3 + ["u2"] * 2, "item_id": ["c", "a", "b", "a", "f"],
                                    "rank": [1, 2, 3, 1, 2]})
    interactions = pd.DataFrame({"user_id": ["u1", "u1", "u2", "u2"], "item_id": ["c", "b", "f", "a"]})
    per_user = rankwise.evaluate(recommendations, interactions, ["serendipity@1", "serendipity@3"], items=ITEMS,
                                 train=TRAIN, per_user=True)
    values = {(row.user_id, row.k): row.value for row in per_user.itertuples()}
    # u1: c at 1 is relevant, 6/6 - 4/6 = 1/3; a at 2 is not; b at 3 is, 4/6 - 5/6 < 0 gives 0
    # u2: a at 1, 6/6 - 6/6 = 0; f at 2, 5/6 - 0 (nobody interacted with f)
    assert values == pytest.approx({("u1", 1): 1 / 3, ("u1", 3): 1 / 9, ("u2", 1): 0.0, ("u2", 3): 5 / 12},
                                   abs=TOLERANCE)
    means = rankwise.evaluate(recommendations, interactions, ["serendipity@3"], items=ITEMS, train=TRAIN)
    assert means["value"].item() == pytest.approx((1 / 9 + 5 / 12) / 2, abs=TOLERANCE)


def test_serendipity_reads_one_relevance_per_shown_item_beside_the_accuracy_metrics() -> None:
    """The same lists as above, graded: b is listed twice for u1, once irrelevant,
    once relevant; under duplicate_interactions='max' it counts once, as relevant
    (as in the table above, 1/9 for u1). c below the threshold of 2 is not
    relevant, so u1's c at 1 scores nothing: (0 + 0 + 0) / 3."""
    recommendations = pd.DataFrame({"user_id": ["u1"] * 3 + ["u2"] * 2, "item_id": ["c", "a", "b", "a", "f"],
                                    "rank": [1, 2, 3, 1, 2]})
    interactions = pd.DataFrame({"user_id": ["u1", "u1", "u1", "u2", "u2"], "item_id": ["c", "b", "b", "f", "a"],
                                 "relevance": [1, 0, 3, 2, 2]})
    options = dict(items=ITEMS, train=TRAIN, relevance_col="relevance", duplicate_interactions="max", per_user=True)
    table = rankwise.evaluate(recommendations, interactions, ["serendipity@3", "precision@3"], **options)
    values = {(row.user_id, row.metric): row.value for row in table.itertuples()}
    assert values == pytest.approx({("u1", "serendipity"): 1 / 9, ("u2", "serendipity"): 5 / 12,
                                    ("u1", "precision"): 2 / 3, ("u2", "precision"): 2 / 3}, abs=TOLERANCE)
    above_one = rankwise.evaluate(recommendations, interactions, ["serendipity@3"], relevance_threshold=2, **options)
    assert dict(zip(above_one["user_id"], above_one["value"])) == pytest.approx({"u1": 0.0, "u2": 5 / 12},
                                                                                 abs=TOLERANCE)


def _diversity(k: int, **options) -> dict[str, float]:
    inputs = {"train": TRAIN} if options.get("item_distance") == "cooccurrence" else {"items": FEATURES}
    per_user = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, [f"intra_list_diversity@{k}"], per_user=True,
                                 **inputs, **options)
    return dict(zip(per_user["user_id"], per_user["value"]))


def test_intra_list_diversity_by_the_cosine_of_the_item_vectors() -> None:
    # abc: a-b orthogonal 1, a-c and b-c 1 - 1/sqrt(2); abd: a-b 1, a-d and b-d... a-d 0, b-d 1; aef: a-e 2, a-f 1, e-f 1
    expected = {"u1": (3 - math.sqrt(2)) / 3, "u2": 2 / 3, "u3": 4 / 3}
    assert _diversity(3, item_vector_col="vector") == pytest.approx(expected, abs=TOLERANCE)
    # the vectors as columns of numbers give the same distances
    columns = FEATURES.assign(x=[1.0, 0, 1, 2, -1, 0], y=[0.0, 1, 1, 0, 0, 2])
    per_user = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intra_list_diversity@3"], items=columns,
                                 item_feature_cols=["x", "y"], per_user=True)
    assert dict(zip(per_user["user_id"], per_user["value"])) == pytest.approx(expected, abs=TOLERANCE)
    means = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intra_list_diversity@3"], items=FEATURES,
                              item_vector_col="vector")
    assert means["value"].item() == pytest.approx((9 - math.sqrt(2)) / 9, abs=TOLERANCE)


def test_intra_list_diversity_by_hamming_counts_the_features_two_items_differ_in() -> None:
    # abc: a-b differ in era 1, a-c in genre 1, b-c in both 2; abd: 1, 2, 1; aef: 1, 2, 1
    assert _diversity(3, item_distance="hamming", item_feature_cols=["genre", "era"]) == pytest.approx(
        {"u1": 4 / 3, "u2": 4 / 3, "u3": 4 / 3}, abs=TOLERANCE)
    # top 2: one pair each, a-b, a-b, a-e, each differing in one feature
    assert _diversity(2, item_distance="hamming", item_feature_cols=["genre", "era"]) == pytest.approx(
        {"u1": 1.0, "u2": 1.0, "u3": 1.0}, abs=TOLERANCE)
    # Evidently divides by the list's items: 1 / 2; a list of one item has no pair and scores 0 there
    assert _diversity(2, item_distance="hamming", item_feature_cols=["genre", "era"],
                      diversity_denominator="list_length") == pytest.approx({"u1": 0.5, "u2": 0.5, "u3": 0.5},
                                                                             abs=TOLERANCE)
    assert _diversity(1, item_distance="hamming", item_feature_cols=["genre", "era"],
                      diversity_denominator="list_length") == pytest.approx({"u1": 0.0, "u2": 0.0, "u3": 0.0},
                                                                             abs=TOLERANCE)


def test_intra_list_diversity_leaves_out_a_list_without_a_pair() -> None:
    assert _diversity(1, item_vector_col="vector") == {}
    assert rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intra_list_diversity@1"], items=FEATURES,
                             item_vector_col="vector").empty


def test_intra_list_diversity_scores_a_list_of_one_item_0_with_single_item_diversity_zero() -> None:
    # RecTools' IntraListDiversity: 0 for a list without a pair, counted in the mean
    assert _diversity(1, item_vector_col="vector", single_item_diversity="zero") == {"u1": 0.0, "u2": 0.0, "u3": 0.0}
    assert _diversity(1, item_distance="hamming", item_feature_cols=["genre", "era"], convention="rectools") == {
        "u1": 0.0, "u2": 0.0, "u3": 0.0}
    # lists of two or more items are untouched: abc, abd, aef @3
    assert _diversity(3, item_vector_col="vector", single_item_diversity="zero") == pytest.approx(
        {"u1": (3 - math.sqrt(2)) / 3, "u2": 2 / 3, "u3": 4 / 3}, abs=TOLERANCE)
    means = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intra_list_diversity@1"], items=FEATURES,
                              item_vector_col="vector", single_item_diversity="zero")
    assert (means["value"].item(), means["n_users"].item()) == (0.0, 3)


def test_intra_list_diversity_by_cooccurrence_in_train() -> None:
    """Train users: a t1 t2 t3 t4, b t1 t2, c t1, d t5, e t5; nobody f. The
    distance is 1 - users of both / sqrt(users of each)."""
    a_b, a_c = 1 - 2 / math.sqrt(4 * 2), 1 - 1 / math.sqrt(4 * 1)
    b_c = 1 - 1 / math.sqrt(2 * 1)
    # abd: a-d and b-d share nobody; aef: e-f and a-f have f, whom nobody interacted with
    assert _diversity(3, item_distance="cooccurrence") == pytest.approx(
        {"u1": (a_b + a_c + b_c) / 3, "u2": (a_b + 1 + 1) / 3, "u3": 1.0}, abs=TOLERANCE)
    assert rankwise.convention_options("recommenders")["item_distance"] == "cooccurrence"


@pytest.mark.parametrize(("arguments", "message"), [
    (dict(metrics=["intra_list_diversity@3"], items=FEATURES), r"item_distance='cosine' compares the items' vectors; give either `item_vector_col`"),
    (dict(metrics=["intra_list_diversity@3"], items=FEATURES, item_vector_col="vector", item_feature_cols=["era"]), r"not both"),
    (dict(metrics=["intra_list_diversity@3"], items=FEATURES, item_distance="hamming"), r"item_distance='hamming' counts the features"),
    (dict(metrics=["intra_list_diversity@3"], train=TRAIN, item_distance="cooccurrence", item_feature_cols="era"), r"reads no feature"),
    (dict(metrics=["ndcg@3"], item_vector_col="vector"), r"`item_vector_col` is given, but only intra_list_diversity reads"),
    (dict(metrics=["intra_list_diversity@3"], items=FEATURES, item_distance="jaccard", item_feature_cols="era"), r"`item_distance` must be one of 'cosine', 'hamming', 'cooccurrence'"),
    (dict(metrics=["intra_list_diversity@3"], items=FEATURES, item_feature_cols=["era", "era"], item_distance="hamming"), r"lists column 'era' twice"),
    (dict(metrics=["intra_list_diversity@3"], item_vector_col="vector"), r"intra_list_diversity needs the `items` input"),
    (dict(metrics=["intra_list_diversity@3"], item_distance="cooccurrence"), r"intra_list_diversity needs the `train` input"),
    (dict(metrics=["serendipity@3"], train=TRAIN), r"serendipity needs the `items` input"),
])
def test_invalid_diversity_arguments_are_refused(arguments: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, **arguments)


@pytest.mark.parametrize(("items", "options", "error", "message"), [
    (FEATURES.assign(vector=[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [2.0, 0.0], [-1.0, 0.0], [0.0, 2.0]]), {},
     InvalidValueError, r"1 rows of the items \(DataFrame\) have items whose vector is all zeros in column 'vector' \(for example c\)"),
    (FEATURES.assign(vector=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0, 1.0], [2.0, 0.0], [-1.0, 0.0], [0.0, 2.0]]), {},
     InvalidValueError, r"5 rows of the items \(DataFrame\) have vectors of another length than the longest"),
    (FEATURES.assign(vector=[[1.0, 0.0], None, [1.0, 1.0], [2.0, 0.0], [-1.0, 0.0], [0.0, 2.0]]), {},
     InvalidValueError, r"items with a null feature in column 'vector' \(for example b\)"),
    (pd.concat([FEATURES, FEATURES.iloc[:1]]), {}, InvalidValueError, r"items listed twice in column 'item_id' \(for example a\)"),
    (FEATURES.assign(vector="1,0"), {}, ColumnTypeError, r"item vector column 'vector' of the items \(DataFrame\) is VARCHAR"),
    (FEATURES, {"item_vector_col": None, "item_feature_cols": ["genre"]}, ColumnTypeError,
     r"item feature column 'genre' of the items \(DataFrame\) is VARCHAR, but item_distance='cosine' makes a vector"),
    (FEATURES, {"item_vector_col": None, "item_feature_cols": ["colour"], "item_distance": "hamming"}, MissingColumnError,
     r"column 'colour' \(the item feature\) is not in the items"),
])
def test_bad_item_features_get_a_clear_error(items: pd.DataFrame, options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["intra_list_diversity@3"], items=items,
                          **{"item_vector_col": "vector", **options})


def test_the_evidently_and_recommenders_variants_of_coverage_gini_and_novelty() -> None:
    """Train items a..e (5; f unseen); top-3 counts a 3, b 2, c d e f 1."""
    evidently = _values(["coverage@1", "coverage@3", "gini@1", "gini@3", "novelty@3"], convention="evidently")
    # the train items shown: @1 a of 5, @3 all 5 (f is not a train item)
    assert evidently["coverage@1"] == pytest.approx(1 / 5, abs=TOLERANCE)
    assert evidently["coverage@3"] == pytest.approx(5 / 5, abs=TOLERANCE)
    # over the 6 items shown, counts 1 1 1 1 2 3: (-5 - 3 - 1 + 1 + 3*2 + 5*3) / ((6 - 1) * 9); @1 one item, 0/0
    assert evidently["gini@3"] == pytest.approx(13 / 45, abs=TOLERANCE)
    assert math.isnan(evidently["gini@1"])
    # f dropped: u3's mean is over a and e; users of a 4, b 2, c d e 1 of 5
    u1 = (math.log2(5 / 4) + math.log2(5 / 2) + math.log2(5)) / 3
    assert evidently["novelty@3"] == pytest.approx((2 * u1 + (math.log2(5 / 4) + math.log2(5)) / 2) / 3, abs=TOLERANCE)
    recommenders = _values(["coverage@3", "novelty@3"], convention="recommenders")
    # 6 items shown over 5 train items
    assert recommenders["coverage@3"] == pytest.approx(6 / 5, abs=TOLERANCE)
    # rows a 4, b 2, c 1, d 1, e 2 of 10; f adds 0
    u1 = (math.log2(10 / 4) + math.log2(10 / 2) + math.log2(10)) / 3
    u2 = (math.log2(10 / 4) + math.log2(10 / 2) + math.log2(10)) / 3
    u3 = (math.log2(10 / 4) + math.log2(10 / 2) + 0) / 3
    assert recommenders["novelty@3"] == pytest.approx((u1 + u2 + u3) / 3, abs=TOLERANCE)
    # the options one by one, over rankwise's defaults
    assert _values(["gini@3"], gini_items="shown")["gini@3"] == pytest.approx(13 / 45, abs=TOLERANCE)
    assert _values(["coverage@3"], coverage_of="train_item_count")["coverage@3"] == pytest.approx(6 / 5, abs=TOLERANCE)


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


def test_compare_pairs_the_lists_with_a_value_under_both_models() -> None:
    """arp@2 by hand: of 4 train users, a had 2, b and d 1, c none. m1 gives u1
    (a, b) 0.375, u2 (a, c) 0.25, u3 (c, d) 0.125; m2 gives u1 (b, c) 0.125,
    u2 (a, d) 0.375, and u3 one item at rank 3, so no value at 2: u3 is in no
    difference, nor u4, whose list under m1 is one item at rank 3. m2 - m1: -0.25 and 0.125, mean -0.0625, sd 0.2652 (sqrt of
    0.0703125), t = -0.0625 / (sd / sqrt(2)) = -1/3."""
    # here, not at the top: every xdist worker collects this file, and only this test needs
    # scipy, whose import is among the slowest of the lane
    import scipy.stats

    recommendations = pd.DataFrame(
        [("m1", "u1", "a", 1), ("m1", "u1", "b", 2), ("m1", "u2", "a", 1), ("m1", "u2", "c", 2), ("m1", "u3", "c", 1),
         ("m1", "u3", "d", 2), ("m2", "u1", "b", 1), ("m2", "u1", "c", 2), ("m2", "u2", "a", 1), ("m2", "u2", "d", 2),
         ("m2", "u3", "a", 3), ("m1", "u4", "a", 3), ("m2", "u4", "b", 1), ("m2", "u4", "a", 2)],
        columns=["model", "user_id", "item_id", "rank"])
    interactions = pd.DataFrame({"user_id": ["u1", "u2", "u3", "u4"], "item_id": ["a", "c", "d", "a"]})
    train = pd.DataFrame({"user_id": ["t1", "t2", "t3", "t4"], "item_id": ["a", "a", "b", "d"]})
    # at 5 every list has a value, and the lists of u3 and u4 have rows at 2, without a value there
    result = rankwise.compare(recommendations, interactions, ["arp@2", "arp@5"], baseline="m1", train=train)
    assert list(result["n_users"]) == [2, 4]
    row = result.iloc[0]
    assert (row["metric_label"], row["model"], row["baseline"], row["n_users"]) == ("arp@2", "m2", "m1", 2)
    assert (row["wins"], row["ties"], row["losses"]) == (1, 0, 1)
    assert row["mean"] == pytest.approx(0.25, abs=1e-15) and row["baseline_mean"] == pytest.approx(0.3125, abs=1e-15)
    assert row["diff"] == pytest.approx(-0.0625, abs=1e-15)
    assert row["t_statistic"] == pytest.approx(-1 / 3, abs=1e-12)
    assert row["p_value"] == pytest.approx(scipy.stats.ttest_rel([0.125, 0.375], [0.375, 0.25]).pvalue, abs=1e-9)


def test_a_comparison_of_lists_with_no_user_in_common_says_so() -> None:
    """m2's lists are for users m1 has none for: no user has a value under both."""
    recommendations = pd.concat([RECOMMENDATIONS.assign(model="m1"),
                                 RECOMMENDATIONS.assign(model="m2", user_id=RECOMMENDATIONS["user_id"] + "x")])
    with pytest.raises(InvalidArgumentError, match=r"nothing to compare: no pair of models \('m1', 'm2'\) has a user whose "
                                                   r"lists have a value under both models"):
        rankwise.compare(recommendations, INTERACTIONS, ["arp@2"], train=TRAIN)


def test_a_list_level_metric_has_no_better_side() -> None:
    """No margin (it reads lower as worse), and no letters of models beaten in
    the comparison table, where ndcg has them."""
    other = pd.DataFrame([(user, item, rank) for user, items in {"u1": "bca", "u2": "adb", "u3": "efa"}.items()
                          for rank, item in enumerate(items, start=1)], columns=["user_id", "item_id", "rank"])
    recommendations = pd.concat([RECOMMENDATIONS.assign(model="m1"), other.assign(model="m2")])
    with pytest.raises(InvalidArgumentError, match=r"`margin` tests that the model is no worse than the baseline, reading "
                                                   r"lower as worse; novelty has no better side"):
        rankwise.compare(recommendations, INTERACTIONS, ["novelty@3", "ndcg@3"], train=TRAIN, margin=0.01)
    result = rankwise.compare(recommendations, INTERACTIONS, ["novelty@2", "ndcg@3"], train=TRAIN, baseline="m1",
                              alpha=0.99, correction="none")
    assert result.set_index("metric")["significant"].all()
    table = rankwise.comparison_table(result).set_index("model")
    assert "<sup>" not in "".join(table["novelty@2"]) and "^" not in "".join(table["novelty@2"])
    assert "^" in "".join(table["ndcg@3"])


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
