"""The package model rankwise_metrics_history: three `dbt build`s on one
database, two with the same evaluation key and one with another. The same key
replaces its rows (never duplicates them); a new key adds one evaluation. On
each engine (PostgreSQL, Spark and ClickHouse under the `engines` marker),
after the integration build of that engine, in its dbt process
(tests/engines/metrics_history_run.py)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import pytest

from .dbt_project_runner import DbtRun
from .metrics_history_run import history_states


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


@pytest.fixture(scope="module")
def history(dbt_build: DbtRun) -> dict[str, Any]:
    return history_states(dbt_build.and_then, dbt_build.engine)


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
                                  "n_users_without_list", "ci_low", "ci_high", "ci_clipped", "evaluated_at", "evaluation_id"]
    if history["engine"] == "spark":
        return  # dbt-spark writes comments on Delta, Hudi and Iceberg tables only; these are Parquet
    [row] = history["comment"]
    assert row["comment"].startswith("The rows of rankwise_metrics for every evaluation")
