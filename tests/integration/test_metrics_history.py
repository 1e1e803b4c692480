"""The package model rankwise_metrics_history: three `dbt build`s on one
database, two with the same evaluation key and one with another. The same key
replaces its rows (never duplicates them); a new key adds one evaluation. On
each engine (PostgreSQL and Spark under the `engines` marker); the tables are
read back with `dbt show`, as the engines' servers live only while dbt runs."""

from __future__ import annotations

import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from .dbt_project_runner import DbtRun, run_dbt

pytestmark = pytest.mark.dbt

HISTORY = "{{ ref('rankwise', 'rankwise_metrics_history') }}"
METRICS = "{{ ref('rankwise', 'rankwise_metrics') }}"
COLUMNS = ("cast(example_id as varchar(40)) as example_id, metric, k, metric_label, value, n_users, "
           "n_users_without_list")
SWITCHED_ON = {"rankwise_metrics_history": True}


def _dbt(scratch: Path, engine: str, command: list[str], variables: dict[str, Any]) -> DbtRun:
    run = run_dbt([*command, "--vars", json.dumps(variables)], scratch, engine)
    assert run.returncode == 0, run.output[-3000:]
    return run


def _query(scratch: Path, engine: str, sql: str) -> list[dict[str, Any]]:
    run = _dbt(scratch, engine, ["show", "--inline", sql, "--limit", "-1", "--output", "json", "--log-format", "json"],
               SWITCHED_ON)
    [preview] = [json.loads(line)["data"]["preview"] for line in run.output.splitlines()
                 if line.startswith("{") and '"preview"' in line]
    return json.loads(preview)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory, engine: str) -> dict[str, Any]:
    scratch = tmp_path_factory.mktemp(f"metrics_history_{engine}")
    per_key = (f"select evaluation_id, count(*) as n_rows, min(evaluated_at) as first_at, max(evaluated_at) as last_at "
               f"from {HISTORY} group by evaluation_id order by evaluation_id")
    states: dict[str, Any] = {"engine": engine, "scratch": scratch}
    for step, key in (("first", "2026-01-01"), ("again", "2026-01-01"), ("next", "2026-01-02")):
        _dbt(scratch, engine, ["build", "--select", "+rankwise_metrics_history", "rankwise_metrics"],
             {**SWITCHED_ON, "rankwise_evaluation_id": key})
        states[step] = _query(scratch, engine, per_key)
    order = "order by example_id, metric, k"
    states["metrics"] = _query(scratch, engine, f"select {COLUMNS} from {METRICS} {order}")
    states["last"] = _query(scratch, engine, f"select {COLUMNS} from {HISTORY} where evaluation_id = '2026-01-02' {order}")
    states["columns"] = list(_query(scratch, engine, f"select * from {HISTORY} limit 1")[0])
    return states


def test_the_same_key_replaces_its_rows(history) -> None:
    [first] = history["first"]
    assert first["evaluation_id"] == "2026-01-01" and first["n_rows"] == len(history["metrics"]) > 0
    [again] = history["again"]
    assert (again["evaluation_id"], again["n_rows"]) == ("2026-01-01", first["n_rows"])
    # Rows of the second run, not the first's kept: every row is from later.
    assert again["first_at"] == again["last_at"] and _at(again["first_at"]) > _at(first["last_at"])


def test_another_key_adds_one_evaluation(history) -> None:
    kept, added = history["next"]
    assert (kept["evaluation_id"], added["evaluation_id"]) == ("2026-01-01", "2026-01-02")
    assert kept["n_rows"] == added["n_rows"] == len(history["metrics"])
    assert kept["last_at"] == history["again"][0]["last_at"]


def test_each_evaluation_holds_the_rows_of_rankwise_metrics(history) -> None:
    assert len(history["last"]) == len(history["metrics"])
    for actual, expected in zip(history["last"], history["metrics"]):
        keys = ("example_id", "metric", "k", "metric_label", "n_users", "n_users_without_list")
        assert {name: actual[name] for name in keys} == {name: expected[name] for name in keys}
        assert math.isclose(actual["value"], expected["value"], rel_tol=0, abs_tol=1e-12)
    labels = {(row["metric"], row["k"]): row["metric_label"] for row in history["metrics"]}
    assert labels[("ndcg", 10)] == "ndcg@10" and labels[("ndcg", None)] == "ndcg"


# The model's description, which persist_docs writes as the table's comment.
COMMENT_SQL = {
    "duckdb": "select comment from duckdb_tables() where table_name = 'rankwise_metrics_history'",
    "postgres": "select obj_description(oid) as comment from pg_class where relname = 'rankwise_metrics_history'",
}


def test_the_columns_and_their_documentation(history) -> None:
    assert history["columns"] == ["example_id", "metric", "k", "metric_label", "value", "n_users",
                                  "n_users_without_list", "ci_low", "ci_high", "evaluated_at", "evaluation_id"]
    if history["engine"] == "spark":
        return  # dbt-spark writes comments on Delta, Hudi and Iceberg tables only; these are Parquet
    [row] = _query(history["scratch"], history["engine"], COMMENT_SQL[history["engine"]])
    assert row["comment"].startswith("The rows of rankwise_metrics for every evaluation")
