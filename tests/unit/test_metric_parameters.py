"""Parameters in the metric string, as ir_measures writes them: 'rbp(p=0.95)@20',
'rbp(gain=graded, normalize=true)', 'ndcg(rel=2)@10'. Parsed once by the
planner; the same metric with two sets of parameters is two rows, labelled
with its parameters; a metric's own relevance threshold gives the values the
call's would; a bad parameter is refused naming the metric and its parameters."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise._render import renderer
from rankwise.cli import main
from rankwise.errors import InvalidArgumentError

# u1: a (relevance 2) at rank 1, c (1) at rank 3, z (3) not recommended;
# u2: y (1) at rank 2; u3 has truth and no list
RECOMMENDATIONS = pd.DataFrame({"model": ["m"] * 6 + ["n"] * 6,
                                "user_id": ["u1", "u1", "u1", "u1", "u2", "u2"] * 2,
                                "item_id": ["a", "b", "c", "d", "x", "y", "c", "a", "b", "d", "y", "x"],
                                "rank": [1, 2, 3, 4, 1, 2] * 2})
INTERACTIONS = pd.DataFrame({"user_id": ["u1", "u1", "u1", "u2", "u3"], "item_id": ["a", "c", "z", "y", "q"],
                             "relevance": [2, 1, 3, 1, 1]})


def _evaluate(metrics: list[str], **options) -> pd.DataFrame:
    return rankwise.evaluate(RECOMMENDATIONS[RECOMMENDATIONS.model == "m"], INTERACTIONS, metrics,
                             relevance_col="relevance", confidence=None, **options)


def test_two_sets_of_parameters_are_two_rows_labelled_with_them() -> None:
    table = _evaluate(["rbp(p=0.95)@3", "rbp@3", "rbp(normalize=true, gain=graded)"])
    assert list(table.metric) == ["rbp", "rbp", "rbp"]
    assert list(table.metric_label) == ["rbp(p=0.95)@3", "rbp@3", "rbp(gain=graded, normalize=true)"]
    # u1: relevant at ranks 1 and 3; u2 at rank 2; u3 scores 0 (no list)
    assert math.isclose(table.value[0], (0.05 * (1 + 0.95**2) + 0.05 * 0.95) / 3, abs_tol=1e-12)
    assert math.isclose(table.value[1], (0.2 * (1 + 0.8**2) + 0.2 * 0.8) / 3, abs_tol=1e-12)
    # graded over the largest relevance 3, normalised by 1 - 0.8^min(R, n): u1 R = 3 of a 4-item list, u2 R = 1
    u1 = 0.2 * (2 / 3 + 0.8**2 * 1 / 3) / (1 - 0.8**3)
    u2 = 0.2 * 0.8 * (1 / 3) / (1 - 0.8)
    assert math.isclose(table.value[2], (u1 + u2) / 3, abs_tol=1e-12)


def test_a_parameter_at_its_default_is_the_metric_without_it() -> None:
    table = _evaluate(["rbp(p=0.8)@3", "rbp@3", "rbp(normalize=false)"])
    assert list(table.metric_label) == ["rbp@3", "rbp"]


def test_per_user_rows_and_the_sql_carry_the_labels() -> None:
    table = rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, ["rbp(p=0.5)@2", "rbp@2"], group_by="model",
                              relevance_col="relevance", per_user=True)
    u1 = table[(table.user_id == "u1") & (table.model == "m")]
    assert list(u1.metric_label) == ["rbp(p=0.5)@2", "rbp@2"]
    assert all(math.isclose(value, expected, abs_tol=1e-12) for value, expected in zip(u1.value, [0.5, 0.2]))


def test_a_metric_s_own_threshold_gives_what_the_call_s_would() -> None:
    own = _evaluate(["ndcg(rel=2)@3", "precision(rel=2)@2", "recall(rel=2)", "ndcg@3"], users="relevant")
    assert list(own.metric_label) == ["ndcg(rel=2)@3", "precision(rel=2)@2", "recall(rel=2)", "ndcg@3"]
    call = _evaluate(["ndcg@3", "precision@2", "recall"], users="relevant", relevance_threshold=2, gain_items="relevant")
    assert list(own.value[:3]) == list(call.value)
    # the users with a relevant item are those of the metric's threshold: u1 alone at 2, u1 and u2 at 1
    assert list(own.n_users) == [1, 1, 1, 2]
    assert own.value[3] == _evaluate(["ndcg@3"], users="relevant").value[0]


def test_a_metric_s_own_threshold_beside_metrics_that_read_the_catalog() -> None:
    items = pd.DataFrame({"item_id": list("abcdxy"), "genre": list("ppqqpq")})
    table = _evaluate(["intra_list_diversity@2", "ndcg(rel=2)@3"], items=items, item_distance="hamming",
                      item_feature_cols=["genre"])
    assert list(table.metric_label) == ["intra_list_diversity@2", "ndcg(rel=2)@3"]
    # u1's top two a, b share genre p; u2's x, y differ
    assert table.value[0] == 0.5


def test_the_command_line_takes_the_strings(tmp_path) -> None:
    RECOMMENDATIONS.to_csv(tmp_path / "recs.csv", index=False)
    INTERACTIONS.to_csv(tmp_path / "truth.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"), "-m", "rbp(p=0.95)@3",
                                       "-m", "rbp(gain=graded, normalize=true)", "-m", "ndcg(rel=2)@3", "--group-by", "model",
                                       "--relevance-col", "relevance"])
    assert result.exit_code == 0, result.output
    for label in ("rbp(p=0.95)@3", "rbp(gain=graded, normalize=true)", "ndcg(rel=2)@3"):
        assert label in result.output


def test_compare_pairs_each_set_of_parameters() -> None:
    result = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["rbp(p=0.5)@2", "rbp@2"], relevance_col="relevance")
    assert list(result.metric_label) == ["rbp(p=0.5)@2", "rbp@2"]
    # m holds u1's a at rank 1 and u2's y at rank 2; n holds u1's c and a at ranks 1 and 2 and u2's y at rank 1
    assert math.isclose(result["mean"][0], (0.5 + 0.25 + 0) / 3, abs_tol=1e-12)
    assert math.isclose(result["diff"][1], ((0.2 - 0.2 * 1.8) + (0.16 - 0.2)) / 3, abs_tol=1e-12)


def test_compare_pairs_err() -> None:
    # R = (2^g - 1) / 8: m gives u1 a (3/8) at rank 1 and u2 y (1/8) at rank 2; n gives u1 c (1/8) then a,
    # reached with 7/8, and u2 y at rank 1; u3 scores 0 under both
    result = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["err@2"], relevance_col="relevance")
    model = 3 / 8 + (1 / 2) * (1 / 8)
    baseline = 1 / 8 + (1 / 2) * (3 / 8) * (7 / 8) + 1 / 8
    assert math.isclose(result["diff"][0], (model - baseline) / 3, abs_tol=1e-12)


def test_compare_refuses_a_threshold_of_the_metric_s_own() -> None:
    with pytest.raises(InvalidArgumentError, match=r"ndcg\(rel=2\)@3 sets a relevance threshold of its own"):
        rankwise.compare(RECOMMENDATIONS, INTERACTIONS, ["ndcg(rel=2)@3"], relevance_col="relevance")


@pytest.mark.parametrize(
    ("metric", "message"),
    [
        ("rbp(q=1)", r"metric 'rbp\(q=1\)' gives the parameter 'q', but rbp takes the parameters p, gain, normalize, rel"),
        ("rbp(p=1)@5", r"parameter `p` of rbp must be a number above 0 and below 1 .*; got '1'"),
        ("rbp(gain=linear)", r"parameter `gain` of rbp must be one of binary, graded"),
        ("rbp(normalize=1)", r"parameter `normalize` of rbp must be true or false"),
        ("rbp(p=0.5, p=0.6)", r"gives the parameter 'p' twice"),
        ("rbp(p=0.5", r"must close its parameters with one '\)'"),
        ("rbp(0.5)", r"write each parameter as name=value"),
        ("err(rel=2)@5", r"gives the parameter 'rel', but err takes no parameter"),
        ("entropy(rel=2)", r"but entropy takes no parameter"),
        ("ndcg(rel=x)", r"parameter `rel` of ndcg must be a finite number"),
    ],
)
def test_a_bad_parameter_names_the_metric_and_its_parameters(metric: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        rankwise.sql("recs", "truth", [metric])


def test_the_planner_parses_each_string_once() -> None:
    parsed = renderer().call("_parse_metrics", ["rbp(p=0.95)@20", "ndcg(rel=2)"], [5], "evaluate")
    assert [(entry["name"], entry["k"], entry["label"], entry["key"], entry["parameters"]) for entry in parsed] == [
        ("rbp", 20, "rbp(p=0.95)", "rbp", {"p": 0.95, "gain": "binary", "normalize": False, "rel": None}),
        ("ndcg", 5, "ndcg(rel=2)", "ndcg", {"rel": 2}),
    ]


def test_the_report_draws_a_curve_per_set_of_parameters(tmp_path) -> None:
    from .report_pages import Report

    path = rankwise.report(RECOMMENDATIONS, INTERACTIONS, ["rbp(p=0.5)", "rbp"], [1, 2, 3], group_by="model",
                           relevance_col="relevance", path=tmp_path / "report.html")
    titles = [annotation["text"] for annotation in Report(path).figures["curves"]["layout"]["annotations"]]
    assert titles == ["rbp(p=0.5)", "rbp"]
