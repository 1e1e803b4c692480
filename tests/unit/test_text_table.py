"""The table the command line prints: columns right-aligned under their
names, a column's floats to one number of decimals, NULL as NULL."""

from __future__ import annotations

import pandas as pd

from rankwise._text_table import frame_text, text_table


def test_columns_are_right_aligned_under_their_names() -> None:
    printed = text_table(["metric", "k", "n_users"], [("precision", 10, 971), ("map", 5, 3)])
    assert printed.splitlines() == ["   metric  k n_users",
                                    "precision 10     971",
                                    "      map  5       3"]


def test_a_columns_floats_keep_the_decimals_one_of_them_needs() -> None:
    printed = text_table(["value"], [(0.5,), (0.25,), (1.0,)])
    assert printed.splitlines() == ["value", " 0.50", " 0.25", " 1.00"]
    assert text_table(["value"], [(1 / 3,), (0.0,)]).splitlines() == ["   value", "0.333333", "0.000000"]
    assert text_table(["value"], [(2.0,), (0.0,)]).splitlines() == ["value", "  2.0", "  0.0"]


def test_floats_too_small_or_too_large_for_six_decimals_are_in_scientific_notation() -> None:
    assert text_table(["p"], [(2.5e-9,), (0.5,)]).splitlines() == ["           p", "2.500000e-09", "5.000000e-01"]
    assert text_table(["dcg"], [(1e16,)]).splitlines() == ["         dcg", "1.000000e+16"]


def test_missing_values_print_as_null_and_nan_as_nan() -> None:
    printed = text_table(["k", "value", "clipped"], [(None, float("nan"), None), (10, 0.5, True)])
    assert printed.splitlines() == ["   k value clipped",
                                    "NULL   NaN    NULL",
                                    "  10   0.5    True"]


def test_a_table_without_rows_prints_its_names() -> None:
    assert text_table(["metric", "value"], []) == "metric value"


def test_a_dataframe_prints_as_the_rows_it_holds() -> None:
    frame = pd.DataFrame({"metric": ["ndcg", "r_precision"], "k": pd.array([10, None], dtype="Int32"),
                          "value": [0.318254, None], "clipped": pd.array([False, None], dtype="boolean")})
    assert frame_text(frame) == text_table(["metric", "k", "value", "clipped"],
                                           [("ndcg", 10, 0.318254, False), ("r_precision", None, None, None)])
