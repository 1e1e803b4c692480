"""rankwise.report: the numbers in the HTML report are evaluate()'s, every
chart's figure holds them, the page needs nothing from the network, and the
command line writes the same report."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise._progress import stages
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError

from .report_pages import DAYS, HOSTILE, K, METRICS, Report, sample_inputs



def _shown(row) -> str:
    """A summary cell: the mean, and its interval where it has one (not entropy)."""
    interval = "" if pd.isna(row.ci_low) else f" [{row.ci_low:.4f}, {row.ci_high:.4f}]"
    return f"{row.value:.4f}{interval}"


@pytest.fixture(scope="module")
def frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    return sample_inputs()


@pytest.fixture(scope="module")
def written(frames, tmp_path_factory) -> Report:
    path = tmp_path_factory.mktemp("report") / "report.html"
    returned = rankwise.report(*frames, METRICS, K, group_by=["model", "segment"], partition_by="day",
                               relevance_col="relevance", path=path, title="Three models")
    assert returned == path.resolve()
    return Report(path)


def _last_day(frames) -> tuple[pd.DataFrame, pd.DataFrame]:
    recommendations, interactions = frames
    return (recommendations[recommendations.day == DAYS[-1]].drop(columns="day"),
            interactions[interactions.day == DAYS[-1]].drop(columns="day"))


def _series(table: pd.DataFrame) -> pd.Series:
    return table["model"] + " · " + table["segment"]


def test_the_summary_shows_evaluate_values_of_the_last_partition(frames, written: Report) -> None:
    # Computed independently of the report's own slicing: the last day's lists
    # and truth evaluated alone.
    expected = rankwise.evaluate(*_last_day(frames), METRICS, K, group_by=["model", "segment"],
                                 relevance_col="relevance")
    summary = written.summary()
    assert sorted(summary) == sorted(set(_series(expected)))
    for series, row in zip(_series(expected), expected.itertuples()):
        assert summary[series][row.metric_label] == _shown(row)
    # what each series' values are over: its users for the per-user metrics,
    # its lists for entropy (one value per series, from its lists)
    counts = expected.assign(series=_series, unit=np.where(expected.metric == "entropy", "lists", "users"))
    counts = counts.groupby(["series", "unit"])["n_users"].agg(["min", "max"])
    assert (counts["min"] == counts["max"]).all()
    assert set(counts.loc[(slice(None), "lists"), "max"]) != set(counts.loc[(slice(None), "users"), "max"])
    assert written.row_notes("summary") == {
        series: f"{counts.loc[(series, 'users'), 'max']} users · {counts.loc[(series, 'lists'), 'max']} lists"
        for series in set(_series(expected))}
    assert "day = 2026-01-02, the last of 2 partitions" in written.html


def test_every_chart_holds_the_values_it_draws(frames, written: Report) -> None:
    assert written.charts == ["curves", "tradeoff", "distributions", "heatmap", "partitions"]
    means = rankwise.evaluate(*_last_day(frames), METRICS, K, group_by=["model", "segment"], relevance_col="relevance")
    means = means.assign(series=_series)
    lines = {(trace["xaxis"], trace["name"]): trace for trace in written.figures["curves"]["data"]}
    titles = [annotation["text"] for annotation in written.figures["curves"]["layout"]["annotations"]]
    assert titles == METRICS
    for position, metric in enumerate(METRICS):
        for series, rows in means[means.metric == metric].groupby("series"):
            trace = lines[("x" if position == 0 else f"x{position + 1}", series)]
            # The report grouped by day too: the sums may differ in the last bit.
            assert trace["x"] == K and trace["y"] == pytest.approx(list(rows.sort_values("k")["value"]), abs=1e-12)

    per_user = rankwise.evaluate(*_last_day(frames), ["ndcg", "precision", "mrr"], K, group_by=["model", "segment"],
                                 relevance_col="relevance", per_user=True).assign(series=_series)
    boxes = [trace for trace in written.figures["distributions"]["data"] if trace["type"] == "box"]
    labels = list(dict.fromkeys(per_user["metric_label"]))
    assert len(boxes) == len(labels) * 6
    menu = written.figures["distributions"]["layout"]["updatemenus"][0]["buttons"]
    assert [button["label"] for button in menu] == labels
    groups = dict(list(per_user.groupby(["metric_label", "series"])["value"]))
    for position, box in enumerate(boxes):
        # Label after label, as the menu shows them.
        values = groups[(labels[position // 6], box["x"][0])]
        assert box["visible"] == (position < 6)
        assert box["q1"][0] == pytest.approx(np.quantile(values, 0.25), abs=1e-12)
        assert box["median"][0] == pytest.approx(np.median(values), abs=1e-12)
        assert box["mean"][0] == pytest.approx(values.mean(), abs=1e-12)
        assert (box["lowerfence"][0], box["upperfence"][0]) == (values.min(), values.max())

    heatmap = written.figures["heatmap"]["data"][0]
    # In evaluate's order: '<' sorts before letters.
    assert heatmap["y"] == [HOSTILE, "als", "pop"] and heatmap["x"] == ["app", "web"]
    ndcg_1 = means[means.metric_label == "ndcg@1"].set_index(["model", "segment"])["value"]
    assert heatmap["z"] == [pytest.approx([ndcg_1[(model, segment)] for segment in ("app", "web")], abs=1e-12)
                            for model in heatmap["y"]]

    by_day = rankwise.evaluate(*frames, ["ndcg@1"], group_by=["model", "segment"], partition_by="day",
                               relevance_col="relevance")
    over_days = {trace["name"]: trace for trace in written.figures["partitions"]["data"] if trace["visible"]}
    for series, rows in by_day.assign(series=_series).groupby("series"):
        assert over_days[series]["x"] == DAYS
        assert over_days[series]["y"] == pytest.approx(list(rows["value"]), abs=1e-12)


def test_every_mean_drawn_has_its_interval(frames, written: Report) -> None:
    """Bands around the curves over k and over the partitions, an error bar on
    each box's mean, the interval in the heatmap's hover text, and error bars
    on the trade-off chart's points where the mean has an interval (entropy,
    one value per series, has none)."""
    means = rankwise.evaluate(*_last_day(frames), METRICS, K, group_by=["model", "segment"],
                              relevance_col="relevance").assign(series=_series)
    labels = [button["label"] for button in written.figures["distributions"]["layout"]["updatemenus"][0]["buttons"]]
    marks = [trace for trace in written.figures["distributions"]["data"] if trace["type"] == "scatter"]
    assert len(marks) == len(labels)
    for label, mark in zip(labels, marks):
        rows = means[means.metric_label == label].set_index("series").loc[mark["x"]]
        assert mark["y"] == pytest.approx(list(rows["value"]), abs=1e-12)
        assert mark["error_y"]["array"] == pytest.approx(list(rows["ci_high"] - rows["value"]), abs=1e-12)
        assert mark["error_y"]["arrayminus"] == pytest.approx(list(rows["value"] - rows["ci_low"]), abs=1e-12)

    heatmap = written.figures["heatmap"]["data"][0]
    ndcg_1 = means[means.metric_label == "ndcg@1"].set_index(["model", "segment"])
    assert heatmap["customdata"] == [
        [pytest.approx([ndcg_1.loc[(model, segment), "ci_low"], ndcg_1.loc[(model, segment), "ci_high"]], abs=1e-12)
         for segment in heatmap["x"]] for model in heatmap["y"]]
    assert "%{customdata[0]:.4f}" in heatmap["hovertemplate"]

    by_day = rankwise.evaluate(*frames, ["ndcg@1"], group_by=["model", "segment"], partition_by="day",
                               relevance_col="relevance").assign(series=_series)
    bands = [trace for trace in written.figures["partitions"]["data"] if trace["visible"] and trace.get("fill")]
    assert len(bands) == 6
    for band in bands:
        rows = by_day[by_day.series == band["name"]]
        assert band["y"] == pytest.approx(list(rows["ci_high"]) + list(rows["ci_low"])[::-1], abs=1e-12)

    # ndcg@1, the first accuracy label at entropy@1's cutoff, against entropy@1
    points = {trace["name"]: trace for trace in written.figures["tradeoff"]["data"] if trace["visible"]}
    assert written.figures["tradeoff"]["layout"]["xaxis"]["title"]["text"] == "entropy@1"
    assert written.figures["tradeoff"]["layout"]["yaxis"]["title"]["text"] == "ndcg@1"
    by_series = means.set_index(["series", "metric_label"])
    for series, point in points.items():
        assert point["x"] == pytest.approx([by_series.loc[(series, "entropy@1"), "value"]], abs=1e-12)
        assert point["y"] == pytest.approx([by_series.loc[(series, "ndcg@1"), "value"]], abs=1e-12)
        assert "error_x" not in point
        assert point["error_y"]["array"] == pytest.approx(
            [by_series.loc[(series, "ndcg@1"), "ci_high"] - by_series.loc[(series, "ndcg@1"), "value"]], abs=1e-12)
    assert len(points) == 6


def test_the_notes_of_check_are_listed(frames, written: Report) -> None:
    notes = rankwise.check(*frames, k=K, group_by=["model", "segment"], partition_by="day", relevance_col="relevance")
    assert len(notes) > 0
    assert [row[2] for row in written.tables["notes"][1:]] == list(notes["problem"])
    assert [row[4] for row in written.tables["notes"][1:]] == list(notes["message"])


def test_the_page_needs_no_network_and_names_cannot_escape_their_script(written: Report) -> None:
    import plotly

    assert written.references == []
    kinds = [attributes.get("type") for attributes, _ in written.scripts]
    # The error hook, one figure per chart, plotly.js and the drawing script.
    assert kinds == [None, *["application/json"] * 5, None, None]
    assert f"plotly.js v{plotly.offline.get_plotlyjs_version()}" in written.scripts[-2][1]
    assert "document.title" not in "".join(text for _, text in written.scripts if "Plotly.newPlot" in text)
    assert f"{HOSTILE} · app" in written.summary()
    assert written.figures["heatmap"]["data"][0]["y"][0] == HOSTILE


def test_a_result_with_confidence_intervals_shows_them(frames, tmp_path: Path) -> None:
    # Intervals replaced by numbers of the test's own, to check that the
    # report draws the columns it is given.
    result = rankwise.evaluate(*_last_day(frames), ["ndcg", "mrr"], K, group_by=["model", "segment"],
                               relevance_col="relevance")
    result = result[result.segment == "app"].drop(columns="segment")
    result = result.assign(ci_low=result["value"] - 0.01, ci_high=result["value"] + 0.02)
    path = rankwise.report(result=result, path=tmp_path / "ci.html")
    page = Report(path)
    first = result.iloc[0]
    assert page.summary()[first.model][first.metric_label] == (
        f"{first.value:.4f} [{first.ci_low:.4f}, {first.ci_high:.4f}]")
    bands = [trace for trace in page.figures["curves"]["data"] if trace.get("fill") == "toself"]
    assert len(bands) == 2 * 3
    of_als = result[(result.model == "als") & (result.metric == "ndcg")]
    band = next(trace for trace in bands if trace["name"] == "als" and trace["xaxis"] == "x")
    assert band["x"] == K + K[::-1]
    assert band["y"] == list(of_als["ci_high"]) + list(of_als["ci_low"])[::-1]
    # Without per_user and notes: no distributions, no data-quality section.
    assert page.charts == ["curves"] and "notes" not in page.tables


def test_a_result_without_metric_label_gets_one(frames, tmp_path: Path) -> None:
    result = rankwise.evaluate(*_last_day(frames), ["ndcg@3", "map"], group_by=["model", "segment"],
                               relevance_col="relevance")
    page = Report(rankwise.report(result=result.drop(columns="metric_label"), path=tmp_path / "r.html"))
    assert page.columns("summary") == ["ndcg@3", "map"]


@pytest.mark.parametrize(("arguments", "message"), [
    ({"result": "table"}, "pass either the inputs"),
    ({}, "pass the inputs"),
    ({"result": None, "notes": "x"}, "pass the inputs"),
])
def test_input_and_result_arguments_are_checked(frames, tmp_path: Path, arguments, message) -> None:
    inputs = (*frames, ["ndcg"]) if "result" in arguments and arguments["result"] is not None else ()
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.report(*inputs, path=tmp_path / "r.html", **arguments)


def test_results_that_do_not_fit_are_refused(frames, tmp_path: Path) -> None:
    result = rankwise.evaluate(*_last_day(frames), ["ndcg@3"], group_by=["model", "segment"], relevance_col="relevance")
    per_user = rankwise.evaluate(*_last_day(frames), ["ndcg@3"], group_by=["segment", "model"],
                                 relevance_col="relevance", per_user=True)
    with pytest.raises(InvalidArgumentError, match="`per_user` is grouped by"):
        rankwise.report(result=result, per_user=per_user, path=tmp_path / "r.html")
    with pytest.raises(InvalidArgumentError, match="`partition_by` names the partition columns"):
        rankwise.report(result=result, partition_by="day", path=tmp_path / "r.html")
    with pytest.raises(InvalidArgumentError, match="must end in .html"):
        rankwise.report(result=result, path=tmp_path / "r.txt")
    with pytest.raises(InvalidArgumentError, match="is in both `partition_by` and `group_by`"):
        rankwise.report(*frames, ["ndcg"], group_by="model", partition_by="model", path=tmp_path / "r.html")
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_writes_the_same_report_and_no_progress_off_a_terminal(frames, tmp_path: Path) -> None:
    recommendations, interactions = frames
    # Parquet both: DuckDB's CSV reader would read the days as dates.
    recommendations.to_parquet(tmp_path / "recs.parquet")
    interactions.to_parquet(tmp_path / "truth.parquet")
    target = tmp_path / "cli.html"
    outcome = CliRunner().invoke(main, [
        "report", str(tmp_path / "recs.parquet"), str(tmp_path / "truth.parquet"), "-m", "ndcg", "-m", "mrr", "-k", "3",
        "--group-by", "model", "--group-by", "segment", "--partition-by", "day", "--relevance-col", "relevance",
        "-o", str(target), "--title", "CLI"])
    assert outcome.exit_code == 0, outcome.output
    assert outcome.output == f"wrote {target.resolve()}\n"
    expected = rankwise.evaluate(*_last_day(frames), ["ndcg", "mrr"], 3, group_by=["model", "segment"],
                                 relevance_col="relevance")
    summary = Report(target).summary()
    for series, row in zip(_series(expected), expected.itertuples()):
        assert summary[series][row.metric_label] == _shown(row)


def test_the_command_line_refuses_a_file_that_is_not_html(frames, tmp_path: Path) -> None:
    outcome = CliRunner().invoke(main, ["report", "r.parquet", "t.csv", "-m", "ndcg", "-o", str(tmp_path / "r.txt")])
    assert outcome.exit_code == 2 and "must end in .html" in outcome.output


def test_without_plotly_the_report_says_which_extra_to_install(frames, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "plotly", None)  # import plotly raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'rankwise\[report\]'"):
        rankwise.report(*frames, ["ndcg"], path=tmp_path / "r.html")
    outcome = CliRunner().invoke(main, ["report", "r.parquet", "t.csv", "-m", "ndcg", "-o", str(tmp_path / "r.html")])
    assert outcome.exit_code == 1 and "pip install 'rankwise[report]'" in outcome.output
    assert list(tmp_path.iterdir()) == []


def _console():
    from rich.console import Console

    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80), out


def _drawn(out: io.StringIO, text: str) -> bool:
    """Whether the spinner draws `text` within half a minute: its threads (the
    delay's timer, rich's refresh) can start late on a busy machine."""
    deadline = time.monotonic() + 30
    while text not in out.getvalue():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_stages_are_drawn_once_the_work_takes_longer_than_the_delay() -> None:
    console, out = _console()
    with stages(console, delay=0.05) as stage:
        stage("checking")
        assert _drawn(out, "rankwise: checking")
        stage("computing")
        assert _drawn(out, "rankwise: computing")


def test_quick_work_draws_nothing() -> None:
    console, out = _console()
    with stages(console, delay=5) as stage:
        stage("checking")
        stage("computing")
    assert out.getvalue() == ""


def test_without_groups_one_series_and_no_curve_for_whole_list_metrics(frames, tmp_path: Path) -> None:
    recommendations, interactions = _last_day(frames)
    one_list = recommendations[(recommendations.model == "als") & (recommendations.segment == "app")]
    page = Report(rankwise.report(one_list, interactions, ["mrr", "r_precision"], relevance_col="relevance",
                                  path=tmp_path / "r.html"))
    expected = rankwise.evaluate(one_list, interactions, ["mrr", "r_precision"], relevance_col="relevance")
    assert page.summary() == {"all": {row.metric_label: _shown(row) for row in expected.itertuples()}}
    assert page.row_notes("summary") == {"all": f"{expected['n_users'].iloc[0]} users"}
    assert page.charts == ["distributions"]


def test_two_partition_columns_make_one_axis(frames, tmp_path: Path) -> None:
    recommendations, interactions = frames
    recommendations = recommendations[recommendations.segment == "app"].assign(fold=lambda table: table.user_id < "u15")
    interactions = interactions.assign(fold=lambda table: table.user_id < "u15")
    page = Report(rankwise.report(recommendations, interactions, ["ndcg@3"], group_by="model",
                                  partition_by=["day", "fold"], relevance_col="relevance", path=tmp_path / "r.html"))
    axis = page.figures["partitions"]["layout"]["xaxis"]["categoryarray"]
    assert axis == [f"{day} · {fold}" for day in DAYS for fold in (False, True)]
    last = rankwise.evaluate(recommendations[(recommendations.day == DAYS[-1]) & recommendations.fold],
                             interactions[(interactions.day == DAYS[-1]) & interactions.fold], ["ndcg@3"],
                             group_by="model", relevance_col="relevance")
    assert {model: row["ndcg@3"] for model, row in page.summary().items()} == {
        row.model: _shown(row) for row in last.itertuples()}
    assert f"day = {DAYS[-1]}, fold = True, the last of 4 partitions" in page.html
