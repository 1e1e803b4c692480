"""The public metric macros are building blocks a dbt user calls on their own
columns: each is rendered on a table whose column names have nothing to do with
evaluate's internals and checked against the formula worked out by hand."""

from __future__ import annotations

import math

import duckdb
import pytest

from rankwise._render import renderer

# One row per user, in a user's own names: hits in the top 3, R, list length,
# sum of P@i at the relevant ranks, rank of the first relevant item, DCG, IDCG.
ROWS = [
    # user, my_hits, my_r, my_len, my_psum, my_first, my_dcg, my_idcg
    ("u1", 2, 4, 3, 1 / 1 + 2 / 3, 1, 1.5, 2.5),
    ("u2", 0, 2, 2, 0.0, None, 0.0, 1.6),
    ("u3", 1, 0, 3, 1 / 2, 2, 0.0, 0.0),
]


@pytest.fixture(scope="module")
def table() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    connection.execute(
        "create table my_lists (user_name varchar, my_hits bigint, my_r bigint, my_len bigint, my_psum double, "
        "my_first bigint, my_dcg double, my_idcg double)"
    )
    connection.executemany("insert into my_lists values (?, ?, ?, ?, ?, ?, ?, ?)", ROWS)
    return connection


def _values(connection: duckdb.DuckDBPyConnection, macro: str, *args, **kwargs) -> list[float]:
    expression = renderer().call(macro, *args, **kwargs)
    return [row[0] for row in connection.sql(f"select {expression} from my_lists order by user_name asc").fetchall()]


def _close(actual: list[float], expected: list[float]) -> None:
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert math.isclose(got, want, rel_tol=0, abs_tol=1e-12), (actual, expected)


def test_precision_at_k(table):
    _close(_values(table, "precision_at_k", "my_hits", 3), [2 / 3, 0 / 3, 1 / 3])
    # list_length: min(list length, k) in the denominator
    _close(_values(table, "precision_at_k", "my_hits", 3, "my_len", "list_length"), [2 / 3, 0 / 2, 1 / 3])


def test_recall_at_k(table):
    # u3 has no relevant item: 0, not a division by zero
    _close(_values(table, "recall_at_k", "my_hits", "my_r"), [2 / 4, 0 / 2, 0.0])


def test_f1_at_k(table):
    # 2h / (k + R)
    _close(_values(table, "f1_at_k", "my_hits", "my_r", 3), [2 * 2 / (3 + 4), 0.0, 2 * 1 / (3 + 0)])


def test_recall_cap_at_k(table):
    # hits / min(R, 3): u1 2 / min(4, 3), u2 0 / 2, u3 (R = 0) 0; no cutoff: hits / R
    _close(_values(table, "recall_cap_at_k", "my_hits", "my_r", 3), [2 / 3, 0.0, 0.0])
    _close(_values(table, "recall_cap_at_k", "my_hits", "my_r"), [2 / 4, 0.0, 0.0])


def test_judged_at_k(table):
    # my_hits stands for the judged items within the top 3, my_len for min(3, n):
    # u2's 0 judged of 2, u1's 2 of 3; an empty list scores 0, not NULL
    _close(_values(table, "judged_at_k", "my_hits", "my_len"), [2 / 3, 0 / 2, 1 / 3])
    _close(_values(table, "judged_at_k", "my_hits", "0"), [0.0, 0.0, 0.0])


def test_unjudged_at_k(table):
    # my_hits stands for the judged items within the top 3, my_len for min(3, n):
    # (min(3, n) - judged) / 3, a list shorter than 3 filled with judged slots
    _close(_values(table, "unjudged_at_k", "my_hits", "my_len", 3), [1 / 3, 2 / 3, 2 / 3])
    # the whole list: over its length
    _close(_values(table, "unjudged_at_k", "my_hits", "my_len"), [1 / 3, 2 / 2, 2 / 3])


def test_hit_rate_at_k(table):
    _close(_values(table, "hit_rate_at_k", "my_hits"), [1.0, 0.0, 1.0])


@pytest.mark.parametrize(
    ("ap_denominator", "expected"),
    [
        ("relevant", [(1 / 1 + 2 / 3) / 4, 0.0, 0.0]),
        ("min_relevant_k", [(1 / 1 + 2 / 3) / min(4, 3), 0.0, 0.0]),
        ("hits", [(1 / 1 + 2 / 3) / 2, 0.0, (1 / 2) / 1]),
        ("k", [(1 / 1 + 2 / 3) / 3, 0.0, (1 / 2) / 3]),
    ],
)
def test_average_precision_at_k(table, ap_denominator, expected):
    _close(_values(table, "average_precision_at_k", "my_psum", "my_r", 3, "my_hits", ap_denominator), expected)


def test_reciprocal_rank_at_k(table):
    _close(_values(table, "reciprocal_rank_at_k", "my_first", 3), [1 / 1, 0.0, 1 / 2])
    _close(_values(table, "reciprocal_rank_at_k", "my_first", 1), [1 / 1, 0.0, 0.0])


def test_ndcg_at_k(table):
    _close(_values(table, "ndcg_at_k", "my_dcg", "my_idcg"), [1.5 / 2.5, 0.0 / 1.6, 0.0])


def test_r_precision(table):
    # hits within the top R, over R
    _close(_values(table, "r_precision", "my_hits", "my_r"), [2 / 4, 0.0, 0.0])
    # with a cutoff, R capped at k: my_hits read as the hits within the top min(R, 3)
    _close(_values(table, "r_precision", "my_hits", "my_r", 3), [2 / 3, 0 / 2, 0.0])


def test_map_to_full_recall_at_k(table):
    _close(_values(table, "map_to_full_recall_at_k", "my_psum", "my_len"), [(1 / 1 + 2 / 3) / 3, 0.0, (1 / 2) / 3])


def test_dcg_and_idcg_at_k_aggregate_a_users_rows():
    connection = duckdb.connect()
    connection.execute("create table my_rows as select * from (values (1, 3.0), (2, 0.0), (3, 2.0)) as t(position, grade)")
    dcg = renderer().call("dcg_at_k", "position", "grade", 2)
    idcg = renderer().call("idcg_at_k", "position", "grade", 3)
    [(got_dcg, got_idcg)] = connection.sql(f"select {dcg}, {idcg} from my_rows").fetchall()
    assert math.isclose(got_dcg, 3.0 / math.log2(2), abs_tol=1e-12)
    assert math.isclose(got_idcg, 3.0 / math.log2(2) + 2.0 / math.log2(4), abs_tol=1e-12)


def test_a_cutoff_can_be_a_column_with_null_for_the_whole_list(table):
    table.execute("create or replace table my_cutoffs as select * from (values ('u1', 3), ('u2', null), ('u3', 10)) as t(user_name, my_k)")
    expression = renderer().call("precision_at_k", "l.my_hits", "c.my_k", "l.my_len")
    rows = table.sql(f"select {expression} from my_lists as l join my_cutoffs as c using (user_name) "
                     "order by user_name asc").fetchall()
    # u1: 2 hits / k 3; u2: the whole list, 0 hits / length 2; u3: 1 hit / k 10
    _close([row[0] for row in rows], [2 / 3, 0 / 2, 1 / 10])
    expression = renderer().call("average_precision_at_k", "l.my_psum", "l.my_r", "c.my_k", None, "min_relevant_k")
    rows = table.sql(f"select {expression} from my_lists as l join my_cutoffs as c using (user_name) "
                     "order by user_name asc").fetchall()
    # min(R, k): u1 min(4, 3) = 3; u2 the whole list: R = 2; u3 R = 0: 0
    _close([row[0] for row in rows], [(1 / 1 + 2 / 3) / 3, 0.0, 0.0])


def test_dcg_term_is_the_gain_at_a_rank_over_its_discount(table):
    # my_hits read as a relevance, my_len as a rank: u1 relevance 2 at rank 3,
    # u2 relevance 0 at rank 2, u3 relevance 1 at rank 3.
    _close(_values(table, "dcg_term", "my_len", "my_hits"), [2 / math.log2(4), 0.0, 1 / math.log2(4)])
    _close(_values(table, "dcg_term", "my_len", "my_hits", "exponential"), [3 / math.log2(4), 0.0, 1 / math.log2(4)])
    # only items with relevance >= 2 earn a gain
    _close(_values(table, "dcg_term", "my_len", "my_hits", "binary", 2), [1 / math.log2(4), 0.0, 0.0])


def test_bpref_term(table):
    # n in my_hits, R in my_r, N in my_len: u1 1 - min(2, 4) / min(3, 4); u2 n = 0: 1; u3 1 - min(1, 0) / min(3, 0)
    # is a division by 0, which a relevant item (R >= 1) never meets: NULL, not an error
    assert _values(table, "bpref_term", "my_hits", "my_r", "my_len")[:2] == [1 - 2 / 3, 1.0]
    # R below n and N: u1 with R = 1 above a non-relevant item scores 1 - 1 / 1
    _close(_values(table, "bpref_term", "my_hits", "1", "my_len")[:1], [0.0])


def test_rank_biased_weight(table):
    # p^(rank - 1) of each user's rank in my_first: u1 rank 1, u2 none (NULL), u3 rank 2
    assert _values(table, "rank_biased_weight", "my_first", 0.5) == [1.0, None, 0.5]


def test_rbp_at_k(table):
    # the rank-biased gain in my_psum: u1 1 + 2/3, u2 0, u3 1/2; (1 - p) times it
    _close(_values(table, "rbp_at_k", "my_psum", 0.75), [0.25 * (1 + 2 / 3), 0.0, 0.25 * 0.5])
    # normalised by 1 - p^min(R, k), R in my_r and k 3: u1 min(4, 3) = 3, u2 2, u3 R = 0 scores 0
    _close(_values(table, "rbp_at_k", "my_psum", 0.75, True, "my_r", 3),
           [0.25 * (1 + 2 / 3) / (1 - 0.75**3), 0.0, 0.0])


def test_err_stop_probability(table):
    # my_r as the relevance g of largest 4: (2^g - 1) / 16; u3's g = 0 stops no one
    _close(_values(table, "err_stop_probability", "my_r", "4"), [15 / 16, 3 / 16, 0.0])


def test_err_at_k(table):
    # one row per user here: my_psum as R at rank my_first (u2's NULL rank adds 0), reached with chance 1/2
    expression = renderer().call("err_at_k", "my_first", "my_psum", "0.5", 3)
    rows = table.sql(f"select {expression} from my_lists group by user_name order by user_name").fetchall()
    _close([row[0] for row in rows], [(1 + 2 / 3) * 0.5 / 1, 0.0, 0.5 * 0.5 / 2])


def test_rank_biased_overlap():
    # a, b, c against b, a, d, e (s = 3, l = 4, p = 0.9): a and b shared at depth 2,
    # so weight_tail = 2 (0.9^2/2 + 0.9^3/3) = 1.296 and X_s = X_l = 2:
    # 0.1/0.9 * 1.296 + 2/3 * 0.9^3 = 0.63. Two equal lists of 2: X_1 = 1 (a at depth
    # 1, tail 0.9 + 0.81/2), X_2 = 2 (b at depth 2, tail 0.81/2): 1. Nothing shared: 0.
    connection = duckdb.connect()
    connection.execute("create table my_pairs (pair_id bigint, my_tail double, my_shared bigint, my_within bigint, "
                       "my_s bigint, my_l bigint)")
    connection.executemany("insert into my_pairs values (?, ?, ?, ?, ?, ?)",
                           [(1, 1.296, 2, 2, 3, 4), (2, 0.9 + 0.81, 2, 2, 2, 2), (3, 0.0, 0, 0, 2, 5)])
    expression = renderer().call("rank_biased_overlap", "my_tail", "my_shared", "my_within", "my_s", "my_l", 0.9)
    values = [row[0] for row in connection.sql(f"select {expression} from my_pairs order by pair_id").fetchall()]
    _close(values, [0.63, 1.0, 0.0])
