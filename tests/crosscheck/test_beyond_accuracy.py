"""The beyond-accuracy metrics (coverage, gini, personalization, novelty, arp,
long_tail_share) on hypothesis-generated cases, against RecTools' code (the
ports in peers/rectools.py, checked against the library by verify_ports.py) and
against reference implementations written from each definition in
docs/metrics.md, the obvious way: sorting for Gini, every pair of users for
personalization."""

from __future__ import annotations

import itertools
import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankwise

from .peers import rectools
from .strategies import BeyondCase, beyond_cases

pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _evaluate(case: BeyondCase, metrics: list[str], **options) -> dict[str, float]:
    # the interactions are not read by these metrics; any table that shares ids will do
    names = {metric.split("@")[0] for metric in metrics}
    inputs = {**({"train": case.train} if names & {"novelty", "arp", "long_tail_share"} else {}),
              **({"items": case.items} if names & {"coverage", "gini"} else {})}
    table = rankwise.evaluate(case.recommendations, case.recommendations[["user_id", "item_id"]], metrics,
                              **inputs, **options)
    return dict(zip(table["metric_label"], table["value"]))


def _top(case: BeyondCase, k: int | None) -> pd.DataFrame:
    recommendations = case.recommendations
    return recommendations if k is None else recommendations[recommendations["rank"] <= k]


def _mean(per_user: dict) -> float:
    return sum(per_user.values()) / len(per_user)


def reference_gini(case: BeyondCase, k: int | None) -> float:
    """Σ(2i − n − 1) c_i / (n Σ c) over the n catalog items, counts ascending."""
    counts = _top(case, k)["item_id"].value_counts()
    values = sorted(int(counts.get(item, 0)) for item in case.items["item_id"])
    n = len(values)
    return sum((2 * i - n - 1) * value for i, value in enumerate(values, start=1)) / (n * sum(values))


def reference_personalization(case: BeyondCase, k: int) -> float | None:
    """1 − the mean over pairs of lists of their common top-k items / k."""
    lists = [set(rows["item_id"]) for _, rows in _top(case, k).groupby("user_id")]
    pairs = list(itertools.combinations(lists, 2))
    if not pairs:
        return None
    return 1 - sum(len(a & b) / k for a, b in pairs) / len(pairs)


def reference_long_tail_share(case: BeyondCase, k: int, head_share: float) -> float:
    """The share of each top-k list outside the head, averaged over the lists;
    the head: the items whose more popular items hold less than head_share of
    the train rows."""
    counts = case.train["item_id"].value_counts()
    total = len(case.train)
    head = {item for item, count in counts.items() if counts[counts > count].sum() < head_share * total}
    shares = {user: sum(item not in head for item in rows["item_id"]) / len(rows)
              for user, rows in _top(case, k).groupby("user_id")}
    return _mean(shares)


def reference_popularity(case: BeyondCase, k: int, by: str) -> tuple[float, float]:
    """(novelty, arp) means over the lists, popularity by train users or rows."""
    if by == "users":
        item_counts, total = case.train.groupby("item_id")["user_id"].nunique(), case.train["user_id"].nunique()
    else:
        item_counts, total = case.train["item_id"].value_counts(), len(case.train)
    novelty, arp = {}, {}
    for user, rows in _top(case, k).groupby("user_id"):
        counts = [int(item_counts.get(item, 0)) for item in rows["item_id"]]
        novelty[user] = sum(-math.log2(max(count, 1) / total) for count in counts) / len(counts)
        arp[user] = sum(count / total for count in counts) / len(counts)
    return _mean(novelty), _mean(arp)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_catalog_coverage_gini_and_personalization_match_their_definitions(case: BeyondCase, k: int) -> None:
    values = _evaluate(case, ["coverage", "gini", f"personalization@{k}"], k=[k, None] if k > 1 else k)
    shown = _top(case, k)["item_id"].nunique()
    assert values[f"coverage@{k}"] == pytest.approx(shown / len(case.items), abs=1e-12)
    assert values[f"coverage@{k}"] == pytest.approx(rectools.catalog_coverage(case.recommendations, case.items["item_id"], k, normalize=True), abs=1e-12)
    assert values[f"gini@{k}"] == pytest.approx(reference_gini(case, k), abs=1e-12)
    personalization = reference_personalization(case, k)
    if personalization is None:
        assert math.isnan(values[f"personalization@{k}"])
    else:
        assert values[f"personalization@{k}"] == pytest.approx(personalization, abs=1e-12)
    if k > 1:
        assert values["gini"] == pytest.approx(reference_gini(case, None), abs=1e-12)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), head_share=st.sampled_from([0.2, 0.5, 0.8, 1.0]))
def test_novelty_arp_and_long_tail_share_match_their_definitions(case: BeyondCase, k: int, head_share: float) -> None:
    for by in ("users", "interactions"):
        values = _evaluate(case, [f"novelty@{k}", f"arp@{k}", f"long_tail_share@{k}"], novelty_popularity=by,
                           arp_popularity=by, head_share=head_share)
        novelty, arp = reference_popularity(case, k, by)
        assert values[f"novelty@{k}"] == pytest.approx(novelty, abs=1e-9)
        assert values[f"arp@{k}"] == pytest.approx(arp, abs=1e-12)
        assert values[f"long_tail_share@{k}"] == pytest.approx(reference_long_tail_share(case, k, head_share), abs=1e-12)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_novelty_and_arp_match_rectools(case: BeyondCase, k: int) -> None:
    """MeanInvUserFreq, and AvgRecPopularity(normalize=True) under the
    RecTools convention, per user and as means."""
    expected_novelty = rectools.mean_inv_user_freq(case.recommendations, case.train, k)
    expected_arp = rectools.avg_rec_popularity(case.recommendations, case.train, k, normalize=True)
    per_user = rankwise.evaluate(case.recommendations, case.recommendations[["user_id", "item_id"]],
                                 [f"novelty@{k}", f"arp@{k}"], train=case.train, convention="rectools", per_user=True)
    for metric, expected in (("novelty", expected_novelty), ("arp", expected_arp)):
        rows = per_user[per_user["metric"] == metric]
        assert dict(zip(rows["user_id"], rows["value"])) == pytest.approx(expected, abs=1e-9)
    means = _evaluate(case, [f"novelty@{k}", f"arp@{k}"], convention="rectools")
    assert means[f"novelty@{k}"] == pytest.approx(_mean(expected_novelty), abs=1e-9)
    assert means[f"arp@{k}"] == pytest.approx(_mean(expected_arp), abs=1e-12)
