"""The package model rankwise_metrics_history on DuckDB: three `dbt build`s on one
database, two with the same evaluation key and one with another. The same key
replaces its rows (never duplicates them); a new key adds one evaluation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
import pytest

from .dbt_project_runner import DbtRun, run_dbt

pytestmark = pytest.mark.dbt


def _build(scratch: Path, evaluation_id: str) -> DbtRun:
    variables = {"rankwise_metrics_history": True, "rankwise_evaluation_id": evaluation_id}
    run = run_dbt(["build", "--select", "+rankwise_metrics_history", "rankwise_metrics",
                   "--vars", json.dumps(variables)], scratch)
    assert run.returncode == 0, run.output[-3000:]
    return run


def _rows(run: DbtRun, query: str) -> list[tuple]:
    with duckdb.connect(str(run.database), read_only=True) as con:
        return con.sql(query).fetchall()


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple]]:
    scratch = tmp_path_factory.mktemp("metrics_history")
    query = ("select evaluation_id, count(*), min(evaluated_at), max(evaluated_at) "
             "from main.rankwise_metrics_history group by evaluation_id order by evaluation_id")
    states = {}
    for step, key in (("first", "2026-01-01"), ("again", "2026-01-01"), ("next", "2026-01-02")):
        run = _build(scratch, key)
        states[step] = _rows(run, query)
    states["metrics"] = _rows(run, "select example_id, metric, k, metric_label, value, n_users "
                                   "from main.rankwise_metrics order by all")
    states["last"] = _rows(run, "select example_id, metric, k, metric_label, value, n_users "
                                "from main.rankwise_metrics_history where evaluation_id = '2026-01-02' order by all")
    states["columns"] = [row[0] for row in _rows(run, "select column_name from information_schema.columns "
                                                      "where table_name = 'rankwise_metrics_history' order by ordinal_position")]
    states["comments"] = _rows(run, "select comment from duckdb_tables() where table_name = 'rankwise_metrics_history'")
    return states


def test_the_same_key_replaces_its_rows(history) -> None:
    [(key, n_rows, first_at, _)] = history["first"]
    assert key == "2026-01-01" and n_rows == len(history["metrics"]) > 0
    [(key, n_again, again_from, again_to)] = history["again"]
    assert (key, n_again) == ("2026-01-01", n_rows)
    # Rows of the second run, not the first's kept: every row is from later.
    assert again_from == again_to and again_from > first_at


def test_another_key_adds_one_evaluation(history) -> None:
    (first_key, n_first, _, kept_at), (next_key, n_next, _, _) = history["next"]
    assert (first_key, next_key) == ("2026-01-01", "2026-01-02")
    assert n_first == n_next == len(history["metrics"])
    assert kept_at == history["again"][0][3]


def test_each_evaluation_holds_the_rows_of_rankwise_metrics(history) -> None:
    assert len(history["last"]) == len(history["metrics"])
    for actual, expected in zip(history["last"], history["metrics"]):
        assert actual[:4] == expected[:4] and actual[5] == expected[5]
        assert math.isclose(actual[4], expected[4], rel_tol=0, abs_tol=1e-12)
    labels = {(metric, k): label for _, metric, k, label, _, _ in history["metrics"]}
    assert labels[("ndcg", 10)] == "ndcg@10" and labels[("ndcg", None)] == "ndcg"


def test_the_columns_and_their_documentation(history) -> None:
    assert history["columns"] == ["example_id", "metric", "k", "metric_label", "value", "n_users", "evaluated_at",
                                  "evaluation_id"]
    # persist_docs wrote the model's description as the table's comment.
    [(comment,)] = history["comments"]
    assert comment.startswith("The rows of rankwise_metrics for every evaluation")
