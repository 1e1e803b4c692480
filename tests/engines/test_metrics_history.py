"""The package model rankwise_metrics_history: three `dbt build`s on one
database, two with the same evaluation key and one with another. The same key
replaces its rows (never duplicates them); a new key adds one evaluation. On
each engine (PostgreSQL, Spark and ClickHouse under the `engines` marker); the
tables are read back with `dbt show` in the same dbt process, as the engines'
servers live only while dbt runs."""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

import pytest

from .dbt_project_runner import CommandOutput, run_dbt_commands

HISTORY = "{{ ref('rankwise', 'rankwise_metrics_history') }}"
METRICS = "{{ ref('rankwise', 'rankwise_metrics') }}"
COLUMNS = ("cast(example_id as varchar(40)) as example_id, metric, k, metric_label, value, n_users, "
           "n_users_without_list")
# One metric at every cutoff: the test is of the history's keys and rows; every
# metric of rankwise_metrics is checked by the integration build on each engine.
SWITCHED_ON = {"rankwise_metrics_history": True, "rankwise_metrics": ["ndcg"]}


def _show(sql: str, variables: dict[str, Any]) -> list[str]:
    # The vars of the build before it: other vars would make dbt parse the
    # project again (a dozen seconds), the same ones let it reuse the parse.
    return ["show", "--inline", sql, "--limit", "-1", "--output", "json", "--log-format", "json",
            "--vars", json.dumps(variables)]


def _rows(output: CommandOutput) -> list[dict[str, Any]]:
    assert output.returncode == 0, output.output[-3000:]
    [preview] = [json.loads(line)["data"]["preview"] for line in output.output.splitlines()
                 if line.startswith("{") and '"preview"' in line]
    return json.loads(preview)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


# The model's description, which persist_docs writes as the table's comment.
COMMENT_SQL = {
    "duckdb": "select comment from duckdb_tables() where table_name = 'rankwise_metrics_history'",
    "postgres": "select obj_description(oid) as comment from pg_class where relname = 'rankwise_metrics_history'",
    "clickhouse": "select comment from system.tables where name = 'rankwise_metrics_history'",
}


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory, engine: str) -> dict[str, Any]:
    """Every build and query in one dbt process (one engine start): a build per
    key, each followed by the per-key counts, then the final tables."""
    scratch = tmp_path_factory.mktemp(f"metrics_history_{engine}")
    per_key = (f"select evaluation_id, count(*) as n_rows, min(evaluated_at) as first_at, max(evaluated_at) as last_at "
               f"from {HISTORY} group by evaluation_id order by evaluation_id")
    steps = (("first", "2026-01-01"), ("again", "2026-01-01"), ("next", "2026-01-02"))
    commands = []
    for position, (_, key) in enumerate(steps):
        variables = {**SWITCHED_ON, "rankwise_evaluation_id": key}
        # the inputs and rankwise_metrics once; each later build only the history, as a scheduled run would
        selected = ["+rankwise_metrics_history", "rankwise_metrics"] if position == 0 else ["rankwise_metrics_history"]
        commands += [["build", "--select", *selected, "--vars", json.dumps(variables)], _show(per_key, variables)]
    order = "order by example_id, metric, k"
    finals = {"metrics": f"select {COLUMNS} from {METRICS} {order}",
              "last": f"select {COLUMNS} from {HISTORY} where evaluation_id = '2026-01-02' {order}",
              "columns": f"select * from {HISTORY} limit 1"}
    if engine in COMMENT_SQL:
        finals["comment"] = COMMENT_SQL[engine]
    outputs = run_dbt_commands([*commands, *(_show(sql, variables) for sql in finals.values())], scratch, engine)
    states: dict[str, Any] = {"engine": engine}
    for position, (step, _) in enumerate(steps):
        build = outputs[2 * position]
        assert build.returncode == 0, build.output[-3000:]
        states[step] = _rows(outputs[2 * position + 1])
    for name, output in zip(finals, outputs[len(commands):]):
        states[name] = _rows(output)
    states["columns"] = list(states["columns"][0])
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


def test_the_columns_and_their_documentation(history) -> None:
    assert history["columns"] == ["example_id", "metric", "k", "metric_label", "value", "n_users",
                                  "n_users_without_list", "ci_low", "ci_high", "evaluated_at", "evaluation_id"]
    if history["engine"] == "spark":
        return  # dbt-spark writes comments on Delta, Hudi and Iceberg tables only; these are Parquet
    [row] = history["comment"]
    assert row["comment"].startswith("The rows of rankwise_metrics for every evaluation")
