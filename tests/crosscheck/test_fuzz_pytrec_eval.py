"""Fuzzing rankwise against trec_eval's own C code (pytrec_eval).

Each hypothesis example is one evaluation of up to 60 users, and each user is an
independent example: its list and its truth are drawn on their own. One
rankwise call (about 0.1 s of fixed cost) so checks many cases at once. The
cases have text ids that are hostile (Unicode with combining marks, RTL marks
and emoji; quotes, backslashes, SQL; whitespace only; the empty string; 1,000+
characters; spellings that differ only in case, normal form or a space, which
must stay apart), or int64 ids up to the extremes; scores that tie or sit at the
edges of the doubles; graded relevance with truths that have no relevant item;
users on one side only; several cutoffs, up to k = 2^63 - 1. Each table comes in
one of the input types (pandas, pandas Categorical, polars, pyarrow, a DuckDB
relation or table on the `con` passed, a Parquet or CSV file), drawn on its own.

Every trec_eval measure that rankwise has is compared per user to 1e-9 under
rankwise's trec_eval convention with users='both' (trec_eval's population), and
the means with users='interactions' against trec_eval -c's (a judged query
without a run counts 0).

How many: `make test` runs DEFAULT_EXAMPLES (100) examples, derandomized so that
every run checks the same cases: about 2,000 users, 1,400 of them compared per
user, in about a minute of one core. For more, set RANKWISE_FUZZ_EXAMPLES:

    RANKWISE_FUZZ_EXAMPLES=5000 pytest tests/crosscheck/test_fuzz_pytrec_eval.py

That run draws new cases each time (a random seed) and hypothesis' example
database (.hypothesis/) replays a failure on the next run.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import uuid
from collections.abc import Iterator
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import pytrec_eval
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st

import rankwise
from rankwise.errors import NoOverlapError

from .strategies import FuzzCase, fuzz_cases

DEFAULT_EXAMPLES = 100
_ON_DEMAND = os.environ.get("RANKWISE_FUZZ_EXAMPLES")
settings.register_profile(
    "rankwise-fuzz",
    max_examples=int(_ON_DEMAND) if _ON_DEMAND else DEFAULT_EXAMPLES,
    derandomize=not _ON_DEMAND,
    deadline=None,
    # The explain phase reruns a failing case hundreds of times to list lines;
    # the minimal case is what a report needs.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    # A case of 60 users with 1,000-character ids is large and slow on purpose.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
FUZZ = settings.get_profile("rankwise-fuzz")

# rankwise metric -> trec_eval measure; at a cutoff it is "<measure>_<k>"
AT_K = {"precision": "P", "recall": "recall", "map": "map_cut", "ndcg": "ndcg_cut", "hit_rate": "success"}
WHOLE_LIST = {"map": "map", "mrr": "recip_rank", "ndcg": "ndcg", "r_precision": "Rprec",
              "precision": "set_P", "recall": "set_recall", "f1": "set_F", "bpref": "bpref"}
# per-user components of a whole-list row -> trec_eval's counts
COMPONENTS = {"n_relevant": "num_rel", "n_recommended": "num_ret", "hits": "num_rel_ret"}

INPUT_TYPES = ["pandas", "pandas categorical", "polars", "arrow", "relation", "table", "parquet", "csv"]
NEEDS_CON = {"relation", "table"}
# Table names on `con` that need quoting; rankwise must quote them, not paste them.
TABLE_NAMES = ["fuzz", "Fuzz Table", 'we"ird', "select", "\u00e9t\u00e9 \U0001f600"]
CUTOFFS = st.one_of(st.integers(1, 25), st.sampled_from([1, 1000, 2**31, 2**62, 2**63 - 3, 2**63 - 2]))


# --- trec_eval's side ---------------------------------------------------------

def _qid(user: Any) -> str:
    return str(user)


def _docno(item: Any) -> str:
    """trec_eval's document id. trec_eval breaks ties by strcmp on it; rankwise
    orders integer ids numerically (docs/metrics.md), so an int64 id becomes a
    fixed-width hex string in the same order. Text ids go as they are: strcmp
    compares UTF-8 bytes, which order strings as Python and DuckDB do."""
    return f"{item + 2**63:016x}" if isinstance(item, int) else item


def _trec_scores(scored: dict[str, float]) -> dict[str, float]:
    """The scores trec_eval is given for one list. trec_eval stores a score as a
    float32 (`float sim` in its TEXT_RESULTS), where 1e300 is inf, 5e-324 is 0 and
    0.30000001 equals 0.30000002, so such scores tie there and are ordered by
    document id, while rankwise compares the float64 values, as documented in
    docs/metrics.md (issue #21, point 10). Where the two orders agree, trec_eval
    gets the scores themselves. Where they differ, asserting on trec_eval's
    float32 order would test the known difference, so trec_eval gets each score's
    dense rank in the float64 order instead: small integers, exact in float32,
    in the same order with the same ties, and its measures are still checked on
    that list."""
    order64 = sorted(scored, key=lambda doc: (scored[doc], doc), reverse=True)
    with np.errstate(over="ignore"):
        as_float32 = {doc: float(np.float32(score)) for doc, score in scored.items()}
    order32 = sorted(scored, key=lambda doc: (as_float32[doc], doc), reverse=True)
    if order32 == order64:
        return scored
    event("float32 order differs: trec_eval gets the float64 order as ranks")
    distinct = sorted(set(scored.values()))
    return {doc: float(distinct.index(score)) for doc, score in scored.items()}


def _trec_eval(case: FuzzCase, cutoffs: list[int], threshold: int) -> tuple[dict, dict]:
    """trec_eval's per-query values, and its qrels (the users of -c's mean)."""
    run: dict[str, dict[str, float]] = {}
    for user, item, score in case.recommendations:
        run.setdefault(_qid(user), {})[_docno(item)] = score
    run = {query: _trec_scores(scored) for query, scored in run.items()}
    qrels: dict[str, dict[str, int]] = {}
    for user, item, relevance in case.interactions:
        qrels.setdefault(_qid(user), {})[_docno(item)] = relevance
    # One evaluator per cutoff: trec_eval sorts a measure's cutoffs with a
    # comparator that returns their difference as an int (`comp_long`), so
    # cutoffs 2^31 or more apart are misordered and P_1 gets another cutoff's
    # value (P_1 and P_4611686018427387904 together give P_1 = 1.0 where P_1
    # alone is 0.0).
    per_query: dict[str, dict[str, float]] = {}
    for measures in [set(WHOLE_LIST.values()) | set(COMPONENTS.values())] + [
        {f"{measure}_{k}" for measure in AT_K.values()} for k in cutoffs
    ]:
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=threshold)
        for query, values in evaluator.evaluate(run).items():
            per_query.setdefault(query, {}).update(values)
    return per_query, qrels


# --- rankwise's inputs ----------------------------------------------------------

def _arrow_table(rows: list[tuple], kinds: tuple[str, str], value: str, value_type: pa.DataType,
                 string_type: pa.DataType) -> pa.Table:
    id_type = {"text": string_type, "int": pa.int64()}
    columns = list(zip(*rows))
    return pa.table({
        "user_id": pa.array(columns[0], id_type[kinds[0]]),
        "item_id": pa.array(columns[1], id_type[kinds[1]]),
        value: pa.array(columns[2], value_type),
    })


def _csv_round_trips(path: str, table: pa.Table) -> bool:
    """Whether DuckDB's CSV sniffer reads back the table written: the same
    columns and values, each column of the same kind. It reads '' as NULL, a
    column whose ids all look like numbers or dates as that type, and some ids
    make it guess another delimiter; rankwise reads a CSV path with
    read_csv's defaults, so such ids cannot be given as CSV."""
    back = duckdb.read_csv(path).to_arrow_table()
    if back.column_names != table.column_names:  # ids that make it guess another delimiter or no header
        return False
    for name in table.column_names:
        wrote, read = table.column(name), back.column(name)
        same_kind = (pa.types.is_integer(wrote.type) == pa.types.is_integer(read.type)
                     and pa.types.is_floating(wrote.type) == pa.types.is_floating(read.type))
        if not same_kind or wrote.to_pylist() != read.to_pylist():
            return False
    return True


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _as_input(table: pa.Table, input_type: str, con: duckdb.DuckDBPyConnection | None, directory: str,
              role: str, table_name: str) -> Any:
    if input_type == "pandas":
        return table.to_pandas()
    if input_type == "pandas categorical":
        frame = table.to_pandas()
        return frame.astype({"user_id": "category", "item_id": "category"})
    if input_type == "polars":
        return pl.from_arrow(table)
    if input_type == "arrow":
        return table
    if input_type == "relation":
        return con.from_arrow(table)
    if input_type == "table":
        name = f"{table_name} {role}"
        con.register("fuzz_source", table)
        con.execute(f"create table {_quoted(name)} as select * from fuzz_source")
        con.unregister("fuzz_source")
        return name
    path = os.path.join(directory, f"{role}.{'csv' if input_type == 'csv' else 'parquet'}")
    if input_type == "csv":
        duckdb.from_arrow(table).write_csv(path)
        if _csv_round_trips(path, table):
            event("csv file")
            return path
        event("csv: ids do not survive the sniffer, parquet instead")
        path = os.path.join(directory, f"{role}.parquet")
    pq.write_table(table, path)
    return path


@contextlib.contextmanager
def _scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory = tmp_path_factory.getbasetemp() / f"fuzz-{uuid.uuid4().hex}"
    directory.mkdir()
    try:
        yield str(directory)
    finally:
        shutil.rmtree(directory)


# --- the test --------------------------------------------------------------------

def _measure(metric: str, k: Any) -> str:
    return WHOLE_LIST[metric] if pd.isna(k) else f"{AT_K[metric]}_{int(k)}"


def _example(recommendations: list[tuple], interactions: list[tuple], cutoffs: list[int],
             input_types: tuple[str, str] = ("pandas", "pandas")) -> Any:
    """A case checked on every run, before the random ones."""
    kinds = tuple("int" if isinstance(recommendations[0][i], int) else "text" for i in (0, 1))
    return example(case=FuzzCase(recommendations, interactions, *kinds), cutoffs=cutoffs, threshold=1,
                   input_types=input_types, string_type=pa.string(), relevance_type=pa.int64(), pass_con=False,
                   table_name="fuzz")


@FUZZ
# Ids that differ only in case, Unicode normal form or a trailing space, and
# int64 ids that are one number as float64, through a CSV file each.
@_example([("B", "e\u0301", 1.0), ("B", "\u00e9", 1.0), ("b", "x ", 0.5), ("b", "x", 0.5)],
          [("B", "\u00e9", 1), ("b", "x", 2), ("b", "X", 3)], [1], ("csv", "csv"))
@_example([(2**53, 2**53 + 1, 0.5), (2**53, 2**53, 0.5), (2**53 + 1, -(2**63), 0.0)],
          [(2**53, 2**53, 1), (2**53 + 1, 2**63 - 1, 1)], [1], ("csv", "parquet"))
# The oracle's trap: trec_eval misorders cutoffs 2^31 or more apart.
@_example([("u", "", 0.0), ("u", " ", 0.0)], [("u", "", 1)], [1, 2**62])
# The largest cutoff rankwise takes (2^63 - 1, the largest BIGINT, stands for the
# whole list), beside the whole-list metrics.
@_example([("u", "a", 0.0)], [("u", "a", 1)], [2**63 - 2])
# A cutoff whose sum with the number of relevant items passes 2^63 - 1.
@_example([("u", "a", 0.0)], [("u", "a", 1), ("u", "b", 1)], [2**63 - 3])
# Tables that share a user and no item (no relevant item either): refused.
@_example([(-(2**63), -(2**63) + 1, 0.0)], [(-(2**63), -(2**63), 0)], [1])
# Categorical ids whose category text holds '[' (DuckDB's ENUM type string lists it).
@_example([("[", "Song [Live]", 1.0)], [("[", "Song [Live]", 1)], [1], ("pandas categorical", "pandas"))
@given(
    case=fuzz_cases(),
    cutoffs=st.lists(CUTOFFS, min_size=1, max_size=3, unique=True),
    threshold=st.sampled_from([1, 2, 3]),
    input_types=st.tuples(st.sampled_from(INPUT_TYPES), st.sampled_from(INPUT_TYPES)),
    string_type=st.sampled_from([pa.string(), pa.large_string(), pa.string_view()]),
    relevance_type=st.sampled_from([pa.int64(), pa.int32(), pa.float64()]),
    pass_con=st.booleans(),
    table_name=st.sampled_from(TABLE_NAMES),
)
def test_every_user_matches_trec_eval(
    tmp_path_factory: pytest.TempPathFactory, case: FuzzCase, cutoffs: list[int], threshold: int,
    input_types: tuple[str, str], string_type: pa.DataType, relevance_type: pa.DataType, pass_con: bool,
    table_name: str,
) -> None:
    per_query, qrels = _trec_eval(case, cutoffs, threshold)
    kinds = (case.user_ids, case.item_ids)
    recommendations = _arrow_table(case.recommendations, kinds, "score", pa.float64(), string_type)
    interactions = _arrow_table(case.interactions, kinds, "relevance", relevance_type, string_type)
    metrics = [f"{metric}@{k}" for metric in AT_K for k in cutoffs] + list(WHOLE_LIST)

    con = duckdb.connect() if pass_con or NEEDS_CON & set(input_types) else None
    with _scratch(tmp_path_factory) as directory, (contextlib.closing(con) if con else contextlib.nullcontext()):
        inputs = [_as_input(table, input_type, con, directory, role, table_name)
                  for table, input_type, role in zip((recommendations, interactions), input_types,
                                                     ("recommendations", "interactions"))]
        arguments = dict(score_col="score", relevance_col="relevance", relevance_threshold=threshold,
                         convention="trec_eval", con=con)
        # Tables that share no user or no item: rankwise refuses them (the ids are
        # likely written differently), where trec_eval scores every list 0.
        shared_users = {user for user, _, _ in case.recommendations} & {user for user, _, _ in case.interactions}
        shared_items = {item for _, item, _ in case.recommendations} & {item for _, item, _ in case.interactions}
        if not shared_users or not shared_items:
            event("no shared user or item: refused")
            with pytest.raises(NoOverlapError, match="so no list can be judged"):
                rankwise.evaluate(*inputs, metrics, users="both", per_user=True, **arguments)
            return
        per_user = rankwise.evaluate(*inputs, metrics, users="both", per_user=True, **arguments)
        means = rankwise.evaluate(*inputs, metrics, users="interactions", **arguments)

    actual: dict[str, dict[str, float]] = {}
    for row in per_user.itertuples(index=False):
        values = actual.setdefault(_qid(row.user_id), {})
        values[_measure(row.metric, row.k)] = row.value
        if pd.isna(row.k):
            for column, measure in COMPONENTS.items():
                values[measure] = getattr(row, column)
    assert set(actual) == set(per_query), "users='both' is the users in both tables"
    assert len(per_user) == len(per_query) * len(metrics), "one row per user and metric"
    wrong = [
        (query, measure, expected, actual[query].get(measure))
        for query, expected_values in per_query.items()
        for measure, expected in expected_values.items()
        if not math.isclose(actual[query].get(measure, math.nan), expected, rel_tol=0, abs_tol=1e-9)
    ]
    assert not wrong, f"(user, measure, trec_eval, rankwise): {wrong[:10]}"

    # trec_eval -c: the mean over every judged query, 0 for one without a run.
    assert len(means) == len(metrics)
    for row in means.itertuples(index=False):
        measure = _measure(row.metric, row.k)
        expected = sum(per_query.get(query, {}).get(measure, 0.0) for query in qrels) / len(qrels)
        assert row.n_users == len(qrels), measure
        assert math.isclose(row.value, expected, rel_tol=0, abs_tol=1e-9), (measure, row.value, expected)
