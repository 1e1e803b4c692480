"""Times rankwise end to end from Parquet against the least work any correct
method must do (the floor query) and against the peers that are installed.

    python benchmarks/run.py --users 10000 100000 1000000 --repeat 3

Every measurement runs in a fresh process (`python benchmarks/run.py --worker
...`), which reports its wall time and peak RSS; the median of the repetitions is
kept. Before a peer's time is reported, its numbers are checked against
rankwise's under the matching convention. The report goes to docs/benchmarks.md;
the generated data stays in benchmarks/data (--data-root) for the next run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_ROOT = REPO_ROOT / "benchmarks" / "data"
REPORT = REPO_ROOT / "docs" / "benchmarks.md"
CUTOFFS = [5, 10, 20]
METRICS = ["precision", "recall", "map", "mrr", "ndcg"]
# rankwise metric@k -> trec_eval measure, for the agreement check
TREC_EVAL = {"precision": "P_{k}", "recall": "recall_{k}", "map": "map_cut_{k}", "ndcg": "ndcg_cut_{k}"}
# Users generated per query: a million users' candidate rows group in memory.
GENERATE_CHUNK_USERS = 1_000_000
# Settings for the rankwise workers (--memory-limit, --temp-directory), passed by environment.
MEMORY_ENVIRONMENT = ("RANKWISE_BENCHMARK_MEMORY_LIMIT", "RANKWISE_BENCHMARK_TEMP_DIRECTORY")


def generate(data_root: Path, users: int) -> Path:
    """Deterministic data: Zipf-like item popularity over 50k items, 20 ranked
    recommendations per user, ~10 graded (1..3) relevant items per user, ~3% of
    users with none; rows written grouped by user."""
    import duckdb

    folder = data_root / f"users_{users}"
    if (folder / "interactions.parquet").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    # Built a million users at a time in a scratch database beside the data: 10M
    # users are 400M candidate rows, whose grouping in one query spills past the disk.
    scratch = folder / "generate.duckdb"
    con = duckdb.connect(str(scratch))
    con.execute(f"set temp_directory = '{folder / 'generate.tmp'}'")
    zipf_item = "cast(floor(50000 * pow(hash({seed}) / 18446744073709551615.0, 3)) as integer)"
    for first in range(0, users, GENERATE_CHUNK_USERS):
        chunk = f"range({first}, {min(users, first + GENERATE_CHUNK_USERS)}) as users(u)"
        into = "create table {table} as" if first == 0 else "insert into {table}"
        con.execute(
            f"""{into.format(table="recommendations")}
            select user_id, item_id, rank, 1.0 - rank / 100.0 as score
            from (
                select user_id, item_id, row_number() over (partition by user_id order by min(slot)) as rank
                from (
                    select u as user_id, slot, {zipf_item.format(seed="u * 97 + slot")} as item_id
                    from {chunk}, range(40) as slots(slot)
                ) group by user_id, item_id
            ) where rank <= 20
            order by user_id, rank"""
        )
        con.execute(
            f"""{into.format(table="interactions")}
            select user_id, item_id, max(relevance) as relevance
            from (
                select u as user_id, {zipf_item.format(seed="u * 131 + slot + 7")} as item_id,
                       1 + hash(u * 7 + slot) % 3 as relevance
                from {chunk}, range(10) as slots(slot)
                where hash(u) % 100 >= 3
            ) group by user_id, item_id
            order by user_id"""
        )
    # insertion order is kept: rows stay grouped by user
    for table in ("recommendations", "interactions"):
        con.execute(f"copy {table} to '{folder / (table + '.parquet')}' (format parquet)")
    con.close()
    scratch.unlink()
    return folder


# Workers: each runs in its own process and prints one JSON line.


def _rankwise_values(folder: Path, convention: str = "trec_eval", validate: bool = True) -> dict:
    import rankwise

    memory_limit, temp_directory = (os.environ.get(name) or None for name in MEMORY_ENVIRONMENT)
    table = rankwise.evaluate(
        str(folder / "recommendations.parquet"),
        str(folder / "interactions.parquet"),
        METRICS + ["entropy@10"],
        k=CUTOFFS,
        relevance_col="relevance",
        convention=convention,
        validate=validate,
        memory_limit=memory_limit,
        temp_directory=temp_directory,
    )
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def _work_rankwise(folder: Path) -> dict:
    return _rankwise_values(folder)


def _work_rankwise_unvalidated(folder: Path) -> dict:
    return _rankwise_values(folder, validate=False)


def _work_cli(folder: Path) -> dict:
    arguments = [str(folder / "recommendations.parquet"), str(folder / "interactions.parquet")]
    for option, name in zip(("--memory-limit", "--temp-directory"), MEMORY_ENVIRONMENT):
        if os.environ.get(name):
            arguments += [option, os.environ[name]]
    for metric in METRICS:
        arguments += ["-m", metric]
    for k in CUTOFFS:
        arguments += ["-k", str(k)]
    subprocess.run(
        [str(Path(sys.executable).with_name("rankwise")), "evaluate", *arguments, "-m", "entropy@10",
         "--relevance-col", "relevance", "-o", str(folder / "cli_output.parquet")],
        check=True, capture_output=True,
    )
    return {}


def _read_parquet(folder: Path, table: str) -> str:
    """The SQL that reads one of the benchmark's tables, its path as a string literal."""
    path = str(folder / f"{table}.parquet").replace("'", "''")
    return f"read_parquet('{path}')"


def _work_floor(folder: Path) -> dict:
    import duckdb

    hits = duckdb.sql(
        f"""select count(*) from (
            select r.user_id, count(i.item_id) as hits
            from {_read_parquet(folder, "recommendations")} r
            left join {_read_parquet(folder, "interactions")} i using (user_id, item_id)
            group by r.user_id
        )"""
    ).fetchall()
    return {"users": hits[0][0]}


def _work_floor_checked(folder: Path) -> dict:
    """The floor query after the plain SQL that rejects duplicate input: an item
    or a rank twice in a list, a (user, item) twice in the interactions. What the
    checks cost when written the obvious way, beside rankwise's own."""
    import duckdb

    recommendations, interactions = (_read_parquet(folder, table) for table in ("recommendations", "interactions"))
    for table, column in ((recommendations, "item_id"), (recommendations, "rank"), (interactions, "item_id")):
        repeated = duckdb.sql(
            f"select count(*) from (select user_id, {column} from {table} group by user_id, {column} having count(*) > 1)"
        ).fetchall()[0][0]
        if repeated:
            raise SystemExit(f"the benchmark data repeats {repeated} (user_id, {column}) pairs")
    return _work_floor(folder)


def _work_pytrec_eval(folder: Path) -> dict:
    import pandas as pd
    import pytrec_eval

    recommendations = pd.read_parquet(folder / "recommendations.parquet")
    interactions = pd.read_parquet(folder / "interactions.parquet")
    run: dict[str, dict[str, float]] = {}
    for user, item, score in zip(recommendations.user_id.astype(str), recommendations.item_id.astype(str), recommendations.score):
        run.setdefault(user, {})[item] = float(score)
    qrels: dict[str, dict[str, int]] = {}
    for user, item, relevance in zip(interactions.user_id.astype(str), interactions.item_id.astype(str), interactions.relevance):
        qrels.setdefault(user, {})[item] = int(relevance)
    measures = {measure.format(k=k) for measure in TREC_EVAL.values() for k in CUTOFFS}
    results = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    means = {}
    for metric, measure in TREC_EVAL.items():
        for k in CUTOFFS:
            values = [per_user[measure.format(k=k)] for per_user in results.values()]
            means[f"{metric}@{k}"] = sum(values) / len(values)
    return means


def _work_ranx(folder: Path) -> dict:
    import pandas as pd
    from ranx import Qrels, Run, evaluate

    recommendations = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "score"])
    interactions = pd.read_parquet(folder / "interactions.parquet")
    for frame in (recommendations, interactions):
        frame["user_id"] = frame["user_id"].astype(str).astype(object)
        frame["item_id"] = frame["item_id"].astype(str).astype(object)
    interactions["relevance"] = interactions["relevance"].astype("int64")
    qrels = Qrels.from_df(interactions, q_id_col="user_id", doc_id_col="item_id", score_col="relevance")
    run = Run.from_df(recommendations, q_id_col="user_id", doc_id_col="item_id", score_col="score")
    names = {"precision": "precision", "recall": "recall", "map": "map", "mrr": "mrr", "ndcg": "ndcg"}
    measures = [f"{names[metric]}@{k}" for metric in METRICS for k in CUTOFFS]
    # make_comparable drops the lists of users without interactions, as users='both' does
    means = evaluate(qrels, run, measures, make_comparable=True)
    return {f"{metric}@{k}": float(means[f"{names[metric]}@{k}"]) for metric in METRICS for k in CUTOFFS}


def _work_rectools(folder: Path) -> dict:
    import pandas as pd
    from rectools import Columns
    from rectools.metrics import MAP, MRR, NDCG, Precision, Recall, calc_metrics

    recommendations = pd.read_parquet(folder / "recommendations.parquet", columns=["user_id", "item_id", "rank"])
    interactions = pd.read_parquet(folder / "interactions.parquet", columns=["user_id", "item_id"])
    recommendations.columns = [Columns.User, Columns.Item, Columns.Rank]
    interactions.columns = [Columns.User, Columns.Item]
    kinds = {"precision": Precision, "recall": Recall, "map": MAP, "mrr": MRR, "ndcg": NDCG}
    metrics = {f"{metric}@{k}": kinds[metric](k=k) for metric in METRICS for k in CUTOFFS}
    return {name: float(value) for name, value in calc_metrics(metrics, reco=recommendations, interactions=interactions).items()}


DBT_PROJECT = REPO_ROOT / "benchmarks" / "dbt_project"


def _dbt(folder: Path, *arguments: str) -> Path:
    """Runs dbt on the benchmark's dbt project; its database, target and logs in a
    scratch folder beside the data, kept between runs like a user's target/.
    Returns the target folder."""
    scratch = folder / "dbt"
    scratch.mkdir(parents=True, exist_ok=True)
    environment = {
        **os.environ,
        "RANKWISE_BENCHMARK_DATA": str(folder.resolve()),
        "RANKWISE_BENCHMARK_DATABASE": str(scratch / "benchmark.duckdb"),
        "DBT_PROFILES_DIR": str(DBT_PROJECT),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }
    paths = ["--log-path", str(scratch / "logs")]
    if arguments[0] != "deps":
        paths += ["--target-path", str(scratch / "target")]
    subprocess.run([str(Path(sys.executable).with_name("dbt")), *arguments, *paths], cwd=DBT_PROJECT,
                   env=environment, check=True, capture_output=True)
    return scratch / "target"


def _work_dbt_run(folder: Path) -> dict:
    """dbt run; returns the package model's compile and execute seconds from dbt's
    run_results.json, to tell the macros' rendering apart from the SQL."""
    target = _dbt(folder, "run", "--quiet", "--exclude", "baseline_table")
    results = json.loads((target / "run_results.json").read_text())
    model = next(result for result in results["results"] if result["unique_id"] == "model.rankwise.rankwise_metrics")
    return {step["name"]: _seconds_between(step["started_at"], step["completed_at"]) for step in model["timing"]}


def _seconds_between(started: str, completed: str) -> float:
    from datetime import datetime

    return (datetime.fromisoformat(completed.rstrip("Z")) - datetime.fromisoformat(started.rstrip("Z"))).total_seconds()


def _work_dbt_start_up(folder: Path) -> dict:
    """dbt's own cost: parse, connect, build the two input views and one table
    model of `select 1` (dbt's materialization of a table, which the package
    model goes through too), that is, `dbt run` with a trivial model in place
    of the package model."""
    _dbt(folder, "run", "--quiet", "--exclude", "rankwise_metrics")
    return {}


def _work_sql_only(folder: Path) -> dict:
    """The SQL the package model runs, as dbt runs it (create table as), without dbt."""
    import duckdb

    import rankwise

    query = rankwise.sql(
        "recommendations", "interactions", METRICS + ["entropy@10"], k=CUTOFFS, relevance_col="relevance")
    con = duckdb.connect()
    for table in ("recommendations", "interactions"):
        con.execute(f"create view {table} as select * from {_read_parquet(folder, table)}")
    con.execute(f"create table rankwise_metrics as {query}")
    return {}


WORKERS = {
    "rankwise": _work_rankwise,
    "rankwise, validate=False": _work_rankwise_unvalidated,
    "rankwise CLI": _work_cli,
    "floor query": _work_floor,
    "floor query, checked": _work_floor_checked,
    "rankwise SQL only": _work_sql_only,
    "dbt run (package model)": _work_dbt_run,
    "dbt start-up": _work_dbt_start_up,
    "pytrec_eval": _work_pytrec_eval,
    "ranx": _work_ranx,
    "RecTools": _work_rectools,
}
PEER_PACKAGES = {"pytrec_eval": "pytrec-eval-terrier", "ranx": "ranx", "RecTools": "rectools"}
# The rankwise convention each peer's numbers are checked against.
PEER_CONVENTIONS = {"pytrec_eval": "trec_eval", "ranx": "ranx", "RecTools": "rectools"}


# Interpreters for peers that cannot share rankwise's environment (--peer-python).
PEER_PYTHONS: dict[str, str] = {}


def _measure(tool: str, folder: Path) -> dict:
    completed = subprocess.run(
        [PEER_PYTHONS.get(tool, sys.executable), __file__, "--worker", tool, str(folder)],
        check=True, capture_output=True, text=True,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _worker(tool: str, folder: Path) -> None:
    started = time.perf_counter()
    values = WORKERS[tool](folder)
    seconds = time.perf_counter() - started
    peak_kib = max(_own_peak_kib(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024, "values": values}))


def _own_peak_kib() -> int:
    """This process's peak RSS. Not ru_maxrss: Linux carries that across exec from
    the forked parent, so a worker would report the orchestrator's memory."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _installed(tool: str) -> bool:
    package = PEER_PACKAGES.get(tool)
    return package is None or _peer_version(tool) is not None


def _peer_version(tool: str) -> str | None:
    """The version of a peer's package, in the interpreter its worker runs in."""
    package = PEER_PACKAGES[tool]
    if tool not in PEER_PYTHONS:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return None
    completed = subprocess.run(
        [PEER_PYTHONS[tool], "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
        capture_output=True, text=True,
    )
    return completed.stdout.strip() if completed.returncode == 0 else None


def _check_agreement(tool: str, values: dict, reference: dict) -> None:
    for key, value in values.items():
        if key in reference and abs(reference[key] - value) > 1e-9:
            raise SystemExit(f"{tool} disagrees with rankwise on {key}: {value} != {reference[key]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tools", nargs="+", default=list(WORKERS), choices=list(WORKERS), metavar="TOOL")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit for the rankwise runs, e.g. 12GB")
    parser.add_argument("--temp-directory", help="where DuckDB spills in the rankwise runs")
    parser.add_argument("--report", type=Path, default=REPORT)
    parser.add_argument("--data-root", type=Path, default=DATA_ROOT,
                        help="where the generated data and dbt's scratch files are kept between runs (default: benchmarks/data)")
    parser.add_argument("--peer-python", action="append", default=[], metavar="TOOL=PYTHON",
                        help="run a peer's workers in another interpreter, e.g. RecTools=/opt/rectools/bin/python "
                             "(RecTools pins numpy < 2 on Python 3.11, which rankwise's environment does not share)")
    parser.add_argument("--worker", nargs=2, metavar=("TOOL", "FOLDER"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        _worker(arguments.worker[0], Path(arguments.worker[1]))
        return
    for entry in arguments.peer_python:
        tool, _, python = entry.partition("=")
        if tool not in PEER_PACKAGES or not python:
            parser.error(f"--peer-python takes TOOL=PYTHON with TOOL one of {', '.join(PEER_PACKAGES)}; got {entry!r}")
        PEER_PYTHONS[tool] = python
    for name, value in zip(MEMORY_ENVIRONMENT, (arguments.memory_limit, arguments.temp_directory)):
        if value:
            os.environ[name] = value

    rows, notes = [], []
    if any(tool.startswith("dbt") for tool in arguments.tools):
        _dbt(arguments.data_root, "deps", "--quiet")
    for users in arguments.users:
        folder = generate(arguments.data_root, users)
        for tool in arguments.tools:
            if not _installed(tool):
                notes.append(f"{tool}: not measured, `{PEER_PACKAGES[tool]}` is not installed.")
                continue
            runs = [_measure(tool, folder) for _ in range(arguments.repeat)]
            if tool in PEER_CONVENTIONS:
                convention = PEER_CONVENTIONS[tool]
                _check_agreement(tool, runs[0]["values"], _rankwise_values(folder, convention, validate=False))
                notes.append(f"{tool}: its means agree with rankwise's (convention='{convention}') within 1e-9 at every size.")
            if tool == "dbt run (package model)":
                steps = {name: statistics.median(r["values"][name] for r in runs) for name in runs[0]["values"]}
                notes.append(f"{tool}, {users:,} users: the package model "
                             + ", ".join(f"{step}s in {value:.2f} s" for step, value in steps.items())
                             + " (medians, from dbt's run_results.json).")
            rows.append((users, tool, statistics.median(r["seconds"] for r in runs), max(r["peak_mib"] for r in runs)))
            print(f"{users:>10} users  {tool:<26} {rows[-1][2]:8.2f} s  {rows[-1][3]:8.0f} MiB", flush=True)
    _write_report(arguments, rows, notes)


def _write_report(arguments: argparse.Namespace, rows: list[tuple], notes: list[str]) -> None:
    seconds = {(users, tool): value for users, tool, value, _ in rows}
    peaks = {(users, tool): value for users, tool, _, value in rows}
    command = "python benchmarks/run.py --users " + " ".join(map(str, arguments.users)) + f" --repeat {arguments.repeat}"
    if arguments.tools != list(WORKERS):
        command += " --tools " + " ".join(f"'{tool}'" for tool in arguments.tools)
    if arguments.memory_limit:
        command += f" --memory-limit {arguments.memory_limit}"
    if arguments.temp_directory:
        command += f" --temp-directory {arguments.temp_directory}"
    for entry in arguments.peer_python:
        command += f" --peer-python {entry}"
    lines = [
        "# Benchmarks",
        "",
        f"Generated by `{command}`: end to end from Parquet, each run in a fresh process (imports, reading "
        "and conversion included), the median wall time of the repetitions and the largest peak RSS. "
        f"Every tool computes {', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))} (rankwise also entropy@10); "
        "the floor query only joins the recommendations to the interactions and counts hits per user. "
        "`rankwise` is `rankwise.evaluate` with its defaults, which check the input first (nulls, duplicate "
        "items and ranks in a list, duplicate interactions...); `validate=False` skips those checks.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {_memory_gib():.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}; " + ", ".join(_versions()) + ".",
        "",
        "| users | rows | tool | seconds | x floor | peak MiB |",
        "|---:|---:|---|---:|---:|---:|",
    ]
    for users, tool, value, peak in rows:
        floor = seconds.get((users, "floor query"))
        ratio = f"{value / floor:.2f}" if floor else ""
        lines.append(f"| {users:,} | {20 * users:,} | {tool} | {value:.2f} | {ratio} | {peak:,.0f} |")
    lines += ["", "## Targets", "", "| target | measured | met |", "|---|---|---|"]
    lines += [_target_row(*target) for target in _targets(arguments.users, seconds, peaks, arguments.memory_limit)]
    lines += ["", "## Notes", ""] + [f"- {note}" for note in dict.fromkeys(notes)]
    arguments.report.parent.mkdir(parents=True, exist_ok=True)
    arguments.report.write_text("\n".join(lines).rstrip() + "\n")
    print(f"wrote {arguments.report}")


def _targets(sizes: list[int], seconds: dict, peaks: dict, memory_limit: str | None) -> list[tuple[str, str, bool | None]]:
    """The targets of the performance issue, read off the largest size measured."""
    largest = max(sizes)
    found = []
    for variant in ("rankwise", "rankwise, validate=False"):
        own = seconds.get((largest, variant))
        if own is None:
            continue
        if largest >= 10_000_000:
            found.append((f"`{variant}` completes at {largest:,} users ({20 * largest:,} rows)",
                          f"{own:.1f} s, peak {peaks[(largest, variant)]:,.0f} MiB"
                          + (f" with memory_limit {memory_limit}" if memory_limit else ""), True))
        floor = seconds.get((largest, "floor query"))
        if floor:
            found.append((f"`{variant}` within 2x the floor query ({largest:,} users)", f"{own / floor:.2f}x", own <= 2 * floor))
        for peer, factor in (("RecTools", 5), ("pytrec_eval", 10)):
            if (largest, peer) in seconds:
                ratio = seconds[(largest, peer)] / own
                found.append((f"`{variant}` at least {factor}x faster than {peer}", f"{ratio:.1f}x", ratio >= factor))
        if (largest, "RecTools") in peaks:
            found.append((f"`{variant}` peak memory below RecTools'", f"{peaks[(largest, variant)]:,.0f} vs "
                          f"{peaks[(largest, 'RecTools')]:,.0f} MiB", peaks[(largest, variant)] < peaks[(largest, "RecTools")]))
        smaller = [size for size in sizes if size * 10 == largest and (size, variant) in seconds]
        if smaller:
            growth = own / seconds[(smaller[0], variant)]
            found.append((f"`{variant}`: 10x the rows costs at most 11x the time ({smaller[0]:,} to {largest:,} users)",
                           f"{growth:.1f}x", growth <= 11))
    dbt = [seconds.get((largest, tool)) for tool in ("dbt run (package model)", "dbt start-up", "rankwise SQL only")]
    if None not in dbt:
        run, start_up, sql_only = dbt
        found.append(("the dbt path adds no more than dbt's start-up to the same SQL",
                      f"dbt run {run:.2f} s vs start-up {start_up:.2f} s + SQL {sql_only:.2f} s", run <= start_up + sql_only))
    return found


def _target_row(target: str, measured: str, met: bool | None) -> str:
    return f"| {target} | {measured} | {'yes' if met else 'no'} |"


def _memory_gib() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 1024 / 1024
    return float("nan")


def _versions() -> list[str]:
    versions = [f"{package} {metadata.version(package)}" for package in ("rankwise", "duckdb")]
    for tool, package in PEER_PACKAGES.items():
        version = _peer_version(tool)
        if version is not None:
            versions.append(f"{package} {version}" + (" (own environment)" if tool in PEER_PYTHONS else ""))
    return versions


if __name__ == "__main__":
    main()
