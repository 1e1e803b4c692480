"""The whole queries of tests/unit/test_dialects.py, a few hundred renderings of
evaluate and compare parsed in each warehouse's SQL dialect, with their column
names quoted the engine's way, their casts to types the engine has, and
rankwise.sql in each dialect; the checks and the cases are that file's. The
warehouses with a catalogue (Snowflake, BigQuery, Redshift, Trino, Databricks)
have the cases of evaluate and compare parsed and checked in the walk of
tests/slow/test_warehouse_catalogue.py, which parses each query once for both."""

from __future__ import annotations

import re
from typing import Any

import duckdb
import pytest
import sqlglot
from sqlglot import exp
from sqlglot.tokens import Token, TokenType

import rankwise
from rankwise._api import DIALECT_ADAPTERS
from tests.unit.test_dialects import (
    ALL_METRICS,
    DEFAULT_TYPES,
    DIALECTS,
    DUCKDB_ONLY,
    ENGINE_TYPES,
    SQL_CASES,
    EVALUATE_CASES,
    ODD_COLUMNS,
    ODD_GROUPS,
    PER_USER_METRICS,
    VALIDATION_CASES,
    _calls,
    _one_argument_log_calls,
    _render,
    assert_column,
    column_problem,
    parsed,
    whole_query_problems,
)
from tests.unit.warehouse_catalogue import CATALOGUES

# rankwise.compare: every test, every user set, partitions and groups, a numeric
# baseline, every correction.
COMPARE_METRICS = [metric for metric in PER_USER_METRICS if not metric.startswith("idcg")]
COMPARE_CASES: dict[str, dict[str, Any]] = {
    "every_pair": dict(metrics=COMPARE_METRICS, k=[5, None], relevance_col="relevance"),
    "every_test": dict(metrics=COMPARE_METRICS, k=[3], baseline="popular", tests=["t", "randomization", "bootstrap"],
                       n_resamples=10, seed=3, correction="bh", partition_by=["fold"], group_by=["segment"]),
    "users_both_relevant": dict(metrics=["ndcg", "map"], k=[5], baseline=1, users={"default": "both", "map": "relevant"},
                                tests=["bootstrap"], correction="none", score_col="score", ties="shared"),
}


def _cast_types(sql: str, dialect: str) -> set[str]:
    """The types of every CAST(... AS type) as written in the SQL."""
    types = set()
    for call in _calls(sqlglot.tokenize(sql, read=dialect), "CAST"):
        aliases = [index for index, (depth, token) in enumerate(call) if depth == 1 and token.token_type == TokenType.ALIAS]
        types.add(" ".join(token.text.lower() for _, token in call[aliases[0] + 1:]) if aliases else "")
    return types


# The dialects whose evaluate and compare cases no catalogue walks.
UNWALKED = [adapter_type for adapter_type in DIALECTS if adapter_type not in CATALOGUES]


def call_problems(tree: exp.Expression, sql: str, dialect: str, macro: str, tables: tuple[str, ...],
                  arguments: dict[str, Any], tokens: list[Token] | None = None) -> list[str]:
    """What a whole query of `macro` must pass, each problem as a message:
    test_dialects' checks of any whole query; and of evaluate's and compare's,
    the inputs read (evaluate's recommendations, as entropy alone reads nothing
    else; compare's both) and each partition and group column quoted the
    engine's way."""
    problems = whole_query_problems(tree, sql, dialect, tokens)
    if macro not in ("evaluate", "compare") or problems:
        return problems
    read = {table.name for table in tree.find_all(exp.Table)}
    expected = {name.rsplit(".", 1)[-1] for name in (tables if macro == "compare" else tables[:1])}
    if not expected <= read:
        problems.append(f"reads {sorted(read)}, not {sorted(expected - read)}")
    for column in [*(arguments.get("partition_by") or []), *(arguments.get("group_by") or [])]:
        problem = column_problem(tree, sql, dialect, column)
        if problem:
            problems.append(problem)
    return problems


@pytest.mark.parametrize("adapter_type", UNWALKED)
@pytest.mark.parametrize("macro, case", [*(("evaluate", case) for case in EVALUATE_CASES),
                                         *(("compare", case) for case in COMPARE_CASES)])
def test_evaluate_and_compare_parse_in_each_dialect(adapter_type: str, macro: str, case: str) -> None:
    dialect = DIALECTS[adapter_type]
    tables = ("analytics.recs", "analytics.truth")
    arguments = (EVALUATE_CASES if macro == "evaluate" else COMPARE_CASES)[case]
    sql = _render(adapter_type, macro, *tables, **arguments)
    tree = sqlglot.parse_one(sql, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
    assert call_problems(tree, sql, dialect, macro, tables, arguments) == []


@pytest.mark.parametrize("adapter_type", DIALECTS)
@pytest.mark.parametrize("per_user", [False, True], ids=["means", "per_user"])
@pytest.mark.parametrize("ranked_by", ["rank_col", "score_col"])
def test_column_names_are_quoted_for_the_dialect_in_evaluate(adapter_type: str, per_user: bool, ranked_by: str) -> None:
    dialect = DIALECTS[adapter_type]
    metrics = PER_USER_METRICS if per_user else ALL_METRICS
    # with a score column the rank column is not read
    unused = "score_col" if ranked_by == "rank_col" else "rank_col"
    columns = {role: name for role, name in ODD_COLUMNS.items() if role != unused}
    sql = _render(adapter_type, "evaluate", "recs", "truth", metrics=metrics, k=[3, None], group_by=ODD_GROUPS,
                  per_user=per_user, ties="shared", users="interactions", **columns)
    tree = parsed(sql, dialect)
    for name in [*columns.values(), *ODD_GROUPS]:
        assert_column(tree, sql, dialect, name)


@pytest.mark.parametrize("adapter_type", DIALECTS)
def test_casts_name_types_the_engine_has(adapter_type: str) -> None:
    """sqlglot parses `double` and `varchar` in every dialect; BigQuery has neither
    (FLOAT64, STRING), PostgreSQL and Redshift have no bare `double`."""
    queries = [_render(adapter_type, "evaluate", "recs", "truth", **EVALUATE_CASES[case])
               for case in ("golden__default", "per_user_every_metric", "duplicate_interactions_max")]
    queries += [_render(adapter_type, macro, *tables, **kwargs) for macro, tables, kwargs in VALIDATION_CASES.values()]
    types = {name for sql in queries for name in _cast_types(sql, DIALECTS[adapter_type])}
    # cutoffs are BIGINT: any k an engine holds
    assert "bigint" in types
    expected = ENGINE_TYPES.get(adapter_type, DEFAULT_TYPES)
    assert types <= expected, f"{adapter_type} casts to {sorted(types - expected)}"


@pytest.mark.parametrize("dialect", list(DIALECT_ADAPTERS))
@pytest.mark.parametrize("case", SQL_CASES)
def test_rankwise_sql_holds_nothing_its_engine_lacks(dialect: str, case: str) -> None:
    """No one-argument log (its base differs between engines), no QUALIFY
    (PostgreSQL, Redshift, Trino and Spark have none), casts only to the engine's
    types, none of DuckDB's own functions outside DuckDB (but those PostgreSQL
    has too); on Redshift, neither a
    VALUES list nor `is not distinct from`."""
    sql = rankwise.sql("analytics.recs", "analytics.truth", dialect=dialect, **EVALUATE_CASES[case])
    tokens = sqlglot.tokenize(sql, read=dialect)
    assert _one_argument_log_calls(tokens) == 0
    assert not [token for token in tokens if token.token_type == TokenType.QUALIFY]
    types = _cast_types(sql, dialect)
    assert "bigint" in types and types <= ENGINE_TYPES.get(dialect, DEFAULT_TYPES), sorted(types)
    duckdb_functions = {match.group(0).rstrip("( ") for match in DUCKDB_ONLY.finditer(sql.lower())}
    assert not duckdb_functions - SHARED_WITH_DUCKDB.get(dialect, set()) or dialect == "duckdb", sorted(duckdb_functions)
    if dialect == "redshift":
        # the stages' opening comments say "values" in words
        code = re.sub(r"--[^\n]*", "", sql)
        assert not re.search(r"(?i)\bvalues\b|\bis\s+not\s+distinct\s+from\b", code)


# What PostgreSQL has of DuckDB's own: bit_count (of a bit string, PostgreSQL 14)
# and NOT MATERIALIZED (PostgreSQL 12).
SHARED_WITH_DUCKDB = {"postgres": {"bit_count", "materialized"}}


@pytest.mark.parametrize("case", SQL_CASES)
def test_rankwise_sql_runs_on_duckdb(case: str) -> None:
    """The DuckDB dialect's query runs on tables of a schema, and gives the rows
    evaluate gives."""
    con = duckdb.connect()
    con.execute("create schema analytics")
    con.execute("create table analytics.recs as select * from (values ('e1', 'm', 'r', 'u1', 'a', 1, 0.9), "
                "('e1', 'm', 'r', 'u1', 'b', 2, 0.5), ('e1', 'm', 'r', 'u2', 'a', 1, 0.5)) "
                "as t(example_id, model, run, user_id, item_id, rank, score)")
    con.execute("create table analytics.truth as select * from (values ('u1', 'b', 2.0), ('u2', 'c', 1.0)) "
                "as t(user_id, item_id, relevance)")
    arguments = EVALUATE_CASES[case]
    rows = con.sql(rankwise.sql("analytics.recs", "analytics.truth", **arguments)).fetchall()
    evaluated = rankwise.evaluate("analytics.recs", "analytics.truth", con=con, output="relation", **arguments)
    assert rows and sorted(rows, key=str) == sorted(evaluated.fetchall(), key=str)
