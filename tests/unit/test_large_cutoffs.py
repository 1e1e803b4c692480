"""A cutoff larger than any list (10^6, 10^9) gives the whole list's values:
no strategy may refuse a cutoff the planner accepts (DuckDB's top-k aggregate
max(x, n) refuses n >= 10^6, so IDCG's strategy sorts the whole truth there)."""

from __future__ import annotations

import pandas as pd
import pytest

import rankwise

RECOMMENDATIONS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2], "item_id": [1, 2, 3, 1, 3], "rank": [1, 2, 3, 1, 2]})
INTERACTIONS = pd.DataFrame({"user_id": [1, 1, 2, 2, 3], "item_id": [3, 9, 3, 4, 1], "relevance": [1, 2, 2, 3, 1]})
WHOLE_LIST_ALIKE = ["recall", "hit_rate", "map", "mrr", "dcg", "idcg", "ndcg"]


def _values(k: int | None, metrics: list[str], **options) -> dict[str, float]:
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, metrics, k=k, relevance_col="relevance",
                               confidence=None, **options)
    return dict(zip(result["metric"], result["value"]))


@pytest.mark.parametrize("k", [10**6, 10**9])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_a_cutoff_past_every_list_gives_the_whole_lists_values(k: int, gain: str) -> None:
    whole = _values(None, WHOLE_LIST_ALIKE, gain=gain)
    assert _values(k, WHOLE_LIST_ALIKE, gain=gain) == pytest.approx(whole, abs=1e-12)
    # IDCG of user 2 (relevances 3 and 2) is there: the whole truth was sorted
    assert whole["idcg"] > 0


@pytest.mark.parametrize("k", [10**6, 10**9])
def test_precision_divides_by_the_cutoff(k: int) -> None:
    # hits: user 1 one (item 3), user 2 one (item 3), user 3 none (no list)
    assert _values(k, ["precision"])["precision"] == pytest.approx((1 / k + 1 / k + 0) / 3, rel=1e-12)


def test_per_user_values_at_a_large_cutoff() -> None:
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg"], k=[10**6, None], relevance_col="relevance",
                               per_user=True)
    by_cutoff = {cutoff: dict(zip(rows["user_id"], rows["value"]))
                 for cutoff, rows in result.assign(k=result["k"].fillna(0)).groupby("k")}
    assert by_cutoff[10**6] == pytest.approx(by_cutoff[0], abs=1e-12)
