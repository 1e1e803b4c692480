"""In dbt, a run and its qrels as tables, evaluated with trec_eval's and
ir_measures' metric names: in a model calling rankwise.evaluate and in the
package models (the var rankwise_metrics), the comparison too."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import rankwise

REPO_ROOT = Path(__file__).resolve().parents[2]

RUN = ("model,user_id,item_id,score\n"
       "bm25,q1,d1,3.0\nbm25,q1,d2,2.0\nbm25,q1,d3,1.0\nbm25,q2,d4,2.0\nbm25,q2,d5,1.0\n"
       "dense,q1,d3,3.0\ndense,q1,d1,2.0\ndense,q2,d5,2.0\ndense,q2,d6,1.0\n")
QRELS = "user_id,item_id,relevance\nq1,d1,1\nq1,d3,2\nq2,d5,1\nq2,d9,0\nq3,d7,1\n"
ALIASES = ["P_2", "nDCG@2", "MAP", "recip_rank"]
CANONICAL = ["precision@2", "ndcg@2", "map", "mrr"]


def _dbt(project: Path, *arguments: str) -> subprocess.CompletedProcess:
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    return subprocess.run([str(dbt), *arguments], cwd=project, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("retrieval")
    (root / "dbt_project.yml").write_text(
        "name: retrieval\nversion: '1.0'\nprofile: retrieval\nconfig-version: 2\n"
        "vars:\n  rankwise_metrics_history: false\n")
    (root / "profiles.yml").write_text(
        "retrieval:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: {json.dumps(str(root / 'retrieval.duckdb'))}\n      threads: 1\n")
    (root / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(REPO_ROOT))}\n")
    (root / "seeds").mkdir()
    (root / "seeds" / "run.csv").write_text(RUN)
    (root / "seeds" / "qrels.csv").write_text(QRELS)
    (root / "models").mkdir()
    (root / "models" / "aliased_metrics.sql").write_text(
        f"{{{{ rankwise.evaluate(ref('run'), ref('qrels'), metrics={ALIASES!r}, group_by='model', score_col='score', "
        "relevance_col='relevance', confidence=none) }}\n")
    for command in (["deps", "--quiet"], ["seed"]):
        done = _dbt(root, *command)
        assert done.returncode == 0, done.stdout[-3000:]
    return root


def _expected() -> pd.DataFrame:
    return rankwise.evaluate(pd.read_csv(pd.io.common.StringIO(RUN)), pd.read_csv(pd.io.common.StringIO(QRELS)),
                             CANONICAL, group_by="model", score_col="score", relevance_col="relevance", confidence=None)


def _rows(project: Path, query: str) -> list[tuple]:
    with duckdb.connect(str(project / "retrieval.duckdb"), read_only=True) as con:
        return con.sql(query).fetchall()


def test_a_model_takes_the_aliases(project: Path) -> None:
    done = _dbt(project, "build", "--select", "aliased_metrics")
    assert done.returncode == 0, done.stdout[-3000:]
    rows = _rows(project, "select model, metric_label, value from aliased_metrics order by model, metric_label")
    expected = _expected().sort_values(["model", "metric_label"])
    assert len(rows) == len(expected) == 8
    for (model, label, value), row in zip(rows, expected.itertuples()):
        assert (model, label) == (row.model, row.metric_label)
        assert math.isclose(value, row.value, rel_tol=0, abs_tol=1e-12)


def test_the_package_models_and_the_comparison_take_the_aliases(project: Path) -> None:
    inputs = {"rankwise_recommendations": "run", "rankwise_interactions": "qrels", "rankwise_metrics": ALIASES,
              "rankwise_k": [2], "rankwise_options": {"score_col": "score", "relevance_col": "relevance"}}
    done = _dbt(project, "build", "--select", "rankwise_metrics", "--vars",
                json.dumps({**inputs, "rankwise_group_by": ["model"]}))
    assert done.returncode == 0, done.stdout[-3000:]
    labels = sorted(["map@2", "mrr@2", "ndcg@2", "precision@2"])  # rankwise_k: [2] for the names without @k
    means = _rows(project, "select model, metric_label from rankwise_metrics order by model, metric_label")
    assert means == [(model, label) for model in ("bm25", "dense") for label in labels]
    done = _dbt(project, "build", "--select", "rankwise_comparison", "--vars",
                json.dumps({**inputs, "rankwise_comparison": {"baseline": "bm25"}}))
    assert done.returncode == 0, done.stdout[-3000:]
    # an alias the comparison did not find in the registry would have been left out
    compared = _rows(project, "select metric_label, model, baseline from rankwise_comparison order by metric_label")
    assert compared == [(label, "dense", "bm25") for label in labels]
