"""A metric is added through the metric registry alone: one entry and its
formula macro, in a copy of the package, and Python, the command line and dbt
all compute it. No planner, stage or wrapper code names it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise import _render
from rankwise.cli import main
from tests.dbt.demo_copy import run_dbt

REPO_ROOT = Path(__file__).resolve().parents[2]

# hits within k, as a metric of its own: the relevant items in the top k
TOY_ENTRY = ("        'toy_hits': {'cutoff': true, 'level': 'user', 'components': ['hits'], "
             "'formula': '_formula_toy_hits', 'zero_without_list': true},\n")
TOY_FORMULA = """
{% macro _formula_toy_hits(columns, k, spec) %}
    {{ return('cast(' ~ columns.hits ~ ' as ' ~ rankwise.type_float64() ~ ')') }}
{% endmacro %}
"""

RECOMMENDATIONS = pd.DataFrame({"user_id": [1, 1, 1, 2], "item_id": ["a", "b", "c", "d"], "rank": [1, 2, 3, 1]})
INTERACTIONS = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": ["a", "c", "d", "e"]})
# user 1: a and c relevant, 1 hit within 2, 2 within 3; user 2: d at rank 1;
# user 3 has truth and no list: 0 (trec_eval -c)
EXPECTED = {2: (1 + 1 + 0) / 3, 3: (2 + 1 + 0) / 3}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package whose registry has the toy metric."""
    package = tmp_path_factory.mktemp("package") / "rankwise"
    shutil.copytree(REPO_ROOT / "macros", package / "macros")
    shutil.copytree(REPO_ROOT / "models", package / "models")
    shutil.copy(REPO_ROOT / "dbt_project.yml", package / "dbt_project.yml")
    registry = package / "macros" / "evaluate" / "metric_registry.sql"
    text = registry.read_text()
    anchor = "        'precision':"
    assert text.count(anchor) == 1
    registry.write_text(text.replace(anchor, TOY_ENTRY + anchor) + TOY_FORMULA)
    return package


@pytest.fixture
def toy_macros(package: Path, monkeypatch: pytest.MonkeyPatch):
    """The wrapper rendering the copy's macros, for the time of one test."""
    monkeypatch.setattr(_render, "default_macro_root", lambda: package / "macros")
    _render._cached_renderer.cache_clear()
    yield
    _render._cached_renderer.cache_clear()


def test_python_computes_the_toy_metric(toy_macros) -> None:
    assert "toy_hits" in rankwise.metric_names()
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["toy_hits@2", "toy_hits@3"], confidence=None)
    assert dict(zip(result["k"], result["value"])) == pytest.approx(EXPECTED, abs=1e-12)
    per_user = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["toy_hits@3"], per_user=True)
    assert dict(zip(per_user["user_id"], per_user["value"])) == {1: 2.0, 2: 1.0, 3: 0.0}


def test_the_command_line_computes_the_toy_metric(toy_macros, tmp_path: Path) -> None:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    target = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "toy_hits@2", "-m", "toy_hits@3", "-o", str(target)])
    assert result.exit_code == 0, result.output
    written = pd.DataFrame(json.loads(target.read_text()))
    assert dict(zip(written["k"], written["value"])) == pytest.approx(EXPECTED, abs=1e-12)


def test_dbt_computes_the_toy_metric(package: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    (project / "seeds").mkdir()
    (project / "dbt_project.yml").write_text(
        "name: toy\nversion: '1.0'\nprofile: toy\nconfig-version: 2\n")
    (project / "profiles.yml").write_text(
        "toy:\n  target: duckdb\n  outputs:\n    duckdb:\n      type: duckdb\n      path: target/toy.duckdb\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(package))}\n")
    RECOMMENDATIONS.to_csv(project / "seeds" / "recommendations.csv", index=False)
    INTERACTIONS.to_csv(project / "seeds" / "interactions.csv", index=False)
    (project / "models" / "toy_metrics.sql").write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['toy_hits@2', 'toy_hits@3'], "
        "confidence=none) }}\n")
    run_dbt(project, ["deps", "--quiet"], ["seed", "--quiet"], ["run", "--quiet", "--select", "toy_metrics"])
    with duckdb.connect(str(project / "target" / "toy.duckdb"), read_only=True) as connection:
        rows = connection.sql("select k, value from toy_metrics order by k").fetchall()
    assert dict(rows) == pytest.approx(EXPECTED, abs=1e-12)
