"""The PostgreSQL tools: the SQL rankwise renders for PostgreSQL (what dbt-postgres
runs for the package's models), against the least work any correct method does
there, the PostgreSQL floor query (issues #35 and #49).

The server is PostgreSQL from PyPI (pgserver), as the integration tests start it,
with its data folder beside the datasets (`pgdata` under the data root); each
dataset is loaded once (COPY, then ANALYZE), outside the timing. Each tool runs
its query once to warm the server's cache, then times a second run. The tools
without a suffix set `work_mem` for the session (`SESSION`), as anyone running
analytics on PostgreSQL does; those named "server defaults" set nothing, which is
what a dbt-postgres user on an untuned server gets (work_mem 4MB). The CPU
seconds are those of the server's processes (the backend and its parallel
workers); the peak memory that of the backend.

The metrics, the cutoff and the check of the values are the Spark tools'
(benchmarks/spark.py): the four metrics MLlib computes, every interaction
relevant; the tools named "graded" read the interactions' relevance (1..3) as
rankwise's `relevance_col`, against the graded floor query."""

from __future__ import annotations

import os
import time
from pathlib import Path

from benchmarks.peak_memory import peak_kib
from benchmarks.spark import FLOOR_QUERY, GRADED, GRADED_FLOOR_QUERY, GRADED_OPTIONS, K, METRICS, RELEVANCE

SESSION = {"work_mem": "256MB"}
FLOOR = "PostgreSQL floor query"
TOOL = "rankwise on PostgreSQL"
DEFAULTS = ", server defaults"
# Each query on either input (every interaction relevant, or graded) under either
# setting (SESSION, or the server's defaults): the suffix of a tool's name.
VARIANTS = [graded + defaults for graded in ("", GRADED) for defaults in ("", DEFAULTS)]


def _floor_query(recommendations: str, interactions: str, graded: bool) -> str:
    return (GRADED_FLOOR_QUERY if graded else FLOOR_QUERY).format(recommendations=recommendations,
                                                                  interactions=interactions)


def _rankwise_query(recommendations: str, interactions: str, graded: bool) -> str:
    import rankwise

    return rankwise.sql(recommendations, interactions, METRICS, k=K, confidence=None, dialect="postgres",
                        **(GRADED_OPTIONS if graded else {}))


WORKERS = {**{FLOOR + variant: _floor_query for variant in VARIANTS},
           **{TOOL + variant: _rankwise_query for variant in VARIANTS}}
# The rankwise options each tool's numbers are checked against (on DuckDB).
OPTIONS = {TOOL + variant: GRADED_OPTIONS if GRADED in variant else {} for variant in VARIANTS}
# The floor query each tool's time is against: the one on the same input and settings.
FLOORS = {name + variant: FLOOR + variant for name in (FLOOR, TOOL) for variant in VARIANTS}


def _loaded(cursor, folder: Path, graded: bool) -> tuple[str, str]:
    """The dataset's recommendations and interactions, each table loaded (and
    analysed) on first use. The graded interactions are a table of their own, so
    that the binary tools read the two columns they read before #49."""
    import duckdb

    name = "".join(character if character.isalnum() else "_" for character in folder.name)
    tables = [(f"recommendations_{name}", "recommendations", "user_id, item_id, rank"),
              (f"graded_interactions_{name}", "interactions", f"user_id, item_id, {RELEVANCE}::integer as {RELEVANCE}")
              if graded else (f"interactions_{name}", "interactions", "user_id, item_id")]
    for table, file, columns in tables:
        cursor.execute("select to_regclass(%s)", (table,))
        if cursor.fetchone()[0] is not None:
            continue
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
    return tables[0][0], tables[1][0]


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
        graded = GRADED in tool
        query = WORKERS[tool](*_loaded(cursor, folder, graded), graded)
        for name, value in ({} if DEFAULTS in tool else SESSION).items():
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
              if tool in OPTIONS else {})
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak_mib, "values": values}
