"""rankwise.sql's postgres dialect on a PostgreSQL server (the one the dbt build
on PostgreSQL starts), against the numbers tests/unit/test_sql.py works by
hand."""

from __future__ import annotations

from pathlib import Path

import pytest

import rankwise
from tests.unit.test_sql import ARGUMENTS, _assert_hand_worked

from .engines import postgres_engine


@pytest.mark.needs_engines("postgres")
def test_the_postgres_sql_gives_the_hand_worked_numbers(tmp_path: Path) -> None:
    """The postgres dialect's query on a PostgreSQL server (the one the dbt build
    on PostgreSQL starts)."""
    import psycopg2

    with postgres_engine(tmp_path) as environment:
        connection = psycopg2.connect(host=environment["RANKWISE_POSTGRES_HOST"],
                                      user=environment["RANKWISE_POSTGRES_USER"],
                                      dbname=environment["RANKWISE_POSTGRES_DATABASE"])
        try:
            cursor = connection.cursor()
            cursor.execute("create schema analytics")
            cursor.execute("create table analytics.recs (model text, user_id text, item_id text, score double precision)")
            cursor.execute("insert into analytics.recs values ('m', 'u', 'a', 0.9), ('m', 'u', 'b', 0.5)")
            cursor.execute("create table analytics.truth (user_id text, item_id text, relevance double precision)")
            cursor.execute("insert into analytics.truth values ('u', 'b', 2.0), ('v', 'c', 1.0)")
            cursor.execute(rankwise.sql("analytics.recs", "analytics.truth", dialect="postgres", **ARGUMENTS))
            _assert_hand_worked(cursor.fetchall())
        finally:
            connection.close()
