"""The Python wrapper against the oracle's expected values, without dbt: every
case of var('rankwise_test_cases') in integration_tests/dbt_project.yml, run
through rankwise.evaluate on the same input seeds, as means per example and per
user, must give integration_tests/seeds/expected__cases.csv within 1e-9, row
for row. This mirrors the dbt model integration_tests/models/actual__cases.sql
(which asserts the same seed on each engine); tests/unit/test_golden_examples.py
checks that seed against the oracle and the specification."""

from __future__ import annotations

import csv
import math
from typing import Any

import duckdb
import pandas as pd
import pytest

import rankwise
from tests.reference import make_expected

TOLERANCE = 1e-9
SEEDS = make_expected.SEEDS
CASES = make_expected.cases()

Key = tuple[str, str, str, str]  # (example_id, user_id or "" for a mean, metric, k or "" for the whole list)


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    """The input seeds as tables, read once, named as dbt names them."""
    connection = duckdb.connect()
    for name in sorted({case[role] for case in CASES for role in ("recommendations", "interactions")}):
        connection.execute(f"create table {name} as select * from read_csv(?)", [str(SEEDS / f"{name}.csv")])
    return connection


@pytest.fixture(scope="module")
def expected() -> dict[str, dict[Key, tuple[float, str]]]:
    """variant -> key -> (expected value, expected n_users or "" per user)."""
    rows: dict[str, dict[Key, tuple[float, str]]] = {}
    with (SEEDS / "expected__cases.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["example_id"], row["user_id"], row["metric"], row["k"])
            rows.setdefault(row["variant"], {})[key] = (float(row["expected_value"]), row["expected_n_users"])
    return rows


def _k(value: Any) -> str:
    return "" if pd.isna(value) else str(int(value))


def _actual(con: duckdb.DuckDBPyConnection, case: dict[str, Any]) -> dict[Key, tuple[float, str]]:
    """The rows actual__cases.sql builds for one case: the means of every metric,
    then the per-user values of every metric but entropy (a property of the
    whole group of lists)."""
    arguments = make_expected.evaluate_arguments(case)
    # validate=False: the input checks are tested in test_validation.py and never
    # change the numbers (test_malformed_input.py); skipping them here keeps this
    # test in the fast lane.
    rows: dict[Key, tuple[float, str]] = {}
    means = rankwise.evaluate(case["recommendations"], case["interactions"], con=con, validate=False, **arguments)
    for row in means.itertuples(index=False):
        rows[(row.example_id, "", row.metric, _k(row.k))] = (row.value, str(row.n_users))
    user_metrics = [metric for metric in case["metrics"] if metric != "entropy"]
    if user_metrics:
        per_user = rankwise.evaluate(case["recommendations"], case["interactions"], con=con, validate=False,
                                     **{**arguments, "metrics": user_metrics, "per_user": True})
        for row in per_user.itertuples(index=False):
            rows[(row.example_id, row.user_id, row.metric, _k(row.k))] = (row.value, "")
    return rows


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_wrapper_gives_the_expected_values(case: dict[str, Any], con, expected) -> None:
    wanted = expected[case["name"]]
    actual = _actual(con, case)
    assert sorted(set(wanted) - set(actual)) == [], "expected rows the wrapper does not return"
    assert sorted(set(actual) - set(wanted)) == [], "rows the wrapper returns that are not expected"
    wrong = {key: (actual[key], value) for key, value in wanted.items()
             if not math.isclose(actual[key][0], value[0], rel_tol=0, abs_tol=TOLERANCE) or actual[key][1] != value[1]}
    assert wrong == {}, "(actual, expected) (value, n_users) of each row that differs"


def test_every_variant_of_the_expected_seed_is_a_case(expected) -> None:
    assert sorted(expected) == sorted(case["name"] for case in CASES)
