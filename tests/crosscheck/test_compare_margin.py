"""compare's non-inferiority and equivalence p-values against statsmodels: the
one-sided paired t test of H0: mean difference <= -margin (ttest_1samp on the
differences, alternative='greater'), and the two one-sided tests
(ttost_paired), each corrected over every row like p_value (multipletests)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import ttost_paired

import rankwise
from rankwise.errors import InvalidArgumentError

METRICS = ["ndcg@10", "map@10", "recall@5", "mrr"]


def _inputs(seed: int, n_users: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rows, truth = [], []
    for user in range(n_users):
        base = rng.choice(80, size=12, replace=False)
        for model, share in (("prod", 1.0), ("close", 0.7), ("worse", 0.2)):
            shown = np.where(rng.random(12) < share, base, rng.choice(80, size=12, replace=False))
            shown = list(dict.fromkeys(int(item) for item in shown))
            rows += [(model, user, item, rank) for rank, item in enumerate(shown, start=1)]
        truth += [(user, int(item), float(rng.integers(1, 4))) for item in base[:rng.integers(1, 8)]]
    return (pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"]),
            pd.DataFrame(truth, columns=["user_id", "item_id", "relevance"]))


@pytest.mark.parametrize(("seed", "n_users", "margin", "correction"),
                         [(1, 40, 0.02, "holm"), (2, 120, 0.05, "bh"), (3, 15, 0.01, "none")])
def test_non_inferiority_and_equivalence_match_statsmodels(seed: int, n_users: int, margin: float,
                                                           correction: str) -> None:
    recommendations, interactions = _inputs(seed, n_users)
    result = rankwise.compare(recommendations, interactions, METRICS, baseline="prod", relevance_col="relevance",
                              margin=margin, equivalence=True, correction=correction)
    per_user = rankwise.evaluate(recommendations, interactions, METRICS, group_by="model", per_user=True,
                                 relevance_col="relevance")
    expected_ni, expected_eq = [], []
    for row in result.itertuples():
        values = per_user[(per_user.metric == row.metric) & (per_user.k.fillna(-1) == (-1 if pd.isna(row.k) else row.k))]
        wide = values.pivot(index="user_id", columns="model", values="value")
        model, baseline = wide[row.model].to_numpy(), wide[row.baseline].to_numpy()
        expected_ni.append(scipy.stats.ttest_1samp(model - baseline, -margin, alternative="greater").pvalue)
        expected_eq.append(ttost_paired(model, baseline, -margin, margin)[0])
    assert result["p_non_inferiority"].to_numpy() == pytest.approx(expected_ni, abs=1e-6)
    assert result["p_equivalence"].to_numpy() == pytest.approx(expected_eq, abs=1e-6)
    method = {"holm": "holm", "bh": "fdr_bh"}.get(correction)
    for column, expected in (("p_non_inferiority", expected_ni), ("p_equivalence", expected_eq)):
        adjusted = expected if method is None else multipletests(expected, method=method)[1]
        assert result[f"{column}_adjusted"].to_numpy() == pytest.approx(adjusted, abs=1e-6)


def test_a_model_identical_to_the_baseline_is_non_inferior_and_equivalent() -> None:
    recommendations, interactions = _inputs(4, 30)
    twin = recommendations[recommendations.model == "prod"].assign(model="twin")
    result = rankwise.compare(pd.concat([recommendations, twin]), interactions, ["ndcg@10"], baseline="prod",
                              relevance_col="relevance", margin=0.01, equivalence=True)
    row = result.set_index("model").loc["twin"]
    assert (row["diff"], row["p_non_inferiority"], row["p_equivalence"]) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"margin": 0}, "`margin` must be a finite number above 0"),
    ({"margin": -0.1}, "`margin` must be a finite number above 0"),
    ({"equivalence": True}, "give a `margin`"),
])
def test_bad_margins_are_refused(arguments: dict, message: str) -> None:
    recommendations, interactions = _inputs(5, 5)
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.compare(recommendations, interactions, ["ndcg@10"], baseline="prod", **arguments)
