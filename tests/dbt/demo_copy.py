"""A copy of the demo dbt project whose package is this checkout, for the
tests that build or parse it, and dbt run in it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def demo_copy(tmp_path: Path, files: tuple[str, ...] = ("dbt_project.yml", "profiles.yml")) -> Path:
    """The demo's `files` copied into tmp_path/demo, with a packages.yml that
    points at this checkout."""
    project = tmp_path / "demo"
    project.mkdir()
    for name in files:
        shutil.copy(REPO_ROOT / "demo" / name, project / name)
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    return project


def run_dbt(project: Path, *commands: list[str]) -> None:
    """Each dbt command in turn in `project`; the first that fails fails the test."""
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    for command in commands:
        done = subprocess.run([str(dbt), *command], cwd=project, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
