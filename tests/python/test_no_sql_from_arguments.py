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
