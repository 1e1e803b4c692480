"""The benchmark (`python -m benchmarks`) runs end to end at a small size (a
smoke test, not a timing: speed is measured by the benchmark, never asserted in
tests), and its generated data has the hit density it is asked for."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
USERS = 2000
# ranx compiles its metrics with numba on first use, too slow for a smoke test; its
# agreement is tested in tests/crosscheck.
# RecTools is not installed beside rankwise: the report says it was left out.
TOOLS = ("rankwise", "rankwise, validate=False", "rankwise, beyond accuracy", "rankwise, exposure and popularity lift",
         "floor query", "pytrec_eval", "RecTools")
# The rest, at one density: dbt's start-up dominates their time.
DBT_TOOLS = ("rankwise CLI", "floor query, checked", "dbt run (package model)", "dbt start-up", "rankwise SQL only")


@pytest.fixture(scope="module")
def data_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a folder that does not exist yet, as on a clean checkout; shared by the
    # tests of this module, which generate the same data
    return tmp_path_factory.mktemp("benchmark") / "data"


def _run(*arguments: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    completed = subprocess.run([sys.executable, "-m", "benchmarks", *arguments], cwd=REPO_ROOT,
                               capture_output=True, text=True, check=False)
    if check:
        assert completed.returncode == 0, completed.stderr[-3000:]
    return completed


def test_benchmark_reports_every_target_at_every_density(tmp_path: Path, data_root: Path) -> None:
    report = tmp_path / "benchmarks.md"
    completed = _run("--users", str(USERS), "--hit-density", "0.05", "0.3", "--repeat", "1", "--report", str(report),
                     "--data-root", str(data_root), "--tools", *TOOLS,
                     # the way to run RecTools beside rankwise, which pins numpy < 2: here the same interpreter
                     "--peer-python", f"pytrec_eval={sys.executable}")
    text = report.read_text()
    for density in ("0.05", "0.3"):
        for tool in TOOLS[:-1]:
            assert f"| {USERS:,} | {density} | {tool} |" in text
    assert "| users | hit density | tool | seconds | x floor | CPU seconds | peak MiB |" in text
    assert "x (CPU " in text
    assert "| target | hit density 0.05 | hit density 0.3 |" in text
    for target in (f"`rankwise, validate=False` within 2x the floor query, {USERS:,} users |",
                   f"`rankwise` within 3x the floor query, {USERS:,} users |",
                   f"`rankwise` at least 10x faster than pytrec_eval, {USERS:,} users |"):
        row = next(line for line in text.splitlines() if target in line)
        # one measured cell per density
        assert len(re.findall(r"\| [0-9.]+x[^|]*: (met|\*\*not met\*\*) (?=\|)", row)) == 2, row
    row = next(line for line in text.splitlines()
               if f"the beyond-accuracy metrics add at most the floor query's time to `rankwise`, {USERS:,} users |" in line)
    assert len(re.findall(r"\| \+-?[0-9.]+ s vs floor [0-9.]+ s: (met|\*\*not met\*\*) (?=\|)", row)) == 2, row
    row = next(line for line in text.splitlines()
               if "exposure Gini, exposure disparity and popularity lift add at most the floor query's time to "
                  f"`rankwise`, {USERS:,} users |" in line)
    assert len(re.findall(r"\| \+-?[0-9.]+ s vs floor [0-9.]+ s: (met|\*\*not met\*\*) (?=\|)", row)) == 2, row
    assert "pytrec_eval: its means agree with rankwise's (convention='trec_eval') within 1e-9" in text
    assert "RecTools: not measured, `rectools` is not installed; its targets are left out." in text
    assert "RecTools," not in text.split("## Targets")[1].split("## Notes")[0]
    assert "pytrec-eval-terrier 0.5" in text and "(own environment)" in text
    for density in (0.05, 0.3):
        measured = _measured_density(data_root / f"users_{USERS}_density_{density:g}")
        assert abs(measured / density - 1) <= 0.2
        # the script prints and reports the density it achieved, measured the same way
        assert f"hit density {density:g}: {measured:.4f} of {20 * USERS:,} recommended rows relevant" in completed.stdout
        assert f"| {USERS:,} | {20 * USERS:,} | {density:g} | {measured:.4f} |" in text


def _measured_density(folder: Path) -> float:
    """The share of recommended rows with an interaction of relevance >= 1, after
    checking the lists and the interactions are what the benchmark promises."""
    con = duckdb.connect()
    for table in ("recommendations", "interactions"):
        con.execute(f"create view {table} as select * from read_parquet('{folder / (table + '.parquet')}')")
    lists = con.execute("""select min(n), max(n), min(ranks), max(ranks), bool_and(first_rank = 1 and last_rank = 20)
                       from (select user_id, count(*) as n, count(distinct item_id) as items, count(distinct rank) as ranks,
                                    min(rank) as first_rank, max(rank) as last_rank
                             from recommendations group by user_id) where items = n""").fetchone()
    assert lists == (20, 20, 20, 20, True)
    relevance, per_user, without = con.execute(
        f"""select list_sort(list(distinct relevance)), count(*) / count(distinct user_id),
                   1 - count(distinct user_id) / {USERS} from interactions""").fetchone()
    assert relevance == [1, 2, 3] and 8 <= per_user <= 12 and 0.01 <= without <= 0.05
    return con.execute("""select count(i.item_id) / count(*) from recommendations as r
                      left join interactions as i on i.user_id = r.user_id and i.item_id = r.item_id
                                                  and i.relevance >= 1""").fetchone()[0]


def test_benchmark_dbt_path_and_completion(tmp_path: Path, data_root: Path) -> None:
    report = tmp_path / "benchmarks.md"
    _run("--users", str(USERS), "--hit-density", "0.1", "--repeat", "1", "--report", str(report),
         "--data-root", str(data_root), "--tools", *DBT_TOOLS, "floor query",
         "--completion", "3000", "--memory-limit", "1GB", "--temp-directory", str(tmp_path / "spill"))
    text = report.read_text()
    for tool in DBT_TOOLS:
        assert f"| {USERS:,} | 0.1 | {tool} |" in text
    assert f"dbt run (package model), {USERS:,} users, hit density 0.1: the package model compiles in " in text
    assert f"| the dbt path adds no more than dbt's start-up to the same SQL, {USERS:,} users | dbt run " in text
    for variant in ("rankwise", "rankwise, validate=False"):
        assert f"| `{variant}` completes at 3,000 users with memory_limit 1GB, temp_directory " in text
    assert "| 3,000 | 0.1 | floor query |" in text


def test_profile_writes_both_plans(tmp_path: Path, data_root: Path) -> None:
    profile = tmp_path / "plans" / "profile.txt"
    _run("--users", str(USERS), "--hit-density", "0.1", "--profile", str(profile), "--data-root", str(data_root))
    text = profile.read_text()
    assert "== floor query (with partial_aggregate_pushdown disabled)" in text
    assert "== rankwise's metric query" in text
    assert text.count("Total Time:") == 2
    # each plan opens with its heaviest operators, read from DuckDB's JSON profile, which is not left behind
    assert text.count("the heaviest operators") == 2 and re.search(r"\n +[0-9.]+ s +[0-9,]+ +HASH_JOIN ", text)
    assert list(profile.parent.iterdir()) == [profile]
    refused = _run("--hit-density", "0.1", "0.3", "--profile", str(profile), check=False)
    assert refused.returncode == 2 and "give one --users and one --hit-density" in refused.stderr


def test_pushdown_plans_every_query_both_ways(tmp_path: Path) -> None:
    """At 100,000 users, where DuckDB's partial aggregate pushdown changes the
    plan of the control (at 2,000 it leaves every plan alone)."""
    report = tmp_path / "pushdown.md"
    _run("--users", "100000", "--hit-density", "0.1", "--pushdown", str(report), "--data-root", str(tmp_path / "data"))
    rows = [line for line in report.read_text().splitlines() if line.startswith("| ") and "---" not in line][1:]
    uses = {row.split(" | ")[0].lstrip("| ") for row in rows}
    assert uses == {"the control: a join, then count(*) per user", "evaluate, default suite with its checks", "evaluate, per user",
                    "evaluate, beyond accuracy with its checks", "compare, three models, t test"}
    # the optimizer is seen to change the plan of the control
    assert re.fullmatch(r"\| the control: a join, then count\(\*\) per user \| 1 \(select\) \| \*\*different\*\* \| [0-9.]+ \| [0-9.]+ \|", rows[0])
    # the checks are queries of their own: the default suite runs more than its metric query
    assert sum(row.startswith("| evaluate, default suite") for row in rows) >= 3
    for row in rows:
        assert re.fullmatch(r"\| .+ \| \d+ \(\w+\) \| (the same \| \| \||\*\*different\*\* \| [0-9.]+ \| [0-9.]+ \|)", row), row


def test_scale_checks(tmp_path: Path, data_root: Path) -> None:
    report = tmp_path / "scale.md"
    _run("--k-sweep", "5", "--many-groups", str(USERS), "20", "--report", str(report), "--data-root", str(data_root))
    text = report.read_text()
    assert "| k = 1..5: precision, map, ndcg at every k (`rankwise.evaluate` defaults) | 100 users," in text
    assert "| 20 groups, each user's list in one, users='interactions', " in text
    assert "| 1 group, each user's list in one, users='interactions', " in text
    assert "did not finish" not in text
    # a check that outlives --timeout is stopped and reported, not waited for
    _run("--k-sweep", "5", "--timeout", "0.001", "--report", str(report), "--data-root", str(data_root))
    text = report.read_text()
    assert "--k-sweep 5 --timeout 0.001`" in text and "| did not finish in 0.001 s | | |" in text


def test_unreachable_density_is_refused(data_root: Path) -> None:
    refused = _run("--users", "100", "--hit-density", "0.9", "--data-root", str(data_root), "--tools", "floor query",
                   check=False)
    assert refused.returncode != 0 and "hit density 0.9 is out of reach" in refused.stderr
    refused = _run("--hit-density", "1.5", check=False)
    assert refused.returncode == 2 and "between 0 and 1; got 1.5" in refused.stderr
    refused = _run("--completion", check=False)
    assert refused.returncode == 2 and "--completion needs --memory-limit and --temp-directory" in refused.stderr
