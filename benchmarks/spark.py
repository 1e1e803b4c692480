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
relevant (no relevance column, as MLlib's label sets have none). The tools named
"graded" read the interactions' relevance (1..3) as rankwise's `relevance_col`
(issue #49), against the graded floor query; MLlib has no graded counterpart."""

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
TOOL = "rankwise on Spark"
# The suffix of the tools that read the interactions' relevance.
GRADED = ", graded"
RELEVANCE = "relevance"
# sum(hits): with count(*) alone, the join's side that finds the hits would be unread.
FLOOR_QUERY = f"""select count(*), sum(hits) from (
    select r.user_id, count(i.item_id) as hits
    from {{recommendations}} as r
    left join {{interactions}} as i on i.user_id = r.user_id and i.item_id = r.item_id
    where r.rank <= {K}
    group by r.user_id
)"""
# The binary floor's join and aggregate, the relevance read as well: the join keeps
# the relevant interactions (relevance >= 1, rankwise's default threshold, as the
# DuckDB floor query) and the aggregate sums their gains, what every graded metric
# sums. The ideal ordering of each user's truth (IDCG) is left out, as the binary
# floor leaves out the count of each user's truth: the floor is a bound below any
# correct method, not a method.
GRADED_FLOOR_QUERY = f"""select count(*), sum(hits), sum(gains) from (
    select r.user_id, count(i.item_id) as hits, sum(i.{RELEVANCE}) as gains
    from {{recommendations}} as r
    left join {{interactions}} as i on i.user_id = r.user_id and i.item_id = r.item_id and i.{RELEVANCE} >= 1
    where r.rank <= {K}
    group by r.user_id
)"""


def _floor(spark, recommendations, interactions, query: str = FLOOR_QUERY) -> dict:
    spark.sql(query, recommendations=recommendations, interactions=interactions).collect()
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


def _rankwise(spark, recommendations, interactions, validate: bool = True, **options) -> dict:
    import rankwise

    means = rankwise.evaluate(recommendations, interactions, METRICS, k=K, confidence=None, validate=validate,
                              **options)
    return {f"{row['metric']}@{row['k']}": row["value"] for row in means.collect()}


GRADED_OPTIONS = {"relevance_col": RELEVANCE}
WORKERS = {
    FLOOR: _floor,
    "Spark MLlib RankingEvaluator": _mllib,
    TOOL: _rankwise,
    f"{TOOL}, validate=False": lambda *inputs: _rankwise(*inputs, validate=False),
    FLOOR + GRADED: lambda *inputs: _floor(*inputs, query=GRADED_FLOOR_QUERY),
    TOOL + GRADED: lambda *inputs: _rankwise(*inputs, **GRADED_OPTIONS),
    f"{TOOL}{GRADED}, validate=False": lambda *inputs: _rankwise(*inputs, validate=False, **GRADED_OPTIONS),
}
# The rankwise options each tool's numbers are checked against (on DuckDB).
OPTIONS = {"Spark MLlib RankingEvaluator": MLLIB_OPTIONS, TOOL: {}, f"{TOOL}, validate=False": {},
           TOOL + GRADED: GRADED_OPTIONS, f"{TOOL}{GRADED}, validate=False": GRADED_OPTIONS}
# The floor query each tool's time is against: the one on the same input.
FLOORS = {tool: FLOOR + GRADED if GRADED in tool else FLOOR for tool in WORKERS}


def reference_values(folder: Path, options: dict) -> dict:
    """rankwise's means of the Spark tools' metrics on DuckDB, under `options`."""
    import duckdb
    import rankwise

    # the interactions as the tools read them: their relevance column only when graded
    con = duckdb.connect()
    columns = "user_id, item_id" + (f", {options['relevance_col']}" if "relevance_col" in options else "")
    interactions = con.sql(f"select {columns} from read_parquet('{folder / 'interactions.parquet'}')")
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

    try:
        WORKERS[tool](*read_inputs(spark, folder, GRADED in tool))
        started, cpu_started = time.perf_counter(), _cpu_seconds(jvm)
        values = WORKERS[tool](*read_inputs(spark, folder, GRADED in tool))
        seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds(jvm) - cpu_started
        peak_mib = (peak_kib() + peak_kib(jvm)) / 1024
    finally:
        spark.stop()
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak_mib, "values": values}


def read_inputs(spark, folder: Path, graded: bool) -> tuple:
    """The session and the two DataFrames a tool reads: the interactions without
    their relevance, or with it as an integer when `graded` (the Parquet column is
    DuckDB's UBIGINT, which Spark reads as a decimal(20, 0))."""
    from pyspark.sql import functions

    interactions = spark.read.parquet(str(folder / "interactions.parquet"))
    relevance = [functions.col(RELEVANCE).cast("int").alias(RELEVANCE)] if graded else []
    return (spark, spark.read.parquet(str(folder / "recommendations.parquet")),
            interactions.select("user_id", "item_id", *relevance))


def _cpu_seconds(jvm: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    fields = Path(f"/proc/{jvm}/stat").read_text().rsplit(")", 1)[1].split()
    return total + (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
