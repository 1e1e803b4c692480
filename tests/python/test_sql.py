"""rankwise.sql: the query for two table names, in each dialect."""

from __future__ import annotations

import duckdb
import pytest
import sqlglot

import rankwise
from rankwise._api import DIALECT_ADAPTERS
from rankwise.errors import InvalidArgumentError

ARGUMENTS = dict(
    metrics=["precision", "map", "ndcg", "r_precision", "entropy"],
    k=[5, 10],
    group_by="model",
    score_col="score",
    relevance_col="relevance",
    users="interactions",
)


@pytest.mark.parametrize("dialect", list(DIALECT_ADAPTERS))
def test_the_sql_parses_in_its_dialect(dialect: str) -> None:
    query = rankwise.sql("analytics.recs", "analytics.truth", dialect=dialect, **ARGUMENTS)
    tree = sqlglot.parse_one(query, read=dialect)
    tables = {table.name for table in tree.find_all(sqlglot.exp.Table)}
    assert {"recs", "truth"} <= tables
    assert "log(" not in query.lower().replace("ln(", "")  # only natural logs: log() means different bases


def test_duckdb_sql_is_what_evaluate_runs() -> None:
    con = duckdb.connect()
    con.execute("create table recs as select * from (values ('m', 'u', 'a', 0.9), ('m', 'u', 'b', 0.5)) t(model, user_id, item_id, score)")
    con.execute("create table truth as select * from (values ('u', 'b', 2.0), ('v', 'c', 1.0)) t(user_id, item_id, relevance)")
    from_sql = sorted(con.sql(rankwise.sql("recs", "truth", **ARGUMENTS)).fetchall(), key=str)
    from_evaluate = sorted(rankwise.evaluate("recs", "truth", con=con, output="relation", **ARGUMENTS).fetchall(), key=str)
    assert from_sql == from_evaluate


def test_an_unknown_dialect_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="argument `dialect` must be one of duckdb, postgres, spark"):
        rankwise.sql("recs", "truth", ["ndcg"], dialect="oracle")
