"""rankwise.evaluate on every input and output form, and the connection it is given."""

from __future__ import annotations

import math
import random
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rankwise
from rankwise.errors import InputError, InvalidArgumentError

METRICS = ["precision", "recall", "f1", "hit_rate", "map", "mrr", "ndcg", "r_precision", "entropy"]


@pytest.fixture(scope="module")
def frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two models' lists of 8 items for 40 users, graded truth for 45 users."""
    generator = random.Random(20261122)
    items = [f"item{i:03d}" for i in range(60)]
    recommendations, interactions = [], []
    for user in range(45):
        user_id = f"user{user:02d}"
        for item in generator.sample(items, generator.randint(0, 10)):
            interactions.append((user_id, item, float(generator.randint(0, 3))))
        if user < 40:
            for model in ("a", "b"):
                for rank, item in enumerate(generator.sample(items, 8), start=1):
                    recommendations.append((model, user_id, item, rank, 1.0 / rank))
    return (
        pd.DataFrame(recommendations, columns=["model", "user_id", "item_id", "rank", "score"]),
        pd.DataFrame(interactions, columns=["user_id", "item_id", "relevance"]),
    )


def _evaluate(recommendations, interactions, **kwargs) -> pd.DataFrame:
    return rankwise.evaluate(
        recommendations, interactions, METRICS, k=[3, 5], group_by="model", relevance_col="relevance", **kwargs
    )


@pytest.fixture(scope="module")
def baseline(frames) -> pd.DataFrame:
    return _evaluate(*frames)


def test_result_is_tidy_and_in_the_order_asked(frames, baseline: pd.DataFrame) -> None:
    assert list(baseline.columns) == ["model", "metric", "k", "metric_label", "value", "n_users", "n_users_without_list",
                                     "ci_low", "ci_high", "ci_clipped"]
    labels = baseline.apply(lambda row: row.metric if pd.isna(row.k) else f"{row.metric}@{row.k}", axis=1)
    assert (baseline["metric_label"] == labels).all()
    assert "r_precision" in set(baseline["metric_label"]) and "ndcg@5" in set(baseline["metric_label"])
    assert list(baseline["metric"].unique()) == METRICS
    assert baseline[baseline.metric == "r_precision"]["k"].isna().all()
    assert set(baseline[baseline.metric == "ndcg"]["k"]) == {3, 5}
    assert len(baseline) == 2 * (8 * 2 + 1)
    users_in_both = len(set(frames[0].user_id) & set(frames[1].user_id))
    assert 30 < users_in_both < 40
    truth_users = frames[1].user_id.nunique()
    assert truth_users > users_in_both
    # every user with ground truth counts; those without a list are reported
    per_user_metrics = baseline[baseline.metric != "entropy"]
    assert (per_user_metrics["n_users"] == truth_users).all()
    assert (per_user_metrics["n_users_without_list"] == truth_users - users_in_both).all()
    assert (baseline[baseline.metric == "entropy"]["n_users"] == 40).all()
    assert baseline[baseline.metric == "entropy"]["n_users_without_list"].isna().all()


def test_the_value_is_the_mean_of_the_per_user_values(frames, baseline: pd.DataFrame) -> None:
    per_user = rankwise.evaluate(*frames, ["ndcg@5", "map@3"], group_by="model", relevance_col="relevance", per_user=True)
    assert list(per_user.columns) == [
        "user_id", "model", "metric", "k", "metric_label", "value", "n_relevant", "n_recommended", "hits", "dcg", "idcg",
    ]
    means = per_user.groupby(["model", "metric", "k"])["value"].mean()
    for (model, metric, k), value in means.items():
        row = baseline[(baseline.model == model) & (baseline.metric == metric) & (baseline.k == k)]
        assert math.isclose(row["value"].item(), value, rel_tol=0, abs_tol=1e-12)
    ndcg = per_user[per_user.metric == "ndcg"]
    expected = (ndcg["dcg"] / ndcg["idcg"]).where(ndcg["idcg"] > 0, 0.0)
    assert (ndcg["value"] - expected).abs().max() < 1e-12


def _same(left: pd.DataFrame, right: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(
        left.reset_index(drop=True), right.reset_index(drop=True), check_dtype=False, rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("form", ["polars", "arrow", "arrow_reader"])
def test_every_dataframe_form_gives_the_same_numbers(frames, baseline, form: str) -> None:
    convert = {
        "polars": pl.from_pandas,
        "arrow": pa.Table.from_pandas,
        "arrow_reader": lambda frame: pa.Table.from_pandas(frame).to_reader(),
    }[form]
    _same(_evaluate(*(convert(frame) for frame in frames)), baseline)


def test_relations_and_table_names_on_a_connection(frames, baseline) -> None:
    con = duckdb.connect()
    con.from_df(frames[1]).create("truth")
    relation = con.from_df(frames[0])
    _same(_evaluate(relation, "truth", con=con), baseline)


def test_schema_qualified_table_names(frames, baseline) -> None:
    con = duckdb.connect()
    con.execute("create schema eval")
    con.from_df(frames[0]).create("eval.recs")
    con.from_df(frames[1]).create("eval.truth")
    _same(_evaluate("eval.recs", "eval.truth", con=con), baseline)


@pytest.mark.parametrize("suffix", ["parquet", "csv", "csv.gz"])
def test_files_and_globs(frames, baseline, tmp_path: Path, suffix: str) -> None:
    con = duckdb.connect()
    for name, frame in zip(("recs", "truth"), frames):
        relation = con.from_df(frame)
        for part, half in enumerate((relation.filter("user_id < 'user20'"), relation.filter("user_id >= 'user20'"))):
            target = str(tmp_path / f"{name}_{part}.{suffix}")
            half.write_parquet(target) if suffix == "parquet" else half.write_csv(target)
    _same(_evaluate(str(tmp_path / f"recs_*.{suffix}"), str(tmp_path / f"truth_*.{suffix}")), baseline)
    _same(_evaluate(tmp_path / f"recs_0.{suffix}", tmp_path / f"truth_0.{suffix}"),
          _evaluate(frames[0][frames[0].user_id < "user20"], frames[1][frames[1].user_id < "user20"]))


def test_scores_rank_like_the_explicit_ranks(frames, baseline) -> None:
    recommendations = frames[0].drop(columns="rank").sample(frac=1, random_state=3)
    _same(_evaluate(recommendations, frames[1], score_col="score"), baseline)


@pytest.mark.parametrize("output", ["arrow", "polars", "relation"])
def test_output_forms(frames, baseline, output: str) -> None:
    result = _evaluate(*frames, output=output)
    as_pandas = {
        "arrow": lambda table: table.to_pandas(),
        "polars": lambda frame: frame.to_pandas(),
        "relation": lambda relation: relation.df(),
    }[output](result)
    expected_type = {"arrow": pa.Table, "polars": pl.DataFrame, "relation": duckdb.DuckDBPyRelation}[output]
    assert isinstance(result, expected_type)
    _same(as_pandas.astype({"k": "Int32", "n_users_without_list": "Int64", "ci_clipped": "boolean"}), baseline)


def _catalog(con: duckdb.DuckDBPyConnection) -> list:
    return con.sql(
        "select 'table', database_name, schema_name, table_name from duckdb_tables() "
        "union all select 'view', database_name, schema_name, view_name from duckdb_views() where not internal "
        "union all select 'setting', name, value, '' from duckdb_settings() "
        "order by all"
    ).fetchall()


def test_a_connection_passed_in_is_left_as_found(frames) -> None:
    con = duckdb.connect()
    con.from_df(frames[1]).create("truth")
    before = _catalog(con)
    _evaluate(frames[0], "truth", con=con)
    assert _catalog(con) == before
    with pytest.raises(InputError):
        _evaluate(frames[0].rename(columns={"item_id": "item"}), "truth", con=con)
    with pytest.raises(duckdb.Error):
        _evaluate(frames[0].rename(columns={"item_id": "item"}), "truth", con=con, validate=False)
    assert _catalog(con) == before


def test_a_relation_of_another_connection_is_refused_clearly(frames) -> None:
    relation = duckdb.connect().from_df(frames[0])
    with pytest.raises(InputError, match="A DuckDB relation can only be read on its own connection: pass it as `con`"):
        _evaluate(relation, frames[1])


@pytest.mark.parametrize(
    ("recommendations", "message"),
    [
        ("missing/recs.parquet", "the recommendations file 'missing/recs.parquet' does not exist"),
        ("missing/recs_*.csv", "no file matches the recommendations pattern 'missing/recs_*.csv'"),
        ("data/recs.xlsx", "cannot tell the format of the recommendations file 'data/recs.xlsx'"),
        (42, "cannot read the recommendations (int)"),
    ],
)
def test_unreadable_inputs(frames, recommendations, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        _evaluate(recommendations, frames[1])


def test_unknown_metric_suggests_the_closest_name(frames) -> None:
    with pytest.raises(InvalidArgumentError, match="unknown metric 'ndgc@10'. Did you mean 'ndcg'?"):
        rankwise.evaluate(*frames, ["ndgc@10"])
    with pytest.raises(InvalidArgumentError, match="`output` must be one of"):
        rankwise.evaluate(*frames, ["ndcg"], output="excel")


def test_a_hostile_column_name_is_quoted_not_executed(frames) -> None:
    hostile = 'x"; drop table truth; --'
    con = duckdb.connect()
    con.from_df(frames[1].rename(columns={"relevance": hostile})).create("truth")
    result = rankwise.evaluate(frames[0], "truth", ["ndcg@5"], group_by="model", relevance_col=hostile, con=con)
    expected = rankwise.evaluate(*frames, ["ndcg@5"], group_by="model", relevance_col="relevance")
    _same(result, expected)
    assert con.sql("select count(*) from truth").fetchall()[0][0] == len(frames[1])


def test_natural_log_by_default_and_other_bases(frames) -> None:
    natural = rankwise.evaluate(*frames, ["entropy@5"], group_by="model")["value"]
    bits = rankwise.evaluate(*frames, ["entropy@5"], group_by="model", log_base=2)["value"]
    assert ((natural / math.log(2) - bits).abs() < 1e-12).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_row_order_does_not_matter_even_with_tied_scores(frames, seed: int) -> None:
    recommendations = frames[0].assign(score=(frames[0]["score"] * 4).round() / 4)  # many ties
    arguments = dict(metrics=METRICS, k=[3, 5], group_by="model", relevance_col="relevance", score_col="score")
    ordered = rankwise.evaluate(recommendations, frames[1], per_user=False, **arguments)
    shuffled = rankwise.evaluate(
        recommendations.sample(frac=1, random_state=seed), frames[1].sample(frac=1, random_state=seed), **arguments
    )
    _same(shuffled, ordered)


def test_memory_limit_and_temp_directory_let_duckdb_spill_with_the_same_numbers(frames, tmp_path: Path) -> None:
    recommendations, interactions = frames
    arguments = dict(metrics=METRICS, k=[3], group_by="model", relevance_col="relevance")
    limited = rankwise.evaluate(recommendations, interactions, memory_limit="64MB", temp_directory=str(tmp_path / "spill"), **arguments)
    pd.testing.assert_frame_equal(limited, rankwise.evaluate(recommendations, interactions, **arguments))


def test_memory_settings_are_refused_on_a_connection_rankwise_does_not_own(frames) -> None:
    con = duckdb.connect()
    before = con.execute("select current_setting('memory_limit')").fetchall()
    with pytest.raises(InvalidArgumentError, match="set them yourself"):
        rankwise.evaluate(*frames, ["ndcg@3"], con=con, memory_limit="64MB")
    assert con.execute("select current_setting('memory_limit')").fetchall() == before


def test_a_memory_limit_duckdb_refuses_is_an_invalid_argument(frames) -> None:
    with pytest.raises(InvalidArgumentError, match="^rankwise.evaluate: argument `memory_limit` 'plenty' is not accepted by DuckDB"):
        rankwise.evaluate(*frames, ["ndcg@3"], memory_limit="plenty")
    with pytest.raises(InvalidArgumentError, match="^rankwise.compare: argument `memory_limit` 'plenty' is not accepted by DuckDB"):
        rankwise.compare(*frames, ["ndcg@3"], memory_limit="plenty")


def test_a_convention_sets_the_options_an_explicit_option_overrides(frames) -> None:
    recommendations, interactions = frames
    arguments = dict(metrics=["ndcg@5", "map@5", "precision@5"], relevance_col="relevance", group_by="model")
    preset = rankwise.evaluate(recommendations, interactions, convention="rectools", **arguments)
    spelled_out = rankwise.evaluate(recommendations, interactions, **rankwise.convention_options("rectools"), **arguments)
    pd.testing.assert_frame_equal(preset, spelled_out)
    overridden = rankwise.evaluate(recommendations, interactions, convention="rectools", ap_denominator="k", **arguments)
    by_hand = rankwise.evaluate(recommendations, interactions, **{**rankwise.convention_options("rectools"), "ap_denominator": "k"}, **arguments)
    pd.testing.assert_frame_equal(overridden, by_hand)
    map_values = {(row.model, row.metric): row.value for row in overridden.itertuples()}
    preset_values = {(row.model, row.metric): row.value for row in preset.itertuples()}
    assert map_values[("a", "map")] != preset_values[("a", "map")]
    assert map_values[("a", "ndcg")] == pytest.approx(preset_values[("a", "ndcg")], rel=1e-12)


def test_r_precision_beside_k_slot_idcg(frames) -> None:
    """idcg='k_positions' has no IDCG for the whole list; r_precision, the one metric
    without a cutoff, reads none, so asking for both works and changes neither."""
    recommendations, interactions = frames
    arguments = dict(relevance_col="relevance", group_by="model")
    both = rankwise.evaluate(recommendations, interactions, ["r_precision", "ndcg@5"], convention="rectools",
                             per_user=True, **arguments)
    alone = [rankwise.evaluate(recommendations, interactions, [metric], convention="rectools", per_user=True, **arguments)
             for metric in ("r_precision", "ndcg@5")]
    keys = ["model", "user_id", "metric", "k"]
    expected = pd.concat(alone).sort_values(keys).reset_index(drop=True)
    pd.testing.assert_frame_equal(both.sort_values(keys).reset_index(drop=True), expected)
    r_precision = both[both.metric == "r_precision"]
    assert r_precision.idcg.isna().all() and r_precision.value.notna().all()
