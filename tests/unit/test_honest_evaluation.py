"""The ordinary uses that gave a wrong or empty answer with nothing said: a model
scored on fewer users, ids that never meet, truth that cannot be split by fold or
week, a relevance column left unread. Each now gives the right number, a
RankwiseError or a RankwiseWarning."""

from __future__ import annotations

import warnings

import numpy as np
import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise.cli import main
from rankwise.errors import ColumnTypeError, DuplicateRowsError, InvalidArgumentError, MissingColumnError, NoOverlapError


def _evaluate_quietly(*args, **kwargs) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rankwise.RankwiseWarning)
        return rankwise.evaluate(*args, **kwargs)


def _warnings_of(*args, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rankwise.evaluate(*args, **kwargs)
    return [str(warning.message) for warning in caught if issubclass(warning.category, rankwise.RankwiseWarning)]


def _two_models() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Model `easy` has a list only for u1, whose one relevant item it ranks first;
    model `full` lists for all three truth users and finds u1's item only."""
    recommendations = pd.DataFrame({
        "model": ["easy"] * 2 + ["full"] * 6,
        "user_id": ["u1", "u1", "u1", "u1", "u2", "u2", "u3", "u3"],
        "item_id": ["a", "b", "a", "b", "c", "d", "e", "f"],
        "rank": [1, 2, 1, 2, 1, 2, 1, 2],
    })
    interactions = pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "x", "y"]})
    return recommendations, interactions


# 1. The default population: every user with ground truth.

def test_a_model_no_longer_wins_by_recommending_to_fewer_users() -> None:
    result = _evaluate_quietly(*_two_models(), ["ndcg@2"], group_by="model").set_index("model")
    # u1's NDCG is 1, u2's and u3's 0; `easy` has no list for u2 and u3: 0 too
    assert result.loc["easy", "value"] == pytest.approx(1 / 3, abs=1e-15)
    assert result.loc["full", "value"] == pytest.approx(1 / 3, abs=1e-15)
    assert list(result["n_users"]) == [3, 3]
    assert list(result["n_users_without_list"]) == [2, 0]


def test_plain_trec_eval_keeps_the_users_of_both_tables() -> None:
    result = _evaluate_quietly(*_two_models(), ["ndcg@2"], group_by="model", convention="trec_eval").set_index("model")
    assert result.loc["easy", "value"] == pytest.approx(1.0, abs=1e-15)
    assert list(result["n_users"]) == [1, 3]
    assert list(result["n_users_without_list"]) == [2, 0]


def test_the_default_convention_is_trec_eval_with_every_truth_user() -> None:
    rankwise_default = rankwise.convention_options()
    assert rankwise_default == {**rankwise.convention_options("trec_eval"), "users": "interactions"}


# 2. Coverage is visible.

def test_a_group_with_lists_for_few_truth_users_is_warned_of() -> None:
    found = _warnings_of(*_two_models(), ["ndcg@2"], group_by="model")
    assert found == ["rankwise: model easy has lists for 1 of the 3 users with ground truth; the others score 0 in its means."]


def test_groups_scored_on_different_users_are_warned_of() -> None:
    found = _warnings_of(*_two_models(), ["ndcg@2", "precision"], group_by="model", users="both")
    assert found == [
        "rankwise: the groups are scored on different users: a mean is over 1 users in one group and 3 in another "
        "(users='both' leaves out different users per group). Compare groups on one population: "
        "users='interactions', the default.",
        "rankwise: model easy has lists for 1 of the 3 users with ground truth; its means leave the others out, "
        "so they describe few of the users.",
    ]


def test_full_coverage_gives_no_warning() -> None:
    recommendations, interactions = _two_models()
    full = recommendations[recommendations.model == "full"]
    assert _warnings_of(full, interactions, ["ndcg@2", "entropy@2"], group_by="model") == []


def test_the_cli_prints_a_warning_line_on_stderr(tmp_path) -> None:
    recommendations, interactions = _two_models()
    recommendations.to_csv(tmp_path / "recs.csv", index=False)
    interactions.to_csv(tmp_path / "truth.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "ndcg@2", "--group-by", "model"])
    assert result.exit_code == 0, result.output
    assert "warning: rankwise: model easy has lists for 1 of the 3 users with ground truth" in result.stderr
    assert "warning" not in result.stdout


# 3. No overlap is an error.

def _case_mismatch() -> tuple[pd.DataFrame, pd.DataFrame]:
    return (pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["a", "b"], "rank": [1, 1]}),
            pd.DataFrame({"user_id": ["U1", "U2"], "item_id": ["a", "b"]}))


def test_no_common_user_is_an_error_naming_both_sides() -> None:
    with pytest.raises(NoOverlapError) as raised:
        rankwise.evaluate(*_case_mismatch(), ["ndcg"])
    message = str(raised.value)
    assert "no user id of the recommendations (DataFrame) occurs in the interactions (DataFrame)" in message
    assert "(e.g. 'u1')" in message and "(e.g. 'U1')" in message and "VARCHAR" in message
    assert "the same case, type and prefix" in message
    assert raised.value.problem == "no_common_users"


def test_no_common_item_is_an_error() -> None:
    recommendations = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 20], "rank": [1, 1]})
    interactions = pd.DataFrame({"user_id": [1, 2], "item_id": [1010, 1020]})
    with pytest.raises(NoOverlapError, match=r"no item id .* holds 2 ids of type BIGINT .*\(e.g. '10'\)"):
        rankwise.evaluate(recommendations, interactions, ["ndcg"])


def test_users_shared_only_across_partitions_are_no_overlap() -> None:
    """The quick test of shared ids (macro _ids_shared) matches users within a
    partition, as the exact count does: u1 of week 1's lists has truth in week 2 only."""
    recommendations = pd.DataFrame({"week": [1], "user_id": ["u1"], "item_id": ["a"], "rank": [1]})
    interactions = pd.DataFrame({"week": [2], "user_id": ["u1"], "item_id": ["a"]})
    with pytest.raises(NoOverlapError, match=r"no user id .* within the same week"):
        rankwise.evaluate(recommendations, interactions, ["ndcg"], partition_by="week")


def _counting_overlap_checks(monkeypatch) -> list[int]:
    from rankwise import _checks

    calls = []
    checked = _checks.overlap_errors

    def counted(*args, **kwargs):
        calls.append(1)
        return checked(*args, **kwargs)

    monkeypatch.setattr(_checks, "overlap_errors", counted)
    return calls


def test_means_that_show_a_hit_spare_the_overlap_check(monkeypatch) -> None:
    """A mean above 0 of a metric counted over the judged rows proves that the
    tables share a user and an item, so the check's scan of both is not run;
    means that show no hit (entropy alone, or all zero) still run it."""
    calls = _counting_overlap_checks(monkeypatch)
    recommendations = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10], "rank": [1, 2, 1]})
    interactions = pd.DataFrame({"user_id": [1, 2], "item_id": [11, 12]})
    assert _evaluate_quietly(recommendations, interactions, ["precision@2"]).value.tolist() == [0.25]
    assert calls == []
    _evaluate_quietly(recommendations, interactions, ["precision@1", "entropy@2"])
    _evaluate_quietly(recommendations, interactions, ["entropy@2"])
    assert calls == [1, 1]
    _evaluate_quietly(recommendations, interactions, ["precision@2"], per_user=True)
    assert calls == [1, 1, 1]


def test_every_metric_named_as_shown_by_a_hit_is_zero_without_one() -> None:
    """The claim behind sparing the overlap check: with users and items shared
    but no recommended item relevant, every such metric's mean is 0 (idcg,
    read off the truth alone, is not one of them)."""
    from rankwise._render import renderer

    names = renderer().call("_metrics_shown_by_a_hit")
    assert "idcg" not in names and {"precision", "ndcg", "map", "mrr", "r_precision"} <= set(names)
    recommendations = pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": [10, 11, 10, 12], "rank": [1, 2, 1, 2]})
    interactions = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [12, 10, 11], "relevance": [2, 0, 1]})
    means = _evaluate_quietly(recommendations, interactions, names, relevance_col="relevance", gain="exponential")
    assert set(means.metric) == set(names)
    assert means.value.tolist() == [0.0] * len(means)


@pytest.mark.parametrize(("truth_users", "truth_items", "expected"), [
    (["u1", "x"], ["x", "b"], (True, True)),
    (["x", "y"], ["a", "b"], (False, True)),
    (["u2", "y"], ["x", "y"], (True, False)),
    ([None, None], [None, None], (False, False)),
])
def test_the_quick_test_of_shared_ids(truth_users, truth_items, expected) -> None:
    from rankwise._render import renderer

    con = duckdb.connect()
    con.register("recs", pd.DataFrame({"user_id": ["u1", "u2", None], "item_id": ["a", None, "b"]}))
    con.register("truth", pd.DataFrame({"user_id": truth_users, "item_id": truth_items}))
    query = renderer().call("_ids_shared", "recs", "truth", "user_id", "item_id", [])
    assert con.sql(query).fetchall() == [expected]


def test_check_reports_no_overlap_as_an_error_and_the_cli_exits_1(tmp_path) -> None:
    report = rankwise.check(*_case_mismatch())
    errors = report[report.severity == "error"]
    assert list(errors.problem) == ["no_common_users"]
    recommendations, interactions = _case_mismatch()
    recommendations.to_csv(tmp_path / "recs.csv", index=False)
    interactions.to_csv(tmp_path / "truth.csv", index=False)
    for command in (["check"], ["evaluate", "-m", "ndcg"]):
        result = CliRunner().invoke(main, [command[0], str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"), *command[1:]])
        assert result.exit_code == 1
        assert "no user id of the recommendations file" in result.output
        assert "Traceback" not in result.output


# 4. Folds and time windows.

def _weeks() -> tuple[pd.DataFrame, pd.DataFrame]:
    """u1 clicked item a in week 1 and item c in week 2; week 2's list starts
    with a, which was relevant in week 1 only."""
    recommendations = pd.DataFrame({"week": [1, 1, 2, 2], "user_id": ["u1"] * 4, "item_id": ["a", "b", "a", "c"],
                                    "rank": [1, 2, 1, 2]})
    interactions = pd.DataFrame({"week": [1, 2], "user_id": ["u1", "u1"], "item_id": ["a", "c"]})
    return recommendations, interactions


def test_each_partition_is_judged_against_its_own_truth() -> None:
    result = _evaluate_quietly(*_weeks(), ["precision@1", "mrr"], partition_by="week")
    values = result.set_index(["week", "metric"])["value"]
    assert values[(1, "precision")] == 1.0
    assert values[(2, "precision")] == 0.0  # a was relevant in week 1, not in week 2
    assert values[(2, "mrr")] == 0.5
    assert list(result.columns[:2]) == ["week", "metric"]


def test_partitions_combine_with_groups_and_per_user_rows() -> None:
    recommendations, interactions = _weeks()
    both_models = pd.concat([recommendations.assign(model="m1"), recommendations.assign(model="m2")])
    result = _evaluate_quietly(both_models, interactions, ["precision@1"], partition_by="week", group_by="model")
    assert list(result.columns[:2]) == ["week", "model"]
    assert list(result["value"]) == [1.0, 1.0, 0.0, 0.0]
    per_user = _evaluate_quietly(both_models, interactions, ["precision@1"], partition_by=["week"], group_by="model",
                                 per_user=True)
    assert list(per_user["value"]) == [1.0, 1.0, 0.0, 0.0]
    assert list(per_user["week"]) == [1, 1, 2, 2]


def test_a_partition_with_truth_users_without_lists_counts_them_in_that_partition_only() -> None:
    recommendations, interactions = _weeks()
    interactions = pd.concat([interactions, pd.DataFrame({"week": [2], "user_id": ["u2"], "item_id": ["z"]})])
    result = _evaluate_quietly(recommendations, interactions, ["precision@1"], partition_by="week").set_index("week")
    assert list(result["n_users"]) == [1, 2]
    assert list(result["n_users_without_list"]) == [0, 1]
    assert result.loc[2, "value"] == 0.0


def test_partitioned_results_equal_each_partition_evaluated_alone() -> None:
    rng = np.random.default_rng(7)
    rows = [(fold, f"u{user}", f"i{item}", rank + 1)
            for fold in range(3) for user in range(12)
            for rank, item in enumerate(rng.choice(30, size=6, replace=False))]
    recommendations = pd.DataFrame(rows, columns=["fold", "user_id", "item_id", "rank"])
    truth_rows = [(fold, f"u{user}", f"i{item}", float(rng.integers(0, 4)))
                  for fold in range(3) for user in range(14)
                  for item in rng.choice(30, size=5, replace=False)]
    interactions = pd.DataFrame(truth_rows, columns=["fold", "user_id", "item_id", "relevance"])
    metrics = ["precision@3", "recall@5", "map", "mrr", "ndcg@5", "idcg@3", "r_precision", "map_to_full_recall@4"]
    together = _evaluate_quietly(recommendations, interactions, metrics, partition_by="fold", relevance_col="relevance")
    for fold in range(3):
        alone = _evaluate_quietly(recommendations[recommendations.fold == fold].drop(columns="fold"),
                                  interactions[interactions.fold == fold].drop(columns="fold"), metrics,
                                  relevance_col="relevance")
        mine = together[together.fold == fold].drop(columns="fold").reset_index(drop=True)
        # the same numbers, up to the order in which the engine adds the users up
        pd.testing.assert_frame_equal(mine, alone, check_exact=False, rtol=0, atol=1e-12)


def test_the_same_pair_in_two_partitions_is_no_duplicate_but_twice_in_one_is() -> None:
    recommendations, interactions = _weeks()
    twice = pd.DataFrame({"week": [1, 2], "user_id": ["u1", "u1"], "item_id": ["a", "a"]})
    _evaluate_quietly(recommendations, twice, ["precision@1"], partition_by="week")
    with pytest.raises(DuplicateRowsError, match="pairs listed twice"):
        _evaluate_quietly(recommendations, pd.concat([twice, twice]), ["precision@1"], partition_by="week")


def test_a_partition_column_must_be_in_both_tables_with_one_type() -> None:
    recommendations, interactions = _weeks()
    with pytest.raises(MissingColumnError, match="column 'week' \\(the partition_by column\\) is not in the interactions"):
        rankwise.evaluate(recommendations, interactions.drop(columns="week"), ["ndcg"], partition_by="week")
    with pytest.raises(ColumnTypeError, match="partition_by column 'week' is BIGINT .* but VARCHAR"):
        rankwise.evaluate(recommendations, interactions.astype({"week": str}), ["ndcg"], partition_by="week")


def test_a_column_in_both_partition_by_and_group_by_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="in both `partition_by` and `group_by`"):
        rankwise.sql("recs", "truth", ["ndcg"], partition_by="week", group_by=["model", "week"])


def test_the_cli_takes_partition_by(tmp_path) -> None:
    recommendations, interactions = _weeks()
    recommendations.to_csv(tmp_path / "recs.csv", index=False)
    interactions.to_csv(tmp_path / "truth.csv", index=False)
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"),
                                       "-m", "precision@1", "--partition-by", "week", "-o", str(tmp_path / "out.csv")])
    assert result.exit_code == 0, result.output
    written = pd.read_csv(tmp_path / "out.csv")
    assert list(written["value"]) == [1.0, 0.0]


# 5. A relevance column left unread.

def test_an_unnamed_relevance_column_is_warned_of_and_noted() -> None:
    recommendations = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "rank": [1, 2]})
    interactions = pd.DataFrame({"user_id": ["u1"] * 3, "item_id": ["a", "b", "c"], "relevance": [1, -2, 1]})
    found = _warnings_of(recommendations, interactions, ["precision@2"])
    assert found == ["rankwise: the interactions (DataFrame) have a column 'relevance' that looks like a relevance, "
                     "but relevance_col is not given, so every interaction counts as relevant (relevance 1) and "
                     "'relevance' is not read or checked. Pass relevance_col='relevance' to use it."]
    report = rankwise.check(recommendations, interactions)
    assert list(report.problem) == ["relevance_column_not_read"]
    # named, it is read and its negative value refused
    with pytest.raises(rankwise.InvalidValueError, match="negative relevances"):
        rankwise.evaluate(recommendations, interactions, ["precision@2"], relevance_col="relevance")


@pytest.mark.parametrize("column", ["user_rating", "Score", "grade"])
def test_relevance_like_names_are_recognised(column: str) -> None:
    recommendations = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"], "rank": [1]})
    interactions = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"], column: [3]})
    assert len(_warnings_of(recommendations, interactions, ["precision@1"])) == 1


@pytest.mark.parametrize("extra", [{"timestamp": [5]}, {"rating": ["good"]}])
def test_other_columns_give_no_relevance_warning(extra) -> None:
    recommendations = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"], "rank": [1]})
    interactions = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"], **extra})
    assert _warnings_of(recommendations, interactions, ["precision@1"]) == []
