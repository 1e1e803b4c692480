"""The answers evaluate and compare read without a query of their own (issue
#49, the fixed price of a call): whether an input is empty, told by a
DataFrame's or an Arrow table's length; whether the means show a hit, read off
the DataFrame they are returned as; a result registered on the connection only
when SQL reads it. Each still gives the error or the warning of the query it
replaces, on every path: told without a query and asked with one."""

from __future__ import annotations

import warnings

import duckdb
import pandas as pd
import pyarrow as pa
import pytest

import rankwise
from rankwise.errors import EmptyInputError, NoOverlapError

RECOMMENDATIONS = pd.DataFrame({"user_id": ["u1", "u1", "u2", "u2"], "item_id": ["a", "b", "a", "c"],
                                "rank": [1, 2, 1, 2]})
INTERACTIONS = pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "c", "d"]})


def _warnings_of(*args, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rankwise.evaluate(*args, **kwargs)
    return [str(warning.message) for warning in caught if issubclass(warning.category, rankwise.RankwiseWarning)]


def _as(kind: str, frame: pd.DataFrame, con: duckdb.DuckDBPyConnection, name: str):
    """The frame as an input of `kind`: one whose length is its rows, or one
    that DuckDB must be asked about."""
    if kind == "pandas":
        return frame
    if kind == "arrow":
        return pa.Table.from_pandas(frame, preserve_index=False)
    if kind == "polars":
        polars = pytest.importorskip("polars")
        return polars.from_pandas(frame)
    con.register(f"{name}_frame", frame)
    con.execute(f"create table {name} as select * from {name}_frame")
    if kind == "relation":
        return con.sql(f"select * from {name}")
    return name


@pytest.mark.parametrize("kind", ["pandas", "arrow", "polars", "relation", "table"])
@pytest.mark.parametrize("empty", ["recommendations", "interactions"])
def test_an_empty_input_is_named_whether_its_rows_are_known_or_asked(kind, empty) -> None:
    con = duckdb.connect()
    frames = {"recommendations": RECOMMENDATIONS.assign(model=["a", "a", "b", "b"]), "interactions": INTERACTIONS}
    frames[empty] = frames[empty].head(0)
    inputs = {role: _as(kind, frame, con, role) for role, frame in frames.items()}
    with pytest.raises(EmptyInputError, match=f"the {empty} .* is empty"):
        rankwise.evaluate(inputs["recommendations"], inputs["interactions"], ["ndcg@2"], con=con)
    with pytest.raises(EmptyInputError, match=f"the {empty} .* is empty"):
        rankwise.compare(inputs["recommendations"], inputs["interactions"], ["ndcg@2"], con=con)


@pytest.mark.parametrize("output", ["pandas", "arrow", "polars", "relation"])
def test_no_shared_item_is_refused_after_means_that_show_no_hit(output) -> None:
    if output == "polars":
        pytest.importorskip("polars")
    interactions = INTERACTIONS.assign(item_id=["x", "y", "z"])
    with pytest.raises(NoOverlapError, match="no item id of the recommendations"):
        rankwise.evaluate(RECOMMENDATIONS, interactions, ["ndcg@2", "precision@2"], output=output)


def test_shared_ids_without_a_hit_give_means_of_zero() -> None:
    # u1 and item a in both tables, but a is u2's truth and in u1's list
    interactions = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["c", "b"]})
    result = rankwise.evaluate(RECOMMENDATIONS, interactions, ["ndcg@2", "precision@2"])
    assert list(result["value"]) == [0.0, 0.0]


def test_a_null_mean_shows_no_hit() -> None:
    """A mean read as NaN off the DataFrame is not above 0: the overlap check
    decides, as the query it replaces decided on a null."""
    from rankwise import _checks

    class Plan:
        metrics_shown_by_a_hit = ["ndcg"]

    class Engine:
        def read(self, result, columns):
            return list(zip(*(result[column].tolist() for column in columns)))

    means = pd.DataFrame({"metric": ["ndcg", "precision"], "value": [float("nan"), 0.5]})
    assert not _checks.shows_a_hit(Engine(), means, Plan())
    assert _checks.shows_a_hit(Engine(), means.assign(value=[0.25, 0.0]), Plan())
    assert not _checks.shows_a_hit(Engine(), means.assign(value=[0.0, 0.5]), Plan())


@pytest.mark.parametrize("output", ["pandas", "arrow", "relation"])
def test_the_coverage_warning_without_groups_is_still_given(output) -> None:
    """Read off the DataFrame of the means, or off the Arrow table a relation
    returned on `con` (as the command line asks for) was computed into."""
    con = duckdb.connect() if output == "relation" else None
    found = _warnings_of(RECOMMENDATIONS.head(2), INTERACTIONS, ["ndcg@2"], output=output, con=con)
    assert found == ["rankwise: the evaluation has lists for 1 of the 3 users with ground truth; the others score 0 "
                     "in its means."]
    assert _warnings_of(RECOMMENDATIONS, INTERACTIONS.head(2), ["ndcg@2"], output=output, con=con) == []


@pytest.mark.parametrize("output", ["pandas", "arrow", "polars"])
def test_nothing_is_left_on_a_callers_connection(output) -> None:
    if output == "polars":
        pytest.importorskip("polars")
    con = duckdb.connect()
    before = con.execute("select count(*) from duckdb_views() where not internal").fetchall()
    _warnings_of(RECOMMENDATIONS.head(2), INTERACTIONS, ["ndcg@2"], con=con, output=output)
    rankwise.compare(RECOMMENDATIONS.assign(model=["a", "a", "b", "b"]), INTERACTIONS, ["ndcg@2"], con=con,
                     output=output)
    assert con.execute("select count(*) from duckdb_views() where not internal").fetchall() == before


def _coverage_warnings(means: pd.DataFrame, group_by: list[str], partition_by: list[str], users) -> list[tuple]:
    from rankwise._render import renderer

    con = duckdb.connect()
    con.register("rw_means_given", means)
    query = renderer("duckdb").call("_python_check_query", "coverage_warnings", {
        "evaluation": "rw_means_given", "group_by": group_by, "partition_by": partition_by, "users": users})
    return con.execute(query).fetchall()


def _random_means(generator, group_by: list[str], partition_by: list[str]) -> pd.DataFrame:
    """Means as evaluate returns them, of a few metrics per group and partition;
    often every count alike and no user without a list, the case the query is
    skipped in."""
    same_users, every_list = generator.random() < 0.6, generator.random() < 0.6
    n_users = int(generator.integers(0, 6))
    rows = []
    for partition in range(int(generator.integers(1, 3)) if partition_by else 1):
        for group in range(int(generator.integers(1, 4)) if group_by else 1):
            for metric in ("ndcg", "precision", "entropy"):
                group_level = metric == "entropy"
                rows.append({
                    **({"fold": partition} if partition_by else {}), **({"model": f"m{group}"} if group_by else {}),
                    "metric": metric, "k": 10,
                    "n_users": None if group_level and generator.random() < 0.5 else
                    (n_users if same_users else int(generator.integers(0, 6))),
                    "n_users_without_list": None if group_level else (0 if every_list else int(generator.integers(0, 4))),
                })
    return pd.DataFrame(rows).astype({"n_users": "Int64", "n_users_without_list": "Int64"})


def test_the_coverage_query_is_skipped_only_where_it_finds_nothing() -> None:
    """may_warn_of_coverage against the macro coverage_warnings: wherever the
    macro finds a warning, the wrapper runs its query."""
    import numpy as np

    from rankwise._checks import may_warn_of_coverage

    generator = np.random.default_rng(49)
    skipped = 0
    for _ in range(200):
        group_by = ["model"] if generator.random() < 0.6 else []
        partition_by = ["fold"] if generator.random() < 0.4 else []
        users = [generator.choice(["both", "interactions", "relevant"]).item(),
                 {"default": "interactions", "precision": "both"}][int(generator.random() < 0.2)]
        means = _random_means(generator, group_by, partition_by)
        read = list(zip(means["n_users"].astype(object).where(means["n_users"].notna(), None),
                        means["n_users_without_list"].astype("float64").tolist()))
        if not may_warn_of_coverage(read):
            skipped += 1
            assert _coverage_warnings(means, group_by, partition_by, users) == [], means
    assert skipped > 30


def test_counts_read_as_pandas_nulls_leave_the_question_to_the_query() -> None:
    from rankwise._checks import may_warn_of_coverage

    assert not may_warn_of_coverage([(3, 0), (3, 0.0), (pd.NA, pd.NA), (None, float("nan")), (7, None)])
    assert may_warn_of_coverage([(3, 0), (pd.NA, 0)])
    assert may_warn_of_coverage([(3, 0), (float("nan"), 0)])
    assert may_warn_of_coverage([(3, 0), (4, 0)])
    assert may_warn_of_coverage([(3, 1)])


MODELS = pd.DataFrame({"model": ["a", "a", "a", "b", "b", "b"], "user_id": ["u1", "u1", "u2", "u1", "u1", "u2"],
                       "item_id": ["x", "w", "y", "y", "w", "x"], "rank": [1, 2, 1, 1, 2, 1]})


@pytest.mark.parametrize(("interactions", "message"), [
    (pd.DataFrame({"user_id": ["v1", "v2"], "item_id": ["x", "y"]}), "no user id of the recommendations"),
    (pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["p", "q"]}), "no item id of the recommendations"),
])
def test_compare_refuses_tables_that_share_no_id_before_any_warning(interactions, message) -> None:
    """The overlap check of compare, after a comparison that shows no hit:
    the error still comes before the warning of the rows judged_only drops."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(NoOverlapError, match=message):
            rankwise.compare(MODELS, interactions, ["ndcg@1", "precision@1"], judged_only=True)
        with pytest.raises(NoOverlapError, match=message):
            rankwise.compare(MODELS[MODELS.model == "a"], interactions, ["ndcg@1"])
    assert [str(warning.message) for warning in caught if issubclass(warning.category, rankwise.RankwiseWarning)] == []


def test_compare_of_tables_that_share_ids_without_a_hit_compares() -> None:
    # u1 and w in both tables, w below the cutoff of both models
    interactions = pd.DataFrame({"user_id": ["u1"], "item_id": ["w"]})
    rows = rankwise.compare(MODELS, interactions, ["ndcg@1"])
    assert list(rows["mean"]) == [0.0] and list(rows["baseline_mean"]) == [0.0]


def test_compare_counts_a_hit_of_either_model() -> None:
    interactions = pd.DataFrame({"user_id": ["u1"], "item_id": ["y"]})
    rows = rankwise.compare(MODELS, interactions, ["ndcg@1"])
    assert sorted([*rows["mean"], *rows["baseline_mean"]]) == [0.0, 1.0]


def test_the_command_line_imports_no_other_commands_modules() -> None:
    """A cold `rankwise evaluate` pays for the modules of evaluate, not for
    the report's, compare's or explain's."""
    import subprocess
    import sys

    code = ("import sys, rankwise.cli; print(sorted(name for name in ('rankwise._report', 'rankwise._compare', "
            "'rankwise._explain', 'rankwise._gates') if name in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
