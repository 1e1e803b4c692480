"""The gates in dbt: `dbt build` fails on a candidate worse than production by
more than the margin (not_worse_than_baseline) or below a metric's bound
(metric_at_least), and passes on one that is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

USERS = 40
TRUTH = pd.DataFrame({"user_id": [u for u in range(USERS) for _ in range(2)],
                      "item_id": [f"i{u}_{j}" for u in range(USERS) for j in range(2)]})


def _lists(found: int) -> pd.DataFrame:
    """Each user's top 3: the first `found` users get their two relevant items."""
    rows = []
    for user in range(USERS):
        items = [f"i{user}_0", f"i{user}_1", "x"] if user < found else ["x", "y", "z"]
        rows += [(user, item, rank) for rank, item in enumerate(items, start=1)]
    return pd.DataFrame(rows, columns=["user_id", "item_id", "rank"])


def _project(tmp_path: Path, candidate_found: int) -> Path:
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    (project / "seeds").mkdir()
    (project / "dbt_project.yml").write_text("name: gates\nversion: '1.0'\nprofile: gates\nconfig-version: 2\n")
    (project / "profiles.yml").write_text(
        "gates:\n  target: duckdb\n  outputs:\n    duckdb:\n      type: duckdb\n      path: target/gates.duckdb\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    recommendations = pd.concat([_lists(USERS).assign(model="prod"), _lists(candidate_found).assign(model="candidate")])
    recommendations.to_csv(project / "seeds" / "recommendations.csv", index=False)
    TRUTH.to_csv(project / "seeds" / "interactions.csv", index=False)
    (project / "models" / "comparison.sql").write_text(
        "{{ rankwise.compare(ref('recommendations'), ref('interactions'), metrics=['recall@3'], baseline='prod', "
        "margin=0.1) }}\n")
    (project / "models" / "metrics.sql").write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['recall@3'], group_by=['model']) }}\n")
    (project / "models" / "schema.yml").write_text(
        "version: 2\nmodels:\n"
        "  - name: comparison\n    data_tests:\n      - rankwise.not_worse_than_baseline\n"
        "  - name: metrics\n    data_tests:\n"
        "      - rankwise.metric_at_least:\n          arguments: {metric_label: 'recall@3', threshold: 0.5}\n")
    return project


def _dbt(project: Path, *command: str) -> subprocess.CompletedProcess:
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    return subprocess.run([str(dbt), *command], cwd=project, env=env, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(("found", "passes"), [(40, True), (39, True), (8, False)])
def test_dbt_build_fails_on_a_worse_candidate_only(tmp_path: Path, found: int, passes: bool) -> None:
    """A copy of prod passes; so does one that misses one user of 40 (recall
    0.025 worse, shown within the margin of 0.1: t = 3, p = 0.002; and 39/40 is
    above 0.5); one that finds 8 users of 40 fails both gates."""
    project = _project(tmp_path, found)
    assert _dbt(project, "deps", "--quiet").returncode == 0
    built = _dbt(project, "build")
    assert (built.returncode == 0) == passes, built.stdout[-3000:]
    if not passes:
        assert "not_worse_than_baseline" in built.stdout and "metric_at_least" in built.stdout
