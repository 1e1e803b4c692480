"""What a dbt project that installs rankwise gets: the files .dbtignore lets dbt
parse, read the way dbt reads them, and the dbt versions the package claims."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pathspec
import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

REPO_ROOT = Path(__file__).resolve().parents[2]
# Never part of a checkout that dbt parses as a package.
NOT_IN_THE_PACKAGE = {".git", ".venv", "dbt_packages", "target", "logs", "__pycache__", ".pytest_cache", ".hypothesis"}


def _dbtignore() -> pathspec.PathSpec:
    # as dbt-core builds it (dbt/parser/read_files.py, generate_dbt_ignore_spec)
    with (REPO_ROOT / ".dbtignore").open() as lines:
        return pathspec.PathSpec.from_lines(pathspec.patterns.GitWildMatchPattern, lines)


def _files() -> list[str]:
    files = []
    for folder, subfolders, names in os.walk(REPO_ROOT):
        subfolders[:] = [name for name in subfolders if name not in NOT_IN_THE_PACKAGE]
        files += [Path(folder, name).relative_to(REPO_ROOT).as_posix() for name in names]
    return files


def test_dbt_parses_only_the_project_file_the_macros_and_the_models() -> None:
    ignore = _dbtignore()
    files = _files()
    parsed = {path for path in files if not ignore.match_file(path)}
    assert parsed == {path for path in files if path == "dbt_project.yml" or path.startswith(("macros/", "models/"))}
    assert any(path.startswith("macros/") for path in parsed) and any(path.startswith("models/") for path in parsed)


def test_a_new_folder_stays_out_of_a_consumers_project() -> None:
    """A whitelist: folders dbt would read by default (seeds/, tests/,
    analyses/, snapshots/) are ignored even if the repository gains them."""
    ignore = _dbtignore()
    for path in ("seeds/data.csv", "tests/assert_x.sql", "analyses/a.sql", "snapshots/s.sql", "new_folder/m.sql",
                 "README.md", "python/rankwise/__init__.py"):
        assert ignore.match_file(path), path
    for path in ("dbt_project.yml", "macros/evaluate.sql", "macros/schema.yml", "models/rankwise_metrics.sql"):
        assert not ignore.match_file(path), path


def _proven_dbt_core_versions() -> list[Version]:
    """The dbt-core of each line of tests/dbt_versions/versions.txt, which
    `make test-dbt-versions` builds the integration project on."""
    lines = (REPO_ROOT / "tests" / "dbt_versions" / "versions.txt").read_text().splitlines()
    pins = [field for line in lines if line.strip() and not line.lstrip().startswith("#")
            for field in line.split() if field.startswith("dbt-core==")]
    return [Version(pin.removeprefix("dbt-core==")) for pin in pins]


def _bounds(specifiers: SpecifierSet) -> tuple[Version, Version]:
    """The `>=` and `<` bounds of a range of that form, nothing else."""
    by_operator = {specifier.operator: Version(specifier.version) for specifier in specifiers}
    assert set(by_operator) == {">=", "<"}, specifiers
    return by_operator[">="], by_operator["<"]


def test_the_required_dbt_version_is_the_one_tested() -> None:
    """dbt_project.yml's require-dbt-version is the range of dbt versions
    `make test-dbt-versions` proves (tests/dbt_versions/versions.txt): from the
    first minor tested, to below the minor after the last, or below the next
    major when the last is the newest minor (which the package then expects its
    patch and minor successors to keep running); and the dbt-core
    pyproject.toml installs for `make test` lies within it, on a tested minor."""
    required = yaml.safe_load((REPO_ROOT / "dbt_project.yml").read_text())["require-dbt-version"]
    declared = SpecifierSet(",".join(required))
    proven = _proven_dbt_core_versions()
    assert proven == sorted(proven) and len({(v.major, v.minor) for v in proven}) == len(proven) >= 2, proven
    assert all(version in declared for version in proven), (declared, proven)
    lowest, upper = _bounds(declared)
    first, last = proven[0], proven[-1]
    assert lowest == Version(f"{first.major}.{first.minor}.0"), (lowest, first)
    assert upper in (Version(f"{last.major}.{last.minor + 1}.0"), Version(f"{last.major + 1}.0.0")), (upper, last)

    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (dbt_core,) = [requirement for requirement in extras["dbt"] if re.match(r"dbt-core\b", requirement)]
    installed_low, installed_upper = _bounds(SpecifierSet(dbt_core.removeprefix("dbt-core")))
    assert installed_low in declared and installed_upper <= upper, (dbt_core, declared)
    assert any(version in SpecifierSet(dbt_core.removeprefix("dbt-core")) for version in proven), (dbt_core, proven)
