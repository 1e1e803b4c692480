"""Snowflake, emulated: the golden cases (every case of var('rankwise_test_cases')
in integration_tests/dbt_project.yml, on its input seeds) as rankwise.sql
writes them for Snowflake, run in fakesnow, must give
integration_tests/seeds/expected__cases.csv within 1e-9, as
tests/unit/test_expected_cases.py holds the wrapper on DuckDB to it.

fakesnow (from PyPI) executes Snowflake SQL locally: it transpiles each
statement with sqlglot into DuckDB's SQL and runs it there. It pins a sqlglot
older than the one rankwise needs, so it lives in a virtual environment of its
own that `make test` creates ($(VENV)-fakesnow) and names in
RANKWISE_FAKESNOW_PYTHON; tests/engines/fakesnow_runner.py runs the SQL in it.
Without that interpreter the test fails: it is never skipped.

What fakesnow cannot run is listed in FAKESNOW_CANNOT_RUN with its error; the
test holds each listed case to that error, so a case fakesnow learns to run
must leave the list. docs/warehouses.md says what this does and does not show.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rankwise
from tests.reference import make_expected
# the expected rows, read as the wrapper's test on DuckDB reads them
from tests.unit.test_expected_cases import Key, expected  # noqa: F401

TOLERANCE = 1e-9
SEEDS = make_expected.SEEDS
CASES = make_expected.cases()
RUNNER = Path(__file__).with_name("fakesnow_runner.py")


# Case name -> a part of the error fakesnow gives, for the golden cases whose
# Snowflake SQL fakesnow (on DuckDB) does not run: none today.
FAKESNOW_CANNOT_RUN: dict[str, str] = {}


def _snowflake(macro: str, *args: Any) -> str:
    from rankwise._render import renderer

    return renderer("snowflake").call(macro, *args)


# The snowflake__ overrides and the cross-database macros one by one, beyond
# what the golden cases read (item vectors): query -> the rows Snowflake's
# reference says it returns.
CONSTRUCTS: dict[str, tuple[str, list[list[Any]]]] = {
    "_positions": ("select rw_position from " + _snowflake("_positions", 5) + " as p order by rw_position",
                   [[1], [2], [3], [4], [5]]),
    "_literal_rows": ("select * from (" + _snowflake("_literal_rows", ["a", "b"], [["null", 1], [5, 0]])
                      + ") as r order by b", [[5, 0], [None, 1]]),
    "_percentile": ("select " + _snowflake("_percentile", "x", 0.25) + " as v from (select * from ("
                    + _snowflake("_literal_rows", ["x"], [[f"cast({x} as double)"] for x in (1, 2, 4, 8)]) + ") as r) as t", [[1.75]]),
    "null_safe_equals": ("select " + _snowflake("null_safe_equals", "a", "b") + " as v from ("
                         + _snowflake("_literal_rows", ["a", "b"], [["null", "null"], [1, "null"]]) + ") as r order by v",
                         [[False], [True]]),
    "vector_length": ("select " + _snowflake("vector_length", "[1, 2, 3]") + " as v", [[3]]),
    "vector_dot_product": ("select " + _snowflake("vector_dot_product", "[1, 2, 3]", "[4, 5, 6]") + " as v", [[32.0]]),
}
# Construct -> a part of the error fakesnow gives for it. ARRAY_GENERATE_RANGE
# becomes DuckDB's range(), which takes no UBIGINT bound as ARRAY_SIZE gives it.
FAKESNOW_CANNOT_RUN_CONSTRUCTS: dict[str, str] = {
    "vector_dot_product": "No function matches the given name and argument types 'range(",
}


def _fakesnow_python() -> str:
    python = os.environ.get("RANKWISE_FAKESNOW_PYTHON", "")
    if not python or not Path(python).exists():
        pytest.fail("RANKWISE_FAKESNOW_PYTHON must name the Python of a virtual environment with fakesnow "
                    "(`make test` creates it as $(VENV)-fakesnow); got " + repr(python))
    return python


def _queries() -> dict[str, str]:
    queries = {}
    for case in CASES:
        arguments = make_expected.evaluate_arguments(case)
        tables = (case["recommendations"], case["interactions"])
        queries[f"{case['name']}|means"] = rankwise.sql(*tables, dialect="snowflake", **arguments)
        user_metrics = [metric for metric in case["metrics"] if metric != "entropy"]
        if user_metrics:
            queries[f"{case['name']}|per_user"] = rankwise.sql(
                *tables, dialect="snowflake", **{**arguments, "metrics": user_metrics, "per_user": True})
    for name, (sql, _) in CONSTRUCTS.items():
        queries[f"construct|{name}"] = sql
    return queries


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    tables = {name: str(SEEDS / f"{name}.csv")
              for name in sorted({case[role] for case in CASES for role in ("recommendations", "interactions")})}
    request = json.dumps({"tables": tables, "queries": _queries()})
    run = subprocess.run([_fakesnow_python(), str(RUNNER)], input=request, capture_output=True, text=True,
                         timeout=1200, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout)


def _k(value: Any) -> str:
    return "" if value is None else str(int(float(value)))


def _actual(results: dict[str, dict[str, Any]], name: str) -> dict[Key, tuple[float, str]]:
    rows: dict[Key, tuple[float, str]] = {}
    for part in ("means", "per_user"):
        result = results.get(f"{name}|{part}")
        if result is None:
            continue
        assert "error" not in result, f"fakesnow could not run the {part} of {name}: {result['error'][:2000]}"
        columns = result["columns"]
        for values in result["rows"]:
            row = dict(zip(columns, values, strict=True))
            value = math.nan if row["value"] is None else float(row["value"])
            if part == "means":
                rows[(row["example_id"], "", row["metric"], _k(row["k"]))] = (value, str(int(float(row["n_users"]))))
            else:
                rows[(row["example_id"], row["user_id"], row["metric"], _k(row["k"]))] = (value, "")
    return rows


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_snowflake_sql_in_fakesnow_gives_the_expected_values(case: dict[str, Any], results, expected) -> None:
    name = case["name"]
    if name in FAKESNOW_CANNOT_RUN:
        errors = [result.get("error", "") for key, result in results.items() if key.startswith(name + "|")]
        assert any(FAKESNOW_CANNOT_RUN[name] in error for error in errors), (
            f"{name} is listed as not run by fakesnow, but its error changed or it ran: {errors}")
        return
    wanted = expected[name]
    actual = _actual(results, name)
    assert sorted(set(wanted) - set(actual)) == [], "expected rows fakesnow does not return"
    assert sorted(set(actual) - set(wanted)) == [], "rows fakesnow returns that are not expected"
    wrong = {key: (actual[key], value) for key, value in wanted.items()
             if not (math.isclose(actual[key][0], value[0], rel_tol=0, abs_tol=TOLERANCE)
                     or (math.isnan(actual[key][0]) and math.isnan(value[0])))
             or actual[key][1] != value[1]}
    assert wrong == {}, "(actual, expected) (value, n_users) of each row that differs"


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_each_snowflake_construct_in_fakesnow(construct: str, results) -> None:
    result = results[f"construct|{construct}"]
    if construct in FAKESNOW_CANNOT_RUN_CONSTRUCTS:
        assert FAKESNOW_CANNOT_RUN_CONSTRUCTS[construct] in result.get("error", ""), (
            f"{construct} is listed as not run by fakesnow, but its error changed or it ran: {result}")
        return
    assert "error" not in result, result["error"][:2000]
    rows = [[float(value) if isinstance(value, str) and value.replace(".", "", 1).isdigit() else value
             for value in row] for row in result["rows"]]
    assert rows == CONSTRUCTS[construct][1]


def test_the_sql_is_snowflakes_own() -> None:
    """What runs is the SQL dbt compiles on Snowflake: the snowflake__ overrides,
    not DuckDB's SQL transpiled."""
    sql = rankwise.sql("recs", "truth", dialect="snowflake", metrics=["ndcg"], k=[3], idcg="k_positions",
                       gain="binary")
    assert "generator(rowcount" in sql and "generate_series" not in sql
    assert sys.version_info >= (3, 11)
