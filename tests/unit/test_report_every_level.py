"""The report evaluates every metric evaluate accepts: a metric with one value
per group (personalization, coverage, gini, entropy) is in the table and left
out of the per-user distributions, as the plan says, and the catalog and train
inputs reach the metrics that read them, from Python and the command line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise._report import compute
from rankwise.cli import main

RECOMMENDATIONS = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "user_id": [1, 1, 2, 2] * 2,
                                "item_id": ["x", "y", "x", "z", "y", "x", "z", "y"], "rank": [1, 2] * 4})
INTERACTIONS = pd.DataFrame({"user_id": [1, 2], "item_id": ["x", "z"]})
ITEMS = pd.DataFrame({"item_id": ["x", "y", "z", "w"]})
TRAIN = pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["x", "x", "y"]})


def test_group_level_metrics_are_in_the_table_and_not_in_the_distributions() -> None:
    data = compute(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "personalization@2", "coverage@2", "novelty@2"],
                   group_by="model", items=ITEMS, train=TRAIN)
    expected = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "personalization@2", "coverage@2",
                                                                  "novelty@2"], group_by="model", items=ITEMS,
                                 train=TRAIN)
    shown = data.means.set_index(["model", "metric_label"])["value"]
    for row in expected.itertuples():
        assert shown[(row.model, row.metric_label)] == pytest.approx(row.value, abs=1e-12)
    # coverage@2: model a shows x, y, z of the 4 catalog items; personalization:
    # its two lists share x of 2 slots, 1 - 1/2
    assert shown[("a", "coverage@2")] == pytest.approx(3 / 4, abs=1e-12)
    assert shown[("a", "personalization@2")] == pytest.approx(1 / 2, abs=1e-12)
    assert set(data.per_user["metric"]) == {"ndcg", "novelty"}


def test_the_subtitle_says_which_metrics_are_over_the_lists_and_which_per_series(tmp_path: Path) -> None:
    path = rankwise.report(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "personalization@2", "coverage@2", "novelty@2"],
                           group_by="model", items=ITEMS, train=TRAIN, path=tmp_path / "report.html")
    page = path.read_text()
    assert "(novelty: over the lists; personalization, coverage: one value per series)" in page
    path = rankwise.report(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2"], group_by="model", path=tmp_path / "plain.html")
    assert "Values are the means over the evaluated users, with their confidence intervals." in path.read_text()


def test_the_command_line_report_takes_the_catalog(tmp_path: Path) -> None:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    ITEMS.to_csv(tmp_path / "items.csv", index=False)
    target = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "ndcg@2", "-m", "coverage@2", "--group-by", "model",
                                       "--items", str(tmp_path / "items.csv"), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "coverage@2" in target.read_text()


def test_the_report_compares_each_model_with_the_reference_on_its_model_column(tmp_path: Path) -> None:
    # model b lists y, x for user 1 and y, z for user 2, against a's x, y and x, z:
    # intersection@2 is 1 for user 1 and 1/2 for user 2; rbo@1 0 for both (y against x)
    data = compute(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "intersection@2", "rbo@1"], group_by="model",
                   reference="a")
    shown = data.means.set_index(["model", "metric_label"])["value"]
    assert shown[("b", "intersection@2")] == pytest.approx((1 + 1 / 2) / 2, abs=1e-12)
    assert shown[("b", "rbo@1")] == pytest.approx(0.0, abs=1e-12)
    assert shown[("a", "rbo@1")] == pytest.approx(1.0, abs=1e-12)
    assert set(data.per_user["metric"]) == {"ndcg", "intersection", "rbo"}
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    target = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "intersection@2", "--group-by", "model", "--model-col", "model",
                                       "--reference", "a", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "(intersection: over the lists)" in target.read_text()


def test_the_report_charts_each_item_groups_exposure_against_its_relevance(tmp_path: Path) -> None:
    # items x, y in group g1, z, w in g2; the truth's relevant pairs (1, x), (2, z): R = 1/2 each
    items = ITEMS.assign(provider=["g1", "g1", "g2", "g2"])
    data = compute(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "exposure_disparity@2"], group_by="model", items=items,
                   item_group_col="provider")
    expected = rankwise.exposure_by_item_group(RECOMMENDATIONS, INTERACTIONS, items, 2, item_group_col="provider",
                                               group_by="model")
    shown = data.item_groups.set_index(["model", "item_group"])
    for row in expected.itertuples():
        assert shown.loc[(row.model, row.item_group), "exposure_share"] == pytest.approx(row.exposure_share, abs=1e-12)
        assert shown.loc[(row.model, row.item_group), "relevance_share"] == pytest.approx(0.5, abs=1e-12)
    path = rankwise.report(RECOMMENDATIONS, INTERACTIONS, ["ndcg@2", "exposure_disparity@2"], group_by="model",
                           items=items, item_group_col="provider", path=tmp_path / "report.html")
    page = path.read_text()
    assert "Exposure against relevance, per item group" in page
    assert '"share of the exposure (E_g)"' in page
