"""Hand-worked examples of the two conventions no peer library implements, so no
cross-check can hold them: document 001's `map_to_full_recall` and document
002's `ap_denominator='hits'`. The arithmetic of each value is written out
below, from the definitions in docs/metrics.md, and rankwise.evaluate must give
it to 1e-12. (tests/reference/oracle.py implements them too, but was written by
the same hands as the macros; these figures are worked by hand.)

In each list, `r...` items are relevant (relevance 1), `n...` items are judged
non-relevant (relevance 0) and `u...` items are relevant but not recommended.
P@i is the number of relevant items at ranks <= i, divided by i."""

from __future__ import annotations

import pandas as pd
import pytest

import rankwise

TOLERANCE = 1e-12

Lists = dict[str, list[str | None]]  # user -> items by rank, from rank 1; None leaves a rank empty
Truth = dict[str, dict[str, float]]  # user -> item -> relevance


def _frames(lists: Lists, truth: Truth) -> tuple[pd.DataFrame, pd.DataFrame]:
    recommendations = pd.DataFrame(
        [(user, item, rank) for user, items in lists.items() for rank, item in enumerate(items, start=1) if item],
        columns=["user_id", "item_id", "rank"],
    )
    interactions = pd.DataFrame(
        [(user, item, relevance) for user, judged in truth.items() for item, relevance in judged.items()],
        columns=["user_id", "item_id", "relevance"],
    )
    return recommendations, interactions


def _per_user(lists: Lists, truth: Truth, metric: str, k: int | None = None, **options) -> dict[str, float]:
    recommendations, interactions = _frames(lists, truth)
    table = rankwise.evaluate(recommendations, interactions, [metric], k=k, per_user=True, relevance_col="relevance",
                              **options)
    assert len(table) == len(lists), table
    return dict(zip(table["user_id"], table["value"]))


def _mean(lists: Lists, truth: Truth, metric: str, k: int | None = None, **options) -> float:
    recommendations, interactions = _frames(lists, truth)
    table = rankwise.evaluate(recommendations, interactions, [metric], k=k, relevance_col="relevance", **options)
    (value,) = table["value"]
    return value


def _assert_values(actual: dict[str, float], expected: dict[str, float]) -> None:
    assert set(actual) == set(expected)
    for user, value in expected.items():
        assert actual[user] == pytest.approx(value, rel=0, abs=TOLERANCE), user


# map_to_full_recall: r is the rank at which the list holds every relevant item
# of the truth (R of them), or the list's end if it never does; the value is the
# mean of P@i over the listed ranks i <= min(r, k), every rank, relevant or not.
FULL_RECALL_LISTS: Lists = {
    # full recall at rank 3 (R = 2); ranks 4 and 5 are not averaged
    "early": ["r1", "n1", "r2", "n2", "n3"],
    # R = 3 with one relevant item unlisted: never full recall, all 3 ranks averaged
    "never": ["n1", "r1", "r2"],
    # full recall only at the last rank, 4
    "late": ["r1", "n1", "n2", "r2"],
    # nothing relevant in the truth (R = 0): 0 by definition
    "none_relevant": ["n1", "n2"],
}
FULL_RECALL_TRUTH: Truth = {
    "early": {"r1": 1, "r2": 1, "n1": 0},
    "never": {"r1": 1, "r2": 1, "u1": 1},
    "late": {"r1": 1, "r2": 1},
    "none_relevant": {"n1": 0},
}


def test_map_to_full_recall_by_hand() -> None:
    _assert_values(_per_user(FULL_RECALL_LISTS, FULL_RECALL_TRUTH, "map_to_full_recall"), {
        "early": (1 / 1 + 1 / 2 + 2 / 3) / 3,  # P@1, P@2, P@3; standard AP would be (1/1 + 2/3) / 2
        "never": (0 / 1 + 1 / 2 + 2 / 3) / 3,
        "late": (1 / 1 + 1 / 2 + 1 / 3 + 2 / 4) / 4,
        "none_relevant": 0.0,
    })


def test_map_to_full_recall_cut_at_k_by_hand() -> None:
    """At k, the mean runs over the ranks up to min(r, k)."""
    _assert_values(_per_user(FULL_RECALL_LISTS, FULL_RECALL_TRUTH, "map_to_full_recall", k=2), {
        "early": (1 / 1 + 1 / 2) / 2,
        "never": (0 / 1 + 1 / 2) / 2,
        "late": (1 / 1 + 1 / 2) / 2,
        "none_relevant": 0.0,
    })
    # k beyond full recall changes nothing: r = 3 < 4
    assert _per_user(FULL_RECALL_LISTS, FULL_RECALL_TRUTH, "map_to_full_recall", k=4)["early"] == pytest.approx(
        (1 / 1 + 1 / 2 + 2 / 3) / 3, rel=0, abs=TOLERANCE)


def test_map_to_full_recall_mean_over_users_by_hand() -> None:
    """Every user in both tables counts, the one with R = 0 included (trec_eval's
    default user set)."""
    expected = ((1 / 1 + 1 / 2 + 2 / 3) / 3 + (0 / 1 + 1 / 2 + 2 / 3) / 3 + (1 / 1 + 1 / 2 + 1 / 3 + 2 / 4) / 4 + 0.0) / 4
    assert _mean(FULL_RECALL_LISTS, FULL_RECALL_TRUTH, "map_to_full_recall") == pytest.approx(
        expected, rel=0, abs=TOLERANCE)


def test_map_to_full_recall_counts_listed_rows_not_positions_by_hand() -> None:
    """Ranks {1, 3} with rank 2 empty: P@i is taken at the ranks as given, but the
    mean divides by the rows listed (docs/metrics.md, "Ranks")."""
    lists: Lists = {"gap": ["r1", None, "r2"]}
    truth: Truth = {"gap": {"r1": 1, "r2": 1}}
    _assert_values(_per_user(lists, truth, "map_to_full_recall"), {"gap": (1 / 1 + 2 / 3) / 2})


def test_map_to_full_recall_with_a_relevance_threshold_by_hand() -> None:
    """With relevance_threshold=2 an item of relevance 1 is not relevant: R = 2,
    reached at rank 3."""
    lists: Lists = {"graded": ["a", "b", "c", "d"]}
    truth: Truth = {"graded": {"a": 1, "b": 3, "c": 2, "d": 1}}
    _assert_values(_per_user(lists, truth, "map_to_full_recall", relevance_threshold=2),
                   {"graded": (0 / 1 + 1 / 2 + 2 / 3) / 3})


# ap_denominator='hits': AP@k = (sum of P@i over the relevant ranks i <= k) / h_k,
# where h_k is the number of relevant items in the top k (document 002);
# the default divides by R, every relevant item of the truth.
HITS_LISTS: Lists = {
    # R = 4, two of them listed
    "two_hits": ["r1", "n1", "r2"],
    # R = 1, listed last
    "late_hit": ["n1", "n2", "n3", "r1"],
    # R = 2, neither listed: h = 0, and AP is 0 by definition
    "no_hits": ["n1", "n2"],
    # every listed item relevant
    "all_hits": ["r1", "r2"],
}
HITS_TRUTH: Truth = {
    "two_hits": {"r1": 1, "r2": 1, "u1": 1, "u2": 1, "n1": 0},
    "late_hit": {"r1": 1},
    "no_hits": {"u1": 1, "u2": 1},
    "all_hits": {"r1": 1, "r2": 1, "u1": 1},
}


def test_ap_over_hits_by_hand() -> None:
    _assert_values(_per_user(HITS_LISTS, HITS_TRUTH, "map", ap_denominator="hits"), {
        "two_hits": (1 / 1 + 2 / 3) / 2,
        "late_hit": (1 / 4) / 1,
        "no_hits": 0.0,
        "all_hits": (1 / 1 + 2 / 2) / 2,
    })


def test_ap_over_hits_is_not_the_default_by_hand() -> None:
    """The same lists over R, for contrast: only the denominator differs."""
    _assert_values(_per_user(HITS_LISTS, HITS_TRUTH, "map"), {
        "two_hits": (1 / 1 + 2 / 3) / 4,
        "late_hit": (1 / 4) / 1,
        "no_hits": 0.0,
        "all_hits": (1 / 1 + 2 / 2) / 3,
    })


def test_ap_over_hits_at_k_by_hand() -> None:
    """At k = 2 only the hits in the top 2 count, in the sum and in the denominator."""
    _assert_values(_per_user(HITS_LISTS, HITS_TRUTH, "map", k=2, ap_denominator="hits"), {
        "two_hits": (1 / 1) / 1,
        "late_hit": 0.0,  # no hit in the top 2: h_2 = 0
        "no_hits": 0.0,
        "all_hits": (1 / 1 + 2 / 2) / 2,
    })


def test_map_over_hits_mean_over_users_by_hand() -> None:
    expected = ((1 / 1 + 2 / 3) / 2 + (1 / 4) / 1 + 0.0 + (1 / 1 + 2 / 2) / 2) / 4
    assert _mean(HITS_LISTS, HITS_TRUTH, "map", ap_denominator="hits") == pytest.approx(expected, rel=0, abs=TOLERANCE)


def test_ap_over_hits_with_a_relevance_threshold_by_hand() -> None:
    """relevance_threshold=2: the item of relevance 1 at rank 2 is neither a hit
    nor a term of the sum."""
    lists: Lists = {"graded": ["a", "b", "c", "d"]}
    truth: Truth = {"graded": {"a": 3, "b": 1, "c": 2, "e": 2}}
    _assert_values(_per_user(lists, truth, "map", relevance_threshold=2, ap_denominator="hits"),
                   {"graded": (1 / 1 + 2 / 3) / 2})
