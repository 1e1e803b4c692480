"""The dbt versions rankwise declares (dbt_project.yml's require-dbt-version),
proven one by one: `make test-dbt-versions` makes a virtual environment per line
of versions.txt (.venv-dbt-<minor>/, dbt-core and dbt-duckdb pinned there) and
runs this file, which on each version, one after the other,

- builds and tests the integration project (`dbt build` of integration_tests/
  on DuckDB: every seed, model and test must pass), and
- builds a new dbt project as README.md has a user write one: a metric model
  over seeds builds, and the same model over recommendations with a duplicated
  row fails the build with rankwise's message (evaluate checks its inputs by
  default, macros/validation/refuse_bad_input.sql).

Not part of `make test` (tests/conftest.py leaves this folder out unless it is
named): each version is a virtual environment of its own and a few minutes.
Each test prints its version's figures (docs/warehouses.md, "dbt versions")."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_PROJECT = REPO_ROOT / "integration_tests"
VERSIONS_FILE = Path(__file__).with_name("versions.txt")


def matrix() -> list[tuple[str, str, str]]:
    """(minor, dbt-core requirement, dbt-duckdb requirement) of each line of versions.txt."""
    rows = []
    for line in VERSIONS_FILE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            minor, core, duckdb, *_without = line.split()
            rows.append((minor, core, duckdb))
    return rows


MATRIX = matrix()


def _dbt(minor: str) -> Path:
    dbt = REPO_ROOT / f".venv-dbt-{minor}" / "bin" / "dbt"
    if not dbt.exists():
        pytest.fail(f"{dbt} is missing: `make test-dbt-versions` makes it (versions.txt)")
    return dbt


def _installed(minor: str, core: str, duckdb: str) -> None:
    """The environment holds the versions versions.txt pins, no other."""
    python = REPO_ROOT / f".venv-dbt-{minor}" / "bin" / "python"
    shown = subprocess.run([python, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
                           capture_output=True, text=True, check=True).stdout
    versions = {package["name"].lower(): package["version"] for package in json.loads(shown)}
    for requirement in (core, duckdb):
        name, _, version = requirement.partition("==")
        assert versions.get(name) == version, (requirement, versions.get(name))


def _run(dbt: Path, arguments: list[str], project: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "DBT_PROFILES_DIR": str(project),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        "RANKWISE_TARGET": "duckdb",
        "RANKWISE_DUCKDB_PATH": str(scratch / "database.duckdb"),
        "DBT_TARGET_PATH": str(scratch / "target"),
        "DBT_LOG_PATH": str(scratch / "logs"),
        "PATH": f"{dbt.parent}:{os.environ['PATH']}",
    }
    return subprocess.run([dbt, *arguments], cwd=project, env=environment, capture_output=True, text=True, check=False)


def _query(dbt: Path, scratch: Path, sql: str) -> list[tuple]:
    """The rows of `sql` on the project's DuckDB file, read with the duckdb of
    the version's own environment (the one that wrote it)."""
    read = subprocess.run([dbt.with_name("python"), "-c",
                           "import duckdb, json, sys; print(json.dumps(duckdb.connect(sys.argv[1], read_only=True)"
                           ".sql(sys.argv[2]).fetchall()))", str(scratch / "database.duckdb"), sql],
                          capture_output=True, text=True, check=True)
    return [tuple(row) for row in json.loads(read.stdout)]


def _results(scratch: Path, run: subprocess.CompletedProcess[str]) -> list[dict]:
    results = scratch / "target" / "run_results.json"
    assert results.exists(), f"dbt wrote no run_results.json:\n{run.stdout[-5000:]}\n{run.stderr[-3000:]}"
    return json.loads(results.read_text())["results"]


# dbt-core 1.10.5 added the `arguments:` property of a generic test; before it,
# a test's arguments sit beside its name and dbt would pass `arguments` itself as
# one. The copy of integration_tests/ built on an older dbt writes them there.
ARGUMENTS_PROPERTY_SINCE = (1, 10, 5)


def _version(requirement: str) -> tuple[int, ...]:
    return tuple(int(part) for part in requirement.partition("==")[2].split("."))


def _without_arguments_property(node: object) -> object:
    """The YAML of a schema file with every generic test's `arguments:` moved
    beside its name (the form every dbt version reads)."""
    if isinstance(node, list):
        return [_without_arguments_property(item) for item in node]
    if isinstance(node, dict):
        node = {key: _without_arguments_property(value) for key, value in node.items()}
        if isinstance(node.get("arguments"), dict) and len(node) >= 1:
            arguments = node.pop("arguments")
            node = {**arguments, **node}
        return node
    return node


def _copy_integration_project(scratch: Path, core: str) -> Path:
    project = scratch / "integration_tests"
    shutil.copytree(INTEGRATION_PROJECT, project,
                    ignore=shutil.ignore_patterns("target", "logs", "dbt_packages", "package-lock.yml"))
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    if _version(core) < ARGUMENTS_PROPERTY_SINCE:
        for schema in [*project.glob("models/**/*.yml"), *project.glob("seeds/**/*.yml")]:
            text = schema.read_text()
            if re.search(r"^\s*arguments:", text, re.MULTILINE) or "{arguments:" in text:
                schema.write_text(yaml.safe_dump(_without_arguments_property(yaml.safe_load(text)), sort_keys=False))
    return project


def _figures(minor: str, what: str, results: list[dict], seconds: float) -> str:
    kinds = [result["unique_id"].split(".")[0] for result in results]
    line = (f"dbt {minor}: {what}: {len(results)} nodes passed ({kinds.count('seed')} seeds, {kinds.count('model')} models, "
            f"{kinds.count('test')} tests) in {seconds:.0f} s")
    print(f"\n{line}")
    return line


@pytest.mark.parametrize(("minor", "core", "duckdb"), MATRIX, ids=[row[0] for row in MATRIX])
def test_integration_project_builds_and_passes(minor: str, core: str, duckdb: str, tmp_path: Path) -> None:
    dbt = _dbt(minor)
    _installed(minor, core, duckdb)
    project = _copy_integration_project(tmp_path, core)
    deps = _run(dbt, ["deps"], project, tmp_path)
    assert deps.returncode == 0, deps.stdout[-3000:] + deps.stderr[-3000:]
    started = time.monotonic()
    build = _run(dbt, ["build"], project, tmp_path)
    seconds = time.monotonic() - started
    results = _results(tmp_path, build)
    failures = [f"{result['unique_id']}: {result['status']} {result.get('message') or ''}"
                for result in results if result["status"] not in ("success", "pass")]
    assert build.returncode == 0 and not failures, "\n".join(failures) or build.stdout[-5000:] + build.stderr[-3000:]
    kinds = [result["unique_id"].split(".")[0] for result in results]
    # every seed, model and test of the project ran, as on the dbt `make test` installs
    assert kinds.count("seed") == len(list((INTEGRATION_PROJECT / "seeds").glob("*.csv")))
    assert kinds.count("model") >= len(list((INTEGRATION_PROJECT / "models").glob("*.sql")))
    assert kinds.count("test") > 0
    _figures(minor, "integration_tests/ dbt build", results, seconds)


# A user's project, as README.md's dbt section has one written: its model is
# README's, word for word, over seeds of the columns README's Inputs table names.
RECOMMENDATIONS = """\
model,user_id,item_id,rank
popularity,u1,i1,1
popularity,u1,i2,2
popularity,u2,i1,1
popularity,u2,i3,2
personalized,u1,i4,1
personalized,u1,i2,2
personalized,u2,i3,1
personalized,u2,i5,2
"""
USER_PROJECT = {
    "dbt_project.yml": """\
name: my_project
version: "1.0.0"
config-version: 2
profile: my_project
""",
    "profiles.yml": """\
my_project:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: "{{ env_var('RANKWISE_DUCKDB_PATH') }}"
      threads: 1
""",
    "seeds/recommendations.csv": RECOMMENDATIONS,
    "seeds/interactions.csv": """\
user_id,item_id,relevance
u1,i2,1
u1,i4,2
u2,i3,1
""",
    # the same lists, personalized's i4 for u1 listed twice
    "seeds/recommendations_with_a_duplicated_row.csv": RECOMMENDATIONS.replace("personalized,u1,i4,1\n",
                                                                               "personalized,u1,i4,1\n" * 2),
    "models/metrics_over_a_duplicated_row.sql": """\
{{ rankwise.evaluate(
    ref('recommendations_with_a_duplicated_row'),
    ref('interactions'),
    metrics=['precision', 'recall', 'map', 'mrr', 'ndcg', 'entropy'],
    k=[5, 10, 20],
    group_by=['model'],
    relevance_col='relevance',
) }}
""",
}


def _readme_model() -> tuple[str, str]:
    """README.md's dbt model (the block under `<!-- example: dbt-model -->`):
    its path and its SQL."""
    readme = (REPO_ROOT / "README.md").read_text()
    block = re.search(r"<!-- example: dbt-model -->\n```sql\n(.*?)```", readme, re.DOTALL)
    assert block, "README.md has no dbt model under <!-- example: dbt-model -->"
    sql = block.group(1)
    path = re.match(r"-- (models/\S+\.sql)\n", sql)
    assert path, sql
    return path.group(1), sql


@pytest.mark.parametrize(("minor", "core", "duckdb"), MATRIX, ids=[row[0] for row in MATRIX])
def test_a_new_project_following_readme(minor: str, core: str, duckdb: str, tmp_path: Path) -> None:
    dbt = _dbt(minor)
    project = tmp_path / "my_project"
    for name, text in USER_PROJECT.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    readme_path, readme_sql = _readme_model()
    (project / readme_path).write_text(readme_sql)
    # README's packages.yml, pointing at this checkout
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    deps = _run(dbt, ["deps"], project, tmp_path)
    assert deps.returncode == 0, deps.stdout[-3000:] + deps.stderr[-3000:]
    started = time.monotonic()
    build = _run(dbt, ["build"], project, tmp_path)
    seconds = time.monotonic() - started
    statuses = {result["unique_id"]: result for result in _results(tmp_path, build)}
    metric_model = f"model.my_project.{Path(readme_path).stem}"
    bad_model = "model.my_project.metrics_over_a_duplicated_row"
    output = build.stdout + build.stderr
    # the metric model builds, with a row per model, metric and cutoff
    assert statuses[metric_model]["status"] == "success", output[-5000:]
    rows = _query(dbt, tmp_path, f"select model, metric, k, value from main.{Path(readme_path).stem}")
    assert len(rows) == 2 * 6 * 3 and {row[0] for row in rows} == {"popularity", "personalized"}, rows
    assert {(row[1], row[2]) for row in rows} == {(metric, k) for metric in ("precision", "recall", "map", "mrr", "ndcg", "entropy")
                                                 for k in (5, 10, 20)}, rows
    # personalized ranks each user's relevant items first, in order of relevance: an ndcg@5 of 1
    (ndcg,) = [row[3] for row in rows if row[:3] == ("personalized", "ndcg", 5)]
    assert abs(ndcg - 1) < 1e-12, rows
    # the duplicated row fails the build, with rankwise's message
    assert build.returncode != 0, output[-5000:]
    assert statuses[bad_model]["status"] == "error", statuses[bad_model]
    message = "rankwise: 2 rows of the recommendations"
    assert message in (statuses[bad_model].get("message") or "") and message in output, output[-5000:]
    assert ("items listed twice in one list in column 'item_id' (for example u1 / i4)"
            in statuses[bad_model]["message"]), statuses[bad_model]
    assert "pass validate=false to skip it" in statuses[bad_model]["message"]
    _figures(minor, "a new project following README (the duplicated row's model failing as it must)",
             [result for key, result in statuses.items() if key != bad_model], seconds)
