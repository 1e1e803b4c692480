"""rankwise.explain (and `rankwise explain`) says the plan in words;
rankwise.compare_sql is the SQL rankwise.compare runs."""

from __future__ import annotations

import re

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

import rankwise
from rankwise import _plan
from rankwise.cli import main


def _stage_lines(text: str) -> list[str]:
    return re.findall(r"^\s+\d+\. (rw_[a-z_<>0-9]+):", text, re.MULTILINE)


@pytest.mark.parametrize("dialect, judged", [("duckdb", "rank_bits"), ("spark", "user_arrays"), ("clickhouse", "running_hits")])
def test_explain_lists_the_stages_in_order_and_the_strategy_of_the_engine(dialect: str, judged: str) -> None:
    text = rankwise.explain(["ndcg@10", "map@10"], dialect=dialect, relevance_col="grade")
    arguments = _plan.macro_arguments("explain", ["ndcg@10", "map@10"], None, None, False, {"relevance_col": "grade"},
                                      None)
    plan = _plan.plan_of("evaluate", arguments, adapter_type=rankwise.engines.DIALECT_ADAPTERS[dialect][0])
    ctes = [stage["cte"] for stage in plan.stages if not stage["output"]]
    assert _stage_lines(text) == ctes
    assert len(ctes) > 8
    assert f"judged components: {judged}," in text
    assert "interactions: user_id (user id), item_id (item id), grade (relevance)" in text
    assert "ndcg@10: every user of the interactions; a user without a list scores 0" in text


@pytest.mark.parametrize("dialect, ideal", [("duckdb", "top_k_gains"), ("postgres", "ranked_truth"), ("spark", "user_arrays"),
                                            ("clickhouse", "ideal_ranks")])
def test_explain_names_the_idcg_strategy_also_where_another_stage_computes_it(dialect: str, ideal: str) -> None:
    """Under ranked_truth and user_arrays no stage of its own computes IDCG, and
    the plan says how it is computed all the same; without IDCG it says none."""
    text = rankwise.explain(["ndcg@10", "map@10"], dialect=dialect, relevance_col="grade")
    assert re.findall(r"^  IDCG: ([a-z_]+),", text, re.MULTILINE) == [ideal]
    assert "IDCG:" not in rankwise.explain(["precision@10"], dialect=dialect, relevance_col="grade")


@pytest.mark.parametrize("dialect, fused", [("duckdb", False), ("spark", True), ("clickhouse", True)])
def test_explain_says_where_the_checks_run_as_the_engine_runs_them(dialect: str, fused: bool, monkeypatch) -> None:
    """Inside the metric query on the engines that fuse them, as queries of their
    own on DuckDB: seen in the queries evaluate runs there."""
    text = rankwise.explain(["ndcg@10"], dialect=dialect)
    assert ("inside the metric query itself" in text) is fused
    assert ("as queries of their own before the metric query" in text) is not fused
    if dialect == "duckdb":
        ran = []
        connection = duckdb.connect()
        original = duckdb.DuckDBPyConnection.execute
        monkeypatch.setattr(duckdb.DuckDBPyConnection, "execute",
                            lambda self, query, *args, **kwargs: ran.append(query) or original(self, query, *args, **kwargs))
        frame = pd.DataFrame({"user_id": [1, 1], "item_id": [1, 2], "rank": [1, 2]})
        rankwise.evaluate(frame, frame[["user_id", "item_id"]], ["ndcg@10"], con=connection)
        metric_query = next(number for number, query in enumerate(ran) if "rw_group_means" in query)
        assert any("duplicate" in query and "rw_group_means" not in query for query in ran[:metric_query])


def test_explain_of_a_comparison_names_its_populations_tests_and_inputs() -> None:
    text = rankwise.explain(["ndcg@5", "novelty@5"], compare=True, train="train.parquet", users="both",
                            tests=["t", "bootstrap"], baseline="prod")
    assert text.startswith("rankwise.compare of ndcg@5, novelty@5")
    assert "ndcg@5: the users with a list and interactions" in text
    assert "per list (a value per list" in text and "novelty@5" in text
    assert "train: user_id (user id), item_id (item id)" in text
    assert "the baseline 'prod' is a value of the model column" in text
    stages = _stage_lines(text)
    assert stages.index("rw_pair_populations") < stages.index("rw_bootstrap") < stages.index("rw_comparison_moments")
    assert "rw_randomization" not in stages


def test_explain_refuses_what_evaluate_refuses() -> None:
    with pytest.raises(rankwise.InvalidArgumentError, match="needs the `train` input"):
        rankwise.explain(["novelty@5"])


def test_the_command_line_explains_the_plan_without_reading_the_files(tmp_path) -> None:
    result = CliRunner().invoke(main, ["explain", str(tmp_path / "missing.parquet"), "nowhere.csv", "-m", "ndcg@10",
                                       "-m", "entropy@10", "--relevance-col", "grade"])
    assert result.exit_code == 0, result.output
    assert "per group (one value per group of the output): entropy@10" in result.output
    assert "rw_item_exposures" in result.output and "rw_ideal_lists" in result.output
    refused = CliRunner().invoke(main, ["explain", "a", "b", "-m", "ndcg", "--baseline", "x"])
    assert refused.exit_code != 0 and "--compare" in refused.output


def test_compare_sql_is_what_compare_runs() -> None:
    recommendations = pd.DataFrame({
        "user_id": [f"u{i}" for i in range(6) for _ in range(3)] * 2,
        "item_id": [f"i{(i + j) % 5}" for i in range(6) for j in range(3)] + [f"i{(2 * i + j) % 5}" for i in range(6) for j in range(3)],
        "rank": [1, 2, 3] * 12,
        "model": ["a"] * 18 + ["b"] * 18,
    })
    interactions = pd.DataFrame({"user_id": [f"u{i}" for i in range(6)], "item_id": [f"i{i % 5}" for i in range(6)]})
    con = duckdb.connect()
    con.register("recommendations_view", recommendations)
    con.register("interactions_view", interactions)
    sql = rankwise.compare_sql("recommendations_view", "interactions_view", ["ndcg@3", "precision@2"], baseline="a")
    assert max(len(line) for line in sql.splitlines()) <= 160
    from_sql = con.sql(sql).df()
    from_compare = rankwise.compare(recommendations, interactions, ["ndcg@3", "precision@2"], baseline="a")
    assert len(from_sql) == len(from_compare) == 2
    pd.testing.assert_frame_equal(from_sql, from_compare, check_dtype=False)
    spark = rankwise.compare_sql("db.recs", "db.truth", ["ndcg@3"], dialect="spark")
    assert "from db.recs" in spark and "transform(" in spark
