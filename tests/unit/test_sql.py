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
    # sqlglot writes keywords in upper case where it transpiles (Snowflake, BigQuery)
    assert plain in query.replace("FROM", "from") and "user_id" in query
    assert '"user_id"' not in query and "`user_id`" not in query
    query = rankwise.sql('analytics.public.Recs', "truth", ["ndcg@10"], dialect=dialect, user_col="User Id",
                         item_col="order")
    assert needing_quotes in query.replace("FROM", "from")
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
