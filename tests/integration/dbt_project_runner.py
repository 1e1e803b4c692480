"""Runs dbt on the integration test project in a subprocess, on one engine, with
the engine's state and dbt's artefacts in a scratch folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .engines import ENGINES

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_PROJECT = REPO_ROOT / "integration_tests"


@dataclass
class DbtRun:
    engine: str
    returncode: int
    output: str
    results: list[dict]
    scratch: Path

    @property
    def database(self) -> Path:
        """The DuckDB file (DuckDB runs only)."""
        assert self.engine == "duckdb", self.engine
        return self.scratch / "integration_tests.duckdb"


def run_dbt(command: list[str], scratch: Path, engine: str = "duckdb") -> DbtRun:
    """Starts `engine`, runs `dbt deps` then `dbt <command>` on it, and stops it."""
    dbt = Path(sys.executable).with_name("dbt")
    paths = ["--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]
    output = []
    with ENGINES[engine](scratch) as engine_environment:
        env = {
            **os.environ,
            **engine_environment,
            "DBT_PROFILES_DIR": str(INTEGRATION_PROJECT),
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        }
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
    return DbtRun(engine, completed.returncode, "\n".join(output), results, scratch)
