"""rankwise.sql: the query for two table names, in each dialect."""

from __future__ import annotations

import math
import re

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
def test_the_sql_reads_the_two_tables_with_natural_logs(dialect: str) -> None:
    """What each dialect's text must hold; tests/slow/test_dialects_whole_queries.py
    checks it for what each engine lacks, the two tests below run DuckDB's, and
    tests/engines/test_sql_on_postgres.py PostgreSQL's."""
    query = rankwise.sql("analytics.recs", "analytics.truth", dialect=dialect, **ARGUMENTS)
    read = {name for name in re.findall(r"(?i)\b(?:from|join)\s+analytics\.(\w+)", query)}
    assert read == {"recs", "truth"}
    assert "log(" not in query.lower().replace("ln(", "")  # only natural logs: log() means different bases


# The query of ARGUMENTS on one list, worked by hand. Model m shows user u items a
# (score 0.9) and b (0.5); the truth is u: b (relevance 2) and v: c (1). So u has b
# at rank 2 and R = 1; v has no list and scores 0 (users='interactions').
T_975_1 = math.tan(math.pi * (0.975 - 0.5))  # Student's t quantile, 1 degree of freedom (Cauchy)
EXPECTED_ROWS = [
    # metric, k, value (the mean of u's and v's), n_users, n_users_without_list
    ("precision", 5, (1 / 5 + 0) / 2, 2, 1),
    ("precision", 10, (1 / 10 + 0) / 2, 2, 1),
    ("map", 5, ((1 / 2) / 1 + 0) / 2, 2, 1),  # P@2 = 1/2 at b, over R = 1
    ("map", 10, ((1 / 2) / 1 + 0) / 2, 2, 1),
    ("ndcg", 5, ((2 / math.log2(3)) / (2 / math.log2(2)) + 0) / 2, 2, 1),  # DCG: gain 2 at rank 2; IDCG: at rank 1
    ("ndcg", 10, ((2 / math.log2(3)) / (2 / math.log2(2)) + 0) / 2, 2, 1),
    ("r_precision", None, 0.0, 2, 1),  # R = 1: the top 1 is a, not relevant
    ("entropy", 5, math.log(2), 1, None),  # a and b fill one slot each
    ("entropy", 10, math.log(2), 1, None),
]


def _assert_hand_worked(rows: list[tuple]) -> None:
    """rows: (model, metric, k, metric_label, value, n_users, n_users_without_list,
    ci_low, ci_high, ci_clipped), in the query's order."""
    assert [row[:3] for row in rows] == [("m", metric, k) for metric, k, *_ in EXPECTED_ROWS]
    for row, (metric, k, value, n_users, without_list) in zip(rows, EXPECTED_ROWS):
        assert float(row[4]) == pytest.approx(value, rel=1e-12, abs=1e-15), row
        assert (row[5], row[6]) == (n_users, without_list), row
        if metric == "entropy":
            assert tuple(row[7:]) == (None, None, None)
        else:
            # two users, one scoring 0: the standard error of the mean is the mean itself;
            # the bounds clipped to the metric's range [0, 1]
            low, high = value - T_975_1 * value, value + T_975_1 * value
            assert [float(bound) for bound in row[7:9]] == pytest.approx(
                [max(low, 0.0), min(high, 1.0)], rel=1e-9, abs=1e-12), row
            assert row[9] == (low < 0 or high > 1), row


def test_the_duckdb_sql_gives_the_hand_worked_numbers() -> None:
    con = duckdb.connect()
    con.execute("create schema analytics")
    con.execute("create table analytics.recs as select * from (values ('m', 'u', 'a', 0.9), ('m', 'u', 'b', 0.5)) "
                "t(model, user_id, item_id, score)")
    con.execute("create table analytics.truth as select * from (values ('u', 'b', 2.0), ('v', 'c', 1.0)) "
                "t(user_id, item_id, relevance)")
    _assert_hand_worked(con.sql(rankwise.sql("analytics.recs", "analytics.truth", **ARGUMENTS)).fetchall())


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


# (dialect, a plain name as written, a name that needs quotes as written)
QUOTING = {
    "snowflake": ("from analytics.public.recs", 'from analytics.public."Recs"'),
    "bigquery": ("from analytics.public.recs", "from analytics.public.`Recs`"),
    "postgres": ("from analytics.public.recs", 'from analytics.public."Recs"'),
    "spark": ("from analytics.public.recs", "from analytics.public.`Recs`"),
}


@pytest.mark.parametrize("dialect", list(QUOTING))
def test_plain_names_are_left_unquoted_and_others_quoted(dialect: str) -> None:
    """Snowflake folds an unquoted name to upper case and matches a quoted one
    exactly: a quoted lower-case "user_id" would miss an ordinary USER_ID column."""
    plain, needing_quotes = QUOTING[dialect]
    query = rankwise.sql("analytics.public.recs", "analytics.public.truth", ["ndcg@10"], dialect=dialect)
    assert plain in query and "user_id" in query
    assert '"user_id"' not in query and "`user_id`" not in query
    query = rankwise.sql('analytics.public.Recs', "truth", ["ndcg@10"], dialect=dialect, user_col="User Id",
                         item_col="order")
    assert needing_quotes in query
    quote = "`" if dialect in ("bigquery", "spark") else '"'
    assert f"{quote}User Id{quote}" in query and f"{quote}order{quote}" in query


def test_a_hostile_name_stays_quoted_and_escaped() -> None:
    query = rankwise.sql("recs", "truth", ["ndcg"], dialect="snowflake", user_col='u"; drop table recs; --')
    assert '"u""; drop table recs; --"' in query


def test_upper_case_and_reserved_column_names_give_the_right_numbers() -> None:
    con = duckdb.connect()
    con.execute('create table recs as select * from (values (\'u1\', \'a\', 1), (\'u1\', \'b\', 2)) as t("User", "order", "Rank")')
    con.execute('create table truth as select * from (values (\'u1\', \'b\')) as t("User", "order")')
    result = rankwise.evaluate("recs", "truth", ["mrr", "precision@2"], con=con, user_col="User", item_col="order",
                               rank_col="Rank")
    assert result["value"].tolist() == [0.5, 0.5]


def test_the_reserved_words_cover_duckdb_and_sqlglot() -> None:
    from rankwise._render import renderer

    listed = set(renderer().call("_reserved_words"))
    expected = {word for (word,) in duckdb.sql(
        "select keyword_name from duckdb_keywords() where keyword_category = 'reserved'").fetchall()}
    for dialect in ("bigquery", "duckdb", "redshift", "trino"):
        expected |= {word.lower() for word in sqlglot.Dialect.get_or_raise(dialect).generator_class.RESERVED_KEYWORDS}
    assert expected <= listed
    assert {"qualify", "sample", "minus", "ilike"} <= listed  # Snowflake's
