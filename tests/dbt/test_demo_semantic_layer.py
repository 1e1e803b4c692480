"""The dbt semantic layer of the demo (demo/models/semantic_layer.yml, over the
package model rankwise_metrics_history) passes dbt's validation at parse time,
in a copy of the demo whose package is this checkout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.dbt.demo_copy import REPO_ROOT, demo_copy, run_dbt


def test_the_semantic_layer_parses(tmp_path: Path) -> None:
    project = demo_copy(tmp_path)
    shutil.copytree(REPO_ROOT / "demo" / "models", project / "models")
    # The seeds `make demo` generates, as one row each: parsing needs the nodes.
    (project / "seeds").mkdir()
    (project / "seeds" / "recommendations.csv").write_text("model,user_id,item_id,rank,score\na,u1,i1,1,0.5\n")
    (project / "seeds" / "interactions.csv").write_text("user_id,item_id,relevance\nu1,i1,1\n")
    (project / "seeds" / "train.csv").write_text("user_id,item_id\nu1,i1\n")
    (project / "seeds" / "items.csv").write_text("item_id,genre\ni1,g1\n")
    run_dbt(project, ["deps", "--quiet"], ["parse"])
    manifest = json.loads((project / "target" / "semantic_manifest.json").read_text())
    [semantic_model] = manifest["semantic_models"]
    assert semantic_model["node_relation"]["alias"] == "rankwise_metrics_history"
    assert {dimension["name"] for dimension in semantic_model["dimensions"]} >= {"evaluated_at", "model", "metric_label"}
    assert [metric["name"] for metric in manifest["metrics"]] == [
        "ndcg_at_10", "map_at_10", "recall_at_20", "entropy_at_10", "users_evaluated"]
    filters = {metric["name"]: metric["filter"]["where_filters"][0]["where_sql_template"]
               for metric in manifest["metrics"] if metric.get("filter")}
    assert filters["ndcg_at_10"] == "{{ Dimension('evaluation_row__metric_label') }} = 'ndcg@10'"
