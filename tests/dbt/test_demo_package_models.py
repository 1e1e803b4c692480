"""`dbt build` of the demo on DuckDB, in a copy whose package is this checkout
and whose seeds are the demo's generated data: the package models, with the
catalog and the train interactions of vars rankwise_items and rankwise_train,
give the numbers the Python wrapper gives on the same files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pytest
import yaml

import rankwise
from tests.dbt.demo_copy import demo_copy, run_dbt


def test_the_package_models_match_the_wrapper_with_items_and_train(tmp_path: Path) -> None:
    project = demo_copy(tmp_path, ("dbt_project.yml", "profiles.yml", "generate_sample_data.py"))
    subprocess.run([sys.executable, "generate_sample_data.py"], cwd=project, check=True, capture_output=True)
    run_dbt(project, ["deps", "--quiet"],
            ["build", "--quiet", "--select", "rankwise_metrics", "rankwise_user_metrics", "resource_type:seed"])
    variables = yaml.safe_load((project / "dbt_project.yml").read_text())["vars"]
    assert {"novelty", "coverage", "gini", "personalization"} <= set(variables["rankwise_metrics"])
    seeds = project / "seeds"
    expected = rankwise.evaluate(str(seeds / "recommendations.csv"), str(seeds / "interactions.csv"),
                                 variables["rankwise_metrics"], k=variables["rankwise_k"],
                                 group_by=variables["rankwise_group_by"], items=str(seeds / "items.csv"),
                                 train=str(seeds / "train.csv"), **variables["rankwise_options"])
    with duckdb.connect(str(project / "target" / "demo.duckdb"), read_only=True) as con:
        built = con.sql("select * from rankwise_metrics").df()
        per_user = con.sql("select * from rankwise_user_metrics where metric = 'novelty' and k = 10").df()
    merged = expected.merge(built, on=["model", "metric", "k"], suffixes=("", "_dbt"), validate="1:1")
    assert len(merged) == len(expected) == len(built) == 2 * 3 * len(variables["rankwise_metrics"]) - 2 * 2
    np.testing.assert_allclose(merged["value_dbt"], merged["value"], rtol=0, atol=1e-12)
    assert (merged["n_users_dbt"] == merged["n_users"]).all()
    # the per-list values of the user model average to the means
    novelty = merged[(merged["metric"] == "novelty") & (merged["k"] == 10)].set_index("model")["value"]
    for model, rows in per_user.groupby("model"):
        assert rows["value"].mean() == pytest.approx(novelty[model], abs=1e-12)


def test_the_exposure_table_package_model_matches_the_wrapper(tmp_path: Path) -> None:
    """With item_group_col in rankwise_options, rankwise_exposure_by_item_group is
    the table rankwise.exposure_by_item_group gives; rankwise_user_metrics,
    which leaves the group-level exposure_disparity out, leaves item_group_col
    out too (it would be refused as unread)."""
    project = demo_copy(tmp_path, ("dbt_project.yml", "profiles.yml", "generate_sample_data.py"))
    subprocess.run([sys.executable, "generate_sample_data.py"], cwd=project, check=True, capture_output=True)
    variables = yaml.safe_load((project / "dbt_project.yml").read_text())["vars"]
    options = {**variables["rankwise_options"], "item_group_col": "genre"}
    metrics = ["ndcg", "intra_list_diversity", "exposure_disparity"]
    overrides = yaml.safe_dump({"rankwise_options": options, "rankwise_metrics": metrics}, default_flow_style=True)
    run_dbt(project, ["deps", "--quiet"],
            ["build", "--quiet", "--select", "rankwise_exposure_by_item_group", "rankwise_user_metrics",
             "resource_type:seed", "--vars", overrides])
    seeds = project / "seeds"
    expected = rankwise.exposure_by_item_group(str(seeds / "recommendations.csv"), str(seeds / "interactions.csv"),
                                               str(seeds / "items.csv"), variables["rankwise_k"],
                                               group_by=variables["rankwise_group_by"],
                                               relevance_col=options["relevance_col"], item_group_col="genre")
    with duckdb.connect(str(project / "target" / "demo.duckdb"), read_only=True) as con:
        built = con.sql("select * from rankwise_exposure_by_item_group").df()
        per_user = con.sql("select distinct metric from rankwise_user_metrics").df()
    merged = expected.merge(built, on=["model", "k", "item_group"], suffixes=("", "_dbt"), validate="1:1")
    assert len(merged) == len(expected) == len(built) > 0
    for column in ("exposure", "exposure_share", "relevance_share"):
        np.testing.assert_allclose(merged[f"{column}_dbt"], merged[column], rtol=1e-12, atol=1e-12)
    assert set(per_user["metric"]) == {"ndcg", "intra_list_diversity"}
