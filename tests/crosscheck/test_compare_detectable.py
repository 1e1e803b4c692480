"""compare's minimum detectable difference against statsmodels: the effect size
TTestPower().solve_power finds for 80% power at the row's alpha after the
correction (Bonferroni's alpha / m under Holm and Benjamini-Hochberg), times the
standard deviation of the paired differences; and the power statsmodels'
TTestPower().power gives that difference, which must be 0.8. The per-user
differences come from evaluate(per_user=True), as in test_compare_margin.py."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.power import TTestPower

import rankwise
from tests.crosscheck.test_compare_margin import METRICS, _inputs


def _differences(per_user: pd.DataFrame, row: object) -> np.ndarray:
    values = per_user[per_user["metric_label"] == row.metric_label]
    wide = values.pivot(index="user_id", columns="model", values="value")
    return (wide[row.model] - wide[row.baseline]).to_numpy()


@pytest.mark.parametrize(("seed", "n_users", "correction", "alpha"),
                         [(11, 12, "holm", 0.05), (12, 40, "bh", 0.05), (13, 150, "none", 0.01), (14, 400, "holm", 0.1)])
def test_minimum_detectable_difference_matches_statsmodels(seed: int, n_users: int, correction: str,
                                                            alpha: float) -> None:
    recommendations, interactions = _inputs(seed, n_users)
    result = rankwise.compare(recommendations, interactions, METRICS, baseline="prod", relevance_col="relevance",
                              correction=correction, alpha=alpha)
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, group_by="model", per_user=True,
                                 relevance_col="relevance")
    tests = int(result["p_value"].notna().sum())
    alpha_each = alpha if correction == "none" else alpha / tests
    assert tests == len(result) == 8
    power = TTestPower()
    for row in result.itertuples():
        differences = _differences(per_user, row)
        assert len(differences) == row.n_users == n_users
        sd = differences.std(ddof=1)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a solver that did not converge is no reference
            effect_size = power.solve_power(nobs=n_users, alpha=alpha_each, power=0.8, alternative="two-sided")
        assert row.minimum_detectable_difference == pytest.approx(effect_size * sd, abs=1e-6)
        # statsmodels' solver stops within 1e-5 of the effect size; its power function is exact
        assert power.power(effect_size=row.minimum_detectable_difference / sd, nobs=n_users, alpha=alpha_each,
                           alternative="two-sided") == pytest.approx(0.8, abs=1e-7)


def test_the_correction_decides_the_alpha() -> None:
    """Holm and Benjamini-Hochberg use Bonferroni's alpha / m, the strictest
    threshold a row meets, so both give the same difference, larger than
    without correction."""
    recommendations, interactions = _inputs(15, 60)
    differences = {correction: rankwise.compare(recommendations, interactions, METRICS, baseline="prod",
                                                relevance_col="relevance", correction=correction)
                   ["minimum_detectable_difference"].to_numpy()
                   for correction in ("holm", "bh", "none")}
    np.testing.assert_allclose(differences["holm"], differences["bh"], rtol=1e-12)
    assert (differences["holm"] > differences["none"] * 1.2).all()


def test_few_users_and_equal_differences() -> None:
    """Equal differences (sd 0) can be told from 0 at any size: the difference
    is 0, as the t interval is a point. With 3 users at 0.01 / 8 the
    quadrature cannot resolve the power function (3 users resolve an alpha of
    0.004 and above): NULL, not a wrong number (docs/statistics.md has the
    limits)."""
    recommendations, interactions = _inputs(16, 3)
    twin = recommendations[recommendations.model == "prod"].assign(model="twin")
    result = rankwise.compare(pd.concat([recommendations, twin]), interactions, METRICS, baseline="prod",
                              relevance_col="relevance", alpha=0.01).set_index(["metric_label", "model"])
    assert (result.xs("twin", level="model")["minimum_detectable_difference"] == 0).all()
    assert result.drop(index="twin", level="model")["minimum_detectable_difference"].isna().all()
