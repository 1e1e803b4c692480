"""What the wrapper tests of each engine (test_spark_wrapper.py,
test_clickhouse_wrapper.py) share: the comparison of a result with the DuckDB
path's, and the data of the coverage warnings the wrapper must give as it gives
them on DuckDB (a model with lists for one of three truth users; under
users='both', the groups are scored on different users)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

import rankwise

TOLERANCE = 1e-9
ARGUMENTS = ({}, {"users": "both"})


def assert_same_table(on_engine: pd.DataFrame, on_duckdb: pd.DataFrame, keys: list[str], engine: str) -> None:
    """The same columns and rows (matched on `keys`), every number within
    TOLERANCE, every other value equal."""
    assert list(on_engine.columns) == list(on_duckdb.columns)
    assert len(on_engine) == len(on_duckdb) > 0

    def keyed(frame: pd.DataFrame) -> dict[tuple, dict[str, Any]]:
        return {tuple(None if pd.isna(row[key]) else row[key] for key in keys): row
                for row in frame.to_dict("records")}

    engine_rows, duckdb_rows = keyed(on_engine), keyed(on_duckdb)
    assert sorted(engine_rows, key=str) == sorted(duckdb_rows, key=str)
    wrong = {}
    for key, expected in duckdb_rows.items():
        for column, want in expected.items():
            got = engine_rows[key][column]
            if pd.isna(want) or pd.isna(got):
                same = pd.isna(want) and pd.isna(got)
            elif isinstance(want, (bool, np.bool_, str)):
                same = got == want
            else:
                same = math.isclose(float(got), float(want), rel_tol=0, abs_tol=TOLERANCE)
            if not same:
                wrong[(key, column)] = (got, want)
    assert wrong == {}, f"({engine}, DuckDB) of each value that differs"


def recommendations() -> pd.DataFrame:
    return pd.DataFrame({
        "model": ["easy"] * 2 + ["full"] * 6,
        "user_id": ["u1", "u1", "u1", "u1", "u2", "u2", "u3", "u3"],
        "item_id": ["a", "b", "a", "b", "c", "d", "e", "f"],
        "rank": [1, 2, 1, 2, 1, 2, 1, 2],
    })


def interactions() -> pd.DataFrame:
    return pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "x", "y"], "rating": [1, 2, 3]})


def caught(*inputs: Any, **arguments: Any) -> list[str]:
    """The messages of the rankwise warnings evaluate gives for ndcg@2 by model."""
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        rankwise.evaluate(*inputs, ["ndcg@2"], group_by="model", **arguments)
    return [str(warning.message) for warning in found if issubclass(warning.category, rankwise.RankwiseWarning)]
