"""The commands of tests/engines/test_metrics_history.py, which dbt runs after
the integration build of each engine, in the same dbt process
(tests/engines/conftest.py): three `dbt build`s of the package model
rankwise_metrics_history, two with the same evaluation key and one with
another, each followed by the rows per key, then the final tables, all read
back with `dbt show` (the engines' servers live only while dbt runs)."""

from __future__ import annotations

import json
from typing import Any

from .dbt_project_runner import CommandOutput

HISTORY = "{{ ref('rankwise', 'rankwise_metrics_history') }}"
METRICS = "{{ ref('rankwise', 'rankwise_metrics') }}"
COLUMNS = ("cast(example_id as varchar(40)) as example_id, metric, k, metric_label, value, n_users, "
           "n_users_without_list")
# One metric at every cutoff: the test is of the history's keys and rows; every
# metric of rankwise_metrics is checked by the integration build on each engine.
SWITCHED_ON = {"rankwise_metrics_history": True, "rankwise_metrics": ["ndcg"]}
STEPS = (("first", "2026-01-01"), ("again", "2026-01-01"), ("next", "2026-01-02"))
PER_KEY = (f"select evaluation_id, count(*) as n_rows, min(evaluated_at) as first_at, max(evaluated_at) as last_at "
           f"from {HISTORY} group by evaluation_id order by evaluation_id")
ORDER = "order by example_id, metric, k"
FINALS = {"metrics": f"select {COLUMNS} from {METRICS} {ORDER}",
          "last": f"select {COLUMNS} from {HISTORY} where evaluation_id = '2026-01-02' {ORDER}",
          "columns": f"select * from {HISTORY} limit 1"}
# The model's description, which persist_docs writes as the table's comment.
COMMENT_SQL = {
    "duckdb": "select comment from duckdb_tables() where table_name = 'rankwise_metrics_history'",
    "postgres": "select obj_description(oid) as comment from pg_class where relname = 'rankwise_metrics_history'",
    "clickhouse": "select comment from system.tables where name = 'rankwise_metrics_history'",
}


def _show(sql: str, variables: dict[str, Any]) -> list[str]:
    # The vars of the build before it: other vars would make dbt parse the
    # project again, the same ones let it reuse the parse.
    return ["show", "--inline", sql, "--limit", "-1", "--output", "json", "--log-format", "json",
            "--vars", json.dumps(variables)]


def _finals(engine: str) -> dict[str, str]:
    return {**FINALS, "comment": COMMENT_SQL[engine]} if engine in COMMENT_SQL else FINALS


def history_commands(engine: str) -> tuple[list[str], ...]:
    """A build per key, each followed by the rows per key, then the final
    tables. The inputs are the integration build's; the first build makes
    rankwise_metrics again with the one metric, each later one the history
    only, as a scheduled run would."""
    commands = []
    for position, (_, key) in enumerate(STEPS):
        variables = {**SWITCHED_ON, "rankwise_evaluation_id": key}
        selected = ["rankwise_metrics_history", "rankwise_metrics"] if position == 0 else ["rankwise_metrics_history"]
        commands += [["build", "--select", *selected, "--vars", json.dumps(variables)], _show(PER_KEY, variables)]
    last_build = {**SWITCHED_ON, "rankwise_evaluation_id": STEPS[-1][1]}
    return (*commands, *(_show(sql, last_build) for sql in _finals(engine).values()))


def _rows(output: CommandOutput) -> list[dict[str, Any]]:
    assert output.returncode == 0, output.output[-3000:]
    [preview] = [json.loads(line)["data"]["preview"] for line in output.output.splitlines()
                 if line.startswith("{") and '"preview"' in line]
    return json.loads(preview)


def history_states(outputs: list[CommandOutput], engine: str) -> dict[str, Any]:
    """What the tests read of the outputs of history_commands(engine): the rows
    per key after each step, and the final tables by name."""
    states: dict[str, Any] = {"engine": engine}
    for position, (step, _) in enumerate(STEPS):
        build = outputs[2 * position]
        assert build.returncode == 0, build.output[-3000:]
        states[step] = _rows(outputs[2 * position + 1])
    for name, output in zip(_finals(engine), outputs[2 * len(STEPS):]):
        states[name] = _rows(output)
    states["columns"] = list(states["columns"][0])
    return states
