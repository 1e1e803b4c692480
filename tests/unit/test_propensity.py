"""propensity_col: recall, dcg, idcg and ndcg as inverse-propensity estimates
(docs/metrics.md, "Debiased estimates"), worked by hand; clipping; the metrics
without a weighted form and the bad propensities refused by name."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.errors import ColumnTypeError, InvalidArgumentError, InvalidValueError, MissingColumnError

RECOMMENDATIONS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2], "item_id": ["a", "b", "c", "a", "d"],
                                "rank": [1, 2, 3, 1, 2]})
# user 1: a (w 2) and x (w 4) relevant; user 2: d (w 10), y (w 1)
INTERACTIONS = pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": ["a", "x", "d", "y"],
                             "propensity": [0.5, 0.25, 0.1, 1.0]})
L3 = math.log2(3)


def _per_user(**options) -> pd.Series:
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["recall@2", "dcg@2", "idcg@2", "ndcg@2"], per_user=True,
                               propensity_col="propensity", **options)
    return result.set_index(["user_id", "metric"])["value"]


def test_each_interaction_weighs_its_inverse_propensity() -> None:
    values = _per_user()
    # user 1: a hit at rank 1 (w 2) of the weights 2 + 4; the weighted gains 4, 2 in their best order
    assert values[(1, "recall")] == pytest.approx(2 / 6, abs=1e-12)
    assert values[(1, "dcg")] == pytest.approx(2.0, abs=1e-12)
    assert values[(1, "idcg")] == pytest.approx(4 + 2 / L3, abs=1e-12)
    assert values[(1, "ndcg")] == pytest.approx(2 / (4 + 2 / L3), abs=1e-12)
    # user 2: d hit at rank 2 (w 10) of 10 + 1; ideal 10 first, then 1
    assert values[(2, "recall")] == pytest.approx(10 / 11, abs=1e-12)
    assert values[(2, "dcg")] == pytest.approx(10 / L3, abs=1e-12)
    assert values[(2, "idcg")] == pytest.approx(10 + 1 / L3, abs=1e-12)


def test_the_clip_bounds_every_weight() -> None:
    values = _per_user(propensity_clip=0.2)
    # user 2's d: 1 / max(0.1, 0.2) = 5
    assert values[(2, "recall")] == pytest.approx(5 / 6, abs=1e-12)
    assert values[(2, "idcg")] == pytest.approx(5 + 1 / L3, abs=1e-12)
    # user 1's weights are above the clip's: unchanged
    assert values[(1, "recall")] == pytest.approx(2 / 6, abs=1e-12)


def test_propensities_of_one_give_the_unweighted_metrics() -> None:
    ones = INTERACTIONS.assign(propensity=1.0)
    metrics = ["recall@1", "recall@3", "ndcg@2", "dcg@3", "idcg@3"]
    weighted = rankwise.evaluate(RECOMMENDATIONS, ones, metrics, propensity_col="propensity")
    plain = rankwise.evaluate(RECOMMENDATIONS, ones, metrics)
    np.testing.assert_allclose(weighted["value"], plain["value"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("metric", ["precision@2", "map", "mrr", "r_precision", "rbp", "err", "hit_rate@1"])
def test_a_metric_without_a_weighted_form_is_refused_by_name(metric: str) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"only recall, dcg, idcg, ndcg .*; {metric.split('@')[0]} has none"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["recall@2", metric], propensity_col="propensity")


@pytest.mark.parametrize("options", [dict(duplicate_interactions="max"), dict(idcg="k_positions", gain="binary")])
def test_the_options_without_a_weighted_form_are_refused(options) -> None:
    with pytest.raises(InvalidArgumentError, match="with `propensity_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2"], propensity_col="propensity", **options)


def test_a_clip_without_propensities_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="`propensity_clip` bounds the weights of `propensity_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["recall@2"], propensity_clip=0.1)
    with pytest.raises(InvalidArgumentError, match="`propensity_clip` must be a number above 0 and at most 1"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["recall@2"], propensity_col="propensity", propensity_clip=0)


@pytest.mark.parametrize("bad", [0.0, -0.5, 1.5, float("nan"), None])
def test_a_propensity_outside_zero_to_one_is_refused_with_the_column(bad) -> None:
    interactions = INTERACTIONS.copy()
    interactions["propensity"] = interactions["propensity"].astype(object)
    interactions.loc[1, "propensity"] = bad
    interactions["propensity"] = interactions["propensity"].astype(float)
    with pytest.raises(InvalidValueError, match=r"1 rows of the interactions .* propensities .* in column 'propensity' "
                                                r"\(for example 1 / x\)") as raised:
        rankwise.evaluate(RECOMMENDATIONS, interactions, ["recall@2"], propensity_col="propensity")
    assert raised.value.problem == "invalid_propensity"
    report = rankwise.check(RECOMMENDATIONS, interactions, propensity_col="propensity")
    assert list(report["problem"]) == ["invalid_propensity"]


def test_a_missing_or_text_propensity_column_is_named() -> None:
    with pytest.raises(MissingColumnError, match="column 'p' \\(the propensity\\) .* Name the right one with `propensity_col`"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["recall@2"], propensity_col="p")
    with pytest.raises(ColumnTypeError, match="the propensity column 'propensity' .* must be numeric"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS.assign(propensity="0.5"), ["recall@2"],
                          propensity_col="propensity")


def test_compare_pairs_the_inverse_propensity_estimates() -> None:
    # two models on the same truth: compare's means are evaluate's, its differences theirs
    recommendations = pd.concat([RECOMMENDATIONS.assign(model="m"),
                                 RECOMMENDATIONS.assign(model="n", rank=RECOMMENDATIONS["rank"].map({1: 2, 2: 1, 3: 3}))])
    options = dict(propensity_col="propensity", propensity_clip=0.2)
    means = rankwise.evaluate(recommendations, INTERACTIONS, ["recall@1", "ndcg@2"], group_by="model", **options)
    compared = rankwise.compare(recommendations, INTERACTIONS, ["recall@1", "ndcg@2"], baseline="m", **options)
    value = means.set_index(["model", "metric"])["value"]
    assert sorted(zip(compared.model, compared.metric)) == [("n", "ndcg"), ("n", "recall")]
    for row in compared.itertuples():
        assert row.mean == pytest.approx(value[("n", row.metric)], abs=1e-12)
        assert row.baseline_mean == pytest.approx(value[("m", row.metric)], abs=1e-12)
        assert row.diff == pytest.approx(row.mean - row.baseline_mean, abs=1e-12)
