"""One version: pyproject.toml's, which dbt_project.yml repeats for dbt, which
`rankwise.__version__` and `rankwise --version` read from the installed
metadata, and which CHANGELOG.md's newest release names."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import yaml
from click.testing import CliRunner

import rankwise
from rankwise.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]
PYPROJECT_VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_pyproject_and_dbt_project_declare_one_version() -> None:
    dbt_project = yaml.safe_load((REPO_ROOT / "dbt_project.yml").read_text())
    assert dbt_project["version"] == PYPROJECT_VERSION


def test_the_package_reports_the_installed_version() -> None:
    # an editable install whose metadata predates a bump of pyproject.toml fails
    # here: reinstall (the Makefile's stamps depend on pyproject.toml)
    assert version("rankwise") == PYPROJECT_VERSION
    assert rankwise.__version__ == PYPROJECT_VERSION
    completed = CliRunner().invoke(main, ["--version"])
    assert completed.exit_code == 0
    assert completed.output == f"rankwise, version {PYPROJECT_VERSION}\n"


def test_the_changelog_names_the_version_as_its_newest_release() -> None:
    releases = re.findall(r"^## \[(.+?)\](?: - (\d{4}-\d{2}-\d{2}))?$", (REPO_ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases[0] == ("Unreleased", "")
    assert releases[1][0] == PYPROJECT_VERSION
    assert releases[1][1], "a release is dated"
