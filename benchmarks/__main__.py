"""Times rankwise end to end from Parquet against the least work any correct
method must do (the floor query) and against the peers that are installed, on
data where a chosen share of the recommended rows is relevant (the hit density).
Run from the repository's root:

    python -m benchmarks --users 10000 100000 1000000 --hit-density 0.01 0.1 0.3 --repeat 3

Every measurement runs in a fresh process (`python -m benchmarks --worker ...`),
which reports its wall time and peak RSS; the median of the repetitions is
kept. Before a peer's time is reported, its numbers are checked against
rankwise's under the matching convention. The generated data, and the report
(report.md), stay in benchmarks/data (--data-root); docs/benchmarks.md quotes the
reports.

    --completion            the 10M-users run under --memory-limit and --temp-directory
    --profile FILE          EXPLAIN ANALYZE of the floor and metric queries on one dataset
    --pushdown FILE         every query rankwise runs, planned with and without DuckDB's
                            partial aggregate pushdown, timed both ways where the plans differ
    --k-sweep [K_MAX]       scale check: three metrics at every k from 1 to 1000
    --many-groups U G       scale check: U users in G groups, users='interactions'
    --compare U R           scale check: compare of three models at U users, resampled at R users
    --diversity U P         scale check: intra-list diversity at U users, the peers at U and P users
    --call-cost FILE        the fixed price of a call: warm calls at each --users (default 1000 10000
                            100000) against pytrec_eval and ranx, import and a cold command
    --spark-call-cost FILE  the price of a call on Spark: the first call in a fresh local session and
                            the calls after it, at each --users (default 2000), --repeat processes
    --warm FILE             DuckDB's queries warm, in one process: the floor query and the rankwise
                            tools of --tools (default: both accuracy tools), --repeat rounds in turn
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from benchmarks import call_cost, diagnostics, harness, report, spark_call_cost, warm_queries
from benchmarks.call_cost import CALL_COST_SIZES
from benchmarks.spark_call_cost import SPARK_CALL_COST_SIZES
from benchmarks.generate import DATA_ROOT, DENSITIES, SIZES
from benchmarks.tools import (COMPLETION_TOOLS, ENGINE_WORKERS, K_SWEEP_METRICS, K_SWEEP_USERS, MEMORY_ENVIRONMENT, PEER_PACKAGES,
                              PEER_PYTHONS, PUSHDOWN_OPTIMIZER, WORKERS)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, nargs="+",
                        help="sizes, in users (default: " + " ".join(map(str, SIZES)) + ", none with --completion)")
    parser.add_argument("--hit-density", type=_density, nargs="+", default=DENSITIES, metavar="SHARE",
                        help="share of the recommended rows that are relevant, one dataset each (default: "
                             + " ".join(map(str, DENSITIES)) + ")")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repeat-calls", type=int, default=15, help="--call-cost: the calls timed per tool (default 15)")
    parser.add_argument("--tools", nargs="+", choices=list(WORKERS) + ENGINE_WORKERS,
                        metavar="TOOL", help="default: every tool but those of Spark and PostgreSQL, "
                                             + ", ".join(map(repr, ENGINE_WORKERS))
                                             + " (benchmarks/spark.py, benchmarks/postgres.py)")
    parser.add_argument("--completion", type=int, nargs="?", const=10_000_000, metavar="USERS",
                        help="also run " + ", ".join(COMPLETION_TOOLS) + " once at USERS (default 10,000,000) "
                             "under --memory-limit and --temp-directory, which it needs")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit for the rankwise runs, e.g. 12GB")
    parser.add_argument("--temp-directory", help="where DuckDB spills in the rankwise runs")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write EXPLAIN ANALYZE of the floor query and of rankwise's metric query to FILE, "
                             "at one --users and one --hit-density, and measure nothing else")
    parser.add_argument("--pushdown", type=Path, metavar="FILE",
                        help=f"write to FILE, for every query rankwise runs in evaluate (with its checks, per user, "
                             f"beyond accuracy) and compare, whether DuckDB's {PUSHDOWN_OPTIMIZER} changes its plan, "
                             "and both times where it does; at one --users and one --hit-density")
    parser.add_argument("--call-cost", type=Path, metavar="FILE",
                        help="write to FILE the median warm time of evaluate (checked and validate=False), of compare "
                             "of two models, and of pytrec_eval and ranx, at each --users (default 1000 10000 100000) "
                             "and one --hit-density; then import rankwise and a cold command, in fresh processes")
    parser.add_argument("--spark-call-cost", type=Path, metavar="FILE",
                        help="write to FILE the time of rankwise.evaluate's first call in a fresh local Spark "
                             "session and of the calls after it (two models, graded, with the checks), at each "
                             "--users (default 2000) and one --hit-density, the median of --repeat processes")
    parser.add_argument("--warm", type=Path, metavar="FILE",
                        help="write to FILE the median time of the floor query and of the rankwise tools of --tools "
                             "(of " + ", ".join(map(repr, warm_queries.WARM_TOOLS[1:])) + "; default the first two) "
                             "over --repeat rounds in one warm process, at each --users and --hit-density, each "
                             "against the floor query's")
    parser.add_argument("--k-sweep", type=int, nargs="?", const=1000, metavar="K_MAX",
                        help=f"scale check: {', '.join(K_SWEEP_METRICS)} at every k from 1 to K_MAX (default 1000) "
                             f"on {K_SWEEP_USERS} users")
    parser.add_argument("--many-groups", type=int, nargs=2, metavar=("USERS", "GROUPS"),
                        help="scale check: USERS users' lists split into GROUPS groups, users='interactions' "
                             "(issue #21: 200000 5000), against the same data as one group")
    parser.add_argument("--compare", type=int, nargs=2, metavar=("USERS", "RESAMPLED_USERS"),
                        help="scale check: rankwise.compare of three models with the t test at USERS users against "
                             "evaluate(per_user=True) on the same data (issue #17: 1000000), and with the randomization "
                             "test, 1000 resamples, at RESAMPLED_USERS users (100000)")
    parser.add_argument("--diversity", type=int, nargs=2, metavar=("USERS", "PEER_USERS"),
                        help="scale check: intra_list_diversity@10 of 64-dimensional item vectors (cosine) and 64 "
                             "features (Hamming) at USERS users, against RecTools and Recommenders at USERS and "
                             "PEER_USERS (when installed: --peer-python)")
    parser.add_argument("--timeout", type=float, default=harness.SCALE_CHECK_TIMEOUT,
                        help="seconds after which a scale check is stopped and reported as unfinished "
                             f"(default {harness.SCALE_CHECK_TIMEOUT})")
    parser.add_argument("--report", type=Path,
                        help="the Markdown report (default: report.md, or scale-checks.md, in --data-root)")
    parser.add_argument("--data-root", type=Path, default=DATA_ROOT,
                        help="where the generated data and dbt's scratch files are kept between runs (default: benchmarks/data)")
    parser.add_argument("--peer-python", action="append", default=[], metavar="TOOL=PYTHON",
                        help="run a peer's workers in another interpreter, e.g. RecTools=/opt/rectools/bin/python "
                             "(RecTools pins numpy < 2 on Python 3.11, which rankwise's environment does not share)")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "FOLDER", "OPTIONS"), help=argparse.SUPPRESS)
    return parser


def _density(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a hit density is a share of the recommended rows, between 0 and 1; got {text}")
    return value


def main() -> None:
    parser = _parser()
    arguments = parser.parse_args()
    if arguments.worker:
        tool, folder, options = arguments.worker
        harness.run_worker(tool, Path(folder), json.loads(options))
        return
    for entry in arguments.peer_python:
        tool, _, python = entry.partition("=")
        if tool not in PEER_PACKAGES or not python:
            parser.error(f"--peer-python takes TOOL=PYTHON with TOOL one of {', '.join(PEER_PACKAGES)}; got {entry!r}")
        PEER_PYTHONS[tool] = python
    if arguments.users is None:
        arguments.users = ([] if arguments.completion else CALL_COST_SIZES if arguments.call_cost
                           else SPARK_CALL_COST_SIZES if arguments.spark_call_cost else SIZES)
    if arguments.completion and not (arguments.memory_limit and arguments.temp_directory):
        parser.error("--completion needs --memory-limit and --temp-directory: the point is completing within them")
    if arguments.tools is None:
        arguments.tools = warm_queries.DEFAULT_WARM_TOOLS if arguments.warm else list(WORKERS)
    diagnosing = bool(arguments.profile or arguments.pushdown or arguments.call_cost or arguments.spark_call_cost
                      or arguments.warm)
    scale_checking = bool(arguments.k_sweep or arguments.many_groups or arguments.compare or arguments.diversity)
    if diagnosing and scale_checking:
        parser.error("--profile and --pushdown run apart from the scale checks (--k-sweep, --many-groups, --compare, "
                     "--diversity)")
    if (arguments.profile or arguments.pushdown) and (len(arguments.users) != 1 or len(arguments.hit_density) != 1):
        parser.error("--profile and --pushdown read one dataset: give one --users and one --hit-density")
    if (arguments.call_cost or arguments.spark_call_cost) and len(arguments.hit_density) != 1:
        parser.error("--call-cost and --spark-call-cost read one density at each size: give one --hit-density")
    for name, value in zip(MEMORY_ENVIRONMENT, (arguments.memory_limit, arguments.temp_directory)):
        if value:
            os.environ[name] = value

    if arguments.profile:
        diagnostics.profile(arguments.data_root, arguments.users[0], arguments.hit_density[0], arguments.profile)
    if arguments.call_cost:
        call_cost.call_cost(arguments.data_root, arguments.users, arguments.hit_density[0], arguments.call_cost,
                            arguments.repeat_calls)
    if arguments.spark_call_cost:
        spark_call_cost.spark_call_cost(arguments.data_root, arguments.users, arguments.hit_density[0],
                                        arguments.spark_call_cost, arguments.repeat)
    if arguments.warm:
        warm_queries.warm_queries(arguments.data_root, arguments.users, arguments.hit_density, arguments.tools,
                                  arguments.warm, arguments.repeat)
    if arguments.pushdown:
        diagnostics.pushdown(arguments.data_root, arguments.users[0], arguments.hit_density[0], arguments.pushdown)
    if scale_checking:
        lines = report.scale_checks_report(arguments, harness.run_scale_checks(arguments))
        report.write_report(arguments.report or arguments.data_root / "scale-checks.md", lines)
    elif not diagnosing:
        lines = report.benchmark_report(arguments, harness.run_benchmark(arguments))
        report.write_report(arguments.report or arguments.data_root / "report.md", lines)


if __name__ == "__main__":
    main()
