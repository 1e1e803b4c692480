"""No argument reaches SQL as text: hostile option values are refused with a
rankwise error before any SQL runs, and the caller's tables are untouched."""

from __future__ import annotations

import math

import duckdb
import pandas as pd
import pytest

import rankwise
from rankwise.errors import InvalidArgumentError

RECOMMENDATIONS = pd.DataFrame({"user_id": ["u1", "u1", "u2"], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})
INTERACTIONS = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["b", "a"]})

HOSTILE_NUMBERS = [
    "1 then 1 end) as rw_n_relevant from interactions group by 1); drop table keepme; --",
    "0 or 1=1",
    "1",  # a number as text is still text
    math.nan,
    math.inf,
    -math.inf,
    True,
    None,
    [1],
]


@pytest.fixture
def caller_connection():
    connection = duckdb.connect()
    connection.execute("create table keepme as select 42 as answer")
    yield connection
    connection.close()


def _catalog(connection: duckdb.DuckDBPyConnection) -> list[tuple]:
    return connection.sql("select table_name from information_schema.tables order by all").fetchall()


@pytest.mark.parametrize("value", HOSTILE_NUMBERS, ids=repr)
def test_check_refuses_a_hostile_relevance_threshold(caller_connection, value):
    before = _catalog(caller_connection)
    with pytest.raises(InvalidArgumentError, match="`relevance_threshold` must be a finite number"):
        rankwise.check(RECOMMENDATIONS, INTERACTIONS, relevance_threshold=value, con=caller_connection)
    assert _catalog(caller_connection) == before
    assert caller_connection.sql("select answer from keepme").fetchall() == [(42,)]


@pytest.mark.parametrize("value", [v for v in HOSTILE_NUMBERS if v is not None], ids=repr)
def test_evaluate_refuses_a_hostile_relevance_threshold(caller_connection, value):
    before = _catalog(caller_connection)
    with pytest.raises(InvalidArgumentError, match="`relevance_threshold` must be a finite number"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["map"], relevance_threshold=value, con=caller_connection)
    assert _catalog(caller_connection) == before


def test_a_valid_threshold_still_reaches_the_notes():
    report = rankwise.check(RECOMMENDATIONS, INTERACTIONS.assign(relevance=[1, 3]), relevance_col="relevance",
                            relevance_threshold=2.5)
    without_relevant = report[report["problem"] == "users_without_relevant_item"]
    # u1's only interaction has relevance 1 < 2.5; u2's has 3
    assert without_relevant["n_rows"].tolist() == [1]
    assert without_relevant["example"].tolist() == ["u1"]


@pytest.mark.parametrize("k", [2**63 - 1, 2**63, 10**30])
def test_a_cutoff_past_the_largest_is_refused_before_any_sql(caller_connection, k):
    """2^63 - 1, the largest BIGINT, stands for the whole list inside evaluate."""
    with pytest.raises(InvalidArgumentError, match=r"past the largest cutoff \(2\^63 - 2"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["precision"], k=k, con=caller_connection)


def test_the_largest_cutoff_and_the_whole_list_side_by_side():
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["precision", "f1"], k=[None, 2**63 - 2])
    values = {(row.metric, None if pd.isna(row.k) else int(row.k)): row.value for row in result.itertuples()}
    # u1: 1 hit (b) in a list of 2, R = 1; u2: 1 hit (a) in a list of 1, R = 1
    assert values[("precision", None)] == pytest.approx((1 / 2 + 1 / 1) / 2, abs=1e-15)
    assert values[("precision", 2**63 - 2)] == pytest.approx((1 / (2**63 - 2) + 1 / (2**63 - 2)) / 2, rel=1e-12)
    assert values[("f1", None)] == pytest.approx((2 / (2 + 1) + 2 / (1 + 1)) / 2, abs=1e-15)
    assert values[("f1", 2**63 - 2)] == pytest.approx(2 / (2.0**63 - 2 + 1), rel=1e-12)
