"""The options that drop recommended rows before ranking (judged_only,
ignore_identical_ids, duplicate_recommendations='first'), on lists worked out
by hand: what each keeps, how the ranks close up, and the warning that counts
what was dropped; and the retrieval presets' measure sets on the command line.
The crosschecks against trec_eval -J, BEIR and ir_measures are in
tests/crosscheck/test_retrieval_conventions.py."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import DuplicateRowsError, InvalidArgumentError, RankwiseWarning

# q1 ranks a (relevant), u (unjudged), q1 (its own id, judged non-relevant),
# a again, b (relevant), with a gap at rank 4; q2 retrieves only unjudged items.
RUN = pd.DataFrame({"user_id": ["q1", "q1", "q1", "q1", "q1", "q2", "q2"],
                    "item_id": ["a", "u", "q1", "a", "b", "x", "y"],
                    "rank": [1, 2, 3, 5, 6, 1, 2]})
QRELS = pd.DataFrame({"user_id": ["q1", "q1", "q1", "q2"], "item_id": ["a", "b", "q1", "z"],
                      "relevance": [1, 1, 0, 1]})


def _per_user(metrics: list[str], **options) -> dict[tuple[str, str], float]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = rankwise.evaluate(RUN, QRELS, metrics, per_user=True, relevance_col="relevance", **options)
    _per_user.caught = [str(warning.message) for warning in caught if issubclass(warning.category, RankwiseWarning)]
    return {(row.user_id, row.metric_label): row.value for row in table.itertuples()}


def test_an_item_listed_twice_is_refused_by_default() -> None:
    with pytest.raises(DuplicateRowsError, match="duplicate_recommendations='first'"):
        rankwise.evaluate(RUN, QRELS, ["ndcg@3"], relevance_col="relevance")


def test_first_keeps_the_best_ranked_occurrence_and_closes_the_ranks_up() -> None:
    values = _per_user(["precision@5", "mrr", "judged@5"], duplicate_recommendations="first")
    # q1 keeps a(1) u(2) q1(3) b(6 -> 5, one row dropped before it): hits a, b within 5
    assert values[("q1", "precision@5")] == pytest.approx(2 / 5)
    assert values[("q1", "mrr")] == 1.0
    # judged within 5: a, q1, b of the 4 kept rows
    assert values[("q1", "judged@5")] == pytest.approx(3 / 4)
    assert _per_user.caught == ["rankwise: 1 repeat(s) of an item already in its list (duplicate_recommendations='first') "
                                "were dropped from 1 list(s) of the recommendations (DataFrame) before ranking."]


def test_identical_ids_are_dropped_before_ranking() -> None:
    values = _per_user(["precision@3"], duplicate_recommendations="first", ignore_identical_ids=True)
    # q1: a(1) u(2) b(6 -> 4): within 3, a only
    assert values[("q1", "precision@3")] == pytest.approx(1 / 3)
    assert "1 item(s) whose id is their user's (ignore_identical_ids)" in _per_user.caught[0]


def test_judged_only_scores_the_condensed_list() -> None:
    values = _per_user(["precision@2", "map", "judged"], duplicate_recommendations="first", judged_only=True)
    # q1's judged items: a(1) q1(3 -> 2) b(6 -> 4: u and the second a dropped
    # before it, the input's gap at 4 kept); P@2 = 1/2, AP = (1/1 + 2/4) / 2
    assert values[("q1", "precision@2")] == pytest.approx(1 / 2)
    assert values[("q1", "map")] == pytest.approx((1 + 2 / 4) / 2)
    assert values[("q1", "judged")] == 1.0
    # q2 keeps nothing: a user without a list, 0 under users='interactions'
    assert values[("q2", "precision@2")] == 0.0
    assert _per_user.caught == [
        "rankwise: 3 unjudged item(s), not in their user's interactions (judged_only) and 1 repeat(s) of an item "
        "already in its list (duplicate_recommendations='first') were dropped from 2 list(s) of the recommendations "
        "(DataFrame) before ranking; 1 list(s) kept no item and count as users without a list."]


def test_under_scores_the_rows_kept_are_ranked_by_their_scores() -> None:
    run = pd.DataFrame({"user_id": ["q1"] * 4, "item_id": ["u", "a", "b", "a"], "score": [0.9, 0.8, 0.7, 0.1]})
    with pytest.warns(RankwiseWarning, match="1 unjudged item"):
        table = rankwise.evaluate(run, QRELS, ["mrr", "precision@1"], judged_only=True, duplicate_recommendations="first",
                                  score_col="score", relevance_col="relevance", users="both", confidence=None)
    assert list(table["value"]) == [1.0, 1.0]


def test_the_options_are_booleans() -> None:
    with pytest.raises(InvalidArgumentError, match="`judged_only` must be true or false"):
        rankwise.evaluate(RUN, QRELS, ["ndcg"], judged_only="yes")


def test_the_command_line_takes_the_options_and_the_measure_sets(tmp_path) -> None:
    run = RUN.assign(score=[5.0, 4.0, 3.0, 1.0, 0.5, 2.0, 1.0]).drop(columns="rank")
    run.to_csv(tmp_path / "run.csv", index=False)
    QRELS.to_csv(tmp_path / "qrels.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "run.csv"), str(tmp_path / "qrels.csv"), "-m", "msmarco",
                                       "-m", "R_cap@2", "--convention", "beir", "--score-col", "score",
                                       "--relevance-col", "relevance", "--duplicate-recommendations", "first",
                                       "--judged-only", "--no-ignore-identical-ids"])
    assert result.exit_code == 0, result.output
    assert "mrr@10" in result.stdout and "recall_cap@2" in result.stdout
    # the warning names the options as the command line spells them
    assert "(--judged-only)" in result.stderr and "identical" not in result.stderr


def test_compare_says_what_it_drops_too() -> None:
    """The model column tells the lists apart: an item of both models' lists
    is no repeat."""
    recommendations = pd.DataFrame({"model": ["a", "a", "a", "b", "b", "b"], "user_id": ["1"] * 6,
                                    "item_id": ["x", "y", "x", "x", "y", "z"], "rank": [1, 2, 3, 1, 2, 3]})
    interactions = pd.DataFrame({"user_id": ["1", "1"], "item_id": ["x", "z"]})
    with pytest.warns(RankwiseWarning) as caught:
        compared = rankwise.compare(recommendations, interactions, ["ndcg@3"], model_col="model", baseline="a",
                                    duplicate_recommendations="first", judged_only=True)
    assert [str(warning.message) for warning in caught if "dropped" in str(warning.message)] == [
        "rankwise: 2 unjudged item(s), not in their user's interactions (judged_only) and 1 repeat(s) of an item "
        "already in its list (duplicate_recommendations='first') were dropped from 2 list(s) of the recommendations "
        "(DataFrame) before ranking."]
    # a keeps x at 1: 1 / (1 + 1/log2 3); b keeps x and z at 1 and 2: its IDCG
    assert compared["baseline_mean"].iloc[0] == pytest.approx(1 / (1 + 1 / np.log2(3)))
    assert compared["mean"].iloc[0] == pytest.approx(1.0)


def test_check_notes_the_rows_an_evaluation_would_drop() -> None:
    report = rankwise.check(RUN, QRELS, duplicate_recommendations="first", judged_only=True, relevance_col="relevance")
    # the repeated item is no error under 'first'; what evaluate would drop is a note (n_rows: the lists)
    assert list(report["problem"]) == ["rows_dropped_before_ranking"]
    dropped = report.iloc[0]
    assert (dropped["severity"], dropped["n_rows"]) == ("note", 2)
    assert dropped["message"].startswith("rankwise: 3 unjudged item(s)")
