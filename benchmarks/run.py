"""Times rankwise end to end from Parquet against the least work any correct
method must do (the floor query) and against the peers that are installed.

    python benchmarks/run.py --users 10000 100000 1000000 --repeat 3

Every measurement runs in a fresh process (`python benchmarks/run.py --worker
...`), which reports its wall time and peak RSS; the median of the repetitions is
kept. Before a peer's time is reported, its numbers are checked against
rankwise's under the matching convention. The report goes to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
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


def generate(users: int) -> Path:
    """Deterministic data: Zipf-like item popularity over 50k items, 20 ranked
    recommendations per user, ~10 graded (1..3) relevant items per user, ~3% of
    users with none; rows written grouped by user."""
    import duckdb

    folder = DATA_ROOT / f"users_{users}"
    if (folder / "interactions.parquet").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute("select setseed(0.42)")
    zipf_item = "cast(floor(50000 * pow(hash({seed}) / 18446744073709551615.0, 3)) as integer)"
    con.execute(
        f"""copy (
            select user_id, item_id, rank, 1.0 - rank / 100.0 as score
            from (
                select user_id, item_id, row_number() over (partition by user_id order by min(slot)) as rank
                from (
                    select u as user_id, slot, {zipf_item.format(seed="u * 97 + slot")} as item_id
                    from range({users}) as users(u), range(40) as slots(slot)
                ) group by user_id, item_id
            ) where rank <= 20
            order by user_id, rank
        ) to '{folder / "recommendations.parquet"}' (format parquet)"""
    )
    con.execute(
        f"""copy (
            select user_id, item_id, max(relevance) as relevance
            from (
                select u as user_id, {zipf_item.format(seed="u * 131 + slot + 7")} as item_id,
                       1 + hash(u * 7 + slot) % 3 as relevance
                from range({users}) as users(u), range(10) as slots(slot)
                where hash(u) % 100 >= 3
            ) group by user_id, item_id
            order by user_id
        ) to '{folder / "interactions.parquet"}' (format parquet)"""
    )
    return folder


# Workers: each runs in its own process and prints one JSON line.


def _work_rankwise(folder: Path) -> dict:
    import rankwise

    table = rankwise.evaluate(
        str(folder / "recommendations.parquet"),
        str(folder / "interactions.parquet"),
        METRICS + ["entropy@10"],
        k=CUTOFFS,
        relevance_col="relevance",
    )
    return {f"{row.metric}@{row.k}": row.value for row in table.itertuples()}


def _work_cli(folder: Path) -> dict:
    arguments = [str(folder / "recommendations.parquet"), str(folder / "interactions.parquet")]
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


def _work_floor(folder: Path) -> dict:
    import duckdb

    hits = duckdb.sql(
        f"""select count(*) from (
            select r.user_id, count(i.item_id) as hits
            from read_parquet('{folder / "recommendations.parquet"}') r
            left join read_parquet('{folder / "interactions.parquet"}') i using (user_id, item_id)
            group by r.user_id
        )"""
    ).fetchall()
    return {"users": hits[0][0]}


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


WORKERS = {
    "rankwise": _work_rankwise,
    "rankwise CLI": _work_cli,
    "floor query": _work_floor,
    "pytrec_eval": _work_pytrec_eval,
}
PEER_PACKAGES = {"pytrec_eval": "pytrec-eval-terrier"}


def _measure(tool: str, folder: Path) -> dict:
    completed = subprocess.run(
        [sys.executable, __file__, "--worker", tool, str(folder)], check=True, capture_output=True, text=True
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
    if package is None:
        return True
    try:
        metadata.version(package)
    except metadata.PackageNotFoundError:
        return False
    return True


def _check_agreement(tool: str, values: dict, reference: dict) -> None:
    for key, value in values.items():
        if key in reference and abs(reference[key] - value) > 1e-9:
            raise SystemExit(f"{tool} disagrees with rankwise on {key}: {value} != {reference[key]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tools", nargs="+", default=list(WORKERS))
    parser.add_argument("--report", type=Path, default=REPORT)
    parser.add_argument("--worker", nargs=2, metavar=("TOOL", "FOLDER"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        _worker(arguments.worker[0], Path(arguments.worker[1]))
        return

    rows, notes = [], []
    for users in arguments.users:
        folder = generate(users)
        reference = None
        for tool in arguments.tools:
            if not _installed(tool):
                notes.append(f"{tool}: skipped, `{PEER_PACKAGES[tool]}` is not installed.")
                continue
            runs = [_measure(tool, folder) for _ in range(arguments.repeat)]
            if tool == "rankwise":
                reference = runs[0]["values"]
            elif reference is not None:
                _check_agreement(tool, runs[0]["values"], reference)
            rows.append((users, tool, statistics.median(r["seconds"] for r in runs), max(r["peak_mib"] for r in runs)))
            print(f"{users:>9} users  {tool:<14} {rows[-1][2]:8.2f} s  {rows[-1][3]:8.0f} MiB", flush=True)
    _write_report(arguments, rows, notes)


def _write_report(arguments: argparse.Namespace, rows: list[tuple], notes: list[str]) -> None:
    floors = {users: seconds for users, tool, seconds, _ in rows if tool == "floor query"}
    lines = [
        "# Benchmarks",
        "",
        "Generated by `python benchmarks/run.py "
        + " ".join(f"--users {u}" if i == 0 else str(u) for i, u in enumerate(arguments.users))
        + f" --repeat {arguments.repeat}`: end to end from Parquet, each run in a fresh process, "
        "median wall time of the repetitions and the largest peak RSS. rankwise computes "
        f"{', '.join(METRICS)} at k = {', '.join(map(str, CUTOFFS))} plus entropy@10; the floor query only "
        "joins recommendations to interactions and counts hits per user.",
        "",
        f"Machine: {platform.machine()}, {platform.system()} {platform.release()}, Python {platform.python_version()}, "
        f"duckdb {metadata.version('duckdb')}.",
        "",
        "| users | rows | tool | seconds | x floor | peak MiB |",
        "|---:|---:|---|---:|---:|---:|",
    ]
    for users, tool, seconds, peak in rows:
        ratio = f"{seconds / floors[users]:.1f}" if users in floors else ""
        lines.append(f"| {users:,} | {20 * users:,} | {tool} | {seconds:.2f} | {ratio} | {peak:.0f} |")
    lines += [""] + [f"- {note}" for note in dict.fromkeys(notes)]
    arguments.report.parent.mkdir(parents=True, exist_ok=True)
    arguments.report.write_text("\n".join(lines).rstrip() + "\n")
    print(f"wrote {arguments.report}")


if __name__ == "__main__":
    main()
