"""Runs dbt on a copy of the integration test project, every command of a run in
one dbt process (tests/engines/commands_in_one_process.py), on one engine,
with the copy, the engine's state and dbt's artefacts in a scratch folder:
runs on several pytest-xdist workers never share dbt_packages/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .engines import ENGINES

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_PROJECT = REPO_ROOT / "integration_tests"


@dataclass
class CommandOutput:
    returncode: int
    output: str


@dataclass
class DbtRun:
    engine: str
    returncode: int
    output: str
    results: list[dict]
    scratch: Path
    # the commands run after it in the same dbt process (run_dbt's and_then)
    and_then: list[CommandOutput]

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


def _paths(scratch: Path, target: str) -> list[str]:
    return ["--target-path", str(scratch / target), "--log-path", str(scratch / "logs")]


def _in_one_process(commands: list[list[str]], scratch: Path, engine: str) -> list[CommandOutput]:
    """Starts `engine` once, then runs `dbt deps` and every command in one dbt
    process (tests/engines/commands_in_one_process.py); each command's output and exit
    code on its own. A command that fails does not stop the next."""
    from .commands_in_one_process import MARKER

    project = _copy_project(scratch)
    with ENGINES[engine](scratch) as engine_environment:
        completed = subprocess.run(
            [sys.executable, "-c", Path(__file__).with_name("commands_in_one_process.py").read_text(),
             json.dumps([["deps", "--quiet"], *commands])],
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


def run_dbt(command: list[str], scratch: Path, engine: str = "duckdb",
            and_then: tuple[list[str], ...] = ()) -> DbtRun:
    """Starts `engine`, runs `dbt deps`, `dbt <command>` and then the commands
    of `and_then` in one dbt process (one engine start, one SparkSession), and
    stops it. `and_then` keeps its artefacts in a target folder of its own, so
    the run's results are `command`'s."""
    first, *later = _in_one_process(
        [[*command, *_paths(scratch, "target")], *([*after, *_paths(scratch, "target-and-then")] for after in and_then)],
        scratch, engine)
    return DbtRun(engine, first.returncode, first.output, _results(scratch), scratch, later)


def _results(scratch: Path) -> list[dict]:
    results_file = scratch / "target" / "run_results.json"
    return json.loads(results_file.read_text())["results"] if results_file.exists() else []
