"""Gates: the rows of a result that fail a threshold or a non-inferiority test,
from Python (failing_metrics, failing_comparisons) and from the command line,
which exits with code 3 after writing the result (bad input stays 1, a usage
error 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError

# Three models of the same four users: `same` is prod's copy, `worse` finds
# nothing.
TRUTH = pd.DataFrame({"user_id": [1, 1, 2, 3, 4], "item_id": ["a", "b", "c", "d", "e"]})
PROD = pd.DataFrame({"user_id": [1, 1, 2, 3, 4], "item_id": ["a", "x", "c", "d", "e"], "rank": [1, 2, 1, 1, 1]})
RECOMMENDATIONS = pd.concat([PROD.assign(model="prod"), PROD.assign(model="same"),
                             PROD.assign(model="worse", item_id=["y", "z", "y", "y", "y"])])


def test_failing_metrics_names_the_groups_below_their_bound() -> None:
    result = rankwise.evaluate(RECOMMENDATIONS, TRUTH, ["recall@2", "precision@1"], group_by="model")
    # recall@2: prod and same 1/2 + 1 + 1 + 1 over 4 = 0.875, worse 0
    failed = rankwise.failing_metrics(result, at_least={"recall@2": 0.5}, at_most={"precision@1": 0.9})
    assert failed.to_dict("records") == [
        {"model": "worse", "gate": "at_least", "metric_label": "recall@2", "value": 0.0, "bound": 0.5},
        {"model": "prod", "gate": "at_most", "metric_label": "precision@1", "value": 1.0, "bound": 0.9},
        {"model": "same", "gate": "at_most", "metric_label": "precision@1", "value": 1.0, "bound": 0.9},
    ]
    assert len(rankwise.failing_metrics(result, at_least={"recall@2": 0.0})) == 0
    # on the interval's lower bound, prod's 0.875 with 4 users is not surely above 0.8
    assert set(rankwise.failing_metrics(result, at_least={"recall@2": 0.8}, on="ci_low")["model"]) == {
        "prod", "same", "worse"}


def test_failing_metrics_refuses_a_gate_it_cannot_judge() -> None:
    result = rankwise.evaluate(RECOMMENDATIONS, TRUTH, ["recall@2"], group_by="model", confidence=None)
    with pytest.raises(InvalidArgumentError, match="no metric 'ndcg@10' to gate; its metrics: recall@2"):
        rankwise.failing_metrics(result, at_least={"ndcg@10": 0.1})
    with pytest.raises(InvalidArgumentError, match="no column `ci_low`"):
        rankwise.failing_metrics(result, at_least={"recall@2": 0.1}, on="ci_low")


def test_failing_comparisons_are_the_models_not_shown_no_worse() -> None:
    comparison = rankwise.compare(RECOMMENDATIONS, TRUTH, ["recall@2"], baseline="prod", margin=0.05)
    failed = rankwise.failing_comparisons(comparison)
    assert list(failed["model"]) == ["worse"]
    with pytest.raises(InvalidArgumentError, match="run rankwise.compare with a `margin`"):
        rankwise.failing_comparisons(rankwise.compare(RECOMMENDATIONS, TRUTH, ["recall@2"], baseline="prod"))


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    TRUTH.to_csv(tmp_path / "truth.csv", index=False)
    return str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv")


def test_the_command_line_exits_3_on_a_failed_gate_and_still_writes(files, tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["evaluate", *files, "-m", "recall@2", "--group-by", "model",
                                       "--fail-under", "recall@2=0.5", "-o", str(target)])
    assert result.exit_code == 3, result.output
    assert "gate failed: 1 metric rows outside their bounds" in result.stderr
    assert "worse" in result.stderr
    assert len(json.loads(target.read_text())) == 3
    passed = CliRunner().invoke(main, ["evaluate", *files, "-m", "recall@2", "--group-by", "model",
                                       "--fail-under", "recall@2=0.0"])
    assert passed.exit_code == 0, passed.output


def test_compare_fail_if_worse(files) -> None:
    result = CliRunner().invoke(main, ["compare", *files, "-m", "recall@2", "--baseline", "prod", "--margin", "0.05",
                                       "--fail-if-worse"])
    assert result.exit_code == 3, result.output
    assert "not shown to be no worse" in result.stderr and "worse" in result.stderr
    usage = CliRunner().invoke(main, ["compare", *files, "-m", "recall@2", "--baseline", "prod", "--fail-if-worse"])
    assert usage.exit_code == 2
    bad = CliRunner().invoke(main, ["compare", *files, "-m", "recall@2", "--baseline", "prod", "--margin", "-1"])
    assert bad.exit_code == 1 and "`--margin` must be a finite number above 0" in bad.output
