"""Runs dbt on a copy of the integration test project in a subprocess, on one
engine, with the copy, the engine's state and dbt's artefacts in a scratch
folder: runs on several pytest-xdist workers never share dbt_packages/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .engines import ENGINES, IN_DBT_PROCESS

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
    def project(self) -> Path:
        """The copy of integration_tests/ dbt ran in."""
        return _project_in(self.scratch)

    @property
    def database(self) -> Path:
        """The DuckDB file (DuckDB runs only)."""
        assert self.engine == "duckdb", self.engine
        return self.scratch / "integration_tests.duckdb"


def _project_in(scratch: Path) -> Path:
    return scratch / "integration_tests"


def _copy_project(scratch: Path) -> Path:
    """integration_tests/ as in the working tree (without dbt's artefacts), whose
    package is this checkout."""
    project = _project_in(scratch)
    shutil.copytree(INTEGRATION_PROJECT, project,
                    ignore=shutil.ignore_patterns("target", "logs", "dbt_packages", "package-lock.yml"))
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    return project


def _environment(project: Path, engine_environment: dict[str, str]) -> dict[str, str]:
    return {
        **os.environ,
        **engine_environment,
        "DBT_PROFILES_DIR": str(project),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }


@dataclass
class CommandOutput:
    returncode: int
    output: str


def run_dbt_commands(commands: list[list[str]], scratch: Path, engine: str = "duckdb") -> list[CommandOutput]:
    """Starts `engine` once, then runs `dbt deps` and every command in one dbt
    process (tests/engines/commands_in_one_process.py); each command's output and exit
    code on its own. A command that fails does not stop the next."""
    from .commands_in_one_process import MARKER

    paths = ["--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]
    project = _copy_project(scratch)
    with ENGINES[engine](scratch) as engine_environment:
        completed = subprocess.run(
            [sys.executable, "-c", Path(__file__).with_name("commands_in_one_process.py").read_text(),
             json.dumps([["deps", "--quiet"], *[[*command, *paths] for command in commands]])],
            cwd=project, env=_environment(project, engine_environment), capture_output=True, text=True, check=False,
        )
    outputs: list[CommandOutput] = []
    lines: list[str] = []
    for line in completed.stdout.splitlines():
        if line.startswith(MARKER):
            _, _, state, *code = line.split()
            if state == "start":
                lines = []
            else:
                outputs.append(CommandOutput(int(code[0]), "\n".join(lines)))
            continue
        lines.append(line)
    if len(outputs) != len(commands) + 1:
        raise AssertionError(f"dbt ran {len(outputs)} of {len(commands) + 1} commands:\n"
                             f"{completed.stdout[-3000:]}\n{completed.stderr[-3000:]}")
    deps, *results = outputs
    if deps.returncode != 0:
        raise AssertionError(f"dbt deps failed:\n{deps.output[-3000:]}")
    return results


def run_dbt(command: list[str], scratch: Path, engine: str = "duckdb") -> DbtRun:
    """Starts `engine`, runs `dbt deps` then `dbt <command>` on it, and stops it."""
    if engine in IN_DBT_PROCESS:
        [result] = run_dbt_commands([command], scratch, engine)
        return DbtRun(engine, result.returncode, result.output, _results(scratch), scratch)
    dbt = Path(sys.executable).with_name("dbt")
    paths = ["--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]
    output = []
    project = _copy_project(scratch)
    with ENGINES[engine](scratch) as engine_environment:
        env = _environment(project, engine_environment)
        for args in (["deps", "--quiet"], [*command, *paths]):
            completed = subprocess.run(
                [str(dbt), *args],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            output.append(completed.stdout + completed.stderr)
            if completed.returncode != 0 and args[0] == "deps":
                break
    return DbtRun(engine, completed.returncode, "\n".join(output), _results(scratch), scratch)


def _results(scratch: Path) -> list[dict]:
    results_file = scratch / "target" / "run_results.json"
    return json.loads(results_file.read_text())["results"] if results_file.exists() else []
