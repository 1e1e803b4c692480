"""trec_eval's measures as rankwise metrics, worked by hand from their
definitions (docs/metrics.md; trec_eval's m_*.c): per-user values, and the
summaries that are not a mean (the registry's `summary`: the counts' total,
gm_map's geometric mean), which have no interval. trec_eval's own expected
output is matched line by line in test_trec_eval_command.py, and random cases
against pytrec_eval in tests/crosscheck/."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import rankwise

# u1: ranks 1 a (relevant), 2 b (judged, not relevant), 3 x (unjudged), 4 c (relevant); R = 3 (a, c, d), N = 2 (b, e)
# u2: ranks 1 y (unjudged), 2 f (relevant); R = 1
# u3: no list; R = 1
RECOMMENDATIONS = pd.DataFrame({"user_id": ["u1"] * 4 + ["u2"] * 2, "item_id": ["a", "b", "x", "c", "y", "f"],
                                "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0]})
INTERACTIONS = pd.DataFrame({"user_id": ["u1"] * 5 + ["u2", "u3"], "item_id": ["a", "b", "c", "d", "e", "f", "g"],
                             "relevance": [1, 0, 1, 1, 0, 1, 1]})
OPTIONS = {"score_col": "score", "relevance_col": "relevance", "convention": "trec_eval"}


def _per_user(metrics: list[str]) -> dict[tuple[str, str], float]:
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, per_user=True, users="interactions", **OPTIONS)
    assert len(table) == 3 * len(metrics)
    return {(row.user_id, row.metric_label): row.value for row in table.itertuples()}


def test_the_counts() -> None:
    values = _per_user(["num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"])
    assert [values[("u1", name)] for name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")] == [4, 3, 2, 1]
    assert [values[("u2", name)] for name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")] == [2, 1, 1, 0]
    # a user without a list has R relevant items, and nothing retrieved
    assert [values[("u3", name)] for name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")] == [0, 1, 0, 0]


def test_bpref_counts_the_judged_items_only() -> None:
    values = _per_user(["bpref", "bin_g"])
    # u1: a has no judged non-relevant item above it (1); c has b: 1 - min(1, 3) / min(2, 3); over R = 3
    assert values[("u1", "bpref")] == pytest.approx((1 + (1 - 1 / 2)) / 3, abs=1e-12)
    # u2: f has only the unjudged y above it
    assert values[("u2", "bpref")] == 1.0
    # binG: 1 / log2(2 + the items above that are not relevant, unjudged ones too): a 0, c 2; y is one above f
    assert values[("u1", "bin_g")] == pytest.approx((1 + 1 / math.log2(4)) / 3, abs=1e-12)
    assert values[("u2", "bin_g")] == pytest.approx(1 / math.log2(3), abs=1e-12)


def test_inf_ap_estimates_precision_from_the_judged_items_above() -> None:
    values = _per_user(["inf_ap"])
    eps = 1e-5
    # u1: a at rank 1 adds 1; c at rank 4 has 2 judged items above (a, b), 1 relevant: 1/4 + 2/4 (1 + eps) / (2 + 2 eps)
    assert values[("u1", "inf_ap")] == pytest.approx((1 + 1 / 4 + 2 / 4 * (1 + eps) / (2 + 2 * eps)) / 3, abs=1e-12)
    # u2: f at rank 2 has no judged item above: 1/2
    assert values[("u2", "inf_ap")] == pytest.approx(0.5, abs=1e-12)


def test_ndcg_rel_averages_ndcg_at_the_relevant_ranks() -> None:
    values = _per_user(["ndcg_rel"])
    # u1: gains 1 at ranks 1 and 4, R_g = 3 (a, c, d): nDCG@1 = 1, at rank 4 DCG (1 + 1/log2 5) over IDCG@3, and d,
    # missed, scores the list's nDCG, the same DCG over IDCG@3
    dcg = 1 + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert values[("u1", "ndcg_rel")] == pytest.approx((1 + dcg / idcg + dcg / idcg) / 3, abs=1e-12)
    # u2: f at rank 2, R_g = 1: DCG 1/log2 3 over IDCG@1 = 1
    assert values[("u2", "ndcg_rel")] == pytest.approx(1 / math.log2(3), abs=1e-12)
    assert values[("u3", "ndcg_rel")] == 0


def test_interpolated_precision() -> None:
    values = _per_user(["iprec_at_recall", "iprec_at_recall(recall=0.5)", "iprec_at_recall(recall=0.9)", "ap_11pt"])
    # u1: P@1 = 1 (1 of 3 relevant), P@4 = 2/4 (2 of 3); recall 0.5 needs lround(1.5) = 2, 0.9 lround(2.7) = 3
    assert values[("u1", "iprec_at_recall")] == 1.0
    assert values[("u1", "iprec_at_recall(recall=0.5)")] == 0.5
    assert values[("u1", "iprec_at_recall(recall=0.9)")] == 0.0
    # levels 0 to 0.4 need at most 1 relevant item (1.0), 0.5 to 0.8 need 2 (0.5), 0.9 and 1 need 3 (0)
    assert values[("u1", "ap_11pt")] == pytest.approx((5 * 1 + 4 * 0.5) / 11, abs=1e-12)
    assert values[("u2", "ap_11pt")] == pytest.approx(0.5, abs=1e-12)


def test_the_set_measures_and_utility() -> None:
    values = _per_user(["set_map", "relative_precision", "relative_precision@2", "r_precision_multiple(m=0.5)",
                        "utility", "utility(a=2, c=-1)"])
    assert values[("u1", "set_map")] == pytest.approx(2 * 2 / (4 * 3), abs=1e-12)
    assert values[("u1", "relative_precision")] == pytest.approx(2 / 3, abs=1e-12)  # h / min(n, R)
    assert values[("u1", "relative_precision@2")] == 0.5  # h@2 / min(2, R)
    # Rprec_mult: rank floor(0.5 * 3 + 0.9) = 2, one relevant item within it
    assert values[("u1", "r_precision_multiple(m=0.5)")] == 0.5
    assert values[("u1", "utility")] == 2 - 2
    assert values[("u1", "utility(a=2, c=-1)")] == 2 * 2 - 2 - 1
    # a user without a list misses its relevant item
    assert values[("u3", "utility(a=2, c=-1)")] == -1
    assert values[("u3", "utility")] == 0


def test_the_rbp_residual() -> None:
    values = _per_user(["rbp_residual(p=0.5)"])
    # u1: x at rank 3 unjudged: p^4 + (1 - p) p^2; u2: y at rank 1: p^2 + (1 - p)
    assert values[("u1", "rbp_residual(p=0.5)")] == pytest.approx(0.5**4 + 0.5 * 0.5**2, abs=1e-12)
    assert values[("u2", "rbp_residual(p=0.5)")] == pytest.approx(0.5**2 + 0.5, abs=1e-12)
    assert values[("u3", "rbp_residual(p=0.5)")] == 0


@pytest.mark.parametrize(("users", "n_users"), [("interactions", 3), ("both", 2)])
def test_a_summary_that_is_not_a_mean_has_no_interval(users: str, n_users: int) -> None:
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["num_rel", "num_ret", "gm_map", "map"], users=users,
                              **OPTIONS).set_index("metric")
    assert list(table.n_users) == [n_users] * 4
    # totals: num_rel counts u3's relevant item under users='interactions'
    assert table.value["num_rel"] == (5 if users == "interactions" else 4)
    assert table.value["num_ret"] == 6
    # AP: u1 (1 + 2/4) / 3 = 0.5, u2 1/2, u3 0 (floored at 1e-5)
    aps = [0.5, 0.5] + ([1e-5] if users == "interactions" else [])
    assert table.value["gm_map"] == pytest.approx(math.exp(sum(map(math.log, aps)) / len(aps)), abs=1e-12)
    assert table.ci_low[["num_rel", "num_ret", "gm_map"]].isna().all()
    assert table.ci_low[["map"]].notna().all()
