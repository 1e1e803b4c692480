"""The data of the coverage warnings that the wrapper on each engine must give as
it gives them on DuckDB (test_spark_wrapper.py, test_clickhouse_wrapper.py): a
model with lists for one of three truth users; under users='both', the groups
are scored on different users."""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

import rankwise

ARGUMENTS = ({}, {"users": "both"})


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
