"""The Spark tools: rankwise's Python wrapper on a Spark session, against the
least work any correct method does there (the Spark floor query) and against
the library a Spark user already has, MLlib's RankingEvaluator (issue #35).

Each tool runs in a fresh process with a local session (`SESSION`: what a Spark
user sets anyway). The session's start, which every Spark tool pays alike and
which dwarfs the queries on small data, is left out: the worker reads the
Parquet files into DataFrames, computes once to warm the JVM, then times a
second computation from the same files. The CPU seconds and the peak memory
are those of the Python process and of Spark's JVM together.

The four metrics at one cutoff are those MLlib computes; each interaction is
relevant (no relevance column, as MLlib's label sets have none)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from benchmarks.peak_memory import peak_kib

METRICS = ["precision", "recall", "map", "ndcg"]
K = 10
SESSION = {
    "spark.master": "local[2]",
    "spark.driver.memory": "12g",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}
MLLIB_METRICS = {"precision": "precisionAtK", "recall": "recallAtK", "map": "meanAveragePrecisionAtK", "ndcg": "ndcgAtK"}
# MLlib's average precision divides by min(R, k) (RankingMetrics.averagePrecision):
# the rankwise option its numbers are checked against.
MLLIB_OPTIONS = {"ap_denominator": "min_relevant_k"}
FLOOR = "Spark floor query"
# sum(hits): with count(*) alone, the join's side that finds the hits would be unread.
FLOOR_QUERY = f"""select count(*), sum(hits) from (
    select r.user_id, count(i.item_id) as hits
    from {{recommendations}} as r
    left join {{interactions}} as i on i.user_id = r.user_id and i.item_id = r.item_id
    where r.rank <= {K}
    group by r.user_id
)"""


def _floor(spark, recommendations, interactions) -> dict:
    spark.sql(FLOOR_QUERY, recommendations=recommendations, interactions=interactions).collect()
    return {}


def _mllib(spark, recommendations, interactions) -> dict:
    """As MLlib's documentation computes ranking metrics: per user, the
    recommended items in rank order and the relevant ones, as arrays of
    doubles; the frame is cached, since every metric is a pass over it."""
    from pyspark.ml.evaluation import RankingEvaluator

    lists = spark.sql(
        "select user_id, transform(array_sort(collect_list(struct(rank, cast(item_id as double) as item))), "
        "entry -> entry.item) as prediction from {recommendations} group by user_id", recommendations=recommendations)
    labels = spark.sql("select user_id, collect_list(cast(item_id as double)) as label from {interactions} "
                       "group by user_id", interactions=interactions)
    data = lists.join(labels, "user_id").cache()
    try:
        return {f"{metric}@{K}": RankingEvaluator(metricName=name, k=K).evaluate(data)
                for metric, name in MLLIB_METRICS.items()}
    finally:
        data.unpersist()


def _rankwise(spark, recommendations, interactions, validate: bool = True) -> dict:
    import rankwise

    means = rankwise.evaluate(recommendations, interactions, METRICS, k=K, confidence=None, validate=validate)
    return {f"{row['metric']}@{row['k']}": row["value"] for row in means.collect()}


WORKERS = {
    FLOOR: _floor,
    "Spark MLlib RankingEvaluator": _mllib,
    "rankwise on Spark": _rankwise,
    "rankwise on Spark, validate=False": lambda *inputs: _rankwise(*inputs, validate=False),
}
# The rankwise options each tool's numbers are checked against (on DuckDB).
OPTIONS = {"Spark MLlib RankingEvaluator": MLLIB_OPTIONS, "rankwise on Spark": {},
           "rankwise on Spark, validate=False": {}}


def reference_values(folder: Path, options: dict) -> dict:
    """rankwise's means of the Spark tools' metrics on DuckDB, under `options`."""
    import duckdb
    import rankwise

    # the interactions without their relevance column, as the Spark tools read them
    con = duckdb.connect()
    interactions = con.sql(f"select user_id, item_id from read_parquet('{folder / 'interactions.parquet'}')")
    table = rankwise.evaluate(str(folder / "recommendations.parquet"), interactions, METRICS, k=K, confidence=None,
                              validate=False, con=con, **options)
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def measure(tool: str, folder: Path) -> dict:
    """One Spark tool's second computation in a fresh session (above)."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder.appName(f"rankwise-benchmark {tool}")
    for name, value in SESSION.items():
        builder = builder.config(name, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    jvm = spark.sparkContext._gateway.proc.pid  # the JVM, a child process that outlives the timing

    def inputs() -> tuple:
        return (spark, spark.read.parquet(str(folder / "recommendations.parquet")),
                spark.read.parquet(str(folder / "interactions.parquet")).select("user_id", "item_id"))

    try:
        WORKERS[tool](*inputs())
        started, cpu_started = time.perf_counter(), _cpu_seconds(jvm)
        values = WORKERS[tool](*inputs())
        seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds(jvm) - cpu_started
        peak_mib = (peak_kib() + peak_kib(jvm)) / 1024
    finally:
        spark.stop()
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak_mib, "values": values}


def _cpu_seconds(jvm: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    fields = Path(f"/proc/{jvm}/stat").read_text().rsplit(")", 1)[1].split()
    return total + (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
