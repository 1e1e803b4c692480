"""rankwise.compare's interface: the pairs it forms, partitions and groups, its
argument checks, the ranx-style table and the command line. The numbers
themselves are checked against scipy and statsmodels in
tests/crosscheck/test_compare_scipy.py."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError, MissingColumnError

# Three models on six users: "good" finds every user's item at rank 1, "half"
# for three of them, "none" for nobody; u6 has truth but no list under "half".
RECOMMENDATIONS = pd.DataFrame(
    [("good", f"u{user}", f"i{user}", 1) for user in range(1, 7)]
    + [("half", f"u{user}", f"i{user}" if user <= 3 else "miss", 1) for user in range(1, 6)]
    + [("none", f"u{user}", "miss", 1) for user in range(1, 7)],
    columns=["model", "user_id", "item_id", "rank"])
INTERACTIONS = pd.DataFrame([(f"u{user}", f"i{user}") for user in range(1, 7)], columns=["user_id", "item_id"])


def _rows(result: pd.DataFrame) -> dict[tuple[str, str], pd.Series]:
    return {(row.model, row.baseline): row for row in result.itertuples()}


def test_every_pair_once_or_each_model_against_the_baseline() -> None:
    every_pair = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"])
    assert sorted(_rows(every_pair)) == [("good", "half"), ("good", "none"), ("half", "none")]
    against = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], baseline="none")
    rows = _rows(against)
    assert sorted(rows) == [("good", "none"), ("half", "none")]
    # every truth user counts, u6 without a list under "half" scoring 0 there
    assert (rows[("half", "none")].n_users, rows[("half", "none")].mean, rows[("half", "none")].wins) == (6, 0.5, 3)
    assert (rows[("good", "none")].diff, rows[("good", "none")].wins, rows[("good", "none")].ties) == (1.0, 6, 0)


def test_users_both_compares_each_pair_on_the_users_with_both_lists() -> None:
    result = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], baseline="good", users="both")
    rows = _rows(result)
    assert rows[("half", "good")].n_users == 5 and rows[("none", "good")].n_users == 6
    assert rows[("half", "good")].baseline_mean == 1.0 and rows[("half", "good")].mean == 3 / 5


def test_partitions_are_compared_apart_and_groups_split_the_pairs() -> None:
    folds = pd.concat([RECOMMENDATIONS.assign(fold="a"), RECOMMENDATIONS[RECOMMENDATIONS.model != "half"].assign(fold="b")])
    truth = pd.concat([INTERACTIONS.assign(fold="a"), INTERACTIONS.assign(fold="b")])
    result = rankwise.compare(folds, truth, ["precision@1"], partition_by="fold", baseline="none")
    assert list(result.columns[:2]) == ["fold", "metric"]
    assert sorted(zip(result.fold, result.model)) == [("a", "good"), ("a", "half"), ("b", "good")]
    alone = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], baseline="none")
    # the detectable difference is at alpha / m, m counting the tests of every fold
    pd.testing.assert_frame_equal(
        result[result.fold == "a"].drop(columns=["fold", "minimum_detectable_difference"]).reset_index(drop=True),
        alone.drop(columns="minimum_detectable_difference").reset_index(drop=True))
    segmented = rankwise.compare(RECOMMENDATIONS.assign(segment=RECOMMENDATIONS.user_id.isin(["u1", "u2"])),
                                 INTERACTIONS, ["precision@1"], baseline="none", group_by="segment")
    assert sorted(set(zip(segmented.segment, segmented.model))) == [
        (False, "good"), (False, "half"), (True, "good"), (True, "half")]


@pytest.mark.parametrize(("arguments", "message"), [
    ({"metrics": ["entropy@3"]}, "entropy has one value per group"),
    ({"metrics": ["idcg@3"]}, "idcg is a property of the interactions"),
    ({"confidence": 1.0}, "`confidence` must be a number strictly between 0 and 1"),
    ({"alpha": 0}, "`alpha` must be a number strictly between 0 and 1"),
    ({"tests": ["wilcoxon"]}, "argument `tests` must be one of 't', 'randomization', 'bootstrap'"),
    ({"tests": []}, "`tests` must be a non-empty list"),
    ({"n_resamples": 0}, "`n_resamples` must be an integer from 1 to 1000000"),
    ({"seed": 1.5}, "argument `seed` must be an integer"),
    ({"correction": "bonferroni"}, "argument `correction` must be one of 'holm', 'bh', 'none'"),
    ({"baseline": ["a"]}, "`baseline` must be a value of the model column"),
    ({"group_by": ["model"]}, "is the model column; leave it out"),
    ({"group_by": ["p_value"]}, "has the name of an output column of rankwise.compare"),
    ({"gian": "linear"}, "unknown argument `gian`. Did you mean `gain`"),
    # evaluate's planner, which compare's plan goes through
    ({"metrics": ["ndgc@3"]}, "unknown metric 'ndgc@3'. Did you mean 'ndcg'?"),
    ({"metrics": ["ndcg@0"]}, "the cutoff in metric 'ndcg@0' must be a positive integer"),
    ({"gain": "exp"}, "argument `gain` must be one of 'linear', 'exponential', 'binary'; got 'exp'."),
    ({"metrics": ["arp@3"]}, "arp needs the `train` input"),
])
def test_bad_arguments_are_refused_with_rankwises_message(arguments: dict, message: str) -> None:
    call = {"metrics": ["precision@1"], **arguments}
    with pytest.raises(InvalidArgumentError) as raised:
        rankwise.compare(RECOMMENDATIONS, INTERACTIONS, **call)
    assert message in str(raised.value)
    assert str(raised.value).startswith("rankwise.compare: ")


def test_a_missing_baseline_or_a_single_model_names_the_models() -> None:
    with pytest.raises(InvalidArgumentError, match="the baseline 'best' is not a value of the model column 'model'.*'good', 'half', 'none'"):
        rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], baseline="best")
    with pytest.raises(InvalidArgumentError, match="nothing to compare.*holds 1 model"):
        rankwise.compare(RECOMMENDATIONS[RECOMMENDATIONS.model == "good"], INTERACTIONS, ["precision@1"])
    with pytest.raises(MissingColumnError, match="column 'run' \\(the model column\\)"):
        rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], model_col="run")


@pytest.mark.parametrize("validate", [True, False])
def test_a_missing_baseline_is_refused_before_the_comparison_runs(monkeypatch, validate: bool) -> None:
    """One row looked up, not a whole comparison run and found empty: the
    arguments are checked by the plan, and the comparison's SQL is not even
    written; a comparison that runs writes it once."""
    from rankwise import _compare

    rendered = []
    render = _compare.render
    monkeypatch.setattr(_compare, "render", lambda *args, **kwargs: rendered.append(args) or render(*args, **kwargs))
    message = ("rankwise.compare: the baseline 2 is not a value of the model column 'run' of the recommendations "
               "(DataFrame); its values: 0, 1.")
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        rankwise.compare(RECOMMENDATIONS.assign(run=(RECOMMENDATIONS.model == "good").astype(int)), INTERACTIONS,
                         ["precision@1"], model_col="run", baseline=2, validate=validate)
    assert rendered == []
    assert len(rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1"], baseline="good", validate=validate)) == 2
    assert len(rendered) == 1


def test_the_table_marks_the_models_each_beats_significantly() -> None:
    result = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["precision@1", "mrr"], correction="none")
    table = rankwise.comparison_table(result)
    assert list(table.columns) == ["model", "precision@1", "mrr"]
    cells = dict(zip(table["model"], table["precision@1"]))
    # good beats none (every user, p = 0) but not half at 0.05 (3 wins of 6: p = 0.076)
    significant = _rows(result[result.metric == "precision"])
    assert significant[("good", "none")].significant and not significant[("good", "half")].significant
    assert cells == {"a. good": "1.0000^c", "b. half": "0.5000", "c. none": "0.0000"}
    markdown = rankwise.comparison_table(result, "markdown")
    assert markdown.splitlines()[:2] == ["| model | precision@1 | mrr |", "|---|---|---|"]
    assert "| a. good | 1.0000<sup>c</sup> |" in markdown
    assert "1.0000$^{c}$" in rankwise.comparison_table(result, "latex")
    assert json.loads(rankwise.comparison_table(result, "json"))[0]["model"] == "a. good"
    with pytest.raises(InvalidArgumentError, match="what rankwise.compare returns"):
        rankwise.comparison_table(pd.DataFrame({"model": ["a"]}))


def test_the_command_line_prints_the_table_or_every_row(tmp_path) -> None:
    recommendations, interactions = tmp_path / "recommendations.csv", tmp_path / "interactions.csv"
    RECOMMENDATIONS.to_csv(recommendations, index=False)
    INTERACTIONS.to_csv(interactions, index=False)
    runner = CliRunner()
    table = runner.invoke(main, ["compare", str(recommendations), str(interactions), "-m", "precision@1",
                                 "--correction", "none", "--baseline", "none"])
    assert table.exit_code == 0, table.output
    assert table.output.splitlines()[0] == "| model | precision@1 |"
    assert "| a. good | 1.0000<sup>c</sup> |" in table.output
    output = tmp_path / "comparison.parquet"
    details = runner.invoke(main, ["compare", str(recommendations), str(interactions), "-m", "precision@1",
                                   "--baseline", "none", "--test", "randomization", "--n-resamples", "99",
                                   "--details", "-o", str(output)])
    assert details.exit_code == 0, details.output
    written = pd.read_parquet(output)
    assert sorted(written["model"]) == ["good", "half"] and "p_randomization" in written.columns
    assert "p_randomization" in details.output.splitlines()[1] or "p_randomization" in details.output
    refused = runner.invoke(main, ["compare", str(recommendations), str(interactions), "-m", "precision@1",
                                   "--baseline", "best"])
    assert refused.exit_code == 1 and "the baseline 'best' is not a value" in refused.output
