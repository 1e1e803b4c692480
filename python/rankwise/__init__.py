"""rankwise: ranking and recommendation metrics as SQL.

The metric SQL lives in the dbt macros of the package; this module renders them
and runs them in DuckDB on DataFrames, Arrow tables, DuckDB relations, tables or
Parquet/CSV files.
"""

from __future__ import annotations

from ._api import evaluate, metric_names, sql
from .errors import InputError, InvalidArgumentError, RankwiseError

__version__ = "0.1.0"

__all__ = [
    "InputError",
    "InvalidArgumentError",
    "RankwiseError",
    "__version__",
    "evaluate",
    "metric_names",
    "sql",
]
