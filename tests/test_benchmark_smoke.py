"""The benchmark script runs end to end at a small size (a smoke test, not a
timing: speed is measured by benchmarks/run.py, never asserted in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# the benchmark runs dbt and every tool on 2,000 users
pytestmark = [pytest.mark.dbt, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[1]
# ranx compiles with numba for a minute; its agreement is tested in tests/crosscheck
TOOLS = ("rankwise", "rankwise, validate=False", "rankwise CLI", "floor query", "floor query, checked",
         "dbt run (package model)", "dbt start-up", "rankwise SQL only", "pytrec_eval")


def test_benchmark_runs_and_reports(tmp_path: Path) -> None:
    report = tmp_path / "benchmarks.md"
    completed = subprocess.run(
        [sys.executable, str(REPO_ROOT / "benchmarks" / "run.py"), "--users", "2000", "--repeat", "1", "--report", str(report),
         # a folder that does not exist yet, as on a clean checkout
         "--data-root", str(tmp_path / "data"),
         "--tools", *TOOLS,
         # the way to run RecTools beside rankwise, which pins numpy < 2: here the same interpreter
         "--peer-python", f"pytrec_eval={sys.executable}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    text = report.read_text()
    for tool in TOOLS:
        assert f"| 2,000 | 40,000 | {tool} |" in text
    assert "pytrec_eval: its means agree with rankwise's (convention='trec_eval') within 1e-9" in text
    assert "| `rankwise` within 2x the floor query (2,000 users) |" in text
    assert "dbt run (package model), 2,000 users: the package model compiles in " in text
    assert "| the dbt path adds no more than dbt's start-up to the same SQL | dbt run " in text
    assert "pytrec-eval-terrier 0.5" in text and "(own environment)" in text
