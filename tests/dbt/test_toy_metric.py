"""A metric is added through the registries alone, in a copy of the package,
and Python, the command line and dbt all compute it; no planner, stage or
wrapper code names it. A per-user metric: one entry of the metric registry
and its formula macro. A list-level metric with a stage of its own (the share
of a list's items its user already interacted with in train): its entry, its
stage's entry in the stage registry, and one file with the stage, the
columns it gives each recommended item and the formula."""

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

# the share of a list's top k that its user already has in train
SEEN_ENTRY = "        'seen_share': {'cutoff': true, 'level': 'list', 'formula': '_formula_seen_share', 'reads': ['train', 'seen_items']},\n"
SEEN_STAGE_ENTRY = ("        'seen_items': {'row': '(partition, user, item) of train: an item its user already interacted with', "
                    "'cte': 'rw_seen_items', 'writes': '_stage_seen_items', 'inputs': ['train'], 'provides': {'seen_items': []}, "
                    "'before': ['list_values'], 'item_columns': {'when': 'seen_items', 'alias': 'seen', 'on': 'user_item', "
                    "'columns': '_seen_item_columns'}},\n")
SEEN_FILE = """{#- rw_seen_items: the (partition, user, item) pairs of train. -#}
{% macro _stage_seen_items(spec) %}
rw_seen_items as (
    select distinct {{ rankwise._partition_columns(spec) }}{{ spec.user }} as rw_user, {{ spec.item }} as rw_item
    from {{ spec.train_relation }}
)
{%- endmacro %}

{#- What rw_seen_items gives a recommended item: 1 when its user has it in train. -#}
{% macro _seen_item_columns(alias, spec) %}
    {{ return({'seen': 'case when ' ~ alias ~ '.rw_item is not null then 1 else 0 end'}) }}
{% endmacro %}

{% macro _formula_seen_share(columns, k, spec) %}
    {{ return(columns.seen) }}
{% endmacro %}
"""
TRAIN = pd.DataFrame({"user_id": [1, 1, 2], "item_id": ["a", "c", "e"]})
# user 1's list a, b, c (a and c seen): 1/2 at 2, 2/3 at 3; user 2's d: 0
SEEN_EXPECTED = {2: (1 / 2 + 0) / 2, 3: (2 / 3 + 0) / 2}

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
    registry.write_text(text.replace(anchor, TOY_ENTRY + SEEN_ENTRY + anchor) + TOY_FORMULA)
    stages = package / "macros" / "evaluate" / "stage_registry.sql"
    text = stages.read_text()
    anchor = "    }) }}\n{% endmacro %}"
    assert text.count(anchor) == 2
    stages.write_text(text.replace(anchor, SEEN_STAGE_ENTRY + anchor, 1))
    (package / "macros" / "evaluate" / "stage_seen_items.sql").write_text(SEEN_FILE)
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


def test_python_computes_the_list_level_toy_metric_through_its_own_stage(toy_macros) -> None:
    assert "seen_share" in rankwise.metric_names("list")
    result = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["seen_share@2", "seen_share@3"], train=TRAIN)
    assert dict(zip(result["k"], result["value"])) == pytest.approx(SEEN_EXPECTED, abs=1e-12)
    assert result["n_users"].tolist() == [2, 2]
    assert "rw_seen_items" in rankwise.sql("r", "i", ["seen_share@2"], train="t")
    assert "rw_seen_items" in rankwise.explain(["seen_share@2"], train="t")
    with pytest.raises(rankwise.InvalidArgumentError, match="seen_share needs the `train` input"):
        rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["seen_share@2"])


def test_the_command_line_computes_the_toy_metric(toy_macros, tmp_path: Path) -> None:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    target = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "toy_hits@2", "-m", "toy_hits@3", "-o", str(target)])
    assert result.exit_code == 0, result.output
    written = pd.DataFrame(json.loads(target.read_text()))
    assert dict(zip(written["k"], written["value"])) == pytest.approx(EXPECTED, abs=1e-12)
    TRAIN.to_csv(tmp_path / "train.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "--train", str(tmp_path / "train.csv"), "-m", "seen_share@2",
                                       "-m", "seen_share@3", "-o", str(target)])
    assert result.exit_code == 0, result.output
    written = pd.DataFrame(json.loads(target.read_text()))
    assert dict(zip(written["k"], written["value"])) == pytest.approx(SEEN_EXPECTED, abs=1e-12)


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
    TRAIN.to_csv(project / "seeds" / "train.csv", index=False)
    (project / "models" / "toy_metrics.sql").write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['toy_hits@2', 'toy_hits@3'], "
        "confidence=none) }}\n")
    (project / "models" / "seen_metrics.sql").write_text(
        "{{ rankwise.evaluate(ref('recommendations'), ref('interactions'), metrics=['seen_share@2', 'seen_share@3'], "
        "train=ref('train')) }}\n")
    run_dbt(project, ["deps", "--quiet"], ["seed", "--quiet"], ["run", "--quiet", "--select", "toy_metrics seen_metrics"])
    with duckdb.connect(str(project / "target" / "toy.duckdb"), read_only=True) as connection:
        rows = connection.sql("select k, value from toy_metrics order by k").fetchall()
        seen = connection.sql("select k, value from seen_metrics order by k").fetchall()
    assert dict(rows) == pytest.approx(EXPECTED, abs=1e-12)
    assert dict(seen) == pytest.approx(SEEN_EXPECTED, abs=1e-12)
