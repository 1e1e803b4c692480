"""The beyond-accuracy metrics (coverage, gini, personalization, novelty, arp,
long_tail_share) on hypothesis-generated cases, against RecTools' code (the
ports in peers/rectools.py, checked against the library by verify_ports.py) and
against the reference implementations of tests/reference/beyond_accuracy.py,
written from each definition in docs/metrics.md."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankwise
from tests.reference import beyond_accuracy as reference

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


def _mean(per_list: dict) -> float:
    return sum(per_list.values()) / len(per_list)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12))
def test_catalog_coverage_gini_and_personalization_match_their_definitions(case: BeyondCase, k: int) -> None:
    values = _evaluate(case, ["coverage", "gini", f"personalization@{k}"], k=[k, None] if k > 1 else k)
    recommendations, items = case.recommendations, case.items
    assert values[f"coverage@{k}"] == pytest.approx(reference.coverage(recommendations, items, k), abs=1e-12)
    assert values[f"coverage@{k}"] == pytest.approx(
        rectools.catalog_coverage(recommendations, items["item_id"], k, normalize=True), abs=1e-12)
    assert values[f"gini@{k}"] == pytest.approx(reference.gini(recommendations, items, k), abs=1e-12)
    personalization = reference.personalization(recommendations, k)
    if math.isnan(personalization):
        assert math.isnan(values[f"personalization@{k}"])
    else:
        assert values[f"personalization@{k}"] == pytest.approx(personalization, abs=1e-12)
    if k > 1:
        assert values["gini"] == pytest.approx(reference.gini(recommendations, items, None), abs=1e-12)
        assert values["coverage"] == pytest.approx(reference.coverage(recommendations, items, None), abs=1e-12)


@SETTINGS
@given(case=beyond_cases(), k=st.integers(1, 12), head_share=st.sampled_from([0.2, 0.5, 0.8, 1.0]))
def test_novelty_arp_and_long_tail_share_match_their_definitions(case: BeyondCase, k: int, head_share: float) -> None:
    recommendations, train = case.recommendations, case.train
    for by in ("users", "interactions"):
        values = _evaluate(case, [f"novelty@{k}", f"arp@{k}", f"long_tail_share@{k}"], novelty_popularity=by,
                           arp_popularity=by, head_share=head_share)
        assert values[f"novelty@{k}"] == pytest.approx(_mean(reference.novelty(recommendations, train, k, by)), abs=1e-9)
        assert values[f"arp@{k}"] == pytest.approx(_mean(reference.arp(recommendations, train, k, by)), abs=1e-12)
        assert values[f"long_tail_share@{k}"] == pytest.approx(
            _mean(reference.long_tail_share(recommendations, train, k, head_share)), abs=1e-12)


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
