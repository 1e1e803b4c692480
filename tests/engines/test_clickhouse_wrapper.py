"""The Python wrapper on ClickHouse: rankwise.evaluate, compare and check given
table names of a chDB session as `con` run the macros rendered with
ClickHouse's dispatch in that session (rankwise.engines.clickhouse), with every
input check, and give what they give on DuckDB for the same data:

- the integration cases (every case of var('rankwise_test_cases')) as means and
  per user, the comparison of the integration project, evaluate's bootstrap
  interval of entropy and the beyond-accuracy metrics, every value within 1e-9
  of the DuckDB path; Nullable and LowCardinality columns alike;
- bad input: the rankwise error and message DuckDB gives (in ClickHouse's names
  of the types), raised before ClickHouse runs the metrics; check's report, row
  for row; the coverage warnings;
- the result is pandas (Arrow or polars on request), and the session's settings
  and tables are as they were.

One chDB session for the module, its data in a scratch folder: chDB opens one
data folder per process, so the session is closed at the end of the module,
before another file on this worker (test_statistics_macros.py) opens its own.
The ClickHouse dbt build runs in a process of its own."""

from __future__ import annotations

import contextlib
import re
import uuid
import warnings
from collections.abc import Iterator
from typing import Any

import chdb.session
import duckdb
import pandas as pd
import polars
import pyarrow as pa
import pytest

import rankwise
from rankwise.engines.clickhouse import ClickHouseEngine
from rankwise.errors import ColumnTypeError, InputError, InvalidArgumentError, InvalidValueError, NoOverlapError
from tests.engines import wrapper_parity
from tests.reference import comparison_seeds, make_expected, popularity_seeds
from tests.unit import test_validation

pytestmark = pytest.mark.needs_engines("clickhouse")

SEEDS = make_expected.SEEDS
CASES = make_expected.cases()


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    connection = chdb.session.Session(str(tmp_path_factory.mktemp("chdb") / "data"))
    yield connection
    connection.close()


def _load(session: Any, name: str, frame: pd.DataFrame | pa.Table, columns: str | None = None) -> None:
    """A table of the session holding the frame's rows: of the `columns`
    given, else Nullable columns of the frame's types (a pandas NaN is a
    null, as DuckDB reads it; an Arrow NaN a NaN)."""
    # chDB's Python() table function reads the local variable of that name
    rw_loaded_table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)  # noqa: F841
    if columns is None:
        session.query(f"create table {name} engine = Memory as select * from Python(rw_loaded_table)")
    else:
        session.query(f"create table {name} ({columns}) engine = Memory")
        session.query(f"insert into {name} select * from Python(rw_loaded_table)")


@contextlib.contextmanager
def _tables(session: Any, **frames: pd.DataFrame | pa.Table) -> Iterator[tuple[dict[str, str], Any]]:
    """Each frame as a table of the session and, under the same name, a view of
    a DuckDB connection (so that the inputs are named alike in messages);
    dropped on leaving."""
    names = {role: f"rw_{role}_{uuid.uuid4().hex[:8]}" for role in frames}
    on_duckdb = duckdb.connect()
    try:
        for role, frame in frames.items():
            _load(session, names[role], frame)
            on_duckdb.register(names[role], frame)
        yield names, on_duckdb
    finally:
        for name in names.values():
            session.query(f"drop table if exists {name}")
        on_duckdb.close()


def _seed(name: str) -> pd.DataFrame:
    return pd.read_csv(SEEDS / f"{name}.csv", dtype={"example_id": str, "model": str, "user_id": str, "item_id": str})


@pytest.fixture(scope="module")
def seeds(session: Any) -> dict[str, pd.DataFrame]:
    """Each input seed of the cases as pandas, and as a table of the session
    named after the seed."""
    names = sorted({case[role] for case in CASES for role in ("recommendations", "interactions")})
    frames = {name: _seed(name) for name in names}
    for name, frame in frames.items():
        _load(session, name, frame)
    return frames


def _assert_same_table(on_clickhouse: pd.DataFrame, on_duckdb: pd.DataFrame, keys: list[str]) -> None:
    wrapper_parity.assert_same_table(on_clickhouse, on_duckdb, keys, "ClickHouse")


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_integration_case_gives_on_clickhouse_what_it_gives_on_duckdb(case, seeds, session) -> None:
    """The means (with every input check, on ClickHouse) and the per-user values
    of every metric but entropy; ties of every kind and partitions included."""
    arguments = make_expected.evaluate_arguments(case)
    recommendations, interactions = case["recommendations"], case["interactions"]
    split = arguments.get("partition_by") or arguments.get("group_by")
    user_metrics = [metric for metric in case["metrics"] if metric != "entropy"]
    per_user = {**arguments, "metrics": user_metrics, "per_user": True}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rankwise.RankwiseWarning)
        means = rankwise.evaluate(recommendations, interactions, con=session, **arguments)
        _assert_same_table(means, rankwise.evaluate(seeds[recommendations], seeds[interactions], **arguments),
                           [*split, "metric", "k"])
        if user_metrics:
            # The checks ran above on these inputs: the per-user run skips them.
            on_clickhouse = rankwise.evaluate(recommendations, interactions, con=session, validate=False, **per_user)
            _assert_same_table(on_clickhouse, rankwise.evaluate(seeds[recommendations], seeds[interactions], **per_user),
                               ["user_id", *split, "metric", "k"])


def test_the_comparison_of_the_integration_project_is_the_same_on_clickhouse(session) -> None:
    """compare with the randomization test and the bootstrap: the seeded draws
    are the same on both engines, so every column is."""
    recommendations = pd.read_csv(comparison_seeds.RECOMMENDATIONS)
    interactions = pd.read_csv(comparison_seeds.INTERACTIONS)
    arguments = {"metrics": comparison_seeds.METRICS, "k": comparison_seeds.K, **comparison_seeds.ARGUMENTS}
    with _tables(session, recommendations=recommendations, interactions=interactions) as (names, _):
        on_clickhouse = rankwise.compare(names["recommendations"], names["interactions"], con=session, **arguments)
    assert isinstance(on_clickhouse, pd.DataFrame)
    expected = rankwise.compare(recommendations, interactions, **arguments)
    _assert_same_table(on_clickhouse, expected, ["example_id", "metric", "k", "model", "baseline"])
    assert rankwise.comparison_table(on_clickhouse).equals(rankwise.comparison_table(expected))


def test_list_level_metrics_compare_the_same_on_clickhouse(session) -> None:
    """compare of popularity_lift and miscalibration beside hit_rate (the two
    kinds of pairs in one query), with the resampling tests (the same draws on
    both engines), the catalog and the train interactions tables
    of the session too."""
    frames = {"recommendations": popularity_seeds._read(popularity_seeds.RECOMMENDATIONS),
              "interactions": popularity_seeds._read(popularity_seeds.INTERACTIONS),
              "items": popularity_seeds._read(popularity_seeds.ITEMS), "train": popularity_seeds.inputs()}
    arguments = {"metrics": ["popularity_lift", "miscalibration", "hit_rate"], "k": [1, 3], "baseline": "model_a",
                 "tests": ["t", "randomization", "bootstrap"], "n_resamples": 100, "seed": 3,
                 "partition_by": "example_id", "item_group_col": popularity_seeds.GROUP_COL}
    with _tables(session, **frames) as (names, _):
        on_clickhouse = rankwise.compare(names["recommendations"], names["interactions"], items=names["items"],
                                         train=names["train"], con=session, **arguments)
    expected = rankwise.compare(frames["recommendations"], frames["interactions"], items=frames["items"],
                                train=frames["train"], **arguments)
    assert set(expected["metric"]) == {"popularity_lift", "miscalibration", "hit_rate"}
    _assert_same_table(on_clickhouse, expected, ["example_id", "metric", "k", "model", "baseline"])


def test_the_bootstrap_interval_of_entropy_is_the_same_on_clickhouse(session) -> None:
    recommendations = pd.read_csv(comparison_seeds.RECOMMENDATIONS)
    interactions = pd.read_csv(comparison_seeds.INTERACTIONS)
    metrics = ["entropy@3", "entropy@10"]
    with _tables(session, recommendations=recommendations, interactions=interactions) as (names, _):
        on_clickhouse = rankwise.evaluate(names["recommendations"], names["interactions"], metrics, con=session,
                                          **comparison_seeds.ENTROPY_ARGUMENTS)
    expected = rankwise.evaluate(recommendations, interactions, metrics, **comparison_seeds.ENTROPY_ARGUMENTS)
    _assert_same_table(on_clickhouse, expected, ["example_id", "model", "metric", "k"])


def test_the_beyond_accuracy_metrics_read_the_catalog_and_train_on_clickhouse(session) -> None:
    """The default call of integration_tests/models/beyond_accuracy__actual.sql:
    the catalog (with a vector per item, an Array column) and the train
    interactions as tables of the session too, checked and read there."""
    frames = {role: _seed(f"input__beyond__{role}") for role in ("recommendations", "interactions", "train", "items")}
    vectors = frames["items"].assign(vector=frames["items"][["f1", "f2", "f3"]].values.tolist())[["item_id", "vector"]]
    arguments = {"metrics": ["coverage", "gini", "personalization", "novelty", "arp", "long_tail_share", "serendipity",
                             "intra_list_diversity"],
                 "k": [1, 3, 5], "group_by": ["model"], "partition_by": ["example_id"], "item_vector_col": "vector",
                 "head_share": 0.6}
    with _tables(session, **frames) as (names, _):
        vector_table = f"{names['items']}_vectors"
        session.query(f"create table {vector_table} engine = Memory as "
                      f"select item_id, [f1, f2, f3] as vector from {names['items']}")
        try:
            result = rankwise.evaluate(names["recommendations"], names["interactions"], items=vector_table,
                                       train=names["train"], con=session, **arguments)
        finally:
            session.query(f"drop table {vector_table}")
    expected = rankwise.evaluate(frames["recommendations"], frames["interactions"], items=vectors,
                                 train=frames["train"], **arguments)
    _assert_same_table(result, expected, ["example_id", "model", "metric", "k"])


def test_the_reference_list_and_inverse_propensity_metrics_are_the_same_on_clickhouse(session) -> None:
    """integration_tests/models/reference_overlap__actual.sql's and
    propensity__actual.sql's calls on tables of the session, checked (a
    reference that is no model, a propensity above 1) and computed there."""
    frames = {"recommendations": _seed("input__comparison__recommendations"),
              "interactions": _seed("input__comparison__interactions"),
              "lists": _seed("input__random__recommendations"),
              "weighted": _seed("input__propensity__interactions")}
    overlap = {"metrics": ["rbo", "rbo(p=0.5)", "intersection"], "k": [1, 3, 5], "partition_by": ["example_id"],
               "model_col": "model", "reference": "model_a", "relevance_col": "relevance"}
    propensity = {"metrics": ["recall", "dcg", "idcg", "ndcg"], "k": [1, 3, 5], "group_by": ["example_id"],
                  "relevance_col": "relevance", "propensity_col": "propensity", "propensity_clip": 0.2}
    with _tables(session, **frames) as (names, _):
        for without_reference in ("no_value", "zero"):
            result = rankwise.evaluate(names["recommendations"], names["interactions"], con=session,
                                       without_reference=without_reference, **overlap)
            expected = rankwise.evaluate(frames["recommendations"], frames["interactions"],
                                         without_reference=without_reference, **overlap)
            _assert_same_table(result, expected, ["example_id", "model", "metric_label"])
        with pytest.raises(InvalidArgumentError, match="the reference 'model_z' is not a value of the model column"):
            rankwise.evaluate(names["recommendations"], names["interactions"], con=session,
                              **{**overlap, "reference": "model_z"})
        result = rankwise.evaluate(names["lists"], names["weighted"], con=session, **propensity)
        _assert_same_table(result, rankwise.evaluate(frames["lists"], frames["weighted"], **propensity),
                           ["example_id", "metric", "k"])
    with _tables(session, lists=frames["lists"], weighted=frames["weighted"].assign(propensity=1.5)) as (names, _):
        with pytest.raises(InvalidValueError, match="propensities that are not numbers above 0 and at most 1"):
            rankwise.evaluate(names["lists"], names["weighted"], con=session, **propensity)


def test_columns_that_are_not_nullable_or_of_low_cardinality_give_the_same_numbers(session) -> None:
    """ClickHouse's usual columns: not Nullable (a LEFT JOIN's unmatched row
    reads NULL only under join_use_nulls, which each query sets), ids of
    LowCardinality(String), ranks UInt32."""
    recommendations = pd.DataFrame({"model": ["m"] * 5 + ["p"] * 4,
                                    "user_id": ["u1", "u1", "u1", "u2", "u2", "u1", "u1", "u3", "u3"],
                                    "item_id": ["a", "b", "c", "a", "d", "b", "a", "e", "a"],
                                    "rank": [1, 2, 3, 1, 2, 1, 2, 1, 2]})
    interactions = test_validation._interactions(user_id=["u1", "u1", "u4"])
    train = pd.DataFrame({"user_id": ["t1", "t1", "t2"], "item_id": ["a", "b", "a"]})
    items = pd.DataFrame({"item_id": list("abcdef")})
    columns = {"recommendations": "model String, user_id LowCardinality(String), item_id LowCardinality(String), "
                                  "rank UInt32",
               "interactions": "user_id String, item_id String, relevance Float64",
               "train": "user_id String, item_id FixedString(1)",
               "items": "item_id String"}
    frames = {"recommendations": recommendations, "interactions": interactions, "train": train, "items": items}
    names = {role: f"rw_plain_{role}_{uuid.uuid4().hex[:8]}" for role in frames}
    try:
        for role, frame in frames.items():
            _load(session, names[role], frame, columns[role])
        arguments = {"metrics": ["ndcg@2", "map", "mrr", "novelty@2", "serendipity@2"], "group_by": "model",
                     "relevance_col": "relevance"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rankwise.RankwiseWarning)
            result = rankwise.evaluate(names["recommendations"], names["interactions"], train=names["train"],
                                       items=names["items"], con=session, **arguments)
            expected = rankwise.evaluate(recommendations, interactions, train=train, items=items, **arguments)
        _assert_same_table(result, expected, ["model", "metric", "k"])
        with pytest.raises(ColumnTypeError, match=rf"the rank column 'item_id' of the recommendations table "
                                                  rf"'{names['recommendations']}' is of type LowCardinality\(String\); "
                                                  "it must be numeric"):
            rankwise.evaluate(names["recommendations"], names["interactions"], ["ndcg"], con=session,
                              rank_col="item_id")
    finally:
        for name in names.values():
            session.query(f"drop table {name}")


# The result, the inputs and the session.

def _session_state(session: Any) -> tuple[list, list]:
    """The settings the session has changed from the defaults, and every table
    of every database but the system's (temporary ones included)."""
    settings = session.query("select name, value from system.settings where changed order by name", "ArrowTable")
    tables = session.query("select database, name, is_temporary from system.tables "
                           "where database not in ('system', 'INFORMATION_SCHEMA', 'information_schema') "
                           "order by database, name", "ArrowTable")
    return settings.to_pylist(), tables.to_pylist()


def test_the_session_is_left_as_it_was(session) -> None:
    """A setting the caller changed stays changed, none rankwise needs is set on
    the session (each query sets them for itself), and no table is left, after
    evaluate (means and per user), compare and check."""
    session.query("set join_use_nulls = 0")
    recommendations = pd.concat([test_validation._recommendations().assign(model=model) for model in ("m", "p")])
    with _tables(session, recommendations=recommendations, interactions=test_validation._interactions()) as (names, _):
        before = _session_state(session)
        assert {"name": "join_use_nulls", "value": "0"} in before[0]
        inputs = (names["recommendations"], names["interactions"])
        means = test_validation._evaluate(*inputs, con=session, group_by="model")
        test_validation._evaluate(*inputs, con=session, group_by="model", per_user=True)
        rankwise.compare(*inputs, ["ndcg@2"], model_col="model", con=session)
        rankwise.check(*inputs, con=session)
        assert _session_state(session) == before
    expected = test_validation._evaluate(recommendations, test_validation._interactions(), group_by="model")
    _assert_same_table(means, expected, ["model", "metric", "k"])


def test_output_asks_for_arrow_or_polars_and_refuses_duckdbs_relation(session) -> None:
    expected = test_validation._evaluate(test_validation._recommendations(), test_validation._interactions())
    with _tables(session, recommendations=test_validation._recommendations(),
                 interactions=test_validation._interactions()) as (names, _):
        inputs = (names["recommendations"], names["interactions"])
        result = test_validation._evaluate(*inputs, con=session, output="arrow")
        assert isinstance(result, pa.Table)
        _assert_same_table(result.to_pandas(), expected, ["metric", "k"])
        result = test_validation._evaluate(*inputs, con=session, output="polars")
        assert isinstance(result, polars.DataFrame)
        _assert_same_table(result.to_pandas(), expected, ["metric", "k"])
        per_user = test_validation._evaluate(*inputs, con=session, output="polars", per_user=True)
        assert isinstance(per_user, polars.DataFrame) and sorted(set(per_user["user_id"])) == ["u1", "u2"]
        with pytest.raises(InvalidArgumentError, match=r"`output` must be one of 'pandas', 'arrow', 'polars' on "
                                                       r"ClickHouse .*; got 'relation'"):
            test_validation._evaluate(*inputs, con=session, output="relation")


def test_table_names_are_read_in_the_session_and_quoted(session) -> None:
    """A table of another database (`db.table`); a missing table, and a name
    that tries to end the query, named as missing tables."""
    session.query("create database if not exists rw_test_database")
    try:
        _load(session, "rw_test_database.truth", test_validation._interactions())
        with _tables(session, recommendations=test_validation._recommendations()) as (names, _):
            result = test_validation._evaluate(names["recommendations"], "rw_test_database.truth", con=session)
            with pytest.raises(InputError, match=r"the interactions table 'rw_test_database.nowhere' does not exist "
                                                 r"in the chDB session given as `con`"):
                test_validation._evaluate(names["recommendations"], "rw_test_database.nowhere", con=session)
            hostile = 'truth"; drop table rw_test_database.truth; --'
            with pytest.raises(InputError, match=r"the interactions table 'truth\"; drop table .*' does not exist"):
                test_validation._evaluate(names["recommendations"], hostile, con=session)
        assert session.query("select count() from rw_test_database.truth", "ArrowTable").column(0).to_pylist() == [3]
    finally:
        session.query("drop database rw_test_database")
    expected = test_validation._evaluate(test_validation._recommendations(), test_validation._interactions())
    _assert_same_table(result, expected, ["metric", "k"])


def test_a_query_past_clickhouses_default_size_runs(session) -> None:
    """compare's query of every metric and test is some 230 kB, near ClickHouse's
    default max_query_size (256 KiB): each query raises it for itself."""
    values = ", ".join(str(value) for value in range(60_000))
    query = f"select count() as n from numbers(10) where number in ({values})"
    assert len(query) > 256 * 1024
    assert ClickHouseEngine(session, "pandas").rows(query) == [(10,)]


def test_inputs_of_two_engines_duckdbs_settings_and_file_paths_are_refused(session) -> None:
    with pytest.raises(InvalidArgumentError, match=r"rankwise.evaluate: `con` is a chDB session but the interactions "
                                                   r"is a pandas DataFrame: the inputs of one evaluation must live in "
                                                   r"one engine"):
        test_validation._evaluate("recs", test_validation._interactions(), con=session)
    with pytest.raises(InvalidArgumentError, match=r"`memory_limit` is a setting of rankwise's own DuckDB "
                                                   r"connection; on ClickHouse, the session's own settings apply"):
        test_validation._evaluate("recs", "truth", con=session, memory_limit="1GB")
    with pytest.raises(InputError, match=r"the interactions 'truth.parquet' looks like a file path, and on "
                                         r"ClickHouse a string names a table of the session"):
        rankwise.compare("recs", "truth.parquet", ["ndcg"], con=session)


# Bad input: the message DuckDB gives.

# DuckDB's names of the types of the test frames, and ClickHouse's of the
# Nullable columns they load into
_CLICKHOUSE_NAMES = {"VARCHAR": "Nullable(String)", "BIGINT": "Nullable(Int64)", "DOUBLE": "Nullable(Float64)"}


def _in_clickhouse_names(message: str) -> str:
    return re.sub(r"\b(VARCHAR|BIGINT|DOUBLE)\b", lambda match: _CLICKHOUSE_NAMES[match.group(1)], message)


def _error(call: Any) -> Exception:
    with pytest.raises(rankwise.RankwiseError) as raised:
        call()
    return raised.value


@pytest.mark.parametrize("case", test_validation.CASES, ids=[case[0] for case in test_validation.CASES])
def test_bad_input_gets_the_message_it_gets_on_duckdb(case, session) -> None:
    """Every case of tests/unit/test_validation.py, the same data as tables of
    the session (and of a DuckDB connection, under the same names): the same
    error class, table, column and message."""
    _, recommendations, interactions, options, kind, _, _ = case
    with _tables(session, recommendations=recommendations, interactions=interactions) as (names, on_duckdb):
        inputs = (names["recommendations"], names["interactions"])
        expected = _error(lambda: test_validation._evaluate(*inputs, con=on_duckdb, **options))
        got = _error(lambda: test_validation._evaluate(*inputs, con=session, **options))
    assert type(expected) is type(got) is kind
    assert str(got) == _in_clickhouse_names(str(expected))
    assert (got.table, got.column) == (expected.table, expected.column)


def test_ids_that_never_meet_get_the_message_they_get_on_duckdb(session) -> None:
    """No common item, found after the means (which show no hit); no common
    user within a partition, found before the per-user values."""
    recommendations = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 20], "rank": [1, 1]})
    interactions = pd.DataFrame({"user_id": [1, 2], "item_id": [1010, 1020]})
    for arguments in ({}, {"per_user": True, "partition_by": "week"}):
        week = {"week": [1, 2]} if "partition_by" in arguments else {}
        recs, truth = recommendations.assign(**week), interactions.assign(**{k: v[::-1] for k, v in week.items()})
        with _tables(session, recommendations=recs, interactions=truth) as (names, on_duckdb):
            inputs = (names["recommendations"], names["interactions"])
            expected = _error(lambda: rankwise.evaluate(*inputs, ["ndcg"], con=on_duckdb, **arguments))
            got = _error(lambda: rankwise.evaluate(*inputs, ["ndcg"], con=session, **arguments))
        assert type(got) is type(expected) is NoOverlapError
        assert str(got) == _in_clickhouse_names(str(expected))


def test_a_missing_model_column_and_an_empty_comparison_are_named_as_on_duckdb(session) -> None:
    recommendations, interactions = test_validation._recommendations(), test_validation._interactions()
    kinds = []
    for frame, arguments in ((recommendations, {}), (recommendations.assign(model="a"), {}),
                             (recommendations.assign(model="a"), {"baseline": "b"})):
        with _tables(session, recommendations=frame, interactions=interactions) as (names, on_duckdb):
            inputs = (names["recommendations"], names["interactions"])
            expected = _error(lambda: rankwise.compare(*inputs, ["ndcg"], con=on_duckdb, **arguments))
            got = _error(lambda: rankwise.compare(*inputs, ["ndcg"], con=session, **arguments))
        assert type(got) is type(expected)
        assert str(got) == _in_clickhouse_names(str(expected))
        kinds.append(type(got).__name__)
    assert kinds == ["MissingColumnError", "InvalidArgumentError", "InvalidArgumentError"]


def test_a_catalog_without_a_recommended_item_gets_the_message_it_gets_on_duckdb(session) -> None:
    with _tables(session, recommendations=test_validation._recommendations(),
                 interactions=test_validation._interactions(),
                 items=pd.DataFrame({"item_id": ["a", "b", "c"]})) as (names, on_duckdb):
        inputs = (names["recommendations"], names["interactions"])
        expected = _error(lambda: rankwise.evaluate(*inputs, ["coverage@2"], items=names["items"], con=on_duckdb))
        got = _error(lambda: rankwise.evaluate(*inputs, ["coverage@2"], items=names["items"], con=session))
    assert type(got) is type(expected) and got.problem == "item_not_in_catalog"
    assert str(got) == _in_clickhouse_names(str(expected))


def _report_rows(report: pd.DataFrame) -> list[list[Any]]:
    """The rows of a check report, sorted: the queries of the problems and the
    notes order no rows, and ClickHouse runs the branches of their UNION ALL
    side by side."""
    return sorted(report.astype(object).where(report.notna(), None).values.tolist(), key=str)


def test_check_reports_on_clickhouse_what_it_reports_on_duckdb(session) -> None:
    """Errors, notes with their counts and examples, users in one table only,
    short lists, tied scores, an unread relevance-like column, a missing
    column."""
    messy = test_validation._recommendations(item_id=["a", "a", "c", "a", "d"], rank=[1, 2, 2, 0, 1])
    truth = test_validation._interactions(user_id=["u1", "u1", "u9"])
    tied = test_validation._recommendations(score=[0.9, 0.5, 0.5, 0.3, 0.3])
    problems = set()
    for recommendations, interactions, options in (
            (messy, truth, {"relevance_col": "relevance", "k": 5}),
            (tied, truth.rename(columns={"relevance": "rating"}), {"score_col": "score", "k": 2}),
            (test_validation._recommendations(), test_validation._interactions().rename(columns={"user_id": "user"}),
             {})):
        with _tables(session, recommendations=recommendations, interactions=interactions) as (names, on_duckdb):
            inputs = (names["recommendations"], names["interactions"])
            expected = rankwise.check(*inputs, con=on_duckdb, **options)
            got = rankwise.check(*inputs, con=session, **options)
        assert not expected.empty
        assert list(got.columns) == list(expected.columns)
        expected = expected.assign(message=expected["message"].map(_in_clickhouse_names))
        assert _report_rows(got) == _report_rows(expected)
        problems |= set(got["problem"])
    assert {"duplicate_item", "tied_scores", "missing_column"} <= problems


def test_the_coverage_warnings_are_the_ones_duckdb_gives(session) -> None:
    with _tables(session, recommendations=wrapper_parity.recommendations(),
                 interactions=wrapper_parity.interactions()) as (names, on_duckdb):
        inputs = (names["recommendations"], names["interactions"])
        for arguments in wrapper_parity.ARGUMENTS:
            expected = wrapper_parity.caught(*inputs, con=on_duckdb, **arguments)
            assert len(expected) >= 2
            assert wrapper_parity.caught(*inputs, con=session, **arguments) == expected


def test_the_rows_dropped_before_ranking_are_the_same_on_clickhouse(session) -> None:
    """judged_only, ignore_identical_ids and duplicate_recommendations='first'
    (a LEFT JOIN whose unmatched rows ClickHouse fills with 0 without
    join_use_nulls, and windows over the rows dropped), by score and by rank."""
    from tests.crosscheck.test_retrieval_conventions import beir_case

    run, qrels = beir_case(2)
    run = pd.concat([run, run.head(3).assign(score=lambda frame: frame["score"] - 1000)], ignore_index=True)
    ranked = run.assign(rank=run.groupby("user_id")["score"].rank(ascending=False, method="first").astype(int))
    metrics = ["beir", "judged@5", "R_cap@10", "map"]
    for frame, options in ((run, dict(score_col="score", convention="beir")),
                           (ranked.drop(columns="score"), dict(ignore_identical_ids=True))):
        options |= dict(relevance_col="relevance", confidence=None, judged_only=True, duplicate_recommendations="first")
        with _tables(session, recommendations=frame, interactions=qrels) as (names, on_duckdb):
            with pytest.warns(rankwise.RankwiseWarning, match="unjudged item"):
                on_clickhouse = rankwise.evaluate(names["recommendations"], names["interactions"], metrics, con=session,
                                                  **options)
            with pytest.warns(rankwise.RankwiseWarning, match="unjudged item"):
                on_duckdb_ = rankwise.evaluate(names["recommendations"], names["interactions"], metrics, con=on_duckdb,
                                               **options)
        assert len(on_clickhouse) == len(on_duckdb_) > 20
        _assert_same_table(on_clickhouse, on_duckdb_, ["metric", "k"])
