"""The report's verdict, comparison and gates against rankwise.compare,
rankwise.comparison_table and the gate functions: every cell of the verdict,
each model's decision, the superscripts of ranx's layout, the wins, ties and
losses, and the gates' passes and failures are the rows those functions
return, from the inputs, from results and from the command line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError

from .report_pages import Report

METRICS = ["ndcg@5", "precision@5", "mrr"]
MARGIN = 0.05
AT_LEAST = {"ndcg@5": 0.1}


def _inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """A baseline and three candidates on two segments of 150 users: `good`
    puts a truth item first more often than the baseline, `bad` less often,
    `twin` as often, drawn apart from the baseline's (no different)."""
    rng = np.random.default_rng(34)
    recommendations, interactions = [], []
    for user in range(150):
        segment = "app" if user % 2 else "web"
        truth = rng.choice(40, size=3, replace=False)
        interactions += [(f"u{user}", f"i{item}") for item in truth]
        others = [item for item in range(40) if item not in truth]
        for model, share in (("base", 0.5), ("good", 0.9), ("bad", 0.1), ("twin", 0.5)):
            shown = list(rng.choice(others, size=5, replace=False))
            if rng.random() < share:
                shown[0] = truth[0]
            recommendations += [(model, segment, f"u{user}", f"i{item}", rank) for rank, item in enumerate(shown, 1)]
    return (pd.DataFrame(recommendations, columns=["model", "segment", "user_id", "item_id", "rank"]),
            pd.DataFrame(interactions, columns=["user_id", "item_id"]))


@pytest.fixture(scope="module")
def inputs() -> tuple[pd.DataFrame, pd.DataFrame]:
    return _inputs()


@pytest.fixture(scope="module")
def expected(inputs) -> pd.DataFrame:
    return rankwise.compare(*inputs, METRICS, model_col="model", baseline="base", group_by="segment", margin=MARGIN)


@pytest.fixture(scope="module")
def page(inputs, tmp_path_factory) -> Report:
    path = tmp_path_factory.mktemp("verdict") / "report.html"
    return Report(rankwise.report(*inputs, METRICS, group_by=["model", "segment"], baseline="base", margin=MARGIN,
                                  at_least=AT_LEAST, path=path))


def _p_text(p: float) -> str:
    return f"p = {p:.1e}" if p < 1e-4 else f"p = {p:.4f}"


def _word(row) -> str:
    if row.significant:
        return "better" if row.diff > 0 else "worse"
    return "no different"


def test_every_verdict_cell_is_a_row_of_compare(expected: pd.DataFrame, page: Report) -> None:
    cells = page.grid("verdict")
    classes = page.grid("verdict", "class")
    not_shown = rankwise.failing_comparisons(expected)
    not_shown = set(zip(not_shown["segment"], not_shown["model"], not_shown["metric_label"]))
    assert sorted(cells) == sorted({f"{row.segment} · {row.model}" for row in expected.itertuples()})
    words = set()
    for row in expected.itertuples():
        cell = cells[f"{row.segment} · {row.model}"][row.metric_label]
        word = _word(row)
        words.add(word)
        assert classes[f"{row.segment} · {row.model}"][row.metric_label] == f"verdict {word.replace(' ', '-')}"
        assert word in cell and f"{row.diff:+.4f} ({100 * row.relative_diff:+.1f}%)" in cell
        assert _p_text(row.p_adjusted) in cell
        assert (f"detectable: ±{row.minimum_detectable_difference:.4f}" in cell) == (word == "no different")
        no_worse = (row.segment, row.model, row.metric_label) not in not_shown
        assert f"{'no worse' if no_worse else 'not shown no worse'} ({_p_text(row.p_non_inferiority_adjusted)})" in cell
    # the data were drawn to give every verdict
    assert words == {"better", "no different", "worse"}


def test_each_model_has_a_decision_from_its_rows(expected: pd.DataFrame, page: Report) -> None:
    failing = rankwise.failing_comparisons(expected)
    gates = rankwise.failing_metrics(rankwise.evaluate(*_inputs(), METRICS, group_by=["model", "segment"]),
                                     at_least=AT_LEAST)
    decisions = page.decisions()
    assert sorted(decisions) == sorted({f"{row.segment} · {row.model}" for row in expected.itertuples()})
    for (segment, model), rows in expected.groupby(["segment", "model"]):
        text = decisions[f"{segment} · {model}"]
        counts = [sum(_word(row) == word for row in rows.itertuples()) for word in ("better", "no different", "worse")]
        assert f"better on {counts[0]}, no different on {counts[1]}, worse on {counts[2]}" in text
        shown = failing[(failing.segment == segment) & (failing.model == model)].empty
        fails_gate = not gates[(gates.segment == segment) & (gates.model == model)].empty
        assert text.startswith("ship it" if shown and not fails_gate else "hold")
        assert ("fails ndcg@5 ≥ 0.1" in text) == fails_gate
    assert any(text.startswith("ship it") for text in decisions.values())
    assert any(text.startswith("hold") for text in decisions.values())


def test_rankwise_verdict_is_the_decisions_of_the_page(inputs, expected: pd.DataFrame, page: Report) -> None:
    means = rankwise.evaluate(*inputs, METRICS, group_by=["model", "segment"])
    table = rankwise.verdict(expected, means, margin=MARGIN, at_least=AT_LEAST)
    assert list(table.columns) == ["segment", "model", "baseline", "decision", "better", "no_different", "worse",
                                   "summary"]
    decisions = page.decisions()
    assert sorted(f"{row.segment} · {row.model}" for row in table.itertuples()) == sorted(decisions)
    for row in table.itertuples():
        assert decisions[f"{row.segment} · {row.model}"] == f"{row.decision} {row.segment} · {row.model}: {row.summary}."
        rows = expected[(expected.segment == row.segment) & (expected.model == row.model)]
        words = [_word(compared) for compared in rows.itertuples()]
        assert (row.better, row.no_different, row.worse) == tuple(
            words.count(word) for word in ("better", "no different", "worse"))
    assert set(table["baseline"]) == {"base"} and set(table["decision"]) == {"ship it", "hold"}
    shipped = table[table.decision == "ship it"]
    assert all(summary.endswith(f"shown to be no worse by more than {MARGIN:g} on each") for summary in shipped.summary)
    # the note under the decisions says when a model ships, to the end
    assert "a model ships when it is shown to be no worse on every metric and passes every gate.</p>" in page.html


def test_rankwise_verdict_refuses_what_it_cannot_judge(inputs, expected: pd.DataFrame) -> None:
    with pytest.raises(InvalidArgumentError, match="judges each model against one baseline"):
        rankwise.verdict(rankwise.compare(*inputs, ["mrr"], model_col="model"))
    with pytest.raises(InvalidArgumentError, match="judge the means: pass `result`"):
        rankwise.verdict(expected, at_least=AT_LEAST)
    with pytest.raises(InvalidArgumentError, match="pass a comparison of rankwise.compare with that margin"):
        rankwise.verdict(rankwise.compare(*inputs, ["mrr"], model_col="model", baseline="base"), margin=MARGIN)


def test_the_comparison_table_has_ranx_superscripts_and_compare_records(expected: pd.DataFrame,
                                                                       page: Report) -> None:
    table = rankwise.comparison_table(expected)
    shown = page.grid("comparison")
    for record in table.to_dict("records"):
        for label in METRICS:
            # the letters follow the mean, as superscripts
            assert shown[f"{record['segment']} · {record['model']}"][label] == record[label].replace("^", "")
    assert any("^" in str(value) for value in table[METRICS].to_numpy().ravel())
    assert "<sup>" in page.html
    records = page.grid("records")
    for row in expected.itertuples():
        assert records[f"{row.segment} · {row.model} vs base"][row.metric_label] == (
            f"{row.wins} / {row.ties} / {row.losses}")


def test_the_gates_are_failing_metrics_rows(inputs, page: Report) -> None:
    means = rankwise.evaluate(*inputs, METRICS, group_by=["model", "segment"])
    failing = rankwise.failing_metrics(means, at_least=AT_LEAST)
    failed = set(zip(failing["model"], failing["segment"]))
    gates = page.grid("gates")
    for row in means[means.metric_label == "ndcg@5"].itertuples():
        cell = gates[f"{row.model} · {row.segment}"]["ndcg@5 ≥ 0.1"]
        assert cell == f"{row.value:.4f} {'fail' if (row.model, row.segment) in failed else 'pass'}"
    assert 0 < len(failed) < len(gates)


def test_the_verdict_from_results_is_the_same(inputs, expected: pd.DataFrame, page: Report, tmp_path: Path) -> None:
    means = rankwise.evaluate(*inputs, METRICS, group_by=["model", "segment"])
    drawn = Report(rankwise.report(result=means, comparison=expected, margin=MARGIN, at_least=AT_LEAST,
                                   path=tmp_path / "results.html"))
    assert drawn.grid("verdict") == page.grid("verdict") and drawn.decisions() == page.decisions()
    assert drawn.grid("records") == page.grid("records")


def test_without_a_margin_nothing_ships_on_no_difference(inputs, tmp_path: Path) -> None:
    page = Report(rankwise.report(*inputs, METRICS, group_by="model", baseline="base", path=tmp_path / "r.html"))
    decisions = page.decisions()
    assert decisions["bad"].startswith("hold") and "worse: " in decisions["bad"]
    assert decisions["twin"].startswith("nothing worse") and '"no different" does not show "no worse"' in decisions["twin"]
    assert not any("no worse (" in cell for row in page.grid("verdict").values() for cell in row.values())


def test_the_command_line_writes_the_verdict_and_exits_3_on_a_failed_gate(inputs, page: Report,
                                                                          tmp_path: Path) -> None:
    inputs[0].to_parquet(tmp_path / "recs.parquet")
    inputs[1].to_parquet(tmp_path / "truth.parquet")
    target = tmp_path / "cli.html"
    arguments = ["report", str(tmp_path / "recs.parquet"), str(tmp_path / "truth.parquet"), "-m", "ndcg@5",
                 "-m", "precision@5", "-m", "mrr", "--group-by", "model", "--group-by", "segment",
                 "--baseline", "base", "--margin", str(MARGIN), "-o", str(target)]
    outcome = CliRunner().invoke(main, arguments)
    assert outcome.exit_code == 0, outcome.output
    assert Report(target).grid("verdict") == page.grid("verdict")
    # the terminal gets the decisions too, one line per model, and the path written
    decided = rankwise.verdict(rankwise.compare(*inputs, METRICS, model_col="model", baseline="base",
                                                group_by="segment", margin=MARGIN), margin=MARGIN)
    assert outcome.stdout.splitlines() == [
        f"{row.decision}: {row.segment} · {row.model} against base: {row.summary}." for row in decided.itertuples()]
    assert len(decided) == 6
    assert outcome.stderr == f"wrote {target.resolve()}\n"
    outcome = CliRunner().invoke(main, [*arguments, "--fail-if-worse", "--fail-under", "ndcg@5=0.1"])
    assert outcome.exit_code == 3
    assert "gate failed" in outcome.output and "not shown to be no worse" in outcome.output
    assert "metric rows outside their bounds" in outcome.output
    outcome = CliRunner().invoke(main, [*arguments[:-4], "--fail-if-worse", "-o", str(target)])
    assert outcome.exit_code == 2 and "give --margin" in outcome.output


@pytest.mark.parametrize(("arguments", "message"), [
    ({"baseline": "base"}, "give `group_by`"),
    ({"baseline": "base", "group_by": "model", "model_col": "segment"}, "must be one of the group columns"),
    ({"margin": 0.1, "group_by": "model"}, "give the `baseline` too"),
])
def test_bad_verdict_arguments_are_refused(inputs, tmp_path: Path, arguments: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.report(*inputs, METRICS, path=tmp_path / "r.html", **arguments)
    assert list(tmp_path.iterdir()) == []


def test_a_margin_with_results_needs_a_comparison_at_a_margin(inputs, tmp_path: Path) -> None:
    means = rankwise.evaluate(*inputs, METRICS, group_by="model")
    plain = rankwise.compare(*inputs, METRICS, baseline="base")
    with pytest.raises(InvalidArgumentError, match="pass a comparison of rankwise.compare with that margin"):
        rankwise.report(result=means, comparison=plain, margin=0.1, path=tmp_path / "r.html")
