"""The benchmark report's targets (benchmarks/targets.py), judged on made-up
measurements: which rows the report gets, in which order, and which are met."""

from __future__ import annotations

from benchmarks.harness import Result
from benchmarks.targets import judge_targets

# (tool, seconds, CPU seconds, peak MiB) at 100,000 users; the rankwise variants also at 10,000
MEASURED = [
    ("floor query", 1.0, 2.0, 500),
    ("rankwise, validate=False", 1.9, 3.0, 700),
    ("rankwise", 3.1, 6.0, 900),
    ("rankwise, beyond accuracy", 3.9, 7.0, 1000),
    ("pytrec_eval", 30.0, 30.0, 8000),
    ("RecTools", 10.0, 10.0, 800),
    ("dbt run (package model)", 4.0, 4.0, 800),
    ("dbt start-up", 3.0, 3.0, 150),
    ("rankwise SQL only", 1.1, 2.0, 700),
    ("Spark floor query", 4.0, 6.0, 3000),
    ("rankwise on Spark, validate=False", 7.6, 11.0, 3500),
    ("rankwise on Spark", 12.4, 17.0, 3600),
    ("Spark MLlib RankingEvaluator", 8.0, 12.0, 4000),
    ("Spark floor query, graded", 5.0, 7.0, 3000),
    ("rankwise on Spark, graded", 7.0, 10.0, 3600),
    ("PostgreSQL floor query, server defaults", 2.0, 3.0, 500),
    ("rankwise on PostgreSQL, server defaults", 4.2, 5.0, 600),
    ("PostgreSQL floor query, graded, server defaults", 2.5, 4.0, 500),
    ("rankwise on PostgreSQL, graded, server defaults", 7.0, 8.0, 700),
]
SMALLER = [("rankwise, validate=False", 0.2, 0.3, 200), ("rankwise", 0.25, 0.4, 250)]


def _results() -> list[Result]:
    results = [Result(100_000, 0.1, *measured) for measured in MEASURED]
    results += [Result(10_000, 0.1, *measured) for measured in SMALLER]
    results += [Result(1_000_000, 0.1, tool, seconds, seconds, 5000, completion=True)
                for tool, seconds in (("rankwise", 40.0), ("rankwise, validate=False", 20.0), ("floor query", 10.0))]
    return results


def test_every_target_judged_in_the_report_order() -> None:
    judged = judge_targets(_results(), "12GB", "/tmp/spill")
    rows = [(target, *cells[0.1]) for target, cells in judged.items()]
    assert rows == [
        ("`rankwise, validate=False` within 2x the floor query, 100,000 users", "1.90x (CPU 1.50x)", True),
        ("`rankwise` within 3x the floor query, 100,000 users", "3.10x (CPU 3.00x)", False),
        ("the beyond-accuracy metrics add at most the floor query's time to `rankwise`, 100,000 users",
         "+0.80 s vs floor 1.00 s", True),
        ("`rankwise, validate=False` at least 10x faster than pytrec_eval, 100,000 users", "15.8x", True),
        ("`rankwise` at least 10x faster than pytrec_eval, 100,000 users", "9.7x", False),
        ("`rankwise, validate=False` at least 5x faster than RecTools, 100,000 users", "5.3x", True),
        ("`rankwise` at least 5x faster than RecTools, 100,000 users", "3.2x", False),
        ("`rankwise, validate=False` peak memory below RecTools', 100,000 users", "700 vs 800 MiB", True),
        ("`rankwise` peak memory below RecTools', 100,000 users", "900 vs 800 MiB", False),
        ("`rankwise, validate=False`: 10x the rows costs at most 11x the time, 10,000 to 100,000 users", "9.5x", True),
        ("`rankwise`: 10x the rows costs at most 11x the time, 10,000 to 100,000 users", "12.4x", False),
        ("the dbt path adds no more than dbt's start-up to the same SQL, 100,000 users",
         "dbt run 4.00 s vs start-up 3.00 s + SQL 1.10 s", True),
        ("`rankwise on Spark, validate=False` within 2x the Spark floor query, 100,000 users", "1.90x (CPU 1.83x)", True),
        ("`rankwise on Spark` within 3x the Spark floor query, 100,000 users", "3.10x (CPU 2.83x)", False),
        ("`rankwise on Spark, validate=False` at least 1x faster than Spark MLlib RankingEvaluator, 100,000 users",
         "1.1x", True),
        ("`rankwise on Spark` at least 1x faster than Spark MLlib RankingEvaluator, 100,000 users", "0.6x", False),
        # graded against the graded floor, and each PostgreSQL tool against the floor at its own settings
        ("`rankwise on Spark, graded` within 1.5x the Spark floor query, graded, 100,000 users", "1.40x (CPU 1.43x)",
         True),
        ("`rankwise on Spark` at least 1.2x faster than Spark MLlib RankingEvaluator, 100,000 users", "0.6x", False),
        ("`rankwise on PostgreSQL, graded, server defaults` within 3x the PostgreSQL floor query, graded, server "
         "defaults, 100,000 users", "2.80x (CPU 2.00x)", True),
        ("`rankwise on PostgreSQL, server defaults` within 2x the PostgreSQL floor query, server defaults, "
         "100,000 users", "2.10x (CPU 1.67x)", False),
        ("`rankwise` completes at 1,000,000 users with memory_limit 12GB, temp_directory /tmp/spill",
         "40.0 s, peak 5,000 MiB", True),
        ("`rankwise, validate=False` completes at 1,000,000 users with memory_limit 12GB, temp_directory /tmp/spill",
         "20.0 s, peak 5,000 MiB", True),
    ]


def test_targets_without_their_tools_are_left_out() -> None:
    # without the floor query, the peers and dbt, only the growth of 10x the users is judged
    judged = judge_targets([r for r in _results() if r.tool in ("rankwise", "rankwise, validate=False")
                            and not r.completion], None, None)
    assert list(judged) == [
        "`rankwise, validate=False`: 10x the rows costs at most 11x the time, 10,000 to 100,000 users",
        "`rankwise`: 10x the rows costs at most 11x the time, 10,000 to 100,000 users",
    ]
