"""Runs several dbt commands in one process, through dbt's programmatic entry
point, so that they share one start-up (and on Spark one SparkSession, which
dbt-spark's session method keeps for the life of the process). Each command's
output is framed by marker lines on stdout, with its exit code:

    python -c "$(cat commands_in_one_process.py)" '[["build", ...], ["show", ...]]'

It is run from its text, not as a file: dbt imports every module named dbt_*
it finds on sys.path as a plugin, and a script's folder is put first there
(this folder has dbt_project_runner.py).

With RANKWISE_CHDB_PATH set, dbt-clickhouse's connections go to ClickHouse
inside this process (chDB, whose data lives in that folder) rather than to a
server: dbt-clickhouse has no chDB driver of its own, and clickhouse-connect,
which its `http` driver calls, has a chDB client of the same interface.
"""

from __future__ import annotations

import json
import os
import sys

MARKER = "@@rankwise-dbt-command"


def _connect_clickhouse_to_chdb(path: str) -> None:
    """Every client dbt-clickhouse's `http` driver asks clickhouse-connect for
    becomes a chDB client on `path`, with the same session settings (the
    profile's custom_settings among them); host, port and credentials have no
    meaning there. chDB opens one data folder per process."""
    import clickhouse_connect

    get_client = clickhouse_connect.get_client

    def chdb_client(**arguments: object) -> object:
        return get_client(interface="chdb", path=path, settings=arguments.get("settings"))

    clickhouse_connect.get_client = chdb_client


def main() -> None:
    if os.environ.get("RANKWISE_CHDB_PATH"):
        _connect_clickhouse_to_chdb(os.environ["RANKWISE_CHDB_PATH"])

    from dbt.cli.main import dbtRunner

    runner = dbtRunner()
    for index, arguments in enumerate(json.loads(sys.argv[1])):
        print(f"{MARKER} {index} start", flush=True)
        result = runner.invoke(arguments)
        sys.stdout.flush()
        sys.stderr.flush()
        print(f"{MARKER} {index} exit {0 if result.success else 1}", flush=True)


if __name__ == "__main__":
    main()
