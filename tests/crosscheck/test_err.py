"""rankwise's expected reciprocal rank against gdeval.pl's ERR (the port in
peers/gdeval.py, checked against gdeval through ir_measures 0.4.3) on random
lists, user by user, to 1e-9, the largest grade being that of the
interactions. Ranks come from the scores by trec_eval's order, which the
lists are given to the port in."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankwise

from .peers import gdeval as gdeval_port
from .strategies import Case, cases


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), k=st.one_of(st.none(), st.integers(1, 40)))
def test_err_is_gdevals(case: Case, k: int | None) -> None:
    assume(case.is_evaluable())
    table = rankwise.evaluate(case.recommendations, case.interactions, ["err"], k=k, score_col="score",
                              relevance_col="relevance", per_user=True, users="both")
    largest = case.interactions.relevance.max()
    qrels = case.qrels()
    frame = case.recommendations.sort_values(["user_id", "score", "item_id"], ascending=[True, False, False])
    # users='both': a row for each user of both tables, which is_evaluable makes at least one
    assert sorted(table.user_id) == sorted(set(case.run()) & set(qrels))
    for row in table.itertuples():
        items = list(frame[frame.user_id == row.user_id].item_id)
        grades = [max(qrels[row.user_id].get(item, 0), 0) for item in items]
        expected = gdeval_port.err(len(items) if k is None else k, grades, largest) if largest > 0 else 0.0
        assert math.isclose(row.value, expected, rel_tol=0, abs_tol=1e-9), (row.user_id, k, row.value, expected)
