"""The report's summary marks the best value of each metric the way the metric
registry says the metric is better (the lowest Gini, the highest coverage, no
mark on a metric with no better side), and says under each series what its
values are over: its users with ground truth, its lists. The registry's
directions agree with what rankwise.compare ranks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import rankwise
from rankwise._render import renderer
from rankwise.errors import InvalidArgumentError

from .report_pages import Report

# Model `same` shows x and y to everyone (concentrated: a high Gini, half the
# catalog); `spread` shows all four items (a low Gini, the whole catalog).
# User 3 has lists but no ground truth: 2 users, 3 lists per model.
RECOMMENDATIONS = pd.DataFrame({
    "model": ["same"] * 6 + ["spread"] * 6,
    "user_id": [1, 1, 2, 2, 3, 3] * 2,
    "item_id": ["x", "y", "x", "y", "x", "y", "x", "z", "y", "w", "z", "y"],
    "rank": [1, 2] * 6,
})
INTERACTIONS = pd.DataFrame({"user_id": [1, 2], "item_id": ["x", "w"]})
ITEMS = pd.DataFrame({"item_id": ["w", "x", "y", "z"]})
TRAIN = pd.DataFrame({"user_id": [1, 2, 3, 4], "item_id": ["x", "x", "y", "z"]})
METRICS = ["ndcg@2", "idcg@2", "novelty@2", "arp@2", "coverage@2", "gini@2"]


@pytest.fixture(scope="module")
def means() -> pd.DataFrame:
    return rankwise.evaluate(RECOMMENDATIONS, INTERACTIONS, METRICS, group_by="model", items=ITEMS, train=TRAIN)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Report:
    path = tmp_path_factory.mktemp("best") / "report.html"
    return Report(rankwise.report(RECOMMENDATIONS, INTERACTIONS, METRICS, group_by="model", items=ITEMS,
                                  train=TRAIN, path=path))


def test_the_best_value_follows_the_metrics_direction(means: pd.DataFrame, page: Report) -> None:
    marked = page.grid("summary", "class")
    values = means.pivot(index="metric_label", columns="model", values="value")
    # the data tell the directions apart: the lowest Gini is not the highest
    assert values.loc["gini@2"].idxmin() != values.loc["gini@2"].idxmax()
    bold = {label: sorted(model for model in marked if marked[model][label] == "best") for label in values.index}
    assert bold == {
        "ndcg@2": [values.loc["ndcg@2"].idxmax()],
        "coverage@2": [values.loc["coverage@2"].idxmax()],
        "gini@2": [values.loc["gini@2"].idxmin()],
        # no better side: a property of the truth, and two list-level metrics
        "idcg@2": [], "novelty@2": [], "arp@2": [],
    }
    assert bold["gini@2"] == ["spread"] and bold["coverage@2"] == ["spread"]
    assert ("Bold: the best value of each metric, the highest (the lowest for gini, where lower is better); "
            "idcg, novelty, arp have no better side and are not marked.") in page.html


def test_each_series_says_how_many_users_and_lists_its_values_are_over(means: pd.DataFrame, page: Report) -> None:
    users = means[means.metric == "ndcg"].set_index("model")["n_users"]
    lists = means[means.metric.isin(["novelty", "gini"])].groupby("model")["n_users"].agg(["min", "max"])
    assert (lists["min"] == lists["max"]).all()
    assert dict(users) == {"same": 2, "spread": 2} and dict(lists["max"]) == {"same": 3, "spread": 3}
    assert page.row_notes("summary") == {model: f"{users[model]} users · {lists.loc[model, 'max']} lists"
                                         for model in ("same", "spread")}


def test_counts_that_differ_within_a_series_name_their_metrics(tmp_path: Path) -> None:
    """users='both' for ndcg alone: ndcg's mean is over the users with truth and
    a list, recall's over every user with truth."""
    recommendations = RECOMMENDATIONS[~((RECOMMENDATIONS.model == "same") & (RECOMMENDATIONS.user_id == 2))]
    with pytest.warns(rankwise.RankwiseWarning, match="the groups are scored on different users"):
        result = rankwise.evaluate(recommendations, INTERACTIONS, ["ndcg@2", "recall@2"], group_by="model",
                                   users={"ndcg": "both"})
    counts = result.set_index(["model", "metric_label"])["n_users"]
    assert (counts["same", "ndcg@2"], counts["same", "recall@2"]) == (1, 2)
    page = Report(rankwise.report(result=result, path=tmp_path / "r.html"))
    assert page.row_notes("summary") == {"same": "1 user (ndcg@2) · 2 users (recall@2)", "spread": "2 users"}


def test_a_single_series_has_no_bold_but_its_counts(tmp_path: Path) -> None:
    one = RECOMMENDATIONS[RECOMMENDATIONS.model == "spread"]
    page = Report(rankwise.report(one, INTERACTIONS, ["ndcg@2"], path=tmp_path / "r.html"))
    assert "best" not in {css for row in page.grid("summary", "class").values() for css in row.values()}
    assert page.row_notes("summary") == {"all": "2 users"}
    assert "Bold:" not in page.html and "Under each series, what its values are over" in page.html


def test_the_registry_says_which_way_each_metric_is_better() -> None:
    better = {name: renderer().call("metric_better", name) for name in rankwise.metric_names()}
    # compare's margin reads lower as worse for every per-user metric it takes
    # (all but idcg and num_rel, the same for every model, the counts and
    # geometric means, whose summary is no mean, and the shares of the
    # judgments, judged and unjudged, which have no better side)...
    summed = {"num_ret": None, "num_rel_ret": "higher", "num_nonrel_judged_ret": None, "gm_map": "higher",
              "gm_bpref": "higher"}
    sideless = ["judged", "unjudged"]
    # rbp_residual, what unjudged items could add, is no better higher or lower
    per_user = [name for name in rankwise.metric_names("user")
                if name not in ("idcg", "num_rel", "rbp_residual", *summed, *sideless)]
    whole = {"set_map", "utility", "ndcg_rel", "g", "rndcg"}  # no cutoff
    compared = rankwise.compare(RECOMMENDATIONS, INTERACTIONS, [name if name in whole else f"{name}@2" for name in per_user],
                                model_col="model", baseline="same", margin=0.01)
    assert sorted(set(compared["metric"])) == sorted(per_user)
    assert {name: better[name] for name in rankwise.metric_names("user")} == {
        **{name: "higher" for name in per_user}, "idcg": None, "num_rel": None, "rbp_residual": None, **summed,
        "judged": None, "unjudged": None}
    for name in sideless:
        with pytest.raises(InvalidArgumentError, match=f"{name} has no better side"):
            rankwise.compare(RECOMMENDATIONS, INTERACTIONS, [f"{name}@2"], model_col="model", baseline="same",
                             margin=0.01)
    for name in ("idcg@2", "num_rel"):
        with pytest.raises(InvalidArgumentError, match=f"{name.split('@')[0]} is a property of the interactions"):
            rankwise.compare(RECOMMENDATIONS, INTERACTIONS, [name], model_col="model", baseline="same")
    for name, summary in (("num_ret", "a total"), ("gm_map@2", "a geometric mean")):
        with pytest.raises(InvalidArgumentError, match=f"{name.split('@')[0]}'s summary is {summary} over the users"):
            rankwise.compare(RECOMMENDATIONS, INTERACTIONS, [name], model_col="model", baseline="same")
    # ...and refuses a margin on each list-level metric: it has no better side
    three = pd.concat([RECOMMENDATIONS, RECOMMENDATIONS[RECOMMENDATIONS.model == "same"].assign(model="third")])
    for name in rankwise.metric_names("list"):
        assert better[name] is None
        # rbo and intersection read a reference model's lists, the others the catalog or train
        inputs = {"reference": "spread"} if name in ("rbo", "intersection") else {"items": ITEMS, "train": TRAIN}
        with pytest.raises(InvalidArgumentError, match=f"{name} has no better side"):
            rankwise.compare(three, INTERACTIONS, [f"{name}@2"], model_col="model", baseline="same", margin=0.01,
                             **inputs)
    # each group-level metric has a better side: concentration is worse
    assert {name: better[name] for name in rankwise.metric_names("group")} == {
        "entropy": "higher", "coverage": "higher", "gini": "lower", "exposure_gini": "lower",
        "exposure_disparity": "lower", "personalization": "higher"}


def test_a_name_with_a_cutoff_is_refused_with_the_names_it_takes() -> None:
    with pytest.raises(InvalidArgumentError, match=r"metric_better: argument `name` must be a metric name without "
                                                   r"parameters or @k, one of precision, .*; got 'gini@10'"):
        renderer().call("metric_better", "gini@10")


def test_the_notes_say_which_means_count_the_users_of_one_table_only() -> None:
    """User 3 has lists but no ground truth, users 5 and 6 ground truth but no
    list: the per-user means are over users 1, 2, 5 and 6 (5 and 6 scoring 0),
    the per-list and per-group values over the lists of users 1, 2 and 3;
    rankwise.check's notes (the report's data quality) say so."""
    interactions = pd.concat([INTERACTIONS, pd.DataFrame({"user_id": [5, 6], "item_id": ["x", "y"]})])
    means = rankwise.evaluate(RECOMMENDATIONS, interactions, ["ndcg@2", "novelty@2", "coverage@2"], group_by="model",
                              items=ITEMS, train=TRAIN)
    counted = means.set_index(["model", "metric"])["n_users"]
    assert (counted["same", "ndcg"], counted["same", "novelty"], counted["same", "coverage"]) == (4, 3, 3)
    assert means.set_index(["model", "metric"])["n_users_without_list"]["same", "ndcg"] == 2
    notes = rankwise.check(RECOMMENDATIONS, interactions, group_by="model").set_index("problem")["message"]
    assert notes["users_only_in_recommendations"] == (
        "1 users have recommendations but no interactions (e.g. 3): the per-user means (precision, ndcg...) leave "
        "them out, having no ground truth to judge their lists by; the per-list and per-group metrics (novelty, "
        "coverage...) count their lists.")
    assert notes["users_only_in_interactions"] == (
        "2 users have interactions but no recommendations (e.g. 5): they score 0 in the per-user means (the "
        "default, users='interactions'), or are left out with users='both'; the per-list and per-group metrics "
        "have no list of theirs to count.")
