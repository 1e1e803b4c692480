"""Bad input gets a rankwise error naming the table, the column, the problem, an
example and the fix, before any metric SQL runs; valid input is unchanged."""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import rankwise
from rankwise.errors import (
    ColumnTypeError,
    DuplicateRowsError,
    EmptyInputError,
    InputError,
    InvalidValueError,
    MissingColumnError,
    RankwiseError,
)


def _recommendations(**changes) -> pd.DataFrame:
    frame = pd.DataFrame(
        {"user_id": ["u1", "u1", "u1", "u2", "u2"], "item_id": ["a", "b", "c", "a", "d"], "rank": [1, 2, 3, 1, 2]}
    )
    return frame.assign(**changes)


def _interactions(**changes) -> pd.DataFrame:
    frame = pd.DataFrame({"user_id": ["u1", "u1", "u2"], "item_id": ["b", "c", "d"], "relevance": [1.0, 2.0, 3.0]})
    return frame.assign(**changes)


def _evaluate(recommendations, interactions, **kwargs):
    kwargs.setdefault("relevance_col", "relevance")
    return rankwise.evaluate(recommendations, interactions, ["ndcg@3", "map"], **kwargs)


RECS, TRUTH = "recommendations (DataFrame)", "interactions (DataFrame)"


def at(table: str, column: str | None) -> dict:
    """The attributes of an error about a table or a column as a whole."""
    return {"table": table, "column": column}


def bad(table: str, column: str, problem: str, n_rows: int, example: str) -> dict:
    """The attributes of an error about some rows' values: their problem (as
    rankwise.check names it), how many rows and the first one."""
    return {"table": table, "column": column, "problem": problem, "n_rows": n_rows, "example": example}


# (id, recommendations, interactions, options, the exact error class, part of its
# message, all of its attributes)
CASES = [
    ("missing item column", _recommendations().rename(columns={"item_id": "item"}), _interactions(), {},
     MissingColumnError, "column 'item_id' (the item id) is not in the recommendations (DataFrame). Did you mean 'item'?",
     at(RECS, "item_id")),
    ("missing relevance column", _recommendations(), _interactions().drop(columns="relevance"), {},
     MissingColumnError, "column 'relevance' (the relevance) is not in the interactions (DataFrame)",
     at(TRUTH, "relevance")),
    ("missing group column", _recommendations(), _interactions(), {"group_by": "model"},
     MissingColumnError, "column 'model' (the group_by column) is not in the recommendations",
     at(RECS, "model")),
    ("text rank", _recommendations(rank=["1", "2", "3", "1", "2"]), _interactions(), {},
     ColumnTypeError, "the rank column 'rank' of the recommendations (DataFrame) is of type VARCHAR; it must be numeric",
     at(RECS, "rank")),
    ("text relevance", _recommendations(), _interactions(relevance=["1", "2", "3"]), {},
     ColumnTypeError, "the relevance column 'relevance' of the interactions (DataFrame) is of type VARCHAR",
     at(TRUTH, "relevance")),
    ("ids of different types", _recommendations(user_id=[1, 1, 1, 2, 2]), _interactions(), {},
     ColumnTypeError, "the user id column 'user_id' is BIGINT in the recommendations (DataFrame) but VARCHAR in the interactions",
     at(TRUTH, "user_id")),
    ("empty recommendations", _recommendations().iloc[:0], _interactions(), {},
     EmptyInputError, "the recommendations (DataFrame) is empty",
     at(RECS, None)),
    ("empty interactions", _recommendations(), _interactions().iloc[:0], {},
     EmptyInputError, "the interactions (DataFrame) is empty",
     at(TRUTH, None)),
    ("null user id", _recommendations(user_id=["u1", None, "u1", "u2", "u2"]), _interactions(), {},
     InvalidValueError, "1 rows of the recommendations (DataFrame) have null user ids in column 'user_id' (for example b)",
     bad(RECS, "user_id", "null_user_id", 1, "b")),
    ("null item id", _recommendations(), _interactions(item_id=["b", None, "d"]), {},
     InvalidValueError, "1 rows of the interactions (DataFrame) have null item ids in column 'item_id' (for example u1)",
     bad(TRUTH, "item_id", "null_item_id", 1, "u1")),
    ("null rank", _recommendations(rank=[1, 2, None, 1, 2]), _interactions(), {},
     InvalidValueError, "null ranks in column 'rank'",
     bad(RECS, "rank", "null_rank", 1, "u1")),
    ("null score", _recommendations(score=[0.9, None, 0.1, 0.5, 0.4]), _interactions(), {"score_col": "score"},
     InvalidValueError, "null scores in column 'score'",
     bad(RECS, "score", "null_score", 1, "u1")),
    ("rank below one", _recommendations(rank=[0, 1, 2, 1, 2]), _interactions(), {},
     InvalidValueError, "1 rows of the recommendations (DataFrame) have ranks below 1 in column 'rank' (for example u1 / 0)",
     bad(RECS, "rank", "rank_below_one", 1, "u1 / 0")),
    ("fractional rank", _recommendations(rank=[1, 2, 2.5, 1, 2]), _interactions(), {},
     InvalidValueError, "ranks that are not whole numbers in column 'rank' (for example u1 / 2.5)",
     bad(RECS, "rank", "rank_not_integer", 1, "u1 / 2.5")),
    ("item twice in a list", _recommendations(item_id=["a", "a", "c", "a", "d"]), _interactions(), {},
     DuplicateRowsError, "2 rows of the recommendations (DataFrame) have items listed twice in one list in column 'item_id' (for example u1 / a)",
     bad(RECS, "item_id", "duplicate_item", 2, "u1 / a")),
    ("rank twice in a list", _recommendations(rank=[1, 1, 2, 1, 2]), _interactions(), {},
     DuplicateRowsError, "ranks used twice in one list in column 'rank' (for example u1 / 1)",
     bad(RECS, "rank", "duplicate_rank", 2, "u1 / 1")),
    # ranks past 63 take the exact path rather than DuckDB's bitmask of ranks
    ("large rank twice in a list", _recommendations(rank=[1, 70, 70, 1, 2]), _interactions(), {},
     DuplicateRowsError, "2 rows of the recommendations (DataFrame) have ranks used twice in one list in column 'rank' (for example u1 / 70)",
     bad(RECS, "rank", "duplicate_rank", 2, "u1 / 70")),
    ("rank twice among other lists", _recommendations(rank=[1, 2, 3, 2, 2]), _interactions(), {},
     DuplicateRowsError, "2 rows of the recommendations (DataFrame) have ranks used twice in one list in column 'rank' (for example u2 / 2)",
     bad(RECS, "rank", "duplicate_rank", 2, "u2 / 2")),
    ("interaction twice", _recommendations(), _interactions(item_id=["b", "b", "d"]), {},
     DuplicateRowsError, "(user, item) pairs listed twice in column 'item_id' (for example u1 / b): keep one row per (user, item), or pass duplicate_interactions='max'",
     bad(TRUTH, "item_id", "duplicate_interaction", 2, "u1 / b")),
    ("null relevance", _recommendations(), _interactions(relevance=[1.0, None, 3.0]), {},
     InvalidValueError, "null relevances in column 'relevance' (for example u1 / c)",
     bad(TRUTH, "relevance", "null_relevance", 1, "u1 / c")),
    ("NaN relevance", _recommendations(), pa.table({"user_id": ["u1", "u1", "u2"], "item_id": ["b", "c", "d"],
                                                   "relevance": pa.array([1.0, 2.0, math.nan], from_pandas=False)}), {},
     InvalidValueError, "NaN or infinite relevances in column 'relevance' (for example u2 / d)",
     bad("interactions (Table)", "relevance", "non_finite_relevance", 1, "u2 / d")),
    ("infinite relevance", _recommendations(), _interactions(relevance=[math.inf, 2.0, 3.0]), {},
     InvalidValueError, "NaN or infinite relevances",
     bad(TRUTH, "relevance", "non_finite_relevance", 1, "u1 / b")),
    ("negative relevance", _recommendations(), _interactions(relevance=[-1.0, 2.0, 3.0]), {},
     InvalidValueError, "negative relevances in column 'relevance' (for example u1 / b)",
     bad(TRUTH, "relevance", "negative_relevance", 1, "u1 / b")),
]


@pytest.mark.parametrize(("recommendations", "interactions", "options", "kind", "message", "attributes"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_raises_a_clear_rankwise_error(recommendations, interactions, options, kind, message,
                                                 attributes) -> None:
    with pytest.raises(RankwiseError) as raised:
        _evaluate(recommendations, interactions, **options)
    # the class itself, not a parent or a sibling (DuplicateRowsError is an InvalidValueError)
    assert type(raised.value) is kind
    text = str(raised.value)
    assert message in text
    # every attribute, and nothing else: a MissingColumnError carries no problem
    assert vars(raised.value) == attributes
    # the message names the table, the column and, for bad values, the rows
    assert attributes["table"] in text
    if attributes["column"] is not None:
        assert f"column '{attributes['column']}'" in text
    if "problem" in attributes:
        assert text.startswith(f"rankwise: {attributes['n_rows']} rows of the {attributes['table']} have ")
        assert f"(for example {attributes['example']})" in text


def test_duplicate_interactions_can_be_merged_keeping_the_highest_relevance() -> None:
    duplicated = pd.concat([_interactions(), _interactions(relevance=[0.0, 5.0, 1.0])])
    highest = _interactions(relevance=[1.0, 5.0, 3.0])
    merged = _evaluate(_recommendations(), duplicated, duplicate_interactions="max")
    pd.testing.assert_frame_equal(merged, _evaluate(_recommendations(), highest))


def test_users_in_one_table_only_are_not_an_error() -> None:
    """u2 has a list but no truth, u3 truth but no list: by default u3 counts
    (scoring 0) and is reported as without a list; with users='both' only u1."""
    interactions = _interactions(user_id=["u1", "u1", "u3"])
    table = _evaluate(_recommendations(), interactions)
    assert set(table.n_users) == {2}
    assert set(table.n_users_without_list) == {1}
    assert set(_evaluate(_recommendations(), interactions, users="both").n_users) == {1}


def test_validation_leaves_the_numbers_of_valid_input_unchanged() -> None:
    pd.testing.assert_frame_equal(
        _evaluate(_recommendations(), _interactions()), _evaluate(_recommendations(), _interactions(), validate=False)
    )


def test_a_hostile_table_name_is_quoted() -> None:
    con = duckdb.connect()
    con.from_df(_interactions()).create("truth")
    with pytest.raises(RankwiseError, match='the interactions table \'truth"; drop table truth; --\' does not exist'):
        rankwise.evaluate(_recommendations(), 'truth"; drop table truth; --', ["ndcg"], con=con)
    assert con.sql("select count(*) from truth").fetchall() == [(3,)]


def test_check_reports_every_problem_with_counts_and_examples() -> None:
    recommendations = _recommendations(item_id=["a", "a", "c", "a", "d"], rank=[1, 2, 2, 0, 1])
    report = rankwise.check(recommendations, _interactions(user_id=["u1", "u1", "u9"]), relevance_col="relevance", k=5)
    found = {(row.severity, row.problem): (row.n_rows, row.example) for row in report.itertuples()}
    assert found == {
        ("error", "duplicate_item"): (2, "u1 / a"),
        ("error", "rank_below_one"): (1, "u2 / 0"),
        ("error", "duplicate_rank"): (2, "u1 / 2"),
        ("note", "users_only_in_recommendations"): (1, "u2"),
        ("note", "users_only_in_interactions"): (1, "u9"),
        ("note", "lists_shorter_than_k"): (2, "u1"),
    }
    assert list(report.columns) == ["table", "severity", "problem", "column", "n_rows", "example", "message"]


def test_check_reports_a_missing_column_instead_of_raising() -> None:
    report = rankwise.check(_recommendations(), _interactions().rename(columns={"user_id": "user"}))
    assert report[["severity", "problem", "column"]].values.tolist() == [["error", "missing_column", "user_id"]]


def test_check_of_clean_tables_is_empty() -> None:
    assert rankwise.check(_recommendations(), _interactions(user_id=["u1", "u1", "u2"]), relevance_col="relevance").empty


def test_a_file_that_cannot_be_read_is_an_input_error(tmp_path) -> None:
    broken = tmp_path / "recs.parquet"
    broken.write_bytes(b"not a parquet file")
    with pytest.raises(InputError, match=r"the recommendations file '.*recs.parquet' cannot be read: "):
        _evaluate(str(broken), _interactions())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_duplicates_are_counted_exactly_in_lists_of_every_length(seed: int) -> None:
    """The one-pass pre-check clears lists by hash buckets and small-rank bitmasks;
    long lists collide in buckets and have ranks past 63, short ones do not. Either
    way the counts of repeated items, ranks and interactions are pandas' exact ones."""
    generator = np.random.default_rng(seed)
    recommendations, interactions = [], []
    for user in range(300):
        length = int(generator.choice([1, 5, 20, 64, 200, 700]))
        items = generator.choice(5000, size=length, replace=False)
        ranks = np.arange(1, length + 1)
        if generator.random() < 0.2:  # an item listed twice
            items[generator.integers(length)] = items[generator.integers(length)]
        if generator.random() < 0.2:  # a rank used twice
            ranks[generator.integers(length)] = ranks[generator.integers(length)]
        recommendations.append(pd.DataFrame({"user_id": user, "item_id": items, "rank": ranks}))
        truth = generator.choice(5000, size=int(generator.choice([1, 10, 300])))  # with replacement
        interactions.append(pd.DataFrame({"user_id": user, "item_id": truth, "relevance": 1.0}))
    recommendations, interactions = pd.concat(recommendations), pd.concat(interactions)
    report = rankwise.check(recommendations, interactions, relevance_col="relevance")
    found = {row.problem: row.n_rows for row in report.itertuples() if row.severity == "error"}

    def repeated(frame: pd.DataFrame, columns: list[str]) -> int:
        return int(frame.duplicated(columns, keep=False).sum())

    expected = {
        "duplicate_item": repeated(recommendations, ["user_id", "item_id"]),
        "duplicate_rank": repeated(recommendations, ["user_id", "rank"]),
        "duplicate_interaction": repeated(interactions, ["user_id", "item_id"]),
    }
    assert all(expected.values()), expected
    assert found == expected
