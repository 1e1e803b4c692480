"""The public beyond-accuracy macros of macros/beyond_accuracy/ as building blocks
a dbt user calls on their own columns: each is rendered by the wrapper's renderer
into a SELECT over a tiny literal table in DuckDB and checked against the formula
of docs/metrics.md worked by hand (the arithmetic beside each value). Each
hand-worked value is also recomputed from the raw data (the counts, the lists,
the vectors) in plain Python, so that a slip in the arithmetic cannot pass."""

from __future__ import annotations

import itertools
import math

import duckdb
import pytest

from rankwise._render import renderer


def _values(macro: str, rows: str, *args, **kwargs) -> list:
    """The macro's expression over `rows` (a SELECT with a column row_id), in row_id order."""
    expression = renderer("duckdb").call(macro, *args, **kwargs)
    return [value for (value,) in duckdb.sql(f"select {expression} from ({rows}) as t order by row_id").fetchall()]


def _close(actual: list, expected: list) -> None:
    """Equal within 1e-12; None (SQL NULL) only where None is expected."""
    assert len(actual) == len(expected), (actual, expected)
    for got, want in zip(actual, expected):
        if want is None:
            assert got is None, (actual, expected)
        else:
            assert got is not None and math.isclose(got, want, rel_tol=0, abs_tol=1e-12), (actual, expected)


def _literal_rows(columns: str, rows: list[tuple]) -> str:
    """A SELECT of the rows, numbered by row_id in their order."""
    values = ", ".join("(" + ", ".join([str(index), *map(_sql_literal, row)]) + ")" for index, row in enumerate(rows))
    return f"select * from (values {values}) as t(row_id, {columns})"


def _sql_literal(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(map(_sql_literal, value)) + "]"
    return repr(value)


# --- group-level metrics ----------------------------------------------------------

def test_catalog_coverage() -> None:
    # coverage@k = |items shown| / N
    rows = [(3, 8), (1, 6), (6, 6), (0, 5)]
    hand_worked = [3 / 8, 1 / 6, 6 / 6, 0 / 5]
    _close(hand_worked, [shown / catalog for shown, catalog in rows])
    _close(_values("catalog_coverage", _literal_rows("my_shown, my_catalog", rows), "my_shown", "my_catalog"),
           hand_worked)


def _gini(counts: list[int], n: int) -> float:
    """docs/metrics.md: sum_i (2i - n - 1) c_(i) / (n sum c) over the n items'
    counts sorted ascending, those never shown counting 0."""
    ascending = sorted([*counts, *[0] * (n - len(counts))])
    return sum((2 * i - n - 1) * count for i, count in enumerate(ascending, start=1)) / (n * sum(ascending))


def _gini_inputs(counts: list[int], catalog_size: int) -> tuple[int, int, int, int]:
    """The macro's arguments: the shown items numbered 1..m in ascending order of
    their counts, sum of position x count; the slots; m; the catalog's size."""
    ascending = sorted(counts)
    return sum(i * c for i, c in enumerate(ascending, start=1)), sum(counts), len(counts), catalog_size


GINI_CASES = [
    # exposures of the items shown, the catalog's size, the Gini index by hand
    # ascending 0 1 1 2: ((2-5)*0 + (4-5)*1 + (6-5)*1 + (8-5)*2) / (4 * 4) = 6/16
    ([1, 1, 2], 4, 6 / 16),
    # docs/metrics.md's lists abc, abd, aef @3: (-5*1 - 3*1 - 1*1 + 1*1 + 3*2 + 5*3) / (6 * 9) = 13/54
    ([1, 1, 1, 1, 2, 3], 6, 13 / 54),
    # the same @1: a alone fills the 3 slots, ascending 0 0 0 0 0 3: (5*3) / (6 * 3) = (N - 1)/N = 5/6
    ([3], 6, 5 / 6),
    # every catalog item fills as many slots: ((2-3)*2 + (4-3)*2) / (2 * 4) = 0
    ([2, 2], 2, 0.0),
]


def test_gini_index_over_the_catalog() -> None:
    _close([expected for _, _, expected in GINI_CASES], [_gini(counts, n) for counts, n, _ in GINI_CASES])
    rows = _literal_rows("my_weighted, my_slots, my_shown, my_catalog",
                         [_gini_inputs(counts, n) for counts, n, _ in GINI_CASES])
    _close(_values("gini_index", rows, "my_weighted", "my_slots", "my_shown", "my_catalog"),
           [expected for _, _, expected in GINI_CASES])


def test_gini_index_over_the_items_shown() -> None:
    """Evidently's variant (docs/metrics.md, gini_items='shown'): over the n items
    shown only, divided by (n - 1) sum c: the shown items as the catalog, n - 1 as
    the normalizer."""
    cases = [
        # 1 1 1 1 2 3: (-5 - 3 - 1 + 1 + 3*2 + 5*3) / ((6 - 1) * 9) = 13/45
        ([1, 1, 1, 1, 2, 3], 13 / 45),
        # 1 2: ((2-3)*1 + (4-3)*2) / ((2 - 1) * 3) = 1/3
        ([1, 2], 1 / 3),
        # one item shown: n - 1 = 0, no value
        ([3], None),
    ]
    for counts, expected in cases[:2]:
        n = len(counts)
        assert math.isclose(_gini(counts, n) * n / (n - 1), expected, abs_tol=1e-12)
    rows = _literal_rows("my_weighted, my_slots, my_shown, my_n", [_gini_inputs(counts, len(counts)) for counts, _ in cases])
    _close(_values("gini_index", rows, "my_weighted", "my_slots", "my_shown", "my_n", "my_n - 1"),
           [expected for _, expected in cases])


def _personalization(lists: list[str], k: int) -> float:
    """1 - the mean over the pairs of lists of their common items / k."""
    pairs = list(itertools.combinations(lists, 2))
    return 1 - sum(len(set(first) & set(second)) / k for first, second in pairs) / len(pairs)


def test_personalization_at_k() -> None:
    cases = [
        # docs/metrics.md's lists @3: a in 3 lists, b in 2: sum e(e - 1) = 3*2 + 2*1 = 8;
        # 1 - 8 / (3 * 2 * 3) = 5/9 (pairs share {a, b}, {a}, {a})
        (["abc", "abd", "aef"], 3, 5 / 9),
        # two lists, no item in common: 1 - 0 / (2 * 1 * 2) = 1
        (["ab", "cd"], 2, 1.0),
        # two equal lists: 1 - (2*1 + 2*1) / (2 * 1 * 2) = 0
        (["ab", "ab"], 2, 0.0),
        # a list shorter than k still divides by k: share {a}: 1 - 2*1 / (2 * 1 * 3) = 2/3
        (["a", "ab"], 3, 2 / 3),
    ]
    _close([expected for _, _, expected in cases], [_personalization(lists, k) for lists, k, _ in cases])
    inputs = []
    for lists, k, _ in cases:
        counts = [sum(item in shown for shown in lists) for item in set("".join(lists))]
        inputs.append((sum(e * (e - 1) for e in counts), len(lists), k))
    # and one list: no pair, no value
    inputs.append((0, 1, 3))
    rows = _literal_rows("my_pairs, my_lists, my_k", inputs)
    _close(_values("personalization_at_k", rows, "my_pairs", "my_lists", "my_k"),
           [expected for _, _, expected in cases] + [None])
    # the cutoff as a number, not a column
    _close(_values("personalization_at_k", _literal_rows("my_pairs, my_lists", [(8, 3)]), "my_pairs", "my_lists", 3),
           [5 / 9])


# --- list-level metrics: one value per item ----------------------------------------

@pytest.mark.parametrize(
    ("unseen", "unseen_value"),
    [
        ("one", math.log2(5 / 1)),  # as one user of 5: -log2(1/5)
        ("dropped", None),  # no value: a mean leaves it out
        ("zero", 0.0),
    ],
    ids=["one", "dropped", "zero"],
)
def test_item_novelty(unseen: str, unseen_value) -> None:
    # docs/metrics.md: train users of a..e 4, 2, 1, 1, 1 of 5 and none of f; -log2(u_j / u)
    rows = [(4, 5), (2, 5), (1, 5), (None, 5)]
    hand_worked = [math.log2(5 / 4), math.log2(5 / 2), math.log2(5), unseen_value]
    _close(hand_worked[:3], [-math.log2(users / 5) for users, _ in rows[:3]])
    _close(_values("item_novelty", _literal_rows("my_users, my_train", rows), "my_users", "my_train", unseen),
           hand_worked)


def test_item_novelty_defaults_to_one_user() -> None:
    _close(_values("item_novelty", _literal_rows("my_users, my_train", [(None, 8)]), "my_users", "my_train"),
           [3.0])  # -log2(1/8)


def test_item_serendipity() -> None:
    """docs/metrics.md: a catalog of N = 6, popularity ranks a 1, b and e 2, c and
    d 3, none for f; rel * max(0, (N + 1 - rank)/N - (N + 1 - prank)/N)."""
    rows = [
        # item, rank, popularity rank, relevant
        ("c", 1, 3, 1),  # 6/6 - 4/6 = 1/3
        ("a", 2, 1, 0),  # not relevant: 0
        ("b", 3, 2, 1),  # max(0, 4/6 - 5/6) = 0
        ("f", 2, None, 1),  # nobody in train: 5/6 - 0 = 5/6
        ("a", 1, 1, 1),  # as likely as popularity makes it: 6/6 - 6/6 = 0
    ]
    hand_worked = [1 / 3, 0.0, 0.0, 5 / 6, 0.0]
    n = 6
    _close(hand_worked, [relevant * max(0.0, (n + 1 - rank) / n - ((n + 1 - prank) / n if prank else 0.0))
                         for _, rank, prank, relevant in rows])
    _close(_values("item_serendipity", _literal_rows("my_item, my_rank, my_prank, my_relevant", rows),
                   "my_rank", "my_prank", 6, "my_relevant"), hand_worked)
    # the docs' list c a b: (1/3 + 0 + 0) / 3 = 1/9; the list a f: (0 + 5/6) / 2 = 5/12
    assert math.isclose(sum(hand_worked[:3]) / 3, 1 / 9) and math.isclose((hand_worked[4] + hand_worked[3]) / 2, 5 / 12)


# --- distances of two items ---------------------------------------------------------

def test_cosine_distance() -> None:
    pairs = [
        ((1, 0), (1, 1)),  # 1 - 1 / (1 * sqrt 2)
        ((1, 0), (0, 1)),  # orthogonal: 1 - 0 = 1
        ((1, 0), (-1, 0)),  # opposite: 1 - (-1) = 2
        ((2, 0), (1, 0)),  # one direction: 1 - 2 / (2 * 1) = 0
        ((0, 0), (1, 0)),  # a zero vector has no direction: no value
    ]
    hand_worked = [1 - 1 / math.sqrt(2), 1.0, 2.0, 0.0, None]
    rows = [(sum(a * b for a, b in zip(first, second)), math.hypot(*first), math.hypot(*second))
            for first, second in pairs]
    _close(hand_worked[:4], [1 - dot / (first * second) for dot, first, second in rows[:4]])
    _close(_values("cosine_distance", _literal_rows("my_dot, my_norm_a, my_norm_b", rows), "my_dot", "my_norm_a",
                   "my_norm_b"), hand_worked)


def test_hamming_distance() -> None:
    rows = [
        # genre and era of the first item, of the second
        ("x", 1, "x", 2),  # the eras differ: 1
        ("x", 1, "y", 2),  # both differ: 2
        ("x", 1, "x", 1),  # 0
        (None, 1, None, 1),  # two NULLs are equal: 0
        (None, 1, "x", 1),  # NULL and a value differ: 1
    ]
    hand_worked = [1.0, 2.0, 0.0, 0.0, 1.0]
    _close(hand_worked, [float((g1 != g2) + (e1 != e2)) for g1, e1, g2, e2 in rows])
    _close(_values("hamming_distance", _literal_rows("genre_a, era_a, genre_b, era_b", rows), ["genre_a", "era_a"],
                   ["genre_b", "era_b"]), hand_worked)


def test_cooccurrence_distance() -> None:
    # train: u1 saw a and b, u2 and u3 a only, u4 c only
    train = {"u1": {"a", "b"}, "u2": {"a"}, "u3": {"a"}, "u4": {"c"}}

    def users(*items: str) -> int | None:
        count = sum(all(item in seen for item in items) for seen in train.values())
        return count or None

    pairs = [("a", "b"), ("a", "c"), ("b", "b"), ("a", "z")]
    hand_worked = [
        1 - 1 / math.sqrt(3 * 1),  # both 1 (u1), a 3, b 1
        1.0,  # never together
        0.0,  # an item with itself: 1 - 1 / sqrt(1 * 1)
        1.0,  # z never seen
    ]
    rows = [(users(first, second), users(first), users(second)) for first, second in pairs]
    assert rows == [(1, 3, 1), (None, 3, 1), (1, 1, 1), (None, 3, None)]
    _close(hand_worked, [1 - (both or 0) / math.sqrt((first or 0) * (second or 0)) if both else 1.0
                         for both, first, second in rows])
    _close(_values("cooccurrence_distance", _literal_rows("my_both, my_first, my_second", rows), "my_both",
                   "my_first", "my_second"), hand_worked)


# --- arrays -----------------------------------------------------------------------

def test_vector_dot_product() -> None:
    rows = [
        ([1, 2, 3], [4, 5, 6]),  # 1*4 + 2*5 + 3*6 = 32, integers summed as 64-bit floats
        ([1.5, -2.0], [2.0, 0.5]),  # 3 - 1 = 2
        ([0.1, 0.2], [0.3, 0.4]),  # 0.03 + 0.08 = 0.11
    ]
    hand_worked = [32.0, 2.0, 0.11]
    _close(hand_worked, [sum(a * b for a, b in zip(first, second)) for first, second in rows])
    values = _values("vector_dot_product", _literal_rows("my_a, my_b", rows), "my_a", "my_b")
    assert all(isinstance(value, float) for value in values)
    _close(values, hand_worked)


def test_vector_length() -> None:
    rows = [([1.0, 2.0, 3.0],), ([5.0],), ([1.0, None],)]
    hand_worked = [3, 1, 2]  # a NULL element is an element
    assert hand_worked == [len(vector) for (vector,) in rows]
    assert _values("vector_length", _literal_rows("my_vector", rows), "my_vector") == hand_worked
