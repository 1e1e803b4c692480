"""What `make demo` prints, in a copy of the demo whose package is this
checkout: each row of the metrics with what its values are over, the report's
verdict and the report's absolute path; and README's outputs that come from
the demo's build (its dbt model's rows, its verdict), compared with README or,
with --rewrite-readme, written into it (tests/unit/readme_examples.py)."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import rankwise
from tests.dbt.demo_copy import REPO_ROOT, demo_copy, run_dbt
from tests.unit import readme_examples
from tests.unit.report_pages import Report

README_MODEL = Path("models") / "recommendation_metrics.sql"


@dataclass
class DemoRun:
    project: Path
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> DemoRun:
    """The demo built as `make demo` builds it (the seeds, the package models
    and README's model), then show_metrics.py run in it."""
    project = demo_copy(tmp_path_factory.mktemp("demo_output"),
                        ("dbt_project.yml", "profiles.yml", "generate_sample_data.py", "show_metrics.py"))
    (project / "models").mkdir()
    shutil.copy(REPO_ROOT / "demo" / README_MODEL, project / README_MODEL)
    subprocess.run([sys.executable, "generate_sample_data.py"], cwd=project, check=True, capture_output=True)
    run_dbt(project, ["deps", "--quiet"],
            ["build", "--quiet", "--select", "resource_type:seed", "rankwise_metrics", "rankwise_user_metrics",
             "recommendation_metrics"])
    done = subprocess.run([sys.executable, "show_metrics.py"], cwd=project, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return DemoRun(project, done.stdout, done.stderr)


@pytest.fixture
def rewrite(request) -> bool:
    return request.config.getoption("--rewrite-readme")


def _table(stdout: str) -> list[list[str]]:
    """The printed table's rows, split into their columns."""
    lines = stdout.splitlines()
    start = next(position for position, line in enumerate(lines) if line.startswith("-----"))
    end = lines.index("", start)
    return [re.split(r"\s{2,}", line.strip()) for line in lines[start + 1:end]]


def _verdict_lines(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = next(position for position, line in enumerate(lines) if line.startswith("verdict against"))
    return lines[start:lines.index("", start)]


def test_each_row_says_what_its_values_are_over(demo: DemoRun) -> None:
    with duckdb.connect(str(demo.project / "target" / "demo.duckdb"), read_only=True) as con:
        built = con.sql("select metric_label, model, value, n_users, metric from rankwise_metrics").df()
    rows = _table(demo.stdout)
    assert len(rows) == len(built) / 2 and rows[0][0] == "precision@5"
    per_user = set(rankwise.metric_names("user"))
    for label, personalized, popularity, over in rows:
        of_label = built[built.metric_label == label].set_index("model")
        assert (personalized, popularity) == tuple(f"{of_label.loc[model, 'value']:.4f}"
                                                   for model in ("personalized", "popularity"))
        (count,) = set(of_label["n_users"])
        assert over == f"{count} {'users' if of_label['metric'].iloc[0] in per_user else 'lists'}"
    # the accuracy means are over the users with ground truth, the others over every list
    assert {row[3] for row in rows} == {"2499 users", "3000 lists"}
    assert "RankwiseWarning" not in demo.stderr


def test_the_verdict_and_the_absolute_paths_are_printed(demo: DemoRun) -> None:
    report = demo.project / "target" / "rankwise_report.html"
    assert demo.stdout.splitlines()[-1] == f"report: {report}" and report.is_absolute() and report.exists()
    database = demo.project / "target" / "demo.duckdb"
    assert f"tables: rankwise_metrics, rankwise_user_metrics, recommendation_metrics in {database}" in demo.stdout
    decisions = Report(report).decisions()
    verdict = _verdict_lines(demo.stdout)
    assert verdict[0] == "verdict against popularity, on every per-user metric (rankwise.compare, margin 0.01):"
    # each printed decision is the page's, word for word
    assert len(verdict) - 1 == len(decisions) == 1
    status, model, reason = verdict[1].strip().split(": ", 2)
    assert decisions[model] == f"{status} {model}: {reason}"
    assert status == "ship it"


def test_readme_shows_the_demo_verdict(demo: DemoRun, rewrite: bool) -> None:
    readme_examples.check("demo-verdict", "\n".join(_verdict_lines(demo.stdout)) + "\n", rewrite)


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    return f"{value:.6f}" if isinstance(value, float) else str(value)


def test_readme_shows_the_demo_model_and_its_rows(demo: DemoRun, rewrite: bool) -> None:
    model = (REPO_ROOT / "demo" / README_MODEL).read_text()
    call = model[model.index("-#}\n") + len("-#}\n"):]
    assert readme_examples.example("dbt-model") == f"-- {README_MODEL.as_posix()}\n{call}"
    metrics = re.findall(r"'(\w+)'", re.search(r"metrics=\[(.*?)\]", call)[1])
    with duckdb.connect(str(demo.project / "target" / "demo.duckdb"), read_only=True) as con:
        rows = con.sql("select * from recommendation_metrics").df()
    assert len(rows) == 2 * len(metrics) * 3
    shown = rows[rows.k == 10].assign(order=lambda table: table.metric.map(metrics.index))
    shown = shown.sort_values(["model", "order"]).drop(columns="order")
    lines = ["| " + " | ".join(shown.columns) + " |", "|" + "---|" * len(shown.columns)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |"
              for row in shown.astype(object).itertuples(index=False)]
    readme_examples.check("dbt-model", "\n".join(lines) + "\n", rewrite)
