"""The price of a call on Spark (issue #49): the wrapper's first `evaluate` in
a fresh local session, and the calls after it in the same session, at each
size: two models (the benchmark's lists, and the same items in reverse order),
graded relevance, eight metrics, with the input checks. The session is that of
the other Spark tools (benchmarks/spark.py, `SESSION`); its start and the
reading of the Parquet files are timed apart. Each model's means are checked
against rankwise's on DuckDB (within 1e-9) before a time is reported.

    python -m benchmarks --spark-call-cost FILE --users 2000 --hit-density 0.26
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.generate import density_line, generate
from benchmarks.report import machine, write_report
from benchmarks.spark import SESSION

SPARK_CALL_COST_SIZES = [2_000]
METRICS = ["precision@10", "recall@10", "map@10", "ndcg@10", "mrr@10", "hit_rate@10", "f1@10", "r_precision"]
OPTIONS = {"group_by": ["model"], "score_col": "score", "relevance_col": "relevance", "confidence": None}
LATER_CALLS = 5


def worker(folder: Path) -> None:
    """In a fresh process: start the session, read the files, time the first
    call and LATER_CALLS calls after it; print the times and the means as JSON."""
    from pyspark.sql import SparkSession
    from pyspark.sql import functions

    started = time.perf_counter()
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder.appName("rankwise-benchmark spark call cost")
    for name, value in SESSION.items():
        builder = builder.config(name, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    session_seconds = time.perf_counter() - started
    import rankwise

    started = time.perf_counter()
    lists = spark.read.parquet(str(folder / "recommendations.parquet")).select("user_id", "item_id", "score")
    recommendations = lists.withColumn("model", functions.lit("benchmark")).unionByName(
        lists.withColumn("score", -functions.col("score")).withColumn("model", functions.lit("reversed"))).cache()
    interactions = spark.read.parquet(str(folder / "interactions.parquet")).select("user_id", "item_id", "relevance").cache()
    recommendations.count(), interactions.count()
    read_seconds = time.perf_counter() - started
    seconds, means = [], {}
    try:
        for _ in range(1 + LATER_CALLS):
            started = time.perf_counter()
            table = rankwise.evaluate(recommendations, interactions, METRICS, output="pandas", **OPTIONS)
            seconds.append(time.perf_counter() - started)
            means = {f"{row.model} {row.metric_label}": row.value for row in table.itertuples()}
    finally:
        spark.stop()
    print(json.dumps({"session": session_seconds, "read": read_seconds, "calls": seconds, "means": means}))


def _duckdb_means(folder: Path) -> dict[str, float]:
    import duckdb
    import rankwise

    con = duckdb.connect()
    lists = f"read_parquet('{folder / 'recommendations.parquet'}')"
    two_models = con.sql(f"select user_id, item_id, score, 'benchmark' as model from {lists} "
                         f"union all select user_id, item_id, -score, 'reversed' from {lists}")
    interactions = con.sql(f"select user_id, item_id, relevance from read_parquet('{folder / 'interactions.parquet'}')")
    table = rankwise.evaluate(two_models, interactions, METRICS, con=con, **OPTIONS)
    return {f"{row.model} {row.metric_label}": row.value for row in table.itertuples()}


def spark_call_cost(data_root: Path, sizes: list[int], density: float, path: Path, repeat: int) -> None:
    """Writes the table of the first and later calls at each size of `sizes`
    to `path`: the median over `repeat` fresh processes of each."""
    lines = ["# The price of a call on Spark", "", machine(), "",
             f"Two models, graded relevance, {', '.join(METRICS)}, with the input checks; a local session "
             f"({SESSION['spark.master']}); the medians over {repeat} fresh processes, in seconds. A later call is the "
             f"median of the {LATER_CALLS} calls after the first in its session.", "",
             "| users | session start | reading the files | first call | later call |", "|---:|---:|---:|---:|---:|"]
    facts = {}
    for users in sizes:
        folder, facts = generate(data_root, users, density)
        reference = _duckdb_means(folder)
        runs = []
        for _ in range(repeat):
            output = subprocess.run([sys.executable, "-m", "benchmarks.spark_call_cost", str(folder)], check=True,
                                    capture_output=True, text=True).stdout
            run = json.loads(output.strip().splitlines()[-1])
            for label, value in reference.items():
                if abs(run["means"][label] - value) > 1e-9:
                    raise SystemExit(f"rankwise on Spark: {label} = {run['means'][label]!r}, on DuckDB {value!r}: "
                                     "not timed")
            runs.append(run)
        row = [statistics.median(run[key] for run in runs) for key in ("session", "read")]
        row += [statistics.median(run["calls"][0] for run in runs),
                statistics.median(statistics.median(run["calls"][1:]) for run in runs)]
        lines.append(f"| {users:,} | " + " | ".join(f"{value:.2f}" for value in row) + " |")
        print(lines[-1], flush=True)
    lines += ["", density_line(facts)]
    write_report(path, lines)


if __name__ == "__main__":
    worker(Path(sys.argv[1]))
