"""Runs dbt on the integration test project in a subprocess, into a scratch folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_PROJECT = REPO_ROOT / "integration_tests"


@dataclass
class DbtRun:
    returncode: int
    output: str
    results: list[dict]
    database: Path


def run_dbt(command: list[str], scratch: Path) -> DbtRun:
    """Runs `dbt deps` then `dbt <command>` with the DuckDB file and artefacts in `scratch`."""
    dbt = Path(sys.executable).with_name("dbt")
    database = scratch / "integration_tests.duckdb"
    env = {
        **os.environ,
        "DBT_PROFILES_DIR": str(INTEGRATION_PROJECT),
        "RANKWISE_DUCKDB_PATH": str(database),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }
    paths = ["--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]
    output = []
    for args in (["deps", "--quiet"], [*command, *paths]):
        completed = subprocess.run(
            [str(dbt), *args],
            cwd=INTEGRATION_PROJECT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        output.append(completed.stdout + completed.stderr)
        if completed.returncode != 0 and args[0] == "deps":
            break
    results_file = scratch / "target" / "run_results.json"
    results = json.loads(results_file.read_text())["results"] if results_file.exists() else []
    return DbtRun(completed.returncode, "\n".join(output), results, database)
