"""The statistics building blocks of macros/statistics/ on PostgreSQL, Spark and
ClickHouse: one query with every macro, the same numbers as on DuckDB, whose own
are checked against scipy in tests/crosscheck/test_statistics_macros.py."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from scipy import stats

from rankwise._render import renderer

from .engines import postgres_engine, spark_test_settings


ENGINE_T = [0.0, 1e-6, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 40.0, 1e3, -2.5, 1e60]
ENGINE_DF = [1.0, 3.0, 4.0, 7.0, 9.5, 10.0, 50.0, 1000.0, 1e6, 1e9]


def _engine_query(dialect: str) -> str:
    render = renderer(dialect)
    draw = render.call("resample_draw", "user_key", "resample", 42)
    columns = {
        "p": render.call("student_t_two_sided_p", "t", "df"),
        "p_normal": render.call("normal_two_sided_p", "t"),
        "q975": render.call("student_t_quantile", 0.975, "df"),
        "q2": render.call("student_t_quantile", 0.02, "df"),
        "draw": draw,
        "flip": render.call("sign_flip", draw),
        "weight": render.call("poisson_one_weight", draw),
    }
    select = ", ".join(f"{sql} as {name}" for name, sql in columns.items())
    return f"select t, df, {select} from grid order by t, df"


def _engine_rows() -> list[tuple]:
    rows = []
    for i, (t, df) in enumerate((t, df) for t in ENGINE_T for df in ENGINE_DF):
        rows.append((t, df, (i * 7919 - 300) * (2**33 + 1), i % 13))
    return rows


def _values_sql(rows: list[tuple], float_type: str) -> str:
    values = ", ".join(f"({t!r}, {df!r}, {key}, {resample})" for t, df, key, resample in rows)
    return (
        f"select cast(t as {float_type}) as t, cast(df as {float_type}) as df, cast(user_key as bigint) as user_key, "
        f"cast(resample as bigint) as resample from (values {values}) as v(t, df, user_key, resample)"
    )


def _on_duckdb(rows: list[tuple]) -> list[tuple]:
    connection = duckdb.connect()
    connection.execute(f"create table grid as {_values_sql(rows, 'double')}")
    return connection.execute(_engine_query("duckdb")).fetchall()


@contextlib.contextmanager
def _postgres(scratch: Path) -> Iterator[object]:
    import psycopg2

    with postgres_engine(scratch) as environment:
        connection = psycopg2.connect(
            host=environment["RANKWISE_POSTGRES_HOST"],
            user=environment["RANKWISE_POSTGRES_USER"],
            dbname=environment["RANKWISE_POSTGRES_DATABASE"],
        )
        try:
            yield connection
        finally:
            connection.close()


def _on_postgres(rows: list[tuple], scratch: Path) -> list[tuple]:
    with _postgres(scratch) as connection:
        cursor = connection.cursor()
        cursor.execute(f"create temporary table grid as {_values_sql(rows, 'double precision')}")
        cursor.execute(_engine_query("postgres"))
        return cursor.fetchall()


def _on_spark(rows: list[tuple], scratch: Path) -> list[tuple]:
    from pyspark.sql import SparkSession

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder.appName("rankwise-statistics")
    for name, value in spark_test_settings().items():
        builder = builder.config(name, value)
    spark = builder.config("spark.sql.warehouse.dir", str(scratch / "warehouse")).getOrCreate()
    try:
        spark.sql(f"create or replace temporary view grid as {_values_sql(rows, 'double')}")
        return [tuple(row) for row in spark.sql(_engine_query("spark")).collect()]
    finally:
        spark.stop()


def _on_clickhouse(rows: list[tuple]) -> list[tuple]:
    """ClickHouse inside this process (chDB, its data in a folder of its own that
    closing removes), with the session settings of integration_tests/profiles.yml."""
    from chdb import session

    connection = session.Session()
    try:
        for setting in ("join_use_nulls = 1", "cast_keep_nullable = 1"):
            connection.query(f"set {setting}")
        values = ", ".join(f"({t!r}, {df!r}, {key}, {resample})" for t, df, key, resample in rows)
        connection.query("create table grid engine = Memory as select * from "
                         f"values('t Float64, df Float64, user_key Int64, resample Int64', {values})")
        table = connection.query(_engine_query("clickhouse"), "ArrowTable")
        return list(zip(*(column.to_pylist() for column in table.columns)))
    finally:
        connection.close()


def _assert_the_same_numbers(name: str, reference: list[tuple], results: list[tuple]) -> None:
    assert len(results) == len(reference) > 0, name
    for expected, got in zip(reference, results):
        assert got[:2] == pytest.approx(expected[:2]), name
        for a, b in zip(expected[2:6], got[2:6]):
            assert float(b) == pytest.approx(float(a), abs=1e-9, rel=1e-9), (name, expected, got)
        assert tuple(got[6:]) == tuple(expected[6:]), (name, expected, got)


@pytest.mark.needs_engines("postgres", "spark")
def test_postgres_and_spark_compute_the_same_numbers(tmp_path: Path) -> None:
    """One query with every macro over a grid of t, df, user keys and resamples:
    PostgreSQL and Spark (through their dispatch) agree with DuckDB to 1e-9, the
    draws and the counts derived from them exactly."""
    rows = _engine_rows()
    reference = _on_duckdb(rows)
    for name, results in (("postgres", _on_postgres(rows, tmp_path)), ("spark", _on_spark(rows, tmp_path))):
        _assert_the_same_numbers(name, reference, results)
    # and DuckDB's values are right
    for t, df, p, p_normal, q975, q2, draw, flip, weight in reference:
        assert p == pytest.approx(2 * stats.t.sf(abs(t), df), abs=1e-7)
        assert q975 == pytest.approx(stats.t.ppf(0.975, df), rel=1e-9)
        assert q2 == pytest.approx(stats.t.ppf(0.02, df), rel=1e-9)


@pytest.mark.needs_engines("clickhouse")
def test_clickhouse_computes_the_same_numbers() -> None:
    """The same query on ClickHouse, with no override of these macros: the same
    numbers as on DuckDB to 1e-9, the draws and the counts exactly."""
    rows = _engine_rows()
    _assert_the_same_numbers("clickhouse", _on_duckdb(rows), _on_clickhouse(rows))
