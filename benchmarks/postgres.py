"""The PostgreSQL tools: the SQL rankwise renders for PostgreSQL (what dbt-postgres
runs for the package's models), against the least work any correct method does
there, the PostgreSQL floor query (issue #35).

The server is PostgreSQL from PyPI (pgserver), as the integration tests start it,
with its data folder beside the datasets (`pgdata` under the data root); each
dataset is loaded once (COPY, then ANALYZE), outside the timing. Each tool runs
its query once to warm the server's cache, then times a second run. The session
sets `work_mem` (SESSION), as anyone running analytics on PostgreSQL does; the
rest is the server's defaults. The CPU seconds are those of the server's
processes (the backend and its parallel workers); the peak memory that of the
backend.

The metrics, the cutoff and the check of the values are the Spark tools'
(benchmarks/spark.py): the four metrics MLlib computes, every interaction
relevant."""

from __future__ import annotations

import os
import time
from pathlib import Path

from benchmarks.peak_memory import peak_kib
from benchmarks.spark import FLOOR_QUERY, K, METRICS

SESSION = {"work_mem": "256MB"}
FLOOR = "PostgreSQL floor query"
TOOL = "rankwise on PostgreSQL"


def _rankwise_query(recommendations: str, interactions: str) -> str:
    import rankwise

    return rankwise.sql(recommendations, interactions, METRICS, k=K, confidence=None, dialect="postgres")


WORKERS = {
    FLOOR: lambda recommendations, interactions: FLOOR_QUERY.format(recommendations=recommendations,
                                                                    interactions=interactions),
    TOOL: _rankwise_query,
}
# The rankwise options each tool's numbers are checked against (on DuckDB).
OPTIONS = {TOOL: {}}


def _loaded(cursor, folder: Path) -> tuple[str, str]:
    """The dataset's two tables, loaded (and analysed) on first use."""
    import duckdb

    name = "".join(character if character.isalnum() else "_" for character in folder.name)
    tables = (f"recommendations_{name}", f"interactions_{name}")
    cursor.execute("select to_regclass(%s)", (tables[1],))
    if cursor.fetchone()[0] is None:
        for table, file, columns in [(tables[0], "recommendations", "user_id, item_id, rank"),
                                     (tables[1], "interactions", "user_id, item_id")]:
            parquet = folder / f"{file}.parquet"
            csv = folder.parent / f"{table}.csv"
            relation = duckdb.sql(f"select {columns} from read_parquet('{parquet}')")
            types = {"BIGINT": "bigint", "INTEGER": "integer"}
            cursor.execute(f"create table {table} ("
                           + ", ".join(f"{column} {types[str(kind)]}" for column, kind in zip(relation.columns, relation.types))
                           + ")")
            relation.write_csv(str(csv), header=False)
            try:
                with csv.open() as rows:
                    cursor.copy_expert(f"copy {table} from stdin with (format csv)", rows)
            finally:
                csv.unlink()
            cursor.execute(f"analyze {table}")
    return tables


def _server_cpu_seconds(postmaster: int) -> float:
    """CPU time of the server: the postmaster, its children alive, and those it
    has reaped (the parallel workers of a finished query)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
        elif parent == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def measure(tool: str, folder: Path) -> dict:
    """One PostgreSQL tool's second run of its query (above)."""
    import pgserver
    import psycopg2

    data = folder.parent / "pgdata"
    server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        connection = psycopg2.connect(server.get_uri())
        connection.autocommit = True
        cursor = connection.cursor()
        query = WORKERS[tool](*_loaded(cursor, folder))
        for name, value in SESSION.items():
            cursor.execute(f"set {name} = '{value}'")
        cursor.execute("select pg_backend_pid()")
        backend = cursor.fetchone()[0]
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        cursor.execute(query)
        cursor.fetchall()
        started, cpu_started = time.perf_counter(), _server_cpu_seconds(postmaster)
        cursor.execute(query)
        rows = cursor.fetchall()
        seconds, cpu_seconds = time.perf_counter() - started, _server_cpu_seconds(postmaster) - cpu_started
        peak_mib = peak_kib(backend) / 1024
        names = [column.name for column in cursor.description]
        connection.close()
    finally:
        server.cleanup()
    values = ({f"{row['metric']}@{row['k']}": row["value"] for row in (dict(zip(names, row)) for row in rows)}
              if tool == TOOL else {})
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak_mib, "values": values}
