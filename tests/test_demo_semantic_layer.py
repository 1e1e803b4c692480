"""The dbt semantic layer of the demo (demo/models/semantic_layer.yml, over the
package model rankwise_metrics_history) passes dbt's validation at parse time,
in a copy of the demo whose package is this checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.dbt

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_the_semantic_layer_parses(tmp_path: Path) -> None:
    project = tmp_path / "demo"
    project.mkdir()
    for name in ("dbt_project.yml", "profiles.yml"):
        shutil.copy(REPO_ROOT / "demo" / name, project / name)
    shutil.copytree(REPO_ROOT / "demo" / "models", project / "models")
    # The seeds `make demo` generates, as one row each: parsing needs the nodes.
    (project / "seeds").mkdir()
    (project / "seeds" / "recommendations.csv").write_text("model,user_id,item_id,rank,score\na,u1,i1,1,0.5\n")
    (project / "seeds" / "interactions.csv").write_text("user_id,item_id,relevance\nu1,i1,1\n")
    (project / "seeds" / "train.csv").write_text("user_id,item_id\nu1,i1\n")
    (project / "seeds" / "items.csv").write_text("item_id,genre\ni1,g1\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    for command in (["deps", "--quiet"], ["parse"]):
        done = subprocess.run([str(dbt), *command], cwd=project, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    manifest = json.loads((project / "target" / "semantic_manifest.json").read_text())
    [semantic_model] = manifest["semantic_models"]
    assert semantic_model["node_relation"]["alias"] == "rankwise_metrics_history"
    assert {dimension["name"] for dimension in semantic_model["dimensions"]} >= {"evaluated_at", "model", "metric_label"}
    assert [metric["name"] for metric in manifest["metrics"]] == [
        "ndcg_at_10", "map_at_10", "recall_at_20", "entropy_at_10", "users_evaluated"]
    filters = {metric["name"]: metric["filter"]["where_filters"][0]["where_sql_template"]
               for metric in manifest["metrics"] if metric.get("filter")}
    assert filters["ndcg_at_10"] == "{{ Dimension('evaluation_row__metric_label') }} = 'ndcg@10'"
