"""The diagnostics, which look into the queries rather than time the tools:
--profile (DuckDB's EXPLAIN ANALYZE of the floor query and of rankwise's metric
query, each opened by its heaviest operators) and --pushdown (whether DuckDB's
partial aggregate pushdown changes the plan of any query rankwise runs)."""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.generate import beyond_inputs, density_line, generate, read_parquet, three_models_sql
from benchmarks.report import machine, write_report
from benchmarks.tools import BEYOND_METRICS, CUTOFFS, FLOOR_QUERY, METRICS, PUSHDOWN_OPTIMIZER


def _heaviest_operators(con: object, query: str, scratch: Path, count: int = 12) -> list[str]:
    """The operators of one more run of `query` that took the most time (summed
    over threads, from DuckDB's JSON profile): a first place to look in the plan."""
    con.execute("set enable_profiling = 'json'")
    con.execute("set profiling_output = ?", [str(scratch)])
    con.sql(query).fetchall()
    con.execute("set enable_profiling = 'no_output'")
    profile = json.loads(scratch.read_text())
    scratch.unlink()
    operators, pending = [], list(profile["operator"])
    while pending:
        node = pending.pop()
        pending += node.get("children", [])
        if node["type"] != "RESULT_COLLECTOR":
            operators.append(node)
    query_info = profile["query"]
    lines = [f"Another run: {query_info['total_time']:.3f} s, {query_info['cpu_time']:.3f} s in operators, peak buffer "
             f"memory {profile['system']['peak_buffer_memory'] / 2**20:,.0f} MiB; the heaviest operators (seconds summed "
             "over threads, output rows, detail):"]
    for node in sorted(operators, key=lambda node: node["timing"], reverse=True)[:count]:
        detail = "; ".join(f"{key}: {value}" for key, value in node.get("extra_info", {}).items()
                           if key not in ("Estimated Cardinality", "Filename(s)"))
        detail = " ".join(detail.split())
        lines.append(f"  {node['timing']:7.3f} s  {node['intermediate_rows']:>12,}  {node['type']:<20} "
                     f"{detail[:160] + ('...' if len(detail) > 160 else '')}")
    return lines


def profile(data_root: Path, users: int, density: float, path: Path) -> None:
    """EXPLAIN ANALYZE of the floor query and of rankwise's metric query (the SQL
    of `rankwise.sql`, which `rankwise.evaluate` and the package model run) on
    one dataset, each in a fresh connection over views of the Parquet files."""
    import duckdb

    import rankwise

    path.parent.mkdir(parents=True, exist_ok=True)
    folder, facts = generate(data_root, users, density)
    print(density_line(facts), flush=True)
    metric_query = rankwise.sql("recommendations", "interactions", METRICS + ["entropy@10"], k=CUTOFFS,
                                relevance_col="relevance")
    floor_query = FLOOR_QUERY.format(recommendations="recommendations", interactions="interactions")
    sections = [f"EXPLAIN ANALYZE at {density_line(facts)}.", machine()]
    for title, query, settings in (
        (f"floor query (with {PUSHDOWN_OPTIMIZER} disabled)", floor_query,
         [f"set disabled_optimizers = '{PUSHDOWN_OPTIMIZER}'"]),
        (f"rankwise's metric query: {', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))} and entropy@10",
         metric_query, []),
    ):
        con = duckdb.connect()
        for statement in settings:
            con.execute(statement)
        for table in ("recommendations", "interactions"):
            con.execute(f"create view {table} as select * from {read_parquet(folder, table)}")
        plan = con.sql(f"explain analyze {query}").fetchall()[0][1]
        heaviest = _heaviest_operators(con, query, path.with_name(path.name + ".json"))
        con.close()
        sections.append("\n".join([f"== {title}", "", *settings, query.strip(), "", *heaviest, "", plan]))
    path.write_text("\n\n".join(sections).rstrip() + "\n")
    print(f"wrote {path}")


def _logged_queries(con: object, run: Callable[[], object]) -> list[str]:
    """The statements `run` sends to `con` that read data, in order, each once:
    from DuckDB's query log."""
    con.execute("call truncate_duckdb_logs()")
    con.execute("call enable_logging('QueryLog')")
    try:
        run()
    finally:
        con.execute("call disable_logging()")
    logged = [message for (message,) in con.sql("select message from duckdb_logs where type = 'QueryLog'").fetchall()]
    reading = [query for query in logged if query.lstrip().lower().startswith(("with", "select")) and " from " in query]
    return list(dict.fromkeys(reading))


def _plan_operators(con: object, query: str, disabled: str) -> list[str]:
    """The operators of `query`'s physical plan, depth first, each with its groups,
    aggregates and join conditions; projections, which the optimizer moves
    about without changing the work, are left out."""
    con.execute(f"set disabled_optimizers = '{disabled}'")
    operators, pending = [], list(reversed(json.loads(con.sql(f"explain (format json) {query}").fetchall()[0][1])))
    while pending:
        node = pending.pop()
        pending += reversed(node.get("children", []))
        if node["name"] != "PROJECTION":
            details = {key: value for key, value in node.get("extra_info", {}).items()
                       if key in ("Groups", "Aggregates", "Conditions", "Join Type")}
            operators.append(f"{node['name']} {json.dumps(details, sort_keys=True)}")
    return operators


def _seconds_with_and_without_pushdown(con: object, query: str, repeat: int = 5) -> tuple[float, float]:
    """The median seconds of `query` with the pushdown and without it, the two
    alternating so that a change in the machine's load falls on both."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for disabled, measured in zip(("", PUSHDOWN_OPTIMIZER), times):
            con.execute(f"set disabled_optimizers = '{disabled}'")
            started = time.perf_counter()
            con.sql(query).fetchall()
            measured.append(time.perf_counter() - started)
    return statistics.median(times[0]), statistics.median(times[1])


def _first_stage(query: str) -> str:
    """The name of a query's first CTE (past the comment that opens it), or
    `select` for a query without one."""
    named = re.match(r"\s*with\s+(?:--[^\n]*\n\s*)*(\w+)", query, flags=re.IGNORECASE)
    return named.group(1) if named else "select"


def pushdown(data_root: Path, users: int, density: float, path: Path) -> None:
    """Issue #19: DuckDB 2.0's partial aggregate pushdown makes a join followed
    by count(*) per user slower by grouping both inputs of the join first.
    Every query rankwise runs in the benchmark's uses (evaluate with its checks,
    per user, beyond accuracy; compare of three models), and a control of that
    shape, is planned with the optimizer and without it; where the plans
    differ, both are timed."""
    import duckdb

    import rankwise

    folder, facts = generate(data_root, users, density)
    beyond_inputs(folder)
    con = duckdb.connect()
    for table in ("recommendations", "interactions", "items", "train"):
        con.execute(f"create view {table} as select * from {read_parquet(folder, table)}")
    con.execute(f"create view models as {three_models_sql(folder)}")
    common = {"k": CUTOFFS, "relevance_col": "relevance", "con": con}
    uses = {
        "evaluate, default suite with its checks": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS + ["entropy@10"], **common),
        "evaluate, per user": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS, per_user=True, output="arrow", **common),
        "evaluate, beyond accuracy with its checks": lambda: rankwise.evaluate(
            "recommendations", "interactions", METRICS + ["entropy@10"] + BEYOND_METRICS, items="items", train="train",
            **common),
        "compare, three models, t test": lambda: rankwise.compare(
            "models", "interactions", METRICS, baseline="as_generated", **common),
    }
    lines = [f"# DuckDB's {PUSHDOWN_OPTIMIZER} and rankwise's queries", "", density_line(facts), machine(), "",
             "| use | query | plan with the optimizer | seconds with | seconds without |", "|---|---|---|---:|---:|"]
    # the control: a join, then count(*) per user, the shape whose plan the optimizer
    # was seen to change (both inputs grouped by (user, item) before the join)
    control = ("select sum(n) from (select r.user_id, count(*) as n from recommendations as r "
               "inner join interactions as i on i.user_id = r.user_id and i.item_id = r.item_id group by r.user_id)")
    queries = {"the control: a join, then count(*) per user": lambda: con.sql(control).fetchall(), **uses}
    for use, run in queries.items():
        for number, query in enumerate(_logged_queries(con, run), start=1):
            first_stage = _first_stage(query)
            try:
                same = _plan_operators(con, query, PUSHDOWN_OPTIMIZER) == _plan_operators(con, query, "")
            except (duckdb.InvalidInputException, duckdb.CatalogException):
                # the coverage warnings read the means, a result gone with the call
                continue
            if same:
                lines.append(f"| {use} | {number} ({first_stage}) | the same | | |")
            else:
                with_pushdown, without = _seconds_with_and_without_pushdown(con, query)
                lines.append(f"| {use} | {number} ({first_stage}) | **different** | {with_pushdown:.2f} | {without:.2f} |")
            print(lines[-1], flush=True)
    write_report(path, lines)
