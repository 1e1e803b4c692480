"""The Python wrapper renders the same SQL as dbt compiles, and it gives the same
numbers: for every case of var('rankwise_parity_cases') (every public macro, and
evaluate under every option) and every case of var('rankwise_test_cases')."""

from __future__ import annotations

import csv
import math
from typing import Any

import duckdb
import pandas as pd
import pytest
import sqlglot
import yaml

import rankwise
from rankwise._render import renderer
from tests.reference import make_expected

from .dbt_project_runner import INTEGRATION_PROJECT, DbtRun

VARS = yaml.safe_load((INTEGRATION_PROJECT / "dbt_project.yml").read_text())["vars"]
PARITY_CASES = VARS["rankwise_parity_cases"]
TEST_CASES = VARS["rankwise_test_cases"]


@pytest.fixture(scope="module")
def database(duckdb_build: DbtRun) -> duckdb.DuckDBPyConnection:
    assert duckdb_build.returncode == 0, duckdb_build.output[-3000:]
    with duckdb.connect(str(duckdb_build.database), read_only=True) as con:
        yield con


@pytest.fixture(scope="module")
def dbt_rendered(database: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return dict(database.sql("select case_name, rendered_sql from main.parity__rendered_sql").fetchall())


def _normalised(sql: str) -> sqlglot.Expression:
    return sqlglot.parse_one(sql, read="duckdb")


def _sorted_rows(relation: duckdb.DuckDBPyRelation) -> list[tuple]:
    return sorted(relation.fetchall(), key=lambda row: tuple((value is None, str(value)) for value in row))


@pytest.mark.parametrize("case", PARITY_CASES, ids=[case["name"] for case in PARITY_CASES])
def test_same_sql_as_dbt(case: dict[str, Any], dbt_rendered: dict[str, str]) -> None:
    python_rendered = str(renderer().call(case["macro"], *case["args"], **case["kwargs"])).strip()
    assert _normalised(python_rendered) == _normalised(dbt_rendered[case["name"]])


EVALUATE_CASES = [case for case in PARITY_CASES if case["macro"] == "evaluate"]


@pytest.mark.parametrize("case", EVALUATE_CASES, ids=[case["name"] for case in EVALUATE_CASES])
def test_same_numbers_as_dbt(case: dict[str, Any], dbt_rendered: dict[str, str], database) -> None:
    from_dbt = _sorted_rows(database.sql(dbt_rendered[case["name"]]))
    from_python = _sorted_rows(database.sql(str(renderer().call("evaluate", *case["args"], **case["kwargs"]))))
    assert len(from_python) == len(from_dbt) > 0
    # The same SQL: equal up to the order of a parallel floating point sum.
    for python_row, dbt_row in zip(from_python, from_dbt):
        for python_value, dbt_value in zip(python_row, dbt_row):
            if isinstance(dbt_value, float):
                assert math.isclose(python_value, dbt_value, rel_tol=0, abs_tol=1e-12), (python_row, dbt_row)
            else:
                assert python_value == dbt_value


def _cutoff(k: Any) -> int | None:
    return None if pd.isna(k) else int(k)


def _expected_rows() -> dict[tuple, tuple[float, int | None]]:
    with (INTEGRATION_PROJECT / "seeds" / "expected__cases.csv").open(newline="") as handle:
        return {
            (row["variant"], row["example_id"], row["user_id"] or None, row["metric"], int(row["k"]) if row["k"] else None):
            (float(row["expected_value"]), int(row["expected_n_users"]) if row["expected_n_users"] else None)
            for row in csv.DictReader(handle)
        }


@pytest.mark.parametrize("case", TEST_CASES, ids=[case["name"] for case in TEST_CASES])
def test_every_case_through_rankwise_evaluate(case: dict[str, Any], database) -> None:
    """Every golden row, through the Python API, within 1e-9 of the oracle and
    equal to what dbt built."""
    arguments = {**make_expected.evaluate_arguments(case), "con": database}
    recommendations, interactions = f"main.{case['recommendations']}", f"main.{case['interactions']}"
    actual: dict[tuple, tuple[float, int | None]] = {}
    for row in rankwise.evaluate(recommendations, interactions, **arguments).itertuples():
        actual[(case["name"], row.example_id, None, row.metric, _cutoff(row.k))] = (row.value, row.n_users)
    user_metrics = [metric for metric in case["metrics"] if metric != "entropy"]
    if user_metrics:
        arguments.update(metrics=user_metrics, per_user=True)
        for row in rankwise.evaluate(recommendations, interactions, **arguments).itertuples():
            actual[(case["name"], row.example_id, row.user_id, row.metric, _cutoff(row.k))] = (row.value, None)

    expected = {key: value for key, value in _expected_rows().items() if key[0] == case["name"]}
    assert sorted(actual, key=str) == sorted(expected, key=str)
    for key, (value, n_users) in expected.items():
        assert math.isclose(actual[key][0], value, rel_tol=0, abs_tol=1e-9), key
        assert actual[key][1] == n_users, key

    from_dbt = database.sql(
        "select example_id, user_id, metric, k, value from main.actual__cases where variant = ?", params=[case["name"]]
    ).fetchall()
    assert len(from_dbt) == len(actual)
    for example_id, user_id, metric, k, value in from_dbt:
        assert math.isclose(actual[(case["name"], example_id, user_id, metric, k)][0], value, rel_tol=0, abs_tol=1e-12)
