"""rankwise.sql's postgres dialect on a PostgreSQL server (the one the dbt build
on PostgreSQL starts), against the numbers tests/unit/test_sql.py works by
hand."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rankwise
from tests.unit.test_sql import ARGUMENTS, _assert_hand_worked

from .engines import postgres_engine


@contextlib.contextmanager
def _cursor(scratch: Path) -> Iterator[Any]:
    """A cursor of a PostgreSQL server (the one the dbt build on PostgreSQL
    starts), closed with its connection on leaving."""
    import psycopg2

    with postgres_engine(scratch) as environment:
        connection = psycopg2.connect(host=environment["RANKWISE_POSTGRES_HOST"],
                                      user=environment["RANKWISE_POSTGRES_USER"],
                                      dbname=environment["RANKWISE_POSTGRES_DATABASE"])
        try:
            yield connection.cursor()
        finally:
            connection.close()


@pytest.mark.needs_engines("postgres")
def test_the_postgres_sql_gives_the_hand_worked_numbers(tmp_path: Path) -> None:
    """The postgres dialect's query on a PostgreSQL server (the one the dbt build
    on PostgreSQL starts)."""
    with _cursor(tmp_path) as cursor:
        cursor.execute("create schema analytics")
        cursor.execute("create table analytics.recs (model text, user_id text, item_id text, score double precision)")
        cursor.execute("insert into analytics.recs values ('m', 'u', 'a', 0.9), ('m', 'u', 'b', 0.5)")
        cursor.execute("create table analytics.truth (user_id text, item_id text, relevance double precision)")
        cursor.execute("insert into analytics.truth values ('u', 'b', 2.0), ('v', 'c', 1.0)")
        cursor.execute(rankwise.sql("analytics.recs", "analytics.truth", dialect="postgres", **ARGUMENTS))
        _assert_hand_worked(cursor.fetchall())


RANKED_TRUTH_METRICS = ["precision", "recall", "map", "dcg", "idcg", "ndcg"]


def _graded(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Graded truths of 1 to 30 items (longer and shorter than the cutoffs),
    with grades 0 to 3 and a half, lists of 0 to 25 items, users without a
    list and lists without truth, two folds of their own users."""
    rng = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for fold in ("f1", "f2"):
        for user in range(40):
            truth = rng.choice(60, size=rng.integers(1, 31), replace=False)
            if user % 7 != 3:
                interactions.extend((fold, f"{fold}u{user}", int(item), float(rng.choice([0, 0.5, 1, 2, 3])))
                                    for item in truth)
            if user % 11 != 5:
                items = rng.choice(60, size=rng.integers(0, 26), replace=False)
                recommendations.extend((fold, f"{fold}u{user}", int(item), rank) for rank, item in enumerate(items, 1))
    return (pd.DataFrame(recommendations, columns=["fold", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["fold", "user_id", "item_id", "relevance"]))


@pytest.mark.needs_engines("postgres")
def test_idcg_summed_with_the_truth_counts_gives_duckdbs_numbers(tmp_path: Path) -> None:
    """On PostgreSQL, graded IDCG is summed in the aggregate that counts each
    user's truth (the ranked_truth strategy); DuckDB takes each user's top
    relevances from a list aggregate (top_k_gains). Means and per-user values
    agree under every option that changes IDCG or its users."""
    recommendations, interactions = _graded(0)
    with _cursor(tmp_path) as cursor:
        cursor.execute("create table recs (fold text, user_id text, item_id bigint, rank bigint)")
        cursor.executemany("insert into recs values (%s, %s, %s, %s)", recommendations.itertuples(index=False))
        cursor.execute("create table truth (fold text, user_id text, item_id bigint, relevance double precision)")
        cursor.executemany("insert into truth values (%s, %s, %s, %s)", interactions.itertuples(index=False))
        for options in [{}, {"gain": "exponential"}, {"users": "both"}, {"relevance_threshold": 2},
                        {"convention": "ranx"}, {"per_user": True}, {"per_user": True, "users": "both"},
                        {"group_by": "fold"}]:
            arguments = dict(k=[1, 3, 10, 25], relevance_col="relevance", confidence=None, **options)
            if "group_by" not in options:
                arguments["partition_by"] = "fold"
            sql = rankwise.sql("recs", "truth", RANKED_TRUTH_METRICS, dialect="postgres", **arguments)
            assert "rw_idcg_at_25" in sql and "rw_ideal_lists" not in sql
            cursor.execute(sql)
            names = [column.name for column in cursor.description]
            on_postgres = pd.DataFrame(cursor.fetchall(), columns=names)
            on_duckdb = rankwise.evaluate(recommendations, interactions, RANKED_TRUTH_METRICS, **arguments)
            keys = ["fold", "metric", "k"] + (["user_id"] if options.get("per_user") else [])
            on_postgres = on_postgres.sort_values(keys).reset_index(drop=True)
            on_duckdb = on_duckdb.sort_values(keys).reset_index(drop=True)
            assert len(on_postgres) == len(on_duckdb) > 0, options
            assert on_postgres["value"].astype(float).to_numpy() == pytest.approx(
                on_duckdb["value"].to_numpy(), abs=1e-9), options
            assert (on_duckdb.loc[on_duckdb["metric"] == "idcg", "value"] > 0).any()


@pytest.mark.needs_engines("postgres")
def test_serendipity_beside_the_accuracy_metrics_gives_duckdbs_numbers(tmp_path: Path) -> None:
    """Beside ndcg, PostgreSQL reads each shown item's relevance off its list's
    relevant ranks (rw_list_bits); the values are DuckDB's for each metric
    asked alone, with the default threshold and with relevance 2 and up
    relevant, as means and per user."""
    recommendations, interactions = _graded(1)
    recommendations, interactions = recommendations.drop(columns="fold"), interactions.drop(columns="fold")
    rng = np.random.default_rng(1)
    items = pd.DataFrame({"item_id": np.arange(70)})
    train = pd.DataFrame({"user_id": rng.choice(recommendations["user_id"].unique(), 400),
                          "item_id": rng.zipf(1.5, 400) % 60})
    with _cursor(tmp_path) as cursor:
        for name, frame, columns in [("recs", recommendations, "user_id text, item_id bigint, rank bigint"),
                                     ("truth", interactions, "user_id text, item_id bigint, relevance double precision"),
                                     ("items", items, "item_id bigint"), ("train", train, "user_id text, item_id bigint")]:
            cursor.execute(f"create table {name} ({columns})")
            placeholders = ", ".join(["%s"] * frame.shape[1])
            cursor.executemany(f"insert into {name} values ({placeholders})",
                               [tuple(int(value) if isinstance(value, np.integer) else value for value in row)
                                for row in frame.itertuples(index=False)])
        for options in [{}, {"relevance_threshold": 2}, {"per_user": True}]:
            arguments = dict(k=[3, 10], relevance_col="relevance", confidence=None, **options)
            sql = rankwise.sql("recs", "truth", ["serendipity", "ndcg"], dialect="postgres", items="items",
                               train="train", **arguments)
            assert "rw_list_bits as shown" in sql
            cursor.execute(sql)
            on_postgres = pd.DataFrame(cursor.fetchall(), columns=[column.name for column in cursor.description])
            # each metric alone on DuckDB: serendipity there joins the interactions
            on_duckdb = pd.concat([rankwise.evaluate(recommendations, interactions, ["serendipity"], items=items,
                                                     train=train, **arguments),
                                   rankwise.evaluate(recommendations, interactions, ["ndcg"], **arguments)])
            keys = ["metric", "k"] + (["user_id"] if options.get("per_user") else [])
            on_postgres = on_postgres.sort_values(keys).reset_index(drop=True)
            on_duckdb = on_duckdb.sort_values(keys).reset_index(drop=True)
            assert len(on_postgres) == len(on_duckdb) > 0, options
            assert on_postgres["value"].astype(float).to_numpy() == pytest.approx(
                on_duckdb["value"].to_numpy(), abs=1e-9), options
            assert (on_duckdb.loc[on_duckdb["metric"] == "serendipity", "value"] > 0).any(), options
